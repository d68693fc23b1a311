import { isPlainObject } from "../../patch/index.js";
import type { JsonSchema, SolutionCall, Task, Tool, Toolset } from "../format.js";
import {
  type FunctionDoc,
  importMultiTurn,
  isMultiTurnEntry,
  type MultiTurnEntry,
} from "./bfcl-multi-turn.js";
import { looseObject, looseToJsonSchema } from "./loose-schema.js";
import { mcpToolName, NameRegistry, slugId } from "./names.js";
import type { ImportProblem, ImportResult } from "./result.js";
import { matchesType, type SchemaNote } from "./schema-repair.js";

/**
 * BFCL function docs. Entries (`{id, question, function[]}`) that offer the same functions
 * share one toolset and each becomes a task; `possible_answer` ground truth
 * (`{func: {param: [accepted values]}}`) becomes the task's golden solution, taking the first
 * accepted value of each argument ("" in the list means the argument may be left out).
 * Function-doc files (one function per line, with `response`) become one toolset each;
 * multi-turn entries become tasks of those toolsets (see bfcl-multi-turn.ts).
 */
export interface BfclSource {
  entries: Array<{ file: string; entry: unknown }>;
  /** Ground truth by entry id. */
  answers: ReadonlyMap<string, unknown>;
  functionDocs: Array<{ file: string; functions: unknown[] }>;
}

interface Group {
  id: string;
  category: string;
  functions: Array<Record<string, unknown>>;
  entries: Array<Record<string, unknown>>;
}

export function importBfcl(source: BfclSource): ImportResult {
  const problems: ImportProblem[] = [];
  const registry = new NameRegistry();
  const groups = new Map<string, Group>();
  const skipped = new Map<string, number>();
  const multiTurn: MultiTurnEntry[] = [];
  for (const { file, entry } of source.entries) {
    if (!isPlainObject(entry) || typeof entry.id !== "string") {
      problems.push({
        toolset: slugId(baseName(file)),
        path: file,
        message: "an entry without an id; skipped",
      });
      continue;
    }
    if (!Array.isArray(entry.function)) {
      if (isMultiTurnEntry(entry)) multiTurn.push({ file, entry });
      else skipped.set(file, (skipped.get(file) ?? 0) + 1);
      continue;
    }
    const functions = entry.function.filter(isPlainObject);
    if (functions.length === 0) {
      problems.push({
        toolset: slugId(entry.id),
        path: file,
        message: "the entry offers no functions; skipped",
      });
      continue;
    }
    const key = JSON.stringify([...functions].sort((a, b) => String(a.name).localeCompare(String(b.name))));
    let group = groups.get(key);
    if (!group) {
      group = { id: slugId(entry.id), category: categoryOf(entry.id), functions, entries: [] };
      groups.set(key, group);
    }
    group.entries.push(entry);
  }
  for (const [file, count] of skipped)
    problems.push({
      toolset: slugId(baseName(file)),
      path: file,
      message: `${count} entries name their functions by class without an initial_config (their ground truth is an answer, not calls); their tools come from the function-doc files, their tasks are not imported`,
    });

  const toolsets: Toolset[] = [];
  for (const group of groups.values()) {
    const names = new Map<string, string>();
    const report = (tool: string | undefined, path: string, message: string) =>
      problems.push({ toolset: group.id, tool, path, message });
    const tools = group.functions.map((fn, i) => toolOf(fn, i, registry, names, report));
    const tasks = group.entries.map((entry) =>
      taskOf(entry, source.answers.get(String(entry.id)), names, tools, report),
    );
    toolsets.push({
      id: group.id,
      name: `${group.category}: ${tools.map((t) => t.title ?? t.name).join(", ")}`.slice(0, 200),
      field: "Function calling",
      subdomain: group.category,
      description: tools[0]?.description ?? group.id,
      state: {},
      tools,
      tasks,
    });
  }
  const docs: FunctionDoc[] = [];
  const docToolsets: Toolset[] = [];
  for (const { file, functions } of source.functionDocs) {
    const id = slugId(baseName(file).replace(/\.jsonl?$/i, ""));
    const names = new Map<string, string>();
    const report = (tool: string | undefined, path: string, message: string) =>
      problems.push({ toolset: id, tool, path, message });
    const fns = functions.filter(isPlainObject);
    const tools = fns.map((fn, i) => toolOf(fn, i, registry, names, report));
    if (tools.length === 0) {
      problems.push({ toolset: id, path: file, message: "no functions; no toolset written" });
      continue;
    }
    docs.push({ toolset: id, file, functions: signatures(fns, names) });
    docToolsets.push({
      id,
      name: id.replace(/_/g, " "),
      field: "Function calling",
      subdomain: id.replace(/_/g, " "),
      description:
        `The ${id.replace(/_/g, " ")} functions: ${tools.map((t) => t.title ?? t.name).join(", ")}.`.slice(
          0,
          500,
        ),
      state: {},
      tools,
      tasks: [],
    });
  }
  const multi = importMultiTurn(multiTurn, docs, source.answers);
  problems.push(...multi.problems);
  for (const toolset of docToolsets) {
    toolset.state = multi.states.get(toolset.id) ?? {};
    toolset.tasks = multi.tasks.get(toolset.id) ?? [];
  }
  return { toolsets: [...toolsets, ...docToolsets], problems };
}

/** Each function's tool name and parameter order (how positional arguments of a call string are named). */
function signatures(
  functions: ReadonlyArray<Record<string, unknown>>,
  names: ReadonlyMap<string, string>,
): FunctionDoc["functions"] {
  const out = new Map<string, { tool: string; parameters: string[] }>();
  for (const fn of functions) {
    const tool = typeof fn.name === "string" ? names.get(fn.name) : undefined;
    if (!tool || typeof fn.name !== "string") continue;
    const parameters =
      isPlainObject(fn.parameters) && isPlainObject(fn.parameters.properties) ? fn.parameters.properties : {};
    out.set(fn.name, { tool, parameters: Object.keys(parameters) });
  }
  return out;
}

