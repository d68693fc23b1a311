import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/server";
import { Server } from "@modelcontextprotocol/server";
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
  ): Promise<CallToolResult | undefined>;
}

/** Something that can tell connected clients their tool list changed (one per transport era). */
export type ToolsChangedNotifier = (sessionId: string | undefined) => void;

export interface HubOptions {
  /** Tools per tools/list page. */
  pageSize?: number;
  instructions?: string;
}

const DEFAULT_INSTRUCTIONS =
  "Every tool of this server is simulated by toolsim: calls are validated and answered like a real API, and " +
  "the session keeps state so later calls agree with earlier ones, but nothing real happens. A rejected call " +
  "says exactly what to fix.";

/**
 * What every transport shares: the engine, the extensions, and the MCP request handlers
 * bound to one simulation session.
 */
export class ToolsimHub {
  readonly engine: Engine;
  private readonly extensions: ToolExtension[] = [];
  private readonly notifiers = new Set<ToolsChangedNotifier>();
  private readonly pageSize: number;
  private readonly instructions: string;

  constructor(engine: Engine, options: HubOptions = {}) {
    this.engine = engine;
    this.pageSize = options.pageSize ?? 500;
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

  async listTools(sessionId: string): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    for (const extension of this.extensions) tools.push(...extension.tools(sessionId));
    for (const tool of await this.engine.tools(sessionId)) tools.push(toMcpTool(tool));
    return tools;
  }

  async callTool(
    sessionId: string,
    name: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    for (const extension of this.extensions) {
      const handled = await extension.call(sessionId, name, args, signal);
      if (handled) return handled;
    }
    return toCallToolResult(await this.engine.call(sessionId, name, args, signal));
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
      const { items, nextCursor } = page(
        await this.listTools(sessionId),
        request.params?.cursor,
        this.pageSize,
      );
      return { tools: items, ...(nextCursor ? { nextCursor } : {}) };
    });
    server.setRequestHandler("tools/call", async (request, ctx) =>
      this.callTool(sessionId, request.params.name, request.params.arguments, ctx.mcpReq.signal),
    );
    const resources = sessionResources(this.engine, sessionId);
    server.setRequestHandler("resources/list", async () => ({ resources: resources.list() }));
    server.setRequestHandler("resources/templates/list", async () => ({
      resourceTemplates: resources.templates(),
    }));
    server.setRequestHandler("resources/read", async (request) => resources.read(request.params.uri));
    return server;
  }
}
