/**
 * A fleet that says why: a PostgreSQL server that stops for a few seconds, and one with
 * fewer connections than the processes' pools want. Every client, of both protocol eras,
 * gets an answer naming the database and what to do; health and readiness follow the
 * database; calls queue for connections instead of failing; nothing answered is lost.
 * Each test runs its own PostgreSQL server (test/support/postgres.ts), so stopping it or
 * filling its connections touches no other test.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../src/store/index.js";
import {
  callMeta,
  connectHttp,
  LIBRARY,
  postgresUnavailableHere,
  type RunningServer,
  runCli,
  startHttpServer,
} from "./support/index.js";
import { createDatabase, type PostgresServer, startPostgres } from "./support/postgres.js";

const skip = postgresUnavailableHere();

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function postgres(
  maxConnections?: number,
): Promise<{ server: PostgresServer; url: string; shown: string }> {
  const server = await startPostgres({ maxConnections });
  cleanups.push(() => server.stop());
  const database = await createDatabase(server.url());
  const shown = `postgres://postgres@127.0.0.1:${server.port}/${database.name}`;
  return { server, url: database.url, shown };
}

async function serve(url: string, extra: string[] = []): Promise<RunningServer> {
  const server = await startHttpServer(["--toolsets", LIBRARY, "--db", url, "--engine", "offline", ...extra]);
  cleanups.push(() => server.stop());
  return server;
}

/** A 2026-era (stateless) client naming its session. */
async function connectModern(url: string, session: string): Promise<Client> {
  const client = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { "X-Toolsim-Session": session } },
    }),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return client;
}

async function health(server: RunningServer, path: "/healthz" | "/readyz") {
  const response = await fetch(new URL(path, server.url));
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.json(),
  };
}

function text(result: { content?: unknown }): string {
  return JSON.stringify(result.content);
}

interface Answered {
  session: string;
  seq: number;
  tool: string;
}

/** The calls each session's log holds, as (session, seq, tool). */
async function logged(url: string): Promise<Answered[]> {
  const store = await openStore(url);
  try {
    const rows: Answered[] = [];
    for (const session of await store.sessions())
      for (const call of await store.calls(session.id))
        rows.push({ session: session.id, seq: call.seq, tool: call.tool });
    return rows;
  } finally {
    await store.close();
  }
}

