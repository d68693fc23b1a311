import type { CallToolResult, LoggingLevel, Tool as McpTool } from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode, Server, type ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { SchemaProfile } from "../catalog/index.js";
import type { Engine } from "../engine/index.js";
import { TURN_ARGUMENT, taskPrompt, taskPrompts, turnChoices } from "../tasks/index.js";
import {
  type Completion,
  completeCollection,
  completeKey,
  completePath,
  NO_COMPLETION,
} from "./completions.js";
import { deliver } from "./fault-delivery.js";
import { ENTITY_TEMPLATE, PART_TEMPLATE, sessionResources } from "./resources.js";
import { ResourceWatch, type ResourceWatcher } from "./subscriptions.js";
import { page, pageSizeFor, toMcpTool, withProfile } from "./tool-list.js";
import { TOOLSIM_VERSION } from "./version.js";

export const SERVER_NAME = "toolsim";

/** How far a call is, as the client's progress notification says it. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * The progress notifications of one call, present only when the client asked for them (a
 * progressToken). Everything that reports progress on the call goes through it (an
 * upstream's relayed progress, the hub's still-working ticks), so the values it sends
 * keep growing, as the protocol requires.
 */
export interface Progress {
  send(update: ProgressUpdate): Promise<void>;
  /** One step more than the last value sent, with a message. */
  tick(message: string): Promise<void>;
}

/** What a call may use of the request it answers. */
export interface CallContext {
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal;
  progress?: Progress;
  /** Sends a log message to the client; the client's logging level applies. */
  log?: (level: LoggingLevel, data: unknown, logger?: string) => Promise<void>;
}

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
    context: CallContext,
  ): Promise<CallToolResult | undefined>;
}

/** Something that can tell connected clients their tool list changed (one per transport era). */
export type ToolsChangedNotifier = (sessionId: string | undefined) => void;

export interface HubOptions {
  /** Tools per tools/list page, at least (a large catalog gets larger pages: see pageSizeFor). */
  pageSize?: number;
  /** How often a call still running sends notifications/progress to a client that asked (ms). */
  progressIntervalMs?: number;
  instructions?: string;
  /** How much of each input schema to advertise (default "full"); calls are checked against the full schema. */
  schemaProfile?: SchemaProfile;
}

/**
 * The simulation session every 2026-era (stateless) HTTP request without an
 * X-Toolsim-Session header lands in (see http.ts): shared by all such clients of a tenant.
 */
export const SHARED_SESSION_NAME = "http-default";

