import { describe, expect, it } from "vitest";
import { call, failure, inferred, integer, text, tool, world } from "./support/infer-world.js";

/** Keys, counts, starting values and answers the docs state in Markdown or in words. */
describe("a record keyed by an argument the docs call its key", () => {
  const gym = () => ({
    gym_lockers: {
      "L-01": { zone: "north", visits: 4, status: "free" },
      "L-02": { zone: "south", visits: 9, status: "broken" },
    },
  });
  const visit = tool(
    "log_locker_visit",
    "Log one use of a locker: increments its `visits` by 1.\n\n**Returns**:\n- `code` — the locker\n- `visits` — the new count\n\n**Errors** (nothing changes on error):\n- `LOCKER_NOT_FOUND` — no locker with this code\n- `LOCKER_BROKEN` — the locker's status is `broken`",
    { code: { type: "string", description: "Locker code, a key of gym_lockers (e.g. L-01)." } },
  );

  it("reads the errors under a heading with a remark, and moves the count a making verb states", async () => {
    const done = await call(world(gym(), [visit]), "log_locker_visit", { code: "L-01" });
    expect((done.after.gym_lockers as Record<string, { visits: number }>)["L-01"]?.visits).toBe(5);
    const unknown = await call(world(gym(), [visit]), "log_locker_visit", { code: "L-09" });
    expect(failure(unknown.outcome)).toBe("LOCKER_NOT_FOUND");
    const broken = await call(world(gym(), [visit]), "log_locker_visit", { code: "L-02" });
    expect(failure(broken.outcome)).toBe("LOCKER_BROKEN");
  });

  const check = tool(
    "inspect_locker",
    "Records an inspection of a locker and bumps nothing else.\n\nErrors:\n- `LOCKER_NOT_FOUND` — no locker with this code",
    { code: text },
  );

  it("finds the collection a not-found error names with the argument, where no field has its name", () => {
    const { tool: found } = inferred(world(gym(), [check]), "inspect_locker");
    expect(JSON.stringify(found.effects)).toContain("gym_lockers/{code}");
  });

  const shelves = () => ({ shelves: { S1: { label: "Tools" }, S2: { label: "Pots" } } });
  const find = tool("find_shelf", "Finds a shelf. Errors: SHELF_NOT_FOUND if no shelf has that label.", {
    label: text,
  });

  it("takes an argument the records keep as a field for a lookup, not a key", async () => {
    const found = await call(world(shelves(), [find]), "find_shelf", { label: "S1" });
    expect(failure(found.outcome)).toBe("SHELF_NOT_FOUND");
  });
});

describe("a new record filed under the key the docs give, with the values they state", () => {
  const depot = () => ({
    depot_parcels: {
      "TRK-1": { carrier: "swiftpost", weight_kg: 2, attempts: 1, status: "out" },
    },
    depot_carriers: ["swiftpost", "greenline"],
  });
  const receive = tool(
    "receive_parcel",
    "Register a parcel at the depot. Adds `depot_parcels[tracking]` with the given fields, `status` = `held` and `attempts` = 0.\n\n**Errors** (checked in this order):\n- `PARCEL_EXISTS` — a parcel with this tracking number is already registered\n- `UNKNOWN_CARRIER` — `carrier` is not in `depot_carriers`",
    { tracking: text, carrier: text, weight_kg: integer },
  );

  it("keys it by the argument, starts the stated fields, and refuses a taken key and an unlisted value", async () => {
    const made = await call(world(depot(), [receive]), "receive_parcel", {
      tracking: "TRK-2",
      carrier: "greenline",
      weight_kg: 5,
    });
    expect((made.after.depot_parcels as Record<string, unknown>)["TRK-2"]).toMatchObject({
      carrier: "greenline",
      attempts: 0,
      status: "held",
    });
    const taken = await call(world(depot(), [receive]), "receive_parcel", {
      tracking: "TRK-1",
      carrier: "greenline",
      weight_kg: 1,
    });
    expect(failure(taken.outcome)).toBe("PARCEL_EXISTS");
    const unlisted = await call(world(depot(), [receive]), "receive_parcel", {
      tracking: "TRK-3",
      carrier: "pigeon",
      weight_kg: 1,
    });
    expect(failure(unlisted.outcome)).toBe("UNKNOWN_CARRIER");
  });
});

