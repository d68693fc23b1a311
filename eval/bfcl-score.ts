import { isPlainObject } from "../src/patch/index.js";
import { absentLike } from "./absent.js";
import { fieldRecall, type Leaves, leavesOf, type Recall, sameValue } from "./compare.js";
import type { Answer } from "./toolsim-process.js";

/**
 * How BFCL multi-turn calls answered by toolsim are scored against the real classes, pure:
 * the replay (bfcl-multiturn.ts) feeds it what python3 and toolsim answered.
 */

/** One run of a call on the real class: its answer and the class's state after it. */
export interface RealRun {
  answer: unknown;
  error: boolean;
  state: unknown;
}

/** One ground-truth call as eval/bfcl_replay.py replayed it. */
export interface RealCall extends RealRun {
  task: string;
  step: number;
  turn: number;
  method: string;
  /** The real class whose method it is; null when no real class of the entry has it. */
  class: string | null;
  arguments: Record<string, unknown>;
  /** Why the call was not made (no real class has the method, or its class is not selected). */
  skipped?: string;
  /** The same call in runs whose random generators were seeded otherwise. */
  salted: RealRun[];
  /** For a call that changed no public attribute: its answer on a fresh instance. */
  fresh?: unknown;
  freshError?: boolean;
}

export interface RealTask {
  task: string;
  involved: string[];
  real: string[];
  /** Per class, the state the configuration loads to. */
  initial: Record<string, unknown>;
  /** Per class, configuration keys the class does not load as given. */
  unlike: Record<string, string[]>;
}

/**
 * Leaves whose value the salted runs disagree on: random in the real implementation (an id
 * drawn from a generator, a balance made up for a new card). A leaf that only the unsalted run
 * has, or on which the salted runs agree, is not random: it is what follows from the values
 * the ground truth hard-codes. Keys that are themselves random (an entity filed under a drawn
 * id) are paired across runs by position first, so what lies under them is compared too.
 */
export function randomLeaves(first: unknown, salted: readonly unknown[]): Set<string> {
  const runs = salted.map((value) => leavesOf(alignKeys(first, value)));
  const out = new Set<string>();
  if (runs.length < 2) return out;
  for (const path of leavesOf(first).keys()) {
    if (!runs.every((run) => run.has(path))) continue;
    const [head, ...rest] = runs.map((run) => run.get(path));
    if (rest.some((value) => !sameValue(value, head))) out.add(path);
  }
  return out;
}

/**
 * `other` with the keys only it has renamed, in order, to the keys only `first` has, where
 * there are as many of each: the same entity filed under another drawn id.
 */
export function alignKeys(first: unknown, other: unknown): unknown {
  if (Array.isArray(first) && Array.isArray(other))
    return other.map((item, i) => (i < first.length ? alignKeys(first[i], item) : item));
  if (!isPlainObject(first) || !isPlainObject(other)) return other;
  const onlyFirst = Object.keys(first).filter((key) => !Object.hasOwn(other, key));
  const onlyOther = Object.keys(other).filter((key) => !Object.hasOwn(first, key));
  const rename = new Map(
    onlyFirst.length === onlyOther.length ? onlyOther.map((key, i) => [key, onlyFirst[i] as string]) : [],
  );
  return Object.fromEntries(
    Object.entries(other).map(([key, value]) => {
      const name = rename.get(key) ?? key;
      return [name, alignKeys(first[name], value)];
    }),
  );
}

/**
 * Real random values (ids) and what toolsim answered in their place. A later call passes
 * toolsim its own id where the ground truth hard-codes the real one, and real answers and
 * states are compared with toolsim's ids put in: what an agent that read the answer would do.
 */
export class Substitutions {
  private readonly swaps = new Map<string, string | number>();

  /** Learns from one call: each random scalar leaf of the real answer and toolsim's value at its path. */
  learn(real: unknown, toolsim: unknown, random: ReadonlySet<string>): void {
    if (random.size === 0) return;
    const have = candidates(toolsim).map((candidate) => leavesOf(candidate));
    for (const [path, value] of leavesOf(real)) {
      if (!random.has(path) || !isToken(value)) continue;
      const theirs = have.map((leaves) => leaves.get(path)).find(isScalarId);
      if (theirs !== undefined && String(theirs) !== String(value)) this.swaps.set(String(value), theirs);
    }
  }

