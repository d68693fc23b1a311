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
 * A trip planner shaped as hotel-booking APIs (Expedia Rapid, Amadeus Hotel Booking) shape one,
 * with a stored wallet as Stripe keeps payment methods: hotels and their room offers keyed by
 * id with a nightly price and the stay's total, car rental offers, bookings that charge a stored
 * payment method's balance (refused when short) and refund it when cancelled, a trip whose
 * budget limit a tool sets (null while unset), an exchange-rate table quoted per euro, and
 * support tickets about bookings. Served without effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const trip = useDomain("trip.json");

const balances = async () => {
  const methods = fieldsOf(await trip.call("list_payment_methods")).payment_methods;
  return Array.isArray(methods)
    ? Object.fromEntries(
        methods.map((m: { payment_method_id: string; balance: number }) => [m.payment_method_id, m.balance]),
      )
    : methods;
};
const bookingIds = async (args: Record<string, unknown> = {}) => {
  const bookings = fieldsOf(await trip.call("list_bookings", args)).bookings;
  return Array.isArray(bookings) ? bookings.map((b: { booking_id: string }) => b.booking_id) : bookings;
};
const offerIds = (value: unknown) =>
  Array.isArray(value) ? value.map((o: { offer_id?: unknown }) => o.offer_id) : value;

describe("trip: hotels and offers as stored", () => {
  it("a city's hotels answer as stored, within the rating asked for; an unknown hotel is not found", async () => {
    const all = fieldsOf(await trip.call("search_hotels", { city_code: "LIS" })).hotels;
    expect
      .soft(Array.isArray(all) && all.map((h: { hotel_id: string }) => h.hotel_id))
      .toEqual(["HLLIS042", "HLLIS117"]);
    const good = fieldsOf(await trip.call("search_hotels", { city_code: "LIS", min_rating: 4 })).hotels;
    expect
      .soft(Array.isArray(good) && good.map((h: { hotel_id: string }) => h.hotel_id))
      .toEqual(["HLLIS042"]);
    const hotel = await trip.call("get_hotel", { hotel_id: "HLOPO009" });
    expectRecord(hotel, {
      hotel_id: "HLOPO009",
      name: "Ribeira Guesthouse",
      city_code: "OPO",
      rating: 4,
      address: "Cais da Ribeira 21, Porto",
    });
    expectError(await trip.call("get_hotel", { hotel_id: "HLXXX000" }), "HOTEL_NOT_FOUND");
  });

  it("an offer answers its nightly price and the stay's total, none guessed", async () => {
    const answer = await trip.call("get_hotel_offer", { offer_id: "HOF-0001" });
    expectRecord(answer, {
      offer_id: "HOF-0001",
      hotel_id: "HLLIS042",
      room_type: "double",
      check_in: "2026-05-11",
      check_out: "2026-05-14",
      nights: 3,
      price_per_night: 142.5,
      total: 427.5,
      currency: "EUR",
      refundable: true,
    });
    expectGrounded(answer, ["offer_id", "price_per_night", "total", "nights"]);
    expectError(await trip.call("get_hotel_offer", { offer_id: "HOF-9999" }), "OFFER_NOT_FOUND");
  });

  it("a hotel's offers are the offers that name it; an unknown hotel is not found", async () => {
    const answer = await trip.call("list_hotel_offers", { hotel_id: "HLLIS042" });
    expect.soft(offerIds(fieldsOf(answer).offers)).toEqual(["HOF-0001", "HOF-0002"]);
    expectGrounded(answer, ["offers"]);
    expectError(await trip.call("list_hotel_offers", { hotel_id: "HLXXX000" }), "HOTEL_NOT_FOUND");
  });

  it("car offers answer by pick-up location", async () => {
    const answer = await trip.call("search_car_offers", { pickup_location: "OPO" });
    expect.soft(offerIds(fieldsOf(answer).offers)).toEqual(["COF-0001", "COF-0002"]);
  });
});

