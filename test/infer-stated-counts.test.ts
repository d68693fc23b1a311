import { describe, expect, it } from "vitest";
import { call, failure, integer, outputs, text, tool, world } from "./support/infer-world.js";

/** Counts by status, assignments to a person, rosters and the fields a status needs, as the docs state them. */
const shop = () => ({
  repair_jobs: {
    "J-1": { device: "kettle", status: "waiting", technician: null },
    "J-2": { device: "toaster", status: "fixing", technician: "ana" },
    "J-3": { device: "lamp", status: "done", technician: "ana" },
    "J-4": { device: "radio", status: "waiting", technician: "ben" },
  },
  repair_technicians: ["ana", "ben", "cho"],
});

describe("counts of records by the values of a field", () => {
  const count = tool(
    "repair_count_jobs",
    "Count jobs per status, optionally for one technician only.",
    { technician: text },
    [],
    [],
    outputs({ waiting: integer, fixing: integer, done: integer, returned: integer, total: integer }),
  );
  const setStatus = tool("repair_set_status", "Change a job's status.", {
    job_id: text,
    status: { type: "string", enum: ["waiting", "fixing", "done", "returned"] },
  });

  it("counts the matches holding each value an output is named for, values of another tool's enum too", async () => {
    const all = await call(world(shop(), [count, setStatus]), "repair_count_jobs", {});
    expect(all.answer).toEqual({ waiting: 2, fixing: 1, done: 1, returned: 0, total: 4 });
    const ana = await call(world(shop(), [count, setStatus]), "repair_count_jobs", { technician: "ana" });
    expect(ana.answer).toEqual({ waiting: 0, fixing: 1, done: 1, returned: 0, total: 2 });
  });
});

describe("a job given to a person, and the statuses that need one", () => {
  const assign = tool(
    "repair_assign_job",
    "Assign a job to a technician. Sets the job's technician. Errors: JOB_NOT_FOUND · TECHNICIAN_NOT_FOUND (name not in repair_technicians).",
    { job_id: text, technician: text },
  );
  const setStatus = tool(
    "repair_set_status",
    "Change a job's status. Error codes: JOB_NOT_FOUND · STATUS_UNCHANGED (already in that status) · NO_TECHNICIAN (fixing or finishing a job with no technician).",
    { job_id: text, status: { type: "string", enum: ["waiting", "fixing", "done", "returned"] } },
  );

  it("answers an unknown person with the not-found error that names the roster", async () => {
    const unknown = await call(world(shop(), [assign]), "repair_assign_job", {
      job_id: "J-1",
      technician: "zed",
    });
    expect(failure(unknown.outcome)).toBe("TECHNICIAN_NOT_FOUND");
  });

  it("reads a one-word code in a list of codes, and refuses the values it names while the field is empty", async () => {
    const none = await call(world(shop(), [setStatus]), "repair_set_status", {
      job_id: "J-1",
      status: "fixing",
    });
    expect(failure(none.outcome)).toBe("NO_TECHNICIAN");
    const fine = await call(world(shop(), [setStatus]), "repair_set_status", {
      job_id: "J-4",
      status: "fixing",
    });
    expect((fine.after.repair_jobs as Record<string, { status: string }>)["J-4"]?.status).toBe("fixing");
    const back = await call(world(shop(), [setStatus]), "repair_set_status", {
      job_id: "J-1",
      status: "returned",
    });
    expect(back.outcome.status).toBe("applied");
  });

  const agents = () => ({
    desks: { D1: { topic: "billing", assignee: null }, D2: { topic: "returns", assignee: "kim" } },
    agents: ["kim", "lou"],
  });
  const staff = tool("assign_desk", "Give a desk to an agent. Errors: DESK_NOT_FOUND.", {
    desk_id: text,
    agent: text,
  });

  it("sets the field named for the one the action is done to from a person's argument", async () => {
    const staffed = await call(world(agents(), [staff]), "assign_desk", { desk_id: "D1", agent: "lou" });
    expect((staffed.after.desks as Record<string, { assignee: string }>).D1?.assignee).toBe("lou");
  });
});

describe("what a roster change answers", () => {
  const remove = tool(
    "repair_remove_technician",
    "Remove a technician from the roster. Errors: TECHNICIAN_NOT_FOUND.",
    { technician: text },
    ["technician"],
    [],
    outputs({ removed: text, technicians: { type: "array", items: text } }),
  );

  it("answers the value taken out under the output named for the removal", async () => {
    const done = await call(world(shop(), [remove]), "repair_remove_technician", { technician: "ben" });
    expect(done.answer).toMatchObject({ removed: "ben" });
    expect(done.after.repair_technicians).toEqual(["ana", "cho"]);
  });
});

