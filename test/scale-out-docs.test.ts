import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  commandOf,
  DocRun,
  fence,
  readerEnv,
  type Serving,
  startServing,
  toolsimBin,
} from "./support/docs.js";
import { connectHttp, postgresUnavailableHere, tempDir } from "./support/index.js";
import { type PostgresServer, startPostgres } from "./support/postgres.js";

/**
 * docs/scale-out.md's fleet command and the README's PostgreSQL line, as written, against a
 * PostgreSQL server of this test's own that speaks TLS with a CA of its own, a role `toolsim`
 * and its database `toolsim`, as the page sets them up. What is the reader's stands in for
 * itself here: their database host (`db.internal:5432`, here `localhost` on the server's
 * port), the password `…`, the CA file and the tokens file under /etc/toolsim, and the port
 * 3333 (here a free one).
 */
const unavailable = postgresUnavailableHere();
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-scale-out-docs-");
const bin = toolsimBin(join(dir.path, "bin"));
const PASSWORD = "fleet-secret-9c1";
const TOKEN = "docs-fleet-token";
let server: PostgresServer | undefined;

beforeAll(async () => {
  if (unavailable) return;
  server = await startPostgres({ tls: true });
  const admin = new pg.Client({ connectionString: server.url() });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE toolsim LOGIN PASSWORD '${PASSWORD}'`);
    await admin.query("CREATE DATABASE toolsim OWNER toolsim");
  } finally {
    await admin.end();
  }
}, 120_000);
afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

/** The reader's things, as the pages name them, and what stands for them here. */
function swap(text: string): string {
  if (!server?.caFile) throw new Error("no PostgreSQL server");
  writeFileSync(join(dir.path, "tokens.json"), JSON.stringify({ fleet: TOKEN }));
  return text
    .replaceAll("db.internal:5432", `localhost:${server.port}`)
    .replaceAll("/etc/toolsim/db-ca.pem", server.caFile)
    .replaceAll("/etc/toolsim/tokens.json", join(dir.path, "tokens.json"))
    .replaceAll("PGPASSWORD=…", `PGPASSWORD=${PASSWORD}`)
    .replaceAll("--port 3333", "--port 0");
}

/** Lists the tools and calls one with the token; the call is in the database, over TLS when `tls`. */
async function useFleet(serving: Serving, tls: boolean): Promise<void> {
  const client = await connectHttp(serving.url, {
    Authorization: `Bearer ${TOKEN}`,
    "X-Toolsim-Session": "fleet-docs",
  });
  try {
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const order = await client.callTool({ name: "get_order", arguments: { order_id: "ORD-1001" } });
    expect(order.isError).toBeFalsy();
  } finally {
    await client.close();
  }
  // the call is in the database the URL names, as the role it names
  const db = new pg.Client({
    connectionString: `postgres://toolsim:${PASSWORD}@127.0.0.1:${server?.port}/toolsim`,
  });
  await db.connect();
  try {
    const { rows } = await db.query("SELECT count(*)::int AS calls FROM calls");
    expect(rows[0]?.calls).toBeGreaterThan(0);
    // the serving process's own connections, still open in its pool
    const encrypted = await db.query(
      "SELECT count(*)::int AS n FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE ssl AND pid <> pg_backend_pid() AND usename = 'toolsim'",
    );
    expect(encrypted.rows[0]?.n > 0).toBe(tls);
  } finally {
    await db.end();
  }
}

describe.skipIf(unavailable)("docs/scale-out.md: a fleet on one PostgreSQL", () => {
  it("serves from the database the URL names, over TLS it verifies, and prints no password", async () => {
    const block = fence("docs/scale-out.md", {
      heading: "Running a fleet: many toolsim processes on one PostgreSQL",
      lang: "sh",
    });
    const serving = await startServing(swap(block.code), dir.path, readerEnv(bin, join(dir.path, "home")));
    try {
      await useFleet(serving, true);
    } finally {
      await serving.stop();
    }
    const printed = serving.stdout() + serving.stderr();
    expect(printed).toContain(`state     postgres://toolsim@localhost:${server?.port}/toolsim`);
    expect(printed).not.toContain(PASSWORD);
    doc.ran(block);
  }, 60_000);

  it("refuses a server whose certificate the CA did not sign, saying so", async () => {
    const block = fence("docs/scale-out.md", {
      heading: "Running a fleet: many toolsim processes on one PostgreSQL",
      lang: "sh",
    });
    // the same lines with another CA: verify-full must not connect
    const other = join(dir.path, "other-ca.pem");
    const ca = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=another CA"];
    execFileSync("openssl", [...ca, "-keyout", join(dir.path, "other-ca.key"), "-out", other], {
      stdio: "pipe",
    });
    const script = swap(block.code).replace(server?.caFile ?? "", other);
    const refused = startServing(script, dir.path, readerEnv(bin, join(dir.path, "home")), 30_000);
    await expect(refused).rejects.toThrow(/TLS with .* failed .*check sslmode and sslrootcert/);
  }, 60_000);

  it("the README's line serves from the database it names, with its token", async () => {
    const block = fence("README.md", { heading: "Many processes, one PostgreSQL", lang: "sh" });
    const env = readerEnv(bin, join(dir.path, "home"), { TOKEN, PGPASSWORD: PASSWORD });
    const serving = await startServing(`${commandOf(swap(block.code.trim()))} --port 0`, dir.path, env);
    try {
      await useFleet(serving, false);
    } finally {
      await serving.stop();
    }
    expect(serving.stdout()).not.toContain(PASSWORD);
    doc.ran(block);
  }, 60_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
