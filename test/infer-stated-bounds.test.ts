import { describe, expect, it } from "vitest";
import { call, failure, integer, number, outputs, text, tool, world } from "./support/infer-world.js";

/** Bounds, steps, formats, no-op settings and unique pairs the docs state, and what removals answer. */
describe("a number the docs give a range and a step", () => {
  const cooker = () => ({ cooker: { temp_c: 56.5, running: false, model: "SV-2" } });
  const setTemp = tool(
    "cooker_set_temperature",
    "Set the water bath's target. Allowed: 40.0–95.0 inclusive, in 0.5 steps. Errors: OUT_OF_RANGE if temp_c is outside the allowed range; INVALID_STEP if temp_c is not a multiple of 0.5.",
    { temp_c: number },
  );

  it("refuses a value outside the range or off the step, and takes one on it", async () => {
    const set = await call(world(cooker(), [setTemp]), "cooker_set_temperature", { temp_c: 63.5 });
    expect((set.after.cooker as { temp_c: number }).temp_c).toBe(63.5);
    const high = await call(world(cooker(), [setTemp]), "cooker_set_temperature", { temp_c: 96 });
    expect(failure(high.outcome)).toBe("OUT_OF_RANGE");
    const off = await call(world(cooker(), [setTemp]), "cooker_set_temperature", { temp_c: 60.3 });
    expect(failure(off.outcome)).toBe("INVALID_STEP");
  });

  const fan = () => ({ fan: { speed: 3, mode: "breeze" } });
  const setMode = tool(
    "fan_set_mode",
    "Switch the fan's mode. Returns {mode}. Errors: MODE_UNCHANGED if the fan is already in that mode.",
    { mode: { type: "string", enum: ["breeze", "sleep", "turbo"] } },
  );

  it("refuses setting a field to the value it holds, where an error says the device is already in that mode", async () => {
    const same = await call(world(fan(), [setMode]), "fan_set_mode", { mode: "breeze" });
    expect(failure(same.outcome)).toBe("MODE_UNCHANGED");
    const moved = await call(world(fan(), [setMode]), "fan_set_mode", { mode: "sleep" });
    expect((moved.after.fan as { mode: string }).mode).toBe("sleep");
  });
});

describe("a text the docs give a format, and records unique over several fields", () => {
  const feeder = () => ({
    feedings: [
      { id: 1, day: "mon", time: "07:30", grams: 40 },
      { id: 2, day: "mon", time: "18:00", grams: 40 },
    ],
    next_feeding_id: 3,
  });
  const add = tool(
    "add_feeding",
    "Add a feeding to the weekly plan. time: 24-hour HH:MM. Errors: INVALID_TIME if time is not HH:MM; DUPLICATE_FEEDING if a feeding already exists for the same day and time.",
    { day: { type: "string", enum: ["mon", "tue", "wed"] }, time: text, grams: integer },
  );

  it("refuses a malformed time and a second feeding at the same day and time", async () => {
    const bad = await call(world(feeder(), [add]), "add_feeding", { day: "tue", time: "7.30", grams: 30 });
    expect(failure(bad.outcome)).toBe("INVALID_TIME");
    const twice = await call(world(feeder(), [add]), "add_feeding", { day: "mon", time: "07:30", grams: 30 });
    expect(failure(twice.outcome)).toBe("DUPLICATE_FEEDING");
    const made = await call(world(feeder(), [add]), "add_feeding", { day: "tue", time: "07:30", grams: 30 });
    expect(made.outcome.status).toBe("applied");
    expect(made.after.feedings).toHaveLength(3);
  });

  const trips = () => ({ trips: [{ id: "T1", start_date: "2026-05-01", end_date: "2026-05-04" }] });
  const plan = tool("add_trip", "Add a trip. Errors: INVALID_DATES if start_date > end_date.", {
    start_date: text,
    end_date: text,
  });

  it("reads an order error written with a comparison sign", async () => {
    const backwards = await call(world(trips(), [plan]), "add_trip", {
      start_date: "2026-06-09",
      end_date: "2026-06-02",
    });
    expect(failure(backwards.outcome)).toBe("INVALID_DATES");
  });
});

