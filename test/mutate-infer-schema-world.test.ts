import { describe, expect, it } from "vitest";
import type { Toolset } from "../src/catalog/index.js";
import { inferToolset, schemaWorld } from "../src/infer/index.js";
import { call, failure, integer, text, tool, world } from "./support/infer-world.js";

/**
 * A catalog that comes without a state (an OpenAPI spec, a server's tool list) starts from
 * an empty world built from its schemas: one empty collection per noun that its create, read,
 * update, delete and list tools share, keyed as those tools name one record, its records
 * shaped as the tools answer them; an empty tree where the tools address files by path. The
 * first create is then readable, listable, updatable and deletable.
 */

type Step = [tool: string, args: Record<string, unknown>];

/** The calls one after another, from the world the catalog starts with once inferred. */
async function session(toolset: Toolset, steps: Step[]) {
  let state = inferToolset(toolset).toolset.state;
  const answers = [];
  for (const [name, args] of steps) {
    const done = await call(toolset, name, args, state);
    state = done.after;
    answers.push(done);
  }
  return { answers, state };
}

/** The collections of the empty world: name, key field, whether keys are numbers. */
function collections(toolset: Toolset) {
  return schemaWorld(toolset)?.described.map((c) => [c.name, c.keyField, c.numeric]);
}

const out = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  outputSchema: { type: "object", properties, ...more },
});

const plant = {
  id: integer,
  name: text,
  status: { type: "string", enum: ["seedling", "potted", "sold"] },
};

/** A plant nursery's REST API, as an OpenAPI import names its operations. */
const nursery = world({}, [
  tool("createPlant", "Add a plant.", { name: text, status: text }, ["name"], [], out(plant)),
  tool("getPlant", "Get a plant.", { plantId: integer }, undefined, [], out(plant)),
  tool(
    "updatePlant",
    "Update a plant.",
    { plantId: integer, name: text, status: text },
    ["plantId"],
    [],
    out(plant),
  ),
  tool("deletePlant", "Delete a plant.", { plantId: integer }),
  tool(
    "listPlants",
    "List plants.",
    { status: text },
    [],
    [],
    out({ items: { type: "array", items: { type: "object", properties: plant } }, total: integer }),
  ),
]);

describe("the empty world of a REST API", () => {
  it("has one empty collection, keyed by the numeric id its records answer", () => {
    expect(schemaWorld(nursery)?.state).toEqual({ plants: {} });
    expect(collections(nursery)).toEqual([["plants", "id", true]]);
    expect(inferToolset(nursery).toolset.state).toEqual({ plants: {} });
  });

  it("creates, reads, updates, lists and deletes from the first call", async () => {
    const { answers, state } = await session(nursery, [
      ["createPlant", { name: "Fern" }],
      ["createPlant", { name: "Ivy", status: "potted" }],
      ["getPlant", { plantId: 1 }],
      ["updatePlant", { plantId: 2, status: "sold" }],
      ["listPlants", {}],
      ["deletePlant", { plantId: 1 }],
      ["getPlant", { plantId: 1 }],
    ]);
    const [fern, ivy, read, sold, listed, deleted, gone] = answers;
    expect(fern?.answer).toEqual({ id: 1, name: "Fern" });
    expect(ivy?.answer).toEqual({ id: 2, name: "Ivy", status: "potted" });
    expect(read?.answer).toEqual({ id: 1, name: "Fern" });
    expect(sold?.answer).toEqual({ id: 2, name: "Ivy", status: "sold" });
    expect(listed?.answer).toEqual({
      items: [
        { id: 1, name: "Fern" },
        { id: 2, name: "Ivy", status: "sold" },
      ],
      total: 2,
    });
    expect(deleted?.outcome.status).toBe("applied");
    expect(failure(gone?.outcome ?? { status: "none" })).toBe("PLANT_NOT_FOUND");
    expect(state).toEqual({ plants: { 2: { id: 2, name: "Ivy", status: "sold" } } });
  });

  it("starts a new record in the first status its schema lists, and reads it through a `$ref` and a `result` wrapper", async () => {
    const toolset = world({}, [
      tool("createPlant", "Add a plant.", { name: text }),
      tool("getPlant", "Get a plant.", { plantId: integer }, undefined, [], {
        outputSchema: {
          type: "object",
          properties: { result: { $ref: "#/$defs/Plant" } },
          $defs: { Plant: { type: "object", properties: plant } },
        },
      }),
    ]);
    expect(collections(toolset)).toEqual([["plants", "id", true]]);
    const { answers } = await session(toolset, [
      ["createPlant", { name: "Fern" }],
      ["getPlant", { plantId: 1 }],
    ]);
    expect(answers[0]?.after.plants).toEqual({ 1: { id: 1, name: "Fern", status: "seedling" } });
    expect(answers[1]?.outcome.status).toBe("applied");
  });

  it("fills an empty collection of a state with the records its schemas describe", async () => {
    const toolset = world({ plants: {}, greenhouse: { name: "North" } }, [
      tool("createPlant", "Add a plant.", { name: text }),
      tool("getPlant", "Get a plant.", { plantId: integer }, undefined, [], out(plant)),
    ]);
    const { answers } = await session(toolset, [["createPlant", { name: "Fern" }]]);
    expect(answers[0]?.after).toEqual({
      plants: { 1: { id: 1, name: "Fern", status: "seedling" } },
      greenhouse: { name: "North" },
    });
  });
});

