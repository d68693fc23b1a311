import { describe, expect, it } from "vitest";
import { bool, call, failure, integer, text, tool, world } from "./support/infer-world.js";

/**
 * What a description states about a record's own fields: keys listed by a prefix, who did an
 * action and why in the record's fields for them, counts a call adds one to, flags that stop a
 * change, the status a new record is in, a new record's counts and flags, and the holder's
 * status an item is added under.
 */

type Records = Record<string, Record<string, unknown>>;

describe("a list by a prefix of the key", () => {
  const config = () => ({
    entries: {
      "app/db/host": { key: "app/db/host", value: "db.local" },
      "app/db/port": { key: "app/db/port", value: "5432" },
      "web/theme": { key: "web/theme", value: "dark" },
    },
  });
  const list = tool("list_entries", "List the configuration entries, optionally under a key prefix.", {
    prefix: text,
  });

  it("answers the records whose key starts with it, and all of them without it", async () => {
    const under = await call(world(config(), [list]), "list_entries", { prefix: "app/db/" });
    expect((under.answer as Array<{ key: string }>).map((e) => e.key)).toEqual([
      "app/db/host",
      "app/db/port",
    ]);
    const all = await call(world(config(), [list]), "list_entries", {});
    expect(all.answer).toHaveLength(3);
  });

  it("starts a named field with it", async () => {
    const byName = tool("list_entries_by_value", "List the entries whose value starts with a prefix.", {
      value_prefix: text,
    });
    const { answer } = await call(world(config(), [byName]), "list_entries_by_value", { value_prefix: "d" });
    expect((answer as Array<{ key: string }>).map((e) => e.key)).toEqual(["app/db/host", "web/theme"]);
  });
});

describe("an action's actor and reason in the record's fields for them", () => {
  const sheets = () => ({
    timesheets: {
      TS1: { timesheet_id: "TS1", hours: 38, status: "submitted", approved_by: null, rejection_reason: null },
      TS2: { timesheet_id: "TS2", hours: 41, status: "submitted", approved_by: null, rejection_reason: null },
      TS3: { timesheet_id: "TS3", hours: 40, status: "approved", approved_by: "M7", rejection_reason: null },
    },
  });
  const approve = tool("approve_timesheet", "Approve a submitted timesheet.", {
    timesheet_id: text,
    approver_id: text,
  });
  const reject = tool("reject_timesheet", "Reject a submitted timesheet with a reason.", {
    timesheet_id: text,
    reason: text,
  });

  it("files the approver under approved_by", async () => {
    const { after } = await call(world(sheets(), [approve]), "approve_timesheet", {
      timesheet_id: "TS1",
      approver_id: "M9",
    });
    expect((after.timesheets as Records).TS1).toMatchObject({ status: "approved", approved_by: "M9" });
    expect(Object.keys((after.timesheets as Records).TS1 ?? {})).not.toContain("approve_approver_id");
  });

  it("files the reason under the field named after the action", async () => {
    const { after } = await call(world(sheets(), [reject]), "reject_timesheet", {
      timesheet_id: "TS2",
      reason: "missing Friday",
    });
    expect((after.timesheets as Records).TS2).toMatchObject({
      status: "rejected",
      rejection_reason: "missing Friday",
    });
  });
});

describe("a count the description says a call adds one to", () => {
  const aliases = () => ({
    aliases: {
      shop: { alias: "shop", address: "ida@mail.test", lookups: 5, disabled: false },
      old: { alias: "old", address: "ida@old.test", lookups: 0, disabled: true },
      news: { alias: "news", address: "ida@mail.test", lookups: 12, disabled: false },
    },
  });
  const resolve = tool(
    "resolve_alias",
    "Resolve an alias to its address, counting one lookup. Disabled aliases do not resolve.",
    { alias: text },
  );

  it("moves the count and invents no status", async () => {
    const { after, report } = await call(world(aliases(), [resolve]), "resolve_alias", { alias: "shop" });
    expect((after.aliases as Records).shop).toEqual({
      alias: "shop",
      address: "ida@mail.test",
      lookups: 6,
      disabled: false,
    });
    expect(report.verdict).toBe("inferred");
  });

  it("refuses what a flag says does not take the call", async () => {
    const { outcome, after } = await call(world(aliases(), [resolve]), "resolve_alias", { alias: "old" });
    expect(failure(outcome)).toBe("ALIAS_DISABLED");
    expect((after.aliases as Records).old?.lookups).toBe(0);
  });
});