describe("arguments a description says a field takes, and codes told with their conditions", () => {
  const claims = () => ({
    insurance_claims: [
      { claim_id: "C-1", holder: "ana", status: "open", adjuster: null },
      { claim_id: "C-2", holder: "bo", status: "settled", adjuster: "kim" },
    ],
    insurance_adjusters: ["kim", "raj"],
  });
  const rule = tool(
    "rule_on_claim",
    "Records an adjuster's ruling on an open claim. The verdict is either settled or denied and becomes the claim's new status, and the adjuster's name is written into the claim's adjuster field. Checked in this order: CLAIM_NOT_FOUND when the identifier is unknown, CLAIM_NOT_OPEN when the claim is not in the open status.",
    { claim_id: text, verdict: { type: "string", enum: ["settled", "denied"] }, adjuster: text },
  );

  it("sets each field from the argument the words give it, guarded by the stated status", async () => {
    const ruled = await call(world(claims(), [rule]), "rule_on_claim", {
      claim_id: "C-1",
      verdict: "denied",
      adjuster: "raj",
    });
    expect((ruled.after.insurance_claims as unknown[])[0]).toMatchObject({
      status: "denied",
      adjuster: "raj",
    });
    const closed = await call(world(claims(), [rule]), "rule_on_claim", {
      claim_id: "C-2",
      verdict: "denied",
      adjuster: "raj",
    });
    expect(failure(closed.outcome)).toBe("CLAIM_NOT_OPEN");
  });
});

describe("a domain verb whose docs say the record goes", () => {
  const assets = () => ({
    it_assets: [
      { asset_id: "A1", kind: "laptop", status: "in use", tags: ["finance", "loaner"] },
      { asset_id: "A2", kind: "monitor", status: "spare", tags: [] },
    ],
  });
  const retire = tool(
    "retire_asset",
    "Retires an asset. Retiring deletes the record outright from it_assets; the assets after it move up one place. Returns {asset_id, retired: true}.",
    { asset_id: text },
  );
  const untag = tool(
    "untag_asset",
    "`tag` is removed from the asset's `tags`; the order of the others is kept. Returns {asset_id, tags}.",
    { asset_id: text, tag: text },
  );

  it("deletes it, while taking a value from a list it keeps changes only the list", async () => {
    const gone = await call(world(assets(), [retire]), "retire_asset", { asset_id: "A1" });
    expect((gone.after.it_assets as Array<{ asset_id: string }>).map((a) => a.asset_id)).toEqual(["A2"]);
    const untagged = await call(world(assets(), [untag]), "untag_asset", { asset_id: "A1", tag: "loaner" });
    expect((untagged.after.it_assets as unknown[])[0]).toMatchObject({ asset_id: "A1", tags: ["finance"] });
  });
});

describe("an answer that gives a changed field's value from before the call", () => {
  const loyalty = () => ({
    loyalty_members: {
      M1: { name: "Ines", tier: "silver", points: 120 },
    },
  });
  const promote = tool(
    "set_member_tier",
    "Sets the member's tier to the given tier.\n\nReturns:\n  member_id - the member.\n  previous_tier - tier before the call.\n  tier - the new tier.",
    { member_id: text, tier: { type: "string", enum: ["bronze", "silver", "gold"] } },
  );

  it("reads the record before the change and answers the old value beside the new", async () => {
    const done = await call(world(loyalty(), [promote]), "set_member_tier", {
      member_id: "M1",
      tier: "gold",
    });
    expect(done.answer).toMatchObject({ previous_tier: "silver", tier: "gold" });
    expect((done.after.loyalty_members as Record<string, { tier: string }>).M1?.tier).toBe("gold");
  });
});

