import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type DomainSession,
  expectError,
  expectGrounded,
  expectOk,
  fieldsOf,
  openDomain,
} from "./support/domain-session.js";

/**
 * One connected car: a record of scalars (engine, fuel, climate, headlights) and a record of
 * doors each locked or unlocked. Served without effects; inference must switch the engine
 * and the locks, keep the fuel within the tank, and refuse to start with a door unlocked.
 */

let car: DomainSession;
beforeAll(async () => {
  car = await openDomain("vehicle.json");
});
afterAll(async () => {
  await car?.close();
});
beforeEach(async () => {
  await car.reset();
});

const vehicle = async () => fieldsOf(await car.call("get_vehicle_state"));

describe("vehicle: a record of scalars and of doors in a state each", () => {
  it("the state answers the stored values", async () => {
    const answer = await car.call("get_vehicle_state");
    expect.soft(expectOk(answer)).toMatchObject({
      engine: "off",
      doors: { driver: "locked", passenger: "locked", rear_left: "locked", rear_right: "unlocked" },
      fuel_liters: 20.5,
      odometer_km: 48211,
      climate_on: false,
      headlights: "off",
    });
    expectGrounded(answer, ["engine", "doors", "fuel_liters", "odometer_km", "climate_on", "headlights"]);
  });

  it("locking doors locks the ones named and answers how many are left unlocked; unlock reverses", async () => {
    const locked = await car.call("lock_doors", { doors: ["rear_right"] });
    expect.soft(expectOk(locked)).toEqual({ unlocked_doors: 0 });
    expectGrounded(locked, ["unlocked_doors"]);
    const unlocked = await car.call("lock_doors", { doors: ["driver", "passenger"], unlock: true });
    expect.soft(expectOk(unlocked)).toEqual({ unlocked_doors: 2 });
    expect.soft((await vehicle()).doors).toEqual({
      driver: "unlocked",
      passenger: "unlocked",
      rear_left: "locked",
      rear_right: "locked",
    });
  });

  it("the engine does not start while a door is unlocked; it starts once all are locked, and stops", async () => {
    expectError(await car.call("start_engine"), "DOORS_UNLOCKED");
    expect.soft((await vehicle()).engine).toBe("off");
    await car.call("lock_doors", { doors: ["rear_right"] });
    const started = await car.call("start_engine");
    expect.soft(expectOk(started)).toEqual({ engine: "running" });
    expectGrounded(started, ["engine"]);
    expect.soft((await vehicle()).engine).toBe("running");
    expect.soft(expectOk(await car.call("stop_engine"))).toEqual({ engine: "off" });
    expect.soft((await vehicle()).engine).toBe("off");
  });

  it("refuelling adds to the tank up to its capacity, never past it", async () => {
    const answer = await car.call("refuel", { liters: 10 });
    expect.soft(expectOk(answer)).toEqual({ fuel_liters: 30.5 });
    expectGrounded(answer, ["fuel_liters"]);
    expectError(await car.call("refuel", { liters: 30 }), "TANK_OVERFLOW");
    expect.soft(fieldsOf(await car.call("get_fuel_level")).fuel_liters).toBe(30.5);
    expect.soft(expectOk(await car.call("refuel", { liters: 19.5 }))).toEqual({ fuel_liters: 50 });
  });

  it("climate and headlights are set by their arguments, for later reads", async () => {
    expect
      .soft(expectOk(await car.call("set_climate", { climate_on: true, target_temp_c: 23 })))
      .toEqual({ climate_on: true, target_temp_c: 23 });
    expect.soft(expectOk(await car.call("set_headlights", { mode: "auto" }))).toEqual({ headlights: "auto" });
    expect.soft(await vehicle()).toMatchObject({ climate_on: true, target_temp_c: 23, headlights: "auto" });
  });

  it("cruise control needs the engine running, and refuelling needs it off", async () => {
    expectError(await car.call("set_cruise_control", { cruise_speed_kph: 90 }), "ENGINE_OFF");
    await car.call("lock_doors", { doors: ["rear_right"] });
    await car.call("start_engine");
    expect
      .soft(expectOk(await car.call("set_cruise_control", { cruise_speed_kph: 90 })))
      .toEqual({ cruise_speed_kph: 90 });
    expectError(await car.call("refuel", { liters: 5 }), "ENGINE_RUNNING");
    expect.soft(fieldsOf(await car.call("get_fuel_level")).fuel_liters).toBe(20.5);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(car.breaches).toEqual([]);
  });
});
