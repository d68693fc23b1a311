import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeReal, type RealReplay, type RealSource, replayReal } from "./bfcl-real.js";
import {
  addCall,
  addProbe,
  addRandom,
  addStateMiss,
  changesMade,
  emptyFigures,
  type Figures,
  type ProbeRequest,
  probesFor,
  type RealCall,
  type RealTask,
  randomLeaves,
  realView,
  Substitutions,
  scoreCall,
  sumFigures,
  toolMatches,
} from "./bfcl-score.js";
import { sameValue } from "./compare.js";
import { type Answer, runCli, type Server, Session, startServer } from "./toolsim-process.js";

/**
 * BFCL multi-turn, replayed against the real classes: the ground truth of the base entries
 * runs on the classes in `multi_turn_real/` (python3, eval/bfcl_replay.py) and on toolsim as a
 * user runs it (`toolsim import bfcl` on the entries file, `toolsim serve --http`, a fresh MCP
 * session per task started with `sim_start_task`, the same calls with the real SDK client),
 * compared per class and per tool.
 */

const ENTRIES = "BFCL_v4_multi_turn_base.json";

export interface BfclMultiTurnOptions {
  /** Only these classes (all the real ones when empty). */
  classes: readonly string[];
  /** The entries file in the folder (default the base entries, BFCL_v4_multi_turn_base.json). */
  entries?: string;
  /**
   * Where toolsim's tasks start: the entries' configurations as `toolsim import` writes them
   * (`given`, what a user gets), or the state each real class holds once it has loaded its
   * configuration (`loaded`: the defaults a class fills in for keys the configuration leaves
   * out, so that both sides start from one world and the figures measure the world model alone).
   */
  state?: "given" | "loaded";
}

export interface ClassReport {
  class: string;
  tasks: number;
  total: Figures;
  tools: Record<string, Figures>;
  precision: Precision;
}

export interface Precision {
  /** Tools `toolsim import` reported "inferred", called here. */
  inferred: number;
  /** Of those, the ones whose every call matched the real implementation. */
  matching: number;
  tools: Array<{ tool: string; matches: boolean }>;
}

export interface BfclMultiTurnReport {
  entries: string;
  tasks: number;
  calls: number;
  skipped: Array<[string, number]>;
  driverNotes: string[];
  /** Per class, tasks whose configuration the real class does not load as given (key → tasks). */
  configNotLoaded: Record<string, Record<string, number>>;
  /** Where toolsim's tasks started, and how many were given the real classes' loaded states. */
  state: "given" | "loaded";
  loadedTasks: number;
  imported: { toolsets: number; tools: number; tasks: number; verdicts: Record<string, number> };
  /** The imported golden solutions against the driver's calls (arguments named by the real signatures). */
  solutions: {
    calls: number;
    agree: number;
    differ: Array<{ task: string; step: number; real: unknown; imported: unknown }>;
  };
  probes: number;
  /** Real random ids whose place toolsim's answered id took in later calls. */
  substitutions: number;
  startup: string;
  classes: ClassReport[];
  total: Figures;
  precision: Precision;
}

interface ImportedCatalog {
  /** Per task id: method → tool name, over the task's toolsets. */
  tools: Map<string, Map<string, string>>;
  /** Per tool name, the verdict `toolsim import` reported. */
  verdicts: Map<string, string>;
  solutions: Map<string, Array<{ tool: string; arguments: Record<string, unknown> }>>;
  summary: BfclMultiTurnReport["imported"];
}

