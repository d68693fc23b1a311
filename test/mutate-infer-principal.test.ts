import { describe, expect, it } from "vitest";
import { call, error, failure, inferred, type State, text, tool, world } from "./support/infer-world.js";

/**
 * The signed-in account (docs/inference.md): a record beside the collections that names one
 * of their records by key. A new record's author is that account, a documented "not your…"
 * error refuses a change to a record another account wrote, and a tool that names no record
 * but sets or reads fields of that account's record acts on it.
 */

const users = {
  ana: { handle: "ana", name: "Ana", status: "here" },
  ben: { handle: "ben", name: "Ben", status: "away" },
};

// beside the author: another field naming an account, a field with an owner's word that names
// none, and a quoted post's author inside a field
const posts = {
  p1: {
    post_id: "p1",
    author: "ana",
    mentions: "ben",
    user_agent: "web",
    quote: { author: "ben" },
    text: "hello",
  },
  p2: {
    post_id: "p2",
    author: "ben",
    mentions: "ana",
    user_agent: "app",
    quote: { author: "ana" },
    text: "hi",
  },
};

const tools = [
  tool("create_post", "Write a post as the signed-in user.", { text }),
  tool("edit_post", "Edit a post.", { post_id: text, text }, undefined, [
    error("POST_NOT_FOUND", "Post not found.", "No post has this id.", 404),
    error("NOT_YOUR_POST", "This post is not yours.", "Only the author can edit a post.", 403),
  ]),
  tool("delete_post", "Delete a post.", { post_id: text }, undefined, [
    error("POST_NOT_FOUND", "Post not found.", "No post has this id.", 404),
    error("FORBIDDEN", "The post was written by another user.", "The post belongs to someone else.", 403),
  ]),
  tool("set_status", "Set your status.", { status: text }),
  tool("get_me", "Get the signed-in user.", {}, [], [], {
    outputSchema: { type: "object", properties: { handle: text, name: text, status: text } },
  }),
];

// the record that says who is signed in holds a flag and a nested field before the key
const me = { signed_in: true, last_seen: { profile: "ben" }, handle: "ana" };
// the posts come first: a collection no record names the signed-in account of
const social = world({ posts, me, users }, tools);

const records = (state: State, name: string) => state[name] as Record<string, Record<string, unknown>>;

describe("a new record is written by the signed-in account", () => {
  it("sets the author of a new post to the account the `me` record names", async () => {
    const { outcome, after, report } = await call(social, "create_post", { text: "news" });
    expect(outcome.status).toBe("applied");
    const made = Object.values(records(after, "posts")).find((p) => p.text === "news");
    expect(made?.author).toBe("ana");
    expect(report.verdict).toBe("inferred");
  });

  it("follows whoever the state says is signed in", async () => {
    const { after } = await call(
      social,
      "create_post",
      { text: "news" },
      { users, me: { ...me, handle: "ben" }, posts },
    );
    expect(Object.values(records(after, "posts")).find((p) => p.text === "news")?.author).toBe("ben");
  });

  it("sets an owner field named with `by`", async () => {
    const board = world(
      {
        notes: { n1: { note_id: "n1", created_by: "ben", body: "x" } },
        users,
        current_user: { handle: "ben" },
      },
      [tool("create_note", "Write a note.", { body: text })],
    );
    const { after } = await call(board, "create_note", { body: "y" });
    expect(Object.values(records(after, "notes")).find((n) => n.body === "y")?.created_by).toBe("ben");
  });

  it("takes no record for the signed-in account unless its name says so", async () => {
    const unnamed = world({ users, settings: { handle: "ben" }, posts }, tools);
    const { after } = await call(unnamed, "create_post", { text: "news" });
    expect(Object.values(records(after, "posts")).find((p) => p.text === "news")?.author).not.toBe("ben");
  });
});

