import { describe, expect, it } from "vitest";
import { inferToolset } from "../src/infer/index.js";
import {
  bool,
  call,
  error,
  failure,
  inferred,
  integer,
  number,
  outputs as out,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Reads of collections: a record read by its key (answered bare or under its name, with the
 * records of another collection that refer to it, after the record it lives in), lookups and
 * lists that select records by the arguments (equal fields, bounds, held tags, switches, words
 * in a text), what they answer (records, keys, stated fields, a count, one match's fields, an
 * id), and the key field records of a map take when they have none.
 */

const list = (items: unknown = { type: "object" }) => ({ type: "array", items });
const object = { type: "object" };
const strings = list({ type: "string" });

const fern = {
  plant_id: "P1",
  name: "Fern",
  height_cm: 40,
  potted_on: "2026-01-10",
  tags: ["shade", "indoor"],
  watered: true,
  is_flowering: false,
  care_text: "Mist twice a week, keep out of the sun",
  gardener_id: "G1",
};
const sunflower = {
  plant_id: "P2",
  name: "Sunflower",
  height_cm: 120,
  potted_on: "2025-11-02",
  tags: ["sun"],
  watered: false,
  is_flowering: true,
  care_text: "Full sun, water daily",
  gardener_id: "G2",
};
const basil = {
  plant_id: "P3",
  name: "Basil",
  height_cm: 15,
  potted_on: "2026-02-20",
  tags: ["indoor", "kitchen"],
  watered: false,
  is_flowering: false,
  care_text: "Pinch the tops",
  gardener_id: "G1",
};

const nurseryState = {
  plants: { P1: fern, P2: sunflower, P3: basil },
  gardeners: {
    G1: { gardener_id: "G1", name: "Maya", shift: "morning" },
    G2: { gardener_id: "G2", name: "Tom", shift: "evening" },
  },
  beds: {
    B1: {
      bed_id: "B1",
      sensors: { S1: { sensor_id: "S1", moisture: 31 }, S2: { sensor_id: "S2", moisture: 12 } },
    },
    B2: { bed_id: "B2", sensors: { S3: { sensor_id: "S3", moisture: 50 } } },
  },
};

const nursery = (tools: unknown[], state: State = nurseryState) => world(state, tools);

describe("a record read by its key", () => {
  it("answers the record as stored, and an added not-found error for an unknown key", async () => {
    const w = nursery([tool("get_plant", "Get a plant.", { plant_id: text })]);
    const read = await call(w, "get_plant", { plant_id: "P3" });
    expect(read.answer).toEqual(basil);
    expect(read.after).toEqual(nurseryState);
    expect(read.report.notes).toContain("reads plants/… by plant_id");
    const unknown = await call(w, "get_plant", { plant_id: "P9" });
    expect(failure(unknown.outcome)).toBe("PLANT_NOT_FOUND");
    expect(unknown.tool.errors.find((e) => e.code === "PLANT_NOT_FOUND")).toMatchObject({ status: 404 });
  });

  it("answers the documented not-found error rather than adding one", async () => {
    const w = nursery([
      tool("get_plant", "Get a plant.", { plant_id: text }, undefined, [
        error("NO_SUCH_PLANT", "No plant has that id."),
      ]),
    ]);
    const unknown = await call(w, "get_plant", { plant_id: "P9" });
    expect(failure(unknown.outcome)).toBe("NO_SUCH_PLANT");
    expect(unknown.tool.errors.map((e) => e.code)).toEqual(["NO_SUCH_PLANT"]);
  });

  it("puts the record under the output property named for it, singular or plural", async () => {
    const w = nursery([
      tool(
        "show_plant",
        "Show a plant.",
        { plant_id: text },
        undefined,
        [],
        out({ plant: object, shown: bool }),
      ),
      tool("fetch_plant", "Fetch a plant.", { plant_id: text }, undefined, [], out({ plants: object })),
    ]);
    expect((await call(w, "show_plant", { plant_id: "P1" })).answer).toEqual({ plant: fern });
    expect((await call(w, "fetch_plant", { plant_id: "P1" })).answer).toEqual({ plants: fern });
  });

  it("puts it under the one object property of a schema that has nothing else", async () => {
    const w = nursery([
      tool("get_plant", "Get a plant.", { plant_id: text }, undefined, [], out({ details: object })),
    ]);
    expect((await call(w, "get_plant", { plant_id: "P2" })).answer).toEqual({ details: sunflower });
  });

  it("answers its fields bare where the schema names them, or holds more than one object", async () => {
    const w = nursery([
      tool(
        "get_plant",
        "Get a plant.",
        { plant_id: text },
        undefined,
        [],
        out({ name: text, details: object }),
      ),
      tool(
        "view_plant",
        "View a plant.",
        { plant_id: text },
        undefined,
        [],
        out({ details: object, care: object }),
      ),
      tool(
        "describe_plant",
        "Describe a plant.",
        { plant_id: text },
        undefined,
        [],
        out({ details: object, seen: bool }),
      ),
      tool("fetch_plant", "Fetch a plant.", { plant_id: text }, undefined, [], out({ plant: list() })),
    ]);
    expect((await call(w, "get_plant", { plant_id: "P2" })).answer).toMatchObject({ name: "Sunflower" });
    expect((await call(w, "get_plant", { plant_id: "P2" })).answer).not.toHaveProperty("details");
    expect((await call(w, "view_plant", { plant_id: "P2" })).answer).toMatchObject(sunflower);
    expect((await call(w, "describe_plant", { plant_id: "P2" })).answer).toMatchObject(sunflower);
    // a list named like the record is no place for one record
    expect((await call(w, "fetch_plant", { plant_id: "P2" })).answer).toMatchObject(sunflower);
  });
});

describe("a record whose one object output is a field of it", () => {
  it("answers the record bare, the field among its fields", async () => {
    const state = {
      gardeners: {
        G1: { gardener_id: "G1", name: "Maya", address: { city: "Leeds" } },
        G2: { gardener_id: "G2", name: "Tom", address: { city: "York" } },
      },
    };
    const w = world(state, [
      tool("get_gardener", "Get a gardener.", { gardener_id: text }, undefined, [], out({ address: object })),
    ]);
    expect((await call(w, "get_gardener", { gardener_id: "G2" })).answer).toMatchObject(state.gardeners.G2);
  });
});

describe("the records of another collection that refer to the one read", () => {
  it("answers a gardener's plants: those whose gardener_id is the argument", async () => {
    const w = nursery([
      tool("get_gardener", "Get a gardener.", { gardener_id: text }, undefined, [], out({ plants: list() })),
    ]);
    const read = await call(w, "get_gardener", { gardener_id: "G1" });
    // the gardener's own fields answer too; the output schema keeps only `plants`
    expect((read.answer as { plants?: unknown }).plants).toEqual([fern, basil]);
    expect(read.report.notes).toContain("answers the plants whose gardener_id is gardener_id");
    const other = await call(w, "get_gardener", { gardener_id: "G2" });
    expect((other.answer as { plants?: unknown }).plants).toEqual([sunflower]);
    expect(failure((await call(w, "get_gardener", { gardener_id: "G7" })).outcome)).toBe(
      "GARDENER_NOT_FOUND",
    );
  });

  it("answers the record where the list is no array, or named after no collection", async () => {
    const w = nursery([
      tool("get_gardener", "Get a gardener.", { gardener_id: text }, undefined, [], out({ plants: object })),
      tool(
        "show_gardener",
        "Show a gardener.",
        { gardener_id: text },
        undefined,
        [],
        out({ shifts: list() }),
      ),
    ]);
    const read = await call(w, "get_gardener", { gardener_id: "G2" });
    expect(read.answer).toEqual({ plants: nurseryState.gardeners.G2 });
    expect((await call(w, "show_gardener", { gardener_id: "G2" })).answer).toEqual(nurseryState.gardeners.G2);
  });

  it("lists nothing where two fields of the other records refer to the one read", async () => {
    const state = {
      ...nurseryState,
      visits: [
        { visit_id: "V1", gardener_id: "G1", inspector_id: "G2" },
        { visit_id: "V2", gardener_id: "G2", inspector_id: "G1" },
      ],
    };
    const w = nursery(
      [
        tool(
          "get_gardener",
          "Get a gardener.",
          { gardener_id: text },
          undefined,
          [],
          out({ visits: list() }),
        ),
      ],
      state,
    );
    const read = await call(w, "get_gardener", { gardener_id: "G1" });
    expect(read.answer).toEqual(state.gardeners.G1);
    expect(read.report.notes.some((n) => n.startsWith("answers the visits"))).toBe(false);
  });

  it("lists nothing where the only reference is nested in the other records", async () => {
    const state = {
      ...nurseryState,
      harvests: {
        H1: { harvest_id: "H1", picker: { gardener_id: "G1" }, kilos: 3 },
        H2: { harvest_id: "H2", picker: { gardener_id: "G2" }, kilos: 5 },
      },
    };
    const w = nursery(
      [
        tool(
          "get_gardener",
          "Get a gardener.",
          { gardener_id: text },
          undefined,
          [],
          out({ harvests: list() }),
        ),
      ],
      state,
    );
    expect((await call(w, "get_gardener", { gardener_id: "G1" })).answer).toEqual(state.gardeners.G1);
  });

  it("lists nothing of records that live inside others", async () => {
    const state = {
      ...nurseryState,
      beds: {
        B1: { bed_id: "B1", sensors: { S1: { sensor_id: "S1", gardener_id: "G1" } } },
        B2: { bed_id: "B2", sensors: { S3: { sensor_id: "S3", gardener_id: "G2" } } },
      },
    };
    const w = nursery(
      [
        tool(
          "get_gardener",
          "Get a gardener.",
          { gardener_id: text },
          undefined,
          [],
          out({ sensors: list() }),
        ),
      ],
      state,
    );
    const read = await call(w, "get_gardener", { gardener_id: "G1" });
    expect(read.answer).toEqual(state.gardeners.G1);
  });
});

describe("a record that lives inside another", () => {
  const tools = [
    tool("get_sensor", "Read a sensor.", { bed_id: text, sensor_id: text }),
    tool("read_sensor", "Read a sensor.", { bed_id: text, sensor_id: text }, undefined, [
      error("BED_NOT_FOUND", "Bed not found."),
    ]),
  ];

  it("is read inside the record the other argument names", async () => {
    const read = await call(nursery(tools), "get_sensor", { bed_id: "B1", sensor_id: "S2" });
    expect(read.answer).toEqual({ sensor_id: "S2", moisture: 12 });
    expect(read.report.notes).toContain("reads beds/…/sensors/… by sensor_id");
    const elsewhere = await call(nursery(tools), "get_sensor", { bed_id: "B2", sensor_id: "S2" });
    expect(failure(elsewhere.outcome)).toBe("SENSOR_NOT_FOUND");
  });

  it("answers the parent's documented not-found error when the parent is missing", async () => {
    const missing = await call(nursery(tools), "read_sensor", { bed_id: "B9", sensor_id: "S1" });
    expect(failure(missing.outcome)).toBe("BED_NOT_FOUND");
    expect(
      failure((await call(nursery(tools), "read_sensor", { bed_id: "B1", sensor_id: "S3" })).outcome),
    ).toBe("SENSOR_NOT_FOUND");
  });

  it("adds no not-found error for the parent: the record's own answers", async () => {
    const missing = await call(nursery(tools), "get_sensor", { bed_id: "B9", sensor_id: "S1" });
    expect(failure(missing.outcome)).toBe("SENSOR_NOT_FOUND");
    expect(missing.tool.errors.map((e) => e.code)).toEqual(["SENSOR_NOT_FOUND"]);
  });
});

describe("records selected by the arguments of a list", () => {
  const w = nursery([
    tool(
      "search_plants",
      "Search plants.",
      {
        name: text,
        tag: text,
        min_height_cm: number,
        max_height_cm: number,
        potted_after: text,
        potted_before: text,
        query: text,
        colour: text,
      },
      [],
      [],
      out({ plants: list() }),
    ),
    tool(
      "list_plants",
      "List plants.",
      {
        watered_only: bool,
        flowering_only: bool,
        unwatered_only: bool,
        since: text,
        until: text,
        start_date: text,
        end_time: text,
      },
      [],
      [],
      out({ plants: list() }),
    ),
  ]);
  const names = async (name: string, args: Record<string, unknown>) =>
    ((await call(w, name, args)).answer as { plants: { name: string }[] }).plants.map((p) => p.name);

  it("selects by a field's value, and all of them where no argument is given", async () => {
    expect(await names("search_plants", { name: "Basil" })).toEqual(["Basil"]);
    expect(await names("search_plants", {})).toEqual(["Fern", "Sunflower", "Basil"]);
    expect(await names("list_plants", {})).toEqual(["Fern", "Sunflower", "Basil"]);
  });

  it("selects the records whose list holds the tag", async () => {
    expect(await names("search_plants", { tag: "indoor" })).toEqual(["Fern", "Basil"]);
    expect(await names("search_plants", { tag: "kitchen" })).toEqual(["Basil"]);
    expect(await names("search_plants", { tag: "desert" })).toEqual([]);
  });

  it("bounds a number from below and above, the bounds included", async () => {
    expect(await names("search_plants", { min_height_cm: 40 })).toEqual(["Fern", "Sunflower"]);
    expect(await names("search_plants", { max_height_cm: 40 })).toEqual(["Fern", "Basil"]);
    expect(await names("search_plants", { min_height_cm: 16, max_height_cm: 119 })).toEqual(["Fern"]);
  });

  it("bounds the date a field's name shares a word with", async () => {
    expect(await names("search_plants", { potted_after: "2026-01-10" })).toEqual(["Fern", "Basil"]);
    expect(await names("search_plants", { potted_before: "2026-01-09" })).toEqual(["Sunflower"]);
  });

  it("bounds the records' one date by a bare since or until", async () => {
    expect(await names("list_plants", { since: "2026-02-01" })).toEqual(["Basil"]);
    expect(await names("list_plants", { until: "2026-01-10" })).toEqual(["Fern", "Sunflower"]);
    expect(await names("list_plants", { start_date: "2026-01-10", end_time: "2026-02-01" })).toEqual([
      "Fern",
    ]);
  });

  it("finds the words of a query in the records' text, whatever their case", async () => {
    expect(await names("search_plants", { query: "SUN" })).toEqual(["Fern", "Sunflower"]);
    expect(await names("search_plants", { query: "tops" })).toEqual(["Basil"]);
  });

  it("keeps, when a switch is on, the records whose flag holds or whose opposite does not", async () => {
    expect(await names("list_plants", { watered_only: true })).toEqual(["Fern"]);
    expect(await names("list_plants", { watered_only: false })).toEqual(["Fern", "Sunflower", "Basil"]);
    expect(await names("list_plants", { flowering_only: true })).toEqual(["Sunflower"]);
    expect(await names("list_plants", { unwatered_only: true })).toEqual(["Sunflower", "Basil"]);
  });

  it("bounds nothing by words that only start or end like a bound", async () => {
    const browse = nursery([
      tool(
        "browse_plants",
        "Browse plants.",
        {
          photo: text,
          starter: text,
          admin: text,
          total_cm: number,
          query: integer,
          subtext: text,
          textile: text,
        },
        [],
        [],
        out({ plants: list() }),
      ),
    ]);
    expect(inferred(browse, "browse_plants").report.notes[0]).toBe(
      "argument(s) photo, starter, admin, total_cm, query, subtext, textile match no field of plants",
    );
    const all = await call(browse, "browse_plants", {
      photo: "0",
      starter: "9",
      admin: "9",
      total_cm: 0,
      query: 1,
      subtext: "zz",
      textile: "zz",
    });
    expect(all.answer).toEqual({ plants: [fern, sunflower, basil] });
  });

  it("says how each argument selects, and which select nothing", () => {
    expect(inferred(w, "search_plants").report.notes).toEqual([
      "argument(s) colour match no field of plants",
      "lists plants where name, tags holds tag, height_cm >= min_height_cm, height_cm <= max_height_cm, potted_on >= potted_after, potted_on <= potted_before, care_text contains query",
    ]);
    expect(inferred(w, "list_plants").report.notes).toEqual([
      "lists plants where watered is true when watered_only, is_flowering is true when flowering_only, watered is false when unwatered_only, potted_on >= since, potted_on <= until, potted_on >= start_date, potted_on <= end_time",
    ]);
  });
});

describe("arguments that select nothing", () => {
  const kennelState = {
    dogs: {
      D1: {
        dog_id: "D1",
        name: "Rex",
        active: true,
        is_vaccinated: true,
        microchipped: "yes",
        born: "2020-04-01",
        checked_in: "2026-02-01",
        colours: "brown",
        age: 6,
      },
      D2: {
        dog_id: "D2",
        name: "Nala",
        active: false,
        is_vaccinated: false,
        microchipped: "no",
        born: "2022-09-15",
        checked_in: "2026-02-11",
        colours: "white",
        age: 3,
      },
      D3: {
        dog_id: "D3",
        name: "Odin",
        active: true,
        is_vaccinated: false,
        microchipped: "no",
        born: "2019-01-20",
        checked_in: "2026-01-05",
        colours: "black",
        age: 7,
      },
    },
  };
  const kennel = world(kennelState, [
    tool(
      "list_dogs",
      "List the dogs.",
      {
        inactive_only: bool,
        unvaccinated_only: bool,
        microchipped_only: bool,
        show_active_only: bool,
        active_only: text,
        since: text,
        colour: text,
        min_age: { type: "array", items: integer },
        max_age: bool,
        age_from: object,
        max_name: text,
        dogs: strings,
        phrase: text,
      },
      [],
      [],
      out({ dogs: list() }),
    ),
  ]);
  const names = async (name: string, args: Record<string, unknown>) =>
    ((await call(kennel, name, args)).answer as { dogs: { name: string }[] }).dogs.map((p) => p.name);

  it("reads the opposite of a flag, and of an is_ flag, by un- and in-", async () => {
    expect(await names("list_dogs", { inactive_only: true })).toEqual(["Nala"]);
    expect(await names("list_dogs", { unvaccinated_only: true })).toEqual(["Nala", "Odin"]);
  });

  it("keeps only records named in a list named after the collection", async () => {
    expect(await names("list_dogs", { dogs: ["D3", "D1"] })).toEqual(["Rex", "Odin"]);
    expect(await names("list_dogs", { dogs: [] })).toEqual([]);
  });

  it("takes no flag that is text, no switch of three words, no switch given as text", async () => {
    const notes = inferred(kennel, "list_dogs").report.notes;
    expect(notes[0]).toBe(
      "argument(s) microchipped_only, show_active_only, active_only, since, colour, min_age, max_age, age_from, max_name match no field of dogs",
    );
    expect(notes[1]).toBe(
      "lists dogs where active is false when inactive_only, is_vaccinated is false when unvaccinated_only, dog_id in dogs, name contains phrase",
    );
    const all = ["Rex", "Nala", "Odin"];
    expect(
      await names("list_dogs", {
        microchipped_only: true,
        show_active_only: true,
        active_only: "yes",
        since: "2026-02-01",
        colour: "pink",
        min_age: [9],
        max_age: true,
        age_from: { years: 9 },
        max_name: "A",
      }),
    ).toEqual(all);
  });

  it("finds a name's words in the records' name where no field is named for text", async () => {
    expect(await names("list_dogs", { phrase: "oD" })).toEqual(["Odin"]);
  });
});

describe("words searched in a text no name marks as one", () => {
  it("looks in the first field with more values than an enumeration has, not in keys", async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({
      entry_id: `E${String(i + 1).padStart(2, "0")}`,
      room_id: `R${i + 1}`,
      signer: `Guest ${i + 1}`,
      mood: i % 2 === 0 ? "glad" : "calm",
    }));
    const rooms = Object.fromEntries(entries.map((e) => [e.room_id, { room_id: e.room_id, beds: 2 }]));
    const book = world({ entries, rooms }, [
      tool("search_entries", "Search the guest book.", { q: text }, undefined, [], out({ entries: list() })),
    ]);
    const found = await call(book, "search_entries", { q: "guest 17" });
    expect(found.answer).toEqual({ entries: [entries[16]] });
    expect((await call(book, "search_entries", { q: "E1" })).answer).toEqual({ entries: [] });
    expect(found.report.notes).toEqual(["lists entries where signer contains q"]);
  });
});