export async function bfclMultiTurnSection(
  dir: string,
  options: BfclMultiTurnOptions,
): Promise<BfclMultiTurnReport> {
  const entries = options.entries ?? ENTRIES;
  const source: RealSource = {
    realDir: join(dir, "multi_turn_real"),
    entriesFile: join(dir, entries),
    answersFile: join(dir, "possible_answer", entries),
    classes: options.classes,
  };
  const real = await replayReal(source);
  const unknown = options.classes.filter((name) => !real.classes.includes(name));
  if (unknown.length > 0)
    throw new Error(
      `--bfcl-classes: no real class ${unknown.join(", ")} (there are: ${real.classes.join(", ")})`,
    );
  const probes = probesFor(real.tasks, real.calls);
  const realProbes = await probeReal(source, probes);
  const work = mkdtempSync(join(tmpdir(), "toolsim-bfcl-"));
  try {
    const catalog = await importCatalog(source.entriesFile, join(work, "catalog"));
    const loadedTasks = options.state === "loaded" ? startFromLoadedStates(join(work, "catalog"), real) : 0;
    const server = await startServer(["--toolsets", join(work, "catalog"), "--db", join(work, "eval.db")]);
    try {
      const tools = new Map<string, Figures>();
      const figuresOf = (cls: string, method: string) => {
        const key = `${cls}.${method}`;
        const found = tools.get(key) ?? emptyFigures();
        tools.set(key, found);
        return found;
      };
      let substitutions = 0;
      for (const task of real.tasks)
        substitutions += await replayTask(server, catalog, task, callsOf(real, task.task), figuresOf);
      for (const probe of probes) {
        const truth = realProbes.get(probe.id);
        if (!truth) continue;
        const answer = await probeToolsim(server, catalog, probe, callsOf(real, probe.task));
        addProbe(figuresOf(probe.class, probe.method), probe, truth.error, truth.answer, answer);
      }
      return {
        ...report(entries, real, catalog, tools, probes.length, substitutions, server.log().trim()),
        state: options.state ?? "given",
        loadedTasks,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Gives every imported task whose entry was replayed the state its real classes held once they
 * had loaded its configuration, in place of the configuration as given; the other classes of
 * the task keep theirs. Answers how many tasks it changed.
 */
function startFromLoadedStates(dir: string, real: RealReplay): number {
  const loaded = new Map(real.tasks.map((task) => [taskIdOf(task.task), task.initial]));
  let changed = 0;
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".json"))) {
    const path = join(dir, name);
    const file = JSON.parse(readFileSync(path, "utf8")) as { tasks?: Array<{ id: string; state?: object }> };
    let touched = false;
    for (const task of file.tasks ?? []) {
      const initial = loaded.get(task.id);
      if (!initial) continue;
      task.state = { ...task.state, ...initial };
      touched = true;
      changed++;
    }
    if (touched) writeFileSync(path, JSON.stringify(file, null, 2));
  }
  return changed;
}

/** The id `toolsim import` gives an entry's task (entry ids are already lower-case slugs). */
function taskIdOf(entry: string): string {
  return entry.toLowerCase().replace(/[^a-z0-9_.-]+/g, "_");
}

function callsOf(real: RealReplay, task: string): RealCall[] {
  return real.calls.filter((call) => call.task === task);
}

/** `toolsim import bfcl ENTRIES --out DIR --json`, as a user runs it, and the files it wrote. */
async function importCatalog(entries: string, out: string): Promise<ImportedCatalog> {
  const run = await runCli(["import", "bfcl", entries, "--out", out, "--json"]);
  const summary = parseJson(run.stdout) as
    | {
        toolsets: number;
        tools: number;
        tasks: number;
        loadErrors?: Array<{ file: string; path: string; message: string }>;
        inference?: Array<{ tool: string; verdict: string }>;
      }
    | undefined;
  if (run.code !== 0 || !summary) {
    const errors = summary?.loadErrors ?? [];
    const first = errors[0];
    throw new Error(
      `toolsim import bfcl failed (exit ${run.code})` +
        (first
          ? `: ${errors.length} load error(s), the first ${first.file} ${first.path}: ${first.message}`
          : "") +
        `\n${run.stderr}`,
    );
  }
  const verdicts = new Map((summary.inference ?? []).map((r) => [r.tool, r.verdict]));
  const toolsets = readdirSync(out)
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(readFileSync(join(out, name), "utf8")) as ToolsetFile);
  const byId = new Map(toolsets.map((t) => [t.id, t]));
  const tools = new Map<string, Map<string, string>>();
  const solutions = new Map<string, Array<{ tool: string; arguments: Record<string, unknown> }>>();
  for (const toolset of toolsets)
    for (const task of toolset.tasks ?? []) {
      const methods = new Map<string, string>();
      for (const id of [toolset.id, ...(task.toolsets ?? [])])
        for (const tool of byId.get(id)?.tools ?? []) methods.set(tool.title ?? tool.name, tool.name);
      tools.set(task.id, methods);
      solutions.set(task.id, task.solution ?? []);
    }
  const tally: Record<string, number> = {};
  for (const verdict of verdicts.values()) tally[verdict] = (tally[verdict] ?? 0) + 1;
  return {
    tools,
    verdicts,
    solutions,
    summary: { toolsets: summary.toolsets, tools: summary.tools, tasks: summary.tasks, verdicts: tally },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface ToolsetFile {
  id: string;
  tools?: Array<{ name: string; title?: string }>;
  tasks?: Array<{
    id: string;
    toolsets?: string[];
    solution?: Array<{ tool: string; arguments: Record<string, unknown> }>;
  }>;
}

/** A fresh MCP session on the task: its initial state, its toolsets' tools. */
async function startTask(server: Server, task: string): Promise<Session> {
  const session = await Session.open(server.url);
  const started = await session.call("sim_start_task", { task_id: taskIdOf(task) });
  if (started.isError) {
    await session.close();
    throw new Error(`sim_start_task ${task}: ${JSON.stringify(started.value)}`);
  }
  return session;
}

const NO_TOOL = (method: string): Answer => ({
  isError: true,
  documented: false,
  value: `the imported catalog has no tool for ${method}`,
});

async function callToolsim(
  session: Session,
  catalog: ImportedCatalog,
  task: string,
  method: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  const tool = catalog.tools.get(taskIdOf(task))?.get(method);
  return tool ? session.call(tool, args) : NO_TOOL(method);
}

/** The class's part of toolsim's state (undefined when the state has none). */
async function classState(session: Session, cls: string): Promise<unknown> {
  const read = await session.call("sim_get_state", { path: cls });
  return read.isError ? undefined : read.value;
}

/** One task's calls on toolsim, each scored against its real call; returns the ids swapped. */
async function replayTask(
  server: Server,
  catalog: ImportedCatalog,
  task: RealTask,
  calls: readonly RealCall[],
  figuresOf: (cls: string, method: string) => Figures,
): Promise<number> {
  const session = await startTask(server, task.task);
  const substitutions = new Substitutions();
  const before = new Map(Object.entries(task.initial));
  try {
    // toolsim's own starting state per class: a removal counts only where it held something
    const toolsimInitial = new Map<string, unknown>();
    for (const cls of Object.keys(task.initial)) toolsimInitial.set(cls, await classState(session, cls));
    for (const real of calls) {
      if (real.skipped || !real.class) continue;
      const answer = await callToolsim(
        session,
        catalog,
        task.task,
        real.method,
        substitutions.swap(real.arguments),
      );
      learn(substitutions, real, answer);
      const view = realView(real, task.initial[real.class], before.get(real.class), substitutions);
      const state = view.changes.length > 0 ? await classState(session, real.class) : undefined;
      const made =
        view.changes.length > 0 ? changesMade(view.changes, state, toolsimInitial.get(real.class)) : [];
      const figures = figuresOf(real.class, real.method);
      const score = scoreCall({
        real,
        toolsim: answer,
        truth: view.truth,
        random: view.random,
        changes: view.changes,
        made,
      });
      addCall(figures, real, score, answer.value);
      addStateMiss(figures, real, view.changes, made, state);
      addRandom(figures, "answer", view.random);
      addRandom(figures, "state", view.randomChanges);
      before.set(real.class, real.state);
    }
  } finally {
    await session.close();
  }
  return substitutions.size;
}

function learn(substitutions: Substitutions, real: RealCall, answer: Answer): void {
  if (answer.isError) return;
  substitutions.learn(
    real.answer,
    answer.value,
    randomLeaves(
      real.answer,
      real.salted.map((run) => run.answer),
    ),
  );
}

/** The task's calls before the probe's step, then the probe, in a fresh session. */
async function probeToolsim(
  server: Server,
  catalog: ImportedCatalog,
  probe: ProbeRequest,
  calls: readonly RealCall[],
): Promise<Answer> {
  const session = await startTask(server, probe.task);
  const substitutions = new Substitutions();
  try {
    for (const real of calls) {
      if (real.step >= probe.step) break;
      if (real.skipped || !real.class) continue;
      learn(
        substitutions,
        real,
        await callToolsim(session, catalog, probe.task, real.method, substitutions.swap(real.arguments)),
      );
    }
    return await callToolsim(session, catalog, probe.task, probe.method, substitutions.swap(probe.arguments));
  } finally {
    await session.close();
  }
}

function report(
  entries: string,
  real: RealReplay,
  catalog: ImportedCatalog,
  tools: Map<string, Figures>,
  probes: number,
  substitutions: number,
  startup: string,
): Omit<BfclMultiTurnReport, "state" | "loadedTasks"> {
  const classNames = [...new Set([...tools.keys()].map((key) => key.split(".")[0] as string))].sort();
  const toolName = toolNames(real, catalog);
  const classes = classNames.map((cls): ClassReport => {
    const own = [...tools]
      .filter(([key]) => key.startsWith(`${cls}.`))
      .sort(([a], [b]) => a.localeCompare(b));
    return {
      class: cls,
      tasks: real.tasks.filter((task) =>
        real.calls.some((c) => c.task === task.task && c.class === cls && !c.skipped),
      ).length,
      total: sumFigures(own.map(([, figures]) => figures)),
      tools: Object.fromEntries(own.map(([key, figures]) => [key.slice(cls.length + 1), figures])),
      precision: precisionOf(own, catalog, toolName),
    };
  });
  const skipped = new Map<string, number>();
  for (const call of real.calls)
    if (call.skipped) {
      const reason = call.skipped.startsWith("no real class")
        ? "no real class of the entry has the method"
        : call.skipped;
      skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    }
  const configNotLoaded: BfclMultiTurnReport["configNotLoaded"] = {};
  for (const task of real.tasks)
    for (const [cls, keys] of Object.entries(task.unlike)) {
      const tally = configNotLoaded[cls] ?? {};
      for (const key of keys) tally[key] = (tally[key] ?? 0) + 1;
      configNotLoaded[cls] = tally;
    }
  return {
    entries,
    tasks: real.tasks.length,
    calls: real.calls.filter((c) => !c.skipped).length,
    skipped: [...skipped],
    driverNotes: real.notes,
    configNotLoaded,
    imported: catalog.summary,
    solutions: solutionAgreement(real, catalog),
    probes,
    substitutions,
    startup,
    classes,
    total: sumFigures(classes.map((c) => c.total)),
    precision: precisionOf([...tools], catalog, toolName),
  };
}

/** `Class.method` → the imported tool's name. */
function toolNames(real: RealReplay, catalog: ImportedCatalog): Map<string, string> {
  const out = new Map<string, string>();
  for (const call of real.calls) {
    const tool = call.class ? catalog.tools.get(taskIdOf(call.task))?.get(call.method) : undefined;
    if (tool) out.set(`${call.class}.${call.method}`, tool);
  }
  return out;
}

function precisionOf(
  tools: ReadonlyArray<[string, Figures]>,
  catalog: ImportedCatalog,
  toolName: ReadonlyMap<string, string>,
): Precision {
  const inferred = tools.filter(([key]) => catalog.verdicts.get(toolName.get(key) ?? "") === "inferred");
  const rows = inferred.map(([key, figures]) => ({ tool: key, matches: toolMatches(figures) }));
  return { inferred: rows.length, matching: rows.filter((r) => r.matches).length, tools: rows };
}

/** Whether the importer named the ground truth's arguments as the real signatures do. */
function solutionAgreement(real: RealReplay, catalog: ImportedCatalog): BfclMultiTurnReport["solutions"] {
  const out: BfclMultiTurnReport["solutions"] = { calls: 0, agree: 0, differ: [] };
  for (const task of real.tasks) {
    const imported = catalog.solutions.get(taskIdOf(task.task)) ?? [];
    for (const call of callsOf(real, task.task)) {
      if (!call.class) continue;
      out.calls++;
      const mine = imported[call.step];
      if (mine && sameValue(mine.arguments, call.arguments)) out.agree++;
      else if (out.differ.length < 10)
        out.differ.push({ task: task.task, step: call.step, real: call.arguments, imported: mine ?? null });
    }
  }
  return out;
}

// ── report ─────────────────────────────────────────────────────────────────────

const ratio = (part: number, whole: number) => (whole === 0 ? "—" : (part / whole).toFixed(2));
const of = (part: number, whole: number) => (whole === 0 ? "—" : `${part}/${whole}`);
const with_ = (part: number, whole: number) =>
  whole === 0 ? "—" : `${ratio(part, whole)} (${of(part, whole)})`;

function row(name: string, f: Figures, extra: string[]): string {
  return `| ${[
    name,
    ...extra,
    String(f.calls),
    with_(f.answers.found, f.answers.total),
    with_(f.state.right, f.state.changed),
    with_(f.dependentReads.right, f.dependentReads.reads),
    `${of(f.errors.answered, f.errors.real)}${f.probes.realErrors ? ` (probes ${of(f.probes.answered, f.probes.realErrors)})` : ""}`,
    of(f.falseErrors.toolsimErr, f.falseErrors.realOk),
  ].join(" | ")} |`;
}

/** The figures as Markdown: one table per class and overall, tools per class, misses when verbose. */
export function renderBfclMultiTurn(r: BfclMultiTurnReport, verbose = false): string {
  const lines = [
    `## BFCL multi-turn replayed against the real classes: ${r.tasks} tasks of ${r.entries}, ${r.calls} calls, ${r.probes} probes`,
    "",
    "| class | tasks | calls | answer leaves right | real state changes made | writes seen by a later read | real errors answered | false errors | verdict precision |",
    "|---|---|---|---|---|---|---|---|---|",
    ...r.classes.map(
      (c) =>
        `${row(c.class, c.total, [String(c.tasks)])} ${of(c.precision.matching, c.precision.inferred)} |`,
    ),
    `${row("**all**", r.total, [String(r.tasks)])} ${of(r.precision.matching, r.precision.inferred)} |`,
    "",
    `Imported: ${r.imported.toolsets} toolsets, ${r.imported.tools} tools, ${r.imported.tasks} tasks; verdicts ${JSON.stringify(r.imported.verdicts)}. ` +
      `Golden solutions naming the arguments as the real signatures do: ${of(r.solutions.agree, r.solutions.calls)}. ` +
      `Rejected calls: ${r.total.rejected}. Real ids replaced by toolsim's in later calls: ${r.substitutions}.`,
    `Skipped calls: ${r.skipped.map(([why, n]) => `${n} (${why})`).join(", ") || "none"}.`,
    `Driver: ${r.driverNotes.join("; ")}.`,
    r.state === "loaded"
      ? `toolsim's tasks started from the real classes' loaded states (their defaults filled in): ${r.loadedTasks} tasks.`
      : "toolsim's tasks started from the entries' configurations as `toolsim import bfcl` writes them.",
  ];
  const unloaded = Object.entries(r.configNotLoaded);
  if (unloaded.length > 0)
    lines.push(
      `Configuration the real class does not load as given: ${unloaded.map(([cls, keys]) => `${cls} ${JSON.stringify(keys)} (tasks per key)`).join("; ")}.`,
    );
  const random = Object.entries(r.total.random).sort((a, b) => b[1] - a[1]);
  if (random.length > 0)
    lines.push(
      `Leaves left out as random (path: times): ${random
        .slice(0, 20)
        .map(([p, n]) => `${p}: ${n}`)
        .join("; ")}.`,
    );
  for (const c of r.classes) {
    lines.push(
      "",
      `### ${c.class}`,
      "",
      "| tool | calls | answer leaves right | real state changes made | writes seen by a later read | real errors answered | false errors | inferred | matches |",
      "|---|---|---|---|---|---|---|---|---|",
      ...Object.entries(c.tools).map(([tool, f]) => {
        const verdict = c.precision.tools.find((t) => t.tool === `${c.class}.${tool}`);
        return `${row(tool, f, [])} ${verdict ? "yes" : "no"} | ${toolMatches(f) ? "yes" : "no"} |`;
      }),
    );
    if (verbose)
      for (const [tool, f] of Object.entries(c.tools))
        for (const m of f.misses)
          lines.push(`    ${tool} ${m.kind} (${m.task} step ${m.step}): ${JSON.stringify(m.detail)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Classes named on the command line (`a,b,c`). */
export function classList(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}
