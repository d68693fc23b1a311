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
 * A reservation service: stored payment cards with the balance left on each, and flight
 * reservations paid with one of them. Served without effects; inference must file a
 * reservation, charge its card, and refund the card when the reservation is cancelled.
 */

const travel = useDomain("travel.json");

const balances = async () => {
  const cards = fieldsOf(await travel.call("list_payment_cards")).cards;
  return Array.isArray(cards)
    ? Object.fromEntries(
        cards.map((c: { payment_card_id: string; balance: number }) => [c.payment_card_id, c.balance]),
      )
    : cards;
};
const reservationIds = async (args: Record<string, unknown> = {}) => {
  const reservations = fieldsOf(await travel.call("list_reservations", args)).reservations;
  return Array.isArray(reservations)
    ? reservations.map((r: { reservation_id: string }) => r.reservation_id).sort()
    : reservations;
};

const TRIP = { origin: "LIS", destination: "FNC", date: "2026-05-20", cabin: "economy", price: 140.5 };

describe("travel: reservations paid from a stored card's balance, refunded when cancelled", () => {
  it("reserving a flight files it under the next id, confirmed, and charges the price to the card", async () => {
    const answer = await travel.call("reserve_flight", { ...TRIP, payment_card_id: "card_3391" });
    expect.soft(expectOk(answer)).toMatchObject({
      reservation_id: "RS-1002",
      status: "confirmed",
      price: 140.5,
      payment_card_id: "card_3391",
    });
    expectGrounded(answer, ["reservation_id", "status", "price", "payment_card_id"]);
    expectRecord(await travel.call("get_reservation", { reservation_id: "RS-1002" }), {
      reservation_id: "RS-1002",
      ...TRIP,
      payment_card_id: "card_3391",
      status: "confirmed",
    });
    expect.soft(await balances()).toEqual({ card_3391: 1059.5, card_7710: 150 });
  });

  it("a card that does not cover the price is refused; nothing is charged or booked", async () => {
    expectError(
      await travel.call("reserve_flight", { ...TRIP, price: 150.01, payment_card_id: "card_7710" }),
      "INSUFFICIENT_FUNDS",
    );
    expect.soft(await balances()).toEqual({ card_3391: 1200, card_7710: 150 });
    expect.soft(await reservationIds()).toEqual(["RS-1000", "RS-1001"]);
    // the whole balance may be spent
    expectOk(await travel.call("reserve_flight", { ...TRIP, price: 150, payment_card_id: "card_7710" }));
    expect.soft(await balances()).toEqual({ card_3391: 1200, card_7710: 0 });
  });

  it("an unknown card answers the documented error and books nothing", async () => {
    expectError(
      await travel.call("reserve_flight", { ...TRIP, payment_card_id: "card_0000" }),
      "CARD_NOT_FOUND",
    );
    expect.soft(await reservationIds()).toEqual(["RS-1000", "RS-1001"]);
  });

  it("cancelling refunds the price to the card that paid, once", async () => {
    const answer = await travel.call("cancel_reservation", { reservation_id: "RS-1001" });
    expect.soft(expectOk(answer)).toMatchObject({ reservation_id: "RS-1001", status: "cancelled" });
    expectGrounded(answer, ["reservation_id", "status"]);
    expect.soft(await balances()).toEqual({ card_3391: 1289, card_7710: 150 });
    expectError(await travel.call("cancel_reservation", { reservation_id: "RS-1001" }), "ALREADY_CANCELLED");
    expect.soft(await balances()).toEqual({ card_3391: 1289, card_7710: 150 });
    expectError(
      await travel.call("cancel_reservation", { reservation_id: "RS-9999" }),
      "RESERVATION_NOT_FOUND",
    );
  });

  it("a reservation made and then cancelled leaves the card as it was, and lists by status", async () => {
    await travel.call("reserve_flight", { ...TRIP, payment_card_id: "card_3391" });
    await travel.call("cancel_reservation", { reservation_id: "RS-1002" });
    expect.soft(await balances()).toEqual({ card_3391: 1200, card_7710: 150 });
    expect.soft(await reservationIds({ status: "cancelled" })).toEqual(["RS-1000", "RS-1002"]);
    expect.soft(await reservationIds({ status: "confirmed" })).toEqual(["RS-1001"]);
  });

  it("a spend cap, once set, refuses a reservation above it and nothing is charged", async () => {
    expectOk(await travel.call("reserve_flight", { ...TRIP, payment_card_id: "card_3391" }));
    expect.soft(expectOk(await travel.call("set_spend_cap", { spend_cap: 100 }))).toEqual({ spend_cap: 100 });
    expectError(
      await travel.call("reserve_flight", { ...TRIP, payment_card_id: "card_3391" }),
      "OVER_SPEND_CAP",
    );
    expect.soft(await balances()).toEqual({ card_3391: 1059.5, card_7710: 150 });
    expectOk(await travel.call("reserve_flight", { ...TRIP, price: 100, payment_card_id: "card_7710" }));
    expect.soft(await reservationIds()).toEqual(["RS-1000", "RS-1001", "RS-1002", "RS-1003"]);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(travel.breaches).toEqual([]);
  });
});
