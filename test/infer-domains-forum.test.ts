import { describe, expect, it } from "vitest";
import { expectError, expectOk, useDomain } from "./support/domain-session.js";

/**
 * A gardening forum for one account: the account's own credentials at the top of the state,
 * numbered topics with tags, and the replies to each topic kept beside them under the topic's
 * number. Served without effects.
 */

const forum = useDomain("forum.json");

const tags = async (topic_id: number) => expectOk(await forum.call("get_topic", { topic_id })).tags;
const replies = async (topic_id: number) => expectOk(await forum.call("list_replies", { topic_id })).replies;

describe("a forum: credentials held by the account, tags on topics, replies kept beside topics", () => {
  it("signs in only with the username and password the account holds", async () => {
    expect.soft(expectOk(await forum.call("sign_in", { username: "mara", password: "wrong" }))).toEqual({
      signed_in: false,
    });
    expectError(
      await forum.call("reply_to_topic", { topic_id: 1, reply_text: "Hello" }),
      "NOT_AUTHENTICATED",
    );
    expect.soft(expectOk(await forum.call("sign_in", { username: "mara", password: "tulip-42" }))).toEqual({
      signed_in: true,
    });
    expectOk(await forum.call("reply_to_topic", { topic_id: 1, reply_text: "Hello" }));
  });

  it("a reply joins the topic's list as the signed-in account, and a topic without replies has an empty list", async () => {
    expect.soft(await replies(2)).toEqual([]);
    expectOk(await forum.call("sign_in", { username: "mara", password: "tulip-42" }));
    expectOk(await forum.call("reply_to_topic", { topic_id: 2, reply_text: "Beer traps work." }));
    expectOk(await forum.call("reply_to_topic", { topic_id: 1, reply_text: "Thanks!" }));
    expect.soft(await replies(2)).toEqual([{ author: "mara", text: "Beer traps work." }]);
    expect.soft(await replies(1)).toEqual([
      { author: "ines", text: "Wait for the last frost." },
      { author: "mara", text: "Thanks!" },
    ]);
    expectError(await forum.call("list_replies", { topic_id: 9 }), "TOPIC_NOT_FOUND");
    expectError(await forum.call("reply_to_topic", { topic_id: 9, reply_text: "?" }), "TOPIC_NOT_FOUND");
  });

  it("tags join a topic once each and leave it by the same list", async () => {
    expect
      .soft(expectOk(await forum.call("tag_topic", { topic_id: 1, tags: ["roses", "spring"] })).tags)
      .toEqual(["roses", "pruning", "spring"]);
    expectOk(await forum.call("untag_topic", { topic_id: 1, tags: ["pruning", "never-there"] }));
    expect.soft(await tags(1)).toEqual(["roses", "spring"]);
    expectError(await forum.call("tag_topic", { topic_id: 9, tags: ["x"] }), "TOPIC_NOT_FOUND");
  });

  it("a verb that names a list of the topic adds the given values to it, once each", async () => {
    const answer = await forum.call("mention", { topic_id: 1, mentioned_usernames: ["jon", "ines"] });
    expect.soft(expectOk(answer)).not.toHaveProperty("title");
    expect.soft(expectOk(await forum.call("get_topic", { topic_id: 1 })).mentions).toEqual(["ines", "jon"]);
    expectError(
      await forum.call("mention", { topic_id: 9, mentioned_usernames: ["jon"] }),
      "TOPIC_NOT_FOUND",
    );
  });

  it("a verb toolsim does not know still answers the not-found error of the topic it names", async () => {
    expectError(await forum.call("escalate_topic", { topic_id: 9, note: "spam" }), "TOPIC_NOT_FOUND");
    const answer = await forum.call("escalate_topic", { topic_id: 2, note: "spam" });
    expectOk(answer);
    // what it does is a guess, and the result says so
    expect.soft(answer.guessed).toContain("escalation_status");
  });
});