describe("a lookup by fields other than the key", () => {
  const tools = [
    tool(
      "find_plant_id_by_name",
      "Find a plant's id.",
      { name: text },
      undefined,
      [],
      out({ plant_id: text }),
    ),
    tool(
      "find_plant_ids_by_tag",
      "Find the ids of tagged plants.",
      { tag: text },
      undefined,
      [],
      out({ ids: strings }),
    ),
    tool("lookup_plant", "Returns the plant ID of the plant with that name.", { name: text }, undefined, [
      error("PLANT_NOT_FOUND", "No plant has that name."),
    ]),
    tool(
      "get_plant_by_name",
      "Get one plant by its name.",
      { name: text },
      undefined,
      [],
      out({ plant_id: text, height_cm: number }),
    ),
    tool("fetch_plant_by_colour", "Fetch a plant by colour.", { colour: text }),
  ];
  const w = nursery(tools);

  it("answers the id of the first match under the output named for the key", async () => {
    const found = await call(w, "find_plant_id_by_name", { name: "Basil" });
    expect(found.answer).toEqual({ plant_id: "P3" });
    expect(found.report.notes).toEqual([
      "lists plants where name",
      "answers the id (plant_id) of what matches",
    ]);
    // nothing documented answers a miss: the answer is empty
    const none = await call(w, "find_plant_id_by_name", { name: "Oak" });
    expect(none.outcome.status).toBe("applied");
    expect(none.answer).toEqual({});
  });

  it("answers every id of a name that asks for ids, under the only output", async () => {
    const found = await call(w, "find_plant_ids_by_tag", { tag: "indoor" });
    expect(found.answer).toEqual({ ids: ["P1", "P3"] });
    expect(found.report.notes).toContain("answers the ids (plant_id) of what matches");
  });

  it("answers the id its description says it returns, and the documented error when nothing matches", async () => {
    const found = await call(w, "lookup_plant", { name: "Fern" });
    expect(found.answer).toBe("P1");
    const none = await call(w, "lookup_plant", { name: "Oak" });
    expect(failure(none.outcome)).toBe("PLANT_NOT_FOUND");
    expect(none.report.notes).toContain("lists plants where name; none: PLANT_NOT_FOUND");
  });

  it("answers the first match's fields where the schema holds one record's", async () => {
    const found = await call(w, "get_plant_by_name", { name: "Sunflower" });
    expect(found.answer).toMatchObject({ plant_id: "P2", height_cm: 120 });
    expect(found.report.notes).toContain("answers the first match's fields; none: PLANT_NOT_FOUND");
    expect(failure((await call(w, "get_plant_by_name", { name: "Oak" })).outcome)).toBe("PLANT_NOT_FOUND");
  });

  it("is no lookup where no required argument selects anything", () => {
    const { tool: found, report } = inferred(w, "fetch_plant_by_colour");
    expect(found.effects.some((e) => e.kind === "list")).toBe(false);
    expect(report.notes.some((n) => n.startsWith("lists"))).toBe(false);
  });
});

