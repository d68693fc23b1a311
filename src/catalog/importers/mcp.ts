import { isPlainObject } from "../../patch/index.js";
import { type JsonSchema, TOOL_NAME_PATTERN, type ToolsetInput } from "../format.js";
import type { ImportProblem } from "./result.js";

/**
 * A live MCP server's tools/list result as a toolset: each tool keeps its own inputSchema,
 * outputSchema and annotations, so simulating it later needs no server at all. Pure: the
 * caller fetches the list and writes the file.
 */

export interface McpImportOptions {
  /** Toolset id (lowercase letters, digits, `_ . -`). */
  id: string;
  name?: string;
  /** What the server is for; defaults to a sentence naming the server. */
  description?: string;
  /** Put before every tool name, e.g. `fs.` (the hybrid mode's per-upstream namespace). */
  prefix?: string;
  /** The server's own name and version (initialize's serverInfo), kept as the toolset version. */
  serverInfo?: { name?: string; version?: string };
}

export interface McpImport {
  toolset: ToolsetInput;
  problems: ImportProblem[];
  /** Toolset tool name → the name the server knows the tool by. */
  originalNames: Map<string, string>;
}

const ANNOTATION_KEYS = {
  title: "string",
  readOnlyHint: "boolean",
  destructiveHint: "boolean",
  idempotentHint: "boolean",
  openWorldHint: "boolean",
} as const;

export function toolsetFromMcpTools(list: unknown, options: McpImportOptions): McpImport {
  const problems: ImportProblem[] = [];
  const originalNames = new Map<string, string>();
  const note = (path: string, message: string, tool?: string) =>
    problems.push({ toolset: options.id, ...(tool ? { tool } : {}), path, message });
  const tools: ToolsetInput["tools"] = [];
  const raw = isPlainObject(list) && Array.isArray(list.tools) ? list.tools : undefined;
  if (!raw) note("tools", "the tools/list result has no tools array");
  for (const [index, entry] of (raw ?? []).entries()) {
    const where = `tools[${index}]`;
    if (!isPlainObject(entry) || typeof entry.name !== "string" || entry.name === "") {
      note(where, "skipped: not a tool with a name");
      continue;
    }
    const original = entry.name;
    const name = `${options.prefix ?? ""}${original}`;
    if (!TOOL_NAME_PATTERN.test(name)) {
      note(`${where}.name`, `skipped: "${name}" is not a valid tool name (1-128 of A-Z a-z 0-9 _ - .)`);
      continue;
    }
    if (originalNames.has(name)) {
      note(`${where}.name`, `skipped: a second tool named "${name}"`);
      continue;
    }
    const inputSchema = normalizeSchema(entry.inputSchema);
    if (inputSchema?.type !== "object") {
      note(`${where}.inputSchema`, 'not an object schema; replaced by {"type":"object"}', name);
    }
    const outputSchema = normalizeSchema(entry.outputSchema);
    if (entry.outputSchema !== undefined && outputSchema?.type !== "object") {
      note(`${where}.outputSchema`, "dropped: not an object schema", name);
    }
    const description =
      typeof entry.description === "string" && entry.description.trim() !== ""
        ? entry.description
        : `${original} (the server gave no description)`;
    if (description !== entry.description)
      note(`${where}.description`, "missing; a placeholder was written", name);
    const annotations = annotationsOf(entry.annotations, (key) =>
      note(`${where}.annotations.${key}`, "dropped: not a known annotation of the right type", name),
    );
    const title = typeof entry.title === "string" ? entry.title : undefined;
    tools.push({
      name,
      ...(title ? { title } : {}),
      description,
      inputSchema: inputSchema?.type === "object" ? inputSchema : { type: "object" },
      ...(outputSchema?.type === "object" ? { outputSchema } : {}),
      ...(annotations ? { annotations } : {}),
    });
    originalNames.set(name, original);
  }
  const server = options.serverInfo?.name;
  const toolset: ToolsetInput = {
    id: options.id,
    ...(options.name ? { name: options.name } : {}),
    field: "MCP servers",
    subdomain: server ?? options.id,
    description:
      options.description ??
      `The tools of the MCP server ${server ? `"${server}"` : `"${options.id}"`}, as its tools/list described them.`,
    ...(options.serverInfo?.version ? { version: options.serverInfo.version } : {}),
    tools,
  };
  return { toolset, problems, originalNames };
}

/**
 * Upstream schemas often declare draft-07 (`$schema`); the catalog speaks 2020-12. The
 * declaration goes, and the one draft-07 form that means something else in 2020-12
 * (`items` as a tuple) is rewritten.
 */
function normalizeSchema(schema: unknown): JsonSchema | undefined {
  if (!isPlainObject(schema)) return undefined;
  const copy = rewriteTuples(structuredClone(schema)) as JsonSchema;
  delete copy.$schema;
  return copy;
}

function rewriteTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteTuples);
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = rewriteTuples(value);
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    if ("additionalItems" in out) out.items = out.additionalItems;
    else delete out.items;
    delete out.additionalItems;
  }
  return out;
}

function annotationsOf(
  raw: unknown,
  dropped: (key: string) => void,
): ToolsetInput["tools"][number]["annotations"] {
  if (!isPlainObject(raw)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const type = ANNOTATION_KEYS[key as keyof typeof ANNOTATION_KEYS];
    if (type && typeof value === type) kept[key] = value;
    else dropped(key);
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}
