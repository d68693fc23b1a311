import { describe, expect, it } from "vitest";
import { bool, call, failure, integer, text, tool, world } from "./support/infer-world.js";

/**
 * Where a record is and where it goes: an entry kept by name inside a record, a verb that is
 * itself a value of a field, a clearing that names such a value, a new record's place as its
 * description names it, and defaults of left-out arguments.
 */

type Records = Record<string, Record<string, unknown>>;

const network = () => ({
  switches: {
    "sw-1": {
      switch_id: "sw-1",
      site: "lab",
      ports: { "ge-1": { speed: 1000, enabled: true }, "ge-2": { speed: 100, enabled: false } },
    },
    "sw-2": { switch_id: "sw-2", site: "office", ports: { "ge-1": { speed: 1000, enabled: true } } },
  },
});

describe("an entry kept by name inside a record, named by another argument", () => {
  const speed = tool("set_port_speed", "Set the speed of one port of a switch.", {
    switch_id: text,
    port: text,
    speed: integer,
  });

  it("changes that entry and leaves the record's other entries and fields alone", async () => {
    const { after, report } = await call(world(network(), [speed]), "set_port_speed", {
      switch_id: "sw-1",
      port: "ge-2",
      speed: 1000,
    });
    expect(report.verdict).toBe("inferred");
    const switches = after.switches as Records;
    expect(switches["sw-1"]?.ports).toEqual({
      "ge-1": { speed: 1000, enabled: true },
      "ge-2": { speed: 1000, enabled: false },
    });
    expect(switches["sw-1"]?.speed).toBeUndefined();
    expect(switches["sw-2"]).toEqual(network().switches["sw-2"]);
  });

  it("answers the holder's not-found error before the entry's", async () => {
    const toolset = world(network(), [speed]);
    const noSwitch = await call(toolset, "set_port_speed", { switch_id: "sw-9", port: "ge-1", speed: 10 });
    expect(failure(noSwitch.outcome)).toBe("SWITCH_NOT_FOUND");
    const noPort = await call(toolset, "set_port_speed", { switch_id: "sw-2", port: "ge-2", speed: 10 });
    expect(failure(noPort.outcome)).toBe("PORT_NOT_FOUND");
  });

  it("switches a flag of the entry by the boolean of that name", async () => {
    const enable = tool("toggle_port", "Turn one port of a switch on or off.", {
      switch_id: text,
      port: text,
      enabled: bool,
    });
    const { after } = await call(world(network(), [enable]), "toggle_port", {
      switch_id: "sw-1",
      port: "ge-2",
      enabled: true,
    });
    expect((after.switches as Records)["sw-1"]?.ports).toMatchObject({ "ge-2": { enabled: true } });
  });

  it("keeps to the holder when the other arguments are its own fields", async () => {
    const move = tool("move_switch", "Move a switch to another site.", { switch_id: text, site: text });
    const { after } = await call(world(network(), [move]), "move_switch", { switch_id: "sw-2", site: "lab" });
    expect((after.switches as Records)["sw-2"]).toMatchObject({ site: "lab" });
  });
});

const billing = () => ({
  invoices: {
    in_1: { invoice_id: "in_1", status: "open", amount: 40 },
    in_2: { invoice_id: "in_2", status: "draft", amount: 15 },
    in_3: { invoice_id: "in_3", status: "void", amount: 9 },
  },
});

describe("a verb that is a value one field of the records takes", () => {
  it("puts the record there", async () => {
    const voided = tool("void_invoice", "Void an invoice.", { invoice_id: text });
    const { after, report } = await call(world(billing(), [voided]), "void_invoice", { invoice_id: "in_1" });
    expect(report.verdict).toBe("inferred");
    expect((after.invoices as Records).in_1).toEqual({ invoice_id: "in_1", status: "void", amount: 40 });
  });

  it("finds the value in a field other than a status, and among the API's enums", async () => {
    const tickets = {
      tickets: {
        "T-1": { ticket_id: "T-1", queue: "triage", subject: "Printer" },
        "T-2": { ticket_id: "T-2", queue: "backlog", subject: "VPN" },
      },
    };
    const spam = tool("spam_ticket", "Send a ticket to spam.", { ticket_id: text });
    const route = tool("route_ticket", "Route a ticket to a queue.", {
      ticket_id: text,
      queue: { type: "string", enum: ["triage", "backlog", "spam"] },
    });
    const { after } = await call(world(tickets, [spam, route]), "spam_ticket", { ticket_id: "T-2" });
    expect((after.tickets as Records)["T-2"]).toMatchObject({ queue: "spam", subject: "VPN" });
  });

  it("does not take a verb that names no value for one", async () => {
    const remind = tool("remind_invoice", "Remind the customer of an invoice.", { invoice_id: text });
    const { report } = await call(world(billing(), [remind]), "remind_invoice", { invoice_id: "in_1" });
    expect(report.notes.join(" ")).not.toMatch(/names a status/);
  });
});