describe("a flag whose absence stops a change", () => {
  const sensors = () => ({
    sensors: {
      S1: { sensor_id: "S1", online: true, interval: 60 },
      S2: { sensor_id: "S2", online: false, interval: 60 },
    },
  });
  const configure = tool(
    "configure_sensor",
    "Change a sensor's reporting interval. Sensors that are not online cannot be configured.",
    { sensor_id: text, interval: integer },
  );

  it("refuses a record without the flag and changes one with it", async () => {
    const toolset = world(sensors(), [configure]);
    const refused = await call(toolset, "configure_sensor", { sensor_id: "S2", interval: 30 });
    expect(failure(refused.outcome)).toBe("SENSOR_NOT_ONLINE");
    const changed = await call(toolset, "configure_sensor", { sensor_id: "S1", interval: 30 });
    expect((changed.after.sensors as Records).S1?.interval).toBe(30);
  });
});

describe("a new record as the description and its siblings say", () => {
  const desk = () => ({
    tickets: {
      "T-1": { ticket_id: "T-1", subject: "Printer", status: "triaged", replies: 2, muted: false },
      "T-2": { ticket_id: "T-2", subject: "VPN", status: "solved", replies: 5, muted: true },
    },
  });
  const open = tool("open_ticket", "Open a support ticket. New tickets are triaged.", { subject: text });

  it("starts in the status the description names, its counts at zero and its flags off", async () => {
    const { after, report } = await call(world(desk(), [open]), "open_ticket", { subject: "Mail" });
    const made = Object.values(after.tickets as Records).find((t) => t.subject === "Mail");
    expect(made).toMatchObject({ status: "triaged", replies: 0, muted: false });
    expect(report.notes.join("\n")).toContain("triaged");
  });
});

describe("an item added to a holder in a status", () => {
  const orders = () => ({
    orders: {
      O1: { order_id: "O1", status: "open", lines: [{ sku: "A", quantity: 1 }] },
      O2: { order_id: "O2", status: "closed", lines: [] },
    },
  });
  const add = tool("add_order_line", "Add a line to an open order.", {
    order_id: text,
    sku: text,
    quantity: integer,
  });

  it("is refused by a holder in another status", async () => {
    const toolset = world(orders(), [add]);
    const refused = await call(toolset, "add_order_line", { order_id: "O2", sku: "B", quantity: 1 });
    expect(failure(refused.outcome)).toBe("ORDER_NOT_OPEN");
    const added = await call(toolset, "add_order_line", { order_id: "O1", sku: "B", quantity: 2 });
    expect((added.after.orders as Records).O1?.lines).toEqual([
      { sku: "A", quantity: 1 },
      { sku: "B", quantity: 2 },
    ]);
  });
});

describe("a create compared with the record it names", () => {
  const venue = () => ({
    rooms: { R1: { room_id: "R1", capacity: 4 }, R2: { room_id: "R2", capacity: 10 } },
    bookings: { B1: { booking_id: "B1", room_id: "R2", group_size: 8 } },
  });
  const book = tool(
    "create_booking",
    "Book a room for a group. Fails if the group is larger than the room's capacity.",
    { room_id: text, group_size: integer, flexible: bool },
  );

  it("refuses more than the record holds", async () => {
    const toolset = world(venue(), [book]);
    const refused = await call(toolset, "create_booking", { room_id: "R1", group_size: 6 });
    expect(refused.outcome.status).toBe("failed");
    const made = await call(toolset, "create_booking", { room_id: "R1", group_size: 4 });
    expect(Object.keys(made.after.bookings as Records)).toHaveLength(2);
  });
});