describe("a documented 'not your…' error refuses a change to another account's record", () => {
  it("edits one's own post", async () => {
    const { outcome, after } = await call(social, "edit_post", { post_id: "p1", text: "edited" });
    expect(outcome.status).toBe("applied");
    expect(records(after, "posts").p1?.text).toBe("edited");
  });

  it("refuses to edit another's post with the documented error, and leaves it as it was", async () => {
    const { outcome } = await call(social, "edit_post", { post_id: "p2", text: "edited" });
    expect(failure(outcome)).toBe("NOT_YOUR_POST");
  });

  it("reads the owner from the author field, not another field that names an account", async () => {
    // p2 mentions ana but ben wrote it; the signed-in ana may not delete it
    expect(failure((await call(social, "delete_post", { post_id: "p2" })).outcome)).toBe("FORBIDDEN");
    const own = await call(social, "delete_post", { post_id: "p1" });
    expect(Object.keys(records(own.after, "posts"))).toEqual(["p2"]);
  });

  it("reports the guard and counts the error as answered", () => {
    const { report } = inferred(social, "edit_post");
    expect(report.notes).toContain(
      "refuses a posts record the signed-in account does not own (NOT_YOUR_POST)",
    );
    expect(report.gaps).toEqual([]);
    expect(report.verdict).toBe("inferred");
  });

  it("makes no guard where no record says who is signed in", async () => {
    const nobody = world({ users, posts }, tools);
    const { outcome, report } = await call(nobody, "edit_post", { post_id: "p2", text: "edited" });
    expect(outcome.status).toBe("applied");
    expect(report.notes.some((n) => n.startsWith("refuses"))).toBe(false);
  });
});

describe("where no one field says who owns a record", () => {
  const board = world(
    {
      events: { e1: { event_id: "e1", title: "Fair", organizer: "ben", host: "ana" } },
      notes: { n1: { note_id: "n1", title: "Plan" } },
      me,
      users,
    },
    [
      tool("create_event", "Create an event.", { title: text }),
      tool("edit_note", "Edit a note.", { note_id: text, title: text }, undefined, [
        error("NOT_YOURS", "This note is not yours.", "Only its author may edit it.", 403),
      ]),
    ],
  );

  it("sets neither of two fields that could name the author", async () => {
    const { after } = await call(board, "create_event", { title: "Market" });
    const made = Object.values(records(after, "events")).find((e) => e.title === "Market");
    expect(made).not.toHaveProperty("organizer");
    expect(made).not.toHaveProperty("host");
  });

  it("guards nothing where the records have no author, and says the error is answered by no effect", async () => {
    const { outcome, report } = await call(board, "edit_note", { note_id: "n1", title: "Plan B" });
    expect(outcome.status).toBe("applied");
    expect(report.gaps).toContain("documented error NOT_YOURS is answered by no effect");
  });
});

describe("tools that act on the signed-in account's own record", () => {
  it("sets a field of the account's record from a tool that names no record", async () => {
    const { outcome, after, report } = await call(social, "set_status", { status: "busy" });
    expect(outcome.status).toBe("applied");
    expect(records(after, "users")).toEqual({
      ana: { handle: "ana", name: "Ana", status: "busy" },
      ben: users.ben,
    });
    expect(report.notes).toContain("sets status of the signed-in account's record of users");
  });

  it("reads the account's record from a tool without arguments", async () => {
    const { answer, report } = await call(social, "get_me", {});
    expect(answer).toEqual(users.ana);
    expect(report.notes).toContain("reads the signed-in account's record of users");
  });

  it("finds the account by a numeric key too", async () => {
    const numbered = world(
      {
        members: { "7": { member_id: 7, name: "Ana" }, "9": { member_id: 9, name: "Ben" } },
        session: { member_id: 9 },
      },
      [
        tool("get_me", "Who is signed in.", {}, [], [], {
          outputSchema: { type: "object", properties: { member_id: { type: "integer" }, name: text } },
        }),
      ],
    );
    expect((await call(numbered, "get_me", {})).answer).toEqual({ member_id: 9, name: "Ben" });
  });

  it("reads the account's record for a tool whose answer has some of its fields", async () => {
    const profile = world({ posts, me, users }, [
      tool("get_me", "Get the signed-in user.", {}, [], [], {
        outputSchema: { type: "object", properties: { handle: text, name: text, bio: text } },
      }),
    ]);
    expect((await call(profile, "get_me", {})).answer).toMatchObject({ handle: "ana", name: "Ana" });
  });

  it("leaves a tool alone that sets a field of the record and another that is none", async () => {
    const both = world({ posts, me, users }, [
      tool("set_status", "Set your status.", { status: text, mood: text }),
    ]);
    const { after, report } = await call(both, "set_status", { status: "busy", mood: "calm" });
    expect(records(after, "users")).toEqual(users);
    expect(report.notes.some((n) => n.includes("signed-in account's record"))).toBe(false);
  });

  it("leaves a tool alone whose argument is no field of the record", async () => {
    const moods = world({ users, me, posts }, [tool("set_mood", "Set a mood.", { mood: text })]);
    const { after } = await call(moods, "set_mood", { mood: "calm" });
    expect(records(after, "users")).toEqual(users);
  });
});

