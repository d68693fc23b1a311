import { describe, expect, it } from "vitest";
import { call, failure, inferred, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Records kept inside other records, at any depth: a patient's chart holds its allergies
 * (`patients/{id}/chart/allergies`), a board holds its columns (`boards/{id}/columns`). A tool
 * that names them and the record they live in reads, lists, adds, changes and removes them
 * there, as `GET /patients/{id}/allergies` and `DELETE /boards/{id}/columns/{column_id}` do,
 * and never acts on the record that holds them instead.
 */

type Records = Record<string, State>;

describe("allergies kept in a patient's chart", () => {
  const clinic = (): State => ({
    patients: {
      P1: {
        name: "Ines",
        chart: {
          blood_type: "A+",
          allergies: [
            { id: "AL1", substance: "penicillin", severity: "high" },
            { id: "AL2", substance: "pollen", severity: "low" },
          ],
        },
      },
      P2: {
        name: "Omar",
        chart: { blood_type: "O-", allergies: [{ id: "AL3", substance: "latex", severity: "mid" }] },
      },
    },
  });
  const tools = [
    tool("add_allergy", "Record an allergy in a patient's chart.", {
      patient_id: text,
      substance: text,
      severity: text,
    }),
    tool("list_allergies", "List a patient's allergies.", { patient_id: text }),
    tool("get_allergy", "One allergy of a patient.", { patient_id: text, allergy_id: text }),
    tool("update_allergy", "Change an allergy's severity.", {
      patient_id: text,
      allergy_id: text,
      severity: text,
    }),
    tool("delete_allergy", "Remove an allergy from a patient's chart.", {
      patient_id: text,
      allergy_id: text,
    }),
  ];
  const run = (name: string, args: Record<string, unknown>) => call(world(clinic(), tools), name, args);
  const allergies = (after: State, patient: string) =>
    ((after.patients as Records)[patient]?.chart as { allergies: State[] } | undefined)?.allergies ?? [];

  it("adds one to the chart of the patient named, with the next id", async () => {
    const { after, answer } = await run("add_allergy", {
      patient_id: "P2",
      substance: "nuts",
      severity: "high",
    });
    expect(allergies(after, "P2")).toEqual([
      { id: "AL3", substance: "latex", severity: "mid" },
      { id: "AL4", substance: "nuts", severity: "high" },
    ]);
    expect(answer).toMatchObject({ id: "AL4", substance: "nuts" });
    expect(allergies(after, "P1")).toHaveLength(2);
  });

  it("lists the patient's allergies, not the patient", async () => {
    const { answer, report } = await run("list_allergies", { patient_id: "P1" });
    expect(answer).toEqual(allergies(clinic(), "P1"));
    expect(report.verdict).toBe("inferred");
    const unknown = await run("list_allergies", { patient_id: "P9" });
    expect(failure(unknown.outcome)).toBe("PATIENT_NOT_FOUND");
  });

  it("reads, changes and removes one by its id, and refuses an unknown one", async () => {
    expect((await run("get_allergy", { patient_id: "P1", allergy_id: "AL2" })).answer).toMatchObject({
      substance: "pollen",
    });
    const changed = await run("update_allergy", { patient_id: "P1", allergy_id: "AL1", severity: "low" });
    expect(allergies(changed.after, "P1")[0]).toEqual({
      id: "AL1",
      substance: "penicillin",
      severity: "low",
    });
    const removed = await run("delete_allergy", { patient_id: "P1", allergy_id: "AL1" });
    expect(allergies(removed.after, "P1").map((a) => a.id)).toEqual(["AL2"]);
    expect((removed.after.patients as Records).P1).toMatchObject({
      name: "Ines",
      chart: { blood_type: "A+" },
    });
    const unknown = await run("delete_allergy", { patient_id: "P1", allergy_id: "AL7" });
    expect(failure(unknown.outcome)).toBe("ALLERGY_NOT_FOUND");
  });
});

describe("columns kept in a board", () => {
  const boards = (): State => ({
    boards: {
      B1: {
        title: "Launch",
        columns: [
          { id: "C1", name: "todo" },
          { id: "C2", name: "done" },
        ],
      },
      B2: { title: "Hiring", columns: [{ id: "C3", name: "applied" }] },
    },
  });

  it("lists a board's columns by the board's id, narrowed by a field", async () => {
    const list = tool("list_columns", "List the columns of a board.", { board_id: text, name: text }, [
      "board_id",
    ]);
    const all = await call(world(boards(), [list]), "list_columns", { board_id: "B1" });
    expect(all.answer).toEqual([
      { id: "C1", name: "todo" },
      { id: "C2", name: "done" },
    ]);
    const named = await call(world(boards(), [list]), "list_columns", { board_id: "B1", name: "done" });
    expect(named.answer).toEqual([{ id: "C2", name: "done" }]);
  });

  it("still reads the board where the tool names the board", () => {
    const get = tool("get_board", "A board with its columns.", { board_id: text });
    expect(inferred(world(boards(), [get]), "get_board").report.drafts).toContainEqual(
      expect.objectContaining({ kind: "read", target: "boards/{board_id}", output: "" }),
    );
  });
});

describe("devices kept by name in a home's rooms", () => {
  /** A smart home: rooms by name, each with its devices by name, each switched on or off. */
  const home = (): State => ({
    home: { owner: "Kai" },
    rooms: {
      kitchen: {
        floor: 1,
        devices: {
          ceiling: { kind: "light", on: false, brightness: 40 },
          kettle: { kind: "plug", on: true, brightness: 0 },
        },
      },
      study: { floor: 2, devices: { desk: { kind: "light", on: true, brightness: 80 } } },
    },
  });
  const device = { room: text, device: text };
  const tools = [
    tool("turn_on_device", "Turn a device on.", device),
    tool("turn_off_device", "Turn a device off.", device),
    tool("set_brightness", "Set a light's brightness.", { ...device, brightness: { type: "integer" } }),
    tool("get_device", "A device's state.", device),
    tool("add_device", "Add a device to a room.", { room: text, name: text, kind: text }),
    tool("remove_device", "Remove a device from a room.", device),
  ];
  const run = (name: string, args: Record<string, unknown>) => call(world(home(), tools), name, args);
  /** A room's devices, each without the name it is kept under (the served state adds it as `device`). */
  const devices = (after: State, room: string) =>
    Object.fromEntries(
      Object.entries((after.rooms as Records)[room]?.devices as Records).map(
        ([name, { device: _name, ...rest }]) => [name, rest],
      ),
    );

  it("switches the device the room and its name give, and nothing else", async () => {
    const on = await run("turn_on_device", { room: "kitchen", device: "ceiling" });
    expect(devices(on.after, "kitchen")).toEqual({
      ...devices(home(), "kitchen"),
      ceiling: { kind: "light", on: true, brightness: 40 },
    });
    expect(on.report.notes).toContain("sets on to 'true' (the verb \"on\")");
    const off = await run("turn_off_device", { room: "study", device: "desk" });
    expect(devices(off.after, "study").desk).toEqual({ kind: "light", on: false, brightness: 80 });
    const unknown = await run("turn_on_device", { room: "study", device: "lamp" });
    expect(failure(unknown.outcome)).toBe("DEVICE_NOT_FOUND");
  });

  it("sets a level, reads a device and removes one, by room and name", async () => {
    const dimmed = await run("set_brightness", { room: "kitchen", device: "ceiling", brightness: 70 });
    expect(devices(dimmed.after, "kitchen").ceiling).toEqual({ kind: "light", on: false, brightness: 70 });
    expect((await run("get_device", { room: "study", device: "desk" })).answer).toEqual({
      device: "desk",
      kind: "light",
      on: true,
      brightness: 80,
    });
    const removed = await run("remove_device", { room: "kitchen", device: "kettle" });
    expect(Object.keys(devices(removed.after, "kitchen"))).toEqual(["ceiling"]);
    expect(devices(removed.after, "study")).toEqual(devices(home(), "study"));
  });

  it("lists a room's devices each with the name it is kept under, the one the other tools take", async () => {
    const listing = tool("list_devices", "The devices in a room.", { room: text });
    const { answer, report } = await call(world(home(), [...tools, listing]), "list_devices", {
      room: "kitchen",
    });
    expect(answer).toEqual([
      { device: "ceiling", kind: "light", on: false, brightness: 40 },
      { device: "kettle", kind: "plug", on: true, brightness: 0 },
    ]);
    expect(report.notes).toContain("answers each with its key under device");
  });

  it("files a new device under the name given, and refuses a name taken in that room", async () => {
    const added = await run("add_device", { room: "study", name: "fan", kind: "plug" });
    expect(((added.after.rooms as Records).study?.devices as Records | undefined)?.fan).toEqual({
      device: "fan",
      kind: "plug",
    });
    const taken = await run("add_device", { room: "kitchen", name: "kettle", kind: "plug" });
    expect(failure(taken.outcome)).toBe("DEVICE_ALREADY_EXISTS");
    const nowhere = await run("add_device", { room: "attic", name: "fan", kind: "plug" });
    expect(failure(nowhere.outcome)).toBe("ROOM_NOT_FOUND");
  });
});

describe("a switch on records of a collection", () => {
  it("throws the flag named for what the tool names, on the record its argument names", async () => {
    const yard = (): State => ({
      pens: {
        east: { heater_on: false, lamp_on: true },
        west: { heater_on: true, lamp_on: false },
      },
    });
    const start = tool("start_heater", "Start a pen's heater.", { pen: text });
    const stop = tool("stop_heater", "Stop a pen's heater.", { pen: text });
    const started = await call(world(yard(), [start, stop]), "start_heater", { pen: "east" });
    expect((started.after.pens as Records).east).toEqual({ heater_on: true, lamp_on: true });
    const stopped = await call(world(yard(), [start, stop]), "stop_heater", { pen: "west" });
    expect((stopped.after.pens as Records).west).toEqual({ heater_on: false, lamp_on: false });
    expect(failure((await call(world(yard(), [start]), "start_heater", { pen: "north" })).outcome)).toBe(
      "PEN_NOT_FOUND",
    );
  });

  const doors = (): State => ({
    doors: {
      D1: { label: "front", locked: false },
      D2: { label: "garage", locked: true },
    },
  });

  it("sets the one flag named for the verb's state, or for its opposite's", async () => {
    const lock = tool("lock_door", "Lock a door.", { door_id: text });
    const unlock = tool("unlock_door", "Unlock a door.", { door_id: text });
    const locked = await call(world(doors(), [lock, unlock]), "lock_door", { door_id: "D1" });
    expect((locked.after.doors as Records).D1).toEqual({ label: "front", locked: true });
    const opened = await call(world(doors(), [lock, unlock]), "unlock_door", { door_id: "D2" });
    expect((opened.after.doors as Records).D2).toEqual({ label: "garage", locked: false });
  });
});

describe("a create of the kind its name names", () => {
  it("makes a record, not an amount moved into one of that kind", async () => {
    const pantry = (): State => ({
      shelves: {
        top: { jars: { jam: { qty: 3, label: "L-1" }, fig: { qty: 1, label: "L-2" } } },
        low: { jars: {} },
      },
    });
    const add = tool("add_jar", "Put a new jar on a shelf.", {
      shelf: text,
      jar: text,
      qty: { type: "integer" },
    });
    const { outcome, after } = await call(world(pantry(), [add]), "add_jar", {
      shelf: "top",
      jar: "honey",
      qty: 2,
    });
    expect(outcome.status).toBe("applied");
    const jars = (after.shelves as Records).top?.jars as Records;
    expect(jars.jam).toMatchObject({ qty: 3 });
    expect(Object.values(jars).filter((j) => j.qty === 2)).toHaveLength(1);
  });
});
