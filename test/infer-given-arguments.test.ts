import { describe, expect, it } from "vitest";
import { call, failure, inferred, integer, tool, world } from "./support/infer-world.js";

/**
 * A heating schedule whose calls take optional arguments: at least one must come, or exactly one
 * of two, and a number must be above a least value "(else CODE)".
 */

const heating = () => ({
  target_c: 20,
  slots: [
    { slot_id: 1, start_hour: 6, hours: 3 },
    { slot_id: 2, start_hour: 17, hours: 5 },
  ],
});

const editSlot = tool(
  "edit_slot",
  "Corrects a slot: any of start_hour, hours that are given replace the stored values; others are kept (slot_id cannot be changed). Returns the full updated slot. Errors, checked in this order: SLOT_NOT_FOUND; NOTHING_TO_CHANGE if none of the fields is given; then hours must be an integer greater than 0 (else INVALID_HOURS); start_hour must be an integer from 0 to 23 (else INVALID_START) (checked only for fields given).",
  { slot_id: integer, start_hour: integer, hours: integer },
  ["slot_id"],
);

const setTarget = tool(
  "set_target",
  "Sets the target temperature: `celsius` outright, or `offset` added to the current target_c. BAD_REQUEST if both or neither of celsius/offset are given.",
  { celsius: integer, offset: integer },
  [],
);

describe("optional arguments the docs say must come", () => {
  it("refuses a call given none of them, and a number not above its least value", async () => {
    const schedule = world(heating(), [editSlot]);
    expect(failure((await call(schedule, "edit_slot", { slot_id: 1 })).outcome)).toBe("NOTHING_TO_CHANGE");
    expect(failure((await call(schedule, "edit_slot", { slot_id: 1, hours: 0 })).outcome)).toBe(
      "INVALID_HOURS",
    );
    const edited = await call(schedule, "edit_slot", { slot_id: 2, hours: 4 });
    expect(edited.outcome.status).toBe("applied");
    expect(edited.after).toMatchObject({ slots: [{ hours: 3 }, { slot_id: 2, start_hour: 17, hours: 4 }] });
  });

  it("reads a condition to the end of its clause, not into the next requirement", () => {
    const { tool: edit } = inferred(world(heating(), [editSlot]), "edit_slot");
    expect(edit.errors.find((e) => e.code === "NOTHING_TO_CHANGE")?.when).toBe("none of the fields is given");
  });

  it("refuses both or neither of two where exactly one must come", async () => {
    const thermostat = world(heating(), [setTarget]);
    expect(failure((await call(thermostat, "set_target", {})).outcome)).toBe("BAD_REQUEST");
    expect(failure((await call(thermostat, "set_target", { celsius: 21, offset: 1 })).outcome)).toBe(
      "BAD_REQUEST",
    );
    const outright = await call(thermostat, "set_target", { celsius: 22 });
    expect(outright.after.target_c).toBe(22);
    const nudged = await call(thermostat, "set_target", { offset: -2 });
    expect(nudged.after.target_c).toBe(18);
  });
});
