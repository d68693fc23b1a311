import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../src/catalog/index.js";
import { type Finding, validateInput } from "../src/engine/index.js";

/**
 * One test per rule of the mapping from JSON Schema errors to ToolScan findings: the code,
 * the argument it names and the whole message an agent reads.
 */

function object(properties: Record<string, JsonSchema | boolean>, rest: JsonSchema = {}): JsonSchema {
  return { type: "object", properties, ...rest };
}

/** An if/then(/else) rule. */
function conditional(condition: JsonSchema, consequence: JsonSchema, otherwise?: JsonSchema): JsonSchema {
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a promise's
  return { if: condition, then: consequence, ...(otherwise ? { else: otherwise } : {}) };
}

/** The findings of a call that must be rejected, without `severity` (always "error" here). */
function rejected(schema: JsonSchema, args: unknown): Array<Omit<Finding, "severity">> {
  const checked = validateInput(schema, args);
  if (checked.ok) throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
  return checked.findings.map(({ severity, ...finding }) => {
    expect(severity).toBe("error");
    return finding;
  });
}

describe("IAN: unknown arguments", () => {
  it("suggests the nearest declared name", () => {
    const schema = object({ member_id: { type: "string" } }, { additionalProperties: false });
    expect(rejected(schema, { memberId: "M" })).toEqual([
      {
        code: "IAN",
        argument: "memberId",
        message: 'Unknown argument "memberId". Did you mean "member_id"?',
        suggestions: ["member_id"],
      },
    ]);
  });

  it("lists the known names when none is near, and says nothing more when there are none", () => {
    const known = object(
      { alpha: { type: "string" }, beta: { type: "string" } },
      { additionalProperties: false },
    );
    expect(rejected(known, { zzzzzz: 1 })).toEqual([
      {
        code: "IAN",
        argument: "zzzzzz",
        message: 'Unknown argument "zzzzzz". Known: alpha, beta.',
        suggestions: [],
      },
    ]);
    const none = object({}, { additionalProperties: false });
    expect(rejected(none, { zzzzzz: 1 })).toEqual([
      { code: "IAN", argument: "zzzzzz", message: 'Unknown argument "zzzzzz".', suggestions: [] },
    ]);
  });

  it("names a nested unknown field by its path, and an unevaluated one too", () => {
    const nested = object({ filter: object({ zip: { type: "string" } }, { additionalProperties: false }) });
    expect(rejected(nested, { filter: { zap: "1" } })).toEqual([
      {
        code: "IAN",
        argument: "filter.zap",
        message: 'Unknown argument "filter.zap". Did you mean "zip"?',
        suggestions: ["zip"],
      },
    ]);
    const unevaluated = object({ a: { type: "string" } }, { unevaluatedProperties: false });
    expect(rejected(unevaluated, { b: 1 })).toEqual([
      { code: "IAN", argument: "b", message: 'Unknown argument "b".' },
    ]);
    const deep = object({ o: object({ a: { type: "string" } }, { unevaluatedProperties: false }) });
    expect(rejected(deep, { o: { b: 1 } })).toEqual([
      { code: "IAN", argument: "o.b", message: 'Unknown argument "o.b".' },
    ]);
  });
});

describe("IAV: missing and dependent arguments", () => {
  it("describes a missing argument by its type, its values and its description", () => {
    const schema = object(
      {
        a: { type: "string", description: "The id of the order. " },
        e: { enum: ["x", "y"] },
        bare: {},
      },
      { required: ["a", "e", "bare"] },
    );
    expect(rejected(schema, {})).toEqual([
      { code: "IAV", argument: "a", message: 'Missing required argument "a" (string; The id of the order).' },
      { code: "IAV", argument: "e", message: 'Missing required argument "e" (one of "x" or "y").' },
      { code: "IAV", argument: "bare", message: 'Missing required argument "bare".' },
    ]);
  });

  it("names a missing nested field by its path", () => {
    const schema = object({ address: object({ zip: { type: "string" } }, { required: ["zip"] }) });
    expect(rejected(schema, { address: {} })).toEqual([
      { code: "IAV", argument: "address.zip", message: 'Missing required argument "address.zip" (string).' },
    ]);
  });

  it("says which argument another one requires", () => {
    const schema = object(
      { a: { type: "string" }, b: { type: "string" } },
      { dependentRequired: { a: ["b"] } },
    );
    expect(rejected(schema, { a: "x" })).toEqual([
      { code: "IAV", argument: "b", message: '"b" is required when "a" is given.' },
    ]);
    const nested = object({ o: object({ a: {}, b: {} }, { dependentRequired: { a: ["b"] } }) });
    expect(rejected(nested, { o: { a: 1 } })).toEqual([
      { code: "IAV", argument: "o.b", message: '"o.b" is required when "o.a" is given.' },
    ]);
  });
});

