import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import {
  checkExpression,
  EXPRESSION_BOUNDS,
  type ExpressionScope,
  evaluateExpression,
  truthy,
} from "../src/expr/index.js";

const NOW = "2026-03-02T09:00:00Z";

function scope(input: unknown, variables: Record<string, unknown> = {}): ExpressionScope {
  return { input, variables: { args: input, ...variables }, now: NOW };
}

async function value(text: string, input: unknown = {}, variables: Record<string, unknown> = {}) {
  const evaluated = await evaluateExpression(text, scope(input, variables));
  if (!evaluated.ok) throw new Error(`${text}: ${evaluated.error}`);
  return evaluated.value;
}

describe("expressions: values", () => {
  it("computes from the arguments, bindings and the runtime", async () => {
    expect(await value("quantity * 2", { quantity: 3 })).toBe(6);
    expect(await value("$args.quantity * unit_price", { quantity: 3, unit_price: 2.5 })).toBe(7.5);
    const order = {
      items: [
        { price: 10, qty: 2 },
        { price: 5.5, qty: 1 },
      ],
    };
    expect(await value("$round($sum($order.items.(price * qty)) * 1.08, 2)", {}, { order })).toBe(27.54);
    expect(await value("$runtime.user_id", {}, { runtime: { user_id: "U-1" } })).toBe("U-1");
  });

  it("builds objects and arrays as plain JSON, sharing nothing with its inputs", async () => {
    const items = [
      { id: "a", qty: 1 },
      { id: "b", qty: 0 },
    ];
    // [ ] keeps an array an array: JSONata hands back a lone match as itself, and no match as nothing
    const kept = (await value("[$filter($items, function($i) { $i.qty > 0 })]", {}, { items })) as unknown[];
    expect(kept).toEqual([{ id: "a", qty: 1 }]);
    expect(await value("[$items[qty > 5]]", {}, { items })).toEqual([]);
    expect(kept[0]).not.toBe(items[0]);
    expect(Object.keys(kept)).toEqual(["0"]); // no JSONata sequence flags
    expect(await value('{"total": a + b, "tags": [x, "y"]}', { a: 1, b: 2, x: "x" })).toEqual({
      total: 3,
      tags: ["x", "y"],
    });
  });

  it("changes arrays with the transform operator", async () => {
    const order = {
      items: [
        { id: "a", status: "open" },
        { id: "b", status: "open" },
      ],
    };
    expect(await value('$order ~> |items[id = "b"]|{"status": "returned"}|', {}, { order })).toEqual({
      items: [
        { id: "a", status: "open" },
        { id: "b", status: "returned" },
      ],
    });
    expect(order.items[1]?.status).toBe("open");
  });

  it("reads the simulated clock, never the wall clock", async () => {
    expect(await value("$now()")).toBe(NOW);
    expect(await value("$millis()")).toBe(Date.parse(NOW));
    // date parsing that defaults missing parts from "today" uses the simulated day too
    expect(await value('$fromMillis($toMillis("10:30", "[H01]:[m01]"))')).toBe("2026-03-02T10:30:00.000Z");
  });

  it("refuses randomness", async () => {
    for (const text of ["$random()", "$shuffle([1, 2, 3])"]) {
      const evaluated = await evaluateExpression(text, scope({}));
      expect(evaluated).toMatchObject({ ok: false, kind: "runtime" });
      expect(!evaluated.ok && evaluated.error).toMatch(/not available in effects: it is not deterministic/);
    }
  });

  it("looks entities up through the scope", async () => {
    const entities: Record<string, unknown> = { "users/U1": { name: "Ada" } };
    const evaluated = await evaluateExpression('$entity("users", user_id).name', {
      ...scope({ user_id: "U1" }),
      entity: (collection, key) => entities[`${collection}/${key}`],
    });
    expect(evaluated).toEqual({ ok: true, value: "Ada" });
    const absent = await evaluateExpression('$entity("users", "U9")', {
      ...scope({}),
      entity: () => undefined,
    });
    expect(absent).toEqual({ ok: true, value: undefined });
  });

  it("computes with $calc, $convert and $math, and says when a computation refuses", async () => {
    expect(await value("$calc(expression)", { expression: "(2 + 3) * 4" })).toBe(20);
    expect(await value('$round($convert(10, "km", "mile"), 3)')).toBe(6.214);
    expect(await value('$math("pow", 2, 10)')).toBe(1024);
    expect(await value('$math("mean", [1, 2, 3, 6])')).toBe(3);
    const refused = await evaluateExpression("$calc(expression)", scope({ expression: "2 +* 3" }));
    expect(refused).toMatchObject({ ok: false, kind: "compute" });
    const unknown = await evaluateExpression('$math("launch", 1)', scope({}));
    expect(unknown).toMatchObject({ ok: false, kind: "compute" });
    expect(!unknown.ok && unknown.error).toMatch(/^unknown math function "launch": use one of /);
  });

  it("answers undefined for a path that leads nowhere, and fails with the position for a type error", async () => {
    expect(await value("missing.field", {})).toBeUndefined();
    const failed = await evaluateExpression('"a" + 1', scope({}));
    expect(failed).toMatchObject({ ok: false, kind: "runtime" });
    expect(!failed.ok && failed.error).toMatch(/must evaluate to a number.*position/);
    const parse = await evaluateExpression("1 +", scope({}));
    expect(parse).toMatchObject({ ok: false, kind: "parse" });
  });

  it("follows JSONata's truthiness", () => {
    expect([0, "", [], {}, null, undefined, false, [0, ""]].map(truthy)).toEqual(Array(8).fill(false));
    expect([1, "x", [0, 1], { a: 1 }, true].map(truthy)).toEqual(Array(5).fill(true));
  });
});

