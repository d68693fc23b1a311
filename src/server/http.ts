import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  hostHeaderValidation,
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
  originValidation,
  toNodeHandler,
  toWebRequest,
} from "@modelcontextprotocol/node";
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type Server,
} from "@modelcontextprotocol/server";
import { SHARED_SESSION_NAME, type ToolsimHub } from "./hub.js";

export const SESSION_HEADER = "x-toolsim-session";

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
  /** Origins (host names) accepted from browsers (default: localhost only). */
  allowedOrigins?: string[];
  /** MCP sessions with no request for this long are closed (ms). */
  idleTimeoutMs?: number;
  /** Opens (creates or resumes) a tenant's simulation session for a new MCP session; `name` is the X-Toolsim-Session header. */
  openSession: (name: string | undefined, tenant: string) => Promise<string>;
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
  const log = options.log ?? (() => {});
  const legacy = new Map<string, LegacySession>();
  const hostOk = isLoopback(options.host)
    ? localhostHostValidation()
    : options.allowedHosts?.length
      ? hostHeaderValidation(options.allowedHosts)
      : () => true;
  const originOk = options.allowedOrigins?.length
    ? originValidation(options.allowedOrigins)
    : localhostOriginValidation();

  const modernHandler = createMcpHandler(
    async ({ requestInfo, authInfo }) => {
      const tenant = typeof authInfo?.extra?.tenant === "string" ? authInfo.extra.tenant : "";
      const named = requestInfo?.headers.get(SESSION_HEADER) || undefined;
      const id = await options.openSession(named ?? SHARED_SESSION_NAME, tenant);
      return hub.createServer(id, { shared: named === undefined });
    },
    { legacy: "reject", onerror: (error) => log(`modern request failed: ${error.message}`) },
  );
  const modern = toNodeHandler(modernHandler);

  const unsubscribe = hub.onToolsChanged((sessionId) => {
    for (const session of legacy.values()) {
      if (sessionId === undefined || session.simulationId === sessionId) {
        session.server.sendToolListChanged().catch(() => {});
      }
    }
    modernHandler.notify.toolsChanged();
  });

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) jsonError(res, 500, -32603, "internal error");
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostOk(req, res) || !originOk(req, res)) return;
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
      return;
    }
    if (url.pathname !== path) {
      jsonError(res, 404, -32601, `not found: the MCP endpoint is ${path}`);
      return;
    }
    const tenant = tenantOf(req, tokens);
    if (tenant === undefined) {
      res.setHeader("www-authenticate", 'Bearer realm="toolsim"');
      jsonError(res, 401, -32001, "missing or wrong bearer token");
      return;
    }
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) {
      // the tenant travels to the server factory as the request's validated auth
      (req as IncomingMessage & { auth?: AuthInfo }).auth = {
        token: "",
        clientId: tenant,
        scopes: [],
        extra: { tenant },
      };
      await modern(req, res, body);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? legacy.get(sessionId) : undefined;
    let session = known?.tenant === tenant ? known : undefined;
    if (!session) {
      if (req.method !== "POST" || sessionId || !isInitializeRequest(body)) {
        jsonError(
          res,
          sessionId ? 404 : 400,
          -32000,
          sessionId ? "unknown or expired MCP session" : "send initialize first",
        );
        return;
      }
      session = await openLegacySession(req, tenant);
    }
    session.lastSeen = Date.now();
    await session.transport.handleRequest(req, res, body);
  }

  async function openLegacySession(req: IncomingMessage, tenant: string): Promise<LegacySession> {
    const header = req.headers[SESSION_HEADER];
    const simulationId = await options.openSession(
      typeof header === "string" && header ? header : undefined,
      tenant,
    );
    const server = hub.createServer(simulationId);
    const session: LegacySession = {
      server,
      simulationId,
      tenant,
      lastSeen: Date.now(),
      transport: new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
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

/** The tenant whose token the request carries; "" when no tokens are configured; undefined when refused. */
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

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
