import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  conversionProblems,
  type JsonSchema,
  patternWords,
  profileSchema,
  strictModeProblems,
} from "../src/catalog/index.js";
import { catalogOf, FIXTURES } from "./support/index.js";

const DISPATCH = join(FIXTURES, "frameworks", "dispatch.json");
const catalog = catalogOf([DISPATCH]);
const schemaOf = (name: string) => catalog.tool(name)?.tool.inputSchema as JsonSchema;
const CONDITIONAL = ["if", "then", "else", "allOf", "oneOf", "not", "dependentRequired", "dependentSchemas"];

/** An if/then pair (built from JSON: an object literal with a `then` key would look like a promise). */
function conditional(condition: JsonSchema, consequence: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify({ if: condition, ["th" + "en"]: consequence })) as JsonSchema;
}

/** Every key used anywhere in a schema, however deep. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (value && typeof value === "object") {
    for (const [key, sub] of Object.entries(value)) {
      into.add(key);
      keysOf(sub, into);
    }
  }
  return into;
}

describe("OpenAI strict-mode rules as a checker", () => {
  const strictOk: JsonSchema = {
    type: "object",
    properties: {
      city: { type: "string", description: "City.", pattern: "^[A-Z]" },
      unit: { type: ["string", "null"], enum: ["C", "F", null] },
      days: { type: "integer", minimum: 1, maximum: 14 },
      stops: { type: "array", items: { type: "string", format: "date" }, minItems: 1 },
      window: {
        anyOf: [
          {
            type: "object",
            properties: { from: { type: "string", format: "time" } },
            required: ["from"],
            additionalProperties: false,
          },
          { type: "null" },
        ],
      },
    },
    required: ["city", "unit", "days", "stops", "window"],
    additionalProperties: false,
  };

  it("accepts a schema written to the rules", () => {
    expect(strictModeProblems(strictOk)).toEqual([]);
  });

  const base = (properties: Record<string, unknown>, extra: JsonSchema = {}): JsonSchema => ({
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  });

  it.each<[string, JsonSchema, string]>([
    [
      "an optional property",
      { ...base({ a: { type: "string" } }), required: [] },
      'property "a" must be required',
    ],
    [
      "a missing additionalProperties",
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      "additionalProperties must be false",
    ],
    [
      "a nested object without additionalProperties",
      base({ o: { type: "object", properties: {}, required: [] } }),
      "/properties/o: additionalProperties must be false",
    ],
    ["allOf", base({}, { allOf: [{ required: [] }] }), 'keyword "allOf"'],
    ["if/then", base({}, conditional({}, {})), 'keyword "if"'],
    ["not", base({ a: { type: "string", not: { const: "x" } } }), 'keyword "not"'],
    ["oneOf", base({ a: { oneOf: [{ type: "string" }, { type: "number" }] } }), 'keyword "oneOf"'],
    ["minLength", base({ a: { type: "string", minLength: 1 } }), 'keyword "minLength"'],
    ["default", base({ a: { type: "string", default: "x" } }), 'keyword "default"'],
    ["an unsupported format", base({ a: { type: "string", format: "uri" } }), 'format "uri"'],
    ["a root anyOf", base({}, { anyOf: [{ required: [] }] }), "must not be anyOf"],
    ["a root that is no object", { type: "string" }, "must be of type object"],
    [
      "a $ref with siblings",
      base({ a: { $ref: "#/$defs/x", description: "d" } }),
      "$ref cannot have sibling",
    ],
    ["a value of any type", base({ a: {} }), "needs a type"],
  ])("refuses %s", (_kind, schema, fragment) => {
    expect(strictModeProblems(schema).join("\n")).toContain(fragment);
  });

  it("counts nesting and enum values against the published limits", () => {
    let deep: JsonSchema = { type: "string" };
    for (let i = 0; i < 11; i++) deep = base({ inner: deep });
    expect(strictModeProblems(deep).join("\n")).toContain("nested deeper than 10 levels");
    const values = Array.from({ length: 1001 }, (_, i) => `v${i}`);
    expect(strictModeProblems(base({ a: { type: "string", enum: values } })).join("\n")).toContain(
      "1001 enum values",
    );
  });
});

describe("schema profiles", () => {
  it("full serves the catalog's schema itself", () => {
    const schema = schemaOf("book_pickup");
    expect(profileSchema(schema, "full")).toEqual({ schema, rules: [] });
  });

  it("portable drops every conditional keyword and says the rules in words", () => {
    const { schema, rules } = profileSchema(schemaOf("book_pickup"), "portable");
    for (const key of CONDITIONAL) expect(keysOf(schema).has(key)).toBe(false);
    expect(rules).toEqual([
      '"pickup_date" is required when "service" is "scheduled".',
      '"pickup_date" must not be given when "service" is "standard" or "express".',
    ]);
    // kept: what portable frameworks understand, and required stays as authored
    expect(schema.required).toEqual(["sender", "service", "weight_kg"]);
    const properties = schema.properties as Record<string, JsonSchema>;
    expect(properties.reference).toMatchObject({ pattern: "^REF-[0-9]{4}$", minLength: 1 });
    // formats and patterns, which some frameworks strip, are in the descriptions too
    expect(properties.pickup_date?.description).toBe(
      'Day of a scheduled pickup. Must be a date in the form YYYY-MM-DD, e.g. "2026-03-02".',
    );
    expect(properties.reference?.description).toBe('Your reference. Must be "REF-" followed by 4 digits.');
  });

  it("portable turns a choice of which arguments to give into a rule", () => {
    const { schema, rules } = profileSchema(schemaOf("find_parcels"), "portable");
    expect(schema.anyOf).toBeUndefined();
    expect(rules).toEqual(['Give at least one of "sender" or "parcel_id".']);
  });

  it("openai-strict makes every property required, optional ones nullable, and passes the published rules", () => {
    const { schema } = profileSchema(schemaOf("book_pickup"), "openai-strict");
    expect(strictModeProblems(schema)).toEqual([]);
    const properties = schema.properties as Record<string, JsonSchema>;
    expect(schema.required).toEqual(Object.keys(properties));
    expect(properties.service).toMatchObject({ type: "string" }); // required: not nullable
    expect(properties.pickup_date).toMatchObject({ type: ["string", "null"], format: "date" });
    // an optional object is nullable through anyOf, and its own optional fields are nullable too
    const address = properties.address as JsonSchema;
    expect(address.description).toBe("Where to pick up.");
    const [object, nothing] = address.anyOf as JsonSchema[];
    expect(nothing).toEqual({ type: "null" });
    expect(object).toMatchObject({
      additionalProperties: false,
      required: ["line1", "line2", "postal_code"],
      properties: { line2: { type: ["string", "null"] } },
    });
    // a property that takes null as a value of its own stays as it is
    expect(properties.note).toMatchObject({ type: ["string", "null"] });
    // keywords strict mode refuses become words
    expect(properties.reference).not.toHaveProperty("minLength");
    expect(properties.reference?.description).toContain("have at least 1 character");
  });

  it("openai-strict never changes the catalog's schema", () => {
    const schema = schemaOf("book_pickup");
    const before = JSON.stringify(schema);
    profileSchema(schema, "openai-strict");
    profileSchema(schema, "portable");
    expect(JSON.stringify(schema)).toBe(before);
  });

  it.each([
    ["^ACC-[0-9]{4}$", '"ACC-" followed by 4 digits'],
    ["^[A-Z]{1,5}$", "1 to 5 capital letters"],
    ["^\\+1[0-9]{10}$", '"+1" followed by 10 digits'],
    ["^[0-9]{5}(-[0-9]{4})?$", '5 digits, optionally followed by "-" and 4 digits'],
    ["^[A-Za-z0-9_-]{1,32}$", '1 to 32 letters, digits, "_" or "-"'],
    [
      "^FLT-[0-9]{4}-[0-9]{1,2}[A-K]$",
      '"FLT-", 4 digits, "-", 1 to 2 digits, then a capital letter from A to K',
    ],
  ])("says the pattern %s in words", (pattern, words) => {
    expect(patternWords(pattern)).toBe(words);
  });

  it("leaves richer patterns as they are", () => {
    expect(patternWords("^(a|b)$")).toBeUndefined();
    expect(patternWords("abc")).toBeUndefined();
  });

  it("lint names what does not survive conversion", () => {
    const problems = conversionProblems({
      type: "object",
      properties: {
        meta: { type: "object", additionalProperties: true, description: "Anything." },
        code: { type: "string", pattern: "^(?!x).+$" },
      },
      additionalProperties: false,
      ...conditional({ minProperties: 3 }, { required: ["code"] }),
    });
    expect(problems.join("\n")).toContain("too rich to say in words");
    expect(problems.join("\n")).toContain("meta: a free-form object");
    expect(problems.join("\n")).toContain("look-arounds");
    expect(conversionProblems(schemaOf("book_pickup"))).toEqual([]);
  });
});