describe("a queue a making verb appends to, and errors named for a status", () => {
  const depot = () => ({
    buses: {
      "BUS-7": { route: "12", status: "parked" },
      "BUS-9": { route: "40", status: "servicing" },
      "BUS-3": { route: "12", status: "running" },
    },
    wash_line: ["BUS-3"],
  });
  const enqueue = tool(
    "enqueue_bus",
    "Append a bus to the end of the wash line (`wash_line`). Returns {bus_id, position}: position is its 1-based place in the line. Errors: BUS_NOT_FOUND; ALREADY_QUEUED if it is already in the line.",
    { bus_id: text },
    ["bus_id"],
    [],
    outputs({ bus_id: text, position: integer }),
  );

  it("adds the value to the list the opening sentence names in code, and answers its place", async () => {
    const queued = await call(world(depot(), [enqueue]), "enqueue_bus", { bus_id: "BUS-7" });
    expect(queued.after.wash_line).toEqual(["BUS-3", "BUS-7"]);
    expect(queued.after.buses).toEqual(depot().buses);
    expect(queued.answer).toMatchObject({ position: 2 });
    const twice = await call(world(depot(), [enqueue]), "enqueue_bus", { bus_id: "BUS-3" });
    expect(failure(twice.outcome)).toBe("ALREADY_QUEUED");
  });

  const dispatch = tool(
    "set_bus_route",
    "Set the route a bus runs. Errors: BUS_NOT_FOUND · BUS_RUNNING — it is out on a route · BUS_IN_SERVICING.",
    { bus_id: text, route: text },
  );

  it("refuses a record in the status a code of its noun names", async () => {
    const running = await call(world(depot(), [dispatch]), "set_bus_route", { bus_id: "BUS-3", route: "7" });
    expect(failure(running.outcome)).toBe("BUS_RUNNING");
    const servicing = await call(world(depot(), [dispatch]), "set_bus_route", {
      bus_id: "BUS-9",
      route: "7",
    });
    expect(failure(servicing.outcome)).toBe("BUS_IN_SERVICING");
    const sent = await call(world(depot(), [dispatch]), "set_bus_route", { bus_id: "BUS-7", route: "7" });
    expect((sent.after.buses as Record<string, { route: string }>)["BUS-7"]?.route).toBe("7");
  });
});

describe("a tool described by a Python docstring", () => {
  const cellar = () => ({
    cellar_bottles: { "BRL-1": { wine: "Rioja", count: 6 }, "BRL-2": { wine: "Barolo", count: 2 } },
    cellar_prices: { "BRL-1": 1800, "BRL-2": 5400, "BRL-9": 900 },
    cellar_wishlist: ["BRL-9"],
  });
  const wish = tool(
    "cellar_add_to_wishlist",
    "Append a bottle code to the end of the wishlist.\n\nArgs:\n    code: Bottle code with a price in cellar_prices.\n\nReturns:\n    wishlist: the full list after the change.\n\nRaises:\n    UNKNOWN_CODE: no price for code.\n    ALREADY_WISHED: code is already on the wishlist.",
    { code: text },
    ["code"],
    [],
    outputs({ wishlist: { type: "array", items: text } }),
  );

  it("reads the Raises section and the Args section, and checks a key against the map of values it names", async () => {
    const priced = await call(world(cellar(), [wish]), "cellar_add_to_wishlist", { code: "BRL-2" });
    expect(priced.after.cellar_wishlist).toEqual(["BRL-9", "BRL-2"]);
    const unpriced = await call(world(cellar(), [wish]), "cellar_add_to_wishlist", { code: "BRL-5" });
    expect(failure(unpriced.outcome)).toBe("UNKNOWN_CODE");
    const twice = await call(world(cellar(), [wish]), "cellar_add_to_wishlist", { code: "BRL-9" });
    expect(failure(twice.outcome)).toBe("ALREADY_WISHED");
  });

  const bottle = tool(
    "cellar_get_bottle",
    "Get one bottle. Read-only.\n\nArgs:\n    code: Bottle code.\n\nRaises:\n    NOT_STOCKED: the cellar has no bottle in code.",
    { code: text },
  );

  it("takes a NOT_ code for nothing kept under the argument as the read's not-found error", async () => {
    const none = await call(world(cellar(), [bottle]), "cellar_get_bottle", { code: "BRL-7" });
    expect(failure(none.outcome)).toBe("NOT_STOCKED");
    const found = await call(world(cellar(), [bottle]), "cellar_get_bottle", { code: "BRL-1" });
    expect(found.answer).toMatchObject({ wine: "Rioja", count: 6 });
  });
});

