// An agent written with Mastra (@mastra/core 0.24, @mastra/mcp 0.14), as `toolsim run
// --agent-cmd` runs it (serve the tools with --schema-profile openai-strict): toolsim's MCP
// URL, the session and the user's message come in the environment; the answer goes to the
// file toolsim names.
import { readFileSync, writeFileSync } from "node:fs";
import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";

const env = process.env;
const toolsim = new MCPClient({
  id: `toolsim-${env.TOOLSIM_SESSION}`,
  servers: {
    toolsim: {
      url: new URL(env.TOOLSIM_MCP_URL),
      requestInit: { headers: { "X-Toolsim-Session": env.TOOLSIM_SESSION } },
    },
  },
});
try {
  const agent = new Agent({
    name: "Assistant",
    instructions: "Use the tools to do what the user asks, then report what you did.",
    model: { id: "openai/gpt-4.1-mini", url: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY },
    tools: await toolsim.getTools(),
  });
  const history = JSON.parse(readFileSync(env.TOOLSIM_HISTORY_FILE, "utf8"));
  const result = await agent.generate([...history, { role: "user", content: env.TOOLSIM_PROMPT }], {
    maxSteps: 20,
  });
  writeFileSync(env.TOOLSIM_ANSWER_FILE, result.text);
} finally {
  await toolsim.disconnect();
}
