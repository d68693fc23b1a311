import { describe, expect, it } from "vitest";
import { importOpenApi } from "../src/catalog/importers/index.js";
import { Toolset, validatorFor } from "../src/catalog/index.js";

/**
 * OpenAPI documents built in the test, one rule at a time: the toolset's names, each operation's
 * tool name, title and annotations, how parameters and bodies become arguments, which response
 * becomes the output schema, which become errors, and the problem reported for each change.
 */

const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: "3.0.3",
  info: { title: "Plant Nursery", version: "1.4.0" },
  paths,
  ...extra,
});

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

async function run(document: unknown, options: Parameters<typeof importOpenApi>[1] = {}) {
  const result = await importOpenApi(document, options);
  for (const toolset of result.toolsets) expect(Toolset.safeParse(toolset).success, toolset.id).toBe(true);
  const toolset = result.toolsets[0];
  return {
    toolset,
    tools: toolset?.tools ?? [],
    // the validator's own findings are its business; these tests look at the importer's notes
    problems: result.problems
      .filter((p) => p.path !== "(document)")
      .map((p) => `${p.tool ?? "-"} ${p.path}: ${p.message}`),
  };
}

/** The one tool of a document with a single operation. */
async function only(operation: Record<string, unknown>, method = "post", path = "/plants", extra = {}) {
  const { tools, problems } = await run(
    doc({ [path]: { [method]: { responses: ok, ...operation } } }, extra),
  );
  return { tool: tools[0], problems };
}

describe("the toolset of a document", () => {
  it("takes its names from the title, its description from the info, and the version", async () => {
    const { toolset } = await run(
      doc(
        { "/plants": { get: { operationId: "listPlants", responses: ok } } },
        {
          info: { title: "Plant Nursery", version: "1.4.0", description: "  Plants for sale.  " },
        },
      ),
    );
    expect(toolset).toMatchObject({
      id: "plant_nursery",
      name: "Plant Nursery",
      field: "Web APIs",
      subdomain: "Plant Nursery",
      description: "Plants for sale.",
      version: "1.4.0",
    });
    const untitled = await run(
      {
        openapi: "3.1.0",
        info: { version: 2 },
        paths: { "/p": { get: { operationId: "p", responses: ok } } },
      },
      { id: "nursery", field: "Shops", subdomain: "Plants" },
    );
    expect(untitled.toolset).toMatchObject({
      id: "nursery",
      name: "nursery",
      field: "Shops",
      subdomain: "Plants",
      description: "nursery",
    });
    expect(untitled.toolset).not.toHaveProperty("version");
    const described = await run(doc({ "/p": { get: { operationId: "p", responses: ok } } }));
    expect(described.toolset?.description).toBe("Plant Nursery");
    const nameless = await run({
      openapi: "3.0.0",
      paths: { "/p": { get: { operationId: "p", responses: ok } } },
    });
    expect(nameless.toolset?.id).toBe("openapi");
  });

  it("refuses documents of other versions, naming the version it found", async () => {
    for (const [document, said] of [
      [{ swagger: "2.0", info: { title: "Old" } }, '"2.0"'],
      [{ openapi: "3.2.0" }, '"3.2.0"'],
      [{ openapi: 3.1 }, "3.1"],
      ["openapi: 3.0.0", undefined],
    ] as const) {
      const result = await importOpenApi(document);
      expect(result.toolsets).toEqual([]);
      expect(result.problems).toEqual([
        {
          toolset:
            document === "openapi: 3.0.0"
              ? "openapi"
              : typeof document === "object" && "info" in document
                ? "old"
                : "openapi",
          path: "openapi",
          message: `not an OpenAPI 3.0 or 3.1 document (version ${said}); nothing imported`,
        },
      ]);
    }
  });

  it("imports nothing from a document without operations", async () => {
    const { toolset, problems } = await run(doc({ "/plants": { parameters: [], get: "soon" }, "/x": 3 }));
    expect(toolset).toBeUndefined();
    expect(problems).toEqual(["- paths: no operations; nothing imported"]);
  });
});