describe("a record's list of lines and the sum it keeps of them", () => {
  const billing = () => ({
    invoices: {
      "INV-1": {
        invoice_id: "INV-1",
        status: "draft",
        lines: [
          { line_id: 1, label: "Setup", amount: 300 },
          { line_id: 2, label: "Hosting", amount: 120 },
        ],
        total: 420,
      },
      "INV-2": {
        invoice_id: "INV-2",
        status: "sent",
        lines: [{ line_id: 1, label: "Audit", amount: 900 }],
        total: 900,
      },
      "INV-3": { invoice_id: "INV-3", status: "draft", lines: [], total: 0 },
    },
    next_invoice: 4,
  });
  const addLine = tool("add_invoice_line", "Add a line to a draft invoice.", {
    invoice_id: text,
    label: text,
    amount: integer,
  });
  const send = tool(
    "send_invoice",
    "Send a draft invoice. An invoice must contain at least one line to be sent.",
    {
      invoice_id: text,
    },
  );
  const create = tool("create_invoice", "Create an empty draft invoice.", { customer: text });

  it("numbers the new line within its list and adds its amount to the sum", async () => {
    const { after, report } = await call(world(billing(), [addLine]), "add_invoice_line", {
      invoice_id: "INV-1",
      label: "Support",
      amount: 80,
    });
    const invoice = (after.invoices as Records)["INV-1"];
    expect(invoice?.lines).toEqual([
      { line_id: 1, label: "Setup", amount: 300 },
      { line_id: 2, label: "Hosting", amount: 120 },
      { line_id: 3, label: "Support", amount: 80 },
    ]);
    expect(invoice?.total).toBe(500);
    expect(report.verdict).toBe("inferred");
  });

  it("is refused by a holder in another status", async () => {
    const { outcome } = await call(world(billing(), [addLine]), "add_invoice_line", {
      invoice_id: "INV-2",
      label: "Extra",
      amount: 10,
    });
    expect(failure(outcome)).toBe("INVOICE_NOT_DRAFT");
  });

  it("refuses a change the description says needs a line", async () => {
    const toolset = world(billing(), [send]);
    expect(failure((await call(toolset, "send_invoice", { invoice_id: "INV-3" })).outcome)).toBe(
      "INVOICE_EMPTY",
    );
    const sent = await call(toolset, "send_invoice", { invoice_id: "INV-1" });
    expect((sent.after.invoices as Records)["INV-1"]?.status).toBe("sent");
  });

  it("starts a new record's sum at zero", async () => {
    const { after } = await call(world(billing(), [create]), "create_invoice", { customer: "Ada" });
    const made = Object.values(after.invoices as Records).find((i) => i.customer === "Ada");
    expect(made).toMatchObject({ lines: [], total: 0, status: "draft" });
  });
});

describe("a line added again and a line set to zero", () => {
  const baskets = () => ({
    products: { P1: { product_id: "P1", stock: 5 }, P2: { product_id: "P2", stock: 0 } },
    baskets: { B1: { basket_id: "B1", lines: [{ product_id: "P1", quantity: 1 }] } },
  });
  const add = tool(
    "add_to_basket",
    "Add a product to a basket. If the product is already in the basket its quantity is increased. The resulting quantity cannot exceed the product's stock.",
    { basket_id: text, product_id: text, quantity: integer },
  );
  const change = tool("change_basket_line", "Change a line's quantity. A quantity of 0 removes the line.", {
    basket_id: text,
    product_id: text,
    quantity: integer,
  });

  it("adds to the line of the same product, up to the stock", async () => {
    const toolset = world(baskets(), [add]);
    const more = await call(toolset, "add_to_basket", { basket_id: "B1", product_id: "P1", quantity: 2 });
    expect((more.after.baskets as Records).B1?.lines).toEqual([{ product_id: "P1", quantity: 3 }]);
    const over = await call(toolset, "add_to_basket", { basket_id: "B1", product_id: "P1", quantity: 5 });
    expect(over.outcome.status).toBe("failed");
    const none = await call(toolset, "add_to_basket", { basket_id: "B1", product_id: "P2", quantity: 1 });
    expect(none.outcome.status).toBe("failed");
  });

  it("removes the line at zero and sets it otherwise", async () => {
    const toolset = world(baskets(), [change]);
    const zero = await call(toolset, "change_basket_line", {
      basket_id: "B1",
      product_id: "P1",
      quantity: 0,
    });
    expect((zero.after.baskets as Records).B1?.lines).toEqual([]);
    const two = await call(toolset, "change_basket_line", { basket_id: "B1", product_id: "P1", quantity: 2 });
    expect((two.after.baskets as Records).B1?.lines).toEqual([{ product_id: "P1", quantity: 2 }]);
  });
});