describe("the key of a collection", () => {
  it("is the identifier argument, where the records' schema names none", async () => {
    const trails = world({}, [
      tool("create_trail", "Add a trail.", { name: text, length_km: integer }),
      tool("get_trail", "Get a trail.", { trail_id: text }),
      tool("delete_trail", "Delete a trail.", { trail_id: text }),
    ]);
    expect(collections(trails)).toEqual([["trails", "trail_id", false]]);
    const { answers } = await session(trails, [
      ["create_trail", { name: "Ridge", length_km: 4 }],
      ["get_trail", { trail_id: "1" }],
    ]);
    const made = answers[0]?.after.trails as Record<string, Record<string, unknown>>;
    expect(Object.values(made)).toEqual([{ trail_id: expect.anything(), name: "Ridge", length_km: 4 }]);
    expect(answers[1]?.answer).toMatchObject({ name: "Ridge" });
  });

  it("is the field of the record that spells the argument otherwise", () => {
    const trails = world({}, [
      tool("create_trail", "Add a trail.", { name: text }, undefined, [], out({ trailId: text, name: text })),
      tool("get_trail", "Get a trail.", { trail_id: text }),
    ]);
    expect(collections(trails)).toEqual([["trails", "trailId", false]]);
  });

  it("is `id` or the noun's id field of the records, where no argument names one", () => {
    const booths = world({}, [
      tool(
        "create_booth",
        "Add a booth.",
        { vendor: text },
        undefined,
        [],
        out({ booth_id: integer, vendor: text }),
      ),
      tool("list_booths", "List booths.", {}, []),
    ]);
    expect(collections(booths)).toEqual([["booths", "booth_id", true]]);
    const stalls = world({}, [
      tool(
        "create_stall",
        "Add a stall.",
        { vendor: text },
        undefined,
        [],
        out({ id: text, stall_id: integer }),
      ),
      tool("list_stalls", "List stalls.", {}, []),
    ]);
    expect(collections(stalls)).toEqual([["stalls", "id", false]]);
  });

  it("is a bare `id` argument, for a name cut at `by` or `for`", () => {
    const booths = world({}, [
      tool("create_booth", "Add a booth.", { vendor: text }),
      tool("list_booths_for_fair", "The booths of a fair.", { fair_id: text }),
      tool("get_booth_by_id", "Get a booth.", { id: text }),
    ]);
    expect(collections(booths)).toEqual([["booths", "id", false]]);
  });

  it("is the noun's id for names that put the resource first", async () => {
    const pantry = world({}, [
      tool("pantry_item_add", "Add an item to the pantry.", { label: text }),
      tool("pantry_item_get", "Get a pantry item.", { item_id: text }),
      tool("pantry_item_remove", "Remove a pantry item.", { item_id: text }),
    ]);
    expect(collections(pantry)).toEqual([["pantry_items", "pantry_item_id", false]]);
    const { state } = await session(pantry, [
      ["pantry_item_add", { label: "rice" }],
      ["pantry_item_add", { label: "oats" }],
      ["pantry_item_remove", { item_id: "1" }],
    ]);
    expect(Object.values(state.pantry_items as object)).toEqual([{ pantry_item_id: 2, label: "oats" }]);
  });

  it("is each record's name where records are made in batches", async () => {
    const garden = world({}, [
      tool("create_entities", "Add plants and beds to the garden's graph.", {
        entities: { type: "array", items: { type: "object", properties: { name: text, kind: text } } },
      }),
      tool("delete_entities", "Remove entities by name.", { entity_names: { type: "array", items: text } }),
    ]);
    expect(collections(garden)).toEqual([["entities", "name", false]]);
    const { answers, state } = await session(garden, [
      [
        "create_entities",
        {
          entities: [
            { name: "Oak", kind: "tree" },
            { name: "Bed 3", kind: "bed" },
          ],
        },
      ],
      ["delete_entities", { entity_names: ["Oak"] }],
    ]);
    expect(answers[0]?.after).toEqual({
      entities: { Oak: { name: "Oak", kind: "tree" }, "Bed 3": { name: "Bed 3", kind: "bed" } },
    });
    expect(state).toEqual({ entities: { "Bed 3": { name: "Bed 3", kind: "bed" } } });
  });
});

