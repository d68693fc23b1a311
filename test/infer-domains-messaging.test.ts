import { describe, expect, it } from "vitest";
import {
  type Answer,
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * A direct-messaging API in camelCase: users keyed by id, the signed-in user in a session record,
 * and a mailbox whose inbox and sent folder are arrays of messages numbered from one counter.
 * Served without effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const pigeon = useDomain("messaging.json");

type Message = Record<string, unknown>;

function messagesOf(answer: Answer): Message[] {
  const messages = fieldsOf(answer).messages;
  return Array.isArray(messages) ? (messages as Message[]) : [];
}

const INBOX_1 = { from: "u_ben", to: "u_ana", text: "Lunch at noon?", sentAt: "2026-03-01T11:02:00Z" };

const inbox = async (unreadOnly?: boolean) =>
  messagesOf(await pigeon.call("listInbox", unreadOnly === undefined ? {} : { unreadOnly }));
const sent = async () => messagesOf(await pigeon.call("listSentMessages"));
const ids = (messages: Message[]) => messages.map((m) => m.messageId);

describe("messaging: users, a mailbox of message arrays, and a message counter", () => {
  it("a profile answers the user's stored fields, none guessed", async () => {
    const answer = await pigeon.call("getUserProfile", { userId: "u_ben" });
    expectRecord(answer, {
      userId: "u_ben",
      displayName: "Ben Okafor",
      email: "ben@pigeon.test",
      presence: "away",
    });
    expectGrounded(answer, ["userId", "displayName", "email", "presence"]);
  });

  it("an unknown user id answers the documented not-found error", async () => {
    expectError(await pigeon.call("getUserProfile", { userId: "u_zed" }), "USER_NOT_FOUND");
  });

  it("a lookup by email finds the user holding it, and an unknown email is not found", async () => {
    const answer = await pigeon.call("findUserByEmail", { email: "chi@pigeon.test" });
    expectRecord(
      answer,
      { userId: "u_chi", displayName: "Chidi Laine" },
      { email: "chi@pigeon.test", presence: "dnd" },
    );
    expectGrounded(answer, ["userId", "displayName"]);
    expectError(await pigeon.call("findUserByEmail", { email: "nobody@pigeon.test" }), "USER_NOT_FOUND");
  });

  it("the inbox lists the stored messages, and unreadOnly only the unread ones", async () => {
    const answer = await pigeon.call("listInbox");
    expectOk(answer);
    expect.soft(messagesOf(answer)).toMatchObject([
      { messageId: 1, from: "u_ben", text: "Lunch at noon?", sentAt: "2026-03-01T11:02:00Z", read: false },
      {
        messageId: 2,
        from: "u_chi",
        text: "The build is green again.",
        sentAt: "2026-03-01T15:40:00Z",
        read: true,
      },
    ]);
    expectGrounded(answer, ["messages"]);
    expect.soft(ids(await inbox(true))).toEqual([1]);
  });

  it("a message is found by id in any folder, and an unknown id is not found", async () => {
    const answer = await pigeon.call("getMessage", { messageId: 3 });
    expectRecord(answer, {
      messageId: 3,
      from: "u_ana",
      to: "u_ben",
      text: "Sure, the usual place.",
      sentAt: "2026-03-01T11:05:00Z",
      read: true,
    });
    expectGrounded(answer, ["messageId", "from", "to", "text", "sentAt", "read"]);
    expect.soft(expectOk(await pigeon.call("getMessage", { messageId: 1 }))).toMatchObject({
      from: "u_ben",
      text: "Lunch at noon?",
    });
    expectError(await pigeon.call("getMessage", { messageId: 99 }), "MESSAGE_NOT_FOUND");
  });

  it("a sent message takes the counter's next id, which later reads find, and the counter moves on", async () => {
    const answer = await pigeon.call("sendDirectMessage", {
      recipientId: "u_chi",
      text: "Standup moved to 10.",
    });
    expectRecord(
      answer,
      { messageId: 4, to: "u_chi", text: "Standup moved to 10." },
      {
        from: "u_ana",
        recipientId: "u_chi",
        sentAt: expect.stringMatching(/^2026-03-02T/),
        read: expect.any(Boolean),
      },
    );
    expectGrounded(answer, ["messageId", "to", "text"]);
    expect.soft(expectOk(await pigeon.call("getMessage", { messageId: 4 }))).toMatchObject({
      messageId: 4,
      from: "u_ana",
      to: "u_chi",
      text: "Standup moved to 10.",
    });
    expect.soft(ids(await sent())).toEqual([3, 4]);
    const second = await pigeon.call("sendDirectMessage", { recipientId: "u_ben", text: "Running late." });
    expect.soft(fieldsOf(second).messageId).toBe(5);
    expect.soft(ids(await sent())).toEqual([3, 4, 5]);
    expect.soft(ids(await inbox())).toEqual([1, 2]);
  });

  it("a message to an unknown recipient is refused and nothing is sent", async () => {
    expectError(
      await pigeon.call("sendDirectMessage", { recipientId: "u_nobody", text: "hello?" }),
      "RECIPIENT_NOT_FOUND",
    );
    expect.soft(ids(await sent())).toEqual([3]);
    const next = await pigeon.call("sendDirectMessage", { recipientId: "u_ben", text: "hello" });
    expect.soft(fieldsOf(next).messageId).toBe(4);
  });

  it("marking a message read is seen by the inbox and by the message", async () => {
    const answer = await pigeon.call("markMessageRead", { messageId: 1 });
    expectRecord(answer, { messageId: 1, read: true }, INBOX_1);
    expect.soft(await inbox(true)).toEqual([]);
    expect.soft(expectOk(await pigeon.call("getMessage", { messageId: 1 }))).toMatchObject({ read: true });
    expectError(await pigeon.call("markMessageRead", { messageId: 42 }), "MESSAGE_NOT_FOUND");
  });

  it("a reply goes to the original's sender under the next id and is filed as sent", async () => {
    const answer = await pigeon.call("replyToMessage", { messageId: 1, text: "Yes, see you there." });
    expectRecord(
      answer,
      { messageId: 4, to: "u_ben", text: "Yes, see you there.", inReplyTo: 1 },
      { from: "u_ana", sentAt: expect.stringMatching(/^2026-03-02T/), read: expect.any(Boolean) },
    );
    expect
      .soft(await sent())
      .toContainEqual(expect.objectContaining({ messageId: 4, to: "u_ben", text: "Yes, see you there." }));
    expectError(await pigeon.call("replyToMessage", { messageId: 77, text: "?" }), "MESSAGE_NOT_FOUND");
  });

  it("a forward sends the original's text to the recipient under the next id", async () => {
    const answer = await pigeon.call("forwardMessage", { messageId: 2, recipientId: "u_ben" });
    expectRecord(
      answer,
      { messageId: 4, to: "u_ben", text: "The build is green again." },
      {
        from: "u_ana",
        recipientId: "u_ben",
        sentAt: expect.stringMatching(/^2026-03-02T/),
        read: expect.any(Boolean),
      },
    );
    expect
      .soft(await sent())
      .toContainEqual(
        expect.objectContaining({ messageId: 4, to: "u_ben", text: "The build is green again." }),
      );
    expectError(
      await pigeon.call("forwardMessage", { messageId: 2, recipientId: "u_zed" }),
      "RECIPIENT_NOT_FOUND",
    );
    expectError(
      await pigeon.call("forwardMessage", { messageId: 50, recipientId: "u_ben" }),
      "MESSAGE_NOT_FOUND",
    );
    expect.soft(ids(await sent())).toEqual([3, 4]);
  });

  it("an archived message leaves the inbox but can still be read", async () => {
    expectOk(await pigeon.call("archiveMessage", { messageId: 1 }));
    expect.soft(ids(await inbox())).toEqual([2]);
    expect.soft(expectOk(await pigeon.call("getMessage", { messageId: 1 }))).toMatchObject({
      text: "Lunch at noon?",
    });
    expectError(await pigeon.call("archiveMessage", { messageId: 77 }), "MESSAGE_NOT_FOUND");
  });

  it("the signed-in user's presence is set on that user's profile only", async () => {
    const answer = await pigeon.call("setPresence", { presence: "dnd" });
    expect.soft(expectOk(answer)).toMatchObject({ presence: "dnd" });
    expect.soft(expectOk(await pigeon.call("getUserProfile", { userId: "u_ana" }))).toMatchObject({
      presence: "dnd",
    });
    expect.soft(expectOk(await pigeon.call("getUserProfile", { userId: "u_ben" }))).toMatchObject({
      presence: "away",
    });
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(pigeon.breaches).toEqual([]);
  });
});
