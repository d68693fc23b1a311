import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalJson, type Patch } from "../src/patch/index.js";
import type { State } from "../src/state/index.js";
import type { Store } from "../src/store/index.js";
import { newCall, type StoreDatabase, storeBackends } from "./support/index.js";

/** A snapshot every few hundred bytes of patches, so a short session crosses several. */
const SMALL_SNAPSHOTS = { minBytes: 300, maxBytes: 600 };

const call = (sessionId: string, tool: string, args: unknown = {}) => newCall(sessionId, tool, args);

const initial = () => ({
  orders: Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`ORD-${String(i).padStart(4, "0")}`, { status: "pending", n: i }]),
  ),
  runtime: { now: "2026-03-02T09:00:00Z" },
});

/** Writes `count` state changes, each recorded as a call; returns the states in order. */
async function writeMany(store: Store, sessionId: string, count: number): Promise<State[]> {
  let head = await store.head(sessionId);
  const states = [head.state];
  for (let i = 0; i < count; i++) {
    const patch: Patch = [
      { op: "replace", path: `/orders/ORD-${String(i % 40).padStart(4, "0")}/n`, value: 1000 + i },
      { op: "add", path: `/orders/NEW-${i}`, value: { status: "new", i } },
    ];
    const applied = head.state.apply(patch);
    if (!applied.ok) throw new Error(applied.error);
    const commit = await store.recordCall(call(sessionId, "write", { i }), head.version, {
      patch,
      state: applied.state,
    });
    if (commit.kind !== "recorded") throw new Error("unexpected stale head");
    head = { version: commit.call.versionAfter, state: applied.state };
    states.push(applied.state);
  }
  return states;
}

