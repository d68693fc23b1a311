import type { LoggingMessageNotificationParams, Progress, Transport } from "@modelcontextprotocol/client";
import {
  type CallToolResult,
  Client,
  type Tool as McpTool,
  ProtocolError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { TOOLSIM_VERSION } from "../server/index.js";
import type { UpstreamSpec } from "./config.js";

/**
 * One real MCP server behind toolsim: started (or reached) with a deadline, watched, and
 * reconnected with backoff when it goes away. While it is away its tools answer at once
 * with an explanation instead of waiting.
 */

export type ConnectionStatus = "starting" | "up" | "down" | "closed";

export interface ConnectionOptions {
  startTimeoutMs: number;
  /** Per-call deadline for passed-through calls. */
  callTimeoutMs?: number;
  /** First reconnect delay, doubled per failed attempt up to `maxBackoffMs`. */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  log: (line: string) => void;
  /** The server's tool list changed (list_changed, or different after a reconnect). */
  onToolsChanged: () => void;
}

export type UpstreamCall = { ok: true; result: CallToolResult } | { ok: false; unavailable: string };

/** What a passed-through call hands on to its own client while it runs. */
export interface UpstreamCallOptions {
  signal?: AbortSignal;
  /** The upstream's progress on this call (asked for only when given). */
  onProgress?: (progress: Progress) => void;
  /** The upstream's log messages while this call runs (see relayLog). */
  onLog?: (message: LoggingMessageNotificationParams) => void;
}

const CLIENT_INFO = { name: "toolsim-hybrid", version: TOOLSIM_VERSION };
const STDERR_TAIL = 2_000;

export class UpstreamConnection {
  readonly spec: UpstreamSpec;
  status: ConnectionStatus = "starting";
  tools: McpTool[] = [];
  serverInfo?: { name?: string; version?: string };
  lastError?: string;
  /** Failed reconnect attempts since the connection was lost. */
  attempts = 0;
  private client?: Client;
  private retry?: NodeJS.Timeout;
  private stderrTail = "";
  private readonly options: Required<ConnectionOptions>;
  /** The calls in flight, each with where its log messages go. */
  private readonly inFlight = new Set<UpstreamCallOptions>();

  constructor(spec: UpstreamSpec, options: ConnectionOptions) {
    this.spec = spec;
    this.options = { callTimeoutMs: 60_000, firstBackoffMs: 100, maxBackoffMs: 5_000, ...options };
  }

  get name(): string {
    return this.spec.name;
  }

  /** The first connection; its failure is the caller's to report. */
  async start(): Promise<{ ok: true } | { ok: false; message: string }> {
    const connected = await this.connectOnce();
    if (connected.ok) return connected;
    this.status = "down";
    return connected;
  }

  async call(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamCallOptions = {},
  ): Promise<UpstreamCall> {
    const client = this.client;
    if (this.status !== "up" || !client) return { ok: false, unavailable: this.unavailableText() };
    const { signal, onProgress } = options;
    this.inFlight.add(options);
    try {
      const result = await client.callTool(
        { name, arguments: args },
        {
          signal,
          timeout: this.options.callTimeoutMs,
          ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
        },
      );
      return { ok: true, result: result as CallToolResult };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof ProtocolError) {
        return { ok: true, result: { content: [{ type: "text", text: reason }], isError: true } };
      }
      if (signal?.aborted) return { ok: false, unavailable: `the call was cancelled: ${reason}` };
      this.lost(reason);
      return { ok: false, unavailable: this.unavailableText() };
    } finally {
      this.inFlight.delete(options);
    }
  }

  /**
   * Log messages are not tied to a request, so one goes to the call in flight only when
   * there is exactly one: with several (maybe of other sessions), it would be a guess that
   * could hand one client another's messages. It is logged here instead.
   */
  private relayLog(message: LoggingMessageNotificationParams): void {
    const [only, ...others] = this.inFlight;
    if (only?.onLog && others.length === 0) only.onLog(message);
    else this.options.log(`[${this.name}] ${message.level}: ${JSON.stringify(message.data)}`);
  }

  async close(): Promise<void> {
    this.status = "closed";
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
  }

  private unavailableText(): string {
    const why = this.lastError ? `: ${this.lastError}` : "";
    const retrying =
      this.status === "closed"
        ? "it has been shut down"
        : `toolsim is reconnecting (attempt ${this.attempts + 1})`;
    return `The upstream server "${this.name}" is not available${why}; ${retrying}. Its simulated tools still answer; try this one again shortly.`;
  }

  private async connectOnce(): Promise<{ ok: true } | { ok: false; message: string }> {
    const client = new Client(CLIENT_INFO);
    const transport = this.transport();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.options.startTimeoutMs);
    });
    try {
      const outcome = await Promise.race([
        client.connect(transport).then(() => client.listTools()),
        deadline,
      ]);
      if (outcome === "timeout") {
        await client.close().catch(() => {});
        return this.failed(`did not answer within ${this.options.startTimeoutMs / 1000} s`);
      }
      this.tools = outcome.tools;
    } catch (error) {
      await client.close().catch(() => {});
      return this.failed(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
    const version = client.getServerVersion();
    this.serverInfo = version ? { name: version.name, version: version.version } : undefined;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      if (this.client === client) void this.refreshTools(client);
    });
    client.setNotificationHandler("notifications/message", (notification) => {
      if (this.client === client) this.relayLog(notification.params);
    });
    client.onclose = () => {
      if (this.client === client) this.lost("the connection closed");
    };
    this.client = client;
    this.status = "up";
    this.lastError = undefined;
    this.attempts = 0;
    return { ok: true };
  }

  private failed(reason: string): { ok: false; message: string } {
    const tail = this.stderrTail.trim();
    this.stderrTail = "";
    const message = tail ? `${reason}; its last output: ${tail.split("\n").slice(-3).join(" | ")}` : reason;
    this.lastError = message;
    return { ok: false, message };
  }

  private transport(): Transport {
    const spec = this.spec;
    if (spec.kind === "http") {
      return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } });
    }
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: { ...getDefaultEnvironment(), ...spec.env },
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
      for (const line of text.split("\n")) if (line.trim()) this.options.log(`[${this.name}] ${line}`);
    });
    return transport;
  }

  private async refreshTools(client: Client): Promise<void> {
    try {
      const listed = await client.listTools();
      this.tools = listed.tools;
      this.options.onToolsChanged();
    } catch (error) {
      this.options.log(`upstream ${this.name}: tools/list after list_changed failed: ${String(error)}`);
    }
  }

  /** The connection went away: answer its calls with an explanation and start reconnecting. */
  private lost(reason: string): void {
    if (this.status !== "up") return;
    const client = this.client;
    this.client = undefined;
    this.status = "down";
    this.lastError = reason;
    this.attempts = 0;
    this.options.log(`upstream ${this.name} lost (${reason}); reconnecting`);
    void client?.close().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.status === "closed") return;
    const delay = Math.min(this.options.maxBackoffMs, this.options.firstBackoffMs * 2 ** this.attempts);
    this.retry = setTimeout(() => void this.reconnect(), delay);
    this.retry.unref();
  }

  private async reconnect(): Promise<void> {
    if (this.status === "closed") return;
    const before = JSON.stringify(this.tools);
    const connected = await this.connectOnce();
    if ((this.status as ConnectionStatus) === "closed") {
      await this.client?.close().catch(() => {});
      return;
    }
    if (!connected.ok) {
      this.status = "down";
      this.attempts += 1;
      this.scheduleReconnect();
      return;
    }
    this.options.log(`upstream ${this.name} reconnected`);
    if (JSON.stringify(this.tools) !== before) this.options.onToolsChanged();
  }
}
