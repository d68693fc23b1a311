import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Catalog, loadToolsets } from "../src/catalog/index.js";
import { callArgumentsHash } from "../src/engine/argument-hash.js";
import { clockOf, DEFAULT_NOW, Engine, type EngineOptions } from "../src/engine/index.js";
import { hashOf, type PatchOperation } from "../src/patch/index.js";
import {
  OfflineSimulator,
  type SimulationOutcome,
  type SimulationRequest,
  type Simulator,
} from "../src/simulate/index.js";
import { openStore, type Store } from "../src/store/index.js";
import { catalogOf, FIXTURES, LIBRARY, openRuntime, tempDir } from "./support/index.js";

/**
 * The call pipeline of the engine, step by step, in-process: what each step decides and
 * what the call log keeps. A scripted simulator stands in where a step needs one.
 */

const LIMITS = resolve(import.meta.dirname, "fixtures/limits/catalog.json");
type Opened = Awaited<ReturnType<typeof openRuntime>>;

const opened: Opened[] = [];
afterEach(async () => {
  for (const rt of opened.splice(0)) await rt.dispose();
});

async function runtime(paths?: string[], options?: Parameters<typeof openRuntime>[1]) {
  const rt = await openRuntime(paths, options);
  opened.push(rt);
  return { rt, session: (await rt.engine.openSession()).id };
}

/** An engine on a fresh store with the library catalog, built with the options a test needs. */
async function engineWith(options: Partial<EngineOptions>) {
  const { rt } = await runtime();
  const offline = new OfflineSimulator();
  const engine = new Engine({
    catalog: rt.catalog,
    store: rt.store,
    simulator: offline,
    offline,
    ...options,
  });
  return { engine, session: (await engine.openSession()).id, offline };
}

/** A simulator that answers what a test scripts, and remembers what it was asked. */
function scripted(answer: (request: SimulationRequest) => Promise<SimulationOutcome> | SimulationOutcome) {
  const requests: SimulationRequest[] = [];
  const simulator: Simulator & { requests: SimulationRequest[] } = {
    name: "scripted",
    historyWanted: 5,
    requests,
    async respond(request) {
      requests.push(request);
      return answer(request);
    },
  };
  return simulator;
}

const MEMBER = { member: { member_id: "MEM-001", name: "Ada Park", status: "active" } };

const success = (result: unknown, patch: PatchOperation[] = []): SimulationOutcome => ({
  kind: "success",
  result,
  patch,
  engine: "scripted",
});

