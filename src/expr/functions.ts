import type jsonata from "jsonata";
import { type Computed, calc, convert, math, type RateTable } from "../compute/index.js";
import { isPlainObject } from "../patch/index.js";
import { BoundExceeded, EXPRESSION_BOUNDS } from "./bounds.js";

/**
 * The functions toolsim adds to JSONata for effects, and the ones it takes away. Everything
 * here is deterministic: the clock is the simulated one, and nothing random is reachable.
 */

/** A computation ($calc, $convert, $math) refused the values it was given. */
export class ComputeFailure extends Error {}

/** Functions toolsim defines, with their JSONata call shape (for docs and lint). */
export const TOOLSIM_FUNCTIONS = {
  now: "$now(): the simulated clock, ISO 8601",
  millis: "$millis(): the simulated clock in milliseconds since 1970",
  entity:
    "$entity(collection, key, ...steps): an entity of the state (or a value deeper in it, or a whole top-level value) as the earlier effects of the call left it",
  calc: '$calc(text, variables?): evaluates arithmetic given as text ("(2 + 3) * 4", "sqrt(16)", "x * 2")',
  convert: '$convert(value, from, to): converts a quantity ("km" to "mile") or money ("USD" to "EUR")',
  math: '$math(name, ...args): a named math function ("sqrt", "power", "mean", "loan_payment", ...)',
} as const;

/** JSONata functions an effect may not use, and why. */
export const UNAVAILABLE_FUNCTIONS: Readonly<Record<string, string>> = {
  random: "it is not deterministic (the same call on the same state must give the same answer)",
  shuffle: "it is not deterministic (the same call on the same state must give the same answer)",
  eval: "it would hide an expression from the static check (write the expression itself)",
};

/** JSONata's own functions (v2), all available except UNAVAILABLE_FUNCTIONS. */
export const JSONATA_FUNCTIONS: readonly string[] = [
  "sum",
  "count",
  "max",
  "min",
  "average",
  "string",
  "substring",
  "substringBefore",
  "substringAfter",
  "lowercase",
  "uppercase",
  "length",
  "trim",
  "pad",
  "match",
  "contains",
  "replace",
  "split",
  "join",
  "formatNumber",
  "formatBase",
  "formatInteger",
  "parseInteger",
  "number",
  "floor",
  "ceil",
  "round",
  "abs",
  "sqrt",
  "power",
  "boolean",
  "not",
  "map",
  "zip",
  "filter",
  "single",
  "reduce",
  "sift",
  "keys",
  "lookup",
  "append",
  "exists",
  "spread",
  "merge",
  "reverse",
  "each",
  "error",
  "assert",
  "type",
  "sort",
  "distinct",
  "base64encode",
  "base64decode",
  "encodeUrlComponent",
  "encodeUrl",
  "decodeUrlComponent",
  "decodeUrl",
  "toMillis",
  "fromMillis",
  "clone",
];

/** A binding name an expression cannot spell (it holds a space): what one evaluation is about. */
export const CONTEXT_BINDING = " context";

/** What the functions of one evaluation read: the simulated clock and the state. */
export interface EvaluationContext {
  now: string;
  clock: Date;
  /** The value at a path of the state: a top-level value, an entity, or deeper. */
  entity?: (...path: string[]) => unknown;
  /** The state's exchange rates, read when a currency conversion asks for them. */
  rates?: () => RateTable | undefined;
}

/** `this` of a function JSONata calls: the frame it was called from. */
interface Focus {
  environment: { lookup(name: string): unknown };
}

function contextOf(focus: Focus): EvaluationContext {
  return focus.environment.lookup(CONTEXT_BINDING) as EvaluationContext;
}

/**
 * Defines toolsim's functions on a compiled expression, once: they read the evaluation's
 * context from the frame they are called in, so an evaluation binds no functions of its own.
 */
export function registerToolsimFunctions(expression: jsonata.Expression): void {
  const define = (name: string, implementation: (this: Focus, ...args: unknown[]) => unknown) =>
    expression.registerFunction(name, implementation as (this: jsonata.Focus, ...args: unknown[]) => unknown);
  for (const [name, why] of Object.entries(UNAVAILABLE_FUNCTIONS))
    define(name, () => {
      throw new Error(`$${name} is not available in effects: ${why}`);
    });
  define("now", function (this: Focus) {
    return contextOf(this).now;
  });
  define("millis", function (this: Focus) {
    return contextOf(this).clock.getTime();
  });
  define("entity", function (this: Focus, ...path: unknown[]) {
    if (
      path.length === 0 ||
      typeof path[0] !== "string" ||
      !path.every((step) => typeof step === "string" || typeof step === "number")
    )
      throw new Error(
        "$entity(collection, key, ...) takes a collection name, then keys (strings or numbers)",
      );
    return contextOf(this).entity?.(...path.map(String));
  });
  define("calc", (text: unknown, scope?: unknown) => {
    if (typeof text !== "string") throw new ComputeFailure("$calc takes the arithmetic as text");
    return computed(calc(text, isPlainObject(scope) ? scope : undefined));
  });
  define("convert", function (this: Focus, value: unknown, from: unknown, to: unknown) {
    if (typeof value !== "number" || typeof from !== "string" || typeof to !== "string")
      throw new ComputeFailure("$convert takes a number, the unit it is in and the unit wanted");
    return computed(convert(value, from, to, contextOf(this).rates?.()));
  });
  define("math", (name: unknown, ...args: unknown[]) => computed(math(name, ...args)));
  expression.registerFunction(
    "pad",
    boundedPad as (this: jsonata.Focus, ...args: unknown[]) => unknown,
    "<s-ns?:s>",
  );
}

/**
 * JSONata's $pad (positive width pads on the right, negative on the left, by code points),
 * refusing a width past the string bound before it allocates anything.
 */
function boundedPad(text: string | undefined, width: number, char?: string): string | undefined {
  if (text === undefined) return undefined;
  const wanted = Math.trunc(width);
  if (Math.abs(wanted) > EXPRESSION_BOUNDS.stringChars)
    throw new BoundExceeded(
      `it asked $pad for ${Math.abs(wanted)} characters; the limit is ${EXPRESSION_BOUNDS.stringChars}`,
    );
  const filler = char === undefined || char.length === 0 ? " " : char;
  const missing = Math.abs(wanted) - Array.from(text).length;
  if (missing <= 0) return text;
  const padding = Array.from(filler.repeat(Math.ceil(missing / Array.from(filler).length)))
    .slice(0, missing)
    .join("");
  return wanted > 0 ? text + padding : padding + text;
}

function computed(result: Computed): unknown {
  if (!result.ok) throw new ComputeFailure(result.error);
  return result.value;
}