describe("a table of transitions an argument picks", () => {
  const hangar = () => ({
    hangar_jobs: [
      { job_id: "J1", aircraft: "G-ABCD", status: "scheduled" },
      { job_id: "J2", aircraft: "G-EFGH", status: "in_progress" },
      { job_id: "J3", aircraft: "G-IJKL", status: "signed_off" },
    ],
  });
  const advance = tool(
    "advance_job",
    "Move a maintenance job along.\n\n| event | from | to |\n|---|---|---|\n| `start` | `scheduled` | `in_progress` |\n| `finish` | `in_progress` | `signed_off` |\n| `abandon` | `scheduled` or `in_progress` | `abandoned` |\n\nErrors: JOB_NOT_FOUND if no job has the id; BAD_EVENT if the job's status is not a from status of the event.",
    { job_id: text, event: { type: "string", enum: ["start", "finish", "abandon"] } },
  );

  it("moves the record to the row's status from the ones it allows, and refuses the others", async () => {
    const started = await call(world(hangar(), [advance]), "advance_job", { job_id: "J1", event: "start" });
    expect((started.after.hangar_jobs as Array<{ status: string }>)[0]?.status).toBe("in_progress");
    const abandoned = await call(world(hangar(), [advance]), "advance_job", {
      job_id: "J2",
      event: "abandon",
    });
    expect((abandoned.after.hangar_jobs as Array<{ status: string }>)[1]?.status).toBe("abandoned");
    const refused = await call(world(hangar(), [advance]), "advance_job", { job_id: "J3", event: "start" });
    expect(failure(refused.outcome)).toBe("BAD_EVENT");
  });
});

describe("a verb toolsim does not know, explained by the known one its docs open with", () => {
  const kennel = () => ({
    kennel_dogs: { rex: { breed: "collie", nights: 2 }, pip: { breed: "whippet", nights: 5 } },
  });
  const board = tool(
    "board_dog",
    "Register a dog for boarding. Adds `kennel_dogs[name]` with the given breed and `nights` = 0.\n\nErrors:\n- `DOG_EXISTS` — a dog with this name is already boarded",
    { name: text, breed: text },
  );

  it("makes the record its opening verb makes, where no other rule reads the name's verb", async () => {
    const made = await call(world(kennel(), [board]), "board_dog", { name: "fern", breed: "lurcher" });
    expect((made.after.kennel_dogs as Record<string, unknown>).fern).toMatchObject({
      breed: "lurcher",
      nights: 0,
    });
    const taken = await call(world(kennel(), [board]), "board_dog", { name: "rex", breed: "lurcher" });
    expect(failure(taken.outcome)).toBe("DOG_EXISTS");
  });
});

describe("a number moved by an argument, within stated bounds", () => {
  const farm = () => ({
    farm_pens: [
      { pen_id: "P1", animal: "goats", heads: 3, status: "open" },
      { pen_id: "P2", animal: "sheep", heads: 6, status: "open" },
    ],
  });
  const adjust = tool(
    "adjust_pen_heads",
    "Move animals in or out of a pen: heads becomes heads + change.\n\nReturns:\n  pen_id - the pen.\n  previous_heads - count before the call.\n  heads - count after the call.\n\nErrors:\n  PEN_NOT_FOUND - no pen with that pen_id.\n  PEN_LIMIT - heads + change would be below 0 or above 8.\n  NO_CHANGE - change is 0.",
    { pen_id: text, change: integer },
  );

  it("adds the argument, answers the count before it, and refuses a move past the bounds or by nothing", async () => {
    const moved = await call(world(farm(), [adjust]), "adjust_pen_heads", { pen_id: "P1", change: 4 });
    expect((moved.after.farm_pens as Array<{ heads: number }>)[0]?.heads).toBe(7);
    expect(moved.answer).toMatchObject({ previous_heads: 3, heads: 7 });
    const over = await call(world(farm(), [adjust]), "adjust_pen_heads", { pen_id: "P2", change: 3 });
    expect(failure(over.outcome)).toBe("PEN_LIMIT");
    const under = await call(world(farm(), [adjust]), "adjust_pen_heads", { pen_id: "P1", change: -4 });
    expect(failure(under.outcome)).toBe("PEN_LIMIT");
    const none = await call(world(farm(), [adjust]), "adjust_pen_heads", { pen_id: "P1", change: 0 });
    expect(failure(none.outcome)).toBe("NO_CHANGE");
  });

  const relabel = tool(
    "set_pen_status",
    "Sets the pen's status to the given status.\n\nErrors:\n  PEN_NOT_FOUND - no pen with that pen_id.\n  SAME_STATUS - the requested status equals the current one.",
    { pen_id: text, status: { type: "string", enum: ["open", "closed"] } },
  );

  it("refuses setting a field to the value it already holds", async () => {
    const same = await call(world(farm(), [relabel]), "set_pen_status", { pen_id: "P1", status: "open" });
    expect(failure(same.outcome)).toBe("SAME_STATUS");
    const closed = await call(world(farm(), [relabel]), "set_pen_status", { pen_id: "P1", status: "closed" });
    expect((closed.after.farm_pens as Array<{ status: string }>)[0]?.status).toBe("closed");
  });
});

