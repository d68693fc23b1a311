import { FINDING_CODES, FINDING_NAMES, type FindingCode } from "../engine/index.js";
import type { FaultCounts } from "../faults/index.js";
import type { AttemptOutcome, RunStatus, Usage } from "../store/index.js";
import type { AttemptResult, AttemptUsage } from "./attempt.js";
import { runFaults } from "./faults.js";

/** US dollars per million tokens, in and out. */
export interface Price {
  input: number;
  output: number;
}

/** Which model played each part, so tokens can be priced. */
export interface RunModels {
  agent?: string;
  user?: string;
  judge?: string;
  simulator?: string;
}

export type Role = keyof AttemptUsage;
const ROLES: readonly Role[] = ["agent", "user", "judge", "simulator"];

/** What an attempt's tokens cost, when every model that spent some has a price; undefined otherwise. */
export function attemptCost(
  usage: AttemptUsage,
  models: RunModels,
  prices: ReadonlyMap<string, Price>,
): number | undefined {
  const cost = costOf(
    (role) => ({ prompt: usage[role].promptTokens, completion: usage[role].completionTokens }),
    models,
    prices,
  );
  return cost === undefined ? undefined : roundTo(cost, 6);
}

function costOf(
  tokens: (role: Role) => { prompt: number; completion: number },
  models: RunModels,
  prices: ReadonlyMap<string, Price>,
): number | undefined {
  let total = 0;
  for (const role of ROLES) {
    const spent = tokens(role);
    if (spent.prompt + spent.completion === 0) continue;
    const model = models[role];
    const price = model === undefined ? undefined : prices.get(model);
    if (!price) return undefined;
    total += (spent.prompt * price.input + spent.completion * price.output) / 1_000_000;
  }
  return total;
}

/**
 * The attempt as one line of the results JSONL: what was judged and what it cost, without
 * wall times, so the same seed and the same (scripted) model give the same bytes.
 */
export function resultRow(
  runId: string,
  result: AttemptResult,
  models: RunModels,
  prices: ReadonlyMap<string, Price>,
): Record<string, unknown> {
  const cost = attemptCost(result.usage, models, prices);
  return {
    run: runId,
    task: result.task,
    attempt: result.attempt,
    session: result.session,
    outcome: result.outcome,
    firstTry: result.firstTry,
    tries: result.tries.length,
    reward: result.reward,
    judge: result.verdict?.judge ?? null,
    solved: result.verdict?.solved ?? null,
    progress: result.verdict?.progress ?? null,
    infeasibleDeclared: result.verdict?.infeasibleDeclared ?? false,
    calls: result.calls,
    toolscan: result.toolscan,
    ...(result.faults ? { faults: result.faults } : {}),
    tokens: Object.fromEntries(
      ROLES.map((role) => [role, tokensOf(result.usage[role])]).filter(([, t]) => t !== undefined),
    ),
    ...(cost !== undefined ? { cost } : {}),
    steps: result.steps,
    turns: result.turns,
    stoppedBy: result.stoppedBy ?? null,
    answer: result.answer ?? null,
    error: result.error ?? null,
  };
}

function tokensOf(usage: Usage): { prompt: number; completion: number; requests: number } | undefined {
  if (usage.requests === 0 && usage.promptTokens + usage.completionTokens === 0) return undefined;
  return { prompt: usage.promptTokens, completion: usage.completionTokens, requests: usage.requests };
}

/** pass^j and pass@j for j = 1..k, over the tasks with at least j judged attempts. */
export interface PassRates {
  /** [pass^1, pass^2, ...]: the chance that j attempts all pass; null where no task has j attempts. */
  passHat: Array<number | null>;
  /** [pass@1, pass@2, ...]: the chance that at least one of j attempts passes. */
  passAt: Array<number | null>;
}

export interface TaskFigures extends PassRates {
  task: string;
  attempts: number;
  passed: number;
  failed: number;
  error: number;
  unjudged: number;
  /** Passed on the first try (before any feedback). */
  firstTryPassed: number;
}