describe("invoices: what a new one starts with, a void, and a balance the description sums", () => {
  const books = () => ({
    invoices: [
      { id: "I-1", client: "C-1", status: "sent", currency: "EUR", total_cents: 5000, lines: [{ qty: 1 }] },
      { id: "I-2", client: "C-1", status: "paid", currency: "EUR", total_cents: 7000, lines: [{ qty: 2 }] },
      { id: "I-3", client: "C-1", status: "sent", currency: "EUR", total_cents: 1500, lines: [{ qty: 1 }] },
      { id: "I-4", client: "C-2", status: "draft", currency: "EUR", total_cents: 900, lines: [{ qty: 3 }] },
    ],
    clients: { "C-1": { name: "Ada" }, "C-2": { name: "Bo" } },
  });
  const create = tool(
    "create_invoice",
    "Creates a draft invoice for a client. It starts with no lines, total_cents 0, and currency defaults to EUR when not given. Errors: CLIENT_NOT_FOUND.",
    { client: text, currency: text },
    ["client"],
  );
  const voided = tool(
    "void_invoice",
    "Voids an invoice; the record is kept. Voiding a paid invoice fails with CANNOT_VOID_PAID; an unknown id fails with INVOICE_NOT_FOUND.",
    { invoice_id: text },
  );
  const balance = tool(
    "client_balance",
    "Computes what a client owes: the sum of total_cents over that client's invoices whose status is sent. Returns client, owed_cents and open_count. Errors: CLIENT_NOT_FOUND.",
    { client: text },
    ["client"],
    [],
    outputs({ client: text, owed_cents: integer, open_count: integer }),
  );

  it("starts the number a list of starting values gives, and a default written as a bare code", async () => {
    const made = await call(world(books(), [create]), "create_invoice", { client: "C-2" });
    expect((made.after.invoices as unknown[])[4]).toMatchObject({
      total_cents: 0,
      currency: "EUR",
      lines: [],
    });
  });

  it("voids by marking the record void, refusing a paid one", async () => {
    const done = await call(world(books(), [voided]), "void_invoice", { invoice_id: "I-1" });
    expect((done.after.invoices as Array<{ status: string }>)[0]?.status).toBe("void");
    const paid = await call(world(books(), [voided]), "void_invoice", { invoice_id: "I-2" });
    expect(failure(paid.outcome)).toBe("CANNOT_VOID_PAID");
  });

  it("sums into the output of the same unit and counts what it sums over", async () => {
    const owed = await call(world(books(), [balance]), "client_balance", { client: "C-1" });
    expect(owed.answer).toMatchObject({ owed_cents: 6500, open_count: 2 });
  });
});

describe("a read that sums rows over a period", () => {
  const meter = () => ({
    meter_log: [
      { date: "2026-04-01", hot_litres: 40, cold_litres: 120 },
      { date: "2026-04-02", hot_litres: 35, cold_litres: 90 },
      { date: "2026-04-03", hot_litres: 50, cold_litres: 150 },
    ],
  });
  const summary = tool(
    "meter_usage_summary",
    "Sum metered water over meter_log days with start_date <= date <= end_date (each bound optional). Returns {days, hot_litres, cold_litres, total_litres} where days is the number of rows counted. Errors: INVALID_RANGE if start_date > end_date.",
    { start_date: text, end_date: text },
    [],
    [],
    outputs({ days: integer, hot_litres: integer, cold_litres: integer, total_litres: integer }),
  );

  it("sums the fields named in the answer, counts the rows, totals the unit, and allows equal bounds", async () => {
    const two = await call(world(meter(), [summary]), "meter_usage_summary", {
      start_date: "2026-04-02",
      end_date: "2026-04-03",
    });
    expect(two.answer).toEqual({ days: 2, hot_litres: 85, cold_litres: 240, total_litres: 325 });
    const one = await call(world(meter(), [summary]), "meter_usage_summary", {
      start_date: "2026-04-01",
      end_date: "2026-04-01",
    });
    expect(one.answer).toMatchObject({ days: 1, total_litres: 160 });
    const backwards = await call(world(meter(), [summary]), "meter_usage_summary", {
      start_date: "2026-04-03",
      end_date: "2026-04-01",
    });
    expect(failure(backwards.outcome)).toBe("INVALID_RANGE");
  });
});
