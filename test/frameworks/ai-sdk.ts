// The Vercel AI SDK (ai 6 + @ai-sdk/mcp 1): toolsim's tools as AI SDK tools. docs/frameworks.md shows this file.
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";

/** toolsim as a child process: `command` and `args` start `toolsim serve --stdio ...`. */
export function toolsimOverStdio(command: string, args: string[]): Promise<MCPClient> {
  return createMCPClient({ transport: new Experimental_StdioMCPTransport({ command, args }) });
}

/** A running `toolsim serve`, with a session of your own named by the header. */
export function toolsimOverHttp(url: string, session: string): Promise<MCPClient> {
  return createMCPClient({ transport: { type: "http", url, headers: { "X-Toolsim-Session": session } } });
}

/** One agent run: the model calls toolsim's tools until it answers; then the connection closes. */
export async function runAgent(toolsim: MCPClient, prompt: string, openaiBaseURL?: string): Promise<string> {
  try {
    const openai = createOpenAI({ baseURL: openaiBaseURL }); // OPENAI_API_KEY from the environment
    const { text } = await generateText({
      model: openai.chat("gpt-4.1-mini"),
      tools: await toolsim.tools(),
      stopWhen: stepCountIs(10),
      prompt,
    });
    return text;
  } finally {
    await toolsim.close(); // an open connection (a toolsim child process) would keep the program running
  }
}
