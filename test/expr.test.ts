import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import {
  checkExpression,
  EXPRESSION_BOUNDS,
  type ExpressionScope,
  evaluateExpression,
  JSONATA_FUNCTIONS,
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

describe("expressions: where the static check looks for arguments", () => {
  const context = { variables: new Set(["args", "order"]), inputFields: new Set(["quantity"]) };
  const argumentsNamed = (text: string) =>
    checkExpression(text, context).map((p) =>
      p.message.match(/argument "(\w+)" \(position (\d+)\)/)?.slice(1),
    );

  it("finds an argument read wherever the arguments are the focus", () => {
    const cases: Array<[string, number]> = [
      ["-qty", 4],
      ["[qty]", 4],
      ['{"a": qty}', 9],
      ["qty ? 1 : 2", 3],
      ["true ? qty : 2", 10],
      ["true ? 1 : qty", 14],
      ["(1; qty)", 7],
      ["$x := qty", 9],
      ["$string(qty)", 11],
      ["$substring(?, qty)", 17],
      ["qty ~> $string()", 3],
      ['"a" ~> $substring(qty)', 21],
      ["(qty).foo", 4],
      ["[qty].x", 4],
      ["1 + qty", 7],
    ];
    for (const [text, position] of cases)
      expect({ text, found: argumentsNamed(text) }).toEqual({ text, found: [["qty", String(position)]] });
  });

  it("does not take a field of something else for an argument", () => {
    for (const text of [
      "$order.items[qty > 1]",
      "function($v) { qty }",
      "$order.(qty)",
      "$order.qty",
      "quantity.qty",
      '"a" ~> $string',
      "quantity * 2 ~> |x|{}|",
      "$args.quantity",
    ])
      expect({ text, problems: checkExpression(text, context) }).toEqual({ text, problems: [] });
  });

  it("names each unknown argument and variable once, at its first use", () => {
    expect(checkExpression("qty + qty + $args.qty", context).map((p) => p.message)).toEqual([
      'expression reads the argument "qty" (position 3), which is not a property of the inputSchema',
    ]);
    expect(checkExpression("$nope + $nope", context).map((p) => p.message)).toEqual([
      "expression reads $nope (position 5), which is not defined here (defined: $args, $order and the functions)",
    ]);
    expect(checkExpression("$random() + $random()", context)).toHaveLength(1);
  });

  it("reads no arguments when the schema lists none to check against, and lists no names when none are defined", () => {
    expect(checkExpression("qty * $x", { variables: new Set() }).map((p) => p.message)).toEqual([
      "expression reads $x (position 8), which is not defined here",
    ]);
  });

  it("knows every function it offers, and the input and root are always defined", () => {
    expect(checkExpression("$ and $$ and $now() and $millis() and $entity('a', 'b')", context)).toEqual([]);
    expect(checkExpression("$calc('1') + $convert(1, 'km', 'm') + $math('sqrt', 4)", context)).toEqual([]);
    expect(checkExpression("$eval('1')", context).map((p) => p.message)).toEqual([
      "$eval is not available in effects: it would hide an expression from the static check (write the expression itself)",
    ]);
  });

  it("checks expressions that use the parent operator", () => {
    expect(checkExpression("$order.items.{ 'id': %.id, 'n': qty }", context)).toEqual([]);
  });

  it("names a backreference RE2 cannot run, with its position", () => {
    expect(checkExpression('$match("a", /(a)\\1/)', context).map((p) => p.message)).toEqual([
      "regular expression at position 19 cannot run: invalid escape sequence: \\1 (lookarounds and backreferences are not supported)",
    ]);
  });
});

describe("expressions: toolsim's functions", () => {
  it("offers every JSONata function it lists (and each name is a real one)", async () => {
    for (const name of JSONATA_FUNCTIONS) {
      expect({ name, type: await value(`$type($${name})`) }).toEqual({ name, type: "function" });
      expect(checkExpression(`$${name}`, { variables: new Set() })).toEqual([]);
    }
  });

  it("refuses $eval at run time too", async () => {
    const evaluated = await evaluateExpression('$eval("1 + 1")', scope({}));
    expect(evaluated).toMatchObject({ ok: false, kind: "runtime" });
    expect(!evaluated.ok && evaluated.error).toMatch(/^failed: \$eval is not available in effects/);
  });

  it("says what $entity, $calc and $convert take when given something else", async () => {
    const entity = await evaluateExpression('$entity(1, "x")', { ...scope({}), entity: () => ({}) });
    expect(entity).toEqual({
      ok: false,
      kind: "runtime",
      error:
        "failed: $entity(collection, key, ...) takes a collection name, then keys (strings or numbers) (position 8)",
    });
    const badKey = await evaluateExpression('$entity("users", true)', { ...scope({}), entity: () => ({}) });
    expect(badKey).toMatchObject({ ok: false, kind: "runtime" });
    expect(await evaluateExpression("$calc(5)", scope({}))).toEqual({
      ok: false,
      kind: "compute",
      error: "$calc takes the arithmetic as text",
    });
    for (const call of ['$convert("a", "km", "mile")', '$convert(1, 2, "mile")', '$convert(1, "km", 3)'])
      expect(await evaluateExpression(call, scope({}))).toEqual({
        ok: false,
        kind: "compute",
        error: "$convert takes a number, the unit it is in and the unit wanted",
      });
  });

  it("looks an entity up by a numeric key, and gives nothing without a state", async () => {
    const seen: string[] = [];
    const evaluated = await evaluateExpression('$entity("orders", 7)', {
      ...scope({}),
      entity: (collection, key) => {
        seen.push(`${collection}/${key}`);
        return { id: key };
      },
    });
    expect(evaluated).toEqual({ ok: true, value: { id: "7" } });
    expect(seen).toEqual(["orders/7"]);
    expect(await evaluateExpression('$entity("orders", 7)', scope({}))).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it("computes with variables given to $calc, and converts money with the state's rates", async () => {
    expect(await value('$calc("x * 2", {"x": 3})')).toBe(6);
    expect(await value('$calc("2 * 2", "not variables")')).toBe(4);
    const rates = () => ({ pairs: new Map([["USD>EUR", 0.5]]) });
    expect(await evaluateExpression('$convert(10, "USD", "EUR")', { ...scope({}), rates })).toEqual({
      ok: true,
      value: 5,
    });
  });
});

describe("expressions: values that are not JSON", () => {
  it("refuses functions and infinite numbers as values", async () => {
    expect(await evaluateExpression("function($x) { $x }", scope({}))).toEqual({
      ok: false,
      kind: "runtime",
      error: "failed: it evaluates to a function, not a value (call it with arguments)",
    });
    expect(await evaluateExpression("$uppercase", scope({}))).toEqual({
      ok: false,
      kind: "runtime",
      error: "failed: it evaluates to a function, not a value (call it with arguments)",
    });
    expect(await evaluateExpression("1 / 0", scope({}))).toEqual({
      ok: false,
      kind: "runtime",
      error: "failed: it evaluates to Infinity, not a JSON number",
    });
    expect(await evaluateExpression('{"f": $uppercase}', scope({}))).toMatchObject({
      ok: false,
      kind: "runtime",
    });
  });

  it("leaves out what is absent, and keeps null, false and zero", async () => {
    expect(await value('{"a": missing, "b": null, "c": false, "d": 0, "e": ""}')).toEqual({
      b: null,
      c: false,
      d: 0,
      e: "",
    });
    expect(await value("[missing, null, 0]")).toEqual([null, 0]);
    expect(await value("null")).toBeNull();
    expect(await value('"text"')).toBe("text");
  });

  it("counts a function as true", () => {
    expect(truthy(() => 1)).toBe(true);
  });

  it("names the position of a parse error, and the error itself", async () => {
    const parse = await evaluateExpression("1 +", scope({}));
    expect(parse).toEqual({
      ok: false,
      kind: "parse",
      error: expect.stringMatching(/^does not parse at position 3: \S/),
    });
    expect(checkExpression("1 +", { variables: new Set() })).toEqual([
      { message: expect.stringMatching(/^expression does not parse at position 3: \S/) },
    ]);
  });
});

describe("expressions: the static check, rule by rule", () => {
  const context = { variables: new Set(["args", "order"]), inputFields: new Set(["quantity", "args"]) };
  const messages = (text: string) => checkExpression(text, context).map((p) => p.message);

  it("accepts regular expressions RE2 runs, and literals such as null", () => {
    expect(messages("$match(quantity, /a+/)")).toEqual([]);
    expect(messages("quantity = null ? 1 : 2")).toEqual([]);
  });

  it("takes the arguments of a function call for values read, not names defined", () => {
    expect(messages("$string($nope)")).toEqual([
      "expression reads $nope (position 13), which is not defined here (defined: $args, $order and the functions)",
    ]);
  });

  it("knows the names a path binds with @ and #", () => {
    expect(messages("$order.items@$it.($it.price)")).toEqual([]);
    expect(messages("$order.items#$pos[$pos > 0].price")).toEqual([]);
  });

  it("gives the position of an argument read through $args", () => {
    expect(messages("quantity + $args.price")).toEqual([
      'expression reads the argument "price" (position 22), which is not a property of the inputSchema',
    ]);
  });

  it("finds an argument read through the input $ and the root $$", () => {
    expect(messages("$.qty + $$.quantity")).toEqual([
      'expression reads the argument "qty" (position 5), which is not a property of the inputSchema',
    ]);
    expect(messages("$$.qty")).toEqual([
      'expression reads the argument "qty" (position 6), which is not a property of the inputSchema',
    ]);
    expect(messages("$.quantity * 2")).toEqual([]);
  });

  it("reads an argument named args like any other, and $args without a field as no argument", () => {
    expect(messages("args.x + quantity")).toEqual([]);
    expect(messages("$args.(quantity * 2)")).toEqual([]);
    expect(messages("$args[quantity > 1]")).toEqual([]);
  });

  it("finds an argument in a condition without an else", () => {
    expect(messages("true ? qty")).toEqual([
      'expression reads the argument "qty" (position 10), which is not a property of the inputSchema',
    ]);
  });

  it("says what JSONata says about an expression that does not parse", async () => {
    expect(await evaluateExpression("1 +", scope({}))).toEqual({
      ok: false,
      kind: "parse",
      error: "does not parse at position 3: Unexpected end of expression",
    });
    expect(messages("[1..2")).toEqual([
      'expression does not parse at position 5: Expected "]" before end of expression',
    ]);
  });
});

describe("expressions: failures at run time", () => {
  it("says why RE2 refuses a pattern, where JSONata gives no position", async () => {
    expect(await evaluateExpression('$split("a", /(?<=a)/)', scope({}))).toEqual({
      ok: false,
      kind: "runtime",
      error: "failed: invalid perl operator: (?<=",
    });
  });

  it("stops an evaluation that runs out of stack on deep data", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(await evaluateExpression("$string($)", scope(deep))).toEqual({
      ok: false,
      kind: "bound",
      error: "was stopped: it ran out of room (Maximum call stack size exceeded)",
    });
  });
});
