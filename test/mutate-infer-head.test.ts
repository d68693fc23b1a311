import { describe, expect, it } from "vitest";
import { inferToolset } from "../src/infer/index.js";
import {
  call,
  error,
  failure,
  inferred,
  integer,
  number,
  outputs,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * What the first part of `src/infer/infer.ts` decides (lines 1–639: `inferToolset`, the
 * references it reads from arguments, the worlds it reads from schemas, and `inferTool`'s
 * order of rules), tried in small worlds of its own.
 */

describe("arguments that name a record by what other records hold", () => {
  /** A dog groomer: appointments name their groomer by the login of one of the staff. */
  const salon = () =>
    world(
      {
        staff: [
          { login: "ana", name: "Ana", shift: "morning" },
          { login: "bo", name: "Bo", shift: "late" },
        ],
        appointments: [
          { id: 1, dog: "Rex", groomer: "ana" },
          { id: 2, dog: "Mia", groomer: "bo" },
        ],
      },
      [
        tool(
          "assign_appointment",
          "Give an appointment to another groomer.",
          { appointment_id: integer, groomer: text },
          undefined,
          [
            error("GROOMER_NOT_FOUND", "No such groomer on the staff."),
            error("APPOINTMENT_NOT_FOUND", "No such appointment."),
          ],
        ),
      ],
    );

  it("refuses a groomer the staff has no login for, and hands the appointment to one it has", async () => {
    const unknown = await call(salon(), "assign_appointment", { appointment_id: 1, groomer: "zed" });
    expect(failure(unknown.outcome)).toBe("GROOMER_NOT_FOUND");
    expect(unknown.after.appointments).toEqual(salon().state.appointments);
    expect(unknown.report.notes).toContain("checks groomer exists (GROOMER_NOT_FOUND)");
    const known = await call(salon(), "assign_appointment", { appointment_id: 1, groomer: "bo" });
    expect(known.outcome.status).toBe("applied");
    expect(known.after.appointments).toEqual([
      { id: 1, dog: "Rex", groomer: "bo" },
      { id: 2, dog: "Mia", groomer: "bo" },
    ]);
  });

  it("checks no handler where the field holds the logins of the staff in one collection and of couriers in another", async () => {
    /** A shop whose orders go to its staff and whose returns go to couriers, each under `handler`. */
    const shop = world(
      {
        staff: [{ login: "ana" }, { login: "bo" }],
        couriers: [{ login: "zip" }, { login: "van" }],
        orders: [
          { id: 1, handler: "ana" },
          { id: 2, handler: "bo" },
        ],
        returns: [
          { id: 7, handler: "zip" },
          { id: 8, handler: "van" },
        ],
      },
      [
        tool(
          "assign_order",
          "Give an order to another handler.",
          { order_id: integer, handler: text },
          undefined,
          [error("HANDLER_NOT_FOUND", "No such handler.")],
        ),
      ],
    );
    const assigned = await call(shop, "assign_order", { order_id: 1, handler: "nobody" });
    expect(assigned.outcome.status).toBe("applied");
    expect((assigned.after.orders as State[])[0]).toEqual({ id: 1, handler: "nobody" });
    expect(assigned.report.gaps).toEqual(["documented error HANDLER_NOT_FOUND is answered by no effect"]);
  });

  /** A bakery: cakes and tarts kept in maps by their code, with no code field in the records. */
  const bakery = () =>
    world(
      {
        cakes: { carrot: { price: 30, stock: 2 }, lemon: { price: 25, stock: 0 } },
        tarts: { plum: { price: 12, stock: 4 }, lemon: { price: 9, stock: 1 } },
      },
      [
        tool("get_cake", "Show a cake.", { code: text }),
        tool("get_tart", "Show a tart.", { code: text }),
        tool("set_tart_price", "Set the price of a tart.", { code: text, price: number }),
      ],
    );

  it("reads a map's key by the name the other tools give it, in the map the tool's name names", async () => {
    const priced = await call(bakery(), "set_tart_price", { code: "lemon", price: 10 });
    expect(priced.report.verdict).toBe("inferred");
    expect(priced.after.tarts).toEqual({ plum: { price: 12, stock: 4 }, lemon: { price: 10, stock: 1 } });
    // the lemon cake, keyed alike in the other map, is left alone
    expect(priced.after.cakes).toEqual(bakery().state.cakes);
    expect(priced.answer).toEqual({ price: 10, stock: 1 });
    const missing = await call(bakery(), "set_tart_price", { code: "fig", price: 10 });
    expect(failure(missing.outcome)).toBe("TART_NOT_FOUND");
    expect(missing.after).toEqual(bakery().state);
  });
});

describe("what is emitted at the effects language a caller asks for", () => {
  /** A gym: members keep their lockers inside their record. */
  const gym = () =>
    world(
      {
        members: {
          m1: { id: "m1", name: "Ada", lockers: [{ locker_id: "L1", size: "small" }] },
          m2: { id: "m2", name: "Bea", lockers: [{ locker_id: "L2", size: "large" }] },
        },
      },
      [
        tool(
          "get_member_locker",
          "Show a member's locker.",
          { member_id: text, locker_id: text },
          undefined,
          [error("LOCKER_NOT_FOUND", "No such locker.")],
        ),
        tool("show_member_locker", "Show a member's locker.", { member_id: text, locker_id: text }),
        tool("multiply", "Multiply two numbers.", { a: number, b: number }),
      ],
    );

  it("at version 1, leaves out nested targets and answers, and says which documented errors go unanswered", () => {
    const { toolset, report } = inferToolset(gym(), { level: 1 });
    const entry = (name: string) => report.find((r) => r.tool === name);
    const found = (name: string) => toolset.tools.find((t) => t.name === name);
    const dropped =
      "read members/{member_id}/lockers/[locker_id={locker_id}]: needs effects language v2 (nested target members/{member_id}/lockers/[locker_id={locker_id}])";
    expect(entry("get_member_locker")?.verdict).toBe("partly");
    expect(entry("get_member_locker")?.gaps).toEqual([
      dropped,
      "documented error LOCKER_NOT_FOUND is answered by no effect",
    ]);
    // the not-found error inference would add is not added, as no effect answers it
    expect(entry("show_member_locker")?.gaps).toEqual([dropped]);
    expect(found("show_member_locker")?.errors).toEqual([]);
    expect(found("show_member_locker")?.inferred?.added).toEqual([]);
    expect(found("show_member_locker")?.effects).toEqual([
      { kind: "read", target: "members/{member_id}", require: [] },
    ]);
    // a computation answers only: nothing of it is left, and the tool is not inferred
    expect(entry("multiply")).toMatchObject({
      verdict: "not inferred",
      notes: ["computes its answer (a computation tool)"],
      gaps: ["respond: needs effects language v2 (a respond effect)"],
    });
    expect(found("multiply")?.effects).toEqual([]);
    expect(found("multiply")?.inferred).toBeUndefined();
  });

  it("at version 2, the same locker is read and its not-found error added", async () => {
    const read = await call(gym(), "show_member_locker", { member_id: "m2", locker_id: "L2" });
    expect(read.report.verdict).toBe("inferred");
    expect(read.answer).toEqual({ locker_id: "L2", size: "large" });
    expect(read.tool.errors.map((e) => e.code)).toEqual(["LOCKER_NOT_FOUND"]);
    const wrong = await call(gym(), "show_member_locker", { member_id: "m2", locker_id: "L1" });
    expect(failure(wrong.outcome)).toBe("LOCKER_NOT_FOUND");
  });
});

describe("the gaps a report lists", () => {
  /** A bike shop's repairs, and a dentist's patients. */
  const shop = () =>
    world(
      {
        repairs: { r1: { id: "r1", bike: "Cargo", status: "waiting" } },
        patients: { p1: { id: "p1", name: "Lu" } },
      },
      [
        tool(
          "get_repair",
          "Show a repair.",
          { repair_id: text },
          undefined,
          [],
          outputs({
            repair: {
              type: "object",
              properties: { id: text, bike: text, labour_cost: number, parts_cost: number },
            },
          }),
        ),
        tool(
          "get_patient",
          "Show a patient.",
          { patient_id: text },
          undefined,
          [],
          outputs({ name: text, next_visit: text, insurer: text }),
        ),
      ],
    );

  it("names every documented field no record keeps, and every guessed one, in one gap each", async () => {
    const repair = await call(shop(), "get_repair", { repair_id: "r1" });
    expect(repair.report.verdict).toBe("partly");
    expect(repair.report.gaps).toEqual([
      "documented, but kept by no record and given to no tool: repair.labour_cost, repair.parts_cost",
    ]);
    expect(repair.answer).toEqual({ repair: { id: "r1", bike: "Cargo", status: "waiting" } });
    const patient = await call(shop(), "get_patient", { patient_id: "p1" });
    expect(patient.report.gaps).toEqual(["guessed (synthesized): next_visit, insurer"]);
    expect(patient.report.guessed).toEqual(["next_visit", "insurer"]);
    expect(patient.tool.inferred).toMatchObject({ status: "partly", guessed: ["next_visit", "insurer"] });
  });

  it("reports a tool not inferred with no gaps and no drafts", () => {
    const { report } = inferred(
      world({ patients: { p1: { id: "p1", name: "Lu" } } }, [tool("polish", "Polish.")]),
      "polish",
    );
    expect(report.verdict).toBe("not inferred");
    expect(report.gaps).toEqual([]);
    expect(report.drafts).toEqual([]);
  });
});

describe("tokens a sign-in mints and the other tools take back", () => {
  /** A radio station: presenters sign in to rename the studios. */
  const station = () =>
    world(
      {
        session: { token: null, presenter_id: null },
        presenters: { p1: { presenter_id: "p1", username: "mo", password: "wave", show: "Breakfast" } },
        studios: { st1: { studio_id: "st1", name: "Studio A", on_air: false } },
      },
      [
        tool(
          "login",
          "Sign in a presenter.",
          { username: text, password: text },
          undefined,
          [error("BAD_LOGIN", "Wrong username or password.")],
          outputs({ token: text }),
        ),
        tool("rename_studio", "Rename a studio.", { token: text, studio_id: text, name: text }, undefined, [
          error("INVALID_TOKEN", "The token is not valid.", "the token is invalid", 401),
        ]),
        tool("logout", "Sign out.", { token: text }),
      ],
    );

  it("lets a presenter signed in rename a studio, and refuses a bad token before looking for the studio", async () => {
    const signedIn = await call(station(), "login", { username: "mo", password: "wave" });
    const token = (signedIn.answer as { token: string }).token;
    expect(token).toMatch(/^[0-9a-z]{12}$/);
    expect(signedIn.after.session).toEqual({ token, presenter_id: "p1" });
    const renamed = await call(
      station(),
      "rename_studio",
      { token, studio_id: "st1", name: "Studio B" },
      signedIn.after,
    );
    expect(renamed.outcome.status).toBe("applied");
    expect((renamed.after.studios as State).st1).toEqual({
      studio_id: "st1",
      name: "Studio B",
      on_air: false,
    });
    expect(renamed.report.notes).toContain(
      "refuses the call unless token is the token the state keeps (INVALID_TOKEN)",
    );
    const refused = await call(
      station(),
      "rename_studio",
      { token: "nope", studio_id: "st9", name: "X" },
      signedIn.after,
    );
    expect(failure(refused.outcome)).toBe("INVALID_TOKEN");
    expect(refused.after).toEqual(signedIn.after);
    const wrong = await call(station(), "login", { username: "mo", password: "static" });
    expect(failure(wrong.outcome)).toBe("BAD_LOGIN");
  });

  it("clears the token at sign-out, after which it renames nothing", async () => {
    const signedIn = await call(station(), "login", { username: "mo", password: "wave" });
    const token = (signedIn.answer as { token: string }).token;
    const out = await call(station(), "logout", { token }, signedIn.after);
    expect(out.after.session).toEqual({ token: null, presenter_id: "p1" });
    const late = await call(station(), "rename_studio", { token, studio_id: "st1", name: "Late" }, out.after);
    expect(failure(late.outcome)).toBe("INVALID_TOKEN");
    expect(failure((await call(station(), "logout", { token: "nope" }, signedIn.after)).outcome)).toBe(
      "INVALID_TOKEN",
    );
  });
});

describe("the worlds read from the tools' schemas", () => {
  /** A dentist whose catalog starts with no appointments. */
  const dentistTools = [
    tool(
      "create_appointment",
      "Book an appointment with the dentist.",
      { patient: text, time: text },
      undefined,
      [],
      outputs({ appointment_id: integer, patient: text, time: text }),
    ),
    tool(
      "get_appointment",
      "Show an appointment.",
      { appointment_id: integer },
      undefined,
      [],
      outputs({ appointment_id: integer, patient: text, time: text }),
    ),
  ];

  it("makes the appointments the schemas describe where the state has none", async () => {
    const empty = world({}, dentistTools);
    expect(inferToolset(empty).toolset.state).toEqual({ appointments: {} });
    const booked = await call(empty, "create_appointment", { patient: "Lu", time: "10:00" });
    expect(booked.after).toEqual({
      appointments: { "1": { appointment_id: 1, patient: "Lu", time: "10:00" } },
    });
    const read = await call(empty, "get_appointment", { appointment_id: 1 }, booked.after);
    expect(read.answer).toEqual({ appointment_id: 1, patient: "Lu", time: "10:00" });
    const missing = await call(empty, "get_appointment", { appointment_id: 9 }, booked.after);
    expect(failure(missing.outcome)).toBe("APPOINTMENT_NOT_FOUND");
  });

  it("fills an empty collection from the schemas, numbered by the counter beside it, and leaves others", async () => {
    const state = {
      chairs: { c1: { id: "c1", room: "1" } },
      appointments: {},
      appointment_counter: 7,
      invoices: {},
    };
    const clinic = world(state, [...dentistTools, tool("list_invoices", "List the invoices.")]);
    const { toolset, report } = inferToolset(clinic);
    expect(toolset.state).toEqual(state);
    expect(report.find((r) => r.tool === "create_appointment")?.notes).toEqual([
      "creates an appointment in appointments with patient, time, its id from appointment_counter",
    ]);
    const booked = await call(clinic, "create_appointment", { patient: "Lu", time: "10:00" });
    expect(booked.after).toEqual({
      ...state,
      appointments: { "7": { appointment_id: 7, patient: "Lu", time: "10:00" } },
      appointment_counter: 8,
    });
    const listed = await call(clinic, "list_invoices", {});
    expect(listed.outcome.status).toBe("applied");
    expect(listed.after).toEqual(state);
  });

  it("adds nothing the schemas describe to a state that keeps records", () => {
    const state = { patients: { p1: { id: "p1", name: "Lu" } } };
    const { toolset } = inferToolset(world(state, dentistTools));
    expect(toolset.state).toEqual(state);
  });
});

describe("a state of plain values beside tools that describe records", () => {
  it("keeps the values it has, and takes no collection from the schemas", async () => {
    /** A radio's tuner: its volume and station, and tools for presets the state does not keep. */
    const tuner = world({ volume: 3, station: "FM 98.1" }, [
      tool(
        "create_preset",
        "Save a preset.",
        { name: text, frequency: number },
        undefined,
        [],
        outputs({ preset_id: integer, name: text, frequency: number }),
      ),
      tool(
        "get_preset",
        "Show a preset.",
        { preset_id: integer },
        undefined,
        [],
        outputs({ preset_id: integer, name: text, frequency: number }),
      ),
      tool("set_volume", "Set the volume.", { volume: integer }),
    ]);
    expect(inferToolset(tuner).toolset.state).toEqual({ volume: 3, station: "FM 98.1" });
    const louder = await call(tuner, "set_volume", { volume: 5 });
    expect(louder.after).toEqual({ volume: 5, station: "FM 98.1" });
    const saved = await call(tuner, "create_preset", { name: "Jazz", frequency: 101.1 });
    expect(saved.report.verdict).toBe("not inferred");
    expect(saved.after).toEqual({ volume: 3, station: "FM 98.1" });
  });
});

describe("which tools are inferred again", () => {
  it("infers a tool a model marked but left without effects", async () => {
    /** A florist's bouquets. */
    const florist = world({ bouquets: { b1: { id: "b1", flowers: "tulips", price: 20 } } }, [
      {
        ...tool("get_bouquet", "Show a bouquet.", { bouquet_id: text }),
        inferred: { by: "model", status: "partly", model: "helper-7" },
      },
    ]);
    const read = await call(florist, "get_bouquet", { bouquet_id: "b1" });
    expect(read.report.verdict).toBe("inferred");
    expect(read.answer).toEqual({ id: "b1", flowers: "tulips", price: 20 });
    expect(read.tool.inferred?.by).toBe("rules");
  });

  it("infers a toolset's tools without the computation hook where the state has collections or values", async () => {
    /** A radio's tuner: values at the top of the state, and a list of presets. */
    const tuner = world({ volume: 3, station: "FM 98.1" }, [
      tool("set_volume", "Set the volume.", { volume: integer }),
    ]);
    const { toolset, report } = inferToolset(tuner, { computation: undefined });
    expect(report[0]?.verdict).toBe("inferred");
    expect(toolset.tools[0]?.effects.length).toBeGreaterThan(0);
    const shop = world({ records: { v1: { id: "v1", title: "Blue", price: 12 } } }, [
      tool("get_record", "Show a vinyl record.", { record_id: text }),
    ]);
    const again = inferToolset(shop, { computation: undefined });
    expect(again.report[0]?.verdict).toBe("inferred");
  });
});

const list = (items: unknown) => ({ type: "array", items });

describe("a change is reported as one, and a write that changes nothing is not", () => {
  it("adds points to a loyalty card through an amount, not a set field, and calls that a change", async () => {
    /** A café's loyalty cards. */
    const cafe = world({ cards: { c1: { id: "c1", owner: "Ivy", points: 10 } } }, [
      tool("add_points", "Add points to a loyalty card.", { card_id: text, points: integer }),
    ]);
    const added = await call(cafe, "add_points", { card_id: "c1", points: 5 });
    expect(added.after.cards).toEqual({ c1: { id: "c1", owner: "Ivy", points: 15 } });
    expect(added.report.verdict).toBe("inferred");
    expect(added.report.gaps).toEqual([]);
    const missing = await call(cafe, "add_points", { card_id: "c9", points: 5 });
    expect(failure(missing.outcome)).toBe("CARD_NOT_FOUND");
  });

  it("renames a piano in its record, a plain set that is a change", async () => {
    /** A piano shop. */
    const pianos = world({ pianos: { u1: { id: "u1", model: "Upright", tuned: "2026-01-04" } } }, [
      tool("rename_piano", "Rename a piano.", { piano_id: text, model: text }),
    ]);
    const renamed = await call(pianos, "rename_piano", { piano_id: "u1", model: "Studio upright" });
    expect(renamed.after.pianos).toEqual({ u1: { id: "u1", model: "Studio upright", tuned: "2026-01-04" } });
    expect(renamed.report).toMatchObject({ verdict: "inferred", gaps: [] });
  });

  it("deletes a file of a tree, a change, and answers the documented error for a path it lacks", async () => {
    /** A writer's notes, files by path. */
    const desk = world({ files: { "/notes.txt": "hi", "/todo.txt": "milk" } }, [
      tool("delete_file", "Delete a file.", { path: text }, undefined, [
        error("FILE_NOT_FOUND", "No such file."),
      ]),
      tool("read_file", "Read a file.", { path: text }, undefined, [
        error("FILE_NOT_FOUND", "No such file."),
      ]),
    ]);
    const deleted = await call(desk, "delete_file", { path: "/notes.txt" });
    expect(deleted.after).toEqual({ files: { "/todo.txt": "milk" } });
    expect(deleted.report).toMatchObject({ verdict: "inferred", gaps: [] });
    const missing = await call(desk, "delete_file", { path: "/nope.txt" });
    expect(failure(missing.outcome)).toBe("FILE_NOT_FOUND");
    const read = await call(desk, "read_file", { path: "/todo.txt" });
    expect(read.answer).toEqual({ value: "milk" });
    expect(read.report.gaps).toEqual([]);
  });

  it("answers a status guard's documented error, which leaves no gap", async () => {
    /** A gym's class bookings. */
    const gym = world(
      {
        bookings: {
          b1: { id: "b1", slot: "mon-7", status: "open" },
          b2: { id: "b2", slot: "tue-7", status: "cancelled" },
        },
      },
      [
        tool(
          "cancel_booking",
          "Cancel a booking. Only open bookings can be cancelled.",
          { booking_id: text },
          undefined,
          [
            error("BOOKING_NOT_OPEN", "Only open bookings can be cancelled."),
            error("BOOKING_NOT_FOUND", "No such booking."),
          ],
        ),
      ],
    );
    const cancelled = await call(gym, "cancel_booking", { booking_id: "b1" });
    expect((cancelled.after.bookings as State).b1).toMatchObject({ status: "cancelled" });
    expect(cancelled.report).toMatchObject({ verdict: "inferred", gaps: [] });
    const again = await call(gym, "cancel_booking", { booking_id: "b2" });
    expect(failure(again.outcome)).toBe("BOOKING_NOT_OPEN");
  });
});

describe("computations", () => {
  /** A lab's calculator beside its samples. */
  const lab = world({ samples: { s1: { id: "s1" } } }, [
    tool("variance", "The variance of some numbers.", { numbers: list(number) }),
    tool("population_std", "The population standard deviation of some numbers.", { numbers: list(number) }),
    tool("divide", "Divide a by b.", { a: number, b: number }, undefined, [
      error("DIVISION_BY_ZERO", "Cannot divide by zero.", "b is zero"),
    ]),
  ]);

  it("calls a variance of a sample a guess unless the tool says which, and answers it", async () => {
    const spread = await call(lab, "variance", { numbers: [1, 2, 3, 4] });
    expect(spread.answer).toBeCloseTo(5 / 3);
    expect(spread.report.verdict).toBe("partly");
    expect(spread.report.gaps).toEqual([
      "the variance is of a sample (n − 1): the tool says neither sample nor population, so which one it means is a guess",
    ]);
    const population = await call(lab, "population_std", { numbers: [1, 2, 3, 4] });
    expect(population.answer).toBeCloseTo(Math.sqrt(1.25));
    expect(population.report).toMatchObject({ verdict: "inferred", gaps: [] });
  });

  it("refuses a division by zero with the tool's own documented error", async () => {
    const refused = await call(lab, "divide", { a: 1, b: 0 });
    expect(failure(refused.outcome)).toBe("DIVISION_BY_ZERO");
    expect(refused.report).toMatchObject({ verdict: "inferred", gaps: [] });
    expect(refused.tool.errors.map((e) => e.code)).toEqual(["DIVISION_BY_ZERO"]);
    expect((await call(lab, "divide", { a: 1, b: 4 })).answer).toBe(0.25);
  });

  it("converts money at the rates the state keeps, and calls the built-in rates a guess", async () => {
    const exchange = (state: State) =>
      world(state, [
        tool(
          "convert_currency",
          "Convert an amount between currencies.",
          { amount: number, from_currency: text, to_currency: text },
          undefined,
          [],
          outputs({ converted: number }),
        ),
      ]);
    const args = { amount: 10, from_currency: "USD", to_currency: "EUR" };
    const kept = await call(exchange({ rates: { USD: 1, EUR: 0.5 } }), "convert_currency", args);
    expect(kept.answer).toEqual({ converted: 5 });
    expect(kept.report).toMatchObject({ verdict: "inferred", gaps: [] });
    const builtIn = await call(exchange({ trips: { t1: { id: "t1" } } }), "convert_currency", args);
    expect(builtIn.report.verdict).toBe("partly");
    expect(builtIn.report.gaps).toEqual(["guessed (synthesized): converted"]);
    expect(builtIn.report.guessed).toEqual(["converted"]);
  });
});

describe("the rule that decides what a tool does, one world each", () => {
  it("sets and reads the signed-in singer's own record where no argument names one", async () => {
    /** A choir: singers by handle, and who is signed in. */
    const choir = world(
      {
        singers: {
          sol: { handle: "sol", name: "Sol", part: "alto" },
          tim: { handle: "tim", name: "Tim", part: "bass" },
        },
        me: { handle: "sol" },
      },
      [
        tool("set_part", "Set your voice part.", { part: text }),
        tool(
          "get_me",
          "Get the signed-in singer.",
          {},
          [],
          [],
          outputs({ handle: text, name: text, part: text }),
        ),
      ],
    );
    const set = await call(choir, "set_part", { part: "soprano" });
    expect(set.after.singers).toEqual({
      sol: { handle: "sol", name: "Sol", part: "soprano" },
      tim: { handle: "tim", name: "Tim", part: "bass" },
    });
    expect(set.report.notes).toEqual(["sets part of the signed-in account's record of singers"]);
    const me = await call(choir, "get_me", {});
    expect(me.answer).toEqual({ handle: "sol", name: "Sol", part: "alto" });
  });

  it("adds, changes and removes an ingredient inside the recipe an argument names", async () => {
    /** A kitchen's recipes, each with its list of ingredients. */
    const kitchen = () =>
      world(
        {
          recipes: {
            r1: {
              id: "r1",
              title: "Scones",
              ingredients: [
                { name: "flour", grams: 250 },
                { name: "butter", grams: 60 },
              ],
            },
          },
        },
        [
          tool("add_ingredient", "Add an ingredient to a recipe.", {
            recipe_id: text,
            name: text,
            grams: integer,
          }),
          tool("remove_ingredient", "Remove an ingredient from a recipe.", { recipe_id: text, name: text }),
          tool("update_ingredient", "Change the grams of an ingredient of a recipe.", {
            recipe_id: text,
            name: text,
            grams: integer,
          }),
        ],
      );
    const ingredients = (after: State) => (after.recipes as Record<string, State>).r1?.ingredients;
    const added = await call(kitchen(), "add_ingredient", { recipe_id: "r1", name: "milk", grams: 100 });
    expect(ingredients(added.after)).toEqual([
      { name: "flour", grams: 250 },
      { name: "butter", grams: 60 },
      { name: "milk", grams: 100 },
    ]);
    const removed = await call(kitchen(), "remove_ingredient", { recipe_id: "r1", name: "butter" });
    expect(ingredients(removed.after)).toEqual([{ name: "flour", grams: 250 }]);
    expect(removed.answer).toEqual({ name: "butter", grams: 60 });
    const changed = await call(kitchen(), "update_ingredient", {
      recipe_id: "r1",
      name: "flour",
      grams: 300,
    });
    expect(ingredients(changed.after)).toEqual([
      { name: "flour", grams: 300 },
      { name: "butter", grams: 60 },
    ]);
    const missing = await call(kitchen(), "remove_ingredient", { recipe_id: "r1", name: "salt" });
    expect(failure(missing.outcome)).toBe("INGREDIENT_NOT_FOUND");
  });

  it("deletes the photos a list of ids names, in one call", async () => {
    /** A photo album. */
    const album = world(
      {
        photos: {
          p1: { id: "p1", title: "Beach" },
          p2: { id: "p2", title: "Dune" },
          p3: { id: "p3", title: "Pier" },
        },
      },
      [tool("delete_photos", "Delete several photos.", { photo_ids: list(text) })],
    );
    const deleted = await call(album, "delete_photos", { photo_ids: ["p1", "p3"] });
    expect(deleted.after).toEqual({ photos: { p2: { id: "p2", title: "Dune" } } });
    expect(deleted.report.notes).toEqual(["removes from photos each record photo_ids names"]);
  });

  it("adds tags to a song's list, each once", async () => {
    /** A radio station's library. */
    const library = world({ songs: { s1: { id: "s1", title: "Rain", tags: ["calm"] } } }, [
      tool("add_song_tags", "Add tags to a song.", { song_id: text, tags: list(text) }),
    ]);
    const tagged = await call(library, "add_song_tags", { song_id: "s1", tags: ["jazz", "calm", "night"] });
    expect(tagged.after.songs).toEqual({ s1: { id: "s1", title: "Rain", tags: ["calm", "jazz", "night"] } });
    expect(failure((await call(library, "add_song_tags", { song_id: "s9", tags: ["x"] })).outcome)).toBe(
      "SONG_NOT_FOUND",
    );
  });

  it("sells seats of a cinema's zone, never below zero", async () => {
    /** A cinema: seats left per zone of each screening. */
    const cinema = world(
      { screenings: { sc1: { screening_id: "sc1", film: "Heat", seats: { stalls: 10, balcony: 2 } } } },
      [
        tool("sell_seats", "Sell seats of a zone of a screening.", {
          screening_id: text,
          zone: text,
          quantity: integer,
        }),
      ],
    );
    const sold = await call(cinema, "sell_seats", { screening_id: "sc1", zone: "balcony", quantity: 2 });
    expect((sold.after.screenings as Record<string, State>).sc1?.seats).toEqual({ stalls: 10, balcony: 0 });
    const over = await call(cinema, "sell_seats", { screening_id: "sc1", zone: "balcony", quantity: 3 });
    expect(failure(over.outcome)).toBe("INSUFFICIENT_SEATS");
    const nowhere = await call(cinema, "sell_seats", { screening_id: "sc1", zone: "box", quantity: 1 });
    expect(failure(nowhere.outcome)).toBe("ZONE_NOT_FOUND");
  });

  it("turns on a boat's anchor light, and nothing else", async () => {
    const choice = (...values: string[]) => ({ type: "string", enum: values });
    /** A sailing boat whose status tool names the states of its lights and pump. */
    const boat = world({ boat: { name: "Wren", anchor_light: "off", bilge_pump: "off" } }, [
      tool(
        "get_boat_status",
        "Read the boat.",
        {},
        [],
        [],
        outputs({ anchor_light: choice("on", "off"), bilge_pump: choice("on", "off") }),
      ),
      tool("turn_on_anchor_light", "Turn on the anchor light."),
    ]);
    const on = await call(boat, "turn_on_anchor_light", {});
    expect(on.after).toEqual({ boat: { name: "Wren", anchor_light: "on", bilge_pump: "off" } });
  });

  it("appends a guest's line to a guestbook of pairs", async () => {
    /** An inn's guestbook: one line per entry, keyed by the guest. */
    const inn = world(
      {
        guestbook: {
          title: "Inn",
          entries: [{ g1: "Lovely stay" }, { g2: "Great breakfast" }, { g1: "Back again" }],
        },
      },
      [tool("add_entry", "Leave a line in the guestbook.", { guest_id: text, message: text })],
    );
    const signed = await call(inn, "add_entry", { guest_id: "g3", message: "Quiet rooms" });
    expect(signed.after.guestbook).toEqual({
      title: "Inn",
      entries: [
        { g1: "Lovely stay" },
        { g2: "Great breakfast" },
        { g1: "Back again" },
        { g3: "Quiet rooms" },
      ],
    });
    expect(signed.report.notes).toEqual(["appends {guest_id: message} to guestbook/entries"]);
  });

  it("adds the signed-in reader to a book club's members", async () => {
    /** A library's book clubs. */
    const clubs = world(
      {
        me: { reader_id: "r2" },
        readers: { r1: { reader_id: "r1", name: "Ann" }, r2: { reader_id: "r2", name: "Bob" } },
        clubs: { c1: { club_id: "c1", book: "Emma", members: ["r1"] } },
      },
      [tool("join_club", "Join a book club.", { club_id: text })],
    );
    const joined = await call(clubs, "join_club", { club_id: "c1" });
    expect(joined.after.clubs).toEqual({ c1: { club_id: "c1", book: "Emma", members: ["r1", "r2"] } });
    expect(failure((await call(clubs, "join_club", { club_id: "c9" })).outcome)).toBe("CLUB_NOT_FOUND");
  });

  /** A post office: letters kept in folders, numbered by one sequence. */
  const office = () =>
    world(
      {
        me: { handle: "ana" },
        users: { ana: { handle: "ana" }, bo: { handle: "bo" } },
        office: {
          next_letter_id: 4,
          inbox: [
            { letter_id: 1, from: "bo", to: "ana", subject: "Hi" },
            { letter_id: 2, from: "bo", to: "ana", subject: "Yo" },
          ],
          sent: [{ letter_id: 3, from: "ana", to: "bo", subject: "Re" }],
        },
      },
      [
        tool("get_letter", "Get a letter by id.", { letter_id: integer }),
        tool("send_letter", "Send a letter.", { to: text, subject: text }),
      ],
    );

  it("reads a letter in whichever folder keeps it", async () => {
    const read = await call(office(), "get_letter", { letter_id: 3 });
    expect(read.answer).toEqual({ letter_id: 3, from: "ana", to: "bo", subject: "Re" });
    expect(failure((await call(office(), "get_letter", { letter_id: 9 })).outcome)).toBe("LETTER_NOT_FOUND");
  });

  it("files a letter sent in the sent folder, numbered from the sequence", async () => {
    const sent = await call(office(), "send_letter", { to: "bo", subject: "Tea?" });
    expect((sent.after.office as State).sent).toEqual([
      { letter_id: 3, from: "ana", to: "bo", subject: "Re" },
      { to: "bo", subject: "Tea?", from: "ana", letter_id: 4 },
    ]);
    expect((sent.after.office as State).next_letter_id).toBe(5);
  });

  it("tops up a laundry card by the amount given", async () => {
    /** A laundromat's prepaid cards. */
    const laundry = world({ cards: { k1: { card_id: "k1", balance: 5 } } }, [
      tool("top_up_card", "Top up a laundry card.", { card_id: text, amount: number }),
    ]);
    const topped = await call(laundry, "top_up_card", { card_id: "k1", amount: 10 });
    expect(topped.after.cards).toEqual({ k1: { card_id: "k1", balance: 15 } });
  });

  it("charges a vehicle for a parking pass the state keeps nowhere, and says so", async () => {
    /** A car park's vehicles, each with a balance. */
    const park = world({ vehicles: { v1: { vehicle_id: "v1", plate: "AB-1", balance: 30 } } }, [
      tool("buy_parking_pass", "Buy a parking pass for a vehicle.", { vehicle_id: text, price: number }),
    ]);
    const bought = await call(park, "buy_parking_pass", { vehicle_id: "v1", price: 12 });
    expect(bought.after.vehicles).toEqual({ v1: { vehicle_id: "v1", plate: "AB-1", balance: 18 } });
    expect(bought.report.gaps).toEqual([
      "where it keeps the parking pass it makes is not inferred: no part of the state is named for it",
    ]);
    expect(failure((await call(park, "buy_parking_pass", { vehicle_id: "v9", price: 1 })).outcome)).toBe(
      "VEHICLE_NOT_FOUND",
    );
  });

  it("adds a track to a playlist kept as a plain list, once", async () => {
    /** A radio studio's running order. */
    const studio = world({ playlist: ["intro", "jingle"], shows: { sh1: { id: "sh1", name: "Dawn" } } }, [
      tool("add_to_playlist", "Add a track to the playlist.", { track: text }),
    ]);
    const added = await call(studio, "add_to_playlist", { track: "news" });
    expect(added.after.playlist).toEqual(["intro", "jingle", "news"]);
    const twice = await call(studio, "add_to_playlist", { track: "jingle" });
    expect(twice.after.playlist).toEqual(["intro", "jingle"]);
  });

  it("gives a cancelled order's total back to the gift card that paid", async () => {
    /** A toy shop's orders, paid by gift card. */
    const shop = world(
      {
        gift_cards: { G1: { gift_card_id: "G1", balance: 40 } },
        orders: { O1: { order_id: "O1", gift_card_id: "G1", order_total: 25, status: "placed" } },
      },
      [tool("cancel_order", "Cancel an order; its total is refunded to the gift card.", { order_id: text })],
    );
    const cancelled = await call(shop, "cancel_order", { order_id: "O1" });
    expect(cancelled.after).toEqual({
      gift_cards: { G1: { gift_card_id: "G1", balance: 65 } },
      orders: { O1: { order_id: "O1", gift_card_id: "G1", order_total: 25, status: "cancelled" } },
    });
  });

  it("says a sign-in that names an account but no secret is not inferred, and changes nothing", async () => {
    /** A rowing club whose members keep no password. */
    const club = world({ members: { m1: { member_id: "m1", name: "Ro" } } }, [
      tool("login", "Sign in a member.", { member_id: text }),
    ]);
    const signed = await call(club, "login", { member_id: "m1" });
    expect(signed.outcome.status).toBe("none");
    expect(signed.report.verdict).toBe("not inferred");
    expect(signed.report.notes).toEqual([
      "signs in, but no secret its accounts keep and no session field says how",
    ]);
  });
});

describe("why a tool is not inferred", () => {
  /** A music school: a running order, pianos, members. */
  const school = world(
    {
      playlist: ["intro", "jingle"],
      pianos: { u1: { id: "u1", model: "Upright" } },
      members: { m1: { member_id: "m1", name: "Ro" } },
    },
    [
      tool("shuffle_playlist", "Shuffle the playlist."),
      tool("tune_pianos", "Tune the pianos."),
      tool("update_piano", "Update a piano.", { colour: text }),
      tool("set_mood", "Set the mood.", { mood: text }),
      tool("create_member", "Create a member.", { member_id: text, name: text }, undefined, [
        error("MEMBER_EXISTS", "A member with this id already exists."),
      ]),
    ],
  );
  const why = (name: string) => inferToolset(school).report.find((r) => r.tool === name);

  it("names the verb it does not know, the part no argument fits, or that nothing is named", () => {
    for (const [name, verb] of [
      ["shuffle_playlist", "shuffle"],
      ["tune_pianos", "tune"],
    ] as const)
      expect(why(name)).toMatchObject({
        verdict: "not inferred",
        notes: [
          `its verb (${verb}) says nothing toolsim knows, and no part of the state fits its arguments; an unknown verb is never taken for a read`,
        ],
        gaps: [],
        drafts: [],
      });
    expect(why("update_piano")?.notes).toEqual(["no argument matches a field of pianos"]);
    expect(why("set_mood")?.notes).toEqual(["names no part of the state and no argument names a record"]);
    expect(school.tools.every((t) => t.effects.length === 0)).toBe(true);
    expect(inferToolset(school).toolset.tools.find((t) => t.name === "set_mood")?.effects).toEqual([]);
  });

  it("answers a create's documented already-exists error, which leaves no gap", async () => {
    const taken = await call(school, "create_member", { member_id: "m1", name: "X" });
    expect(failure(taken.outcome)).toBe("MEMBER_EXISTS");
    expect(taken.report).toMatchObject({ verdict: "inferred", gaps: [] });
    const made = await call(school, "create_member", { member_id: "m2", name: "Ida" });
    expect(made.after.members).toEqual({
      m1: { member_id: "m1", name: "Ro" },
      m2: { member_id: "m2", name: "Ida" },
    });
  });

  it("reports a toolset without state and without computations with nothing drafted", () => {
    const bare = inferToolset(world({}, [tool("ring_bell", "Ring the bell.")]), { computation: undefined });
    expect(bare.report).toEqual([
      {
        toolset: "w",
        tool: "ring_bell",
        verdict: "not inferred",
        notes: ["the toolset has no state to act on"],
        gaps: [],
        drafts: [],
      },
    ]);
  });

  it("drops the effects an earlier inference wrote where the rules now infer nothing", () => {
    const stale = {
      ...tool("set_mood", "Set the mood.", { mood: text }),
      effects: [{ kind: "delete", target: "members/{mood}" }],
      inferred: { by: "rules", status: "inferred", added: [] },
    };
    const again = inferToolset(world(school.state, [stale]));
    expect(again.report[0]?.verdict).toBe("not inferred");
    expect(again.toolset.tools[0]?.effects).toEqual([]);
    expect(again.toolset.tools[0]?.inferred).toBeUndefined();
  });
});

describe("more of the rules, one world each", () => {
  const folder = (children: Record<string, unknown>) => ({ type: "directory", children });
  const file = (content: string) => ({ type: "file", content });

  it("deletes a file of a choir's sheet-music drive, and answers the documented error for a path it lacks", async () => {
    /** A choir's drive of sheet music: folders and files under a root. */
    const sheets = world(
      {
        library: {
          cwd: "/",
          root: folder({
            hymns: folder({ "abide.txt": file("abide with me\n") }),
            "readme.md": file("choir sheets\n"),
          }),
        },
      },
      [
        tool("delete_file", "Delete a file.", { path: text }, undefined, [
          error("FILE_NOT_FOUND", "No such file."),
        ]),
        tool("read_file", "Read a file.", { path: text }, undefined, [
          error("FILE_NOT_FOUND", "No such file."),
        ]),
      ],
    );
    const deleted = await call(sheets, "delete_file", { path: "/hymns/abide.txt" });
    expect(deleted.after.library).toEqual({
      cwd: "/",
      root: folder({ hymns: folder({}), "readme.md": file("choir sheets\n") }),
    });
    expect(deleted.report).toMatchObject({ verdict: "inferred", gaps: [] });
    const missing = await call(sheets, "delete_file", { path: "/hymns/nope.txt" });
    expect(failure(missing.outcome)).toBe("FILE_NOT_FOUND");
    const read = await call(sheets, "read_file", { path: "/readme.md" });
    expect(read.answer).toBe("choir sheets\n");
    expect(read.report).toMatchObject({ verdict: "inferred", gaps: [] });
  });

  it("files a subscription to the plan a member joins", async () => {
    /** A climbing gym's plans and the subscriptions taken. */
    const gym = world(
      {
        plans: { basic: { plan_id: "basic", price: 20 }, gold: { plan_id: "gold", price: 40 } },
        subscriptions: { s1: { subscription_id: "s1", plan_id: "basic" } },
      },
      [tool("subscribe", "Subscribe to a plan.", { plan_id: text })],
    );
    const joined = await call(gym, "subscribe", { plan_id: "gold" });
    expect(joined.after.subscriptions).toEqual({
      s1: { subscription_id: "s1", plan_id: "basic" },
      s2: { subscription_id: "s2", plan_id: "gold" },
    });
    expect(joined.after.plans).toEqual(gym.state.plans);
    expect(failure((await call(gym, "subscribe", { plan_id: "platinum" })).outcome)).toBe("PLAN_NOT_FOUND");
  });

  it("appends to the world's only list of pairs where the name names no part", async () => {
    /** An inn's guestbook, written by a tool named for posting. */
    const inn = world(
      {
        guestbook: {
          title: "Inn",
          entries: [{ g1: "Lovely stay" }, { g2: "Great breakfast" }, { g1: "Back again" }],
        },
      },
      [tool("post_message", "Post a message.", { guest_id: text, message: text })],
    );
    const posted = await call(inn, "post_message", { guest_id: "g3", message: "Hi" });
    expect((posted.after.guestbook as State).entries).toEqual([
      { g1: "Lovely stay" },
      { g2: "Great breakfast" },
      { g1: "Back again" },
      { g3: "Hi" },
    ]);
  });

  it("says why a list of pairs is named but not changed where the tool says nothing of what to do", () => {
    const inn = world({ guestbook: { title: "Inn", entries: [{ g1: "a" }, { g2: "b" }, { g1: "c" }] } }, [
      tool("shuffle_entries", "Shuffle the entries."),
    ]);
    const { report, tool: kept, state } = inferred(inn, "shuffle_entries");
    expect(report).toMatchObject({
      verdict: "not inferred",
      notes: ["it names the pairs of entries, but not what to do with them"],
    });
    expect(kept.effects).toEqual([]);
    expect(state).toEqual(inn.state);
  });

  it("says why a list is named but not changed where no one argument is the value", () => {
    const studio = world({ playlist: ["intro", "jingle"], shows: { sh1: { id: "sh1", name: "Dawn" } } }, [
      tool("add_to_playlist", "Add a track to the playlist.", { first: text, second: text }),
    ]);
    expect(inferred(studio, "add_to_playlist").report).toMatchObject({
      verdict: "not inferred",
      notes: [
        "no one argument names the value to add to playlist",
        "it names the list playlist, but no argument says what to do with it",
      ],
    });
  });

  it("hears n − 1 however it is spaced, and names a standard deviation as such", async () => {
    const numbers = { numbers: list(number) };
    const stats = world({ samples: { s1: { id: "s1" } } }, [
      tool("spread_a", "The variance of some numbers, divided by n-1.", numbers),
      tool("spread_b", "The variance of some numbers, divided by n - 1.", numbers),
      tool("std_dev", "The standard deviation of some numbers.", numbers),
      tool("scale_amount", "Multiply an amount of money in any currency by a factor.", {
        a: number,
        b: number,
      }),
    ]);
    const { report } = inferToolset(stats);
    const gaps = (name: string) => report.find((r) => r.tool === name)?.gaps;
    expect(gaps("spread_a")).toEqual([]);
    expect(gaps("spread_b")).toEqual([]);
    expect(gaps("std_dev")).toEqual([
      "the standard deviation is of a sample (n − 1): the tool says neither sample nor population, so which one it means is a guess",
    ]);
    // money that is only multiplied is converted at no rate: nothing is a guess
    expect(gaps("scale_amount")).toEqual([]);
    expect((await call(stats, "scale_amount", { a: 2, b: 3 })).answer).toBe(6);
    expect((await call(stats, "std_dev", { numbers: [2, 4, 4, 4, 5, 5, 7, 9] })).answer).toBeCloseTo(
      2.138,
      3,
    );
  });

  it("calls a conversion's whole answer a guess without rates, and none where the world's own state keeps them", () => {
    const convert = tool("convert_currency", "Convert an amount between currencies.", {
      amount: number,
      from_currency: text,
      to_currency: text,
    });
    const guessed = inferToolset(world({ trips: { t1: { id: "t1" } } }, [convert]));
    expect(guessed.report[0]?.gaps).toEqual(["guessed (synthesized): (answer)"]);
    // a task's state of another toolset keeps no rates: the world's own still count
    const kept = inferToolset(world({ rates: { USD: 1, EUR: 0.5 } }, [convert]), { states: [{ trips: {} }] });
    expect(kept.report[0]).toMatchObject({ verdict: "inferred", gaps: [] });
  });
});
