import { describe, expect, it } from "vitest";
import { bool, call, failure, outputs, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Lists of plain values a verb names (`block_user` → `blocked`, `mute_user` → `muted`), and
 * the question whether a record's list holds a value (`has_tag(post_id, tag)`).
 */

describe("people blocked and muted", () => {
  const account = (): State => ({ profile: { handle: "lu" }, blocked: ["spam1"], muted: [] });
  const user = { user: text };
  const tools = [
    tool("block_user", "Block a user.", user),
    tool("unblock_user", "Unblock a user.", user),
    tool("mute_user", "Mute a user.", user),
    tool("unmute_user", "Unmute a user.", user),
  ];
  const run = (name: string, args: Record<string, unknown>) => call(world(account(), tools), name, args);

  it("blocks a user once, and unblocks only one who is blocked", async () => {
    expect((await run("block_user", { user: "troll" })).after.blocked).toEqual(["spam1", "troll"]);
    expect((await run("block_user", { user: "spam1" })).after.blocked).toEqual(["spam1"]);
    expect((await run("unblock_user", { user: "spam1" })).after.blocked).toEqual([]);
    expect(failure((await run("unblock_user", { user: "kim" })).outcome)).toBe("USER_NOT_IN_BLOCKED");
  });

  it("mutes into a list that starts empty, with a verb no other rule knows", async () => {
    const muted = await run("mute_user", { user: "kim" });
    expect(muted.after.muted).toEqual(["kim"]);
    expect(muted.after.blocked).toEqual(["spam1"]);
    expect(muted.report.notes).toContain("adds user to muted, once");
  });
});

describe("whether a record's list holds a value", () => {
  const blog = (): State => ({ posts: { p1: { post_id: "p1", title: "Hi", tags: ["news"] } } });
  const asks = tool(
    "has_tag",
    "Whether a post has a tag.",
    { post_id: text, tag: text },
    ["post_id", "tag"],
    [],
    {
      ...outputs({ has_tag: bool }),
    },
  );
  const ask = (args: Record<string, unknown>) => call(world(blog(), [asks]), "has_tag", args);

  it("answers true or false from the record, and the record's not-found error", async () => {
    expect((await ask({ post_id: "p1", tag: "news" })).answer).toEqual({ has_tag: true });
    const no = await ask({ post_id: "p1", tag: "sports" });
    expect(no.answer).toEqual({ has_tag: false });
    expect(no.report.verdict).toBe("inferred");
    expect(failure((await ask({ post_id: "p9", tag: "news" })).outcome)).toBe("POST_NOT_FOUND");
  });

  it("is no question where the tool answers more than the one flag", async () => {
    const wider = tool(
      "has_tag",
      "Whether a post has a tag.",
      { post_id: text, tag: text },
      ["post_id", "tag"],
      [],
      {
        ...outputs({ has_tag: bool, checked_at: text }),
      },
    );
    const { report } = await call(world(blog(), [wider]), "has_tag", { post_id: "p1", tag: "news" });
    expect(report.notes.join(" ")).not.toMatch(/answers whether the tags/);
  });
});
