import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { importOpenApi } from "../src/catalog/importers/index.js";
import { loadToolsets, Toolset, validatorFor } from "../src/catalog/index.js";

const DIR = join(import.meta.dirname, "fixtures/importers/openapi");
const library = () => parseYaml(readFileSync(join(DIR, "library-3.0.yaml"), "utf8"));
const weather = () => JSON.parse(readFileSync(join(DIR, "weather-3.1.json"), "utf8"));

describe("OpenAPI importer", () => {
  it("turns each operation into a tool that passes the format", async () => {
    const { toolsets } = await importOpenApi(library(), { field: "Libraries" });
    expect(toolsets).toHaveLength(1);
    const toolset = toolsets[0] as Toolset;
    expect(Toolset.safeParse(toolset).success).toBe(true);
    expect(toolset).toMatchObject({ id: "branch_library", field: "Libraries", version: "2.1.0" });
    expect(toolset.tools.map((t) => t.name)).toEqual(["getBook", "lendBook", "get_loans", "returnBook"]);
    expect(toolset.tools.map((t) => t.annotations?.readOnlyHint)).toEqual([true, false, true, false]);
    expect(toolset.tools[3]?.annotations?.destructiveHint).toBe(true);
  });

  it("builds the input from path, query, header parameters and the JSON body", async () => {
    const { toolsets } = await importOpenApi(library());
    const [getBook, lendBook, listLoans] = toolsets[0]?.tools ?? [];
    expect(getBook?.inputSchema).toMatchObject({
      type: "object",
      required: ["isbn"],
      properties: { isbn: { type: "string", description: "ISBN-13 of the book" } },
    });
    expect(lendBook?.inputSchema.required).toEqual(["isbn", "member_id"]);
    const props = lendBook?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.branch).toMatchObject({ type: "string", enum: ["north", "south"] });
    expect(props.due).toMatchObject({ type: ["string", "null"], format: "date", examples: ["2025-04-01"] });
    expect(props.member_id).toMatchObject({ type: "integer", format: "int32" });
    const validate = validatorFor(lendBook?.inputSchema ?? {});
    expect(validate({ isbn: "978", member_id: 4, due: null })).toBe(true);
    expect(validate({ isbn: "978" })).toBe(false);
    const listProps = listLoans?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(listProps.page_token).not.toHaveProperty("format");
    expect(listProps.page_token?.description).toContain("opaque-cursor");
  });

  it("keeps recursive $refs as $defs and converts 3.0 keywords", async () => {
    const { toolsets } = await importOpenApi(library());
    const getBook = toolsets[0]?.tools[0];
    const output = getBook?.outputSchema as Record<string, unknown>;
    expect(output.type).toBe("object");
    expect(output.$ref).toBe("#/$defs/Book");
    const defs = output.$defs as Record<string, Record<string, unknown>>;
    expect(Object.keys(defs).sort()).toEqual(["Book", "Series"]);
    expect(((defs.Book?.properties ?? {}) as Record<string, unknown>).rating).toEqual({
      type: "number",
      exclusiveMinimum: 0,
    });
    const validate = validatorFor(output);
    expect(validate({ isbn: "1", title: "A", series: { name: "S", next: { isbn: "2", title: "B" } } })).toBe(
      true,
    );
    expect(validate({ isbn: "1", title: "A", series: { next: { isbn: "2" } } })).toBe(false);
    expect(validate({ isbn: "1", title: "A", rating: 0 })).toBe(false);
  });

  it("maps documented 4xx responses to errors and reports what it changed", async () => {
    const { toolsets, problems } = await importOpenApi(library());
    const [getBook, lendBook, listLoans, returnBook] = toolsets[0]?.tools ?? [];
    expect(getBook?.errors).toEqual([
      { code: "NOT_FOUND", status: 404, message: "No book has this ISBN.", when: "No book has this ISBN." },
    ]);
    expect(lendBook?.errors.map((e) => e.code)).toEqual(["CONFLICT", "UNPROCESSABLE_ENTITY"]);
    expect(listLoans?.outputSchema).toMatchObject({
      type: "object",
      properties: { result: { type: "array", items: { $ref: "#/$defs/Loan" } } },
    });
    expect(returnBook?.outputSchema).toBeUndefined();
    const byTool = (name: string) => problems.filter((p) => p.tool === name).map((p) => p.message);
    expect(byTool("get_loans").join(" ")).toContain("not an object");
    expect(byTool("get_loans").join(" ")).toContain("opaque-cursor");
    expect(byTool("returnBook").join(" ")).toContain("no body schema");
  });

  it("reads OpenAPI 3.1 and makes dotted operation ids safe", async () => {
    const { toolsets, problems } = await importOpenApi(weather());
    const tool = toolsets[0]?.tools[0];
    expect(tool?.name).toBe("forecast_daily");
    expect(tool?.title).toBe("forecast.daily");
    expect(tool?.inputSchema.properties).toMatchObject({ days: { type: ["integer", "null"], maximum: 14 } });
    expect(tool?.errors.map((e) => e.code)).toEqual(["BAD_REQUEST"]);
    expect(problems).toEqual([]);
  });

  it("writes files the loader accepts", async () => {
    const { toolsets } = await importOpenApi(library());
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const dir = mkdtempSync(join((await import("node:os")).tmpdir(), "toolsim-openapi-"));
    const file = join(dir, "library.json");
    writeFileSync(file, JSON.stringify(toolsets[0]));
    expect(loadToolsets([file]).problems).toEqual([]);
  });

  it("refuses documents that are not OpenAPI 3", async () => {
    const result = await importOpenApi({ swagger: "2.0", info: { title: "Old" }, paths: {} });
    expect(result.toolsets).toEqual([]);
    expect(result.problems[0]?.message).toContain("not an OpenAPI 3.0 or 3.1 document");
  });
});
