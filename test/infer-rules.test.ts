import { join } from "node:path";
import jsonata from "jsonata";
import { describe, expect, it } from "vitest";
import { importOpenAiFunctions, type Toolset } from "../src/catalog/index.js";
import { type Draft, emit, inferToolset, type ToolReport, toVersion1 } from "../src/infer/index.js";
import { readDatabase, readDocument } from "../src/sources/index.js";
import { FIXTURES } from "./support/index.js";

const BIKES = join(FIXTURES, "infer", "bikes");

/** The bike shop as `toolsim import openai --no-infer` reads it: tools, documented errors, state. */
function bikeShop(): Toolset {
  const { toolsets } = importOpenAiFunctions(
    {
      functions: readDocument(join(BIKES, "tools.json")).value,
      state: readDatabase(join(BIKES, "db")).value,
    },
    { id: "bike_shop" },
  );
  const toolset = toolsets[0];
  if (!toolset) throw new Error("the fixture did not import");
  return toolset;
}

function entry(report: readonly ToolReport[], tool: string): ToolReport {
  const found = report.find((r) => r.tool === tool);
  if (!found) throw new Error(`no report for ${tool}`);
  return found;
}

const inferred = inferToolset(bikeShop(), { level: 2 });
const draftsOf = (tool: string): Draft[] => entry(inferred.report, tool).drafts;

describe("inference of effects, drafted in the effects language version 2", () => {
  it("reads an entity by its key, answering the documented not-found error", () => {
    expect(draftsOf("get_rental_details")).toEqual([
      { kind: "read", target: "rentals/{rental_id}", missing: "RENTAL_NOT_FOUND", as: "rental", output: "" },
    ]);
  });

  it("reads an entity nested in another through its parent, each with its own not-found error", () => {
    expect(draftsOf("get_rider_card")).toEqual([
      { kind: "read", target: "riders/{rider_id}", missing: "RIDER_NOT_FOUND" },
      {
        kind: "read",
        target: "riders/{rider_id}/cards/{card_id}",
        missing: "CARD_NOT_FOUND",
        as: "card",
        output: "",
      },
    ]);
  });

  it("finds an id by fields nested in the entity, and answers the id", () => {
    expect(draftsOf("find_rider_id_by_name_postcode")).toEqual([
      {
        kind: "list",
        target: "riders",
        where: {
          "name.first_name": "{first_name}",
          "name.last_name": "{last_name}",
          "address.postcode": "{postcode}",
        },
        missing: "RIDER_NOT_FOUND",
        as: "matches",
        limit: 1,
      },
      { kind: "respond", value: { $expr: "$matches[0].rider_id" } },
    ]);
  });

  it("gives entities that lack their key a field holding it, so a lookup can answer the id", () => {
    const riders = inferred.toolset.state.riders as Record<string, Record<string, unknown>>;
    expect(riders.rita_moss_101?.rider_id).toBe("rita_moss_101");
    expect(riders.omar_pike_202?.email).toBe("omar.pike@example.org");
    // collections that already keep their key are left as they were
    expect(inferred.toolset.state.rentals).toEqual(bikeShop().state.rentals);
  });

  it("updates arguments onto the entity's nested fields", () => {
    const [update] = draftsOf("update_rider_address");
    expect(update).toMatchObject({
      kind: "update",
      target: "riders/{rider_id}",
      missing: "RIDER_NOT_FOUND",
      set: { "address.street": "{street}", "address.city": "{city}", "address.postcode": "{postcode}" },
    });
  });

  it("takes the target status from the description and the guard from the name and the errors", () => {
    const [update] = draftsOf("cancel_open_rental");
    expect(update).toMatchObject({
      kind: "update",
      target: "rentals/{rental_id}",
      missing: "RENTAL_NOT_FOUND",
      require: [{ field: "status", in: ["open"], error: "NON_OPEN_RENTAL_CANNOT_BE_CANCELLED" }],
      set: { status: "cancelled", cancel_reason: "{reason}" },
      as: "rental",
    });
  });

  it("learns the fields a status change adds from the records already in that status", () => {
    const [update] = draftsOf("cancel_open_rental");
    expect(update?.set).toMatchObject({ cancelled_at: "{$now}" });
    // a list the records in that status hold changed is not copied from them: no public convention says how
    expect(update?.set).not.toHaveProperty("deposits");
    expect(draftsOf("update_rider_address")[0]?.set).not.toHaveProperty("cancelled_at");
  });

  it("creates with an id like the collection's keys and appends it to the list the referenced entity keeps", () => {
    // what the call names must exist before anything is filed
    const [check, create, ...references] = draftsOf("book_rental");
    expect(check).toEqual({ kind: "read", target: "bikes/{bike_id}", missing: "BIKE_NOT_FOUND" });
    expect(create).toMatchObject({
      kind: "create",
      target: "rentals",
      id: { prefix: "#R", width: 4, field: "rental_id" },
      set: { rider_id: "{rider_id}", bike_id: "{bike_id}", hours: "{hours}", created_at: "{$now}" },
    });
    expect(references).toEqual([
      {
        kind: "update",
        target: "riders/{rider_id}",
        missing: "RIDER_NOT_FOUND",
        append: { rentals: "{$id}" },
      },
    ]);
    const tool = inferred.toolset.tools.find((t) => t.name === "book_rental");
    expect(tool?.errors.map((e) => e.code)).toContain("BIKE_NOT_FOUND");
    expect(tool?.inferred?.added).toEqual(["BIKE_NOT_FOUND"]);
  });

  it("says why a tool that names nothing of the state gets no effects", () => {
    const bell = entry(inferred.report, "ring_bell");
    expect(bell.verdict).toBe("not inferred");
    expect(bell.notes.join(" ")).toMatch(/says nothing toolsim knows|names no part of the state/);
  });
});

