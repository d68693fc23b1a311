import { describe, expect, it } from "vitest";
import { error, failure, NOW, call as run, text, tool, world } from "./support/infer-world.js";

/**
 * The write rules of inference (creates, updates, deletes, guards on a record's status, records
 * kept inside another), each in a small world of its own: what the inferred effects do to the
 * state when they run, and the errors they answer.
 */

/** One tool run on the world's state, its state after read as collections of records. */
async function call(...args: Parameters<typeof run>) {
  const ran = await run(...args);
  return { ...ran, after: ran.after as Record<string, Record<string, Record<string, unknown>>> };
}

describe("records kept inside another record", () => {
  const riders = world(
    {
      riders: {
        r1: {
          rider_id: "r1",
          name: "Ana",
          cards: {
            c1: { id: "c1", kind: "debit", last_digits: "4410" },
            c2: { id: "c2", kind: "credit", last_digits: "9021" },
          },
        },
        r2: { rider_id: "r2", name: "Ben", cards: { c3: { id: "c3", kind: "debit", last_digits: "1200" } } },
      },
    },
    [
      tool(
        "add_rider_card",
        "Add a payment card to a rider.",
        { rider_id: text, kind: text, last_digits: text },
        undefined,
        [
          {
            code: "RIDER_NOT_FOUND",
            status: 404,
            message: "Rider not found.",
            when: "No rider has this id.",
          },
        ],
      ),
    ],
  );

  it("files a new one in its parent, under an id minted like the others, with the arguments as fields", async () => {
    const { outcome, after } = await call(riders, "add_rider_card", {
      rider_id: "r2",
      kind: "credit",
      last_digits: "5555",
    });
    expect(outcome.status).toBe("applied");
    expect(after.riders?.r2?.cards).toEqual({
      c3: { id: "c3", kind: "debit", last_digits: "1200" },
      c4: { id: "c4", kind: "credit", last_digits: "5555" },
    });
    expect(Object.keys(after.riders?.r1?.cards ?? {})).toEqual(["c1", "c2"]);
    const { report } = await call(riders, "add_rider_card", {
      rider_id: "r1",
      kind: "debit",
      last_digits: "1",
    });
    expect(report.notes).toEqual(["creates a card in riders.cards of the rider rider_id names"]);
  });

  it("answers the documented not-found error for a parent that does not exist", async () => {
    const { outcome } = await call(riders, "add_rider_card", {
      rider_id: "r9",
      kind: "debit",
      last_digits: "1",
    });
    expect(failure(outcome)).toBe("RIDER_NOT_FOUND");
  });
});

describe("tickets: status changes, guards, notes, creates and deletes", () => {
  const desk = world(
    {
      tickets: {
        "T-0001": {
          ticket_id: "T-0001",
          status: "open",
          notes: [{ author: "ana", text: "hi", created_at: "2026-01-01T00:00:00Z" }],
          opened_at: "2026-01-01T00:00:00Z",
        },
        "T-0002": { ticket_id: "T-0002", status: "closed", notes: [], opened_at: "2026-01-01T00:00:00Z" },
      },
      ticket_count: 2,
    },
    [
      tool("close_ticket", "Close an open ticket.", { ticket_id: text }, undefined, [
        {
          code: "TICKET_NOT_OPEN",
          status: 409,
          message: "The ticket is not open.",
          when: "The ticket is not open.",
        },
      ]),
      tool("reopen_ticket", "Reopen a ticket.", { ticket_id: text }, undefined, [
        // says "already" of something else than the status the tool puts a ticket in
        error("ALREADY_ASSIGNED", "The ticket is already assigned.", undefined, 409),
        {
          code: "ALREADY_OPEN",
          status: 409,
          message: "The ticket is already open.",
          when: "It is already open.",
        },
      ]),
      tool("add_ticket_note", "Add a note to a ticket.", { ticket_id: text, author: text, text }),
      tool("create_ticket", "Create a ticket.", { subject: text }),
      tool("delete_ticket", "Delete a ticket.", { ticket_id: text }),
    ],
  );

  it("closes an open ticket, and refuses one that is not open with the documented error", async () => {
    const closed = await call(desk, "close_ticket", { ticket_id: "T-0001" });
    expect(closed.after.tickets?.["T-0001"]?.status).toBe("closed");
    expect(failure((await call(desk, "close_ticket", { ticket_id: "T-0002" })).outcome)).toBe(
      "TICKET_NOT_OPEN",
    );
    const missing = await call(desk, "close_ticket", { ticket_id: "T-0404" });
    expect(failure(missing.outcome)).toBe("TICKET_NOT_FOUND");
    expect(missing.tool.errors.map((e) => [e.code, e.status])).toEqual([
      ["TICKET_NOT_OPEN", 409],
      ["TICKET_NOT_FOUND", 404],
    ]);
  });

  it("reopens a closed ticket, and refuses one already open with the documented 'already' error", async () => {
    expect(
      (await call(desk, "reopen_ticket", { ticket_id: "T-0002" })).after.tickets?.["T-0002"]?.status,
    ).toBe("open");
    expect(failure((await call(desk, "reopen_ticket", { ticket_id: "T-0001" })).outcome)).toBe(
      "ALREADY_OPEN",
    );
    expect((await call(desk, "reopen_ticket", { ticket_id: "T-0001" })).report.notes).toContain(
      "refuses a record already 'open' (ALREADY_OPEN)",
    );
  });

  it("adds a note at the end of the ticket's notes, with the time it was made", async () => {
    const { after } = await call(desk, "add_ticket_note", {
      ticket_id: "T-0001",
      author: "ben",
      text: "done",
    });
    expect(after.tickets?.["T-0001"]?.notes).toEqual([
      { author: "ana", text: "hi", created_at: "2026-01-01T00:00:00Z" },
      { author: "ben", text: "done", created_at: NOW },
    ]);
  });

  it("creates a ticket under the next id of the counter, opened now and open, without notes, and moves the counter", async () => {
    const { after } = await call(desk, "create_ticket", { subject: "Printer" });
    expect(after.tickets?.["T-0003"]).toEqual({
      ticket_id: "T-0003",
      subject: "Printer",
      // of open and closed, the status that begins a ticket's life
      status: "open",
      opened_at: NOW,
      notes: [],
    });
    expect(after.ticket_count).toBe(3);
  });

  it("deletes a ticket, and answers an added not-found error for an unknown one", async () => {
    const { after } = await call(desk, "delete_ticket", { ticket_id: "T-0002" });
    expect(Object.keys(after.tickets ?? {})).toEqual(["T-0001"]);
    expect(failure((await call(desk, "delete_ticket", { ticket_id: "T-9" })).outcome)).toBe(
      "TICKET_NOT_FOUND",
    );
  });
});

describe("guards a description states, and ids of other shapes", () => {
  const shop = world(
    {
      orders: {
        "O-101": { order_id: "O-101", status: "pending", total: 5 },
        "O-102": { order_id: "O-102", status: "shipped", total: 7 },
      },
      shelves: { "7": { id: 7, label: "A" }, "9": { id: 9, label: "B" } },
    },
    [
      tool("archive_order", "Archive an order. Shipped orders cannot be archived.", { order_id: text }),
      tool("add_shelf", "Add a shelf.", { label: text }),
    ],
  );

  it("refuses what the description says cannot be done, with an error it adds and words", async () => {
    const archived = await call(shop, "archive_order", { order_id: "O-101" });
    expect(archived.after.orders?.["O-101"]?.status).toBe("archived");
    const refused = await call(shop, "archive_order", { order_id: "O-102" });
    expect(failure(refused.outcome)).toBe("ORDER_ALREADY_SHIPPED");
    expect(refused.report.notes).toContain("requires status not in [shipped] (ORDER_ALREADY_SHIPPED)");
    expect(refused.tool.errors.find((e) => e.code === "ORDER_ALREADY_SHIPPED")).toEqual({
      code: "ORDER_ALREADY_SHIPPED",
      status: 409,
      message: "The order is already shipped.",
      when: "The order is shipped (inferred from the tool's description).",
    });
  });

  it("gives a new record the number after the largest where the ids are numbers", async () => {
    const { after } = await call(shop, "add_shelf", { label: "C" });
    expect(after.shelves?.["10"]).toEqual({ id: 10, label: "C" });
  });
});