type Report = (tool: string | undefined, path: string, message: string) => void;

function toolOf(
  fn: Record<string, unknown>,
  index: number,
  registry: NameRegistry,
  names: Map<string, string>,
  report: Report,
): Tool {
  const original = typeof fn.name === "string" && fn.name ? fn.name : `function_${index + 1}`;
  const name = registry.claim(mcpToolName(original));
  names.set(original, name);
  const notes: SchemaNote[] = [];
  const parameters = isPlainObject(fn.parameters) ? fn.parameters : {};
  const inputSchema: JsonSchema = {
    type: "object",
    ...looseObject(parameters, "parameters", { notes }),
    additionalProperties: false,
  };
  if (parameters.type !== undefined && !["dict", "object"].includes(String(parameters.type)))
    notes.push({
      path: "parameters.type",
      message: `parameters of type ${JSON.stringify(parameters.type)} read as an object`,
    });
  let outputSchema: JsonSchema | undefined;
  if (isPlainObject(fn.response)) {
    const response = looseToJsonSchema(fn.response, "response", { notes });
    outputSchema =
      response.type === "object"
        ? response
        : { type: "object", properties: { result: response }, required: ["result"] };
  }
  for (const note of notes) report(name, note.path, note.message);
  const description = typeof fn.description === "string" ? fn.description.trim() : "";
  if (!description) report(name, "description", "missing; the name stands in");
  const tool: Tool = { name, description: description || original, inputSchema, errors: [], effects: [] };
  if (original !== name) tool.title = original;
  if (outputSchema) tool.outputSchema = outputSchema;
  return tool;
}

function taskOf(
  entry: Record<string, unknown>,
  answer: unknown,
  names: Map<string, string>,
  tools: readonly Tool[],
  report: Report,
): Task {
  const id = String(entry.id);
  const irrelevant = /(^|_)irrelevance/.test(id);
  const schemas = new Map(tools.map((t) => [t.name, t.inputSchema]));
  const solution =
    answer === undefined
      ? []
      : solutionOf(answer, names, schemas, (path, message) => report(undefined, `${id} ${path}`, message));
  const task: Task = {
    id: slugId(id),
    description: questionOf(entry.question) || `Task ${id}`,
    difficulty: solution.length <= 1 ? "simple" : solution.length <= 3 ? "medium" : "complex",
    valid: !irrelevant,
    state: {},
    solution,
    checklist: [],
  };
  if (irrelevant)
    task.invalid_reason = `none of ${tools.map((t) => t.title ?? t.name).join(", ")} fits the request`;
  return task;
}

/** The first user message of the first turn. */
function questionOf(question: unknown): string {
  const turns = Array.isArray(question) ? question : [];
  for (const turn of turns) {
    const messages = Array.isArray(turn) ? turn : [turn];
    for (const message of messages)
      if (isPlainObject(message) && message.role === "user" && typeof message.content === "string")
        return message.content.trim();
  }
  return "";
}

function solutionOf(
  answer: unknown,
  names: Map<string, string>,
  toolSchemas: ReadonlyMap<string, JsonSchema>,
  report: (path: string, message: string) => void,
) {
  const calls: SolutionCall[] = [];
  const truth = isPlainObject(answer) && Array.isArray(answer.ground_truth) ? answer.ground_truth : [];
  truth.forEach((step, i) => {
    if (!isPlainObject(step)) {
      report(`ground_truth[${i}]`, "not a {function: arguments} object; left out");
      return;
    }
    for (const [fn, accepted] of Object.entries(step)) {
      const tool = names.get(fn);
      if (!tool) {
        report(`ground_truth[${i}]`, `calls ${fn}, which the entry does not offer; left out`);
        continue;
      }
      const schema = toolSchemas.get(tool) ?? {};
      calls.push({
        tool,
        arguments: isPlainObject(accepted) ? firstChoices(accepted, schema) : {},
        group: "answer",
      });
    }
  });
  // BFCL accepts parallel answers in any order; one call needs no group
  if (calls.length === 1) delete calls[0]?.group;
  return calls;
}

/**
 * `{param: [accepted…]}` → `{param: one accepted value}`: the first that fits the parameter's
 * schema, else the first; "" means the argument may be left out. Dict values are themselves
 * `{key: [accepted…]}` and are reduced the same way.
 */
export function firstChoices(
  accepted: Record<string, unknown>,
  schema: JsonSchema = {},
): Record<string, unknown> {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const args: Record<string, unknown> = {};
  for (const [key, options] of Object.entries(accepted)) {
    const list = (Array.isArray(options) ? options : [options]).filter((v) => v !== "");
    const property = isPlainObject(properties[key]) ? (properties[key] as JsonSchema) : {};
    const candidates = list.map((v) => reduceNested(v, property));
    const chosen = candidates.find((v) => matchesType(property, v)) ?? candidates[0];
    if (chosen === undefined) continue;
    args[key] = chosen;
  }
  return args;
}

function reduceNested(value: unknown, schema: JsonSchema): unknown {
  if (Array.isArray(value))
    return value.map((v) => reduceNested(v, isPlainObject(schema.items) ? schema.items : {}));
  if (isPlainObject(value) && Object.values(value).every(Array.isArray)) return firstChoices(value, schema);
  return value;
}

function categoryOf(id: string): string {
  return id.replace(/_\d+(-\d+)*$/, "").replace(/_/g, " ") || "bfcl";
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}
