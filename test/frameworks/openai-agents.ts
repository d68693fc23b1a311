// The OpenAI Agents SDK (@openai/agents 0.14): serve toolsim with --schema-profile openai-strict and
// let the SDK send the schemas in strict mode. docs/frameworks.md shows this file.
import {
  Agent,
  MCPServerStdio,
  MCPServerStreamableHttp,
  OpenAIChatCompletionsModel,
  run,
} from "@openai/agents";
import OpenAI from "openai";

/**
 * How long the SDK waits for each request (its default is 5 s): toolsim takes a few seconds to
 * load a large catalog, and a model-backed answer may take up to serve's --deadline (25 s).
 */
const TIMEOUT_SECONDS = 30;

/** toolsim as a child process: `command` and `args` start `toolsim serve --stdio --schema-profile openai-strict ...`. */
export function toolsimOverStdio(command: string, args: string[]): MCPServerStdio {
  return new MCPServerStdio({ name: "toolsim", command, args, clientSessionTimeoutSeconds: TIMEOUT_SECONDS });
}

/** A running `toolsim serve --schema-profile openai-strict`, with a session of your own named by the header. */
export function toolsimOverHttp(url: string, session: string): MCPServerStreamableHttp {
  return new MCPServerStreamableHttp({
    name: "toolsim",
    url,
    requestInit: { headers: { "X-Toolsim-Session": session } },
    clientSessionTimeoutSeconds: TIMEOUT_SECONDS,
  });
}

/** One agent run in strict mode: optional arguments come as null, which toolsim takes as "not given". */
export async function runAgent(
  toolsim: MCPServerStdio | MCPServerStreamableHttp,
  prompt: string,
  openaiBaseURL?: string,
): Promise<string> {
  await toolsim.connect();
  try {
    const agent = new Agent({
      name: "Brokerage assistant",
      instructions: "Use the tools to do what the user asks, then report what you did.",
      model: new OpenAIChatCompletionsModel(new OpenAI({ baseURL: openaiBaseURL }), "gpt-4.1-mini"),
      mcpServers: [toolsim],
      mcpConfig: { convertSchemasToStrict: true },
    });
    const result = await run(agent, prompt, { maxTurns: 10 });
    return String(result.finalOutput ?? "");
  } finally {
    await toolsim.close();
  }
}