describe("step 0: arguments past the limits", () => {
  const nested = (levels: number) => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  it("takes arguments nested 64 levels and refuses 65, saying where", async () => {
    const { rt, session } = await runtime([LIMITS]);
    // the arguments object is the first level
    const within = await rt.engine.call(session, "search_parts", { constructor: "Acme", notes: nested(63) });
    expect(within.status).toBe("ok");
    const deep = await rt.engine.call(session, "search_parts", { constructor: "Acme", notes: nested(64) });
    expect(deep.status).toBe("rejected");
    expect(deep.findings).toEqual([
      {
        code: "IFE",
        severity: "error",
        argument: "notes",
        message: `The arguments nest deeper than 64 levels of objects and arrays (at "notes.a.a.a…", 64 levels down); toolsim accepts at most 64. Send a flatter value.`,
      },
    ]);
    const logged = (await rt.engine.calls(session)).at(-1);
    expect(logged?.arguments).toEqual({
      "toolsim:omitted": `arguments not stored: ${deep.findings[0]?.message}`,
    });
  });

  it("counts an array of arrays sent as the arguments themselves", async () => {
    const { rt, session } = await runtime([LIMITS]);
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const top = await rt.engine.call(session, "search_parts", deep);
    expect(top.findings).toEqual([
      {
        code: "IFE",
        severity: "error",
        argument: "0",
        message: expect.stringContaining('(at "[0][0][0][0]…", 64 levels down)'),
      },
    ]);
  });

  it("refuses more than 1 MB of arguments, naming the argument that passed it", async () => {
    const { rt, session } = await runtime([LIMITS]);
    const big = await rt.engine.call(session, "search_parts", {
      constructor: "Acme",
      notes: { text: "x".repeat(1024 * 1024) },
    });
    expect(big.status).toBe("rejected");
    expect(big.findings).toEqual([
      {
        code: "IFE",
        severity: "error",
        argument: "notes",
        message:
          'The arguments are larger than 1 MB of JSON (the limit was passed inside "notes"); toolsim accepts at most 1 MB per call. Send less: a reference or a summary instead of the data itself.',
      },
    ]);
    const many = await rt.engine.call(session, "search_parts", {
      constructor: "Acme",
      notes: { items: Array.from({ length: 600_000 }, () => 1) },
    });
    expect(many.findings[0]?.message).toMatch(
      /^The arguments are larger than 1 MB of JSON \(the limit was passed inside "notes"\)/,
    );
    const keys = await rt.engine.call(session, "search_parts", {
      constructor: "Acme",
      notes: Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`key-number-${i}`, 1])),
    });
    expect(keys.findings[0]?.code).toBe("IFE");
    // just under the limit passes the limits (and is then judged by the schema)
    const under = await rt.engine.call(session, "search_parts", {
      constructor: "Acme",
      notes: { text: "x".repeat(1024 * 1024 - 100) },
    });
    expect(under.status).toBe("ok");
  });

  it("keeps a large rejected call's arguments as their size and beginning", async () => {
    const { rt, session } = await runtime([LIMITS]);
    const outcome = await rt.engine.call(session, "search_parts", {
      constructor: 7,
      notes: { text: "y".repeat(70_000) },
    });
    expect(outcome.status).toBe("rejected");
    const logged = (await rt.engine.calls(session)).at(-1);
    const kept = logged?.arguments as Record<string, unknown>;
    expect(kept["toolsim/truncated"]).toBe(true);
    expect(kept.bytes).toBe(JSON.stringify({ constructor: 7, notes: { text: "y".repeat(70_000) } }).length);
    expect(String(kept.beginning)).toHaveLength(1024);
    expect(String(kept.beginning).startsWith('{"constructor":7')).toBe(true);
    const small = await rt.engine.call(session, "search_parts", { constructor: 8 });
    expect(small.status).toBe("rejected");
    const calls = await rt.engine.calls(session);
    expect(calls.at(-1)?.arguments).toEqual({ constructor: 8 });
  });
});

describe("step 4: the hash a repeat is found by", () => {
  it("is the store's hash of the canonical arguments, whichever way Node computes it", () => {
    for (const args of [
      {},
      { b: 1, a: [2, { d: null, c: "é" }] },
      { text: "\u0000 and \ud83d\ude00" },
      [1, "x"],
    ]) {
      expect(callArgumentsHash(args)).toBe(hashOf(args));
    }
    expect(callArgumentsHash({ a: 1, b: 2 })).toBe(callArgumentsHash({ b: 2, a: 1 }));
  });
});

