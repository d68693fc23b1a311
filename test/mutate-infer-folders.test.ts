import { describe, expect, it } from "vitest";
import {
  call,
  error,
  failure,
  inferred,
  integer,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Folders (docs/inference.md): records of one kind kept in several arrays of one record (a
 * mailbox's inbox, sent and archive), numbered from one sequence. A read by id looks in all of
 * them unless the tool names one; a message sent is filed in the folder named for sending; a
 * verb that names a folder moves the record there; a reply or a forward files a new record made
 * from the one it names.
 */

const m = (message_id: number, from: string, to: string, subject: string) => ({
  message_id,
  from,
  to,
  subject,
  body: `${subject}.`,
  read: true,
});

const users = {
  ana: { handle: "ana", name: "Ana" },
  ben: { handle: "ben", name: "Ben" },
  cy: { handle: "cy", name: "Cy" },
};

// numbered from one sequence that holds the next number to give
const mailbox = {
  next_message_id: 5,
  inbox: [m(1, "ben", "ana", "Lunch"), m(2, "cy", "ana", "Rent")],
  sent: [m(3, "ana", "ben", "Re: Lunch")],
  drafts: [m(4, "ana", "cy", "Plans")],
  archived: [],
  trash: [],
  deleted: [],
  // beside the folders: an array of other records, and a list of words
  contacts: [{ contact_id: "k1", name: "Ana" }],
  labels: ["work"],
};

const id = { message_id: integer };
const tools = [
  tool("get_message", "Get a message by id.", id),
  tool("get_inbox_message", "Get a message of the inbox.", id),
  tool("send_message", "Send a message.", { to: text, subject: text, body: text }),
  tool("create_message", "Create a message and keep it in drafts.", { to: text, subject: text, body: text }),
  tool("archive_message", "Archive a message.", id),
  tool("delete_message", "Delete a message.", id),
  tool("find_message", "Find a message of the inbox or the sent folder.", id),
  tool(
    "reply_message",
    "Reply to a message.",
    { ...id, body: text },
    undefined,
    [error("MESSAGE_NOT_FOUND", "Message not found.", "No message has this id.", 404)],
    { outputSchema: { type: "object", properties: { message_id: integer, in_reply_to: integer } } },
  ),
  tool("forward_message", "Forward a message.", { ...id, to: text }),
];

const mail = world({ users, me: { handle: "ana" }, mailbox }, tools);

const folder = (state: State, name: string) =>
  ((state.mailbox as Record<string, unknown>)[name] as Array<Record<string, unknown>>).map(
    (r) => r.message_id,
  );

describe("a read by id looks in every folder", () => {
  it("finds a message in the inbox, in sent and in drafts", async () => {
    for (const [message_id, subject] of [
      [1, "Lunch"],
      [3, "Re: Lunch"],
      [4, "Plans"],
    ] as const) {
      const { answer } = await call(mail, "get_message", { message_id });
      expect(answer).toMatchObject({ message_id, subject });
    }
  });

  it("looks in folders the state shows empty too", async () => {
    const later = {
      users,
      me: { handle: "ana" },
      mailbox: { ...mailbox, trash: [m(9, "cy", "ana", "Old")] },
    };
    expect((await call(mail, "get_message", { message_id: 9 }, later)).answer).toMatchObject({
      subject: "Old",
    });
  });

  it("answers a not-found error named for the records, and says where it looks", async () => {
    const { outcome, report, tool: found } = await call(mail, "get_message", { message_id: 99 });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "MESSAGE_NOT_FOUND", status: 404 } });
    expect(found.errors.map((e) => e.code)).toEqual(["MESSAGE_NOT_FOUND"]);
    expect(report.notes).toContain(
      "reads the record message_id names in any of inbox, sent, drafts, archived, trash, deleted",
    );
  });

  it("looks in every folder when the tool names more than one", async () => {
    expect((await call(mail, "find_message", { message_id: 4 })).answer).toMatchObject({ subject: "Plans" });
  });

  it("looks only in the folder a tool names", async () => {
    expect((await call(mail, "get_inbox_message", { message_id: 1 })).answer).toMatchObject({
      subject: "Lunch",
    });
    expect((await call(mail, "get_inbox_message", { message_id: 3 })).outcome.status).toBe("failed");
  });

  it("takes arrays side by side at the top, a record with one array, or maps, for no folders", async () => {
    const flat = world({ users, inbox: mailbox.inbox, sent: mailbox.sent }, tools);
    expect((await call(flat, "get_message", { message_id: 3 })).outcome.status).toBe("failed");
    const single = world({ users, mailbox: { inbox: mailbox.inbox, notes: "none" } }, tools);
    expect(inferred(single, "get_message").report.notes.some((n) => n.includes("in any of"))).toBe(false);
    const byKey = (records: Array<{ message_id: number }>) =>
      Object.fromEntries(records.map((r) => [r.message_id, r]));
    const maps = world({ users, mailbox: { inbox: byKey(mailbox.inbox), sent: byKey(mailbox.sent) } }, tools);
    expect(inferred(maps, "get_message").report.notes.some((n) => n.includes("in any of"))).toBe(false);
  });
});

