/**
 * `toolsim sessions`: selecting sessions, pruning them (a dry run unless confirmed) on both
 * stores, and reading a state file the user may only read.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../src/store/index.js";
import {
  CLI,
  newCall,
  postgresBackend,
  runCli,
  type StoreBackend,
  type StoreDatabase,
  sqliteBackend,
  tempDir,
} from "./support/index.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const DAY = 86_400_000;

/** Four sessions: two old runs of a task, a recent run of it, an old unnamed one; each with calls. */
async function seed(store: Store): Promise<void> {
  const sessions = [
    { name: "run-1", taskId: "desk-task", calls: 2 },
    { name: "run-2", taskId: "desk-task", calls: 1 },
    { name: "run-3", taskId: "desk-task", calls: 3 },
    { name: undefined, taskId: undefined, calls: 1 },
  ];
  for (const { name, taskId, calls } of sessions) {
    const session = await store.createSession({ seed: "1", state: { notes: {} }, name, taskId });
    for (let i = 0; i < calls; i++) await store.recordCall(newCall(session.id, "noop", { i }), 0);
  }
}

/** Sets when each session was last used, `days` ago, by name (null: the unnamed one). */
const AGES: Array<[string | null, number]> = [
  ["run-1", 30],
  ["run-2", 10],
  ["run-3", 1],
  [null, 40],
];

/** A session last used at a time: its row and its calls say so. */
function ageing(name: string | null, at: string, named: string): string[] {
  const which = name === null ? "name IS NULL" : `name = ${named}`;
  return [
    `UPDATE sessions SET created_at = ${at}, updated_at = ${at} WHERE ${which}`,
    `UPDATE calls SET created_at = ${at} WHERE session_id IN (SELECT id FROM sessions WHERE ${which})`,
  ];
}

async function age(backend: string, location: string): Promise<void> {
  const now = Date.now();
  if (backend === "sqlite") {
    const db = new Database(location);
    try {
      for (const [name, days] of AGES) {
        const at = new Date(now - days * DAY).toISOString();
        for (const statement of ageing(name, "@at", "@name"))
          db.prepare(statement).run(name === null ? { at } : { at, name });
      }
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    for (const [name, days] of AGES) {
      const at = new Date(now - days * DAY).toISOString();
      for (const statement of ageing(name, "$1", "$2"))
        await client.query(statement, name === null ? [at] : [at, name]);
    }
  } finally {
    await client.end();
  }
}

async function names(database: StoreDatabase): Promise<Array<string | null>> {
  const store = await database.open();
  try {
    return (await store.sessions()).map((session) => session.name);
  } finally {
    await store.close();
  }
}

for (const backend of [sqliteBackend, postgresBackend] as StoreBackend[]) {
  const skip = backend.unavailable?.();
  describe.skipIf(skip !== undefined)(`toolsim sessions --prune on ${backend.name}`, () => {
    async function fresh(): Promise<StoreDatabase> {
      const database = await backend.fresh();
      cleanups.push(() => database.dispose());
      const store = await database.open();
      await seed(store);
      await store.close();
      await age(backend.name, database.location);
      return database;
    }

    it("says what it would remove and removes nothing without --yes; with it, removes just those", async () => {
      const database = await fresh();
      const db = ["--db", database.location];
      const dry = await runCli(["sessions", "--prune", "--older-than", "7d", "--task", "desk-task", ...db]);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(
        /^would remove 2 sessions not used for 7d, on task desk-task \(3 calls\) from .+:\n {2}run-1 \(.+\): task desk-task; 2 calls; updated .+\n {2}run-2 \(.+\): task desk-task; 1 call; updated .+\nnothing was removed: run again with --yes to remove them\n$/,
      );
      expect(await names(database)).toHaveLength(4);

      const removed = await runCli([
        "sessions",
        "--prune",
        "--older-than",
        "7d",
        "--task",
        "desk-task",
        "--yes",
        ...db,
      ]);
      expect(removed.code).toBe(0);
      expect(removed.stdout).toMatch(
        /^removed 2 sessions not used for 7d, on task desk-task \(3 calls\) from /,
      );
      expect((await names(database)).sort()).toEqual([null, "run-3"].sort());
      // their calls went with them; the others' stayed
      const store = await database.open();
      try {
        expect(await store.stats()).toMatchObject({ sessions: 2, calls: 4 });
      } finally {
        await store.close();
      }
    });

    it("selects by name pattern and lists what the selectors match", async () => {
      const database = await fresh();
      const db = ["--db", database.location];
      const listed = await runCli(["sessions", "--json", "--name", "run-?", "--older-than", "5d", ...db]);
      const sessions = (JSON.parse(listed.stdout) as { sessions: Array<{ name: string }> }).sessions;
      expect(sessions.map((s) => s.name).sort()).toEqual(["run-1", "run-2"]);
      await runCli(["sessions", "--prune", "--name", "run-*", "--yes", ...db]);
      expect(await names(database)).toEqual([null]);
      const none = await runCli(["sessions", "--prune", "--name", "run-*", ...db]);
      expect(none.stdout).toContain('no sessions named like "run-*" in ');
    });
  });
}

describe("toolsim sessions: what it refuses", () => {
  it("will not prune without a selector, confirm without --prune, or read an age it does not know", async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const db = join(dir.path, "toolsim.db");
    const store = await openStore(db);
    await store.close();
    const bare = await runCli(["sessions", "--prune", "--db", db]);
    expect([bare.code, bare.stderr]).toEqual([
      2,
      expect.stringContaining("say which sessions to remove: --older-than AGE"),
    ]);
    const yes = await runCli(["sessions", "--yes", "--db", db]);
    expect([yes.code, yes.stderr]).toEqual([2, expect.stringContaining("--yes confirms --prune")]);
    const age = await runCli(["sessions", "--prune", "--older-than", "a week", "--db", db]);
    expect([age.code, age.stderr]).toEqual([
      2,
      expect.stringContaining("--older-than takes a number and a unit"),
    ]);
  });
});

