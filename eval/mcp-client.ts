import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/**
 * Any MCP server, toolsim or a real one, as a client sees it: the real SDK client over stdio
 * or Streamable HTTP, tools/list, tools/call and (on toolsim) the session's state resource.
 * Nothing here knows how toolsim answers; it only records what came back.
 */

/** A tool as tools/list advertises it. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    title?: string;
  };
}

/** One answer to a tools/call, as it came back. */
export interface Reply {
  isError: boolean;
  /** `structuredContent` when the server sent one. */
  structured?: unknown;
  /** The text content, joined. */
  text: string;
  /** What the answer says: the structured content, else the text read as JSON, else the text. */
  value: unknown;
  /** toolsim's rejection codes (IAV, IAN, …): the call was not executed. */
  rejected?: string[];
  /** A protocol error instead of a result (the request failed). */
  failure?: string;
}

/** How to start a server over stdio. */
export interface StdioServer {
  command: string;
  args: readonly string[];
  env?: Record<string, string>;
  cwd?: string;
}

export type Endpoint = { url: string; headers?: Record<string, string> } | StdioServer;

export class McpConnection {
  private constructor(private readonly client: Client) {}

  static async open(endpoint: Endpoint): Promise<McpConnection> {
    const client = new Client({ name: "toolsim-eval", version: "1.0.0" });
    const transport =
      "url" in endpoint
        ? new StreamableHTTPClientTransport(new URL(endpoint.url), {
            requestInit: { headers: endpoint.headers ?? {} },
          })
        : new StdioClientTransport({
            command: endpoint.command,
            args: [...endpoint.args],
            env: { ...inherited(), ...(endpoint.env ?? {}) },
            cwd: endpoint.cwd,
            stderr: "ignore",
          });
    await client.connect(transport);
    return new McpConnection(client);
  }

  async tools(): Promise<ListedTool[]> {
    const { tools } = await this.client.listTools();
    return tools as unknown as ListedTool[];
  }

  /**
   * Calls a tool. The result is taken as sent: this connection never lists tools, so the SDK
   * does not check it against the output schema (the evaluation does, and counts it).
   */
  async call(name: string, args: Record<string, unknown>): Promise<Reply> {
    try {
      const result = await this.client.callTool({ name, arguments: args });
      return replyOf(result as RawResult);
    } catch (error) {
      const failure = error instanceof Error ? error.message : String(error);
      return { isError: true, text: failure, value: failure, failure };
    }
  }

  /** toolsim's `toolsim://session/state` resource: the session's whole state document. */
  async state(): Promise<Record<string, unknown> | undefined> {
    try {
      const result = await this.client.readResource({ uri: "toolsim://session/state" });
      const first = result.contents[0];
      const text = first && "text" in first ? first.text : undefined;
      if (typeof text !== "string") return undefined;
      const parsed = JSON.parse(text) as { state?: Record<string, unknown> };
      return parsed.state;
    } catch {
      return undefined;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

interface RawResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

export function replyOf(result: RawResult): Reply {
  const text = (result.content ?? [])
    .filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text)
    .join("\n");
  const findings = result._meta?.["toolsim/findings"];
  const rejected = Array.isArray(findings)
    ? findings.map((f) => String((f as { code?: unknown }).code ?? "?"))
    : undefined;
  const reply: Reply = {
    isError: result.isError === true,
    text,
    value: result.structuredContent !== undefined ? result.structuredContent : parsed(text),
  };
  if (result.structuredContent !== undefined) reply.structured = result.structuredContent;
  if (rejected && rejected.length > 0) reply.rejected = rejected;
  return reply;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The variables a child server needs to run (the SDK's own default list is this short too). */
function inherited(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "NODE_OPTIONS"]) {
    const value = process.env[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