describe("the status a new record starts in", () => {
  const board = (statuses: string[], name = "create_task", description = "Create a task.") =>
    world(
      {
        tasks: Object.fromEntries(
          statuses.map((status, i) => [`K-${i + 1}`, { task_id: `K-${i + 1}`, title: `t${i}`, status }]),
        ),
      },
      [tool(name, description, { title: text })],
    );
  const created = async (statuses: string[], name?: string, description?: string) => {
    const { after } = await call(board(statuses, name, description), name ?? "create_task", { title: "new" });
    const tasks = Object.values(after.tasks as Record<string, { title: string; status?: string }>);
    return tasks.find((t) => t.title === "new")?.status;
  };

  it("is the one status of the records that begins a lifecycle, in the records' spelling", async () => {
    expect(await created(["Done", "Pending", "Done"])).toBe("Pending");
    expect(await created(["in_review", "draft"])).toBe("draft");
    // a beginning written with underscores or hyphens reads as words
    expect(await created(["in_review", "not_started"])).toBe("not_started");
    expect(await created(["done", "to-do"])).toBe("to-do");
  });

  it("of several beginnings is the one the tool names, and none where nothing decides", async () => {
    expect(await created(["open", "pending", "closed"], "open_task", "Open a task.")).toBe("open");
    expect(await created(["open", "pending", "closed"])).toBeUndefined();
    expect(
      await created(["open", "pending", "closed"], "create_task", "Create a task, open or pending."),
    ).toBeUndefined();
    expect(await created(["done", "archived"])).toBeUndefined();
  });
});

describe("a record made from another takes from what is left of it", () => {
  const box = () =>
    world(
      {
        events: {
          E1: { event_id: "E1", name: "Quartet", tickets_remaining: 3 },
          E2: { event_id: "E2", name: "Choir", tickets_remaining: 0 },
        },
        orders: { "O-1": { order_id: "O-1", event_id: "E1", quantity: 1 } },
      },
      [tool("place_order", "Order tickets for an event.", { event_id: text, quantity: { type: "integer" } })],
    );

  it("takes the quantity ordered, refusing more than is left, and leaves all as it was when refused", async () => {
    const done = await call(box(), "place_order", { event_id: "E1", quantity: 2 });
    expect((done.after.events as Record<string, { tickets_remaining: number }>).E1?.tickets_remaining).toBe(
      1,
    );
    expect(Object.keys(done.after.orders as object)).toEqual(["O-1", "O-2"]);
    const refused = await call(box(), "place_order", { event_id: "E1", quantity: 4 });
    expect(failure(refused.outcome)).toBe("EVENT_SOLD_OUT");
    expect(refused.after).toEqual(box().state);
    expect(failure((await call(box(), "place_order", { event_id: "E2", quantity: 1 })).outcome)).toBe(
      "EVENT_SOLD_OUT",
    );
    expect(refused.tool.errors.find((e) => e.code === "EVENT_SOLD_OUT")).toEqual({
      code: "EVENT_SOLD_OUT",
      status: 409,
      message: "Not enough tickets left.",
      when: "The event has fewer tickets remaining than the call takes (inferred from its tickets_remaining).",
    });
    expect(refused.report.notes).toContain("takes quantity from events.tickets_remaining (EVENT_SOLD_OUT)");
    const unknown = await call(box(), "place_order", { event_id: "E9", quantity: 1 });
    expect(failure(unknown.outcome)).toBe("EVENT_NOT_FOUND");
    expect(unknown.after).toEqual(box().state);
  });
});

describe("a contact's tags and address", () => {
  const crm = () =>
    world(
      {
        contacts: {
          c1: {
            contact_id: "c1",
            name: "Ann",
            tags: ["vip", "lead"],
            address: { city: "Oslo", zip: "0150" },
          },
          c2: { contact_id: "c2", name: "Bo", tags: [], address: { city: "Bergen", zip: "5003" } },
        },
      },
      [
        tool("remove_tag", "Remove a tag from a contact.", { contact_id: text, tag: text }),
        tool("update_contact", "Update a contact; fields left out keep their values.", {
          contact_id: text,
          address: { type: "object", properties: { city: text, zip: text } },
        }),
        tool("replace_address", "Replace a contact's address.", {
          contact_id: text,
          address: { type: "object", properties: { city: text, zip: text } },
        }),
        tool("set_address", "Set a contact's address.", {
          contact_id: text,
          address: { type: "object", properties: { city: text, zip: text } },
        }),
        tool("update_contact_card", "Update a contact's card.", {
          contact_id: text,
          name: { type: "object", properties: { first: text } },
        }),
      ],
    );
  const contact = (after: Record<string, unknown>, id: string) =>
    (after.contacts as Record<string, Record<string, unknown>>)[id];

  it("removing a tag takes it out of the contact's tags and keeps the contact", async () => {
    const { after } = await call(crm(), "remove_tag", { contact_id: "c1", tag: "vip" });
    expect(contact(after, "c1")).toEqual({
      contact_id: "c1",
      name: "Ann",
      tags: ["lead"],
      address: { city: "Oslo", zip: "0150" },
    });
    expect(
      contact((await call(crm(), "remove_tag", { contact_id: "c2", tag: "vip" })).after, "c2")?.tags,
    ).toEqual([]);
    expect(failure((await call(crm(), "remove_tag", { contact_id: "c9", tag: "vip" })).outcome)).toBe(
      "CONTACT_NOT_FOUND",
    );
  });

  it("an update merges an object into the field, while a replace puts it whole", async () => {
    const merged = await call(crm(), "update_contact", { contact_id: "c1", address: { city: "Trondheim" } });
    expect(contact(merged.after, "c1")?.address).toEqual({ city: "Trondheim", zip: "0150" });
    const kept = await call(crm(), "update_contact", { contact_id: "c1" });
    expect(contact(kept.after, "c1")?.address).toEqual({ city: "Oslo", zip: "0150" });
    const replaced = await call(crm(), "replace_address", {
      contact_id: "c1",
      address: { city: "Trondheim" },
    });
    expect(contact(replaced.after, "c1")?.address).toEqual({ city: "Trondheim" });
    const set = await call(crm(), "set_address", { contact_id: "c1", address: { city: "Bergen" } });
    expect(contact(set.after, "c1")?.address).toEqual({ city: "Bergen" });
    expect(merged.report.notes).toContain("merges address into address, keeping the keys it leaves out");
    expect(set.report.notes.some((n) => n.startsWith("merges"))).toBe(false);
  });

  it("an object given for a field that is not an object replaces it", async () => {
    const named = await call(crm(), "update_contact_card", { contact_id: "c2", name: { first: "Bob" } });
    expect(contact(named.after, "c2")?.name).toEqual({ first: "Bob" });
    expect(named.report.notes.some((n) => n.startsWith("merges"))).toBe(false);
  });
});

describe("a new record's fields in a garage", () => {
  const garage = () =>
    world(
      {
        mechanics: {
          m1: { mechanic_id: "m1", name: "Ann", repair_count: 1 },
          m2: { mechanic_id: "m2", name: "Bo", repair_count: 0 },
        },
        repairs: {
          "R-0001": {
            repair_id: "R-0001",
            mechanic_id: "m1",
            title: "Brakes",
            desc: "",
            parts: [],
            like_count: 2,
            closed: false,
            assignee: null,
            created_at: "2026-01-01T10:00:00Z",
            status: "open",
          },
          "R-0002": {
            repair_id: "R-0002",
            mechanic_id: "m2",
            title: "Tyres",
            desc: "front",
            parts: ["tyre"],
            like_count: 0,
            closed: true,
            assignee: "Cy",
            created_at: "2026-01-02T10:00:00Z",
            status: "closed",
          },
        },
      },
      [
        tool(
          "create_repair",
          "Create a repair for a mechanic.",
          {
            mechanic_id: text,
            title: text,
            desc: text,
            priority: { type: "integer", default: 3 },
            urgent: { type: "boolean" },
          },
          ["mechanic_id", "title"],
          [],
        ),
        tool("open_repair", "Create a repair. Its status is set to 'waiting'.", { title: text }),
      ],
    );
  const repairs = (after: Record<string, unknown>) =>
    after.repairs as Record<string, Record<string, unknown>>;

  it("starts empty where its siblings show empty values, takes defaults for what is left out, and counts itself on the mechanic", async () => {
    const made = await call(garage(), "create_repair", { mechanic_id: "m2", title: "Oil" });
    expect(repairs(made.after)["R-0003"]).toEqual({
      repair_id: "R-0003",
      mechanic_id: "m2",
      title: "Oil",
      desc: "",
      priority: 3,
      parts: [],
      like_count: 0,
      closed: false,
      assignee: null,
      created_at: NOW,
      status: "open",
    });
    expect((made.after.mechanics as Record<string, { repair_count: number }>).m2?.repair_count).toBe(1);
    expect((made.after.mechanics as Record<string, { repair_count: number }>).m1?.repair_count).toBe(1);
    expect(made.report.notes).toContain(
      "starts it 'open' (of the status values the records and schemas show, the one that begins a lifecycle)",
    );
  });

  it("keeps what the optional arguments give", async () => {
    const made = await call(garage(), "create_repair", {
      mechanic_id: "m1",
      title: "Oil",
      desc: "rear",
      priority: 1,
      urgent: true,
    });
    expect(repairs(made.after)["R-0003"]).toMatchObject({ desc: "rear", priority: 1, title: "Oil" });
    expect(repairs(made.after)["R-0003"]).not.toHaveProperty("urgent");
    expect((made.after.mechanics as Record<string, { repair_count: number }>).m1?.repair_count).toBe(2);
  });

  it("refuses a mechanic that does not exist, filing nothing", async () => {
    const refused = await call(garage(), "create_repair", { mechanic_id: "m9", title: "Oil" });
    expect(failure(refused.outcome)).toBe("MECHANIC_NOT_FOUND");
    expect(refused.after).toEqual(garage().state);
  });

  it("starts it in the status its description states, with the emptiness of its siblings", async () => {
    const made = await call(garage(), "open_repair", { title: "Oil" });
    expect(repairs(made.after)["R-0003"]).toEqual({
      repair_id: "R-0003",
      title: "Oil",
      desc: "",
      parts: [],
      like_count: 0,
      closed: false,
      assignee: null,
      created_at: NOW,
      status: "waiting",
    });
    expect(made.report.notes).toEqual([
      "creates a repair in repairs with title, desc, parts, like_count, closed, assignee, created_at, status",
    ]);
  });
});

