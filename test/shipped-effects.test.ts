import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRuntime, SHIPPED_TOOLSETS } from "./support/index.js";

type Opened = Awaited<ReturnType<typeof openRuntime>>;

/** The shipped toolsets answer their documented rules offline, from the state. */
describe("shipped toolsets: rules written in the effects language", () => {
  let rt: Opened;
  beforeAll(async () => {
    rt = await openRuntime([SHIPPED_TOOLSETS]);
  });
  afterAll(() => rt.dispose());

  const call = async (tool: string, args: Record<string, unknown>) => {
    const session = (await rt.engine.openSession()).id;
    return rt.engine.call(session, tool, args);
  };
  const fields = (result: unknown) => result as Record<string, unknown>;

  it("travel: the same airport twice, and a card the issuer declines", async () => {
    const same = await call("search_flights", {
      origin: "SFO",
      destination: "SFO",
      departure_date: "2026-03-12",
    });
    expect(same.failure?.code).toBe("SAME_AIRPORT");
    const booking = (card_last4: string, fare_id = "FAR-0004") => ({
      fare_id,
      lead_traveler_id: "TRV-0001",
      contact_email: "maya.thompson@example.com",
      payment: { method: "card", card_last4 },
    });
    expect((await call("create_booking", booking("1881"))).failure?.code).toBe("PAYMENT_DECLINED"); // frozen
    expect((await call("create_booking", booking("0077", "FAR-0008"))).failure?.code).toBe(
      "PAYMENT_DECLINED",
    ); // over the limit
    expect((await call("create_booking", booking("4242"))).status).toBe("ok");
  });

  it("patient: the payer's system is down, and an estimate for an unknown coverage is its documented 404", async () => {
    const down = await call("verify_insurance_eligibility", {
      coverage_id: "COV-0002",
      service_date: "2026-03-09",
      service_type: "medical",
    });
    expect(down.failure?.code).toBe("PAYER_UNAVAILABLE");
    const unknown = await call("estimate_visit_cost", {
      coverage_id: "COV-0099",
      visit_type: "sick_visit",
      procedure_codes: ["99213"],
    });
    expect(unknown.failure?.code).toBe("COVERAGE_NOT_FOUND");
    const estimate = await call("estimate_visit_cost", {
      coverage_id: "COV-0001",
      visit_type: "sick_visit",
      procedure_codes: ["99213", "87880"],
    });
    // copay 25 once, then 20% of each contracted rate (92 and 18)
    expect(fields(estimate.result)).toMatchObject({ estimated_total: 47, currency: "USD" });
  });

  it("trading: a preview computes from the quote, and an unknown account is its documented 404", async () => {
    const unknown = await call("preview_trade_order", {
      account_id: "ACC-9999",
      symbol: "AAPL",
      side: "buy",
      quantity: 1,
      order_type: "market",
    });
    expect(unknown.failure?.code).toBe("ACCOUNT_NOT_FOUND");
    const preview = await call("preview_trade_order", {
      account_id: "ACC-2001",
      symbol: "AAPL",
      side: "buy",
      quantity: 20,
      order_type: "market",
    });
    expect(fields(preview.result)).toMatchObject({
      estimated_price: 197.44,
      estimated_notional: 3948.8,
      warnings: ["insufficient_buying_power"],
    });
  });

  it("e-commerce: a refund defaults to what the returned lines are worth, tax included", async () => {
    const session = (await rt.engine.openSession()).id;
    const opened = await rt.engine.call(session, "create_return_request", {
      customer_id: "CUST-0004",
      order_id: "ORD-1006",
      items: [{ line_id: "LN-01", quantity: 1, reason: "damaged", condition: "damaged" }],
      resolution: "refund",
    });
    const returnId = (fields(opened.result).return_request as { return_id: string }).return_id;
    await rt.engine.call(session, "approve_return_request", { return_id: returnId });
    const refund = await rt.engine.call(session, "issue_refund", { return_id: returnId });
    expect(fields(refund.result).refund).toMatchObject({ amount: 69.12 }); // 64.00 + 8% tax
    const state = (await rt.engine.state(session)).state.toJSON() as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    expect(state.orders?.["ORD-1006"]?.refundable_amount).toBe(14.04);
  });
});
