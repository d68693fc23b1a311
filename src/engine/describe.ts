import { counted, type JsonSchema, type Tool } from "../catalog/index.js";
import type { Finding } from "./findings.js";

/**
 * Text an agent reads when its call is rejected: every finding, then the tool's parameters,
 * so one retry can fix everything.
 */
export function rejectionText(toolName: string, findings: readonly Finding[], tool?: DescribedTool): string {
  const errors = findings.filter((f) => f.severity === "error");
  const lines = [
    `The call to ${toolName} was rejected and nothing was executed. Fix ${errors.length === 1 ? "this" : `these ${errors.length} problems`} and call again:`,
    ...errors.map((f) => `- [${f.code}] ${f.message}`),
  ];
  if (tool) lines.push("", parameterSummary(tool));
  return lines.join("\n");
}

/** What a summary needs of a tool: catalog tools and control tools alike. */
export type DescribedTool = Pick<Tool, "name" | "inputSchema">;

/** Summaries by input schema and tool name: written once, read on every rejected call (schemas do not change). */
const summaries = new WeakMap<DescribedTool["inputSchema"], Map<string, string>>();

/** One line per parameter: name, type, required, constraints, description. */
export function parameterSummary(tool: DescribedTool): string {
  let byName = summaries.get(tool.inputSchema);
  if (!byName) {
    byName = new Map();
    summaries.set(tool.inputSchema, byName);
  }
  let summary = byName.get(tool.name);
  if (summary === undefined) {
    summary = summarize(tool);
    byName.set(tool.name, summary);
  }
  return summary;
}

function summarize(tool: DescribedTool): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((tool.inputSchema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  if (names.length === 0) return `${tool.name} takes no arguments.`;
  const lines = [`Parameters of ${tool.name}:`];
  for (const name of names) {
    const schema = properties[name] ?? {};
    const facts = [typeLabel(schema), required.has(name) ? "required" : "optional", ...constraints(schema)];
    const description = typeof schema.description === "string" ? ` ${schema.description}` : "";
    lines.push(`- ${name} (${facts.join(", ")})${description ? ` —${description}` : ""}`);
  }
  if (tool.inputSchema.additionalProperties === false) lines.push("No other arguments are accepted.");
  return lines.join("\n");
}

function typeLabel(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "any");
  if (type === "array" && schema.items && typeof schema.items === "object") {
    return `array of ${typeLabel(schema.items as JsonSchema)}`;
  }
  return type;
}

function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(" / ")}`);
  if (schema.format) out.push(`format ${String(schema.format)}`);
  if (schema.pattern) out.push(`pattern ${String(schema.pattern)}`);
  if (schema.minimum !== undefined) out.push(`>= ${String(schema.minimum)}`);
  if (schema.maximum !== undefined) out.push(`<= ${String(schema.maximum)}`);
  if (typeof schema.minLength === "number") out.push(`at least ${counted(schema.minLength, "character")}`);
  if (typeof schema.maxLength === "number") out.push(`at most ${counted(schema.maxLength, "character")}`);
  if (typeof schema.minItems === "number") out.push(`at least ${counted(schema.minItems, "item")}`);
  if (typeof schema.maxItems === "number") out.push(`at most ${counted(schema.maxItems, "item")}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}
