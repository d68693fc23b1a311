import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Task, type Tool } from "../src/catalog/index.js";
import { LlmClient } from "../src/llm/index.js";
import type { CallRecord, CallStatus } from "../src/store/index.js";
import {
  compareArguments,
  isFreeText,
  judgeGolden,
  judgeTask,
  LlmChecklistJudge,
  normalizeToolName,
  sameText,
  sameValue,
} from "../src/tasks/index.js";
import { type FakeOpenAI, startFakeOpenAI } from "./support/index.js";

/**
 * The judges' rules one by one, on calls written as data: how arguments compare, what free
 * text is and when two texts say the same, how calls are matched to solution steps and
 * their order checked, and what a verdict says in each judging mode.
 */

const stringArg = { type: "string" };

/** A recorded call; `changes` says whether it moved the state's version. */
function record(
  seq: number,
  tool: string,
  args: Record<string, unknown>,
  options: { status?: CallStatus; changes?: boolean } = {},
): CallRecord {
  return {
    sessionId: "s",
    seq,
    tool,
    arguments: args,
    argsHash: String(seq),
    status: options.status ?? "ok",
    findings: [],
    engine: "offline",
    latencyMs: 1,
    versionBefore: seq,
    versionAfter: options.changes ? seq + 1 : seq,
    createdAt: "2026-03-02T09:00:00Z",
  };
}

const TOOLS: Record<string, Tool> = {
  get_item: {
    name: "get_item",
    description: "Reads an item.",
    inputSchema: { type: "object", properties: { id: stringArg, note: stringArg } },
    annotations: { readOnlyHint: true },
    errors: [],
    effects: [],
  },
  set_item: {
    name: "set_item",
    description: "Changes an item.",
    inputSchema: {
      type: "object",
      properties: { id: stringArg, qty: { type: "integer" }, note: stringArg },
    },
    errors: [],
    effects: [],
  },
};

function golden(
  solution: Array<{ tool: string; arguments: Record<string, unknown>; group?: string }>,
  calls: CallRecord[],
  options: { valid?: boolean; infeasible?: boolean } = {},
) {
  return judgeGolden({
    solution,
    calls,
    tool: (name) => TOOLS[name],
    valid: options.valid ?? true,
    infeasible: options.infeasible ?? false,
  });
}

describe("argument values", () => {
  it("tool names compare up to case and separators, which may be left out", () => {
    expect(normalizeToolName("GETITEM")).toBe(normalizeToolName("get_item"));
    expect(normalizeToolName("get__item")).toBe(normalizeToolName("getItem"));
    expect(normalizeToolName("get_items")).not.toBe(normalizeToolName("get_item"));
  });

  it("spaces separate words: a string without them is another string", () => {
    expect(sameValue("New York", "NewYork")).toBe(false);
  });

  it("numbers are equal up to floating-point rounding, at any magnitude", () => {
    expect(sameValue(1_000_000_000.1 + 0.2, 1_000_000_000.3)).toBe(true);
    expect(sameValue(1_000_000, 1_000_001)).toBe(false);
  });

  it("a numeric string is read the way JSON writes numbers, around any spaces", () => {
    const number = { type: "number" };
    expect(sameValue(100_000, "1e5", number)).toBe(true);
    expect(sameValue(100_000, "1e+5", number)).toBe(true);
    expect(sameValue(25_000_000_000, "2.5e10", number)).toBe(true);
    expect(sameValue(7, " 7 ", { type: "integer" })).toBe(true);
    expect(sameValue(7, "7 items", number)).toBe(false);
  });

  it("a schema that allows several types reads a string as a number or boolean only when it does not allow strings", () => {
    expect(sameValue(7, "7", { type: ["integer", "null"] })).toBe(true);
    expect(sameValue(true, "true", { type: ["boolean", "string"] })).toBe(false);
    expect(sameValue(false, "false", { type: "boolean" })).toBe(true);
    expect(sameValue(true, "yes", { type: "boolean" })).toBe(false);
    expect(sameValue(false, "true", { type: "boolean" })).toBe(false);
  });

  it("lists are equal item for item in any order, nulls included; objects are not lists", () => {
    expect(sameValue([1, 2], [1, 3])).toBe(false);
    expect(sameValue([1, 2], [2, 3])).toBe(false);
    expect(sameValue(["a", null], [null, "a"])).toBe(true);
    expect(sameValue([null], [0])).toBe(false);
    expect(sameValue({}, [])).toBe(false);
  });

  it("a field one side has and the other lacks makes objects differ; a null field is an absent one", () => {
    expect(sameValue({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: null })).toBe(true);
  });

  it("finds a property's schema in allOf, anyOf or oneOf branches", () => {
    const branched: Tool = {
      ...(TOOLS.set_item as Tool),
      inputSchema: {
        type: "object",
        properties: { id: stringArg },
        anyOf: [{ properties: { other: stringArg } }, { properties: { qty: { type: "integer" } } }],
      },
    };
    expect(compareArguments({ id: "A", qty: 2 }, { id: "a", qty: "2" }, branched)).toEqual([]);
    const bare: Tool = {
      ...branched,
      inputSchema: { oneOf: [{ properties: { qty: { type: "integer" } } }] },
    };
    expect(compareArguments({ qty: 2 }, { qty: "2" }, bare)).toEqual([]);
  });
});

