import { describe, expect, it } from "vitest";
import { checkResult, type Finding, type Rule, statedRange } from "../eval/coherence-rules.js";

/** The coherence rules of the evaluation, on records written by hand: coherent, incoherent, and look-alikes. */

const NOW = "2026-03-02T09:00:00Z";
const STATE = {
  customers: { "CUS-1": { customer_id: "CUS-1" }, "CUS-2": { customer_id: "CUS-2" } },
  categories: { "CAT-1": { category_id: "CAT-1" } },
};

function check(value: unknown, schema: unknown = {}): Finding[] {
  return checkResult(value, schema, { now: NOW, state: STATE });
}

const violated = (findings: Finding[], rule?: Rule) =>
  findings.filter((f) => !f.held && (!rule || f.rule === rule));
const checked = (findings: Finding[], rule: Rule) => findings.filter((f) => f.rule === rule);

describe("coherence rules: a coherent record passes every rule it meets", () => {
  it("a booking whose spans, past events, counts, totals, ranges and references all agree", () => {
    const booking = {
      booking_id: "BK-9",
      customer_id: "CUS-2",
      check_in: "2026-04-01",
      check_out: "2026-04-05",
      created_at: "2026-02-20T10:00:00Z",
      updated_at: "2026-02-21T10:00:00Z",
      rating: 4.5,
      occupancy_percent: 80,
      nights: 4,
      item_count: 2,
      items: [
        { description: "room", quantity: 4, unit_price: 100 },
        { description: "breakfast", amount: 40 },
      ],
      subtotal: 440,
      tax: 44,
      discount: 10,
      total: 474,
      price_range: { min_price: 90, max_price: 120 },
    };
    const findings = check(booking);
    expect(violated(findings)).toEqual([]);
    for (const rule of ["order", "past", "count", "total", "range", "reference"] as const)
      expect(checked(findings, rule).length, rule).toBeGreaterThan(0);
  });

  it("judges nested records and the items of lists", () => {
    const findings = check({ stays: [{ start_date: "2026-01-05", end_date: "2026-01-02" }] });
    expect(violated(findings, "order").map((f) => f.field)).toEqual(["stays[0].start_date ≤ end_date"]);
  });
});

describe("coherence rules: each kind of incoherence is flagged", () => {
  it("order: the low end after the high one, numbers and dates", () => {
    const findings = check({
      min_temperature: 30,
      max_temperature: 12,
      departure_time: "2026-05-02T10:00:00Z",
      arrival_time: "2026-05-02T08:00:00Z",
      validFrom: "2026-06-01",
      validUntil: "2026-05-01",
    });
    expect(violated(findings, "order").map((f) => f.field)).toEqual([
      "min_temperature ≤ max_temperature",
      "departure_time ≤ arrival_time",
      "validFrom ≤ validUntil",
    ]);
  });

  it("past: something that happened after the clock", () => {
    const findings = check({ created_at: "2026-03-02T09:00:01Z", last_login: "2027-01-01T00:00:00Z" });
    expect(violated(findings, "past")).toHaveLength(2);
  });

  it("count: a count that is not its list's length; a page's total below the page", () => {
    expect(violated(check({ total_results: 3, results: [1, 2] }), "count")).toHaveLength(1);
    expect(violated(check({ order_count: 1, orders: [{}, {}] }), "count")).toHaveLength(1);
    expect(violated(check({ total_results: 1, page: 1, results: [1, 2] }), "count")).toHaveLength(1);
  });

  it("total: a subtotal that is not the sum of its lines, a total that does not add up", () => {
    const findings = check({
      line_items: [
        { sku: "A", quantity: 2, unit_price: 5 },
        { sku: "B", quantity: 1, unit_price: 7.5 },
      ],
      subtotal: 20,
      shipping_fee: 5,
      total_amount: 30,
    });
    expect(violated(findings, "total").map((f) => f.field)).toEqual(["subtotal", "total_amount"]);
  });

  it("range: outside what the description states, or what the name implies", () => {
    const findings = check(
      { score: 140, rating: 7, discount_percentage: 130, match_probability: 1.4, age: -3, quantity: -1 },
      { properties: { score: { type: "number", description: "Quality score from 0 to 100." } } },
    );
    expect(violated(findings, "range").map((f) => f.field)).toEqual([
      "score",
      "rating",
      "discount_percentage",
      "match_probability",
      "age",
      "quantity",
    ]);
  });

  it("reference: an id of a collection the state holds that names none of its entities", () => {
    const findings = check({ customer_id: "CUS-404", categoryId: "CAT-1" });
    expect(violated(findings, "reference").map((f) => f.field)).toEqual(["customer_id"]);
    expect(checked(findings, "reference")).toHaveLength(2);
  });
});