describe("what a lookup or a list answers", () => {
  const fields = out({ plant_id: text, height_cm: number });
  const tools = [
    tool(
      "get_plant_by_tag",
      "Get the plants with a tag.",
      { tag: text },
      undefined,
      [],
      out({ plants: list(), tag: text }),
    ),
    tool("search_plant_by_tag", "Search by tag.", { tag: text }, undefined, [], fields),
    tool("get_plants_by_tag", "Get by tag.", { tag: text }, undefined, [], fields),
    tool("fetch_plant_by_tag", "Fetch all the plants with a tag.", { tag: text }, undefined, [], fields),
    tool("show_plant_by_tag", "Show by tag.", { tag: text }, undefined, [], out({ summary: text })),
    tool("get_id_of_plant", "Get by tag.", { tag: text }, undefined, [], out({ found: text, note: text })),
    tool("get_plant_by_tag_id", "Get by tag.", { tag: text }, undefined, [], fields),
    tool(
      "count_plants",
      "Count plants by tag.",
      { tag: text },
      undefined,
      [],
      out({ plants: list(), total: integer }),
    ),
    tool(
      "query_plants",
      "Query plants.",
      { tag: text },
      undefined,
      [],
      out({ plants: list(), Count: number }),
    ),
    tool("list_plants", "List plants.", { tag: text }, undefined, [], out({ plants: list(), total: text })),
    tool("browse_plants", "Browse plants.", { tag: text }, undefined, []),
    tool(
      "show_plants",
      "Show the plants.",
      { tag: text },
      undefined,
      [],
      out({ keys: strings, size: integer }),
    ),
    tool(
      "filter_plants",
      "Lists the name and height cm of every plant.",
      { tag: text },
      undefined,
      [],
      out({ plants: list() }),
    ),
    tool(
      "search_plants",
      "Returns the name and the colour of each plant.",
      { tag: text },
      undefined,
      [],
      out({ plants: list() }),
    ),
    tool("list_gardeners", "List gardeners.", { shift: text }, undefined, [], out({ total: integer })),
    tool(
      "query_gardeners",
      "Query gardeners.",
      { shift: text },
      undefined,
      [],
      out({ rows: list({ type: "array" }) }),
    ),
    tool("search_gardeners", "Search gardeners.", { shift: text }, undefined, [
      error("GARDENER_NOT_FOUND", "No gardener works that shift."),
    ]),
  ];
  const w = nursery(tools);

  it("answers every match where the schema has a list, the verb searches, the name is plural or the description says all", async () => {
    const indoor = [fern, basil];
    expect((await call(w, "get_plant_by_tag", { tag: "indoor" })).answer).toEqual({ plants: indoor });
    expect((await call(w, "search_plant_by_tag", { tag: "indoor" })).answer).toEqual({ plants: indoor });
    expect((await call(w, "get_plants_by_tag", { tag: "indoor" })).answer).toEqual({ plants: indoor });
    expect((await call(w, "fetch_plant_by_tag", { tag: "indoor" })).answer).toEqual({ plants: indoor });
    expect((await call(w, "show_plant_by_tag", { tag: "indoor" })).answer).toEqual({ plants: indoor });
    expect((await call(w, "show_plant_by_tag", { tag: "none" })).answer).toEqual({ plants: [] });
  });

  it("answers the whole id where no output is named for it and there are several", async () => {
    expect((await call(w, "get_id_of_plant", { tag: "kitchen" })).answer).toBe("P3");
  });

  it("takes no id a name mentions after by for the answer", async () => {
    expect((await call(w, "get_plant_by_tag_id", { tag: "kitchen" })).answer).toMatchObject({
      plant_id: "P3",
      height_cm: 15,
    });
  });

  it("answers how many matched beside the list, under a count that is a number", async () => {
    expect((await call(w, "count_plants", { tag: "indoor" })).answer).toEqual({
      plants: [fern, basil],
      total: 2,
    });
    expect((await call(w, "query_plants", { tag: "sun" })).answer).toEqual({ plants: [sunflower], Count: 1 });
    expect((await call(w, "list_plants", { tag: "sun" })).answer).toEqual({ plants: [sunflower] });
    expect(inferred(w, "count_plants").report.notes).toContain("answers how many matched under total");
  });

  it("answers the records bare where there is no schema, and under the collection's name where no list is named", async () => {
    expect((await call(w, "browse_plants", { tag: "kitchen" })).answer).toEqual([basil]);
    expect((await call(w, "list_gardeners", { shift: "evening" })).answer).toEqual({
      gardeners: [nurseryState.gardeners.G2],
      total: 1,
    });
  });

  it("answers records in a list of lists, and a documented not-found error where none match", async () => {
    expect((await call(w, "query_gardeners", { shift: "morning" })).answer).toEqual({
      rows: [nurseryState.gardeners.G1],
    });
    expect((await call(w, "search_gardeners", { shift: "morning" })).answer).toEqual([
      nurseryState.gardeners.G1,
    ]);
    const none = await call(w, "search_gardeners", { shift: "night" });
    expect(failure(none.outcome)).toBe("GARDENER_NOT_FOUND");
    expect(none.report.notes).toEqual(["lists gardeners where shift; none: GARDENER_NOT_FOUND"]);
  });

  it("answers the keys where the list holds plain values", async () => {
    const keys = await call(w, "show_plants", { tag: "indoor" });
    expect(keys.answer).toEqual({ keys: ["P1", "P3"], size: 2 });
    expect(keys.report.notes).toContain("answers the plant_id of what matches under keys");
  });

  it("answers only the fields the description names, where each is a field", async () => {
    const named = await call(w, "filter_plants", { tag: "indoor" });
    expect(named.answer).toEqual({
      plants: [
        { name: "Fern", height_cm: 40 },
        { name: "Basil", height_cm: 15 },
      ],
    });
    expect(named.report.notes).toContain("answers only name, height_cm of each (the description says so)");
    expect((await call(w, "search_plants", { tag: "kitchen" })).answer).toEqual({ plants: [basil] });
  });
});

