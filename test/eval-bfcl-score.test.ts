import { describe, expect, it } from "vitest";
import {
  addCall,
  addProbe,
  addRandom,
  alignKeys,
  changesMade,
  dependsOnEarlierCalls,
  emptyFigures,
  namesSomething,
  probesFor,
  type RealCall,
  type RealTask,
  randomLeaves,
  realView,
  Substitutions,
  scoreCall,
  stateChanges,
  sumFigures,
  toolMatches,
  unknownLike,
} from "../eval/bfcl-score.js";
import type { Answer } from "../eval/toolsim-process.js";

/**
 * The BFCL multi-turn scoring on hand-made real/simulated pairs, with classes of our own: a
 * pantry whose shelves hold jars, labels drawn at random, and a current shelf.
 */

const ok = (value: unknown): Answer => ({ isError: false, documented: false, value });
const documented = (value: unknown): Answer => ({ isError: true, documented: true, value });
const rejected = (value: unknown): Answer => ({ isError: true, documented: false, value });

const PANTRY = { shelves: { top: { jars: { jam: { qty: 2 } } }, low: { jars: {} } }, count: 1 };

function call(partial: Partial<RealCall>): RealCall {
  return {
    task: "pantry_0",
    step: 0,
    turn: 0,
    method: "count_jars",
    class: "Pantry",
    arguments: {},
    error: false,
    answer: {},
    state: PANTRY,
    salted: [
      { answer: partial.answer ?? {}, error: false, state: partial.state ?? PANTRY },
      { answer: partial.answer ?? {}, error: false, state: partial.state ?? PANTRY },
    ],
    ...partial,
  };
}

describe("randomLeaves", () => {
  it("takes leaves the salted runs disagree on, not those that only the first run has", () => {
    const first = { label: "L-1001", qty: 3, found: true };
    const salted = [
      { label: "L-7734", qty: 3, found: false },
      { label: "L-2210", qty: 3, found: false },
    ];
    // found: both salted runs agree (a hard-coded id that no longer exists there): not random
    expect([...randomLeaves(first, salted)]).toEqual(["label"]);
    expect(randomLeaves(first, [salted[0]]).size).toBe(0);
  });

  it("pairs entities filed under drawn ids, so what differs under them is seen", () => {
    const first = { jars: { "J-1111": { name: "jam", seal: 40417 } } };
    const salted = [
      { jars: { "J-2222": { name: "jam", seal: 11873 } } },
      { jars: { "J-3333": { name: "jam", seal: 90011 } } },
    ];
    expect([...randomLeaves(first, salted)]).toEqual(["jars.J-1111.seal"]);
    expect(alignKeys(first, salted[0])).toEqual({ jars: { "J-1111": { name: "jam", seal: 11873 } } });
    // a different number of new keys on each side is not a renaming
    expect(alignKeys({ a: 1 }, { b: 1, c: 2 })).toEqual({ b: 1, c: 2 });
  });
});

describe("Substitutions", () => {
  it("puts toolsim's id where the real answer had a random one, in arguments, keys and values", () => {
    const subs = new Substitutions();
    subs.learn({ label: "L-1001", qty: 3 }, { label: "JAR-7", qty: 3 }, new Set(["label"]));
    expect(subs.size).toBe(1);
    expect(subs.swap({ label: "L-1001", note: "L-1001 is full" })).toEqual({
      label: "JAR-7",
      note: "L-1001 is full",
    });
    expect(subs.swap({ jars: { "L-1001": { qty: 3 } } })).toEqual({ jars: { "JAR-7": { qty: 3 } } });
  });

  it("learns nothing from leaves that are not random, short values, or a toolsim answer without the path", () => {
    const subs = new Substitutions();
    subs.learn({ label: "L-1001", shelf: 7, qty: 3 }, { label: "JAR-7" }, new Set(["shelf"]));
    subs.learn({ label: "L-1002" }, { name: "JAR-8" }, new Set(["label"]));
    expect(subs.size).toBe(0);
    expect(subs.swap({ shelf: 7 })).toEqual({ shelf: 7 });
  });
});

