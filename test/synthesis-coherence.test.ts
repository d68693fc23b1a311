import { describe, expect, it } from "vitest";
import { type JsonSchema, type Tool, validatorFor } from "../src/catalog/index.js";
import { conform, OfflineSimulator, synthesize } from "../src/simulate/index.js";
import { State } from "../src/state/index.js";

const NOW = "2026-03-02T09:00:00Z";
const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

function each(
  schema: JsonSchema,
  check: (value: Record<string, unknown>, seed: number) => void,
  state: State = State.empty,
) {
  for (const seed of SEEDS)
    check(synthesize(schema, { seed, now: NOW, state }) as Record<string, unknown>, seed);
}

const time = (value: unknown) => Date.parse(String(value));

describe("synthesized values cohere", () => {
  it("puts the lower of a pair first: min/max, low/high, start/end, check-in/check-out, created/updated", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        min_price: { type: "number" },
        max_price: { type: "number" },
        range_low: { type: "integer" },
        range_high: { type: "integer" },
        start_date: { type: "string", format: "date" },
        end_date: { type: "string", format: "date" },
        check_in: { type: "string", format: "date-time" },
        check_out: { type: "string", format: "date-time" },
        created_at: { type: "string", format: "date-time" },
        updated_at: { type: "string", format: "date-time" },
      },
      required: ["min_price", "max_price", "range_low", "range_high", "start_date", "end_date"],
    };
    each(schema, (v, seed) => {
      expect(v.min_price as number, `seed ${seed}`).toBeLessThanOrEqual(v.max_price as number);
      expect(v.range_low as number, `seed ${seed}`).toBeLessThanOrEqual(v.range_high as number);
      expect(time(v.start_date), `seed ${seed}`).toBeLessThanOrEqual(time(v.end_date));
      expect(time(v.check_in), `seed ${seed}`).toBeLessThanOrEqual(time(v.check_out));
      expect(time(v.created_at), `seed ${seed}`).toBeLessThanOrEqual(time(v.updated_at));
      expect(time(v.updated_at), `seed ${seed}`).toBeLessThanOrEqual(time(NOW));
    });
  });

  it("keeps things that happened in the past, whatever their name contains (a send time is not an end)", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { last_send_time: { type: "string", format: "date-time" }, sent_at: { type: "string" } },
    };
    each(schema, (v) => {
      expect(time(v.last_send_time)).toBeLessThanOrEqual(time(NOW));
      expect(time(v.sent_at)).toBeLessThanOrEqual(time(NOW));
    });
  });

  it("counts match the lists they count; a paged total is at least the page", () => {
    each(
      {
        type: "object",
        properties: {
          items: { type: "array", items: { type: "string" } },
          total_items: { type: "integer" },
          tags: { type: "array", items: { type: "string" } },
          tag_count: { type: "integer" },
        },
      },
      (v) => {
        expect(v.total_items).toBe((v.items as unknown[]).length);
        expect(v.tag_count).toBe((v.tags as unknown[]).length);
      },
    );
    each(
      {
        type: "object",
        properties: {
          results: { type: "array", items: { type: "string" } },
          total_count: { type: "integer" },
          page: { type: "integer" },
        },
      },
      (v) => expect(v.total_count as number).toBeGreaterThanOrEqual((v.results as unknown[]).length),
    );
  });

  it("totals add up: lines are quantity × unit price, the subtotal sums them, the total adds tax and shipping less the discount", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        line_items: {
          type: "array",
          items: {
            type: "object",
            properties: {
              sku: { type: "string" },
              quantity: { type: "integer" },
              unit_price: { type: "number" },
              line_total: { type: "number" },
            },
            required: ["quantity", "unit_price", "line_total"],
          },
        },
        subtotal: { type: "number" },
        tax: { type: "number" },
        shipping: { type: "number" },
        discount: { type: "number" },
        total: { type: "number" },
      },
      required: ["line_items", "subtotal", "tax", "shipping", "discount", "total"],
    };
    each(schema, (v) => {
      const lines = v.line_items as Array<Record<string, number>>;
      for (const line of lines)
        expect(line.line_total).toBeCloseTo((line.quantity as number) * (line.unit_price as number), 2);
      const sum = lines.reduce((s, line) => s + (line.line_total as number), 0);
      expect(v.subtotal as number).toBeCloseTo(sum, 2);
      expect(v.total as number).toBeCloseTo(
        (v.subtotal as number) + (v.tax as number) + (v.shipping as number) - (v.discount as number),
        2,
      );
    });
    each(
      {
        type: "object",
        properties: {
          ingredient_costs: { type: "array", items: { type: "number" } },
          total_cost: { type: "number" },
        },
      },
      (v) =>
        expect(v.total_cost as number).toBeCloseTo(
          (v.ingredient_costs as number[]).reduce((a, b) => a + b, 0),
          2,
        ),
    );
  });

  it("numbers stay in the range their description states, or their name implies", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        rating: { type: "number" },
        review_stars: { type: "integer" },
        quality: { type: "number", description: "Quality score (0-100)" },
        credit_score: { type: "integer", description: "Numerical credit score (300-850 range)" },
        difficulty: { type: "integer", description: "Difficulty out of 10" },
        match_probability: { type: "number" },
        completion_percentage: { type: "number" },
        confidence_interval_low: { type: "number" },
        low_confidence_count: { type: "integer", description: "Number of low-confidence results" },
      },
      required: ["rating", "review_stars", "quality", "credit_score", "difficulty", "match_probability"],
    };
    each(schema, (v) => {
      expect(v.rating as number).toBeGreaterThanOrEqual(1);
      expect(v.rating as number).toBeLessThanOrEqual(5);
      expect(v.review_stars as number).toBeLessThanOrEqual(5);
      expect(v.quality as number).toBeLessThanOrEqual(100);
      expect(v.credit_score as number).toBeGreaterThanOrEqual(300);
      expect(v.credit_score as number).toBeLessThanOrEqual(850);
      expect(v.difficulty as number).toBeLessThanOrEqual(10);
      expect(v.match_probability as number).toBeLessThanOrEqual(1);
      if (v.completion_percentage !== undefined)
        expect(v.completion_percentage as number).toBeLessThanOrEqual(100);
    });
    // a count of low-confidence results is a count, not a probability
    const counts = SEEDS.map(
      (seed) => (synthesize(schema, { seed, now: NOW }) as Record<string, number>).low_confidence_count ?? 0,
    );
    expect(Math.max(...counts)).toBeGreaterThan(1);
  });

  it("an *_id whose collection is in the state names one of its entities, the same one for the same seed", () => {
    const document = {
      customers: { "CUS-001": { name: "Ana" }, "CUS-002": { name: "Ben" } },
      orders: { "ORD-7": {}, "ORD-8": {} },
      runtime: { now: NOW },
    };
    const state = State.fromDocument(structuredClone(document));
    const schema: JsonSchema = {
      type: "object",
      properties: {
        customer_id: { type: "string" },
        order_ids: { type: "array", items: { type: "string" } },
        customer: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        invoice_id: { type: "string" },
      },
      required: ["customer_id", "order_ids", "customer", "invoice_id"],
    };
    each(
      schema,
      (v) => {
        expect(Object.keys(document.customers)).toContain(v.customer_id);
        for (const id of v.order_ids as string[]) expect(Object.keys(document.orders)).toContain(id);
        expect(Object.keys(document.customers)).toContain((v.customer as { id: string }).id);
        expect(v.invoice_id).toMatch(/^INV-\d{6}$/); // no invoices in the state: an invented id
      },
      state,
    );
    const one = JSON.stringify(synthesize(schema, { seed: 9, now: NOW, state }));
    expect(JSON.stringify(synthesize(schema, { seed: 9, now: NOW, state }))).toBe(one);
    // a key that breaks the field's pattern is not used
    const patterned = synthesize(
      {
        type: "object",
        properties: { customer_id: { type: "string", pattern: "^C[0-9]{4}$" } },
        required: ["customer_id"],
      },
      { seed: 1, now: NOW, state },
    ) as Record<string, string>;
    expect(patterned.customer_id).toMatch(/^C[0-9]{4}$/);
  });

  it("never makes a result invalid: a fix that would break a field's own bounds is not made", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        min_temp: { type: "number", minimum: 20, maximum: 30 },
        max_temp: { type: "number", minimum: 0, maximum: 25 },
        items: { type: "array", items: { type: "string" } },
        item_count: { type: "integer", minimum: 5 },
      },
      required: ["min_temp", "max_temp", "items", "item_count"],
    };
    const validate = validatorFor(schema);
    each(schema, (v) => expect(validate(v), JSON.stringify(validate.errors)).toBe(true));
  });
});