describe("expressions: bounds", () => {
  const bounded = async (text: string) => {
    const started = performance.now();
    const evaluated = await evaluateExpression(text, scope({}));
    return { evaluated, ms: performance.now() - started };
  };

  it("stops a recursion that does not end", async () => {
    const { evaluated, ms } = await bounded("($f := function($n) { $n + $f($n + 1) }; $f(0))");
    expect(evaluated).toMatchObject({ ok: false, kind: "bound" });
    expect(!evaluated.ok && evaluated.error).toMatch(/nested deeper than/);
    expect(ms).toBeLessThan(2_000);
  });

  it("stops a huge range at once", async () => {
    const { evaluated, ms } = await bounded("$sum([1..100000000])");
    expect(evaluated).toMatchObject({ ok: false, kind: "bound" });
    expect(ms).toBeLessThan(500);
  });

  it("stops loops that run past the step budget, the same way every time", async () => {
    for (const text of [
      "$reduce([1..50000], function($a, $i) { $a + $count($map([1..50000], function($x) { $x })) }, 0)",
      // a tail call does not nest (JSONata optimizes it), so only the step count stops it
      "($f := function($n) { $f($n + 1) }; $f(0))",
    ]) {
      const { evaluated, ms } = await bounded(text);
      expect(evaluated).toMatchObject({ ok: false, kind: "bound" });
      expect(!evaluated.ok && evaluated.error).toMatch(/took more than \d+ steps/);
      expect(ms).toBeLessThan(EXPRESSION_BOUNDS.timeMs * 5);
      // counted, not timed: a busy machine does not change the outcome
      expect((await bounded(text)).evaluated).toEqual(evaluated);
    }
  });

  it("stops a string that doubles without end", async () => {
    const { evaluated } = await bounded('$reduce([1..40], function($s, $i) { $s & $s }, "ab")');
    expect(evaluated).toMatchObject({ ok: false, kind: "bound" });
    expect(!evaluated.ok && evaluated.error).toMatch(/string of \d+ characters/);
  });

  it("pads within the string bound, as JSONata does", async () => {
    expect(await value('$pad("7", 3, "0")')).toBe("7  ".replace(/ /g, "0"));
    expect(await value('$pad("7", -3, "0")')).toBe("007");
    expect(await value('$pad("ab", 5)')).toBe("ab   ");
    expect(await value('$pad("x", -4, "<>")')).toBe("<><x");
    const { evaluated, ms } = await bounded('$pad("x", 500000000)');
    expect(evaluated).toMatchObject({ ok: false, kind: "bound" });
    expect(ms).toBeLessThan(500);
  });

  it("stops a loop that builds many large arrays", async () => {
    const { evaluated, ms } = await bounded("$count($map([1..99999], function($x) { [1..99999] }))");
    expect(evaluated).toMatchObject({ ok: false, kind: "bound" });
    expect(!evaluated.ok && evaluated.error).toMatch(/add up to more than/);
    expect(ms).toBeLessThan(EXPRESSION_BOUNDS.timeMs * 5);
  });

  it("runs regular expressions in linear time", async () => {
    const { evaluated, ms } = await bounded(`$contains("${"a".repeat(5000)}!", /(a+)+$/)`);
    expect(evaluated).toEqual({ ok: true, value: false });
    expect(ms).toBeLessThan(500);
  });
});

describe("expressions: the static check", () => {
  const context = { variables: new Set(["args", "runtime", "order"]), inputFields: new Set(["quantity"]) };

  it("accepts a well-formed expression", () => {
    expect(checkExpression("$round(quantity * $order.unit_price, 2)", context)).toEqual([]);
    expect(
      checkExpression(
        "($t := $sum($order.items.(price * qty)); $map([1, 2], function($v) { $v * $t }))",
        context,
      ),
    ).toEqual([]);
    expect(checkExpression("$order.items@$i#$n[$n > 0].price", context)).toEqual([]);
  });

  it("gives the position of a parse error", () => {
    const [problem] = checkExpression("quantity *", context);
    expect(problem?.message).toMatch(/does not parse at position \d+/);
  });

  it("names variables that are not defined and functions that are not available", () => {
    const messages = checkExpression("$refund.amount + $random() + $undefinedFn(1)", context).map(
      (p) => p.message,
    );
    expect(messages).toEqual([
      expect.stringMatching(/reads \$refund .* not defined here \(defined: \$args, \$order, \$runtime/),
      expect.stringMatching(/\$random is not available/),
      expect.stringMatching(/reads \$undefinedFn/),
    ]);
  });

  it("names arguments that the input schema does not have, at the top level and through $args", () => {
    const messages = checkExpression("qty * 2 + $args.price + $order.items[qty > 1].price", context).map(
      (p) => p.message,
    );
    expect(messages).toEqual([
      expect.stringMatching(/argument "qty" .* not a property of the inputSchema/),
      expect.stringMatching(/argument "price"/),
    ]);
  });

  it("names regular expressions RE2 cannot run", () => {
    const [problem] = checkExpression('$match("ab", /a(?=b)/)', context);
    expect(problem?.message).toMatch(/regular expression .* cannot run/);
  });
});
