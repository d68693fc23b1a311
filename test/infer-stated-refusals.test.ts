import { describe, expect, it } from "vitest";
import { call, failure, inferred, integer, outputs, text, tool, world } from "./support/infer-world.js";

/** Refusals and changes the docs state in words: statuses an error names, flags, times, defaults, positions. */
describe("an error that names the statuses it refuses", () => {
  const pipeline = () => ({
    deployments: [
      { id: "dep_1", service: "api", status: "running" },
      { id: "dep_2", service: "web", status: "succeeded" },
      { id: "dep_3", service: "api", status: "queued" },
    ],
  });
  const cancel = tool(
    "cancel_deployment",
    "Cancel a queued or running deployment: status -> cancelled. Returns {id, status}. Errors: DEPLOYMENT_NOT_FOUND, NOT_CANCELLABLE (status is succeeded, failed or cancelled).",
    { deployment_id: text },
  );

  it("refuses those statuses with its own code, and acts on the others", async () => {
    const refused = await call(world(pipeline(), [cancel]), "cancel_deployment", { deployment_id: "dep_2" });
    expect(failure(refused.outcome)).toBe("NOT_CANCELLABLE");
    expect((refused.after.deployments as Array<{ status: string }>)[1]?.status).toBe("succeeded");
    const done = await call(world(pipeline(), [cancel]), "cancel_deployment", { deployment_id: "dep_3" });
    expect((done.after.deployments as Array<{ status: string }>)[2]?.status).toBe("cancelled");
  });

  const hold = tool(
    "hold_ticket",
    "Errors, in this order: TICKET_NOT_FOUND if no ticket has the id; TICKET_CLOSED if the ticket is currently closed; ALREADY_HELD if it is already held.",
    { ticket_id: text },
  );
  const desk = () => ({
    desk_tickets: {
      T1: { subject: "Printer", status: "open" },
      T2: { subject: "VPN", status: "closed" },
      T3: { subject: "Mail", status: "held" },
    },
  });

  it("reads a condition after each code, each refusing with its own code", async () => {
    const closed = await call(world(desk(), [hold]), "hold_ticket", { ticket_id: "T2" });
    expect(failure(closed.outcome)).toBe("TICKET_CLOSED");
    const held = await call(world(desk(), [hold]), "hold_ticket", { ticket_id: "T3" });
    expect(failure(held.outcome)).toBe("ALREADY_HELD");
  });
});

describe("a verb the description opens with, before a known verb in the noun", () => {
  const alerts = () => ({
    search_alerts: [
      { alert_id: 1, query: "rust jobs", status: "active" },
      { alert_id: 2, query: "go jobs", status: "snoozed" },
    ],
  });
  const snooze = tool(
    "snooze_search_alert",
    'Snoozes an active alert so no mail goes out; status becomes "snoozed". Returns {alert_id, status}.',
    { alert_id: integer },
  );

  it("changes the record instead of reading it, and is not annotated read-only", async () => {
    const { after } = await call(world(alerts(), [snooze]), "snooze_search_alert", { alert_id: 1 });
    expect((after.search_alerts as Array<{ status: string }>)[0]?.status).toBe("snoozed");
    expect(inferred(world(alerts(), [snooze]), "snooze_search_alert").report.verdict).not.toBe(
      "not inferred",
    );
  });
});

describe("a new record's place in an ordered list, and defaults told in words", () => {
  const clinic = () => ({
    waitlist_entries: [
      { entry_id: 7, patient: "ana", urgent: true },
      { entry_id: 8, patient: "bo", urgent: false },
    ],
    next_entry_id: 9,
  });
  const join = tool(
    "add_waitlist_entry",
    "Adds a patient to the end of the waitlist. The entry id is the current next_entry_id, which is then increased by 1. Returns {entry_id, position: <1-based place in the waitlist>}.",
    { patient: text, urgent: { type: "boolean", description: "Seen first when true; default false." } },
    ["patient"],
    [],
    outputs({ entry_id: integer, position: integer }),
  );

  it("answers the place the record has, and stores the default left out", async () => {
    const { after, answer } = await call(world(clinic(), [join]), "add_waitlist_entry", { patient: "cy" });
    expect(answer).toMatchObject({ entry_id: 9, position: 3 });
    expect(after.waitlist_entries).toContainEqual({ entry_id: 9, patient: "cy", urgent: false });
  });
});

