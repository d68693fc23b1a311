import { describe, expect, it } from "vitest";
import { call, failure, integer, outputs, tool, world } from "./support/infer-world.js";

/** A coffee grinder: one device's settings, a lock flag named as a participle; its errors are told in its tool's description. */
const grinder = (locked = false) => ({ grind_size: 12, hopper_g: 250, locked });

const setGrind = tool(
  "grinder_set_grind",
  "Sets the grind size. GRIND_OUT_OF_RANGE when grind_size is below 1 or above 40; GRINDER_LOCKED while the child lock is engaged. Returns the new grind_size.",
  { grind_size: integer },
  ["grind_size"],
  [],
  outputs({ grind_size: integer }),
);

describe("the conditions of a device's documented errors", () => {
  it("checks the value given against a range named after the field it sets, not the value held", async () => {
    const far = await call(world(grinder(), [setGrind]), "grinder_set_grind", { grind_size: 50 });
    expect(failure(far.outcome)).toBe("GRIND_OUT_OF_RANGE");
    expect(far.after.grind_size).toBe(12);
    const fine = await call(world(grinder(), [setGrind]), "grinder_set_grind", { grind_size: 20 });
    expect(fine.after.grind_size).toBe(20);
  });

  it("refuses while a flag named by its participle is set, read from a code given 'while' its case", async () => {
    const locked = await call(world(grinder(true), [setGrind]), "grinder_set_grind", { grind_size: 20 });
    expect(failure(locked.outcome)).toBe("GRINDER_LOCKED");
    expect(locked.after.grind_size).toBe(12);
  });

  it("reads a code given 'while' its case as an error where the sentence says nothing else of failing", async () => {
    const dose = tool(
      "grinder_set_dose",
      "Sets dose_g. GRINDER_LOCKED while the child lock is engaged.",
      { dose_g: integer },
      ["dose_g"],
      [],
      outputs({ dose_g: integer }),
    );
    const locked = await call(world({ ...grinder(true), dose_g: 18 }, [dose]), "grinder_set_dose", {
      dose_g: 20,
    });
    expect(failure(locked.outcome)).toBe("GRINDER_LOCKED");
  });
});

/** A smart plug: one device, its tools named after the product as MCP servers name theirs. */
const plug = () => ({ powered: false, watts: 0, timer_minutes: 0 });

const plugTools = [
  tool(
    "plug_get_status",
    "The plug's powered flag and its watts.",
    {},
    [],
    [],
    outputs({ powered: { type: "boolean" }, watts: integer }),
  ),
  tool(
    "plug_send_command",
    'command is "on" or "off"; on sets powered to true, off sets it to false. Returns powered.',
    { command: { type: "string", enum: ["on", "off"] } },
    ["command"],
    [],
    outputs({ powered: { type: "boolean" } }),
  ),
  tool("plug_set_timer", "Sets timer_minutes.", { timer_minutes: integer }),
];

describe("commands of named choices", () => {
  it("sets a field by the choice given, each as the docs say", async () => {
    const on = await call(world(plug(), plugTools), "plug_send_command", { command: "on" });
    expect(on.after.powered).toBe(true);
    expect(on.answer).toEqual({ powered: true });
    const off = await call(
      world(plug(), plugTools),
      "plug_send_command",
      { command: "off" },
      {
        ...plug(),
        powered: true,
      },
    );
    expect(off.after.powered).toBe(false);
  });
});

describe("a secret the state keeps", () => {
  const safe = () => ({ locked: true, door_code: "9931", opens: 4 });
  const unlock = tool(
    "safe_set_lock",
    "Locks or unlocks the safe: locked takes the value given. If code does not match the stored door code, the call fails with WRONG_CODE and nothing changes.",
    { locked: { type: "boolean" }, code: { type: "string" } },
    ["locked", "code"],
    [],
    outputs({ locked: { type: "boolean" } }),
  );

  it("refuses an argument that does not match it, and takes one that does", async () => {
    const wrong = await call(world(safe(), [unlock]), "safe_set_lock", { locked: false, code: "0000" });
    expect(failure(wrong.outcome)).toBe("WRONG_CODE");
    expect(wrong.after.locked).toBe(true);
    const right = await call(world(safe(), [unlock]), "safe_set_lock", { locked: false, code: "9931" });
    expect(right.after.locked).toBe(false);
  });
});

describe("an amount the docs say is added to a number of the device", () => {
  it("moves that number, under a verb toolsim does not know", async () => {
    const nudge = tool(
      "grinder_turn_dial",
      "Turns the dial by a relative step: step is added to the current grind_size. Returns the resulting grind_size.",
      { step: integer },
      ["step"],
      [],
      outputs({ grind_size: integer }),
    );
    const finer = await call(world(grinder(), [nudge]), "grinder_turn_dial", { step: -3 });
    expect(finer.after.grind_size).toBe(9);
    expect(finer.answer).toEqual({ grind_size: 9 });
  });
});