describe("a book's labels, a list of plain values", () => {
  const labels = { outputSchema: { type: "object", properties: { labels: { type: "array", items: text } } } };
  const library = () =>
    world(
      {
        books: {
          b1: {
            book_id: "b1",
            title: "Dune",
            labels: ["scifi", "classic"],
            shelf: "A",
            pages: 412,
            year: 1965,
          },
          b2: { book_id: "b2", title: "Emma", labels: [], shelf: "B", pages: 320, year: 1815 },
        },
      },
      [
        tool("label_book", "Add a label to a book. A label it already has is left as it is.", {
          book_id: text,
          label: text,
        }),
        tool("add_book_label", "Add a label to a book.", { book_id: text, label: text }, undefined, [
          error("LABEL_EXISTS", "The book already has this label."),
        ]),
        tool(
          "remove_book_label",
          "Remove a label from a book.",
          { book_id: text, label: text },
          undefined,
          [error("LABEL_NOT_ON_BOOK", "The label is not on the book.", undefined, 404)],
          labels,
        ),
        tool("drop_book_label", "Remove a label from a book.", { book_id: text, label: text }),
      ],
    );
  const book = (after: Record<string, unknown>, id: string) =>
    (after.books as Record<string, Record<string, unknown>>)[id];

  it("adds a label once where the description says one already there is left as it is", async () => {
    const kept = await call(library(), "label_book", { book_id: "b1", label: "scifi" });
    expect(book(kept.after, "b1")?.labels).toEqual(["scifi", "classic"]);
    expect(kept.answer).toEqual(book(kept.after, "b1"));
    const added = await call(library(), "label_book", { book_id: "b2", label: "new" });
    expect(book(added.after, "b2")?.labels).toEqual(["new"]);
    expect(added.report.notes).toEqual([
      "added documented error BOOK_NOT_FOUND (No book has the given book_id (inferred from the state's books).)",
      "adds label to the labels of the book book_id names, once",
    ]);
    expect(failure((await call(library(), "label_book", { book_id: "b9", label: "x" })).outcome)).toBe(
      "BOOK_NOT_FOUND",
    );
  });

  it("refuses a label already there with the documented error, else appends it", async () => {
    const refused = await call(library(), "add_book_label", { book_id: "b1", label: "scifi" });
    expect(failure(refused.outcome)).toBe("LABEL_EXISTS");
    const added = await call(library(), "add_book_label", { book_id: "b1", label: "new" });
    expect(book(added.after, "b1")?.labels).toEqual(["scifi", "classic", "new"]);
    expect(added.answer).toEqual(book(added.after, "b1"));
    expect(added.report.notes).toContain(
      "appends to the labels of the book book_id names, refusing one already there (LABEL_EXISTS)",
    );
  });

  it("refuses a label already there with an error whose code alone says so", async () => {
    const coded = world(library().state, [
      tool("add_book_label", "Add a label to a book.", { book_id: text, label: text }, undefined, [
        error("DUPLICATE_LABEL", "Not allowed twice.", undefined, 409),
      ]),
    ]);
    expect(failure((await call(coded, "add_book_label", { book_id: "b1", label: "classic" })).outcome)).toBe(
      "DUPLICATE_LABEL",
    );
    const added = await call(coded, "add_book_label", { book_id: "b1", label: "new" });
    expect(added.after.books?.b1?.labels).toEqual(["scifi", "classic", "new"]);
  });

  it("with no 'already' error and no word of it, appends whatever is given", async () => {
    const plain = world(library().state, [
      tool("add_book_label", "Add a label to a book.", { book_id: text, label: text }),
    ]);
    const again = await call(plain, "add_book_label", { book_id: "b1", label: "scifi" });
    expect(book(again.after, "b1")?.labels).toEqual(["scifi", "classic", "scifi"]);
    expect(again.report.notes).toContain("appends to the labels of the book book_id names");
  });

  it("removes a label, refusing one the book lacks with the documented error, and answers the labels alone", async () => {
    const removed = await call(library(), "remove_book_label", { book_id: "b1", label: "scifi" });
    expect(book(removed.after, "b1")).toEqual({
      book_id: "b1",
      title: "Dune",
      labels: ["classic"],
      shelf: "A",
      pages: 412,
      year: 1965,
    });
    expect(removed.answer).toEqual({ labels: ["classic"] });
    expect(removed.report.notes).toContain(
      "removes label from the labels of the book book_id names (LABEL_NOT_ON_BOOK where it is not there)",
    );
    expect(
      failure((await call(library(), "remove_book_label", { book_id: "b1", label: "zz" })).outcome),
    ).toBe("LABEL_NOT_ON_BOOK");
  });

  it("without a documented error, removing a label the book lacks changes nothing", async () => {
    const same = await call(library(), "drop_book_label", { book_id: "b1", label: "zz" });
    expect(same.outcome.status).toBe("applied");
    expect(book(same.after, "b1")?.labels).toEqual(["scifi", "classic"]);
    expect(same.answer).toEqual(book(same.after, "b1"));
    expect(same.report.notes).toContain("removes label from the labels of the book book_id names");
  });
});

describe("a visit closed only when booked, the error named by its code", () => {
  const clinic = () =>
    world(
      {
        visits: {
          "V-1": { visit_id: "V-1", status: "booked", room: "r1" },
          "V-3": { visit_id: "V-3", status: "done", room: "r2" },
        },
      },
      [
        tool(
          "close_visit",
          "Close a visit. Only booked visits can be closed.",
          { visit_id: text },
          undefined,
          [error("VISIT_NOT_BOOKED", "That cannot be done now.", undefined, 409)],
        ),
      ],
    );

  it("answers the documented error whose code, not its text, names the status", async () => {
    const refused = await call(clinic(), "close_visit", { visit_id: "V-3" });
    expect(failure(refused.outcome)).toBe("VISIT_NOT_BOOKED");
    expect(refused.tool.errors.map((e) => e.code)).toEqual(["VISIT_NOT_BOOKED", "VISIT_NOT_FOUND"]);
    expect(refused.report.notes).toContain("requires status in [booked] (VISIT_NOT_BOOKED)");
    expect((await call(clinic(), "close_visit", { visit_id: "V-1" })).after.visits?.["V-1"]?.status).toBe(
      "closed",
    );
  });
});

