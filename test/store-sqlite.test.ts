import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { canonicalJson, type Patch } from "../src/patch/index.js";
import type { State } from "../src/state/index.js";
import {
  type NewCall,
  openStore,
  SCHEMA_VERSION,
  type SnapshotPolicy,
  type Store,
  StoreOpenError,
} from "../src/store/index.js";
import { newCall, tempDir } from "./support/index.js";

/**
 * The SQLite store's own failure paths and bookkeeping, read back from the file itself: the
 * transaction around a call, snapshot pacing, a corrupt or foreign file, and what each
 * write leaves in its tables.
 */

const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(
  options: { snapshots?: SnapshotPolicy; file?: string } = {},
): Promise<{ store: Store; file: string }> {
  let file = options.file;
  if (!file) {
    const dir = tempDir("toolsim-sqlite-");
    cleanups.push(dir.cleanup);
    file = join(dir.path, "toolsim.db");
  }
  const store = await openStore(file, { snapshots: options.snapshots });
  cleanups.push(() => store.close());
  return { store, file };
}

/** A second connection to the file, as another program would have it. */
function raw(file: string): Database.Database {
  const db = new Database(file);
  cleanups.push(() => {
    db.close();
  });
  return db;
}

/** A call with findings and a fractional latency, so both round-trip through the columns. */
const call = (sessionId: string, tool: string, args: unknown = {}) =>
  newCall(sessionId, tool, args, { findings: [{ code: "RAC", message: "again" }], latencyMs: 2.5 });

const DOCUMENT = {
  items: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`I${i}`, { n: i, label: `item ${i}` }])),
};

/** Records one call changing the state by `patch` on the current head. */
async function write(store: Store, sessionId: string, patch: Patch, tool = "write"): Promise<State> {
  const head = await store.head(sessionId);
  const applied = head.state.apply(patch);
  if (!applied.ok) throw new Error(applied.error);
  const commit = await store.recordCall(call(sessionId, tool), head.version, { patch, state: applied.state });
  if (commit.kind !== "recorded") throw new Error("stale");
  return applied.state;
}

