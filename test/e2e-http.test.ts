import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callMeta,
  connectHttp,
  LIBRARY,
  type RunningServer,
  runCli,
  startHttpServer,
  tempDir,
} from "./support/index.js";

const BORROW = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };

/** A raw POST, so tests can set Host and Origin the way a browser or a rebinding attack would. */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => {
          text += d.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("Streamable HTTP end to end", () => {
  const dir = tempDir();
  let server: RunningServer;

  beforeAll(async () => {
    server = await startHttpServer([
      "--toolsets",
      LIBRARY,
      "--db",
      join(dir.path, "http.db"),
      "--page-size",
      "3",
    ]);
  });
  afterAll(async () => {
    await server.stop();
    dir.cleanup();
  });

  it("prints the URL, the catalog, the engine, the state file and a Claude Desktop entry", () => {
    const banner = server.stdout();
    expect(banner).toMatch(/MCP URL\s+http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(banner).toContain("1 toolset, 8 tools, 1 task");
    expect(banner).toContain("engine    offline");
    expect(banner).toContain(join(dir.path, "http.db"));
    expect(banner).toContain('"--stdio"');
  });

  it("two concurrent MCP sessions cannot see each other's state", async () => {
    const [a, b] = await Promise.all([connectHttp(server.url), connectHttp(server.url)]);
    await Promise.all([
      a.callTool({ name: "borrow_book", arguments: BORROW }),
      a.callTool({ name: "delete_member", arguments: { member_id: "MEM-002" } }),
    ]);
    const seenByB = await b.callTool({ name: "get_member", arguments: { member_id: "MEM-002" } });
    const booksB = await b.callTool({ name: "search_books", arguments: { genre: "fiction" } });
    const seenByA = await a.callTool({ name: "get_member", arguments: { member_id: "MEM-002" } });
    expect(seenByB.isError).toBeFalsy();
    expect((booksB.structuredContent as { books: Array<{ copies: number }> }).books[0]?.copies).toBe(2);
    expect(seenByA.isError).toBe(true);
    const sessionA = callMeta(seenByA).session;
    const sessionB = callMeta(seenByB).session;
    expect(sessionA).not.toBe(sessionB);
    await Promise.all([a.close(), b.close()]);
  });

  it("X-Toolsim-Session names a session that later connections resume", async () => {
    const first = await connectHttp(server.url, { "X-Toolsim-Session": "shared-desk" });
    await first.callTool({ name: "borrow_book", arguments: BORROW });
    await first.close();
    const second = await connectHttp(server.url, { "X-Toolsim-Session": "shared-desk" });
    const books = await second.callTool({ name: "search_books", arguments: { genre: "fiction" } });
    expect((books.structuredContent as { books: Array<{ copies: number }> }).books[0]?.copies).toBe(1);
    await second.close();
  });

  it("serves the 2026 stateless protocol era too, keyed by X-Toolsim-Session", async () => {
    const modern = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { "X-Toolsim-Session": "shared-desk" } },
      }),
    );
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const books = await modern.callTool({ name: "search_books", arguments: { genre: "fiction" } });
    expect((books.structuredContent as { books: Array<{ copies: number }> }).books[0]?.copies).toBe(1);
    await modern.close();
  });

  it("paginates tools/list with opaque cursors", async () => {
    const client = await connectHttp(server.url);
    const first = (await client.request({ method: "tools/list", params: {} })) as {
      tools: unknown[];
      nextCursor?: string;
    };
    expect(first.tools).toHaveLength(3);
    expect(first.nextCursor).toBeTruthy();
    const all = await client.listTools();
    expect(all.tools).toHaveLength(8 + 7); // the catalog's tools and the sim_ control tools
    await client.close();
  });

  it("refuses a foreign Origin and a foreign Host (DNS rebinding)", async () => {
    const badOrigin = await rawPost(server.url, { origin: "http://evil.example" });
    expect(badOrigin.status).toBe(403);
    const badHost = await rawPost(server.url, { host: "evil.example" });
    expect(badHost.status).toBe(403);
    const localOrigin = await rawPost(server.url, { origin: "http://localhost:5173" });
    expect(localOrigin.status).toBe(200);
  });
});

describe("HTTP security settings", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("enforces the bearer token when one is set", async () => {
    const server = await startHttpServer(["--toolsets", LIBRARY, "--db", join(dir.path, "token.db")], {
      TOOLSIM_TOKEN: "s3cret-token",
    });
    try {
      expect((await rawPost(server.url, {})).status).toBe(401);
      expect((await rawPost(server.url, { authorization: "Bearer wrong-token!" })).status).toBe(401);
      const client = await connectHttp(server.url, { Authorization: "Bearer s3cret-token" });
      const result = await client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(result.isError).toBeFalsy();
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it("refuses to bind a non-loopback address without a token", async () => {
    const run = await runCli(
      ["serve", "--host", "0.0.0.0", "--port", "0", "--toolsets", LIBRARY, "--db", join(dir.path, "open.db")],
      {
        TOOLSIM_TOKEN: "",
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("refusing to listen on 0.0.0.0 without a token");
  });

  it("--watch reloads a changed toolset file and tells clients the tool list changed", async () => {
    const file = join(dir.path, "library.json");
    copyFileSync(LIBRARY, file);
    const server = await startHttpServer(["--toolsets", file, "--db", join(dir.path, "watch.db"), "--watch"]);
    try {
      const client = await connectHttp(server.url);
      const changed = new Promise<void>((resolve) => {
        client.setNotificationHandler("notifications/tools/list_changed", () => resolve());
      });
      const toolset = JSON.parse(readFileSync(file, "utf8"));
      toolset.tools.push({ ...toolset.tools[0], name: "get_member_card", effects: [] });
      writeFileSync(file, JSON.stringify(toolset));
      await changed;
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("get_member_card");
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
