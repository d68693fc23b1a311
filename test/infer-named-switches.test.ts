import { describe, expect, it } from "vitest";
import { bool, call, error, failure, outputs, text, tool, world } from "./support/infer-world.js";

/** A boat's switchboard: one toggle whose argument names which switch it flips. */

const boat = () => ({
  boat: { name: "Tern", nav_lights: false, bilge_pump: true, anchor_light: false, knots: 4 },
});

describe("a toggle that names its switch", () => {
  it("flips the switch named, answers its new value, and refuses a name that is no switch", async () => {
    const toggle = tool(
      "boat_toggle",
      'Toggles the switch named by switch ("nav_lights", "bilge_pump" or "anchor_light"). Returns switch and value (the new boolean). Errors: UNKNOWN_SWITCH if switch is not one of the three names.',
      { switch: text },
      ["switch"],
      [error("UNKNOWN_SWITCH", "Unknown switch.", "switch is not one of the three names")],
      outputs({ switch: text, value: bool }),
    );
    const toolset = world(boat(), [toggle]);
    const on = await call(toolset, "boat_toggle", { switch: "nav_lights" });
    expect(on.answer).toEqual({ switch: "nav_lights", value: true });
    expect(on.after.boat).toEqual({ ...boat().boat, nav_lights: true });
    const off = await call(toolset, "boat_toggle", { switch: "bilge_pump" });
    expect(off.answer).toEqual({ switch: "bilge_pump", value: false });
    expect(failure((await call(toolset, "boat_toggle", { switch: "knots" })).outcome)).toBe("UNKNOWN_SWITCH");
  });
});
