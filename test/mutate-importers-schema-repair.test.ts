import { describe, expect, it } from "vitest";
import { importBfcl, importOpenAiFunctions } from "../src/catalog/index.js";

/**
 * The repairs importers make to loose schemas, case by case: defaults written as text read as
 * the value they spell (or dropped), formats no validator knows moved into the description at
 * any depth, and an enum on an array moved to its items — each reported where it was made.
 */

/** One BFCL function whose only parameter has this schema; the imported parameter and the notes. */
function bfclParam(schema: Record<string, unknown>) {
  const { toolsets, problems } = importBfcl({
    entries: [],
    answers: new Map(),
    functionDocs: [
      {
        file: "doc.json",
        functions: [
          {
            name: "tune",
            description: "Tune the thing.",
            parameters: {
              type: "dict",
              properties: { knob: { description: "The knob.", ...schema } },
              required: [],
            },
          },
        ],
      },
    ],
  });
  const tool = toolsets[0]?.tools[0];
  const knob = (tool?.inputSchema.properties as Record<string, Record<string, unknown>> | undefined)?.knob;
  return { knob, notes: problems.map((p) => `${p.path}: ${p.message}`).join("\n") };
}

describe("defaults written as text", () => {
  it("keep a default that already has the parameter's type", () => {
    expect(bfclParam({ type: "integer", default: 3 }).knob?.default).toBe(3);
    expect(bfclParam({ type: "string", default: "warm" }).knob?.default).toBe("warm");
  });

  it("read true and false, in any case, for a boolean", () => {
    expect(bfclParam({ type: "boolean", default: "True" }).knob?.default).toBe(true);
    expect(bfclParam({ type: "boolean", default: " false " }).knob?.default).toBe(false);
  });

  it("read a number for a number and a whole one for an integer; any other text is a value of its own", () => {
    const float = bfclParam({ type: "float", default: " 2.5 " });
    expect(float.knob?.default).toBe(2.5);
    expect(float.notes).toContain('default " 2.5 " does not match the type; read as 2.5');
    expect(bfclParam({ type: "integer", default: "50" }).knob?.default).toBe(50);
    // the function's own default is a legal argument: accepted beside the declared type
    expect(bfclParam({ type: "integer", default: "2.5" }).knob).toMatchObject({
      default: "2.5",
      anyOf: [{ type: "integer" }, { const: "2.5" }],
    });
    expect(bfclParam({ type: "integer", default: "lots" }).notes).toContain("accepted as a value of its own");
  });

  it("read a list written as JSON or with Python's quotes, a comma list, or one word, for an array", () => {
    expect(bfclParam({ type: "array", items: { type: "integer" }, default: "[1, 2]" }).knob?.default).toEqual(
      [1, 2],
    );
    expect(
      bfclParam({ type: "array", items: { type: "string" }, default: "['a', 'b']" }).knob?.default,
    ).toEqual(["a", "b"]);
    // a comma list where the whole text is no item of the list
    expect(
      bfclParam({ type: "array", items: { type: "string", enum: ["red", "blue"] }, default: "red, blue" })
        .knob?.default,
    ).toEqual(["red", "blue"]);
    expect(bfclParam({ type: "array", items: { type: "string" }, default: "email" }).knob?.default).toEqual([
      "email",
    ]);
    // a lone value of the item type becomes a list of one
    expect(bfclParam({ type: "array", items: { type: "integer" }, default: 7 }).knob?.default).toEqual([7]);
  });

  it("take a default outside the parameter's enum as a value of its own, and None as no default", () => {
    expect(bfclParam({ type: "string", enum: ["a", "b"], default: "c" }).knob).toMatchObject({
      default: "c",
      anyOf: [{ type: "string", enum: ["a", "b"] }, { const: "c" }],
    });
    expect(bfclParam({ type: "string", enum: ["a", "b"], default: "b" }).knob).toMatchObject({
      type: "string",
      default: "b",
    });
    expect(bfclParam({ type: "string", default: "None" }).knob?.default).toBeUndefined();
    expect(bfclParam({ type: "array", items: { type: "integer" }, default: "[1, 'x']" }).knob).toMatchObject({
      anyOf: [{ type: "array" }, { const: "[1, 'x']" }],
    });
  });
});