describe("emission", () => {
  it("drops what reads a binding that an effect the format rejects was to make, and says why", () => {
    const { effects, dropped } = emit([
      { kind: "list", target: "2s and more", as: "matches" },
      { kind: "respond", value: { $expr: "[$matches]" } },
      { kind: "respond", output: "count", value: { $expr: "1" } },
    ]);
    expect(effects).toEqual([{ kind: "respond", output: "count", value: { $expr: "1" } }]);
    expect(dropped.join("\n")).toMatch(/list 2s and more: the effects format rejects it/);
    expect(dropped.join("\n")).toMatch(/respond: reads \$matches, which a dropped effect was to bind/);
  });
});

describe("emission in effects language version 1", () => {
  it("keeps what version 1 can say and reports each part it cannot", () => {
    const list: Draft = {
      kind: "list",
      target: "riders",
      where: { email: "{email}" },
      missing: "RIDER_NOT_FOUND",
      as: "matches",
    };
    expect(toVersion1(list)).toEqual({
      draft: { kind: "list", target: "riders", where: { email: "{email}" }, as: "matches" },
      notes: ["list riders: needs effects language v2 (list missing)"],
    });
    expect(toVersion1({ kind: "read", target: "riders/{rider_id}/cards/{card_id}" }).draft).toBeUndefined();
    expect(toVersion1({ kind: "respond", value: { $expr: "$matches" } }).notes[0]).toContain("respond");
    const computed = toVersion1({
      kind: "update",
      target: "riders/{rider_id}",
      set: { a: "{a}", b: { $expr: "1 + 1" } },
    });
    expect(computed.draft?.set).toEqual({ a: "{a}" });
    expect(computed.notes).toEqual([
      "update riders/{rider_id}: needs effects language v2 (computed set of b)",
    ]);
  });

  it("marks every inferred tool, and leaves authored effects alone", () => {
    const shop = bikeShop();
    const authored = {
      ...shop,
      tools: shop.tools.map((tool) =>
        tool.name === "get_rental_details"
          ? { ...tool, effects: [{ kind: "read" as const, target: "rentals/{rental_id}", require: [] }] }
          : tool,
      ),
    };
    const result = inferToolset(authored, { level: 1 });
    expect(entry(result.report, "get_rental_details").verdict).toBe("authored");
    const kept = result.toolset.tools.find((t) => t.name === "get_rental_details");
    expect(kept?.effects).toEqual([{ kind: "read", target: "rentals/{rental_id}", require: [] }]);
    expect(kept?.inferred).toBeUndefined();
    const rider = result.toolset.tools.find((t) => t.name === "get_rider_details");
    expect(rider?.inferred).toMatchObject({ by: "rules", status: "inferred" });
    // a second run over its own output re-infers the marked tools to the same effects
    const again = inferToolset(result.toolset, { level: 1 });
    expect(again.toolset.tools).toEqual(result.toolset.tools);
  });
});