export interface RunSummary {
  run: string;
  status: RunStatus;
  note: string | null;
  agent: string;
  /** An agent command's own model requests are not seen: its tokens are not in `tokens.agent`. */
  agentTokens: "counted" | "not seen";
  seed: string;
  k: number;
  feedbackRetries: number;
  tasks: number;
  attempts: {
    planned: number;
    finished: number;
    passed: number;
    failed: number;
    error: number;
    unjudged: number;
  };
  /** Final outcomes (after feedback retries, when there are any). */
  overall: PassRates;
  /** Outcomes of the first tries only: present when feedback retries were allowed. */
  firstTry?: PassRates;
  perTask: TaskFigures[];
  toolscan: Array<{ code: FindingCode; name: string; count: number; rate: number }>;
  calls: { total: number; ok: number; error: number; rejected: number; perAttempt: Spread };
  tokens: Record<Role, { prompt: number; completion: number; requests: number }>;
  /** US dollars, when every model that spent tokens has a price. */
  cost?: number;
  latency: { attemptMs: Spread; modelRequestMeanMs: number | null };
  /** The fault profile `--faults` named for every attempt; absent: each task's own, if any. */
  faultProfile?: string;
  /**
   * Per fault kind, how the agent met the faults injected on purpose, summed over the
   * attempts as `toolsim report` counts each; present when any attempt met one.
   */
  faults?: FaultCounts;
  errors: Array<{ task: string; attempt: number; session: string; kind: string; message: string }>;
}

export interface Spread {
  mean: number;
  median: number;
  p95: number;
  max: number;
}

/** Everything a run's attempts add up to, per task and overall. */
export function summarize(input: {
  runId: string;
  status: RunStatus;
  note: string | null;
  agent: string;
  agentTokens: RunSummary["agentTokens"];
  seed: string;
  k: number;
  feedbackRetries: number;
  taskIds: readonly string[];
  planned: number;
  results: readonly AttemptResult[];
  models: RunModels;
  prices: ReadonlyMap<string, Price>;
  /** What `--faults` named, when it was given. */
  faultProfile?: string;
}): RunSummary {
  const { results, k } = input;
  const byTask = new Map<string, AttemptResult[]>(input.taskIds.map((id) => [id, []]));
  for (const result of results) byTask.get(result.task)?.push(result);
  const perTask = [...byTask].map(([task, attempts]) => taskFigures(task, attempts, k, (r) => r.outcome));
  const firstTries = [...byTask].map(([task, attempts]) => taskFigures(task, attempts, k, (r) => r.firstTry));
  const count = (outcome: AttemptOutcome) => results.filter((r) => r.outcome === outcome).length;
  const calls = {
    total: sum(results, (r) => r.calls.total),
    ok: sum(results, (r) => r.calls.ok),
    error: sum(results, (r) => r.calls.error),
    rejected: sum(results, (r) => r.calls.rejected),
  };
  const tokens = Object.fromEntries(
    ROLES.map((role) => [
      role,
      {
        prompt: sum(results, (r) => r.usage[role].promptTokens),
        completion: sum(results, (r) => r.usage[role].completionTokens),
        requests: sum(results, (r) => r.usage[role].requests),
      },
    ]),
  ) as RunSummary["tokens"];
  const cost = results.length ? costOf((role) => tokens[role], input.models, input.prices) : undefined;
  const modelRequests = sum(results, (r) => r.usage.agent.requests + r.usage.user.requests);
  const modelMs = sum(results, (r) => r.usage.agent.latencyMs + r.usage.user.latencyMs);
  const steps = results
    .filter((r) => r.verdict && r.verdict.judge !== "none")
    .map((r) => r.verdict?.progress);
  const undone = sum(results, (r) => r.toolscan.IAC);
  const stepTotal = sum(steps, (p) => p?.total ?? 0);
  const faults = runFaults(results.map((r) => r.faults));
  return {
    run: input.runId,
    status: input.status,
    note: input.note,
    agent: input.agent,
    agentTokens: input.agentTokens,
    seed: input.seed,
    k,
    feedbackRetries: input.feedbackRetries,
    tasks: input.taskIds.length,
    attempts: {
      planned: input.planned,
      finished: results.length,
      passed: count("passed"),
      failed: count("failed"),
      error: count("error"),
      unjudged: count("unjudged"),
    },
    overall: averageRates(perTask, k),
    ...(input.feedbackRetries > 0 ? { firstTry: averageRates(firstTries, k) } : {}),
    perTask,
    toolscan: FINDING_CODES.map((code) => {
      const counted = code === "IAC" ? undone : sum(results, (r) => r.toolscan[code]);
      const base = code === "IAC" ? stepTotal : calls.total;
      return { code, name: FINDING_NAMES[code], count: counted, rate: base ? roundTo(counted / base, 4) : 0 };
    }),
    calls: { ...calls, perAttempt: spread(results.map((r) => r.calls.total)) },
    tokens,
    ...(cost !== undefined ? { cost: roundTo(cost, 6) } : {}),
    latency: {
      attemptMs: spread(results.map((r) => r.durationMs)),
      modelRequestMeanMs: modelRequests ? roundTo(modelMs / modelRequests, 1) : null,
    },
    ...(input.faultProfile !== undefined ? { faultProfile: input.faultProfile } : {}),
    ...(faults ? { faults } : {}),
    errors: results
      .filter((r) => r.error)
      .map((r) => ({
        task: r.task,
        attempt: r.attempt,
        session: r.session,
        kind: r.error?.kind ?? "",
        message: r.error?.message ?? "",
      })),
  };
}

