import { isPlainObject } from "../patch/index.js";
import type { RunRecord } from "../store/index.js";
import type { RunSettings } from "./environment.js";
import type { PlannedAttempt } from "./plan.js";

/** What a run stores of itself: its tasks, k, the order of its attempts and its settings. */
export interface StoredPlan {
  version: 1;
  taskIds: string[];
  k: number;
  attempts: PlannedAttempt[];
  settings: RunSettings;
}

export type PlanRead = { ok: true; plan: StoredPlan } | { ok: false; error: string };

/** The plan a run was stored with, or why this toolsim cannot resume it. */
export function readPlan(run: RunRecord): PlanRead {
  const plan = run.plan;
  if (!isPlainObject(plan) || plan.version !== 1) {
    return {
      ok: false,
      error: `run ${run.id} was stored by another version of toolsim (plan version ${isPlainObject(plan) ? String(plan.version) : "unknown"}); this one reads version 1`,
    };
  }
  const { taskIds, k, attempts, settings } = plan;
  if (
    !Array.isArray(taskIds) ||
    typeof k !== "number" ||
    !Array.isArray(attempts) ||
    !isPlainObject(settings) ||
    !isPlainObject(settings.agent)
  ) {
    return {
      ok: false,
      error: `run ${run.id} has an incomplete plan in the store (taskIds, k, attempts, settings)`,
    };
  }
  return { ok: true, plan: plan as unknown as StoredPlan };
}