  get size(): number {
    return this.swaps.size;
  }

  /** `value` with every real id learned (as a key or a scalar) replaced by toolsim's. */
  swap<T>(value: T): T {
    if (this.swaps.size === 0) return value;
    return this.swapped(value) as T;
  }

  private swapped(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.swapped(item));
    if (isPlainObject(value))
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [String(this.swaps.get(key) ?? key), this.swapped(item)]),
      );
    if (typeof value === "string" || typeof value === "number") return this.swaps.get(String(value)) ?? value;
    return value;
  }
}

/** Ids are at least four characters: small numbers (counts, indexes) are never swapped. */
function isToken(value: unknown): value is string | number {
  return (typeof value === "string" || typeof value === "number") && String(value).length >= 4;
}

function isScalarId(value: unknown): value is string | number {
  return typeof value === "string" || typeof value === "number";
}

function candidates(answer: unknown): unknown[] {
  const out: unknown[] = [answer];
  if (isPlainObject(answer))
    for (const value of Object.values(answer)) if (isPlainObject(value)) out.push(value);
  return out;
}

/** One leaf a call changed: its path and real value afterwards (undefined: removed). */
export interface Change {
  path: string;
  real: unknown;
}

/**
 * The leaves one call changed that differ from the initial state afterwards: what the call
 * did that still stands against where the task started (a booking made and cancelled in one
 * task is no change by the end; a balance moved twice is two). Random leaves are left out.
 */
export function stateChanges(
  initial: unknown,
  before: unknown,
  after: unknown,
  exclude: ReadonlySet<string>,
): Change[] {
  const start = leavesOf(initial);
  const was = leavesOf(before);
  const is = leavesOf(after);
  const differs = (leaves: Leaves, path: string, value: unknown) =>
    !(leaves.has(path) && sameValue(leaves.get(path), value));
  const changes: Change[] = [];
  for (const [path, value] of is)
    if (
      !exclude.has(path) &&
      differs(was, path, value) &&
      differs(start, path, value) &&
      !(isEmptyContainer(value) && hasDescendant(was, path))
    )
      changes.push({ path, real: value });
  for (const [path, value] of was)
    if (
      !is.has(path) &&
      start.has(path) &&
      !exclude.has(path) &&
      !(isEmptyContainer(value) && hasDescendant(is, path))
    )
      changes.push({ path, real: undefined });
  return changes;
}

/** An emptied or filled container is told by the leaves under it, not by its own empty leaf too. */
function isEmptyContainer(value: unknown): boolean {
  return (Array.isArray(value) || isPlainObject(value)) && Object.keys(value).length === 0;
}

function hasDescendant(leaves: Leaves, path: string): boolean {
  for (const key of leaves.keys())
    if (path === "" ? key !== "" : key.startsWith(`${path}.`) || key.startsWith(`${path}[`)) return true;
  return false;
}

/**
 * The real call as toolsim is held to it: the answer and the states with toolsim's ids put in
 * for the real random ones, the answer's random leaves, and the changes of the class's state
 * (random leaves left out).
 */
export function realView(
  real: RealCall,
  initial: unknown,
  before: unknown,
  substitutions: Substitutions,
): { truth: unknown; random: Set<string>; changes: Change[]; randomChanges: string[] } {
  const truth = substitutions.swap(real.answer);
  const start = substitutions.swap(initial);
  const was = substitutions.swap(before);
  const after = substitutions.swap(real.state);
  const randomState = randomLeaves(
    after,
    real.salted.map((run) => run.state),
  );
  const changes = stateChanges(start, was, after, randomState);
  return {
    truth,
    random: randomLeaves(
      truth,
      real.salted.map((run) => run.answer),
    ),
    changes,
    randomChanges: stateChanges(start, was, after, new Set())
      .filter((change) => randomState.has(change.path))
      .map((change) => change.path),
  };
}

/**
 * A change is made when toolsim's state holds the real value at the path, or, for a removal,
 * when toolsim's state held something there when the task started (`toolsimInitial`) and holds
 * nothing now: what toolsim never had, it did not remove.
 */
export function changesMade(
  changes: readonly Change[],
  toolsimAfter: unknown,
  toolsimInitial: unknown,
): Change[] {
  const have = leavesOf(toolsimAfter);
  const had = leavesOf(toolsimInitial);
  return changes.filter((change) =>
    change.real === undefined
      ? !have.has(change.path) && toolsimInitial !== undefined && had.has(change.path)
      : have.has(change.path) && sameValue(have.get(change.path), change.real),
  );
}

