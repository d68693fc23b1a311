import { isPlainObject } from "../../patch/index.js";
import type { SolutionCall, StateDocument, Task } from "../format.js";
import { parsePythonCall } from "./call-string.js";
import { slugId } from "./names.js";
import type { ImportProblem } from "./result.js";

/**
 * BFCL multi-turn entries (`{id, question: [turn…], initial_config: {Class: config},
 * involved_classes, path: ["Class.method"…]}`) as tasks of the function-doc toolsets. The
 * classes are named by the entries, the functions by the doc files: a class belongs to the
 * doc file whose functions its `path` methods are. The ground truth is a list of turns, each
 * a list of Python call strings, positional arguments named by the doc's parameter order.
 */

/** A function-doc toolset as imported: its functions by their source name. */
export interface FunctionDoc {
  toolset: string;
  file: string;
  functions: ReadonlyMap<string, { tool: string; parameters: readonly string[] }>;
}

export interface MultiTurnEntry {
  file: string;
  entry: Record<string, unknown>;
}

export interface MultiTurnImport {
  /** Tasks by the id of the toolset they belong to. */
  tasks: Map<string, Task[]>;
  /** A sandbox state per toolset: `{Class: the first entry's config of that class}`. */
  states: Map<string, StateDocument>;
  problems: ImportProblem[];
}

/** A multi-turn entry: it names classes and gives their starting configuration. */
export function isMultiTurnEntry(entry: Record<string, unknown>): boolean {
  return Array.isArray(entry.involved_classes) && isPlainObject(entry.initial_config);
}

export function importMultiTurn(
  entries: readonly MultiTurnEntry[],
  docs: readonly FunctionDoc[],
  answers: ReadonlyMap<string, unknown>,
): MultiTurnImport {
  const problems: ImportProblem[] = [];
  const classes = classDocs(entries, docs, problems);
  const tasks = new Map<string, Task[]>();
  const states = new Map<string, StateDocument>();
  for (const { file, entry } of entries) {
    const id = String(entry.id);
    const report = (toolset: string, path: string, message: string) =>
      problems.push({ toolset, path: `${file} ${id}${path ? ` ${path}` : ""}`, message });
    const involved = (entry.involved_classes as unknown[]).map(String);
    const config = entry.initial_config as Record<string, unknown>;
    for (const [name, classConfig] of Object.entries(config)) {
      const doc = classes.get(name);
      if (!doc) continue;
      const state = states.get(doc.toolset) ?? {};
      if (!(name in state)) state[name] = structuredClone(classConfig);
      states.set(doc.toolset, state);
    }
    const mapped = involved.filter((name) => classes.has(name));
    const own = classes.get(mapped[0] ?? "");
    if (!own) {
      report(
        fileToolset(file),
        "involved_classes",
        `none of ${involved.join(", ") || "its classes"} maps to a function-doc file; the task is left out`,
      );
      continue;
    }
    const note = (path: string, message: string) => report(own.toolset, path, message);
    for (const name of involved)
      if (!classes.has(name))
        note("involved_classes", `class ${name} maps to no function-doc file; its calls are left out`);
    for (const name of Object.keys(config))
      if (!involved.includes(name))
        note(
          "initial_config",
          `configures ${name}, which the entry does not involve; kept in the state as given`,
        );
    const task = taskOf(
      entry,
      mapped.map((name) => classes.get(name) as FunctionDoc),
      answers.get(id),
      note,
    );
    if (!task) continue;
    const list = tasks.get(own.toolset) ?? [];
    list.push(task);
    tasks.set(own.toolset, list);
  }
  return { tasks, states, problems };
}

type Note = (path: string, message: string) => void;

/** Each class → the doc file holding most of the methods the entries' paths name for it. */
function classDocs(
  entries: readonly MultiTurnEntry[],
  docs: readonly FunctionDoc[],
  problems: ImportProblem[],
): Map<string, FunctionDoc> {
  const votes = new Map<string, number[]>();
  /** Each class named, with the entries file that first names it (where a note about it goes). */
  const named = new Map<string, string>();
  for (const { file, entry } of entries) {
    for (const name of entry.involved_classes as unknown[])
      if (!named.has(String(name))) named.set(String(name), file);
    for (const step of Array.isArray(entry.path) ? entry.path : []) {
      if (typeof step !== "string") continue;
      const dot = step.lastIndexOf(".");
      if (dot <= 0) continue;
      const [name, method] = [step.slice(0, dot), step.slice(dot + 1)];
      if (!named.has(name)) named.set(name, file);
      const tally = votes.get(name) ?? docs.map(() => 0);
      docs.forEach((doc, i) => {
        if (doc.functions.has(method)) tally[i] = (tally[i] ?? 0) + 1;
      });
      votes.set(name, tally);
    }
  }
  const classes = new Map<string, FunctionDoc>();
  for (const [name, file] of [...named].sort(([a], [b]) => a.localeCompare(b))) {
    const tally = votes.get(name) ?? [];
    const best = Math.max(0, ...tally);
    const winners = docs.filter((_, i) => best > 0 && tally[i] === best);
    const [doc] = winners;
    if (!doc) {
      problems.push({
        toolset: fileToolset(file),
        path: `class ${name}`,
        message: "no entry's path names a method of it that a function-doc file has; its calls are left out",
      });
      continue;
    }
    if (winners.length > 1)
      problems.push({
        toolset: doc.toolset,
        path: `class ${name}`,
        message: `its methods are in ${winners.map((d) => d.file).join(", ")} alike; taken as ${doc.file}`,
      });
    classes.set(name, doc);
  }
  return classes;
}