describe("an operation as a tool", () => {
  it("is named by its operationId, or by its method and path, in the document's order", async () => {
    const { tools } = await run(
      doc({
        "/plants/{id}": {
          delete: { operationId: "removePlant", responses: ok },
          get: { summary: "One plant", responses: ok },
          parameters: [{ name: "id", in: "path", schema: { type: "string" } }],
        },
        "/plants": { post: { operationId: "add.plant", summary: "Add", responses: ok } },
      }),
    );
    expect(tools.map((t) => [t.name, t.title])).toEqual([
      ["removePlant", undefined],
      ["get_plants_id", "get_/plants/{id}"],
      ["add_plant", "add.plant"],
    ]);
  });

  it("is titled by its summary, and described by its description, summary, or method and path", async () => {
    const { tools, problems } = await run(
      doc({
        "/a": {
          get: { operationId: "a1", summary: " Short ", description: " Long text. ", responses: ok },
          put: { operationId: "a2", summary: "Only a summary", responses: ok },
          patch: { operationId: "a3", responses: ok },
        },
      }),
    );
    expect(tools.map((t) => [t.title, t.description, t.annotations?.title])).toEqual([
      ["Short", "Long text.", "Short"],
      ["Only a summary", "Only a summary", "Only a summary"],
      [undefined, "PATCH /a", undefined],
    ]);
    expect(problems).toEqual(["a3 PATCH /a: no summary or description; the method and path stand in"]);
  });

  it("says by its method whether it reads, overwrites or deletes", async () => {
    const methods = ["get", "head", "options", "put", "post", "delete", "patch", "trace"];
    const { tools } = await run(
      doc({ "/x": Object.fromEntries(methods.map((m) => [m, { operationId: `op_${m}`, responses: ok }])) }),
    );
    expect(tools.map((t) => [t.name, t.annotations])).toEqual([
      ["op_get", { readOnlyHint: true }],
      ["op_head", { readOnlyHint: true }],
      ["op_options", { readOnlyHint: true }],
      ["op_put", { readOnlyHint: false, destructiveHint: false, idempotentHint: true }],
      ["op_post", { readOnlyHint: false, destructiveHint: false, idempotentHint: false }],
      ["op_delete", { readOnlyHint: false, destructiveHint: true, idempotentHint: true }],
      ["op_patch", { readOnlyHint: false, destructiveHint: false, idempotentHint: false }],
      ["op_trace", { readOnlyHint: false, destructiveHint: false, idempotentHint: false }],
    ]);
  });
});

describe("parameters as arguments", () => {
  it("joins the path's and the operation's parameters, the operation's winning, path parameters required", async () => {
    const { tools, problems } = await run(
      doc(
        {
          "/plants/{id}": {
            parameters: [
              { name: "id", in: "path", schema: { type: "string" }, description: "From the path item." },
              { $ref: "#/components/parameters/Limit" },
              { in: "query" },
              "junk",
            ],
            get: {
              operationId: "getPlant",
              summary: "A plant",
              parameters: [
                { name: "id", in: "path", schema: { type: "integer" } },
                { name: "lang", in: "header", required: true, schema: { type: "string" }, example: "en" },
                {
                  name: "old",
                  in: "query",
                  deprecated: true,
                  schema: { type: "boolean", description: "Kept." },
                  description: "Ignored.",
                },
              ],
              responses: ok,
            },
          },
        },
        {
          components: {
            parameters: {
              Limit: { name: "limit", in: "query", required: false, schema: { type: "integer" } },
            },
          },
        },
      ),
    );
    expect(problems).toEqual([]);
    expect(tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: {
        id: { type: "integer" },
        limit: { type: "integer" },
        lang: { type: "string", examples: ["en"] },
        old: { type: "boolean", description: "Kept.", deprecated: true },
      },
      required: ["id", "lang"],
      additionalProperties: false,
    });
  });

  it("keeps the first of two parameters of one name, reads a schema from content, and accepts anything without one", async () => {
    const { tool, problems } = await only(
      {
        operationId: "find",
        summary: "Find",
        parameters: [
          { name: "q", in: "query", description: "The words.", schema: { type: "string" } },
          { name: "q", in: "header", schema: { type: "string" } },
          {
            name: "filter",
            in: "query",
            content: {
              "text/plain": { schema: { type: "string" } },
              "application/json": { schema: { type: "object" } },
            },
          },
          { name: "any", in: "query", description: "" },
        ],
      },
      "get",
    );
    expect(tool?.inputSchema.properties).toEqual({
      q: { type: "string", description: "The words." },
      filter: { type: "object" },
      any: {},
    });
    expect(tool?.inputSchema).not.toHaveProperty("required");
    expect(problems).toEqual([
      "find GET /plants parameter q: a header parameter shares the name of another parameter; the first is kept",
      "find GET /plants parameter any: no schema; any value is accepted",
    ]);
  });
});

