import { describe, expect, it } from "vitest";
import type { ListedTool, Reply } from "../eval/mcp-client.js";
import { reportOf } from "../eval/self-consistency.js";
import {
  type Caller,
  type Contradiction,
  type Kind,
  plansFor,
  type SequenceRun,
  type World,
} from "../eval/sequences.js";
import { partnersOf, profileTools } from "../eval/tool-roles.js";

/**
 * The self-consistency sequences against small servers written here as plain functions: a
 * pet register that keeps its word, and the same register with one fault at a time. A
 * faithful server must come out with no contradiction, and each fault with its own.
 */

type Fault = "invented-id" | "stale-update" | "undead" | "hidden" | "off-schema" | "none";

const PET = {
  type: "object",
  properties: {
    pet_id: { type: "string", pattern: "^PET-[0-9]+$" },
    name: { type: "string" },
    species: { type: "string", enum: ["dog", "cat", "rabbit"] },
    age_years: { type: "integer", minimum: 0, maximum: 30 },
  },
  required: ["pet_id", "name", "species"],
};

const TOOLS: ListedTool[] = [
  {
    name: "create_pet",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1 },
        species: { type: "string", enum: ["dog", "cat", "rabbit"] },
        age_years: { type: "integer", minimum: 0, maximum: 30 },
      },
      required: ["name", "species"],
      additionalProperties: false,
    },
    outputSchema: PET,
  },
  {
    name: "get_pet",
    inputSchema: {
      type: "object",
      properties: { pet_id: { type: "string", pattern: "^PET-[0-9]+$" } },
      required: ["pet_id"],
    },
    outputSchema: PET,
    annotations: { readOnlyHint: true },
  },
  {
    name: "update_pet",
    inputSchema: {
      type: "object",
      properties: {
        pet_id: { type: "string", pattern: "^PET-[0-9]+$" },
        name: { type: "string", minLength: 1 },
        age_years: { type: "integer", minimum: 0, maximum: 30 },
      },
      required: ["pet_id"],
      additionalProperties: false,
    },
    outputSchema: PET,
  },
  {
    name: "delete_pet",
    inputSchema: {
      type: "object",
      properties: { pet_id: { type: "string", pattern: "^PET-[0-9]+$" } },
      required: ["pet_id"],
    },
  },
  {
    name: "list_pets",
    inputSchema: {
      type: "object",
      properties: { limit: { type: "integer", minimum: 1, maximum: 50 } },
    },
    outputSchema: { type: "object", properties: { pets: { type: "array", items: PET } }, required: ["pets"] },
    annotations: { readOnlyHint: true },
  },
];

function ok(value: unknown): Reply {
  return { isError: false, structured: value, text: JSON.stringify(value), value };
}

function notFound(id: unknown): Reply {
  const value = { error: { code: "PET_NOT_FOUND", message: `No pet ${String(id)}` } };
  return { isError: true, text: JSON.stringify(value), value };
}

/** A pet register in memory, starting with two pets; `fault` breaks one promise. */
function register(fault: Fault): { caller: Caller; state: Record<string, unknown> } {
  const pets = new Map<string, Record<string, unknown>>([
    ["PET-1", { pet_id: "PET-1", name: "Rex", species: "dog", age_years: 3 }],
    ["PET-2", { pet_id: "PET-2", name: "Tom", species: "cat", age_years: 5 }],
  ]);
  let next = 3;
  const state = { pets: Object.fromEntries(pets) };
  const caller: Caller = async (tool, args) => {
    switch (tool) {
      case "create_pet": {
        const id = `PET-${next++}`;
        const pet = { pet_id: id, ...args };
        pets.set(id, pet);
        if (fault === "off-schema") return ok({});
        return ok(fault === "invented-id" ? { ...pet, pet_id: `PET-${900 + next}` } : pet);
      }
      case "get_pet": {
        const pet = pets.get(String(args.pet_id));
        return pet ? ok(pet) : notFound(args.pet_id);
      }
      case "update_pet": {
        const pet = pets.get(String(args.pet_id));
        if (!pet) return notFound(args.pet_id);
        const changed = { ...pet, ...args };
        if (fault !== "stale-update") pets.set(String(args.pet_id), changed);
        return ok(changed);
      }
      case "delete_pet": {
        if (!pets.has(String(args.pet_id))) return notFound(args.pet_id);
        if (fault !== "undead") pets.delete(String(args.pet_id));
        return ok({ deleted: true });
      }
      case "list_pets": {
        const all = [...pets.values()];
        return ok({ pets: fault === "hidden" ? all.slice(0, 2) : all });
      }
      default:
        return { isError: true, text: `no tool ${tool}`, value: `no tool ${tool}` };
    }
  };
  return { caller, state };
}

const ALL_KINDS: ReadonlySet<Kind> = new Set([
  "create-read",
  "update-read",
  "delete-read",
  "list-after-create",
  "single-call",
  "crud-chain",
]);

