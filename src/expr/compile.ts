import { createRequire } from "node:module";
import jsonata from "jsonata";
import { BoundExceeded, EXPRESSION_BOUNDS } from "./bounds.js";
import { CONTEXT_BINDING, type EvaluationContext, registerToolsimFunctions } from "./functions.js";

/**
 * Compiling JSONata expressions once, with the bounds every evaluation runs under. JSONata
 * has no termination guarantee of its own; the time, depth and size budgets below supply it.
 */

export type Compiled =
  | { ok: true; expression: jsonata.Expression }
  | { ok: false; error: string; position?: number };

const CACHE_LIMIT = 10_000;
const cache = new Map<string, Compiled>();

/** Parses an expression, or says why it cannot be; the same text compiles once. */
export function compileExpression(text: string): Compiled {
  const cached = cache.get(text);
  // Stryker disable next-line ConditionalExpression: a cache; compiling the text again gives the same expression
  if (cached) return cached;
  const compiled = compile(text);
  // catalogs hold a bounded number of expressions; the limit only guards model-written ones
  // Stryker disable next-line ConditionalExpression,EqualityOperator: which entry leaves a cache changes no answer
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(text, compiled);
  return compiled;
}

function compile(text: string): Compiled {
  let expression: jsonata.Expression;
  try {
    expression = jsonata(text, {
      timeout: EXPRESSION_BOUNDS.timeMs,
      stack: EXPRESSION_BOUNDS.depth,
      sequence: EXPRESSION_BOUNDS.arrayItems,
      // linear-time regular expressions: a pattern in a catalog cannot stall the server
      RegexEngine: re2(),
    });
  } catch (error) {
    return parseFailure(error);
  }
  registerToolsimFunctions(expression);
  expression.assign(Symbol.for("jsonata.__evaluate_entry") as unknown as string, countStep);
  // watching every result costs as much as evaluating; only expressions that can grow need it
  if (canGrow(expression.ast()))
    expression.assign(Symbol.for("jsonata.__evaluate_exit") as unknown as string, capSize);
  return { ok: true, expression };
}

/**
 * Whether an expression can build values much larger than its input: only by repeating (a
 * function, so a loop or a recursion, or a range); $pad checks its own width. Without
 * these, what it builds is bounded by its own length times the size of what it reads.
 */
function canGrow(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(canGrow);
  const { type, value } = node as { type?: string; value?: unknown };
  if (type === "lambda" || (type === "binary" && value === "..")) return true;
  return Object.values(node).some(canGrow);
}

interface Frame {
  base: Frame & { steps?: number; built?: number };
  timestamp: Date | null;
  lookup(name: string): unknown;
}

/**
 * Counts the steps of one evaluation. At the first, the root frame gets the simulated clock:
 * JSONata stamps each evaluation with the wall clock, and date parsing falls back on it.
 */
function countStep(_node: unknown, _input: unknown, frame: Frame): void {
  const base = frame.base;
  const steps = (base.steps ?? 0) + 1;
  base.steps = steps;
  if (steps === 1) {
    const context = base.lookup(CONTEXT_BINDING) as EvaluationContext | undefined;
    if (context) base.timestamp = context.clock;
  } else if (steps > EXPRESSION_BOUNDS.steps)
    throw new BoundExceeded(`it took more than ${EXPRESSION_BOUNDS.steps} steps (a loop that does not end?)`);
}

/** Node kinds whose results are new values (not a value read from the input or a variable). */
const BUILDERS = new Set(["function", "partial", "apply", "binary", "unary", "block", "condition"]);

/**
 * Caps each string and array a growing expression builds, and their total: sequences are
 * capped by JSONata one by one, but a loop can build many of them, or double a string.
 */
function capSize(node: { type?: string }, _input: unknown, frame: Frame, result: unknown): void {
  const size = typeof result === "string" || Array.isArray(result) ? result.length : 0;
  if (size === 0) return;
  if (typeof result === "string" && size > EXPRESSION_BOUNDS.stringChars)
    throw new BoundExceeded(
      `it built a string of ${size} characters; the limit is ${EXPRESSION_BOUNDS.stringChars}`,
    );
  if (Array.isArray(result) && size > EXPRESSION_BOUNDS.arrayItems)
    throw new BoundExceeded(
      `it built an array of ${size} items; the limit is ${EXPRESSION_BOUNDS.arrayItems}`,
    );
  if (!BUILDERS.has(node.type ?? "")) return;
  const built = (frame.base.built ?? 0) + size;
  frame.base.built = built;
  if (built > EXPRESSION_BOUNDS.builtTotal)
    throw new BoundExceeded(
      `the values it built add up to more than ${EXPRESSION_BOUNDS.builtTotal} items and characters`,
    );
}

function parseFailure(error: unknown): Compiled {
  const { message, position } = error as { message?: string; position?: number };
  return {
    ok: false,
    error: message ?? String(error),
    ...(typeof position === "number" ? { position } : {}),
  };
}

type RegexEngine = RegExpConstructor;
let regexEngine: RegexEngine | undefined;

/** RE2 is a native module: loaded with the first expression, not at start-up. */
function re2(): RegexEngine {
  regexEngine ??= createRequire(import.meta.url)("re2") as RegexEngine;
  return regexEngine;
}
