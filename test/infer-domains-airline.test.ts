import { describe, expect, it } from "vitest";
import {
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * An airline's booking API shaped as Duffel's and Amadeus's are: airports keyed by IATA code,
 * routes as an array of records, offers priced per seat (`total_amount`), orders made from an
 * offer and paid from a stored card's balance, cancellations refunded to that card, a session
 * that starts signed out (`customer_id: null`) and a loyalty account nested in the customer's
 * record. Served without effects.
 */

const air = useDomain("airline.json");

const HANA = { email: "hana.sato@example.com", password: "correct-horse" };
const PASSENGERS = [{ given_name: "Hana", family_name: "Sato", type: "adult" }];

const login = async () => expectOk(await air.call("login", HANA));
const balances = async () => {
  const cards = fieldsOf(await air.call("list_cards")).payment_cards;
  return Array.isArray(cards)
    ? Object.fromEntries(cards.map((c: { id: string; balance: number }) => [c.id, c.balance]))
    : cards;
};
const orderIds = async (args: Record<string, unknown> = {}) => {
  const orders = fieldsOf(await air.call("list_orders", args)).orders;
  return Array.isArray(orders) ? orders.map((o: { id: string }) => o.id) : orders;
};
const order = (offer_id: string, payment_card_id: string) =>
  air.call("create_order", { offer_id, payment_card_id, passengers: PASSENGERS });

describe("airline: airports, routes and offers", () => {
  it("an airport answers by its IATA code; an unknown code answers the documented error", async () => {
    const answer = await air.call("get_airport", { iata_code: "LIS" });
    expectRecord(answer, {
      iata_code: "LIS",
      name: "Humberto Delgado Airport",
      city_name: "Lisbon",
      iata_country_code: "PT",
      time_zone: "Europe/Lisbon",
    });
    expectGrounded(answer, ["iata_code", "name", "city_name", "time_zone"]);
    expectError(await air.call("get_airport", { iata_code: "XXX" }), "AIRPORT_NOT_FOUND");
  });

  it("the routes from an airport, and the offers for a route, by cabin when asked", async () => {
    const routes = fieldsOf(await air.call("list_routes", { origin: "LHR" })).routes;
    expect
      .soft(routes)
      .toMatchObject([{ destination: "LIS" }, { destination: "JFK" }, { destination: "NRT" }]);
    const offers = await air.call("search_offers", { origin: "LHR", destination: "LIS" });
    expect.soft(expectOk(offers).offers).toMatchObject([
      { id: "off_0001", total_amount: 142.4 },
      { id: "off_0002", total_amount: 489 },
    ]);
    expectGrounded(offers, ["offers"]);
    const business = fieldsOf(
      await air.call("search_offers", { origin: "LHR", destination: "LIS", cabin_class: "business" }),
    ).offers;
    expect.soft(business).toMatchObject([{ id: "off_0002", cabin_class: "business" }]);
    expectError(await air.call("get_offer", { offer_id: "off_9999" }), "OFFER_NOT_FOUND");
  });
});

describe("airline: signing in", () => {
  it("logging in by email names the customer; an unknown email answers the documented error", async () => {
    const answer = await air.call("login", HANA);
    expect.soft(expectOk(answer)).toMatchObject({ customer_id: "cus_0001" });
    expectGrounded(answer, ["customer_id"]);
    // the token is the API's own secret: a guess, and said to be one
    expect.soft(answer.guessed ?? []).toContain("access_token");
    expectError(
      await air.call("login", { email: "nobody@example.com", password: "whatever1" }),
      "INVALID_CREDENTIALS",
    );
  });

  it("booking and the loyalty account need someone signed in; after logout they are refused again", async () => {
    expectError(await order("off_0001", "pcd_01"), "UNAUTHORIZED");
    expectError(await air.call("get_loyalty_account"), "UNAUTHORIZED");
    expect.soft(await balances()).toEqual({ pcd_01: 900, pcd_02: 150 });
    await login();
    expectOk(await order("off_0001", "pcd_01"));
    expect.soft(expectOk(await air.call("logout"))).toEqual({ success: true });
    expectError(await order("off_0001", "pcd_01"), "UNAUTHORIZED");
    expect.soft(await orderIds()).toEqual(["ord_0040", "ord_0041", "ord_0042"]);
  });
});

describe("airline: orders paid from a stored card, refunded when cancelled", () => {
  it("an order costs the offer's total_amount, charged to the card, and is filed confirmed for the customer", async () => {
    await login();
    const answer = await order("off_0002", "pcd_01");
    expect.soft(expectOk(answer)).toMatchObject({
      id: "ord_0042",
      offer_id: "off_0002",
      payment_card_id: "pcd_01",
      status: "confirmed",
      total_amount: 489,
      customer_id: "cus_0001",
      passengers: PASSENGERS,
    });
    expectGrounded(answer, ["id", "offer_id", "payment_card_id", "status", "total_amount", "customer_id"]);
    expect.soft(await balances()).toEqual({ pcd_01: 411, pcd_02: 150 });
    expect
      .soft(expectOk(await air.call("get_order", { order_id: "ord_0042" })))
      .toMatchObject({ status: "confirmed", total_amount: 489, cancelled_at: null });
  });

  // a booking takes a seat from its offer (`available_seats`), as Amadeus's `numberOfBookableSeats`
  // and Shopify's inventory on an order go down
  it("an order takes one seat from its offer", async () => {
    await login();
    expectOk(await order("off_0002", "pcd_01"));
    expect(fieldsOf(await air.call("get_offer", { offer_id: "off_0002" })).available_seats).toBe(1);
  });

  it("a card whose balance does not cover the offer is refused; an unknown card or offer is not found", async () => {
    await login();
    expectError(await order("off_0002", "pcd_02"), "INSUFFICIENT_FUNDS");
    expectError(await order("off_0001", "pcd_99"), "CARD_NOT_FOUND");
    expectError(await order("off_9999", "pcd_01"), "OFFER_NOT_FOUND");
    expect.soft(await balances()).toEqual({ pcd_01: 900, pcd_02: 150 });
    expect.soft(await orderIds()).toEqual(["ord_0040", "ord_0041"]);
    // the whole balance may be spent
    expectOk(await air.call("top_up_card", { payment_card_id: "pcd_02", amount: 339 }));
    expectOk(await order("off_0002", "pcd_02"));
    expect.soft(await balances()).toEqual({ pcd_01: 900, pcd_02: 0 });
  });

  it("cancelling refunds the order's total to the card that paid, once, and stamps the time", async () => {
    await login();
    const answer = await air.call("cancel_order", { order_id: "ord_0041" });
    expect.soft(expectOk(answer)).toMatchObject({ id: "ord_0041", status: "cancelled" });
    expect.soft(fieldsOf(answer).cancelled_at).toEqual(expect.stringMatching(/^2026-/));
    expect.soft(await balances()).toEqual({ pcd_01: 1042.4, pcd_02: 150 });
    expectError(await air.call("cancel_order", { order_id: "ord_0041" }), "ORDER_ALREADY_CANCELLED");
    expect.soft(await balances()).toEqual({ pcd_01: 1042.4, pcd_02: 150 });
    expectError(await air.call("cancel_order", { order_id: "ord_9999" }), "ORDER_NOT_FOUND");
    expect.soft(await orderIds({ status: "cancelled" })).toEqual(["ord_0040", "ord_0041"]);
  });

  it("topping up a card adds to its balance; an unknown card is not found", async () => {
    const answer = await air.call("top_up_card", { payment_card_id: "pcd_02", amount: 50 });
    expect.soft(expectOk(answer)).toEqual({ id: "pcd_02", balance: 200 });
    expectGrounded(answer, ["id", "balance"]);
    expect.soft(await balances()).toEqual({ pcd_01: 900, pcd_02: 200 });
    expectError(await air.call("top_up_card", { payment_card_id: "pcd_99", amount: 50 }), "CARD_NOT_FOUND");
  });
});

describe("airline: loyalty points of the signed-in customer", () => {
  it("the loyalty account is the signed-in customer's; redeeming takes points, never more than held", async () => {
    await login();
    const account = await air.call("get_loyalty_account");
    expectRecord(account, {
      programme: "Meridian Miles",
      account_number: "MM4471209",
      points: 18250,
      tier: "silver",
    });
    expectGrounded(account, ["programme", "account_number", "points", "tier"]);
    expect.soft(expectOk(await air.call("redeem_points", { points: 250 }))).toEqual({ points: 18000 });
    expectError(await air.call("redeem_points", { points: 18001 }), "INSUFFICIENT_POINTS");
    expect.soft(fieldsOf(await air.call("get_loyalty_account")).points).toBe(18000);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(air.breaches).toEqual([]);
  });
});
