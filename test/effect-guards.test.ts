import { describe, expect, it } from "vitest";
import { type Guard, Tool } from "../src/catalog/index.js";
import { runEffects } from "../src/engine/index.js";

/** One test per guard operator, on both sides of its edge, and with its operand absent. */

const NOW = "2026-03-02T09:00:00Z";

const STATE = {
  items: {
    A: { n: 5, status: "Open", due: "2026-03-10", tags: ["x", "y"], code: "007" },
  },
};

/** A tool that reads items/{id} under one guard, with optional arguments the operands may name. */
function guarded(guard: Omit<Guard, "error">): Tool {
  return Tool.parse({
    name: "check_item",
    description: "Reads an item under a guard.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string" },
        bound: { type: "number" },
        allowed: { type: "array" },
        wanted: { type: "string" },
      },
      required: ["id"],
    },
    errors: [
      {
        code: "REFUSED",
        status: 409,
        message: "Item {id} has {n}, which the guard refuses.",
        when: "it does",
      },
    ],
    effects: [
      { kind: "read", target: "items/{id}", require: [{ ...guard, error: "REFUSED" }], output: "item" },
    ],
  });
}

/** Whether the guard lets the call through ("holds") or answers its error ("fails"). */
async function verdict(guard: Omit<Guard, "error">, args: Record<string, unknown> = {}): Promise<string> {
  const effects = await runEffects(guarded(guard), { id: "A", ...args }, STATE, NOW);
  if (effects.status === "applied") return "holds";
  if (effects.status === "failed" && effects.failure.code === "REFUSED") return "fails";
  throw new Error(`unexpected outcome ${JSON.stringify(effects)}`);
}

