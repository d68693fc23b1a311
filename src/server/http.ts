import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type Server,
  validateOriginHeader,
} from "@modelcontextprotocol/server";
import { isPlainObject } from "../patch/index.js";
import { type StoreHealth, StoreUnavailableError } from "../store/index.js";
import { SessionEventStore } from "./event-store.js";
import { SHARED_SESSION_NAME, type ToolsimHub } from "./hub.js";
import { SessionEventBus } from "./subscriptions.js";

export const SESSION_HEADER = "x-toolsim-session";

/** A session name longer than this (after decoding) is refused: names are for people to read. */
export const MAX_SESSION_NAME = 256;

/** A few MB: any real tool call fits, a runaway one is refused before it is read. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpTimeouts {
  /** The request line and headers must arrive within this (ms); node:http closes slower connections. */
  headersMs: number;
  /** The whole request (headers and body) must arrive within this (ms); node:http's backstop. */
  requestMs: number;
  /** A POST body must arrive within this (ms), or the call is answered 408. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 60_000, bodyMs: 30_000 };

export interface HttpOptions {
  host: string;
  port: number;
  path?: string;
  /**
   * Bearer tokens and the tenant each stands for. Required off loopback; when given, every
   * request must carry `Authorization: Bearer <token>`, and a session is visible only to the
   * tenant whose token made it. Without tokens (loopback only) everything is tenant "".
   */
  tokens?: ReadonlyMap<string, string>;
  /** Host names accepted in the Host header when bound off loopback (default: any). */
  allowedHosts?: string[];
  /** Origins (host names) accepted from browsers (default: localhost only); these also get CORS headers. */
  allowedOrigins?: string[];
  /** MCP sessions with no request for this long are closed (ms). */
  idleTimeoutMs?: number;
  /** Larger request bodies are answered 413 without being read (bytes). */
  maxBodyBytes?: number;
  timeouts?: Partial<HttpTimeouts>;
  /**
   * Opens (creates or resumes) a tenant's simulation session; `name` is the X-Toolsim-Session
   * header, decoded. `connection` is true for a new 2025-era MCP session (an initialize),
   * false for a 2026-era request, which has no connection and comes again with every call.
   */
  openSession: (name: string | undefined, tenant: string, connection: boolean) => Promise<string>;
  /** The store's state, for /healthz and /readyz (without it both report the process alone). */
  storeHealth?: () => Promise<StoreHealth>;
  log?: (line: string) => void;
}

export interface HttpHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface LegacySession {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  simulationId: string;
  /** The tenant that opened it: only the same tenant may use its MCP session id. */
  tenant: string;
  lastSeen: number;
}

/** What the endpoint answers to; OPTIONS is the CORS preflight. */
const METHODS = "GET, POST, DELETE, OPTIONS";
/** Request headers an MCP client in a browser sends. */
const CORS_REQUEST_HEADERS = [
  "content-type",
  "accept",
  "authorization",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  SESSION_HEADER,
].join(", ");
const CORS_EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

/**
 * Streamable HTTP for both protocol eras: 2025-era clients get a stateful MCP session
 * (one simulation session each, or the named one in X-Toolsim-Session); 2026-era requests
 * are stateless and name their simulation session with that header.
 */