describe("a list whose description names the fields it answers", () => {
  const state = {
    shows: {
      "SH-1": { show_id: "SH-1", title: "Harbour Lights", seats: { A1: { price: 12.5 } } },
      "SH-2": { show_id: "SH-2", title: "Paper Moons", seats: { D1: { price: 20 } } },
    },
  };
  const listing = (description: string): Toolset => ({
    id: "theatre",
    field: "Theatre",
    subdomain: "Shows",
    description: "Shows on stage.",
    state,
    tasks: [],
    tools: [
      {
        name: "list_all_shows",
        description,
        inputSchema: { type: "object", properties: {} },
        errors: [],
        effects: [],
      },
    ],
  });
  const answer = async (description: string) => {
    const drafts = entry(inferToolset(listing(description), { level: 2 }).report, "list_all_shows").drafts;
    const respond = drafts.find((d) => d.kind === "respond");
    const expression = (respond?.value as { $expr?: string } | undefined)?.$expr ?? "";
    return jsonata(expression).evaluate({}, { matches: Object.values(state.shows) });
  };

  it("answers only those fields of each entity", async () => {
    expect(await answer("List the title and show id of all shows on stage.")).toEqual([
      { title: "Harbour Lights", show_id: "SH-1" },
      { title: "Paper Moons", show_id: "SH-2" },
    ]);
  });

  it("answers whole entities when a named field is not one of theirs", async () => {
    expect(await answer("List the title and director of all shows.")).toEqual(Object.values(state.shows));
  });
});

describe("money converted at rates the world does not hold", () => {
  const converter = (state: Record<string, unknown>): Toolset =>
    importOpenAiFunctions(
      {
        functions: [
          {
            name: "convert_currency",
            description: "Convert an amount of money from one currency to another.",
            parameters: {
              type: "object",
              properties: {
                amount: { type: "number", description: "How much money." },
                from_currency: { type: "string", description: "ISO code of the money given, e.g. EUR." },
                to_currency: { type: "string", description: "ISO code wanted, e.g. USD." },
              },
              required: ["amount", "from_currency", "to_currency"],
            },
          },
        ],
        state,
      },
      { id: "wallet" },
    ).toolsets[0] as Toolset;

  it("is a guess where the rates are toolsim's own table, and grounded where the state keeps them", () => {
    const guessed = entry(inferToolset(converter({ wallet: { owner: "Ada" } })).report, "convert_currency");
    expect(guessed.verdict).toBe("partly");
    expect(guessed.guessed).toEqual([expect.any(String)]);
    const kept = entry(
      inferToolset(converter({ wallet: { owner: "Ada" }, exchange_rates: { EUR: 0.9, GBP: 0.8 } })).report,
      "convert_currency",
    );
    expect(kept.verdict).toBe("inferred");
    expect(kept.guessed ?? []).toEqual([]);
  });
});
