import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type DomainSession,
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  openDomain,
} from "./support/domain-session.js";

/**
 * A booking service: stored payment cards with the balance left on each, and flight bookings
 * paid with one of them. Served without effects; inference must file a booking, charge its
 * card, and refund the card when the booking is cancelled.
 */

let travel: DomainSession;
beforeAll(async () => {
  travel = await openDomain("travel.json");
});
afterAll(async () => {
  await travel?.close();
});
beforeEach(async () => {
  await travel.reset();
});

const balances = async () => {
  const cards = fieldsOf(await travel.call("list_payment_cards")).cards;
  return Array.isArray(cards)
    ? Object.fromEntries(cards.map((c: { card_id: string; balance: number }) => [c.card_id, c.balance]))
    : cards;
};
const bookingIds = async (args: Record<string, unknown> = {}) => {
  const bookings = fieldsOf(await travel.call("list_bookings", args)).bookings;
  return Array.isArray(bookings)
    ? bookings.map((b: { booking_id: string }) => b.booking_id).sort()
    : bookings;
};

const TRIP = { origin: "LIS", destination: "FNC", date: "2026-05-20", cabin: "economy", price: 140.5 };

describe("travel: bookings paid from a stored card's balance, refunded when cancelled", () => {
  it("booking a flight files it under the next id, confirmed, and charges the price to the card", async () => {
    const answer = await travel.call("book_flight", { ...TRIP, card_id: "card_3391" });
    expect.soft(expectOk(answer)).toMatchObject({
      booking_id: "BK-1002",
      status: "confirmed",
      price: 140.5,
      card_id: "card_3391",
    });
    expectGrounded(answer, ["booking_id", "status", "price", "card_id"]);
    expectRecord(await travel.call("get_booking", { booking_id: "BK-1002" }), {
      booking_id: "BK-1002",
      ...TRIP,
      card_id: "card_3391",
      status: "confirmed",
    });
    expect.soft(await balances()).toEqual({ card_3391: 1059.5, card_7710: 150 });
  });

  it("a card that does not cover the price is refused; nothing is charged or booked", async () => {
    expectError(
      await travel.call("book_flight", { ...TRIP, price: 150.01, card_id: "card_7710" }),
      "INSUFFICIENT_FUNDS",
    );
    expect.soft(await balances()).toEqual({ card_3391: 1200, card_7710: 150 });
    expect.soft(await bookingIds()).toEqual(["BK-1000", "BK-1001"]);
    // the whole balance may be spent
    expectOk(await travel.call("book_flight", { ...TRIP, price: 150, card_id: "card_7710" }));
    expect.soft(await balances()).toEqual({ card_3391: 1200, card_7710: 0 });
  });

  it("an unknown card answers the documented error and books nothing", async () => {
    expectError(await travel.call("book_flight", { ...TRIP, card_id: "card_0000" }), "CARD_NOT_FOUND");
    expect.soft(await bookingIds()).toEqual(["BK-1000", "BK-1001"]);
  });

  it("cancelling refunds the price to the card that paid, once", async () => {
    const answer = await travel.call("cancel_booking", { booking_id: "BK-1001" });
    expect.soft(expectOk(answer)).toMatchObject({ booking_id: "BK-1001", status: "cancelled" });
    expectGrounded(answer, ["booking_id", "status"]);
    expect.soft(await balances()).toEqual({ card_3391: 1289, card_7710: 150 });
    expectError(await travel.call("cancel_booking", { booking_id: "BK-1001" }), "ALREADY_CANCELLED");
    expect.soft(await balances()).toEqual({ card_3391: 1289, card_7710: 150 });
    expectError(await travel.call("cancel_booking", { booking_id: "BK-9999" }), "BOOKING_NOT_FOUND");
  });

  it("a booking made and then cancelled leaves the card as it was, and lists by status", async () => {
    await travel.call("book_flight", { ...TRIP, card_id: "card_3391" });
    await travel.call("cancel_booking", { booking_id: "BK-1002" });
    expect.soft(await balances()).toEqual({ card_3391: 1200, card_7710: 150 });
    expect.soft(await bookingIds({ status: "cancelled" })).toEqual(["BK-1000", "BK-1002"]);
    expect.soft(await bookingIds({ status: "confirmed" })).toEqual(["BK-1001"]);
  });

  it("a budget limit, once set, refuses a booking above it and nothing is charged", async () => {
    expectOk(await travel.call("book_flight", { ...TRIP, card_id: "card_3391" }));
    expect
      .soft(expectOk(await travel.call("set_budget_limit", { budget_limit: 100 })))
      .toEqual({ budget_limit: 100 });
    expectError(await travel.call("book_flight", { ...TRIP, card_id: "card_3391" }), "BUDGET_EXCEEDED");
    expect.soft(await balances()).toEqual({ card_3391: 1059.5, card_7710: 150 });
    expectOk(await travel.call("book_flight", { ...TRIP, price: 100, card_id: "card_7710" }));
    expect.soft(await bookingIds()).toEqual(["BK-1000", "BK-1001", "BK-1002", "BK-1003"]);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(travel.breaches).toEqual([]);
  });
});
