import { describe, expect, it } from "vitest";
import { importBfcl, Toolset, validatorFor } from "../src/catalog/index.js";

/**
 * BFCL sources built in the test, one rule at a time: how entries group into toolsets, how a
 * function becomes a tool, how possible answers become golden solutions, and how the loose
 * parameter schemas of the source become JSON Schema, with every note on the way.
 */

type Source = Parameters<typeof importBfcl>[0];

const fn = (name: string, properties: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  name,
  description: `${name} of the thing.`,
  parameters: { type: "dict", properties, required: Object.keys(properties) },
  ...extra,
});

const ask = (text: string) => [[{ role: "user", content: text }]];

function run(source: Partial<Source>) {
  const result = importBfcl({ entries: [], answers: new Map(), functionDocs: [], ...source });
  for (const toolset of result.toolsets) expect(Toolset.safeParse(toolset).success, toolset.id).toBe(true);
  return {
    toolsets: result.toolsets,
    problems: result.problems.map((p) => `${p.toolset} ${p.tool ?? "-"} ${p.path}: ${p.message}`),
  };
}

/** The input schema of one function, imported alone, with the notes about it. */
function schemaOf(parameters: unknown) {
  const { toolsets, problems } = run({
    entries: [
      {
        file: "simple.json",
        entry: {
          id: "simple_0",
          question: ask("q"),
          function: [{ name: "f", description: "F.", parameters }],
        },
      },
    ],
  });
  return { schema: toolsets[0]?.tools[0]?.inputSchema, notes: problems };
}

describe("entries and their toolsets", () => {
  it("puts entries offering the same functions, in any order, in one toolset with a task each", () => {
    const a = fn("area", { r: { type: "float" } });
    const b = fn("volume", { r: { type: "float" } });
    const { toolsets, problems } = run({
      entries: [
        {
          file: "x/simple.json",
          entry: { id: "live_multiple_3-2-1", question: ask("First?"), function: [a, b] },
        },
        {
          file: "x/simple.json",
          entry: { id: "live_multiple_4-2-1", question: ask("Second?"), function: [b, a] },
        },
        { file: "x/simple.json", entry: { id: "simple_9", question: ask("Third?"), function: [a] } },
      ],
    });
    expect(problems).toEqual([]);
    expect(toolsets.map((t) => [t.id, t.subdomain, t.name, t.field, t.tasks.map((k) => k.id)])).toEqual([
      [
        "live_multiple_3-2-1",
        "live multiple",
        "live multiple: area, volume",
        "Function calling",
        ["live_multiple_3-2-1", "live_multiple_4-2-1"],
      ],
      ["simple_9", "simple", "simple: area", "Function calling", ["simple_9"]],
    ]);
    expect(toolsets[0]?.description).toBe("area of the thing.");
    expect(toolsets[0]?.tasks.map((t) => t.description)).toEqual(["First?", "Second?"]);
    // tool names are unique across the whole import; the second toolset's title keeps the source's name
    expect(toolsets[1]?.tools.map((t) => [t.name, t.title])).toEqual([["area_2", "area"]]);
  });

  it("reports entries without an id, without functions, or naming classes without a configuration", () => {
    const { toolsets, problems } = run({
      entries: [
        { file: "dir/multi.json", entry: { question: ask("q"), function: [fn("f")] } },
        { file: "dir\\multi.json", entry: "not an entry" },
        { file: "dir/empty.json", entry: { id: "simple_1", question: ask("q"), function: ["f", 1] } },
        {
          file: "dir/classes.json",
          entry: { id: "multi_turn_miss_0", question: ask("q"), involved_classes: ["A"] },
        },
        { file: "dir/classes.json", entry: { id: "multi_turn_miss_1", question: ask("q") } },
      ],
    });
    expect(toolsets).toEqual([]);
    expect(problems).toEqual([
      "multi.json - dir/multi.json: an entry without an id; skipped",
      "multi.json - dir\\multi.json: an entry without an id; skipped",
      "simple_1 - dir/empty.json: the entry offers no functions; skipped",
      "classes.json - dir/classes.json: 2 entries name their functions by class without an initial_config (their ground truth is an answer, not calls); their tools come from the function-doc files, their tasks are not imported",
    ]);
  });

  it("cuts a long toolset name at 200 characters, and names an entry's category bfcl when its id has none", () => {
    const many = Array.from({ length: 30 }, (_, i) => fn(`function_with_a_long_name_${i}`));
    const { toolsets } = run({
      entries: [
        { file: "a.json", entry: { id: "simple_1", question: ask("q"), function: many } },
        { file: "a.json", entry: { id: "_7", question: ask("q"), function: [fn("lonely")] } },
      ],
    });
    expect(toolsets[0]?.name).toHaveLength(200);
    expect(toolsets[0]?.name?.slice(0, 37)).toBe("simple: function_with_a_long_name_0, ");
    expect(toolsets[1]?.subdomain).toBe("bfcl");
  });
});