describe("the transaction around a call", () => {
  it("a call whose row cannot be written leaves no version, snapshot or head change behind", async () => {
    const { store, file } = await open({ snapshots: { minBytes: 0, maxBytes: 0 } });
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const db = raw(file);
    const counts = () =>
      db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM state_versions) AS versions, (SELECT COUNT(*) FROM state_snapshots) AS snapshots,
             (SELECT COUNT(*) FROM calls) AS calls, (SELECT head_version FROM sessions) AS head, (SELECT next_seq FROM sessions) AS next`,
        )
        .get();
    const before = counts();
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON calls BEGIN SELECT RAISE(ABORT, 'refused by test'); END");
    const patch: Patch = [{ op: "replace", path: "/items/I1/n", value: 100 }];
    const head = await store.head(session.id);
    const applied = head.state.apply(patch);
    if (!applied.ok) throw new Error(applied.error);
    await expect(
      store.recordCall(call(session.id, "write"), head.version, { patch, state: applied.state }),
    ).rejects.toThrow("refused by test");
    expect(counts()).toEqual(before);
    expect((await store.head(session.id)).version).toBe(0);
    // once the file takes calls again, the same call is recorded as the first
    db.exec("DROP TRIGGER refuse");
    const commit = await store.recordCall(call(session.id, "write"), 0, { patch, state: applied.state });
    expect(commit).toMatchObject({ kind: "recorded", call: { seq: 1, versionBefore: 0, versionAfter: 1 } });
  });

  it("refuses a call on a head that moved, writing nothing, and says where the head is", async () => {
    const { store, file } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    await write(store, session.id, [{ op: "replace", path: "/items/I1/n", value: 1 }]);
    await write(store, session.id, [{ op: "replace", path: "/items/I1/n", value: 2 }]);
    const stale = await store.recordCall(call(session.id, "late"), 1, {
      patch: [{ op: "remove", path: "/items/I2" }],
      state: (await store.head(session.id)).state,
    });
    expect(stale).toEqual({ kind: "stale", headVersion: 2 });
    const db = raw(file);
    expect(db.prepare("SELECT COUNT(*) AS n FROM calls").get()).toEqual({ n: 2 });
    expect(db.prepare("SELECT MAX(version) AS v FROM state_versions").get()).toEqual({ v: 2 });
  });

  it("a call that changes nothing keeps the version; one with an empty patch too", async () => {
    const { store } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const state = (await store.head(session.id)).state;
    const none = await store.recordCall(call(session.id, "read"), 0);
    const empty = await store.recordCall(call(session.id, "read"), 0, { patch: [], state });
    expect(
      [none, empty].map(
        (c) => c.kind === "recorded" && [c.call.seq, c.call.versionBefore, c.call.versionAfter],
      ),
    ).toEqual([
      [1, 0, 0],
      [2, 0, 0],
    ]);
    expect((await store.session(session.id, ""))?.nextSeq).toBe(3);
  });

  it("a call writes its own row (and version) only; the session's head, next number and last use come from its calls", async () => {
    const { store, file } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const db = raw(file);
    const row = () => db.prepare("SELECT * FROM sessions WHERE id = ?").get(session.id);
    const before = row();
    const read = await store.recordCall(call(session.id, "read"), 0);
    if (read.kind !== "recorded") throw new Error("not recorded");
    expect(row()).toEqual(before);
    const seen = await store.session(session.id, "");
    expect([seen?.nextSeq, seen?.updatedAt]).toEqual([2, read.call.createdAt]);
    expect((await store.sessions()).map((s) => [s.nextSeq, s.updatedAt])).toEqual([[2, read.call.createdAt]]);
    // a call that changes the state moves the head, read from the call too
    const state = (await store.head(session.id)).state.apply([
      { op: "add", path: "/items/I99", value: { n: 99 } },
    ]);
    if (!state.ok) throw new Error(state.error);
    const write = await store.recordCall(call(session.id, "write"), 0, {
      patch: [{ op: "add", path: "/items/I99", value: { n: 99 } }],
      state: state.state,
    });
    if (write.kind !== "recorded") throw new Error("not recorded");
    expect([write.call.seq, write.call.versionAfter]).toEqual([2, 1]);
    expect(row()).toEqual(before);
    expect(await store.session(session.id, "")).toMatchObject({
      headVersion: 1,
      nextSeq: 3,
      updatedAt: write.call.createdAt,
    });
    expect((await store.head(session.id)).version).toBe(1);
    // a head set outside a call (a restore) is the row's, until the next call carries it on
    await store.moveHead(session.id, 0);
    expect(row()).toMatchObject({ head_version: 0, next_seq: 3 });
    expect((await store.session(session.id, ""))?.headVersion).toBe(0);
    const after = await store.recordCall(call(session.id, "read"), 0);
    expect(after.kind === "recorded" && [after.call.seq, after.call.versionAfter]).toEqual([3, 0]);
    expect((await store.head(session.id)).version).toBe(0);
  });

  it("a commit starts from what another connection wrote since the last one: its calls, versions and head moves", async () => {
    const { store, file } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const { store: other } = await open({ file });
    const change = (state: State, n: number) => {
      const patch: Patch = [{ op: "replace", path: "/items/I1/n", value: n }];
      const applied = state.apply(patch);
      if (!applied.ok) throw new Error(applied.error);
      return { patch, state: applied.state };
    };
    const recorded = (commit: Awaited<ReturnType<Store["recordCall"]>>) =>
      commit.kind === "recorded"
        ? [commit.call.seq, commit.call.versionBefore, commit.call.versionAfter]
        : commit;
    const start = (await store.head(session.id)).state;
    expect(recorded(await store.recordCall(call(session.id, "read"), 0))).toEqual([1, 0, 0]);
    // the other connection's calls, reads and writes, come between this store's commits
    expect(recorded(await other.recordCall(call(session.id, "read"), 0))).toEqual([2, 0, 0]);
    expect(recorded(await store.recordCall(call(session.id, "write"), 0, change(start, 1)))).toEqual([
      3, 0, 1,
    ]);
    const one = (await other.head(session.id)).state;
    expect(recorded(await other.recordCall(call(session.id, "write"), 1, change(one, 2)))).toEqual([4, 1, 2]);
    expect(await store.recordCall(call(session.id, "late"), 1)).toEqual({ kind: "stale", headVersion: 2 });
    expect(recorded(await store.recordCall(call(session.id, "read"), 2))).toEqual([5, 2, 2]);
    // a head the other moved back: this store continues from there, after the highest version
    await other.moveHead(session.id, 1);
    expect(await store.recordCall(call(session.id, "late"), 2)).toEqual({ kind: "stale", headVersion: 1 });
    expect(recorded(await store.recordCall(call(session.id, "write"), 1, change(one, 3)))).toEqual([6, 1, 3]);
    // and a head this store moved itself
    await store.moveHead(session.id, 2);
    expect(recorded(await store.recordCall(call(session.id, "write"), 2, change(one, 4)))).toEqual([7, 2, 4]);
    expect((await other.stateAt(session.id, 4)).entity("items", "I1")).toEqual({ n: 4, label: "item 1" });
    expect((await other.calls(session.id)).map((c) => c.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("keeps every field of a call as it was given", async () => {
    const { store } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const given: NewCall = {
      ...call(session.id, "read", { id: "I1", nested: [1, { a: null }] }),
      status: "error",
      result: undefined,
      error: { code: "NOT_FOUND", status: 404, message: "No." },
      fallback: "the model failed",
      usage: { requests: 1, promptTokens: 10, completionTokens: 5, latencyMs: 40, cached: 1 },
    };
    const commit = await store.recordCall(given, 0);
    const [stored] = await store.calls(session.id);
    expect(stored).toEqual({
      ...given,
      seq: 1,
      versionBefore: 0,
      versionAfter: 0,
      createdAt: commit.kind === "recorded" ? commit.call.createdAt : "",
    });
    expect(Date.parse(stored?.createdAt ?? "")).not.toBeNaN();
    const bare = await store.recordCall(
      { ...call(session.id, "x"), result: undefined, arguments: undefined },
      0,
    );
    expect(bare.kind).toBe("recorded");
    const [, second] = await store.calls(session.id);
    expect(second).toMatchObject({
      arguments: null,
      result: undefined,
      error: undefined,
      fallback: undefined,
      usage: undefined,
    });
  });
});

describe("snapshots paced by patch volume", () => {
  /**
   * Which versions get a snapshot, by the rule as documented: when the patches since the
   * last snapshot add up to that snapshot's size, but never before `minBytes` and always by
   * `maxBytes`. Computed here from the sizes alone.
   */
  function expectedSnapshots(policy: SnapshotPolicy, patches: Patch[], states: State[]): number[] {
    const snapshots = [0];
    let snapshotSize = JSON.stringify(states[0]?.toJSON()).length;
    let since = 0;
    patches.forEach((patch, index) => {
      since += JSON.stringify(patch).length;
      const due = Math.min(policy.maxBytes, Math.max(policy.minBytes, snapshotSize));
      if (since >= due) {
        snapshots.push(index + 1);
        snapshotSize = JSON.stringify(states[index + 1]?.toJSON()).length;
        since = 0;
      }
    });
    return snapshots;
  }

  async function run(policy: SnapshotPolicy, count: number) {
    const { store, file } = await open({ snapshots: policy });
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const states = [(await store.head(session.id)).state];
    const patches: Patch[] = [];
    for (let i = 0; i < count; i++) {
      // the items grow, so later snapshots are larger than earlier ones
      const patch: Patch = [{ op: "add", path: `/items/N${i}`, value: { text: "x".repeat(40 + i * 3) } }];
      patches.push(patch);
      states.push(await write(store, session.id, patch));
    }
    const rows = raw(file)
      .prepare("SELECT version FROM state_snapshots WHERE session_id = ? ORDER BY version")
      .all(session.id) as Array<{ version: number }>;
    return {
      actual: rows.map((r) => r.version),
      expected: expectedSnapshots(policy, patches, states),
      store,
      session,
      states,
    };
  }

  it("by the size of the last snapshot, within the bounds", async () => {
    const { actual, expected } = await run({ minBytes: 100, maxBytes: 100_000 }, 40);
    expect(actual).toEqual(expected);
    expect(actual.length).toBeGreaterThan(2);
  });

  it("never before minBytes", async () => {
    const { actual, expected } = await run({ minBytes: 2_500, maxBytes: 100_000 }, 40);
    expect(actual).toEqual(expected);
    expect(actual.length).toBeGreaterThan(1);
  });

  it("always by maxBytes", async () => {
    const { actual, expected } = await run({ minBytes: 0, maxBytes: 300 }, 30);
    expect(actual).toEqual(expected);
    // exactly at the bound counts: every patch here is at least 60 bytes, so five reach 300
    expect(actual.length).toBeGreaterThan(5);
  });

  it("every version reads back exactly, from its snapshot and the patches after it", async () => {
    const { store, session, states, actual } = await run({ minBytes: 100, maxBytes: 1_000 }, 25);
    expect(actual.length).toBeGreaterThan(3);
    for (let version = 0; version < states.length; version++) {
      expect({ version, state: canonicalJson((await store.stateAt(session.id, version)).toJSON()) }).toEqual({
        version,
        state: canonicalJson(states[version]?.toJSON()),
      });
    }
  });

  it("a state shared by sessions is stored once; a reset stores its document once too", async () => {
    const { store, file } = await open();
    const a = await store.createSession({ seed: "1", state: DOCUMENT });
    const b = await store.createSession({ seed: "1", state: structuredClone(DOCUMENT) });
    await store.resetState(a.id, { fresh: { x: { y: 1 } } }, { reason: "reset" });
    await store.resetState(b.id, { fresh: { x: { y: 1 } } }, { reason: "reset" });
    const db = raw(file);
    expect(db.prepare("SELECT COUNT(*) AS n FROM documents").get()).toEqual({ n: 2 });
    expect(await store.stats()).toMatchObject({
      sessions: 2,
      versions: 4,
      snapshots: 4,
      documents: 2,
      calls: 0,
    });
    expect((await store.stats()).documentBytes).toBe(
      JSON.stringify(DOCUMENT).length + JSON.stringify({ fresh: { x: { y: 1 } } }).length,
    );
  });
});

describe("a store that lost part of a state", () => {
  it("says which snapshot or stored state is missing instead of answering a wrong state", async () => {
    const { store, file } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    await write(store, session.id, [{ op: "replace", path: "/items/I1/n", value: 7 }]);
    const db = raw(file);
    db.pragma("foreign_keys = OFF");
    db.prepare("DELETE FROM state_snapshots WHERE session_id = ?").run(session.id);
    // a fresh process knows nothing of the states the first one read
    const { store: reopened } = await open({ file });
    await expect(reopened.head(session.id)).rejects.toThrow(
      `session ${session.id} has no snapshot at version 0`,
    );
  });

  it("says a stored document is missing", async () => {
    const { store, file } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const db = raw(file);
    db.pragma("foreign_keys = OFF");
    const hash = (db.prepare("SELECT document_hash AS h FROM state_snapshots").get() as { h: string }).h;
    db.prepare("DELETE FROM documents").run();
    const { store: reopened } = await open({ file });
    await expect(reopened.head(session.id)).rejects.toThrow(`stored state ${hash} is missing`);
    expect(store.location).toBe(file);
  });

  it("says a stored patch that does not apply is corruption", async () => {
    const { store, file } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    await write(store, session.id, [{ op: "replace", path: "/items/I1/n", value: 7 }]);
    raw(file)
      .prepare("UPDATE state_versions SET patch = ? WHERE version = 1")
      .run(JSON.stringify([{ op: "remove", path: "/nothing" }]));
    const { store: reopened } = await open({ file });
    await expect(reopened.head(session.id)).rejects.toThrow(
      `stored patch of session ${session.id} does not apply: operation 0 (remove /nothing): path does not exist at "nothing"`,
    );
  });

  it("refuses versions and sessions that do not exist", async () => {
    const { store } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    await expect(store.stateAt(session.id, 5)).rejects.toThrow(
      `session ${session.id} has no state version 5`,
    );
    await expect(store.moveHead(session.id, 5)).rejects.toThrow(
      `session ${session.id} has no state version 5`,
    );
    expect((await store.head(session.id)).version).toBe(0);
    await expect(store.head("nobody")).rejects.toThrow("session nobody does not exist");
    await expect(store.headVersion("nobody")).rejects.toThrow("session nobody does not exist");
    await expect(store.fork("nobody", 0, {})).rejects.toThrow("session nobody does not exist");
    await expect(store.resetState("nobody", {}, { reason: "r" })).rejects.toThrow(
      "session nobody does not exist",
    );
    expect(await store.hasVersion(session.id, 0)).toBe(true);
    expect(await store.hasVersion(session.id, 1)).toBe(false);
  });
});

describe("the session rows", () => {
  it("a reset keeps the task and scope unless it names new ones; a fork names where it came from", async () => {
    const { store } = await open();
    const session = await store.createSession({
      seed: "9",
      state: DOCUMENT,
      name: "source",
      taskId: "t1",
      scope: { toolsets: ["a"] },
    });
    expect(session).toMatchObject({
      tenant: "",
      name: "source",
      seed: "9",
      taskId: "t1",
      scope: { toolsets: ["a"] },
    });
    await store.resetState(session.id, { x: {} }, { reason: "keep" });
    expect(await store.session(session.id, "")).toMatchObject({
      taskId: "t1",
      scope: { toolsets: ["a"] },
      headVersion: 1,
    });
    await store.resetState(session.id, { x: {} }, { reason: "change", taskId: null, scope: {} });
    expect(await store.session(session.id, "")).toMatchObject({ taskId: null, scope: {}, headVersion: 2 });
    const fork = await store.fork(session.id, 1, { seed: "3" });
    expect(fork).toMatchObject({ seed: "3", forkedFrom: `${session.id}@1`, name: null, taskId: null });
    const unnamed = await store.createSession({ seed: "1", state: {} });
    expect(unnamed).toMatchObject({ name: null, taskId: null, forkedFrom: null, scope: {}, nextSeq: 1 });
  });

  it("lists sessions per tenant, finds them by id before name, and deletes with everything they own", async () => {
    const { store, file } = await open();
    const a = await store.createSession({ seed: "1", state: DOCUMENT, tenant: "t", name: "a" });
    // a session named like another's id: the id wins
    const b = await store.createSession({ seed: "1", state: DOCUMENT, tenant: "t", name: a.id });
    expect((await store.session(a.id, "t"))?.id).toBe(a.id);
    expect((await store.sessions()).map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect(await store.sessions("other")).toEqual([]);
    await write(store, a.id, [{ op: "remove", path: "/items/I0" }]);
    await store.checkpoint(a.id, "cp");
    await store.recordAnswer(a.id, { infeasible: true });
    await store.deleteSession(a.id);
    // the id is gone; what answers to it now is the session named so
    expect((await store.session(a.id, "t"))?.id).toBe(b.id);
    expect(await store.findSessions(a.id)).toHaveLength(1);
    const db = raw(file);
    for (const table of ["state_versions", "state_snapshots", "calls", "checkpoints", "task_answers"])
      expect({
        table,
        ...(db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE session_id = ?`).get(a.id) as object),
      }).toEqual({
        table,
        n: 0,
      });
  });

  it("numbers task answers per session and keeps what they say", async () => {
    const { store } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const first = await store.recordAnswer(session.id, { infeasible: true });
    await write(store, session.id, [{ op: "remove", path: "/items/I0" }]);
    const second = await store.recordAnswer(session.id, { answer: "done", infeasible: false });
    expect([first.seq, first.version, first.infeasible, first.answer]).toEqual([1, 0, true, undefined]);
    expect([second.seq, second.version]).toEqual([2, 1]);
    expect(await store.answers(session.id)).toEqual([first, second]);
  });

  it("counts the hits of the model cache", async () => {
    const { store, file } = await open();
    await store.llmCachePut({ key: "k", model: "m", response: "r" });
    expect(await store.llmCacheGet("k")).toEqual({ response: "r", usage: undefined });
    await store.llmCacheGet("k");
    expect(raw(file).prepare("SELECT hits, model FROM llm_cache").get()).toEqual({ hits: 2, model: "m" });
  });
});