for (const backend of storeBackends) {
  const skip = backend.unavailable?.();
  describe.skipIf(skip !== undefined)(`store conformance: ${backend.name}`, () => {
    let database: StoreDatabase;
    let store: Store;
    beforeEach(async () => {
      database = await backend.fresh();
      store = await database.open({ snapshots: SMALL_SNAPSHOTS });
    });
    afterEach(async () => {
      await store.close();
      await database.dispose();
    });

    it("starts sessions from one stored copy of a document and reads them back exactly", async () => {
      const document = initial();
      const a = await store.createSession({ seed: "1", state: document, name: "a" });
      const b = await store.createSession({ seed: "1", state: document, name: "b" });
      expect(a.headVersion).toBe(0);
      const [headA, headB] = await Promise.all([store.head(a.id), store.head(b.id)]);
      expect(canonicalJson(headA.state.toJSON())).toBe(canonicalJson(document));
      expect(canonicalJson(headB.state.toJSON())).toBe(canonicalJson(document));
      // the document given is not taken over: changing it later changes no session
      document.orders["ORD-0000"] = { status: "changed", n: -1 };
      const reopened = await database.open();
      expect((await reopened.head(a.id)).state.entity("orders", "ORD-0000")).toEqual({
        status: "pending",
        n: 0,
      });
      await reopened.close();
    });

    it("keeps every version of a long session exact across snapshots, in this process and the next", async () => {
      const session = await store.createSession({ seed: "1", state: initial() });
      const states = await writeMany(store, session.id, 60);
      const reopened = await database.open({ snapshots: SMALL_SNAPSHOTS });
      try {
        const head = await reopened.head(session.id);
        expect(head.version).toBe(60);
        expect(canonicalJson(head.state.toJSON())).toBe(canonicalJson(states[60]?.toJSON()));
        for (const version of [0, 1, 7, 29, 30, 31, 59]) {
          const state = await reopened.stateAt(session.id, version);
          expect({ version, state: canonicalJson(state.toJSON()) }).toEqual({
            version,
            state: canonicalJson(states[version]?.toJSON()),
          });
        }
      } finally {
        await reopened.close();
      }
    });

    it("refuses a call recorded on a head another writer moved, and catches up with the patches between", async () => {
      const session = await store.createSession({ seed: "1", state: initial() });
      const other = await database.open({ snapshots: SMALL_SNAPSHOTS });
      try {
        const seen = await other.head(session.id);
        await writeMany(store, session.id, 3);
        const stale = await other.recordCall(call(session.id, "late"), seen.version);
        expect(stale).toEqual({ kind: "stale", headVersion: 3 });
        const caughtUp = await other.advance(session.id, seen);
        const head = await store.head(session.id);
        expect(caughtUp.version).toBe(3);
        expect(canonicalJson(caughtUp.state.toJSON())).toBe(canonicalJson(head.state.toJSON()));
        const recorded = await other.recordCall(call(session.id, "now"), caughtUp.version);
        expect(recorded.kind).toBe("recorded");
        expect((await store.calls(session.id)).map((c) => c.tool)).toEqual([
          "write",
          "write",
          "write",
          "now",
        ]);
      } finally {
        await other.close();
      }
    });

    it("moves the head back to a version, continues from there, and catches up across the move", async () => {
      const session = await store.createSession({ seed: "1", state: initial() });
      const states = await writeMany(store, session.id, 5);
      const known = await store.head(session.id);
      const restored = await store.moveHead(session.id, 2);
      expect(canonicalJson(restored.state.toJSON())).toBe(canonicalJson(states[2]?.toJSON()));
      const after = await store.advance(session.id, known);
      expect(after.version).toBe(2);
      expect(canonicalJson(after.state.toJSON())).toBe(canonicalJson(states[2]?.toJSON()));
      const more = await writeMany(store, session.id, 2);
      expect((await store.head(session.id)).version).toBe(7);
      expect(canonicalJson((await store.stateAt(session.id, 7)).toJSON())).toBe(
        canonicalJson(more[2]?.toJSON()),
      );
      // the old branch is still there, exactly
      expect(canonicalJson((await store.stateAt(session.id, 5)).toJSON())).toBe(
        canonicalJson(states[5]?.toJSON()),
      );
    });

    it("resets to a new document and forks a version into an independent session", async () => {
      const session = await store.createSession({ seed: "1", state: initial(), name: "source" });
      const states = await writeMany(store, session.id, 3);
      const known = await store.head(session.id);
      const reset = await store.resetState(
        session.id,
        { fresh: { x: { y: 1 } } },
        { reason: "reset", taskId: "t1" },
      );
      expect(reset.version).toBe(4);
      const caught = await store.advance(session.id, known);
      expect(caught.state.toJSON()).toEqual({ fresh: { x: { y: 1 } } });
      expect((await store.session(session.id, ""))?.taskId).toBe("t1");
      const fork = await store.fork(session.id, 2, { name: "copy" });
      expect(fork.forkedFrom).toBe(`${session.id}@2`);
      expect(canonicalJson((await store.head(fork.id)).state.toJSON())).toBe(
        canonicalJson(states[2]?.toJSON()),
      );
      await writeMany(store, fork.id, 1);
      expect((await store.head(session.id)).state.toJSON()).toEqual({ fresh: { x: { y: 1 } } });
    });

    it("keeps each tenant's sessions to itself, names included", async () => {
      const alice = await store.createSession({ seed: "1", state: {}, tenant: "alice", name: "work" });
      const bob = await store.createSession({ seed: "1", state: {}, tenant: "bob", name: "work" });
      expect(alice.id).not.toBe(bob.id);
      expect((await store.session("work", "alice"))?.id).toBe(alice.id);
      expect((await store.session("work", "bob"))?.id).toBe(bob.id);
      expect(await store.session(alice.id, "bob")).toBeUndefined();
      expect(await store.session("work", "")).toBeUndefined();
      expect((await store.sessions("alice")).map((s) => s.id)).toEqual([alice.id]);
      expect((await store.findSessions("work")).map((s) => s.tenant).sort()).toEqual(["alice", "bob"]);
      await expect(
        store.createSession({ seed: "1", state: {}, tenant: "alice", name: "work" }),
      ).rejects.toThrow();
    });

    it("pages the call log, counts it, and finds the latest identical call on a version", async () => {
      const session = await store.createSession({ seed: "1", state: {} });
      for (let i = 0; i < 7; i++) {
        const commit = await store.recordCall(call(session.id, i % 2 ? "b" : "a", { i: i % 3 }), 0);
        expect(commit.kind).toBe("recorded");
      }
      expect(await store.callCount(session.id)).toBe(7);
      expect((await store.calls(session.id, { afterSeq: 2, limit: 3 })).map((c) => c.seq)).toEqual([3, 4, 5]);
      expect((await store.recentCalls(session.id, 2)).map((c) => c.seq)).toEqual([6, 7]);
      // call 4 (tool "b", i = 0) and call 7 (tool "a", i = 0): the latest "a" with i = 0 on version 0 is call 7
      expect(await store.repeatOf(session.id, "a", canonicalJson({ i: 0 }), 0)).toBe(7);
      expect(await store.repeatOf(session.id, "a", canonicalJson({ i: 0 }), 1)).toBeUndefined();
    });

    it("keeps a call's injected fault, with or without a change of state; a repeat skips faulted calls", async () => {
      const session = await store.createSession({ seed: "1", state: initial() });
      const fault = {
        kind: "lost-answer",
        rule: "p/lost",
        seed: "7",
        error: { code: "DOWN", status: 503, message: "down" },
      };
      const head = await store.head(session.id);
      const patch: Patch = [{ op: "replace", path: "/orders/ORD-0001/status", value: "shipped" }];
      const applied = head.state.apply(patch);
      if (!applied.ok) throw new Error(applied.error);
      const changed = await store.recordCall(call(session.id, "ship", { id: 1 }), 0, {
        patch,
        state: applied.state,
      });
      const plain = await store.recordCall(
        newCall(
          session.id,
          "read",
          { id: 1 },
          { fault: { kind: "latency", rule: "p/slow", seed: "0", delayMs: 120 } },
        ),
        1,
      );
      expect([changed.kind, plain.kind]).toEqual(["recorded", "recorded"]);
      const faulted = await store.recordCall(newCall(session.id, "ship", { id: 2 }, { fault }), 1);
      expect(faulted.kind).toBe("recorded");
      const calls = await store.calls(session.id);
      expect(calls.map((c) => c.fault)).toEqual([
        undefined,
        { kind: "latency", rule: "p/slow", seed: "0", delayMs: 120 },
        fault,
      ]);
      expect((await store.recentCalls(session.id, 1))[0]?.fault).toEqual(fault);
      // a faulted call is no answer a repeat would get again
      expect(await store.repeatOf(session.id, "read", canonicalJson({ id: 1 }), 1)).toBeUndefined();
      await store.recordCall(call(session.id, "read", { id: 1 }), 1);
      expect(await store.repeatOf(session.id, "read", canonicalJson({ id: 1 }), 1)).toBe(4);
    });

    it("keeps checkpoints, task answers and model answers", async () => {
      const session = await store.createSession({ seed: "1", state: initial() });
      await writeMany(store, session.id, 2);
      expect((await store.checkpoint(session.id, "cp")).version).toBe(2);
      expect((await store.checkpoint(session.id, "cp", 1)).version).toBe(1);
      expect((await store.checkpoints(session.id)).map((c) => [c.name, c.version])).toEqual([["cp", 1]]);
      const answer = await store.recordAnswer(session.id, { answer: "done", infeasible: false });
      expect(answer).toMatchObject({ seq: 1, version: 2, answer: "done", infeasible: false });
      expect(await store.answers(session.id)).toHaveLength(1);
      expect(await store.llmCacheGet("k")).toBeUndefined();
      await store.llmCachePut({
        key: "k",
        model: "m",
        response: "{}",
        usage: { requests: 1, promptTokens: 2, completionTokens: 3, latencyMs: 4 },
      });
      await store.llmCachePut({ key: "k", model: "m", response: "other" });
      expect(await store.llmCacheGet("k")).toEqual({
        response: "{}",
        usage: { requests: 1, promptTokens: 2, completionTokens: 3, latencyMs: 4 },
      });
    });

    it("numbers runs, keeps their status and attempts, and replaces an attempt recorded again", async () => {
      const plan = { tasks: ["a", "b"], k: 2 };
      const first = await store.createRun({ seed: "7", plan });
      // another process (another store on the same database) numbers its runs after these
      const other = await database.open();
      const [second, third] = await Promise.all([
        other.createRun({ seed: "8", plan: {} }),
        store.createRun({ seed: "9", plan: {} }),
      ]);
      await other.close();
      expect(first).toMatchObject({ id: "run-1", number: 1, seed: "7", status: "running", plan, note: null });
      expect([second.number, third.number].sort()).toEqual([2, 3]);
      expect((await store.runs()).map((r) => r.id)).toEqual(["run-1", "run-2", "run-3"]);
      expect(await store.run("run-9")).toBeUndefined();

      await store.setRunStatus("run-1", "failed", "the endpoint refused the key (401)");
      expect(await store.run("run-1")).toMatchObject({
        status: "failed",
        note: "the endpoint refused the key (401)",
        plan,
      });

      const attempt = {
        runId: "run-1",
        taskId: "b",
        attempt: 1,
        sessionId: "s-1",
        sessionName: "run-1/b/1",
        outcome: "error" as const,
        result: { error: "timed out", tokens: { prompt: 10 } },
      };
      await store.recordAttempt(attempt);
      await store.recordAttempt({ ...attempt, taskId: "a", sessionName: "run-1/a/1", outcome: "passed" });
      await store.recordAttempt({ ...attempt, attempt: 2, outcome: "failed", result: { calls: 3 } });
      // resumed: the attempt that ended in an error is run again in a new session and replaces its row
      await store.recordAttempt({
        ...attempt,
        sessionId: "s-2",
        sessionName: "run-1/b/1#2",
        outcome: "passed",
      });
      const attempts = await store.runAttempts("run-1");
      expect(attempts.map((a) => [a.taskId, a.attempt, a.outcome, a.sessionName])).toEqual([
        ["a", 1, "passed", "run-1/a/1"],
        ["b", 1, "passed", "run-1/b/1#2"],
        ["b", 2, "failed", "run-1/b/1"],
      ]);
      expect(attempts[2]?.result).toEqual({ calls: 3 });
      expect(await store.runAttempts("run-2")).toEqual([]);
    });

    it("serializes writers of one session in separate stores: every call recorded once, each on the head it saw", async () => {
      const session = await store.createSession({ seed: "1", state: initial() });
      const others = await Promise.all([database.open(), database.open()]);
      try {
        // each writer keeps its own head and catches up when refused, as a serving process does
        const writer = async (writerStore: Store, name: string, count: number) => {
          let head = await writerStore.head(session.id);
          let refused = 0;
          for (let i = 0; i < count; ) {
            const patch: Patch = [{ op: "add", path: `/orders/${name}-${i}`, value: { by: name, i } }];
            const applied = head.state.apply(patch);
            if (!applied.ok) throw new Error(applied.error);
            const commit = await writerStore.recordCall(call(session.id, name, { i }), head.version, {
              patch,
              state: applied.state,
            });
            if (commit.kind === "recorded") {
              head = { version: commit.call.versionAfter, state: applied.state };
              i++;
            } else {
              refused++;
              head = await writerStore.advance(session.id, head);
            }
          }
          return refused;
        };
        const [first, second] = others as [Store, Store];
        await Promise.all([writer(first, "a", 12), writer(second, "b", 12)]);
        const log = await store.calls(session.id);
        expect(log.map((c) => c.seq)).toEqual(log.map((_, i) => i + 1));
        expect(log.filter((c) => c.tool === "a").map((c) => (c.arguments as { i: number }).i)).toEqual(
          Array.from({ length: 12 }, (_, i) => i),
        );
        expect(log.filter((c) => c.tool === "b")).toHaveLength(12);
        for (const [i, recorded] of log.entries()) {
          expect(recorded.versionBefore).toBe(i === 0 ? 0 : log[i - 1]?.versionAfter);
        }
        const head = await store.head(session.id);
        expect(head.version).toBe(24);
        const orders = head.state.toJSON().orders as Record<string, unknown>;
        expect(Object.keys(orders).filter((key) => /^[ab]-/.test(key))).toHaveLength(24);
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    });

    it("opens a new database from several stores at once, as processes starting together do", async () => {
      const blank = await backend.fresh();
      const stores = await Promise.all([blank.open(), blank.open(), blank.open(), blank.open()]);
      try {
        const sessions = await Promise.all(
          stores.map((each, i) => each.createSession({ seed: "1", state: {}, name: `s${i}` })),
        );
        expect((await stores[0]?.sessions())?.map((s) => s.name).sort()).toEqual(["s0", "s1", "s2", "s3"]);
        expect(new Set(sessions.map((s) => s.id)).size).toBe(4);
      } finally {
        await Promise.all(stores.map((each) => each.close()));
        await blank.dispose();
      }
    });

    it("writes snapshots by patch volume: a session that changes little stores little", async () => {
      const session = await store.createSession({ seed: "1", state: initial() });
      await writeMany(store, session.id, 30);
      const stats = await store.stats();
      // 30 patches of about 120 bytes each with a snapshot every 300-600 bytes: several, not one per version
      expect(stats.snapshots).toBeGreaterThan(3);
      expect(stats.snapshots).toBeLessThan(20);
      expect(stats.versions).toBe(31);
    });
  });
}
