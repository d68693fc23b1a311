import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import type { z } from "zod";
import { checkEffects } from "./effects-check.js";
import { describeFaultIssue, FaultProfile } from "./faults-format.js";
import { EFFECT_KINDS, type Tool, Toolset } from "./format.js";
import { jsonErrorOffset, lineAndColumn } from "./json-error.js";
import { schemaProblems } from "./json-schema.js";
import { patternNotes } from "./patterns.js";
import { type CatalogProblem, formatPath } from "./problems.js";

export interface LoadedToolset {
  file: string;
  toolset: Toolset;
}

export interface LoadResult {
  toolsets: LoadedToolset[];
  problems: CatalogProblem[];
}

export interface LoadOptions {
  /** Check every input/output schema against the JSON Schema meta-schema (on by default). */
  checkSchemas?: boolean;
}

/** Expands files and folders into the toolset files they hold (folders: every *.json below, sorted). */
export function findToolsetFiles(paths: readonly string[]): { files: string[]; problems: CatalogProblem[] } {
  const files: string[] = [];
  const problems: CatalogProblem[] = [];
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      problems.push({ file: path, path: "", message: "no such file or folder", severity: "error" });
      continue;
    }
    if (isDirectory) files.push(...walkJson(path));
    else files.push(path);
  }
  return { files, problems };
}

function walkJson(dir: string): string[] {
  const out: string[] = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkJson(full));
    else if (extname(entry.name) === ".json") out.push(full);
  }
  return out;
}

/** Loads toolset files and folders. Never throws for bad input: every problem is returned. */
export function loadToolsets(paths: readonly string[], options: LoadOptions = {}): LoadResult {
  const { files, problems } = findToolsetFiles(paths);
  const toolsets: LoadedToolset[] = [];
  for (const file of files) {
    const loaded = loadToolsetText(file, readFileText(file, problems), options);
    problems.push(...loaded.problems);
    if (loaded.toolset) toolsets.push({ file, toolset: loaded.toolset });
  }
  problems.push(...checkAcrossFiles(toolsets));
  return { toolsets, problems };
}

function readFileText(file: string, problems: CatalogProblem[]): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    problems.push({ file, path: "", message: `cannot read: ${reason}`, severity: "error" });
    return undefined;
  }
}

/**
 * One toolset's text, parsed and checked as a file would be (format, schemas, effects),
 * without the checks across files. `file` names it in the problems.
 */
export function loadToolsetText(
  file: string,
  text: string | undefined,
  options: LoadOptions = {},
): { toolset?: Toolset; problems: CatalogProblem[] } {
  const parsed = parseToolsetFile(file, text);
  if (!parsed.toolset) return parsed;
  return {
    toolset: parsed.toolset,
    problems: [...parsed.problems, ...checkToolset(file, parsed.toolset, options)],
  };
}

/** Parses and shape-checks one file's text. */
export function parseToolsetFile(
  file: string,
  text: string | undefined,
): { toolset?: Toolset; problems: CatalogProblem[] } {
  if (text === undefined) return { problems: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [{ file, path: "", message: describeJsonError(text, error), severity: "error" }] };
  }
  const tooDeep = pathPastDepth(json, MAX_FILE_DEPTH);
  if (tooDeep) {
    const shown = tooDeep.slice(0, 12);
    return {
      problems: [
        {
          file,
          path: `${formatPath(shown)}${tooDeep.length > shown.length ? "…" : ""}`,
          message: `nests deeper than ${MAX_FILE_DEPTH} levels of objects and arrays; toolsim refuses files this deep (checking such a schema would overflow). Flatten it, or name repeated parts in $defs and $ref them`,
          severity: "error",
        },
      ],
    };
  }
  const result = Toolset.safeParse(json);
  if (!result.success) return { problems: zodProblems(file, json, result.error) };
  return { toolset: result.data, problems: [] };
}

/**
 * Levels of objects and arrays a toolset file may nest. Every recursive step after loading
 * (the schema meta-check, compiling a validator, hashing a state) has a stack; 128 levels
 * leave more than 60 levels of schema nesting, far beyond what real tools use.
 */
export const MAX_FILE_DEPTH = 128;

/** The path to the first value nested deeper than `limit`, found without recursion. */
function pathPastDepth(json: unknown, limit: number): PropertyKey[] | undefined {
  // a step remembers its parent instead of copying the path: a file holds many thousand values
  interface Step {
    value: object;
    depth: number;
    key?: PropertyKey;
    parent?: Step;
  }
  if (json === null || typeof json !== "object") return undefined;
  const pending: Step[] = [{ value: json, depth: 0 }];
  while (pending.length > 0) {
    const step = pending.pop() as Step;
    if (step.depth >= limit) return pathOf(step);
    const keys: PropertyKey[] = Array.isArray(step.value) ? [...step.value.keys()] : Object.keys(step.value);
    for (const key of keys) {
      const item = (step.value as Record<PropertyKey, unknown>)[key];
      if (item !== null && typeof item === "object")
        pending.push({ value: item, depth: step.depth + 1, key, parent: step });
    }
  }
  return undefined;
}

function pathOf(step: { key?: PropertyKey; parent?: typeof step }): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: typeof step | undefined = step; at?.parent; at = at.parent)
    path.unshift(at.key as PropertyKey);
  return path;
}