describe.skipIf(skip !== undefined)("a fleet whose database fails", () => {
  it("while PostgreSQL is stopped, every client is told which database and when to retry; readiness fails; nothing answered is lost", {
    timeout: 120_000,
  }, async () => {
    const { server: database, url, shown } = await postgres();
    const served = await serve(url);
    const legacy = await connectHttp(served.url, { "X-Toolsim-Session": "outage-2025" });
    const modern = await connectModern(served.url, "outage-2026");
    cleanups.push(
      () => legacy.close(),
      () => modern.close(),
    );
    const answered: Answered[] = [];
    const call = async (client: Client, name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      // an answered call says where it was recorded; one the store could not take says why instead
      if (result._meta?.["toolsim/call"])
        answered.push({ session: callMeta(result).session, seq: callMeta(result).seq, tool: name });
      return result;
    };
    const borrow = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };
    expect((await call(legacy, "borrow_book", borrow)).isError).toBeFalsy();
    expect((await call(modern, "get_member", { member_id: "MEM-001" })).isError).toBeFalsy();
    expect(await health(served, "/readyz")).toMatchObject({
      status: 200,
      body: { ready: true, store: { backend: "postgres", location: shown, state: "up" } },
    });

    await database.pause();
    try {
      const retry = /Nothing was recorded or changed; send the call again/;
      for (const client of [legacy, modern]) {
        const during = await call(client, "get_member", { member_id: "MEM-002" });
        expect(during.isError).toBe(true);
        expect(text(during)).toContain(`the database ${shown} is unavailable`);
        expect(text(during)).toMatch(retry);
      }
      // a new stateless session cannot even be looked up: the same answer, as a tool result
      const newcomer = await connectModern(served.url, "arrived-during-outage");
      cleanups.push(() => newcomer.close());
      const refused = await newcomer.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain(`the database ${shown} is unavailable`);
      expect(text(refused)).toContain("send the call again in 5 s");
      expect(refused._meta?.["toolsim/unavailable"]).toMatchObject({ store: shown, retryAfterSeconds: 5 });
      // a 2025-era client that initializes now is refused with the same words, not a bare 500
      const initialize = await connectHttp(served.url, { "X-Toolsim-Session": "late-2025" }).then(
        () => "connected",
        (error: Error) => error.message,
      );
      const raw = await fetch(served.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
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
      expect([raw.status, raw.headers.get("retry-after")]).toEqual([503, "5"]);
      expect(initialize).toContain(`the database ${shown} is unavailable`);
      expect(initialize).toContain("send the request again in 5 s");

      const ready = await health(served, "/readyz");
      expect(ready).toMatchObject({
        status: 503,
        retryAfter: "5",
        body: { ready: false, store: { state: "down" } },
      });
      expect((ready.body as { store: { reason: string } }).store.reason).toContain(shown);
      expect(await health(served, "/healthz")).toMatchObject({
        status: 200,
        body: { ok: true, store: { location: shown, state: "down" } },
      });
    } finally {
      await database.resume();
    }

    for (const client of [legacy, modern]) {
      expect((await call(client, "get_member", { member_id: "MEM-002" })).isError).toBeFalsy();
    }
    expect((await call(legacy, "borrow_book", borrow)).isError).toBeFalsy();
    expect((await health(served, "/readyz")).status).toBe(200);
    const log = await logged(url);
    for (const answer of answered) expect(log).toContainEqual(answer);
    // and only what was answered: the calls refused during the outage left nothing
    expect(log).toHaveLength(answered.length);
  });

  it("with fewer connections than the pools want, calls queue and all are answered; past the bound the error names max_connections and --pg-pool-size", {
    timeout: 120_000,
  }, async () => {
    const { server: database, url } = await postgres(6);
    // two processes whose pools want 10 connections together, on a server that has 6; a call
    // waits for a connection up to 30 s (connect_timeout), longer than another process keeps
    // an idle one; a third process gives up after 2 s, to see what past the bound says
    const withBound = (seconds: number) => `${url}?connect_timeout=${seconds}`;
    const pool = ["--pg-pool-size", "5"];
    const fleet = [await serve(withBound(30), pool), await serve(withBound(30), pool)];
    const impatient = await serve(withBound(2), pool);
    const held: pg.Client[] = [];
    cleanups.push(async () => {
      for (const client of held) await client.end().catch(() => {});
    });
    // another user of the server takes some of what is left
    await holdConnections(database.url(), held, 2);

    const sessions = Array.from({ length: 8 }, (_, i) => `crowd-${i}`);
    const clients = await Promise.all(
      sessions.flatMap((name) => fleet.map((server) => connectModern(server.url, name))),
    );
    cleanups.push(...clients.map((client) => () => client.close()));
    const results = await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: 4 }, () =>
          client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } }),
        ),
      ),
    );
    expect(results.filter((result) => result.isError).map(text)).toEqual([]);
    // they queued: the server did refuse connections meanwhile
    expect(database.log()).toContain("sorry, too many clients already");
    const answered = results.map((result) => ({
      session: callMeta(result).session,
      seq: callMeta(result).seq,
      tool: "get_member",
    }));

    // a 2025-era session on the impatient process, then every connection taken and the processes' own cut;
    // the other user lets one connection go first, as the fleet's pools may still hold every other one
    if (held.length > 1) await held.pop()?.end();
    const lone = await connectHttp(impatient.url, { "X-Toolsim-Session": "lone" });
    cleanups.push(() => lone.close());
    const before = await lone.callTool({ name: "get_member", arguments: { member_id: "MEM-002" } });
    expect(before.isError).toBeFalsy();
    answered.push({ session: callMeta(before).session, seq: callMeta(before).seq, tool: "get_member" });
    await holdConnections(database.url(), held, Number.POSITIVE_INFINITY, true);
    const refused = await lone.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("has no free connections (max_connections reached");
    expect(text(refused)).toContain("within 2 s");
    expect(text(refused)).toContain("--pg-pool-size / TOOLSIM_PG_POOL_SIZE (5 here)");
    expect(text(refused)).toContain("send the call again");

    for (const client of held.splice(0)) await client.end();
    const after = await lone.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
    expect(after.isError).toBeFalsy();
    answered.push({ session: callMeta(after).session, seq: callMeta(after).seq, tool: "get_member" });
    const log = await logged(url);
    for (const answer of answered) expect(log).toContainEqual(answer);
    expect(log).toHaveLength(answered.length);
  });
});

/**
 * Opens connections to the server until `count` are held or the server refuses more;
 * `cutOthers` first ends every other client's connection (the serve processes' pools),
 * through the first connection held.
 */
async function holdConnections(
  url: string,
  held: pg.Client[],
  count: number,
  cutOthers = false,
): Promise<void> {
  const admin = held[0];
  if (cutOthers && admin) {
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> ALL($1)",
      [await heldPids(held)],
    );
  }
  while (held.length < count) {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      if ((error as { code?: string }).code === "53300") return;
      throw error;
    }
    held.push(client);
  }
}

async function heldPids(held: pg.Client[]): Promise<number[]> {
  const pids: number[] = [];
  for (const client of held)
    pids.push(Number((await client.query("SELECT pg_backend_pid() AS pid")).rows[0]?.pid));
  return pids;
}

describe("the pool size setting", () => {
  it("takes --pg-pool-size or TOOLSIM_PG_POOL_SIZE, and says what it takes", async () => {
    const flag = await runCli(["serve", "--http", "--port", "0", "--pg-pool-size", "0"]);
    expect([flag.code, flag.stderr]).toEqual([
      2,
      expect.stringContaining('--pg-pool-size takes a whole number from 1 to 1000; got "0"'),
    ]);
    const env = await runCli(["serve", "--http", "--port", "0"], { TOOLSIM_PG_POOL_SIZE: "many" });
    expect([env.code, env.stderr]).toEqual([
      2,
      expect.stringContaining('TOOLSIM_PG_POOL_SIZE takes a whole number from 1 to 1000; got "many"'),
    ]);
    const help = await runCli(["serve", "--help"]);
    expect(help.stdout).toContain("--pg-pool-size N");
  });
});
