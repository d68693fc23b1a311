import { describe, expect, it } from "vitest";
import { call, error, failure, integer, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Something priced per unit (a bike's `daily_rate`) taken for a count the call gives (`days`):
 * the new record's total is the rate times the count, the world's one account pays it, a
 * documented error refuses what the account cannot pay or what has run out, and a cancel that
 * says the money goes back returns the total to the account.
 */

/** A bike-share depot: bikes by id with a rate and a count left, one rider's wallet, rentals. */
const depot = (wallet = 50): State => ({
  rider: { name: "Ilse", wallet_balance: wallet },
  bikes: {
    B1: { model: "Cargo", daily_rate: 15, left: 1 },
    B2: { model: "Road", daily_rate: 9, left: 0 },
  },
  rentals: { "RN-1": { bike_id: "B2", days: 1, total: 9, status: "active" } },
});
const rent = tool(
  "rent_bike",
  "Rent a bike for some days; the total is paid from the rider's wallet.",
  { bike_id: text, days: integer },
  ["bike_id", "days"],
  [
    error("NONE_LEFT", "No bikes of this kind left.", "the depot has no bikes of this kind left", 409),
    error("INSUFFICIENT_FUNDS", "The wallet cannot pay.", "the wallet balance is below the total", 402),
  ],
);
const cancel = tool("cancel_rental", "Cancel a rental; its total goes back to the wallet.", {
  rental_id: text,
});
const rider = (after: State) => after.rider as { wallet_balance: number };

describe("a rental priced per day", () => {
  it("costs the rate times the days, paid from the wallet, and takes one bike", async () => {
    const { after, report } = await call(world(depot(), [rent, cancel]), "rent_bike", {
      bike_id: "B1",
      days: 3,
    });
    const rentals = after.rentals as Record<string, State>;
    const made = Object.entries(rentals).find(([key]) => key !== "RN-1")?.[1];
    expect(made).toMatchObject({ bike_id: "B1", days: 3, total: 45 });
    expect(rider(after).wallet_balance).toBe(5);
    expect((after.bikes as Record<string, State>).B1?.left).toBe(0);
    expect(report.notes).toContain("sets total to the bike's daily_rate times days");
    expect(report.notes).toContain(
      "charges daily_rate times days to rider.wallet_balance, refusing more than it holds (INSUFFICIENT_FUNDS)",
    );
    expect(report.gaps.join(" ")).not.toMatch(/NONE_LEFT|INSUFFICIENT_FUNDS/);
  });

  it("refuses what the wallet cannot pay, and what has run out, with the documented errors", async () => {
    const poor = await call(world(depot(20), [rent, cancel]), "rent_bike", { bike_id: "B1", days: 2 });
    expect(failure(poor.outcome)).toBe("INSUFFICIENT_FUNDS");
    expect(rider(poor.after).wallet_balance).toBe(20);
    const gone = await call(world(depot(), [rent, cancel]), "rent_bike", { bike_id: "B2", days: 1 });
    expect(failure(gone.outcome)).toBe("NONE_LEFT");
  });

  it("a cancel that gives the money back returns the total to the wallet", async () => {
    const { after, report } = await call(world(depot(), [rent, cancel]), "cancel_rental", {
      rental_id: "RN-1",
    });
    expect(rider(after).wallet_balance).toBe(59);
    expect(report.notes).toContain("refunds total to rider.wallet_balance");
  });

  it("without a count argument, no total is made up", async () => {
    const once = tool("rent_bike", "Rent a bike; paid from the wallet.", { bike_id: text });
    const { after } = await call(world(depot(), [once]), "rent_bike", { bike_id: "B1" });
    expect(rider(after).wallet_balance).toBe(50);
  });
});

describe("a verb that takes something that exists", () => {
  it("renting or reserving a bike by its id makes no bike, and refuses an unknown one", async () => {
    const garage = { bikes: { B1: { model: "Cargo" } }, journeys: {} };
    for (const name of ["rent_bike", "reserve_bike", "book_bike"]) {
      const take = tool(name, "Take a bike for the day.", { bike_id: text });
      const { after, report } = await call(world(garage, [take]), name, { bike_id: "B1" });
      expect(Object.keys(after.bikes as object), name).toEqual(["B1"]);
      expect(report.verdict, name).toBe("partly");
      expect(report.gaps.join(" "), name).toMatch(
        /where it keeps the (rental|reservation|booking) it makes is not inferred/,
      );
      const unknown = await call(world(garage, [take]), name, { bike_id: "B9" });
      expect(failure(unknown.outcome), name).toBe("BIKE_NOT_FOUND");
    }
  });
});
