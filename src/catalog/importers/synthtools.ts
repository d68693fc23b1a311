import { isPlainObject } from "../../patch/index.js";
import type { JsonSchema, SolutionCall, StateDocument, Task, Tool, Toolset } from "../format.js";
import { parseCallString } from "./call-string.js";
import { looseObject, looseToJsonSchema } from "./loose-schema.js";
import { looseKey, NameRegistry, slugId, snakeName } from "./names.js";
import type { ImportProblem, ImportResult } from "./result.js";
import type { SchemaNote } from "./schema-repair.js";
import { errorsFromMessages } from "./tool-errors.js";

/**
 * SynthTools v1 raw layout: one JSON file per tool named `<field>_tool_spec_<N>__<Tool>.json`
 * (the tools of one spec form a toolset), and task files (YAML, already parsed here) named
 * `<field>_tool_spec_<N>.<task>.yml` holding the initial state in `meta_data`, the task in
 * `task_data`, the tools in `tools_data` and golden calls as Python call strings in `solution`.
 */
export interface SynthToolsSource {
  tools: Array<{ file: string; json: unknown }>;
  tasks: Array<{ file: string; data: unknown }>;
}

interface RawTool {
  file: string;
  json: Record<string, unknown>;
  toolName: string;
}

interface Spec {
  stem: string;
  tools: RawTool[];
  tasks: Array<{ file: string; data: Record<string, unknown> }>;
}

const META_KEYS = new Set(["field_name", "subfield", "task", "tool_budget", "tool_sequences"]);

export function importSynthTools(source: SynthToolsSource): ImportResult {
  const problems: ImportProblem[] = [];
  const specs = new Map<string, Spec>();
  const specOf = (stem: string): Spec => {
    let spec = specs.get(stem);
    if (!spec) {
      spec = { stem, tools: [], tasks: [] };
      specs.set(stem, spec);
    }
    return spec;
  };
  for (const { file, json } of source.tools) {
    const stem =
      baseName(file)
        .replace(/\.json$/i, "")
        .split("__")[0] ?? file;
    if (!isPlainObject(json) || typeof json.tool_name !== "string" || !json.tool_name.trim()) {
      problems.push({
        toolset: slugId(stem),
        path: file,
        message: "not a SynthTools tool (no tool_name); skipped",
      });
      continue;
    }
    specOf(stem).tools.push({ file, json, toolName: json.tool_name.trim() });
  }
  for (const { file, data } of source.tasks) {
    const stem = baseName(file).split(".")[0] ?? file;
    if (!isPlainObject(data) || !isPlainObject(data.task_data)) {
      problems.push({
        toolset: slugId(stem),
        path: file,
        message: "not a SynthTools task (no task_data); skipped",
      });
      continue;
    }
    specOf(stem).tasks.push({ file, data });
    addToolsOfTask(specOf(stem), file, data);
  }

  const ordered = [...specs.values()].sort((a, b) => a.stem.localeCompare(b.stem));
  const sharedNames = namesUsedByManySpecs(ordered);
  const registry = new NameRegistry();
  const toolsets: Toolset[] = [];
  for (const spec of ordered) {
    if (spec.tools.length === 0) {
      problems.push({ toolset: slugId(spec.stem), path: spec.stem, message: "no tools; no toolset written" });
      continue;
    }
    toolsets.push(toolsetOf(spec, sharedNames, registry, problems));
  }
  return { toolsets, problems };
}

/** Tools a task file carries that no tool file of its spec provides. */
function addToolsOfTask(spec: Spec, file: string, data: Record<string, unknown>): void {
  const entries = Array.isArray(data.tools_data) ? data.tools_data : [];
  entries.forEach((entry, i) => {
    if (!isPlainObject(entry) || !isPlainObject(entry.tool_json)) return;
    const json = entry.tool_json;
    const toolName = typeof json.tool_name === "string" ? json.tool_name.trim() : "";
    if (!toolName || spec.tools.some((t) => looseKey(t.toolName) === looseKey(toolName))) return;
    spec.tools.push({ file: `${file} tools_data[${i}]`, json, toolName });
  });
}

