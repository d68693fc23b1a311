import { isPlainObject, type Patch } from "../patch/index.js";
import { State, type StateDocument } from "../state/index.js";

/**
 * The simulated clock lives in the state (`runtime.now`) and moves one minute per change
 * of state, so timestamps look real and the same call on the same state gives the same
 * bytes.
 */
export const DEFAULT_NOW = "2026-03-02T09:00:00Z";
const CLOCK_STEP_MS = 60_000;

/** The simulated clock of a state (persistent or plain), or the default start of time. */
export function clockOf(state: State | StateDocument): string {
  const runtime = state instanceof State ? state.runtime : state.runtime;
  const now = isPlainObject(runtime) ? runtime.now : undefined;
  return typeof now === "string" && !Number.isNaN(Date.parse(now)) ? now : DEFAULT_NOW;
}

/** The patch that moves the clock one step: every change of state takes a little simulated time. */
export function clockTick(state: State, now: string): Patch {
  const next = new Date(Date.parse(now) + CLOCK_STEP_MS).toISOString().replace(".000Z", "Z");
  if (state.collection("runtime")) {
    return [
      { op: state.collection("runtime")?.has("now") ? "replace" : "add", path: "/runtime/now", value: next },
    ];
  }
  return [{ op: "add", path: "/runtime", value: { now: next } }];
}
