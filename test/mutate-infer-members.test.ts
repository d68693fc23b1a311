import { describe, expect, it } from "vitest";
import {
  bool,
  call,
  error,
  failure,
  inferred,
  integer,
  outputs as out,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Lists of plain values and maps of plain values: a value joins a list once and leaves it, a
 * list is read or asked whether it holds one; a map is read by key, searched by value, given
 * a new key (with the value an argument gives or a new id), or loses a key.
 */

const strings = { type: "array", items: text };

const club = world(
  {
    club: {
      name: "Ridge walkers",
      trail_list: ["ridge", "falls"],
      badge_index: { Ana: "BDG-007", Ben: "BDG-012" },
      badge_count: 12,
    },
    tags: ["easy"],
  },
  [
    tool("add_trail_to_trail_list", "Add a trail to the club's trail list.", { trail: text }),
    tool("remove_trail_from_trail_list", "Remove a trail from the club's trail list.", { trail: text }),
    tool(
      "get_trail_list",
      "Get the club's trail list.",
      {},
      [],
      [],
      out({ trail_list: strings, name: text }),
    ),
    tool("show_trail_list", "Show the club's trail list.", {}, [], [], out({ walks: strings })),
    tool("view_trail_list", "View the club's trail list.", {}),
    tool(
      "has_trail_list",
      "Whether the trail list holds a trail.",
      { trail: text },
      undefined,
      [],
      out({ held: bool }),
    ),
    tool("add_tag", "Add a tag.", { tag: text }, undefined, [], out({ tags: strings })),
    tool(
      "fetch_trail_list",
      "Fetch the trail list.",
      {},
      [],
      [],
      out({ walks: strings, trail_list: strings }),
    ),
    tool(
      "check_trail_list",
      "Check for a trail.",
      { trail: text },
      undefined,
      [],
      out({ trail: text, listed: bool }),
    ),
    tool(
      "is_in_trail_list",
      "Whether a trail is listed.",
      { trail: text },
      undefined,
      [],
      out({ found: bool }),
    ),
    tool(
      "has_trails_in_trail_list",
      "Whether either trail is listed.",
      { first: text, second: text },
      undefined,
      [],
      out({ any: bool }),
    ),
    tool("remove_two_from_trail_list", "Remove two trails.", { first: text, second: text }),
    tool("include_trail_list", "Include a trail.", { trail_name: text, urgent: bool }),
    tool("drop_trail_list", "Drop a trail name.", { trail_name: text }),
    tool("remove_tag", "Remove a tag.", { tag: text }, undefined, [], out({ tags: strings })),
    tool(
      "get_badge_index",
      "Get the badge of a walker.",
      { walker: text },
      undefined,
      [],
      out({ badge: text }),
    ),
    tool(
      "issue_badge_index",
      "Give a walker a new badge.",
      { walker: text },
      undefined,
      [],
      out({ badge_id: text }),
    ),
  ],
);

describe("a list of values in a record", () => {
  it("adds a value once, at the end", async () => {
    const added = await call(club, "add_trail_to_trail_list", { trail: "lake" });
    expect(added.after.club).toMatchObject({ trail_list: ["ridge", "falls", "lake"] });
    const twice = await call(club, "add_trail_to_trail_list", { trail: "falls" });
    expect(twice.outcome.status).toBe("applied");
    expect(twice.after.club).toMatchObject({ trail_list: ["ridge", "falls"] });
    const floor = await call(venue, "add_locker_table_floor", { attendee: "Cy", floor: 2 });
    expect(floor.answer).toEqual({ locker_id: "L-11" });
    expect(added.report.notes).toContain("adds trail to club/trail_list, once");
  });

  it("starts the list when the record has none", async () => {
    const state = { club: { name: "New", badge_index: {}, badge_count: 0 }, tags: [] };
    const added = await call(club, "add_trail_to_trail_list", { trail: "lake" }, state);
    expect(added.after.club).toMatchObject({ trail_list: ["lake"] });
  });

  it("removes a value, and refuses one the list lacks with an error inference adds", async () => {
    const removed = await call(club, "remove_trail_from_trail_list", { trail: "ridge" });
    expect(removed.after.club).toMatchObject({ trail_list: ["falls"] });
    const absent = await call(club, "remove_trail_from_trail_list", { trail: "lake" });
    expect(failure(absent.outcome)).toBe("TRAIL_NOT_IN_TRAIL_LIST");
    const added = absent.tool.errors.find((e) => e.code === "TRAIL_NOT_IN_TRAIL_LIST");
    expect(added).toMatchObject({
      status: 404,
      message: "{trail} is not in trail list.",
      when: "The trail is not in trail list (inferred).",
    });
    expect(absent.report.notes).toContain("removes trail from club/trail_list (it must be there)");
  });

  it("reads the list into the output named for it, or the only array output, or one named for the list", async () => {
    const read = await call(club, "get_trail_list", {});
    expect(read.answer).toEqual({ trail_list: ["ridge", "falls"] });
    expect(read.report.notes).toContain("reads the list club/trail_list");
    expect((await call(club, "show_trail_list", {})).answer).toEqual({ walks: ["ridge", "falls"] });
    expect((await call(club, "view_trail_list", {})).answer).toEqual({ trail_list: ["ridge", "falls"] });
  });

  it("answers whether the list holds a value", async () => {
    const yes = await call(club, "has_trail_list", { trail: "falls" });
    expect(yes.answer).toEqual({ held: true });
    expect((await call(club, "has_trail_list", { trail: "lake" })).answer).toEqual({ held: false });
    expect(yes.report.notes).toContain("answers whether club/trail_list holds trail");
  });
});

describe("which output and which argument", () => {
  it("answers the list under the output named for it among several arrays", async () => {
    expect((await call(club, "fetch_trail_list", {})).answer).toEqual({ trail_list: ["ridge", "falls"] });
  });

  it("answers whether the list holds a value in the yes-or-no output, beside others ('check', 'is')", async () => {
    expect((await call(club, "check_trail_list", { trail: "ridge" })).answer).toEqual({ listed: true });
    expect((await call(club, "is_in_trail_list", { trail: "lake" })).answer).toEqual({ found: false });
  });

  it("takes the one required text as the value, whatever else is required", async () => {
    const added = await call(club, "include_trail_list", { trail_name: "lake", urgent: true });
    expect(added.after.club).toMatchObject({ trail_list: ["ridge", "falls", "lake"] });
  });

  it("names the error for a value the list lacks after the argument and the list", async () => {
    const absent = await call(club, "drop_trail_list", { trail_name: "lake" });
    expect(failure(absent.outcome)).toBe("TRAIL_NAME_NOT_IN_TRAIL_LIST");
  });

  it("says which value it could not tell, for a look-up and a removal too", () => {
    expect(inferred(club, "has_trails_in_trail_list").report.notes).toContain(
      "no one argument names the value to look for in club/trail_list",
    );
    expect(inferred(club, "remove_two_from_trail_list").report.notes).toContain(
      "no one argument names the value to remove from club/trail_list",
    );
  });
});

describe("a list at the top of the state", () => {
  it("adds and removes a tag, and answers the list after the change", async () => {
    const added = await call(club, "add_tag", { tag: "steep" });
    expect(added.after.tags).toEqual(["easy", "steep"]);
    expect(added.answer).toEqual({ tags: ["easy", "steep"] });
    const removed = await call(club, "remove_tag", { tag: "easy" });
    expect(removed.after.tags).toEqual([]);
    expect(removed.answer).toEqual({ tags: [] });
  });
});

const gallery = world(
  {
    photos: {
      p1: {
        photo_id: "p1",
        like_rank: 2,
        stats: { likes_week: 1 },
        likeness: "close",
        title: "Dawn",
        likes: 3,
      },
      p2: {
        photo_id: "p2",
        like_rank: null,
        stats: { likes_week: 0 },
        likeness: "far",
        title: "Dusk",
        likes: 0,
      },
    },
    me: { handle: "ana", liked_photo_ids: ["p1"], pinned: ["p2"], tags: ["dawn", "mist"] },
  },
  [
    tool(
      "like_photo",
      "Like a photo.",
      { photo_id: text },
      undefined,
      [
        error("ALREADY_LIKED", "You already like this photo."),
        error("PHOTO_NOT_FOUND", "Photo not found.", "No photo has the id.", 404),
      ],
      out({ photo_id: text, likes: integer, liked: bool }),
    ),
    tool("unlike_photo", "Stop liking a photo.", { photo_id: text }, undefined, [], out({ likes: integer })),
    tool(
      "pin_photo",
      "Pin a photo.",
      { photo_id: text, note: text },
      ["photo_id"],
      [error("NO_SUCH_PHOTO", "No such photo is in the gallery.")],
    ),
    tool("unpin_photo", "Unpin a photo.", { photo_id: text }, undefined, [
      error("NO_SUCH_PHOTO", "No such photo.", "No photo has the id.", 404),
      error("NOT_PINNED", "The photo is not pinned.", "The photo is not on your pinned list.", 409),
    ]),
    tool(
      "unfavorite_liked_photo_ids",
      "Take a photo out of the liked photos.",
      { photo_id: text },
      undefined,
      [
        error("RATE_LIMITED", "Too many requests.", "Too many calls in a minute.", 429),
        error("NO_SUCH_PHOTO", "No such photo.", "No photo has the id.", 404),
      ],
    ),
    tool(
      "get_liked_photo_ids",
      "Whether a photo is among the liked ones.",
      { photo_id: text },
      undefined,
      [],
      { ...out({ liked: bool }), annotations: { readOnlyHint: true } },
    ),
    tool("list_liked_photo_ids", "The liked photos.", { photo_id: text }, [], [], {
      annotations: { readOnlyHint: true },
    }),
    tool("check_pinned", "Check the pinned photos.", {}, [], [], out({ photos: strings })),
    tool("like_two_photos", "Like two photos.", { first: text, second: text }),
    tool("bookmark_liked_photo_ids", "Bookmark a photo.", { photo_id: text }, []),
    tool("untag_photo", "Take a tag off a photo.", { tag: text }),
  ],
);

describe("a list a verb names, of records of another collection", () => {
  it("likes a photo that exists, once, and counts the like on the photo", async () => {
    const liked = await call(gallery, "like_photo", { photo_id: "p2" });
    expect(liked.after.me).toMatchObject({ liked_photo_ids: ["p1", "p2"] });
    expect(liked.after.photos).toMatchObject({
      p2: { like_rank: null, stats: { likes_week: 0 }, likeness: "far", likes: 1 },
    });
    expect(liked.answer).toEqual({ photo_id: "p2", likes: 1, liked: true });
    expect(liked.report.notes).toContain("raises photos.likes by one");
    expect(failure((await call(gallery, "like_photo", { photo_id: "p9" })).outcome)).toBe("PHOTO_NOT_FOUND");
  });

  it("refuses a second like with the documented error", async () => {
    const again = await call(gallery, "like_photo", { photo_id: "p1" });
    expect(failure(again.outcome)).toBe("ALREADY_LIKED");
    expect(again.report.notes).toContain("refuses photo_id already there (ALREADY_LIKED)");
  });

  it("unlikes a photo and lowers its count", async () => {
    const unliked = await call(gallery, "unlike_photo", { photo_id: "p1" });
    expect(unliked.after.me).toMatchObject({ liked_photo_ids: [] });
    expect(unliked.after.photos).toMatchObject({ p1: { likes: 2, like_rank: 2 } });
    expect(unliked.answer).toEqual({ likes: 2 });
    expect(unliked.report.notes).toContain("lowers photos.likes by one");
  });

  it("pins a photo silently a second time: a missing photo is not an 'already'", async () => {
    const twice = await call(gallery, "pin_photo", { photo_id: "p2" });
    expect(twice.outcome.status).toBe("applied");
    expect(twice.after.me).toMatchObject({ pinned: ["p2"] });
    expect((await call(gallery, "pin_photo", { photo_id: "p1" })).after.me).toMatchObject({
      pinned: ["p2", "p1"],
    });
  });

  it("unpins with the error that says the photo is not pinned, before the one for no such photo", async () => {
    const absent = await call(gallery, "unpin_photo", { photo_id: "p1" });
    expect(failure(absent.outcome)).toBe("NOT_PINNED");
    expect((await call(gallery, "unpin_photo", { photo_id: "p2" })).after.me).toMatchObject({ pinned: [] });
    // a removal checks the list, not whether the photo exists
    expect(failure((await call(gallery, "unpin_photo", { photo_id: "p9" })).outcome)).toBe("NOT_PINNED");
  });

  it("knows every membership verb: 'unfavorite' takes a value out, 'untag' too", async () => {
    const out = await call(gallery, "unfavorite_liked_photo_ids", { photo_id: "p1" });
    expect(out.after.me).toMatchObject({ liked_photo_ids: [] });
    const untagged = await call(gallery, "untag_photo", { tag: "dawn" });
    expect(untagged.after.me).toMatchObject({ tags: ["mist"] });
  });

  it("takes the not-found error for a value the list lacks when no error says 'not in'", async () => {
    const absent = await call(gallery, "unfavorite_liked_photo_ids", { photo_id: "p2" });
    expect(failure(absent.outcome)).toBe("NO_SUCH_PHOTO");
    expect(absent.tool.errors.map((e) => e.code)).toEqual(["RATE_LIMITED", "NO_SUCH_PHOTO"]);
  });

  it("a read-only tool with a yes-or-no answer asks whether the list holds the value", async () => {
    expect((await call(gallery, "get_liked_photo_ids", { photo_id: "p1" })).answer).toEqual({ liked: true });
    expect((await call(gallery, "get_liked_photo_ids", { photo_id: "p2" })).answer).toEqual({ liked: false });
  });

  it("a read-only tool without one reads the list", async () => {
    const read = await call(gallery, "list_liked_photo_ids", {});
    expect(read.answer).toEqual({ liked_photo_ids: ["p1"] });
  });

  it("'check' without a yes-or-no answer reads the list", async () => {
    expect((await call(gallery, "check_pinned", {})).answer).toEqual({ photos: ["p2"] });
  });

  it("takes the one scalar argument as the value when none is required", async () => {
    const bookmarked = await call(gallery, "bookmark_liked_photo_ids", { photo_id: "p2" });
    expect(bookmarked.after.me).toMatchObject({ liked_photo_ids: ["p1", "p2"] });
  });

  it("infers nothing, and says why, when two arguments could be the value", () => {
    const { report, tool: found } = inferred(gallery, "like_two_photos");
    expect(found.effects).toEqual([]);
    expect(report.notes).toContain("no one argument names the value to add to me/liked_photo_ids");
  });
});

const venue = world(
  {
    venue: {
      badge_index: { Ana: "BDG-007", Ben: "BDG-012" },
      badge_count: 12,
      locker_table: { Ana: "L-2", Ben: "L-10" },
      seat_map: { Ana: "A1", Ben: "B4" },
      fee_dict: { Ana: 30, Ben: 45 },
    },
  },
  [
    tool(
      "get_locker_table",
      "Get an attendee's locker.",
      { attendee: text },
      undefined,
      [],
      out({ locker: text }),
    ),
    tool(
      "get_seat_map",
      "Get an attendee's seat.",
      { attendee: text },
      undefined,
      [],
      out({ seat: text, row: text }),
    ),
    tool("show_seat_map", "Show an attendee's seat.", { attendee: text }, undefined, [
      error("NO_SUCH_ATTENDEE", "No such attendee.", "No attendee has the name.", 404),
    ]),
    tool("list_seat_map", "Who has a seat.", {}, [], [], out({ attendees: strings })),
    tool(
      "find_badge_index",
      "Whose badge this is.",
      { badge_id: text },
      undefined,
      [],
      out({ attendee: text }),
    ),
    tool("remove_locker_table", "Free an attendee's locker.", { attendee: text }),
    tool(
      "add_locker_table",
      "Give an attendee a locker.",
      { attendee: text },
      undefined,
      [],
      out({ locker_id: text }),
    ),
    tool("issue_badge_index", "Issue a badge.", { attendee: text }, undefined, [], out({ badge_id: text })),
    tool("add_seat_map", "Seat an attendee.", { attendee: text, seat: text }, ["attendee"]),
    tool("assign_seat_map", "Seat an attendee without a seat.", { attendee: text }),
    tool(
      "add_fee_dict",
      "Set an attendee's fee.",
      { attendee: text, fee: { type: "number" } },
      ["attendee"],
      [error("FEE_TAKEN", "The attendee has a fee already.", "A fee is set for the attendee.", 409)],
    ),
    tool("sync_seat_map", "Sync the seats.", { attendee: text }),
    tool("erase_locker_table", "Erase an attendee's locker.", { attendee: text }),
    tool("list_locker_table", "Who has a locker.", { prefix: text }, [], [], out({ attendees: strings })),
    tool(
      "get_seat_map_entry",
      "An attendee's seat.",
      { attendee: text, verbose: bool },
      undefined,
      [],
      out({ seat: text }),
    ),
    tool(
      "view_seat_map",
      "A seat on a floor.",
      { attendee: text, floor: text },
      undefined,
      [],
      out({ seat: text }),
    ),
    tool("remove_seat_map", "Unseat on a floor.", { attendee: text, floor: text }),
    tool(
      "add_locker_table_floor",
      "A locker on a floor.",
      { attendee: text, floor: integer },
      ["attendee"],
      [],
      out({ hint: text, locker_id: text }),
    ),
    tool("change_seat_map", "Move an attendee to another seat.", { attendee: text, seat: text }, [
      "attendee",
    ]),
  ],
);

describe("a map of values", () => {
  it("reads a value by key, into the one output", async () => {
    const read = await call(venue, "get_locker_table", { attendee: "Ben" });
    expect(read.answer).toEqual({ locker: "L-10" });
    expect(read.report.notes).toContain("reads venue/locker_table at attendee (LOCKER_NOT_FOUND)");
    const unknown = await call(venue, "get_locker_table", { attendee: "Cy" });
    expect(failure(unknown.outcome)).toBe("LOCKER_NOT_FOUND");
    expect(unknown.tool.errors.find((e) => e.code === "LOCKER_NOT_FOUND")).toMatchObject({
      status: 404,
      message: "Locker {attendee} not found.",
      when: "No locker has the given attendee (inferred from the state).",
    });
  });

  it("answers a value under 'value' where the tool has several outputs", async () => {
    expect((await call(venue, "get_seat_map", { attendee: "Ana" })).answer).toEqual({ value: "A1" });
  });

  it("takes the one required text as the key, and no key where two texts are required", async () => {
    expect((await call(venue, "get_seat_map_entry", { attendee: "Ben", verbose: true })).answer).toEqual({
      seat: "B4",
    });
    expect(inferred(venue, "view_seat_map").tool.effects).toEqual([]);
    expect(inferred(venue, "remove_seat_map").tool.effects).toEqual([]);
  });

  it("answers a missing key with the documented not-found error", async () => {
    const unknown = await call(venue, "show_seat_map", { attendee: "Cy" });
    expect(failure(unknown.outcome)).toBe("NO_SUCH_ATTENDEE");
    expect(unknown.tool.errors.map((e) => e.code)).toEqual(["NO_SUCH_ATTENDEE"]);
  });

  it("lists the keys", async () => {
    const listed = await call(venue, "list_seat_map", {});
    expect(listed.answer).toEqual({ attendees: ["Ana", "Ben"] });
    expect(listed.report.notes).toContain("lists the keys of venue/seat_map");
    // an optional argument leaves it a list
    expect((await call(venue, "list_locker_table", {})).answer).toEqual({ attendees: ["Ana", "Ben"] });
  });

  it("finds the key that holds a value", async () => {
    const found = await call(venue, "find_badge_index", { badge_id: "BDG-012" });
    expect(found.answer).toEqual({ attendee: "Ben" });
    expect(found.report.notes).toContain(
      "finds the key of venue/badge_index holding badge_id (BADGE_NOT_FOUND)",
    );
    expect(failure((await call(venue, "find_badge_index", { badge_id: "BDG-099" })).outcome)).toBe(
      "BADGE_NOT_FOUND",
    );
  });

  it("removes a key, and refuses one the map lacks", async () => {
    const removed = await call(venue, "remove_locker_table", { attendee: "Ana" });
    expect(removed.after.venue).toMatchObject({ locker_table: { Ben: "L-10" } });
    expect(Object.keys((removed.after.venue as { locker_table: object }).locker_table)).toEqual(["Ben"]);
    expect(failure((await call(venue, "remove_locker_table", { attendee: "Cy" })).outcome)).toBe(
      "LOCKER_NOT_FOUND",
    );
    expect(removed.report.notes).toContain("removes attendee from venue/locker_table (LOCKER_NOT_FOUND)");
    const erased = await call(venue, "erase_locker_table", { attendee: "Ben" });
    expect(Object.keys((erased.after.venue as { locker_table: object }).locker_table)).toEqual(["Ana"]);
  });

  it("gives a new key the next id after the largest, as wide as the widest", async () => {
    const added = await call(venue, "add_locker_table", { attendee: "Cy" });
    expect(added.answer).toEqual({ locker_id: "L-11" });
    expect(added.after.venue).toMatchObject({ locker_table: { Ana: "L-2", Ben: "L-10", Cy: "L-11" } });
    expect(added.report.notes).toContain(
      "gives attendee a new id in venue/locker_table (the next after the largest)",
    );
    const taken = await call(venue, "add_locker_table", { attendee: "Ben" });
    expect(failure(taken.outcome)).toBe("LOCKER_ALREADY_EXISTS");
    expect(taken.tool.errors.find((e) => e.code === "LOCKER_ALREADY_EXISTS")).toMatchObject({
      status: 409,
      message: "Locker {attendee} already exists.",
      when: "The locker is already in locker_table (inferred).",
    });
  });

  it("takes a new id from the counter beside the map, and raises it", async () => {
    const issued = await call(venue, "issue_badge_index", { attendee: "Cy" });
    expect(issued.answer).toEqual({ badge_id: "BDG-013" });
    expect(issued.after.venue).toMatchObject({ badge_count: 13, badge_index: { Cy: "BDG-013" } });
    expect(issued.report.notes).toContain("gives attendee a new id in venue/badge_index (from badge_count)");
  });

  it("maps a key to the value an argument gives", async () => {
    const seated = await call(venue, "add_seat_map", { attendee: "Cy", seat: "C2" });
    expect(seated.after.venue).toMatchObject({ seat_map: { Ana: "A1", Ben: "B4", Cy: "C2" } });
    expect(seated.report.notes).toContain("maps attendee to seat in venue/seat_map");
    expect(failure((await call(venue, "add_seat_map", { attendee: "Ana", seat: "C2" })).outcome)).toBe(
      "SEAT_ALREADY_EXISTS",
    );
  });

  it("changes the value of a key already there where the verb changes, and adds a key not there", async () => {
    const moved = await call(venue, "change_seat_map", { attendee: "Ana", seat: "C2" });
    expect(moved.after.venue).toMatchObject({ seat_map: { Ana: "C2", Ben: "B4" } });
    expect(moved.report.notes).toContain("sets attendee to seat in venue/seat_map");
    const fresh = await call(venue, "change_seat_map", { attendee: "Cy", seat: "C3" });
    expect(fresh.after.venue).toMatchObject({ seat_map: { Ana: "A1", Ben: "B4", Cy: "C3" } });
  });

  it("refuses a key already there with the documented error", async () => {
    const fee = await call(venue, "add_fee_dict", { attendee: "Cy", fee: 12.5 });
    expect(fee.after.venue).toMatchObject({ fee_dict: { Cy: 12.5 } });
    expect(failure((await call(venue, "add_fee_dict", { attendee: "Ben", fee: 1 })).outcome)).toBe(
      "FEE_TAKEN",
    );
  });

  it("mints no value where the values share no prefix, and infers nothing for a verb it does not know", () => {
    expect(inferred(venue, "assign_seat_map").tool.effects).toEqual([]);
    expect(inferred(venue, "sync_seat_map").tool.effects).toEqual([]);
  });
});

describe("addressees kept in a directory of names to ids", () => {
  const desk = world(
    {
      Desk: {
        member_ids: { Ana: "M-01", Ben: "M-02" },
        member_count: 2,
        notes: { "N-1": { note_id: "N-1", assignee_id: "M-01", text: "welcome" } },
        tasks: { "T-1": { task_id: "T-1", title: "Plan", assignee: "M-01" } },
      },
    },
    [
      tool("post_note", "Post a note for a member to act on.", {
        assignee_id: { type: "string", description: "Member ID of the assignee." },
        text,
      }),
      tool("add_member", "Add a member to the desk.", { member_name: text }, undefined, [], {
        outputSchema: { type: "object", properties: { member_id: text } },
      }),
      tool("nudge", "Nudge someone.", { target_id: { type: "string", description: "Whom to nudge." } }),
    ],
  );

  it("refuses a change addressed to an id the directory does not hold, by the argument's description", async () => {
    const known = await call(desk, "post_note", { assignee_id: "M-02", text: "hi" });
    expect(known.outcome.status).toBe("applied");
    const stranger = await call(desk, "post_note", { assignee_id: "M-09", text: "hi" });
    expect(failure(stranger.outcome)).toBe("MEMBER_NOT_FOUND");
    expect(stranger.after).toEqual(desk.state);
    expect(stranger.report.notes).toContain("checks assignee_id is a known member (MEMBER_NOT_FOUND)");
    expect(stranger.tool.errors.find((e) => e.code === "MEMBER_NOT_FOUND")).toMatchObject({ status: 404 });
  });

  it("does not check the map's own new entries, nor an argument whose docs name no one it keeps", async () => {
    const added = await call(desk, "add_member", { member_name: "Cleo" });
    expect(added.answer).toEqual({ member_id: "M-03" });
    expect(added.report.notes.join(" ")).not.toMatch(/is a known/);
    expect(inferred(desk, "nudge").report.notes.join(" ")).not.toMatch(/is a known/);
  });
});
