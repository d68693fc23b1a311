import type { CallRecord } from "../store/index.js";

/**
 * The versions the head descends from, back to where the current attempt began (the task
 * start, a reset, or a fork's copy: a version that no call made). Versions made by calls are
 * known from the calls themselves (before → after).
 */
export function attemptVersions(calls: readonly CallRecord[], headVersion: number): Set<number> {
  const madeBy = new Map<number, number>();
  for (const call of calls) {
    if (call.versionAfter !== call.versionBefore) madeBy.set(call.versionAfter, call.versionBefore);
  }
  const lineage = new Set<number>();
  let cursor: number | undefined = headVersion;
  while (cursor !== undefined && !lineage.has(cursor)) {
    lineage.add(cursor);
    cursor = madeBy.get(cursor);
  }
  return lineage;
}

/**
 * The calls that led to the current state. A write undone by a restore is not part of it
 * (the call log keeps it; the judge does not count it), and neither is anything before a reset.
 */
export function episodeCalls(calls: readonly CallRecord[], headVersion: number): CallRecord[] {
  const lineage = attemptVersions(calls, headVersion);
  return calls.filter((call) => lineage.has(call.versionBefore) && lineage.has(call.versionAfter));
}
