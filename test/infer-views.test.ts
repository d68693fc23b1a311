import { describe, expect, it } from "vitest";
import { describesOutcome } from "../src/infer/index.js";
import {
  call,
  error,
  failure,
  number,
  offlineAnswer,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * What a call answers once its effects ran, as `serve --engine offline` answers it: fields an
 * answer names by the record's noun, answers documented narrower than the record, confirmations
 * that share an argument's name, purchases of things the state keeps nowhere, and cancels of
 * records that keep no status (docs/inference.md).
 */

type Row = Record<string, unknown>;

const output = (properties: Row) => ({ outputSchema: { type: "object", properties } });

/** A garage: parked vehicles and the payment cards of their owners, a card with a limit beside its balance. */
const garage = (): State => ({
  vehicles: {
    "V-1": { vehicle_id: "V-1", plate: "KA-1234", owner: "Ana", mileage: 48210 },
    "V-2": { vehicle_id: "V-2", plate: "KB-9876", owner: "Ben", mileage: 9100 },
  },
  payment_cards: {
    "PC-1": { holder: "Ana", card_number: "4000 0000 0000 0001", balance: 50, credit_limit: 200 },
    "PC-2": { holder: "Ben", card_number: "4000 0000 0000 0002", balance: 5, credit_limit: 100 },
  },
});

/** Runs a tool of a world and answers as the offline engine does: the answer, the state after, the report. */
async function answered(tools: unknown[], name: string, args: Row, state: State = garage()) {
  const ran = await call(world(state, tools), name, args);
  const simulated = offlineAnswer(ran, args);
  return {
    ...ran,
    result: simulated.kind === "success" ? (simulated.result as Row) : undefined,
    guessed: simulated.kind === "success" ? (simulated.guessed ?? []) : [],
  };
}

describe("an answer that names a record's field by the record's noun", () => {
  const mileage = tool(
    "get_vehicle_mileage",
    "Show how far a parked vehicle has been driven.",
    { vehicle_id: text },
    undefined,
    [],
    output({ vehicle_mileage: number }),
  );

  it("answers the field, and only what the answer documents", async () => {
    const { result, report, guessed } = await answered([mileage], "get_vehicle_mileage", {
      vehicle_id: "V-1",
    });
    expect(result).toEqual({ vehicle_mileage: 48210 });
    expect(report.grounded).toEqual(["vehicle_mileage"]);
    expect(report.verdict).toBe("inferred");
    expect(guessed).toEqual([]);
  });

  it("answers nothing for a field of another type, and leaves it to synthesis", async () => {
    const typed = tool(
      "get_vehicle_mileage",
      "Show how far a parked vehicle has been driven.",
      { vehicle_id: text },
      undefined,
      [],
      output({ vehicle_mileage: text }),
    );
    const { report } = await answered([typed], "get_vehicle_mileage", { vehicle_id: "V-1" });
    expect(report.guessed).toEqual(["vehicle_mileage"]);
  });
});

describe("an answer documented narrower or wider than the record it comes from", () => {
  it("a new card answers the id it documents, not the card", async () => {
    const register = tool(
      "register_payment_card",
      "Register a payment card.",
      { holder: text, card_number: text },
      undefined,
      [],
      output({ card_id: text }),
    );
    const { result, after } = await answered([register], "register_payment_card", {
      holder: "Cleo",
      card_number: "4000 0000 0000 0003",
    });
    const id = String(result?.card_id);
    expect(Object.keys(result ?? {})).toEqual(["card_id"]);
    expect((after.payment_cards as Record<string, Row>)[id]).toMatchObject({ holder: "Cleo" });
  });

  it("a vehicle documented by most of its fields answers the rest too", async () => {
    const read = tool(
      "get_vehicle",
      "Show a parked vehicle.",
      { vehicle_id: text },
      undefined,
      [],
      output({ vehicle_id: text, plate: text, owner: text }),
    );
    const { result } = await answered([read], "get_vehicle", { vehicle_id: "V-2" });
    expect(result).toEqual({ vehicle_id: "V-2", plate: "KB-9876", owner: "Ben", mileage: 9100 });
  });
});

describe("an answer's message that shares the name of an argument", () => {
  const notify = (description: string) =>
    tool(
      "send_notice",
      "Send a notice to the owner of a vehicle.",
      { vehicle_id: text, message: text },
      undefined,
      [],
      output({ sent: { type: "boolean" }, message: { type: "string", description } }),
    );

  it("confirms the call where it says it describes the result, and is a guess", async () => {
    const { result, guessed, report } = await answered(
      [notify("A text describing the result of the notice sent.")],
      "send_notice",
      { vehicle_id: "V-1", message: "Your lights are on." },
    );
    expect(result?.message).not.toBe("Your lights are on.");
    expect(result?.message).toMatch(/successfully$/);
    expect(guessed).toContain("message");
    expect(report.grounded).not.toContain("message");
  });

  it("repeats the argument where it says it is the message sent", async () => {
    const { result, report } = await answered([notify("The notice as it was sent.")], "send_notice", {
      vehicle_id: "V-1",
      message: "Your lights are on.",
    });
    expect(result?.message).toBe("Your lights are on.");
    expect(report.grounded).toContain("message");
  });
});

describe("which descriptions say an output reports how the call went", () => {
  it("hears the result, the outcome, an action's status and a confirmation, not a record's status", () => {
    const said = [
      "A text describing the result of the upload.",
      "The outcome of the transfer.",
      "Status of the towing action.",
      "A confirmation that the pass was bought.",
    ];
    const notSaid = [
      "Status of the order.",
      "The message as it was sent.",
      "Whether the booking is confirmed.",
      "",
    ];
    for (const text of said) expect(describesOutcome(text), text).toBe(true);
    for (const text of notSaid) expect(describesOutcome(text), text).toBe(false);
    expect(describesOutcome(undefined)).toBe(false);
  });
});

describe("a purchase of something the state keeps nowhere", () => {
  const buy = tool(
    "purchase_parking_pass",
    "Purchase a parking pass for a vehicle, paid with a payment card.",
    { vehicle_id: text, card_id: text, pass_cost: number },
    undefined,
    [
      error("VEHICLE_NOT_FOUND", "No such vehicle.", "No vehicle has the given id.", 404),
      error("CARD_NOT_FOUND", "No such card.", "No payment card has the given id.", 404),
    ],
    output({ pass_id: text, purchase_status: { type: "boolean" } }),
  );

  it("pays from the card's balance, not its limit, and reports where the pass is kept as not inferred", async () => {
    const { result, after, report } = await answered([buy], "purchase_parking_pass", {
      vehicle_id: "V-1",
      card_id: "PC-1",
      pass_cost: 12,
    });
    expect((after.payment_cards as Record<string, Row>)["PC-1"]).toMatchObject({
      balance: 38,
      credit_limit: 200,
    });
    expect(result?.purchase_status).toBe(true);
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(/where it keeps the parking pass it makes is not inferred/);
  });

  it("answers the not-found error of each record it names, and changes nothing", async () => {
    const vehicle = await answered([buy], "purchase_parking_pass", {
      vehicle_id: "V-9",
      card_id: "PC-1",
      pass_cost: 12,
    });
    expect(failure(vehicle.outcome)).toBe("VEHICLE_NOT_FOUND");
    const card = await answered([buy], "purchase_parking_pass", {
      vehicle_id: "V-1",
      card_id: "PC-9",
      pass_cost: 12,
    });
    expect(failure(card.outcome)).toBe("CARD_NOT_FOUND");
    expect(card.after).toEqual(garage());
  });
});

describe("a field whose values only look like another collection's keys", () => {
  /** Rentals paid with cards keyed by digits, and a payment reference that happens to be digits too. */
  const rentals = (): State => ({
    cards: { "90210": { holder: "Ana", balance: 80 } },
    rentals: {
      "RN-1": { rental_id: "RN-1", vehicle: "bike", card_id: "90210", payment_ref: "90210" },
    },
  });

  it("refers to it only where the field is named for it: a new rental keeps the card as card_id", async () => {
    const rent = tool("create_rental", "Rent a vehicle with a card.", { card_id: text, vehicle: text });
    const { after } = await call(world(rentals(), [rent]), "create_rental", {
      card_id: "90210",
      vehicle: "scooter",
    });
    const made = Object.values(after.rentals as Record<string, Row>).find((r) => r.vehicle === "scooter");
    expect(made).toMatchObject({ card_id: "90210" });
    expect(made?.payment_ref).toBeUndefined();
  });
});

describe("a cancel of records that keep no status", () => {
  it("marks the record cancelled and says it may as well have been removed", async () => {
    const cancel = tool("cancel_vehicle", "Cancel a vehicle's parking.", { vehicle_id: text });
    const { after, report } = await call(world(garage(), [cancel]), "cancel_vehicle", { vehicle_id: "V-1" });
    expect((after.vehicles as Record<string, Row>)["V-1"]).toMatchObject({ status: "cancelled" });
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(/keep no status: whether "cancel" keeps the record/);
  });
});
