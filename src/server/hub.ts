import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/server";
import {
  type ProgressToken,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Engine } from "../engine/index.js";
import { toCallToolResult } from "./call-result.js";
import { sessionResources } from "./resources.js";
import { page, toMcpTool } from "./tool-list.js";

export const SERVER_NAME = "toolsim";
export const SERVER_VERSION = "0.1.0";

/**
 * Tools that do not come from the catalog: control tools, upstream servers. An extension
 * sees a call first and answers it, or returns undefined to let the next one (and finally
 * the engine) answer.
 */
export interface ToolExtension {
  readonly name: string;
  tools(sessionId: string): McpTool[];
  call(
    sessionId: string,
    name: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<CallToolResult> | undefined;
}

/** Something that can tell connected clients their tool list changed (one per transport era). */
export type ToolsChangedNotifier = (sessionId: string | undefined) => void;

export interface HubOptions {
  /** Tools per tools/list page. */
  pageSize?: number;
  /** How often a call still running sends notifications/progress to a client that asked (ms). */
  progressIntervalMs?: number;
  instructions?: string;
}

const DEFAULT_INSTRUCTIONS =
  "Every tool of this server is simulated by toolsim: calls are validated and answered like a real API, and " +
  "the session keeps state so later calls agree with earlier ones, but nothing real happens. A rejected call " +
  "says exactly what to fix.";

/**
 * tools/call parameters with `arguments` exactly as sent. The SDK's own schema rebuilds the
 * arguments object key by key, and a `__proto__` key vanishes in the copy (becoming its
 * prototype) before validation could refuse it; the engine checks the original.
 */
const CALL_PARAMS = z.looseObject({ name: z.string(), arguments: z.unknown().optional() });

/**
 * What every transport shares: the engine, the extensions, and the MCP request handlers
 * bound to one simulation session.
 */
export class ToolsimHub {
  readonly engine: Engine;
  private readonly extensions: ToolExtension[] = [];
  private readonly notifiers = new Set<ToolsChangedNotifier>();
  private readonly pageSize: number;
  private readonly progressIntervalMs: number;
  private readonly instructions: string;

  constructor(engine: Engine, options: HubOptions = {}) {
    this.engine = engine;
    this.pageSize = options.pageSize ?? 500;
    this.progressIntervalMs = options.progressIntervalMs ?? 3_000;
    this.instructions = options.instructions ?? DEFAULT_INSTRUCTIONS;
  }

  use(extension: ToolExtension): void {
    this.extensions.push(extension);
  }

  onToolsChanged(notifier: ToolsChangedNotifier): () => void {
    this.notifiers.add(notifier);
    return () => this.notifiers.delete(notifier);
  }

  /** Tells clients of a session (or of every session) to list tools again. */
  notifyToolsChanged(sessionId?: string): void {
    for (const notify of this.notifiers) notify(sessionId);
  }

  listTools(sessionId: string): McpTool[] {
    const tools: McpTool[] = [];
    for (const extension of this.extensions) tools.push(...extension.tools(sessionId));
    for (const tool of this.engine.tools(sessionId)) tools.push(toMcpTool(tool));
    return tools;
  }

  async callTool(
    sessionId: string,
    name: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    for (const extension of this.extensions) {
      const handled = extension.call(sessionId, name, args, signal);
      if (handled) return handled;
    }
    return toCallToolResult(await this.engine.call(sessionId, name, args, signal));
  }

  /**
   * While a call runs (a model may take seconds), tells a client that asked for progress
   * that it is still being answered, so clients that reset their timeout on progress wait.
   */
  private reportProgress(ctx: ServerContext, token: ProgressToken, tool: string): () => void {
    const started = Date.now();
    let sent = 0;
    const timer = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      ctx.mcpReq
        .notify({
          method: "notifications/progress",
          // the spec wants progress to grow with every notification; the total is unknown
          params: {
            progressToken: token,
            progress: ++sent,
            message: `simulating ${tool}: ${seconds} s so far`,
          },
        })
        .catch(() => {}); // a client gone mid-call gets its answer dropped the same way
    }, this.progressIntervalMs);
    return () => clearInterval(timer);
  }

  /** A low-level MCP server answering for one simulation session. */
  createServer(sessionId: string): Server {
    const server = new Server(
      { name: SERVER_NAME, version: SERVER_VERSION },
      {
        capabilities: { tools: { listChanged: true }, resources: {} },
        instructions: this.instructions,
        debouncedNotificationMethods: ["notifications/tools/list_changed"],
      },
    );
    server.setRequestHandler("tools/list", async (request) => {
      const listed = page(this.listTools(sessionId), request.params?.cursor, this.pageSize);
      if (!listed.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, listed.problem);
      return { tools: listed.items, ...(listed.nextCursor ? { nextCursor: listed.nextCursor } : {}) };
    });
    server.setRequestHandler("tools/call", { params: CALL_PARAMS }, async (params, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const stop = token === undefined ? () => {} : this.reportProgress(ctx, token, params.name);
      try {
        return await this.callTool(sessionId, params.name, params.arguments, ctx.mcpReq.signal);
      } finally {
        stop();
      }
    });
    const resources = sessionResources(this.engine, sessionId);
    server.setRequestHandler("resources/list", async () => ({ resources: resources.list() }));
    server.setRequestHandler("resources/read", async (request) => resources.read(request.params.uri));
    return server;
  }
}