describe("a clinic's visits: other records named, items among a visit's, guards worded by inference", () => {
  const ids = { type: "array", items: text };
  const clinic = () =>
    world(
      {
        clinics: {
          c1: { clinic_id: "c1", name: "North", beds: 3 },
          c2: { clinic_id: "c2", name: "South", beds: 0 },
        },
        visits: {
          "V-1": {
            visit_id: "V-1",
            clinic_id: "c1",
            status: "booked",
            room: "r1",
            items: [{ item_id: "i1" }, { item_id: "i2" }],
          },
          "V-2": { visit_id: "V-2", clinic_id: "c1", status: "done", room: null, items: [] },
          "V-3": { visit_id: "V-3", clinic_id: "c2", status: "done", room: null, items: [] },
        },
      },
      [
        tool(
          "move_visit",
          "Move a visit to another clinic.",
          { visit_id: text, clinic_id: text },
          undefined,
          [error("CLINIC_NOT_FOUND", "Clinic not found.", undefined, 404)],
        ),
        tool("refund_visit_items", "Refund items of a visit.", { visit_id: text, item_ids: ids }, undefined, [
          error("ITEM_NOT_FOUND", "Item not found.", undefined, 404),
        ]),
        tool(
          "cancel_visit",
          "Cancel a visit. Only booked visits can be cancelled.",
          { visit_id: text },
          undefined,
          [
            error("BAD_BOOKED", "Something about booked visits.", undefined, 409),
            error("VISIT_NON_BOOKED", "The visit is non-booked.", undefined, 409),
          ],
        ),
        tool("remove_visit", "Delete a visit. Only booked visits can be deleted.", { visit_id: text }),
      ],
    );
  const visits = (after: Record<string, unknown>) => after.visits as Record<string, Record<string, unknown>>;

  it("moves a visit to a clinic that exists, and refuses one that does not with the documented error", async () => {
    const moved = await call(clinic(), "move_visit", { visit_id: "V-1", clinic_id: "c2" });
    expect(visits(moved.after)["V-1"]?.clinic_id).toBe("c2");
    expect(moved.report.notes).toEqual([
      "sets clinic_id from clinic_id",
      "added documented error VISIT_NOT_FOUND (No visit has the given visit_id (inferred from the state's visits).)",
      "checks clinic_id exists (CLINIC_NOT_FOUND)",
    ]);
    const refused = await call(clinic(), "move_visit", { visit_id: "V-1", clinic_id: "c9" });
    expect(failure(refused.outcome)).toBe("CLINIC_NOT_FOUND");
    expect(refused.after).toEqual(clinic().state);
    expect(failure((await call(clinic(), "move_visit", { visit_id: "V-9", clinic_id: "c1" })).outcome)).toBe(
      "VISIT_NOT_FOUND",
    );
  });

  it("refunds only items the visit has, each given id checked against the visit's items", async () => {
    const refused = await call(clinic(), "refund_visit_items", { visit_id: "V-1", item_ids: ["i1", "i9"] });
    expect(failure(refused.outcome)).toBe("ITEM_NOT_FOUND");
    expect(refused.after).toEqual(clinic().state);
    const done = await call(clinic(), "refund_visit_items", { visit_id: "V-1", item_ids: ["i2", "i1"] });
    expect(done.outcome.status).toBe("applied");
    expect(visits(done.after)["V-1"]?.status).toBe("refunded");
    expect(done.report.notes).toContain("checks every item_ids is among the items (ITEM_NOT_FOUND)");
    expect(
      failure((await call(clinic(), "refund_visit_items", { visit_id: "V-2", item_ids: ["i1"] })).outcome),
    ).toBe("ITEM_NOT_FOUND");
  });

  it("of the errors naming the status, answers the one saying 'non-'", async () => {
    const refused = await call(clinic(), "cancel_visit", { visit_id: "V-2" });
    expect(failure(refused.outcome)).toBe("VISIT_NON_BOOKED");
    expect(refused.report.notes).toContain("requires status in [booked] (VISIT_NON_BOOKED)");
    const cancelled = await call(clinic(), "cancel_visit", { visit_id: "V-1" });
    expect(visits(cancelled.after)["V-1"]?.status).toBe("cancelled");
  });

  it("guards a delete on the status the description requires, with an error it adds and words", async () => {
    const refused = await call(clinic(), "remove_visit", { visit_id: "V-2" });
    expect(failure(refused.outcome)).toBe("VISIT_NOT_BOOKED");
    expect(refused.tool.errors.find((e) => e.code === "VISIT_NOT_BOOKED")).toEqual({
      code: "VISIT_NOT_BOOKED",
      status: 409,
      message: "The visit is not booked.",
      when: "The visit is not booked (inferred from the tool's name and description).",
    });
    expect(refused.report.notes).toEqual([
      "added documented error VISIT_NOT_FOUND (No visit has the given visit_id (inferred from the state's visits).)",
      "deletes the visit visit_id names",
      "added documented error VISIT_NOT_BOOKED (The visit is not booked (inferred from the tool's name and description).)",
      "requires status in [booked] (VISIT_NOT_BOOKED)",
    ]);
    const removed = await call(clinic(), "remove_visit", { visit_id: "V-1" });
    expect(Object.keys(visits(removed.after))).toEqual(["V-2", "V-3"]);
  });
});

describe("a shop's products under the key given, and reviews in reply to others", () => {
  const sku = { type: "string", examples: ["SKU-9"] };
  const shop = () =>
    world(
      {
        shop: {
          products: {
            "SKU-1": { sku: "SKU-1", name: "Pen", price: 2 },
            "SKU-2": { sku: "SKU-2", name: "Ink", price: 5 },
          },
          reviews: {
            "1": {
              review_id: 1,
              text: "ok",
              in_reply_to_id: null,
              replies_count: 1,
              posted_on: "2026-01-01T10:00:00Z",
            },
            "2": {
              review_id: 2,
              text: "re",
              in_reply_to_id: "1",
              replies_count: 0,
              posted_on: "2026-01-02T10:00:00Z",
            },
          },
          review_count: 2,
        },
      },
      [
        tool("create_product", "Create a product.", { sku, name: text, price: { type: "number" } }),
        tool("add_product", "Add a product.", { sku, name: text }, undefined, [
          error("SKU_TAKEN", "This sku is in use.", undefined, 409),
        ]),
        tool("post_review", "Post a review.", { text, in_reply_to_id: text }, ["text"]),
      ],
    );
  const part = (after: Record<string, unknown>, name: string) =>
    (after.shop as Record<string, Record<string, Record<string, unknown>>>)[name] ?? {};

  it("files a product under the sku given, refusing a taken one with an error it adds and words", async () => {
    const made = await call(shop(), "create_product", { sku: "SKU-3", name: "Cap", price: 1 });
    expect(part(made.after, "products")["SKU-3"]).toEqual({ sku: "SKU-3", name: "Cap", price: 1 });
    expect(made.report.notes).toContain("files it under the key sku gives, refusing a taken one");
    const taken = await call(shop(), "create_product", { sku: "SKU-1", name: "Cap", price: 1 });
    expect(failure(taken.outcome)).toBe("PRODUCT_ALREADY_EXISTS");
    expect(taken.outcome.status === "failed" && taken.outcome.failure.message).toBe(
      "A product SKU-1 already exists.",
    );
    expect(taken.tool.errors).toEqual([
      {
        code: "PRODUCT_ALREADY_EXISTS",
        status: 409,
        message: "A product {sku} already exists.",
        when: "The key is taken (inferred: the caller names the key of a new product).",
      },
    ]);
    expect(part(taken.after, "products")["SKU-1"]).toEqual({ sku: "SKU-1", name: "Pen", price: 2 });
  });

  it("answers a taken key with the documented error that says so", async () => {
    const taken = await call(shop(), "add_product", { sku: "SKU-2", name: "Cap" });
    expect(failure(taken.outcome)).toBe("SKU_TAKEN");
    expect(taken.tool.errors.map((e) => e.code)).toEqual(["SKU_TAKEN"]);
  });

  it("a review in reply to another needs it to exist and adds one to its replies; a review without one touches none", async () => {
    const reply = await call(shop(), "post_review", { text: "hi", in_reply_to_id: "1" });
    const reviews = part(reply.after, "reviews");
    expect(reviews["1"]?.replies_count).toBe(2);
    expect(reviews["3"]).toEqual({
      review_id: 3,
      text: "hi",
      in_reply_to_id: "1",
      replies_count: 0,
      posted_on: NOW,
    });
    expect((reply.after.shop as Record<string, unknown>).review_count).toBe(3);
    expect(reply.report.notes).toContain(
      "in_reply_to_id must name a review, whose replies_count goes up by one",
    );
    const alone = await call(shop(), "post_review", { text: "hi" });
    expect(part(alone.after, "reviews")["1"]?.replies_count).toBe(1);
    expect(part(alone.after, "reviews")["3"]).toEqual({
      review_id: 3,
      text: "hi",
      replies_count: 0,
      posted_on: NOW,
    });
    const unknown = await call(shop(), "post_review", { text: "hi", in_reply_to_id: "7" });
    expect(failure(unknown.outcome)).toBe("REVIEW_NOT_FOUND");
    expect(unknown.after).toEqual(shop().state);
  });
});

