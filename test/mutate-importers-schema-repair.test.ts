import { describe, expect, it } from "vitest";
import {
  dropUnknownFormats,
  isJsonType,
  isNoDefault,
  matchesType,
  moveArrayEnums,
  repairDefault,
  type SchemaNote,
} from "../src/catalog/importers/schema-repair.js";
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

/** The value at a path of keys and indexes, or undefined. */
function dig(value: unknown, ...path: Array<string | number>): unknown {
  return path.reduce<unknown>(
    (at, key) =>
      at !== null && typeof at === "object" ? (at as Record<string | number, unknown>)[key] : undefined,
    value,
  );
}

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
    expect(dig(props, "tags", "items")).toEqual({
      type: "string",
      description: "(format: slug)",
    });
    expect(dig(props, "either", "anyOf", 0)).toEqual({ type: "string", description: "(format: isbn)" });
    expect(dig(props, "labels", "patternProperties", "^x-")).toEqual({
      type: "string",
      description: "(format: label)",
    });
    expect(dig(schema, "$defs", "code")).toEqual({
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
    expect(dig(schema, "properties", "shape", "examples")).toEqual([{ format: "made-up" }]);
    expect(dig(schema, "properties", "shape", "default")).toEqual({ format: "made-up" });
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
    expect(dig(props, "nested", "properties", "modes")).toEqual({
      type: ["array", "null"],
      items: { type: "string", enum: ["a"] },
    });
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

describe("whether a value has the type a schema declares", () => {
  it("tells each JSON type apart, numbers only when finite and integers only when whole", () => {
    const accepts = (type: string) =>
      [
        ["text", "a"],
        ["finite", 2.5],
        ["whole", 3],
        ["infinite", Number.POSITIVE_INFINITY],
        ["flag", false],
        ["list", [1]],
        ["object", { a: 1 }],
        ["null", null],
      ]
        .filter(([, value]) => matchesType({ type }, value))
        .map(([name]) => name);
    expect(accepts("string")).toEqual(["text"]);
    expect(accepts("number")).toEqual(["finite", "whole"]);
    expect(accepts("integer")).toEqual(["whole"]);
    expect(accepts("boolean")).toEqual(["flag"]);
    expect(accepts("array")).toEqual(["list"]);
    expect(accepts("object")).toEqual(["object"]);
    expect(accepts("null")).toEqual(["null"]);
  });

  it("accepts any value for a schema without a type, or with a type JSON Schema does not name", () => {
    expect(matchesType({}, 5)).toBe(true);
    expect(matchesType({ type: "dict" }, "x")).toBe(true);
  });

  it("accepts a value of any one of several declared types", () => {
    expect(matchesType({ type: ["string", "null"] }, null)).toBe(true);
    expect(matchesType({ type: ["string", "null"] }, "a")).toBe(true);
    expect(matchesType({ type: ["string", "null"] }, 1)).toBe(false);
  });

  it("checks every item of a list against the items schema", () => {
    const list = { type: "array", items: { type: "integer" } };
    expect(matchesType(list, [1, 2])).toBe(true);
    expect(matchesType(list, [1, "2"])).toBe(false);
    expect(matchesType(list, ["1", 2])).toBe(false);
    // an items schema says nothing about a value that is no list
    expect(matchesType({ type: ["array", "string"], items: { type: "integer" } }, "all")).toBe(true);
  });

  it("accepts only a value the enum lists, compared by its JSON", () => {
    const sizes = { type: "string", enum: ["S", "M"] };
    expect(matchesType(sizes, "M")).toBe(true);
    expect(matchesType(sizes, "L")).toBe(false);
    expect(matchesType({ enum: [{ a: 1 }] }, { a: 1 })).toBe(true);
  });
});

describe("the names of JSON types", () => {
  it("are the seven JSON Schema names, and nothing else, not even a type's name in another case", () => {
    for (const name of ["string", "number", "integer", "boolean", "array", "object", "null"])
      expect(isJsonType(name)).toBe(true);
    expect(["dict", "String", "", 5, null].map(isJsonType)).toEqual([false, false, false, false, false]);
  });
});

describe("which values mean no default", () => {
  it("are null, undefined, Python's None, the word null and empty text; not zero, false or other words", () => {
    expect([null, undefined, "None", "null", ""].map(isNoDefault)).toEqual([true, true, true, true, true]);
    expect([0, false, "none", "0", " "].map(isNoDefault)).toEqual([false, false, false, false, false]);
  });
});

describe("a default fitted to its schema", () => {
  it("is kept when it matches, coerced when its text spells a value that does, else dropped", () => {
    expect(repairDefault({ type: "integer" }, 4)).toEqual({ kind: "kept", value: 4 });
    expect(repairDefault({ type: "integer" }, "4")).toEqual({ kind: "coerced", value: 4 });
    expect(repairDefault({ type: "boolean" }, "TRUE")).toEqual({ kind: "coerced", value: true });
    expect(repairDefault({ type: "boolean" }, "False")).toEqual({ kind: "coerced", value: false });
    expect(repairDefault({ type: "boolean" }, "yes")).toEqual({ kind: "dropped" });
    expect(repairDefault({ type: "boolean" }, " True ")).toEqual({ kind: "coerced", value: true });
    expect(repairDefault({ type: "object" }, '{"a": 1}')).toEqual({ kind: "coerced", value: { a: 1 } });
  });

  it("drops a default that is not text and does not match, rather than reading it", () => {
    expect(repairDefault({ type: "string" }, 5)).toEqual({ kind: "dropped" });
    expect(repairDefault({ type: "boolean" }, 1)).toEqual({ kind: "dropped" });
  });

  it("reads numbers JSON would not, written with a leading dot or sign", () => {
    expect(repairDefault({ type: "number" }, ".5")).toEqual({ kind: "coerced", value: 0.5 });
    expect(repairDefault({ type: "integer" }, "+3")).toEqual({ kind: "coerced", value: 3 });
  });

  it("reads no number from blank text", () => {
    expect(repairDefault({ type: "number" }, "")).toEqual({ kind: "dropped" });
    expect(repairDefault({ type: "integer" }, "  ")).toEqual({ kind: "dropped" });
  });

  it("reads no number from text that only JavaScript takes for one", () => {
    // "abc" is NaN as a number and "Infinity" infinite: neither is a value JSON could hold
    expect(repairDefault({ enum: [null] }, "abc")).toEqual({ kind: "dropped" });
    expect(repairDefault({ type: "number" }, "Infinity")).toEqual({ kind: "dropped" });
  });

  it("reads a Python list written over several lines", () => {
    expect(repairDefault({ type: "array", items: { type: "string" } }, "['a',\n 'b']")).toEqual({
      kind: "coerced",
      value: ["a", "b"],
    });
  });

  it("reads Python's quotes only in a list, not in an object or a lone word", () => {
    expect(repairDefault({ type: "object" }, "{'a': 1}")).toEqual({ kind: "dropped" });
    expect(repairDefault({ enum: ["a"] }, "'a'")).toEqual({ kind: "dropped" });
  });

  it("splits a comma list however the commas are spaced, when the whole text is no allowed item", () => {
    const colours = { type: "array", items: { type: "string", enum: ["red", "blue", "green"] } };
    expect(repairDefault(colours, "red,blue ,  green")).toEqual({
      kind: "coerced",
      value: ["red", "blue", "green"],
    });
    expect(repairDefault(colours, "red")).toEqual({ kind: "coerced", value: ["red"] });
    expect(repairDefault(colours, "red; blue")).toEqual({ kind: "dropped" });
  });

  it("wraps a lone value in a list only for an array schema, and never a list that does not match", () => {
    expect(repairDefault({ type: "array", items: { type: "integer" } }, 7)).toEqual({
      kind: "coerced",
      value: [7],
    });
    // a list of numbers for a list of lists is wrong, not one item short
    expect(repairDefault({ type: "array", items: { type: "array" } }, [1])).toEqual({ kind: "dropped" });
    expect(repairDefault({ enum: [[5]] }, 5)).toEqual({ kind: "dropped" });
  });

  it("reads a list from text and wraps a lone value for a list that may also be null", () => {
    const nullableTags = { type: ["array", "null"], items: { type: "string" } };
    expect(repairDefault(nullableTags, "email")).toEqual({ kind: "coerced", value: ["email"] });
    const nullableColours = { type: ["array", "null"], items: { enum: ["red", "blue"] } };
    expect(repairDefault(nullableColours, "red, blue")).toEqual({ kind: "coerced", value: ["red", "blue"] });
    expect(repairDefault({ type: ["array", "null"], items: { type: "integer" } }, 7)).toEqual({
      kind: "coerced",
      value: [7],
    });
    expect(repairDefault(nullableTags, null)).toEqual({ kind: "kept", value: null });
  });
});

describe("unknown formats, walked directly", () => {
  it("reports a format on the schema itself at the root, and describes it even with an empty description", () => {
    const notes: SchemaNote[] = [];
    const schema: Record<string, unknown> = { type: "string", format: "postcode", description: "" };
    dropUnknownFormats(schema, "", notes);
    expect(schema).toEqual({ type: "string", description: "(format: postcode)" });
    expect(notes).toEqual([
      {
        path: "(root)",
        message: 'format "postcode" is not checked by the validator; kept in the description',
      },
    ]);
  });

  it("names nested places from the root without a leading dot, and list items by index", () => {
    const notes: SchemaNote[] = [];
    dropUnknownFormats(
      [{ type: "object", properties: { code: { type: "string", format: "sku" } } }, { format: "isbn" }],
      "",
      notes,
    );
    expect(notes.map((n) => n.path)).toEqual(["[0].properties.code", "[1]"]);
  });

  it("leaves a format that is not text, and the values of enum and const, alone", () => {
    const notes: SchemaNote[] = [];
    const schema = {
      type: "object",
      properties: {
        odd: { type: "string", format: 7 },
        pick: { enum: [{ format: "made-up" }] },
        fixed: { const: { format: "made-up" } },
      },
    };
    dropUnknownFormats(schema, "p", notes);
    expect(notes).toEqual([]);
    expect(schema.properties).toEqual({
      odd: { type: "string", format: 7 },
      pick: { enum: [{ format: "made-up" }] },
      fixed: { const: { format: "made-up" } },
    });
  });
});

describe("walking a schema that holds values no schema is", () => {
  it("passes over nulls and plain values at any depth, changing and reporting nothing", () => {
    const notes: SchemaNote[] = [];
    const schema = { type: "object", anyOf: [null, 3, "text"], required: ["a"], items: null };
    const before = structuredClone(schema);
    dropUnknownFormats(schema, "", notes);
    moveArrayEnums(schema, "", notes);
    dropUnknownFormats(null, "", notes);
    moveArrayEnums(null, "", notes);
    expect(schema).toEqual(before);
    expect(notes).toEqual([]);
  });
});

describe("enums on arrays, walked directly", () => {
  it("moves the enum of an array schema at the root into new items, and reports it at the root", () => {
    const notes: SchemaNote[] = [];
    const schema: Record<string, unknown> = { type: "array", enum: ["a", "b"] };
    moveArrayEnums(schema, "", notes);
    expect(schema).toEqual({ type: "array", items: { enum: ["a", "b"] } });
    expect(notes).toEqual([
      { path: "(root)", message: "an enum on an array parameter lists the allowed items; moved to items" },
    ]);
  });

  it("leaves an empty enum, an enum holding a list, and an enum on a schema that is no array", () => {
    const notes: SchemaNote[] = [];
    const schema = {
      type: "object",
      properties: {
        none: { type: "array", enum: [] },
        mixed: { type: "array", enum: ["a", ["b"]] },
        word: { type: "string", enum: ["a"] },
      },
    };
    const before = structuredClone(schema);
    moveArrayEnums(schema, "p", notes);
    expect(schema).toEqual(before);
    expect(notes).toEqual([]);
  });

  it("names nested places from the root without a leading dot, and list items by index", () => {
    const notes: SchemaNote[] = [];
    moveArrayEnums(
      [
        { type: "object", properties: { sizes: { type: "array", enum: ["S"] } } },
        { type: "array", enum: [1] },
      ],
      "",
      notes,
    );
    expect(notes.map((n) => n.path)).toEqual(["[0].properties.sizes", "[1]"]);
  });

  it("does not walk into enum, const, default or examples values", () => {
    const notes: SchemaNote[] = [];
    const inner = { type: "array", enum: ["x"] };
    const schema = {
      type: "object",
      enum: [inner],
      const: inner,
      default: inner,
      examples: [inner],
    };
    moveArrayEnums(schema, "", notes);
    expect(notes).toEqual([]);
    expect(inner).toEqual({ type: "array", enum: ["x"] });
  });
});