describe("IAT: wrong types", () => {
  it("says the type wanted with its article and the value that came", () => {
    const schema = object({
      a: { type: "integer" },
      o: { type: "object" },
      s: { type: ["string", "null"] },
      n: { type: "number" },
      l: { type: "array" },
      b: { type: "boolean" },
    });
    expect(rejected(schema, { a: "1", o: [], s: 1, n: true, l: "x", b: 0 })).toEqual([
      { code: "IAT", argument: "a", message: '"a" must be an integer; got string "1".' },
      { code: "IAT", argument: "o", message: '"o" must be an object; got array [].' },
      { code: "IAT", argument: "s", message: '"s" must be a string or a null; got number 1.' },
      { code: "IAT", argument: "n", message: '"n" must be a number; got boolean true.' },
      { code: "IAT", argument: "l", message: '"l" must be an array; got string "x".' },
      { code: "IAT", argument: "b", message: '"b" must be a boolean; got number 0.' },
    ]);
  });

  it("shortens a long value to its beginning", () => {
    const long = "x".repeat(70);
    expect(rejected(object({ t: { type: "integer" } }), { t: long })).toEqual([
      { code: "IAT", argument: "t", message: `"t" must be an integer; got string "${"x".repeat(56)}....` },
    ]);
    const exact = "y".repeat(58); // 60 characters as JSON: shown whole
    expect(rejected(object({ t: { type: "integer" } }), { t: exact })[0]?.message).toBe(
      `"t" must be an integer; got string "${exact}".`,
    );
  });

  it("names an item of an array by its index", () => {
    const schema = object({ items: { type: "array", items: object({ qty: { type: "integer" } }) } });
    expect(rejected(schema, { items: [{ qty: 1 }, { qty: "2" }] })).toEqual([
      {
        code: "IAT",
        argument: "items[1].qty",
        message: '"items[1].qty" must be an integer; got string "2".',
      },
    ]);
  });

  it("keeps one finding per argument: the allowed values explain best, and a wrong type stays IAT", () => {
    const schema = object({
      id: { type: "string", enum: ["a", "b"] },
      code: { type: "string", pattern: "^a$", minLength: 3 },
      n: { type: "integer", minimum: 3, enum: [4, 5] },
      k: { type: "string", const: "on", maxLength: 1 },
    });
    expect(rejected(schema, { id: 5, code: 5, n: 1, k: "off" })).toEqual([
      { code: "IAT", argument: "id", message: '"id" must be one of "a", "b"; got number 5.' },
      { code: "IAT", argument: "code", message: '"code" must be a string; got number 5.' },
      { code: "IAV", argument: "n", message: '"n" must be one of 4, 5; got number 1.' },
      { code: "IAV", argument: "k", message: '"k" must be "on"; got string "off".' },
    ]);
  });
});

