import { describe, expect, it } from "vitest";
import { bool, call, error, failure, integer, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * A desk lamp whose whole state is one flat record, driven by tools named after the product
 * (`lumo_…`): settings an argument is said to be kept in, and a level set outright or moved by
 * a step within a range.
 */

const lamp = () => ({
  serial: "L-20",
  lit: false,
  brightness: 40,
  color_temp_k: 4000,
  linked_hub: null,
});

const tools = () => [
  tool("lumo_get_state", "The lamp's settings.", {}, [], [], outputs({ lit: bool, brightness: integer })),
  tool(
    "lumo_switch",
    "Switches the lamp on (`on`: true) or off (`on`: false) by setting `lit`. Answers lit.",
    { on: bool },
    ["on"],
    [],
    outputs({ lit: bool }),
  ),
  tool(
    "lumo_set_brightness",
    "Sets the brightness. `level` is the new absolute value; `step` is a signed amount added to the current brightness, and the result is clamped to 0..100. Answers brightness.",
    { level: integer, step: integer },
    [],
    [],
    outputs({ brightness: integer }),
  ),
  tool(
    "lumo_link_hub",
    "Links the lamp to a hub, storing `hub_name` (as given) in linked_hub. Answers linked_hub.",
    { hub_name: text },
    ["hub_name"],
    [],
    outputs({ linked_hub: text }),
  ),
  tool(
    "lumo_warm",
    "Sets color_temp_k to `kelvin`. Answers color_temp_k.",
    { kelvin: integer },
    ["kelvin"],
    [],
    outputs({ color_temp_k: integer }),
  ),
];

describe("a one-record device whose tools carry the product's name", () => {
  it("reads the verb after the product's name", async () => {
    const read = await call(world(lamp(), tools()), "lumo_get_state", {});
    expect(read.answer).toEqual({ lit: false, brightness: 40 });
    expect(read.report.verdict).toBe("inferred");
    // a verb toolsim does not know is named as the verb, not the product
    const linked = await call(world(lamp(), tools()), "lumo_link_hub", { hub_name: "Den" });
    expect(linked.report.gaps.join(" ")).toContain("its verb (link)");
  });

  it("sets a level outright, or moves it by a step kept in range", async () => {
    const toolset = world(lamp(), tools());
    const outright = await call(toolset, "lumo_set_brightness", { level: 75 });
    expect(outright.after.brightness).toBe(75);
    expect(outright.answer).toEqual({ brightness: 75 });
    const up = await call(toolset, "lumo_set_brightness", { step: 15 });
    expect(up.after.brightness).toBe(55);
    const past = await call(toolset, "lumo_set_brightness", { step: 90 });
    expect(past.after.brightness).toBe(100);
    const below = await call(toolset, "lumo_set_brightness", { step: -70 });
    expect(below.after.brightness).toBe(0);
    expect(up.report.verdict).toBe("inferred");
  });

  it("keeps an argument where the docs say: by setting a field, storing it in one, or setting one to it", async () => {
    const toolset = world(lamp(), tools());
    const on = await call(toolset, "lumo_switch", { on: true });
    expect(on.after.lit).toBe(true);
    expect(on.answer).toEqual({ lit: true });
    const linked = await call(toolset, "lumo_link_hub", { hub_name: "Study hub" });
    expect(linked.after.linked_hub).toBe("Study hub");
    expect(linked.answer).toEqual({ linked_hub: "Study hub" });
    const warm = await call(toolset, "lumo_warm", { kelvin: 2700 });
    expect(warm.after.color_temp_k).toBe(2700);
    expect(warm.after.brightness).toBe(40);
  });
});

describe("a device kept as settings beside readings", () => {
  it("answers a status from both records: each field from the one that keeps it", async () => {
    const aquariumHeater = () => ({
      settings: { power: true, target_c: 25, mode: "eco" },
      readings: { water_c: 23.5, heating: true },
    });
    const status = tool(
      "heater_get_status",
      "The heater's status: power, mode and target_c from the settings, water_c and heating from the readings.",
      {},
      [],
      [],
      outputs({ power: bool, mode: text, target_c: integer, water_c: { type: "number" }, heating: bool }),
    );
    const read = await call(world(aquariumHeater(), [status]), "heater_get_status", {});
    expect(read.answer).toMatchObject({
      power: true,
      mode: "eco",
      target_c: 25,
      water_c: 23.5,
      heating: true,
    });
    expect(read.report.grounded).toEqual(expect.arrayContaining(["water_c", "heating"]));
  });
});

describe("a level moved a step by a word that says which way", () => {
  const fan = (mode = "normal", speed = 2) => ({ fan: { speed, mode, locked: false } });
  const step = tool(
    "fan_step",
    'Nudges fan.speed (1..4) by one, up or down as direction says ("up" or "down"). Returns previous and speed. Errors in order: BAD_DIRECTION if direction is not "up" or "down"; NIGHT_MODE if fan.mode is "night"; AT_LIMIT if the step would leave 1..4.',
    { direction: text },
    ["direction"],
    [
      error("BAD_DIRECTION", "Bad direction.", 'direction is not "up" or "down"'),
      error("NIGHT_MODE", "Night mode.", 'fan.mode is "night"', 409),
      error("AT_LIMIT", "At the limit.", "stepping up from 4 or down from 1", 409),
    ],
    outputs({ previous: integer, speed: integer }),
  );

  it("adds or takes one, answering the level before and after", async () => {
    const up = await call(world(fan(), [step]), "fan_step", { direction: "up" });
    expect(up.answer).toEqual({ previous: 2, speed: 3 });
    const down = await call(world(fan(), [step]), "fan_step", { direction: "down" });
    expect((down.after.fan as { speed: number }).speed).toBe(1);
  });

  it("refuses a word that is no direction, a mode the docs name, and a step past the bounds", async () => {
    const refused = async (args: Record<string, unknown>, state = fan()) =>
      failure((await call(world(fan(), [step]), "fan_step", args, state)).outcome);
    expect(await refused({ direction: "sideways" })).toBe("BAD_DIRECTION");
    expect(await refused({ direction: "up" }, fan("night"))).toBe("NIGHT_MODE");
    expect(await refused({ direction: "up" }, fan("normal", 4))).toBe("AT_LIMIT");
    expect(await refused({ direction: "down" }, fan("normal", 1))).toBe("AT_LIMIT");
  });
});
