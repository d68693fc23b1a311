import { ABSENT, isExpressionValue, renderValue, type ToolError } from "../../catalog/index.js";
import { ratesFromState } from "../../compute/index.js";
import { evaluateExpression } from "../../expr/index.js";
import { isPlainObject } from "../../patch/index.js";
import { valueAt } from "../state-access.js";
import { fail, failureOf } from "./failures.js";
import { EffectBroken, EffectFailure, type Run } from "./run.js";
import { renderTemplate } from "./templates.js";

/** The values of effects: templates filled and expressions evaluated against the call. */

/** Whether a value holds an expression anywhere (remembered per object: catalogs do not change). */
const holdsExpression = new WeakMap<object, boolean>();

function hasExpression(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const known = holdsExpression.get(value);
  if (known !== undefined) return known;
  const found = isExpressionValue(value) || Object.values(value).some(hasExpression);
  holdsExpression.set(value, found);
  return found;
}

/**
 * A value of an effect, rendered: templates filled, expressions evaluated, ABSENT when it
 * renders to nothing. Values without expressions render without waiting on anything.
 */
export function resolve(run: Run, value: unknown, key: string): unknown | Promise<unknown> {
  if (typeof value === "string") return renderTemplate(value, run.scope);
  if (!hasExpression(value)) return renderValue(value, run.scope);
  return resolveWithExpressions(run, value, key);
}

async function resolveWithExpressions(run: Run, value: unknown, key: string): Promise<unknown> {
  if (isExpressionValue(value)) {
    const computed = await evaluate(run, value.$expr, key);
    return computed === undefined ? ABSENT : computed;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const [index, item] of value.entries()) {
      const resolved = await resolveWithExpressions(run, item, `${key}[${index}]`);
      if (resolved !== ABSENT) items.push(resolved);
    }
    return items;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [field, item] of Object.entries(value)) {
      const resolved = await resolveWithExpressions(run, item, `${key}.${field}`);
      if (resolved !== ABSENT) out[field] = resolved;
    }
    return out;
  }
  return renderValue(value, run.scope);
}

/** Evaluates one expression of the running effect; a failure is the catalog's (or a computation's) fault. */
export async function evaluate(run: Run, text: string, key: string, input?: unknown): Promise<unknown> {
  const { args, runtime, bindings, id, now } = run.scope;
  const variables: Record<string, unknown> = { ...bindings, args, runtime };
  if (id !== undefined) variables.id = id;
  if (run.subject !== undefined) variables.subject = run.subject;
  const evaluated = await evaluateExpression(text, {
    input: input === undefined ? args : input,
    variables,
    now,
    entity: (...path) => valueAt(run.state, path),
    rates: () => ratesFromState(run.state),
  });
  if (evaluated.ok) return evaluated.value;
  if (evaluated.kind === "compute") computeRefused(run, evaluated.error);
  throw new EffectBroken(`the expression in ${key} ${evaluated.error}`);
}

/**
 * A computation refused the call's values ($calc of a malformed formula, a currency no rate
 * knows): the effect's `computeError`, else the tool's only documented 400/422 error, else
 * INVALID_INPUT with the computation's reason, an error of the call the agent can mend.
 */
function computeRefused(run: Run, reason: string): never {
  const effect = run.effect;
  const clientErrors = run.tool.errors.filter((e) => e.status === 400 || e.status === 422);
  const code =
    ("computeError" in effect ? effect.computeError : undefined) ??
    (clientErrors.length === 1 ? clientErrors[0]?.code : undefined);
  if (code) fail(run, code, {}, reason);
  throw new EffectFailure(failureOf(run, INVALID_INPUT.code, {}, reason, INVALID_INPUT));
}

const INVALID_INPUT: ToolError = {
  code: "INVALID_INPUT",
  status: 400,
  message: "The call's values cannot be computed with.",
  when: "",
};
