import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  describeBytes,
  type HttpHandle,
  type HttpOptions,
  isLoopback,
  ListenError,
  serveOverHttp,
} from "../src/server/index.js";
import { callMeta, openRuntime } from "./support/index.js";

/**
 * The HTTP transport's security rules, served in this process: tokens and tenants, Host and
 * Origin checks, CORS, body limits, and the answers to requests it will not take.
 */

type Opened = Awaited<ReturnType<typeof openRuntime>>;

interface Served {
  handle: HttpHandle;
  runtime: Opened;
  /** Every openSession call: the X-Toolsim-Session name (or the shared one) and the tenant. */
  opened: Array<{ name: string | undefined; tenant: string }>;
  logged: string[];
}

const running: Served[] = [];

afterEach(async () => {
  for (const served of running.splice(0)) {
    await served.handle.close();
    await served.runtime.dispose();
  }
});

async function serve(options: Partial<HttpOptions> = {}): Promise<Served> {
  const runtime = await openRuntime();
  const opened: Served["opened"] = [];
  const logged: string[] = [];
  const handle = await serveOverHttp(runtime.hub, {
    host: "127.0.0.1",
    port: 0,
    log: (line) => logged.push(line),
    openSession: async (name, tenant) => {
      opened.push({ name, tenant });
      return (await runtime.engine.openSession({ name, tenant })).id;
    },
    ...options,
  });
  const served = { handle, runtime, opened, logged };
  running.push(served);
  return served;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => { error?: { code: number; message: string }; id?: unknown; result?: unknown };
}

/** A raw request over node:http, so that any Host header can be sent. */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "POST",
        path: options.path ?? "/mcp",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

const initialize = (port: number, headers: Record<string, string> = {}) =>
  send(port, { body: JSON.stringify(INITIALIZE), headers });

describe("where toolsim listens", () => {
  it("knows loopback addresses from the rest", () => {
    for (const host of ["localhost", "::1", "[::1]", "127.0.0.1", "127.5.6.7"])
      expect(isLoopback(host)).toBe(true);
    for (const host of ["0.0.0.0", "10.0.0.1", "::", "localhost.example.com", "x127.0.0.1", "128.0.0.1"])
      expect(isLoopback(host)).toBe(false);
  });

  it("refuses to listen off loopback without a token, saying how to give one", async () => {
    const runtime = await openRuntime();
    try {
      const refused = serveOverHttp(runtime.hub, {
        host: "0.0.0.0",
        port: 0,
        openSession: async () => "unused",
      });
      await expect(refused).rejects.toBeInstanceOf(ListenError);
      await expect(refused).rejects.toThrow(
        "refusing to listen on 0.0.0.0 without a token: anyone who can reach it could drive the simulator. Pass --token or set TOOLSIM_TOKEN.",
      );
    } finally {
      await runtime.dispose();
    }
  });

  it("says a port in use is in use, and how to pick another", async () => {
    const first = await serve();
    const runtime = await openRuntime();
    try {
      await expect(
        serveOverHttp(runtime.hub, {
          host: "127.0.0.1",
          port: first.handle.port,
          openSession: async () => "x",
        }),
      ).rejects.toThrow(
        `port ${first.handle.port} on 127.0.0.1 is already in use; pass --port N (or --port 0 for any free port)`,
      );
    } finally {
      await runtime.dispose();
    }
  });

  it("says an address that is not this machine's cannot be bound", async () => {
    const runtime = await openRuntime();
    try {
      await expect(
        serveOverHttp(runtime.hub, {
          host: "192.0.2.1",
          port: 0,
          tokens: new Map([["token-token-token", "t"]]),
          openSession: async () => "x",
        }),
      ).rejects.toThrow("cannot bind 192.0.2.1: no such local address");
    } finally {
      await runtime.dispose();
    }
  });

  it("gives its URL with the path, IPv6 addresses in brackets", async () => {
    const v4 = await serve({ path: "/tools" });
    expect(v4.handle.url).toBe(`http://127.0.0.1:${v4.handle.port}/tools`);
    const v6 = await serve({ host: "::1" }).catch(() => undefined);
    // some machines have no IPv6 loopback; where there is one, the URL brackets it
    if (v6) expect(v6.handle.url).toBe(`http://[::1]:${v6.handle.port}/mcp`);
  });
});

