import type { RunAttemptRecord, RunRecord, RunStatus, Store } from "../store/index.js";
import { type AttemptEnvironment, type AttemptResult, runAttempt } from "./attempt.js";
import { attemptKey, type PlannedAttempt } from "./plan.js";
import type { ProgressLine } from "./progress.js";

export interface RunnerOptions {
  concurrency: number;
  /** Aborted to stop the run (Ctrl-C): running attempts stop, finished ones are kept. */
  signal: AbortSignal;
  progress?: ProgressLine;
}

export interface RunEnd {
  status: RunStatus;
  /** Why the run stopped before its end. */
  note?: string;
  /** Attempts finished by this call. */
  ran: number;
}

/**
 * Works a run's planned attempts that have no result yet (or ended in an error), at most
 * `concurrency` at once, and records each as it ends, so a run stopped in any way (Ctrl-C,
 * a fatal error, a killed process) keeps every finished attempt and `--resume` runs the rest.
 */
export async function executeRun(
  env: AttemptEnvironment,
  run: RunRecord,
  planned: readonly PlannedAttempt[],
  options: RunnerOptions,
): Promise<RunEnd> {
  const store = env.store;
  const kept = new Map((await store.runAttempts(run.id)).map((a) => [attemptKey(a), a]));
  const queue: PlannedAttempt[] = [];
  for (const attempt of planned) {
    const record = kept.get(attemptKey(attempt));
    if (record && record.outcome !== "error") options.progress?.count(resultOf(record));
    else queue.push(attempt);
  }
  options.progress?.show(true);
  await store.setRunStatus(run.id, "running");
  const stop = new AbortController();
  const onSignal = () => stop.abort(options.signal.reason);
  options.signal.addEventListener("abort", onSignal, { once: true });
  if (options.signal.aborted) stop.abort();
  let fatal: string | undefined;
  let ran = 0;
  const worker = async () => {
    for (let next = queue.shift(); next && !stop.signal.aborted; next = queue.shift()) {
      let outcome: Awaited<ReturnType<typeof runAttempt>>;
      try {
        outcome = await runAttempt(env, next, stop.signal);
      } catch (error) {
        // a broken environment (the store gone, a bug): the run stops, what finished stays
        fatal ??= `attempt ${next.attempt} of ${next.taskId} failed: ${error instanceof Error ? error.message : String(error)}`;
        stop.abort();
        continue;
      }
      if (outcome.kind === "stopped") {
        if (outcome.problem.fatal && !fatal) {
          fatal = outcome.problem.message;
          stop.abort();
        }
        continue;
      }
      // recorded even while the run is stopping: a finished attempt is never lost
      await recordResult(store, run.id, outcome.result);
      ran++;
      options.progress?.finished(outcome.result);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(options.concurrency, queue.length)) }, worker),
    );
  } finally {
    options.signal.removeEventListener("abort", onSignal);
    options.progress?.end();
  }
  const end: RunEnd = fatal
    ? { status: "failed", note: fatal, ran }
    : stop.signal.aborted
      ? { status: "interrupted", note: "stopped by the user", ran }
      : { status: "finished", ran };
  await store.setRunStatus(run.id, end.status, end.note);
  return end;
}

function recordResult(store: Store, runId: string, result: AttemptResult) {
  return store.recordAttempt({
    runId,
    taskId: result.task,
    attempt: result.attempt,
    sessionId: result.sessionId,
    sessionName: result.session,
    outcome: result.outcome,
    result,
  });
}

/** A stored attempt's result, as the runner wrote it. */
export function resultOf(record: RunAttemptRecord): AttemptResult {
  return record.result as AttemptResult;
}

/** The run's stored results task by task (in the run's task order), attempt by attempt; unfinished ones left out. */
export async function storedResults(
  store: Store,
  runId: string,
  taskIds: readonly string[],
  k: number,
): Promise<AttemptResult[]> {
  const stored = new Map((await store.runAttempts(runId)).map((a) => [attemptKey(a), a]));
  const ordered: AttemptResult[] = [];
  for (const taskId of taskIds) {
    for (let attempt = 1; attempt <= k; attempt++) {
      const record = stored.get(attemptKey({ taskId, attempt }));
      if (record) ordered.push(resultOf(record));
    }
  }
  return ordered;
}