describe("argument differences", () => {
  const tool = TOOLS.set_item;

  it("an argument the solution leaves null is not expected; one the call leaves null is missing", () => {
    expect(compareArguments({ id: "A", note: null }, { id: "A" }, tool)).toEqual([]);
    expect(compareArguments({ id: "A" }, { id: "A", qty: null }, tool)).toEqual([]);
    expect(compareArguments({ id: "A" }, { id: null }, tool)).toEqual([
      { argument: "id", kind: "missing", severity: "error" },
    ]);
  });

  it("a number under a prose-like name is a value, not free text (a count of comments)", () => {
    expect(compareArguments({ comments: 3 }, { comments: 4 }, undefined)).toEqual([
      { argument: "comments", kind: "wrong", severity: "error" },
    ]);
    expect(compareArguments({}, { comments: 3 }, undefined)).toEqual([
      { argument: "comments", kind: "unexpected", severity: "error" },
    ]);
    expect(compareArguments({}, { comments: "Looks fine." }, undefined)).toEqual([
      { argument: "comments", kind: "unexpected", severity: "note", freeText: true },
    ]);
  });
});

describe("free text", () => {
  it("is open words: no const; a schema without a type can still be prose", () => {
    expect(isFreeText("note", { type: "string", const: "fixed" })).toBe(false);
    expect(isFreeText("note", { description: "A note for the customer." })).toBe(true);
    expect(isFreeText("note_", stringArg)).toBe(true);
  });

  it("says free text in its name: both words, not one of them", () => {
    expect(isFreeText("free_text_answer", stringArg)).toBe(true);
    expect(isFreeText("text_color", stringArg)).toBe(false);
    expect(isFreeText("free_shipping", stringArg)).toBe(false);
  });

  it("a text of function words only must match as written, up to case and spacing", () => {
    expect(sameText("That is it", "that  is it ")).toBe(true);
    expect(sameText("That is it", "That was it")).toBe(false);
    expect(sameText("That is it", "")).toBe(false);
  });

  it("function words carry no content", () => {
    expect(sameText("It was the printer that was at fault", "Printer at fault")).toBe(true);
  });

  it("exactly half of the content words is enough", () => {
    expect(sameText("Kettle cracked along side", "Kettle cracked")).toBe(true);
    expect(sameText("Kettle cracked along side", "Kettle")).toBe(false);
  });

  it("accents, sentence dots and number spellings do not change what a text says", () => {
    expect(sameText("Refund sent to the café", "refund sent to the cafe")).toBe(true);
    expect(sameText("Rebooted", "...rebooted...")).toBe(true);
    expect(sameText("Refunded 5.00 to the card", "Refunded 5 to the card")).toBe(true);
    expect(sameText("Charged 12.50 in total", "Charged 12.5 in total")).toBe(true);
  });

  it("ids with digits are facts spelt whole", () => {
    expect(sameText("Replaced part A5", "Replaced part B5")).toBe(false);
    expect(sameText("Moved to bay 5a", "Moved to bay 5b")).toBe(false);
  });

  it("word forms meet: plurals, verb endings, doubled consonants, a final e", () => {
    for (const [a, b] of [
      ["companies", "company"],
      ["ties", "tie"],
      ["tickets", "ticket"],
      ["issues", "issue"],
      ["processes", "process"],
      ["feeding", "feed"],
      ["moved", "move"],
      ["moving", "move"],
      ["stopped", "stop"],
      ["carried", "carry"],
      ["quickly", "quick"],
      ["agreed", "agree"],
      ["freed", "free"],
      ["guaranteed", "guarantee"],
    ])
      expect({ a, b, same: sameText(a as string, b as string) }).toEqual({ a, b, same: true });
  });
});