describe("an error told by the value of a flag", () => {
  const boats = () => ({
    marina_boats: {
      B1: { name: "Tern", berth: "A1", at_sea: true },
      B2: { name: "Skua", berth: "A2", at_sea: false },
    },
  });
  const moveBoat = tool(
    "change_berth",
    "Sets the boat's berth to the given berth.\n\nErrors:\n- `BOAT_NOT_FOUND` — unknown boat_id.\n- `BOAT_AT_SEA` — the boat's `at_sea` is `true`; it cannot be moved while out.",
    { boat_id: text, berth: text },
  );
  const radio = () => ({ radio_console: { on_air: false, volume: 60 } });
  const start = tool(
    "start_show",
    "Sets console on_air = true; returns the console; error ALREADY_ON_AIR if on_air is already true.",
  );

  it("refuses a record holding that value, and a device already in it", async () => {
    const out = await call(world(boats(), [moveBoat]), "change_berth", { boat_id: "B1", berth: "C3" });
    expect(failure(out.outcome)).toBe("BOAT_AT_SEA");
    const moved = await call(world(boats(), [moveBoat]), "change_berth", { boat_id: "B2", berth: "C3" });
    expect((moved.after.marina_boats as Record<string, { berth: string }>).B2?.berth).toBe("C3");
    const live = { radio_console: { on_air: true, volume: 60 } };
    expect(failure((await call(world(radio(), [start]), "start_show", {}, live)).outcome)).toBe(
      "ALREADY_ON_AIR",
    );
    const started = await call(world(radio(), [start]), "start_show", {});
    expect((started.after.radio_console as { on_air: boolean }).on_air).toBe(true);
  });
});

describe("lists kept per name in a map, and lists of what is refused", () => {
  const club = () => ({
    club_reading_lists: { autumn: ["Dune", "Emma"], winter: ["Ulysses", "Beloved"] },
    club_page_counts: { Dune: 412, Emma: 474, Ulysses: 730, Beloved: 324, Solaris: 204, Carrie: 199 },
    club_banned_books: ["Carrie"],
  });
  const add = tool(
    "club_add_book",
    "Appends book to the end of club_reading_lists[list]; returns {list, books} with the full list after the change; errors: LIST_NOT_FOUND, BOOK_UNKNOWN (not a key of club_page_counts), BOOK_BANNED (listed in club_banned_books), BOOK_ALREADY_LISTED.",
    { list: text, book: text },
    ["list", "book"],
    [],
    { outputSchema: { type: "object", properties: { list: text, books: { type: "array", items: text } } } },
  );
  const remove = tool(
    "club_remove_book",
    "Removes book from club_reading_lists[list], keeping the order of the rest; returns {list, books}; errors LIST_NOT_FOUND, BOOK_NOT_IN_LIST.",
    { list: text, book: text },
  );

  it("appends to the named list once, refusing unknown and refused values, and removes keeping the order", async () => {
    const added = await call(world(club(), [add]), "club_add_book", { list: "autumn", book: "Solaris" });
    expect((added.after.club_reading_lists as Record<string, string[]>).autumn).toEqual([
      "Dune",
      "Emma",
      "Solaris",
    ]);
    expect(added.answer).toMatchObject({ books: ["Dune", "Emma", "Solaris"] });
    const twice = await call(world(club(), [add]), "club_add_book", { list: "autumn", book: "Emma" });
    expect(failure(twice.outcome)).toBe("BOOK_ALREADY_LISTED");
    const banned = await call(world(club(), [add]), "club_add_book", { list: "autumn", book: "Carrie" });
    expect(failure(banned.outcome)).toBe("BOOK_BANNED");
    const unknown = await call(world(club(), [add]), "club_add_book", { list: "autumn", book: "Nope" });
    expect(failure(unknown.outcome)).toBe("BOOK_UNKNOWN");
    const noList = await call(world(club(), [add]), "club_add_book", { list: "spring", book: "Dune" });
    expect(failure(noList.outcome)).toBe("LIST_NOT_FOUND");
    const removed = await call(world(club(), [remove]), "club_remove_book", {
      list: "winter",
      book: "Ulysses",
    });
    expect((removed.after.club_reading_lists as Record<string, string[]>).winter).toEqual(["Beloved"]);
    const absent = await call(world(club(), [remove]), "club_remove_book", { list: "winter", book: "Dune" });
    expect(failure(absent.outcome)).toBe("BOOK_NOT_IN_LIST");
  });
});

