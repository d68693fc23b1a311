import { describe, expect, it } from "vitest";
import { bool, call, error, failure, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * Two collections kept in step, each side naming the other: a tool crib's tools name their
 * borrower and each worker lists the serials they hold (arrays), and a company's people name
 * their team while each team lists its members (maps). Linking, unlinking and removing either
 * side leave both agreeing.
 */

const crib = () => ({
  max_tools_per_worker: 2,
  workers: [
    { id: "w-1", name: "Ines", tools: ["DR-7"] },
    { id: "w-2", name: "Olek", tools: ["SW-2", "GR-4"] },
    { id: "w-3", name: "Pia", tools: [] },
  ],
  tools: [
    { serial: "DR-7", kind: "drill", wear: "ok", borrower: "w-1" },
    { serial: "SW-2", kind: "saw", wear: "ok", borrower: "w-2" },
    { serial: "GR-4", kind: "grinder", wear: "ok", borrower: "w-2" },
    { serial: "SA-1", kind: "sander", wear: "worn_out", borrower: null },
    { serial: "PL-3", kind: "planer", wear: "ok", borrower: null },
  ],
});

const strings = { type: "array", items: { type: "string" } };
const toolMissing = error("TOOL_NOT_FOUND", "No such tool.", "no tool has this serial", 404);
const workerMissing = error("WORKER_NOT_FOUND", "No such worker.", "no worker has this id", 404);

const lend = tool(
  "crib_lend",
  'Checks a tool out to a worker. Returns serial, borrower and worker_tools (the worker\'s list after). Errors in order: TOOL_NOT_FOUND; WORKER_NOT_FOUND; TOOL_OUT if the tool is already checked out; WORN_OUT if its wear is "worn_out"; AT_LIMIT if the worker holds max_tools_per_worker tools already.',
  { serial: text, worker_id: text },
  ["serial", "worker_id"],
  [
    toolMissing,
    workerMissing,
    error("TOOL_OUT", "The tool is out.", "the tool is already checked out", 409),
    error("WORN_OUT", "The tool is worn out.", 'its wear is "worn_out"', 409),
    error("AT_LIMIT", "The worker holds enough.", "the worker holds max_tools_per_worker tools already", 409),
  ],
  outputs({ serial: text, borrower: text, worker_tools: strings }),
);

const takeBack = tool(
  "crib_return_tool",
  "Returns a tool to the crib, with its wear when given. Returns serial, previous_borrower and wear. Errors: TOOL_NOT_FOUND; NOT_LENT if the tool is not lent.",
  { serial: text, wear: text },
  ["serial"],
  [toolMissing, error("NOT_LENT", "The tool is not lent.", "the tool is not lent", 409)],
  outputs({ serial: text, previous_borrower: text, wear: text }),
);

const removeWorker = tool(
  "crib_remove_worker",
  "Removes a worker; with force true, whatever tools they hold go back to the crib first. Returns removed and released (the serials released). Errors: WORKER_NOT_FOUND; HAS_TOOLS if the worker still holds any tool and force is not true.",
  { worker_id: text, force: bool },
  ["worker_id"],
  [
    workerMissing,
    error("HAS_TOOLS", "The worker still holds tools.", "the worker still holds any tool", 409),
  ],
  outputs({ removed: text, released: strings }),
);

const tools = (after: Record<string, unknown>) =>
  Object.fromEntries(
    (after.tools as Array<{ serial: string; borrower: string | null }>).map((t) => [t.serial, t.borrower]),
  );
const held = (after: Record<string, unknown>) =>
  Object.fromEntries((after.workers as Array<{ id: string; tools: string[] }>).map((w) => [w.id, w.tools]));

describe("two collections kept in step", () => {
  it("lends: the tool names its borrower and the worker lists the tool, both checked first", async () => {
    const toolset = world(crib(), [lend]);
    const lent = await call(toolset, "crib_lend", { serial: "PL-3", worker_id: "w-3" });
    expect(lent.answer).toEqual({ serial: "PL-3", borrower: "w-3", worker_tools: ["PL-3"] });
    expect(tools(lent.after)["PL-3"]).toBe("w-3");
    expect(held(lent.after)).toEqual({ "w-1": ["DR-7"], "w-2": ["SW-2", "GR-4"], "w-3": ["PL-3"] });
    const refused = async (args: Record<string, unknown>) =>
      failure((await call(toolset, "crib_lend", args)).outcome);
    expect(await refused({ serial: "XX-0", worker_id: "w-3" })).toBe("TOOL_NOT_FOUND");
    expect(await refused({ serial: "PL-3", worker_id: "w-9" })).toBe("WORKER_NOT_FOUND");
    expect(await refused({ serial: "DR-7", worker_id: "w-3" })).toBe("TOOL_OUT");
    expect(await refused({ serial: "DR-7", worker_id: "w-1" })).toBe("TOOL_OUT");
    expect(await refused({ serial: "SA-1", worker_id: "w-3" })).toBe("WORN_OUT");
    expect(await refused({ serial: "PL-3", worker_id: "w-2" })).toBe("AT_LIMIT");
  });

  it("takes back: the borrower is cleared, the serial leaves their list, a given field is kept", async () => {
    const toolset = world(crib(), [takeBack]);
    const back = await call(toolset, "crib_return_tool", { serial: "SW-2", wear: "worn_out" });
    expect(back.answer).toEqual({ serial: "SW-2", previous_borrower: "w-2", wear: "worn_out" });
    expect(tools(back.after)["SW-2"]).toBeNull();
    expect(held(back.after)["w-2"]).toEqual(["GR-4"]);
    const notLent = await call(toolset, "crib_return_tool", { serial: "PL-3" });
    expect(failure(notLent.outcome)).toBe("NOT_LENT");
  });

  it("removes a holder only when it holds nothing, or releases what it held when forced", async () => {
    const toolset = world(crib(), [removeWorker]);
    const refused = await call(toolset, "crib_remove_worker", { worker_id: "w-2" });
    expect(failure(refused.outcome)).toBe("HAS_TOOLS");
    const forced = await call(toolset, "crib_remove_worker", { worker_id: "w-2", force: true });
    expect(forced.answer).toMatchObject({ removed: "w-2", released: ["SW-2", "GR-4"] });
    expect(tools(forced.after)).toMatchObject({ "SW-2": null, "GR-4": null, "DR-7": "w-1" });
    expect(Object.keys(held(forced.after))).toEqual(["w-1", "w-3"]);
    const empty = await call(toolset, "crib_remove_worker", { worker_id: "w-3" });
    expect(empty.answer).toMatchObject({ removed: "w-3", released: [] });
  });
});

const company = () => ({
  next_person_no: 4,
  teams: {
    platform: { lead: "Rae", max_members: 2, members: ["p-1", "p-2"] },
    mobile: { lead: "Sol", max_members: 3, members: ["p-3"] },
    data: { lead: "Tam", max_members: 1, members: [] },
  },
  people: {
    "p-1": { name: "Ari", team: "platform" },
    "p-2": { name: "Bo", team: "platform" },
    "p-3": { name: "Cy", team: "mobile" },
  },
});

const personMissing = error("PERSON_NOT_FOUND", "No such person.", "no person has this id", 404);
const teamMissing = error("TEAM_NOT_FOUND", "No such team.", "no team has this id", 404);

describe("a holder added with the id the caller chose", () => {
  it("keeps that id, holding nothing, and refuses one taken", async () => {
    const addWorker = tool(
      "crib_add_worker",
      "Signs up a worker under an id the caller picks; they start with no tools. Returns the worker {id, name, tools}. Errors: DUPLICATE_WORKER if the id exists.",
      { worker_id: text, name: text },
      ["worker_id", "name"],
      [error("DUPLICATE_WORKER", "Taken.", "the id exists", 409)],
      outputs({ id: text, name: text, tools: strings }),
    );
    const toolset = world(crib(), [addWorker]);
    const added = await call(toolset, "crib_add_worker", { worker_id: "w-ana", name: "Ana" });
    expect((added.after.workers as unknown[]).at(-1)).toEqual({ id: "w-ana", name: "Ana", tools: [] });
    expect(
      failure((await call(toolset, "crib_add_worker", { worker_id: "w-2", name: "Olek" })).outcome),
    ).toBe("DUPLICATE_WORKER");
  });
});

describe("two maps kept in step", () => {
  it("moves a person between teams: out of the old team's members, onto the new one's", async () => {
    const assign = tool(
      "org_assign",
      "Moves a person onto a team, off the team they were on. Returns person_id, team_id and previous_team (null if none). Checks in order: PERSON_NOT_FOUND, TEAM_NOT_FOUND, ALREADY_ON_TEAM (the person is already on this same team), TEAM_FULL (the team has max_members members already).",
      { person_id: text, team_id: text },
      ["person_id", "team_id"],
      [
        personMissing,
        teamMissing,
        error("ALREADY_ON_TEAM", "Already there.", "the person is already on this same team", 409),
        error("TEAM_FULL", "The team is full.", "the team has max_members members already", 409),
      ],
      outputs({ person_id: text, team_id: text, previous_team: { type: ["string", "null"] } }),
    );
    const toolset = world(company(), [assign]);
    const moved = await call(toolset, "org_assign", { person_id: "p-2", team_id: "mobile" });
    expect(moved.answer).toEqual({ person_id: "p-2", team_id: "mobile", previous_team: "platform" });
    const teams = moved.after.teams as Record<string, { members: string[] }>;
    expect(teams.platform?.members).toEqual(["p-1"]);
    expect(teams.mobile?.members).toEqual(["p-3", "p-2"]);
    expect((moved.after.people as Record<string, { team: string }>)["p-2"]?.team).toBe("mobile");
    const refused = async (args: Record<string, unknown>) =>
      failure((await call(toolset, "org_assign", args)).outcome);
    expect(await refused({ person_id: "p-9", team_id: "data" })).toBe("PERSON_NOT_FOUND");
    expect(await refused({ person_id: "p-1", team_id: "ops" })).toBe("TEAM_NOT_FOUND");
    expect(await refused({ person_id: "p-1", team_id: "platform" })).toBe("ALREADY_ON_TEAM");
    expect(await refused({ person_id: "p-3", team_id: "platform" })).toBe("TEAM_FULL");
  });

  it("a person made on a team joins its members; one removed leaves them", async () => {
    const add = tool(
      "org_add_person",
      "Adds a person, numbered p-<next_person_no>; given a team, they join it. Returns id, name and team. TEAM_NOT_FOUND for an unknown team, TEAM_FULL when it has no room.",
      { name: text, team: text },
      ["name"],
      [teamMissing, error("TEAM_FULL", "The team is full.", "the team has no room", 409)],
      outputs({ id: text, name: text, team: { type: ["string", "null"] } }),
    );
    const remove = tool(
      "org_remove_person",
      "Removes a person; they leave their team's members. Returns person_id and removed: true.",
      { person_id: text },
      ["person_id"],
      [personMissing],
      outputs({ person_id: text, removed: bool }),
    );
    const toolset = world(company(), [add, remove]);
    const made = await call(toolset, "org_add_person", { name: "Dee", team: "mobile" });
    expect(made.answer).toMatchObject({ id: "p-4", team: "mobile" });
    expect((made.after.teams as Record<string, { members: string[] }>).mobile?.members).toEqual([
      "p-3",
      "p-4",
    ]);
    const full = await call(toolset, "org_add_person", { name: "Eve", team: "platform" });
    expect(failure(full.outcome)).toBe("TEAM_FULL");
    const gone = await call(toolset, "org_remove_person", { person_id: "p-1" });
    expect((gone.after.teams as Record<string, { members: string[] }>).platform?.members).toEqual(["p-2"]);
    expect(Object.keys(gone.after.people as object)).toEqual(["p-2", "p-3"]);
  });
});

describe("a reference that is never empty", () => {
  it("is not ended by a verb that ends links elsewhere", async () => {
    const shop = {
      customers: { "c-1": { name: "Ona", orders: ["o-1", "o-2"] } },
      orders: {
        "o-1": { customer: "c-1", status: "delivered" },
        "o-2": { customer: "c-1", status: "pending" },
      },
    };
    const giveBack = tool(
      "shop_return_order",
      'Returns a delivered order: its status becomes "returned". Returns order_id and status.',
      { order_id: text },
      ["order_id"],
      [error("ORDER_NOT_FOUND", "No such order.", "no order has this id", 404)],
      outputs({ order_id: text, status: text }),
    );
    const back = await call(world(shop, [giveBack]), "shop_return_order", { order_id: "o-1" });
    expect((back.after.orders as Record<string, { customer: string }>)["o-1"]?.customer).toBe("c-1");
    expect((back.after.customers as Record<string, { orders: string[] }>)["c-1"]?.orders).toEqual([
      "o-1",
      "o-2",
    ]);
  });
});
