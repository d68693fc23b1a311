import { describe, expect, it } from "vitest";
import { formatImportProblem, importOpenAiFunctions, Toolset } from "../src/catalog/index.js";

/**
 * OpenAI function lists imported case by case: the wrappers a definition may come in, the names
 * MCP clients accept, the read/write labels, the documented error messages turned into errors,
 * and the problem reported for everything changed or left out.
 */

const fn = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `${name} does its job.`,
  parameters: { type: "object", properties: {} },
  ...extra,
});

function imported(functions: unknown, state?: unknown) {
  const result = importOpenAiFunctions(
    { functions, ...(state === undefined ? {} : { state }) },
    { id: "Shop Tools" },
  );
  const toolset = result.toolsets[0];
  if (toolset) Toolset.parse(toolset);
  return {
    toolset,
    tools: toolset?.tools ?? [],
    problems: result.problems.map((p) => `${p.tool ?? "-"} ${p.path}: ${p.message}`),
  };
}

describe("the toolset of an OpenAI function list", () => {
  it("takes its id, names and description from the options, or from the id and the tools", () => {
    const { toolset } = imported([fn("get_order"), fn("cancel_order")]);
    expect(toolset?.id).toBe("shop_tools");
    expect(toolset?.name).toBe("shop tools");
    expect(toolset?.subdomain).toBe("shop tools");
    expect(toolset?.field).toBe("Imported functions");
    expect(toolset?.description).toBe("Functions: get_order, cancel_order.");
    const named = importOpenAiFunctions(
      { functions: [fn("a")] },
      { id: "x.y-z", name: "N", field: "F", subdomain: "S", description: "D" },
    ).toolsets[0];
    expect([named?.id, named?.name, named?.field, named?.subdomain, named?.description]).toEqual([
      "x.y-z",
      "N",
      "F",
      "S",
      "D",
    ]);
    const dotted = importOpenAiFunctions({ functions: [fn("a")] }, { id: "a.b--c" }).toolsets[0];
    expect([dotted?.name, dotted?.subdomain]).toEqual(["a b c", "a b c"]);
  });

  it("cuts a long generated description at 500 characters", () => {
    const many = Array.from({ length: 60 }, (_, i) => fn(`tool_number_${i}`));
    const description = imported(many).toolset?.description ?? "";
    expect(description.length).toBe(500);
    expect(description.startsWith("Functions: tool_number_0, tool_number_1,")).toBe(true);
  });

  it("reads the list bare, under `tools`, or not at all", () => {
    expect(imported({ tools: [fn("a")] }).tools.map((t) => t.name)).toEqual(["a"]);
    for (const functions of [{ functions: [fn("a")] }, "a", null]) {
      const { toolset, problems } = imported(functions);
      expect(toolset).toBeUndefined();
      expect(problems).toEqual(["- (root): expected a JSON array of function definitions"]);
    }
    expect(imported([]).problems).toEqual(["- (root): no function definitions; nothing imported"]);
  });

  it("unwraps a definition from `function` or `schema`, up to three levels, and skips what has no name", () => {
    const { tools, problems } = imported([
      { type: "function", function: fn("wrapped") },
      { schema: fn("schema_wrapped"), error_messages: [] },
      { schema: { function: fn("twice") } },
      { a: { b: { c: fn("too_deep") } } },
      { schema: { schema: { schema: fn("three_deep") } } },
      { name: "bare_name" },
      { description: "no name", parameters: {} },
      42,
      { function: { name: "", parameters: {} } },
    ]);
    expect(tools.map((t) => t.name)).toEqual(["wrapped", "schema_wrapped", "twice"]);
    expect(problems).toEqual([
      "- [3]: not a function definition (no name); skipped",
      "- [4]: not a function definition (no name); skipped",
      "- [5]: not a function definition (no name); skipped",
      "- [6]: not a function definition (no name); skipped",
      "- [7]: not a function definition (no name); skipped",
      "- [8]: not a function definition (no name); skipped",
    ]);
  });

  it("takes a definition with only a description or only parameters", () => {
    const { tools, problems } = imported([
      { name: "only_description", description: "Describes." },
      { name: "only_parameters", parameters: { type: "object", properties: { q: { type: "string" } } } },
    ]);
    expect(tools.map((t) => [t.name, t.description, t.inputSchema])).toEqual([
      ["only_description", "Describes.", { type: "object", properties: {} }],
      ["only_parameters", "only_parameters", { type: "object", properties: { q: { type: "string" } } }],
    ]);
    expect(problems).toEqual([
      "only_description parameters: missing; the tool takes no arguments",
      "only_parameters description: missing; the name stands in",
    ]);
  });

  it("makes names MCP clients accept, keeps the original as the title, and numbers repeated names", () => {
    const { tools } = imported([
      fn("Get Order.Status"),
      fn("get_order"),
      fn("get_order"),
      fn("  __weird__name__  "),
      fn("!!!"),
      fn("x".repeat(140)),
      fn("x".repeat(140)),
      fn("get_order"),
    ]);
    expect(tools.map((t) => t.name)).toEqual([
      "Get_Order_Status",
      "get_order",
      "get_order_2",
      "weird_name",
      "tool",
      "x".repeat(128),
      `${"x".repeat(126)}_2`,
      "get_order_3",
    ]);
    // a numbered name is not the original one either
    expect(tools.map((t) => t.title)).toEqual([
      "Get Order.Status",
      undefined,
      "get_order",
      "  __weird__name__  ",
      "!!!",
      "x".repeat(140),
      "x".repeat(140),
      "get_order",
    ]);
  });

  it("reads the parameters as an object schema, reporting what it changed", () => {
    const { tools, problems } = imported([
      fn("typed_array", { parameters: { type: "array", properties: { a: { type: "string" } } } }),
      fn("no_properties", { parameters: { type: "object", properties: "none" } }),
      fn("untyped", { parameters: { properties: { a: { type: "string" } } } }),
    ]);
    expect(tools.map((t) => t.inputSchema)).toEqual([
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: {} },
      { type: "object", properties: { a: { type: "string" } } },
    ]);
    expect(problems).toEqual(['typed_array parameters.type: "array" read as "object"']);
  });

  it("trims the description, and reports schema repairs under the parameters' path", () => {
    const { tools, problems } = imported([
      fn("tag", {
        description: "  Tags an order.  ",
        parameters: {
          type: "object",
          properties: {
            when: { type: "string", format: "fuzzy-date" },
            tags: { type: "array", enum: ["a", "b"] },
          },
        },
      }),
    ]);
    expect(tools[0]?.description).toBe("Tags an order.");
    expect(tools[0]?.errors).toEqual([]);
    expect(problems).toEqual([
      'tag parameters.properties.when: format "fuzzy-date" is not checked by the validator; kept in the description',
      "tag parameters.properties.tags: an enum on an array parameter lists the allowed items; moved to items",
    ]);
  });

  it("does not change the definitions it was given", () => {
    const functions = [fn("a", { parameters: { type: "array" } })];
    const before = structuredClone(functions);
    imported(functions);
    expect(functions).toEqual(before);
  });

  it("reads a wrapper's read/write label under any of its keys, in any case", () => {
    const { tools, problems } = imported([
      { schema: fn("r1"), access: "READ" },
      { schema: fn("r2"), label: "read-only" },
      { schema: fn("r3"), tool_type: "think" },
      { schema: fn("r4"), tool_type_from_tau2: "generic" },
      { schema: fn("r5"), access: "readonly" },
      { schema: fn("w1"), label: "Write" },
      { schema: fn("w2"), access: "mutate" },
      { schema: fn("w3"), access: "update" },
      { schema: fn("u1"), access: "sometimes" },
      { schema: fn("u2"), access: 1, label: "write" },
      { schema: fn("n1") },
    ]);
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ["r1", true],
      ["r2", true],
      ["r3", true],
      ["r4", true],
      ["r5", true],
      ["w1", false],
      ["w2", false],
      ["w3", false],
      ["u1", undefined],
      ["u2", false],
      ["n1", undefined],
    ]);
    expect(tools.find((t) => t.name === "u1")).not.toHaveProperty("annotations");
    expect(problems).toEqual(['u1 access: unknown label "sometimes"; no read/write annotation']);
  });

  it("keeps a database object as the state, a copy of it, and leaves out anything else", () => {
    const db = { orders: { o1: { status: "open" } } };
    const { toolset } = imported([fn("a")], db);
    expect(toolset?.state).toEqual(db);
    expect(toolset?.state).not.toBe(db);
    expect(imported([fn("a")]).toolset?.state).toEqual({});
    const bad = imported([fn("a")], [1, 2]);
    expect(bad.toolset?.state).toEqual({});
    expect(bad.problems).toEqual(["- state: the database is not a JSON object; left out"]);
  });
});

