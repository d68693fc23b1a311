import { describe, expect, it } from "vitest";
import type { Toolset } from "../src/catalog/index.js";
import { inferLoaded, inferToolset, inferToolsets } from "../src/infer/index.js";
import {
  bool,
  call,
  error,
  failure,
  integer,
  number,
  outputs as out,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * What `src/infer/infer.ts` decides itself, tried in small worlds of its own: which action a
 * tool's hints and name say it takes, the check an unknown verb still makes, the flags that
 * answer a change went through, a write that changes nothing, the one map of plain values a
 * bare `key` acts on, a create of what the state keeps nowhere, the report of tools kept as
 * they are, and the key fields filled into the toolset's states.
 */

/** A help desk: tickets and bookmarks, each record keyed by its id. */
const desk = (): State => ({
  tickets: {
    "T-1": { id: "T-1", title: "Printer jam", status: "open", priority: "high" },
    "T-2": { id: "T-2", title: "VPN down", status: "closed", priority: "low" },
  },
  bookmarks: { b1: { id: "b1", url: "https://wiki.example/a", title: "Runbook" } },
});
const atDesk = (...tools: unknown[]) => world(desk(), tools);
const tickets = (after: State) => after.tickets as Record<string, State>;

describe("what a tool does: its read-only hint, then its verb, then its other hints and words", () => {
  it("reads where the read-only hint says so, whatever the verb, and reports that nothing changes", async () => {
    const remove = tool("remove_ticket", "Remove a ticket.", { ticket_id: text }, undefined, [], {
      annotations: { readOnlyHint: true },
    });
    const { after, answer, report } = await call(atDesk(remove), "remove_ticket", { ticket_id: "T-1" });
    expect(after).toEqual(desk());
    expect(answer).toEqual(tickets(desk())["T-1"]);
    expect(report.verdict).toBe("partly");
    expect(report.gaps).toEqual([
      `changes nothing: no argument or word of "remove_ticket" says what it changes`,
    ]);
  });

  it("writes a new record where a verb that writes over says new and no argument names one", async () => {
    const save = tool("save_bookmark", "Save a new bookmark.", { url: text, title: text });
    const { after, report } = await call(atDesk(save), "save_bookmark", {
      url: "https://wiki.example/b",
      title: "On call",
    });
    expect(after.bookmarks).toEqual({
      ...(desk().bookmarks as State),
      b2: { id: "b2", url: "https://wiki.example/b", title: "On call" },
    });
    expect(report.verdict).toBe("inferred");
    expect(report.notes).toEqual(["creates a bookmark in bookmarks with url, title"]);
    // without "new" the verb rewrites, and nothing names the bookmark to rewrite
    const rewrite = tool("save_bookmark", "Save a bookmark.", { url: text, title: text });
    const rewritten = await call(atDesk(rewrite), "save_bookmark", {
      url: "https://wiki.example/b",
      title: "x",
    });
    expect(rewritten.report.verdict).toBe("not inferred");
    expect(rewritten.after).toEqual(desk());
    // nor for a verb that only changes, new or not
    const update = tool("update_bookmark", "Update a new bookmark.", { url: text, title: text });
    const updated = await call(atDesk(update), "update_bookmark", {
      url: "https://wiki.example/b",
      title: "x",
    });
    expect(updated.after).toEqual(desk());
    // and where an argument names the bookmark, a new title is written over the old
    const retitle = tool("save_bookmark", "Save a new title for a bookmark.", {
      bookmark_id: text,
      title: text,
    });
    const retitled = await call(atDesk(retitle), "save_bookmark", { bookmark_id: "b1", title: "Runbook v2" });
    expect(retitled.after.bookmarks).toEqual({
      b1: { id: "b1", url: "https://wiki.example/a", title: "Runbook v2" },
    });
  });

  it("deletes by the destructive hint of a name without a verb", async () => {
    const zap = tool("ticket_zap", "Zap a ticket.", { ticket_id: text }, undefined, [], {
      annotations: { destructiveHint: true },
    });
    const { after, report } = await call(atDesk(zap), "ticket_zap", { ticket_id: "T-1" });
    expect(Object.keys(tickets(after))).toEqual(["T-2"]);
    expect(report.notes).toContain("deletes the ticket ticket_id names");
  });

  it("changes the record an argument names where the hint says the tool writes", async () => {
    const zap = tool("ticket_zap", "Zap a ticket.", { ticket_id: text, status: text }, undefined, [], {
      annotations: { readOnlyHint: false },
    });
    const { after } = await call(atDesk(zap), "ticket_zap", { ticket_id: "T-1", status: "closed" });
    expect(tickets(after)["T-1"]).toEqual({ ...tickets(desk())["T-1"], status: "closed" });
    expect(tickets(after)["T-2"]).toEqual(tickets(desk())["T-2"]);
  });

  it("reads by a name that ends with what is read, as a query without a verb", async () => {
    const history = tool("ticket_history", "A ticket's history.", { ticket_id: text });
    const read = await call(atDesk(history), "ticket_history", { ticket_id: "T-2" });
    expect(read.answer).toEqual(tickets(desk())["T-2"]);
    expect(read.after).toEqual(desk());
    expect(read.report.verdict).toBe("inferred");
    expect(failure((await call(atDesk(history), "ticket_history", { ticket_id: "T-9" })).outcome)).toBe(
      "TICKET_NOT_FOUND",
    );
  });
});

describe("an unknown verb still checks the record its argument names", () => {
  const zap = (errors = [] as ReturnType<typeof error>[], required?: string[]) =>
    tool("ticket_zap", "Zap a ticket.", { ticket_id: text }, required, errors);

  it("refuses a ticket that is not there, lets one that is through unchanged, and says what is left out", async () => {
    const missing = await call(atDesk(zap()), "ticket_zap", { ticket_id: "T-9" });
    expect(failure(missing.outcome)).toBe("TICKET_NOT_FOUND");
    const there = await call(atDesk(zap()), "ticket_zap", { ticket_id: "T-1" });
    expect(there.outcome.status).toBe("applied");
    expect(there.after).toEqual(desk());
    expect(there.report.verdict).toBe("partly");
    expect(there.report.notes).toContain("checks the ticket ticket_id names exists");
    expect(there.report.gaps).toEqual([
      "its verb (ticket) says nothing toolsim knows: what it does is not inferred",
    ]);
    expect(there.tool.errors.map((e) => e.code)).toEqual(["TICKET_NOT_FOUND"]);
  });

  it("answers the documented not-found error rather than one of its own", async () => {
    const documented = [error("NO_TICKET", "No such ticket.", "the ticket does not exist", 404)];
    const {
      outcome,
      tool: inferred,
      report,
    } = await call(atDesk(zap(documented)), "ticket_zap", {
      ticket_id: "T-9",
    });
    expect(failure(outcome)).toBe("NO_TICKET");
    expect(inferred.errors.map((e) => e.code)).toEqual(["NO_TICKET"]);
    expect(report.gaps).not.toContain("documented error NO_TICKET is answered by no effect");
  });

  it("checks nothing where the id is optional or the argument only resembles the record", async () => {
    const optional = await call(atDesk(zap([], [])), "ticket_zap", { ticket_id: "T-9" });
    expect(optional.report.verdict).toBe("not inferred");
    expect(optional.report.notes).toEqual([
      "its verb (ticket) says nothing toolsim knows, and no part of the state fits its arguments; an unknown verb is never taken for a read",
    ]);
    const loose = tool("ticket_zap", "Zap a ticket.", { ticket: text });
    expect((await call(atDesk(loose), "ticket_zap", { ticket: "T-9" })).report.verdict).toBe("not inferred");
  });
});

describe("boolean outputs that say the change went through", () => {
  it("are true after a delete: success, ok, the verb done and any removal's", async () => {
    const del = tool(
      "delete_ticket",
      "Delete a ticket.",
      { ticket_id: text },
      undefined,
      [],
      out({
        deleted: bool,
        success: bool,
        removed: bool,
        ok: bool,
        is_deleted: bool,
        followed_by: bool,
        removed_status: bool,
      }),
    );
    const { answer, after, report } = await call(atDesk(del), "delete_ticket", { ticket_id: "T-1" });
    expect(Object.keys(tickets(after))).toEqual(["T-2"]);
    expect(answer).toMatchObject({
      deleted: true,
      success: true,
      removed: true,
      ok: true,
      is_deleted: true,
      removed_status: true,
    });
    // `followed_by` says who, not that it was done: a guess
    expect(answer).not.toHaveProperty("followed_by");
    expect(report.gaps).toEqual(["guessed (synthesized): followed_by"]);
  });

  it("are the verb's own participle elsewhere, not another verb's, and never a number", async () => {
    const close = tool(
      "close_ticket",
      "Close a ticket.",
      { ticket_id: text },
      undefined,
      [],
      out({ closed: bool, close_ok: bool, archived: bool, done: integer }),
    );
    const { answer, after } = await call(atDesk(close), "close_ticket", { ticket_id: "T-1" });
    expect(tickets(after)["T-1"]?.status).toBe("closed");
    expect(answer).toMatchObject({ closed: true, close_ok: true });
    expect(answer).not.toHaveProperty("archived");
    expect(answer).not.toHaveProperty("done");
  });

  it("are a participle up to three letters longer than the verb, never another form of it", async () => {
    const cancel = tool(
      "cancel_ticket",
      "Cancel a ticket.",
      { ticket_id: text },
      undefined,
      [],
      out({ cancelled: bool, cancelling: bool, cancels: bool, cancelled_late: bool }),
    );
    const { answer, report } = await call(atDesk(cancel), "cancel_ticket", { ticket_id: "T-1" });
    expect(answer).toMatchObject({ cancelled: true });
    expect(answer).not.toHaveProperty("cancelling");
    expect(answer).not.toHaveProperty("cancels");
    // a participle among other words says more than that the call went through
    expect(answer).not.toHaveProperty("cancelled_late");
    expect(report.guessed).toEqual(["cancelling", "cancels", "cancelled_late"]);
  });

  it("are not answered by a read, which changes nothing", async () => {
    const get = tool(
      "get_ticket",
      "Get a ticket.",
      { ticket_id: text },
      undefined,
      [],
      out({ success: bool, title: text }),
    );
    const { answer, report } = await call(atDesk(get), "get_ticket", { ticket_id: "T-1" });
    expect(answer).not.toHaveProperty("success");
    expect(report.guessed).toEqual(["success"]);
  });
});

describe("a write whose effects change nothing", () => {
  it("answers the record it names, refuses one that is missing, and is reported partly", async () => {
    const plans = world({ plans: { p1: { id: "p1", name: "Gold", price: 9 } } }, [
      tool("subscribe", "Subscribe to a plan.", { plan_id: text }),
    ]);
    const { answer, report, tool: inferred } = await call(plans, "subscribe", { plan_id: "p1" });
    expect(answer).toEqual({ id: "p1", name: "Gold", price: 9 });
    expect(report.verdict).toBe("partly");
    expect(report.gaps).toEqual([`changes nothing: no argument or word of "subscribe" says what it changes`]);
    expect(inferred.inferred?.status).toBe("partly");
    expect(failure((await call(plans, "subscribe", { plan_id: "p9" })).outcome)).toBe("PLAN_NOT_FOUND");
  });
});

describe("a bare `key` acts on the world's one map of plain values", () => {
  const prefs = (...tools: unknown[]) => world({ settings: { theme: "dark", lang: "nb" } }, tools);

  it("reads, sets and deletes a key of a record whose fields are all text", async () => {
    const got = await call(prefs(tool("get", "Read a value.", { key: text })), "get", { key: "theme" });
    expect(got.answer).toEqual({ value: "dark" });
    const missing = await call(prefs(tool("get", "Read a value.", { key: text })), "get", { key: "font" });
    expect(failure(missing.outcome)).toBe("KEY_NOT_FOUND");
    const set = await call(prefs(tool("set", "Write a value.", { key: text, value: text })), "set", {
      key: "font",
      value: "mono",
    });
    expect(set.after).toEqual({ settings: { theme: "dark", lang: "nb", font: "mono" } });
    expect(set.report.notes).toEqual(["sets key to value in settings"]);
    const removed = await call(prefs(tool("delete", "Delete a value.", { key: text })), "delete", {
      key: "lang",
    });
    expect(removed.after).toEqual({ settings: { theme: "dark" } });
  });

  it("is not a record whose fields differ in type, nor taken by a key that is a number or another name", async () => {
    const mixed = world({ settings: { theme: "dark", size: 3 } }, [
      tool("get", "Read a value.", { key: text }),
    ]);
    expect((await call(mixed, "get", { key: "theme" })).report.verdict).toBe("not inferred");
    const numbered = prefs(tool("get", "Read a value.", { key: integer }));
    expect((await call(numbered, "get", { key: 1 })).report.verdict).toBe("not inferred");
    const named = prefs(tool("get", "Read a value.", { name: text }));
    expect((await call(named, "get", { name: "theme" })).report.verdict).toBe("not inferred");
  });

  it("is a record of flags too, but not the top of the state, nor a record of nulls", async () => {
    const get = tool("get", "Read a value.", { key: text });
    const flags = await call(world({ settings: { on: true, debug: false } }, [get]), "get", { key: "on" });
    expect(flags.answer).toEqual({ value: true });
    // the top's own fields are no store: the one record beside them is
    const top = await call(world({ theme: "dark", lang: "nb", settings: { a: "b" } }, [get]), "get", {
      key: "a",
    });
    expect(top.answer).toEqual({ value: "b" });
    expect(
      (await call(world({ theme: "dark", lang: "nb" }, [get]), "get", { key: "theme" })).report.verdict,
    ).toBe("not inferred");
    const nulls = await call(world({ settings: { x: null, y: null } }, [get]), "get", { key: "x" });
    expect(nulls.report.verdict).toBe("not inferred");
  });

  it("is no map of lists, no record inside a collection's records, and no empty record", async () => {
    const get = tool("get", "Read a value.", { key: text });
    const lists = await call(world({ lists: { a: ["x"], b: ["y"] } }, [get]), "get", { key: "a" });
    expect(lists.report.verdict).toBe("not inferred");
    const inside = await call(world({ desks: { d1: { id: "d1", prefs: { a: "x" } } } }, [get]), "get", {
      key: "a",
    });
    expect(inside.report.verdict).toBe("not inferred");
    const beside = await call(world({ settings: {}, other: { a: "z" } }, [get]), "get", { key: "a" });
    expect(beside.answer).toEqual({ value: "z" });
    // a map of text inside a record of mixed fields is the store, the record is not
    const codes = world({ desk: { label: "Front", size: 3, codes: { wifi: "fjord" } } }, [get]);
    expect((await call(codes, "get", { key: "wifi" })).answer).toEqual({ value: "fjord" });
    expect(
      (await call(world({ prefs: { theme: "dark", nested: { a: "b" } } }, [get]), "get", { key: "a" }))
        .answer,
    ).toEqual({
      value: "b",
    });
  });

  it("is the map whose values have the type of the value argument or answer, where there are several", async () => {
    const stores = { cache: { a: "x" }, counters: { hits: 3 } };
    const texts = await call(world(stores, [tool("set", "Write.", { key: text, value: text })]), "set", {
      key: "b",
      value: "y",
    });
    expect(texts.after).toEqual({ cache: { a: "x", b: "y" }, counters: { hits: 3 } });
    const numbers = await call(world(stores, [tool("set", "Write.", { key: text, value: number })]), "set", {
      key: "misses",
      value: 2,
    });
    expect(numbers.after).toEqual({ cache: { a: "x" }, counters: { hits: 3, misses: 2 } });
    // a schema's integer fits the numbers a state holds
    const counted = await call(world(stores, [tool("set", "Write.", { key: text, value: integer })]), "set", {
      key: "misses",
      value: 4,
    });
    expect(counted.after).toEqual({ cache: { a: "x" }, counters: { hits: 3, misses: 4 } });
    const read = tool("get", "Read.", { key: text }, undefined, [], out({ value: number }));
    expect((await call(world(stores, [read]), "get", { key: "hits" })).answer).toEqual({ value: 3 });
    // no map holds flags, and without a type nothing tells the two apart
    const flags = tool("set", "Write.", { key: text, value: bool });
    expect((await call(world(stores, [flags]), "set", { key: "on", value: true })).report.verdict).toBe(
      "not inferred",
    );
    const alike = tool("set", "Write.", { key: text, value: text });
    const twoTexts = await call(world({ cache: { a: "x" }, labels: { b: "y" } }, [alike]), "set", {
      key: "c",
      value: "z",
    });
    expect(twoTexts.report.verdict).toBe("not inferred");
    const untyped = tool("get", "Read.", { key: text });
    expect((await call(world(stores, [untyped]), "get", { key: "a" })).report.verdict).toBe("not inferred");
  });
});

describe("what a create makes", () => {
  it("is named for the collection its name names, in words", async () => {
    const state = { support_tickets: { s1: { id: "s1", title: "Badge" } } };
    const create = tool("create_support_ticket", "Create a support ticket.", { title: text });
    const { after, report } = await call(world(state, [create]), "create_support_ticket", { title: "Door" });
    expect(after.support_tickets).toEqual({ ...state.support_tickets, s2: { id: "s2", title: "Door" } });
    expect(report.notes).toEqual(["creates a support ticket in support_tickets with title"]);
  });
});

describe("a create of something the state keeps nowhere", () => {
  const garage = { cars: { c1: { id: "c1", model: "Golf", day_rate: 40 } } };
  const rent = tool("rent_car", "Rent a car.", { car_id: text, days: integer });

  it("checks the car a rental takes and says the rental is kept nowhere", async () => {
    const missing = await call(world(garage, [rent]), "rent_car", { car_id: "c9", days: 2 });
    expect(failure(missing.outcome)).toBe("CAR_NOT_FOUND");
    const rented = await call(world(garage, [rent]), "rent_car", { car_id: "c1", days: 2 });
    expect(rented.after).toEqual(garage);
    expect(rented.report.gaps).toContain(
      "where it keeps the rental it makes is not inferred: no part of the state is named for it",
    );
  });

  it("files the rental where the state keeps rentals", async () => {
    const { after, report } = await call(world({ ...garage, rentals: {} }, [rent]), "rent_car", {
      car_id: "c1",
      days: 2,
    });
    expect(after.rentals).toEqual({ "1": { rental_id: 1, car_id: "c1", days: 2 } });
    expect(after.cars).toEqual(garage.cars);
    expect(report.verdict).toBe("inferred");
  });

  it("names what a booking, a reservation, a purchase or a lease makes of the room it takes", async () => {
    const rooms = { rooms: { r1: { id: "r1", name: "Fjord", seats: 8 } } };
    for (const [verb, made] of [
      ["book", "booking"],
      ["reserve", "reservation"],
      ["buy", "purchase"],
      ["lease", "lease"],
    ]) {
      const take = tool(`${verb}_room`, "Take a room.", { room_id: text, day: text });
      const { report, after } = await call(world(rooms, [take]), `${verb}_room`, {
        room_id: "r1",
        day: "mon",
      });
      expect(after, verb).toEqual(rooms);
      expect(report.gaps, verb).toContain(
        `where it keeps the ${made} it makes is not inferred: no part of the state is named for it`,
      );
    }
  });

  it("names what a create makes after its verb where no part of the state is named for it", async () => {
    const rooms = { rooms: { r1: { id: "r1", name: "Fjord", seats: 8 } } };
    const schedule = tool("schedule_team_meeting", "Schedule a meeting.", { room_id: text, topic: text });
    const missing = await call(world(rooms, [schedule]), "schedule_team_meeting", {
      room_id: "r9",
      topic: "Plans",
    });
    expect(failure(missing.outcome)).toBe("ROOM_NOT_FOUND");
    expect(missing.report.notes).toContain("checks the room room_id names exists");
    expect(missing.report.gaps).toContain(
      "where it keeps the team meeting it makes is not inferred: no part of the state is named for it",
    );
  });
});

describe("the report of tools that keep their effects, and of tools inferred again", () => {
  const deleteTicket = [{ kind: "delete", target: "tickets/{ticket_id}" }];
  const byHand = { ...tool("close_ticket", "Close a ticket.", { ticket_id: text }), effects: deleteTicket };
  const byModel = {
    ...tool("reopen_ticket", "Reopen a ticket.", { ticket_id: text }),
    effects: deleteTicket,
    inferred: { by: "model", status: "partly", model: "helper-7" },
  };
  const unnamedModel = {
    ...tool("triage_ticket", "Triage a ticket.", { ticket_id: text }),
    effects: deleteTicket,
    inferred: { by: "a-model", status: "inferred" },
  };
  const byRules = {
    ...tool("get_ticket", "Get a ticket.", { ticket_id: text }, undefined, [
      error("STALE", "An error an earlier inference added.", "never", 404),
      error("FROZEN", "The desk is frozen.", "the desk is frozen", 423),
    ]),
    effects: deleteTicket,
    inferred: { by: "rules", status: "inferred", added: ["STALE"] },
  };
  const inferredDesk = () => inferToolset(world(desk(), [byHand, byModel, unnamedModel, byRules]));

  it("keeps authored effects and a model's, each with its verdict", () => {
    const { toolset, report } = inferredDesk();
    const [hand, model, unnamed] = report;
    expect(hand).toEqual({
      toolset: "w",
      tool: "close_ticket",
      verdict: "authored",
      notes: [],
      gaps: [],
      drafts: [],
    });
    expect(model).toEqual({
      toolset: "w",
      tool: "reopen_ticket",
      verdict: "partly",
      notes: ["effects written by helper-7; kept (delete the mark to infer it again)"],
      gaps: [],
      drafts: [],
    });
    expect(unnamed?.verdict).toBe("inferred");
    expect(unnamed?.notes).toEqual(["effects written by a-model; kept (delete the mark to infer it again)"]);
    for (const name of ["close_ticket", "reopen_ticket", "triage_ticket"])
      expect(toolset.tools.find((t) => t.name === name)?.effects).toEqual([
        { kind: "delete", target: "tickets/{ticket_id}", require: [] },
      ]);
    expect(toolset.tools.find((t) => t.name === "close_ticket")?.inferred).toBeUndefined();
  });

  it("infers a tool the rules marked again, without the errors they added, and names documented errors no effect answers", async () => {
    const { toolset, report } = inferredDesk();
    const again = toolset.tools.find((t) => t.name === "get_ticket");
    expect(again?.effects).toEqual([
      {
        kind: "read",
        target: "tickets/{ticket_id}",
        as: "ticket",
        output: "",
        require: [],
        missing: "TICKET_NOT_FOUND",
      },
    ]);
    expect(again?.errors.map((e) => e.code)).toEqual(["FROZEN", "TICKET_NOT_FOUND"]);
    expect(again?.inferred).toMatchObject({ by: "rules", status: "partly", added: ["TICKET_NOT_FOUND"] });
    expect(again?.inferred?.notes).toContain("documented error FROZEN is answered by no effect");
    const entry = report.find((r) => r.tool === "get_ticket");
    expect(entry?.verdict).toBe("partly");
    expect(entry?.gaps).toEqual(["documented error FROZEN is answered by no effect"]);
    expect(entry?.grounded).toEqual(["(answer)"]);
    // the tool as inferred runs: the ticket, or the error inference added
    const read = await call(world(desk(), [again]), "get_ticket", { ticket_id: "T-2" });
    expect(read.answer).toEqual(tickets(desk())["T-2"]);
  });

  it("infers nothing for a toolset without state, unless a tool computes", () => {
    const empty = (...tools: unknown[]) => world({}, tools);
    const lookup = tool("get_ticket", "Get a ticket.", { ticket_id: text });
    const add = tool("add_numbers", "Add two numbers.", { a: number, b: number });
    const none = inferToolset(empty(lookup, add), { computation: undefined });
    expect(none.report.map((r) => [r.tool, r.verdict, r.notes])).toEqual([
      ["get_ticket", "not inferred", ["the toolset has no state to act on"]],
      ["add_numbers", "not inferred", ["the toolset has no state to act on"]],
    ]);
    expect(none.toolset.tools.every((t) => t.effects.length === 0 && t.inferred === undefined)).toBe(true);
    const computed = inferToolset(empty(lookup, add));
    expect(computed.report.map((r) => [r.tool, r.verdict])).toEqual([
      ["get_ticket", "not inferred"],
      ["add_numbers", "partly"],
    ]);
    expect(computed.report[0]?.notes).toEqual(["the toolset has no state to act on"]);
    expect(computed.report[1]?.notes).toEqual(["computes its answer (a computation tool)"]);
  });
});

describe("the states a toolset's shape is read from", () => {
  const toolset = (id: string, state: State, tools: unknown[], tasks: unknown[] = []): Toolset =>
    ({ ...world(state, tools), id, tasks: tasks as Toolset["tasks"] }) as Toolset;
  const task = (id: string, state: State, toolsets?: string[]) => ({
    id,
    description: "Something to do.",
    difficulty: "simple" as const,
    valid: true,
    state,
    solution: [],
    checklist: [],
    ...(toolsets ? { toolsets } : {}),
  });
  const alertTools = [
    tool("create_alert", "Create an alert.", { message: text }),
    tool("get_pet", "Get a pet.", { pet_id: text }),
  ];
  const sample = {
    alerts: { "AL-0007": { id: "AL-0007", message: "Disk full" } },
    pets: { p1: { id: "p1", name: "Rex" } },
  };
  const idOf = (inferred: { report: { tool: string; drafts: unknown[] }[] }) =>
    (inferred.report.find((r) => r.tool === "create_alert")?.drafts[0] as { id?: unknown } | undefined)?.id;
  const verdictOf = (inferred: { report: { tool: string; verdict: string }[] }, name: string) =>
    inferred.report.find((r) => r.tool === name)?.verdict;

  it("takes a task's records of what the toolset keeps, and leaves out what it does not keep", () => {
    const own = inferToolset(toolset("alerts", { alerts: {} }, alertTools, [task("t", sample)]));
    expect(idOf(own)).toMatchObject({ prefix: "AL-", width: 4, field: "id" });
    expect(verdictOf(own, "get_pet")).toBe("not inferred");
    // without a state of its own (a `runtime` alone is none), every part of a task's state counts
    for (const state of [{}, { runtime: { now: "2026-03-02T09:00:00Z" } }]) {
      const whole = inferToolset(toolset("alerts", state, alertTools, [task("t", sample)]));
      expect(verdictOf(whole, "get_pet")).toBe("inferred");
      expect(idOf(whole)).toMatchObject({ prefix: "AL-", width: 4 });
    }
    const alone = inferToolset(toolset("alerts", { alerts: {} }, alertTools));
    expect(idOf(alone)).toMatchObject({ prefix: "", numeric: true, field: "alert_id" });
  });

  it("takes the states given and those of other toolsets' tasks that use it", () => {
    const given = inferToolset(toolset("alerts", { alerts: {} }, alertTools), { states: [sample] });
    expect(idOf(given)).toMatchObject({ prefix: "AL-", width: 4 });
    expect(verdictOf(given, "get_pet")).toBe("not inferred");
    const notes = (tasks: unknown[]) =>
      toolset(
        "notes",
        { notes: { n1: { id: "n1", text: "hi" } } },
        [tool("get_note", "Get a note.", { note_id: text })],
        tasks,
      );
    const alerts = toolset("alerts", { alerts: {} }, alertTools);
    const [using] = inferToolsets([alerts, notes([task("u", sample, ["alerts"])])]);
    expect(idOf(using as never)).toMatchObject({ prefix: "AL-", width: 4 });
    const [unused, other] = inferToolsets([alerts, notes([task("u", sample)])]);
    expect(idOf(unused as never)).toMatchObject({ prefix: "", numeric: true });
    expect(verdictOf(other as never, "get_note")).toBe("inferred");
  });

  it("infers a loaded catalog file by file, keeping each file's name", () => {
    const alerts = toolset("alerts", { alerts: {} }, alertTools);
    const notes = toolset("notes", { notes: { n1: { id: "n1" } } }, [
      tool("get_note", "Get a note.", { note_id: text }),
    ]);
    const { loaded, report } = inferLoaded([
      { file: "alerts.json", toolset: alerts },
      { file: "notes.json", toolset: notes },
    ] as never);
    expect(loaded.map((l) => [l.file, l.toolset.id])).toEqual([
      ["alerts.json", "alerts"],
      ["notes.json", "notes"],
    ]);
    expect(loaded[1]?.toolset.tools[0]?.effects).toHaveLength(1);
    expect(report.map((r) => [r.toolset, r.tool, r.verdict])).toEqual([
      ["alerts", "create_alert", "inferred"],
      ["alerts", "get_pet", "not inferred"],
      ["notes", "get_note", "inferred"],
    ]);
  });

  it("fills the key field into the records of a map in the state and in every task's state", () => {
    const strings = { type: "array", items: { type: "string" } };
    const funds = toolset(
      "funds",
      { funds: { VTI: { price: 250 } } },
      [
        tool("get_fund", "Get a fund.", { ticker: text }),
        tool("list_funds", "List funds.", {}, [], [], out({ funds: strings })),
      ],
      [
        task("t1", { funds: { BND: { price: 72 }, CASH: "held apart", OLD: { ticker: "OLD1", price: 1 } } }),
        task("t2", { quotes: { a: { price: 1 } } }),
      ],
    );
    const filled = inferToolset(funds).toolset;
    expect(filled.state).toEqual({ funds: { VTI: { ticker: "VTI", price: 250 } } });
    // toStrictEqual: a task without the map gains no empty key for it
    expect(filled.tasks.map((t) => t.state)).toStrictEqual([
      { funds: { BND: { ticker: "BND", price: 72 }, CASH: "held apart", OLD: { ticker: "OLD1", price: 1 } } },
      { quotes: { a: { price: 1 } } },
    ]);
  });
});

describe("a map of values named by the argument of a tool that names nothing", () => {
  const studio = (map: string, values: State = { Ben: "G-01" }) => ({
    studio: { [map]: values, guest_count: 1 },
  });

  it("gives a new guest the next id, in a map named for guests or for their ids", async () => {
    for (const map of ["guest_index", "guest_ids"]) {
      const register = tool("register", "Register someone.", { guest_name: text });
      const { after, report } = await call(world(studio(map), [register]), "register", {
        guest_name: "Dora",
      });
      expect(after, map).toEqual({ studio: { [map]: { Ben: "G-01", Dora: "G-02" }, guest_count: 2 } });
      expect(report.notes, map).toContain(`gives guest_name a new id in studio/${map} (from guest_count)`);
    }
  });

  it("removes a guest by a verb that leaves, and refuses one not there", async () => {
    const unregister = tool("unregister", "Unregister someone.", { guest: text });
    const removed = await call(world(studio("guest_index"), [unregister]), "unregister", { guest: "Ben" });
    expect(removed.after).toEqual({ studio: { guest_index: {}, guest_count: 1 } });
    const missing = await call(world(studio("guest_index"), [unregister]), "unregister", { guest: "Zed" });
    expect(failure(missing.outcome)).toBe("GUEST_NOT_FOUND");
  });

  it("joins the words of an argument of two words as the map's name does", async () => {
    const state = { studio: { vip_guest_index: { Ben: "V-01" }, vip_guest_count: 1 } };
    const register = tool("register", "Register someone.", { vip_guest_name: text });
    const { after } = await call(world(state, [register]), "register", { vip_guest_name: "Dora" });
    expect(after).toEqual({ studio: { vip_guest_index: { Ben: "V-01", Dora: "V-02" }, vip_guest_count: 2 } });
  });

  it("is not named by an optional argument, an id, or a name alone", async () => {
    const cases: Array<[Record<string, unknown>, string[] | undefined, Record<string, unknown>]> = [
      [{ guest_name: text }, [], { guest_name: "Dora" }],
      [{ guest_id: text }, undefined, { guest_id: "G-09" }],
      [{ name: text }, undefined, { name: "Dora" }],
      [{ guest_name: integer }, undefined, { guest_name: 4 }],
    ];
    for (const [properties, required, args] of cases) {
      const register = tool("register", "Register someone.", properties, required);
      const { after } = await call(world(studio("guest_index"), [register]), "register", args);
      expect(after, JSON.stringify(properties)).toEqual(studio("guest_index"));
    }
  });
});

describe("more of what a name and its hints say", () => {
  it("takes a one-word name that is only a read noun for an unknown verb", async () => {
    const history = tool("history", "History.", { ticket_id: text });
    const { answer, report } = await call(atDesk(history), "history", { ticket_id: "T-1" });
    expect(answer).toEqual({});
    expect(report.gaps).toEqual([
      "its verb (history) says nothing toolsim knows: what it does is not inferred",
    ]);
  });

  it("writes where the read-only hint is false though the verb reads: the record named, else a new one", async () => {
    const hinted = { annotations: { readOnlyHint: false } };
    const update = tool("get_ticket", "Get.", { ticket_id: text, status: text }, undefined, [], hinted);
    const updated = await call(atDesk(update), "get_ticket", { ticket_id: "T-1", status: "closed" });
    expect(tickets(updated.after)["T-1"]?.status).toBe("closed");
    const create = tool("get_ticket", "Get.", { title: text, status: text }, undefined, [], hinted);
    const created = await call(atDesk(create), "get_ticket", { title: "Badge broken", status: "open" });
    expect(tickets(created.after)["T-3"]).toEqual({ id: "T-3", title: "Badge broken", status: "open" });
  });
});

describe("a conversion between currencies answers from a guess unless the state keeps rates", () => {
  const convert = (outputSchema?: Record<string, unknown>) =>
    tool(
      "convert_currency",
      "Convert an amount between currencies.",
      { amount: number, from_currency: text, to_currency: text },
      undefined,
      [],
      outputSchema ? out(outputSchema) : {},
    );
  const args = { amount: 10, from_currency: "EUR", to_currency: "USD" };

  it("reports the answer guessed from toolsim's own table", async () => {
    const { report, tool: inferred } = await call(
      atDesk(convert({ converted_amount: number })),
      "convert_currency",
      args,
    );
    expect(report.verdict).toBe("partly");
    expect(report.guessed).toEqual(["converted_amount"]);
    expect(report.grounded).toEqual([]);
    expect(report.gaps).toEqual(["guessed (synthesized): converted_amount"]);
    expect(inferred.inferred?.guessed).toEqual(["converted_amount"]);
    const whole = await call(atDesk(convert()), "convert_currency", args);
    expect(whole.report.guessed).toEqual(["(answer)"]);
  });

  it("grounds the answer in the rates the state keeps", async () => {
    const rated = world({ ...desk(), rates: { EUR: 1, USD: 1.1 } }, [convert({ converted_amount: number })]);
    const { answer, report, tool: inferred } = await call(rated, "convert_currency", args);
    expect(answer).toEqual({ converted_amount: 11 });
    expect(report.verdict).toBe("inferred");
    expect(report.grounded).toEqual(["converted_amount"]);
    expect(inferred.inferred).not.toHaveProperty("guessed");
  });

  it("grounds a conversion of units, whose table is no guess", async () => {
    const units = tool("convert_units", "Convert a length between units.", {
      value: number,
      from_unit: text,
      to_unit: text,
    });
    const { answer, report } = await call(atDesk(units), "convert_units", {
      value: 1,
      from_unit: "km",
      to_unit: "m",
    });
    expect(answer).toBe(1000);
    expect(report.verdict).toBe("inferred");
  });
});

describe("the one argument of a tool named after a map of records without a key field", () => {
  const funds = { funds: { VTI: { price: 250, label: "Total" }, BND: { price: 70, label: "Bonds" } } };
  // a sibling names the funds otherwise, so the key is known by position alone
  const update = tool("update_fund", "Update a fund.", { fund_id: text, price: number });
  const get = (properties: Record<string, unknown>, required?: string[]) =>
    world(funds, [update, tool("get_fund", "Get a fund.", properties, required)]);

  it("is the key where its last word names a thing (text or a number), the others optional", async () => {
    const cases: Array<[Record<string, unknown>, string[] | undefined, string]> = [
      [{ ticker: text }, undefined, "ticker"],
      [{ symbol: integer }, undefined, "symbol"],
      [{ ticker: text, day: text }, ["ticker"], "ticker"],
    ];
    for (const [properties, required, key] of cases) {
      const read = await call(get(properties, required), "get_fund", { [key]: "BND" });
      expect(read.answer, key).toEqual(funds.funds.BND);
      expect(read.report.notes, key).toContain(
        `${key} is the key of funds (the one argument of a tool named after it)`,
      );
      expect(
        failure((await call(get(properties, required), "get_fund", { [key]: "XYZ" })).outcome),
        key,
      ).toBe("FUND_NOT_FOUND");
    }
    const nested = world({ desk: funds }, [update, tool("get_fund", "Get a fund.", { ticker: text })]);
    expect((await call(nested, "get_fund", { ticker: "VTI" })).answer).toEqual(funds.funds.VTI);
  });

  it("is no key where it describes, is a field, is a fraction, or has a required companion", async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ fund_size: text }, { fund_size: "BND" }],
      [{ label: text }, { label: "BND" }],
      [{ ticker: number }, { ticker: 1.5 }],
      [
        { ticker: text, day: text },
        { ticker: "BND", day: "monday" },
      ],
    ];
    for (const [properties, args] of cases) {
      const { report } = await call(get(properties), "get_fund", args);
      expect(
        report.notes.some((n) => n.includes("is the key of funds")),
        JSON.stringify(properties),
      ).toBe(false);
      expect(report.tool).toBe("get_fund");
    }
    const listed = world({ funds: [{ price: 1 }] }, [
      update,
      tool("get_fund", "Get a fund.", { ticker: text }),
    ]);
    expect((await call(listed, "get_fund", { ticker: "BND" })).report.notes).not.toContain(
      "ticker is the key of funds (the one argument of a tool named after it)",
    );
  });
});