const SHARED_SESSION_HINT =
  `This connection uses the shared session "${SHARED_SESSION_NAME}": every stateless (2026 protocol) client with ` +
  "your token that sends no X-Toolsim-Session header lands in it, so a task one of them starts changes the tools " +
  "and state of all. " +
  "To get a session of your own, send the HTTP header X-Toolsim-Session: <a name you choose> with every request; " +
  "the session is created on first use and resumed whenever the name comes back.";

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
  readonly schemaProfile: SchemaProfile;
  /** Who subscribed to which session resources (resources/subscribe, subscriptions/listen). */
  readonly watch: ResourceWatch;

  constructor(engine: Engine, options: HubOptions = {}) {
    this.engine = engine;
    this.watch = new ResourceWatch(engine);
    this.pageSize = options.pageSize ?? 500;
    this.progressIntervalMs = options.progressIntervalMs ?? 3_000;
    this.instructions = options.instructions ?? DEFAULT_INSTRUCTIONS;
    this.schemaProfile = options.schemaProfile ?? "full";
  }

  use(extension: ToolExtension): void {
    this.extensions.push(extension);
    this.engine.suggestAlso((sessionId) => extension.tools(sessionId).map((tool) => tool.name));
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
    for (const extension of this.extensions)
      for (const tool of extension.tools(sessionId)) tools.push(withProfile(tool, this.schemaProfile));
    for (const tool of await this.engine.tools(sessionId)) tools.push(toMcpTool(tool, this.schemaProfile));
    return tools;
  }

  async callTool(
    sessionId: string,
    name: string,
    args: unknown,
    context: CallContext = {},
  ): Promise<CallToolResult> {
    try {
      let result: CallToolResult | undefined;
      for (const extension of this.extensions) {
        result = await extension.call(sessionId, name, args, context);
        if (result) break;
      }
      // injected waits (latency, timeouts) happen at this edge, after the call is recorded
      const arrived = performance.now();
      result ??= await deliver(
        await this.engine.call(sessionId, name, args, context.signal),
        context,
        arrived,
      );
      // subscribers hear of what the call changed before its answer arrives; the answer stands either way
      const notifying = this.watch.changed(sessionId);
      if (notifying) await notifying.catch(() => {});
      return result;
    } catch (error) {
      // the store or an upstream failed (a database restarting, a lost connection): an agent
      // reads a result it can act on, where a protocol error would end its run
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(`toolsim: call to ${name} in session ${sessionId} failed: ${reason}\n`);
      return {
        content: [
          {
            type: "text",
            text: `toolsim could not answer this call: ${reason}. Nothing was recorded or changed; send the call again.`,
          },
        ],
        isError: true,
        _meta: { "toolsim/unavailable": { reason } },
      };
    }
  }

  /**
   * While a call runs (a model may take seconds), tells a client that asked for progress
   * that it is still being answered, so clients that reset their timeout on progress wait.
   */
  private reportProgress(progress: Progress, tool: string): () => void {
    const started = Date.now();
    const timer = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      progress.tick(`simulating ${tool}: ${seconds} s so far`).catch(() => {}); // a client gone mid-call gets its answer dropped the same way
    }, this.progressIntervalMs);
    return () => clearInterval(timer);
  }

  /**
   * A low-level MCP server answering for one simulation session. `shared`: the session is
   * the one stateless clients share when they name none, and the server says how to name one.
   */
  createServer(sessionId: string, options: { shared?: boolean; watcher?: ResourceWatcher } = {}): Server {
    const shared = options.shared === true;
    const server = new Server(
      { name: SERVER_NAME, version: TOOLSIM_VERSION },
      {
        // logging: upstream servers' log messages are relayed during their calls (hybrid mode)
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true },
          prompts: {},
          completions: {},
          logging: {},
        },
        instructions: shared ? `${this.instructions}\n\n${SHARED_SESSION_HINT}` : this.instructions,
        debouncedNotificationMethods: ["notifications/tools/list_changed"],
      },
    );
    server.setRequestHandler("tools/list", async (request) => {
      const { items, nextCursor } = this.page(await this.listTools(sessionId), request.params?.cursor);
      return { tools: items, ...(nextCursor ? { nextCursor } : {}) };
    });
    // the arguments pass through as sent: a schema of the SDK's would rebuild them and lose keys such as __proto__
    server.setRequestHandler("tools/call", { params: CALL_PARAMS }, async (params, ctx) => {
      const context = callContext(ctx);
      const stop = context.progress ? this.reportProgress(context.progress, params.name) : () => {};
      try {
        const result = await this.callTool(sessionId, params.name, params.arguments, context);
        return shared ? withSessionHint(result) : result;
      } finally {
        stop();
      }
    });
    const resources = sessionResources(this.engine, sessionId);
    server.setRequestHandler("resources/list", async () => ({ resources: resources.list() }));
    server.setRequestHandler("resources/templates/list", async () => ({
      resourceTemplates: resources.templates(),
    }));
    server.setRequestHandler("resources/read", async (request) => resources.read(request.params.uri));
    this.handleSubscriptions(server, sessionId, options.watcher);
    this.handlePrompts(server);
    server.setRequestHandler("completion/complete", async (request) => ({
      completion: { ...(await this.complete(sessionId, request.params)) },
    }));
    return server;
  }

  /** A page of a list; a large list gets pages large enough for the SDK client's page limit. */
  private page<T>(items: readonly T[], cursor: string | undefined): { items: T[]; nextCursor?: string } {
    const listed = page(items, cursor, pageSizeFor(items.length, this.pageSize));
    if (!listed.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, listed.problem);
    return listed;
  }

  /**
   * resources/subscribe and resources/unsubscribe (the 2025 era). The notifications go to
   * this server, or through the connection's watcher when the transport keeps one (stdio,
   * where 2026-era listen streams subscribe through it too).
   */
  private handleSubscriptions(server: Server, sessionId: string, shared?: ResourceWatcher): void {
    let own: ResourceWatcher | undefined;
    const watcher = () => {
      if (shared) return shared;
      own ??= this.watch.watcher(sessionId, (uri) => server.sendResourceUpdated({ uri }));
      return own;
    };
    const closed = server.onclose;
    server.onclose = () => {
      own?.close();
      closed?.();
    };
    // subscribing twice is subscribing once; one unsubscribe ends it
    const subscribed = new Set<string>();
    server.setRequestHandler("resources/subscribe", async (request) => {
      const { uri } = request.params;
      if (subscribed.has(uri)) return {};
      const done = await watcher().subscribe(uri);
      if (!done.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, done.problem);
      subscribed.add(uri);
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", async (request) => {
      const { uri } = request.params;
      if (subscribed.delete(uri)) watcher().unsubscribe(uri);
      return {};
    });
  }

  /** The catalog's tasks as prompts: the user's request (and turns) of each. */
  private handlePrompts(server: Server): void {
    server.setRequestHandler("prompts/list", async (request) => {
      const { items, nextCursor } = this.page(taskPrompts(this.engine.catalog), request.params?.cursor);
      return { prompts: items, ...(nextCursor ? { nextCursor } : {}) };
    });
    server.setRequestHandler("prompts/get", async (request) => {
      const got = taskPrompt(this.engine.catalog, request.params.name, request.params.arguments);
      if (!got.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, got.error);
      return { ...got.value };
    });
  }

  /** completion/complete: the state template's collections, keys and paths; a task prompt's turns. */
  private async complete(
    sessionId: string,
    params: {
      ref: { type: string; uri?: string; name?: string };
      argument: { name: string; value: string };
      context?: { arguments?: Record<string, string> };
    },
  ): Promise<Completion> {
    const { ref, argument } = params;
    if (ref.type === "ref/prompt") {
      if (argument.name !== TURN_ARGUMENT) return NO_COMPLETION;
      const choices = turnChoices(this.engine.catalog, ref.name ?? "");
      const values = choices.filter((choice) => choice.startsWith(argument.value));
      return { values, total: values.length };
    }
    if (ref.uri !== PART_TEMPLATE && ref.uri !== ENTITY_TEMPLATE) return NO_COMPLETION;
    const { state } = await this.engine.state(sessionId);
    if (ref.uri === PART_TEMPLATE)
      return argument.name === "path" ? completePath(state, argument.value) : NO_COMPLETION;
    if (argument.name === "collection") return completeCollection(state, argument.value);
    if (argument.name === "key")
      return completeKey(state, params.context?.arguments?.collection, argument.value);
    return NO_COMPLETION;
  }
}

/** The parts of an MCP request a call may use: cancellation, progress (when asked for), logging. */
function callContext(ctx: ServerContext): CallContext {
  const token = ctx.mcpReq._meta?.progressToken;
  let last = 0;
  const send = (update: ProgressUpdate) => {
    last = update.progress > last ? update.progress : last + 1;
    return ctx.mcpReq.notify({
      method: "notifications/progress",
      params: { progressToken: token as string | number, ...update, progress: last },
    });
  };
  return {
    signal: ctx.mcpReq.signal,
    progress:
      token === undefined ? undefined : { send, tick: (message) => send({ progress: last + 1, message }) },
    log: (level, data, logger) => ctx.mcpReq.log(level, data, logger),
  };
}

/** A result a client of the shared session reads: how to get a session of its own. */
function withSessionHint(result: CallToolResult): CallToolResult {
  return {
    ...result,
    _meta: {
      ...result._meta,
      "toolsim/session": { name: SHARED_SESSION_NAME, shared: true, hint: SHARED_SESSION_HINT },
    },
  };
}