describe("ids and times of new records at a front desk", () => {
  const out = (properties: Record<string, unknown>) => ({ outputSchema: { type: "object", properties } });
  const desk = () =>
    world(
      {
        desk: {
          bookings: {
            BK01: {
              booking_id: "BK01",
              guest: "a",
              booked_at: "2026-01-01T10:00:00Z",
              date: "2026-01-01 10:00",
            },
            BK02: {
              booking_id: "BK02",
              guest: "b",
              booked_at: "2026-01-02T10:00:00Z",
              date: "2026-01-02 10:00",
            },
          },
          open_booking_count: 5,
          appointment_records: {
            "apt-x": { guest: "a", label: "x" },
            "apt-y": { guest: "b", label: "y" },
          },
          lockers: { "1": { locker_id: 1, size: "s" }, "2": { locker_id: 2, size: "m" } },
        },
      },
      [
        tool(
          "create_booking",
          "Create a booking.",
          { guest: text },
          undefined,
          [],
          out({ id: text, guest: text }),
        ),
        tool(
          "add_appointment_record",
          "Add an appointment record.",
          { guest: text, label: text },
          undefined,
          [],
          out({ appointment_id: text }),
        ),
        tool("add_locker", "Add a locker.", { size: text }, undefined, [], out({ locker_id: text })),
      ],
    );
  const part = (after: Record<string, unknown>, name: string) =>
    (after.desk as Record<string, Record<string, Record<string, unknown>>>)[name] ?? {};

  it("a booking takes its id from the counter beside it, in the keys' format, the clock in its time fields, and answers the id", async () => {
    const made = await call(desk(), "create_booking", { guest: "z" });
    expect(part(made.after, "bookings").BK05).toEqual({
      booking_id: "BK05",
      guest: "z",
      booked_at: NOW,
      date: NOW,
    });
    expect((made.after.desk as Record<string, unknown>).open_booking_count).toBe(6);
    expect(made.answer).toMatchObject({ id: "BK05", booking_id: "BK05" });
    expect(made.report.notes).toEqual([
      "creates a booking in desk/bookings with guest, booked_at, date, its id from desk/open_booking_count",
    ]);
  });

  it("a record of a compound noun is answered by the id of its head noun, its key in the keys' prefix", async () => {
    const made = await call(desk(), "add_appointment_record", { guest: "z", label: "q" });
    expect(part(made.after, "appointment_records")["apt-0001"]).toEqual({
      guest: "z",
      label: "q",
      appointment_id: "apt-0001",
    });
    expect(made.answer).toMatchObject({ appointment_id: "apt-0001" });
    expect(made.report.notes).toEqual([
      "creates an appointment in desk/appointment_records with guest, label",
    ]);
  });

  it("an id the tool answers as text is minted as text, though it counts up from the largest number", async () => {
    const made = await call(desk(), "add_locker", { size: "l" });
    expect(part(made.after, "lockers")["3"]).toEqual({ locker_id: "3", size: "l" });
    expect(made.report.notes).toEqual(["creates a locker in desk/lockers with size"]);
  });
});

describe("records made from others: tickets of a trip, essays of a writer", () => {
  const travel = () =>
    world(
      {
        trips: {
          t1: { trip_id: "t1", total_amount: 120, total_currency: "EUR", bookable_seats: 2 },
          t2: { trip_id: "t2", total_amount: 80, total_currency: "NOK", bookable_seats: 0 },
        },
        tickets: {
          k1: { ticket_id: "k1", trip_id: "t1", total_amount: 120, total_currency: "EUR" },
          k2: { ticket_id: "k2", trip_id: "t2", total_amount: 80, total_currency: "NOK" },
        },
        writers: {
          // another list before the one of essays: only the list of essay ids takes the new one
          w1: { writer_id: "w1", name: "Ann", genres: ["poetry"], essay_ids: ["e1"] },
          w2: { writer_id: "w2", name: "Bo", genres: [], essay_ids: [] },
        },
        essays: { e1: { essay_id: "e1", writer_id: "w1", title: "On bikes" } },
      },
      [
        tool("book_ticket", "Book a ticket for a trip.", { trip_id: text }, undefined, [
          error("TRIP_FULL", "The trip is sold out.", undefined, 409),
        ]),
        tool("create_essay", "Create an essay.", { writer_id: text, title: text }),
      ],
    );

  it("a ticket takes the trip's price fields and one of its seats, refused with the documented error when none is left", async () => {
    const made = await call(travel(), "book_ticket", { trip_id: "t1" });
    expect(made.after.tickets?.k3).toEqual({
      ticket_id: "k3",
      trip_id: "t1",
      total_amount: 120,
      total_currency: "EUR",
    });
    expect(made.after.trips?.t1?.bookable_seats).toBe(1);
    expect(made.report.notes).toEqual([
      "creates a ticket in tickets with trip_id",
      "added documented error TRIP_NOT_FOUND (No trip has the given trip_id (inferred from the state's trips).)",
      "takes total_amount, total_currency from the trip trip_id names",
      "takes one from trips.bookable_seats (TRIP_FULL)",
    ]);
    const full = await call(travel(), "book_ticket", { trip_id: "t2" });
    expect(failure(full.outcome)).toBe("TRIP_FULL");
    expect(full.after).toEqual(travel().state);
    expect(failure((await call(travel(), "book_ticket", { trip_id: "t9" })).outcome)).toBe("TRIP_NOT_FOUND");
  });

  it("an essay's id joins the list its writer keeps of them", async () => {
    const made = await call(travel(), "create_essay", { writer_id: "w2", title: "On boats" });
    expect(made.after.writers?.w2?.essay_ids).toEqual(["e2"]);
    expect(made.after.writers?.w2?.genres).toEqual([]);
    expect(made.after.essays?.e2).toEqual({ essay_id: "e2", writer_id: "w2", title: "On boats" });
    expect(made.report.notes).toContain("appends the new id to writers.essay_ids");
    const refused = await call(travel(), "create_essay", { writer_id: "w9", title: "On boats" });
    expect(failure(refused.outcome)).toBe("WRITER_NOT_FOUND");
    expect(refused.after).toEqual(travel().state);
  });
});

describe("a garage's vans: counts beside them, empty fields left out, parts kept inside a van", () => {
  const garage = () =>
    world(
      {
        garage: {
          vans: {
            v1: {
              van_id: "v1",
              status: "in_use",
              parked_at: null,
              note: null,
              parts: { p1: { id: "p1", name: "x" } },
            },
            v2: { van_id: "v2", status: "parked", parked_at: "2026-01-01T00:00:00Z", note: "z", parts: {} },
            v3: { van_id: "v3", status: "parked", parked_at: "2026-01-02T00:00:00Z", note: null, parts: {} },
          },
          van_count: 3,
          service_van_count: 1,
        },
      },
      [tool("add_van", "Add a van.", { note: text }, []), tool("add_part", "Add a part.", { name: text })],
    );
  const vans = (after: Record<string, unknown>) =>
    (after.garage as Record<string, Record<string, unknown>>).vans as Record<string, unknown>;

  it("a new van is counted by the counts beside the vans, and an optional argument left out leaves its field empty", async () => {
    const made = await call(garage(), "add_van", {});
    expect(vans(made.after).v4).toEqual({ van_id: "v4", note: null, parked_at: null });
    expect(made.after.garage).toMatchObject({ van_count: 4, service_van_count: 2 });
    expect(made.report.notes).toEqual([
      "creates a van in garage/vans with note, parked_at, its id from garage/van_count",
      "adds one to service_van_count",
    ]);
    const noted = await call(garage(), "add_van", { note: "dented" });
    expect(vans(noted.after).v4).toEqual({ van_id: "v4", note: "dented", parked_at: null });
  });

  it("a part lives inside a van: with no argument naming the van, nothing is inferred and the report says why", async () => {
    const part = await call(garage(), "add_part", { name: "n" });
    expect(part.report.drafts).toEqual([]);
    expect(part.report.notes).toContain("a part lives inside vans, but no argument names the vans record");
  });
});

describe("a library's loans and invoices: changes a status brings, arguments that set nothing, a first record", () => {
  const library = () =>
    world(
      {
        loans: {
          L1: { loan_id: "L1", status: "open", fee: 0, shelf: "A", closed_at: null },
          L2: { loan_id: "L2", status: "closed", fee: 0, shelf: "B", closed_at: "2026-01-01T00:00:00Z" },
          L3: { loan_id: "L3", status: "closed", fee: 0, shelf: "A", closed_at: "2026-01-03T00:00:00Z" },
        },
        invoices: {},
      },
      [
        tool("close_loan", "Close a loan.", { loan_id: text }),
        tool("update_loan", "Update a loan.", { loan_id: text, shelf: text, colour: text }),
        tool("create_invoice", "Create an invoice.", { amount: { type: "number" } }),
      ],
    );

  it("closing a loan stamps the time the closed ones show they were closed", async () => {
    const closed = await call(library(), "close_loan", { loan_id: "L1" });
    expect(closed.after.loans?.L1).toEqual({
      loan_id: "L1",
      status: "closed",
      fee: 0,
      shelf: "A",
      closed_at: NOW,
    });
    expect(closed.report.notes).toEqual([
      `sets status to 'closed' (the verb "close" and the state's spelling)`,
      "added documented error LOAN_NOT_FOUND (No loan has the given loan_id (inferred from the state's loans).)",
      "sets closed_at to the time of the change (as the loans already 'closed' show)",
    ]);
  });

  it("an update sets the fields its arguments name, and the report names the argument that sets none", async () => {
    const updated = await call(library(), "update_loan", { loan_id: "L2", shelf: "C", colour: "red" });
    expect(updated.after.loans?.L2).toEqual({
      loan_id: "L2",
      status: "closed",
      fee: 0,
      shelf: "C",
      closed_at: "2026-01-01T00:00:00Z",
    });
    expect(updated.report.notes).toEqual([
      "sets shelf from shelf",
      "argument(s) colour set no field of loans",
      "added documented error LOAN_NOT_FOUND (No loan has the given loan_id (inferred from the state's loans).)",
    ]);
  });

  it("the first invoice of an empty collection is numbered 1", async () => {
    const made = await call(library(), "create_invoice", { amount: 3 });
    expect(made.after.invoices).toEqual({ "1": { invoice_id: 1, amount: 3 } });
  });
});

