import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOpenAiFunctions, loadToolsets, type Tool } from "../src/catalog/index.js";
import { computationEffects } from "../src/compute/index.js";
import { connectStdio, tempDir } from "./support/index.js";

/**
 * Computation tools of a foreign catalog, imported as they arrive (OpenAI function
 * definitions with their error strings and a database), given the effects the recogniser
 * writes, linted by the real loader and served over stdio to the real MCP SDK client.
 */
const functions = [
  {
    schema: {
      type: "function",
      function: {
        name: "calculator",
        description: "Calculate the result of a mathematical expression.",
        parameters: {
          type: "object",
          properties: { expression: { type: "string" } },
          required: ["expression"],
        },
      },
    },
    error_messages: ["Error: invalid characters in expression"],
  },
  {
    name: "monthly_installment",
    description: "Monthly payment of a loan.",
    parameters: {
      type: "object",
      properties: {
        loan_amount: { type: "number" },
        annual_rate: { type: "number", description: "Yearly interest rate as a percentage, e.g. 6 for 6%" },
        years: { type: "integer" },
      },
      required: ["loan_amount", "annual_rate", "years"],
    },
  },
  {
    name: "convert_money",
    description: "Convert an amount of money from one currency to another.",
    parameters: {
      type: "object",
      properties: {
        amount: { type: "number" },
        from_currency: { type: "string" },
        to_currency: { type: "string" },
      },
      required: ["amount", "from_currency", "to_currency"],
    },
  },
  {
    name: "convert_length",
    description: "Convert a length from one unit to another.",
    parameters: {
      type: "object",
      properties: { value: { type: "number" }, from_unit: { type: "string" }, to_unit: { type: "string" } },
      required: ["value", "from_unit", "to_unit"],
    },
  },
  {
    name: "average_scores",
    description: "Compute the average of a list of scores.",
    parameters: {
      type: "object",
      properties: { scores: { type: "array", items: { type: "number" } } },
      required: ["scores"],
    },
  },
];

describe("computation tools answer the computed value over MCP", () => {
  const dir = tempDir();
  let client: Client;

  beforeAll(async () => {
    const imported = importOpenAiFunctions(
      { functions, state: { exchange_rates: { EUR: { rate: 0.5, base: "USD" } } } },
      { id: "desk_math" },
    );
    const toolset = imported.toolsets[0];
    if (!toolset) throw new Error("nothing imported");
    const length = toolset.tools.find((t) => t.name === "convert_length");
    if (length)
      length.outputSchema = {
        type: "object",
        properties: { converted_value: { type: "number" }, unit: { type: "string" } },
      };
    for (const tool of toolset.tools) {
      const effects = computationEffects(tool);
      if (!effects) throw new Error(`${tool.name} was not recognised`);
      tool.effects = effects as Tool["effects"];
    }
    // the effects are a toolset file's: the real loader checks them (format, expressions, error codes)
    writeFileSync(join(dir.path, "desk_math.json"), JSON.stringify(toolset, null, 2));
    const loaded = loadToolsets([join(dir.path, "desk_math.json")], { checkSchemas: true });
    expect(loaded.problems.filter((p) => p.severity === "error")).toEqual([]);
    ({ client } = await connectStdio([
      "--toolsets",
      join(dir.path, "desk_math.json"),
      "--db",
      join(dir.path, "toolsim.db"),
    ]));
  });
  afterAll(async () => {
    await client?.close();
    dir.cleanup();
  });

  const textOf = (result: { content?: unknown }) =>
    (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join("");
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

  it("a calculator answers the value of the expression", async () => {
    const result = await call("calculator", { expression: "(19.99 + 5.01) * 2" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("50");
    expect(textOf(await call("calculator", { expression: "3131.1 + 4777.75 + 367.38" }))).toBe("8276.23");
  });

  it("an invalid expression answers the tool's documented error with the reason, and nothing else", async () => {
    const result = await call("calculator", { expression: "2 +* 3" });
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(textOf(result)) as { error: { code: string; message: string } };
    expect(error.code).toBe("INVALID_CHARACTERS_IN_EXPRESSION");
    expect(error.message).toMatch(/invalid expression "2 \+\* 3"/);
  });

  it("named operations compute from the arguments' roles", async () => {
    const payment = Number(
      textOf(await call("monthly_installment", { loan_amount: 200000, annual_rate: 6, years: 30 })),
    );
    expect(payment).toBeCloseTo(1199.101, 3);
    expect(textOf(await call("average_scores", { scores: [70, 80, 96] }))).toBe("82");
  });

  it("currency conversion takes the session's own rates first", async () => {
    expect(
      textOf(await call("convert_money", { amount: 10, from_currency: "USD", to_currency: "EUR" })),
    ).toBe("5");
    // the state knows no yen: the built-in table answers
    expect(
      Number(textOf(await call("convert_money", { amount: 1, from_currency: "USD", to_currency: "JPY" }))),
    ).toBe(150);
  });

  it("a unit conversion fills the output property that is the answer; a tool with no documented error answers INVALID_INPUT with the reason", async () => {
    const converted = await call("convert_length", { value: 5, from_unit: "km", to_unit: "mile" });
    expect(converted.isError).toBeFalsy();
    expect((converted.structuredContent as { converted_value: number }).converted_value).toBeCloseTo(
      3.10686,
      5,
    );
    const unknown = await call("convert_length", { value: 5, from_unit: "parsec", to_unit: "mile" });
    expect(unknown.isError).toBe(true);
    const { error } = JSON.parse(textOf(unknown)) as { error: { code: string; message: string } };
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/unknown unit "parsec"/);
  });
});