export async function serveOverHttp(hub: ToolsimHub, options: HttpOptions): Promise<HttpHandle> {
  const tokens = options.tokens ?? new Map<string, string>();
  if (!isLoopback(options.host) && tokens.size === 0) {
    throw new ListenError(
      `refusing to listen on ${options.host} without a token: anyone who can reach it could drive the simulator. Pass --token or set TOOLSIM_TOKEN.`,
    );
  }
  const path = options.path ?? "/mcp";
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const log = options.log ?? (() => {});
  const legacy = new Map<string, LegacySession>();
  // loaded here, not at the top: a server over stdio starts without the HTTP packages
  const node = await import("@modelcontextprotocol/node");
  const hostOk = isLoopback(options.host)
    ? node.localhostHostValidation()
    : options.allowedHosts?.length
      ? node.hostHeaderValidation(options.allowedHosts)
      : () => true;
  const originOk = options.allowedOrigins?.length
    ? node.originValidation(options.allowedOrigins)
    : node.localhostOriginValidation();

  // 2026-era listen streams hear of updates to their own session's resources only
  const bus = new SessionEventBus(hub.watch);
  const modernHandler = createMcpHandler(
    async ({ authInfo }) => {
      // the session was opened before the request reached the handler (see modernSession)
      const opened = authInfo?.extra?.session as ModernSession | undefined;
      if (!opened) throw new Error("a 2026-era request reached the MCP handler without its session");
      bus.found(opened.id);
      return hub.createServer(opened.id, { shared: opened.shared });
    },
    {
      bus,
      legacy: "reject",
      maxRequestBodySize: maxBody,
      onerror: (error) => log(`modern request failed: ${error.message}`),
    },
  );

  const unsubscribe = hub.onToolsChanged((sessionId) => {
    for (const session of legacy.values()) {
      if (sessionId === undefined || session.simulationId === sessionId) {
        session.server.sendToolListChanged().catch(() => {});
      }
    }
    modernHandler.notify.toolsChanged();
  });

  const httpServer = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // how often node:http looks for connections past those timeouts
      connectionsCheckingInterval: Math.max(50, Math.min(timeouts.headersMs, 5_000) / 4),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
        if (res.headersSent) return;
        if (error instanceof StoreUnavailableError) storeUnavailable(res, error);
        else jsonError(res, 500, -32603, "internal error");
      });
    },
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostOk(req, res) || !originOk(req, res)) return;
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/healthz" || url.pathname === "/readyz") {
      await answerHealth(res, url.pathname === "/readyz", options.storeHealth);
      return;
    }
    if (url.pathname !== path) {
      jsonError(res, 404, -32601, `not found: the MCP endpoint is ${path}`);
      return;
    }
    const corsOrigin = allowedCorsOrigin(req, options.allowedOrigins);
    if (corsOrigin) {
      res.setHeader("access-control-allow-origin", corsOrigin);
      res.setHeader("access-control-expose-headers", CORS_EXPOSED_HEADERS);
      res.setHeader("vary", "Origin");
    }
    // a preflight carries no credentials: it is answered before the token check
    if (req.method === "OPTIONS") {
      answerPreflight(res, corsOrigin !== undefined);
      return;
    }
    const tenant = tenantOf(req, tokens);
    if (tenant === undefined) {
      res.setHeader("www-authenticate", 'Bearer realm="toolsim"');
      jsonError(res, 401, -32001, "missing or wrong bearer token");
      return;
    }
    if (req.method !== "GET" && req.method !== "POST" && req.method !== "DELETE") {
      res.setHeader("allow", METHODS);
      jsonError(res, 405, -32000, `method ${req.method} not allowed; the MCP endpoint takes ${METHODS}`);
      return;
    }
    let body: unknown;
    let text = "";
    if (req.method === "POST") {
      const read = await readBody(req, maxBody, timeouts.bodyMs);
      if (read.kind !== "ok") {
        refuseBody(res, read.kind, maxBody, timeouts.bodyMs);
        return;
      }
      text = read.text;
      const parsed = parseJson(text);
      if (!parsed.ok) {
        jsonError(res, 400, -32700, `Parse error: the body is not valid JSON (${parsed.reason})`);
        return;
      }
      body = parsed.value;
    }
    const named = sessionName(req.headers[SESSION_HEADER]);
    if (!named.ok) {
      jsonError(res, 400, -32602, named.problem, requestId(body));
      return;
    }
    if (!(await isLegacyRequest(bodilessWebRequest(req), body))) {
      const session = await modernSession(named.name, tenant, body, res);
      if (!session) return;
      // the tenant and its session travel to the server factory as the request's validated auth
      (req as IncomingMessage & { auth?: AuthInfo }).auth = {
        token: "",
        clientId: tenant,
        scopes: [],
        extra: { tenant, session },
      };
      await bus.serve(body, () => modern(req, res, text));
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? legacy.get(sessionId) : undefined;
    let session = known?.tenant === tenant ? known : undefined;
    if (!session) {
      if (sessionId) {
        jsonError(res, 404, -32001, "unknown or expired MCP session; send initialize again");
        return;
      }
      if (req.method !== "POST") {
        // the spec's answer for "no stream here": clients (the Vercel AI SDK among them) treat it as such
        res.setHeader("allow", "POST");
        jsonError(res, 405, -32000, `${req.method} needs an MCP session: send initialize (POST) first`);
        return;
      }
      if (!isInitializeRequest(body)) {
        const problem = initializeProblem(body);
        if (problem)
          jsonError(res, 400, -32602, `Invalid params for initialize: ${problem}`, requestId(body));
        else jsonError(res, 400, -32000, "send initialize first", requestId(body));
        return;
      }
      try {
        session = await openLegacySession(named.name, tenant);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        log(`initialize failed: ${error.message}`);
        storeUnavailable(res, error, requestId(body));
        return;
      }
    }
    session.lastSeen = Date.now();
    await session.transport.handleRequest(req, res, body);
  }

  /**
   * The 2026-era handler gets the body as text: the SDK's adapter would re-serialize a
   * parsed body, and arguments nested past the engine's limits would overflow that before
   * the engine could refuse them with a finding.
   */
  const modern = (req: IncomingMessage, res: ServerResponse, text: string) =>
    node.toNodeHandler(
      {
        fetch: (request: Request, extra?: Parameters<typeof modernHandler.fetch>[1]) =>
          modernHandler.fetch(
            new Request(request.url, {
              method: request.method,
              headers: request.headers,
              signal: request.signal,
              ...(text ? { body: text } : {}),
            }),
            extra && { ...extra, parsedBody: undefined },
          ),
      },
      { maxRequestBodySize: maxBody },
    )(req, res);

  /**
   * The simulation session of a 2026-era request, opened before the MCP handler sees it:
   * when the store cannot be reached, the client gets an answer naming it and when to retry
   * (a tool call: a result an agent can act on) instead of the handler's bare 500.
   */
  async function modernSession(
    name: string | undefined,
    tenant: string,
    body: unknown,
    res: ServerResponse,
  ): Promise<ModernSession | undefined> {
    try {
      return {
        id: await options.openSession(name ?? SHARED_SESSION_NAME, tenant, false),
        shared: name === undefined,
      };
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // what the server is and speaks needs no session: a client can still connect, and hears why at its first call
      if (!needsSession(body)) return { id: "", shared: name === undefined };
      log(`request failed: ${error.message}`);
      if (isToolCall(body)) unavailableToolResult(res, error, requestId(body));
      else storeUnavailable(res, error, requestId(body));
      return undefined;
    }
  }

  async function openLegacySession(name: string | undefined, tenant: string): Promise<LegacySession> {
    const simulationId = await options.openSession(name, tenant, true);
    const server = hub.createServer(simulationId);
    const session: LegacySession = {
      server,
      simulationId,
      tenant,
      lastSeen: Date.now(),
      transport: new node.NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // SSE events carry ids, so a client that lost its stream resumes with Last-Event-ID
        eventStore: new SessionEventStore(),
        onsessioninitialized: (id) => {
          legacy.set(id, session);
        },
        onsessionclosed: (id) => {
          legacy.delete(id);
        },
      }),
    };
    session.transport.onclose = () => {
      if (session.transport.sessionId) legacy.delete(session.transport.sessionId);
    };
    await server.connect(session.transport);
    return session;
  }

  const reaper = setInterval(
    () => {
      const cutoff = Date.now() - idleTimeoutMs;
      for (const [id, session] of legacy) {
        if (session.lastSeen >= cutoff) continue;
        legacy.delete(id);
        session.transport.close().catch(() => {});
        const stillUsed = [...legacy.values()].some((s) => s.simulationId === session.simulationId);
        if (!stillUsed) hub.engine.release(session.simulationId);
        log(`closed idle MCP session ${id}`);
      }
    },
    Math.max(1000, Math.min(60_000, idleTimeoutMs / 4)),
  );
  reaper.unref();

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", (error: NodeJS.ErrnoException) => {
      clearInterval(reaper);
      unsubscribe();
      reject(listenError(error, options.host, options.port));
    });
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${path}`,
    port: address.port,
    async close() {
      clearInterval(reaper);
      unsubscribe();
      for (const session of legacy.values()) await session.transport.close().catch(() => {});
      legacy.clear();
      await modernHandler.close();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections(); // idle keep-alive sockets would otherwise hold close() for seconds
      await closed;
    },
  };
}

/** The environment's answer to listen(), in words that say what to do about it. */
export class ListenError extends Error {}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === "EADDRINUSE") {
    return new ListenError(
      `port ${port} on ${host} is already in use; pass --port N (or --port 0 for any free port)`,
    );
  }
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") {
    return new ListenError(`cannot bind ${host}: no such local address`);
  }
  if (error.code === "EACCES")
    return new ListenError(`not allowed to bind ${host}:${port}; choose a port above 1023`);
  return error;
}

/**
 * The one place credentials are checked: the tenant whose token the request carries; ""
 * when no tokens are configured; undefined when refused.
 */
function tenantOf(req: IncomingMessage, tokens: ReadonlyMap<string, string>): string | undefined {
  if (tokens.size === 0) return "";
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
  if (!match) return undefined;
  const given = Buffer.from(match[1] ?? "");
  let tenant: string | undefined;
  // every token is compared, in constant time, so the answer's timing says nothing about which matched
  for (const [token, owner] of tokens) {
    const wanted = Buffer.from(token);
    if (given.length === wanted.length && timingSafeEqual(given, wanted)) tenant = owner;
  }
  return tenant;
}

/** The request's Origin when `--allowed-origin` names it; the default localhost check grants no CORS. */
function allowedCorsOrigin(req: IncomingMessage, allowed: string[] | undefined): string | undefined {
  const origin = req.headers.origin;
  if (!origin || !allowed?.length) return undefined;
  return validateOriginHeader(origin, allowed).ok ? origin : undefined;
}

function answerPreflight(res: ServerResponse, cors: boolean): void {
  res.setHeader("allow", METHODS);
  if (cors) {
    res.setHeader("access-control-allow-methods", METHODS);
    res.setHeader("access-control-allow-headers", CORS_REQUEST_HEADERS);
    res.setHeader("access-control-max-age", "600");
  }
  res.writeHead(204).end();
}

type BodyRead =
  | { kind: "ok"; text: string }
  | { kind: "too-large" }
  | { kind: "timeout" }
  | { kind: "aborted" };

/** Reads a request body up to `maxBytes` and within `timeoutMs`; stops reading at either limit. */
function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyRead> {
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) return Promise.resolve({ kind: "too-large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (read: BodyRead) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      if (read.kind !== "ok") req.pause();
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish({ kind: "too-large" });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: "ok", text: Buffer.concat(chunks).toString("utf8") });
    const onError = () => finish({ kind: "aborted" });
    const timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** A body not read to its end cannot share the connection with a next request: close it. */
function refuseBody(
  res: ServerResponse,
  kind: Exclude<BodyRead["kind"], "ok">,
  maxBytes: number,
  timeoutMs: number,
) {
  res.setHeader("connection", "close");
  if (kind === "too-large") {
    jsonError(
      res,
      413,
      -32000,
      `request body larger than ${describeBytes(maxBytes)}; toolsim accepts at most that per request (serve --max-body)`,
    );
  } else if (kind === "timeout") {
    jsonError(res, 408, -32000, `request body not received within ${timeoutMs / 1000} s`);
  } else {
    res.destroy();
  }
}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text.trim() === "") return { ok: false, reason: "the body is empty" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The request as the SDK's era check reads it: method, URL and headers (the body goes separately, parsed). */
function bodilessWebRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(`http://localhost${req.url ?? "/"}`, { method: req.method, headers });
}

