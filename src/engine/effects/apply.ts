import type { Effect, Tool } from "../../catalog/index.js";
import { ABSENT } from "../../catalog/index.js";
import { truthy } from "../../expr/index.js";
import { isPlainObject } from "../../patch/index.js";
import type { EffectsResult } from "../../simulate/index.js";
import { State, type StateDocument } from "../../state/index.js";
import { changeSubject, createValue, listEntities } from "./entities.js";
import { brokenEffect } from "./failures.js";
import { checkGuards } from "./guards.js";
import { place } from "./paths.js";
import { EffectBroken, EffectFailure, type Ran, type Run } from "./run.js";
import { runTree } from "./tree.js";
import { evaluate, resolve } from "./values.js";

/**
 * Runs a tool's declared effects against the state, in order. The first effect that fails
 * answers the call with a documented error and nothing is applied; otherwise the result
 * carries the patch, the result fragments and the entities touched.
 */
export async function runEffects(
  tool: Tool,
  args: Record<string, unknown>,
  state: State | StateDocument,
  now: string,
): Promise<EffectsResult> {
  // a plain document (an audit case, a task's state) is copied: the effects never change what they are given
  const persistent = state instanceof State ? state : State.fromDocument(structuredClone(state));
  return (await applyEffects(tool, args, persistent, now)).effects;
}

/** runEffects, plus the state the effects leave (the input state itself when they change nothing). */
export async function applyEffects(
  tool: Tool,
  args: Record<string, unknown>,
  state: State,
  now: string,
): Promise<{ effects: EffectsResult; state: State }> {
  const [first] = tool.effects;
  if (!first) return { effects: { status: "none" }, state };
  const runtime = state.runtime;
  const run: Run = {
    tool,
    state,
    patch: [],
    output: {},
    touched: [],
    scope: { args, now, runtime, bindings: {} },
    effect: first,
    index: 0,
  };
  try {
    for (const [index, effect] of tool.effects.entries()) {
      run.effect = effect;
      run.index = index;
      await runEffect(run, effect);
    }
  } catch (error) {
    if (error instanceof EffectFailure)
      return { effects: { status: "failed", failure: error.failure }, state };
    if (error instanceof EffectBroken)
      return { effects: { status: "failed", failure: brokenEffect(run, error.reason) }, state };
    throw error;
  }
  const whole = run.whole ? { result: run.whole.value } : {};
  return {
    effects: { status: "applied", patch: run.patch, output: run.output, touched: run.touched, ...whole },
    state: run.state,
  };
}

/** An effect once, or once per element of its `each`. */
async function runEffect(run: Run, effect: Effect): Promise<void> {
  if (effect.each === undefined) {
    const ran = await runOnce(run, effect);
    if (ran) settle(run, effect, ran.value);
    return;
  }
  const items = asList(await evaluate(run, effect.each, "each"));
  const { bindings } = run.scope;
  const results: unknown[] = [];
  for (const [index, item] of items.entries()) {
    bindings.item = item;
    bindings.index = index;
    const ran = await runOnce(run, effect);
    if (ran) results.push(ran.value);
  }
  delete bindings.item;
  delete bindings.index;
  settle(run, effect, results);
}

/** JSONata hands back a lone element as itself and no elements as nothing. */
function asList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

async function runOnce(run: Run, effect: Effect): Promise<Ran> {
  run.subject = undefined;
  if (effect.when !== undefined && !truthy(await evaluate(run, effect.when, "when"))) return undefined;
  switch (effect.kind) {
    case "check":
      await checkGuards(run, effect.require, run.scope.args);
      return { value: undefined };
    case "respond":
    case "let": {
      const value = await resolve(run, effect.value, "value");
      return value === ABSENT ? undefined : { value };
    }
    case "list":
      return listEntities(run, effect);
    case "create":
      return createValue(run, effect);
    case "tree":
      return runTree(run, effect);
    default:
      return changeSubject(run, effect);
  }
}

function settle(run: Run, effect: Effect, value: unknown): void {
  if (effect.kind === "check") return;
  if (effect.as) run.scope.bindings[effect.as] = value;
  if (effect.kind === "respond") respondWith(run, effect.output, value);
  else if ("output" in effect && effect.output !== undefined) place(run.output, effect.output, value);
}

/** A respond without an output merges an object into the result; any other value is the whole result. */
function respondWith(run: Run, output: string | undefined, value: unknown): void {
  if (output !== undefined && output !== "" && output !== ".") place(run.output, output, value);
  else if (isPlainObject(value) && !run.whole) Object.assign(run.output, value);
  else run.whole = { value };
}
