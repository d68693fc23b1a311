/**
 * What only the PostgreSQL store has: a server to reach (and messages when it cannot be
 * reached), migrations recorded in a table, URLs on the command line that carry passwords.
 */
import { createServer } from "node:net";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS, openStore, StoreOpenError } from "../src/store/index.js";
import {
  callMeta,
  connectHttp,
  LIBRARY,
  postgresServerUrl,
  postgresUnavailableHere,
  runCli,
  startHttpServer,
} from "./support/index.js";
import { createDatabase } from "./support/postgres.js";

const skip = postgresUnavailableHere();

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function sql(url: string, statement: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
}

/** The URL with its password replaced. */
function withPassword(url: string, password: string): string {
  const changed = new URL(url);
  changed.password = password;
  return changed.toString();
}

describe.skipIf(skip !== undefined)("PostgreSQL store", () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let password: string;
  beforeEach(async () => {
    database = await createDatabase(postgresServerUrl());
    password = decodeURIComponent(new URL(database.url).password);
  });
  afterEach(async () => {
    await database.drop();
  });

  it("records each migration once however many stores start together, and names itself without the password", async () => {
    const stores = await Promise.all(Array.from({ length: 5 }, () => openStore(database.url)));
    try {
      const applied = await sql(database.url, "SELECT version FROM toolsim_schema ORDER BY version");
      expect(applied.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
      const { port } = new URL(database.url);
      expect(stores[0]?.location).toBe(`postgres://postgres@127.0.0.1:${port}/${database.name}`);
      expect(stores[0]?.backend).toBe("postgres");
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("says what to check when the server cannot be used, never showing the password", async () => {
    const port = await closedPort();
    const failures = [
      {
        url: `postgres://postgres:${password}@127.0.0.1:${port}/${database.name}`,
        says: [`127.0.0.1:${port}`, "connection refused", "server is running"],
      },
      {
        url: withPassword(database.url, "not-the-password"),
        says: ['refused the password of user "postgres"'],
      },
      {
        url: database.url.replace(database.name, "no_such_database"),
        says: ['database "no_such_database" does not exist', "createdb"],
      },
    ];
    for (const failure of failures) {
      const error = await openStore(failure.url).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(StoreOpenError);
      const message = (error as Error).message;
      for (const part of failure.says) expect(message).toContain(part);
      expect(message).not.toContain(password);
    }
    const invalid = await openStore(`postgres://postgres:${password}@host:notaport/db`).catch(
      (e: Error) => e,
    );
    expect((invalid as Error).message).toContain("not a valid PostgreSQL URL");
    expect((invalid as Error).message).not.toContain(password);
  });

  it("refuses a database without toolsim's tables where sessions must exist, and one a newer toolsim wrote", async () => {
    const existing = await openStore(database.url, { existing: true }).catch((e: Error) => e);
    expect((existing as Error).message).toContain("holds no toolsim sessions");
    const store = await openStore(database.url);
    await store.close();
    await sql(
      database.url,
      "INSERT INTO toolsim_schema (version, summary, applied_at) VALUES (9999, 'later', 'now')",
    );
    const newer = await openStore(database.url).catch((e: Error) => e);
    expect((newer as Error).message).toContain("written by a newer toolsim (schema 9999");
  });

  it("while the database refuses connections a call is an isError result to retry, and calls go on once it is back", async () => {
    const server = await startHttpServer([
      "--toolsets",
      LIBRARY,
      "--db",
      database.url,
      "--engine",
      "offline",
    ]);
    const client = await connectHttp(server.url, { "X-Toolsim-Session": "outage" });
    try {
      const borrow = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };
      expect((await client.callTool({ name: "borrow_book", arguments: borrow })).isError).toBeFalsy();
      const admin = postgresServerUrl();
      await sql(admin, `ALTER DATABASE "${database.name}" WITH ALLOW_CONNECTIONS false`);
      await sql(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [
        database.name,
      ]);
      const during = await client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(during.isError).toBe(true);
      expect(JSON.stringify(during.content)).toContain(
        "Nothing was recorded or changed; send the call again",
      );
      await sql(admin, `ALTER DATABASE "${database.name}" WITH ALLOW_CONNECTIONS true`);
      const after = await client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(after.isError).toBeFalsy();
      expect(callMeta(after).seq).toBe(2);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it("serve --db URL: the banner hides the password, the session commands take the URL, and calls go on after the connections drop", async () => {
    const server = await startHttpServer([
      "--toolsets",
      LIBRARY,
      "--db",
      database.url,
      "--engine",
      "offline",
    ]);
    try {
      const { port } = new URL(database.url);
      expect(server.stdout()).toContain(`state     postgres://postgres@127.0.0.1:${port}/${database.name}`);
      expect(server.stdout() + server.stderr()).not.toContain(password);
      const client = await connectHttp(server.url, { "X-Toolsim-Session": "desk" });
      const borrow = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };
      const first = await client.callTool({ name: "borrow_book", arguments: borrow });
      expect(first.isError).toBeFalsy();

      // every connection of the server's pool is cut (a database restart or failover does the same)
      await sql(
        postgresServerUrl(),
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [database.name],
      );
      const second = await client.callTool({ name: "borrow_book", arguments: borrow });
      expect(second.isError).toBeFalsy();
      expect(callMeta(second).seq).toBe(2);
      await client.close();

      const listed = await runCli(["sessions", "--db", database.url]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain("desk");
      const byEnv = await runCli(["checkpoint", "desk", "after-two", "--version", "2"], {
        TOOLSIM_DB: database.url,
      });
      expect(byEnv.code).toBe(0);
      const forked = await runCli([
        "fork",
        "desk",
        "--at",
        "after-two",
        "--name",
        "desk-copy",
        "--db",
        database.url,
      ]);
      expect(forked.code).toBe(0);
      const report = await runCli(["report", "desk-copy", "--json", "--db", database.url]);
      expect(report.code).toBe(0);
      const missing = await runCli(["report", "nobody", "--db", database.url]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(`no session "nobody" in postgres://postgres@127.0.0.1:${port}/`);
      for (const output of [listed, byEnv, forked, report, missing]) {
        expect(output.stdout + output.stderr).not.toContain(password);
      }
    } finally {
      await server.stop();
    }
  });

  it("lets a user who may only read (or a read replica) list and report sessions", async () => {
    const store = await openStore(database.url);
    const session = await store.createSession({ seed: "1", state: { notes: {} }, name: "kept" });
    await store.recordCall(
      {
        sessionId: session.id,
        tool: "noop",
        arguments: {},
        argsHash: "{}",
        status: "ok",
        findings: [],
        result: {},
        engine: "offline",
        latencyMs: 1,
      },
      0,
    );
    await store.close();
    const reader = `reader_${database.name.slice(-12)}`;
    const readerPassword = `pw-${reader}`;
    await sql(database.url, `CREATE ROLE ${reader} LOGIN PASSWORD '${readerPassword}'`);
    try {
      await sql(database.url, `GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${reader}`);
      const readerUrl = new URL(database.url);
      readerUrl.username = reader;
      readerUrl.password = readerPassword;
      const listed = await runCli(["sessions", "--db", readerUrl.toString()]);
      expect(listed.stderr).toBe("");
      expect(listed.stdout).toContain("kept");
      const report = await runCli(["report", "kept", "--json", "--db", readerUrl.toString()]);
      expect(report.code).toBe(0);
      expect(JSON.parse(report.stdout)).toMatchObject({ calls: { total: 1 } });
    } finally {
      await sql(database.url, `DROP OWNED BY ${reader}`);
      await sql(database.url, `DROP ROLE ${reader}`);
    }
  });

  it("serve and the session commands name the server and what to check when it is down, and exit", async () => {
    const port = await closedPort();
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/toolsim`;
    const serve = await runCli(["serve", "--http", "--port", "0", "--db", url]);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain(`cannot connect to PostgreSQL at 127.0.0.1:${port}: connection refused`);
    expect(serve.stderr).not.toContain(password);
    expect(serve.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    const sessions = await runCli(["sessions", "--db", database.url]);
    expect(sessions.code).toBe(1);
    expect(sessions.stderr).toContain("holds no toolsim sessions");
  });
});