describe("a new message is filed in the folder named for what the tool does", () => {
  it("files a sent message in sent, from the signed-in account, under the sequence's next number", async () => {
    const { after, answer } = await call(mail, "send_message", { to: "ben", subject: "Hi", body: "x" });
    expect(answer).toEqual({ message_id: 5, from: "ana", to: "ben", subject: "Hi", body: "x" });
    expect(folder(after, "sent")).toEqual([3, 5]);
    expect((after.mailbox as Record<string, unknown>).next_message_id).toBe(6);
    expect(folder(after, "inbox")).toEqual([1, 2]);
  });

  it("files a new message in the folder the description names", async () => {
    const { after } = await call(mail, "create_message", { to: "cy", subject: "Trip", body: "y" });
    expect(folder(after, "drafts")).toEqual([4, 5]);
    expect(folder(after, "sent")).toEqual([3]);
  });
});

describe("a verb that names a folder moves the record there", () => {
  it("archives a message: it leaves the inbox and is appended to the archive", async () => {
    const { after, report } = await call(mail, "archive_message", { message_id: 2 });
    expect(folder(after, "inbox")).toEqual([1]);
    expect(folder(after, "archived")).toEqual([2]);
    expect(report.notes).toContain("moves the record from inbox to archived");
  });

  it("deletes a message into the folder named for deleting", async () => {
    const { after, report } = await call(mail, "delete_message", { message_id: 1 });
    expect(folder(after, "inbox")).toEqual([2]);
    expect(folder(after, "deleted")).toEqual([1]);
    expect(report.notes).toContain("moves the record from inbox to deleted");
  });

  it("answers not found for a message that is not there, and moves nothing", async () => {
    const { outcome } = await call(mail, "archive_message", { message_id: 99 });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "MESSAGE_NOT_FOUND", status: 404 } });
  });
});

describe("replies and forwards make a new message from the one they name", () => {
  it("replies to the original's author with its subject, from the signed-in account, linked to it", async () => {
    const { after, answer, report } = await call(mail, "reply_message", { message_id: 2, body: "Paid." });
    expect(answer).toEqual({
      message_id: 5,
      from: "ana",
      to: "cy",
      subject: "Rent",
      body: "Paid.",
      in_reply_to: 2,
    });
    expect(folder(after, "sent")).toEqual([3, 5]);
    expect(report.notes).toContain("makes a new sent from the one message_id names");
  });

  it("answers the documented error for a reply to a message that does not exist", async () => {
    const { outcome } = await call(mail, "reply_message", { message_id: 99, body: "?" });
    expect(outcome).toMatchObject({ status: "failed", failure: { code: "MESSAGE_NOT_FOUND" } });
  });

  it("forwards the original's subject and body to a new recipient", async () => {
    const { after, answer } = await call(mail, "forward_message", { message_id: 1, to: "cy" });
    expect(answer).toEqual({ message_id: 5, from: "ana", to: "cy", subject: "Lunch", body: "Lunch." });
    expect(folder(after, "sent")).toEqual([3, 5]);
    const missing = await call(mail, "forward_message", { message_id: 99, to: "cy" });
    expect(failure(missing.outcome)).toBe("MESSAGE_NOT_FOUND");
  });
});

describe("posts filed by what the verb leaves, and replies without folders", () => {
  const post = (post_id: number, title: string) => ({ post_id, title, author: "ana" });
  const blog = world(
    {
      users,
      me: { handle: "ana" },
      blog: { drafts: [post(1, "a")], scheduled: [post(2, "b")], published: [post(3, "c")], next_post_id: 4 },
    },
    [
      tool("publish_post", "Publish a post.", { title: text }),
      tool("schedule_post", "Schedule a post.", { title: text }),
    ],
  );
  const titles = (state: State, name: string) =>
    ((state.blog as Record<string, unknown>)[name] as Array<{ title: string }>).map((p) => p.title);

  it("files a published post in `published` and a scheduled one in `scheduled`", async () => {
    const published = await call(blog, "publish_post", { title: "d" });
    expect(titles(published.after, "published")).toEqual(["c", "d"]);
    expect(titles(published.after, "drafts")).toEqual(["a"]);
    const scheduled = await call(blog, "schedule_post", { title: "e" });
    expect(titles(scheduled.after, "scheduled")).toEqual(["b", "e"]);
    expect(titles(scheduled.after, "published")).toEqual(["c"]);
  });

  it("replies to a comment with a new comment under a new id, linked to the one it answers", async () => {
    const forum = world(
      { users, me: { handle: "ana" }, comments: { c1: { comment_id: "c1", author: "ben", text: "hi" } } },
      [
        tool("reply_comment", "Reply to a comment.", { comment_id: text, text }, undefined, [], {
          outputSchema: { type: "object", properties: { comment_id: text, parent_id: text } },
        }),
      ],
    );
    const { outcome, after } = await call(forum, "reply_comment", { comment_id: "c1", text: "yo" });
    expect(outcome.status).toBe("applied");
    expect(after.comments).toEqual({
      c1: { comment_id: "c1", author: "ben", text: "hi" },
      c2: { comment_id: "c2", author: "ana", text: "yo", parent_id: "c1" },
    });
  });
});