describe("stateChanges and changesMade", () => {
  const after = {
    shelves: { top: { jars: { jam: { qty: 1 } } }, low: { jars: { honey: { qty: 1 } } } },
    count: 2,
  };

  it("lists the leaves a call changed, added and removed, random ones left out", () => {
    // the low shelf's jars were empty and now hold honey: the honey is the change, not the emptiness
    expect(stateChanges(PANTRY, PANTRY, after, new Set())).toEqual([
      { path: "shelves.top.jars.jam.qty", real: 1 },
      { path: "shelves.low.jars.honey.qty", real: 1 },
      { path: "count", real: 2 },
    ]);
    expect(stateChanges(PANTRY, PANTRY, after, new Set(["count"]))).toHaveLength(2);
    // emptied: the jars taken are the changes
    expect(stateChanges(after, after, PANTRY, new Set())).toEqual([
      { path: "shelves.top.jars.jam.qty", real: 2 },
      { path: "count", real: 1 },
      { path: "shelves.low.jars.honey.qty", real: undefined },
    ]);
    expect(stateChanges(PANTRY, PANTRY, PANTRY, new Set())).toEqual([]);
  });

  it("counts only what differs from the task's start afterwards", () => {
    // a jar added by an earlier call and taken away by this one: back where the task started
    const withFig = { jars: { jam: 1, fig: 2 }, count: 2 };
    const start = { jars: { jam: 1 }, count: 1 };
    expect(stateChanges(start, withFig, start, new Set())).toEqual([]);
    // a count moved twice is changed twice
    expect(stateChanges(start, withFig, { jars: { jam: 1, fig: 2 }, count: 3 }, new Set())).toEqual([
      { path: "count", real: 3 },
    ]);
    // a removal is a change only of what the task started with
    expect(stateChanges(withFig, withFig, start, new Set())).toEqual([
      { path: "count", real: 1 },
      { path: "jars.fig", real: undefined },
    ]);
  });

  it("counts a change made only when toolsim holds the real value at the same path", () => {
    const changes = stateChanges(PANTRY, PANTRY, after, new Set());
    expect(changesMade(changes, after, PANTRY)).toHaveLength(3);
    // a right value at the wrong path, a wrong value at the right path, a removal not made
    const wrong = {
      shelves: { top: { jars: { jam: { qty: 2 } } }, low: { jars: {} }, honey: { qty: 1 } },
      count: 3,
    };
    expect(changesMade(changes, wrong, PANTRY)).toEqual([]);
    // a list in another order
    const listed = stateChanges({ order: ["a"] }, { order: ["a"] }, { order: ["a", "b", "c"] }, new Set());
    expect(changesMade(listed, { order: ["a", "c", "b"] }, { order: ["a"] })).toEqual([]);
  });

  it("counts a removal only where toolsim's state held something when the task started", () => {
    const start = { jars: { jam: 1, fig: 2 } };
    const removal = stateChanges(start, start, { jars: { jam: 1 } }, new Set());
    expect(removal).toEqual([{ path: "jars.fig", real: undefined }]);
    expect(changesMade(removal, { jars: { jam: 1 } }, start)).toHaveLength(1);
    // never had it, or no state at all: nothing was removed
    expect(changesMade(removal, { jars: { jam: 1 } }, { jars: { jam: 1 } })).toEqual([]);
    expect(changesMade(removal, undefined, undefined)).toEqual([]);
    expect(changesMade(removal, start, start)).toEqual([]);
  });
});