describe("the record a tool acts on, among those its arguments name", () => {
  /** A clinic: patients keep their wallets inside them; appointments name both. */
  const clinic = (): State => ({
    patients: {
      pa1: {
        id: "pa1",
        name: "Ana",
        wallets: { w1: { label: "main", balance: 5 }, w2: { label: "hsa", balance: 9 } },
      },
    },
    appointments: { ap1: { id: "ap1", patient_id: "pa1", status: "booked", wallet_id: "w1", note: "" } },
  });
  const appointment = (after: State) => (after.appointments as Record<string, State>).ap1;

  it("is the record the name names before one kept inside records no argument names", async () => {
    const change = tool("change_appointment_wallet", "Change the wallet an appointment is paid with.", {
      appointment_id: text,
      wallet_id: text,
    });
    const { after } = await call(world(clinic(), [change]), "change_appointment_wallet", {
      appointment_id: "ap1",
      wallet_id: "w2",
    });
    expect(appointment(after)).toEqual({ ...appointment(clinic()), wallet_id: "w2" });
    expect(after.patients).toEqual(clinic().patients);
  });

  it("is the record the name names though its key is optional, before another a required argument names", async () => {
    const update = tool(
      "update_appointment",
      "Update an appointment.",
      { appointment_id: text, patient_id: text, note: text },
      ["patient_id", "note"],
    );
    const { after } = await call(world(clinic(), [update]), "update_appointment", {
      appointment_id: "ap1",
      patient_id: "pa1",
      note: "Bring the x-rays",
    });
    expect(appointment(after)?.note).toBe("Bring the x-rays");
    expect(after.patients).toEqual(clinic().patients);
  });

  it("is the one optional key of a tool named after nothing in the state, and none where there are two", async () => {
    const summary = (properties: Record<string, unknown>) =>
      world(clinic(), [tool("get_visit_summary", "Summary of a visit.", properties, [])]);
    const read = await call(summary({ appointment_id: text }), "get_visit_summary", {
      appointment_id: "ap1",
    });
    expect(read.answer).toEqual(appointment(clinic()));
    const two = await call(summary({ appointment_id: text, patient_id: text }), "get_visit_summary", {
      appointment_id: "ap1",
    });
    expect(two.report.verdict).toBe("not inferred");
  });

  it("is a record kept inside another where an argument names that other", async () => {
    const get = (properties: Record<string, unknown>) =>
      world(clinic(), [tool("get_wallet", "Get a wallet.", properties)]);
    const read = await call(get({ patient_id: text, wallet_id: text }), "get_wallet", {
      patient_id: "pa1",
      wallet_id: "w2",
    });
    expect(read.answer).toEqual({ label: "hsa", balance: 9 });
    const missing = await call(get({ patient_id: text, wallet_id: text }), "get_wallet", {
      patient_id: "pa1",
      wallet_id: "w7",
    });
    expect(failure(missing.outcome)).toBe("WALLET_NOT_FOUND");
    expect((await call(get({ wallet_id: text }), "get_wallet", { wallet_id: "w2" })).report.verdict).toBe(
      "not inferred",
    );
  });
});