/** One OpenAI function with these parameters; the imported input schema and the notes. */
function openAi(parameters: Record<string, unknown>) {
  const result = importOpenAiFunctions(
    { functions: [{ name: "tune", description: "Tune the thing.", parameters }] },
    { id: "Tuner" },
  );
  return {
    schema: result.toolsets[0]?.tools[0]?.inputSchema as Record<string, unknown> | undefined,
    notes: result.problems.map((p) => `${p.path}: ${p.message}`),
  };
}

describe("formats no validator knows", () => {
  it("move into the description at any depth, keeping the known ones, each reported with its path", () => {
    const { schema, notes } = openAi({
      type: "object",
      properties: {
        when: { type: "string", format: "date-time" },
        colour: { type: "string", format: "hex-colour", description: "Paint." },
        tags: { type: "array", items: { type: "string", format: "slug" } },
        either: { anyOf: [{ type: "string", format: "isbn" }, { type: "integer" }] },
        labels: { type: "object", patternProperties: { "^x-": { type: "string", format: "label" } } },
      },
      $defs: { code: { type: "string", format: "sku" } },
    });
    const props = schema?.properties as Record<string, Record<string, unknown>>;
    expect(props.when).toEqual({ type: "string", format: "date-time" });
    expect(props.colour).toEqual({ type: "string", description: "Paint. (format: hex-colour)" });
    expect(props.tags?.items as Record<string, unknown>).toEqual({
      type: "string",
      description: "(format: slug)",
    });
    expect((props.either?.anyOf as unknown[])[0]).toEqual({ type: "string", description: "(format: isbn)" });
    expect((props.labels?.patternProperties as Record<string, unknown>)["^x-"]).toEqual({
      type: "string",
      description: "(format: label)",
    });
    expect((schema?.$defs as Record<string, unknown>).code).toEqual({
      type: "string",
      description: "(format: sku)",
    });
    const formats = notes.filter((n) => n.includes("is not checked by the validator"));
    expect(formats).toHaveLength(5);
    expect(formats.join("\n")).toContain("parameters.properties.colour");
    expect(formats.join("\n")).toContain("parameters.properties.either.anyOf[0]");
    expect(formats.join("\n")).toContain("parameters.$defs.code");
  });

  it("leave enum, const, default and examples values as they are, even where they look like schemas", () => {
    const example = { format: "made-up" };
    const { schema, notes } = openAi({
      type: "object",
      properties: { shape: { type: "object", examples: [example], default: { format: "made-up" } } },
    });
    const shape = (schema?.properties as Record<string, Record<string, unknown>>).shape;
    expect(shape?.examples).toEqual([{ format: "made-up" }]);
    expect(shape?.default).toEqual({ format: "made-up" });
    expect(notes.filter((n) => n.includes("not checked"))).toEqual([]);
  });
});

describe("an enum on an array", () => {
  it("moves to its items, at any depth, and is reported", () => {
    const { schema, notes } = openAi({
      type: "object",
      properties: {
        sizes: { type: "array", enum: ["S", "M"] },
        nested: {
          type: "object",
          properties: { modes: { type: ["array", "null"], items: { type: "string" }, enum: ["a"] } },
        },
      },
    });
    const props = schema?.properties as Record<string, Record<string, unknown>>;
    expect(props.sizes).toEqual({ type: "array", items: { enum: ["S", "M"] } });
    const modes = (props.nested?.properties as Record<string, Record<string, unknown>>).modes;
    expect(modes).toEqual({ type: ["array", "null"], items: { type: "string", enum: ["a"] } });
    expect(notes.filter((n) => n.includes("moved to items"))).toHaveLength(2);
  });

  it("keeps an items enum already there, and an enum of whole arrays where it is", () => {
    const { schema } = openAi({
      type: "object",
      properties: {
        kept: { type: "array", items: { enum: ["x"] }, enum: ["y"] },
        whole: { type: "array", enum: [["a", "b"]] },
      },
    });
    const props = schema?.properties as Record<string, Record<string, unknown>>;
    expect(props.kept).toEqual({ type: "array", items: { enum: ["x"] } });
    expect(props.whole).toEqual({ type: "array", enum: [["a", "b"]] });
  });
});