describe("IAV: values out of their rules", () => {
  it("enum, const and format say what is allowed", () => {
    const schema = object({
      e: { enum: ["x", 1] },
      c: { const: "k" },
      d: { type: "string", format: "date" },
      f: { type: "string", format: "ipv4" },
    });
    expect(rejected(schema, { e: "z", c: "j", d: "x", f: "y" })).toEqual([
      { code: "IAV", argument: "e", message: '"e" must be one of "x", 1; got string "z".' },
      { code: "IAV", argument: "c", message: '"c" must be "k"; got string "j".' },
      {
        code: "IAV",
        argument: "d",
        message: '"d" must be a date in the form YYYY-MM-DD, e.g. "2026-03-02"; got string "x".',
      },
      {
        code: "IAV",
        argument: "f",
        message: '"f" must be an IPv4 address, e.g. "192.0.2.10"; got string "y".',
      },
    ]);
  });

  it("a range reads whole; single bounds, exclusive bounds and multiples read as themselves", () => {
    const schema = object({
      r: { type: "integer", minimum: 1, maximum: 20 },
      top: { type: "integer", minimum: 1, maximum: 20 },
      lo: { type: "integer", minimum: 5 },
      hi: { type: "integer", maximum: 5 },
      x: { type: "number", exclusiveMinimum: 0 },
      y: { type: "number", exclusiveMaximum: 10 },
      m: { type: "integer", multipleOf: 5 },
    });
    expect(rejected(schema, { r: 0, top: 21, lo: 4, hi: 6, x: 0, y: 10, m: 7 })).toEqual([
      { code: "IAV", argument: "r", message: '"r" must be from 1 to 20; got number 0.' },
      { code: "IAV", argument: "top", message: '"top" must be from 1 to 20; got number 21.' },
      { code: "IAV", argument: "lo", message: '"lo" must be at least 5; got number 4.' },
      { code: "IAV", argument: "hi", message: '"hi" must be at most 5; got number 6.' },
      { code: "IAV", argument: "x", message: '"x" must be more than 0; got number 0.' },
      { code: "IAV", argument: "y", message: '"y" must be less than 10; got number 10.' },
      { code: "IAV", argument: "m", message: '"m" must be a multiple of 5; got number 7.' },
    ]);
    // on the bounds themselves: inside
    expect(validateInput(schema, { r: 1, top: 20, lo: 5, hi: 5, x: 0.5, y: 9.5, m: 10 }).ok).toBe(true);
  });

  it("patterns, lengths, item counts and repeated items", () => {
    const schema = object({
      p: { type: "string", pattern: "^A-[0-9]{3}$" },
      s: { type: "string", minLength: 3 },
      t: { type: "string", maxLength: 1 },
      l: { type: "array", minItems: 1 },
      k: { type: "array", maxItems: 2 },
      u: { type: "array", uniqueItems: true },
    });
    expect(rejected(schema, { p: "B", s: "ab", t: "ab", l: [], k: [1, 2, 3], u: [1, 1] })).toEqual([
      {
        code: "IAV",
        argument: "p",
        message: '"p" must be "A-" followed by 3 digits (pattern ^A-[0-9]{3}$); got string "B".',
      },
      { code: "IAV", argument: "s", message: '"s" must have at least 3 characters; got string "ab".' },
      { code: "IAV", argument: "t", message: '"t" must have at most 1 character; got string "ab".' },
      { code: "IAV", argument: "l", message: '"l" must have at least 1 item; got array [].' },
      { code: "IAV", argument: "k", message: '"k" must have at most 2 items; got array [1,2,3].' },
      { code: "IAV", argument: "u", message: '"u" must have no repeated items; got array [1,1].' },
    ]);
  });

  it("counts the call's arguments, or an object's fields", () => {
    expect(rejected({ type: "object", minProperties: 1 }, {})).toEqual([
      { code: "IAV", message: "The call must have at least 1 argument; got 0." },
    ]);
    expect(rejected({ type: "object", maxProperties: 1 }, { a: 1, b: 2 })).toEqual([
      { code: "IAV", message: "The call must have at most 1 argument; got 2." },
    ]);
    expect(rejected({ type: "object", maxProperties: 2 }, { a: 1, b: 2, c: 3 })).toEqual([
      { code: "IAV", message: "The call must have at most 2 arguments; got 3." },
    ]);
    const nested = object({
      o: { type: "object", minProperties: 2 },
      p: { type: "object", maxProperties: 1 },
    });
    expect(rejected(nested, { o: { a: 1 }, p: { a: 1, b: 2 } })).toEqual([
      { code: "IAV", argument: "o", message: '"o" must have at least 2 fields; got 1.' },
      { code: "IAV", argument: "p", message: '"p" must have at most 1 field; got 2.' },
    ]);
  });

  it("an array that must contain an item is one finding, not one per item", () => {
    const schema = object({ l: { type: "array", contains: { const: 3 } } });
    expect(rejected(schema, { l: [1, 2] })).toEqual([
      { code: "IAV", argument: "l", message: '"l" must contain at least 1 valid item(s); got array [1,2].' },
    ]);
  });

  it("a value no branch of anyOf or oneOf takes lists the forms allowed", () => {
    const schema = object({
      v: {
        anyOf: [
          { type: "string", maxLength: 2 },
          { type: "integer" },
          { const: true },
          { type: "object", required: ["k", "j"] },
          { not: { type: "string" } },
        ],
      },
      w: { oneOf: [{ type: "string" }, { type: "number" }] },
    });
    expect(rejected(schema, { v: "abc", w: [1] })).toEqual([
      {
        code: "IAV",
        argument: "v",
        message:
          '"v" matches none of the allowed forms (string | integer | true | an object with k, j | a value); got string "abc".',
      },
      {
        code: "IAV",
        argument: "w",
        message: '"w" matches none of the allowed forms (string | number); got array [1].',
      },
    ]);
  });

  it("anyOf and oneOf of required arguments ask for at least one, or exactly one", () => {
    const properties = { a: { type: "string" }, b: { type: "string" } };
    const required = [{ required: ["a"] }, { required: ["b"] }];
    expect(rejected(object(properties, { anyOf: required }), {})).toEqual([
      { code: "IAV", message: 'Rule broken: give at least one of "a" or "b".' },
    ]);
    expect(rejected(object(properties, { oneOf: required }), { a: "x", b: "y" })).toEqual([
      { code: "IAV", message: 'Rule broken: give exactly one of "a" or "b".' },
    ]);
    const nested = object({ o: object(properties, { anyOf: required }) });
    expect(rejected(nested, { o: {} })).toEqual([
      { code: "IAV", argument: "o", message: 'Rule broken in "o": give at least one of "a" or "b".' },
    ]);
  });
});