describe("steps 1 and 2: the tool and its own schema", () => {
  it("says a tool outside the session's scope exists elsewhere, and suggests names in scope", async () => {
    const { rt } = await runtime();
    const scoped = await rt.engine.openSession({ scope: { tools: ["get_member", "borrow_book"] } });
    const outcome = await rt.engine.call(scoped.id, "delete_member", { member_id: "MEM-001" });
    expect(outcome.status).toBe("rejected");
    expect(outcome.findings[0]?.message).toContain(
      'There is no tool named "delete_member". It exists in the catalog but is not part of this session\'s task.',
    );
    const typo = await rt.engine.call(scoped.id, "borow_book", {});
    expect(typo.findings[0]).toMatchObject({ code: "IFN", suggestions: ["borrow_book"] });
    expect(typo.findings[0]?.message).toBe(
      'There is no tool named "borow_book". Did you mean "borrow_book"? Call tools/list for the available tools.',
    );
    const nothing = await rt.engine.call(scoped.id, "zzzzzzzzzzzzzzzzzzzz", {});
    expect(nothing.findings[0]?.message).toBe(
      'There is no tool named "zzzzzzzzzzzzzzzzzzzz". Call tools/list for the available tools.',
    );
    expect((await rt.engine.tools(scoped.id)).map((t) => t.name)).toEqual(["get_member", "borrow_book"]);
    const inScope = await rt.engine.call(scoped.id, "get_member", { member_id: "MEM-001" });
    expect(inScope.status).toBe("ok");
  });

  it("answers a tool whose input schema is broken with the catalog's fault, not the caller's", async () => {
    const dir = tempDir();
    try {
      const toolset = JSON.parse(readFileSync(LIBRARY, "utf8"));
      toolset.tools[1].inputSchema.properties.limit.type = "whole number";
      const file = join(dir.path, "broken.json");
      writeFileSync(file, JSON.stringify(toolset));
      const { engine, session } = await engineWith({
        catalog: new Catalog(loadToolsets([file]).toolsets),
      });
      const outcome = await engine.call(session, "search_books", { genre: "science" });
      expect(outcome.status).toBe("error");
      expect(outcome.failure?.code).toBe("TOOL_SCHEMA_INVALID");
      expect(outcome.failure?.status).toBe(500);
      expect(outcome.failure?.message).toMatch(
        /^toolsim cannot check calls to search_books: its inputSchema is not a usable JSON Schema \(.+\)\. The catalog needs fixing/,
      );
      expect(outcome.versionAfter).toBe(outcome.versionBefore);
    } finally {
      dir.cleanup();
    }
  });
});

describe("step 3: the semantic check", () => {
  it("rejects a call it has concerns about as IAV, counting what the check used", async () => {
    const usage = { requests: 1, promptTokens: 10, completionTokens: 2, latencyMs: 5 };
    const checked: string[] = [];
    const { engine, session } = await engineWith({
      argumentChecker: {
        name: "strict",
        async check(tool, args) {
          checked.push(tool.name);
          return args.member_id === "MEM-002"
            ? { concerns: [{ argument: "member_id", message: "MEM-002 is a test account." }], usage }
            : { concerns: [], usage };
        },
      },
    });
    const refused = await engine.call(session, "get_member", { member_id: "MEM-002" });
    expect(refused.status).toBe("rejected");
    expect(refused.findings).toEqual([
      { code: "IAV", severity: "error", argument: "member_id", message: "MEM-002 is a test account." },
    ]);
    expect(refused.usage).toEqual(usage);
    const passed = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(passed.status).toBe("ok");
    expect(passed.usage).toEqual(usage);
    expect(checked).toEqual(["get_member", "get_member"]);
  });
});