describe("a limit on what a list answers", () => {
  const state = {
    ...nurseryState,
    pots: {
      K1: { pot_id: "K1", size: 10, glaze: "blue" },
      K2: { pot_id: "K2", size: 20, glaze: "blue" },
      K3: { pot_id: "K3", size: 10, glaze: "green" },
    },
  };
  const w = nursery(
    [
      tool(
        "list_plants",
        "List plants.",
        { limit: integer, tag: text },
        [],
        [],
        out({ plants: list(), total: integer }),
      ),
      tool(
        "search_plants",
        "Search plants.",
        { page_size: integer },
        ["page_size"],
        [],
        out({ plants: list() }),
      ),
      tool("list_pots", "List pots.", { size: integer, top: integer }, [], [], out({ pots: list() })),
      tool(
        "browse_gardeners",
        "Browse gardeners.",
        { nights: integer, season: integer },
        [],
        [],
        out({ gardeners: list(), subtotal: integer, countdown: integer }),
      ),
    ],
    state,
  );

  it("answers at most as many records as the limit says, counting every match", async () => {
    const two = await call(w, "list_plants", { limit: 2 });
    expect(two.answer).toEqual({ plants: [fern, sunflower], total: 3 });
    expect((await call(w, "list_plants", { limit: 1, tag: "indoor" })).answer).toEqual({
      plants: [fern],
      total: 2,
    });
    expect((await call(w, "list_plants", {})).answer).toEqual({ plants: [fern, sunflower, basil], total: 3 });
    expect(two.report.notes).toContain("lists plants where tags holds tag");
  });

  it("lists where the only required argument is the limit", async () => {
    expect((await call(w, "search_plants", { page_size: 1 })).answer).toEqual({ plants: [fern] });
    expect(inferred(w, "search_plants").report.notes).toContain("lists plants");
  });

  it("selects by a field named like a limit", async () => {
    expect((await call(w, "list_pots", { size: 10, top: 1 })).answer).toEqual({ pots: [state.pots.K1] });
    expect((await call(w, "list_pots", { size: 10 })).answer).toEqual({
      pots: [state.pots.K1, state.pots.K3],
    });
  });

  it("takes no argument that only starts or ends like a limit, and counts under no such output", async () => {
    expect((await call(w, "browse_gardeners", { nights: 1, season: 1 })).answer).toEqual({
      gardeners: Object.values(state.gardeners),
    });
  });
});

