/**
 * The PostgreSQL store's pool, in process: a server that stops and comes back, connections
 * cut under it, a pool whose connections are all busy, and a server with no connection to
 * spare. The file runs PostgreSQL servers of its own (test/support/postgres.ts): stopping
 * one or filling its connections touches no other test file.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store, StoreUnavailableError } from "../src/store/index.js";
import { newCall, postgresUnavailableHere } from "./support/index.js";
import { createDatabase, type PostgresServer, startPostgres } from "./support/postgres.js";

const skip = postgresUnavailableHere();

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** Two servers for the file: one to stop and cut, one with few connections; a new database per test. */
const servers: { normal?: PostgresServer; small?: PostgresServer } = {};
beforeAll(async () => {
  if (skip !== undefined) return;
  [servers.normal, servers.small] = await Promise.all([
    startPostgres(),
    startPostgres({ maxConnections: 6 }),
  ]);
});
afterAll(async () => {
  await Promise.all([servers.normal?.stop(), servers.small?.stop()]);
});

async function server(
  kind: "normal" | "small" = "normal",
): Promise<{ db: PostgresServer; url: string; shown: string }> {
  const db = servers[kind];
  if (!db) throw new Error("no test server");
  const database = await createDatabase(db.url());
  cleanups.push(() => database.drop());
  return { db, url: database.url, shown: `postgres://postgres@127.0.0.1:${db.port}/${database.name}` };
}

async function open(url: string, poolSize?: number): Promise<Store> {
  const store = await openStore(url, { poolSize });
  cleanups.push(() => store.close());
  return store;
}

async function failure(promise: Promise<unknown>): Promise<StoreUnavailableError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreUnavailableError);
  return error as StoreUnavailableError;
}

/** Connections held from the test: up to `count`, or until the server refuses more. */
async function hold(url: string, count: number): Promise<pg.Client[]> {
  const held: pg.Client[] = [];
  cleanups.push(async () => {
    for (const client of held) await client.end().catch(() => {});
  });
  while (held.length < count) {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      if ((error as { code?: string }).code === "53300") break;
      throw error;
    }
    held.push(client);
  }
  return held;
}

/** Ends every client connection to the server but those of `keep` (the first of which does it). */
async function cutOthers(keep: pg.Client[]): Promise<number> {
  const pids: number[] = [];
  for (const client of keep)
    pids.push(Number((await client.query("SELECT pg_backend_pid() AS pid")).rows[0]?.pid));
  const result = await (keep[0] as pg.Client).query(
    "SELECT count(pg_terminate_backend(pid)) AS cut FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> ALL($1)",
    [pids],
  );
  return Number(result.rows[0]?.cut);
}

