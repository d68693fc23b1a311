import type { Effect, TemplateScope, Tool } from "../../catalog/index.js";
import type { Patch, PatchOperation } from "../../patch/index.js";
import type { ToolFailure } from "../../simulate/index.js";
import type { State } from "../../state/index.js";
import { applyChanges } from "../state-access.js";

/** One call's effects as they run: the state so far, the patch, the result being built. */
export interface Run {
  tool: Tool;
  state: State;
  patch: Patch;
  output: Record<string, unknown>;
  /** A whole result that is not an object, decided by a `respond`. */
  whole?: { value: unknown };
  touched: string[];
  scope: TemplateScope;
  /** The effect running, for messages and its `computeError`. */
  effect: Effect;
  index: number;
  /** What the running effect reached (`$subject`), once it has reached it. */
  subject?: unknown;
}

/** An effect that ran, with what it produced (the entity, the list, the value). */
export type Ran = { value: unknown } | undefined;

/** Raised inside the effects run when an effect answers with a documented error. */
export class EffectFailure {
  constructor(readonly failure: ToolFailure) {}
}

/** Raised when an effect cannot run as written (an expression fails): the catalog's fault. */
export class EffectBroken {
  constructor(readonly reason: string) {}
}

/** Applies changes to the run's state and remembers them for the call's patch. */
export function commit(run: Run, ops: Patch, touched: string): void {
  run.state = applyChanges(run.state, ops);
  run.patch.push(...(ops as PatchOperation[]));
  run.touched.push(touched);
}