describe("the key field records of a map take when they have none", () => {
  const storeState = {
    shelves: { A: { label: "Seeds", capacity: 40 }, B: { label: "Tools", capacity: 10 } },
    funds: { VTI: { name: "Total market", price: 250 }, BND: { name: "Bonds", price: 72 } },
    crates: { C1: { weight: 3 }, C2: { weight: 5 } },
    bins: { X: { volume: 1 }, Y: { volume: 2 } },
  };
  const keys = (properties: string) => out({ [properties]: strings });
  const store = world(storeState, [
    tool("get_shelf", "Get a shelf.", { shelf_code: text }),
    tool("list_shelves", "List shelves.", {}, [], [], keys("shelves")),
    tool("get_fund", "Get a fund.", { ticker: text }),
    tool("list_funds", "List funds.", {}, [], [], keys("funds")),
    tool("list_crates", "List crates.", {}, [], [], keys("crates")),
    tool("weigh_crate", "Weigh a crate.", { name: text, scale: text }),
    tool("list_bins", "List bins.", {}, [], [], keys("bins")),
    tool("empty_bin", "Empty a bin.", { bin_ids: strings }),
  ]);
  const filled = inferToolset(store).toolset.state as State;

  it("is the argument other tools name a record by, in either reading of a plural in -ves", async () => {
    expect(filled.shelves).toEqual({
      A: { shelf_code: "A", label: "Seeds", capacity: 40 },
      B: { shelf_code: "B", label: "Tools", capacity: 10 },
    });
    const listed = await call(store, "list_shelves", {}, filled);
    expect(listed.answer).toEqual({ shelves: ["A", "B"] });
    expect(listed.report.notes).toContain("answers the shelf_code of what matches under shelves");
  });

  it("is the one argument of a tool named after the collection, where that is a natural key", async () => {
    expect(filled.funds).toMatchObject({ VTI: { ticker: "VTI" }, BND: { ticker: "BND" } });
    expect((await call(store, "list_funds", {}, filled)).answer).toEqual({ funds: ["BND", "VTI"] });
  });

  it("is the noun's id where no tool names the records otherwise", async () => {
    // `weigh_crate(name, scale)` has two arguments; `empty_bin` names bins by a list
    expect(filled.crates).toEqual({ C1: { crate_id: "C1", weight: 3 }, C2: { crate_id: "C2", weight: 5 } });
    expect(filled.bins).toEqual({ X: { bin_id: "X", volume: 1 }, Y: { bin_id: "Y", volume: 2 } });
    expect((await call(store, "list_crates", {}, filled)).answer).toEqual({ crates: ["C1", "C2"] });
  });
});

