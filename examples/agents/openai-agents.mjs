// An agent written with the OpenAI Agents SDK (@openai/agents 0.14), as `toolsim run
// --agent-cmd` runs it (serve the tools with --schema-profile openai-strict): toolsim's MCP
// URL, the session and the user's message come in the environment; the answer goes to the
// file toolsim names.
import { readFileSync, writeFileSync } from "node:fs";
import { Agent, MCPServerStreamableHttp, OpenAIChatCompletionsModel, run } from "@openai/agents";
import OpenAI from "openai";

const env = process.env;
const toolsim = new MCPServerStreamableHttp({
  name: "toolsim",
  url: env.TOOLSIM_MCP_URL,
  requestInit: { headers: { "X-Toolsim-Session": env.TOOLSIM_SESSION } },
});
await toolsim.connect();
try {
  const agent = new Agent({
    name: "Assistant",
    instructions: "Use the tools to do what the user asks, then report what you did.",
    // OPENAI_API_KEY and OPENAI_BASE_URL from the environment
    model: new OpenAIChatCompletionsModel(new OpenAI(), "gpt-4.1-mini"),
    mcpServers: [toolsim],
    mcpConfig: { convertSchemasToStrict: true },
  });
  const history = JSON.parse(readFileSync(env.TOOLSIM_HISTORY_FILE, "utf8"));
  const input = [...history, { role: "user", content: env.TOOLSIM_PROMPT }].map((message) =>
    message.role === "assistant"
      ? { role: "assistant", status: "completed", content: [{ type: "output_text", text: message.content }] }
      : message,
  );
  const result = await run(agent, input, { maxTurns: 20 });
  writeFileSync(env.TOOLSIM_ANSWER_FILE, String(result.finalOutput ?? ""));
} finally {
  await toolsim.close();
}