describe("results cohere with the values the call and the state give", () => {
  it("conform moves synthesized fields, never known ones", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        start_date: { type: "string", format: "date" },
        end_date: { type: "string", format: "date" },
        guests: { type: "array", items: { type: "string" } },
        guest_count: { type: "integer" },
      },
    };
    const fallback = () => ({
      start_date: "2026-01-01",
      end_date: "2026-01-05",
      guests: ["a"],
      guest_count: 4,
    });
    const fitted = conform(schema, { start_date: "2026-02-10", guests: ["x", "y"] }, fallback) as Record<
      string,
      unknown
    >;
    expect(fitted.start_date).toBe("2026-02-10");
    expect(fitted.guests).toEqual(["x", "y"]);
    expect(time(fitted.end_date)).toBeGreaterThanOrEqual(time(fitted.start_date));
    expect(fitted.guest_count).toBe(2);
  });

  it("the offline engine synthesizes references into the session state", () => {
    const tool: Tool = {
      name: "summarize_shipment",
      description: "Summarize a shipment.",
      inputSchema: { type: "object", properties: { carrier: { type: "string" } } },
      outputSchema: {
        type: "object",
        properties: {
          warehouse_id: { type: "string" },
          parcel_count: { type: "integer" },
          parcels: { type: "array" },
        },
        required: ["warehouse_id", "parcel_count", "parcels"],
      },
      errors: [],
      effects: [],
    };
    const state = State.fromDocument({ warehouses: { "WH-NORTH": {}, "WH-SOUTH": {} } });
    const outcome = new OfflineSimulator().respondNow({
      tool,
      args: { carrier: "gull" },
      state,
      effects: { status: "none" },
      history: [],
      seed: "s",
      now: NOW,
    });
    if (outcome.kind !== "success") throw new Error("the offline engine failed");
    const result = outcome.result as Record<string, unknown>;
    expect(["WH-NORTH", "WH-SOUTH"]).toContain(result.warehouse_id);
    expect(result.parcel_count).toBe((result.parcels as unknown[]).length);
  });
});
