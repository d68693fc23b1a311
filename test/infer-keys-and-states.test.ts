import { describe, expect, it } from "vitest";
import { call, failure, text, tool, world } from "./support/infer-world.js";

/** A new record keyed by a name the caller chooses, and a change allowed in one state of its record only. */
describe("a new record of a list keyed by a chosen name", () => {
  const club = () => ({
    club_members: [
      { username: "ines", display_name: "Inês" },
      { username: "tomas", display_name: "Tomás" },
    ],
  });
  const join = tool(
    "register_club_member",
    "Registers a member under the username asked for. Returns an error if the username is already taken.",
    { username: text, display_name: text },
  );

  it("is appended with the argument as its key, nothing minted", async () => {
    const { after, answer } = await call(world(club(), [join]), "register_club_member", {
      username: "noor",
      display_name: "Noor",
    });
    expect(after.club_members).toContainEqual({ username: "noor", display_name: "Noor" });
    expect(answer).toMatchObject({ username: "noor" });
  });

  it("is refused when the name is taken, and nothing is added", async () => {
    const { outcome, after } = await call(world(club(), [join]), "register_club_member", {
      username: "ines",
      display_name: "Another",
    });
    expect(failure(outcome)).toMatch(/TAKEN|EXISTS/);
    expect(after.club_members).toHaveLength(2);
  });
});

describe("a change only allowed in one state of the record", () => {
  const oven = () => ({ oven_panel: { mode: "bake", fan_speed: 1, timer_minutes: 0 } });
  const fan = tool(
    "set_oven_fan",
    'Sets fan_speed. Only allowed when mode is "convection"; fails otherwise.',
    { fan_speed: { type: "integer" } },
  );
  const mode = tool("set_oven_mode", "Sets the mode.", {
    mode: { type: "string", enum: ["bake", "convection", "grill"] },
  });

  it("is refused in any other, with an error named by the condition, and changes nothing", async () => {
    const refused = await call(world(oven(), [fan, mode]), "set_oven_fan", { fan_speed: 3 });
    expect(failure(refused.outcome)).toBe("MODE_NOT_CONVECTION");
    const state = { oven_panel: { mode: "convection", fan_speed: 1, timer_minutes: 0 } };
    const allowed = await call(world(oven(), [fan, mode]), "set_oven_fan", { fan_speed: 3 }, state);
    expect((allowed.after.oven_panel as { fan_speed: number }).fan_speed).toBe(3);
  });
});

describe("an unknown verb whose description says what it adds to a list or takes from it", () => {
  const crew = () => ({
    crew_boats: [
      { id: 1, name: "Swift", rowers: ["ada", "ben"] },
      { id: 2, name: "Heron", rowers: [] },
    ],
  });
  const seat = tool(
    "crew_seat_rower",
    "Seats a rower in a boat. `rower` is appended to the end of the boat's `rowers` list.",
    { boat_id: { type: "integer" }, rower: text },
  );
  const unseat = tool("crew_unseat_rower", "`rower` is removed from the boat's `rowers`.", {
    boat_id: { type: "integer" },
    rower: text,
  });

  it("adds the argument to the record's list, and takes it out again, on that record only", async () => {
    const seated = await call(world(crew(), [seat, unseat]), "crew_seat_rower", { boat_id: 1, rower: "cy" });
    const boats = seated.after.crew_boats as Array<{ rowers: string[] }>;
    expect(boats[0]?.rowers).toEqual(["ada", "ben", "cy"]);
    expect(boats[1]?.rowers).toEqual([]);
    const unseated = await call(world(crew(), [seat, unseat]), "crew_unseat_rower", {
      boat_id: 1,
      rower: "ada",
    });
    expect((unseated.after.crew_boats as Array<{ rowers: string[] }>)[0]?.rowers).toEqual(["ben"]);
    expect(seated.report.verdict).toBe("partly");
  });
});
