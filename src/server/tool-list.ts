import type { Tool as McpTool } from "@modelcontextprotocol/server";
import {
  effectHints,
  type JsonSchema,
  profileSchema,
  type SchemaProfile,
  type Tool,
} from "../catalog/index.js";

/**
 * Catalog tools as MCP advertises them. The description carries the usage and the
 * documented errors, because that is all an agent reads before calling.
 */
const advertised = new WeakMap<Tool, McpTool>();

/** `_meta` key of a listed tool: the annotation hints toolsim inferred from its effects. */
export const INFERRED_HINTS = "toolsim/inferredHints";

export function toMcpTool(tool: Tool, profile: SchemaProfile = "full"): McpTool {
  let mcp = advertised.get(tool);
  if (!mcp) {
    const hints = effectHints(tool.effects, tool.annotations);
    mcp = {
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: describe(tool),
      inputSchema: tool.inputSchema as McpTool["inputSchema"],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as McpTool["outputSchema"] } : {}),
      ...(hints ? { annotations: hints.annotations } : {}),
      // a client can tell the hints the effects gave from those the catalog wrote
      ...(hints?.inferred.length ? { _meta: { [INFERRED_HINTS]: hints.inferred } } : {}),
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

/**
 * The most pages a listing takes: the MCP SDK's client follows at most 64 pages of a list
 * by default and fails past that, so pages grow with the list, keeping room for it to grow.
 */
export const MAX_PAGES = 32;

/** The page size for a list: the configured size, or larger, so the list takes at most MAX_PAGES pages. */
export function pageSizeFor(count: number, configured: number): number {
  return Math.max(configured, Math.ceil(count / MAX_PAGES));
}

export type Page<T> = { ok: true; items: T[]; nextCursor?: string } | { ok: false; problem: string };

/**
 * Opaque cursors: the offset of the page, so a listing is stable while the catalog is.
 * A cursor this server did not hand out is an error to report, not a reason to start over.
 */
export function page<T>(items: readonly T[], cursor: string | undefined, size: number): Page<T> {
  if (cursor === undefined || cursor === "") return pageFrom(items, 0, size);
  const start = decodeCursor(cursor, items.length);
  if (start === undefined) {
    return {
      ok: false,
      problem: `invalid cursor ${JSON.stringify(cursor.slice(0, 80))}: pass the nextCursor of the previous tools/list page, or no cursor to start from the first page (the tool list may have changed since)`,
    };
  }
  return pageFrom(items, start, size);
}

function pageFrom<T>(items: readonly T[], start: number, size: number): Page<T> {
  const end = start + size;
  return {
    ok: true,
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: encodeCursor(end) } : {}),
  };
}

function encodeCursor(offset: number): string {
  return Buffer.from(String(offset)).toString("base64url");
}

/** The offset a cursor encodes, if it is one this listing could have handed out. */
function decodeCursor(cursor: string, length: number): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const offset = /^[1-9][0-9]*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(offset) && offset < length && encodeCursor(offset) === cursor
    ? offset
    : undefined;
}
