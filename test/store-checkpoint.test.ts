import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { canonicalJson } from "../src/patch/index.js";
import { SqliteStore } from "../src/store/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolsim-checkpoint-"));
  dirs.push(dir);
  return dir;
}

/** Records `count` writes, each a new state version, as the engine does. */
async function writeCalls(store: SqliteStore, count: number): Promise<string> {
  const session = await store.createSession({ seed: "s", state: { items: {} } });
  let head = await store.head(session.id);
  for (let i = 0; i < count; i++) {
    const patch = [{ op: "add" as const, path: `/items/I-${i}`, value: { i, note: "x".repeat(200) } }];
    const applied = head.state.apply(patch);
    if (!applied.ok) throw new Error(applied.error);
    const args = { i };
    const commit = await store.recordCall(
      {
        sessionId: session.id,
        tool: "add_item",
        arguments: args,
        argsHash: canonicalJson(args),
        status: "ok",
        findings: [],
        result: { i },
        engine: "offline",
        latencyMs: 1,
      },
      head.version,
      { patch, state: applied.state },
    );
    if (commit.kind !== "recorded") throw new Error("unexpected stale head");
    head = { version: commit.call.versionAfter, state: applied.state };
  }
  return session.id;
}

/** The calls the database file holds on its own, without its write-ahead log. */
function callsInMainFile(file: string, into: string): number {
  const copy = join(into, `copy-${Date.now()}-${Math.random()}.db`);
  copyFileSync(file, copy);
  const db = new Database(copy, { readonly: true });
  try {
    const tables = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'calls'").pluck().get();
    // before the first checkpoint even the tables are only in the log
    return Number(tables) === 0 ? 0 : Number(db.prepare("SELECT count(*) FROM calls").pluck().get());
  } finally {
    db.close();
  }
}

async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("SQLite checkpoints off the call path", () => {
  it("copies committed calls into the database file between calls, from its own thread", async () => {
    const dir = scratch();
    const file = join(dir, "state.db");
    const store = SqliteStore.open(file);
    try {
      // fewer pages of log than SQLite's automatic checkpoint waits for (a thousand), and that is off
      await writeCalls(store, 100);
      expect(await eventually(() => callsInMainFile(file, dir) === 100)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("keeps the log from growing while calls keep coming", async () => {
    const dir = scratch();
    const file = join(dir, "state.db");
    const store = SqliteStore.open(file);
    try {
      // a reader holding its snapshot lets nothing be copied back: one batch's whole log
      const reader = new Database(file, { readonly: true });
      reader.exec("BEGIN");
      reader.prepare("SELECT count(*) FROM sqlite_master").get();
      await writeCalls(store, 200);
      reader.exec("COMMIT");
      reader.close();
      expect(await eventually(() => callsInMainFile(file, dir) === 200)).toBe(true);
      const oneBatch = statSync(`${file}-wal`).size;
      // once copied back, the log restarts from its beginning: after four batches more it holds
      // about one batch (a little more, as a bigger file touches more pages per call), not five
      for (let batch = 2; batch <= 5; batch++) {
        await writeCalls(store, 200);
        expect(await eventually(() => callsInMainFile(file, dir) === batch * 200)).toBe(true);
      }
      expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(oneBatch * 2);
    } finally {
      await store.close();
    }
  });

  it("leaves a closed file complete on its own, with no log beside it", async () => {
    const dir = scratch();
    const file = join(dir, "state.db");
    const store = SqliteStore.open(file);
    await writeCalls(store, 50);
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(callsInMainFile(file, dir)).toBe(50);
  });

  it("without the thread, SQLite copies the log back during commits as before", async () => {
    const dir = scratch();
    const file = join(dir, "state.db");
    const store = SqliteStore.open(file, { checkpointThread: false });
    try {
      // past a thousand pages of log, the commit that crosses them checkpoints
      await writeCalls(store, 1500);
      expect(callsInMainFile(file, dir)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