/**
 * A task's figures: an error counts as not passed (it is reported apart too); an unjudged
 * attempt (no solution and no judge model) counts for nothing.
 */
function taskFigures(
  task: string,
  attempts: readonly AttemptResult[],
  k: number,
  outcomeOf: (result: AttemptResult) => AttemptOutcome,
): TaskFigures {
  const outcomes = attempts.map(outcomeOf);
  const passed = outcomes.filter((o) => o === "passed").length;
  const judged = outcomes.filter((o) => o !== "unjudged").length;
  const passHat: Array<number | null> = [];
  const passAt: Array<number | null> = [];
  for (let j = 1; j <= k; j++) {
    passHat.push(judged >= j ? choose(passed, j) / choose(judged, j) : null);
    passAt.push(judged >= j ? 1 - choose(judged - passed, j) / choose(judged, j) : null);
  }
  return {
    task,
    attempts: attempts.length,
    passed,
    failed: outcomes.filter((o) => o === "failed").length,
    error: outcomes.filter((o) => o === "error").length,
    unjudged: outcomes.filter((o) => o === "unjudged").length,
    firstTryPassed: attempts.filter((a) => a.firstTry === "passed").length,
    passHat,
    passAt,
  };
}

function averageRates(tasks: readonly TaskFigures[], k: number): PassRates {
  const average = (pick: (t: TaskFigures) => number | null) => {
    const values = tasks.map(pick).filter((v): v is number => v !== null);
    return values.length ? roundTo(values.reduce((a, b) => a + b, 0) / values.length, 4) : null;
  };
  const passHat: Array<number | null> = [];
  const passAt: Array<number | null> = [];
  for (let j = 0; j < k; j++) {
    passHat.push(average((t) => t.passHat[j] ?? null));
    passAt.push(average((t) => t.passAt[j] ?? null));
  }
  return { passHat, passAt };
}

/** n choose k, exactly for the small numbers a run has. */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, median: 0, p95: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return {
    mean: roundTo(sorted.reduce((a, b) => a + b, 0) / sorted.length, 1),
    median: roundTo(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, 1),
    p95: roundTo(at(0.95), 1),
    max: roundTo(sorted.at(-1) ?? 0, 1),
  };
}

function sum<T>(items: readonly T[], pick: (item: T) => number): number {
  return items.reduce((total, item) => total + pick(item), 0);
}

export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