describe("the noun tools share", () => {
  it.each([
    ["get_badge_details", { badge_id: text }],
    ["get_badge_info", { badge_id: text }],
    ["list_all_badges", {}],
    ["get_badges_list", {}],
    ["list_badges_for_event", { event_id: text }],
    ["list_badges_with_ribbons", { ribbon: text }],
    ["list_badges_by_owner", { owner: text }],
  ])("is the badge in %s", (name, args) => {
    const toolset = world({}, [
      tool("create_badge", "Award a badge.", { title: text }),
      tool(name, "Badges.", args, Object.keys(args)),
    ]);
    expect(schemaWorld(toolset)?.state).toEqual({ badges: {} });
  });

  it("is every word before the verb, for names that put a resource of several words first", () => {
    const toolset = world({}, [
      tool("garden_seed_packets_add", "Add a packet.", { crop: text }),
      tool("garden_seed_packets_get", "Get a packet.", { packet_id: text }),
    ]);
    expect(collections(toolset)).toEqual([["garden_seed_packets", "garden_seed_packet_id", false]]);
  });

  it("makes no collection of a key that is optional, a list, or another noun's", () => {
    const keyed = (badgeId: Record<string, unknown>, required: string[]) =>
      world({}, [
        tool("get_badge", "Get a badge.", { badge_id: badgeId }, required),
        tool("list_badges", "List badges.", {}, []),
      ]);
    expect(collections(keyed(text, ["badge_id"]))).toEqual([["badges", "badge_id", false]]);
    expect(schemaWorld(keyed(text, []))).toBeUndefined();
    expect(schemaWorld(keyed({ type: "array", items: text }, ["badge_id"]))).toBeUndefined();
    expect(schemaWorld(keyed({ type: "object", properties: { id: text } }, ["badge_id"]))).toBeUndefined();
    const other = world({}, [
      tool("get_badge", "Get a badge.", { event_id: text }),
      tool("list_badges", "List badges.", {}, []),
    ]);
    expect(schemaWorld(other)).toBeUndefined();
  });

  it("takes its key's type from the argument where the records' schema has no key", () => {
    const toolset = world({}, [
      tool("create_badge", "Award a badge.", { title: text }),
      tool("get_badge", "Get a badge.", { badge_id: integer }),
    ]);
    expect(collections(toolset)).toEqual([["badges", "badge_id", true]]);
    const nullable = world({}, [
      tool(
        "create_badge",
        "Award a badge.",
        { title: text },
        undefined,
        [],
        out({ id: { type: ["integer", "null"] } }),
      ),
      tool("list_badges", "List badges.", {}, []),
    ]);
    expect(collections(nullable)).toEqual([["badges", "id", true]]);
    const decimal = world({}, [
      tool("create_badge", "Award a badge.", { title: text }, undefined, [], out({ id: { type: "number" } })),
      tool("list_badges", "List badges.", {}, []),
    ]);
    expect(collections(decimal)).toEqual([["badges", "id", true]]);
  });
});