describe.skipIf(skip !== undefined)("the PostgreSQL pool", () => {
  it("while the server is stopped, every statement fails naming the database, health says down; all comes back with it", async () => {
    const { db, url, shown } = await server();
    const store = await open(url);
    const session = await store.createSession({ seed: "1", state: { notes: {} }, name: "desk" });
    expect(await store.health()).toMatchObject({ backend: "postgres", location: shown, state: "up" });
    await db.pause();
    try {
      const lost = await failure(store.recordCall(newCall(session.id, "noop"), 0));
      expect(lost.message).toMatch(
        new RegExp(`^the database ${shown.replaceAll("/", "\\/")} is unavailable: `),
      );
      expect([lost.location, lost.retryAfterSeconds]).toEqual([shown, 5]);
      const refused = await failure(store.session("desk", ""));
      expect(refused.message).toContain(
        `cannot connect to PostgreSQL at 127.0.0.1:${db.port}: connection refused`,
      );
      const health = await store.health();
      expect(health).toMatchObject({ location: shown, state: "down" });
      expect(health.reason).toContain("connection refused");
      expect(health.pool).toMatchObject({ size: 10, inUse: 0, waiting: 0 });
    } finally {
      await db.resume();
    }
    expect((await store.health()).state).toBe("up");
    const commit = await store.recordCall(newCall(session.id, "noop"), 0);
    expect(commit.kind === "recorded" && commit.call.seq).toBe(1);
    expect(await store.callCount(session.id)).toBe(1);
  });

  it("replaces connections the server cut, sending reads again and recording a call once", async () => {
    const { db, url } = await server();
    const store = await open(url, 3);
    const session = await store.createSession({ seed: "1", state: { notes: {} } });
    // open all three connections of the pool, then cut them
    await Promise.all([1, 2, 3].map(() => store.headVersion(session.id)));
    const [admin] = await hold(db.url(), 1);
    expect(await cutOthers([admin as pg.Client])).toBeGreaterThanOrEqual(1);
    expect(await store.headVersion(session.id)).toBe(0);
    await cutOthers([admin as pg.Client]);
    const commit = await store.recordCall(newCall(session.id, "noop"), 0);
    expect(commit.kind === "recorded" && commit.call.seq).toBe(1);
    expect((await store.calls(session.id)).map((call) => call.seq)).toEqual([1]);
  });

  it("queues statements for its connections; one that waits past the connect timeout says the pool stayed busy", async () => {
    const { url } = await server();
    const bounded = `${url}?connect_timeout=1`;
    const store = await open(bounded, 2);
    const session = await store.createSession({ seed: "1", state: { notes: {} } });
    // twenty statements through two connections: they wait their turn, none fails
    const versions = await Promise.all(Array.from({ length: 20 }, () => store.headVersion(session.id)));
    expect(versions).toEqual(Array(20).fill(0));
    // both connections held by transactions that wait on a lock the test holds
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    cleanups.push(() => locker.end());
    await locker.query("BEGIN");
    await locker.query("SELECT * FROM sessions WHERE id = $1 FOR UPDATE", [session.id]);
    // each takes its turn for a connection as it starts: both are theirs from here on
    const blocked = [1, 2].map(() => store.resetState(session.id, { notes: {} }, { reason: "reset" }));
    expect((await store.health()).pool).toMatchObject({ size: 2, inUse: 2 });
    const waited = await failure(store.headVersion(session.id));
    expect(waited.message).toContain("all 2 connections of this process to PostgreSQL at 127.0.0.1:");
    expect(waited.message).toContain("stayed busy for 1 s");
    expect(waited.message).toContain("--pg-pool-size / TOOLSIM_PG_POOL_SIZE (2 here)");
    expect(waited.message).toContain("max_connections");
    await locker.query("ROLLBACK");
    await Promise.all(blocked);
    expect(await store.headVersion(session.id)).toBe(2);
  });

  it("with no connection to spare on the server, uses the ones it holds; past the bound names max_connections", async () => {
    const { db, url } = await server("small");
    const bounded = `${url}?connect_timeout=1`;
    const store = await open(bounded, 5);
    const session = await store.createSession({ seed: "1", state: { notes: {} } });
    // the pool holds one connection; everything else on the server is taken
    const held = await hold(db.url(), 100);
    expect(held.length).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: 12 }, () => store.headVersion(session.id)));
    expect(answers).toEqual(Array(12).fill(0));
    expect((await store.health()).pool?.open).toBe(1);
    expect(db.log()).toContain("sorry, too many clients already");

    // its own connection cut too, and the slot it freed taken: nothing comes free within the bound
    await cutOthers(held);
    held.push(...(await hold(db.url(), 100)));
    const refused = await failure(store.headVersion(session.id));
    expect(refused.message).toMatch(
      /^PostgreSQL at 127\.0\.0\.1:\d+ has no free connections \(max_connections reached: "sorry, too many clients already"\), and none of the \d+ this process holds came free within 1 s\. --pg-pool-size \/ TOOLSIM_PG_POOL_SIZE \(5 here\) × the number of toolsim processes must stay under the server's max_connections: run fewer processes, give each a smaller pool, or raise max_connections on the server/,
    );
    expect(refused.retryAfterSeconds).toBe(5);
    expect((await store.health()).state).toBe("down");

    for (const client of held.splice(0)) await client.end();
    expect(await store.headVersion(session.id)).toBe(0);
    expect((await store.health()).state).toBe("up");
  });
});
