import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deepEqual, isPlainObject } from "../src/patch/index.js";
import { readDatabase, readDocument } from "../src/sources/index.js";
import { absentLike } from "./absent.js";
import { containedIn, entityIn, fieldRecall, sameValue } from "./compare.js";
import { type RealCall, type RealChange, replayReal } from "./tau-real.js";
import { type Answer, runCli, type Server, Session, startServer } from "./toolsim-process.js";

/**
 * τ-bench replayed over MCP: each domain is imported with the real CLI
 * (`toolsim import openai tools.json --state db/`), served (`toolsim serve --http`), and
 * every task's golden actions are called in a fresh session with the real SDK client.
 * Retail's answers are compared with its real implementation (tools_py/, via python3);
 * airline has none here, so only what needs no implementation is checked there.
 */

export interface TauBenchOptions {
  /** Task files to replay: `test` (the default, as published), or also `dev`, `train`. */
  splits: readonly string[];
  /** Runs to compare, each with extra flags for `import` and `serve`. */
  modes: readonly Mode[];
}

export interface Mode {
  name: string;
  flags: readonly string[];
}

export type Label = "read" | "write" | "other";
export type Db = Record<string, Record<string, unknown>>;

interface Domain {
  name: string;
  dir: string;
  labels: Map<string, Label>;
  db: Db;
  tasks: Array<{ id: string; actions: Array<{ tool: string; arguments: Record<string, unknown> }> }>;
  /** Per tool, its argument that names an entity and that entity's collection, learned from the golden calls. */
  keys: Map<string, { argument: string; collection: string }>;
  /** Per collection, a read tool and its key argument. */
  readers: Map<string, { tool: string; argument: string }>;
}

/** Counters of one tool (and, summed, of a whole run). */
export interface Figures {
  calls: number;
  rejected: number;
  reads: { calls: number; recall: number; found: number; fields: number };
  errors: { real: number; reproduced: number };
  falseErrors: { realOk: number; toolsimErr: number };
  status: { changes: number; seen: number };
  fields: { changed: number; seen: number };
  /** Airline-style checks, which need no real implementation. */
  named: { reads: number; recall: number };
  writes: { calls: number; visible: number; argsGiven: number; argsSeen: number };
  created: { ids: number; readable: number };
  missingId: { probed: number; documented: number; rejected: number };
  /** A few calls of each kind of miss, to see why. */
  misses: Array<{ kind: string; task: string; step: number; detail: unknown }>;
}

export function emptyFigures(): Figures {
  return {
    calls: 0,
    rejected: 0,
    reads: { calls: 0, recall: 0, found: 0, fields: 0 },
    errors: { real: 0, reproduced: 0 },
    falseErrors: { realOk: 0, toolsimErr: 0 },
    status: { changes: 0, seen: 0 },
    fields: { changed: 0, seen: 0 },
    named: { reads: 0, recall: 0 },
    writes: { calls: 0, visible: 0, argsGiven: 0, argsSeen: 0 },
    created: { ids: 0, readable: 0 },
    missingId: { probed: 0, documented: 0, rejected: 0 },
    misses: [],
  };
}

const MISSES_PER_TOOL = 12;

function miss(figures: Figures, kind: string, truth: RealCall, detail: unknown): void {
  if (figures.misses.length < MISSES_PER_TOOL)
    figures.misses.push({ kind, task: truth.task, step: truth.step, detail });
}

export interface ModeReport {
  mode: string;
  /** What `toolsim serve` said at start-up (inference notes and the like). */
  startup: string;
  total: Figures;
  tools: Record<string, Figures>;
}

export interface DomainReport {
  domain: string;
  tasks: number;
  actions: number;
  realImplementation: boolean;
  modes: ModeReport[];
}

export async function tauBenchSection(dir: string, options: TauBenchOptions): Promise<DomainReport[]> {
  const reports: DomainReport[] = [];
  for (const name of ["retail", "airline"]) {
    const domain = loadDomain(join(dir, name), name, options.splits);
    const toolsDir = join(domain.dir, "tools_py");
    const real = existsSync(toolsDir)
      ? await replayReal(toolsDir, join(domain.dir, "db"), taskFiles(domain.dir, options.splits))
      : undefined;
    const modes: ModeReport[] = [];
    for (const mode of options.modes) modes.push(await runMode(domain, mode, real));
    reports.push({
      domain: name,
      tasks: domain.tasks.length,
      actions: domain.tasks.reduce((n, t) => n + t.actions.length, 0),
      realImplementation: real !== undefined,
      modes,
    });
  }
  return reports;
}