describe("a verb that makes and puts into a status, given only a record's key", () => {
  const office = () => ({
    forms: {
      f1: { form_id: "f1", title: "Leave", status: "draft" },
      f2: { form_id: "f2", title: "Trip", status: "submitted" },
    },
  });

  it("submits the record it names, and refuses one that is not there", async () => {
    const submit = tool("submit_form", "Submit a form.", { form_id: text });
    const done = await call(world(office(), [submit]), "submit_form", { form_id: "f1" });
    expect((done.after.forms as Record<string, unknown>).f1).toEqual({
      form_id: "f1",
      title: "Leave",
      status: "submitted",
    });
    expect(Object.keys(done.after.forms as object)).toEqual(["f1", "f2"]);
    const unknown = await call(world(office(), [submit]), "submit_form", { form_id: "f9" });
    expect(failure(unknown.outcome)).toBe("FORM_NOT_FOUND");
  });

  it("still makes a record where the call gives its fields", async () => {
    const submit = tool("submit_form", "Submit a new form.", { title: text });
    const made = await call(world(office(), [submit]), "submit_form", { title: "Visa" });
    expect(Object.values(made.after.forms as Record<string, { title: string }>).map((f) => f.title)).toEqual([
      "Leave",
      "Trip",
      "Visa",
    ]);
  });
});