function namesUsedByManySpecs(specs: readonly Spec[]): Set<string> {
  const owners = new Map<string, Set<string>>();
  for (const spec of specs)
    for (const tool of spec.tools) {
      const name = snakeName(tool.toolName);
      const set = owners.get(name) ?? new Set<string>();
      set.add(spec.stem);
      owners.set(name, set);
    }
  return new Set([...owners].filter(([, set]) => set.size > 1).map(([name]) => name));
}

function toolsetOf(
  spec: Spec,
  sharedNames: Set<string>,
  registry: NameRegistry,
  problems: ImportProblem[],
): Toolset {
  const id = slugId(spec.stem);
  const match = /^(.*)_tool_spec_(\d+)$/.exec(spec.stem);
  const fieldKey = match?.[1] ?? spec.stem;
  const specNumber = match?.[2];
  const meta = spec.tasks.map((t) => t.data.meta_data).find(isPlainObject);
  const toolNames = new Map<string, string>();
  const tools = spec.tools.map((raw) => {
    const base = snakeName(raw.toolName);
    const qualified = sharedNames.has(base) ? `${base}_${specNumber ?? id}` : base;
    const name = registry.claim(qualified);
    toolNames.set(looseKey(raw.toolName), name);
    return toolOf(raw, name, (path, message) => problems.push({ toolset: id, tool: name, path, message }));
  });
  const subfield = typeof meta?.subfield === "string" ? meta.subfield : undefined;
  const workflow = typeof meta?.task === "string" ? meta.task : undefined;
  const field = humanize(fieldKey);
  const tasks = spec.tasks.map((t) =>
    taskOf(id, t.file, t.data, toolNames, tools, (path, message) =>
      problems.push({ toolset: id, path: `${baseName(t.file)} ${path}`.trim(), message }),
    ),
  );
  return {
    id,
    name: workflow ?? `${field} spec ${specNumber ?? spec.stem}`,
    field,
    subdomain: subfield ?? `${field} spec ${specNumber ?? spec.stem}`,
    description:
      workflow ?? `${field} tools that work together: ${spec.tools.map((t) => t.toolName).join(", ")}.`,
    state: {},
    tools,
    tasks,
  };
}

type Report = (path: string, message: string) => void;

function toolOf(raw: RawTool, name: string, report: Report): Tool {
  const { json } = raw;
  const notes: SchemaNote[] = [];
  const parameters = isPlainObject(json.parameters) ? json.parameters : {};
  if (!isPlainObject(json.parameters))
    notes.push({ path: "parameters", message: "missing; the tool takes no arguments" });
  const inputSchema: JsonSchema = {
    type: "object",
    ...looseObject({ properties: parameters }, "parameters", { notes }),
    additionalProperties: false,
  };
  let outputSchema: JsonSchema | undefined;
  if (isPlainObject(json.output_details) && Object.keys(json.output_details).length > 0) {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(json.output_details))
      properties[key] = looseToJsonSchema(value, `output_details.${key}`, { notes });
    outputSchema = { type: "object", properties };
  } else
    notes.push({ path: "output_details", message: "no output description; the tool has no outputSchema" });
  const messages = Array.isArray(json.error_messages)
    ? json.error_messages.filter((m): m is string => typeof m === "string")
    : [];
  for (const note of notes) report(note.path, note.message);
  const description = typeof json.tool_description === "string" ? json.tool_description.trim() : "";
  if (!description) report("tool_description", "missing; the tool name stands in for it");
  const tool: Tool = {
    name,
    title: raw.toolName,
    description: description || raw.toolName,
    inputSchema,
    errors: errorsFromMessages(messages),
    effects: [],
  };
  if (typeof json.usage === "string" && json.usage.trim()) tool.usage = json.usage.trim();
  if (outputSchema) tool.outputSchema = outputSchema;
  return tool;
}