describe("a function as a tool", () => {
  it("names a function without a name by its place, and reports a missing description", () => {
    const { toolsets, problems } = run({
      entries: [
        {
          file: "a.json",
          entry: {
            id: "simple_1",
            question: ask("q"),
            function: [{ parameters: { type: "dict", properties: {} } }, { name: "x.y", description: "  " }],
          },
        },
      ],
    });
    expect(toolsets[0]?.tools.map((t) => [t.name, t.title, t.description])).toEqual([
      ["function_1", undefined, "function_1"],
      ["x_y", "x.y", "x.y"],
    ]);
    expect(problems).toEqual([
      "simple_1 function_1 description: missing; the name stands in",
      "simple_1 x_y description: missing; the name stands in",
    ]);
  });

  it("reads parameters of type dict or object as they are, and any other type as an object, with a note", () => {
    for (const type of ["dict", "object", undefined]) {
      const { schema, notes } = schemaOf({
        ...(type ? { type } : {}),
        properties: { a: { type: "string" } },
      });
      expect(schema).toEqual({
        type: "object",
        properties: { a: { type: "string" } },
        additionalProperties: false,
      });
      expect(notes).toEqual([]);
    }
    const { schema, notes } = schemaOf({ type: "array", properties: {} });
    expect(schema).toEqual({ type: "object", properties: {}, additionalProperties: false });
    expect(notes).toEqual(['simple_0 f parameters.type: parameters of type "array" read as an object']);
    expect(schemaOf("none").schema).toEqual({ type: "object", properties: {}, additionalProperties: false });
  });
});

