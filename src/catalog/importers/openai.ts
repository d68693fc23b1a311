import { isPlainObject } from "../../patch/index.js";
import type { JsonSchema, StateDocument, Tool, ToolAnnotations, Toolset } from "../format.js";
import { mcpToolName, NameRegistry, slugId } from "./names.js";
import type { ImportProblem, ImportResult } from "./result.js";
import { dropUnknownFormats, moveArrayEnums, type SchemaNote } from "./schema-repair.js";
import { errorsFromMessages } from "./tool-errors.js";

/**
 * A list of OpenAI function definitions, each `{type: "function", function: {...}}` or the bare
 * `{name, description, parameters}`, optionally wrapped as `{schema: …, error_messages: […],
 * <label>: "read" | "write"}` (the τ-bench tool listing), plus an optional JSON database that
 * becomes the toolset's starting state.
 */
export interface OpenAiSource {
  functions: unknown;
  state?: unknown;
}

export interface OpenAiOptions {
  id: string;
  name?: string;
  field?: string;
  subdomain?: string;
  description?: string;
}

/** Keys a wrapper may use for its read/write label. */
const LABEL_KEYS = ["access", "label", "tool_type", "tool_type_from_tau2"];
const READ_LABELS = new Set(["read", "readonly", "read-only", "think", "generic"]);
const WRITE_LABELS = new Set(["write", "mutate", "update"]);

export function importOpenAiFunctions(source: OpenAiSource, options: OpenAiOptions): ImportResult {
  const id = slugId(options.id);
  const problems: ImportProblem[] = [];
  const list = Array.isArray(source.functions)
    ? source.functions
    : isPlainObject(source.functions) && Array.isArray(source.functions.tools)
      ? source.functions.tools
      : undefined;
  if (!list) {
    problems.push({ toolset: id, path: "(root)", message: "expected a JSON array of function definitions" });
    return { toolsets: [], problems };
  }
  const registry = new NameRegistry();
  const tools: Tool[] = [];
  list.forEach((item, index) => {
    const tool = toolOf(item, index, registry, id, problems);
    if (tool) tools.push(tool);
  });
  if (tools.length === 0) {
    problems.push({ toolset: id, path: "(root)", message: "no function definitions; nothing imported" });
    return { toolsets: [], problems };
  }
  let state: StateDocument = {};
  if (source.state !== undefined) {
    if (isPlainObject(source.state)) state = structuredClone(source.state);
    else
      problems.push({ toolset: id, path: "state", message: "the database is not a JSON object; left out" });
  }
  const toolset: Toolset = {
    id,
    name: options.name ?? id.replace(/[_.-]+/g, " "),
    field: options.field ?? "Imported functions",
    subdomain: options.subdomain ?? id.replace(/[_.-]+/g, " "),
    description: options.description ?? `Functions: ${tools.map((t) => t.name).join(", ")}.`.slice(0, 500),
    state,
    tools,
    tasks: [],
  };
  return { toolsets: [toolset], problems };
}

function toolOf(
  item: unknown,
  index: number,
  registry: NameRegistry,
  toolset: string,
  problems: ImportProblem[],
): Tool | undefined {
  const wrapper = isPlainObject(item) ? item : {};
  const definition = unwrap(item);
  if (!definition || typeof definition.name !== "string" || !definition.name) {
    problems.push({ toolset, path: `[${index}]`, message: "not a function definition (no name); skipped" });
    return undefined;
  }
  const original = definition.name;
  const name = registry.claim(mcpToolName(original));
  const report = (path: string, message: string) => problems.push({ toolset, tool: name, path, message });
  const notes: SchemaNote[] = [];
  const inputSchema: JsonSchema = isPlainObject(definition.parameters)
    ? structuredClone(definition.parameters)
    : {};
  if (!isPlainObject(definition.parameters))
    notes.push({ path: "parameters", message: "missing; the tool takes no arguments" });
  if (inputSchema.type !== undefined && inputSchema.type !== "object")
    notes.push({ path: "parameters.type", message: `${JSON.stringify(inputSchema.type)} read as "object"` });
  inputSchema.type = "object";
  if (!isPlainObject(inputSchema.properties)) inputSchema.properties = {};
  dropUnknownFormats(inputSchema, "parameters", notes);
  moveArrayEnums(inputSchema, "parameters", notes);
  for (const note of notes) report(note.path, note.message);
  const description = typeof definition.description === "string" ? definition.description.trim() : "";
  if (!description) report("description", "missing; the name stands in");
  const messages = Array.isArray(wrapper.error_messages)
    ? wrapper.error_messages.filter((m): m is string => typeof m === "string")
    : [];
  const tool: Tool = {
    name,
    description: description || original,
    inputSchema,
    errors: errorsFromMessages(messages),
    effects: [],
  };
  if (original !== name) tool.title = original;
  const annotations = annotationsOf(wrapper, report);
  if (annotations) tool.annotations = annotations;
  return tool;
}

function unwrap(item: unknown): Record<string, unknown> | undefined {
  let current: unknown = item;
  for (let depth = 0; depth < 3 && isPlainObject(current); depth++) {
    if (
      typeof current.name === "string" &&
      (current.parameters !== undefined || current.description !== undefined)
    )
      return current;
    current = isPlainObject(current.function) ? current.function : current.schema;
  }
  return undefined;
}

function annotationsOf(
  wrapper: Record<string, unknown>,
  report: (path: string, message: string) => void,
): ToolAnnotations | undefined {
  const key = LABEL_KEYS.find((k) => typeof wrapper[k] === "string");
  if (!key) return undefined;
  const label = String(wrapper[key]).toLowerCase();
  if (READ_LABELS.has(label)) return { readOnlyHint: true };
  if (WRITE_LABELS.has(label)) return { readOnlyHint: false };
  report(key, `unknown label ${JSON.stringify(wrapper[key])}; no read/write annotation`);
  return undefined;
}