describe("matching calls to solution steps", () => {
  it("a call that matches a step exactly answers it, even when an earlier step would take it as its closest", () => {
    const verdict = golden(
      [
        { tool: "set_item", arguments: { id: "A", qty: 1 } },
        { tool: "set_item", arguments: { id: "A", qty: 2 } },
      ],
      [record(1, "set_item", { id: "A", qty: 2 }), record(2, "set_item", { id: "B", qty: 1 })],
    );
    expect(verdict.steps.map((s) => [s.status, s.seq])).toEqual([
      ["wrong-arguments", 2],
      ["done", 1],
    ]);
    expect(verdict.wrongArguments).toBe(1);
  });

  it("one call answers one step", () => {
    const step = { tool: "get_item", arguments: { id: "A" } };
    const verdict = golden([step, step], [record(1, "get_item", { id: "A" })]);
    expect(verdict.steps.map((s) => s.status)).toEqual(["done", "missing"]);
    expect(verdict.steps[1]).toEqual({
      step: 1,
      tool: "get_item",
      status: "missing",
      differences: [],
      outOfOrder: false,
    });
    expect(verdict.missing).toBe(1);
    expect(verdict.solved).toBe(false);
  });

  it("a failed call answers a step only when no successful call of the tool is left", () => {
    const step = { tool: "set_item", arguments: { id: "A", qty: 1 } };
    const exact = golden(
      [step],
      [
        record(1, "set_item", { id: "A", qty: 1 }, { status: "error" }),
        record(2, "set_item", step.arguments),
      ],
    );
    expect(exact.steps.map((s) => [s.status, s.seq])).toEqual([["done", 2]]);
    expect(exact.extra).toEqual([{ seq: 1, tool: "set_item", status: "error", write: true }]);
    const near = golden(
      [step],
      [
        record(1, "set_item", { id: "A", qty: 1 }, { status: "error" }),
        record(2, "set_item", { id: "A", qty: 3 }),
      ],
    );
    expect(near.steps.map((s) => [s.status, s.seq])).toEqual([["wrong-arguments", 2]]);
    const failed = golden([step], [record(1, "set_item", step.arguments, { status: "error" })]);
    expect(failed).toMatchObject({ failed: 1, solved: false });
    expect(failed.steps[0]?.status).toBe("failed");
  });

  it("of calls equally close to a step, the first answers it; a closer one wins", () => {
    const step = { tool: "set_item", arguments: { id: "A", qty: 1 } };
    const tie = golden(
      [step],
      [record(1, "set_item", { id: "A", qty: 2 }), record(2, "set_item", { id: "B", qty: 1 })],
    );
    expect(tie.steps[0]?.seq).toBe(1);
    const closer = golden(
      [step],
      [record(1, "set_item", { id: "B", qty: 2 }), record(2, "set_item", { id: "A", qty: 2 })],
    );
    expect(closer.steps[0]?.seq).toBe(2);
  });

  it("a free-text note the solution does not have is reported, and the step is still done", () => {
    const verdict = golden(
      [{ tool: "set_item", arguments: { id: "A" } }],
      [record(1, "set_item", { id: "A", note: "Done as asked." }, { changes: true })],
    );
    expect(verdict.steps[0]).toMatchObject({
      status: "done",
      differences: [{ argument: "note", kind: "unexpected", severity: "note", freeText: true }],
    });
    expect(verdict.solved).toBe(true);
  });

  it("an extra call writes when it changed the state or its tool is not read-only", () => {
    const verdict = golden(
      [],
      [
        record(1, "get_item", { id: "A" }),
        record(2, "get_item", { id: "B" }, { changes: true }),
        record(3, "set_item", { id: "C" }),
        record(4, "lookup", { id: "D" }),
      ],
      { valid: false, infeasible: true },
    );
    expect(verdict.extra.map((e) => [e.seq, e.write])).toEqual([
      [1, false],
      [2, true],
      [3, true],
      [4, true],
    ]);
    expect(verdict).toMatchObject({ attemptedWrites: 3, solved: false });
  });
});