describe("possible answers as golden solutions", () => {
  function solved(
    answer: unknown,
    functions = [fn("pay", { amount: { type: "integer" }, note: { type: "string" } })],
  ) {
    const { toolsets, problems } = run({
      entries: [{ file: "a.json", entry: { id: "simple_5", question: ask("Pay."), function: functions } }],
      answers: new Map([["simple_5", answer]]),
    });
    const task = toolsets[0]?.tasks[0];
    return { task, problems, tools: toolsets[0]?.tools ?? [] };
  }

  it("takes the first accepted value that fits the parameter's type, and leaves out an optional argument", () => {
    const { task, tools } = solved({
      ground_truth: [{ pay: { amount: ["ten", 10, 11], note: ["", "rent"] } }],
    });
    expect(task?.solution).toEqual([{ tool: "pay", arguments: { amount: 10, note: "rent" } }]);
    const skipped = solved({ ground_truth: [{ pay: { amount: [3], note: [""] } }] }).task;
    expect(skipped?.solution).toEqual([{ tool: "pay", arguments: { amount: 3 } }]);
    const first = solved({ ground_truth: [{ pay: { amount: ["ten", "eleven"], note: "rent" } }] }).task;
    expect(first?.solution).toEqual([{ tool: "pay", arguments: { amount: "ten", note: "rent" } }]);
    for (const call of task?.solution ?? []) {
      const schema = tools.find((t) => t.name === call.tool)?.inputSchema ?? {};
      expect(validatorFor(schema)(call.arguments)).toBe(true);
    }
  });

  it("reduces nested dictionaries and lists of them the same way", () => {
    const book = fn("book", {
      guest: { type: "dict", properties: { name: { type: "string" }, age: { type: "integer" } } },
      rooms: { type: "array", items: { type: "dict", properties: { beds: { type: "integer" } } } },
      tags: { type: "array", items: { type: "string" } },
    });
    const { task } = solved(
      {
        ground_truth: [
          {
            book: {
              guest: [{ name: ["Ann"], age: ["x", 40] }],
              rooms: [[{ beds: ["two", 2] }, { beds: [1] }]],
              tags: [["a", "b"]],
            },
          },
        ],
      },
      [book],
    );
    expect(task?.solution).toEqual([
      {
        tool: "book",
        arguments: { guest: { name: "Ann", age: 40 }, rooms: [{ beds: 2 }, { beds: 1 }], tags: ["a", "b"] },
      },
    ]);
  });

  it("groups parallel calls as one answer, and rates the task by its number of calls", () => {
    const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ pay: { amount: [i] } }));
    const rated = (n: number) => solved({ ground_truth: calls(n) }).task;
    expect(rated(2)?.solution.map((c) => c.group)).toEqual(["answer", "answer"]);
    expect(rated(1)?.solution[0]).not.toHaveProperty("group");
    expect([0, 1, 2, 3, 4].map((n) => rated(n)?.difficulty)).toEqual([
      "simple",
      "simple",
      "medium",
      "medium",
      "complex",
    ]);
    expect(solved({ ground_truth: [{ pay: { amount: [1] }, refund: {} }] }).task?.solution).toHaveLength(1);
  });

  it("leaves out steps it cannot read, and says which", () => {
    const { task, problems } = solved({
      ground_truth: ["pay(1)", { refund: { amount: [1] } }, { pay: "all" }],
    });
    expect(task?.solution).toEqual([{ tool: "pay", arguments: {} }]);
    expect(problems).toEqual([
      "simple_5 - simple_5 ground_truth[0]: not a {function: arguments} object; left out",
      "simple_5 - simple_5 ground_truth[1]: calls refund, which the entry does not offer; left out",
    ]);
    expect(solved({ nothing: true }).task?.solution).toEqual([]);
    expect(solved(undefined).task?.solution).toEqual([]);
  });

  it("marks irrelevance entries invalid and names the tools that do not fit", () => {
    for (const id of ["irrelevance_3", "live_irrelevance_7-1-0"]) {
      const { toolsets } = run({
        entries: [
          { file: "a.json", entry: { id, question: ask("Weather?"), function: [fn("pay"), fn("x.refund")] } },
        ],
      });
      expect(toolsets[0]?.tasks[0]).toMatchObject({
        valid: false,
        invalid_reason: "none of pay, x.refund fits the request",
      });
    }
    const { toolsets } = run({
      entries: [
        { file: "a.json", entry: { id: "relevance_3", question: ask("Pay?"), function: [fn("pay")] } },
      ],
    });
    expect(toolsets[0]?.tasks[0]?.valid).toBe(true);
    expect(toolsets[0]?.tasks[0]).not.toHaveProperty("invalid_reason");
  });

  it("takes the first user message of the first turn that has one as the task", () => {
    const question = [
      [{ role: "system", content: "Be brief." }],
      { role: "user", content: "  Book a room.  " },
      [{ role: "user", content: "Later turn." }],
    ];
    const described = (q: unknown) =>
      run({ entries: [{ file: "a.json", entry: { id: "simple_2", question: q, function: [fn("f")] } }] })
        .toolsets[0]?.tasks[0]?.description;
    expect(described(question)).toBe("Book a room.");
    expect(described([[{ role: "user", content: 7 }]])).toBe("Task simple_2");
    expect(described("Book a room.")).toBe("Task simple_2");
  });
});