function taskOf(
  toolsetId: string,
  file: string,
  data: Record<string, unknown>,
  toolNames: Map<string, string>,
  tools: readonly Tool[],
  report: Report,
): Task {
  const taskData = isPlainObject(data.task_data) ? data.task_data : {};
  const taskKey =
    baseName(file)
      .replace(/\.ya?ml$/i, "")
      .split(".")
      .slice(1)
      .join(".") || "task";
  const id = slugId(`${toolsetId}.${taskKey}`);
  const required = Array.isArray(taskData.tools_required)
    ? taskData.tools_required.filter((t): t is string => typeof t === "string")
    : [];
  const missing = required.filter((t) => !toolNames.has(looseKey(t)));
  const declaredValid = taskData.task_validity !== "invalid";
  const task: Task = {
    id,
    description: typeof taskData.task === "string" && taskData.task.trim() ? taskData.task.trim() : id,
    difficulty: difficultyOf(taskData.task_diffuculty ?? taskData.task_difficulty, report),
    valid: declaredValid && missing.length === 0,
    state: stateOf(isPlainObject(data.meta_data) ? data.meta_data : {}, report),
    solution: solutionOf(data.solution, toolNames, tools, report),
    checklist: [],
  };
  if (missing.length > 0) {
    task.invalid_reason = `needs tools the toolset does not have: ${missing.join(", ")}`;
    if (declaredValid) report("task_data.tools_required", `${task.invalid_reason}; marked invalid`);
  } else if (!declaredValid)
    task.invalid_reason = "the source marks this task as impossible with these tools";
  return task;
}

function difficultyOf(raw: unknown, report: Report): Task["difficulty"] {
  const text = typeof raw === "string" ? raw.toLowerCase() : "";
  if (text === "easy" || text === "simple") return "simple";
  if (text === "medium") return "medium";
  if (text === "hard" || text === "complex") return "complex";
  report("task_data.task_diffuculty", `unknown difficulty ${JSON.stringify(raw)}; taken as medium`);
  return "medium";
}

/**
 * The task's records become collections keyed by their id field (`customers` keyed by
 * `customer_id`), the shape effects and the simulator look things up in.
 */
function stateOf(meta: Record<string, unknown>, report: Report): StateDocument {
  const state: StateDocument = {};
  for (const [key, value] of Object.entries(meta)) {
    if (META_KEYS.has(key)) continue;
    if (!Array.isArray(value) || !value.every(isPlainObject)) {
      state[key] = structuredClone(value);
      continue;
    }
    const idField = idFieldOf(value);
    if (!idField) {
      report(`meta_data.${key}`, "records have no unique id field; kept as a list");
      state[key] = structuredClone(value);
      continue;
    }
    state[key] = Object.fromEntries(
      value.map((record) => [String(record[idField]), structuredClone(record)]),
    );
  }
  return state;
}

function idFieldOf(records: Array<Record<string, unknown>>): string | undefined {
  const first = records[0];
  if (!first) return undefined;
  const candidates = Object.keys(first).sort((a, b) => idRank(a) - idRank(b));
  return candidates.find((key) => {
    if (idRank(key) > 1) return false;
    const values = records.map((r) => r[key]);
    return (
      values.every((v) => typeof v === "string" || typeof v === "number") &&
      new Set(values).size === values.length
    );
  });
}

function idRank(key: string): number {
  if (key === "id") return 0;
  if (/(_id|Id)$/.test(key)) return 1;
  return 2;
}

function solutionOf(
  raw: unknown,
  toolNames: Map<string, string>,
  tools: readonly Tool[],
  report: Report,
): SolutionCall[] {
  if (raw === undefined) return [];
  const steps = Array.isArray(raw) ? raw : [raw];
  const calls: SolutionCall[] = [];
  steps.forEach((step, i) => {
    const texts = isPlainObject(step) ? Object.values(step) : [step];
    for (const text of texts) {
      if (typeof text !== "string") {
        report(`solution[${i}]`, "not a call string; left out");
        continue;
      }
      const parsed = parseCallString(text);
      if (!parsed.ok) {
        report(`solution[${i}]`, `cannot read ${JSON.stringify(text)}: ${parsed.message}; left out`);
        continue;
      }
      const name = toolNames.get(looseKey(parsed.name)) ?? tools.find((t) => t.name === parsed.name)?.name;
      if (!name) {
        report(`solution[${i}]`, `calls ${parsed.name}, which the toolset does not have; left out`);
        continue;
      }
      calls.push({ tool: name, arguments: parsed.arguments });
    }
  });
  return calls;
}

function humanize(key: string): string {
  const words = key.replace(/_/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Imported";
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}
