/**
 * Session names outside ASCII: sent in the X-Toolsim-Session header percent-encoded (RFC
 * 3986) or as raw UTF-8 bytes, by clients of both protocol eras, they name the same
 * session that `serve --stdio --session` and `toolsim sessions` name.
 */
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SESSION_NAME, sessionName } from "../src/server/http.js";
import {
  callMeta,
  connectHttp,
  connectStdio,
  LIBRARY,
  type RunningServer,
  runCli,
  startHttpServer,
  tempDir,
} from "./support/index.js";

const NAME = "café ☕ 東京";

describe("X-Toolsim-Session decoding", () => {
  it("reads percent-encoded UTF-8, raw UTF-8 bytes and plain names alike", () => {
    const raw = Buffer.from(NAME, "utf8").toString("latin1"); // what Node hands over for raw bytes
    expect(sessionName(encodeURIComponent(NAME))).toEqual({ ok: true, name: NAME });
    expect(sessionName(raw)).toEqual({ ok: true, name: NAME });
    expect(sessionName("desk-7")).toEqual({ ok: true, name: "desk-7" });
    // latin1 text that is not UTF-8, and a % that starts no escape, are kept as sent
    expect(sessionName("caf\u00e9")).toEqual({ ok: true, name: "caf\u00e9" });
    expect(sessionName("100% done")).toEqual({ ok: true, name: "100% done" });
    expect(sessionName("a%25b")).toEqual({ ok: true, name: "a%b" });
    expect(sessionName(undefined)).toEqual({ ok: true, name: undefined });
    expect(sessionName("  ")).toEqual({ ok: true, name: undefined });
    expect(sessionName("x".repeat(MAX_SESSION_NAME + 1))).toEqual({
      ok: false,
      problem: `the X-Toolsim-Session header names a session of ${MAX_SESSION_NAME + 1} characters; toolsim takes at most ${MAX_SESSION_NAME}`,
    });
  });
});

describe("a UTF-8 session name over HTTP and stdio", () => {
  const dir = tempDir("toolsim-names-");
  const db = join(dir.path, "toolsim.db");
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer(["--toolsets", LIBRARY, "--db", db, "--engine", "offline"]);
  });
  afterAll(async () => {
    await server.stop();
    dir.cleanup();
  });

  it("reaches one session whichever way the name is sent, and is stored as written", async () => {
    const get = { name: "get_member", arguments: { member_id: "MEM-001" } };
    const encoded = await connectHttp(server.url, { "X-Toolsim-Session": encodeURIComponent(NAME) });
    const first = callMeta(await encoded.callTool(get));
    await encoded.close();
    const rawBytes = await connectHttp(server.url, {
      "X-Toolsim-Session": Buffer.from(NAME, "utf8").toString("latin1"),
    });
    const second = callMeta(await rawBytes.callTool(get));
    await rawBytes.close();
    const modern = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { "X-Toolsim-Session": encodeURIComponent(NAME) } },
      }),
    );
    const third = callMeta(await modern.callTool(get));
    await modern.close();
    const stdio = await connectStdio(["--toolsets", LIBRARY, "--db", db, "--session", NAME]);
    const fourth = callMeta(await stdio.client.callTool(get));
    await stdio.client.close();

    expect(new Set([first.session, second.session, third.session, fourth.session]).size).toBe(1);
    expect([first.seq, second.seq, third.seq, fourth.seq]).toEqual([1, 2, 3, 4]);
    const listed = await runCli(["sessions", "--json", "--db", db]);
    const sessions = (JSON.parse(listed.stdout) as { sessions: Array<{ name: string; calls: number }> })
      .sessions;
    expect(sessions.filter((session) => session.name === NAME)).toEqual([
      expect.objectContaining({ name: NAME, calls: 4 }),
    ]);
  });

  it("refuses a name past the limit with a message, not a session", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-toolsim-session": "n".repeat(MAX_SESSION_NAME + 1),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(`toolsim takes at most ${MAX_SESSION_NAME}`);
  });
});
