import { describe, expect, it } from "vitest";
import { bool, call, error, failure, integer, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Switching verbs (docs/inference.md): a tool whose verb puts a thing into a state (open,
 * arm, turn on, pause, mute…) sets the field whose values hold that state, the one its name
 * names, or the only one where it names nothing; parts kept by name each in a state (the
 * lights of each room) are switched where an argument names them, all of them where none does.
 */

const choice = (...values: string[]) => ({ type: "string", enum: values });

/** A house: a garage door and an alarm the hub reports, and one light per room. */
const house = (home: State = {}): State => ({
  home: {
    address: "12 Alder Row",
    garage_door: "closed",
    alarm: "disarmed",
    porch_light: "off",
    lights: { kitchen: "off", hallway: "off", bedroom: "on" },
    ...home,
  },
});

/** The hub's status tool: its output schema offers the states the house is not in yet. */
const status = tool("get_home_status", "Read the state of the home.", {}, [], [], {
  outputSchema: {
    type: "object",
    properties: {
      garage_door: choice("open", "closed"),
      alarm: choice("armed", "disarmed"),
      porch_light: choice("on", "off"),
    },
  },
});

const home = (...tools: unknown[]) => world(house(), [status, ...tools]);
const homeAfter = (after: State) => after.home as Record<string, unknown>;

describe("a verb sets the field whose values hold its state", () => {
  it("opens the garage door, and answers the door as it now is", async () => {
    const open = tool("open_garage_door", "Open the garage door.", {}, [], [], {
      outputSchema: { type: "object", properties: { garage_door: choice("open", "closed") } },
    });
    const { after, answer, report } = await call(home(open), "open_garage_door", {});
    expect(homeAfter(after)).toEqual({ ...(house().home as State), garage_door: "open" });
    expect(answer).toEqual({ garage_door: "open" });
    expect(report.notes).toContain(`sets garage_door of home to 'open' (the verb "open")`);
  });

  it("arms and disarms the alarm, a verb the rest of inference does not know", async () => {
    // the code that arms it is no state of the alarm
    const arm = tool("arm_alarm", "Arm the alarm with the household's code.", { code: text });
    const armed = await call(home(arm), "arm_alarm", { code: "4711" });
    expect(homeAfter(armed.after).alarm).toBe("armed");
    const disarm = tool("disarm_alarm", "Disarm the alarm.");
    const disarmed = await call(home(disarm), "disarm_alarm", {}, armed.after);
    expect(homeAfter(disarmed.after).alarm).toBe("disarmed");
  });

  it("turns, switches and powers a light on and off", async () => {
    const cases: Array<[string, string, string]> = [
      ["turn_on_porch_light", "off", "on"],
      ["turn_off_porch_light", "on", "off"],
      ["switch_on_porch_light", "off", "on"],
      ["switch_off_porch_light", "on", "off"],
      ["power_on_porch_light", "off", "on"],
      ["power_off_porch_light", "on", "off"],
    ];
    for (const [name, from, to] of cases) {
      const { after, report } = await call(
        home(tool(name, "Switch the porch light.")),
        name,
        {},
        house({ porch_light: from }),
      );
      expect(homeAfter(after).porch_light, name).toBe(to);
      expect(report.notes, name).toContain(`sets porch_light of home to '${to}' (the verb "${to}")`);
    }
  });

  it("sets a field of a record kept inside another (the garage of a home)", async () => {
    const garage = world({ home: { garage: { door: "closed", spaces: 2 } } }, [
      tool("get_garage", "Read the garage.", {}, [], [], {
        outputSchema: { type: "object", properties: { door: choice("open", "closed") } },
      }),
      tool("open_garage_door", "Open the garage door."),
    ]);
    const { after, report } = await call(garage, "open_garage_door", {});
    expect(after.home).toEqual({ garage: { door: "open", spaces: 2 } });
    expect(report.notes).toContain(`sets door of home/garage to 'open' (the verb "open")`);
  });

  it("leaves a field alone when the verb's state is not among its values", async () => {
    // nothing says the porch light can be 'locked'
    const { after } = await call(
      home(tool("lock_porch_light", "Lock the porch light.")),
      "lock_porch_light",
      {},
    );
    expect(after).toEqual(house());
  });

  it("an argument that gives the field its value is a plain set, not a switch", async () => {
    // the fan of a thermostat: on, off, or left to the thermostat
    const thermostat = {
      thermostat: { target_celsius: 20, fan: "off" },
    };
    const fanStatus = tool("get_thermostat", "Read the thermostat.", {}, [], [], {
      outputSchema: { type: "object", properties: { fan: choice("on", "off", "auto") } },
    });
    const enable = tool("enable_fan", "Run the fan, always or as the thermostat needs.", {
      fan: choice("on", "auto"),
    });
    const { after } = await call(world(thermostat, [fanStatus, enable]), "enable_fan", { fan: "auto" });
    expect(after.thermostat).toEqual({ target_celsius: 20, fan: "auto" });
  });
});

describe("which field a verb switches", () => {
  const doors = (front: string) =>
    world({ home: { garage_door: "closed", front_door: front } }, [
      tool("get_doors", "Read the doors.", {}, [], [], {
        outputSchema: {
          type: "object",
          properties: { garage_door: choice("open", "closed"), front_door: choice("open", "closed") },
        },
      }),
      tool("open_garage_door", "Open the garage door."),
      tool("open_door", "Open a door."),
    ]);

  it("the field every word of whose name the tool names, where another shares a word with it", async () => {
    const { after } = await call(doors("closed"), "open_garage_door", {});
    expect(after.home).toEqual({ garage_door: "open", front_door: "closed" });
  });

  it("the one field that shares a word with the name, where the name does not name it whole", async () => {
    const garageOnly = world({ home: { garage_door: "closed", address: "12 Alder Row" } }, [
      tool("get_doors", "Read the doors.", {}, [], [], {
        outputSchema: { type: "object", properties: { garage_door: choice("open", "closed") } },
      }),
      tool("open_door", "Open the door."),
    ]);
    const { after } = await call(garageOnly, "open_door", {});
    expect(after.home).toEqual({ garage_door: "open", address: "12 Alder Row" });
  });

  it("the longest of the fields the name names whole, wherever it stands", async () => {
    // a porch with its ceiling light first, and strings of garden lights by name
    const porch = world({ porch: { light: "off", garden_lights: { path: "on", fence: "off" } } }, [
      tool("get_porch", "Read the porch.", {}, [], [], {
        outputSchema: { type: "object", properties: { light: choice("on", "off") } },
      }),
      tool("turn_on_garden_lights", "Turn on the garden lights."),
      tool("turn_on_light", "Turn on the porch light."),
    ]);
    const garden = await call(porch, "turn_on_garden_lights", {});
    expect(garden.after.porch).toEqual({ light: "off", garden_lights: { path: "on", fence: "on" } });
    const ceiling = await call(porch, "turn_on_light", {});
    expect(ceiling.after.porch).toEqual({ light: "on", garden_lights: { path: "on", fence: "off" } });
  });

  it("no field where the tool's name fits two alike", async () => {
    const { after, tool: inferredTool } = await call(doors("closed"), "open_door", {});
    expect(after.home).toEqual({ garage_door: "closed", front_door: "closed" });
    expect(inferredTool.effects ?? []).toEqual([]);
  });

  /** A media player whose whole state is the player. */
  const player = (...tools: unknown[]) =>
    world({ title: "Night Train", playback: "stopped", speaker: "unmuted", volume: 40 }, [
      tool("get_player", "Read the player.", {}, [], [], {
        outputSchema: {
          type: "object",
          properties: {
            playback: choice("playing", "paused", "stopped"),
            speaker: choice("muted", "unmuted"),
          },
        },
      }),
      ...tools,
    ]);

  it("a tool named by its verb alone switches the one field that can take the state", async () => {
    const paused = await call(player(tool("pause", "Pause what is playing.")), "pause", {});
    expect(paused.after).toEqual({
      title: "Night Train",
      playback: "paused",
      speaker: "unmuted",
      volume: 40,
    });
    expect(paused.report.notes).toContain(`sets playback of . to 'paused' (the verb "pause")`);
    const muted = await call(player(tool("mute", "Silence the speaker.")), "mute", {});
    expect(muted.after).toEqual({ title: "Night Train", playback: "stopped", speaker: "muted", volume: 40 });
  });

  it("a tool whose name names something else does not switch the lone field", async () => {
    // a washer whose one field in a state is its cycle
    const washer = (...tools: unknown[]) =>
      world({ washer: { cycle: "idle", delay_minutes: 0 } }, [
        tool("get_washer", "Read the washer.", {}, [], [], {
          outputSchema: { type: "object", properties: { cycle: choice("idle", "running") } },
        }),
        ...tools,
      ]);
    const started = await call(washer(tool("start", "Start the wash.")), "start", {});
    expect(started.after.washer).toEqual({ cycle: "running", delay_minutes: 0 });
    const timer = await call(
      washer(tool("start_delay_timer", "Start the wash after a delay.", { minutes: integer })),
      "start_delay_timer",
      { minutes: 30 },
    );
    expect((timer.after.washer as State).cycle).toBe("idle");
  });

  it("a verb alone does not choose between two fields that can take its state", async () => {
    const twin = world({ sprinklers: { front_lawn: "idle", back_lawn: "idle", name: "yard" } }, [
      tool("get_sprinklers", "Read the sprinklers.", {}, [], [], {
        outputSchema: {
          type: "object",
          properties: { front_lawn: choice("idle", "running"), back_lawn: choice("idle", "running") },
        },
      }),
      tool("start", "Start watering."),
    ]);
    const { after } = await call(twin, "start", {});
    expect(after.sprinklers).toEqual({ front_lawn: "idle", back_lawn: "idle", name: "yard" });
  });
});

describe("parts kept by name: the lights of each room", () => {
  const lightsAfter = (after: State) => homeAfter(after).lights;

  it("switches the lights a list of rooms names, and keeps the others", async () => {
    const turnOn = tool("turn_on_lights", "Turn on lights.", {
      rooms: { type: "array", items: choice("kitchen", "hallway", "bedroom") },
    });
    const { after, report } = await call(home(turnOn), "turn_on_lights", { rooms: ["kitchen"] });
    expect(lightsAfter(after)).toEqual({ kitchen: "on", hallway: "off", bedroom: "on" });
    expect(report.notes).toContain(`sets the lights named by rooms to 'on' (the verb "on")`);
  });

  it("switches every light where the call names none", async () => {
    const turnOff = tool(
      "turn_off_lights",
      "Turn off lights, all of them where no room is given.",
      { rooms: { type: "array", items: choice("kitchen", "hallway", "bedroom") } },
      [],
    );
    const { after } = await call(home(turnOff), "turn_off_lights", {});
    expect(lightsAfter(after)).toEqual({ kitchen: "off", hallway: "off", bedroom: "off" });
  });

  it("switches the one light a room argument names, by its enum or by its name", async () => {
    const byEnum = tool("turn_on_lights", "Turn on the lights of a room.", {
      room: choice("kitchen", "hallway", "bedroom"),
    });
    const one = await call(home(byEnum), "turn_on_lights", { room: "hallway" });
    expect(lightsAfter(one.after)).toEqual({ kitchen: "off", hallway: "on", bedroom: "on" });
    const byName = tool("turn_on_lights", "Turn on a light.", { light: text });
    const named = await call(home(byName), "turn_on_lights", { light: "kitchen" });
    expect(lightsAfter(named.after)).toEqual({ kitchen: "on", hallway: "off", bedroom: "on" });
    // an argument named as the lights themselves names some of them; it does not replace them
    const byField = tool("turn_on_lights", "Turn on lights.", { lights: { type: "array", items: text } });
    const some = await call(home(byField), "turn_on_lights", { lights: ["hallway"] });
    expect(lightsAfter(some.after)).toEqual({ kitchen: "off", hallway: "on", bedroom: "on" });
  });

  it("an argument that names no room switches them all", async () => {
    // a brightness, and a fade, are no room
    const turnOn = tool("turn_on_lights", "Turn on every light, at a brightness and with a fade.", {
      light_brightness: integer,
      fade: text,
      effects: { type: "array" },
    });
    const { after, report } = await call(home(turnOn), "turn_on_lights", {
      light_brightness: 80,
      fade: "slow",
    });
    expect(lightsAfter(after)).toEqual({ kitchen: "on", hallway: "on", bedroom: "on" });
    expect(report.notes).toContain(`sets every one of lights to 'on' (the verb "on")`);
  });

  it("a documented state of the record refuses the switch", async () => {
    const arm = tool(
      "arm_alarm",
      "Arm the alarm.",
      {},
      [],
      [error("GARAGE_OPEN", "The garage door is open.")],
    );
    const refused = await call(home(arm), "arm_alarm", {}, house({ garage_door: "open" }));
    expect(failure(refused.outcome)).toBe("GARAGE_OPEN");
    expect(homeAfter(refused.after).alarm).toBe("disarmed");
  });
});

/** A motorboat: a flag per thing that runs, a brake word, and a lock per hatch. */
const boat = (deck: State = {}): State => ({
  boat: {
    name: "Kestrel",
    engine_running: false,
    bilge_pump_on: true,
    anchor: "raised",
    hatches_locked: { bow: true, cabin: false, stern: true },
    ...deck,
  },
});
const boatAfter = (after: State) => after.boat as Record<string, unknown>;

describe("flags named for the thing they are the state of", () => {
  it("starts and stops the engine a flag keeps, and leaves the pump's flag alone", async () => {
    const start = tool("engineStart", "Start the boat's engine.");
    const started = await call(world(boat(), [start]), "engineStart", {});
    expect(boatAfter(started.after)).toEqual({ ...(boat().boat as State), engine_running: true });
    expect(started.report.notes).toContain(`sets engine_running of boat to true (the verb "start")`);
    const stop = tool("engine_stop", "Stop the engine.");
    const stopped = await call(world(boat(), [stop]), "engine_stop", {}, started.after);
    expect(boatAfter(stopped.after).engine_running).toBe(false);
    expect(boatAfter(stopped.after).bilge_pump_on).toBe(true);
  });

  it("turns off the flag named by what the tool names, `on` and `off` being opposites", async () => {
    const off = tool("turn_off_bilge_pump", "Turn the bilge pump off.");
    const { after, report } = await call(world(boat(), [off]), "turn_off_bilge_pump", {});
    expect(boatAfter(after).bilge_pump_on).toBe(false);
    expect(boatAfter(after).engine_running).toBe(false);
    expect(report.verdict).toBe("inferred");
  });

  it("a flag of something the tool does not name is not switched", async () => {
    const start = tool("start_timer", "Start a countdown.");
    const { after } = await call(world(boat(), [start]), "start_timer", {});
    expect(after).toEqual(boat());
  });
});

describe("a field left in the opposite verb's state", () => {
  it("takes the verb's own state, reported as a guessed word", async () => {
    const lower = tool("release_anchor", "Let the anchor go.");
    const drop = await call(world(boat({ anchor: "engaged" }), [lower]), "release_anchor", {});
    expect(boatAfter(drop.after).anchor).toBe("released");
    expect(drop.report.verdict).toBe("partly");
    expect(drop.report.gaps.join(" ")).toMatch(/'released' .*seen nowhere in the state or the schemas/);
  });

  it("not where a schema lists the words the field takes", async () => {
    const lower = tool("release_anchor", "Let the anchor go.");
    const read = tool("get_boat", "Read the boat.", {}, [], [], {
      outputSchema: { type: "object", properties: { anchor: choice("engaged", "down") } },
    });
    const { after } = await call(world(boat({ anchor: "engaged" }), [read, lower]), "release_anchor", {});
    expect(boatAfter(after).anchor).toBe("engaged");
  });

  it("not a field that only shares a word with the name, each naming something the other does not", async () => {
    // the schema lists both states, so the lever's values hold the verb's own
    const read = tool("get_boat", "Read the boat.", {}, [], [], {
      outputSchema: { type: "object", properties: { throttle_lever: choice("engaged", "released") } },
    });
    const lifted = boat({ throttle_lever: "engaged" });
    const pedal = tool("release_throttle_pedal", "Lift off the throttle pedal.");
    const { after } = await call(world(lifted, [read, pedal]), "release_throttle_pedal", {});
    expect(boatAfter(after).throttle_lever).toBe("engaged");
    const lever = tool("release_throttle_lever", "Let the throttle lever go.");
    const letGo = await call(world(lifted, [read, lever]), "release_throttle_lever", {});
    expect(boatAfter(letGo.after).throttle_lever).toBe("released");
  });

  it("not a field the tool's name does not name", async () => {
    const release = tool("release_lines", "Cast off.");
    const { after } = await call(world(boat({ anchor: "engaged" }), [release]), "release_lines", {});
    expect(boatAfter(after).anchor).toBe("engaged");
  });
});

describe("parts kept by name, each a flag: the boat's hatches", () => {
  const hatches = { type: "array", items: choice("bow", "cabin", "stern") };
  const locksAfter = (after: State) => boatAfter(after).hatches_locked;

  it("locks the hatches named, and unlocks every one where none is named", async () => {
    const lock = tool("lock_hatches", "Lock hatches.", { hatches });
    const locked = await call(world(boat(), [lock]), "lock_hatches", { hatches: ["cabin"] });
    expect(locksAfter(locked.after)).toEqual({ bow: true, cabin: true, stern: true });
    expect(locked.report.notes).toContain(
      `sets the hatches_locked named by hatches to true (the verb "lock")`,
    );
    const unlock = tool("unlock_hatches", "Unlock hatches, every one where none is named.", { hatches }, []);
    const unlocked = await call(world(boat(), [unlock]), "unlock_hatches", {});
    expect(locksAfter(unlocked.after)).toEqual({ bow: false, cabin: false, stern: false });
  });

  it("a boolean argument named for the state or its opposite gives the value", async () => {
    const set = tool("set_hatch_locks", "Lock or unlock the hatches named.", { locked: bool, hatches });
    const opened = await call(world(boat(), [set]), "set_hatch_locks", { locked: false, hatches: ["bow"] });
    expect(locksAfter(opened.after)).toEqual({ bow: false, cabin: false, stern: true });
    expect(opened.report.notes).toContain("sets the hatches_locked named by hatches to locked");
    const toggle = tool("secure_hatches", "Secure the hatches, or free them.", { unlock: bool, hatches });
    const freed = await call(world(boat(), [toggle]), "secure_hatches", { unlock: true, hatches: ["stern"] });
    expect(locksAfter(freed.after)).toEqual({ bow: true, cabin: false, stern: false });
    const secured = await call(world(boat(), [toggle]), "secure_hatches", {
      unlock: false,
      hatches: ["cabin"],
    });
    expect(locksAfter(secured.after)).toEqual({ bow: true, cabin: true, stern: true });
  });

  it("no argument that says the value leaves the hatches as they are", async () => {
    const set = tool("set_hatch_locks", "Set the hatches.", { hatches, note: text });
    const { after } = await call(world(boat(), [set]), "set_hatch_locks", { hatches: ["bow"], note: "x" });
    expect(locksAfter(after)).toEqual({ bow: true, cabin: false, stern: true });
  });
});