describe("the request body as arguments", () => {
  const body = (schema: unknown, extra: Record<string, unknown> = {}, media = "application/json") => ({
    operationId: "addPlant",
    summary: "Add",
    requestBody: { content: { [media]: { schema } }, ...extra },
  });

  it("spreads an object body's fields next to the parameters, required as the body says", async () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string" }, price: { type: "number" } },
      required: ["name", 3],
    };
    const { tool, problems } = await only(body(schema));
    expect(problems).toEqual([]);
    expect(tool?.inputSchema).toEqual({
      type: "object",
      properties: { name: { type: "string" }, price: { type: "number" } },
      required: ["name"],
      additionalProperties: false,
    });
    const unlisted = await only(
      body({ type: "object", properties: { name: { type: "string" } } }, { required: true }),
    );
    expect(unlisted.tool?.inputSchema).not.toHaveProperty("required");
  });

  it("follows a referenced body and a referenced schema", async () => {
    const { tool } = await only(
      {
        operationId: "addPlant",
        summary: "Add",
        requestBody: { $ref: "#/components/requestBodies/NewPlant" },
      },
      "post",
      "/plants",
      {
        components: {
          requestBodies: {
            NewPlant: {
              required: true,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Plant" } } },
            },
          },
          schemas: {
            Plant: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
        },
      },
    );
    expect(tool?.inputSchema.properties).toEqual({ name: { type: "string" } });
    expect(tool?.inputSchema.required).toEqual(["name"]);
  });

  it("makes any other body one `body` argument, with its description, required when the body is", async () => {
    const list = await only(
      body({ type: "array", items: { type: "string" } }, { description: "Names.", required: true }),
    );
    expect(list.tool?.inputSchema).toEqual({
      type: "object",
      properties: { body: { type: "array", items: { type: "string" }, description: "Names." } },
      required: ["body"],
      additionalProperties: false,
    });
    const combined = await only(
      body(
        { allOf: [{ type: "object" }], type: "object", properties: { a: { type: "string" } } },
        { description: 5 },
      ),
    );
    expect(Object.keys(combined.tool?.inputSchema.properties ?? {})).toEqual(["body"]);
    expect(combined.tool?.inputSchema).not.toHaveProperty("required");
    for (const key of ["oneOf", "anyOf"]) {
      const other = await only(body({ [key]: [{ type: "object" }], properties: { a: { type: "string" } } }));
      expect(Object.keys(other.tool?.inputSchema.properties ?? {})).toEqual(["body"]);
    }
    const described = await only(body({ type: "string", description: "Own." }, { description: "Body's." }));
    expect(described.tool?.inputSchema.properties).toEqual({ body: { type: "string", description: "Own." } });
  });

  it("keeps the body whole when its fields share names with parameters", async () => {
    const { tool, problems } = await only({
      ...body({ type: "object", properties: { id: { type: "string" } } }),
      parameters: [{ name: "id", in: "query", schema: { type: "string" } }],
    });
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(["id", "body"]);
    expect(problems).toEqual([
      "addPlant POST /plants requestBody: body fields share names with parameters; the body is one `body` argument",
    ]);
  });

  it("says when the body is not JSON or has no schema", async () => {
    const form = await only(
      body(
        { type: "object", properties: { a: { type: "string" } } },
        {},
        "application/x-www-form-urlencoded",
      ),
    );
    expect(form.tool?.inputSchema.properties).toEqual({ a: { type: "string" } });
    expect(form.problems).toEqual([
      "addPlant POST /plants requestBody: media type application/x-www-form-urlencoded is described as JSON arguments",
    ]);
    const bare = await only({
      operationId: "addPlant",
      summary: "Add",
      requestBody: { content: { "application/json": {} } },
    });
    expect(bare.tool?.inputSchema.properties).toEqual({});
    expect(bare.problems).toEqual([
      "addPlant POST /plants requestBody: no schema for the request body; left out",
    ]);
  });
});