/** What one call of toolsim scored against the real call. */
export interface CallScore {
  realError: boolean;
  toolsimError: boolean;
  /** toolsim refused the call itself (arguments), not with a documented error. */
  rejected: boolean;
  /** For a real answer that is not an error: its leaves found in toolsim's answer. */
  leaves?: Recall;
  /** Leaves of the real answer left out as random. */
  excludedLeaves: number;
  changes: number;
  changesRight: number;
  /** A read whose real answer depends on an earlier call of the task: whether toolsim answered it right. */
  dependentRead?: boolean;
  /** Answer (leaf recall ≥ 0.9, or the error) and every state change as the real implementation's. */
  match: boolean;
}

export interface ScoreInput {
  real: RealCall;
  toolsim: Answer;
  /** The real answer with toolsim's ids put in (realView), and its random leaves. */
  truth: unknown;
  random: ReadonlySet<string>;
  /** The real changes of the call (stateChanges) and the ones toolsim made (changesMade). */
  changes: readonly Change[];
  made: readonly Change[];
}

export const MATCHING_RECALL = 0.9;

export function scoreCall(input: ScoreInput): CallScore {
  const { real, toolsim, truth, random, changes, made } = input;
  const rejected = toolsim.isError && !toolsim.documented;
  const excludedLeaves = [...leavesOf(truth).keys()].filter((path) => random.has(path)).length;
  const leaves = real.error
    ? undefined
    : fieldRecall(truth, toolsim.isError ? undefined : toolsim.value, { exclude: random });
  const answerRight = real.error
    ? toolsim.isError
    : !toolsim.isError &&
      (leaves?.total === 0 || (leaves?.found ?? 0) / (leaves?.total ?? 1) >= MATCHING_RECALL);
  const score: CallScore = {
    realError: real.error,
    toolsimError: toolsim.isError,
    rejected,
    excludedLeaves,
    changes: changes.length,
    changesRight: made.length,
    match: answerRight && made.length === changes.length,
  };
  if (leaves) score.leaves = leaves;
  // a read that answers nothing (no leaves) shows nothing of the earlier calls: not counted
  if (dependsOnEarlierCalls(real) && (real.error || (leaves?.total ?? 0) > 0))
    score.dependentRead = real.error ? toolsim.isError : !toolsim.isError && leaves?.found === leaves?.total;
  return score;
}

/** A call that changed nothing and answers otherwise than the same call on the initial state. */
export function dependsOnEarlierCalls(real: RealCall): boolean {
  if (!("fresh" in real)) return false;
  return Boolean(real.freshError) !== real.error || !sameValue(real.fresh, real.answer);
}

// ── probes ────────────────────────────────────────────────────────────────────

/** A call made on both sides with an argument changed to name nothing the state holds. */
export interface ProbeRequest {
  id: string;
  task: string;
  /** The probe replaces the task's call at this step (the calls before it are made first). */
  step: number;
  class: string;
  method: string;
  argument: string;
  arguments: Record<string, unknown>;
}

const NAMING_ARGUMENT = /(id|ids|key|name|symbol|path|user)$/i;

/**
 * The state's dict keys and scalar values, where an argument may name something: a value that
 * is a key anywhere (a file, a symbol, a tweet id), or a scalar anywhere given to an argument
 * whose name says it names something (`…_id`, `…name`, `symbol`, `path`, `user`).
 */
export function names(state: unknown): { keys: Set<string>; scalars: Set<string> } {
  const keys = new Set<string>();
  const scalars = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isPlainObject(value))
      for (const [key, item] of Object.entries(value)) {
        keys.add(key);
        walk(item);
      }
    else if (typeof value === "string" || typeof value === "number") scalars.add(String(value));
  };
  walk(state);
  return { keys, scalars };
}

export function namesSomething(argument: string, value: unknown, state: unknown): boolean {
  if (typeof value !== "string" && typeof value !== "number") return false;
  const known = names(state);
  const text = String(value);
  return known.keys.has(text) || (known.scalars.has(text) && NAMING_ARGUMENT.test(argument));
}

