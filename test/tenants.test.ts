import { writeFileSync } from "node:fs";
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

const ALICE = "alice-token-0001";
const BOB = "bob-token-00002";
const BORROW = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };

/** A 2026-era (stateless) client, optionally naming its session. */
async function modernClient(url: string, token: string, session?: string): Promise<Client> {
  const client = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (session) headers["X-Toolsim-Session"] = session;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe("tenants: each token sees only its own sessions", () => {
  const dir = tempDir();
  let server: RunningServer;

  beforeAll(async () => {
    const tokens = join(dir.path, "tokens.json");
    writeFileSync(tokens, JSON.stringify({ alice: ALICE, bob: BOB }));
    server = await startHttpServer([
      "--toolsets",
      LIBRARY,
      "--db",
      join(dir.path, "t.db"),
      "--tokens",
      tokens,
    ]);
  });
  afterAll(async () => {
    await server.stop();
    dir.cleanup();
  });

  it("a session name is a tenant's own: the same name in another tenant is another session", async () => {
    const alice = await connectHttp(server.url, {
      Authorization: `Bearer ${ALICE}`,
      "X-Toolsim-Session": "work",
    });
    const bob = await connectHttp(server.url, {
      Authorization: `Bearer ${BOB}`,
      "X-Toolsim-Session": "work",
    });
    try {
      const borrowed = await alice.callTool({ name: "borrow_book", arguments: BORROW });
      expect(borrowed.isError).toBeFalsy();
      const aliceSession = callMeta(borrowed).session;
      const bobCall = await bob.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(callMeta(bobCall).session).not.toBe(aliceSession);
      expect(callMeta(bobCall).stateVersion).toBe(0); // Alice's write is not in Bob's world
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it("knowing another tenant's session id gives nothing: it names a new session of one's own", async () => {
    const alice = await connectHttp(server.url, {
      Authorization: `Bearer ${ALICE}`,
      "X-Toolsim-Session": "private",
    });
    const written = await alice.callTool({ name: "borrow_book", arguments: BORROW });
    const id = callMeta(written).session;
    await alice.close();
    const bob = await connectHttp(server.url, { Authorization: `Bearer ${BOB}`, "X-Toolsim-Session": id });
    try {
      const read = await bob.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(callMeta(read).session).not.toBe(id);
      expect(callMeta(read).stateVersion).toBe(0);
    } finally {
      await bob.close();
    }
  });

  it("a stateless client without a session header gets its tenant's default session, not another tenant's", async () => {
    const alice = await modernClient(server.url, ALICE);
    const bob = await modernClient(server.url, BOB);
    try {
      expect(alice.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const a1 = await alice.callTool({ name: "borrow_book", arguments: BORROW });
      const b1 = await bob.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(callMeta(b1).session).not.toBe(callMeta(a1).session);
      expect(callMeta(b1).stateVersion).toBe(0);
      // the same tenant, another connection: the same default session, which has Alice's write
      const again = await modernClient(server.url, ALICE);
      const a2 = await again.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(callMeta(a2).session).toBe(callMeta(a1).session);
      expect(callMeta(a2).stateVersion).toBe(callMeta(a1).stateVersion);
      await again.close();
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it("an MCP session opened with one token is unknown to another", async () => {
    const post = (token: string, body: unknown, session?: string) =>
      fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post(ALICE, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id");
    expect(session).toBeTruthy();
    await init.text();
    const stolen = await post(BOB, { jsonrpc: "2.0", id: 2, method: "tools/list" }, session ?? "");
    expect(stolen.status).toBe(404);
    const own = await post(ALICE, { jsonrpc: "2.0", id: 3, method: "tools/list" }, session ?? "");
    expect(own.status).toBe(200);
  });

  it("refuses a missing or unknown token, and the CLI shows the tenant of each session", async () => {
    const refused = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer nobody-token",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    // each tenant names a session "listed" of its own, here: the test needs no other to have run
    for (const token of [ALICE, BOB]) {
      const client = await connectHttp(server.url, {
        Authorization: `Bearer ${token}`,
        "X-Toolsim-Session": "listed",
      });
      await client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      await client.close();
    }
    const listed = await runCli(["sessions", "--json", "--db", join(dir.path, "t.db")]);
    const sessions = (
      JSON.parse(listed.stdout) as { sessions: Array<{ tenant: string; name: string | null }> }
    ).sessions;
    const owners = sessions
      .filter((s) => s.name === "listed")
      .map((s) => s.tenant)
      .sort();
    expect(owners).toEqual(["alice", "bob"]);
  });
});

describe("tokens on the command line", () => {
  it("refuses a token file that is not an object of tenant names and tokens", async () => {
    const dir = tempDir();
    try {
      const file = join(dir.path, "tokens.json");
      writeFileSync(file, JSON.stringify(["just-a-token"]));
      const run = await runCli(["serve", "--http", "--port", "0", "--tokens", file]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("expected a JSON object of tenant names and tokens");
      writeFileSync(file, JSON.stringify({ "bad name!": "long-enough-token" }));
      const badName = await runCli(["serve", "--http", "--port", "0", "--tokens", file]);
      expect(badName.stderr).toContain("tenant names are 1-64 letters");
    } finally {
      dir.cleanup();
    }
  });
});