describe("a record kept by name that a tool's name puts something into", () => {
  const league = () => ({
    league_squads: {
      falcons: { coach: "ria", capacity: 2, players: ["al", "bea"] },
      otters: { coach: "sol", capacity: 4, players: ["cam"] },
    },
  });
  const add = tool(
    "add_player_to_squad",
    "Append a player to a squad. Fails if the squad does not exist, the player is already on it, or the squad is at capacity. Returns the squad's players.",
    { squad: text, player: text },
  );

  it("appends to that record's list, refusing a full one and one already there", async () => {
    const ok = await call(world(league(), [add]), "add_player_to_squad", { squad: "otters", player: "dee" });
    const squads = ok.after.league_squads as Record<string, { players: string[] }>;
    expect(squads.otters?.players).toEqual(["cam", "dee"]);
    const full = await call(world(league(), [add]), "add_player_to_squad", {
      squad: "falcons",
      player: "dee",
    });
    expect(failure(full.outcome)).toBe("SQUAD_AT_CAPACITY");
    const twice = await call(world(league(), [add]), "add_player_to_squad", {
      squad: "otters",
      player: "cam",
    });
    expect(failure(twice.outcome)).toMatch(/ALREADY/);
    const missing = await call(world(league(), [add]), "add_player_to_squad", {
      squad: "hawks",
      player: "x",
    });
    expect(failure(missing.outcome)).toBe("SQUAD_NOT_FOUND");
  });
});

describe("a change whose time the records keep instead of a status", () => {
  const polls = () => ({
    team_polls: [
      { id: 1, question: "Lunch?", closed_at: null },
      { id: 2, question: "Offsite?", closed_at: "2026-02-01T10:00:00Z" },
    ],
  });
  const close = tool(
    "close_poll",
    "Close a poll: closed_at is set to now. Returns the poll. Errors: poll_not_found, already_closed.",
    { poll_id: integer },
  );

  it("sets the time, invents no status, and refuses a record that has it", async () => {
    const { after } = await call(world(polls(), [close]), "close_poll", { poll_id: 1 });
    const first = (after.team_polls as Array<Record<string, unknown>>)[0];
    expect(first?.closed_at).toBeTypeOf("string");
    expect(first).not.toHaveProperty("status");
    const again = await call(world(polls(), [close]), "close_poll", { poll_id: 2 });
    expect(failure(again.outcome)).toBe("ALREADY_CLOSED");
  });
});

describe("a device refusing a command while a flag holds", () => {
  const kettle = () => ({ kettle: { target_c: 80, child_lock: true, heating: false } });
  const set = tool(
    "set_kettle_target",
    "Sets target_c. Fails while the child lock is on. Returns {target_c}.",
    { target_c: integer },
  );

  it("refuses while the flag is on, and sets the field once it is off", async () => {
    const refused = await call(world(kettle(), [set]), "set_kettle_target", { target_c: 95 });
    expect(failure(refused.outcome)).toBe("CHILD_LOCK");
    const unlocked = { kettle: { target_c: 80, child_lock: false, heating: false } };
    const done = await call(world(kettle(), [set]), "set_kettle_target", { target_c: 95 }, unlocked);
    expect((done.after.kettle as { target_c: number }).target_c).toBe(95);
  });
});

