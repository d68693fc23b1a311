import { describe, expect, it } from "vitest";
import { call, failure, integer, text, tool, world } from "./support/infer-world.js";

/**
 * Records that take spans of time of another (a court's reservations), records merged into
 * others of their kind, records found by a value their list holds, and counts kept by name
 * that a verb moves by one, once per person, or that a create starts at zero.
 */

type Records = Record<string, Record<string, unknown>>;

const club = () => ({
  courts: {
    C1: { court_id: "C1", surface: "clay", capacity: 4 },
    C2: { court_id: "C2", surface: "grass", capacity: 2 },
  },
  reservations: {
    RS1: {
      reservation_id: "RS1",
      court_id: "C1",
      from: "2026-04-01T08:00:00Z",
      to: "2026-04-01T09:00:00Z",
      players: 2,
    },
    RS2: {
      reservation_id: "RS2",
      court_id: "C2",
      from: "2026-04-01T08:30:00Z",
      to: "2026-04-01T10:00:00Z",
      players: 2,
    },
  },
});

// the description tells its errors in words: each is answered under a code made of them
describe("a span of time a new record takes of another", () => {
  const reserve = tool(
    "reserve_court",
    "Reserve a court. Fails when the court is already reserved for any part of that time, or when the players do not fit in its capacity.",
    { court_id: text, from: text, to: text, players: integer },
  );
  const cancel = tool("cancel_reservation", "Cancel a reservation.", { reservation_id: text });

  it("refuses a span that overlaps one of the same holder, and takes one that only touches it", async () => {
    const toolset = world(club(), [reserve]);
    const clash = await call(toolset, "reserve_court", {
      court_id: "C1",
      from: "2026-04-01T08:30:00Z",
      to: "2026-04-01T09:30:00Z",
      players: 2,
    });
    expect(failure(clash.outcome)).toBe("COURT_ALREADY_RESERVED_ANY_PART");
    const after = await call(toolset, "reserve_court", {
      court_id: "C1",
      from: "2026-04-01T09:00:00Z",
      to: "2026-04-01T10:00:00Z",
      players: 2,
    });
    expect(after.outcome.status).toBe("applied");
    const other = await call(toolset, "reserve_court", {
      court_id: "C2",
      from: "2026-04-01T07:00:00Z",
      to: "2026-04-01T08:00:00Z",
      players: 2,
    });
    expect(other.outcome.status).toBe("applied");
  });

  it("refuses more than the holder holds", async () => {
    const { outcome } = await call(world(club(), [reserve]), "reserve_court", {
      court_id: "C2",
      from: "2026-04-02T08:00:00Z",
      to: "2026-04-02T09:00:00Z",
      players: 3,
    });
    expect(failure(outcome)).toBe("PLAYERS_DO_NOT_FIT_CAPACITY");
  });

  it("frees the span of a record called off", async () => {
    const toolset = world(club(), [reserve, cancel]);
    const called = await call(toolset, "cancel_reservation", { reservation_id: "RS1" });
    const again = await call(
      toolset,
      "reserve_court",
      { court_id: "C1", from: "2026-04-01T08:00:00Z", to: "2026-04-01T09:00:00Z", players: 2 },
      called.after,
    );
    expect(again.outcome.status).toBe("applied");
  });

  it("lists the holders no record takes during a span", async () => {
    const free = tool("find_open_courts", "List the courts with no reservation during a time.", {
      from: text,
      to: text,
    });
    const toolset = world(club(), [free]);
    const early = await call(toolset, "find_open_courts", {
      from: "2026-04-01T08:00:00Z",
      to: "2026-04-01T08:15:00Z",
    });
    expect((early.answer as { court_id: string }[]).map((c) => c.court_id)).toEqual(["C2"]);
    const late = await call(toolset, "find_open_courts", {
      from: "2026-04-01T11:00:00Z",
      to: "2026-04-01T12:00:00Z",
    });
    expect((late.answer as unknown[]).length).toBe(2);
  });
});

