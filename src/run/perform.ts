import type { Catalog } from "../catalog/index.js";
import type { ResolvedProfile } from "../faults/index.js";
import type { LlmConfig } from "../llm/index.js";
import type { RunRecord, SessionRecord, Store } from "../store/index.js";
import type { AttemptResult } from "./attempt.js";
import { openRunEnvironment } from "./environment.js";
import type { PlannedAttempt } from "./plan.js";
import { ProgressLine } from "./progress.js";
import { type Price, type RunModels, type RunSummary, summarize } from "./results.js";
import { executeRun, type RunEnd, storedResults } from "./runner.js";
import type { StoredPlan } from "./stored.js";

export interface PerformInput {
  store: Store;
  catalog: Catalog;
  run: RunRecord;
  plan: StoredPlan;
  endpoint: Pick<LlmConfig, "baseURL" | "apiKey" | "concurrency">;
  concurrency: number;
  /** Stops the run (Ctrl-C); finished attempts are kept. */
  signal: AbortSignal;
  /** The environment an agent command starts from. */
  processEnv: NodeJS.ProcessEnv;
  /** The live progress line; absent: none. */
  progress?: { write: (text: string) => void; tty: boolean; intervalMs?: number };
  log?: (line: string) => void;
  /** The profile the run's `--faults` names, checked against the catalog (see EnvironmentInput.faults). */
  faults?: ResolvedProfile | null;
  prepareSession?: (session: SessionRecord, attempt: PlannedAttempt) => Promise<void>;
  retryBaseMs?: number;
}

export interface Performed {
  end: RunEnd;
  summary: RunSummary;
  /** Every finished attempt of the run (this time's and before), task by task. */
  results: AttemptResult[];
  agent: string;
}

/** Runs what a run still misses, then adds up all of its attempts. */
export async function performRun(input: PerformInput): Promise<Performed> {
  const { plan, run, store } = input;
  const models = runModels(plan);
  const prices = priceMap(plan.settings.prices);
  let progress: ProgressLine | undefined;
  const environment = await openRunEnvironment({
    runId: run.id,
    settings: plan.settings,
    catalog: input.catalog,
    store,
    endpoint: input.endpoint,
    concurrency: input.concurrency,
    processEnv: input.processEnv,
    onRetry: (notice) =>
      progress?.remark(
        `retrying a model request (${notice.status ?? "no answer"}) in ${(notice.waitMs / 1000).toFixed(1)} s`,
      ),
    log: input.log,
    ...(input.faults !== undefined ? { faults: input.faults } : {}),
    prepareSession: input.prepareSession,
    retryBaseMs: input.retryBaseMs,
  });
  progress = input.progress
    ? new ProgressLine({ runId: run.id, total: plan.attempts.length, models, prices, ...input.progress })
    : undefined;
  let end: RunEnd;
  try {
    end = await executeRun(environment.attempts, run, plan.attempts, {
      concurrency: input.concurrency,
      signal: input.signal,
      progress,
    });
  } finally {
    await environment.close();
  }
  const summary = await summaryOf(
    store,
    run.id,
    plan,
    end.status,
    end.note ?? null,
    environment.attempts.agent.description,
  );
  const results = await storedResults(store, run.id, plan.taskIds, plan.k);
  return { end, summary, results, agent: environment.attempts.agent.description };
}

/** The summary of a run's stored attempts. */
export async function summaryOf(
  store: Store,
  runId: string,
  plan: StoredPlan,
  status: RunRecord["status"],
  note: string | null,
  agent: string,
): Promise<RunSummary> {
  return summarize({
    runId,
    status,
    note,
    agent,
    agentTokens: plan.settings.agent.kind === "model" ? "counted" : "not seen",
    seed: plan.settings.seed,
    k: plan.k,
    feedbackRetries: plan.settings.feedbackRetries,
    taskIds: plan.taskIds,
    planned: plan.attempts.length,
    results: await storedResults(store, runId, plan.taskIds, plan.k),
    models: runModels(plan),
    prices: priceMap(plan.settings.prices),
    ...(plan.settings.faults ? { faultProfile: plan.settings.faults.given } : {}),
  });
}

/** Which model played each part of a run. */
export function runModels(plan: StoredPlan): RunModels {
  const { settings } = plan;
  return {
    ...(settings.agent.kind === "model" ? { agent: settings.agent.model } : {}),
    ...(settings.userModel ? { user: settings.userModel } : {}),
    ...(settings.judgeModel ? { judge: settings.judgeModel } : {}),
    ...(settings.engine === "llm" && settings.simModel ? { simulator: settings.simModel } : {}),
  };
}

export function priceMap(prices: Record<string, Price>): Map<string, Price> {
  return new Map(Object.entries(prices));
}

/** How the agent is described without starting it (a run read back from the store). */
export function describeAgent(plan: StoredPlan): string {
  const agent = plan.settings.agent;
  if (agent.kind === "command") return `command ${agent.command}`;
  return `model ${agent.model} at ${plan.settings.baseURL ?? "api.openai.com"} (built-in agent)`;
}