describe("scoreCall", () => {
  const inputOf = (
    real: RealCall,
    toolsim: Answer,
    before: unknown = PANTRY,
    toolsimState: unknown = real.state,
  ) => {
    const view = realView(real, before, before, new Substitutions());
    return {
      real,
      toolsim,
      truth: view.truth,
      random: view.random,
      changes: view.changes,
      made: changesMade(view.changes, toolsimState, before),
    };
  };

  it("scores the answer's leaves and the state changes; a right call matches", () => {
    const after = { ...PANTRY, count: 2 };
    const real = call({ method: "add_jar", answer: { added: true, count: 2 }, state: after });
    const score = scoreCall(inputOf(real, ok({ added: true, count: 2, extra: "x" })));
    expect(score).toMatchObject({ leaves: { found: 2, total: 2 }, changes: 1, changesRight: 1, match: true });
  });

  it("does not match with a wrong value, a number beyond noise, or a state change not made", () => {
    const after = { ...PANTRY, count: 2 };
    const real = call({ method: "add_jar", answer: { added: true, weight: 0.25 }, state: after });
    expect(scoreCall(inputOf(real, ok({ added: true, weight: 0.26 })))).toMatchObject({
      leaves: { found: 1, total: 2 },
      match: false,
    });
    expect(scoreCall(inputOf(real, ok({ added: true, weight: 0.25 }), PANTRY, PANTRY))).toMatchObject({
      changes: 1,
      changesRight: 0,
      match: false,
    });
  });

  it("holds an error to an error: answered as success it counts, a false error too", () => {
    const real = call({ error: true, answer: { error: "no jar named quince" } });
    expect(scoreCall(inputOf(real, ok({ qty: 4 })))).toMatchObject({
      realError: true,
      toolsimError: false,
      match: false,
    });
    expect(scoreCall(inputOf(real, documented({ error: {} })))).toMatchObject({ match: true });
    const fine = call({ answer: { qty: 2 } });
    expect(scoreCall(inputOf(fine, rejected("IAV")))).toMatchObject({
      toolsimError: true,
      rejected: true,
      leaves: { found: 0, total: 1 },
      match: false,
    });
  });

  it("leaves out random answer leaves and counts a function that returns nothing as nothing to find", () => {
    const real = call({
      answer: { label: "L-1001", qty: 2 },
      salted: [
        { answer: { label: "L-7734", qty: 2 }, error: false, state: PANTRY },
        { answer: { label: "L-2210", qty: 2 }, error: false, state: PANTRY },
      ],
    });
    expect(scoreCall(inputOf(real, ok({ label: "JAR-1", qty: 2 })))).toMatchObject({
      leaves: { found: 1, total: 1 },
      excludedLeaves: 1,
    });
    expect(scoreCall(inputOf(call({ answer: null }), ok({ anything: 1 })))).toMatchObject({
      leaves: { total: 0 },
      match: true,
    });
  });

  it("counts a read that depends on earlier calls only when it answers something", () => {
    const later = call({ answer: { qty: 1 }, fresh: { qty: 2 }, freshError: false });
    expect(dependsOnEarlierCalls(later)).toBe(true);
    expect(scoreCall(inputOf(later, ok({ qty: 1 }))).dependentRead).toBe(true);
    expect(scoreCall(inputOf(later, ok({ qty: 2 }))).dependentRead).toBe(false);
    const same = call({ answer: { qty: 2 }, fresh: { qty: 2 }, freshError: false });
    expect(scoreCall(inputOf(same, ok({ qty: 2 }))).dependentRead).toBeUndefined();
    const empty = call({ answer: {}, fresh: { error: "at the top already" }, freshError: true });
    expect(scoreCall(inputOf(empty, ok({ shelf: "top" }))).dependentRead).toBeUndefined();
    const nowMissing = call({ error: true, answer: { error: "gone" }, fresh: { qty: 2 }, freshError: false });
    expect(scoreCall(inputOf(nowMissing, ok({ qty: 2 }))).dependentRead).toBe(false);
  });
});