describe("the order of matched steps", () => {
  const steps = ["a", "b", "c", "d"].map((id) => ({ tool: "get_item", arguments: { id } }));
  const calledIn = (order: string[], solution = steps) =>
    golden(
      solution,
      order.map((id, i) => record(i + 1, "get_item", { id })),
    );
  const late = (order: string[], solution = steps) =>
    calledIn(order, solution)
      .steps.filter((s) => s.outOfOrder)
      .map((s) => solution[s.step]?.arguments.id);

  it("steps without a group keep their order", () => {
    expect(late(["b", "a", "c", "d"])).toEqual(["a"]);
    expect(calledIn(["a", "b", "c", "d"]).solved).toBe(true);
  });

  it("the longest run in order stands; the calls out of it are flagged", () => {
    expect(late(["b", "c", "d", "a"])).toEqual(["a"]);
    expect(late(["d", "a", "b", "c"])).toEqual(["d"]);
    expect(late(["c", "a", "b", "d"])).toEqual(["c"]);
    expect(late(["d", "c", "b", "a"])).toHaveLength(3);
  });

  it("steps of one group may come in any order, but not before the step ahead of the group", () => {
    const grouped = [
      { tool: "get_item", arguments: { id: "a" } },
      { tool: "get_item", arguments: { id: "b" }, group: "g" },
      { tool: "get_item", arguments: { id: "c" }, group: "g" },
      { tool: "get_item", arguments: { id: "d" } },
    ];
    expect(late(["a", "c", "b", "d"], grouped)).toEqual([]);
    expect(late(["b", "c", "a", "d"], grouped)).toEqual(["a"]);
    const twoGroups = [
      { tool: "get_item", arguments: { id: "a" }, group: "g" },
      { tool: "get_item", arguments: { id: "b" }, group: "h" },
    ];
    expect(late(["b", "a"], twoGroups)).toEqual(["a"]);
  });
});

describe("verdicts by judging mode", () => {
  const task = (fields: Partial<Task> = {}): Task =>
    Task.parse({
      id: "t",
      description: "Set item A to one.",
      difficulty: "simple",
      solution: [{ tool: "set_item", arguments: { id: "A", qty: 1 } }],
      checklist: ["Item A has quantity 1."],
      ...fields,
    });
  const calls = [
    { ...record(1, "set_item", { id: "A", qty: 1 }), versionBefore: 0, versionAfter: 1 },
    {
      ...record(2, "set_item", { id: "A", qty: "x" }, { status: "rejected" }),
      versionBefore: 1,
      versionAfter: 1,
    },
    { ...record(3, "get_item", { id: "Z" }, { status: "error" }), versionBefore: 1, versionAfter: 1 },
  ];
  const judge = (fields: Partial<Task>, input: { mode?: "auto" | "golden" | "checklist" } = {}) =>
    judgeTask({
      task: task(fields),
      calls,
      headVersion: 1,
      finalState: {},
      tool: (name) => TOOLS[name],
      infeasible: false,
      ...input,
    });

  it("counts the attempt's calls by how they ended", async () => {
    const verdict = await judge({});
    expect(verdict.calls).toEqual({ total: 3, attempt: 3, ok: 1, error: 1, rejected: 1 });
    expect(verdict).toMatchObject({ judge: "golden", solved: true, progress: { done: 1, total: 1 } });
  });

  it("golden mode judges by the solution, and says when there is none", async () => {
    expect(await judge({}, { mode: "golden" })).toMatchObject({ judge: "golden", solved: true });
    const none = await judge({ solution: [] }, { mode: "golden" });
    expect(none).toMatchObject({
      judge: "none",
      solved: null,
      progress: { done: 0, total: 0 },
      unavailable: "the task has no golden solution",
    });
  });

  it("without a model, the checklist is not judged and the verdict says how to configure one", async () => {
    for (const verdict of [await judge({}, { mode: "checklist" }), await judge({ solution: [] })]) {
      expect(verdict).toMatchObject({ judge: "none", solved: null, progress: { done: 0, total: 1 } });
      expect(verdict.unavailable).toMatch(/^judging this task needs the checklist judge.*OPENAI_API_KEY/);
    }
  });
});