describe("field guards", () => {
  it("in: the field must loosely equal one of the values", async () => {
    expect(await verdict({ field: "n", in: [5, 6] })).toBe("holds");
    expect(await verdict({ field: "n", in: ["5"] })).toBe("holds");
    expect(await verdict({ field: "status", in: ["open"] })).toBe("holds");
    expect(await verdict({ field: "n", in: [6, 7] })).toBe("fails");
    expect(await verdict({ field: "n", in: [] })).toBe("fails");
    expect(await verdict({ field: "missing", in: [5] })).toBe("fails");
    // a lone value is a list of one
    expect(await verdict({ field: "n", in: { $expr: "5" } })).toBe("holds");
    expect(await verdict({ field: "n", in: { $expr: "6" } })).toBe("fails");
  });

  it("in: the values may come from an argument, and set no condition when it is not given", async () => {
    expect(await verdict({ field: "n", in: { $expr: "allowed" } }, { allowed: [4, 5] })).toBe("holds");
    expect(await verdict({ field: "n", in: { $expr: "allowed" } }, { allowed: [4] })).toBe("fails");
    expect(await verdict({ field: "n", in: { $expr: "allowed" } })).toBe("holds");
    // an element that renders to nothing is left out; the others still count
    expect(await verdict({ field: "n", in: ["{wanted}", 5] })).toBe("holds");
    expect(await verdict({ field: "n", in: ["{wanted}", 6] })).toBe("fails");
  });

  it("notIn: the field must equal none of the values", async () => {
    expect(await verdict({ field: "n", notIn: [6, 7] })).toBe("holds");
    expect(await verdict({ field: "n", notIn: [7, "5"] })).toBe("fails");
    expect(await verdict({ field: "status", notIn: ["OPEN"] })).toBe("fails");
    expect(await verdict({ field: "n", notIn: [] })).toBe("holds");
    expect(await verdict({ field: "n", notIn: { $expr: "allowed" } }, { allowed: [5] })).toBe("fails");
    expect(await verdict({ field: "n", notIn: { $expr: "allowed" } })).toBe("holds");
  });

  it("equals: loose equality (case, numbers spelled as text), but text stays text", async () => {
    expect(await verdict({ field: "n", equals: 5 })).toBe("holds");
    expect(await verdict({ field: "n", equals: "5" })).toBe("holds");
    expect(await verdict({ field: "status", equals: "OPEN" })).toBe("holds");
    expect(await verdict({ field: "n", equals: 6 })).toBe("fails");
    expect(await verdict({ field: "code", equals: "7" })).toBe("fails");
    expect(await verdict({ field: "tags", equals: ["x", "y"] })).toBe("holds");
    expect(await verdict({ field: "tags.1", equals: "y" })).toBe("holds");
    expect(await verdict({ field: "status", equals: "{wanted}" }, { wanted: "open" })).toBe("holds");
    expect(await verdict({ field: "status", equals: "{wanted}" }, { wanted: "closed" })).toBe("fails");
    expect(await verdict({ field: "status", equals: "{wanted}" })).toBe("holds");
  });

  it("gte: at or above the bound holds, below fails", async () => {
    expect(await verdict({ field: "n", gte: 4 })).toBe("holds");
    expect(await verdict({ field: "n", gte: 5 })).toBe("holds");
    expect(await verdict({ field: "n", gte: 5.0001 })).toBe("fails");
    expect(await verdict({ field: "n", gte: "{bound}" }, { bound: 5 })).toBe("holds");
    expect(await verdict({ field: "n", gte: "{bound}" }, { bound: 6 })).toBe("fails");
    expect(await verdict({ field: "n", gte: "{bound}" })).toBe("holds");
  });

  it("lte: at or below the bound holds, above fails", async () => {
    expect(await verdict({ field: "n", lte: 6 })).toBe("holds");
    expect(await verdict({ field: "n", lte: 5 })).toBe("holds");
    expect(await verdict({ field: "n", lte: 4.9999 })).toBe("fails");
    expect(await verdict({ field: "n", lte: "{bound}" }, { bound: 5 })).toBe("holds");
    expect(await verdict({ field: "n", lte: "{bound}" }, { bound: 4 })).toBe("fails");
    expect(await verdict({ field: "n", lte: "{bound}" })).toBe("holds");
  });

  it("gte and lte compare numbers spelled as text, and dates by time", async () => {
    expect(await verdict({ field: "code", gte: 7 })).toBe("holds");
    expect(await verdict({ field: "code", lte: 6 })).toBe("fails");
    expect(await verdict({ field: "due", gte: "{$now}" })).toBe("holds");
    expect(await verdict({ field: "due", lte: "{$now}" })).toBe("fails");
    expect(await verdict({ field: "due", lte: "2026-03-10" })).toBe("holds");
    expect(await verdict({ field: "due", gte: "2026-03-10T00:00:01Z" })).toBe("fails");
  });

  it("gte and lte fail on what is neither a number nor a date", async () => {
    expect(await verdict({ field: "status", gte: 0 })).toBe("fails");
    expect(await verdict({ field: "status", lte: 1e12 })).toBe("fails");
    expect(await verdict({ field: "n", gte: "soon" })).toBe("fails");
    expect(await verdict({ field: "missing", lte: 10 })).toBe("fails");
    expect(await verdict({ field: "due", gte: "2026-99-99" })).toBe("fails");
  });

  it("every operator of one guard must hold", async () => {
    expect(await verdict({ field: "n", gte: 1, lte: 9, notIn: [3], in: [5] })).toBe("holds");
    expect(await verdict({ field: "n", gte: 1, lte: 4 })).toBe("fails");
    expect(await verdict({ field: "n", gte: 6, lte: 9 })).toBe("fails");
    expect(await verdict({ field: "n", in: [5], notIn: [5] })).toBe("fails");
    expect(await verdict({ field: "n", equals: 5, lte: 4 })).toBe("fails");
  });

  it("a failing guard answers the documented error with the field's value filled in", async () => {
    const effects = await runEffects(guarded({ field: "n", gte: 6 }), { id: "A" }, STATE, NOW);
    expect(effects).toEqual({
      status: "failed",
      failure: { code: "REFUSED", status: 409, message: "Item A has 5, which the guard refuses." },
    });
  });

  it("guards run in order: the first that fails answers", async () => {
    const tool = Tool.parse({
      name: "check_item",
      description: "Two guards.",
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
      errors: [
        { code: "FIRST", status: 409, message: "first", when: "the first guard fails" },
        { code: "SECOND", status: 422, message: "second", when: "the second guard fails" },
      ],
      effects: [
        {
          kind: "read",
          target: "items/{id}",
          require: [
            { field: "n", gte: 1, error: "FIRST" },
            { field: "n", lte: 1, error: "SECOND" },
            { field: "n", lte: 0, error: "FIRST" },
          ],
        },
      ],
    });
    const effects = await runEffects(tool, { id: "A" }, STATE, NOW);
    expect(effects).toEqual({
      status: "failed",
      failure: { code: "SECOND", status: 422, message: "second" },
    });
  });
});

describe("expression guards", () => {
  it("hold when the expression is truthy, see $subject, and fail otherwise", async () => {
    expect(await verdict({ expr: "$subject.n = 5" })).toBe("holds");
    expect(await verdict({ expr: "$subject.n > 5" })).toBe("fails");
    expect(await verdict({ expr: "$count($subject.tags)" })).toBe("holds");
    expect(await verdict({ expr: "$subject.tags[$ = 'z']" })).toBe("fails");
    expect(await verdict({ expr: "bound" }, { bound: 1 })).toBe("holds");
    expect(await verdict({ expr: "bound" }, { bound: 0 })).toBe("fails");
  });
});