describe("a playlist's mentions, several values at once", () => {
  const names = { type: "array", items: text };
  const music = () =>
    world(
      {
        playlists: {
          p1: { playlist_id: "p1", name: "Jazz", mentions: ["ann"], owner: "ann", plays: 3, likes: 1 },
          p2: { playlist_id: "p2", name: "Rock", mentions: [], owner: "bo", plays: 0, likes: 0 },
        },
      },
      [
        tool("mention_users", "Mention users on a playlist.", { playlist_id: text, usernames: names }),
        tool(
          "unmention_users",
          "Unmention users on a playlist.",
          { playlist_id: text, usernames: names },
          undefined,
          [],
          { outputSchema: { type: "object", properties: { mentions: names } } },
        ),
      ],
    );

  it("mentions each user once, keeping those already there, and answers the playlist", async () => {
    const done = await call(music(), "mention_users", { playlist_id: "p1", usernames: ["ann", "cy", "di"] });
    expect(done.after.playlists?.p1).toEqual({
      playlist_id: "p1",
      name: "Jazz",
      mentions: ["ann", "cy", "di"],
      owner: "ann",
      plays: 3,
      likes: 1,
    });
    expect(done.answer).toEqual(done.after.playlists?.p1);
    expect(done.report.notes).toEqual([
      "added documented error PLAYLIST_NOT_FOUND (No playlist has the given playlist_id (inferred from the state's playlists).)",
      "adds each of usernames to the mentions of the playlist playlist_id names, once",
    ]);
    const one = await call(music(), "mention_users", { playlist_id: "p2", usernames: ["cy"] });
    expect(one.after.playlists?.p2?.mentions).toEqual(["cy"]);
    expect(
      failure((await call(music(), "mention_users", { playlist_id: "p9", usernames: ["cy"] })).outcome),
    ).toBe("PLAYLIST_NOT_FOUND");
  });

  it("unmentions each user given, and answers the mentions alone", async () => {
    const done = await call(music(), "unmention_users", { playlist_id: "p1", usernames: ["ann", "zed"] });
    expect(done.after.playlists?.p1?.mentions).toEqual([]);
    expect(done.after.playlists?.p1?.owner).toBe("ann");
    expect(done.answer).toEqual({ mentions: [] });
    expect(done.report.notes).toEqual([
      "added documented error PLAYLIST_NOT_FOUND (No playlist has the given playlist_id (inferred from the state's playlists).)",
      "removes each of usernames from the mentions of the playlist playlist_id names",
    ]);
    const kept = await call(music(), "unmention_users", { playlist_id: "p1", usernames: ["zed"] });
    expect(kept.after.playlists?.p1?.mentions).toEqual(["ann"]);
  });
});

describe("an event's attendees, records in a list picked by a field of their own", () => {
  const out = (properties: Record<string, unknown>) => ({ outputSchema: { type: "object", properties } });
  const events = () =>
    world(
      {
        events: {
          e1: {
            event_id: "e1",
            name: "Gala",
            // one guest answered twice: no field tells the attendees apart as keys would
            attendees: [
              { email: "a@x.org", rsvp: "yes" },
              { email: "b@x.org", rsvp: "no" },
              { email: "a@x.org", rsvp: "maybe" },
            ],
          },
          e2: { event_id: "e2", name: "Fair", attendees: [] },
        },
      },
      [
        tool(
          "add_attendee",
          "Add an attendee to an event, added with the rsvp 'pending'.",
          { event_id: text, email: text },
          undefined,
          [error("ATTENDEE_EXISTS", "The attendee is already on the event.", undefined, 409)],
        ),
        tool(
          "add_event_attendee",
          "Add an attendee to an event.",
          { event_id: text, email: text, rsvp: text },
          undefined,
          [],
          out({ email: text, rsvp: text }),
        ),
        tool(
          "update_attendee",
          "Update an attendee of an event.",
          { event_id: text, email: text, rsvp: text },
          undefined,
          [error("ATTENDEE_NOT_FOUND", "Attendee not found.", undefined, 404)],
        ),
        tool("remove_attendee", "Remove an attendee from an event.", { event_id: text, email: text }),
      ],
    );
  const EVENT_MISSING =
    "added documented error EVENT_NOT_FOUND (No event has the given event_id (inferred from the state's events).)";

  it("adds one with the rsvp the description gives, refusing an email already there", async () => {
    const added = await call(events(), "add_attendee", { event_id: "e2", email: "c@x.org" });
    expect(added.after.events?.e2?.attendees).toEqual([{ email: "c@x.org", rsvp: "pending" }]);
    expect(added.answer).toEqual(added.after.events?.e2);
    expect(added.report.notes).toEqual([
      EVENT_MISSING,
      "appends to the attendees of the event event_id names, refusing one already there (ATTENDEE_EXISTS)",
    ]);
    const refused = await call(events(), "add_attendee", { event_id: "e1", email: "b@x.org" });
    expect(failure(refused.outcome)).toBe("ATTENDEE_EXISTS");
    expect(refused.after).toEqual(events().state);
  });

  it("answers the attendee added where the tool's answer is an attendee", async () => {
    const added = await call(events(), "add_event_attendee", {
      event_id: "e1",
      email: "c@x.org",
      rsvp: "yes",
    });
    expect(added.after.events?.e1?.attendees).toEqual([
      { email: "a@x.org", rsvp: "yes" },
      { email: "b@x.org", rsvp: "no" },
      { email: "a@x.org", rsvp: "maybe" },
      { email: "c@x.org", rsvp: "yes" },
    ]);
    expect(added.answer).toEqual({ email: "c@x.org", rsvp: "yes" });
    expect(added.report.notes).toEqual([
      EVENT_MISSING,
      "appends to the attendees of the event event_id names",
    ]);
  });

  it("changes the rsvp of the attendee picked by email, answering the documented error for one not there", async () => {
    const changed = await call(events(), "update_attendee", {
      event_id: "e1",
      email: "b@x.org",
      rsvp: "yes",
    });
    expect(changed.after.events?.e1?.attendees).toEqual([
      { email: "a@x.org", rsvp: "yes" },
      { email: "b@x.org", rsvp: "yes" },
      { email: "a@x.org", rsvp: "maybe" },
    ]);
    expect(changed.answer).toEqual({ email: "b@x.org", rsvp: "yes" });
    expect(changed.report.notes).toEqual([
      EVENT_MISSING,
      "sets rsvp of the attendee whose email is given, in the event's attendees",
    ]);
    const absent = await call(events(), "update_attendee", { event_id: "e1", email: "z@x.org", rsvp: "yes" });
    expect(failure(absent.outcome)).toBe("ATTENDEE_NOT_FOUND");
    expect(
      failure(
        (await call(events(), "update_attendee", { event_id: "e9", email: "b@x.org", rsvp: "yes" })).outcome,
      ),
    ).toBe("EVENT_NOT_FOUND");
  });

  it("removes the attendee picked by email and answers it", async () => {
    const removed = await call(events(), "remove_attendee", { event_id: "e1", email: "b@x.org" });
    expect(removed.after.events?.e1?.attendees).toEqual([
      { email: "a@x.org", rsvp: "yes" },
      { email: "a@x.org", rsvp: "maybe" },
    ]);
    expect(removed.answer).toEqual({ email: "b@x.org", rsvp: "no" });
    expect(removed.report.notes).toEqual([
      EVENT_MISSING,
      "removes the attendee whose email is given from the attendees of the event",
    ]);
  });
});

