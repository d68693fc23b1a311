import { describe, expect, it } from "vitest";
import { expectError, expectGrounded, expectOk, useDomain } from "./support/domain-session.js";

/**
 * A clinic's front desk whose collections are named for how they are kept
 * (`appointment_records`, `insurance_card_list`) while their ids are named for what they are
 * (`appointment_id`, `card_id`). Served without effects.
 */

const desk = useDomain("clinic.json");

describe("a clinic desk: collections named for how they keep, ids for what they keep", () => {
  it("a booking answers the id its record is kept under, in the ids' format, and a read finds it", async () => {
    const booked = await desk.call("book_appointment", {
      patient: "Ana Sousa",
      doctor: "Dr. Okafor",
      date: "2026-04-09",
    });
    const id = expectOk(booked).appointment_id;
    expect.soft(id).toBe("A-1003");
    expectGrounded(booked, ["appointment_id", "date"]);
    expect
      .soft(expectOk(await desk.call("get_visit_summary", { appointment_id: id })).summary)
      .toMatchObject({
        patient: "Ana Sousa",
        doctor: "Dr. Okafor",
        date: "2026-04-09",
      });
  });

  it("an optional id is still the record the tool reads", async () => {
    expect
      .soft(expectOk(await desk.call("get_visit_summary", { appointment_id: "A-1002" })).summary)
      .toMatchObject({
        patient: "Tom Ruiz",
        doctor: "Dr. Lindqvist",
        date: "2026-04-03",
      });
    expectError(await desk.call("get_visit_summary", { appointment_id: "A-9999" }), "APPOINTMENT_NOT_FOUND");
  });

  it("a card kept in a list is answered by its head noun's id, and read back by it", async () => {
    const added = await desk.call("add_insurance_card", {
      holder: "Tom Ruiz",
      insurer: "Fidelis",
      number: "31-7",
    });
    const card_id = expectOk(added).card_id;
    expect.soft(card_id).toBe("IC-08");
    expectGrounded(added, ["card_id"]);
    expect.soft(expectOk(await desk.call("get_insurance_card", { card_id }))).toMatchObject({
      holder: "Tom Ruiz",
      insurer: "Fidelis",
      number: "31-7",
    });
  });

  it("a list answered as an object is the cards keyed as they are kept", async () => {
    const cards = expectOk(await desk.call("list_insurance_cards")).insurance_cards;
    expect
      .soft(cards)
      .toMatchObject({ "IC-07": { holder: "Iris Vega", insurer: "Mutua", number: "88-1200-4" } });
    expect.soft(Object.keys(cards as object)).toEqual(["IC-07"]);
  });

  it("a booking keeps the card it names, which must be on file", async () => {
    const booked = await desk.call("book_appointment", {
      patient: "Iris Vega",
      doctor: "Dr. Okafor",
      date: "2026-05-01",
      card_id: "IC-07",
    });
    const appointment_id = expectOk(booked).appointment_id;
    const state = expectOk(
      await desk.call("sim_get_state", { path: `/clinic/appointment_records/${appointment_id}` }),
    );
    expect.soft(state.value).toMatchObject({ patient: "Iris Vega", card_id: "IC-07" });
    expect.soft(appointment_id).toBe("A-1003");
    expectError(
      await desk.call("book_appointment", {
        patient: "X",
        doctor: "Dr. Okafor",
        date: "2026-05-02",
        card_id: "IC-99",
      }),
      "INSURANCE_CARD_NOT_FOUND",
    );
  });

  it("a new appointment starts in the first status of its lifecycle that the schema lists", async () => {
    const booked = expectOk(
      await desk.call("book_appointment", {
        patient: "Lea Park",
        doctor: "Dr. Lindqvist",
        date: "2026-05-03",
      }),
    );
    // the records show only where appointments end; the enum says where they begin
    expect.soft(booked.status).toBe("requested");
  });
});
