import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { BfclSource, SynthToolsSource } from "../catalog/index.js";

/**
 * Reading import sources from disk: the only side effects of importing besides writing the
 * output. Each reader returns the source object its importer takes plus the files it could
 * not read, so bad files are reported, not thrown.
 */
export interface SourceRead<T> {
  source: T;
  unreadable: Array<{ file: string; reason: string }>;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function filesIn(dir: string, pattern: RegExp): string[] {
  if (!isDirectory(dir)) return [];
  return readdirSync(dir)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => join(dir, name));
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "unreadable";
}

/** Reads a JSON or YAML document (by extension; YAML also reads JSON). */
export function readDocument(file: string): { value?: unknown; error?: string } {
  try {
    const text = readFileSync(file, "utf8");
    const ext = extname(file).toLowerCase();
    return { value: ext === ".json" ? JSON.parse(text) : parseYaml(text) };
  } catch (error) {
    return { error: reason(error) };
  }
}

/** A SynthTools `tool_content` folder (tool_json/, task_*), or one folder of tool JSON and task YAML files. */
export function readSynthTools(root: string): SourceRead<SynthToolsSource> {
  const nested = isDirectory(join(root, "tool_json"));
  const toolFiles = filesIn(nested ? join(root, "tool_json") : root, /\.json$/i);
  const taskFiles = nested
    ? readdirSync(root)
        .filter((name) => name.startsWith("task") && isDirectory(join(root, name)))
        .sort()
        .flatMap((name) => filesIn(join(root, name), /\.ya?ml$/i))
    : filesIn(root, /\.ya?ml$/i);
  const source: SynthToolsSource = { tools: [], tasks: [] };
  const unreadable: SourceRead<SynthToolsSource>["unreadable"] = [];
  for (const file of toolFiles) {
    const read = readDocument(file);
    if (read.error) unreadable.push({ file, reason: read.error });
    else source.tools.push({ file: basename(file), json: read.value });
  }
  for (const file of taskFiles) {
    const read = readDocument(file);
    if (read.error) unreadable.push({ file, reason: read.error });
    else source.tasks.push({ file: basename(file), data: read.value });
  }
  return { source, unreadable };
}

/** JSON lines (one entry per line); a line that is not JSON is reported. */
function readJsonLines(file: string, unreadable: SourceRead<unknown>["unreadable"]): unknown[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    unreadable.push({ file, reason: reason(error) });
    return [];
  }
  const whole = wholeJson(text);
  if (whole !== undefined) return whole;
  const out: unknown[] = [];
  let bad = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      bad++;
    }
  }
  if (bad > 0) unreadable.push({ file, reason: `${bad} line(s) are not JSON lines; left out` });
  return out;
}

/** A file that is one JSON array (or one object) instead of JSON lines. */
function wholeJson(text: string): unknown[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[") && !/^\{[^\n]*\n\s/.test(trimmed)) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return Array.isArray(value) ? value : [value];
  } catch {
    return undefined;
  }
}

/**
 * A BFCL data folder (BFCL_*.json entries, possible_answer/, multi_turn_func_doc/) or one
 * entries file, with answers from `answers` or from possible_answer/<same name> beside it (and,
 * for multi-turn entries, the multi_turn_func_doc/ folder beside it).
 */
export function readBfcl(path: string, answersFile?: string): SourceRead<BfclSource> {
  const unreadable: SourceRead<BfclSource>["unreadable"] = [];
  const folder = isDirectory(path);
  const entryFiles = folder ? filesIn(path, /\.jsonl?$/i) : [path];
  const answerFiles = answersFile
    ? [answersFile]
    : folder
      ? filesIn(join(path, "possible_answer"), /\.jsonl?$/i)
      : [join(dirname(path), "possible_answer", basename(path))].filter((f) => existsSync(f));
  const entries: BfclSource["entries"] = [];
  for (const file of entryFiles)
    for (const entry of readJsonLines(file, unreadable)) entries.push({ file: basename(file), entry });
  const answers = new Map<string, unknown>();
  for (const file of answerFiles)
    for (const answer of readJsonLines(file, unreadable))
      if (answer && typeof answer === "object" && "id" in answer) answers.set(String(answer.id), answer);
  // one entries file brings the function docs beside it when its entries name their functions by class
  const byClass = entries.some(({ entry }) => isObject(entry) && Array.isArray(entry.involved_classes));
  const docsFolder = folder ? join(path, "multi_turn_func_doc") : join(dirname(path), "multi_turn_func_doc");
  const functionDocs = (folder || byClass ? filesIn(docsFolder, /\.jsonl?$/i) : []).map((file) => ({
    file: basename(file),
    functions: readJsonLines(file, unreadable),
  }));
  return { source: { entries, answers, functionDocs }, unreadable };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON database: one file, or a folder whose JSON files become top-level collections by file name. */
export function readDatabase(path: string): { value?: unknown; error?: string } {
  if (!isDirectory(path)) return readDocument(path);
  const state: Record<string, unknown> = {};
  for (const file of filesIn(path, /\.json$/i)) {
    const read = readDocument(file);
    if (read.error) return { error: `${file}: ${read.error}` };
    state[basename(file, extname(file))] = read.value;
  }
  return { value: state };
}

/**
 * The state `--state PATH` names: a JSON (or YAML) file, or a folder of JSON files, that must
 * come out as one object. Every failure names the path.
 */
export function readState(path: string): { value?: Record<string, unknown>; error?: string } {
  if (!existsSync(path)) return { error: `${path}: no such file or folder` };
  if (isDirectory(path) && filesIn(path, /\.json$/i).length === 0)
    return { error: `${path}: the folder holds no JSON files (one per collection)` };
  const read = readDatabase(path);
  if (read.error) return { error: `${path}: cannot read: ${read.error}` };
  if (!isObject(read.value))
    return {
      error: `${path}: a state is a JSON object (collections by name); this is ${Array.isArray(read.value) ? "an array" : read.value === null ? "null" : `a ${typeof read.value}`}`,
    };
  return { value: read.value };
}
