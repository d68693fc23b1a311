// An agent written with the Vercel AI SDK (ai 6, @ai-sdk/mcp 1, @ai-sdk/openai 3), as
// `toolsim run --agent-cmd` runs it: toolsim's MCP URL, the session to work in and the
// user's message come in the environment; the answer goes to the file toolsim names.
import { readFileSync, writeFileSync } from "node:fs";
import { createMCPClient } from "@ai-sdk/mcp";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";

const env = process.env;
const toolsim = await createMCPClient({
  transport: {
    type: "http",
    url: env.TOOLSIM_MCP_URL,
    headers: { "X-Toolsim-Session": env.TOOLSIM_SESSION },
  },
});
try {
  const openai = createOpenAI(); // OPENAI_API_KEY and OPENAI_BASE_URL from the environment
  const { text } = await generateText({
    model: openai.chat("gpt-4.1-mini"),
    tools: await toolsim.tools(),
    stopWhen: stepCountIs(20),
    // what was said before (a task in turns, the judge's feedback), then this message
    messages: [
      ...JSON.parse(readFileSync(env.TOOLSIM_HISTORY_FILE, "utf8")),
      { role: "user", content: env.TOOLSIM_PROMPT },
    ],
  });
  writeFileSync(env.TOOLSIM_ANSWER_FILE, text);
} finally {
  await toolsim.close();
}