function describeJsonError(text: string, error: unknown): string {
  const reason = (error instanceof Error ? error.message : String(error)).split(/,? ("|in JSON at)/)[0];
  const offset = jsonErrorOffset(text);
  if (offset < 0) return `not valid JSON: ${reason}`;
  const { line, column } = lineAndColumn(text, offset);
  return `not valid JSON at line ${line}, column ${column}: ${reason}`;
}

function zodProblems(file: string, json: unknown, error: z.ZodError): CatalogProblem[] {
  return error.issues.flatMap(faultProfileIssues(json)).map((issue) => ({
    file,
    path: formatPath(issue.path),
    message: describeIssue(issue, json),
    severity: "error" as const,
  }));
}

/**
 * A task's `faults` is a profile name or a profile: when a profile written there is wrong,
 * zod says only that neither fits; its own problems (with their paths) say what to fix.
 */
function faultProfileIssues(json: unknown) {
  return (issue: z.core.$ZodIssue): z.core.$ZodIssue[] => {
    const value = valueAt(json, issue.path);
    if (
      issue.code !== "invalid_union" ||
      issue.path.at(-1) !== "faults" ||
      typeof value !== "object" ||
      value === null
    )
      return [issue];
    const inner = FaultProfile.safeParse(value);
    if (inner.success) return [issue];
    return inner.error.issues.map((found) => ({ ...found, path: [...issue.path, ...found.path] }));
  };
}

function describeIssue(issue: z.core.$ZodIssue, json: unknown): string {
  // a task's fault profile: its kinds are not effect kinds
  if (issue.path.includes("faults")) return describeFaultIssue(issue, valueAt(json, issue.path));
  if (issue.code === "unrecognized_keys")
    return `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  if (issue.code === "invalid_union" && "note" in issue && issue.note === "No matching discriminator") {
    const at = issue.path[issue.path.length - 1] === "kind" ? issue.path : [...issue.path, "kind"];
    return `unknown effect kind ${JSON.stringify(valueAt(json, at))}; expected ${EFFECT_KINDS.slice(0, -1).join(", ")} or ${EFFECT_KINDS.at(-1)}`;
  }
  if (issue.code === "invalid_type" && valueAt(json, issue.path) === undefined) {
    return `missing required field (expected ${issue.expected})`;
  }
  return issue.message;
}

function valueAt(json: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = json;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Checks inside one toolset that the zod shape cannot express. */
function checkToolset(file: string, toolset: Toolset, options: LoadOptions): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const error = (path: PropertyKey[], message: string) =>
    problems.push({ file, path: formatPath(path), message, severity: "error" });
  const warn = (path: PropertyKey[], message: string) =>
    problems.push({ file, path: formatPath(path), message, severity: "warning" });
  toolset.tools.forEach((tool, index) => {
    checkTool(tool, ["tools", index], { error, warn }, options.checkSchemas !== false);
  });
  return problems;
}

type Report = (path: PropertyKey[], message: string) => void;

function checkTool(
  tool: Tool,
  at: PropertyKey[],
  { error, warn }: { error: Report; warn: Report },
  checkSchemas: boolean,
): void {
  for (const key of ["inputSchema", "outputSchema"] as const) {
    const schema = tool[key];
    if (!schema) continue;
    if (schema.type !== "object")
      error([...at, key, "type"], 'must be "object" (MCP tool schemas describe an object)');
    if (checkSchemas) {
      for (const message of schemaProblems(schema))
        error([...at, key], `not a valid JSON Schema: ${message}`);
      for (const note of patternNotes(schema)) warn([...at, key, ...note.path], note.message);
    }
  }
  const seenCodes = new Set<string>();
  tool.errors.forEach((e, i) => {
    if (seenCodes.has(e.code)) error([...at, "errors", i, "code"], `duplicate error code ${e.code}`);
    seenCodes.add(e.code);
  });
  checkEffects(tool, at, error, warn);
}

/** Names must be unique across the catalog: tools, toolset ids and task ids. */
function checkAcrossFiles(toolsets: readonly LoadedToolset[]): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const seen = {
    toolset: new Map<string, string>(),
    tool: new Map<string, string>(),
    task: new Map<string, string>(),
  };
  const claim = (kind: keyof typeof seen, name: string, file: string, path: PropertyKey[]) => {
    const first = seen[kind].get(name);
    if (first !== undefined) {
      const where = first === file ? "earlier in this file" : `in ${relative(process.cwd(), first) || first}`;
      problems.push({
        file,
        path: formatPath(path),
        message: `duplicate ${kind} "${name}" (also ${where})`,
        severity: "error",
      });
    } else seen[kind].set(name, file);
  };
  for (const { file, toolset } of toolsets) {
    claim("toolset", toolset.id, file, ["id"]);
    toolset.tools.forEach((tool, i) => {
      claim("tool", tool.name, file, ["tools", i, "name"]);
    });
    toolset.tasks.forEach((task, i) => {
      claim("task", task.id, file, ["tasks", i, "id"]);
    });
  }
  return problems;
}

/**
 * The meta-schema check of one toolset's input and output schemas alone, for callers that
 * loaded without it (serve checks in the background once it is answering).
 */
export function toolsetSchemaProblems(file: string, toolset: Toolset): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  toolset.tools.forEach((tool, index) => {
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[key];
      if (!schema) continue;
      for (const message of schemaProblems(schema)) {
        problems.push({
          file,
          path: formatPath(["tools", index, key]),
          message: `not a valid JSON Schema: ${message}`,
          severity: "error",
        });
      }
      for (const note of patternNotes(schema)) {
        problems.push({
          file,
          path: formatPath(["tools", index, key, ...note.path]),
          message: note.message,
          severity: "warning",
        });
      }
    }
  });
  return problems;
}