describe("step 6: the simulator, within its deadline", () => {
  it("answers from the offline engine when the simulator fails, and says why", async () => {
    const simulator = scripted(() => {
      throw new Error("the model is down");
    });
    const { engine, session } = await engineWith({ simulator });
    const outcome = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(outcome.status).toBe("ok");
    expect(outcome.engine).toBe("offline");
    expect(outcome.fallback).toBe("the scripted simulator failed: the model is down");
    const thrown = scripted(() => {
      throw "a plain string";
    });
    const second = await engineWith({ simulator: thrown });
    const plain = await second.engine.call(second.session, "get_member", { member_id: "MEM-001" });
    expect(plain.fallback).toBe("the scripted simulator failed: a plain string");
  });

  it("answers from the offline engine when the simulator stalls past the deadline", async () => {
    const simulator = scripted(() => new Promise((done) => setTimeout(() => done(success(MEMBER)), 3_000)));
    const { engine, session } = await engineWith({ simulator, deadlineMs: 50 });
    const started = Date.now();
    const outcome = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(outcome.fallback).toBe("no answer within 50 ms");
    expect(outcome.engine).toBe("offline");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("takes the simulator's answer and its patch, with the clock's tick", async () => {
    const simulator = scripted(() =>
      success(MEMBER, [{ op: "replace", path: "/members/MEM-001/name", value: "Ada P." }]),
    );
    const { engine, session } = await engineWith({ simulator });
    const outcome = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(outcome).toMatchObject({
      status: "ok",
      engine: "scripted",
      result: { member: { name: "Ada Park" } },
    });
    expect(outcome.fallback).toBeUndefined();
    expect(outcome.versionAfter).toBe(outcome.versionBefore + 1);
    const head = (await engine.state(session)).state;
    expect(head.entity("members", "MEM-001")).toMatchObject({ name: "Ada P." });
    expect(head.runtime.now).toBe("2026-03-02T09:01:00Z");
  });

  it("shows the simulator the recent calls, as many as it wants up to the engine's limit", async () => {
    const simulator = scripted(() => success(MEMBER));
    const { engine, session } = await engineWith({ simulator, historyLimit: 2 });
    for (const id of ["MEM-001", "MEM-002", "MEM-003"])
      await engine.call(session, "get_member", { member_id: id });
    const last = simulator.requests.at(-1);
    expect(last?.history.map((h) => [h.seq, h.tool, h.arguments])).toEqual([
      [1, "get_member", { member_id: "MEM-001" }],
      [2, "get_member", { member_id: "MEM-002" }],
    ]);
    expect(simulator.requests[0]?.history).toEqual([]);
    const quiet = scripted(() => success(MEMBER));
    Object.assign(quiet, { historyWanted: 0 });
    const other = await engineWith({ simulator: quiet });
    await other.engine.call(other.session, "get_member", { member_id: "MEM-001" });
    await other.engine.call(other.session, "get_member", { member_id: "MEM-002" });
    expect(quiet.requests.at(-1)?.history).toEqual([]);
  });

  it("does not ask the simulator when the effects decided the whole result", async () => {
    const simulator = scripted(() => success({ asked: true }));
    const { engine, session } = await engineWith({
      simulator,
      catalog: catalogOf([join(FIXTURES, "core", "storefront.json")]),
    });
    const total = await engine.call(session, "get_order_total", { order_id: "ORD-0001" });
    expect(total).toMatchObject({ status: "ok", result: 55 });
    expect(simulator.requests).toEqual([]);
    const order = await engine.call(session, "search_products", {});
    expect(order.status).toBe("ok");
    expect(simulator.requests.map((r) => r.tool.name)).toEqual(["search_products"]);
  });
});

describe("step 7: the simulator's answer is checked", () => {
  it("replaces a result that does not match the output schema, keeping what the simulator used", async () => {
    const usage = { requests: 1, promptTokens: 3, completionTokens: 4, latencyMs: 1 };
    const simulator = scripted(() => ({ ...success({ member: "not an object" }), usage }));
    const { engine, session } = await engineWith({ simulator });
    const outcome = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(outcome.engine).toBe("offline");
    expect(outcome.fallback).toMatch(/^result did not match the output schema: \/member must be object/);
    expect(outcome.usage).toEqual(usage);
  });

  it("replaces an answer whose patch does not apply, and changes only what the effects changed", async () => {
    const simulator = scripted(() => success(MEMBER, [{ op: "remove", path: "/members/MEM-404" }]));
    const { engine, session } = await engineWith({ simulator });
    const outcome = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(outcome.engine).toBe("offline");
    expect(outcome.fallback).toMatch(
      /^the simulator's state patch did not apply: operation 0 \(remove \/members\/MEM-404\)/,
    );
    expect(outcome.versionAfter).toBe(outcome.versionBefore);
  });

  it("records a failure the simulator answers, and changes nothing", async () => {
    const simulator = scripted(() => ({
      kind: "failure",
      failure: { code: "MEMBER_NOT_FOUND", status: 404, message: "No member." },
      engine: "scripted",
    }));
    const { engine, session } = await engineWith({ simulator });
    const outcome = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(outcome).toMatchObject({
      status: "error",
      failure: { code: "MEMBER_NOT_FOUND" },
      engine: "scripted",
    });
    expect(outcome.result).toBeUndefined();
    expect(outcome.versionAfter).toBe(outcome.versionBefore);
  });
});

describe("step 4: a repeat is noted on the arguments sent, saying how each call ended", () => {
  const repeatOf = (outcome: { findings: Array<{ code: string; message: string }> }) =>
    outcome.findings.find((finding) => finding.code === "RAC")?.message;

  it("tells two different oversized calls apart, and notes the same one sent twice", async () => {
    const { rt, session } = await runtime([LIMITS]);
    const oversized = (fill: string) => ({ constructor: "Acme", notes: { text: fill.repeat(1024 * 1024) } });
    const first = await rt.engine.call(session, "search_parts", oversized("x"));
    const other = await rt.engine.call(session, "search_parts", oversized("y"));
    expect([first.status, other.status]).toEqual(["rejected", "rejected"]);
    expect(repeatOf(other)).toBeUndefined();
    const again = await rt.engine.call(session, "search_parts", oversized("y"));
    expect(repeatOf(again)).toBe(
      `This call repeats call #${other.seq} exactly (the same tool and arguments), on a state that has not changed since; like call #${other.seq}, it was rejected.`,
    );
    // too deep to hash as JSON text: still told apart by what they hold
    let deepOne: unknown = "one";
    let deepTwo: unknown = "two";
    for (let i = 0; i < 20_000; i++) {
      deepOne = [deepOne];
      deepTwo = [deepTwo];
    }
    await rt.engine.call(session, "search_parts", { notes: deepOne });
    expect(repeatOf(await rt.engine.call(session, "search_parts", { notes: deepTwo }))).toBeUndefined();
    expect(repeatOf(await rt.engine.call(session, "search_parts", { notes: deepTwo }))).toMatch(
      /like call #\d+/,
    );
  });

  it("says the earlier call succeeded and the repeat answered an error when that is what happened", async () => {
    let calls = 0;
    const simulator = scripted(() =>
      ++calls === 1
        ? success(MEMBER)
        : {
            kind: "failure",
            failure: { code: "MEMBER_NOT_FOUND", status: 404, message: "No member." },
            engine: "scripted",
          },
    );
    const { engine, session } = await engineWith({ simulator });
    const first = await engine.call(session, "get_member", { member_id: "MEM-001" });
    const second = await engine.call(session, "get_member", { member_id: "MEM-001" });
    expect([first.status, second.status]).toEqual(["ok", "error"]);
    expect(repeatOf(second)).toBe(
      `This call repeats call #${first.seq} exactly (the same tool and arguments), on a state that has not changed since; call #${first.seq} succeeded, this one answered an error.`,
    );
  });

  it("says so when the earlier call was cancelled, from the store when another engine made it", async () => {
    const { rt, session } = await runtime();
    const controller = new AbortController();
    controller.abort();
    const args = { member_id: "MEM-001" };
    const cancelled = await rt.engine.call(session, "get_member", args, controller.signal);
    expect(cancelled.status).toBe("cancelled");
    const other = await openStore(rt.db);
    try {
      const offline = new OfflineSimulator();
      const second = new Engine({ catalog: rt.catalog, store: other, simulator: offline, offline });
      const answered = await second.call(session, "get_member", args);
      expect(repeatOf(answered)).toBe(
        `This call repeats call #${cancelled.seq} exactly (the same tool and arguments), on a state that has not changed since; call #${cancelled.seq} was cancelled, this one succeeded.`,
      );
    } finally {
      await other.close();
    }
  });
});

describe("a call the client gave up on", () => {
  it("is recorded as cancelled and changes nothing", async () => {
    const controller = new AbortController();
    const simulator = scripted(() => {
      controller.abort();
      return success({ loan: {} }, [{ op: "add", path: "/loans/LN-9", value: {} }]);
    });
    const { engine, session } = await engineWith({ simulator });
    const outcome = await engine.call(
      session,
      "borrow_book",
      { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" },
      controller.signal,
    );
    expect(outcome.status).toBe("cancelled");
    expect(outcome.result).toBeUndefined();
    expect(outcome.versionAfter).toBe(outcome.versionBefore);
    expect((await engine.state(session)).state.entity("loans", "LN-9")).toBeUndefined();
  });
});

describe("two engines on one store, as two processes", () => {
  it("answer every call on the head the other moved, and notice repeats the other made", async () => {
    const { rt } = await runtime();
    const other = await openStore(rt.db);
    try {
      const offline = new OfflineSimulator();
      const first = rt.engine;
      const second = new Engine({ catalog: rt.catalog, store: other, simulator: offline, offline });
      const session = (await first.openSession({ name: "shared" })).id;
      const borrow = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };
      // the first engine holds the head in memory; the second moves it
      expect((await first.call(session, "get_member", { member_id: "MEM-001" })).status).toBe("ok");
      const byOther = await second.call(session, "borrow_book", borrow);
      expect(byOther.status).toBe("ok");
      const byFirst = await first.call(session, "borrow_book", borrow);
      expect(byFirst.status).toBe("ok");
      expect(byFirst.versionBefore).toBe(byOther.versionAfter);
      expect(objectLoan(byOther)).toBe("LN-0008");
      expect(objectLoan(byFirst)).toBe("LN-0009");
      expect((await first.state(session)).state.entity("books", "BK-0001")).toMatchObject({ copies: 0 });
      // a read the other process made on the same head is a repeat here too
      await second.call(session, "get_member", { member_id: "MEM-001" });
      const repeated = await first.call(session, "get_member", { member_id: "MEM-001" });
      expect(repeated.findings).toEqual([expect.objectContaining({ code: "RAC", severity: "note" })]);
      expect(repeated.findings[0]?.message).toBe(
        `This call repeats call #${repeated.seq - 1} exactly (the same tool and arguments), on a state that has not changed since; like call #${repeated.seq - 1}, it succeeded.`,
      );
      expect((await second.session("shared"))?.id).toBe(session);
    } finally {
      await other.close();
    }
  });
});

describe("sessions under races and store failures", () => {
  const borrow = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };

  /** An engine on the runtime's store with one store method failing, as a broken disk would, `times` times. */
  function engineOnFailing(rt: Opened, method: keyof Store, times: number) {
    let left = times;
    const store = new Proxy(rt.store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (property !== method) return value.bind(target);
        return (...args: unknown[]) =>
          left-- > 0 ? Promise.reject(new Error("disk I/O error")) : value.apply(target, args);
      },
    });
    const offline = new OfflineSimulator();
    return new Engine({ catalog: rt.catalog, store, simulator: offline, offline });
  }

  it("two engines opening one name at the same moment both get the one session", async () => {
    const { rt } = await runtime();
    const other = await openStore(rt.db);
    try {
      const offline = new OfflineSimulator();
      const second = new Engine({ catalog: rt.catalog, store: other, simulator: offline, offline });
      for (const name of ["desk-1", "desk-2", "desk-3"]) {
        const [a, b] = await Promise.all([rt.engine.openSession({ name }), second.openSession({ name })]);
        expect(b.id).toBe(a.id);
        expect((await rt.store.findSessions(name)).map((s) => s.id)).toEqual([a.id]);
      }
    } finally {
      await other.close();
    }
  });

  it("a store that cannot create a session answers its error and leaves no session", async () => {
    const { rt } = await runtime();
    const engine = engineOnFailing(rt, "createSession", 1);
    await expect(engine.openSession({ name: "lost" })).rejects.toThrow("disk I/O error");
    expect(await rt.store.findSessions("lost")).toEqual([]);
    // the next attempt, with the store back, creates it
    expect((await engine.openSession({ name: "lost" })).name).toBe("lost");
  });

  it("a call whose commit fails changes nothing, and the next call on the session runs", async () => {
    const { rt } = await runtime();
    const engine = engineOnFailing(rt, "recordCall", 1);
    const session = (await engine.openSession({ name: "desk" })).id;
    await expect(engine.call(session, "borrow_book", borrow)).rejects.toThrow("disk I/O error");
    const next = await engine.call(session, "borrow_book", borrow);
    expect(next).toMatchObject({ status: "ok", seq: 1, versionBefore: 0, versionAfter: 1 });
    expect((await engine.calls(session)).map((c) => c.seq)).toEqual([1]);
  });

  it("a call on a session id no store holds is a bug of the caller, named as such", async () => {
    const { rt } = await runtime();
    await expect(rt.engine.call("no-such-session", "get_member", { member_id: "MEM-001" })).rejects.toThrow(
      'unknown session "no-such-session"',
    );
  });

  it("calls sent at once on one session run one after another, each on the head the last one left", async () => {
    const { rt, session } = await runtime();
    // two copies of the book: the third borrow, sent with the others, must see none left
    const outcomes = await Promise.all([1, 2, 3].map(() => rt.engine.call(session, "borrow_book", borrow)));
    expect(outcomes.map((o) => [o.seq, o.status, o.versionBefore, o.versionAfter])).toEqual([
      [1, "ok", 0, 1],
      [2, "ok", 1, 2],
      [3, "error", 2, 2],
    ]);
    expect(outcomes[2]?.failure?.code).toBe("NO_COPIES");
  });
});