describe("documented error messages become the tool's errors", () => {
  const errorsOf = (messages: unknown[]) =>
    imported([{ schema: fn("act"), error_messages: messages }]).tools[0]?.errors ?? [];

  it("names each error by the words before the colon, and keeps the message", () => {
    expect(errorsOf(["Order not found: check the order id.", "Invalid quantity: must be positive"])).toEqual([
      {
        code: "ORDER_NOT_FOUND",
        status: 404,
        message: "Order not found: check the order id.",
        when: "The source documents this error: Order not found",
      },
      {
        code: "INVALID_QUANTITY",
        status: 400,
        message: "Invalid quantity: must be positive",
        when: "The source documents this error: Invalid quantity",
      },
    ]);
  });

  it("reads past a leading `Error:`, and names a message without a colon by its first six words", () => {
    expect(
      errorsOf([
        "Error: payment declined",
        "error:",
        "The card on file has expired since last month",
        7,
        "  ",
      ]).map((e) => [e.code, e.when]),
    ).toEqual([
      ["PAYMENT_DECLINED", "The source documents this error: payment declined"],
      ["ERROR", "The source documents this error: error"],
      [
        "THE_CARD_ON_FILE_HAS_EXPIRED",
        "The source documents this error: The card on file has expired since last month",
      ],
    ]);
  });

  it("reads an `Error :` head the same, and only the word Error itself", () => {
    expect(errorsOf(["Error : stock is empty", "Errors: many", "MyError: one"]).map((e) => e.code)).toEqual([
      "STOCK_IS_EMPTY",
      "ERRORS",
      "MY_ERROR",
    ]);
  });

  it("reads a colon up to the 80th character, and trims the words before it", () => {
    const at79 = `${"a".repeat(78)} : tail`;
    expect(at79.indexOf(":")).toBe(79);
    expect(errorsOf([at79]).map((e) => e.when)).toEqual([
      `The source documents this error: ${"a".repeat(78)}`,
    ]);
    const at80 = `${"a".repeat(79)} : tail`;
    expect(errorsOf([at80]).map((e) => e.when)).toEqual([`The source documents this error: ${at80}`]);
  });

  it("ignores a colon at the start or past 80 characters", () => {
    const long = `${"word ".repeat(17)}: tail`;
    expect(errorsOf([": starts with a colon", long]).map((e) => [e.code, e.when])).toEqual([
      ["STARTS_WITH_A_COLON", "The source documents this error: : starts with a colon"],
      ["WORD_WORD_WORD_WORD_WORD_WORD", `The source documents this error: ${long}`],
    ]);
  });

  it("keeps codes unique within the tool", () => {
    expect(errorsOf(["Not allowed: a", "Not allowed: b", "Not allowed: c"]).map((e) => e.code)).toEqual([
      "NOT_ALLOWED",
      "NOT_ALLOWED_2",
      "NOT_ALLOWED_3",
    ]);
  });

  it("gives each kind of failure its HTTP status", () => {
    const statuses = errorsOf([
      "Order does not exist",
      "Unknown user id given",
      "No such flight",
      "Unauthorized request",
      "Unauthorised request",
      "Permission denied",
      "Forbidden action",
      "Already exists",
      "Duplicate booking",
      "Conflict with another booking",
      "Bad input",
    ]).map((e) => e.status);
    expect(statuses).toEqual([404, 404, 404, 403, 403, 403, 403, 409, 409, 409, 400]);
  });

  it("splits camelCase words and drops leading digits and symbols from a code", () => {
    expect(errorsOf(["orderNotFound", "404 - missing item", "#1 problem"]).map((e) => e.code)).toEqual([
      "ORDER_NOT_FOUND",
      "MISSING_ITEM",
      "PROBLEM",
    ]);
  });
});

describe("a problem as a line of text", () => {
  it("names the toolset, the tool and the path it is about, whichever it has", () => {
    expect(
      formatImportProblem({ toolset: "shop", tool: "pay", path: "parameters.x", message: "dropped" }),
    ).toBe("shop › pay › parameters.x: dropped");
    expect(formatImportProblem({ toolset: "shop", path: "(root)", message: "empty" })).toBe(
      "shop › (root): empty",
    );
  });
});