describe("coherence rules: look-alikes that must not be flagged", () => {
  it("names of two ends that are not comparable values: first/last names, from/to currencies", () => {
    const findings = check({
      first_name: "Zoe",
      last_name: "Adams",
      from_currency: "USD",
      to_currency: "EUR",
      from: "SFO",
      to: "JFK",
    });
    expect(checked(findings, "order")).toEqual([]);
  });

  it("equal ends, and a span whose ends are of different kinds", () => {
    expect(violated(check({ min_price: 5, max_price: 5 }))).toEqual([]);
    expect(checked(check({ start: 3, end: "2026-01-01" }), "order")).toEqual([]);
  });

  it("things still to come may be after the clock", () => {
    const findings = check({
      next_payment_date: "2027-01-01",
      scheduled_at: "2026-12-01T00:00:00Z",
      expires_at: "2030-01-01T00:00:00Z",
      estimated_delivery_date: "2026-04-01",
      last_updated: "2026-03-01T00:00:00Z",
    });
    expect(violated(findings, "past")).toEqual([]);
  });

  it("quantities that may rightly be negative: changes, balances, temperatures, profits", () => {
    const findings = check({
      price_change: -3.2,
      account_balance: -50,
      temperature: -12,
      net_profit: -1000,
      latitude: -33.9,
      sentiment_score: -0.4,
    });
    expect(violated(findings, "range")).toEqual([]);
  });

  it("a count of low-confidence items and a confidence interval's ends are not probabilities", () => {
    const findings = check({
      low_confidence_count: 4,
      confidence_interval_low: 208.5,
      confidence_interval_high: 590,
    });
    expect(violated(findings, "range")).toEqual([]);
    expect(violated(check({ confidence: 1.3 }), "range")).toHaveLength(1);
    const counted = check(
      { high_confidence: 534 },
      {
        properties: {
          high_confidence: { type: "integer", description: "Number of predictions above the threshold" },
        },
      },
    );
    expect(violated(counted, "range")).toEqual([]);
  });

  it("a number whose schema states its own bounds is left to the schema", () => {
    const findings = check(
      { rating: 9 },
      { properties: { rating: { type: "number", minimum: 0, maximum: 10 } } },
    );
    expect(checked(findings, "range")).toEqual([]);
  });

  it("a count beside several lists, or a count of something else, is not judged", () => {
    expect(checked(check({ count: 3, a: [1], b: [1, 2] }), "count")).toEqual([]);
    expect(checked(check({ retry_count: 0, items: [1, 2] }), "count")).toEqual([]);
    expect(violated(check({ total_count: 10, page: 1, items: [1, 2] }), "count")).toEqual([]);
  });

  it("an id whose collection the state does not hold, and ids that are not strings", () => {
    const findings = check({ order_id: "ORD-9", customer_id: 7, id: "X" });
    expect(checked(findings, "reference")).toEqual([]);
  });

  it("a total of something other than the bill (total_weight) is not a bill's total", () => {
    const findings = check({ items: [{ price: 2 }, { price: 3 }], total_weight_kg: 12, total: 5 });
    expect(violated(findings, "total")).toEqual([]);
  });

  it("years in a description are not a range of values", () => {
    expect(statedRange("population between 1990 and 2020")).toBeUndefined();
    expect(statedRange("a score from 1 to 5")).toEqual([1, 5]);
    expect(statedRange("rated 8 out of 10")).toEqual([0, 10]);
  });
});