describe("IAV: rules that tie arguments together", () => {
  const payment = object(
    { kind: { enum: ["card", "bank"] }, card: { type: "string" }, iban: { type: "string" } },
    conditional(
      { properties: { kind: { const: "card" } }, required: ["kind"] },
      { required: ["card"] },
      { required: ["iban"] },
    ),
  );
  const rule = 'Rule broken: "card" is required when "kind" is "card". Otherwise, "iban" is required.';

  it("if/then names the argument the broken branch asks for, with the whole rule", () => {
    expect(rejected(payment, { kind: "card" })).toEqual([{ code: "IAV", argument: "card", message: rule }]);
    expect(rejected(payment, { kind: "bank" })).toEqual([{ code: "IAV", argument: "iban", message: rule }]);
    expect(validateInput(payment, { kind: "card", card: "4111" }).ok).toBe(true);
  });

  it("if/then asking for several arguments names none of them alone", () => {
    const schema = object(
      { kind: { enum: ["card", "bank"] }, a: { type: "string" }, b: { type: "string" } },
      conditional({ properties: { kind: { const: "card" } }, required: ["kind"] }, { required: ["a", "b"] }),
    );
    expect(rejected(schema, { kind: "card" })).toEqual([
      { code: "IAV", message: 'Rule broken: "a" and "b" are required when "kind" is "card".' },
    ]);
  });

  it("a rule inside an object is named by the object's path", () => {
    const schema = object({
      o: object(
        { kind: { const: "x" }, a: { type: "string" } },
        conditional({ properties: { kind: { const: "x" } }, required: ["kind"] }, { required: ["a"] }),
      ),
    });
    expect(rejected(schema, { o: { kind: "x" } })).toEqual([
      { code: "IAV", argument: "o.a", message: 'Rule broken in "o": "a" is required when "kind" is "x".' },
    ]);
  });

  it("the then branch's own errors are not repeated next to the rule", () => {
    const schema = object(
      { kind: { enum: ["card", "bank"] }, card: { type: "string" } },
      conditional(
        { properties: { kind: { const: "card" } }, required: ["kind"] },
        { properties: { card: { minLength: 4 } }, required: ["card"] },
      ),
    );
    expect(rejected(schema, { kind: "card", card: "41" })).toEqual([
      {
        code: "IAV",
        message:
          'Rule broken: When "kind" is "card": "card" is required and "card" must have at least 4 characters.',
      },
    ]);
  });

  it("not: arguments that must not be given, together or alone", () => {
    const together = object(
      { a: { type: "string" }, b: { type: "string" } },
      { not: { required: ["a", "b"] } },
    );
    expect(rejected(together, { a: "1", b: "2" })).toEqual([
      { code: "IAV", message: 'Rule broken: "a" and "b" must not be given together.' },
    ]);
    const alone = object({ a: { type: "string" } }, { not: { required: ["a"] } });
    expect(rejected(alone, { a: "1" })).toEqual([
      { code: "IAV", argument: "a", message: 'Rule broken: "a" must not be given.' },
    ]);
  });

  it("a property whose schema is false is never valid", () => {
    expect(rejected(object({ a: false }), { a: 1 })).toEqual([
      { code: "IAV", argument: "a", message: '"a" is not valid: boolean schema is false.' },
    ]);
  });
});