/**
 * Runs the CLI as a user who may not write the state file: as `nobody` when the tests run
 * as root (whom permissions do not stop), as this user otherwise.
 */
function runAsReader(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const root = process.getuid?.() === 0;
  const [command, commandArgs] = root
    ? ["runuser", ["-u", "nobody", "--", process.execPath, CLI, ...args]]
    : [process.execPath, [CLI, ...args]];
  const run = spawnSync(command, commandArgs, {
    encoding: "utf8",
    cwd: "/",
    env: { ...process.env, HOME: "/" },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const noReader =
  process.getuid?.() === 0 && spawnSync("runuser", ["-u", "nobody", "--", "true"]).status !== 0
    ? "running as root without runuser and a nobody user to read as"
    : undefined;

describe.skipIf(noReader !== undefined)("a state file the user may only read", () => {
  it.each([
    ["a folder it may not write either", 0o555],
    ["a folder it may write", 0o777],
  ])(
    "sessions, report and a dry-run prune read it (file 0444, in %s); removing says why it cannot",
    async (_, mode) => {
      const dir = tempDir("toolsim-readonly-");
      const folder = join(dir.path, "state");
      const db = join(folder, "toolsim.db");
      const store = await openStore(db);
      const session = await store.createSession({ seed: "1", state: { notes: {} }, name: "kept" });
      await store.recordCall(newCall(session.id, "noop"), 0);
      await store.close();
      expect(existsSync(`${db}-wal`)).toBe(false);
      chmodSync(dir.path, 0o755);
      chmodSync(db, 0o444);
      chmodSync(folder, mode);
      cleanups.push(() => {
        chmodSync(folder, 0o755);
        dir.cleanup();
      });

      const listed = runAsReader(["sessions", "--db", db]);
      expect([listed.code, listed.stderr]).toEqual([0, ""]);
      expect(listed.stdout).toContain("kept (");
      expect(listed.stdout).toContain("1 call;");
      const report = runAsReader(["report", "kept", "--json", "--db", db]);
      expect([report.code, report.stderr]).toEqual([0, ""]);
      expect(JSON.parse(report.stdout)).toMatchObject({ calls: { total: 1 } });
      const dry = runAsReader(["sessions", "--prune", "--name", "kept", "--db", db]);
      expect(dry.stdout).toContain("would remove 1 session");
      const refused = runAsReader(["sessions", "--prune", "--name", "kept", "--yes", "--db", db]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`cannot open the state file ${db}`);
      // in a folder it may not write, nothing was created beside it
      if (mode === 0o555) expect(existsSync(`${db}-shm`)).toBe(false);
    },
  );
});