describe("tokens and tenants", () => {
  const tokens = new Map([
    ["alice-token-0001", "alice"],
    ["bob-token-000002", "bob"],
  ]);

  it("without a token a request is refused with 401 and a challenge", async () => {
    const { handle } = await serve({ tokens });
    for (const authorization of [
      undefined,
      "Bearer nobody-token-0",
      "Basic alice-token-0001",
      "alice-token-0001",
      "NotBearer alice-token-0001",
    ]) {
      const answer = await initialize(handle.port, authorization ? { authorization } : {});
      expect({ authorization, status: answer.status }).toEqual({ authorization, status: 401 });
      expect(answer.headers["www-authenticate"]).toBe('Bearer realm="toolsim"');
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32001, message: "missing or wrong bearer token" },
        id: null,
      });
    }
    // a token that only begins like a real one, or goes on past it
    for (const token of ["alice-token-000", "alice-token-00011"])
      expect((await initialize(handle.port, { authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it("each token opens sessions of its own tenant; the scheme's case does not matter", async () => {
    const served = await serve({ tokens });
    const alice = await initialize(served.handle.port, {
      authorization: "Bearer alice-token-0001",
      "x-toolsim-session": "work",
    });
    const bob = await initialize(served.handle.port, { authorization: "bearer   bob-token-000002" });
    expect([alice.status, bob.status]).toEqual([200, 200]);
    expect(served.opened).toEqual([
      { name: "work", tenant: "alice" },
      { name: undefined, tenant: "bob" },
    ]);
  });

  it("without tokens everything is the tenant with no name", async () => {
    const served = await serve();
    expect((await initialize(served.handle.port, { authorization: "Bearer whatever" })).status).toBe(200);
    expect(served.opened).toEqual([{ name: undefined, tenant: "" }]);
  });

  it("an empty X-Toolsim-Session names no session", async () => {
    const served = await serve();
    expect((await initialize(served.handle.port, { "x-toolsim-session": "" })).status).toBe(200);
    expect(served.opened).toEqual([{ name: undefined, tenant: "" }]);
  });

  it("an MCP session id is unknown to another tenant, and to anyone once forgotten", async () => {
    const { handle } = await serve({ tokens });
    const opened = await initialize(handle.port, { authorization: "Bearer alice-token-0001" });
    const id = String(opened.headers["mcp-session-id"]);
    const list = (token: string, session: string) =>
      send(handle.port, {
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        headers: {
          authorization: `Bearer ${token}`,
          "mcp-session-id": session,
          "mcp-protocol-version": "2025-11-25",
        },
      });
    const stolen = await list("bob-token-000002", id);
    expect(stolen.status).toBe(404);
    expect(stolen.json().error).toEqual({
      code: -32001,
      message: "unknown or expired MCP session; send initialize again",
    });
    expect((await list("alice-token-0001", id)).status).toBe(200);
    expect((await list("alice-token-0001", "no-such-session")).status).toBe(404);
  });

  it("a stateless (2026) client lands in its tenant's named session, or the shared one", async () => {
    const served = await serve({ tokens });
    const connect = async (headers: Record<string, string>) => {
      const client = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.handle.url), { requestInit: { headers } }),
      );
      return client;
    };
    const named = await connect({ Authorization: "Bearer bob-token-000002", "X-Toolsim-Session": "mine" });
    const shared = await connect({ Authorization: "Bearer alice-token-0001" });
    try {
      const own = await named.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      const common = await shared.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(own._meta?.["toolsim/session"]).toBeUndefined();
      expect(common._meta?.["toolsim/session"]).toMatchObject({ name: "http-default", shared: true });
      expect(callMeta(own).session).not.toBe(callMeta(common).session);
      expect(served.opened).toEqual(
        expect.arrayContaining([
          { name: "mine", tenant: "bob" },
          { name: "http-default", tenant: "alice" },
        ]),
      );
      expect(served.opened.every((o) => o.name !== undefined)).toBe(true);
    } finally {
      await named.close();
      await shared.close();
    }
  });
});