describe("a slot a holder cannot give twice", () => {
  const courts = () => ({
    courts: { C1: { court_id: "C1", surface: "clay" }, C2: { court_id: "C2", surface: "grass" } },
    bookings: {
      "BK-1": { booking_id: "BK-1", court_id: "C1", date: "2026-05-01", hour: "10:00", status: "active" },
      "BK-2": { booking_id: "BK-2", court_id: "C1", date: "2026-05-01", hour: "11:00", status: "cancelled" },
    },
  });
  const book = tool(
    "book_court",
    "Book a court for a date and hour. Fails if the court already has a booking at that date and hour.",
    { court_id: text, date: { type: "string", format: "date" }, hour: { type: "string", format: "time" } },
  );

  it("refuses the same court at the same time, not a slot called off", async () => {
    const toolset = world(courts(), [book]);
    const taken = await call(toolset, "book_court", { court_id: "C1", date: "2026-05-01", hour: "10:00" });
    expect(failure(taken.outcome)).toBe("COURT_NOT_AVAILABLE");
    const freed = await call(toolset, "book_court", { court_id: "C1", date: "2026-05-01", hour: "11:00" });
    expect(freed.outcome.status).toBe("applied");
    const other = await call(toolset, "book_court", { court_id: "C2", date: "2026-05-01", hour: "10:00" });
    expect(other.outcome.status).toBe("applied");
  });
});

describe("a save the description says makes a new record", () => {
  const presets = () => ({
    presets: { Warm: { name: "Warm", temperature: 22 } },
  });
  const save = tool("save_preset", "Save the current settings as a new preset with the given name.", {
    name: text,
    temperature: integer,
  });

  it("makes the record its name names and refuses a taken name", async () => {
    const toolset = world(presets(), [save]);
    const made = await call(toolset, "save_preset", { name: "Cool", temperature: 18 });
    expect((made.after.presets as Records).Cool).toMatchObject({ name: "Cool", temperature: 18 });
    const taken = await call(toolset, "save_preset", { name: "Warm", temperature: 18 });
    expect(taken.outcome.status).toBe("failed");
  });
});

describe("a change only one person may make", () => {
  const purchases = () => ({
    members: {
      M1: { member_id: "M1", name: "Ida", lead_id: null },
      M2: { member_id: "M2", name: "Jon", lead_id: "M1" },
    },
    requests: {
      R1: { request_id: "R1", member_id: "M2", status: "pending", owner: "M2" },
      R2: { request_id: "R2", member_id: "M1", status: "pending", owner: "M1" },
    },
  });
  const approve = tool(
    "approve_request",
    "Approve a pending purchase request. Only the requesting member's lead may approve.",
    { request_id: text, approver_id: text },
  );
  const withdraw = tool("withdraw_request", "Withdraw a request. Only its owner can withdraw it.", {
    request_id: text,
    user_id: text,
  });

  it("is refused to anyone but the person the linked record names", async () => {
    const toolset = world(purchases(), [approve]);
    const refused = await call(toolset, "approve_request", { request_id: "R1", approver_id: "M2" });
    expect(failure(refused.outcome)).toBe("APPROVER_NOT_LEAD");
    const approved = await call(toolset, "approve_request", { request_id: "R1", approver_id: "M1" });
    expect((approved.after.requests as Records).R1?.status).toBe("approved");
  });

  it("is refused to anyone but the person the record names", async () => {
    const toolset = world(purchases(), [withdraw]);
    const refused = await call(toolset, "withdraw_request", { request_id: "R2", user_id: "M2" });
    expect(refused.outcome.status).toBe("failed");
    const done = await call(toolset, "withdraw_request", { request_id: "R2", user_id: "M1" });
    expect(done.outcome.status).toBe("applied");
  });
});