async function runAll(fault: Fault): Promise<SequenceRun[]> {
  const { caller, state } = register(fault);
  const world: World = { profiles: profileTools(TOOLS), state };
  const runs: SequenceRun[] = [];
  let seed = 0;
  for (const plan of plansFor(world, ALL_KINDS)) runs.push(await plan.run(caller, world, ++seed));
  return runs;
}

function contradictions(runs: readonly SequenceRun[]): Record<Contradiction, number> {
  const report = reportOf("pets", profileTools(TOOLS), [], runs);
  return Object.fromEntries(
    Object.entries(report.contradictions).map(([kind, tally]) => [kind, tally.contradicted]),
  ) as Record<Contradiction, number>;
}

describe("pairing tools by what they act on", () => {
  it("reads the roles and the identifier argument from names", () => {
    const profiles = profileTools(TOOLS);
    const byName = Object.fromEntries(profiles.map((p) => [p.tool.name, p]));
    expect(byName.create_pet?.role).toBe("create");
    expect(byName.get_pet).toMatchObject({ role: "read", idArg: "pet_id" });
    expect(byName.update_pet).toMatchObject({ role: "update", idArg: "pet_id" });
    expect(byName.delete_pet).toMatchObject({ role: "delete", idArg: "pet_id" });
    expect(byName.list_pets?.role).toBe("list");
    for (const p of profiles) expect(p.subjects[0], p.tool.name).toBe("pet");
  });

  it("reads no delete into a destructive hint on a name without a verb it knows", () => {
    const hinted = (name: string, annotations: ListedTool["annotations"]): ListedTool => ({
      name,
      annotations,
      inputSchema: { type: "object", properties: { pet_id: { type: "string" } }, required: ["pet_id"] },
    });
    const [freeze, drop] = profileTools([
      // an update that sets a flag is destructive and idempotent in MCP's terms, as a delete is
      hinted("freeze_pet", { readOnlyHint: false, destructiveHint: true, idempotentHint: true }),
      hinted("drop_pet", { readOnlyHint: false, destructiveHint: true, idempotentHint: true }),
    ]);
    expect(freeze?.role).toBe("other");
    expect(drop?.role).toBe("delete");
  });

  it("reads a removal of a part of a record as no delete of the record", () => {
    const tool = (name: string, required: string[]): ListedTool => ({
      name,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(required.map((r) => [r, { type: "string" }])),
        required,
      },
    });
    const [label, track, vet, pet] = profileTools([
      tool("remove_label", ["pet_id", "label"]),
      tool("remove_toy_from_pet", ["pet_id", "toy_id"]),
      tool("unregister_from_pet", ["pet_id", "vet_id"]),
      tool("remove_pet", ["pet_id"]),
    ]);
    expect(label?.role).toBe("other");
    expect(track?.role).toBe("other");
    expect(vet?.role).toBe("other");
    expect(pet).toMatchObject({ role: "delete", idArg: "pet_id" });
  });

  it("pairs tools whose declared effects target the same collection, whatever their names say", () => {
    const [adopt, show] = profileTools(
      [
        {
          name: "register_arrival",
          inputSchema: { type: "object", properties: { name: { type: "string" } } },
        },
        {
          name: "show_animal",
          inputSchema: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] },
        },
      ],
      new Map([
        ["register_arrival", [{ kind: "create", target: "animals" }]],
        ["show_animal", [{ kind: "read", target: "animals/{tag}" }]],
      ]),
    );
    expect(adopt).toMatchObject({ role: "create", collection: "animals", via: "effects" });
    expect(show).toMatchObject({ role: "read", idArg: "tag", collection: "animals", via: "effects" });
    const world: World = { profiles: [adopt, show].filter((p) => p !== undefined) };
    expect(plansFor(world, new Set(["create-read"])).map((p) => p.label)).toEqual([
      "create-read register_arrival",
    ]);
  });

  it("a create made inside another entity is a thing of its own kind, not its parent", () => {
    const [profile] = profileTools(
      [{ name: "add_card", inputSchema: { type: "object", properties: { user_id: { type: "string" } } } }],
      new Map([["add_card", [{ kind: "create", target: "users/{user_id}/cards" }]]]),
    );
    expect(profile?.collection).toBe("users/*/cards");
    expect(profile?.subjects[0]).toBe("card");
  });

  it("a number in two tools' names does not make them partners", () => {
    const text = { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] };
    const [generate, ...lists] = profileTools(
      [
        { name: "generate_image_2", inputSchema: text },
        { name: "search_web_2", inputSchema: text, annotations: { readOnlyHint: true } },
        {
          name: "list_images_2",
          inputSchema: { type: "object", properties: {} },
          annotations: { readOnlyHint: true },
        },
      ],
      new Map([["generate_image_2", [{ kind: "create", target: "images" }]]]),
    );
    if (!generate) throw new Error("no profile");
    expect(partnersOf(generate, lists, "list").map((p) => p.tool.name)).toEqual(["list_images_2"]);
  });

  it("a batch create and a read by a list of names, paired by what the read answers", () => {
    const item = {
      type: "object",
      properties: { name: { type: "string" }, kind: { type: "string" } },
      required: ["name", "kind"],
    };
    const profiles = profileTools([
      {
        name: "create_entities",
        inputSchema: {
          type: "object",
          properties: { entities: { type: "array", items: item } },
          required: ["entities"],
        },
      },
      {
        name: "open_nodes",
        inputSchema: {
          type: "object",
          properties: { names: { type: "array", items: { type: "string" } } },
          required: ["names"],
        },
        outputSchema: { type: "object", properties: { entities: { type: "array", items: item } } },
        annotations: { readOnlyHint: true },
      },
    ]);
    expect(profiles[1]).toMatchObject({ role: "read", idArg: "names", idList: true });
    expect(plansFor({ profiles }, new Set(["create-read"]))).toHaveLength(1);
  });
});