const desk = () => ({
  tickets: {
    T1: { ticket_id: "T1", subject: "VPN down", tags: ["network"], assignee: "ana", body: null },
    T2: {
      ticket_id: "T2",
      subject: "VPN down again",
      tags: ["network", "urgent"],
      assignee: null,
      body: "Since 9am",
    },
  },
});

describe("a record merged into another of its kind", () => {
  const merge = tool("merge_tickets", "Merge a source ticket into a target ticket.", {
    target_id: text,
    source_id: text,
  });

  it("joins the lists, fills the kept record's empty fields, deletes the other and answers the kept one", async () => {
    const { after, answer, report } = await call(world(desk(), [merge]), "merge_tickets", {
      target_id: "T1",
      source_id: "T2",
    });
    expect(report.verdict).toBe("inferred");
    expect(after.tickets).toEqual({
      T1: {
        ticket_id: "T1",
        subject: "VPN down",
        tags: ["network", "urgent"],
        assignee: "ana",
        body: "Since 9am",
      },
    });
    expect(answer).toMatchObject({ ticket_id: "T1", tags: ["network", "urgent"] });
  });

  it("refuses a record merged into itself, and one that does not exist", async () => {
    const toolset = world(desk(), [merge]);
    const self = await call(toolset, "merge_tickets", { target_id: "T1", source_id: "T1" });
    expect(failure(self.outcome)).toBe("SAME_TICKET");
    const none = await call(toolset, "merge_tickets", { target_id: "T1", source_id: "T9" });
    expect(failure(none.outcome)).toBe("TICKET_NOT_FOUND");
  });
});

describe("a record found by a value its list holds", () => {
  it("answers the one record whose list holds it, or its not-found error", async () => {
    const members = {
      members: {
        M1: { member_id: "M1", name: "Ola", emails: ["ola@a.test", "ola@b.test"] },
        M2: { member_id: "M2", name: "Pia", emails: ["pia@a.test"] },
      },
    };
    const find = tool("find_member_by_email", "Find the member who has an e-mail address.", { email: text });
    const toolset = world(members, [find]);
    const found = await call(toolset, "find_member_by_email", { email: "ola@b.test" });
    expect(found.answer).toMatchObject({ member_id: "M1" });
    const none = await call(toolset, "find_member_by_email", { email: "zed@a.test" });
    expect(failure(none.outcome)).toBe("MEMBER_NOT_FOUND");
  });
});

const chat = () => ({
  messages: {
    MS1: { message_id: "MS1", text: "Ship it", reactions: { rocket: 2, eyes: 1 }, users: ["ana", "bo"] },
  },
});

describe("counts kept by name", () => {
  const react = tool("react", "React to a message with one of its reactions.", {
    message_id: text,
    user: text,
    reaction: text,
  });

  it("move by one under the name given, once per person named", async () => {
    const toolset = world(chat(), [react]);
    const first = await call(toolset, "react", { message_id: "MS1", user: "cy", reaction: "eyes" });
    expect((first.after.messages as Records).MS1).toMatchObject({
      reactions: { rocket: 2, eyes: 2 },
      users: ["ana", "bo", "cy"],
    });
    const again = await call(toolset, "react", { message_id: "MS1", user: "ana", reaction: "eyes" });
    expect(failure(again.outcome)).toBe("ALREADY_REACTED");
    const unknown = await call(toolset, "react", { message_id: "MS1", user: "dee", reaction: "tada" });
    expect(failure(unknown.outcome)).toBe("REACTION_NOT_FOUND");
  });

  it("start at zero under each name a create is given, where its description says so", async () => {
    const create = tool(
      "post_message",
      "Post a message with the reactions it offers, each with no reactions yet.",
      {
        text,
        offered: { type: "array", items: text },
      },
    );
    const { after } = await call(world(chat(), [create]), "post_message", {
      text: "Lunch?",
      offered: ["yes", "no"],
    });
    const made = Object.entries(after.messages as Records).find(([key]) => key !== "MS1")?.[1];
    expect(made).toMatchObject({ text: "Lunch?", reactions: { yes: 0, no: 0 }, users: [] });
    expect(made?.offered).toBeUndefined();
  });
});
