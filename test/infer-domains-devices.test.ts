import { describe, expect, it } from "vitest";
import { expectError, expectGrounded, expectOk, expectRecord, useDomain } from "./support/domain-session.js";

/**
 * An air purifier's local API whose whole state is the device: scalars for its modes, levels and
 * switches. Served without effects; inference must make reads answer the settings and writes
 * change them.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const device = useDomain("devices.json");

/** The device as the catalog's state holds it. */
const DEVICE = {
  device_id: "AP-7Q2",
  model: "Breeze 300",
  firmware: "3.2.1",
  power: "on",
  mode: "auto",
  fan_speed: 2,
  child_lock: false,
  display_brightness: 60,
  sleep_timer_minutes: 0,
  filter_life_percent: 37,
  pm25: 18,
};

const status = () => device.call("get_device_status");

describe("devices: one device's settings and readings, kept as the whole state", () => {
  it("the status answers every setting and reading the device holds, none of them guessed", async () => {
    const answer = await status();
    const { firmware, ...reported } = DEVICE;
    expectRecord(answer, reported, { firmware });
    expectGrounded(answer, [
      "device_id",
      "model",
      "power",
      "mode",
      "fan_speed",
      "child_lock",
      "display_brightness",
      "sleep_timer_minutes",
      "filter_life_percent",
      "pm25",
    ]);
  });

  it("a sensor read answers the reading the state holds", async () => {
    const answer = await device.call("get_air_quality");
    expectRecord(answer, { pm25: 18 }, DEVICE);
    expectGrounded(answer, ["pm25"]);
  });

  it("switching the power off is answered and seen by the status, and nothing else changes", async () => {
    const answer = await device.call("set_power", { power: "off" });
    expectRecord(answer, { power: "off" }, DEVICE);
    expectGrounded(answer, ["power"]);
    expect.soft(expectOk(await status())).toMatchObject({ power: "off", mode: "auto", fan_speed: 2 });
  });

  it("a mode set by name is the mode the status reports", async () => {
    expectRecord(await device.call("set_mode", { mode: "sleep" }), { mode: "sleep" }, DEVICE);
    expect.soft(expectOk(await status())).toMatchObject({ mode: "sleep" });
  });

  it("the fan speed is refused outside manual mode, as documented, and the level is kept", async () => {
    expectError(await device.call("set_fan_speed", { fan_speed: 4 }), "NOT_IN_MANUAL_MODE");
    expect.soft(expectOk(await status())).toMatchObject({ fan_speed: 2 });
  });

  it("in manual mode the fan speed is set and the status reports it", async () => {
    expectOk(await device.call("set_mode", { mode: "manual" }));
    const answer = await device.call("set_fan_speed", { fan_speed: 4 });
    expectRecord(answer, { fan_speed: 4 }, { ...DEVICE, mode: "manual" });
    expectGrounded(answer, ["fan_speed"]);
    expect.soft(expectOk(await status())).toMatchObject({ mode: "manual", fan_speed: 4 });
  });

  it("a toggle flips the switch each time it is called", async () => {
    const first = await device.call("toggle_child_lock");
    expectRecord(first, { child_lock: true }, DEVICE);
    expectGrounded(first, ["child_lock"]);
    expect.soft(expectOk(await status())).toMatchObject({ child_lock: true });
    expectRecord(await device.call("toggle_child_lock"), { child_lock: false }, DEVICE);
    expect.soft(expectOk(await status())).toMatchObject({ child_lock: false });
  });

  it("a level set to zero is stored as zero", async () => {
    expectRecord(
      await device.call("set_display_brightness", { display_brightness: 0 }),
      { display_brightness: 0 },
      DEVICE,
    );
    expect.soft(expectOk(await status())).toMatchObject({ display_brightness: 0 });
  });

  it("an argument named differently from the setting it sets (minutes → sleep_timer_minutes) sets it", async () => {
    const answer = await device.call("start_sleep_timer", { minutes: 90 });
    expectRecord(answer, { sleep_timer_minutes: 90 }, { ...DEVICE, minutes: 90 });
    expect.soft(expectOk(await status())).toMatchObject({ sleep_timer_minutes: 90, power: "on" });
  });

  it("a reset without arguments puts the level where the description says (100 percent)", async () => {
    const answer = await device.call("reset_filter_life");
    expectRecord(answer, { filter_life_percent: 100 }, DEVICE);
    expect.soft(expectOk(await status())).toMatchObject({ filter_life_percent: 100 });
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(device.breaches).toEqual([]);
  });
});