describe("Host and Origin", () => {
  it("on loopback, only a loopback Host is served (DNS rebinding)", async () => {
    const { handle } = await serve();
    const rebinding = await initialize(handle.port, { host: `evil.example:${handle.port}` });
    expect(rebinding.status).toBe(403);
    expect(rebinding.json().error?.message).toBe("Invalid Host: evil.example");
    for (const host of [`localhost:${handle.port}`, `127.0.0.1:${handle.port}`])
      expect((await initialize(handle.port, { host })).status).toBe(200);
  });

  it("off loopback, --allowed-host names the Host headers served; without it any Host is", async () => {
    const tokens = new Map([["token-token-token", "t"]]);
    const auth = { authorization: "Bearer token-token-token" };
    const limited = await serve({ host: "0.0.0.0", tokens, allowedHosts: ["api.example.com"] });
    expect((await initialize(limited.handle.port, { ...auth, host: "api.example.com" })).status).toBe(200);
    const other = await initialize(limited.handle.port, { ...auth, host: "localhost" });
    expect(other.status).toBe(403);
    expect(other.json().error?.message).toBe("Invalid Host: localhost");
    const open = await serve({ host: "0.0.0.0", tokens });
    expect((await initialize(open.handle.port, { ...auth, host: "anything.example" })).status).toBe(200);
  });

  it("by default a browser origin must be localhost, and gets no CORS headers", async () => {
    const { handle } = await serve();
    const local = await initialize(handle.port, { origin: "http://localhost:5173" });
    expect(local.status).toBe(200);
    expect(local.headers["access-control-allow-origin"]).toBeUndefined();
    const foreign = await initialize(handle.port, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.json().error?.code).toBe(-32000);
  });

  it("--allowed-origin names the origins served, and they get CORS headers", async () => {
    const { handle } = await serve({ allowedOrigins: ["app.example.com"] });
    const app = await initialize(handle.port, { origin: "https://app.example.com" });
    expect(app.status).toBe(200);
    expect(app.headers["access-control-allow-origin"]).toBe("https://app.example.com");
    expect(app.headers["access-control-expose-headers"]).toBe(
      "mcp-session-id, mcp-protocol-version, www-authenticate",
    );
    expect(app.headers.vary).toBe("Origin");
    expect((await initialize(handle.port, { origin: "http://localhost:5173" })).status).toBe(403);
    // no Origin (not a browser): served, without CORS headers
    const plain = await initialize(handle.port);
    expect(plain.status).toBe(200);
    expect(plain.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("answers a preflight before the token check: CORS headers only for an allowed origin", async () => {
    const tokens = new Map([["token-token-token", "t"]]);
    const { handle } = await serve({ tokens, allowedOrigins: ["app.example.com", "other.example.com"] });
    const preflight = await send(handle.port, {
      method: "OPTIONS",
      headers: { origin: "https://other.example.com" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      allow: "GET, POST, DELETE, OPTIONS",
      "access-control-allow-origin": "https://other.example.com",
      "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
      "access-control-allow-headers":
        "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, x-toolsim-session",
      "access-control-max-age": "600",
    });
    const bare = await send(handle.port, { method: "OPTIONS" });
    expect(bare.status).toBe(204);
    expect(bare.headers.allow).toBe("GET, POST, DELETE, OPTIONS");
    expect(bare.headers["access-control-allow-methods"]).toBeUndefined();
    expect(bare.headers["access-control-max-age"]).toBeUndefined();
  });
});

describe("requests the endpoint does not take", () => {
  it("serves a health check, and answers 404 elsewhere with where the endpoint is", async () => {
    const { handle } = await serve({ path: "/tools" });
    const health = await send(handle.port, { method: "GET", path: "/healthz?probe=1" });
    expect([health.status, health.headers["content-type"], health.text]).toEqual([
      200,
      "application/json",
      '{"ok":true}',
    ]);
    const elsewhere = await send(handle.port, { path: "/mcp" });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32601, message: "not found: the MCP endpoint is /tools" },
      id: null,
    });
  });

  it("reports the store in /healthz, and /readyz fails while the store cannot answer", async () => {
    const { handle, runtime } = await serve({ storeHealth: () => runtime.store.health() });
    const store = { backend: "sqlite", location: runtime.store.location };
    const healthy = await send(handle.port, { method: "GET", path: "/healthz" });
    expect([healthy.status, healthy.json()]).toEqual([200, { ok: true, store: { ...store, state: "up" } }]);
    const ready = await send(handle.port, { method: "GET", path: "/readyz" });
    expect([ready.status, ready.headers["retry-after"], ready.json()]).toEqual([
      200,
      undefined,
      { ready: true, store: { ...store, state: "up" } },
    ]);
    await runtime.store.close();
    const down = { ...store, state: "down", reason: "the store was closed" };
    const notReady = await send(handle.port, { method: "GET", path: "/readyz" });
    expect([notReady.status, notReady.headers["retry-after"], notReady.json()]).toEqual([
      503,
      "5",
      { ready: false, store: down },
    ]);
    // the process itself is alive: /healthz still answers 200, saying what it knows
    const alive = await send(handle.port, { method: "GET", path: "/healthz" });
    expect([alive.status, alive.json()]).toEqual([200, { ok: true, store: down }]);
  });

  it("answers 405 with Allow to a method it does not take", async () => {
    const { handle } = await serve();
    const put = await send(handle.port, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, POST, DELETE, OPTIONS");
    expect(put.json().error).toEqual({
      code: -32000,
      message: "method PUT not allowed; the MCP endpoint takes GET, POST, DELETE, OPTIONS",
    });
    const get = await send(handle.port, { method: "GET", headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect(get.json().error).toEqual({
      code: -32000,
      message: "GET needs an MCP session: send initialize (POST) first",
    });
    const remove = await send(handle.port, { method: "DELETE" });
    expect([remove.status, remove.headers.allow]).toEqual([405, "POST"]);
    expect(remove.json().error?.message).toBe("DELETE needs an MCP session: send initialize (POST) first");
  });

  it("answers bodies that are not JSON with -32700", async () => {
    const { handle } = await serve();
    const empty = await send(handle.port, { body: "  " });
    expect(empty.status).toBe(400);
    expect(empty.json().error).toEqual({
      code: -32700,
      message: "Parse error: the body is not valid JSON (the body is empty)",
    });
    const broken = await send(handle.port, { body: "{" });
    // the reason is the parser's own words about the body
    let reason = "";
    try {
      JSON.parse("{");
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(broken.json().error?.message).toBe(`Parse error: the body is not valid JSON (${reason})`);
  });

  it("says what is wrong with each field of an initialize that does not parse, echoing its id", async () => {
    const { handle } = await serve();
    const problems = async (message: unknown) => {
      const answer = await send(handle.port, { body: JSON.stringify(message) });
      expect(answer.status).toBe(400);
      return answer.json();
    };
    expect(
      await problems({
        jsonrpc: "2.0",
        id: "req-1",
        method: "initialize",
        params: { clientInfo: { name: "x" } },
      }),
    ).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32602,
        message:
          'Invalid params for initialize: "protocolVersion" must be a string, e.g. "2025-11-25"; "capabilities" must be an object (may be empty); "clientInfo" must be an object with string "name" and "version"',
      },
      id: "req-1",
    });
    expect(await problems({ jsonrpc: "2.0", id: 1, method: "initialize" })).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32602,
        message:
          "Invalid params for initialize: params must be an object with protocolVersion, capabilities and clientInfo",
      },
      id: 1,
    });
    expect(
      await problems({
        jsonrpc: "2.0",
        method: "initialize",
        params: { ...INITIALIZE.params, clientInfo: { name: "x", version: 1 } },
      }),
    ).toMatchObject({
      error: {
        message:
          'Invalid params for initialize: "clientInfo" must be an object with string "name" and "version"; "id" must be a string or a number',
      },
      id: null,
    });
    expect(
      await problems({
        jsonrpc: "2.0",
        method: "initialize",
        params: { ...INITIALIZE.params, clientInfo: { name: 7, version: "1" } },
      }),
    ).toMatchObject({
      error: {
        message:
          'Invalid params for initialize: "clientInfo" must be an object with string "name" and "version"; "id" must be a string or a number',
      },
      id: null,
    });
    expect(
      await problems({ ...INITIALIZE, id: 9, params: { ...INITIALIZE.params, clientInfo: "x" } }),
    ).toMatchObject({
      error: {
        message:
          'Invalid params for initialize: "clientInfo" must be an object with string "name" and "version"',
      },
      id: 9,
    });
    expect(
      await problems({
        ...INITIALIZE,
        id: 10,
        params: { ...INITIALIZE.params, clientInfo: { name: "x", version: "1", title: 5 } },
      }),
    ).toMatchObject({
      error: {
        code: -32602,
        message: "Invalid params for initialize: it does not match the initialize request schema",
      },
      id: 10,
    });
  });

  it("asks for initialize first when a session-less request is something else", async () => {
    const { handle } = await serve();
    for (const [message, id] of [
      [{ jsonrpc: "2.0", id: 4, method: "tools/list" }, 4],
      [{ jsonrpc: "2.0", id: "four", method: "tools/list" }, "four"],
      [{ jsonrpc: "2.0", method: "tools/list" }, null],
    ] as const) {
      const answer = await send(handle.port, { body: JSON.stringify(message) });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: "send initialize first" },
        id,
      });
    }
  });
});

