import { describe, expect, it } from "vitest";
import { shapeOf } from "../src/infer/index.js";
import {
  call,
  error,
  failure,
  inferred,
  integer,
  outputs,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Records of one kind read or made through another: lists of what points to a record, a record
 * a verb toolsim does not know makes because its answer is that record's id, flags named by a
 * verb's participle, and searches over the fields their docs name.
 */

const gym = () => ({
  members: {
    "G-1": { member_id: "G-1", name: "Rosa", plan: "monthly" },
    "G-2": { member_id: "G-2", name: "Idris", plan: "yearly" },
  },
  visits: [
    { visit_id: "V-1", member_id: "G-1", day: "2026-02-01" },
    { visit_id: "V-2", member_id: "G-2", day: "2026-02-02" },
    { visit_id: "V-3", member_id: "G-1", day: "2026-02-03" },
  ],
});

describe("a list of records that point to the one an argument names", () => {
  const visits = tool("list_member_visits", "List a member's visits.", { member_id: text });

  it("answers the records whose link is the argument, and only those", async () => {
    const { answer, report } = await call(world(gym(), [visits]), "list_member_visits", { member_id: "G-1" });
    expect(report.verdict).toBe("inferred");
    expect((answer as { visit_id: string }[]).map((v) => v.visit_id)).toEqual(["V-1", "V-3"]);
  });

  it("answers an empty list for a member with none, and the member's not-found error for no member", async () => {
    const state = {
      ...gym(),
      members: { ...gym().members, "G-3": { member_id: "G-3", name: "Ola", plan: "day" } },
    };
    const none = await call(world(state, [visits]), "list_member_visits", { member_id: "G-3" });
    expect(none.outcome.status).toBe("applied");
    expect(none.answer).toEqual([]);
    const missing = await call(world(gym(), [visits]), "list_member_visits", { member_id: "G-9" });
    expect(failure(missing.outcome)).toBe("MEMBER_NOT_FOUND");
  });

  it("reads the member itself when the name names no list of another kind", async () => {
    const get = tool("get_member", "Get a member.", { member_id: text });
    const { answer } = await call(world(gym(), [get]), "get_member", { member_id: "G-2" });
    expect(answer).toMatchObject({ member_id: "G-2", plan: "yearly" });
  });
});

const studio = () => ({
  albums: {
    "AL-1": { album_id: "AL-1", title: "Coast", archived: false, pinned: true },
    "AL-2": { album_id: "AL-2", title: "Snow", archived: true, pinned: false },
  },
});

describe("a verb whose participle names a flag of the records", () => {
  it("sets the flag the verb names and no other", async () => {
    const archive = tool("archive_album", "Archive an album.", { album_id: text });
    const { after, report } = await call(world(studio(), [archive]), "archive_album", { album_id: "AL-1" });
    expect(report.verdict).toBe("inferred");
    expect((after.albums as Record<string, unknown>)["AL-1"]).toMatchObject({ archived: true, pinned: true });
    expect((after.albums as Record<string, Record<string, unknown>>)["AL-1"]?.status).toBeUndefined();
  });

  it("clears it for the verb undone, and finds an irregular participle", async () => {
    const unarchive = tool("unarchive_album", "Bring an album back from the archive.", { album_id: text });
    const back = await call(world(studio(), [unarchive]), "unarchive_album", { album_id: "AL-2" });
    expect((back.after.albums as Record<string, unknown>)["AL-2"]).toMatchObject({ archived: false });
    const hidden = { albums: { "AL-1": { album_id: "AL-1", title: "Coast", hidden: false } } };
    const hide = tool("hide_album", "Hide an album from the gallery.", { album_id: text });
    const gone = await call(world(hidden, [hide]), "hide_album", { album_id: "AL-1" });
    expect((gone.after.albums as Record<string, unknown>)["AL-1"]).toMatchObject({ hidden: true });
  });

  it("leaves a record without such a flag to the other rules, and answers the record's not-found error", async () => {
    const pin = tool("pin_album", "Pin an album.", { album_id: text });
    const missing = await call(world(studio(), [pin]), "pin_album", { album_id: "AL-9" });
    expect(failure(missing.outcome)).toBe("ALBUM_NOT_FOUND");
    const plain = { albums: { "AL-1": { album_id: "AL-1", title: "Coast" } } };
    const { report } = inferred(
      world(plain, [tool("frame_album", "Frame an album.", { album_id: text })]),
      "frame_album",
    );
    expect(report.verdict).not.toBe("inferred");
  });
});

const shed = () => ({
  tools: {
    "T-drill": { tool_id: "T-drill", label: "Cordless drill", units_available: 1 },
    "T-saw": { tool_id: "T-saw", label: "Jigsaw", units_available: 0 },
  },
  neighbours: { "N-1": { neighbour_id: "N-1", name: "Pia" } },
  lendings: {
    "LD-1": { lending_id: "LD-1", tool_id: "T-saw", neighbour_id: "N-1", until: "2026-03-09" },
  },
});

describe("a verb toolsim does not know, answering the id of a new record of another kind", () => {
  const lend = tool(
    "lend_tool",
    "Lend a tool to a neighbour until a date.",
    { tool_id: text, neighbour_id: text, until: text },
    ["tool_id", "neighbour_id", "until"],
    [],
    outputs({ lending_id: text }),
  );

  it("returning a lending ends it and puts the tool back; an unknown lending is not found", async () => {
    const giveBack = tool("return_tool", "Return a lent tool.", { lending_id: text });
    const { after, report } = await call(world(shed(), [giveBack]), "return_tool", { lending_id: "LD-1" });
    expect(report.verdict).toBe("inferred");
    expect(after.lendings).toEqual({});
    expect((after.tools as Record<string, { units_available: number }>)["T-saw"]?.units_available).toBe(1);
    const none = await call(world(shed(), [giveBack]), "return_tool", { lending_id: "LD-9" });
    expect(failure(none.outcome)).toBe("LENDING_NOT_FOUND");
  });

  it("makes that record from its arguments, with the next id, and takes one from what is left", async () => {
    const { after, answer, report } = await call(world(shed(), [lend]), "lend_tool", {
      tool_id: "T-drill",
      neighbour_id: "N-1",
      until: "2026-03-10",
    });
    expect(report.verdict).toBe("inferred");
    expect(answer).toMatchObject({ lending_id: "LD-2" });
    expect((after.lendings as Record<string, unknown>)["LD-2"]).toMatchObject({
      tool_id: "T-drill",
      neighbour_id: "N-1",
      until: "2026-03-10",
    });
    expect((after.tools as Record<string, { units_available: number }>)["T-drill"]?.units_available).toBe(0);
  });

  it("refuses when none is left, and for a tool or neighbour that does not exist", async () => {
    const args = { neighbour_id: "N-1", until: "2026-03-10" };
    const gone = await call(world(shed(), [lend]), "lend_tool", { ...args, tool_id: "T-saw" });
    expect(gone.outcome.status).toBe("failed");
    expect(
      failure(
        await call(world(shed(), [lend]), "lend_tool", { ...args, tool_id: "T-x" }).then((r) => r.outcome),
      ),
    ).toBe("TOOL_NOT_FOUND");
    const nobody = await call(world(shed(), [lend]), "lend_tool", {
      ...args,
      tool_id: "T-drill",
      neighbour_id: "N-7",
    });
    expect(failure(nobody.outcome)).toBe("NEIGHBOUR_NOT_FOUND");
  });

  it("a two-word verb is one verb: the noun after it is no verb", async () => {
    const checkout = tool(
      "check_out_tool",
      "Check a tool out for a neighbour.",
      { tool_id: text, neighbour_id: text, until: text },
      ["tool_id", "neighbour_id", "until"],
      [],
      outputs({ lending_id: text }),
    );
    const { after } = await call(world(shed(), [checkout]), "check_out_tool", {
      tool_id: "T-drill",
      neighbour_id: "N-1",
      until: "2026-03-11",
    });
    expect(Object.keys(after.lendings as object)).toEqual(["LD-1", "LD-2"]);
  });
});

describe("a search over the fields its docs name", () => {
  const pantry = () => ({
    recipes: {
      R1: { recipe_id: "R1", name: "Dal", cuisine: "Indian", notes: "lentils" },
      R2: { recipe_id: "R2", name: "Paella", cuisine: "Spanish", notes: "rice" },
      R3: { recipe_id: "R3", name: "Indian-style omelette", cuisine: "fusion", notes: "eggs" },
    },
  });

  it("matches any of the fields the argument's description names", async () => {
    const search = tool("search_recipes", "Search recipes.", {
      query: { type: "string", description: "Words to look for in the name or cuisine." },
    });
    const { answer } = await call(world(pantry(), [search]), "search_recipes", { query: "indian" });
    expect((answer as { recipe_id: string }[]).map((r) => r.recipe_id)).toEqual(["R1", "R3"]);
  });

  it("matches one field where the docs name none", async () => {
    const search = tool("search_recipes", "Search recipes.", { query: text });
    const { answer } = await call(world(pantry(), [search]), "search_recipes", { query: "spanish" });
    expect(answer).toEqual([]);
  });
});

const reading = () => ({
  books: {
    b1: { book_id: "b1", title: "Dune" },
    b2: { book_id: "b2", title: "Emma" },
  },
  shelves: { sh_summer: { shelf_id: "sh_summer", label: "Summer", book_ids: ["b1"], shared: false } },
  starred_book_ids: ["b2"],
});

describe("one record kept under a word key that is its own id", () => {
  it("is a collection: read by its id, created beside it with a minted id, never overwritten", async () => {
    const get = tool("get_shelf", "Get a shelf.", { shelf_id: text });
    const read = await call(world(reading(), [get]), "get_shelf", { shelf_id: "sh_summer" });
    expect(read.answer).toMatchObject({ shelf_id: "sh_summer", label: "Summer" });
    const create = tool(
      "create_shelf",
      "Create a shelf.",
      { label: text },
      ["label"],
      [],
      outputs({ shelf_id: text }),
    );
    const made = await call(world(reading(), [create]), "create_shelf", { label: "Winter" });
    const shelves = made.after.shelves as Record<string, { label: string }>;
    expect(shelves.sh_summer?.label).toBe("Summer");
    expect(Object.values(shelves).map((s) => s.label)).toEqual(["Summer", "Winter"]);
  });

  it("a list of keys named for another kind (`book_ids`) gains and loses keys of records that exist", async () => {
    const add = tool("add_book_to_shelf", "Put a book on a shelf.", { shelf_id: text, book_id: text });
    const added = await call(world(reading(), [add]), "add_book_to_shelf", {
      shelf_id: "sh_summer",
      book_id: "b2",
    });
    expect((added.after.shelves as Record<string, { book_ids: string[] }>).sh_summer?.book_ids).toEqual([
      "b1",
      "b2",
    ]);
    expect(Object.keys(added.after.books as object)).toEqual(["b1", "b2"]);
    const unknown = await call(world(reading(), [add]), "add_book_to_shelf", {
      shelf_id: "sh_summer",
      book_id: "b9",
    });
    expect(failure(unknown.outcome)).toBe("BOOK_NOT_FOUND");
    const take = tool("remove_book_from_shelf", "Take a book off a shelf.", {
      shelf_id: text,
      book_id: text,
    });
    const taken = await call(world(reading(), [take]), "remove_book_from_shelf", {
      shelf_id: "sh_summer",
      book_id: "b1",
    });
    expect((taken.after.shelves as Record<string, { book_ids: string[] }>).sh_summer?.book_ids).toEqual([]);
    expect(Object.keys(taken.after.books as object)).toEqual(["b1", "b2"]);
  });

  it("`make_shelf_shared` sets the flag its name ends with", async () => {
    const share = tool("make_shelf_shared", "Make a shelf shared with friends.", { shelf_id: text });
    const { after, report } = await call(world(reading(), [share]), "make_shelf_shared", {
      shelf_id: "sh_summer",
    });
    expect(report.verdict).toBe("inferred");
    expect((after.shelves as Record<string, unknown>).sh_summer).toMatchObject({
      shared: true,
      label: "Summer",
    });
  });

  it("a list kept at the top answers itself, not the whole world", async () => {
    const star = tool("star_book", "Star a book.", { book_id: text });
    const { answer } = await call(world(reading(), [star]), "star_book", { book_id: "b1" });
    expect(answer).toEqual({ starred_book_ids: ["b2", "b1"] });
  });
});

describe("units received and picked as a balance moves", () => {
  const bakery = () => ({
    bins: { FLOUR: { bin_id: "FLOUR", quantity: 12 }, SUGAR: { bin_id: "SUGAR", quantity: 3 } },
  });
  const args = { bin_id: text, quantity: { type: "integer", minimum: 1 } };

  it("receiving adds, picking takes, never below what is there, with an error named for what runs short", async () => {
    const receive = tool("receive_stock", "Receive units into a bin.", args);
    const got = await call(world(bakery(), [receive]), "receive_stock", { bin_id: "SUGAR", quantity: 4 });
    expect((got.after.bins as Record<string, { quantity: number }>).SUGAR?.quantity).toBe(7);
    const pick = tool("pick_stock", "Pick units out of a bin.", args);
    const picked = await call(world(bakery(), [pick]), "pick_stock", { bin_id: "FLOUR", quantity: 5 });
    expect((picked.after.bins as Record<string, { quantity: number }>).FLOUR?.quantity).toBe(7);
    const short = await call(world(bakery(), [pick]), "pick_stock", { bin_id: "SUGAR", quantity: 5 });
    expect(failure(short.outcome)).toBe("INSUFFICIENT_QUANTITY");
  });
});

describe("replies and ranges read with care", () => {
  const clinic = () => ({
    referrals: {
      "RF-1": {
        referral_id: "RF-1",
        patient: "Lu",
        clinic: "Eye",
        starts: "2026-03-04T10:00:00Z",
        ends: "2026-03-04T10:30:00Z",
      },
      "RF-2": {
        referral_id: "RF-2",
        patient: "Mo",
        clinic: "Skin",
        starts: "2026-03-06T09:00:00Z",
        ends: "2026-03-06T09:20:00Z",
      },
    },
  });

  it("answering with one of a few words makes no new record", async () => {
    const respond = tool("respond_to_referral", "Answer a referral.", {
      referral_id: text,
      answer: { type: "string", enum: ["accept", "decline"] },
    });
    const { after, report } = await call(world(clinic(), [respond]), "respond_to_referral", {
      referral_id: "RF-1",
      answer: "accept",
    });
    expect(Object.keys(after.referrals as object)).toEqual(["RF-1", "RF-2"]);
    expect(report.verdict).not.toBe("inferred");
  });

  it("a time window selects by when records start, where they have a start and an end", async () => {
    const list = tool(
      "list_referrals",
      "List referrals in a time window.",
      {
        time_min: { type: "string", format: "date-time" },
        time_max: { type: "string", format: "date-time" },
      },
      [],
    );
    const { answer } = await call(world(clinic(), [list]), "list_referrals", {
      time_min: "2026-03-05T00:00:00Z",
      time_max: "2026-03-07T00:00:00Z",
    });
    expect((answer as { referral_id: string }[]).map((r) => r.referral_id)).toEqual(["RF-2"]);
  });
});

describe("emptying what a name names, and taking what keeps a flag for it", () => {
  it("`clear_coat_check` empties the map its name names and answers it empty", async () => {
    const coats = { coat_check: { A1: "blue parka", A2: "red scarf" }, tickets_issued: 2 };
    const clear = tool("clear_coat_check", "Clear the coat check at closing.", {}, []);
    const { after, answer, report } = await call(world(coats, [clear]), "clear_coat_check", {});
    expect(report.verdict).toBe("inferred");
    expect(after).toMatchObject({ coat_check: {}, tickets_issued: 2 });
    expect(answer).toEqual({ coat_check: {} });
  });

  it("`rent_locker` sets the locker's `rented` and refuses one rented already", async () => {
    const lockers = {
      lockers: {
        "101": { number: "101", size: "S", rented: false },
        "102": { number: "102", size: "L", rented: true },
      },
    };
    const rent = tool("rent_locker", "Rent a locker.", { number: text });
    const { after, report } = await call(world(lockers, [rent]), "rent_locker", { number: "101" });
    expect(report.verdict).toBe("inferred");
    expect((after.lockers as Record<string, unknown>)["101"]).toMatchObject({ rented: true });
    const taken = await call(world(lockers, [rent]), "rent_locker", { number: "102" });
    expect(failure(taken.outcome)).toBe("LOCKER_ALREADY_RENTED");
  });
});

describe("objects kept by name inside records", () => {
  it("are a nested collection where one record's is empty, and their fields are not the holder's", () => {
    const seeds = {
      drawers: {
        D1: { label: "top", packets: { kale: { qty: 2 } } },
        D2: { label: "low", packets: {} },
      },
    };
    const shape = shapeOf([seeds]);
    const drawers = shape.collections.get("drawers");
    expect([...(drawers?.fields.keys() ?? [])]).toEqual(["label", "packets"]);
    expect(shape.parts.some((p) => p.kind === "collection" && p.path.join("/") === "drawers/*/packets")).toBe(
      true,
    );
  });
});

describe("a basket of lines of what a catalogue keeps", () => {
  const shop = () => ({
    catalogue: {
      K1: { sku_id: "K1", name: "Teapot", price: 30 },
      K2: { sku_id: "K2", name: "Mug", price: 8 },
    },
    basket: { lines: [{ sku_id: "K2", count: 1 }] },
    purchases: { "PU-1": { purchase_id: "PU-1", lines: [{ sku_id: "K1", count: 1 }], note: "gift" } },
  });
  const add = tool("add_to_basket", "Add some of a product to the basket.", { sku_id: text, count: integer });

  it("adds to the line that is there, makes the line that is not, and refuses what the catalogue lacks", async () => {
    const more = await call(world(shop(), [add]), "add_to_basket", { sku_id: "K2", count: 2 });
    expect((more.after.basket as { lines: unknown[] }).lines).toEqual([{ sku_id: "K2", count: 3 }]);
    const fresh = await call(world(shop(), [add]), "add_to_basket", { sku_id: "K1", count: 1 });
    expect((fresh.after.basket as { lines: unknown[] }).lines).toEqual([
      { sku_id: "K2", count: 1 },
      { sku_id: "K1", count: 1 },
    ]);
    // a catalogue is named as a whole: what it lacks is a product, named by its key
    const none = await call(world(shop(), [add]), "add_to_basket", { sku_id: "K9", count: 1 });
    expect(failure(none.outcome)).toBe("SKU_NOT_FOUND");
  });

  it("a purchase the description says empties the basket takes its lines and leaves it empty", async () => {
    const buy = tool(
      "make_purchase",
      "Buy everything in the basket; the basket is emptied.",
      { note: text },
      ["note"],
      [],
      outputs({ purchase_id: text }),
    );
    const { after } = await call(world(shop(), [buy]), "make_purchase", { note: "mine" });
    expect((after.basket as { lines: unknown[] }).lines).toEqual([]);
    const made = Object.values(after.purchases as Record<string, { lines: unknown[]; note: string }>).at(-1);
    expect(made).toMatchObject({ note: "mine", lines: [{ sku_id: "K2", count: 1 }] });
  });
});

describe("a verb that is the noun of what it adds", () => {
  it("`comment_on_issue` appends to the issue's comments, and makes no issue", async () => {
    const tracker = {
      issues: {
        "7": { number: 7, title: "Crash", comments: [{ author: "rin", body: "Seen" }] },
        "8": { number: 8, title: "Slow", comments: [] },
      },
      next_number: 9,
    };
    const comment = tool("comment_on_issue", "Add a comment to an issue.", { number: integer, body: text });
    const { after } = await call(world(tracker, [comment]), "comment_on_issue", { number: 7, body: "Fixed" });
    expect(Object.keys(after.issues as object)).toEqual(["7", "8"]);
    expect((after.issues as Record<string, { comments: unknown[] }>)["7"]?.comments).toEqual([
      { author: "rin", body: "Seen" },
      { body: "Fixed" },
    ]);
  });
});

describe("a course's seats, a grade, a stay's status and a setting named for itself", () => {
  const school = () => ({
    pupils: { P1: { pupil_id: "P1", name: "Ada" } },
    classes: { ART: { class_code: "ART", seats_left: 0 }, GYM: { class_code: "GYM", seats_left: 2 } },
    places: [
      { place_id: 1, pupil_id: "P1", class_code: "ART", mark: null },
      { place_id: 2, pupil_id: "P1", class_code: "GYM", mark: "B" },
    ],
  });

  it("removing a record that took a seat gives the seat back", async () => {
    const drop = tool("drop_place", "Drop a place in a class.", { place_id: integer });
    const { after } = await call(world(school(), [drop]), "drop_place", { place_id: 1 });
    expect((after.places as unknown[]).length).toBe(1);
    expect((after.classes as Record<string, { seats_left: number }>).ART?.seats_left).toBe(1);
  });

  it("a verb that makes things, naming a plain field of the record its key names, fills that field", async () => {
    const mark = tool("record_mark", "Record the mark of a place.", { place_id: integer, mark: text });
    const { after, report } = await call(world(school(), [mark]), "record_mark", { place_id: 1, mark: "A" });
    expect(report.verdict).toBe("inferred");
    expect((after.places as { mark: string | null }[]).map((p) => p.mark)).toEqual(["A", "B"]);
  });

  it("a verb whose participle is a status the records show puts the record into it", async () => {
    const inn = {
      stays: {
        "ST-1": { stay_id: "ST-1", guest: "Ola", status: "booked" },
        "ST-2": { stay_id: "ST-2", guest: "Per", status: "checked_in" },
      },
    };
    const checkIn = tool("check_in_guest", "Check a guest in.", { stay_id: text });
    const { after, report } = await call(world(inn, [checkIn]), "check_in_guest", { stay_id: "ST-1" });
    expect(report.verdict).toBe("inferred");
    expect((after.stays as Record<string, { status: string }>)["ST-1"]?.status).toBe("checked_in");
  });

  it("`enable_eco` and `disable_eco` switch the setting named for what they name", async () => {
    const boiler = { boiler: { mode: "heat", eco: false, frost_guard: true } };
    const on = await call(world(boiler, [tool("enable_eco", "Turn on eco mode.", {}, [])]), "enable_eco", {});
    expect(on.after.boiler).toMatchObject({ eco: true, frost_guard: true });
    const off = await call(
      world(boiler, [tool("disable_frost_guard", "Turn off the frost guard.", {}, [])]),
      "disable_frost_guard",
      {},
    );
    expect(off.after.boiler).toMatchObject({ eco: false, frost_guard: false });
  });
});

describe("verbs that make things, acting on what exists", () => {
  const mail = () => ({
    mailings: {
      "ML-1": { mailing_id: "ML-1", subject: "News", status: "sent" },
      "ML-2": { mailing_id: "ML-2", subject: "Sale", status: "draft" },
    },
    articles: { a1: { article_id: "a1", title: "Tide", tags: ["sea"] } },
    saved_article_ids: [] as string[],
  });

  it("`send_mailing(mailing_id)` sends the mailing it names, to the status the records spell", async () => {
    const send = tool("send_mailing", "Send a draft mailing.", { mailing_id: text });
    const { after } = await call(world(mail(), [send]), "send_mailing", { mailing_id: "ML-2" });
    expect(Object.keys(after.mailings as object)).toEqual(["ML-1", "ML-2"]);
    expect((after.mailings as Record<string, { status: string }>)["ML-2"]?.status).toBe("sent");
  });

  it("`tag_article` adds a tag to the article's tags; `save_article` refuses an article that does not exist", async () => {
    const tag = tool("tag_article", "Tag an article.", { article_id: text, tag: text });
    const tagged = await call(world(mail(), [tag]), "tag_article", { article_id: "a1", tag: "storm" });
    expect((tagged.after.articles as Record<string, { tags: string[] }>).a1?.tags).toEqual(["sea", "storm"]);
    const save = tool("save_article", "Save an article for later.", { article_id: text });
    const none = await call(world(mail(), [save]), "save_article", { article_id: "a9" });
    expect(failure(none.outcome)).toBe("ARTICLE_NOT_FOUND");
    const saved = await call(world(mail(), [save]), "save_article", { article_id: "a1" });
    expect(saved.after.saved_article_ids).toEqual(["a1"]);
  });
});

describe("a status the docs give the record acted on", () => {
  const desk = () => ({
    bookings: {
      "BK-1": { booking_id: "BK-1", guest: "Ola", status: "confirmed" },
      "BK-2": { booking_id: "BK-2", guest: "Per", status: "checked_in" },
    },
  });

  it("`check in a guest for a confirmed booking` refuses a booking in another status", async () => {
    const checkIn = tool("check_in", "Check a guest in for a confirmed booking.", { booking_id: text });
    const ok = await call(world(desk(), [checkIn]), "check_in", { booking_id: "BK-1" });
    expect((ok.after.bookings as Record<string, { status: string }>)["BK-1"]?.status).toBe("checked_in");
    const again = await call(world(desk(), [checkIn]), "check_in", { booking_id: "BK-2" });
    expect(failure(again.outcome)).toBe("BOOKING_NOT_CONFIRMED");
  });

  it("leaves the refusal to an error the API documents itself", async () => {
    const checkIn = tool(
      "check_in",
      "Check a guest in for a confirmed booking.",
      { booking_id: text },
      undefined,
      [
        error(
          "BOOKING_ALREADY_CHECKED_IN",
          "The guest is already checked in.",
          "The booking is already checked in.",
          409,
        ),
      ],
    );
    const { report } = await call(world(desk(), [checkIn]), "check_in", { booking_id: "BK-1" });
    expect(report.notes.join(" ")).not.toContain("BOOKING_NOT_CONFIRMED");
  });
});

describe("a switch that keeps only what its description names", () => {
  it("`available_only`: only clean, unoccupied rooms", async () => {
    const inn = {
      rooms: {
        "1": { room: "1", clean: true, occupied: false },
        "2": { room: "2", clean: false, occupied: false },
        "3": { room: "3", clean: true, occupied: true },
      },
    };
    const list = tool(
      "list_rooms",
      "List rooms, optionally only clean, unoccupied ones.",
      { available_only: { type: "boolean" } },
      [],
    );
    const only = await call(world(inn, [list]), "list_rooms", { available_only: true });
    expect((only.answer as { room: string }[]).map((r) => r.room)).toEqual(["1"]);
    const all = await call(world(inn, [list]), "list_rooms", {});
    expect((all.answer as unknown[]).length).toBe(3);
  });
});

describe("lists named for who a verb was done to, and what bounds them", () => {
  const club = () => ({
    sessions: {
      S1: { session_id: "S1", topic: "Knots", capacity: 2, enrolled: ["m1"] },
      S2: { session_id: "S2", topic: "Sails", capacity: 1, enrolled: ["m2"] },
    },
    members: { m1: { member_id: "m1" }, m2: { member_id: "m2" }, m3: { member_id: "m3" } },
    moorings: { north: { mooring: "north", free_berths: 1 } },
  });
  const args = { session_id: text, member_id: text };

  it("`enroll_in_session` adds to `enrolled` up to the capacity; `unenroll_from_session` takes out, the session stays", async () => {
    const enroll = tool("enroll_in_session", "Enroll a member in a session.", args);
    const added = await call(world(club(), [enroll]), "enroll_in_session", {
      session_id: "S1",
      member_id: "m3",
    });
    expect((added.after.sessions as Record<string, { enrolled: string[] }>).S1?.enrolled).toEqual([
      "m1",
      "m3",
    ]);
    const full = await call(world(club(), [enroll]), "enroll_in_session", {
      session_id: "S2",
      member_id: "m3",
    });
    expect(failure(full.outcome)).toBe("SESSION_FULL");
    const leave = tool("unenroll_from_session", "Take a member off a session.", args);
    const left = await call(world(club(), [leave]), "unenroll_from_session", {
      session_id: "S1",
      member_id: "m1",
    });
    expect((left.after.sessions as Record<string, { enrolled: string[] }>).S1?.enrolled).toEqual([]);
    expect(Object.keys(left.after.sessions as object)).toEqual(["S1", "S2"]);
  });

  it("a count of free places is what is left to take", async () => {
    const book = tool(
      "book_berth",
      "Book a berth at a mooring.",
      { boat: text, mooring: text },
      ["boat", "mooring"],
      [],
      outputs({ booking_id: text }),
    );
    const state = { ...club(), bookings: { "B-1": { booking_id: "B-1", boat: "Wren", mooring: "north" } } };
    const first = await call(world(state, [book]), "book_berth", { boat: "Tern", mooring: "north" });
    expect((first.after.moorings as Record<string, { free_berths: number }>).north?.free_berths).toBe(0);
  });
});