describe("self-consistency sequences", () => {
  it("find no contradiction in a register that keeps its word, and check every kind", async () => {
    const runs = await runAll("none");
    expect(contradictions(runs)).toEqual({
      "unreadable-id": 0,
      "missed-write": 0,
      "delete-still-reads": 0,
      "list-misses-create": 0,
      "outside-output-schema": 0,
    });
    const report = reportOf("pets", profileTools(TOOLS), [], runs);
    for (const tally of Object.values(report.contradictions)) expect(tally.checked).toBeGreaterThan(0);
    expect(runs.filter((r) => r.stopped)).toEqual([]);
  });

  it("an id the create answered that no read finds", async () => {
    const found = contradictions(await runAll("invented-id"));
    expect(found["unreadable-id"]).toBeGreaterThan(0);
  });

  it("an update a later read does not show", async () => {
    const found = contradictions(await runAll("stale-update"));
    expect(found["missed-write"]).toBeGreaterThan(0);
    expect(found["unreadable-id"]).toBe(0);
  });

  it("a read of what is known about a thing is not asked to show what was written", async () => {
    const { caller } = register("none");
    const info: Caller = async (tool, args) => {
      if (tool !== "get_pet_info") return caller(tool, args);
      const pet = await caller("get_pet", args);
      // metadata under a field a write also names: the register's own words, not the pet's name
      return pet.isError ? pet : ok({ pet_id: args.pet_id, name: "registered on 2026-03-02" });
    };
    const tools = TOOLS.map((t) =>
      t.name === "get_pet" ? { ...t, name: "get_pet_info", outputSchema: undefined } : t,
    );
    const world: World = { profiles: profileTools(tools) };
    const runs: SequenceRun[] = [];
    let seed = 0;
    for (const plan of plansFor(world, new Set<Kind>(["update-read"])))
      runs.push(await plan.run(info, world, ++seed));
    expect(runs.length).toBeGreaterThan(0);
    expect(contradictions(runs)["missed-write"]).toBe(0);
  });

  it("a delete after which the read still finds the thing", async () => {
    const found = contradictions(await runAll("undead"));
    expect(found["delete-still-reads"]).toBeGreaterThan(0);
    expect(found["missed-write"]).toBe(0);
  });

  it("a list that misses what was just created", async () => {
    const found = contradictions(await runAll("hidden"));
    expect(found["list-misses-create"]).toBeGreaterThan(0);
    expect(found["delete-still-reads"]).toBe(0);
  });

  it("a result outside the advertised output schema, and a create that answers no id it promised", async () => {
    const runs = await runAll("off-schema");
    const found = contradictions(runs);
    expect(found["outside-output-schema"]).toBeGreaterThan(0);
    const report = reportOf("pets", profileTools(TOOLS), [], runs);
    expect(report.contradictions["unreadable-id"].examples.join("\n")).toContain("answered no pet_id");
  });

  it("without a read by id, an update that cannot find the id the create answered", async () => {
    const withoutRead = TOOLS.filter((t) => t.name !== "get_pet");
    const run = async (fault: Fault) => {
      const { caller, state } = register(fault);
      const world: World = { profiles: profileTools(withoutRead), state };
      const plans = plansFor(world, new Set(["crud-chain"]));
      expect(plans.map((p) => p.label)).toEqual(["crud-chain create_pet"]);
      const runs = [await (plans[0] as (typeof plans)[number]).run(caller, world, 1)];
      return reportOf("pets", world.profiles, plans, runs).contradictions["unreadable-id"];
    };
    expect(await run("none")).toMatchObject({ contradicted: 0 });
    expect((await run("none")).checked).toBeGreaterThan(0);
    expect(await run("invented-id")).toMatchObject({ contradicted: 2 });
  });

  it("arguments name entities the state holds, and calls are never refused as invalid", async () => {
    const { caller, state } = register("none");
    const seen: Array<[string, Record<string, unknown>]> = [];
    const recording: Caller = (tool, args) => {
      seen.push([tool, args]);
      return caller(tool, args);
    };
    const world: World = { profiles: profileTools(TOOLS), state };
    for (const plan of plansFor(world, new Set(["update-read", "delete-read"])))
      await plan.run(recording, world, 1);
    const ids = seen.filter(([tool]) => tool !== "create_pet").map(([, args]) => args.pet_id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(["PET-1", "PET-2"]).toContain(id);
  });
});