describe("amounts added by the description's words", () => {
  const arcade = () => ({
    arcade_card: { holder: "kim", credits: 20, credit_limit: 50 },
    arcade_games: { PAC: { name: "Pac-Man", price: 2, plays: 0 } },
  });
  const load = tool(
    "load_arcade_card",
    "Records that credits were added to the card. Returns {credits: <new total>}. Errors: OVER_LIMIT if credits plus the amount would exceed credit_limit.",
    { credits: integer },
  );
  const create = tool(
    "add_arcade_game",
    "Adds a new game under the given code. `plays` defaults to 0.\n\n**Errors**\n- `GAME_EXISTS` - a game with this code is already listed.\n- `INVALID_PRICE` - `price` is zero or negative.",
    { code: text, name: text, price: integer, plays: integer },
    ["code", "name", "price"],
  );

  it("adds to the record's number, refusing to pass its limit", async () => {
    const { after } = await call(world(arcade(), [load, create]), "load_arcade_card", { credits: 10 });
    expect((after.arcade_card as { credits: number }).credits).toBe(30);
    const over = await call(world(arcade(), [load, create]), "load_arcade_card", { credits: 40 });
    expect(failure(over.outcome)).toBe("OVER_LIMIT");
  });

  it("makes a new record under the key it names, not an amount added to one", async () => {
    const made = await call(world(arcade(), [load, create]), "add_arcade_game", {
      code: "DKG",
      name: "Donkey Kong",
      price: 3,
    });
    expect((made.after.arcade_games as Record<string, unknown>).DKG).toMatchObject({
      name: "Donkey Kong",
      plays: 0,
    });
    const taken = await call(world(arcade(), [load, create]), "add_arcade_game", {
      code: "PAC",
      name: "x",
      price: 1,
    });
    expect(failure(taken.outcome)).toBe("GAME_EXISTS");
    const free = await call(world(arcade(), [load, create]), "add_arcade_game", {
      code: "ZZZ",
      name: "z",
      price: 0,
    });
    expect(failure(free.outcome)).toBe("INVALID_PRICE");
  });
});

describe("a command to the one device, told by what it leaves", () => {
  const mower = () => ({
    mower: { model: "Lawnbot 3", status: "charging", battery_pct: 90, zone: null, blade_height_mm: 40 },
    mower_garden_zones: ["front", "back", "orchard"],
  });
  const start = tool(
    "start_mowing",
    "Start mowing one zone. Sets status to `mowing` and zone to the zone name. Returns an error if the zone is not in the garden zones list, if the mower is already mowing, or if battery_pct is below 25. Returns the device.",
    { zone: text },
  );
  const pause = tool(
    "pause_mowing",
    "Pause the current run. Status becomes `paused`; zone is kept. Returns an error if the mower is not mowing.",
  );
  const recall = tool(
    "recall_mower",
    "Send the mower back to its charger. Status becomes `charging` and zone is cleared to null. Fails if no run is active.",
  );
  const tools = [start, pause, recall];

  it("sets what the description says, checks the zone against the state's list, and the battery", async () => {
    const started = await call(world(mower(), tools), "start_mowing", { zone: "back" });
    expect(started.after.mower).toMatchObject({ status: "mowing", zone: "back" });
    const unknown = await call(world(mower(), tools), "start_mowing", { zone: "roof" });
    expect(unknown.outcome.status).toBe("failed");
    const low = { ...mower(), mower: { ...mower().mower, battery_pct: 10 } };
    const flat = await call(world(mower(), tools), "start_mowing", { zone: "back" }, low);
    expect(failure(flat.outcome)).toBe("BATTERY_PCT_BELOW_25");
  });

  it("pauses only a run, and a command without arguments changes what its words say", async () => {
    const idle = await call(world(mower(), tools), "pause_mowing", {});
    expect(idle.outcome.status).toBe("failed");
    const mowing = { ...mower(), mower: { ...mower().mower, status: "mowing", zone: "front" } };
    const paused = await call(world(mower(), tools), "pause_mowing", {}, mowing);
    expect(paused.after.mower).toMatchObject({ status: "paused", zone: "front" });
    const back = await call(world(mower(), tools), "recall_mower", {}, mowing);
    expect(back.after.mower).toMatchObject({ status: "charging", zone: null });
  });
});

describe("a fill that stops at a stated level", () => {
  const cooler = () => ({ office_cooler: { water_ml: 15000, cups: 12 } });
  const refill = tool(
    "refill_water",
    "Adds water to the bottle; the level is capped at 19000 ml (any excess is spilled). Returns {water_ml}.",
    { amount_ml: integer },
  );

  it("adds up to the cap and no further", async () => {
    const some = await call(world(cooler(), [refill]), "refill_water", { amount_ml: 1000 });
    expect((some.after.office_cooler as { water_ml: number }).water_ml).toBe(16000);
    const much = await call(world(cooler(), [refill]), "refill_water", { amount_ml: 9000 });
    expect((much.after.office_cooler as { water_ml: number }).water_ml).toBe(19000);
  });
});