describe("an amount limited per value of another argument", () => {
  const cards = () => ({
    settings: { currency: "EUR", spend_limits: { fuel: 100, meals: 40, software: 500 } },
    cards: { C1: { card_id: "C1", holder: "Ida", charges: [{ category: "software", amount: 300 }] } },
  });
  const charge = tool(
    "add_card_charge",
    "Add a charge to a card. A charge must not exceed the spend limit for its category.",
    { card_id: text, category: { type: "string", enum: ["fuel", "meals", "software"] }, amount: integer },
  );

  it("refuses more than the map keeps under that value", async () => {
    const toolset = world(cards(), [charge]);
    const over = await call(toolset, "add_card_charge", { card_id: "C1", category: "meals", amount: 45 });
    expect(failure(over.outcome)).toBe("AMOUNT_OVER_LIMIT");
    const under = await call(toolset, "add_card_charge", { card_id: "C1", category: "fuel", amount: 45 });
    expect((under.after.cards as Records).C1?.charges).toEqual([
      { category: "software", amount: 300 },
      { category: "fuel", amount: 45 },
    ]);
  });
});

describe("a new record that copies the record its link names, and starts as described", () => {
  const desk = () => ({
    agents: { A1: { agent_id: "A1", name: "Ida" }, A2: { agent_id: "A2", name: "Jon" } },
    plans: {
      gold: { response_hours: 2, credits: 10 },
      basic: { response_hours: 24, credits: 1 },
    },
    cases: {
      "C-1": {
        case_id: "C-1",
        title: "Outage",
        plan: "gold",
        assignee_id: "A2",
        level: 0,
        terms: { response_hours: 2, credits: 10 },
      },
      "C-2": {
        case_id: "C-2",
        title: "Billing",
        plan: "basic",
        assignee_id: null,
        level: 2,
        terms: { response_hours: 24, credits: 1 },
      },
    },
    next_case_number: 3,
  });
  const open = tool(
    "open_support_case",
    "Open a case. It starts unassigned, at level 0, with the terms of its plan.",
    { title: text, plan: { type: "string", enum: ["gold", "basic"] } },
  );
  const own = tool("assign_support_case", "Assign a case to an agent.", { case_id: text, agent_id: text });

  it("copies the linked record and takes the values the description gives", async () => {
    const { after } = await call(world(desk(), [open]), "open_support_case", {
      title: "Login",
      plan: "gold",
    });
    const made = Object.values(after.cases as Records).find((c) => c.title === "Login");
    expect(made).toMatchObject({
      plan: "gold",
      level: 0,
      assignee_id: null,
      terms: { response_hours: 2, credits: 10 },
    });
  });

  it("assigns to the field named for the assignment", async () => {
    const toolset = world(desk(), [own]);
    const done = await call(toolset, "assign_support_case", { case_id: "C-2", agent_id: "A1" });
    expect((done.after.cases as Records)["C-2"]?.assignee_id).toBe("A1");
  });
});

describe("honest verdicts for what a tool leaves out", () => {
  const shelf = () => ({
    shelves: {
      S1: { shelf_id: "S1", books: [{ isbn: "1", title: "A" }], label: "fiction" },
      S2: { shelf_id: "S2", books: [], label: "poetry" },
    },
  });

  it("names an argument no effect reads", async () => {
    const get = tool("get_shelf", "Get a shelf.", { shelf_id: text, as_of: text });
    const { report } = await call(world(shelf(), [get]), "get_shelf", { shelf_id: "S1" });
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join("\n")).toContain("as_of");
  });

  it("names what the description promises and no record keeps", async () => {
    const get = tool("get_shelf", "Get a shelf with its label and the number of books on it.", {
      shelf_id: text,
    });
    const { report } = await call(world(shelf(), [get]), "get_shelf", { shelf_id: "S1" });
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join("\n")).toContain("the number or sum of books");
  });
});

