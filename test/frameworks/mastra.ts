// Mastra (0.24 line: @mastra/core with @mastra/mcp 0.14): serve toolsim with --schema-profile openai-strict.
// Mastra's conversion requires every property, so optional ones must be nullable, and it drops
// conditions and formats, which that profile says in words. docs/frameworks.md shows this file.
import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";

/** toolsim as a child process: `command` and `args` start `toolsim serve --stdio --schema-profile openai-strict ...`. */
export function toolsimOverStdio(command: string, args: string[]): MCPClient {
  return new MCPClient({ id: "toolsim-stdio", servers: { toolsim: { command, args } } });
}

/** A running `toolsim serve --schema-profile openai-strict`, with a session of your own named by the header. */
export function toolsimOverHttp(url: string, session: string): MCPClient {
  return new MCPClient({
    id: `toolsim-${session}`,
    servers: { toolsim: { url: new URL(url), requestInit: { headers: { "X-Toolsim-Session": session } } } },
  });
}

/** One agent run: Mastra names the tools `toolsim_<tool>` and calls them until the model answers. */
export async function runAgent(toolsim: MCPClient, prompt: string, openaiBaseURL?: string): Promise<string> {
  try {
    const agent = new Agent({
      name: "Brokerage assistant",
      instructions: "Use the tools to do what the user asks, then report what you did.",
      model: { id: "openai/gpt-4.1-mini", url: openaiBaseURL, apiKey: process.env.OPENAI_API_KEY },
      tools: await toolsim.getTools(),
    });
    const result = await agent.generate(prompt, { maxSteps: 10 });
    return result.text;
  } finally {
    await toolsim.disconnect();
  }
}
