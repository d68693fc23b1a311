import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from "node:fs";
import { endianness, tmpdir } from "node:os";
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

/**
 * Whether everything in the write-ahead log has been copied back into the database file,
 * read from the shared-memory index as SQLite's WAL format lays it out
 * (https://www.sqlite.org/walformat.html): the log's last valid frame (`mxFrame`, offset 16
 * of the index header) against the frames copied back (`nBackfill`, offset 96), both in the
 * machine's byte order. Only observed: nothing here checkpoints.
 */
function logCopiedBack(file: string): boolean {
  const header = Buffer.alloc(100);
  const fd = openSync(`${file}-shm`, "r");
  try {
    if (readSync(fd, header, 0, 100, 0) < 100) return false;
  } finally {
    closeSync(fd);
  }
  const read = (offset: number) =>
    endianness() === "LE" ? header.readUInt32LE(offset) : header.readUInt32BE(offset);
  return read(96) >= read(16);
}

/**
 * The calls the database file holds on its own, without its write-ahead log, read from a
 * copy. Copied only once the log is copied back, so no checkpoint is writing the file
 * meanwhile (a copy taken mid-write could be torn).
 */
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
    rmSync(copy, { force: true });
  }
}

/** Waits (a generous bound, for a loaded machine) until the checkpoint thread copied the log back. */
async function copiedBack(file: string): Promise<boolean> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (logCopiedBack(file)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return logCopiedBack(file);
}

describe("SQLite checkpoints off the call path", () => {
  it("copies committed calls into the database file between calls, from its own thread", async () => {
    const dir = scratch();
    const file = join(dir, "state.db");
    const store = SqliteStore.open(file);
    try {
      // fewer pages of log than SQLite's automatic checkpoint waits for (a thousand), and that is off
      await writeCalls(store, 100);
      expect(await copiedBack(file)).toBe(true);
      expect(callsInMainFile(file, dir)).toBe(100);
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
      expect(logCopiedBack(file)).toBe(false);
      reader.exec("COMMIT");
      reader.close();
      expect(await copiedBack(file)).toBe(true);
      expect(callsInMainFile(file, dir)).toBe(200);
      const oneBatch = statSync(`${file}-wal`).size;
      // once copied back, the log restarts from its beginning at the next write: after four
      // batches more it holds about one batch (a little more, as a bigger file touches more
      // pages per call), where a log that never restarts would hold five
      for (let batch = 2; batch <= 5; batch++) {
        await writeCalls(store, 200);
        expect(await copiedBack(file)).toBe(true);
        expect(callsInMainFile(file, dir)).toBe(batch * 200);
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