describe("lists an event keeps, found by the arguments and answered as the tool says", () => {
  const out = (properties: Record<string, unknown>) => ({ outputSchema: { type: "object", properties } });
  const events = () =>
    world(
      {
        events: {
          e1: {
            event_id: "e1",
            name: "Gala",
            attendees: [
              { email: "a@x.org", rsvp: "yes" },
              { email: "a@x.org", rsvp: "no" },
            ],
            labels: ["x", "y"],
          },
          e2: { event_id: "e2", name: "Fair", attendees: [], labels: [] },
        },
      },
      [
        tool("invite_guest", "Invite a guest to an event.", { event_id: text, email: text, rsvp: text }),
        tool(
          "remove_event_label",
          "Remove a label from an event.",
          { event_id: text, label: text },
          undefined,
          [],
          out({
            reply_status: text,
          }),
        ),
      ],
    );

  it("a tool naming no list adds to the one whose records have a field for every other argument", async () => {
    const invited = await call(events(), "invite_guest", { event_id: "e2", email: "c@x.org", rsvp: "yes" });
    expect(invited.after.events?.e2?.attendees).toEqual([{ email: "c@x.org", rsvp: "yes" }]);
    expect(invited.report.notes).toContain("appends to the attendees of the event event_id names");
  });

  it("an answer naming none of the record's fields is not the record", async () => {
    const removed = await call(events(), "remove_event_label", { event_id: "e1", label: "x" });
    expect(removed.after.events?.e1?.labels).toEqual(["y"]);
    // nothing of the record is placed: the answer's own fields are left to synthesis
    expect(removed.answer).toEqual({});
  });
});

describe("a forum: comments counted on their thread, tags filed by name, cards of a compound noun", () => {
  const out = (properties: Record<string, unknown>) => ({ outputSchema: { type: "object", properties } });
  const forum = () =>
    world(
      {
        threads: {
          t1: { thread_id: "t1", title: "Bikes", comments: 1, num_likes: 0 },
          t2: { thread_id: "t2", title: "Cars", comments: 0, num_likes: 2 },
        },
        comments: {
          c1: { comment_id: "c1", thread_id: "t1", text: "hi", parent_id: null },
          c2: { comment_id: "c2", thread_id: "t1", text: "yo", parent_id: "c1" },
        },
        tags: { urgent: { name: "urgent", colour: "red" }, later: { name: "later", colour: "blue" } },
        insurance_card_list: { "ic-aa": { holder: "a" }, "ic-bb": { holder: "b" } },
      },
      [
        tool(
          "post_comment",
          "Post a comment on a thread.",
          { thread_id: text, text, parent_id: text, mood: text, extra: { type: "object" } },
          ["thread_id", "text"],
        ),
        tool("create_tag", "Create a tag.", { name: text, colour: text }),
        tool(
          "add_insurance_card",
          "Add an insurance card.",
          { holder: text },
          undefined,
          [],
          out({ card_id: text }),
        ),
      ],
    );

  it("a comment keeps the texts it is given but no object, raises its thread's count, and needs the comment it answers", async () => {
    const posted = await call(forum(), "post_comment", {
      thread_id: "t2",
      text: "a",
      parent_id: "c2",
      mood: "glad",
      extra: { a: 1 },
    });
    expect(posted.after.comments?.c3).toEqual({
      comment_id: "c3",
      thread_id: "t2",
      text: "a",
      parent_id: "c2",
      mood: "glad",
    });
    expect(posted.after.threads?.t2).toEqual({ thread_id: "t2", title: "Cars", comments: 1, num_likes: 2 });
    expect(posted.after.threads?.t1?.comments).toBe(1);
    expect(posted.report.notes).toEqual([
      "creates a comment in comments with thread_id, text, parent_id, mood",
      "added documented error THREAD_NOT_FOUND (No thread has the given thread_id (inferred from the state's threads).)",
      "added documented error COMMENT_NOT_FOUND (No comment has the given parent_id (inferred from the state's comments).)",
      "parent_id must name a comment",
    ]);
    const orphan = await call(forum(), "post_comment", { thread_id: "t2", text: "a", parent_id: "c9" });
    expect(failure(orphan.outcome)).toBe("COMMENT_NOT_FOUND");
    expect(orphan.after).toEqual(forum().state);
  });

  it("a tag is filed under the name given, refusing one taken", async () => {
    const made = await call(forum(), "create_tag", { name: "soon", colour: "green" });
    expect(made.after.tags?.soon).toEqual({ name: "soon", colour: "green" });
    const taken = await call(forum(), "create_tag", { name: "later", colour: "green" });
    expect(failure(taken.outcome)).toBe("TAG_ALREADY_EXISTS");
    expect(taken.after.tags?.later).toEqual({ name: "later", colour: "blue" });
  });

  it("a card of an insurance card list is answered by the id of its last noun", async () => {
    const made = await call(forum(), "add_insurance_card", { holder: "c" });
    expect(made.after.insurance_card_list?.["ic-0001"]).toEqual({ holder: "c", card_id: "ic-0001" });
    expect(made.answer).toMatchObject({ card_id: "ic-0001" });
    expect(made.report.notes).toEqual(["creates an insurance card in insurance_card_list with holder"]);
  });
});

describe("what a new bay leaves out", () => {
  const yard = () =>
    world(
      {
        owners: { o1: { owner_id: "o1" }, o2: { owner_id: "o2" } },
        bays: {
          "BAY-01": {
            bay_id: "BAY-01",
            code: "A1",
            vip: false,
            shares: 2,
            day: "2026-01-01",
            created: "soon",
            note: "",
            owner_id: null,
            size: "s",
          },
          "BAY-02": {
            bay_id: "BAY-02",
            code: "B2",
            vip: true,
            shares: 0,
            day: "2026-01-02",
            created: "later",
            note: "x",
            owner_id: "o1",
            size: "m",
          },
        },
      },
      [
        tool(
          "create_bay",
          "Create a bay. The new bay is 'free'.",
          {
            code: { type: "string", examples: ["Z9"] },
            note: text,
            owner_id: text,
            size: { type: "string", default: "m" },
          },
          ["code", "size"],
        ),
      ],
    );

  it("a flag, an amount, days and a word beside 'created' stay out; the stated status, the optional text empty; a required argument takes no default", async () => {
    const made = await call(yard(), "create_bay", { code: "C3", size: "l" });
    expect(made.after.bays?.["BAY-03"]).toEqual({
      bay_id: "BAY-03",
      code: "C3",
      note: "",
      size: "l",
      status: "free",
    });
    expect(made.report.notes).toEqual([
      "creates a bay in bays with code, note, owner_id, size, status",
      "added documented error OWNER_NOT_FOUND (No owner has the given owner_id (inferred from the state's owners).)",
    ]);
    const owned = await call(yard(), "create_bay", { code: "C3", size: "l", owner_id: "o2", note: "n" });
    expect(owned.after.bays?.["BAY-03"]).toMatchObject({ owner_id: "o2", note: "n" });
    expect(
      failure((await call(yard(), "create_bay", { code: "C3", size: "l", owner_id: "o9" })).outcome),
    ).toBe("OWNER_NOT_FOUND");
  });
});

describe("ids after keys of words", () => {
  it("are at most twelve digits after the keys' prefix", async () => {
    const depots = world(
      {
        depots: {
          "dep-northgatewarehouse": { city: "Oslo" },
          "dep-southharbourstorage": { city: "Bergen" },
        },
      },
      [tool("add_depot", "Add a depot.", { city: text })],
    );
    const made = await call(depots, "add_depot", { city: "Tromsø" });
    expect(Object.keys(made.after.depots ?? {})).toEqual([
      "dep-northgatewarehouse",
      "dep-southharbourstorage",
      "dep-000000000001",
    ]);
  });
});

describe("lockers and shows: a status field of another name, an id answered by the noun, seats taken by a number", () => {
  const hall = () =>
    world(
      {
        lockers: {
          "L-01": { id: "L-01", state: "free", size: "s" },
          "L-02": { id: "L-02", state: "taken", size: "m" },
        },
        shows: { s1: { show_id: "s1", seats_left: 5 }, s2: { show_id: "s2", seats_left: 1 } },
        bookings: { b1: { booking_id: "b1", show_id: "s1" } },
      },
      [
        tool(
          "create_locker",
          "Create a locker. The new locker is 'taken'.",
          { size: text, urgent: { type: "boolean", default: false } },
          ["size"],
          [],
          { outputSchema: { type: "object", properties: { locker_id: text } } },
        ),
        tool("book_show", "Book seats at a show.", { show_id: text, seats: { type: "number" } }),
      ],
    );

  it("a new locker starts in the stated state, keeps no flag it has no field for, and answers its id as locker_id", async () => {
    const made = await call(hall(), "create_locker", { size: "l" });
    expect(made.after.lockers?.["L-03"]).toEqual({ id: "L-03", size: "l", state: "taken" });
    expect(made.answer).toMatchObject({ locker_id: "L-03" });
    expect(made.report.notes).toEqual(["creates a locker in lockers with size, state"]);
  });

  it("a booking takes the seats given from those left, refused with an added error when too few are left", async () => {
    const booked = await call(hall(), "book_show", { show_id: "s1", seats: 2 });
    expect(booked.after.shows?.s1?.seats_left).toBe(3);
    expect(booked.after.bookings?.b2).toEqual({ booking_id: "b2", show_id: "s1", seats: 2 });
    expect(booked.report.notes).toContain("takes seats from shows.seats_left (SHOW_SOLD_OUT)");
    const refused = await call(hall(), "book_show", { show_id: "s2", seats: 2 });
    expect(failure(refused.outcome)).toBe("SHOW_SOLD_OUT");
    expect(refused.after).toEqual(hall().state);
    const added = refused.tool.errors?.find((e) => e.code === "SHOW_SOLD_OUT");
    expect(added?.message).toBe("Not enough seats left.");
  });
});