function taskFiles(dir: string, splits: readonly string[]): string[] {
  return splits.map((split) => join(dir, `tasks_${split}.json`)).filter((file) => existsSync(file));
}

function loadDomain(dir: string, name: string, splits: readonly string[]): Domain {
  const listing = readDocument(join(dir, "tools.json"));
  if (listing.error) throw new Error(`${dir}/tools.json: ${listing.error}`);
  const labels = new Map<string, Label>();
  for (const entry of Array.isArray(listing.value) ? listing.value : []) {
    const fn = isPlainObject(entry) && isPlainObject(entry.schema) ? entry.schema.function : undefined;
    if (!isPlainObject(fn) || typeof fn.name !== "string") continue;
    const label = String(entry.tool_type_from_tau2 ?? "");
    labels.set(fn.name, label === "read" || label === "write" ? label : "other");
  }
  const database = readDatabase(join(dir, "db"));
  if (database.error) throw new Error(`${dir}/db: ${database.error}`);
  const db = database.value as Db;
  const tasks: Domain["tasks"] = [];
  for (const file of taskFiles(dir, splits)) {
    const read = readDocument(file);
    const list = Array.isArray(read.value) ? read.value : [];
    list.forEach((task, index) => {
      const actions = (isPlainObject(task) && Array.isArray(task.actions) ? task.actions : []).map((a) => ({
        tool: String((a as Record<string, unknown>).name),
        arguments: ((a as Record<string, unknown>).kwargs ?? {}) as Record<string, unknown>,
      }));
      tasks.push({ id: `${file.split("/").pop()}#${index}`, actions });
    });
  }
  const keys = learnKeys(tasks, db);
  const readers = new Map<string, { tool: string; argument: string }>();
  for (const [tool, key] of keys)
    if (labels.get(tool) === "read" && !readers.has(key.collection))
      readers.set(key.collection, { tool, argument: key.argument });
  return { name, dir, labels, db, tasks, keys, readers };
}

/** An argument whose golden values are keys of one collection names an entity of it. */
function learnKeys(tasks: Domain["tasks"], db: Db): Domain["keys"] {
  const votes = new Map<string, Map<string, number>>();
  for (const task of tasks)
    for (const action of task.actions)
      for (const [argument, value] of Object.entries(action.arguments)) {
        if (typeof value !== "string") continue;
        for (const [collection, entities] of Object.entries(db)) {
          if (!isPlainObject(entities) || !(value in entities)) continue;
          const id = `${action.tool}\u0000${argument}\u0000${collection}`;
          const tally = votes.get(action.tool) ?? new Map<string, number>();
          tally.set(id, (tally.get(id) ?? 0) + 1);
          votes.set(action.tool, tally);
        }
      }
  const keys: Domain["keys"] = new Map();
  for (const [tool, tally] of votes) {
    const [best] = [...tally].sort((a, b) => b[1] - a[1]);
    if (!best) continue;
    const [, argument = "", collection = ""] = best[0].split("\u0000");
    keys.set(tool, { argument, collection });
  }
  return keys;
}

