import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../src/store/index.js";
import { tempDir } from "./support/index.js";

/** The layout files of the first release have (schema versions 1 to 3), as that release wrote it. */
const FIRST_RELEASE = `
  CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT UNIQUE, seed TEXT NOT NULL, task_id TEXT,
    scope TEXT NOT NULL DEFAULT '{}', head_version INTEGER NOT NULL, next_seq INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, forked_from TEXT);
  CREATE TABLE state_versions (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    version INTEGER NOT NULL, parent INTEGER, patch TEXT NOT NULL, call_seq INTEGER, reason TEXT NOT NULL,
    created_at TEXT NOT NULL, PRIMARY KEY (session_id, version));
  CREATE TABLE state_snapshots (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    version INTEGER NOT NULL, document TEXT NOT NULL, PRIMARY KEY (session_id, version));
  CREATE TABLE calls (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    tool TEXT NOT NULL, arguments TEXT NOT NULL, args_hash TEXT NOT NULL, status TEXT NOT NULL,
    findings TEXT NOT NULL DEFAULT '[]', result TEXT, error TEXT, version_before INTEGER NOT NULL,
    version_after INTEGER NOT NULL, engine TEXT NOT NULL, fallback TEXT, usage TEXT, latency_ms REAL NOT NULL,
    created_at TEXT NOT NULL, PRIMARY KEY (session_id, seq));
  CREATE INDEX calls_repeat ON calls (session_id, tool, args_hash, version_after, seq);
  CREATE TABLE checkpoints (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    name TEXT NOT NULL, version INTEGER NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (session_id, name));
  CREATE TABLE llm_cache (key TEXT PRIMARY KEY, model TEXT NOT NULL, response TEXT NOT NULL, usage TEXT,
    created_at TEXT NOT NULL, hits INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE task_answers (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, version INTEGER NOT NULL, answer TEXT, infeasible INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL, PRIMARY KEY (session_id, seq));
  PRAGMA user_version = 3;
`;

const T = "2026-01-01T00:00:00.000Z";

function writeFirstReleaseFile(file: string): void {
  const db = new Database(file);
  db.exec(FIRST_RELEASE);
  db.prepare("INSERT INTO sessions VALUES ('s1', 'old', '0', 'task-1', '{}', 3, 4, ?, ?, NULL)").run(T, T);
  const version = db.prepare("INSERT INTO state_versions VALUES ('s1', ?, ?, ?, ?, ?, ?)");
  const snapshot = db.prepare("INSERT INTO state_snapshots VALUES ('s1', ?, ?)");
  version.run(0, null, "[]", null, "start", T);
  snapshot.run(0, JSON.stringify({ items: { a: { n: 1 } } }));
  version.run(1, 0, JSON.stringify([{ op: "replace", path: "/items/a/n", value: 2 }]), 1, "call 1: set", T);
  const reset = { items: { b: { n: 9 } } };
  version.run(2, 1, JSON.stringify([{ op: "replace", path: "", value: reset }]), null, "reset", T);
  snapshot.run(2, JSON.stringify(reset));
  version.run(3, 2, JSON.stringify([{ op: "add", path: "/items/c", value: { n: 3 } }]), 3, "call 3: add", T);
  const call = db.prepare(
    "INSERT INTO calls VALUES ('s1', ?, ?, '{}', 'h', 'ok', '[]', NULL, NULL, ?, ?, 'offline', NULL, NULL, 1.5, ?)",
  );
  call.run(1, "set", 0, 1, T);
  call.run(2, "get", 1, 1, T);
  call.run(3, "add", 2, 3, T);
  db.prepare("INSERT INTO checkpoints VALUES ('s1', 'before', 1, ?)").run(T);
  db.prepare("INSERT INTO task_answers VALUES ('s1', 1, 3, 'done', 0, ?)").run(T);
  db.prepare("INSERT INTO llm_cache VALUES ('k', 'm', '{}', NULL, ?, 2)").run(T);
  db.close();
}

describe("a state file of the first release", () => {
  const dirs: Array<{ cleanup: () => void }> = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  it("is converted once on open, keeping every session, version, call, checkpoint, answer and model answer", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, "old.db");
    writeFirstReleaseFile(file);
    const store = await openStore(file);
    try {
      const session = await store.session("old", "");
      expect(session).toMatchObject({ id: "s1", tenant: "", taskId: "task-1", headVersion: 3, nextSeq: 4 });
      expect((await store.stateAt("s1", 0)).toJSON()).toEqual({ items: { a: { n: 1 } } });
      expect((await store.stateAt("s1", 1)).toJSON()).toEqual({ items: { a: { n: 2 } } });
      expect((await store.stateAt("s1", 2)).toJSON()).toEqual({ items: { b: { n: 9 } } });
      expect((await store.head("s1")).state.toJSON()).toEqual({ items: { b: { n: 9 }, c: { n: 3 } } });
      expect((await store.calls("s1")).map((c) => [c.seq, c.tool, c.versionAfter])).toEqual([
        [1, "set", 1],
        [2, "get", 1],
        [3, "add", 3],
      ]);
      expect(await store.checkpoints("s1")).toMatchObject([{ name: "before", version: 1 }]);
      expect(await store.answers("s1")).toMatchObject([{ seq: 1, answer: "done" }]);
      expect((await store.llmCacheGet("k"))?.response).toBe("{}");
      // the converted file goes on like any other
      const head = await store.head("s1");
      const applied = head.state.apply([{ op: "remove", path: "/items/b" }]);
      if (!applied.ok) throw new Error(applied.error);
      const commit = await store.recordCall(
        {
          sessionId: "s1",
          tool: "drop",
          arguments: {},
          argsHash: "x",
          status: "ok",
          findings: [],
          engine: "offline",
          latencyMs: 1,
        },
        3,
        { patch: [{ op: "remove", path: "/items/b" }], state: applied.state },
      );
      expect(commit).toMatchObject({ kind: "recorded", call: { seq: 4, versionAfter: 4 } });
    } finally {
      await store.close();
    }
    const again = await openStore(file);
    expect((await again.head("s1")).state.toJSON()).toEqual({ items: { c: { n: 3 } } });
    await again.close();
  });

  it("opens read-only for reading when the user may not write it, and says to upgrade an old one", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, "old.db");
    writeFirstReleaseFile(file);
    await expect(openStore(file, { readonly: true })).rejects.toThrow(/open it once with write access/);
    await (await openStore(file)).close();
    const reader = await openStore(file, { readonly: true });
    expect((await reader.sessions()).map((s) => s.name)).toEqual(["old"]);
    await expect(reader.checkpoint("s1", "x")).rejects.toThrow();
    await reader.close();
  });
});
