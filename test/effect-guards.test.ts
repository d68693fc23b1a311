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

describe("effects in isolation: each kind's rules", () => {
  const NOW = "2026-03-02T09:00:00Z";
  const ERRORS = [
    { code: "NOT_FOUND", status: 404, message: "No {id} here.", when: "it is missing" },
    { code: "TAKEN", status: 409, message: "{id} is taken by {$existing.name}.", when: "the key is used" },
    { code: "BAD", status: 422, message: "Cannot: {reason.text} ({count}).", when: "it is refused" },
  ];
  /** A tool with these effects, taking any arguments. */
  const tool = (effects: unknown[], errors: unknown[] = ERRORS) =>
    Tool.parse({
      name: "act",
      description: "Acts on the state.",
      inputSchema: { type: "object" },
      errors,
      effects,
    });
  const run = (
    effects: unknown[],
    args: Record<string, unknown>,
    state: Record<string, unknown>,
    errors?: unknown[],
  ) => runEffects(tool(effects, errors), args, state, NOW);
  const applied = async (...input: Parameters<typeof run>) => {
    const effects = await run(...input);
    if (effects.status !== "applied") throw new Error(`not applied: ${JSON.stringify(effects)}`);
    return effects;
  };
  const failure = async (...input: Parameters<typeof run>) => {
    const effects = await run(...input);
    if (effects.status !== "failed") throw new Error(`did not fail: ${JSON.stringify(effects)}`);
    return effects.failure;
  };

  it("does nothing for a tool without effects", async () => {
    expect(await run([], {}, {})).toEqual({ status: "none" });
  });

  it("creates under a minted key, the next after the highest with the prefix", async () => {
    const state = { orders: { "ORD-0009": { n: 1 }, "ORD-0010": { n: 2 }, "X-0500": {} } };
    const created = await applied(
      [
        {
          kind: "create",
          target: "orders",
          id: { prefix: "ORD-", width: 4, field: "order_id" },
          set: { n: 3 },
          output: "order",
        },
      ],
      {},
      state,
    );
    expect(created.output).toEqual({ order: { n: 3, order_id: "ORD-0011" } });
    expect(created.patch).toEqual([
      { op: "add", path: "/orders/ORD-0011", value: { n: 3, order_id: "ORD-0011" } },
    ]);
    expect(created.touched).toEqual(["/orders/ORD-0011"]);
    const fresh = await applied(
      [{ kind: "create", target: "tickets", set: { t: "{$id}" }, output: "ticket" }],
      {},
      {},
    );
    expect(fresh.patch).toEqual([
      { op: "add", path: "/tickets", value: {} },
      { op: "add", path: "/tickets/0001", value: { t: "0001" } },
    ]);
  });

  it("creates under a given key, and answers `exists` when it is taken", async () => {
    const state = { users: { ada: { name: "Ada" } } };
    const effects = [
      { kind: "read", target: "users/{id}", as: "existing" },
      { kind: "create", target: "users/{id}", set: { name: "{name}" }, exists: "TAKEN" },
    ];
    expect(await failure(effects, { id: "ada", name: "Other" }, state)).toEqual({
      code: "TAKEN",
      status: 409,
      message: "ada is taken by Ada.",
    });
    const made = await applied(effects, { id: "bo", name: "Bo" }, state);
    expect(made.patch).toEqual([{ op: "add", path: "/users/bo", value: { name: "Bo" } }]);
    // no `exists`: the create does not apply, and the simulator answers
    const quiet = await applied(
      [{ kind: "create", target: "users/{id}", set: { name: "x" } }],
      { id: "ada" },
      state,
    );
    expect(quiet.patch).toEqual([]);
    // an absent key: the effect does not apply
    const absent = await applied([{ kind: "create", target: "users/{id}", set: {} }], {}, state);
    expect(absent.patch).toEqual([]);
  });

  it("creates inside an entity: under a template key, a minted key, or appended to an array", async () => {
    const state = {
      orders: {
        A: { notes: { "N-01": "x" }, items: [{ line: "L-1" }] },
        B: { notes: {}, items: [] },
      },
    };
    const keyed = await applied(
      [{ kind: "create", target: "orders/{order}/notes/{note}", set: { text: "{text}" }, output: "note" }],
      { order: "A", note: "N-07", text: "hello" },
      state,
    );
    expect(keyed.patch).toEqual([{ op: "add", path: "/orders/A/notes/N-07", value: { text: "hello" } }]);
    const minted = await applied(
      [
        {
          kind: "create",
          target: "orders/{order}/notes",
          id: { prefix: "N-", width: 2 },
          set: { text: "{$id}" },
        },
      ],
      { order: "A" },
      state,
    );
    expect(minted.patch).toEqual([{ op: "add", path: "/orders/A/notes/N-02", value: { text: "N-02" } }]);
    const appended = await applied(
      [
        {
          kind: "create",
          target: "orders/{order}/items",
          id: { prefix: "L-", width: 1, field: "line" },
          set: { sku: "S" },
          output: "item",
        },
      ],
      { order: "A" },
      state,
    );
    expect(appended.patch).toEqual([
      { op: "add", path: "/orders/A/items/-", value: { sku: "S", line: "L-2" } },
    ]);
    expect(appended.touched).toEqual(["/orders/A/items/1"]);
    expect(appended.output).toEqual({ item: { sku: "S", line: "L-2" } });
    const taken = await failure(
      [{ kind: "create", target: "orders/{order}/notes/{note}", set: {}, exists: "TAKEN" }],
      { order: "A", note: "N-01", id: "N-01" },
      state,
    );
    expect(taken.code).toBe("TAKEN");
    const noOrder = await failure(
      [{ kind: "create", target: "orders/{order}/notes/{note}", set: {}, missing: "NOT_FOUND" }],
      { order: "Z", note: "N-01", id: "Z" },
      state,
    );
    expect(noOrder).toEqual({ code: "NOT_FOUND", status: 404, message: "No Z here." });
  });

  it("makes a missing container in the shape the other entities give it", async () => {
    const state = { orders: { A: { notes: { "N-1": {} }, items: [{ sku: "S" }] }, C: {} } };
    const asObject = await applied(
      [{ kind: "create", target: "orders/{order}/notes", id: { prefix: "N-", width: 1 }, set: { t: 1 } }],
      { order: "C" },
      state,
    );
    expect(asObject.patch).toEqual([{ op: "add", path: "/orders/C/notes", value: { "N-1": { t: 1 } } }]);
    const asArray = await applied(
      [{ kind: "create", target: "orders/{order}/items", set: { sku: "T" } }],
      { order: "C" },
      state,
    );
    expect(asArray.patch).toEqual([{ op: "add", path: "/orders/C/items", value: [{ sku: "T" }] }]);
    expect(asArray.touched).toEqual(["/orders/C/items/0"]);
    const unknownShape = await applied(
      [{ kind: "create", target: "orders/{order}/tags", set: { t: 1 } }],
      { order: "C" },
      state,
    );
    expect(unknownShape.patch).toEqual([{ op: "add", path: "/orders/C/tags", value: [{ t: 1 }] }]);
    const keyedMissing = await applied(
      [{ kind: "create", target: "orders/{order}/extras/{key}", set: { t: 1 } }],
      { order: "C", key: "k" },
      state,
    );
    expect(keyedMissing.patch).toEqual([{ op: "add", path: "/orders/C/extras", value: { k: { t: 1 } } }]);
  });

  it("says the catalog is at fault when a create leads into a plain value or names a key in an array", async () => {
    const state = { orders: { A: { note: "text", items: [] } } };
    const intoText = await failure(
      [{ kind: "create", target: "orders/{order}/note", set: {} }],
      { order: "A" },
      state,
    );
    expect(intoText).toEqual({
      code: "EFFECT_FAILED",
      status: 500,
      message:
        "toolsim cannot answer act: effect 0 (create) cannot run: orders/{order}/note leads to a string, not an object or an array. The catalog needs fixing (toolsim lint); this is not a problem with the call.",
    });
    const keyInArray = await failure(
      [{ kind: "create", target: "orders/{order}/items/{key}", set: {} }],
      { order: "A", key: "k" },
      state,
    );
    expect(keyInArray.message).toContain(
      "orders/{order}/items/{key} names a key, but the value there is an array",
    );
  });

  it("updates: sets, increments without binary noise, appends, and leaves fields an absent argument names", async () => {
    const state = { accounts: { A: { balance: 0.1, count: "2", tags: ["x"], owner: { name: "Ada" } } } };
    const updated = await applied(
      [
        {
          kind: "update",
          target: "accounts/{id}",
          set: { "owner.name": "{name}", status: "{status}", "owner.city": "Paris" },
          inc: { balance: "{amount}", count: 1, visits: 2, skipped: "{nothing}" },
          append: { tags: "{tag}", log: "opened", more: "{nothing}" },
          output: "account",
        },
      ],
      { id: "A", name: "Bo", amount: 0.2, tag: "y" },
      state,
    );
    expect(updated.output.account).toEqual({
      balance: 0.3,
      count: 3,
      visits: 2,
      tags: ["x", "y"],
      log: ["opened"],
      owner: { name: "Bo", city: "Paris" },
    });
  });

  it("updates array elements by index and says the catalog is at fault for fields of a plain value", async () => {
    const state = { orders: { A: { items: [{ q: 1 }, { q: 2 }], total: 5 } } };
    const byIndex = await applied(
      [{ kind: "update", target: "orders/{id}", set: { "items.1.q": 7 }, output: "order" }],
      { id: "A" },
      state,
    );
    expect(byIndex.output.order).toEqual({ items: [{ q: 1 }, { q: 7 }], total: 5 });
    const plain = await failure(
      [{ kind: "update", target: "orders/{id}/total", inc: { n: 1 } }],
      { id: "A" },
      state,
    );
    expect(plain.message).toContain("orders/{id}/total leads to a number, which has no fields to change");
  });

  it("reads and deletes values nested inside entities, and answers `missing` for any absent step", async () => {
    const state = { orders: { A: { items: [{ sku: "S" }, { sku: "T" }] }, B: "not an entity" } };
    const read = await applied(
      [{ kind: "read", target: "orders/{id}/items/1", output: "item" }],
      { id: "A" },
      state,
    );
    expect(read.output).toEqual({ item: { sku: "T" } });
    const removed = await applied([{ kind: "delete", target: "orders/{id}/items/0" }], { id: "A" }, state);
    expect(removed.patch).toEqual([{ op: "remove", path: "/orders/A/items/0" }]);
    expect(removed.touched).toEqual(["/orders/A/items/0"]);
    expect(
      await failure([{ kind: "read", target: "orders/{id}", missing: "NOT_FOUND" }], { id: "Z" }, state),
    ).toMatchObject({ code: "NOT_FOUND" });
    // a value that is not a record is still there to read (a map of names to ids holds strings)
    const plain = await applied(
      [{ kind: "read", target: "orders/{id}", output: "value" }],
      { id: "B" },
      state,
    );
    expect(plain.output).toEqual({ value: "not an entity" });
    expect(
      await failure(
        [{ kind: "read", target: "orders/{id}/items/5", missing: "NOT_FOUND" }],
        { id: "A" },
        state,
      ),
    ).toMatchObject({ code: "NOT_FOUND" });
    // a key given as a number names the entity by its text
    const numbered = await applied(
      [{ kind: "read", target: "orders/{id}", output: "order" }],
      { id: 7 },
      { orders: { "7": { n: 1 } } },
    );
    expect(numbered.output).toEqual({ order: { n: 1 } });
    for (const id of [null, ""]) {
      const skipped = await applied(
        [{ kind: "read", target: "orders/{id}", missing: "NOT_FOUND", output: "order" }],
        { id },
        state,
      );
      expect(skipped.output).toEqual({});
    }
  });

  it("lists by where, any of a list of values, an array field equal to the list, a filter and a limit", async () => {
    const state = {
      books: {
        B1: { genre: "fiction", tags: ["a", "b"], pages: 100 },
        B2: { genre: "Fiction", tags: ["a"], pages: 300 },
        B3: { genre: "poetry", tags: ["b"], pages: 50 },
        B4: "not an entity",
      },
    };
    const list = (effect: Record<string, unknown>, args: Record<string, unknown> = {}) =>
      applied([{ kind: "list", target: "books", output: "books", ...effect }], args, state).then((e) =>
        (e.output.books as Array<{ pages: number }>).map((b) => b.pages),
      );
    expect(await list({ where: { genre: "{genre}" } }, { genre: "FICTION" })).toEqual([100, 300]);
    expect(await list({ where: { genre: "{genre}" } })).toEqual([100, 300, 50]);
    expect(await list({ where: { genre: ["poetry", "fiction"] } })).toEqual([100, 300, 50]);
    expect(await list({ where: { tags: ["a", "b"] } })).toEqual([100]);
    expect(await list({ where: { tags: "b" } })).toEqual([]);
    expect(await list({ filter: "pages > $args.min" }, { min: 60 })).toEqual([100, 300]);
    expect(await list({ limit: 2 })).toEqual([100, 300]);
    expect(await list({ limit: "{limit}" }, { limit: 1 })).toEqual([100]);
    expect(await list({ limit: "{limit}" }, { limit: 0 })).toEqual([100, 300, 50]);
    expect(await list({ limit: "{limit}" }, { limit: -1 })).toEqual([100, 300, 50]);
    expect(
      await failure(
        [{ kind: "list", target: "books", where: { genre: "drama" }, missing: "NOT_FOUND" }],
        { id: "x" },
        state,
      ),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect(await list({ where: { genre: "drama" } })).toEqual([]);
    expect((await applied([{ kind: "list", target: "nothing", output: "books" }], {}, state)).output).toEqual(
      { books: [] },
    );
  });

  it("runs an effect per element of `each`, binds the results, and skips one whose `when` is falsy", async () => {
    const state = { stock: { S: { n: 5 }, T: { n: 5 } } };
    const effects = [
      { kind: "update", target: "stock/{$item.sku}", each: "items", inc: { n: "{$item.q}" }, as: "changed" },
      { kind: "respond", value: { $expr: "$count($changed)" }, output: "changed" },
      { kind: "respond", value: "skipped", output: "note", when: "$count($changed) > 5" },
      { kind: "respond", value: { $expr: "$index" }, output: "index" },
    ];
    const two = await applied(
      effects,
      {
        items: [
          { sku: "S", q: 1 },
          { sku: "T", q: -2 },
        ],
      },
      state,
    );
    expect(two.patch.map((p) => p.path)).toEqual(["/stock/S", "/stock/T"]);
    expect(two.output).toEqual({ changed: 2 });
    const one = await applied(effects, { items: { sku: "S", q: 1 } }, state);
    expect(one.output).toEqual({ changed: 1 });
    const none = await applied(effects, {}, state);
    expect(none.output).toEqual({ changed: 0 });
  });

  it("responds: an object merges, a value under its output, anything else is the whole result", async () => {
    const merged = await applied(
      [
        { kind: "respond", value: { a: 1 } },
        { kind: "respond", value: { b: 2 }, output: "." },
        { kind: "respond", value: 3, output: "c.d" },
      ],
      {},
      {},
    );
    expect(merged.output).toEqual({ a: 1, b: 2, c: { d: 3 } });
    expect(merged.result).toBeUndefined();
    const whole = await applied([{ kind: "respond", value: [1, 2] }], {}, {});
    expect(whole.result).toEqual([1, 2]);
    // once the whole result is decided, a later object is the whole result too
    const later = await applied(
      [
        { kind: "respond", value: "first" },
        { kind: "respond", value: { a: 1 } },
      ],
      {},
      {},
    );
    expect(later.result).toEqual({ a: 1 });
    expect(later.output).toEqual({});
    const nothing = await applied(
      [
        { kind: "respond", value: "{absent}", output: "x" },
        { kind: "let", as: "v", value: "{absent}" },
      ],
      {},
      {},
    );
    expect(nothing.output).toEqual({});
    const lists = await applied(
      [
        {
          kind: "respond",
          value: ["{absent}", { $expr: "1" }, { a: { $expr: "missing" }, b: 2 }],
          output: "l",
        },
      ],
      {},
      {},
    );
    expect(lists.output).toEqual({ l: [1, { b: 2 }] });
  });

  it("fills error messages from the call and from bindings, leaving what it cannot fill", async () => {
    const state = { users: { ada: { name: "Ada", tags: ["x"] } } };
    const message = async (text: string, args: Record<string, unknown>) =>
      (
        await failure(
          [
            { kind: "read", target: "users/{id}", as: "user" },
            { kind: "check", require: [{ expr: "false", error: "BAD" }] },
          ],
          { id: "ada", ...args },
          state,
          [{ code: "BAD", status: 422, message: text, when: "always" }],
        )
      ).message;
    expect(
      await message("{id}: {reason.text} ({count}) {missing}", { reason: { text: "no" }, count: 2 }),
    ).toBe("ada: no (2) {missing}");
    expect(await message("{$user.name} has {$user.tags}; {$nobody.name}", {})).toBe(
      'Ada has ["x"]; {$nobody.name}',
    );
    expect(await message("{list}", { list: [1, 2] })).toBe("[1,2]");
    const undocumented = await failure(
      [{ kind: "check", require: [{ expr: "false", error: "ELSEWHERE" }] }],
      {},
      {},
    );
    expect(undocumented).toEqual({ code: "ELSEWHERE", status: 400, message: "ELSEWHERE" });
  });

  it("a refused computation answers computeError, else the only client error, else INVALID_INPUT with the reason", async () => {
    const effects = (extra: Record<string, unknown>) => [
      { kind: "respond", value: { $expr: "$calc(expression)" }, output: "v", ...extra },
    ];
    const own = await failure(effects({ computeError: "BAD" }), { expression: "2 +* 3" }, {});
    expect(own.code).toBe("BAD");
    expect(own.message).toMatch(/^Cannot: \{reason\.text\} \(\{count\}\)\. \(.+\)$/);
    const only = await failure(effects({}), { expression: "2 +* 3" }, {}, [
      { code: "INVALID", status: 400, message: "Invalid.", when: "bad" },
    ]);
    expect(only.code).toBe("INVALID");
    const unprocessable = await failure(effects({}), { expression: "2 +* 3" }, {}, [
      { code: "INVALID", status: 422, message: "Invalid.", when: "bad" },
    ]);
    expect(unprocessable.code).toBe("INVALID");
    const two = await failure(effects({}), { expression: "2 +* 3" }, {}, [
      { code: "INVALID", status: 400, message: "Invalid.", when: "bad" },
      { code: "WRONG", status: 422, message: "Wrong.", when: "bad" },
    ]);
    // the call's values are what a computation refuses: an error of the call, whose reason says what to mend
    expect(two).toMatchObject({ code: "INVALID_INPUT", status: 400 });
    expect(two.message).toMatch(/^The call's values cannot be computed with\. \(.+\)$/);
    const serverOnly = await failure(effects({}), { expression: "2 +* 3" }, {}, [
      { code: "DOWN", status: 503, message: "Down.", when: "down" },
    ]);
    expect(serverOnly.code).toBe("INVALID_INPUT");
  });
});