describe("checklist verdicts", () => {
  let fake: FakeOpenAI;
  let judge: LlmChecklistJudge;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    judge = new LlmChecklistJudge(
      new LlmClient({ baseURL: fake.url, models: { simulate: "fake-model" }, maxRetries: 0 }),
    );
  });
  afterAll(() => fake.close());

  const task = (id: string, valid: boolean, checklist: string[]) =>
    Task.parse({
      id,
      description: `Request ${id}.`,
      difficulty: "simple",
      valid,
      ...(valid ? {} : { invalid_reason: "No tool does it." }),
      checklist,
    });
  const items = (...statuses: string[]) => ({
    kind: "json" as const,
    value: { items: statuses.map((status, i) => ({ index: i + 1, status, reason: "seen", calls: [] })) },
  });
  const verdictOf = (judged: Task, infeasible: boolean) =>
    judgeTask({
      task: judged,
      calls: [],
      headVersion: 0,
      finalState: {},
      tool: () => undefined,
      infeasible,
      checklistJudge: judge,
    });

  it("a valid task is solved when every item is completed and the agent did not decline it", async () => {
    fake.script(items("completed", "rejected"));
    expect(await verdictOf(task("valid-one", true, ["One.", "Two."]), false)).toMatchObject({
      judge: "checklist",
      solved: false,
      progress: { done: 2, total: 2 },
    });
    fake.script(items("completed", "completed"));
    expect(await verdictOf(task("valid-two", true, ["One.", "Two."]), true)).toMatchObject({
      solved: false,
    });
    fake.script(items("completed", "in_progress"));
    expect(await verdictOf(task("valid-three", true, ["One.", "Two."]), false)).toMatchObject({
      solved: false,
      progress: { done: 1, total: 2 },
    });
  });

  it("an invalid task is solved only when every item is settled and the agent declined", async () => {
    fake.script(items("rejected", "completed"));
    expect(await verdictOf(task("invalid-one", false, ["One.", "Two."]), false)).toMatchObject({
      solved: false,
    });
    fake.script(items("rejected", "failed"));
    expect(await verdictOf(task("invalid-two", false, ["One.", "Two."]), true)).toMatchObject({
      solved: false,
      progress: { done: 1, total: 2 },
    });
  });

  it("says whether the checklist was authored or written by the judge", async () => {
    fake.script({ kind: "json", value: { items: ["Written one."] } }, items("completed"));
    const verdict = await verdictOf(task("generated", true, []), false);
    expect(verdict.checklist?.source).toBe("generated");
    expect(verdict.usage?.promptTokens).toBeGreaterThan(0);
  });

  it("a judge that fails leaves the progress unknown over the authored items", async () => {
    fake.script({ kind: "text", content: "not json" });
    const verdict = await verdictOf(task("failing", true, ["One.", "Two.", "Three."]), false);
    expect(verdict).toMatchObject({ judge: "none", solved: null, progress: { done: 0, total: 3 } });
  });
});
