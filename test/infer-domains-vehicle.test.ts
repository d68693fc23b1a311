import { describe, expect, it } from "vitest";
import { expectError, expectGrounded, expectOk, fieldsOf, useDomain } from "./support/domain-session.js";

/**
 * One electric car: a record of scalars (charge port, charging, cable, energy, sentry mode)
 * and windows each open or closed. Served without effects; inference must switch what the
 * verbs name, keep the battery within its capacity, and refuse what an error says the car's
 * state does not allow.
 */

const car = useDomain("vehicle.json");

const vehicle = async () => fieldsOf(await car.call("get_vehicle_state"));

describe("vehicle: a record of scalars and of windows in a state each", () => {
  it("the state answers the stored values", async () => {
    const answer = await car.call("get_vehicle_state");
    expect.soft(expectOk(answer)).toMatchObject({
      charge_port: "closed",
      charging: "stopped",
      cable: "unplugged",
      energy_kwh: 40.5,
      charge_limit_percent: 80,
      sentry_mode: "off",
      windows: { front_left: "closed", front_right: "closed", rear_left: "closed", rear_right: "open" },
    });
    expectGrounded(answer, ["charge_port", "charging", "energy_kwh", "windows"]);
  });

  it("charging starts only with the charge port open, and stops", async () => {
    expectError(await car.call("start_charging"), "PORT_CLOSED");
    expect.soft((await vehicle()).charging).toBe("stopped");
    const opened = await car.call("open_charge_port");
    expect.soft(expectOk(opened)).toEqual({ charge_port: "open" });
    expectGrounded(opened, ["charge_port"]);
    expect.soft(expectOk(await car.call("start_charging"))).toEqual({ charging: "started" });
    expect.soft((await vehicle()).charging).toBe("started");
    expect.soft(expectOk(await car.call("stop_charging"))).toEqual({ charging: "stopped" });
  });

  it("windows named are opened or closed; none named means all of them", async () => {
    const closed = await car.call("close_windows", { windows: ["rear_right"] });
    expect.soft(expectOk(closed).windows).toEqual({
      front_left: "closed",
      front_right: "closed",
      rear_left: "closed",
      rear_right: "closed",
    });
    expectGrounded(closed, ["windows"]);
    await car.call("open_windows");
    expect.soft((await vehicle()).windows).toEqual({
      front_left: "open",
      front_right: "open",
      rear_left: "open",
      rear_right: "open",
    });
  });

  it("sentry mode needs every window closed", async () => {
    expectError(await car.call("enable_sentry_mode"), "WINDOW_OPEN");
    expect.soft((await vehicle()).sentry_mode).toBe("off");
    await car.call("close_windows");
    expect.soft(expectOk(await car.call("enable_sentry_mode"))).toEqual({ sentry_mode: "on" });
  });

  it("energy is added only with a cable plugged in, up to the battery's capacity", async () => {
    expectError(await car.call("add_energy", { kwh: 5 }), "NO_CABLE");
    expect.soft(expectOk(await car.call("plug_in_cable"))).toEqual({ cable: "plugged" });
    const answer = await car.call("add_energy", { kwh: 10 });
    expect.soft(expectOk(answer)).toEqual({ energy_kwh: 50.5 });
    expectGrounded(answer, ["energy_kwh"]);
    expectError(await car.call("add_energy", { kwh: 30 }), "BATTERY_FULL");
    expect.soft((await vehicle()).energy_kwh).toBe(50.5);
    expect.soft(expectOk(await car.call("add_energy", { kwh: 24.5 }))).toEqual({ energy_kwh: 75 });
  });

  it("the charge limit is set by its argument, but not while charging", async () => {
    expect
      .soft(expectOk(await car.call("set_charge_limit", { charge_limit_percent: 90 })))
      .toEqual({ charge_limit_percent: 90 });
    await car.call("open_charge_port");
    await car.call("start_charging");
    expectError(await car.call("set_charge_limit", { charge_limit_percent: 70 }), "CHARGING");
    expect.soft((await vehicle()).charge_limit_percent).toBe(90);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(car.breaches).toEqual([]);
  });
});