/** A value of the same shape that is neither a key nor a value of the state. */
export function unknownLike(value: string | number, state: unknown): string | number {
  const known = names(state);
  const absent = absentLike(
    String(value),
    (candidate) => known.keys.has(candidate) || known.scalars.has(candidate),
  );
  return typeof value === "number" && Number.isFinite(Number(absent)) ? Number(absent) : absent;
}

/**
 * One probe per method and argument that names something, at the first call that passes it
 * such a value: the call again, with that argument naming nothing the class's state holds.
 */
export function probesFor(tasks: readonly RealTask[], calls: readonly RealCall[]): ProbeRequest[] {
  const byTask = new Map<string, RealCall[]>();
  for (const call of calls) byTask.set(call.task, [...(byTask.get(call.task) ?? []), call]);
  const done = new Set<string>();
  const probes: ProbeRequest[] = [];
  for (const task of tasks) {
    const state = new Map(Object.entries(task.initial));
    for (const call of byTask.get(task.task) ?? []) {
      if (call.skipped || !call.class) continue;
      const before = state.get(call.class);
      for (const [argument, value] of Object.entries(call.arguments)) {
        const id = `${call.class}.${call.method}(${argument})`;
        if (done.has(id) || !namesSomething(argument, value, before)) continue;
        done.add(id);
        probes.push({
          id,
          task: task.task,
          step: call.step,
          class: call.class,
          method: call.method,
          argument,
          arguments: { ...call.arguments, [argument]: unknownLike(value as string | number, before) },
        });
      }
      state.set(call.class, call.state);
    }
  }
  return probes;
}

// ── figures ───────────────────────────────────────────────────────────────────

export interface Miss {
  kind: string;
  task: string;
  step: number;
  detail: unknown;
}

export interface Figures {
  calls: number;
  rejected: number;
  answers: { calls: number; found: number; total: number; excluded: number };
  state: { calls: number; changed: number; right: number };
  dependentReads: { reads: number; right: number };
  errors: { real: number; answered: number };
  falseErrors: { realOk: number; toolsimErr: number };
  probes: { made: number; realErrors: number; answered: number; realOk: number; falseErrors: number };
  /** Calls whose answer and state changes match the real implementation (verdict precision). */
  matching: { calls: number; matched: number };
  /** Paths of real answer leaves and state changes left out as random, with how often. */
  random: Record<string, number>;
  misses: Miss[];
}

export function emptyFigures(): Figures {
  return {
    calls: 0,
    rejected: 0,
    answers: { calls: 0, found: 0, total: 0, excluded: 0 },
    state: { calls: 0, changed: 0, right: 0 },
    dependentReads: { reads: 0, right: 0 },
    errors: { real: 0, answered: 0 },
    falseErrors: { realOk: 0, toolsimErr: 0 },
    probes: { made: 0, realErrors: 0, answered: 0, realOk: 0, falseErrors: 0 },
    matching: { calls: 0, matched: 0 },
    random: {},
    misses: [],
  };
}

const MISSES_PER_KIND = 3;

export function addMiss(figures: Figures, miss: Miss): void {
  if (figures.misses.filter((m) => m.kind === miss.kind).length < MISSES_PER_KIND) figures.misses.push(miss);
}

/** Notes leaves left out as random (`answer` or `state` paths). */
export function addRandom(figures: Figures, where: "answer" | "state", paths: Iterable<string>): void {
  for (const path of paths) {
    // list indexes and keys holding an id (four digits or more) are written alike
    const general = path
      .replace(/\[\d+\]/g, "[n]")
      .split(".")
      .map((segment) => (/\d{4,}/.test(segment) ? "{id}" : segment))
      .join(".");
    const key = `${where} ${general}`;
    figures.random[key] = (figures.random[key] ?? 0) + 1;
  }
}