describe("function-doc files", () => {
  it("become a toolset each, named after the file, with the response as the output schema", () => {
    const { toolsets, problems } = run({
      functionDocs: [
        {
          file: "docs/travel_booking.jsonl",
          functions: [
            fn(
              "book",
              { city: { type: "string" } },
              { response: { type: "dict", properties: { id: { type: "string" } } } },
            ),
            fn("count", {}, { response: { type: "integer" } }),
            "not a function",
          ],
        },
        { file: "docs/Empty.JSON", functions: [1, "x"] },
      ],
    });
    expect(problems).toEqual(["empty - docs/Empty.JSON: no functions; no toolset written"]);
    expect(toolsets.map((t) => [t.id, t.name, t.subdomain, t.description])).toEqual([
      ["travel_booking", "travel booking", "travel booking", "The travel booking functions: book, count."],
    ]);
    expect(toolsets[0]?.tools.map((t) => t.outputSchema)).toEqual([
      { type: "object", properties: { id: { type: "string" } } },
      { type: "object", properties: { result: { type: "integer" } }, required: ["result"] },
    ]);
    expect(toolsets[0]?.tasks).toEqual([]);
    expect(toolsets[0]?.state).toEqual({});
  });

  it("cuts a long description at 500 characters", () => {
    const functions = Array.from({ length: 40 }, (_, i) => fn(`a_rather_long_function_name_${i}`));
    const { toolsets } = run({ functionDocs: [{ file: "long.json", functions }] });
    expect(toolsets[0]?.description).toHaveLength(500);
  });
});