function objectLoan(outcome: { result?: unknown }): unknown {
  return (outcome.result as { loan?: { loan_id?: unknown } } | undefined)?.loan?.loan_id;
}

describe("a call answered outside the simulator", () => {
  it("is recorded with the change it implies, and a change that does not apply is a bug", async () => {
    const { rt, session } = await runtime();
    const tool = rt.catalog.tool("get_member")?.tool;
    if (!tool) throw new Error("get_member is missing");
    const answered = await rt.engine.recordExternal(
      session,
      tool,
      { member_id: "MEM-001" },
      {
        status: "ok",
        result: MEMBER,
        engine: "upstream",
        latencyMs: 12,
        patch: [{ op: "replace", path: "/members/MEM-001/name", value: "Ada P." }],
      },
    );
    expect(answered).toMatchObject({ status: "ok", engine: "upstream", result: MEMBER, tool: "get_member" });
    expect(answered.versionAfter).toBe(answered.versionBefore + 1);
    expect(answered.latencyMs).toBeGreaterThanOrEqual(12);
    expect((await rt.engine.state(session)).state.entity("members", "MEM-001")).toMatchObject({
      name: "Ada P.",
    });
    const plain = await rt.engine.recordExternal(
      session,
      tool,
      { member_id: "MEM-002" },
      { status: "ok", result: {}, engine: "upstream" },
    );
    expect(plain.versionAfter).toBe(plain.versionBefore);
    const calls = await rt.engine.calls(session);
    expect(calls.map((c) => [c.tool, c.engine, c.arguments])).toEqual([
      ["get_member", "upstream", { member_id: "MEM-001" }],
      ["get_member", "upstream", { member_id: "MEM-002" }],
    ]);
    await expect(
      rt.engine.recordExternal(
        session,
        tool,
        {},
        {
          status: "ok",
          engine: "upstream",
          patch: [{ op: "remove", path: "/members/MEM-404" }],
        },
      ),
    ).rejects.toThrow(/^patch of an external answer does not apply: operation 0/);
  });
});

