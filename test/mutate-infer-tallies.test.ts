import { describe, expect, it } from "vitest";
import {
  call,
  error,
  failure,
  inferred,
  integer,
  number,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Tallies (docs/inference.md): a record's counts kept per place or kind in a map keyed by data
 * (seats left per fare class). An argument names the key; reads answer the count there, writes
 * add to it, take from it (never below zero), set it, or move an amount from one key to
 * another, and a write that answers the id of another collection's record logs itself there.
 */

const fid = { flight_id: text };
const seatsOut = { outputSchema: { type: "object", properties: { fare_class: text, seats: integer } } };

const flights = {
  F1: {
    flight_id: "F1",
    route: "LIS-OPO",
    seats: { economy: 10, business: 2 },
    meals: { veg: 4, fish: 6 },
    // a map keyed like the seats whose values are no counts
    cabin_names: { economy: "Eco", business: "Biz" },
  },
  F2: {
    flight_id: "F2",
    route: "OPO-FAO",
    seats: { economy: 0, business: 4 },
    meals: { veg: 1, fish: 1 },
    cabin_names: { economy: "Eco", business: "Biz" },
  },
};
const changes = { "C-0001": { change_id: "C-0001", flight_id: "F1", fare_class: "economy", quantity: 3 } };

const airline = world({ flights, changes }, [
  tool("get_seats", "Seats left in a fare class.", { ...fid, fare_class: text }, undefined, [], seatsOut),
  tool("count_seats", "Seats left.", { ...fid, fare_class: text }, undefined, [], {
    annotations: { readOnlyHint: true },
    ...seatsOut,
  }),
  tool("sell_seats", "Sell seats of a fare class.", {
    ...fid,
    fare_class: text,
    quantity: integer,
    reason: { type: "string", enum: ["web", "desk"] },
  }),
  tool("add_seats", "Add seats to a fare class.", { ...fid, fare_class: text, quantity: integer }),
  tool(
    "increase_seats",
    "Increase the seats of a fare class.",
    { ...fid, fare_class: text, quantity: integer },
    undefined,
    [error("FARE_CLASS_NOT_FOUND", "Fare class not found.", "The flight has no such fare class.", 404)],
  ),
  tool("set_seats", "Set the seats of a fare class.", { ...fid, fare_class: text, seats: integer }),
  tool(
    "adjust_seats",
    "Adjust the seats of a fare class.",
    { ...fid, fare_class: text, delta: integer },
    undefined,
    [error("NEGATIVE_SEATS", "Seats cannot go negative.")],
  ),
  tool("update_seats", "Update the seats of a fare class.", {
    ...fid,
    fare_class: text,
    amount: { type: "integer", description: "A signed number of seats." },
  }),
  tool(
    "move_seats",
    "Move seats between fare classes.",
    { ...fid, from_class: text, to_class: text, quantity: integer },
    undefined,
    [],
    { outputSchema: { type: "object", properties: { change_id: text } } },
  ),
  tool("use_meals", "Use meals of a kind.", { ...fid, kind: text, quantity: integer, price: number }),
  // speaks of no map: the fare classes a change log records say which
  tool("sell_fares", "Sell fares.", { ...fid, fare_class: text, quantity: integer }),
  tool("update_meals", "Update the meals of a kind.", { ...fid, kind: text, count: integer }),
  tool("set_meals", "Set the meals of a kind.", { ...fid, kind: text, count: integer }, undefined, [
    error("NEGATIVE_MEALS", "Meals cannot be negative."),
  ]),
  tool("sell_tickets", "Sell tickets.", {
    ...fid,
    cabin: { type: "string", description: "The cabin, such as 'business'." },
    quantity: integer,
  }),
]);

type Flights = Record<string, { seats: Record<string, number>; meals: Record<string, number> }>;
const seatsOf = (state: State, flight = "F1") => (state.flights as Flights)[flight]?.seats;

describe("reading the count kept under a key", () => {
  it("answers the count of the fare class named, zero included", async () => {
    expect(
      (await call(airline, "get_seats", { flight_id: "F1", fare_class: "business" })).answer,
    ).toMatchObject({
      fare_class: "business",
      seats: 2,
    });
    expect(
      (await call(airline, "get_seats", { flight_id: "F2", fare_class: "economy" })).answer,
    ).toMatchObject({
      seats: 0,
    });
  });

  it("reads where the tool is marked read-only, whatever its verb", async () => {
    const { answer, outcome } = await call(airline, "count_seats", {
      flight_id: "F2",
      fare_class: "business",
    });
    expect(outcome.status).toBe("applied");
    expect(answer).toMatchObject({ seats: 4 });
  });

  it("answers an added not-found error for a key the record keeps no count under, and for an unknown record", async () => {
    const unknown = await call(airline, "get_seats", { flight_id: "F1", fare_class: "first" });
    expect(unknown.outcome).toMatchObject({
      status: "failed",
      failure: { code: "FARE_CLASS_NOT_FOUND", status: 404 },
    });
    expect(unknown.tool.errors.find((e) => e.code === "FARE_CLASS_NOT_FOUND")).toEqual({
      code: "FARE_CLASS_NOT_FOUND",
      status: 404,
      message: "No count is kept for fare class {fare_class}.",
      when: "The record keeps no count under the given fare_class (inferred from the state's counts).",
    });
    expect(
      failure((await call(airline, "get_seats", { flight_id: "F9", fare_class: "economy" })).outcome),
    ).toBe("FLIGHT_NOT_FOUND");
    expect(unknown.report.notes).toContain("reads seats[fare_class] of flights");
  });
});

describe("writes that add to, take from or set a count", () => {
  it("sells seats: takes them from that fare class only", async () => {
    const { after, report } = await call(airline, "sell_seats", {
      flight_id: "F1",
      fare_class: "economy",
      quantity: 4,
      reason: "web",
    });
    expect(seatsOf(after)).toEqual({ economy: 6, business: 2 });
    expect(seatsOf(after, "F2")).toEqual({ economy: 0, business: 4 });
    expect(report.notes).toContain("takes quantity from seats[fare_class]");
  });

  it("refuses to sell more seats than are left, with an error it adds, down to zero allowed", async () => {
    const sell = (quantity: number) =>
      call(airline, "sell_seats", { flight_id: "F1", fare_class: "business", quantity, reason: "desk" });
    expect(seatsOf((await sell(2)).after)).toEqual({ economy: 10, business: 0 });
    const refused = await sell(3);
    expect(failure(refused.outcome)).toBe("INSUFFICIENT_SEATS");
    expect(refused.tool.errors.find((e) => e.code === "INSUFFICIENT_SEATS")).toEqual({
      code: "INSUFFICIENT_SEATS",
      status: 409,
      message: "Not enough seats for this.",
      when: "The count would fall below zero (inferred from the tool's verb).",
    });
  });

  it("refuses to sell seats of a fare class the flight does not have", async () => {
    const { outcome } = await call(airline, "sell_seats", {
      flight_id: "F1",
      fare_class: "first",
      quantity: 1,
      reason: "web",
    });
    expect(failure(outcome)).toBe("FARE_CLASS_NOT_FOUND");
  });

  it("adds seats, starting a count for a fare class the flight did not have", async () => {
    const added = await call(airline, "add_seats", { flight_id: "F1", fare_class: "economy", quantity: 5 });
    expect(seatsOf(added.after)).toEqual({ economy: 15, business: 2 });
    const started = await call(airline, "add_seats", { flight_id: "F1", fare_class: "premium", quantity: 2 });
    expect(seatsOf(started.after)).toEqual({ economy: 10, business: 2, premium: 2 });
    expect(started.report.notes).toContain("adds quantity to seats[fare_class]");
  });

  it("refuses to add to a key the record lacks where a not-found error for it is documented", async () => {
    const { outcome } = await call(airline, "increase_seats", {
      flight_id: "F1",
      fare_class: "premium",
      quantity: 2,
    });
    expect(failure(outcome)).toBe("FARE_CLASS_NOT_FOUND");
    const known = await call(airline, "increase_seats", {
      flight_id: "F1",
      fare_class: "business",
      quantity: 2,
    });
    expect(seatsOf(known.after)).toEqual({ economy: 10, business: 4 });
  });

  it("sets a count to the value given", async () => {
    const { after } = await call(airline, "set_seats", { flight_id: "F2", fare_class: "economy", seats: 7 });
    expect(seatsOf(after, "F2")).toEqual({ economy: 7, business: 4 });
    expect(
      failure((await call(airline, "set_seats", { flight_id: "F2", fare_class: "first", seats: 1 })).outcome),
    ).toBe("FARE_CLASS_NOT_FOUND");
  });

  it("adjusts a count by a signed delta, refusing one below zero with the documented error", async () => {
    const adjust = (delta: number) =>
      call(airline, "adjust_seats", { flight_id: "F1", fare_class: "economy", delta });
    expect(seatsOf((await adjust(-4)).after)?.economy).toBe(6);
    expect(seatsOf((await adjust(3)).after)?.economy).toBe(13);
    expect(failure((await adjust(-11)).outcome)).toBe("NEGATIVE_SEATS");
    expect((await adjust(1)).report.gaps).toEqual([]);
  });

  it("reads an amount its description calls signed as a change, not a new value", async () => {
    const { after } = await call(airline, "update_seats", {
      flight_id: "F1",
      fare_class: "business",
      amount: -1,
    });
    expect(seatsOf(after)).toEqual({ economy: 10, business: 1 });
  });

  it("takes the amount by its name among several numbers, from the map the tool names", async () => {
    const { after } = await call(airline, "use_meals", {
      flight_id: "F1",
      kind: "fish",
      quantity: 2,
      price: 9.5,
    });
    const flight = (after.flights as Flights).F1;
    expect(flight?.meals).toEqual({ veg: 4, fish: 4 });
    expect(flight?.seats).toEqual({ economy: 10, business: 2 });
  });

  it("finds the map whose keys the argument's examples use when the tool names none", async () => {
    const { after } = await call(airline, "sell_tickets", {
      flight_id: "F2",
      cabin: "business",
      quantity: 3,
    });
    expect(seatsOf(after, "F2")).toEqual({ economy: 0, business: 1 });
  });
});

describe("which map, and setting with a floor", () => {
  it("finds the map whose keys another collection's records use for the argument's name", async () => {
    const { after } = await call(airline, "sell_fares", {
      flight_id: "F1",
      fare_class: "economy",
      quantity: 1,
    });
    expect(seatsOf(after)).toEqual({ economy: 9, business: 2 });
  });

  it("sets a count from an update, and refuses a negative one where an error says it cannot be", async () => {
    const updated = await call(airline, "update_meals", { flight_id: "F2", kind: "veg", count: 5 });
    expect((updated.after.flights as Flights).F2?.meals).toEqual({ veg: 5, fish: 1 });
    const set = await call(airline, "set_meals", { flight_id: "F2", kind: "fish", count: 0 });
    expect((set.after.flights as Flights).F2?.meals).toEqual({ veg: 1, fish: 0 });
    expect(
      failure((await call(airline, "set_meals", { flight_id: "F2", kind: "fish", count: -1 })).outcome),
    ).toBe("NEGATIVE_MEALS");
  });
});

describe("moving an amount from one key to another", () => {
  const move = (from_class: string, to_class: string, quantity: number) =>
    call(airline, "move_seats", { flight_id: "F1", from_class, to_class, quantity });

  it("moves seats between fare classes and logs the move under the next change id", async () => {
    const { after, answer, report } = await move("economy", "business", 3);
    expect(seatsOf(after)).toEqual({ economy: 7, business: 5 });
    expect(answer).toMatchObject({ change_id: "C-0002" });
    expect((after.changes as Record<string, unknown>)["C-0002"]).toEqual({
      change_id: "C-0002",
      flight_id: "F1",
      from_class: "economy",
      to_class: "business",
      quantity: 3,
    });
    expect(report.notes).toContain("moves quantity of seats from from_class to to_class");
    expect(report.notes).toContain("logs the change in changes");
  });

  it("moves into a fare class that had no count", async () => {
    expect(seatsOf((await move("business", "premium", 2)).after)).toEqual({
      economy: 10,
      business: 0,
      premium: 2,
    });
  });

  it("refuses to move more than the source holds, or from a key it lacks, and changes nothing", async () => {
    const tooMany = await move("business", "economy", 3);
    expect(failure(tooMany.outcome)).toBe("INSUFFICIENT_SEATS");
    expect(seatsOf(tooMany.after)).toEqual({ economy: 10, business: 2 });
    expect(failure((await move("first", "economy", 1)).outcome)).toBe("CLASS_NOT_FOUND");
  });
});

describe("what is no tally", () => {
  it("takes no map of counts that the tool neither speaks of nor keys", () => {
    const { report } = inferred(airline, "add_seats");
    expect(report.notes.some((n) => n.includes("meals"))).toBe(false);
  });
});