describe("the owner of the record a collection lives in makes what is created there", () => {
  const event = (n: number, organizer: string, guest: string, extra: Record<string, unknown> = {}) => ({
    event_id: `e${n}`,
    title: `T${n}`,
    organizer,
    attendees: [
      { email: organizer, response: "accepted" },
      { email: guest, response: "needsAction" },
    ],
    ...extra,
  });
  const calendarOf = (owner: string, events: Array<Record<string, unknown>>) => ({
    calendar: { owner, events: Object.fromEntries(events.map((e) => [e.event_id as string, e])) },
  });
  const three = [
    event(1, "ana@x.org", "ben@x.org"),
    event(2, "ana@x.org", "cy@x.org"),
    event(3, "ana@x.org", "ben@x.org"),
  ];
  const create = [tool("create_event", "Create an event.", { title: text })];
  const made = (after: State) =>
    Object.values((after.calendar as { events: Record<string, Record<string, unknown>> }).events).find(
      (e) => e.title === "New",
    );

  it("makes the calendar's owner the organizer, first among the attendees as they always are", async () => {
    const { after } = await call(world(calendarOf("ana@x.org", three), create), "create_event", {
      title: "New",
    });
    expect(made(after)).toMatchObject({
      organizer: "ana@x.org",
      attendees: [{ email: "ana@x.org", response: "accepted" }],
    });
  });

  it("takes the owner the state has when the call is made", async () => {
    const calendar = world(calendarOf("ana@x.org", three), create);
    const { after } = await call(calendar, "create_event", { title: "New" }, calendarOf("ben@x.org", three));
    expect(made(after)).toMatchObject({
      organizer: "ben@x.org",
      attendees: [{ email: "ben@x.org", response: "accepted" }],
    });
  });

  it("starts no list from fewer than three events, or from first items that differ", async () => {
    const two = await call(world(calendarOf("ana@x.org", three.slice(0, 2)), create), "create_event", {
      title: "New",
    });
    expect(made(two.after)?.organizer).toBe("ana@x.org");
    expect(made(two.after)?.attendees).not.toEqual([{ email: "ana@x.org", response: "accepted" }]);
    const tentative = event(3, "ana@x.org", "ben@x.org", {
      attendees: [{ email: "ana@x.org", response: "tentative" }],
    });
    const mixed = await call(
      world(calendarOf("ana@x.org", [...three.slice(0, 2), tentative]), create),
      "create_event",
      {
        title: "New",
      },
    );
    expect(made(mixed.after)?.attendees).not.toEqual([{ email: "ana@x.org", response: "accepted" }]);
  });

  it("starts no list whose first items are not the organizer, or are no records", async () => {
    const guestFirst = three.map((e) => ({
      ...e,
      attendees: [...(e.attendees as Array<Record<string, unknown>>)].reverse(),
    }));
    const reversed = await call(world(calendarOf("ana@x.org", guestFirst), create), "create_event", {
      title: "New",
    });
    expect(made(reversed.after)?.attendees).not.toEqual([{ email: "ana@x.org", response: "needsAction" }]);
    expect(made(reversed.after)?.attendees).not.toEqual([{ email: "ana@x.org", response: "accepted" }]);
    const plain = three.map((e) => ({ ...e, attendees: [e.organizer, "ben@x.org"] }));
    const emails = await call(world(calendarOf("ana@x.org", plain), create), "create_event", {
      title: "New",
    });
    expect(made(emails.after)?.attendees).not.toEqual([{ email: "ana@x.org" }]);
    expect(made(emails.after)?.attendees).not.toEqual(["ana@x.org"]);
  });

  it("names no maker where the events are organized by others, or two fields name the owner", async () => {
    const others = [
      event(1, "ben@x.org", "ana@x.org"),
      event(2, "cy@x.org", "ana@x.org"),
      event(3, "ben@x.org", "cy@x.org"),
    ];
    const byOthers = await call(world(calendarOf("ana@x.org", others), create), "create_event", {
      title: "New",
    });
    expect(made(byOthers.after)?.organizer).not.toBe("ana@x.org");
    const twice = three.map((e) => ({ ...e, created_by: "ana@x.org" }));
    const ambiguous = await call(world(calendarOf("ana@x.org", twice), create), "create_event", {
      title: "New",
    });
    expect(made(ambiguous.after)).not.toHaveProperty("organizer", "ana@x.org");
  });
});