function taskOf(
  entry: Record<string, unknown>,
  docs: readonly FunctionDoc[],
  answer: unknown,
  note: Note,
): Task | undefined {
  const { texts, turnOf } = turnsOf(entry.question, note);
  const [description] = texts;
  if (description === undefined) {
    note("question", "no user message in any turn; the task is left out");
    return undefined;
  }
  const solution = solutionOf(answer, docs, turnOf, texts.length, note);
  for (const name of Array.isArray(entry.excluded_function) ? entry.excluded_function : [])
    note(
      "excluded_function",
      `the source withholds ${String(name)} from this task; its toolsets offer every function`,
    );
  if (isPlainObject(entry.missed_function))
    for (const [turn, names] of Object.entries(entry.missed_function))
      note(
        `missed_function.${turn}`,
        `the source offers ${[names].flat().map(String).join(", ")} only from turn ${turn}; the task offers them from the start`,
      );
  const others = [...new Set(docs.slice(1).map((d) => d.toolset))].filter((t) => t !== docs[0]?.toolset);
  const task: Task = {
    id: slugId(String(entry.id)),
    description,
    difficulty: solution.length <= 1 ? "simple" : solution.length <= 3 ? "medium" : "complex",
    valid: true,
    state: structuredClone(entry.initial_config as Record<string, unknown>),
    solution,
    checklist: [],
    turns: texts,
  };
  if (others.length > 0) task.toolsets = others;
  return task;
}

/** The user's messages per turn; a turn without one (the source adds functions then) joins the turn before. */
function turnsOf(question: unknown, note: Note): { texts: string[]; turnOf: number[] } {
  const texts: string[] = [];
  const turnOf: number[] = [];
  (Array.isArray(question) ? question : []).forEach((turn, i) => {
    const messages = (Array.isArray(turn) ? turn : [turn]).filter(
      (m): m is Record<string, unknown> =>
        isPlainObject(m) && m.role === "user" && typeof m.content === "string" && m.content.trim() !== "",
    );
    if (messages.length > 0) {
      texts.push(messages.map((m) => String(m.content).trim()).join("\n\n"));
    } else if (texts.length > 0) {
      note(
        `question[${i}]`,
        `turn ${i} has no user message; its calls count toward turn ${texts.length - 1}`,
      );
    }
    turnOf.push(Math.max(0, texts.length - 1));
  });
  return { texts, turnOf };
}

function solutionOf(
  answer: unknown,
  docs: readonly FunctionDoc[],
  turnOf: readonly number[],
  turns: number,
  note: Note,
): SolutionCall[] {
  if (!isPlainObject(answer) || !Array.isArray(answer.ground_truth)) {
    note("ground_truth", "no ground truth; the task has no golden solution");
    return [];
  }
  const truth = answer.ground_truth;
  if (truth.length > turnOf.length)
    note(
      "ground_truth",
      `${truth.length} turns of calls for ${turnOf.length} turns of questions; the extra calls count toward the last turn`,
    );
  const calls: SolutionCall[] = [];
  truth.forEach((step, i) => {
    const turn = turnOf[i] ?? turns - 1;
    (Array.isArray(step) ? step : [step]).forEach((text, j) => {
      const path = `ground_truth[${i}][${j}]`;
      const call = callOf(text, docs);
      if (typeof call === "string") note(path, `${call}; left out`);
      else calls.push({ ...call, turn });
    });
  });
  return calls;
}

/** One call string → the tool of the first involved class that has the function, arguments named. */
function callOf(text: unknown, docs: readonly FunctionDoc[]): Omit<SolutionCall, "turn"> | string {
  if (typeof text !== "string") return "not a call string";
  const parsed = parsePythonCall(text);
  if (!parsed.ok) return `cannot read ${JSON.stringify(text)}: ${parsed.message}`;
  const fn = docs.map((d) => d.functions.get(parsed.name)).find((f) => f !== undefined);
  if (!fn) return `calls ${parsed.name}, which no function-doc file of the entry's classes has`;
  if (parsed.positional.length > fn.parameters.length)
    return `${parsed.name} takes ${fn.parameters.length} argument(s); ${JSON.stringify(text)} gives ${parsed.positional.length} by position`;
  const args: Record<string, unknown> = {};
  for (const [i, value] of parsed.positional.entries()) args[fn.parameters[i] as string] = value;
  for (const [key, value] of Object.entries(parsed.keywords)) {
    if (Object.hasOwn(args, key)) return `${parsed.name} gets "${key}" by position and by name`;
    args[key] = value;
  }
  return { tool: fn.tool, arguments: args };
}

/** Where a note about an entries file goes when no toolset is concerned. */
function fileToolset(file: string): string {
  return slugId((file.split(/[\\/]/).pop() ?? file).replace(/\.jsonl?$/i, ""));
}