describe("a reader added to a book club's book by the email the caller gives", () => {
  const club = () =>
    world(
      {
        books: {
          b1: {
            book_id: "b1",
            title: "Tides",
            readers: [
              { email: "a@x.org", rsvp: "yes" },
              { email: "b@x.org", rsvp: "no" },
            ],
          },
        },
      },
      [tool("add_book_reader", "Add a reader to a book.", { book_id: text, email: text })],
    );

  it("keeps the email given as the reader's key instead of minting one", async () => {
    const added = await call(club(), "add_book_reader", { book_id: "b1", email: "c@x.org" });
    const readers = added.after.books?.b1?.readers as Array<Record<string, unknown>>;
    expect(readers).toHaveLength(3);
    expect(readers[2]).toMatchObject({ email: "c@x.org" });
  });
});

describe("an essay written for a writer who lists the ids of theirs", () => {
  const desk = () =>
    world(
      {
        writers: { w1: { writer_id: "w1", name: "Ana", essays: ["e1"] } },
        essays: { e1: { essay_id: "e1", title: "Tides", writer_id: "w1" } },
      },
      [tool("create_essay", "Write a new essay.", { writer_id: text, title: text })],
    );

  it("files a new essay and lists its id, not the title, with the writer", async () => {
    const made = await call(desk(), "create_essay", { writer_id: "w1", title: "Dunes" });
    expect(made.after.essays?.e2).toEqual({ essay_id: "e2", writer_id: "w1", title: "Dunes" });
    expect(made.after.writers?.w1?.essays).toEqual(["e1", "e2"]);
  });
});

describe("a repair filed for a mechanic, beside an assignee who is a mechanic too", () => {
  const workshop = () =>
    world(
      {
        mechanics: { m1: { mechanic_id: "m1", name: "Ana" }, m2: { mechanic_id: "m2", name: "Ben" } },
        repairs: { r1: { repair_id: "r1", mechanic_id: "m1", assignee: "m2", title: "Brakes" } },
      },
      [tool("create_repair", "File a repair for a mechanic.", { mechanic_id: text, title: text })],
    );

  it("keeps the mechanic under its own field and leaves the assignee to no one", async () => {
    const made = await call(workshop(), "create_repair", { mechanic_id: "m1", title: "Oil" });
    const filed = Object.values(made.after.repairs ?? {}).find((r) => r.title === "Oil");
    expect(filed).toMatchObject({ mechanic_id: "m1", title: "Oil" });
    expect(filed?.assignee ?? null).toBeNull();
  });
});

describe("a doctor's visits: a delete that names another record, a status given as an argument", () => {
  const practice = () =>
    world(
      {
        doctors: { d1: { doctor_id: "d1" }, d2: { doctor_id: "d2" } },
        visits: {
          v1: { visit_id: "v1", doctor_id: "d1", status: "open" },
          v2: { visit_id: "v2", doctor_id: "d2", status: "open" },
        },
      },
      [
        tool("delete_visit", "Delete a visit of a doctor.", { visit_id: text, doctor_id: text }, undefined, [
          error("DOCTOR_NOT_FOUND", "Doctor not found.", undefined, 404),
        ]),
        tool("close_visit", "Close a visit.", { visit_id: text, status: text }),
      ],
    );

  it("a delete checks the other record it names exists, and deletes nothing when it does not", async () => {
    const refused = await call(practice(), "delete_visit", { visit_id: "v1", doctor_id: "d9" });
    expect(failure(refused.outcome)).toBe("DOCTOR_NOT_FOUND");
    expect(refused.after).toEqual(practice().state);
    expect(refused.report.notes).toEqual([
      "added documented error VISIT_NOT_FOUND (No visit has the given visit_id (inferred from the state's visits).)",
      "deletes the visit visit_id names",
      "checks doctor_id exists (DOCTOR_NOT_FOUND)",
    ]);
    const deleted = await call(practice(), "delete_visit", { visit_id: "v1", doctor_id: "d2" });
    expect(Object.keys(deleted.after.visits ?? {})).toEqual(["v2"]);
  });

  it("the status an argument gives wins over the one the verb implies", async () => {
    const closed = await call(practice(), "close_visit", { visit_id: "v1", status: "done" });
    expect(closed.after.visits?.v1?.status).toBe("done");
    expect(closed.report.notes).toEqual([
      "sets status from status",
      "added documented error VISIT_NOT_FOUND (No visit has the given visit_id (inferred from the state's visits).)",
    ]);
  });
});

describe("an id output spelled in camel case", () => {
  it("answers the new record's id under the output that spells its key", async () => {
    const desk = world(
      {
        visit_notes: {
          "vn-x": { text: "a" },
          "vn-y": { text: "b" },
        },
      },
      [
        tool("add_visit_note", "Add a visit note.", { text }, undefined, [], {
          outputSchema: { type: "object", properties: { visitNoteId: text } },
        }),
      ],
    );
    const made = await call(desk, "add_visit_note", { text: "c" });
    expect(made.after.visit_notes?.["vn-0001"]).toEqual({ text: "c", visitNoteId: "vn-0001" });
    expect(made.answer).toMatchObject({ visitNoteId: "vn-0001" });
  });
});

describe("an answer that wraps the record", () => {
  const wrapped = { outputSchema: { type: "object", properties: { loan: { type: "object" } } } };
  const desk = () =>
    world(
      {
        loans: {
          L1: { loan_id: "L1", shelf: "A", status: "open" },
          L2: { loan_id: "L2", shelf: "B", status: "closed" },
        },
      },
      [
        tool("update_loan", "Update a loan.", { loan_id: text, shelf: text }, undefined, [], wrapped),
        tool("delete_loan", "Delete a loan.", { loan_id: text }, undefined, [], wrapped),
      ],
    );

  it("places the record updated or deleted under the output that wraps it, and nothing else", async () => {
    const updated = await call(desk(), "update_loan", { loan_id: "L1", shelf: "C" });
    expect(updated.answer).toEqual({ loan: { loan_id: "L1", shelf: "C", status: "open" } });
    const deleted = await call(desk(), "delete_loan", { loan_id: "L2" });
    expect(deleted.answer).toEqual({ loan: { loan_id: "L2", shelf: "B", status: "closed" } });
    expect(Object.keys(deleted.after.loans ?? {})).toEqual(["L1"]);
  });
});

describe("an update never rewrites the key its record is addressed by", () => {
  it("a crate's id given beside the bin it goes to leaves the bin's id alone", async () => {
    const yard = {
      yard: {
        bins: [
          { id: "b1", label: "North", crates: ["c1"] },
          { id: "b2", label: "South", crates: [] },
        ],
        crates: [{ id: "c1", idBin: "b1", weight: 3 }],
      },
    };
    const move = tool("move_crate_to_bin", "Move a crate to another bin.", { id: text, idBin: text });
    const { after, report } = await call(world(yard, [move]), "move_crate_to_bin", { id: "c1", idBin: "b2" });
    const bins = (after.yard as unknown as { bins: Array<{ id: string }> }).bins;
    expect(bins.map((b) => b.id)).toEqual(["b1", "b2"]);
    expect(report.notes.join(" ")).not.toMatch(/sets id from id/);
  });
});

describe("a reply kept apart from what it answers", () => {
  it("is made among the replies, naming the thread, which must exist", async () => {
    const forum = {
      threads: { t1: { title: "Kiln temps", author: "ana" } },
      replies: { r1: { thread_id: "t1", text: "Cone 6", author: "bo" } },
    };
    const reply = tool("reply_to_thread", "Reply to a thread.", { thread_id: text, text });
    const { after } = await call(world(forum, [reply]), "reply_to_thread", {
      thread_id: "t1",
      text: "Thanks",
    });
    expect(Object.keys(after.threads as object)).toEqual(["t1"]);
    const made = Object.values(after.replies as Record<string, Record<string, unknown>>).at(-1);
    expect(made).toMatchObject({ thread_id: "t1", text: "Thanks" });
    const missing = await call(world(forum, [reply]), "reply_to_thread", { thread_id: "t9", text: "?" });
    expect(failure(missing.outcome)).toBe("THREAD_NOT_FOUND");
  });
});