describe("the simulated clock", () => {
  const borrow = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };
  const library = () => JSON.parse(readFileSync(LIBRARY, "utf8")).state as Record<string, unknown>;

  it("starts where the state says, or at the default start of time, and ticks a minute per change", async () => {
    const { rt, session } = await runtime();
    const cases: Array<[unknown, string, string]> = [
      [{ now: "2030-01-01T00:00:00Z", user: "u" }, "2030-01-01T00:00:00Z", "2030-01-01T00:01:00Z"],
      [{ user: "u" }, DEFAULT_NOW, "2026-03-02T09:01:00Z"],
      [{ now: "not a time" }, DEFAULT_NOW, "2026-03-02T09:01:00Z"],
      [undefined, DEFAULT_NOW, "2026-03-02T09:01:00Z"],
      ["not an object", DEFAULT_NOW, "2026-03-02T09:01:00Z"],
    ];
    for (const [runtimeValue, before, after] of cases) {
      const state = { ...library(), runtime: runtimeValue };
      if (runtimeValue === undefined) delete state.runtime;
      await rt.engine.resetSession(session, state, { reason: "test" });
      expect(clockOf((await rt.engine.state(session)).state)).toBe(before);
      expect(clockOf(state)).toBe(before);
      const outcome = await rt.engine.call(session, "borrow_book", borrow);
      expect({
        runtimeValue,
        opened: (outcome.result as { loan: { opened_at: string } }).loan.opened_at,
      }).toEqual({
        runtimeValue,
        opened: before,
      });
      const now = (await rt.engine.state(session)).state.get(["runtime", "now"]);
      expect({ runtimeValue, now }).toEqual({ runtimeValue, now: after });
    }
  });
});