describe("IFE: arguments that are not an object", () => {
  const prefix = "The arguments must be a JSON object mapping parameter names to values; got";

  it.each([
    ["an array", [1], `${prefix} an array.`],
    ["a boolean", true, `${prefix} a boolean.`],
    ["a number", 7, `${prefix} a number.`],
    ["a string of JSON that is not an object", "[1]", `${prefix} a string.`],
    [
      "a string of JSON encoding an object",
      '{"a":1}',
      `${prefix} a string. It looks like JSON text: send the object itself, not a string that encodes it.`,
    ],
    ["a string that is not JSON", "not json", `${prefix} a string. It is not even JSON text.`],
  ])("%s", (_kind, args, message) => {
    expect(rejected({ type: "object" }, args)).toEqual([{ code: "IFE", message }]);
  });

  it("no arguments at all are an empty object", () => {
    expect(validateInput({ type: "object" }, undefined)).toEqual({ ok: true, args: {} });
    expect(validateInput({ type: "object" }, null)).toEqual({ ok: true, args: {} });
  });
});

describe("null for an optional argument means not given", () => {
  it("drops nulls of optional arguments, keeps those of required ones and of nullable schemas", () => {
    const schema = object(
      { o: { type: "string" }, r: { type: "string" }, n: { type: ["string", "null"] } },
      { required: ["r"] },
    );
    expect(rejected(schema, { o: null, r: null, n: null })).toEqual([
      { code: "IAT", argument: "r", message: '"r" must be a string; got null.' },
    ]);
    expect(validateInput(schema, { o: null, r: "x", n: null })).toEqual({
      ok: true,
      args: { r: "x", n: null },
    });
  });

  it("inside objects and arrays of objects too, without changing what was sent", () => {
    const schema = object({
      l: { type: "array", items: object({ q: { type: "integer" } }) },
      o: object({ q: { type: "integer" } }),
      tags: { type: "array" },
      free: {},
    });
    const sent = {
      l: [{ q: null }, { q: 1 }],
      o: { q: null },
      tags: [{ q: null }],
      free: { q: null },
      x: null,
    };
    const copy = structuredClone(sent);
    expect(validateInput(schema, sent)).toEqual({
      ok: true,
      args: { l: [{}, { q: 1 }], o: {}, tags: [{ q: null }], free: { q: null }, x: null },
    });
    expect(sent).toEqual(copy);
    // nothing to drop: the very object sent is used
    const clean = { o: { q: 1 } };
    const checked = validateInput(schema, clean);
    expect(checked.ok && checked.args).toBe(clean);
  });
});

describe("reserved keys", () => {
  it("refuses __proto__ always, constructor and prototype unless the schema declares them", () => {
    const declares = object({ constructor: { type: "string" } });
    expect(rejected(declares, { constructor: "x", prototype: 1 })).toEqual([
      {
        code: "IAN",
        argument: "prototype",
        message:
          'Argument name "prototype" is not accepted: "prototype" is reserved (in JavaScript it would change or shadow the object\'s prototype, and many services drop it). Rename or remove it.',
      },
    ]);
    expect(validateInput(declares, { constructor: "x" }).ok).toBe(true);
    const strict = object({ a: { type: "string" } }, { additionalProperties: false });
    const proto = JSON.parse('{"a": "x", "__proto__": {"admin": true}}');
    // reported once, with the reason, though the schema also calls it unknown
    expect(rejected(strict, proto).map((f) => `${f.code} ${f.argument}`)).toEqual(["IAN __proto__"]);
  });
});

describe("argument names as sent", () => {
  it("names fields whose names hold / or ~ as they were sent", () => {
    const schema = object(
      {
        filter: object(
          { "a/b": { type: "integer" }, "c~d": { type: "integer" } },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    );
    expect(rejected(schema, { filter: { "a/b": "1", "c~d": "2", "e/~f": 1 } })).toEqual([
      {
        code: "IAN",
        argument: "filter.e/~f",
        message: 'Unknown argument "filter.e/~f". Known: a/b, c~d.',
        suggestions: [],
      },
      { code: "IAT", argument: "filter.a/b", message: '"filter.a/b" must be an integer; got string "1".' },
      { code: "IAT", argument: "filter.c~d", message: '"filter.c~d" must be an integer; got string "2".' },
    ]);
  });

  it("says each type a value may have, with its article", () => {
    expect(
      rejected(object({ n: { type: ["integer", "null"] }, s: { type: ["string", "array"] } }), {
        n: "x",
        s: 1,
      }),
    ).toEqual([
      { code: "IAT", argument: "n", message: '"n" must be an integer or a null; got string "x".' },
      { code: "IAT", argument: "s", message: '"s" must be a string or an array; got number 1.' },
    ]);
  });
});