/** What is wrong with a message that calls itself initialize but does not parse as one. */
function initializeProblem(body: unknown): string | undefined {
  if (!isPlainObject(body) || body.method !== "initialize") return undefined;
  const params = body.params;
  if (!isPlainObject(params))
    return "params must be an object with protocolVersion, capabilities and clientInfo";
  const problems: string[] = [];
  if (typeof params.protocolVersion !== "string")
    problems.push('"protocolVersion" must be a string, e.g. "2025-11-25"');
  if (!isPlainObject(params.capabilities)) problems.push('"capabilities" must be an object (may be empty)');
  const info = params.clientInfo;
  if (!isPlainObject(info) || typeof info.name !== "string" || typeof info.version !== "string")
    problems.push('"clientInfo" must be an object with string "name" and "version"');
  if (body.id === undefined || body.id === null) problems.push('"id" must be a string or a number');
  return problems.length ? problems.join("; ") : "it does not match the initialize request schema";
}

function requestId(body: unknown): string | number | null {
  const id = isPlainObject(body) ? body.id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function jsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}

/** A 2026-era request's simulation session, opened before the MCP handler runs. */
interface ModernSession {
  id: string;
  /** The tenant's shared default session (the request named none). */
  shared: boolean;
}

/**
 * The X-Toolsim-Session header as a session name. A client sends a name outside ASCII
 * percent-encoded as UTF-8 (RFC 3986: `caf%C3%A9` is "café"; a literal % is `%25`); raw
 * UTF-8 bytes work too (Node hands header bytes over as latin1, and bytes that form UTF-8
 * are read as UTF-8), so HTTP and `serve --stdio --session` reach the same session.
 */