describe("a booking on a departure, documented in plain sections", () => {
  const tours = () => ({
    tour_departures: {
      "LIS-0900": { route: "Alfama walk", status: "scheduled", seats: 12 },
      "LIS-1400": { route: "Belém by tram", status: "cancelled", seats: 20 },
    },
    tour_bookings: [
      { ref: "TB-0007", departure: "LIS-0900", guest: "Ana", party: 2, status: "confirmed" },
      { ref: "TB-0008", departure: "LIS-0900", guest: "Rui", party: 1, status: "waitlisted" },
    ],
    tour_next_booking_number: 9,
  });
  const book = tool(
    "tour_book_departure",
    [
      "Creates a confirmed booking on a departure.",
      "",
      "Behaviour",
      '  The reference is "TB-" followed by tour_next_booking_number zero-padded to 4 digits; the number is then increased by 1. The booking is appended to tour_bookings as { ref, departure, guest, party, status: "confirmed" }.',
      "",
      "Errors",
      "  DEPARTURE_NOT_FOUND - no departure has this code.",
      '  DEPARTURE_CANCELLED - the departure\'s status is "cancelled".',
    ].join("\n"),
    { departure: text, guest: text, party: integer },
  );

  it("mints the reference the records are quoted by, in the status the docs store", async () => {
    const { after } = await call(world(tours(), [book]), "tour_book_departure", {
      departure: "LIS-0900",
      guest: "Eva",
      party: 3,
    });
    expect(after.tour_bookings).toContainEqual(
      expect.objectContaining({ ref: "TB-0009", guest: "Eva", status: "confirmed" }),
    );
    expect(after.tour_next_booking_number).toBe(10);
  });

  it("refuses a departure in the status its error names, with that error's code", async () => {
    const refused = await call(world(tours(), [book]), "tour_book_departure", {
      departure: "LIS-1400",
      guest: "Eva",
      party: 1,
    });
    expect(failure(refused.outcome)).toBe("DEPARTURE_CANCELLED");
    expect(refused.after.tour_bookings).toHaveLength(2);
  });
});

describe("conditions a call needs, and ranges in brackets", () => {
  const printer = () => ({
    resin_printer: { lid: "closed", status: "idle", safety_lock: false, exposure_s: 8, layer_um: 50 },
  });
  const start = tool(
    "begin_resin_print",
    "Begins printing the loaded model. Fails unless the lid is closed, the status is idle and the safety lock is off. Status becomes `printing`.",
  );
  const tune = tool(
    "set_resin_exposure",
    "Set exposure_s (1-30) and/or layer_um (10-100). If any given value is out of range the call fails and nothing changes.",
    { exposure_s: integer, layer_um: integer },
    [],
  );

  it("refuses when a condition the call needs does not hold, and starts when all do", async () => {
    const open = { resin_printer: { ...printer().resin_printer, lid: "open" } };
    expect((await call(world(printer(), [start, tune]), "begin_resin_print", {}, open)).outcome.status).toBe(
      "failed",
    );
    const locked = { resin_printer: { ...printer().resin_printer, safety_lock: true } };
    expect(
      (await call(world(printer(), [start, tune]), "begin_resin_print", {}, locked)).outcome.status,
    ).toBe("failed");
    const started = await call(world(printer(), [start, tune]), "begin_resin_print", {});
    expect((started.after.resin_printer as { status: string }).status).toBe("printing");
  });

  it("checks each argument against the range after its name", async () => {
    const bad = await call(world(printer(), [start, tune]), "set_resin_exposure", { exposure_s: 45 });
    expect(failure(bad.outcome)).toBe("EXPOSURE_S_OUT_OF_RANGE");
    const good = await call(world(printer(), [start, tune]), "set_resin_exposure", { layer_um: 20 });
    expect((good.after.resin_printer as { layer_um: number }).layer_um).toBe(20);
  });
});