describe("what a delete answers", () => {
  const reminders = () => ({
    reminders: [
      { id: "R1", text: "Water plants" },
      { id: "R2", text: "Call the vet" },
      { id: "R3", text: "Renew passport" },
    ],
  });
  const remove = tool(
    "delete_reminder",
    "Delete a reminder. Errors: REMINDER_NOT_FOUND if no reminder has that id.",
    { reminder_id: text },
    ["reminder_id"],
    [],
    outputs({ deleted_id: text, remaining_count: integer }),
  );

  it("answers the id it removed and how many are left", async () => {
    const done = await call(world(reminders(), [remove]), "delete_reminder", { reminder_id: "R2" });
    expect(done.answer).toMatchObject({ deleted_id: "R2", remaining_count: 2 });
    expect(done.after.reminders).toHaveLength(2);
  });

  it("answers the id under a bare participle of the key's type, and leaves a flag to the flag rules", async () => {
    const removing = (removed: Record<string, unknown>) =>
      tool(
        "remove_reminder",
        "Remove a reminder. Errors: REMINDER_NOT_FOUND if no reminder has that id.",
        { reminder_id: text },
        ["reminder_id"],
        [],
        outputs({ removed }),
      );
    const args = { reminder_id: "R3" };
    const done = await call(world(reminders(), [removing(text)]), "remove_reminder", args);
    expect(done.answer).toMatchObject({ removed: "R3" });
    const flag = await call(world(reminders(), [removing({ type: "boolean" })]), "remove_reminder", args);
    expect((flag.answer as Record<string, unknown>).removed).not.toBe("R3");
  });
});

describe("a folder listed as records, and moves and deletes in a tree", () => {
  const library = () => ({
    media_root: {
      type: "folder",
      children: {
        shows: {
          type: "folder",
          children: {
            pilot: { type: "file", size_bytes: 900 },
            finale: { type: "file", size_bytes: 1200 },
            extras: { type: "folder", children: {} },
          },
        },
        films: { type: "folder", children: {} },
      },
    },
  });
  const listing = tool(
    "media_list_folder",
    "Lists the direct children of a folder, sorted by name. Errors: PATH_NOT_FOUND if nothing is at path; NOT_A_FOLDER if path is a file.",
    { path: text },
    ["path"],
    [],
    {
      outputSchema: {
        type: "object",
        properties: {
          entries: {
            type: "array",
            items: {
              type: "object",
              properties: {
                name: text,
                kind: { type: "string", enum: ["file", "directory"] },
                size_bytes: integer,
              },
            },
          },
        },
      },
    },
  );

  it("answers each child as a record of its name, its kind in the item's words, and its own fields", async () => {
    const listed = await call(world(library(), [listing]), "media_list_folder", { path: "/shows" });
    expect(listed.answer).toEqual({
      entries: [
        { name: "extras", kind: "directory" },
        { name: "finale", kind: "file", size_bytes: 1200 },
        { name: "pilot", kind: "file", size_bytes: 900 },
      ],
    });
  });

  const move = tool(
    "media_move",
    "Moves a file or folder into another folder, keeping its name. Errors: PATH_NOT_FOUND if the source does not exist.",
    { source_path: text, destination_folder: text },
    ["source_path", "destination_folder"],
    [],
    outputs({ old_path: text, new_path: text }),
  );

  it("answers a move with the path it was given and the path it reached", async () => {
    const moved = await call(world(library(), [move]), "media_move", {
      source_path: "/shows/pilot",
      destination_folder: "/films",
    });
    expect(moved.answer).toMatchObject({ old_path: "/shows/pilot", new_path: "/films/pilot" });
  });

  const remove = tool(
    "media_delete",
    "Deletes a file or a folder. Errors: PATH_NOT_FOUND; FOLDER_NOT_EMPTY if the folder still has children.",
    { path: text },
  );

  it("refuses a folder with children where an error says a folder must be empty", async () => {
    const full = await call(world(library(), [remove]), "media_delete", { path: "/shows" });
    expect(failure(full.outcome)).toBe("FOLDER_NOT_EMPTY");
    const empty = await call(world(library(), [remove]), "media_delete", { path: "/shows/extras" });
    expect(empty.outcome.status).toBe("applied");
  });
});

