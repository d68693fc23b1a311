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
 * A microblogging client API: posts keyed by numeric id with a counter of the last id given,
 * accounts keyed by handle, and the signed-in account's record holding the handles it follows
 * and the ids of the posts it likes (arrays of plain values). Served without effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const tern = useDomain("social.json");

const POST_2 = {
  id: 2,
  author: "priya",
  text: "The old swing bridge opens at noon.",
  created_at: "2026-03-01T10:15:00Z",
  like_count: 5,
  comment_count: 0,
  repost_count: 0,
};
const POST_1 = {
  id: 1,
  author: "omar",
  text: "First light over the harbour.",
  created_at: "2026-02-28T06:40:00Z",
  like_count: 3,
};

const post = async (postId: number) => tern.call("getPost", { postId });
const following = async () => fieldsOf(await tern.call("listFollowing")).following;
const liked = async () => fieldsOf(await tern.call("listLikedPosts")).post_ids;
const postIdsBy = async (handle: string) => {
  const posts = fieldsOf(await tern.call("getAccountPosts", { handle })).posts;
  return Array.isArray(posts) ? posts.map((p: { id?: unknown }) => p.id) : posts;
};

describe("social: posts keyed by numeric id with a counter, follows and likes as lists", () => {
  it("a post answers its stored fields, none guessed; an unknown id answers the documented error", async () => {
    const answer = await post(2);
    expectRecord(answer, POST_2);
    expectGrounded(answer, Object.keys(POST_2));
    expectError(await post(99), "POST_NOT_FOUND");
  });

  it("a new post takes the id after the counter's, which getPost finds, and the counter moves on", async () => {
    const answer = await tern.call("createPost", { text: "Bridge photos tonight." });
    expectRecord(
      answer,
      { id: 4, author: "lena", text: "Bridge photos tonight." },
      { created_at: expect.stringMatching(/^2026-03-02T/), like_count: 0, comment_count: 0, repost_count: 0 },
    );
    expectGrounded(answer, ["id", "author", "text"]);
    // a new post's counts start at zero, as its siblings keep them
    expect.soft(expectOk(await post(4))).toMatchObject({ like_count: 0, comment_count: 0, repost_count: 0 });
    expect
      .soft(expectOk(await post(4)))
      .toMatchObject({ id: 4, author: "lena", text: "Bridge photos tonight." });
    expect.soft(await postIdsBy("lena")).toEqual([3, 4]);
    const second = await tern.call("createPost", { text: "And one more." });
    expect.soft(fieldsOf(second).id).toBe(5);
    expect.soft(expectOk(await post(5))).toMatchObject({ text: "And one more." });
    expect.soft(expectOk(await post(4))).toMatchObject({ text: "Bridge photos tonight." });
  });

  it("an account's posts are those it wrote; an unknown handle answers the documented error", async () => {
    const answer = await tern.call("getAccountPosts", { handle: "omar" });
    expect
      .soft(expectOk(answer).posts)
      .toMatchObject([{ id: 1, author: "omar", text: "First light over the harbour." }]);
    expectGrounded(answer, ["posts"]);
    expect.soft(await postIdsBy("sol")).toEqual([]);
    expectError(await tern.call("getAccountPosts", { handle: "ghost" }), "ACCOUNT_NOT_FOUND");
  });

  it("deleting your own post removes it; another's post is refused and stays", async () => {
    expectOk(await tern.call("deletePost", { postId: 3 }));
    expectError(await post(3), "POST_NOT_FOUND");
    expect.soft(await postIdsBy("lena")).toEqual([]);
    expectError(await tern.call("deletePost", { postId: 1 }), "NOT_YOUR_POST");
    expect.soft(expectOk(await post(1))).toMatchObject({ author: "omar" });
    expectError(await tern.call("deletePost", { postId: 99 }), "POST_NOT_FOUND");
  });

  it("a like raises the post's count and joins your liked posts; liking twice is refused", async () => {
    const answer = await tern.call("likePost", { postId: 1 });
    expectRecord(answer, { id: 1, like_count: 4 }, POST_1);
    expect.soft(expectOk(await post(1))).toMatchObject({ like_count: 4 });
    expect.soft(await liked()).toEqual([2, 1]);
    expectError(await tern.call("likePost", { postId: 2 }), "ALREADY_LIKED");
    expect.soft(expectOk(await post(2))).toMatchObject({ like_count: 5 });
    expectError(await tern.call("likePost", { postId: 99 }), "POST_NOT_FOUND");
  });

  it("the liked posts and the followed accounts answer the lists the state holds", async () => {
    const likes = await tern.call("listLikedPosts");
    expect.soft(expectOk(likes)).toEqual({ post_ids: [2] });
    expectGrounded(likes, ["post_ids"]);
    const follows = await tern.call("listFollowing");
    expect.soft(expectOk(follows)).toEqual({ following: ["omar", "priya"] });
    expectGrounded(follows, ["following"]);
  });

  it("following an account adds its handle; an unknown handle is refused and adds nothing", async () => {
    expect.soft(expectOk(await tern.call("followAccount", { handle: "sol" }))).toEqual({
      following: ["omar", "priya", "sol"],
    });
    expect.soft(await following()).toEqual(["omar", "priya", "sol"]);
    expectError(await tern.call("followAccount", { handle: "ghost" }), "ACCOUNT_NOT_FOUND");
    expect.soft(await following()).toEqual(["omar", "priya", "sol"]);
  });

  it("unfollowing removes the handle; a handle not followed answers the documented error", async () => {
    expect
      .soft(expectOk(await tern.call("unfollowAccount", { handle: "omar" })))
      .toEqual({ following: ["priya"] });
    expect.soft(await following()).toEqual(["priya"]);
    expectError(await tern.call("unfollowAccount", { handle: "sol" }), "NOT_FOLLOWING");
  });

  it("an account answers its stored profile; an unknown handle answers the documented error", async () => {
    const answer = await tern.call("getAccount", { handle: "priya" });
    expectRecord(answer, { handle: "priya", display_name: "Priya Nair", bio: "Writes about bridges." });
    expectGrounded(answer, ["handle", "display_name", "bio"]);
    expectError(await tern.call("getAccount", { handle: "ghost" }), "ACCOUNT_NOT_FOUND");
  });

  it("a comment is filed under the next comment id by you, on the post, whose count goes up", async () => {
    const answer = await tern.call("commentOnPost", { postId: 2, text: "Noted, thanks!" });
    expectRecord(
      answer,
      { id: 2, post_id: 2, author: "lena", text: "Noted, thanks!" },
      { created_at: expect.stringMatching(/^2026-03-02T/) },
    );
    expectGrounded(answer, ["id", "post_id", "author", "text"]);
    expect.soft(fieldsOf(await post(2)).comment_count).toBe(1);
    expect
      .soft(expectOk(await tern.call("listComments", { postId: 2 })).comments)
      .toMatchObject([{ id: 2, author: "lena", text: "Noted, thanks!" }]);
    expect
      .soft(expectOk(await tern.call("listComments", { postId: 1 })).comments)
      .toMatchObject([{ id: 1, author: "priya", text: "Lovely colours." }]);
    expectError(await tern.call("commentOnPost", { postId: 99, text: "Hello?" }), "POST_NOT_FOUND");
    expectError(await tern.call("listComments", { postId: 99 }), "POST_NOT_FOUND");
    expect.soft(expectOk(await tern.call("listComments", { postId: 3 })).comments).toEqual([]);
  });

  it("a search finds the posts whose text contains the query, ignoring case", async () => {
    const answer = await tern.call("searchPosts", { query: "BRIDGE" });
    expect.soft(expectOk(answer).posts).toMatchObject([{ id: 2, author: "priya" }]);
    expectGrounded(answer, ["posts"]);
    await tern.call("createPost", { text: "A bridge at dusk." });
    const ids = (
      expectOk(await tern.call("searchPosts", { query: "bridge" })).posts as Array<{ id: number }>
    ).map((p) => p.id);
    expect.soft(ids).toEqual([2, 4]);
  });

  it("a repost is a new post by you with the original's text and a link to it; the original counts it", async () => {
    const answer = await tern.call("repost", { postId: 1 });
    expectRecord(
      answer,
      { id: 4, author: "lena", text: "First light over the harbour.", repost_of: 1 },
      { created_at: expect.stringMatching(/^2026-03-02T/), like_count: 0, comment_count: 0, repost_count: 0 },
    );
    expectGrounded(answer, ["id", "author", "text", "repost_of"]);
    expect.soft(fieldsOf(await post(1)).repost_count).toBe(1);
    expect.soft(await postIdsBy("lena")).toEqual([3, 4]);
    expectError(await tern.call("repost", { postId: 99 }), "POST_NOT_FOUND");
    expect.soft(fieldsOf(await post(1)).repost_count).toBe(1);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(tern.breaches).toEqual([]);
  });
});