describe("nouns in -ves, and names that need quoting", () => {
  const state = {
    shelves: {
      S1: { shelf_id: "S1", label: "Seeds", aisle: 1 },
      S2: { shelf_id: "S2", label: "Tools", aisle: 2 },
    },
    items: [
      { item_id: "I1", "pot-size": 3, kind: "clay" },
      { item_id: "I2", "pot-size": 5, kind: "clay" },
    ],
  };
  const w = world(state, [
    tool(
      "get_shelf",
      "Get a shelf.",
      { shelf_id: text },
      undefined,
      [],
      out({ shelf: object, aisle_name: text }),
    ),
    tool(
      "find_shelf_by_label",
      "Returns the shelf ID of the shelf with that label.",
      { label: text },
      undefined,
      [error("SHELF_NOT_FOUND", "No shelf has that label.")],
    ),
    tool("list_items", "List items.", { "max-size": integer, kind: text }, [], []),
    tool("get_item", "Get an item.", { item_id: text }, undefined, [], out({ item: object })),
  ]);

  it("puts a record of shelves under `shelf`", async () => {
    expect((await call(w, "get_shelf", { shelf_id: "S2" })).answer).toEqual({ shelf: state.shelves.S2 });
  });

  it("answers the id a description calls the shelf id", async () => {
    expect((await call(w, "find_shelf_by_label", { label: "Tools" })).answer).toBe("S2");
    expect(failure((await call(w, "find_shelf_by_label", { label: "Pots" })).outcome)).toBe(
      "SHELF_NOT_FOUND",
    );
  });

  it("bounds a field whose name is no plain identifier by an argument whose name is none either", async () => {
    expect((await call(w, "list_items", { "max-size": 4 })).answer).toEqual([state.items[0]]);
    expect((await call(w, "list_items", { kind: "clay" })).answer).toEqual(state.items);
  });

  it("binds a record under a name no effect uses for itself", async () => {
    const { tool: found } = inferred(w, "get_item");
    expect(found.effects[0]).toMatchObject({ kind: "read", as: "entity", output: "item" });
    expect((await call(w, "get_item", { item_id: "I2" })).answer).toEqual({ item: state.items[1] });
    expect(inferred(w, "get_shelf").tool.effects[0]).toMatchObject({ as: "shelf" });
  });
});
