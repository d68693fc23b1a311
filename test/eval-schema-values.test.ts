import { describe, expect, it } from "vitest";
import { schemaViolation } from "../eval/schema-check.js";
import { argumentsFor, type Schema } from "../eval/schema-values.js";

/** The evaluation's own argument generator: valid values from a schema, deterministic, hints that fit. */

const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);

function valid(schema: Schema, optional = false): Array<Record<string, unknown>> {
  return SEEDS.map((seed) => {
    const generated = argumentsFor(schema, { seed, optional });
    expect(generated.invalid, `seed ${seed}: ${JSON.stringify(generated.value)}`).toBeUndefined();
    expect(schemaViolation(schema, generated.value)).toBeUndefined();
    return generated.value as Record<string, unknown>;
  });
}

describe("argument values from input schemas", () => {
  it("enums, consts, patterns, formats, ranges, lengths and list sizes", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        status: { type: "string", enum: ["open", "closed"] },
        kind: { const: "refund" },
        code: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" },
        email: { type: "string", format: "email" },
        day: { type: "string", format: "date" },
        at: { type: "string", format: "date-time" },
        id: { type: "string", format: "uuid" },
        quantity: { type: "integer", minimum: 5, maximum: 9 },
        price: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        step: { type: "integer", multipleOf: 5, minimum: 1, maximum: 30 },
        note: { type: "string", minLength: 12, maxLength: 14 },
        tags: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 3, uniqueItems: true },
      },
      required: [
        "status",
        "kind",
        "code",
        "email",
        "day",
        "at",
        "id",
        "quantity",
        "price",
        "step",
        "note",
        "tags",
      ],
      additionalProperties: false,
    };
    const values = valid(schema);
    expect(new Set(values.map((v) => v.status))).toEqual(new Set(["open", "closed"]));
  });

  it("required properties only, unless optional ones are asked for", () => {
    const schema: Schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" } },
      required: ["a"],
    };
    for (const value of valid(schema)) expect(Object.keys(value)).toEqual(["a"]);
    for (const value of valid(schema, true)) expect(Object.keys(value).sort()).toEqual(["a", "b"]);
  });

  it("`$ref`s into $defs, nullable unions, anyOf branches that only require", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        owner: { $ref: "#/$defs/Person" },
        nickname: { type: ["string", "null"] },
        email: { type: "string", format: "email" },
        phone: { type: "string", pattern: "^\\+1[0-9]{10}$" },
      },
      required: ["owner", "nickname"],
      anyOf: [{ required: ["email"] }, { required: ["phone"] }],
      $defs: {
        Person: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    };
    for (const value of valid(schema)) expect("email" in value || "phone" in value).toBe(true);
  });

  it("if/then rules: a branch's required properties, narrowed values and forbidden ones", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        order_type: { type: "string", enum: ["market", "limit"] },
        limit_price: { type: "number", exclusiveMinimum: 0 },
        time_in_force: { type: "string", enum: ["day", "gtc", "ioc"] },
      },
      required: ["order_type", "time_in_force"],
      additionalProperties: false,
      allOf: [
        {
          if: { properties: { order_type: { const: "limit" } }, required: ["order_type"] },
          // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a promise's
          then: { required: ["limit_price"] },
        },
        {
          if: { properties: { order_type: { const: "market" } }, required: ["order_type"] },
          // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a promise's
          then: {
            properties: { time_in_force: { enum: ["day", "ioc"] } },
            not: { required: ["limit_price"] },
          },
        },
      ],
    };
    const values = valid(schema, true);
    expect(new Set(values.map((v) => v.order_type))).toEqual(new Set(["market", "limit"]));
  });

  it("at least minProperties properties", () => {
    const schema: Schema = {
      type: "object",
      properties: { id: { type: "string" }, phone: { type: "string" }, email: { type: "string" } },
      required: ["id"],
      minProperties: 2,
    };
    valid(schema);
  });

  it("is deterministic per seed", () => {
    const schema: Schema = {
      type: "object",
      properties: { code: { type: "string", pattern: "^[a-z]{4}[0-9]{2}$" }, n: { type: "number" } },
      required: ["code", "n"],
    };
    expect(argumentsFor(schema, { seed: 7 })).toEqual(argumentsFor(schema, { seed: 7 }));
    expect(argumentsFor(schema, { seed: 7 })).not.toEqual(argumentsFor(schema, { seed: 8 }));
  });

  it("takes a hint for an argument (an id that exists) only when it fits the argument's schema", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        order_id: { type: "string", pattern: "^ORD-[0-9]{4}$" },
        customer_id: { type: "string", pattern: "^CUS-[0-9]{3}$" },
      },
      required: ["order_id", "customer_id"],
    };
    const hint = (name: string) => (name === "order_id" ? "ORD-1001" : "not-a-customer-id");
    const { value, invalid } = argumentsFor(schema, { seed: 1, hint });
    expect(invalid).toBeUndefined();
    expect((value as Record<string, unknown>).order_id).toBe("ORD-1001");
    expect((value as Record<string, unknown>).customer_id).toMatch(/^CUS-[0-9]{3}$/);
  });

  it("says why when no value fits (a schema that contradicts itself)", () => {
    const schema: Schema = {
      type: "object",
      properties: { n: { type: "integer", minimum: 5, maximum: 1 } },
      required: ["n"],
    };
    expect(argumentsFor(schema, { seed: 1 }).invalid).toMatch(/must be/);
  });
});
