import { describe, expect, it } from "vitest";
import {
  call,
  failure,
  inferred,
  integer,
  number,
  offlineAnswer,
  outputs,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/** A deli counter: a singleton, a line of tickets kept as a list with a number beside it, and a scale. */
const deli = () => ({
  counter: { open: true, served_today: 12 },
  scale: { tare_g: 0, unit: "g" },
  line: [
    { id: "T-4", name: "Ana", state: "waiting" },
    { id: "T-5", name: "Bo", state: "serving" },
    { id: "T-6", name: "Cy", state: "waiting" },
  ],
  next_number: 7,
});

describe("answers the docs define by a count after the field's name", () => {
  it("counts the entries of a named list that hold the stated value", async () => {
    const status = tool(
      "deli_get_status",
      "Snapshot of the counter: `open` and `served_today` as stored, and `waiting`: the count of tickets in `line` whose `state` is `waiting`.",
      {},
      [],
      [],
      outputs({ open: { type: "boolean" }, served_today: integer, waiting: integer }),
    );
    const read = await call(world(deli(), [status]), "deli_get_status", {});
    expect(read.answer).toEqual({ open: true, served_today: 12, waiting: 2 });
    expect(read.report.verdict).toBe("inferred");
  });

  it("counts what is left after a removal, not the one record the call named", async () => {
    const cancel = tool(
      "deli_cancel_ticket",
      "Removes a ticket from `line` by id. Responds with the `id` and `remaining`, the number of tickets still in `line`.",
      { id: text },
      ["id"],
      [],
      outputs({ id: text, remaining: integer }),
    );
    const done = await call(world(deli(), [cancel]), "deli_cancel_ticket", { id: "T-4" });
    expect(done.after.line).toEqual([
      { id: "T-5", name: "Bo", state: "serving" },
      { id: "T-6", name: "Cy", state: "waiting" },
    ]);
    expect(done.answer).toMatchObject({ remaining: 2 });
  });

  it("counts the whole list when the call names one of its records by key", async () => {
    const get = tool(
      "deli_get_ticket",
      "One ticket by id, with `line_length`: the number of entries in `line`.",
      { id: text },
      ["id"],
      [],
      outputs({ id: text, name: text, line_length: integer }),
    );
    const read = await call(world(deli(), [get]), "deli_get_ticket", { id: "T-5" });
    expect(read.answer).toMatchObject({ name: "Bo", line_length: 3 });
  });
});

describe("a create that says where its record goes", () => {
  const enqueue = tool(
    "deli_enqueue_customer",
    "Puts a customer at the back of `line` with state `waiting`; the ticket is numbered from `next_number`.",
    { name: text },
    ["name"],
    [],
    outputs({ id: text }),
  );

  it("files the record in the list the description names, its id from the number beside it", async () => {
    const made = await call(world(deli(), [enqueue]), "deli_enqueue_customer", { name: "Di" });
    expect((made.after.line as unknown[]).at(-1)).toEqual({ id: "T-7", name: "Di", state: "waiting" });
    expect(made.after.next_number).toBe(8);
  });
});

describe("a verb toolsim does not know, whose docs say where the value is stored", () => {
  const tare = tool(
    "deli_tune_scale",
    "Keeps the new tare in `scale.tare_g`; it may be -50 to 50 grams, and anything else is refused with `OUT_OF_RANGE`.",
    { grams: integer },
    ["grams"],
    [],
    outputs({ tare_g: integer }),
  );

  it("sets that field, and refuses a value outside the band with the code it is refused with", async () => {
    const set = await call(world(deli(), [tare]), "deli_tune_scale", { grams: -8 });
    expect((set.after.scale as Record<string, unknown>).tare_g).toBe(-8);
    const far = await call(world(deli(), [tare]), "deli_tune_scale", { grams: 80 });
    expect(failure(far.outcome)).toBe("OUT_OF_RANGE");
  });
});

/** A hive on a scale: each hive keeps its weighings. */
const apiary = () => ({
  hives: [
    {
      id: "H1",
      name: "Clover",
      weighings: [
        { day: "2024-05-01", weight_kg: 31.5 },
        { day: "2024-05-02", weight_kg: 32.25 },
        { day: "2024-05-03", weight_kg: 31.0 },
      ],
    },
    { id: "H2", name: "Heather", weighings: [] },
  ],
});

describe("statistics over a record's own list", () => {
  const get = tool(
    "apiary_get_hive",
    "One hive, with the `latest_weight_kg`, `lowest_kg`, `highest_kg` and `mean_weight_kg` (rounded to 1 decimal place) of its `weighings`, each null while it has none. Unknown hive: `NOT_FOUND`.",
    { id: text },
    ["id"],
    [],
    outputs({
      id: text,
      name: text,
      latest_weight_kg: number,
      lowest_kg: number,
      highest_kg: number,
      mean_weight_kg: number,
    }),
  );

  it("answers the last, lowest, highest and mean of the number the items keep", async () => {
    const read = await call(world(apiary(), [get]), "apiary_get_hive", { id: "H1" });
    expect(read.answer).toMatchObject({
      latest_weight_kg: 31,
      lowest_kg: 31,
      highest_kg: 32.25,
      mean_weight_kg: 31.6,
    });
    expect(read.report.verdict).toBe("inferred");
  });

  it("answers null for an empty list, and an unknown id with the code after the colon", async () => {
    const empty = await call(world(apiary(), [get]), "apiary_get_hive", { id: "H2" });
    expect(empty.answer).toMatchObject({ latest_weight_kg: null, mean_weight_kg: null });
    const none = await call(world(apiary(), [get]), "apiary_get_hive", { id: "H9" });
    expect(failure(none.outcome)).toBe("NOT_FOUND");
  });
});

describe("a refusal at both ends of a number", () => {
  it("refuses a value below the lower or above the upper bound", async () => {
    const weigh = tool(
      "apiary_log_weighing",
      "Appends a weighing to the hive's `weighings`. Errors: `NOT_FOUND`; `SCALE_FAULT` if `weight_kg` is under 0 or over 150.",
      { id: text, day: text, weight_kg: number },
    );
    const args = (weight_kg: number) => ({ id: "H1", day: "2024-05-04", weight_kg });
    const low = await call(world(apiary(), [weigh]), "apiary_log_weighing", args(-1));
    expect(failure(low.outcome)).toBe("SCALE_FAULT");
    const high = await call(world(apiary(), [weigh]), "apiary_log_weighing", args(151));
    expect(failure(high.outcome)).toBe("SCALE_FAULT");
    const fine = await call(world(apiary(), [weigh]), "apiary_log_weighing", args(33));
    expect(fine.outcome.status).toBe("applied");
  });
});

describe("a deposit topped up, and a record retired", () => {
  const shed = () => ({
    members: { "M-1": { name: "Ida", balance: 30 } },
    kits: {
      "K-1": { name: "Drill", status: "available", uses: 4 },
      "K-2": { name: "Saw", status: "lent", uses: 9 },
    },
  });

  it("checks a range told as greater than one number and no more than another, with the code after 'otherwise'", async () => {
    const top = tool(
      "shed_top_up_balance",
      "Credits a member's `balance` with `amount`, which has to be more than 0 and at most 300, otherwise `INVALID_AMOUNT`. Unknown id → `NOT_FOUND`.",
      { member_id: text, amount: number },
      ["member_id", "amount"],
      [],
      outputs({ member_id: text, balance: number }),
    );
    const zero = await call(world(shed(), [top]), "shed_top_up_balance", { member_id: "M-1", amount: 0 });
    expect(failure(zero.outcome)).toBe("INVALID_AMOUNT");
    const most = await call(world(shed(), [top]), "shed_top_up_balance", { member_id: "M-1", amount: 300 });
    expect(most.answer).toMatchObject({ balance: 330 });
    const nobody = await call(world(shed(), [top]), "shed_top_up_balance", { member_id: "M-9", amount: 5 });
    expect(failure(nobody.outcome)).toBe("NOT_FOUND");
  });

  it("reads the verb a description opens with after an adverb, and answers a constant the docs give in code", async () => {
    const retire = tool(
      "shed_retire_kit",
      "Finally removes a kit from the books. Lent kits cannot be retired (`KIT_LENT`). Answers with the kit's id, `retired: true` and its `uses`.",
      { kit_id: text },
      ["kit_id"],
      [],
      outputs({ kit_id: text, retired: { type: "boolean" }, uses: integer }),
    );
    const gone = await call(world(shed(), [retire]), "shed_retire_kit", { kit_id: "K-1" });
    expect(gone.after.kits).not.toHaveProperty("K-1");
    expect(gone.answer).toMatchObject({ retired: true, uses: 4 });
    expect(gone.report.verdict).toBe("inferred");
  });
});

describe("each listed item's count of its own list", () => {
  const school = () => ({
    courses: [
      { id: "C1", title: "Clay", roster: ["a", "b"], waitlist: ["c"] },
      { id: "C2", title: "Glass", roster: [], waitlist: [] },
    ],
  });

  it("answers a field the docs call a list's length, where the schema spells the rows", async () => {
    const list = tool(
      "school_list_courses",
      "All courses. For each course you get `id`, `title`, `signed_up` (roster size) and `queued` (waitlist size).",
      {},
      [],
      [],
      outputs({
        courses: {
          type: "array",
          items: {
            type: "object",
            properties: { id: text, title: text, signed_up: integer, queued: integer },
          },
        },
      }),
    );
    const read = await call(world(school(), [list]), "school_list_courses", {});
    expect(read.answer).toMatchObject({
      courses: [
        { id: "C1", signed_up: 2, queued: 1 },
        { id: "C2", signed_up: 0, queued: 0 },
      ],
    });
  });

  it("reads the rows' fields from braces in the description where the schema leaves them bare", async () => {
    const list = tool(
      "school_list_courses",
      "All courses.\n\nReturns:\n  courses - array of {id, title, seats_taken} where seats_taken is the size of its roster.",
      {},
      [],
      [],
      outputs({ courses: { type: "array", items: { type: "object" } } }),
    );
    const read = await call(world(school(), [list]), "school_list_courses", {});
    expect(read.answer).toMatchObject({
      courses: [
        { id: "C1", seats_taken: 2 },
        { id: "C2", seats_taken: 0 },
      ],
    });
  });
});

describe("a product's name before every tool's name", () => {
  const alerts = () => ({
    alerts: {
      "A-1": { title: "Disk full", status: "active" },
      "A-2": { title: "CPU hot", status: "active" },
    },
  });
  const get = tool("acme_get_alert", "One alert by id.", { alert_id: text });
  const list = tool("acme_list_alerts", "All alerts.", {}, []);

  it("is not the verb: the verb the description opens with is the one after it, and is never a read", () => {
    const snooze = tool("acme_snooze_search_alert", "Snoozes an alert until tomorrow.", { alert_id: text });
    const { report } = inferred(world(alerts(), [snooze, get, list]), "acme_snooze_search_alert");
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(/its verb \(snooze\)/);
  });
});

describe("an answer said to hold what no record keeps", () => {
  it("is partly known when the record is returned 'with' a field it lacks", () => {
    const resolve = tool(
      "desk_resolve_alert",
      "Resolves an alert: status active → resolved. Returns the alert with open_minutes.",
      { alert_id: text },
    );
    const state = { alerts: { "A-1": { title: "Disk full", status: "active" } } };
    const { report } = inferred(world(state, [resolve]), "desk_resolve_alert");
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(/keep nowhere: open minute/);
  });
});

describe("a schema that lists the failure's fields beside the success's", () => {
  it("answers a success without them, and does not count them as guesses", async () => {
    const state = { alerts: { "A-1": { title: "Disk full", status: "active" } } };
    const get = tool(
      "desk_get_alert",
      "One alert by id. Error shape: {error, message}.",
      { alert_id: text },
      ["alert_id"],
      [],
      outputs({ title: text, status: text, error: text }),
    );
    const ran = await call(world(state, [get]), "desk_get_alert", { alert_id: "A-1" });
    expect(ran.report.verdict).toBe("inferred");
    const simulated = offlineAnswer(ran, { alert_id: "A-1" });
    expect(simulated.kind === "success" ? simulated.result : undefined).toEqual({
      title: "Disk full",
      status: "active",
    });
  });

  it("leaves them out of a success it synthesizes", async () => {
    const state = { alerts: { "A-1": { title: "Disk full", status: "active" } } };
    const probe = tool(
      "desk_probe_alerting",
      "Sends a probe through the alerting pipeline.",
      {},
      [],
      [],
      outputs({ latency_ms: integer, error: text, error_code: text }),
    );
    const ran = await call(world(state, [probe]), "desk_probe_alerting", {});
    const simulated = offlineAnswer(ran, {});
    const result = simulated.kind === "success" ? (simulated.result as Record<string, unknown>) : {};
    expect(Object.keys(result)).toEqual(["latency_ms"]);
  });
});

describe("an amount the description says moves a number of the record", () => {
  const store = () => ({
    solvents: {
      "ACE-1L": { name: "Acetone", quantity: 900, min_level: 200 },
      "IPA-5L": { name: "Isopropanol", quantity: 400, min_level: 1000 },
    },
  });
  const bottles = (after: Record<string, unknown>) => after.solvents as Record<string, { quantity: number }>;
  const get = tool("get_solvent", "One solvent by code.", { code: text });

  it("takes it from the number named, refusing an amount that is not above the least given", async () => {
    const take = tool(
      "withdraw_solvent",
      "Draws some of a solvent. An unknown code gives NOT_FOUND; amount must be > 0 (INVALID_AMOUNT) and not above what is held (INSUFFICIENT_STOCK). When it succeeds, quantity is reduced by amount.",
      { code: text, amount: number },
    );
    const taken = await call(world(store(), [take, get]), "withdraw_solvent", {
      code: "IPA-5L",
      amount: 150,
    });
    expect(bottles(taken.after)["IPA-5L"]?.quantity).toBe(250);
    const none = await call(world(store(), [take, get]), "withdraw_solvent", { code: "IPA-5L", amount: 0 });
    expect(failure(none.outcome)).toBe("INVALID_AMOUNT");
    const much = await call(world(store(), [take, get]), "withdraw_solvent", { code: "IPA-5L", amount: 500 });
    expect(failure(much.outcome)).toBe("INSUFFICIENT_STOCK");
  });

  it("adds it to the number the description names", async () => {
    const receive = tool(
      "restock_solvent",
      "Logs a delivery and adds amount to the bottle's quantity; amount must be > 0 (INVALID_AMOUNT).",
      { code: text, amount: number },
    );
    const added = await call(world(store(), [receive, get]), "restock_solvent", {
      code: "ACE-1L",
      amount: 250,
    });
    expect(bottles(added.after)["ACE-1L"]?.quantity).toBe(1150);
  });
});

describe("a name that names only a field of the record an argument names", () => {
  it("changes that one record, found by the key the toolset's reads name it by", async () => {
    const state = { readers: { ida: { name: "Ida", shelf: ["Dune"] }, bo: { name: "Bo", shelf: [] } } };
    const get = tool("get_reader", "One reader by handle.", { handle: text });
    const add = tool("add_to_shelf", "Adds a title to a reader's shelf.", { handle: text, title: text });
    const added = await call(world(state, [get, add]), "add_to_shelf", { handle: "ida", title: "Emma" });
    expect((added.after.readers as Record<string, { shelf: string[] }>).ida?.shelf).toEqual(["Dune", "Emma"]);
  });
});

describe("a count named for a list at the top of the state", () => {
  const bakery = () => ({ counter: { open: true }, waitlist: ["Ana", "Ben"] });
  const show = tool(
    "get_waitlist",
    "Shows who is waiting for a table. Returns {waitlist, waitlist_size}.",
    {},
    [],
    [],
    outputs({ waitlist: { type: "array", items: text }, waitlist_size: integer }),
  );
  const join = tool(
    "join_waitlist",
    "Adds a name to the back of the waitlist. Returns {name, waitlist_size, number_of_tables}.",
    { name: text },
    ["name"],
    [],
    outputs({ name: text, waitlist_size: integer, number_of_tables: integer }),
  );

  it("is the list's length", async () => {
    const shown = await call(world(bakery(), [show, join]), "get_waitlist", {});
    expect(shown.answer).toMatchObject({ waitlist: ["Ana", "Ben"], waitlist_size: 2 });
  });

  it("counts the list as the call left it, and only a list the state keeps under that name", async () => {
    const joined = await call(world(bakery(), [show, join]), "join_waitlist", { name: "Cy" });
    expect(joined.after.waitlist).toEqual(["Ana", "Ben", "Cy"]);
    expect(joined.answer).toMatchObject({ waitlist_size: 3 });
    expect(inferred(world(bakery(), [show, join]), "join_waitlist").report.notes).not.toContainEqual(
      expect.stringContaining("number_of_tables"),
    );
  });
});