describe("request bodies", () => {
  it("refuses a body declared larger than --max-body before reading it, and closes the connection", async () => {
    const { handle } = await serve({ maxBodyBytes: 64 * 1024 });
    const answer = await send(handle.port, {
      body: JSON.stringify({ ...INITIALIZE, pad: "x".repeat(70 * 1024) }),
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(answer.json().error).toEqual({
      code: -32000,
      message: "request body larger than 64 KB; toolsim accepts at most that per request (serve --max-body)",
    });
  });

  it("stops reading a body sent without a length once it passes the limit", async () => {
    const { handle } = await serve({ maxBodyBytes: 1000 });
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: handle.port,
          method: "POST",
          path: "/mcp",
          headers: { "transfer-encoding": "chunked" },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.write("x".repeat(600));
      req.write("x".repeat(600));
      req.end();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error.message).toContain("larger than 1000 bytes");
  });

  it("answers a declared length over the limit at once, without waiting for the body", async () => {
    const { handle } = await serve({ maxBodyBytes: 1000, timeouts: { bodyMs: 20_000 } });
    const started = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: handle.port,
          method: "POST",
          path: "/mcp",
          headers: { "content-type": "application/json", "content-length": "5000" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", () => {});
      req.on("close", () => reject(new Error("closed without an answer")));
      req.write("{");
    });
    expect(status).toBe(413);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("takes a body exactly at the limit", async () => {
    const body = JSON.stringify(INITIALIZE);
    const { handle } = await serve({ maxBodyBytes: Buffer.byteLength(body) });
    expect((await send(handle.port, { body })).status).toBe(200);
  });

  it("describes limits in the largest whole unit", () => {
    expect(describeBytes(4 * 1024 * 1024)).toBe("4 MB");
    expect(describeBytes(1024 * 1024)).toBe("1 MB");
    expect(describeBytes(1024 * 1024 + 1024)).toBe("1025 KB");
    expect(describeBytes(64 * 1024)).toBe("64 KB");
    expect(describeBytes(1024)).toBe("1 KB");
    expect(describeBytes(1000)).toBe("1000 bytes");
    expect(describeBytes(1536)).toBe("1536 bytes");
    expect(describeBytes(0)).toBe("0 bytes");
  });
});

describe("idle sessions", () => {
  it("closes an MCP session nobody used for --idle-timeout, and says so", async () => {
    const served = await serve({ idleTimeoutMs: 200 });
    const opened = await initialize(served.handle.port);
    const id = String(opened.headers["mcp-session-id"]);
    const list = () =>
      send(served.handle.port, {
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      });
    expect((await list()).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!served.logged.includes(`closed idle MCP session ${id}`) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(served.logged).toContain(`closed idle MCP session ${id}`);
    expect((await list()).status).toBe(404);
  });
});
