// An agent written with LangChain (@langchain/mcp-adapters 1, LangGraph's prebuilt ReAct
// agent, @langchain/openai), as `toolsim run --agent-cmd` runs it (serve the tools with
// --schema-profile portable): toolsim's MCP URL, the session and the user's message come in
// the environment; the answer goes to the file toolsim names.
import { readFileSync, writeFileSync } from "node:fs";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";

const env = process.env;
const toolsim = new MultiServerMCPClient({
  mcpServers: {
    toolsim: {
      transport: "http",
      url: env.TOOLSIM_MCP_URL,
      headers: { "X-Toolsim-Session": env.TOOLSIM_SESSION },
    },
  },
});
try {
  // OPENAI_API_KEY and OPENAI_BASE_URL from the environment
  const agent = createReactAgent({
    llm: new ChatOpenAI({ model: "gpt-4.1-mini" }),
    tools: await toolsim.getTools(),
  });
  const history = JSON.parse(readFileSync(env.TOOLSIM_HISTORY_FILE, "utf8"));
  const { messages } = await agent.invoke(
    { messages: [...history, { role: "user", content: env.TOOLSIM_PROMPT }] },
    { recursionLimit: 40 },
  );
  writeFileSync(env.TOOLSIM_ANSWER_FILE, String(messages.at(-1)?.content ?? ""));
} finally {
  await toolsim.close();
}