describe("an error for every status but one", () => {
  const drafts = () => ({
    grant_proposals: [
      { proposal_id: "G1", title: "Wells", budget: 900, status: "draft" },
      { proposal_id: "G2", title: "Roads", budget: 400, status: "submitted" },
      { proposal_id: "G3", title: "Solar", budget: 700, status: "funded" },
    ],
  });
  const edit = tool(
    "update_proposal",
    "Updates a proposal's budget. Fails with PROPOSAL_NOT_FOUND when the id is unknown, and with PROPOSAL_LOCKED when the proposal's status is anything other than draft (submitted and funded proposals are frozen).",
    { proposal_id: text, budget: integer },
  );

  it("allows that one status and refuses the others", async () => {
    const edited = await call(world(drafts(), [edit]), "update_proposal", { proposal_id: "G1", budget: 950 });
    expect((edited.after.grant_proposals as Array<{ budget: number }>)[0]?.budget).toBe(950);
    const locked = await call(world(drafts(), [edit]), "update_proposal", { proposal_id: "G3", budget: 1 });
    expect(failure(locked.outcome)).toBe("PROPOSAL_LOCKED");
  });
});

describe("a delete refused while other records point to it, and a move's old place", () => {
  const storage = () => ({
    store_rooms: {
      attic: { name: "Attic", parent: null },
      shelf1: { name: "Shelf 1", parent: "attic" },
      shelf2: { name: "Shelf 2", parent: "attic" },
      box9: { name: "Box 9", parent: "shelf2" },
    },
    store_things: [
      { thing_id: "T1", name: "Lamp", room: "shelf1" },
      { thing_id: "T2", name: "Kite", room: "attic" },
    ],
  });
  const drop = tool(
    "delete_room",
    "Removes `store_rooms[code]`; only an empty leaf. Error codes: `ROOM_NOT_FOUND`; `ROOM_NOT_EMPTY` if any room has it as `parent` or any thing has it as `room`.",
    { code: { type: "string", description: "A key of store_rooms." } },
  );
  const move = tool(
    "move_thing",
    "Sets the thing's room to the given room.\n\nReturns:\n  thing_id - the thing.\n  from_room - where it was.\n  room - where it is now.",
    { thing_id: text, room: text },
  );

  it("deletes a room nothing points to, refuses one a room or a thing points to, and answers where a thing was", async () => {
    const gone = await call(world(storage(), [drop]), "delete_room", { code: "box9" });
    expect(Object.keys(gone.after.store_rooms as object)).not.toContain("box9");
    const parent = await call(world(storage(), [drop]), "delete_room", { code: "shelf2" });
    expect(failure(parent.outcome)).toBe("ROOM_NOT_EMPTY");
    const holding = await call(world(storage(), [drop]), "delete_room", { code: "shelf1" });
    expect(failure(holding.outcome)).toBe("ROOM_NOT_EMPTY");
    const moved = await call(world(storage(), [move]), "move_thing", { thing_id: "T1", room: "box9" });
    expect(moved.answer).toMatchObject({ from_room: "shelf1", room: "box9" });
  });
});
