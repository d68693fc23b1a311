import { describe, expect, it } from "vitest";
import {
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
 * Lists of pairs, each one key and one value, kept in order (a board of shout-outs, who said
 * what): a pair is appended (counts of them beside the list move), the pairs under a key are
 * removed (only the latest where the tool says so), values are searched, pairs grouped by key.
 */

const board = world(
  {
    board: {
      title: "Open mic",
      shoutouts: [{ m1: "Great set" }, { m2: "Loved the drums" }, { m1: "Encore please" }],
      shoutout_count: 3,
      visitor_count: 40,
      shoutout_count_label: "three",
    },
  },
  [
    tool("add_shoutout", "Add a shout-out from a member.", { member_id: text, message: text }),
    tool("remove_shoutouts", "Remove every shout-out of a member.", { member_id: text }),
    tool("delete_shoutout", "Delete the latest shout-out of a member.", { member_id: text }),
    tool("drop_shoutout", "Drop a member's shout-outs.", { member_id: text }, undefined, [
      error("NO_SUCH_MEMBER", "No such member.", "No member has the id.", 404),
    ]),
    tool(
      "search_shoutouts",
      "Find shout-outs by a word.",
      { keyword: text },
      undefined,
      [],
      out({
        results: { type: "array", items: { type: "object", properties: { member_id: text, said: text } } },
      }),
    ),
    tool(
      "find_shoutouts",
      "Find shout-outs by a word.",
      { query: text },
      undefined,
      [],
      out({ results: { type: "array", items: { type: "object" } } }),
    ),
    tool("get_shoutouts", "Every shout-out, by member.", {}, [], [], out({ by_member: { type: "object" } })),
    tool("list_shoutouts", "Every shout-out.", {}, [], [], out({ total: integer })),
    tool("approve_shoutout", "Approve a shout-out.", { member_id: text }),
    tool("post_shoutout", "Post a shout-out, pinned or not.", {
      member_id: text,
      pinned: { type: "boolean" },
      message: text,
    }),
    tool("add_shoutout_text", "Add a shout-out.", { message: text }),
    tool("erase_shoutouts", "Erase a member's shout-outs.", { member_id: text }),
    tool("purge_shoutouts", "Purge a member's shout-outs.", { member_id: text }, undefined, [
      error("RATE_LIMITED", "Too many requests.", "Too many calls in a minute.", 429),
    ]),
    tool("remove_shoutouts_of", "Remove a band member's shout-outs.", { band_member_id: text }),
    tool("shoutouts_by_member", "Every shout-out, by member.", {}, [], [], {
      ...out({ by_member: { type: "object" } }),
      annotations: { readOnlyHint: true },
    }),
    tool(
      "get_shoutout_list",
      "Every shout-out.",
      {},
      [],
      [],
      out({ results: { type: "array", items: { type: "object" } } }),
    ),
    tool(
      "view_shoutouts",
      "Every shout-out, by member.",
      {},
      [],
      [],
      out({ by_member: { type: "object", properties: { m1: { type: "array" } } } }),
    ),
    tool(
      "get_member_shoutouts",
      "A member's shout-outs.",
      { member_id: text },
      undefined,
      [],
      out({ by_member: { type: "object" } }),
    ),
  ],
);

const shoutouts = (state: Record<string, unknown>) => (state.board as { shoutouts: unknown[] }).shoutouts;

describe("adding a pair", () => {
  it("appends it, and moves the count of the pairs beside the list, no other", async () => {
    const added = await call(board, "add_shoutout", { member_id: "m3", message: "Bravo" });
    expect(shoutouts(added.after)).toEqual([
      { m1: "Great set" },
      { m2: "Loved the drums" },
      { m1: "Encore please" },
      { m3: "Bravo" },
    ]);
    expect(added.after.board).toMatchObject({
      shoutout_count: 4,
      visitor_count: 40,
      shoutout_count_label: "three",
    });
    expect(added.report.notes).toEqual([
      "appends {member_id: message} to board/shoutouts",
      "adds one to shoutout_count",
    ]);
  });

  it("starts the list where the board has none", async () => {
    const added = await call(
      board,
      "add_shoutout",
      { member_id: "m3", message: "Bravo" },
      {
        board: { title: "New", shoutout_count: 0 },
      },
    );
    expect(added.after.board).toEqual({ title: "New", shoutouts: [{ m3: "Bravo" }], shoutout_count: 1 });
  });

  it("adds to the world's only list of pairs when the name names no part", async () => {
    const w = world(board.state, [tool("post_message", "Post a message.", { member_id: text, text })]);
    const posted = await call(w, "post_message", { member_id: "m4", text: "Hi" });
    expect(shoutouts(posted.after).at(-1)).toEqual({ m4: "Hi" });
  });
});

describe("removing pairs", () => {
  it("removes every pair under a key, and refuses a key with none", async () => {
    const removed = await call(board, "remove_shoutouts", { member_id: "m1" });
    expect(shoutouts(removed.after)).toEqual([{ m2: "Loved the drums" }]);
    expect(removed.report.notes).toContain("removes the pairs under member_id (MEMBER_NOT_FOUND)");
    const none = await call(board, "remove_shoutouts", { member_id: "m9" });
    expect(failure(none.outcome)).toBe("MEMBER_NOT_FOUND");
    expect(none.tool.errors.find((e) => e.code === "MEMBER_NOT_FOUND")).toMatchObject({
      status: 404,
      message: "Nothing under member {member_id}.",
      when: "No pair has the given member_id (inferred from the state).",
    });
  });

  it("removes only the latest pair under a key where the tool says so", async () => {
    const removed = await call(board, "delete_shoutout", { member_id: "m1" });
    expect(shoutouts(removed.after)).toEqual([{ m1: "Great set" }, { m2: "Loved the drums" }]);
    expect(removed.report.notes).toContain("removes the latest pair under member_id (MEMBER_NOT_FOUND)");
    const only = await call(board, "delete_shoutout", { member_id: "m2" });
    expect(shoutouts(only.after)).toEqual([{ m1: "Great set" }, { m1: "Encore please" }]);
  });

  it("refuses with the documented not-found error", async () => {
    const none = await call(board, "drop_shoutout", { member_id: "m9" });
    expect(failure(none.outcome)).toBe("NO_SUCH_MEMBER");
    expect(none.tool.errors.map((e) => e.code)).toEqual(["NO_SUCH_MEMBER"]);
  });
});

describe("reading pairs", () => {
  it("answers the pairs whose value contains a word, ignoring case, as the output's item fields", async () => {
    const found = await call(board, "search_shoutouts", { keyword: "ENCORE" });
    expect(found.answer).toEqual({ results: [{ member_id: "m1", said: "Encore please" }] });
    expect(found.report.notes).toContain(
      "answers the pairs whose value contains keyword, as {member_id, said}",
    );
    expect((await call(board, "search_shoutouts", { keyword: "e" })).answer).toEqual({
      results: [
        { member_id: "m1", said: "Great set" },
        { member_id: "m2", said: "Loved the drums" },
        { member_id: "m1", said: "Encore please" },
      ],
    });
  });

  it("answers them as key and value where the output names no fields", async () => {
    const found = await call(board, "find_shoutouts", { query: "drums" });
    expect(found.answer).toEqual({ results: [{ key: "m2", value: "Loved the drums" }] });
  });

  it("groups the pairs by key under an object output", async () => {
    const grouped = await call(board, "get_shoutouts", {});
    expect(grouped.answer).toEqual({
      by_member: { m1: ["Great set", "Encore please"], m2: ["Loved the drums"] },
    });
    expect(grouped.report.notes).toContain("answers the pairs grouped by key under by_member");
  });

  it("infers nothing for a read with no answer it can give, or a verb that neither adds nor removes", () => {
    expect(inferred(board, "list_shoutouts").tool.effects).toEqual([]);
    const approve = inferred(board, "approve_shoutout");
    expect(approve.tool.effects).toEqual([]);
    expect(approve.report.notes).toContain("it names the pairs of shoutouts, but not what to do with them");
  });
});

describe("which arguments, which errors, which answers", () => {
  it("appends nothing without an argument that names a key", () => {
    expect(inferred(board, "add_shoutout_text").tool.effects).toEqual([]);
  });

  it("removes with a verb of removal that is no verb of leaving", async () => {
    const erased = await call(board, "erase_shoutouts", { member_id: "m2" });
    expect(shoutouts(erased.after)).toEqual([{ m1: "Great set" }, { m1: "Encore please" }]);
  });

  it("adds its own not-found error where the documented ones say no such thing", async () => {
    const none = await call(board, "purge_shoutouts", { member_id: "m9" });
    expect(failure(none.outcome)).toBe("MEMBER_NOT_FOUND");
  });

  it("names the error after every word of the key but the last", async () => {
    const none = await call(board, "remove_shoutouts_of", { band_member_id: "m9" });
    expect(failure(none.outcome)).toBe("BAND_MEMBER_NOT_FOUND");
    expect(none.tool.errors.find((e) => e.code === "BAND_MEMBER_NOT_FOUND")?.message).toBe(
      "Nothing under band member {band_member_id}.",
    );
  });

  it("groups by key in a read-only tool, but not into an object with properties of its own, nor with arguments", async () => {
    expect((await call(board, "shoutouts_by_member", {})).answer).toEqual({
      by_member: { m1: ["Great set", "Encore please"], m2: ["Loved the drums"] },
    });
    for (const name of ["get_shoutout_list", "view_shoutouts", "get_member_shoutouts"])
      expect(inferred(board, name).tool.effects).toEqual([]);
  });

  it("leaves the list alone where two lists of pairs could be meant", () => {
    const two = world({ board: { shoutouts: [{ m1: "Hi" }], heckles: [{ m2: "Boo" }] } }, [
      tool("post_message", "Post a message.", { member_id: text, text }),
    ]);
    expect(inferred(two, "post_message").tool.effects).toEqual([]);
  });

  it("reaches a list of pairs two records deep, and moves no count where there is none", async () => {
    const deep = world({ venue: { board: { title: "Jam", shoutouts: [{ m1: "Hi" }] } } }, [
      tool("add_shoutout", "Add a shout-out.", { member_id: text, message: text }),
      tool("remove_shoutouts", "Remove a member's shout-outs.", { member_id: text }),
    ]);
    const added = await call(deep, "add_shoutout", { member_id: "m2", message: "Yo" });
    expect(added.after).toEqual({
      venue: { board: { title: "Jam", shoutouts: [{ m1: "Hi" }, { m2: "Yo" }] } },
    });
    expect([added.report.verdict, added.report.gaps]).toEqual(["inferred", []]);
    const removed = await call(deep, "remove_shoutouts", { member_id: "m1" });
    expect(removed.after).toEqual({ venue: { board: { title: "Jam", shoutouts: [] } } });
  });
});
