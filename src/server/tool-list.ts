import type { Tool as McpTool } from "@modelcontextprotocol/server";
import { type JsonSchema, profileSchema, type SchemaProfile, type Tool } from "../catalog/index.js";

/**
 * Catalog tools as MCP advertises them. The description carries the usage and the
 * documented errors, because that is all an agent reads before calling.
 */
const advertised = new WeakMap<Tool, McpTool>();

export function toMcpTool(tool: Tool, profile: SchemaProfile = "full"): McpTool {
  let mcp = advertised.get(tool);
  if (!mcp) {
    mcp = {
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: describe(tool),
      inputSchema: tool.inputSchema as McpTool["inputSchema"],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as McpTool["outputSchema"] } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    };
    advertised.set(tool, mcp);
  }
  return withProfile(mcp, profile);
}

const profiled = new WeakMap<McpTool, Map<SchemaProfile, McpTool>>();

/**
 * A tool as a profile advertises it: the input schema converted, and the rules the
 * conversion took out of it written into the description (toolsim still checks them).
 */
export function withProfile(tool: McpTool, profile: SchemaProfile): McpTool {
  if (profile === "full") return tool;
  let byProfile = profiled.get(tool);
  if (!byProfile) {
    byProfile = new Map();
    profiled.set(tool, byProfile);
  }
  let converted = byProfile.get(profile);
  if (!converted) {
    const { schema, rules } = profileSchema(tool.inputSchema as JsonSchema, profile);
    const notes = rules.length ? [`Rules: ${rules.join(" ")}`] : [];
    const optional = Object.keys((tool.inputSchema.properties ?? {}) as object).some(
      (name) => !(tool.inputSchema.required ?? []).includes(name),
    );
    if (profile === "openai-strict" && optional)
      notes.push("Every argument must be sent; send null for an optional one you leave out.");
    converted = {
      ...tool,
      description: [tool.description ?? "", ...notes].filter(Boolean).join("\n\n"),
      inputSchema: schema as McpTool["inputSchema"],
    };
    byProfile.set(profile, converted);
  }
  return converted;
}

function describe(tool: Tool): string {
  const parts = [tool.description.trim()];
  if (tool.usage) parts.push(`Usage: ${tool.usage.trim()}`);
  if (tool.errors.length > 0) {
    parts.push(
      `Errors: ${tool.errors.map((e) => `${e.code} (${e.status}) when ${e.when.replace(/\.$/, "")}`).join("; ")}.`,
    );
  }
  return parts.join("\n\n");
}

/** Opaque cursors: the offset of the page, so a listing is stable while the catalog is. */
export function page<T>(
  items: readonly T[],
  cursor: string | undefined,
  size: number,
): { items: T[]; nextCursor?: string } {
  const start = cursor ? decodeCursor(cursor) : 0;
  const end = start + size;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: Buffer.from(String(end)).toString("base64url") } : {}),
  };
}

function decodeCursor(cursor: string): number {
  const offset = Number(Buffer.from(cursor, "base64url").toString("utf8"));
  return Number.isInteger(offset) && offset >= 0 ? offset : 0;
}
