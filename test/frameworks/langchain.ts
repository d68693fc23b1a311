// LangChain (@langchain/mcp-adapters 1, LangGraph's prebuilt agent): serve toolsim with
// --schema-profile portable, which LangChain's schema simplification leaves intact.
// docs/frameworks.md shows this file.
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";

/** toolsim as a child process: `command` and `args` start `toolsim serve --stdio --schema-profile portable ...`. */
export function toolsimOverStdio(command: string, args: string[]): MultiServerMCPClient {
  return new MultiServerMCPClient({ mcpServers: { toolsim: { transport: "stdio", command, args } } });
}

/** A running `toolsim serve --schema-profile portable`, with a session of your own named by the header. */
export function toolsimOverHttp(url: string, session: string): MultiServerMCPClient {
  return new MultiServerMCPClient({
    mcpServers: { toolsim: { transport: "http", url, headers: { "X-Toolsim-Session": session } } },
  });
}

/** One agent run: LangGraph's ReAct agent calls toolsim's tools until it answers. */
export async function runAgent(
  toolsim: MultiServerMCPClient,
  prompt: string,
  openaiBaseURL?: string,
): Promise<string> {
  try {
    const agent = createReactAgent({
      llm: new ChatOpenAI({ model: "gpt-4.1-mini", configuration: { baseURL: openaiBaseURL } }),
      tools: await toolsim.getTools(),
    });
    const { messages } = await agent.invoke({ messages: [{ role: "user", content: prompt }] });
    return String(messages[messages.length - 1]?.content ?? "");
  } finally {
    await toolsim.close();
  }
}