describe("points earned into two numbers and a log, and a list kept by who the verb was done to", () => {
  const club = () => ({
    members: {
      U1: { member_id: "U1", miles_balance: 100, lifetime_miles: 900 },
      U2: { member_id: "U2", miles_balance: 0, lifetime_miles: 50 },
    },
    entries: [
      { entry_id: "E-1", member_id: "U1", kind: "earn", miles: 100 },
      { entry_id: "E-2", member_id: "U2", kind: "spend", miles: -20 },
    ],
    trips: {
      T1: { trip_id: "T1", seats: 3, booked: ["U2"] },
      T2: { trip_id: "T2", seats: 1, booked: [] as string[] },
    },
  });
  const earn = tool(
    "earn_member_miles",
    "Credit miles to a member. Adds to both the miles balance and lifetime miles, and records an `earn` entry.",
    { member_id: text, miles: integer },
  );
  const book = tool("book_member_on_trip", "Book a member on a trip.", { member_id: text, trip_id: text });

  it("moves both numbers and logs the entry of the kind named", async () => {
    const { after } = await call(world(club(), [earn]), "earn_member_miles", { member_id: "U2", miles: 40 });
    expect((after.members as Records).U2).toMatchObject({ miles_balance: 40, lifetime_miles: 90 });
    expect((after.entries as Array<Record<string, unknown>>).at(-1)).toMatchObject({
      entry_id: "E-3",
      member_id: "U2",
      kind: "earn",
      miles: 40,
    });
  });

  it("adds the member to the trip's list named by the verb's participle", async () => {
    const { after } = await call(world(club(), [book]), "book_member_on_trip", {
      member_id: "U1",
      trip_id: "T1",
    });
    expect((after.trips as Records).T1?.booked).toEqual(["U2", "U1"]);
  });
});

describe("a list kept two holders down", () => {
  const drive = () => ({
    drives: {
      d1: {
        drive: "d1",
        files: {
          "a.txt": { name: "a.txt", revisions: [{ rev: "r1", size: 3, at: "2026-01-01T00:00:00Z" }] },
          "b.txt": { name: "b.txt", revisions: [{ rev: "r1", size: 5, at: "2026-01-02T00:00:00Z" }] },
        },
      },
    },
  });
  const revisions = tool("list_file_revisions", "List the revisions of a file.", { drive: text, name: text });

  it("answers the holder's list, named by both holders", async () => {
    const { answer } = await call(world(drive(), [revisions]), "list_file_revisions", {
      drive: "d1",
      name: "b.txt",
    });
    expect(answer).toEqual([{ rev: "r1", size: 5, at: "2026-01-02T00:00:00Z" }]);
  });
});

describe("a move with one side named by its direction and the other plainly", () => {
  const jars = () => ({
    jars: { J1: { jar_id: "J1", balance: 50 }, J2: { jar_id: "J2", balance: 10 } },
  });

  it("takes from the plain one what goes to the named destination", async () => {
    const move = tool("transfer", "Transfer money between jars.", {
      jar_id: text,
      to_jar_id: text,
      amount: integer,
    });
    const { after } = await call(world(jars(), [move]), "transfer", {
      jar_id: "J1",
      to_jar_id: "J2",
      amount: 20,
    });
    expect(after.jars).toEqual({ J1: { jar_id: "J1", balance: 30 }, J2: { jar_id: "J2", balance: 30 } });
  });

  it("adds to the plain one what comes from the named source", async () => {
    const deposit = tool("deposit_to_jar", "Deposit money into a jar from another jar.", {
      source_jar_id: text,
      jar_id: text,
      amount: integer,
    });
    const { after } = await call(world(jars(), [deposit]), "deposit_to_jar", {
      source_jar_id: "J1",
      jar_id: "J2",
      amount: 5,
    });
    expect(after.jars).toEqual({ J1: { jar_id: "J1", balance: 45 }, J2: { jar_id: "J2", balance: 15 } });
  });
});

describe("a merge where one record's list is null and a text is empty", () => {
  const pets = () => ({
    pets: {
      P1: { pet_id: "P1", name: "Biscuit", nicknames: ["Bis"], notes: "" },
      P2: { pet_id: "P2", name: "Biscuit", nicknames: null, notes: "shy" },
      P3: { pet_id: "P3", name: "Pepper", nicknames: ["Pep"], notes: "loud" },
    },
  });
  const merge = tool("merge_pets", "Merge a duplicate pet into a primary one.", {
    primary_id: text,
    duplicate_id: text,
  });

  it("keeps both lists' values and fills the empty text", async () => {
    const { after } = await call(world(pets(), [merge]), "merge_pets", {
      primary_id: "P2",
      duplicate_id: "P1",
    });
    expect((after.pets as Records).P2).toMatchObject({ nicknames: ["Bis"], notes: "shy" });
    const other = await call(world(pets(), [merge]), "merge_pets", { primary_id: "P1", duplicate_id: "P3" });
    expect((other.after.pets as Records).P1).toMatchObject({ nicknames: ["Bis", "Pep"], notes: "loud" });
  });
});
