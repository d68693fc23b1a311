import type { Tool } from "../../catalog/index.js";
import { DATA_RULE, dataBlock } from "./data-block.js";

export const SEMANTIC_CHECK_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    concerns: {
      type: "array",
      items: {
        type: "object",
        properties: { argument: { type: "string" }, problem: { type: "string" } },
        required: ["argument", "problem"],
      },
    },
  },
  required: ["concerns"],
};

export const SEMANTIC_CHECK_SYSTEM = `You check the arguments of a tool call before it runs. The arguments have already passed the JSON Schema of the parameters; you look for what a schema cannot express:
- a format that a parameter's description states but the schema does not enforce (for example "date as YYYY-MM-DD", "ISO 4217 currency code", "E.164 phone number");
- a value that is implausible for what the parameter means (a negative age, a booking for 3 billion guests, a birth date in the future);
- a value that plainly belongs to another parameter (an email address in a name field, an order id in a customer id field).

Report only clear problems that a real service would reject. Do not report style, missing optional parameters, or whether an entity exists (the service decides that). When nothing is wrong, return an empty list.

${DATA_RULE}

Answer with one JSON object: {"concerns": [{"argument": the parameter's name, "problem": one sentence telling the caller what is wrong and what is expected}]}.`;

export function semanticCheckUser(tool: Tool, args: Record<string, unknown>): string {
  return [
    `Tool: ${tool.name}`,
    `Description: ${tool.description}`,
    "Parameters (JSON Schema, with their descriptions):",
    "```json",
    JSON.stringify(tool.inputSchema, null, 2),
    "```",
    dataBlock("Arguments to check", args),
    "List the concerns as the JSON object described in your instructions.",
  ].join("\n");
}