/** Adds one scored call to a tool's figures. */
export function addCall(figures: Figures, real: RealCall, score: CallScore, toolsimValue: unknown): void {
  const where = { task: real.task, step: real.step };
  const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 240);
  figures.calls++;
  if (score.rejected) figures.rejected++;
  figures.answers.excluded += score.excludedLeaves;
  if (score.realError) {
    figures.errors.real++;
    if (score.toolsimError) figures.errors.answered++;
    else
      addMiss(figures, {
        kind: "real error answered as success",
        ...where,
        detail: { real: shown(real.answer), toolsim: shown(toolsimValue) },
      });
  } else {
    figures.falseErrors.realOk++;
    if (score.toolsimError) {
      figures.falseErrors.toolsimErr++;
      addMiss(figures, {
        kind: "false error",
        ...where,
        detail: { arguments: real.arguments, toolsim: shown(toolsimValue) },
      });
    }
  }
  if (score.leaves && score.leaves.total > 0) {
    figures.answers.calls++;
    figures.answers.found += score.leaves.found;
    figures.answers.total += score.leaves.total;
    if (score.leaves.found < score.leaves.total && !score.toolsimError)
      addMiss(figures, {
        kind: "answer leaves missing",
        ...where,
        detail: {
          found: score.leaves.found,
          of: score.leaves.total,
          real: shown(real.answer),
          toolsim: shown(toolsimValue),
        },
      });
  }
  if (score.changes > 0) {
    figures.state.calls++;
    figures.state.changed += score.changes;
    figures.state.right += score.changesRight;
  }
  if (score.dependentRead !== undefined) {
    figures.dependentReads.reads++;
    if (score.dependentRead) figures.dependentReads.right++;
    else
      addMiss(figures, {
        kind: "later read does not see the earlier calls",
        ...where,
        detail: { arguments: real.arguments, real: shown(real.answer), toolsim: shown(toolsimValue) },
      });
  }
  figures.matching.calls++;
  if (score.match) figures.matching.matched++;
}

/** The changes toolsim did not make, as a miss (a few paths with both values). */
export function addStateMiss(
  figures: Figures,
  real: RealCall,
  changes: readonly Change[],
  made: readonly Change[],
  toolsimState: unknown,
): void {
  if (made.length === changes.length) return;
  const have = leavesOf(toolsimState);
  const missed = changes.filter((change) => !made.includes(change)).slice(0, 4);
  addMiss(figures, {
    kind: "state change not made",
    task: real.task,
    step: real.step,
    detail: {
      arguments: real.arguments,
      made: `${made.length}/${changes.length}`,
      leaves: missed.map((c) => ({
        path: c.path,
        real: c.real === undefined ? "(removed)" : JSON.stringify(c.real)?.slice(0, 80),
        toolsim: have.has(c.path) ? JSON.stringify(have.get(c.path))?.slice(0, 80) : "(absent)",
      })),
    },
  });
}

/** Adds one probe: the real answer's error against toolsim's. */
export function addProbe(
  figures: Figures,
  probe: ProbeRequest,
  realError: boolean,
  realAnswer: unknown,
  toolsim: Answer,
): void {
  figures.probes.made++;
  figures.matching.calls++;
  if (realError === toolsim.isError) figures.matching.matched++;
  const detail = {
    arguments: probe.arguments,
    real: JSON.stringify(realAnswer)?.slice(0, 200),
    toolsim: JSON.stringify(toolsim.value)?.slice(0, 200),
  };
  if (realError) {
    figures.probes.realErrors++;
    figures.errors.real++;
    if (toolsim.isError) {
      figures.probes.answered++;
      figures.errors.answered++;
    } else
      addMiss(figures, {
        kind: "unknown value answered as success",
        task: probe.task,
        step: probe.step,
        detail,
      });
  } else {
    figures.probes.realOk++;
    figures.falseErrors.realOk++;
    if (toolsim.isError) {
      figures.probes.falseErrors++;
      figures.falseErrors.toolsimErr++;
      addMiss(figures, { kind: "false error on a probe", task: probe.task, step: probe.step, detail });
    }
  }
}

/** Every counter summed; the misses of each part kept. */
export function sumFigures(parts: readonly Figures[]): Figures {
  const total = emptyFigures();
  for (const part of parts) {
    total.calls += part.calls;
    total.rejected += part.rejected;
    for (const group of [
      "answers",
      "state",
      "dependentReads",
      "errors",
      "falseErrors",
      "probes",
      "matching",
    ] as const) {
      const into = total[group] as unknown as Record<string, number>;
      for (const [key, value] of Object.entries(part[group])) into[key] = (into[key] ?? 0) + value;
    }
    for (const [path, count] of Object.entries(part.random))
      total.random[path] = (total.random[path] ?? 0) + count;
    total.misses.push(...part.misses);
  }
  return total;
}

/** A tool matches the real implementation when every one of its calls does. */
export function toolMatches(figures: Figures): boolean {
  return figures.matching.calls > 0 && figures.matching.matched === figures.matching.calls;
}