describe("trip: bookings paid from the stored wallet", () => {
  it("a hotel booking charges the offer's total to the payment method and is filed confirmed", async () => {
    const answer = await trip.call("create_hotel_booking", {
      offer_id: "HOF-0001",
      payment_method_id: "pm_0001",
    });
    expect.soft(expectOk(answer)).toMatchObject({
      booking_id: "BK-10024",
      product: "hotel",
      hotel_offer_id: "HOF-0001",
      car_offer_id: null,
      payment_method_id: "pm_0001",
      status: "confirmed",
      total: 427.5,
      currency: "EUR",
      cancelled_at: null,
    });
    expectGrounded(answer, ["booking_id", "hotel_offer_id", "payment_method_id", "status", "total"]);
    expect.soft(await balances()).toEqual({ pm_0001: 472.5, pm_0002: 120 });
    expect
      .soft(expectOk(await trip.call("get_booking", { booking_id: "BK-10024" })))
      .toMatchObject({ status: "confirmed", total: 427.5, hotel_offer_id: "HOF-0001" });
    expect.soft(await bookingIds()).toEqual(["BK-10021", "BK-10022", "BK-10023", "BK-10024"]);
  });

  it("the booking's product says what was booked", async () => {
    const hotel = await trip.call("create_hotel_booking", {
      offer_id: "HOF-0003",
      payment_method_id: "pm_0001",
    });
    expect.soft(fieldsOf(hotel).product).toBe("hotel");
    const car = await trip.call("create_car_booking", {
      car_offer_id: "COF-0001",
      payment_method_id: "pm_0001",
    });
    expect.soft(fieldsOf(car).product).toBe("car");
  });

  it("a car booking charges the car offer's total", async () => {
    const answer = await trip.call("create_car_booking", {
      car_offer_id: "COF-0001",
      payment_method_id: "pm_0002",
    });
    expect.soft(expectOk(answer)).toMatchObject({
      booking_id: "BK-10024",
      car_offer_id: "COF-0001",
      hotel_offer_id: null,
      status: "confirmed",
      total: 93,
    });
    expect.soft(await balances()).toEqual({ pm_0001: 900, pm_0002: 27 });
    expectError(
      await trip.call("create_car_booking", { car_offer_id: "COF-0009", payment_method_id: "pm_0001" }),
      "CAR_OFFER_NOT_FOUND",
    );
  });

  it("a balance short of the total is refused; an unknown offer or payment method is not found; nothing is charged", async () => {
    expectError(
      await trip.call("create_hotel_booking", { offer_id: "HOF-0001", payment_method_id: "pm_0002" }),
      "INSUFFICIENT_FUNDS",
    );
    expectError(
      await trip.call("create_car_booking", { car_offer_id: "COF-0002", payment_method_id: "pm_0002" }),
      "INSUFFICIENT_FUNDS",
    );
    expectError(
      await trip.call("create_hotel_booking", { offer_id: "HOF-0404", payment_method_id: "pm_0001" }),
      "OFFER_NOT_FOUND",
    );
    expectError(
      await trip.call("create_hotel_booking", { offer_id: "HOF-0001", payment_method_id: "pm_9999" }),
      "PAYMENT_METHOD_NOT_FOUND",
    );
    expect.soft(await balances()).toEqual({ pm_0001: 900, pm_0002: 120 });
    expect.soft(await bookingIds()).toEqual(["BK-10021", "BK-10022", "BK-10023"]);
  });

  it("cancelling refunds the total to the payment method that paid, once", async () => {
    const answer = await trip.call("cancel_booking", { booking_id: "BK-10022" });
    expect.soft(expectOk(answer)).toMatchObject({ booking_id: "BK-10022", status: "cancelled" });
    expect.soft(fieldsOf(answer).cancelled_at).toEqual(expect.stringMatching(/^\d{4}-/));
    expect.soft(await balances()).toEqual({ pm_0001: 900, pm_0002: 237 });
    expectError(await trip.call("cancel_booking", { booking_id: "BK-10022" }), "BOOKING_ALREADY_CANCELLED");
    expect.soft(await balances()).toEqual({ pm_0001: 900, pm_0002: 237 });
    expectError(await trip.call("cancel_booking", { booking_id: "BK-99999" }), "BOOKING_NOT_FOUND");
    expect.soft(await bookingIds({ status: "cancelled" })).toEqual(["BK-10022", "BK-10023"]);
  });
});

describe("trip: the budget limit", () => {
  it("setting the budget limit is read back by the trip", async () => {
    expect.soft(expectOk(await trip.call("get_trip"))).toMatchObject({
      trip_id: "TRP-2026-014",
      budget_limit: null,
    });
    const answer = await trip.call("set_trip_budget", { budget_limit: 300 });
    expect.soft(expectOk(answer)).toMatchObject({ trip_id: "TRP-2026-014", budget_limit: 300 });
    expect.soft(expectOk(await trip.call("get_trip"))).toMatchObject({ budget_limit: 300, currency: "EUR" });
  });

  it("no limit set bounds nothing; once set, a booking above it is refused and charges nothing", async () => {
    expectOk(await trip.call("create_hotel_booking", { offer_id: "HOF-0001", payment_method_id: "pm_0001" }));
    expectOk(await trip.call("set_trip_budget", { budget_limit: 300 }));
    // the card still covers it, the budget does not
    expectError(
      await trip.call("create_hotel_booking", { offer_id: "HOF-0001", payment_method_id: "pm_0001" }),
      "BUDGET_EXCEEDED",
    );
    expect.soft(await balances()).toEqual({ pm_0001: 472.5, pm_0002: 120 });
    expectOk(await trip.call("create_hotel_booking", { offer_id: "HOF-0003", payment_method_id: "pm_0001" }));
    expect.soft(await balances()).toEqual({ pm_0001: 208.5, pm_0002: 120 });
  });
});

describe("trip: currency conversion and support", () => {
  it("an amount converts at the table's rates, quoted per euro; an unknown currency is refused", async () => {
    const toDollars = await trip.call("convert_currency", {
      amount: 100,
      from_currency: "EUR",
      to_currency: "USD",
    });
    expect.soft(fieldsOf(toDollars).converted_amount).toBeCloseTo(108.42, 2);
    expectGrounded(toDollars, ["converted_amount"]);
    const dollarsToPounds = await trip.call("convert_currency", {
      amount: 100,
      from_currency: "USD",
      to_currency: "GBP",
    });
    expect.soft(fieldsOf(dollarsToPounds).converted_amount).toBeCloseTo((100 / 1.0842) * 0.8581, 2);
    expectError(
      await trip.call("convert_currency", { amount: 5, from_currency: "EUR", to_currency: "XYZ" }),
      "UNSUPPORTED_CURRENCY",
    );
  });

  it("a support ticket about a booking gets the next id and opens; an unknown booking is not found", async () => {
    const answer = await trip.call("create_support_ticket", {
      booking_id: "BK-10021",
      subject: "Late check-in",
      description: "We land at 23:40.",
    });
    expectRecord(
      answer,
      {
        ticket_id: "TCK-0502",
        booking_id: "BK-10021",
        subject: "Late check-in",
        description: "We land at 23:40.",
        status: "open",
      },
      { created_at: expect.stringMatching(/^\d{4}-/) },
    );
    expectError(
      await trip.call("create_support_ticket", { booking_id: "BK-99999", subject: "Where is it?" }),
      "BOOKING_NOT_FOUND",
    );
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(trip.breaches).toEqual([]);
  });
});
