import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importBfcl, importOpenAiFunctions } from "../src/catalog/importers/index.js";
import { looseToJsonSchema } from "../src/catalog/importers/loose-schema.js";
import { Toolset, validatorFor } from "../src/catalog/index.js";
import { readBfcl, readDatabase, readDocument } from "../src/sources/index.js";

const BFCL = join(import.meta.dirname, "fixtures/importers/bfcl");
const OPENAI = join(import.meta.dirname, "fixtures/importers/openai");

function bfcl() {
  const read = readBfcl(BFCL);
  return { ...importBfcl(read.source), unreadable: read.unreadable };
}

describe("BFCL importer", () => {
  it("groups entries offering the same functions into one toolset with one task each", () => {
    const { toolsets } = bfcl();
    for (const toolset of toolsets) expect(Toolset.safeParse(toolset).success).toBe(true);
    const parallel = toolsets.find((t) => t.id === "parallel_0");
    expect(parallel?.tasks.map((t) => t.id)).toEqual(["parallel_0", "parallel_1"]);
    expect(parallel?.tools).toHaveLength(1);
    expect(toolsets.map((t) => t.id).sort()).toEqual([
      "counter_api",
      "irrelevance_0",
      "parallel_0",
      "simple_java_0",
      "simple_java_1",
    ]);
  });

  it("reads an enum a description states as the schema's enum, quoted or not", () => {
    const convert = (raw: unknown) => looseToJsonSchema(raw, "x", { notes: [] });
    expect(
      convert({ type: "string", description: 'Where the ticket is. [Enum]: ["open", "on hold", "closed"]' }),
    ).toMatchObject({ type: "string", enum: ["open", "on hold", "closed"] });
    expect(convert({ type: "string", description: "Currency. [Enum]: EUR, GBP, JPY." }).enum).toEqual([
      "EUR",
      "GBP",
      "JPY",
    ]);
    // one value is not a choice, and only strings are listed in words
    expect(convert({ type: "string", description: "[Enum]: only" })).not.toHaveProperty("enum");
    expect(convert({ type: "integer", description: "[Enum]: 1, 2" })).not.toHaveProperty("enum");
    expect(convert({ type: "string", description: "Any text." })).not.toHaveProperty("enum");
  });

  it("maps Java, Python and JavaScript type names and makes dotted names safe", () => {
    const tool = bfcl().toolsets.find((t) => t.id === "simple_java_0")?.tools[0];
    expect(tool?.name).toBe("LedgerArchiver_archive");
    expect(tool?.title).toBe("LedgerArchiver.archive");
    expect(tool?.inputSchema).toMatchObject({
      type: "object",
      required: ["ledger", "year"],
      additionalProperties: false,
      properties: {
        ledger: { description: "The Ledger object." },
        year: { type: "integer" },
        level: { type: "integer" },
        options: { type: "object" },
        tags: { type: "array", items: { type: "string" } },
        ratio: { type: "number" },
        flag: { type: "string" },
      },
    });
    const props = tool?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.ledger).not.toHaveProperty("type");
    const circle = bfcl().toolsets.find((t) => t.id === "parallel_0")?.tools[0];
    expect(circle?.inputSchema.properties).toMatchObject({
      radius: { type: "number" },
      center: { type: "array", items: { type: "number" } },
      units: { default: "cm" },
    });
  });

  it("turns possible answers into golden solutions that validate", () => {
    const { toolsets } = bfcl();
    const java = toolsets.find((t) => t.id === "simple_java_0");
    expect(java?.tasks[0]?.solution).toEqual([
      {
        tool: "LedgerArchiver_archive",
        arguments: { ledger: "ledger2024", year: 2024, level: 9, options: { mode: "fast" } },
      },
    ]);
    const parallel = toolsets.find((t) => t.id === "parallel_0");
    expect(parallel?.tasks[0]?.solution).toEqual([
      { tool: "geometry_circle_area", arguments: { radius: 2, units: "cm" }, group: "answer" },
      { tool: "geometry_circle_area", arguments: { radius: 3, units: "cm" }, group: "answer" },
    ]);
    for (const toolset of toolsets)
      for (const task of toolset.tasks)
        for (const call of task.solution) {
          const tool = toolset.tools.find((t) => t.name === call.tool);
          expect(validatorFor(tool?.inputSchema ?? {})(call.arguments), `${task.id} ${call.tool}`).toBe(true);
        }
  });

  it("reports what it could not map and marks irrelevance tasks invalid", () => {
    const { toolsets, problems } = bfcl();
    const messages = problems.map((p) => `${p.tool ?? p.toolset} ${p.path}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining('geometry_circle_area parameters.precision.default: default "two"'),
        expect.stringContaining('"missing_param" is listed as required but not described'),
        expect.stringContaining("multi_turn_base_0 ground_truth: no ground truth"),
      ]),
    );
    const close = toolsets.find((t) => t.id === "simple_java_1")?.tools[0];
    expect(close?.inputSchema.required).toEqual(["session"]);
    expect(
      ((close?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>).force?.default,
    ).toBe(false);
    const irrelevant = toolsets.find((t) => t.id === "irrelevance_0")?.tasks[0];
    expect(irrelevant).toMatchObject({ valid: false, solution: [] });
  });

  it("imports function-doc files with their response as the output schema", () => {
    const counter = bfcl().toolsets.find((t) => t.id === "counter_api");
    // the multi-turn entry naming CounterAPI's method is a task of the file's toolset, and its world
    expect(counter?.tasks.map((t) => t.id)).toEqual(["multi_turn_base_0"]);
    expect(counter?.state).toEqual({ CounterAPI: { counters: { visits: 1 } } });
    expect(counter?.tools[0]?.outputSchema).toEqual({
      type: "object",
      properties: { value: { type: "integer", description: "New value." } },
    });
    expect(counter?.tools[1]?.outputSchema).toMatchObject({
      type: "object",
      properties: { result: { type: "integer" } },
    });
  });
});

describe("OpenAI function list importer", () => {
  function imported() {
    const functions = readDocument(join(OPENAI, "tools.json")).value;
    const state = readDatabase(join(OPENAI, "db")).value;
    return importOpenAiFunctions({ functions, state }, { id: "shop" });
  }

  it("reads wrapped, typed and bare definitions with read/write labels", () => {
    const { toolsets } = imported();
    const toolset = toolsets[0] as Toolset;
    expect(Toolset.safeParse(toolset).success).toBe(true);
    expect(toolset.tools.map((t) => t.name)).toEqual([
      "get_order",
      "cancel_order",
      "think",
      "transfer_to_human",
    ]);
    expect(toolset.tools.map((t) => t.annotations?.readOnlyHint)).toEqual([
      true,
      false,
      undefined,
      undefined,
    ]);
    expect(toolset.tools[3]?.title).toBe("transfer.to_human");
    expect(toolset.tools[3]?.inputSchema).toEqual({ type: "object", properties: {} });
    expect(toolset.tools[1]?.errors.map((e) => [e.code, e.status])).toEqual([
      ["ORDER_NOT_FOUND", 404],
      ["NON_PENDING_ORDER_CANNOT_BE_CANCELLED", 400],
    ]);
  });

  it("takes the database as the starting state and reports what it skipped", () => {
    const { toolsets, problems } = imported();
    expect(toolsets[0]?.state).toEqual({
      orders: { "#W100": { order_id: "#W100", status: "pending" } },
      users: { u1: { name: "Ada" } },
    });
    expect(problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("not a function definition"),
        expect.stringContaining('format "free-text"'),
        expect.stringContaining("the tool takes no arguments"),
      ]),
    );
  });

  it("refuses input that is not a list", () => {
    const result = importOpenAiFunctions({ functions: { name: "x" } }, { id: "bad" });
    expect(result.toolsets).toEqual([]);
    expect(result.problems[0]?.message).toContain("expected a JSON array");
  });
});