describe("responses", () => {
  const responding = (responses: Record<string, unknown>, extra = {}) =>
    only({ operationId: "getPlant", summary: "Get", responses }, "get", "/plants", extra);

  it("takes the first success response's body as the output, an object or a `result`", async () => {
    const object = await responding({
      "201": {
        content: {
          "application/json": { schema: { type: "object", properties: { b: { type: "string" } } } },
        },
      },
      "200": {
        content: {
          "application/xml": { schema: { type: "string" } },
          "application/json": { schema: { properties: { a: { type: "string" } } } },
        },
      },
      default: { description: "Error" },
    });
    expect(object.tool?.outputSchema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(object.problems).toEqual([]);
    const list = await responding({
      "2XX": { content: { "application/json": { schema: { type: "array", items: { type: "integer" } } } } },
    });
    expect(list.tool?.outputSchema).toEqual({
      type: "object",
      properties: { result: { type: "array", items: { type: "integer" } } },
      required: ["result"],
    });
    expect(list.problems).toEqual([
      "getPlant GET /plants responses.2XX: the response is not an object; it is described under `result`",
    ]);
  });

  it("follows references to the response and to an object schema", async () => {
    const { tool } = await responding(
      { "200": { $ref: "#/components/responses/Plant" } },
      {
        components: {
          responses: {
            Plant: {
              description: "A plant",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Plant" } } },
            },
          },
          schemas: { Plant: { type: "object", properties: { name: { type: "string" } } } },
        },
      },
    );
    expect(tool?.outputSchema).toEqual({
      type: "object",
      $ref: "#/$defs/Plant",
      $defs: { Plant: { type: "object", properties: { name: { type: "string" } } } },
    });
    expect(tool?.inputSchema.$defs).toEqual(tool?.outputSchema?.$defs);
    expect(validatorFor(tool?.outputSchema ?? {})({ name: "Fern" })).toBe(true);
  });

  it("has no output schema without a documented success body, and says why", async () => {
    const none = await responding({ "404": { description: "No plant" }, "302": { description: "Moved" } });
    expect(none.tool).not.toHaveProperty("outputSchema");
    expect(none.problems).toEqual([
      "getPlant GET /plants responses: no 2xx response documented; no outputSchema",
    ]);
    const empty = await responding({ "204": { description: "Nothing" } });
    expect(empty.problems).toEqual([
      "getPlant GET /plants responses.204: the success response has no body schema; no outputSchema",
    ]);
    const odd = await responding({
      "2000": { content: { "application/json": { schema: { type: "object" } } } },
    });
    expect(odd.problems).toEqual([
      "getPlant GET /plants responses: no 2xx response documented; no outputSchema",
    ]);
  });

  it("makes each documented 4xx response an error with a code, a status and a message", async () => {
    const { tool, problems } = await responding(
      {
        ...ok,
        "404": { description: "  No such plant.  " },
        "400": { description: "" },
        "418": { description: "A teapot." },
        "4XX": { description: "Some client error." },
        "409": { $ref: "#/components/responses/Clash" },
        "500": { description: "Server error." },
        "40": { description: "Not a status." },
      },
      { components: { responses: { Clash: { description: "Already there." } } } },
    );
    expect(tool?.errors).toEqual([
      {
        code: "BAD_REQUEST",
        status: 400,
        message: "The request failed with HTTP 400.",
        when: "The request failed with HTTP 400.",
      },
      { code: "NOT_FOUND", status: 404, message: "No such plant.", when: "No such plant." },
      { code: "CONFLICT", status: 409, message: "Already there.", when: "Already there." },
      { code: "HTTP_418", status: 418, message: "A teapot.", when: "A teapot." },
      { code: "HTTP_4XX", status: 400, message: "Some client error.", when: "Some client error." },
    ]);
    expect(problems).toEqual(["getPlant GET /plants responses.4XX: a status range is documented as 400"]);
    const lower = await responding({ ...ok, "4xx": { description: "Client error." } });
    expect(lower.tool?.errors.map((e) => [e.code, e.status])).toEqual([["HTTP_4XX", 400]]);
  });
});
