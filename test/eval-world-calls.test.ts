import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  answerHolds,
  at,
  changedLeaves,
  type ExpectedCall,
  holds,
  judge,
  resolved,
  scriptsIn,
  summarized,
} from "../eval/world-calls.js";

/**
 * The judge of the worlds' written expectations: hand-made calls and answers, each saying
 * whether it must count.
 */

const call = (expect: ExpectedCall["expect"]): ExpectedCall => ({ tool: "t", arguments: {}, expect });

describe("holds", () => {
  it("takes the expected keys of an object, lists in any order, `*` and `<absent>`", () => {
    expect(holds({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(holds({ tags: ["x", "y"] }, { tags: ["y", "x"] })).toBe(true);
    expect(holds({ at: "*" }, { at: "2024-01-01" })).toBe(true);
    expect(holds({ gone: "<absent>" }, { other: 1 })).toBe(true);
    expect(holds({ n: 0.3 }, { n: 0.1 + 0.2 })).toBe(true);
  });

  it("does not take a missing key, another value, a list of another length or a repeated element", () => {
    expect(holds({ a: 1 }, { b: 1 })).toBe(false);
    expect(holds({ a: 1 }, { a: "1" })).toBe(false);
    expect(holds({ tags: ["x"] }, { tags: ["x", "y"] })).toBe(false);
    expect(holds({ tags: ["x", "x"] }, { tags: ["x", "y"] })).toBe(false);
    expect(holds({ at: "*" }, {})).toBe(false);
    expect(holds({ gone: "<absent>" }, { gone: null })).toBe(false);
  });
});

describe("answerHolds", () => {
  it("finds the expected answer at the top or inside a one-key envelope", () => {
    expect(answerHolds({ id: 1 }, { job: { id: 1 } })).toBe(true);
    expect(answerHolds({ id: 1 }, { id: 1 })).toBe(true);
  });

  it("does not look inside an answer of several keys", () => {
    expect(answerHolds({ id: 1 }, { job: { id: 1 }, other: 2 })).toBe(false);
  });
});

describe("state pointers", () => {
  it("reads JSON pointers, escapes included", () => {
    expect(at({ a: { "b/c": [0, { d: 5 }] } }, "/a/b~1c/1/d")).toBe(5);
    expect(at({ a: 1 }, "/a/b")).toBeUndefined();
  });

  it("lists the leaves that changed or went, not those added", () => {
    expect(changedLeaves({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3, d: 4 } })).toEqual(["/a/c"]);
    expect(changedLeaves({ list: [1, 2] }, { list: [1] })).toEqual(["/list"]);
  });
});

describe("judge", () => {
  const before = { jobs: { J1: { status: "queued" } }, runtime: { now: "t0" } };

  it("counts a documented failure that changes nothing", () => {
    expect(judge(call({ error: true }), { isError: true, value: {} }, before, before)).toEqual({
      right: true,
    });
  });

  it("does not count a success where a failure is expected, or a failure that changed the world", () => {
    expect(judge(call({ error: true }), { isError: false, value: {} }, before, before).right).toBe(false);
    const changed = { ...before, jobs: { J1: { status: "held" } } };
    expect(judge(call({ error: true }), { isError: true, value: {} }, before, changed).right).toBe(false);
  });

  it("counts the expected answer and change, the clock aside", () => {
    const after = { jobs: { J1: { status: "held" } }, runtime: { now: "t1" } };
    const expected = call({ answer: { status: "held" }, state: { "/jobs/J1/status": "held" } });
    expect(judge(expected, { isError: false, value: { status: "held", id: "J1" } }, before, after)).toEqual({
      right: true,
    });
  });

  it("does not count a change no expectation names, or a read that writes", () => {
    const after = { jobs: { J1: { status: "held" } }, runtime: { now: "t0" } };
    expect(judge(call({}), { isError: false, value: {} }, before, after).right).toBe(false);
    const other = call({ state: { "/jobs/J2": "*" } });
    expect(judge(other, { isError: false, value: {} }, before, after).right).toBe(false);
  });

  it("counts one new entry holding the expected fields, whatever its key", () => {
    const after = { ...before, jobs: { ...before.jobs, X9: { status: "queued", pages: 2 } } };
    const expected = call({ state_new: { "/jobs": { pages: 2 } } });
    expect(judge(expected, { isError: false, value: {} }, before, after)).toEqual({ right: true });
    expect(judge(expected, { isError: false, value: {} }, before, before).right).toBe(false);
  });
});

describe("references between calls", () => {
  it("passes a value an earlier answer gave, inside an envelope too", () => {
    const answers = [{ job: { job_id: 45 } }, { id: "A" }];
    expect(resolved({ job_id: "$ref:0.job_id", ids: ["$ref:1.id"], n: 2 }, answers)).toEqual({
      job_id: 45,
      ids: ["A"],
      n: 2,
    });
  });
});

describe("the scripts kept with the worlds", () => {
  it("each names a world of the held-out folder, and each call a tool of it", () => {
    const scripts = scriptsIn(join(import.meta.dirname, "..", "eval", "worlds"));
    expect(scripts.length).toBeGreaterThanOrEqual(6);
    for (const { script, worldFile } of scripts) {
      const world = JSON.parse(readFileSync(worldFile, "utf8")) as { tools: Array<{ name: string }> };
      const names = new Set(world.tools.map((t) => t.name));
      for (const c of script.calls) expect(names.has(c.tool), `${script.world}: ${c.tool}`).toBe(true);
    }
  });

  it("sums calls and verdicts over worlds", () => {
    const report = summarized([
      {
        world: "w",
        calls: [
          { index: 0, tool: "a", verdict: { right: true } },
          { index: 1, tool: "b", verdict: { right: false, why: "x" } },
        ],
        tools: [
          { tool: "a", verdict: "inferred", right: true },
          { tool: "b", verdict: "inferred", right: false },
        ],
      },
    ]);
    expect(report.calls).toEqual({ right: 1, total: 2 });
    expect(report.inferred).toEqual({ right: 1, total: 2 });
    expect(report.others).toEqual({ right: 0, total: 0 });
  });
});