describe("opening a file", () => {
  it("refuses a file that is not SQLite, naming it and the flags to choose another", async () => {
    const dir = tempDir("toolsim-sqlite-");
    cleanups.push(dir.cleanup);
    const file = join(dir.path, "notes.db");
    writeFileSync(file, "these are notes, not a database ".repeat(200));
    const opening = openStore(file);
    await expect(opening).rejects.toBeInstanceOf(StoreOpenError);
    await expect(opening).rejects.toThrow(
      `${file} is not a toolsim state file (not SQLite); choose another with --db FILE or TOOLSIM_DB`,
    );
  });

  it("opens a file another process is reading, waiting for it, and switches it to WAL", async () => {
    const dir = tempDir("toolsim-sqlite-");
    cleanups.push(dir.cleanup);
    const file = join(dir.path, "shared.db");
    const setup = new Database(file);
    setup.exec("CREATE TABLE notes (text TEXT)");
    setup.close();
    // another program holds a read lock for a moment: without waiting, switching to WAL is refused
    const reader = spawn(
      process.execPath,
      [
        "-e",
        `const db = new (require("better-sqlite3"))(process.argv[1]);
         db.exec("BEGIN"); db.prepare("SELECT count(*) FROM notes").get();
         process.stdout.write("locked\\n");
         setTimeout(() => { db.exec("COMMIT"); db.close(); }, 1500);`,
        file,
      ],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = once(reader, "exit");
    await once(reader.stdout, "data");
    const impatient = new Database(file, { timeout: 0 });
    expect(() => impatient.pragma("journal_mode = WAL")).toThrow(/locked/);
    impatient.close();
    const { store } = await open({ file });
    expect(raw(file).pragma("journal_mode", { simple: true })).toBe("wal");
    expect(await store.sessions()).toEqual([]);
    await exited;
  });

  it("refuses a file a newer toolsim wrote", async () => {
    const dir = tempDir("toolsim-sqlite-");
    cleanups.push(dir.cleanup);
    const file = join(dir.path, "new.db");
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await expect(openStore(file)).rejects.toThrow(
      `${file} was written by a newer toolsim (schema ${SCHEMA_VERSION + 1}, this one knows ${SCHEMA_VERSION}); upgrade toolsim or use another --db`,
    );
  });

  it("upgrades a schema 13 file, whose session rows held the head, keeping every head", async () => {
    const { store, file } = await open();
    const restored = await store.createSession({ seed: "1", state: DOCUMENT, name: "restored" });
    const written = await store.createSession({ seed: "1", state: DOCUMENT, name: "written" });
    for (let n = 1; n <= 2; n++) {
      const head = await store.head(restored.id);
      const applied = head.state.apply([{ op: "replace", path: "/items/I1/n", value: n }]);
      if (!applied.ok) throw new Error(applied.error);
      await store.recordCall(call(restored.id, "write"), head.version, {
        patch: [{ op: "replace", path: "/items/I1/n", value: n }],
        state: applied.state,
      });
    }
    await store.moveHead(restored.id, 1);
    await write(store, written.id, [{ op: "remove", path: "/items/I2" }]);
    await store.recordCall(call(written.id, "read"), 1);
    await store.close();
    // as schema 13 left them: the head in the row, whatever moved it, and next_seq as created
    const db = new Database(file);
    db.prepare("UPDATE sessions SET head_version = ?, next_seq = 1 WHERE id = ?").run(1, restored.id);
    db.prepare("UPDATE sessions SET head_version = ?, next_seq = 1 WHERE id = ?").run(1, written.id);
    db.pragma("user_version = 13");
    db.close();
    const { store: upgraded } = await open({ file });
    expect((await upgraded.sessions()).map((s) => [s.name, s.headVersion, s.nextSeq])).toEqual([
      ["restored", 1, 3],
      ["written", 1, 3],
    ]);
    expect((await upgraded.head(restored.id)).state.entity("items", "I1")).toEqual({ n: 1, label: "item 1" });
    const next = await upgraded.recordCall(call(restored.id, "read"), 1);
    expect(next.kind === "recorded" && [next.call.seq, next.call.versionAfter]).toEqual([3, 1]);
  });

  it("read-only: refuses a missing file, and one that still needs an upgrade; reads a current one", async () => {
    const dir = tempDir("toolsim-sqlite-");
    cleanups.push(dir.cleanup);
    const missing = join(dir.path, "missing.db");
    await expect(openStore(missing, { readonly: true })).rejects.toThrow(`no state file at ${missing}`);
    const old = join(dir.path, "old.db");
    new Database(old).close();
    await expect(openStore(old, { readonly: true })).rejects.toThrow(
      `${old} was written by another version of toolsim (schema 0, this one knows ${SCHEMA_VERSION}); open it once with write access (toolsim serve --db ${old}) to upgrade it`,
    );
    const { store, file } = await open();
    const session = await store.createSession({ seed: "1", state: DOCUMENT });
    const reader = await openStore(file, { readonly: true });
    cleanups.push(() => reader.close());
    expect((await reader.head(session.id)).state.entity("items", "I3")).toEqual({ n: 3, label: "item 3" });
    await expect(reader.createSession({ seed: "1", state: {} })).rejects.toThrow(/readonly/);
  });

  it("creates the folders of a new file, in WAL mode with foreign keys on", async () => {
    const dir = tempDir("toolsim-sqlite-");
    cleanups.push(dir.cleanup);
    const file = join(dir.path, "a", "b", "toolsim.db");
    const { store } = await open({ file });
    await store.createSession({ seed: "1", state: {} });
    const db = raw(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    await expect(store.deleteSession("nobody")).resolves.toBeUndefined();
  });
});