const alerts = () => ({
  alerts: {
    a1: { alert_id: "a1", box: "inbox", text: "Disk full" },
    a2: { alert_id: "a2", box: "junk", text: "You won" },
    a3: { alert_id: "a3", box: "archive", text: "Backup done" },
    a4: { alert_id: "a4", box: "junk", text: "Cheap pills" },
  },
});

describe("a clearing that names a value of the records' field", () => {
  const empty = tool("empty_junk", "Permanently delete every alert in the junk box.", {});

  it("deletes the records with that value, keeps the others, and answers what it deleted", async () => {
    const { after, answer, report } = await call(world(alerts(), [empty]), "empty_junk", {});
    expect(report.verdict).toBe("inferred");
    expect(Object.keys(after.alerts as Records)).toEqual(["a1", "a3"]);
    expect(Object.keys((answer as { alerts: Records }).alerts)).toEqual(["a2", "a4"]);
  });

  it("filters a list kept as an array the same way", async () => {
    const state = { alerts: Object.values(alerts().alerts) };
    const { after } = await call(world(state, [empty]), "empty_junk", {});
    expect((after.alerts as { alert_id: string }[]).map((a) => a.alert_id)).toEqual(["a1", "a3"]);
  });
});

describe("a new record's place as its description names it", () => {
  const posts = () => ({
    posts: {
      p1: { post_id: "p1", body: "Hello", visibility: "public" },
      p2: { post_id: "p2", body: "Notes", visibility: "private" },
    },
  });

  it("files it with the value the description puts before the field's name", async () => {
    const draft = tool("write_post", "Write a post. New posts get private visibility until shared.", {
      body: text,
    });
    const { after } = await call(world(posts(), [draft]), "write_post", { body: "Plans" });
    expect((after.posts as Records).p3).toMatchObject({ body: "Plans", visibility: "private" });
  });

  it("leaves the field unset where the description names no value for it", async () => {
    const plain = tool("write_post", "Write a post.", { body: text });
    const { after } = await call(world(posts(), [plain]), "write_post", { body: "Plans" });
    expect((after.posts as Records).p3?.visibility).toBeUndefined();
  });
});

describe("records kept inside other records", () => {
  const boards = () => ({
    boards: {
      B1: {
        board_id: "B1",
        cards: [
          { card_id: "c_1", title: "Plan", points: 3 },
          { card_id: "c_2", title: "Build", points: 5 },
        ],
      },
      B2: { board_id: "B2", cards: [] },
    },
  });
  const add = tool(
    "add_card",
    "Add a card to a board.",
    { board_id: text, title: text, points: { type: "integer", default: 1 } },
    ["board_id", "title"],
  );

  it("take a left-out argument's default", async () => {
    const { after } = await call(world(boards(), [add]), "add_card", { board_id: "B2", title: "Ship" });
    expect((after.boards as Records).B2?.cards).toEqual([
      expect.objectContaining({ title: "Ship", points: 1 }),
    ]);
  });
});

describe("a search over the fields its description names", () => {
  it("looks in each of them", async () => {
    const notes = {
      notes: {
        n1: { note_id: "n1", title: "Groceries", text: "eggs, milk" },
        n2: { note_id: "n2", title: "Milk run", text: "Friday" },
        n3: { note_id: "n3", title: "Books", text: "return two" },
      },
    };
    const search = tool("search_notes", "Search notes by words in their title or text.", { query: text });
    const { answer } = await call(world(notes, [search]), "search_notes", { query: "milk" });
    expect((answer as { note_id: string }[]).map((n) => n.note_id).sort()).toEqual(["n1", "n2"]);
  });
});