describe("a value of an argument allowed only while a flag holds", () => {
  const heater = () => ({ heater: { mode: "eco", child_lock: true, target_c: 19 } });
  const setMode = tool(
    "heater_set_mode",
    "Change the heater's mode. Returns {mode, previous_mode}. Errors: LOCKED — `boost` can only be selected while `child_lock` is false.",
    { mode: { type: "string", enum: ["eco", "comfort", "boost"] } },
    ["mode"],
    [],
    outputs({ mode: text, previous_mode: text }),
  );

  it("refuses that value while the flag does not hold, and allows the others", async () => {
    const boost = await call(world(heater(), [setMode]), "heater_set_mode", { mode: "boost" });
    expect(failure(boost.outcome)).toBe("LOCKED");
    const comfort = await call(world(heater(), [setMode]), "heater_set_mode", { mode: "comfort" });
    expect(comfort.answer).toMatchObject({ mode: "comfort", previous_mode: "eco" });
    const unlocked = { heater: { ...heater().heater, child_lock: false } };
    const allowed = await call(world(unlocked, [setMode]), "heater_set_mode", { mode: "boost" });
    expect((allowed.after.heater as { mode: string }).mode).toBe("boost");
  });
});

describe("a setting the docs write as an assignment to the record's field", () => {
  const mixer = () => ({ mixer_desk: { room: "B", master_gain: 40, muted: false } });
  const setGain = tool(
    "mixer_set_level",
    "Sets mixer_desk.master_gain = level; returns {master_gain, previous_gain}; error GAIN_OUT_OF_RANGE if level < 0 or > 60 (no change).",
    { level: integer },
    ["level"],
    [],
    outputs({ master_gain: integer, previous_gain: integer }),
  );

  it("sets the field the path names, answers its old value by the name's ending, and refuses past the bounds", async () => {
    const set = await call(world(mixer(), [setGain]), "mixer_set_level", { level: 55 });
    expect(set.answer).toEqual({ master_gain: 55, previous_gain: 40 });
    const edge = await call(world(mixer(), [setGain]), "mixer_set_level", { level: 0 });
    expect((edge.after.mixer_desk as { master_gain: number }).master_gain).toBe(0);
    const loud = await call(world(mixer(), [setGain]), "mixer_set_level", { level: 61 });
    expect(failure(loud.outcome)).toBe("GAIN_OUT_OF_RANGE");
  });
});

describe("a limit and a switch the state keeps", () => {
  const shop = () => ({
    shop: { limits: { max_pages: 50 }, printer: { paused: false } },
    jobs: { J1: { id: "J1", pages: 12 } },
  });
  const print = tool(
    "add_job",
    "Adds a print job to jobs. Checks, in order: PRINTER_PAUSED if shop.printer.paused is true; TOO_MANY_PAGES if pages is greater than shop.limits.max_pages. Returns {id, pages}.",
    { pages: integer, title: text },
    ["pages"],
  );

  it("refuses a number past the limit the state holds, and takes one within it", async () => {
    const over = await call(world(shop(), [print]), "add_job", { pages: 51 });
    expect(failure(over.outcome)).toBe("TOO_MANY_PAGES");
    const within = await call(world(shop(), [print]), "add_job", { pages: 50 });
    expect(within.outcome.status).toBe("applied");
  });

  it("refuses while the switch is on, and reads it as the state holds it then", async () => {
    const paused = shop();
    paused.shop.printer.paused = true;
    const refused = await call(world(shop(), [print]), "add_job", { pages: 3 }, paused);
    expect(failure(refused.outcome)).toBe("PRINTER_PAUSED");
    const raised = shop();
    raised.shop.limits.max_pages = 100;
    const taken = await call(world(shop(), [print]), "add_job", { pages: 80 }, raised);
    expect(taken.outcome.status).toBe("applied");
  });
});

describe("a list the state caps at a number it keeps", () => {
  const bakery = (most: number) => ({ waitlist: ["Ana", "Ben"], limits: { most_waiting: most } });
  const join = tool(
    "join_waitlist",
    "Adds a name to the back of the waitlist. WAITLIST_FULL is returned when the waitlist already holds limits.most_waiting names.",
    { name: text },
    ["name"],
  );

  it("refuses an addition once the list holds that many, and takes one below it", async () => {
    const full = await call(world(bakery(2), [join]), "join_waitlist", { name: "Cy" });
    expect(failure(full.outcome)).toBe("WAITLIST_FULL");
    const room = await call(world(bakery(3), [join]), "join_waitlist", { name: "Cy" });
    expect(room.after.waitlist).toEqual(["Ana", "Ben", "Cy"]);
  });
});