describe("loose parameter schemas as JSON Schema", () => {
  const property = (raw: unknown) => {
    const { schema, notes } = schemaOf({ type: "dict", properties: { p: raw } });
    return {
      p: (schema?.properties as Record<string, unknown>)?.p,
      notes: notes.map((n) => n.replace(/^simple_0 f /, "")),
    };
  };

  it("maps the type names of Python, Java and JavaScript, generics by their outer name", () => {
    const cases: Array<[string, unknown]> = [
      ["str", "string"],
      ["char", "string"],
      ["Character", "string"],
      ["double", "number"],
      ["BigDecimal", "number"],
      ["long", "integer"],
      ["short", "integer"],
      ["byte", "integer"],
      ["BigInteger", "integer"],
      ["bool", "boolean"],
      ["tuple", "array"],
      ["HashMap", "object"],
      ["null", "null"],
    ];
    for (const [name, type] of cases) expect(property({ type: name }).p, name).toEqual({ type });
    expect(property({ type: "ArrayList<String>", items: { type: "String" } }).p).toEqual({
      type: "array",
      items: { type: "string" },
    });
    expect(property({ type: "Map <String, Integer>" }).p).toEqual({ type: "object" });
    expect(property({ type: "any" })).toEqual({ p: {}, notes: [] });
  });

  it("maps a list of types to the distinct types, or to any value when one is unknown", () => {
    expect(property({ type: ["int", "integer", "null"] }).p).toEqual({ type: ["integer", "null"] });
    const unknown = property({ type: ["int", "Widget"] });
    expect(unknown.p).toEqual({});
    expect(unknown.notes).toEqual(['parameters.p.type: unknown type "Widget"; any value is accepted']);
    expect(property({ type: 5 }).notes).toEqual(["parameters.p.type: unknown type 5; any value is accepted"]);
    expect(property({ type: "Widget<String>" }).notes).toEqual([
      'parameters.p.type: unknown type "Widget<String>"; any value is accepted',
    ]);
  });

  it("copies the JSON Schema keywords, and leaves out the rest with a note", () => {
    const raw = {
      type: "string",
      description: "d",
      title: "t",
      minLength: 1,
      maxLength: 9,
      pattern: "^a",
      examples: ["ab"],
      format: "date",
      optional: true,
      nullable: true,
    };
    const { p, notes } = property(raw);
    expect(p).toEqual({
      type: "string",
      description: "d",
      title: "t",
      minLength: 1,
      maxLength: 9,
      pattern: "^a",
      examples: ["ab"],
      format: "date",
    });
    expect(notes).toEqual(['parameters.p.nullable: keyword "nullable" is not JSON Schema; left out']);
    expect(property({ type: "string", format: "free-text" }).notes).toEqual([
      'parameters.p.format: format "free-text" is not checked',
    ]);
    expect(property({ type: "string", format: 3 }).p).toEqual({ type: "string" });
  });

  it("reads items, tuples and additional properties", () => {
    expect(property({ type: "list", items: [{ type: "int" }, { type: "str" }] }).p).toEqual({
      type: "array",
      prefixItems: [{ type: "integer" }, { type: "string" }],
    });
    expect(property({ type: "dict", additionalProperties: { type: "float" } }).p).toEqual({
      type: "object",
      additionalProperties: { type: "number" },
    });
    expect(property({ type: "dict", additionalProperties: false }).p).toEqual({
      type: "object",
      additionalProperties: false,
    });
    const nested = property({
      type: "dict",
      properties: { q: { type: "int", required: true }, r: { type: "str" } },
    });
    expect(nested.p).toEqual({
      type: "object",
      properties: { q: { type: "integer" }, r: { type: "string" } },
      required: ["q"],
    });
    expect(property({ type: "list" })).toEqual({
      p: { type: "array" },
      notes: ["parameters.p: array without an item type: any items are accepted"],
    });
    expect(property("a string").notes).toEqual([
      'parameters.p: not a schema object ("a string"); any value is accepted',
    ]);
  });

  it("marks required arguments by the object's list or by each property, unless it is optional", () => {
    const { schema, notes } = schemaOf({
      type: "dict",
      properties: {
        a: { type: "str" },
        b: { type: "str", required: true },
        c: { type: "str", required: true, optional: true },
        d: { type: "str", required: "yes" },
      },
      required: ["a", "ghost", 4],
    });
    expect(schema?.required).toEqual(["a", "b"]);
    expect(notes).toEqual(['simple_0 f parameters: "ghost" is listed as required but not described']);
    expect(schemaOf({ type: "dict", properties: { a: { type: "str" } } }).schema).not.toHaveProperty(
      "required",
    );
  });

  it("reads a null default as a nullable argument, and keeps a default of the right type", () => {
    expect(property({ type: "str", enum: ["a", "b"], default: null }).p).toEqual({
      type: ["string", "null"],
      enum: ["a", "b", null],
      default: null,
    });
    expect(property({ type: ["str", "null"], enum: ["a", null], default: null }).p).toEqual({
      type: ["string", "null"],
      enum: ["a", null],
      default: null,
    });
    expect(property({ default: null }).p).toEqual({});
    expect(property({ type: "int", default: 3 })).toEqual({ p: { type: "integer", default: 3 }, notes: [] });
  });

  it("reads a default of the wrong type as the type when it can, and else accepts it beside the type", () => {
    expect(property({ type: "int", default: "3" })).toEqual({
      p: { type: "integer", default: 3 },
      notes: ['parameters.p.default: default "3" does not match the type; read as 3'],
    });
    expect(property({ type: "int", minimum: 1, default: "all" })).toEqual({
      p: { anyOf: [{ type: "integer", minimum: 1 }, { const: "all" }], default: "all" },
      notes: [
        'parameters.p.default: default "all" does not match the declared type; accepted as a value of its own',
      ],
    });
  });
});
