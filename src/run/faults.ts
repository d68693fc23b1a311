import type { FaultProfile } from "../catalog/index.js";
import {
  addFaultCounts,
  type CountedCall,
  countFaults,
  emptyFaultCounts,
  type FaultCounts,
  type FaultPlan,
  type ResolvedProfile,
} from "../faults/index.js";
import type { SessionRecord } from "../store/index.js";
import type { PlannedAttempt } from "./plan.js";

/**
 * What `--faults` said, as a run stores it to resume the same way: the value given (for
 * people), and "none", a built-in profile's name or the profile a file held (so a resumed
 * run meets the same profile even if the file changed or moved).
 */
export interface RunFaults {
  given: string;
  setting: string | FaultProfile;
}

/**
 * Gives an attempt's session the profile it meets: the run's (`--faults`), else its task's
 * own, with every rule's seed joined to the task and the attempt. Attempts of one run then
 * meet different faults, and the same `--seed` gives every attempt the same faults again
 * (a resumed attempt's new session included).
 */
export function assignAttemptFaults(
  plan: FaultPlan,
  session: SessionRecord,
  attempt: PlannedAttempt,
  catalog: Parameters<FaultPlan["profileFor"]>[1],
): void {
  const base = plan.profileFor({ id: session.id, taskId: session.taskId }, catalog);
  plan.assign(session.id, base ? attemptProfile(base, attempt) : null);
}

/** A profile whose rules draw apart for each attempt: their seeds joined to the task and the attempt. */
export function attemptProfile(profile: ResolvedProfile, attempt: PlannedAttempt): ResolvedProfile {
  return {
    name: profile.name,
    rules: profile.rules.map((rule) => ({
      ...rule,
      seed: `${rule.seed}/${attempt.taskId}/${attempt.attempt}`,
    })),
  };
}

/**
 * How the agent met the faults of an attempt, counted as `toolsim report` counts a session:
 * from every call of its session and the final verdict. Undefined when no fault was injected.
 */
export function attemptFaults(
  calls: readonly CountedCall[],
  verdict: { solved: boolean | null } | undefined,
  answer: string | undefined,
): FaultCounts | undefined {
  if (!calls.some((call) => call.fault)) return undefined;
  return countFaults(
    calls,
    verdict ? { solved: verdict.solved, ...(answer !== undefined ? { answer } : {}) } : undefined,
  );
}

/** The attempts' counts summed; undefined when none met a fault. */
export function runFaults(counts: ReadonlyArray<FaultCounts | undefined>): FaultCounts | undefined {
  const met = counts.filter((c): c is FaultCounts => c !== undefined);
  return met.length ? met.reduce(addFaultCounts, emptyFaultCounts()) : undefined;
}
