import { createHash } from "node:crypto";
import type { Catalog } from "../catalog/index.js";

/** One attempt of one task: the n-th (from 1) of the task's k. */
export interface PlannedAttempt {
  taskId: string;
  attempt: number;
}

export type TaskSelection = { ok: true; taskIds: string[] } | { ok: false; error: string };

/**
 * The tasks a run works: every task of the catalog, or those the patterns name (an id, or a
 * pattern with `*` for any run of characters: `ecom-*`). A pattern that matches nothing is
 * an error naming the tasks there are, so a typo never runs an empty set.
 */
export function selectTasks(catalog: Catalog, patterns: readonly string[] = []): TaskSelection {
  const ids = catalog.allTasks().map((t) => t.task.id);
  if (ids.length === 0) {
    return {
      ok: false,
      error: "the loaded catalog has no tasks; load toolsets with tasks (--toolsets PATH)",
    };
  }
  if (patterns.length === 0) return { ok: true, taskIds: ids };
  const chosen = new Set<string>();
  for (const pattern of patterns) {
    const matcher = patternMatcher(pattern);
    const matched = ids.filter((id) => matcher(id));
    if (matched.length === 0) {
      return {
        ok: false,
        error: `--tasks ${pattern} matches no task of the loaded catalog. Tasks: ${ids.join(", ")}`,
      };
    }
    for (const id of matched) chosen.add(id);
  }
  return { ok: true, taskIds: ids.filter((id) => chosen.has(id)) };
}

function patternMatcher(pattern: string): (id: string) => boolean {
  if (!pattern.includes("*")) return (id) => id === pattern;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${source}$`);
  return (id) => regex.test(id);
}

/**
 * The order attempts run in: round by round (every task's first attempt, then every task's
 * second, ...), the tasks of each round in an order the seed decides. An interrupted run
 * has then tried every task about as often, and the pass rate so far is not one task's.
 * Same seed, same tasks: same order.
 */
export function planAttempts(taskIds: readonly string[], k: number, seed: string): PlannedAttempt[] {
  const attempts: PlannedAttempt[] = [];
  for (let attempt = 1; attempt <= k; attempt++) {
    const ranked = taskIds.map((taskId) => ({ taskId, rank: rank(seed, taskId, attempt) }));
    ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.taskId < b.taskId ? -1 : 1));
    for (const { taskId } of ranked) attempts.push({ taskId, attempt });
  }
  return attempts;
}

function rank(seed: string, taskId: string, attempt: number): string {
  return createHash("sha256").update(`${seed}\u0000${taskId}\u0000${attempt}`).digest("hex");
}

/** The session an attempt works in: named after the run, the task and the attempt. */
export function attemptSessionName(runId: string, attempt: PlannedAttempt): string {
  return `${runId}/${attempt.taskId}/${attempt.attempt}`;
}

/** A key of an attempt within a run, for maps. */
export function attemptKey(attempt: PlannedAttempt): string {
  return `${attempt.taskId}\u0000${attempt.attempt}`;
}

/**
 * A whole number from the run's seed and the attempt's place (and the step within it), for
 * model requests that take a sampling seed: the same run asks the same way again.
 */
export function samplingSeed(seed: string, ...parts: Array<string | number>): number {
  const digest = createHash("sha256")
    .update([seed, ...parts].join("\u0000"))
    .digest();
  return digest.readUInt32BE(0) & 0x7fffffff;
}
