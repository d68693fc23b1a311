import { loadMath, type RateTable } from "../compute/index.js";
import { BoundExceeded, EXPRESSION_BOUNDS } from "./bounds.js";
import { compileExpression } from "./compile.js";
import { CONTEXT_BINDING, ComputeFailure, type EvaluationContext } from "./functions.js";

/** What an expression sees. */
export interface ExpressionScope {
  /** `$`, where paths start: the call's arguments, or the entity a list filter looks at. */
  input: unknown;
  /** Named variables (`$args`, `$runtime`, `$id`, bindings, `$item`, `$index`, `$subject`). */
  variables: Readonly<Record<string, unknown>>;
  /** The simulated clock (ISO 8601): `$now()` and `$millis()` read it, never the wall clock. */
  now: string;
  /** `$entity(collection, key, ...)`: a value of the state as the earlier effects left it. */
  entity?: (...path: string[]) => unknown;
  /** The state's exchange rates for `$convert`, read only when a conversion between currencies needs them. */
  rates?: () => RateTable | undefined;
}

/**
 * The value of an expression, or why there is none, said so that it follows "the
 * expression ...". `compute` failures are a computation refusing the values it was given
 * ($calc of a malformed formula; the error is the computation's own words); every other
 * failure is the expression's own fault.
 */
export type Evaluation =
  | { ok: true; value: unknown }
  | { ok: false; kind: "parse" | "runtime" | "bound" | "compute"; error: string };

/** Evaluates an expression against a scope, within the bounds. Never throws for a bad expression. */
export async function evaluateExpression(text: string, scope: ExpressionScope): Promise<Evaluation> {
  const compiled = compileExpression(text);
  if (!compiled.ok) {
    const at = compiled.position === undefined ? "" : ` at position ${compiled.position}`;
    return { ok: false, kind: "parse", error: `does not parse${at}: ${compiled.error}` };
  }
  const context: EvaluationContext = {
    now: scope.now,
    clock: new Date(Date.parse(scope.now)),
    entity: scope.entity,
    rates: scope.rates,
  };
  const bindings: Record<string, unknown> = { ...scope.variables, [CONTEXT_BINDING]: context };
  // the first computation of a process loads mathjs; the loading is not the expression's time
  if (COMPUTES.test(text)) loadMath();
  let value: unknown;
  try {
    value = await compiled.expression.evaluate(scope.input, bindings);
  } catch (error) {
    return failureOf(error);
  }
  return plainJson(value);
}

const COMPUTES = /\$(math|calc|convert)\s*\(/;

const BOUND_CODES: Readonly<Record<string, string>> = {
  D1011: `it nested deeper than ${EXPRESSION_BOUNDS.depth} steps (a recursion that does not end?)`,
  D1012: `it ran longer than ${EXPRESSION_BOUNDS.timeMs} ms`,
  D2014: `it built a range of more than ${EXPRESSION_BOUNDS.arrayItems} items`,
  D2015: `it built a sequence of more than ${EXPRESSION_BOUNDS.arrayItems} items`,
};

function failureOf(error: unknown): Evaluation {
  if (error instanceof ComputeFailure) return { ok: false, kind: "compute", error: error.message };
  if (error instanceof BoundExceeded)
    return { ok: false, kind: "bound", error: `was stopped: ${error.message}` };
  if (error instanceof RangeError)
    return { ok: false, kind: "bound", error: `was stopped: it ran out of room (${error.message})` };
  const { code, message, position } = error as { code?: string; message?: string; position?: number };
  const bound = code ? BOUND_CODES[code] : undefined;
  if (bound) return { ok: false, kind: "bound", error: `was stopped: ${bound}` };
  const at = typeof position === "number" ? ` (position ${position})` : "";
  return { ok: false, kind: "runtime", error: `failed: ${message ?? String(error)}${at}` };
}

/**
 * JSONata answers with its own sequences (arrays with flags) and may answer a function;
 * what leaves here is plain JSON, a fresh copy that shares nothing with the state.
 */
function plainJson(value: unknown): Evaluation {
  try {
    return { ok: true, value: copyJson(value) };
  } catch (error) {
    return { ok: false, kind: "runtime", error: `failed: ${(error as Error).message}` };
  }
}

function copyJson(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (typeof value === "function") throw new Error("it evaluates to a function, not a value");
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`it evaluates to ${value}, not a JSON number`);
    return value;
  }
  if (typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const copied = copyJson(item);
      if (copied !== undefined) items.push(copied);
    }
    return items;
  }
  if (isJsonataFunction(value))
    throw new Error("it evaluates to a function, not a value (call it with arguments)");
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const copied = copyJson(item);
    if (copied !== undefined) out[key] = copied;
  }
  return out;
}

function isJsonataFunction(value: object): boolean {
  return "_jsonata_function" in value || "_jsonata_lambda" in value;
}

/** JSONata's truthiness ($boolean): empty strings, arrays and objects, 0, null and absent are false. */
export function truthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.length > 0;
  if (typeof value === "function") return true;
  if (Array.isArray(value)) return value.some(truthy);
  return Object.keys(value).length > 0;
}
