import { describe, expect, it } from "vitest";
import { call, failure, inferred, integer, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * Answers a description says are computed over the records: counts, sums, keys and the
 * arithmetic between them, kept to the records its words and the call's arguments select.
 */

const desk = () => ({
  support_tickets: [
    { ticket_id: 1, agent: "ana", status: "open", minutes_spent: 30, escalated: true, closed_at: null },
    {
      ticket_id: 2,
      agent: "ana",
      status: "closed",
      minutes_spent: 45,
      escalated: false,
      closed_at: "2026-02-01",
    },
    { ticket_id: 3, agent: "raj", status: "open", minutes_spent: 10, escalated: false, closed_at: null },
    { ticket_id: 4, agent: "raj", status: "pending", minutes_spent: null, escalated: true, closed_at: null },
  ],
});

describe("counts and sums a description spells out", () => {
  const summary = tool(
    "get_desk_summary",
    "Desk-wide figures. Returns {total_tickets, escalated_tickets, open, pending, unclosed}; open/pending count tickets by status, unclosed counts tickets with closed_at null.",
    {},
  );
  const workload = tool(
    "get_agent_workload",
    "Figures for one agent.\n\nReturns:\n- `agent`\n- `ticket_count` - number of tickets of the agent\n- `minutes` - sum of minutes_spent over their tickets\n- `open_count` - their tickets with status open",
    { agent: text },
  );

  it("answer account-wide counts, by a status word, a flag and a null", async () => {
    const { answer, report } = await call(world(desk(), [summary]), "get_desk_summary", {});
    expect(answer).toMatchObject({
      total_tickets: 4,
      escalated_tickets: 2,
      open: 2,
      pending: 1,
      unclosed: 3,
    });
    expect(report.verdict).toBe("inferred");
  });

  it("keep to the records of the one an argument names, and skip what holds no number", async () => {
    const { answer } = await call(world(desk(), [workload]), "get_agent_workload", { agent: "raj" });
    expect(answer).toMatchObject({ ticket_count: 2, minutes: 10, open_count: 1 });
  });

  it("see what an earlier call of the session changed", async () => {
    const state = desk();
    state.support_tickets.push({
      ticket_id: 5,
      agent: "ana",
      status: "open",
      minutes_spent: 5,
      escalated: false,
      closed_at: null,
    });
    const { answer } = await call(world(desk(), [workload]), "get_agent_workload", { agent: "ana" }, state);
    expect(answer).toMatchObject({ ticket_count: 3, minutes: 80, open_count: 2 });
  });
});

describe("records kept in a map, linked by key, and arithmetic between answers", () => {
  const school = () => ({
    school_courses: { bio: { title: "Biology" }, art: { title: "Drawing" } },
    school_students: {
      s1: { course_id: "bio", grades: { midterm: 71 } },
      s2: { course_id: "bio", grades: {} },
      s3: { course_id: "bio", grades: { midterm: 88 } },
      s4: { course_id: "art", grades: { midterm: 60 } },
    },
  });
  const progress = tool(
    "get_course_grading",
    "Grading progress of a course.\n\nReturns `{course_id, graded, enrolled, share}`:\n- `graded` – number of students that have a grade for this exam\n- `enrolled` – number of students in the course\n- `share` – 100 * graded / enrolled, rounded to the nearest integer (0 when no one is enrolled)\n\nErrors:\n- `COURSE_NOT_FOUND` – no course has this id.",
    { course_id: text, exam: text },
  );

  it("count a map's records by a link and by a key they hold, and work out the share", async () => {
    const { answer } = await call(world(school(), [progress]), "get_course_grading", {
      course_id: "bio",
      exam: "midterm",
    });
    expect(answer).toMatchObject({ graded: 2, enrolled: 3, share: 67 });
  });

  it("answer the named record's not-found error first", async () => {
    const { outcome } = await call(world(school(), [progress]), "get_course_grading", {
      course_id: "chem",
      exam: "midterm",
    });
    expect(failure(outcome)).toBe("COURSE_NOT_FOUND");
  });
});

describe("a list of keys and a sum of products", () => {
  const garage = () => ({
    garage_spots: {
      "A-2": { floor: 1, hourly_rate: 3, hours_booked: 4, occupied: false },
      "A-1": { floor: 1, hourly_rate: 3, hours_booked: 2, occupied: true },
      "B-1": { floor: 2, hourly_rate: 2, hours_booked: 0, occupied: false },
    },
  });
  const report = tool(
    "get_garage_report",
    "Occupancy report.\n\n**Response**\n- `free_spots` - codes of spots with occupied false, sorted ascending\n- `booked_value` - sum of hourly_rate x hours_booked over all spots",
    {},
  );

  it("answer the keys of the records the words select, and a sum of two fields multiplied", async () => {
    const { answer } = await call(world(garage(), [report]), "get_garage_report", {});
    expect(answer).toMatchObject({ free_spots: ["A-2", "B-1"], booked_value: 18 });
  });
});

describe("what is not computed", () => {
  const stock = () => ({
    stock_items: {
      i1: { sku: "i1", status: "sellable", qty: 3 },
      i2: { sku: "i2", status: "damaged", qty: 1 },
    },
  });

  it("a count whose words select records no field says (left a guess, and said to be)", () => {
    const audit = tool(
      "get_stock_audit",
      "Audit figures.",
      {},
      [],
      [],
      outputs({
        returned_count: { ...integer, description: "Number of items returned to the shelf by customers" },
      }),
    );
    const { report } = inferred(world(stock(), [audit]), "get_stock_audit");
    expect(report.verdict).not.toBe("inferred");
    expect(report.notes.join(" ")).not.toMatch(/answers returned_count/);
  });

  it("a count per group, which is not one number", () => {
    const perStatus = tool(
      "get_stock_breakdown",
      "Breakdown.",
      {},
      [],
      [],
      outputs({
        by_status: { description: "object with one key per status, each the number of items in it" },
      }),
    );
    const { report } = inferred(world(stock(), [perStatus]), "get_stock_breakdown");
    expect(report.notes.join(" ")).not.toMatch(/answers by_status/);
  });

  it("a tool whose verb toolsim does not know, which may change what it counts", () => {
    const updater = tool(
      "stock_rebalancer",
      "Moves stock between items.",
      {},
      [],
      [],
      outputs({ item_count: { ...integer, description: "Number of items" } }),
    );
    const { report } = inferred(world(stock(), [updater]), "stock_rebalancer");
    expect(report.verdict).toBe("not inferred");
  });
});

describe("fields the docs define by an argument, a part of the state or arithmetic on the record", () => {
  const venue = () => ({
    venue_rooms: {
      R1: { capacity: 10, attendees: ["ana", "bo"], note: null },
      R2: { capacity: 4, attendees: [], note: "No projector" },
    },
    venue_holds: [
      { hold_id: "H1", room: "R1", seats: 3, state: "held" },
      { hold_id: "H2", room: "R1", seats: 2, state: "released" },
      { hold_id: "H3", room: "R2", seats: 1, state: "held" },
    ],
    venue_config: { opening: "08:00", closing: "22:00", strict: false },
  });
  const list = tool(
    "venue_list_rooms",
    'Lists rooms.\n\nReturns { "rooms": [...] } where seats_free = capacity minus the sum of `seats` over holds for that room whose state is "held".',
    {},
  );
  const get = tool(
    "venue_get_room",
    'Returns one room: { "room_id", "capacity", "note", "seats_free", "spots_left" }; seats_free is computed as in venue_list_rooms; spots_left = capacity minus the number of entries in attendees.',
    { room_id: text },
  );
  const remove = tool(
    "venue_remove_room",
    "Removes a room.\n\nResponse fields:\n- `removed` - the id of the removed room.",
    { room_id: text },
  );
  const rooms = tool(
    "list_person_rooms",
    "Rooms a person attends.\n\nReturns:\n- `person`, `checked_at` (when the call ran)\n- `room_ids` - ids of all rooms whose attendees contain the person",
    { person: text },
  );
  const config = tool("venue_get_config", "Returns { config: <all venue_config fields> }.", {});
  const strict = tool("venue_set_strict", "Turns strict mode on or off. Returns { config }.", {
    strict: { type: "boolean" },
  });
  const all = () => world(venue(), [list, get, remove, rooms, config, strict]);

  it("answer a number of the record less a sum over the records linked to it, defined once for the API", async () => {
    const { answer, report } = await call(all(), "venue_get_room", { room_id: "R1" });
    expect(answer).toMatchObject({ seats_free: 7, spots_left: 8 });
    expect(report.notes.join(" ")).toMatch(/seats_free by the arithmetic its docs give/);
  });

  it("answer null where the record holds null, not a made-up value of the type", () => {
    const { tool: got } = inferred(all(), "venue_get_room");
    const note = ((got.outputSchema?.properties ?? {}) as Record<string, { type?: unknown }>).note;
    expect(note?.type).toEqual(["string", "null"]);
  });

  it("repeat the argument a field is said to be", async () => {
    const { answer } = await call(all(), "venue_remove_room", { room_id: "R2" });
    expect(answer).toMatchObject({ removed: "R2" });
  });

  it("answer the keys of the records whose list holds the argument, from an item naming two fields", async () => {
    const { answer, tool: got } = await call(all(), "list_person_rooms", { person: "bo" });
    expect(Object.keys((got.outputSchema?.properties as object) ?? {})).toEqual([
      "person",
      "checked_at",
      "room_ids",
    ]);
    expect(answer).toMatchObject({ room_ids: ["R1"] });
  });

  it("answer a part of the state a field is said to be, in every tool that names the field", async () => {
    const read = await call(all(), "venue_get_config", {});
    expect(read.answer).toMatchObject({ config: { opening: "08:00", strict: false } });
    const set = await call(all(), "venue_set_strict", { strict: true });
    expect(set.answer).toMatchObject({ config: { opening: "08:00", strict: true } });
  });
});

describe("fields of each item of a list", () => {
  const shelf = () => ({
    shelf_boxes: {
      "box-a": { label: "Cables", slots: 4, items: ["hdmi", "usb"], tags: { red: true } },
      "box-b": { label: "Tools", slots: 2, items: [], tags: {} },
    },
    shelf_loans: [
      { loan_id: 1, box: "box-a", units: 2, state: "out" },
      { loan_id: 2, box: "box-a", units: 1, state: "returned" },
    ],
  });
  const list = tool(
    "list_shelf_boxes",
    "Lists boxes.\n\n### Response fields\n- `boxes` - array, one entry per box:\n  - `box_id`, `label`\n  - `item_count` - number of entries in `items`\n  - `free_slots` - slots minus the number of entries in items\n  - `units_out` - sum of units over loans for that box whose state is out\n  - `tag_count`\n  - `dust_level` - how dusty it looks",
    {},
  );

  it("answers each item with its list counts, arithmetic on it and sums over the records linked to it", async () => {
    const { answer } = await call(world(shelf(), [list]), "list_shelf_boxes", {});
    const boxes = (answer as { boxes: Array<Record<string, unknown>> }).boxes;
    expect(boxes).toContainEqual(
      expect.objectContaining({ label: "Cables", item_count: 2, free_slots: 2, units_out: 2, tag_count: 1 }),
    );
    expect(boxes).toContainEqual(
      expect.objectContaining({ label: "Tools", item_count: 0, free_slots: 2, units_out: 0, tag_count: 0 }),
    );
  });

  it("names the item fields no words explain, and is partly inferred for them", () => {
    const { report } = inferred(world(shelf(), [list]), "list_shelf_boxes");
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(/each boxes item that no record keeps: dust_level/);
  });
});

describe("counts per value, means, and an optional argument that narrows them", () => {
  const jobs = () => ({
    farm_pipelines: { web: { repo: "acme/web" }, api: { repo: "acme/api" } },
    farm_jobs: {
      J1: { pipeline: "web", state: "done", seconds: 100 },
      J2: { pipeline: "web", state: "failed", seconds: 300 },
      J3: { pipeline: "api", state: "done", seconds: null },
      J4: { pipeline: "api", state: "queued", seconds: null },
    },
  });
  const stats = tool(
    "farm_job_stats",
    "Job figures, optionally for one pipeline. Returns {by_state: {queued, done, failed, skipped} (all four keys, 0 if none), mean_seconds: mean seconds of the jobs}. Errors: PIPELINE_NOT_FOUND.",
    { pipeline: text },
    [],
  );

  it("count each listed value, average what holds a number, over all the records", async () => {
    const { answer, report } = await call(world(jobs(), [stats]), "farm_job_stats", {});
    expect(answer).toMatchObject({
      by_state: { queued: 1, done: 2, failed: 1, skipped: 0 },
      mean_seconds: 200,
    });
    // the pipeline's not-found error is left to no effect, and the verdict says so
    expect(report.gaps.join(" ")).toMatch(/PIPELINE_NOT_FOUND is answered by no effect/);
  });

  it("keep to the records of the pipeline when one is given", async () => {
    const { answer } = await call(world(jobs(), [stats]), "farm_job_stats", { pipeline: "api" });
    expect(answer).toMatchObject({ by_state: { queued: 1, done: 1, failed: 0, skipped: 0 } });
  });
});