describe("probes", () => {
  it("finds arguments that name a key, or a value given to an argument named for it", () => {
    expect(namesSomething("jar", "jam", PANTRY)).toBe(true);
    expect(namesSomething("shelf_name", "top", PANTRY)).toBe(true);
    expect(namesSomething("amount", 2, PANTRY)).toBe(false);
    expect(namesSomething("jar_id", 2, PANTRY)).toBe(true);
    expect(namesSomething("note", "top shelf", PANTRY)).toBe(false);
    expect(namesSomething("open", true, PANTRY)).toBe(false);
  });

  it("makes an unknown value of the same shape and type", () => {
    const value = unknownLike("jam", PANTRY);
    expect(value).toMatch(/^ja[a-z]$/);
    expect(namesSomething("jar", value, PANTRY)).toBe(false);
    expect(typeof unknownLike(2, PANTRY)).toBe("number");
    expect(unknownLike(2, PANTRY)).not.toBe(2);
  });

  it("probes each method and argument once, at its first call, against the state before it", () => {
    const task: RealTask = {
      task: "pantry_0",
      involved: ["Pantry"],
      real: ["Pantry"],
      initial: { Pantry: PANTRY },
      unlike: {},
    };
    const withQuince = { ...PANTRY, shelves: { ...PANTRY.shelves, low: { jars: { quince: { qty: 1 } } } } };
    const calls = [
      call({ step: 0, method: "add_jar", arguments: { shelf: "low", jar: "quince" }, state: withQuince }),
      call({ step: 1, method: "take_jar", arguments: { jar: "quince", qty: 1 }, state: withQuince }),
      call({ step: 2, method: "take_jar", arguments: { jar: "jam", qty: 1 }, state: withQuince }),
      call({ step: 3, method: "stock", class: null, skipped: "no real class", arguments: { jar: "jam" } }),
    ];
    const probes = probesFor([task], calls);
    expect(probes.map((p) => [p.id, p.step])).toEqual([
      ["Pantry.add_jar(shelf)", 0],
      ["Pantry.take_jar(jar)", 1],
    ]);
    // quince did not exist before the first call: jar of add_jar names nothing, and is not probed
    expect(probes[1]?.arguments).toMatchObject({ qty: 1 });
    expect(probes[1]?.arguments.jar).not.toBe("quince");
  });
});

describe("figures", () => {
  it("adds calls and probes per tool, sums them, and a tool matches only when every call does", () => {
    const a = emptyFigures();
    const real = call({ answer: { qty: 2 } });
    const score = scoreCall({
      real,
      toolsim: ok({ qty: 2 }),
      truth: real.answer,
      random: new Set(),
      changes: [],
      made: [],
    });
    addCall(a, real, score, { qty: 2 });
    expect(toolMatches(a)).toBe(true);
    const probe = {
      id: "p",
      task: "pantry_0",
      step: 0,
      class: "Pantry",
      method: "count_jars",
      argument: "jar",
      arguments: { jar: "jaa" },
    };
    addProbe(a, probe, true, { error: "no jar" }, ok({ qty: 0 }));
    expect(a.errors).toEqual({ real: 1, answered: 0 });
    expect(a.probes).toMatchObject({ made: 1, realErrors: 1, answered: 0 });
    expect(toolMatches(a)).toBe(false);
    const b = emptyFigures();
    addProbe(b, probe, false, { qty: 0 }, documented({}));
    addRandom(b, "answer", ["labels[3].id", "jars.J-12345.seal"]);
    const total = sumFigures([a, b]);
    expect(total.falseErrors).toEqual({ realOk: 2, toolsimErr: 1 });
    expect(total.random).toEqual({ "answer labels[n].id": 1, "answer jars.{id}.seal": 1 });
    expect(total.misses.map((m) => m.kind)).toEqual([
      "unknown value answered as success",
      "false error on a probe",
    ]);
    expect(toolMatches(emptyFigures())).toBe(false);
  });
});