describe("the records' shape", () => {
  it("comes from a list's items where no read or create answers one", async () => {
    const fair = world({}, [
      tool("createBooth", "Add a booth.", { vendor: text }),
      tool(
        "listBooths",
        "List booths.",
        {},
        [],
        [],
        out({
          booths: {
            type: "array",
            items: { type: "object", properties: { booth_id: integer, vendor: text } },
          },
        }),
      ),
    ]);
    expect(collections(fair)).toEqual([["booths", "booth_id", true]]);
    const { answers } = await session(fair, [
      ["createBooth", { vendor: "Hattie's Honey" }],
      ["listBooths", {}],
    ]);
    expect(answers[1]?.answer).toEqual({ booths: [{ booth_id: 1, vendor: "Hattie's Honey" }] });
  });

  it("comes from a read by key before a create's answer", () => {
    const toolset = world({}, [
      tool("createPlant", "Add a plant.", { name: text }, undefined, [], out({ message: text })),
      tool("getPlant", "Get a plant.", { plantId: integer }, undefined, [], out(plant)),
    ]);
    expect(schemaWorld(toolset)?.described[0]?.record).toEqual({ type: "object", properties: plant });
    const created = world({}, [
      tool("createPlant", "Add a plant.", { name: text }, undefined, [], out({ message: text })),
      tool("deletePlant", "Delete a plant.", { plantId: integer }),
    ]);
    expect(collections(created)).toEqual([["plants", "plantId", true]]);
  });

  it("keeps a `result` beside other properties as a field", () => {
    const toolset = world({}, [
      tool("createPlant", "Add a plant.", { name: text }),
      tool(
        "getPlant",
        "Get a plant.",
        { plantId: integer },
        undefined,
        [],
        out({ result: { type: "object", properties: plant }, etag: text }),
      ),
    ]);
    expect(collections(toolset)).toEqual([["plants", "plantId", true]]);
  });

  it("is no batch where the create takes more than the list, or a list of names", () => {
    const more = world({}, [
      tool("create_entities", "Add entities.", {
        entities: { type: "array", items: { type: "object", properties: { name: text, kind: text } } },
        graph: text,
      }),
      tool("delete_entities", "Remove entities by name.", { entity_names: { type: "array", items: text } }),
    ]);
    expect(collections(more)).toEqual([["entities", "entity_id", false]]);
    const names = world({}, [
      tool("create_entities", "Add entities.", { entities: { type: "array", items: text } }),
      tool("delete_entities", "Remove entities by name.", { entity_names: { type: "array", items: text } }),
    ]);
    expect(collections(names)).toEqual([["entities", "entity_id", false]]);
  });
});

describe("a file system", () => {
  const notes = (more: unknown[] = []) =>
    world({}, [
      tool("read_file", "Read a file.", { path: text }),
      tool("write_file", "Create a new file or overwrite an existing one.", { path: text, content: text }),
      tool("create_directory", "Make a folder.", { path: text }),
      ...more,
    ]);

  it("is an empty tree whose folders are made as files are written", async () => {
    expect(schemaWorld(notes())?.state).toEqual({ files: {} });
    const { answers } = await session(notes(), [
      ["write_file", { path: "/trips/alps.txt", content: "pack boots" }],
      ["read_file", { path: "/trips/alps.txt" }],
      ["read_file", { path: "/trips/andes.txt" }],
    ]);
    expect(answers[0]?.outcome.status).toBe("applied");
    expect(JSON.stringify(answers[1]?.outcome)).toContain("pack boots");
    expect(answers[2]?.outcome.status).toBe("failed");
  });

  it("keeps the catalog's other collections, and makes none of files or folders", () => {
    const toolset = notes([
      tool("list_directory", "List a folder.", { path: text }),
      tool("create_label", "Add a label.", { name: text }),
      tool("get_label", "Get a label.", { label_id: text }),
    ]);
    expect(schemaWorld(toolset)?.state).toEqual({ labels: {}, files: {} });
    expect(collections(toolset)).toEqual([["labels", "label_id", false]]);
  });

  it("is no tree for tools whose names only end in a file word", () => {
    const profiles = world({}, [
      tool("import_profile", "Import a profile.", { source: text }),
      tool("export_profile", "Export a profile.", { destination: text }),
      tool("copy_profile", "Copy a profile.", { source: text, destination: text }),
    ]);
    expect(schemaWorld(profiles)).toBeUndefined();
    const byFilePath = world({}, [
      tool("read_file", "Read a file.", { file_path: text }),
      tool("write_file", "Create a new file or overwrite an existing one.", {
        file_path: text,
        content: text,
      }),
      tool("list_dir", "List a folder.", { dir_path: text }),
    ]);
    expect(schemaWorld(byFilePath)?.state).toEqual({ files: {} });
  });

  it("needs three tools that address files or folders by path", () => {
    const two = world({}, [
      tool("read_file", "Read a file.", { path: text }),
      tool("write_file", "Create a new file or overwrite an existing one.", { path: text, content: text }),
    ]);
    expect(schemaWorld(two)).toBeUndefined();
    const unpathed = world({}, [
      tool("read_file", "Read a file.", { name: text }),
      tool("write_file", "Write a file.", { name: text, content: text }),
      tool("create_directory", "Make a folder.", { name: text }),
    ]);
    expect(schemaWorld(unpathed)?.tree).toBeUndefined();
  });
});

describe("what makes no collection", () => {
  it("a noun only one tool names, or that no tool creates or names by key", () => {
    const toolset = world({}, [
      tool("delete_banner", "Delete a banner.", { banner_id: text }),
      tool("list_tags", "List tags.", {}, []),
      tool("count_tags", "Count tags.", {}, []),
      tool("convert_units", "Convert a value.", { value: integer, from: text, to: text }),
    ]);
    expect(schemaWorld(toolset)).toBeUndefined();
    expect(inferToolset(toolset).toolset.state).toEqual({});
  });
});