export function sessionName(
  header: string | string[] | undefined,
): { ok: true; name: string | undefined } | { ok: false; problem: string } {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return { ok: true, name: undefined };
  const name = percentDecoded(utf8FromLatin1(value)).trim();
  if (!name) return { ok: true, name: undefined };
  if (name.length > MAX_SESSION_NAME) {
    return {
      ok: false,
      problem: `the X-Toolsim-Session header names a session of ${name.length} characters; toolsim takes at most ${MAX_SESSION_NAME}`,
    };
  }
  return { ok: true, name };
}

function utf8FromLatin1(value: string): string {
  // only bytes: a string with a character past U+00FF did not come from the wire
  if (!/[\u0080-\u00ff]/.test(value) || /[\u0100-\uffff]/.test(value)) return value;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(value, "latin1"));
  } catch {
    return value; // not UTF-8: the bytes are latin1 text after all
  }
}

function percentDecoded(value: string): string {
  if (!/%[0-9a-f]{2}/i.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // a % that does not start an escape is kept as it is
  }
}

/**
 * GET /healthz: the process answers (always 200) and what it knows of its store.
 * GET /readyz: 200 while the store answers, 503 while it cannot be reached, so a load
 * balancer sends requests elsewhere.
 */
async function answerHealth(
  res: ServerResponse,
  readiness: boolean,
  storeHealth: (() => Promise<StoreHealth>) | undefined,
): Promise<void> {
  const store = storeHealth ? await storeHealth() : undefined;
  const ready = store === undefined || store.state === "up";
  const status = readiness && !ready ? 503 : 200;
  const body = readiness ? { ready, ...(store ? { store } : {}) } : { ok: true, ...(store ? { store } : {}) };
  if (status === 503) res.setHeader("retry-after", "5");
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Requests a server answers without its simulation session: discovery, ping, notifications. */
function needsSession(body: unknown): boolean {
  if (!isPlainObject(body) || typeof body.method !== "string") return false;
  return !["server/discover", "ping"].includes(body.method) && !body.method.startsWith("notifications/");
}

function isToolCall(body: unknown): boolean {
  return isPlainObject(body) && body.method === "tools/call" && body.id !== undefined && body.id !== null;
}

/** The store cannot be reached: 503, with when to retry, in the header and in words. */
function storeUnavailable(
  res: ServerResponse,
  error: StoreUnavailableError,
  id: string | number | null = null,
): void {
  res.setHeader("retry-after", String(error.retryAfterSeconds));
  res.writeHead(503, { "content-type": "application/json" }).end(
    JSON.stringify({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: `${unavailableText(error)} Nothing was recorded; send the request again in ${error.retryAfterSeconds} s.`,
        data: { store: error.location, retryAfterSeconds: error.retryAfterSeconds },
      },
      id,
    }),
  );
}

/** A tool call the store could not take: a result that says so, as the hub answers a call whose commit failed. */
function unavailableToolResult(
  res: ServerResponse,
  error: StoreUnavailableError,
  id: string | number | null,
): void {
  const reason = unavailableText(error);
  res.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      result: {
        // 2026-era results say they are complete (the only kind a tools/call result has there)
        resultType: "complete",
        content: [
          {
            type: "text",
            text: `toolsim could not answer this call: ${reason} Nothing was recorded or changed; send the call again in ${error.retryAfterSeconds} s.`,
          },
        ],
        isError: true,
        _meta: {
          "toolsim/unavailable": {
            reason,
            store: error.location,
            retryAfterSeconds: error.retryAfterSeconds,
          },
        },
      },
    }),
  );
}

function unavailableText(error: StoreUnavailableError): string {
  return /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
}