describe("sessions", () => {
  const borrow = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };

  it("resumes a named session, starts a task on its own state and tools, and refuses an unknown task", async () => {
    const { rt } = await runtime();
    const first = await rt.engine.openSession({ name: "desk", seed: "7" });
    const again = await rt.engine.openSession({ name: "desk" });
    expect(again.id).toBe(first.id);
    expect(again.seed).toBe("7");
    expect((await rt.engine.session("desk"))?.id).toBe(first.id);
    expect(await rt.engine.session("desk", "someone else")).toBeUndefined();
    const task = await rt.engine.openSession({ taskId: "library-borrow" });
    expect(task.taskId).toBe("library-borrow");
    const members = (await rt.engine.state(task.id)).state.collection("members");
    expect([...(members?.keys() ?? [])]).toEqual(["MEM-001"]);
    expect((await rt.engine.tools(task.id)).length).toBe(rt.catalog.allTools().length);
    await expect(rt.engine.openSession({ taskId: "no-such-task" })).rejects.toThrow(
      'unknown task "no-such-task"',
    );
    const plain = await rt.engine.openSession();
    expect(plain.seed).toBe("0");
    expect((await rt.engine.state(plain.id)).state.collection("members")?.size).toBe(2);
  });

  it("keeps a released session in the store, and moves its head back to an earlier version", async () => {
    const { rt, session } = await runtime();
    const start = (await rt.engine.state(session)).version;
    const borrowed = await rt.engine.call(session, "borrow_book", borrow);
    expect(borrowed.versionAfter).toBe(start + 1);
    rt.engine.release(session);
    expect((await rt.engine.state(session)).state.entity("books", "BK-0001")).toMatchObject({ copies: 1 });
    const moved = await rt.engine.moveHead(session, start);
    expect(moved.version).toBe(start);
    expect(moved.state.entity("books", "BK-0001")).toMatchObject({ copies: 2 });
    // after a move the same call is answered again, not noted as a repeat of the old one
    const again = await rt.engine.call(session, "borrow_book", borrow);
    expect(again.findings).toEqual([]);
    expect(again.versionBefore).toBe(start);
    expect((await rt.engine.record(session)).id).toBe(session);
  });

  it("suggests names other rooms add, and serves a replaced catalog", async () => {
    const { rt, session } = await runtime();
    rt.engine.suggestAlso(() => ["toolsim_reset"]);
    const typo = await rt.engine.call(session, "toolsim_rset", {});
    expect(typo.findings[0]?.suggestions).toContain("toolsim_reset");
    rt.engine.replaceCatalog(catalogOf([LIMITS]));
    expect((await rt.engine.tools(session)).map((t) => t.name)).toEqual(["search_parts"]);
    expect((await rt.engine.tools()).map((t) => t.name)).toEqual(["search_parts"]);
    expect((await rt.engine.call(session, "get_member", { member_id: "MEM-001" })).status).toBe("rejected");
  });

  it("sees the tools of its scope once each, in the order the scope names them", async () => {
    const { rt } = await runtime([LIBRARY, LIMITS]);
    const scoped = await rt.engine.openSession({
      scope: { toolsets: ["parts", "parts"], tools: ["get_member", "search_parts", "get_member", "nothing"] },
    });
    expect((await rt.engine.tools(scoped.id)).map((t) => t.name)).toEqual(["search_parts", "get_member"]);
    const all = await rt.engine.openSession();
    expect((await rt.engine.tools(all.id)).length).toBe(rt.catalog.allTools().length);
  });
});
