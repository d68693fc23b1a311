import { describe, expect, it } from "vitest";
import {
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * One server of a federated social network, shaped as Mastodon's client API shapes it:
 * statuses and accounts keyed by snowflake ids written as text (they run past 2^53), the
 * signed-in account named by the session, favourites, bookmarks and follows as lists of ids,
 * counts on each status (`favourites_count`, `reblogs_count`, `replies_count`), one error for
 * every unknown id ("Record not found"), and favourite, bookmark and follow calls that may be
 * repeated. Served without effects.
 */

const fedi = useDomain("fediverse.json");

const ME = "109348201";
const TIDE = "113400000000000101";
const BARNACLES = "113400000000000103";
const FERRY = "113400000000000104";
const UNKNOWN = "113400000000009999";

const TIDE_STATUS = {
  id: TIDE,
  account_id: "109348202",
  content: "Low tide at 6:40 tomorrow: the pools are full of anemones. #tidepools",
  created_at: "2026-03-01T07:00:00Z",
  in_reply_to_id: null,
  reblog_of_id: null,
  visibility: "public",
  spoiler_text: "",
  favourites_count: 4,
  reblogs_count: 1,
  replies_count: 1,
  language: "en",
};

const status = async (id: string) => fedi.call("get_status", { status_id: id });
const ids = (value: unknown) => (Array.isArray(value) ? value.map((s: { id?: unknown }) => s.id) : value);
const bookmarked = async () => ids(fieldsOf(await fedi.call("get_bookmarks")).statuses);
const favourited = async () => ids(fieldsOf(await fedi.call("get_favourites")).statuses);
// newest first, as the tool's description says
const statusesOf = async (account: string) =>
  ids(fieldsOf(await fedi.call("get_account_statuses", { account_id: account })).statuses);

describe("fediverse: statuses with snowflake ids, written by the signed-in account", () => {
  it("a status answers its stored fields, none guessed; an unknown id answers 'Record not found'", async () => {
    const answer = await status(TIDE);
    expectRecord(answer, TIDE_STATUS);
    expectGrounded(answer, Object.keys(TIDE_STATUS));
    expectError(await status(UNKNOWN), "NOT_FOUND");
  });

  it("a new status gets the next snowflake id, exactly, as text; the signed-in account wrote it", async () => {
    const answer = await fedi.call("post_status", { status: "Anemones found!", spoiler_text: "" });
    const fields = expectOk(answer);
    // 113400000000000105 is past 2^53: a number would have rounded it
    expect.soft(fields.id).toBe("113400000000000105");
    expect.soft(fields).toMatchObject({ account_id: ME, visibility: "public", favourites_count: 0 });
    expectGrounded(answer, ["id", "account_id", "visibility", "favourites_count", "reblogs_count"]);
    expect.soft(expectOk(await status("113400000000000105"))).toMatchObject({ account_id: ME });
    expect.soft(await statusesOf(ME)).toEqual(["113400000000000105", "113400000000000102"]);
    const next = await fedi.call("post_status", { status: "And the crabs.", visibility: "unlisted" });
    expect.soft(fieldsOf(next)).toMatchObject({ id: "113400000000000106", visibility: "unlisted" });
  });

  it("the text given as `status` is what the API calls `content`: not inferred, and said so", async () => {
    // Mastodon takes the text as `status` and answers it as `content`: a renaming of its own,
    // no convention; the answer's content is reported as guessed, not passed off as the state
    const answer = await fedi.call("post_status", { status: "Anemones found!" });
    expect.soft(answer.guessed ?? []).toContain("content");
  });

  it("a reply must name a status that exists, and the status replied to counts it", async () => {
    const answer = await fedi.call("post_status", { status: "Count me in.", in_reply_to_id: BARNACLES });
    expect.soft(expectOk(answer)).toMatchObject({ in_reply_to_id: BARNACLES, account_id: ME });
    expect.soft(fieldsOf(await status(BARNACLES)).replies_count).toBe(1);
    expectError(await fedi.call("post_status", { status: "Hello?", in_reply_to_id: UNKNOWN }), "NOT_FOUND");
    expect.soft(await statusesOf(ME)).toEqual(["113400000000000105", "113400000000000102"]);
  });

  it("deleting your own status removes it; another account's is forbidden and stays", async () => {
    expectOk(await fedi.call("delete_status", { status_id: "113400000000000102" }));
    expectError(await status("113400000000000102"), "NOT_FOUND");
    expect.soft(await statusesOf(ME)).toEqual([]);
    expectError(await fedi.call("delete_status", { status_id: TIDE }), "FORBIDDEN");
    expect.soft(expectOk(await status(TIDE))).toMatchObject({ content: TIDE_STATUS.content });
    expectError(await fedi.call("delete_status", { status_id: UNKNOWN }), "NOT_FOUND");
  });
});

describe("fediverse: favourites, reblogs and bookmarks", () => {
  it("favouriting counts one more and lists the status among your favourites; repeating it changes nothing", async () => {
    const answer = await fedi.call("favourite_status", { status_id: TIDE });
    expectRecord(answer, { id: TIDE, favourites_count: 5 }, { ...TIDE_STATUS, favourites_count: 5 });
    expect.soft(fieldsOf(await status(TIDE)).favourites_count).toBe(5);
    expect.soft(await favourited()).toEqual([FERRY, TIDE]);
    // the API documents a repeated favourite as a no-op, not an error
    expect.soft(expectOk(await fedi.call("favourite_status", { status_id: TIDE }))).toMatchObject({
      favourites_count: 5,
    });
    expect.soft(await favourited()).toEqual([FERRY, TIDE]);
    expectError(await fedi.call("favourite_status", { status_id: UNKNOWN }), "NOT_FOUND");
  });

  it("unfavouriting counts one less; a status not favourited is left as it is", async () => {
    expect.soft(expectOk(await fedi.call("unfavourite_status", { status_id: FERRY }))).toMatchObject({
      id: FERRY,
      favourites_count: 6,
    });
    expect.soft(await favourited()).toEqual([]);
    expect.soft(expectOk(await fedi.call("unfavourite_status", { status_id: TIDE }))).toMatchObject({
      id: TIDE,
      favourites_count: 4,
    });
    expect.soft(fieldsOf(await status(TIDE)).favourites_count).toBe(4);
  });

  it("a reblog is a new status by you pointing at the original, which counts one more reblog", async () => {
    const answer = await fedi.call("reblog_status", { status_id: FERRY });
    expect
      .soft(expectOk(answer))
      .toMatchObject({ id: "113400000000000105", account_id: ME, reblog_of_id: FERRY });
    expectGrounded(answer, ["id", "account_id", "reblog_of_id"]);
    expect.soft(fieldsOf(await status(FERRY)).reblogs_count).toBe(4);
    expect.soft(await statusesOf(ME)).toEqual(["113400000000000105", "113400000000000102"]);
    expectError(await fedi.call("reblog_status", { status_id: UNKNOWN }), "NOT_FOUND");
    expect.soft(fieldsOf(await status(FERRY)).reblogs_count).toBe(4);
  });

  it("bookmarks answer the statuses bookmarked, whole; bookmarking and unbookmarking answer the status", async () => {
    const listed = await fedi.call("get_bookmarks");
    expect.soft(expectOk(listed).statuses).toMatchObject([{ id: BARNACLES, account_id: "109348203" }]);
    expectGrounded(listed, ["statuses"]);
    const added = await fedi.call("bookmark_status", { status_id: TIDE });
    expectRecord(added, { id: TIDE }, TIDE_STATUS);
    expectGrounded(added, Object.keys(TIDE_STATUS));
    expect.soft(await bookmarked()).toEqual([BARNACLES, TIDE]);
    const removed = await fedi.call("unbookmark_status", { status_id: BARNACLES });
    expect.soft(expectOk(removed)).toMatchObject({ id: BARNACLES, visibility: "unlisted" });
    expectGrounded(removed, ["id", "account_id", "content", "visibility"]);
    expect.soft(await bookmarked()).toEqual([TIDE]);
    expectError(await fedi.call("bookmark_status", { status_id: UNKNOWN }), "NOT_FOUND");
    expect.soft(await bookmarked()).toEqual([TIDE]);
  });
});

describe("fediverse: accounts, follows and search", () => {
  it("an account answers its profile; the signed-in one is the session's; unknown ids are not found", async () => {
    const answer = await fedi.call("get_account", { account_id: "109348203" });
    expectRecord(
      answer,
      { id: "109348203", username: "ada", acct: "ada", locked: true, followers_count: 1 },
      {
        display_name: "Ada Quist",
        note: "Barnacles, mostly.",
        bot: false,
        following_count: 1,
        statuses_count: 1,
        created_at: "2024-01-20T17:45:00Z",
      },
    );
    const me = await fedi.call("verify_credentials");
    expect.soft(expectOk(me)).toMatchObject({ id: ME, username: "maren", display_name: "Maren Vik" });
    expectGrounded(me, ["id", "username", "display_name", "following_count"]);
    expectError(await fedi.call("get_account", { account_id: "1" }), "NOT_FOUND");
    expectError(await fedi.call("get_account_statuses", { account_id: "1" }), "NOT_FOUND");
  });

  it("following answers the relationship; the followed account counts one more follower", async () => {
    const answer = await fedi.call("follow_account", { account_id: "109348204" });
    expect.soft(expectOk(answer)).toMatchObject({ id: "109348204", following: true });
    expectGrounded(answer, ["id", "following"]);
    expect
      .soft(fieldsOf(await fedi.call("get_account", { account_id: "109348204" })).followers_count)
      .toBe(1);
    expectError(await fedi.call("follow_account", { account_id: "1" }), "NOT_FOUND");
  });

  it("unfollowing answers the relationship with following false; the account counts one follower less", async () => {
    const answer = await fedi.call("unfollow_account", { account_id: "109348202" });
    expect.soft(expectOk(answer)).toMatchObject({ id: "109348202", following: false });
    expectGrounded(answer, ["id", "following"]);
    expect
      .soft(fieldsOf(await fedi.call("get_account", { account_id: "109348202" })).followers_count)
      .toBe(1);
    // whether they follow you back is the API's own bookkeeping (`followers`): left out, or
    // reported as guessed, never passed off as the state
    const followedBy = fieldsOf(answer).followed_by;
    expect.soft(followedBy === undefined || (answer.guessed ?? []).includes("followed_by")).toBe(true);
  });

  it("a search answers the accounts and statuses whose text contains the query, ignoring case", async () => {
    const answer = await fedi.call("search", { q: "BARNACLE" });
    const fields = expectOk(answer);
    expect.soft(ids(fields.accounts)).toEqual(["109348203"]);
    expect.soft(ids(fields.statuses)).toEqual([BARNACLES]);
    expectGrounded(answer, ["accounts", "statuses"]);
    await fedi.call("post_status", { status: "Barnacle count: 40 per square metre." });
    expect.soft(ids(fieldsOf(await fedi.call("search", { q: "barnacle" })).statuses)).toHaveLength(2);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(fedi.breaches).toEqual([]);
  });
});
