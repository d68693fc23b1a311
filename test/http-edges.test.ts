import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpHandle, serveOverHttp, ToolsimHub } from "../src/server/index.js";
import {
  callMeta,
  connectHttp,
  LIBRARY,
  openLlmRuntime,
  openRuntime,
  type RunningServer,
  startHttpServer,
  tempDir,
} from "./support/index.js";

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: () => { error?: { code: number; message: string }; id?: unknown };
}

async function raw(url: string, init: RequestInit): Promise<RawAnswer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

function post(url: string, body: string, headers: Record<string, string> = {}) {
  return raw(url, { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body });
}

/** Initializes a 2025-era session by hand and returns its id. */
async function legacySession(url: string): Promise<string> {
  const answer = await post(url, JSON.stringify(INITIALIZE));
  const id = answer.headers.get("mcp-session-id");
  if (!id) throw new Error(`no session: ${answer.status} ${answer.text}`);
  await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
    "mcp-session-id": id,
  });
  return id;
}

/** The `id:` and `data:` of each event of an SSE body. */
function sseEvents(text: string): Array<{ id?: string; data: string }> {
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split("\n");
      const id = lines.find((l) => l.startsWith("id: "))?.slice(4);
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trim())
        .join("");
      return { id, data };
    });
}

describe("HTTP protocol edges", () => {
  const dir = tempDir();
  let server: RunningServer;

  beforeAll(async () => {
    server = await startHttpServer([
      "--toolsets",
      LIBRARY,
      "--db",
      join(dir.path, "edges.db"),
      "--page-size",
      "3",
      "--max-body",
      "64kb",
      "--allowed-origin",
      "app.example.com",
      "--allowed-origin",
      "localhost",
    ]);
  });
  afterAll(async () => {
    await server.stop();
    dir.cleanup();
  });

  it("answers invalid JSON with -32700 and an invalid initialize with -32602, echoing its id", async () => {
    const broken = await post(server.url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(broken.status).toBe(400);
    expect(broken.json().error?.code).toBe(-32700);
    expect(broken.json().error?.message).toMatch(/not valid JSON/);

    const initialize = await post(
      server.url,
      JSON.stringify({ ...INITIALIZE, id: 7, params: { capabilities: {} } }),
    );
    expect(initialize.status).toBe(400);
    expect(initialize.json().error?.code).toBe(-32602);
    expect(initialize.json().error?.message).toMatch(/"protocolVersion" must be a string.*"clientInfo"/);
    expect(initialize.json().id).toBe(7);
  });

  it("answers 405 with Allow to methods it does not take, and to a GET or DELETE before initialize", async () => {
    for (const method of ["PUT", "PATCH"]) {
      const answer = await raw(server.url, { method, headers: JSON_HEADERS, body: "{}" });
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET, POST, DELETE, OPTIONS");
      expect(answer.json().error?.message).toContain(`method ${method} not allowed`);
    }
    for (const method of ["GET", "DELETE"]) {
      const answer = await raw(server.url, { method, headers: { accept: "text/event-stream" } });
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
      expect(answer.json().error?.message).toContain("send initialize (POST) first");
    }
  });

  it("refuses a body over --max-body with 413 and a JSON-RPC error, and keeps serving", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "get_member", arguments: { member_id: "x".repeat(100_000) } },
    });
    const answer = await post(server.url, huge);
    expect(answer.status).toBe(413);
    expect(answer.json().error?.message).toMatch(/larger than 64 KB.*--max-body/);
    const client = await connectHttp(server.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it("answers a CORS preflight for an --allowed-origin, and marks its responses readable", async () => {
    const preflight = await raw(server.url, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-session-id, authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = preflight.headers.get("access-control-allow-headers") ?? "";
    for (const header of ["content-type", "mcp-session-id", "authorization", "mcp-protocol-version"])
      expect(allowed).toContain(header);

    const answer = await post(server.url, JSON.stringify(INITIALIZE), { origin: "https://app.example.com" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(answer.headers.get("access-control-expose-headers")).toContain("mcp-session-id");

    const foreign = await raw(server.url, { method: "OPTIONS", headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers an invalid tools/list cursor with -32602 instead of starting over", async () => {
    const client = await connectHttp(server.url);
    const first = (await client.request({ method: "tools/list", params: {} })) as { nextCursor?: string };
    expect(first.nextCursor).toBeTruthy();
    const second = (await client.request({ method: "tools/list", params: { cursor: first.nextCursor } })) as {
      tools: unknown[];
    };
    expect(second.tools).toHaveLength(3);
    for (const cursor of [
      "bogus",
      Buffer.from("9999").toString("base64url"),
      Buffer.from("-3").toString("base64url"),
    ]) {
      const failed = await client.request({ method: "tools/list", params: { cursor } }).then(
        () => undefined,
        (error: { code?: number; message?: string }) => error,
      );
      expect(failed?.code).toBe(-32602);
      expect(failed?.message).toContain("invalid cursor");
    }
    await client.close();
  });

  it("numbers SSE events, so a client resumes a lost stream with Last-Event-ID", async () => {
    const session = await legacySession(server.url);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const call = await post(
      server.url,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_member", arguments: { member_id: "MEM-001" } },
      }),
      headers,
    );
    const events = sseEvents(call.text);
    expect(events.every((e) => e.id)).toBe(true);
    const [priming, result] = events;
    expect(JSON.parse(result?.data ?? "{}").id).toBe(2);

    const replay = await fetch(server.url, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream", "last-event-id": priming?.id ?? "" },
    });
    expect(replay.status).toBe(200);
    const reader = replay.body?.getReader();
    let text = "";
    while (!text.includes('"id":2') && reader) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    await reader?.cancel();
    const replayed = sseEvents(text).find((e) => e.data.includes('"id":2'));
    expect(replayed?.id).toBe(result?.id);
  });

  it("turns a __proto__, constructor or prototype key into IAN over both protocol eras", async () => {
    for (const mode of ["2025", "2026"]) {
      const client = new Client(
        { name: "keys", version: "1" },
        mode === "2026" ? { versionNegotiation: { mode: "auto" } } : {},
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      // JSON.parse keeps "__proto__" as an own key, as a client decoding a model's JSON would
      const args = JSON.parse(
        '{"member_id": "MEM-001", "__proto__": {"admin": true}, "filter": {"constructor": 1}}',
      );
      const result = await client.callTool({ name: "get_member", arguments: args });
      expect(result.isError).toBe(true);
      const findings = (result._meta?.["toolsim/findings"] ?? []) as Array<{
        code: string;
        argument: string;
      }>;
      expect(findings.filter((f) => f.code === "IAN").map((f) => f.argument)).toEqual(
        expect.arrayContaining(["__proto__", "filter.constructor"]),
      );
      expect(callMeta(result).engine).toBe("validator");
      await client.close();
    }
  });

  it("refuses arguments nested 10,000 levels with a finding, not a JSON-RPC error", async () => {
    const session = await legacySession(server.url);
    let deep = '"x"';
    for (let i = 0; i < 10_000; i++) deep = `{"a":${deep}}`;
    const call = await post(
      server.url,
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_member","arguments":{"member_id":"MEM-001","filter":${deep}}}}`,
      { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    );
    expect(call.status).toBe(200);
    const message = JSON.parse(sseEvents(call.text).find((e) => e.data.includes('"id":5'))?.data ?? "{}");
    expect(message.error).toBeUndefined();
    expect(message.result.isError).toBe(true);
    expect(message.result._meta["toolsim/findings"]).toEqual([
      expect.objectContaining({
        code: "IFE",
        argument: "filter",
        message: expect.stringContaining("64 levels"),
      }),
    ]);
  });
});

describe("slow connections", () => {
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  let handle: HttpHandle;

  beforeAll(async () => {
    runtime = await openRuntime();
    handle = await serveOverHttp(runtime.hub, {
      host: "127.0.0.1",
      port: 0,
      timeouts: { headersMs: 400, requestMs: 2_000, bodyMs: 400 },
      openSession: async (name) => (await runtime.engine.openSession({ name })).id,
    });
  });
  afterAll(async () => {
    await handle.close();
    await runtime.dispose();
  });

  function openSocket(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
    const started = Date.now();
    return new Promise((resolve) => {
      const socket = connect(handle.port, "127.0.0.1", () => {
        let text = "";
        socket.on("data", (d) => {
          text += d.toString();
        });
        const closed = new Promise<number>((done) => socket.once("close", () => done(Date.now() - started)));
        resolve({ socket, received: () => text, closed });
      });
    });
  }

  it("closes a connection whose headers never finish", async () => {
    const { socket, closed } = await openSocket();
    socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const keepDripping = setInterval(() => socket.write("X-Slow: 1\r\n"), 100);
    const after = await closed;
    clearInterval(keepDripping);
    expect(after).toBeLessThan(3_000);
  });

  it("answers 408 with a JSON-RPC error when a body stalls", async () => {
    const { socket, received, closed } = await openSocket();
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 200\r\n\r\n{"jsonrpc":',
    );
    const after = await closed;
    expect(after).toBeLessThan(3_000);
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
    expect(received()).toContain(
      '"error":{"code":-32000,"message":"request body not received within 0.4 s"}',
    );
  });
});

describe("progress during slow calls", () => {
  it("sends notifications/progress while the model is thinking, when the client asked for them", async () => {
    const rt = await openLlmRuntime();
    const hub = new ToolsimHub(rt.engine, { progressIntervalMs: 100 });
    const handle = await serveOverHttp(hub, {
      host: "127.0.0.1",
      port: 0,
      openSession: async (name) => (await rt.engine.openSession({ name })).id,
    });
    try {
      rt.fake.script(
        { kind: "stall", ms: 700 },
        {
          kind: "json",
          value: {
            outcome: "success",
            result: { ticket_id: "TCK-1", status: "open" },
            error: null,
            patch: [],
          },
        },
      );
      const client = await connectHttp(handle.url);
      const progress: Array<{ progress: number; message?: string }> = [];
      const result = await client.callTool(
        { name: "get_ticket", arguments: { ticket_id: "TCK-1" } },
        { onprogress: (p) => progress.push(p) },
      );
      expect(result.isError).toBeFalsy();
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress[0]?.message).toMatch(/simulating get_ticket/);
      expect(progress.map((p) => p.progress)).toEqual(progress.map((_, index) => index + 1));
      await client.close();
    } finally {
      await handle.close();
      await rt.dispose();
    }
  });
});