async function runMode(domain: Domain, mode: Mode, real: RealCall[] | undefined): Promise<ModeReport> {
  const work = mkdtempSync(join(tmpdir(), `toolsim-tau-${domain.name}-`));
  try {
    const catalog = join(work, "catalog");
    const imported = await runCli([
      "import",
      "openai",
      join(domain.dir, "tools.json"),
      "--state",
      join(domain.dir, "db"),
      "--id",
      `tau_${domain.name}`,
      "--out",
      catalog,
      "--quiet",
      ...mode.flags,
    ]);
    if (imported.code !== 0) throw new Error(`import failed (${mode.name}):\n${imported.stderr}`);
    const server = await startServer(["--toolsets", catalog, "--db", join(work, "eval.db"), ...mode.flags]);
    try {
      const tools = new Map<string, Figures>();
      const figuresOf = (tool: string) => {
        const found = tools.get(tool) ?? emptyFigures();
        tools.set(tool, found);
        return found;
      };
      const realByTask = groupByTask(real ?? []);
      for (const task of domain.tasks)
        await replayTask(domain, server, task, realByTask.get(task.id), figuresOf);
      await probeMissingIds(domain, server, figuresOf);
      const total = emptyFigures();
      for (const figures of tools.values()) addInto(total, figures);
      return { mode: mode.name, startup: server.log().trim(), total, tools: Object.fromEntries(tools) };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function groupByTask(calls: readonly RealCall[]): Map<string, RealCall[]> {
  const byTask = new Map<string, RealCall[]>();
  for (const call of calls) {
    const list = byTask.get(call.task) ?? [];
    list.push(call);
    byTask.set(call.task, list);
  }
  return byTask;
}

async function replayTask(
  domain: Domain,
  server: Server,
  task: Domain["tasks"][number],
  real: RealCall[] | undefined,
  figuresOf: (tool: string) => Figures,
): Promise<void> {
  const session = await Session.open(server.url);
  const written = new Set<string>();
  try {
    for (const [step, action] of task.actions.entries()) {
      const figures = figuresOf(action.tool);
      const label = domain.labels.get(action.tool) ?? "other";
      const key = domain.keys.get(action.tool);
      const named = key ? String(action.arguments[key.argument]) : undefined;
      const before =
        !real && label === "write" && key && named !== undefined
          ? await readBack(domain, session, key.collection, named)
          : undefined;
      const answer = await session.call(action.tool, action.arguments);
      figures.calls++;
      if (answer.isError && !answer.documented) figures.rejected++;
      const truth = real?.[step];
      if (truth) await compareWithReal(domain, session, label, truth, answer, figures);
      else await checkWithoutReal(domain, session, label, action, answer, before, written, figures);
      if (label === "write" && key && named !== undefined) written.add(`${key.collection}/${named}`);
    }
  } finally {
    await session.close();
  }
}

async function compareWithReal(
  domain: Domain,
  session: Session,
  label: Label,
  truth: RealCall,
  answer: Answer,
  figures: Figures,
): Promise<void> {
  scoreAnswer(figures, label, truth, answer);
  if (truth.error) return;
  for (const change of truth.changed)
    scoreChange(figures, truth, change, await readBack(domain, session, change.collection, change.key));
}

/**
 * One answer of toolsim against the real one: a real error must be an error; a real success
 * must not be one; a read's answer is scored by the real answer's leaves it holds.
 */
export function scoreAnswer(figures: Figures, label: Label, truth: RealCall, answer: Answer): void {
  if (truth.error) {
    figures.errors.real++;
    if (answer.isError) figures.errors.reproduced++;
    else miss(figures, "error not reproduced", truth, { real: truth.answer, arguments: truth.arguments });
    return;
  }
  figures.falseErrors.realOk++;
  if (answer.isError) {
    figures.falseErrors.toolsimErr++;
    miss(figures, "false error", truth, { toolsim: answer.value, arguments: truth.arguments });
  }
  if (label !== "read") return;
  const recall = fieldRecall(truth.answer, answer.isError ? undefined : answer.value);
  if (recall.found < recall.total)
    miss(figures, "read fields missing", truth, {
      found: recall.found,
      of: recall.total,
      toolsim: JSON.stringify(answer.value).slice(0, 300),
    });
  figures.reads.calls++;
  figures.reads.found += recall.found;
  figures.reads.fields += recall.total;
  figures.reads.recall += recall.total === 0 ? 1 : recall.found / recall.total;
}

/** One entity a real write changed, against what toolsim's read answers for it afterwards (`seen`). */
export function scoreChange(figures: Figures, truth: RealCall, change: RealChange, seen: unknown): void {
  const entity = entityIn(seen, change.fields);
  for (const field of change.fields) {
    const same = sameValue(entity?.[field], change.after[field]);
    figures.fields.changed++;
    if (same) figures.fields.seen++;
    else
      miss(figures, "changed field not seen", truth, {
        field: `${change.collection}.${field}`,
        real: JSON.stringify(change.after[field])?.slice(0, 200),
        toolsim: JSON.stringify(entity?.[field])?.slice(0, 200),
      });
    if (field === "status") {
      figures.status.changes++;
      if (same) figures.status.seen++;
    }
  }
}

async function checkWithoutReal(
  domain: Domain,
  session: Session,
  label: Label,
  action: Domain["tasks"][number]["actions"][number],
  answer: Answer,
  before: unknown,
  written: Set<string>,
  figures: Figures,
): Promise<void> {
  const key = domain.keys.get(action.tool);
  const named = key ? String(action.arguments[key.argument]) : undefined;
  if (label === "read" && key && named !== undefined && !written.has(`${key.collection}/${named}`)) {
    const entity = domain.db[key.collection]?.[named];
    if (entity !== undefined) {
      const recall = fieldRecall(entity, answer.isError ? undefined : answer.value);
      figures.named.reads++;
      figures.named.recall += recall.total === 0 ? 1 : recall.found / recall.total;
    }
  }
  if (label !== "write") return;
  figures.writes.calls++;
  if (key && named !== undefined && !answer.isError) {
    const after = await readBack(domain, session, key.collection, named);
    if (after !== undefined && !deepEqual(after, before)) figures.writes.visible++;
    scoreArguments(figures, domain.db[key.collection]?.[named], key.argument, action.arguments, after);
  }
  for (const id of createdIds(domain.db, action.arguments, answer)) {
    figures.created.ids++;
    if (await readableWithArguments(domain, session, id, action.arguments)) figures.created.readable++;
  }
}

/**
 * A write's arguments against the entity toolsim reads back afterwards (`after`): each
 * argument of the same name and JSON type as a field of the named entity (before the write)
 * should land in that field.
 */
export function scoreArguments(
  figures: Figures,
  entity: unknown,
  keyArgument: string,
  args: Record<string, unknown>,
  after: unknown,
): void {
  const stored = entityIn(after, Object.keys(args));
  for (const [argument, value] of Object.entries(args)) {
    if (argument === keyArgument || !isPlainObject(entity) || !sameKind(entity[argument], value)) continue;
    figures.writes.argsGiven++;
    if (containedIn(value, stored?.[argument])) figures.writes.argsSeen++;
  }
}

function sameKind(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return false;
  const kind = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
  return kind(a) === kind(b);
}

/** Ids a write answered that no collection held before and no argument gave: entities it created. */
export function createdIds(db: Db, args: Record<string, unknown>, answer: Answer): string[] {
  if (answer.isError || !isPlainObject(answer.value)) return [];
  const given = new Set(Object.values(args).map(String));
  return Object.entries(answer.value)
    .filter(([field, value]) => /(^|_)id$/i.test(field) && typeof value === "string" && !given.has(value))
    .map(([, value]) => value as string)
    .filter((id) => !Object.values(db).some((entities) => isPlainObject(entities) && id in entities));
}

/** A created entity is readable when some read tool answers it with a value of the creating call. */
async function readableWithArguments(
  domain: Domain,
  session: Session,
  id: string,
  args: Record<string, unknown>,
): Promise<boolean> {
  const values = Object.values(args).filter((v) => typeof v === "string" || typeof v === "number");
  for (const reader of domain.readers.values()) {
    const answer = await session.call(reader.tool, { [reader.argument]: id });
    if (answer.isError || !isPlainObject(answer.value)) continue;
    const fields = Object.values(entityIn(answer.value, []) ?? {});
    if (values.some((value) => fields.some((field) => deepEqual(field, value)))) return true;
  }
  return false;
}

async function readBack(domain: Domain, session: Session, collection: string, key: string): Promise<unknown> {
  const reader = domain.readers.get(collection);
  if (!reader) return undefined;
  const answer = await session.call(reader.tool, { [reader.argument]: key });
  return answer.isError ? undefined : answer.value;
}

/** Each tool that names an entity, called once with an id no collection holds (same shape as a real one). */
async function probeMissingIds(
  domain: Domain,
  server: Server,
  figuresOf: (tool: string) => Figures,
): Promise<void> {
  const session = await Session.open(server.url);
  try {
    for (const [tool, key] of domain.keys) {
      const first = domain.tasks.flatMap((t) => t.actions).find((a) => a.tool === tool);
      const entities = domain.db[key.collection];
      if (!first || !isPlainObject(entities)) continue;
      const missing = absentLike(String(first.arguments[key.argument]), (candidate) => candidate in entities);
      const answer = await session.call(tool, { ...first.arguments, [key.argument]: missing });
      const figures = figuresOf(tool).missingId;
      figures.probed++;
      if (answer.documented) figures.documented++;
      else if (answer.isError) figures.rejected++;
    }
  } finally {
    await session.close();
  }
}

export function addInto(total: Figures, part: Figures): void {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
  };
  total.misses.push(...part.misses);
  total.calls += part.calls;
  total.rejected += part.rejected;
  for (const group of [
    "reads",
    "errors",
    "falseErrors",
    "status",
    "fields",
    "named",
    "writes",
    "created",
    "missingId",
  ] as const)
    add(total[group] as unknown as Record<string, number>, part[group] as unknown as Record<string, number>);
}

// ── report ─────────────────────────────────────────────────────────────────────

const ratio = (part: number, whole: number) => (whole === 0 ? "—" : (part / whole).toFixed(2));
const of = (part: number, whole: number) => (whole === 0 ? "—" : `${part}/${whole}`);

/** The figures as Markdown tables: one per domain and mode, per tool and overall. */
export function renderTauBench(reports: readonly DomainReport[], verbose = false): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`## τ-bench ${report.domain}: ${report.tasks} tasks, ${report.actions} golden actions`);
    for (const mode of report.modes) {
      lines.push("", `### ${mode.mode}`, "");
      if (report.realImplementation) lines.push(...realTable(mode));
      else lines.push(...checksTable(mode));
      const notes = mode.startup.split("\n").filter((line) => /infer/i.test(line));
      if (notes.length > 0) lines.push("", ...notes.map((line) => `> ${line}`));
      if (verbose)
        for (const [tool, figures] of Object.entries(mode.tools))
          for (const m of figures.misses)
            lines.push(`    ${tool} ${m.kind} (${m.task} step ${m.step}): ${JSON.stringify(m.detail)}`);
    }
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

function realTable(mode: ModeReport): string[] {
  const row = (name: string, f: Figures) =>
    `| ${name} | ${f.calls} | ${f.reads.calls ? ratio(f.reads.recall, f.reads.calls) : "—"} | ${of(f.errors.reproduced, f.errors.real)} | ${of(f.falseErrors.toolsimErr, f.falseErrors.realOk)} | ${of(f.status.seen, f.status.changes)} | ${of(f.fields.seen, f.fields.changed)} | ${of(f.missingId.documented, f.missingId.probed)} |`;
  const t = mode.total;
  return [
    "| tool | calls | read recall | real errors reproduced | false errors | status changes seen | changed fields seen | unknown id → documented error |",
    "|---|---|---|---|---|---|---|---|",
    ...Object.entries(mode.tools)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, f]) => row(name, f)),
    row("**all**", t),
    "",
    `Overall: reads ${ratio(t.reads.recall, t.reads.calls)} (fields ${of(t.reads.found, t.reads.fields)}), ` +
      `errors ${ratio(t.errors.reproduced, t.errors.real)}, false errors ${ratio(t.falseErrors.toolsimErr, t.falseErrors.realOk)}, ` +
      `status changes ${ratio(t.status.seen, t.status.changes)}, changed fields ${ratio(t.fields.seen, t.fields.changed)}, ` +
      `rejected golden calls ${t.rejected}.`,
  ];
}

function checksTable(mode: ModeReport): string[] {
  const row = (name: string, f: Figures) =>
    `| ${name} | ${f.calls} | ${f.named.reads ? ratio(f.named.recall, f.named.reads) : "—"} | ${of(f.writes.visible, f.writes.calls)} | ${of(f.writes.argsSeen, f.writes.argsGiven)} | ${of(f.created.readable, f.created.ids)} | ${of(f.missingId.documented, f.missingId.probed)} |`;
  const t = mode.total;
  return [
    "| tool | calls | reads: entity recall | writes visible to a later read | arguments seen in the entity | created entities readable | unknown id → documented error |",
    "|---|---|---|---|---|---|---|",
    ...Object.entries(mode.tools)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, f]) => row(name, f)),
    row("**all**", t),
    "",
    `Rejected golden calls: ${t.rejected}.`,
  ];
}
