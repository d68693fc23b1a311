import { createRequire } from "node:module";

/**
 * Safe evaluation of arithmetic for computation tools (calculators, math functions, unit
 * conversion). mathjs parses its own expression language (no JavaScript eval); the
 * functions that would let an expression reach outside itself are disabled. It is loaded
 * on the first computation only: it costs a few hundred milliseconds at start-up.
 */

type MathJs = typeof import("mathjs");
type MathInstance = ReturnType<MathJs["create"]>;

/** A value computed, or why it could not be (the caller decides how to answer). */
export type Computed = { ok: true; value: unknown } | { ok: false; error: string };

let instance: { math: MathInstance; evaluate: (text: string) => unknown } | undefined;

function mathjs() {
  if (instance) return instance;
  const { create, all } = createRequire(import.meta.url)("mathjs") as MathJs;
  const math = create(all ?? {});
  const evaluate = math.evaluate.bind(math);
  const refuse = (name: string) => () => {
    throw new Error(`${name} is not available in computations`);
  };
  // expressions must not define units, import functions or evaluate nested expressions
  math.import(
    {
      import: refuse("import"),
      createUnit: refuse("createUnit"),
      evaluate: refuse("evaluate"),
      parse: refuse("parse"),
      simplify: refuse("simplify"),
      derivative: refuse("derivative"),
      resolve: refuse("resolve"),
    },
    { override: true },
  );
  instance = { math, evaluate };
  return instance;
}

/** Evaluates an arithmetic expression given as text ("(2 + 3) * 4", "sqrt(16)", "5 km to mile"). */
export function calc(text: string): Computed {
  try {
    return { ok: true, value: plain(mathjs().evaluate(text)) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Converts a quantity between units ("km" → "mile", "degC" → "degF"). */
export function convert(value: number, from: string, to: string): Computed {
  try {
    const { math } = mathjs();
    return { ok: true, value: math.unit(value, from).toNumber(to) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** mathjs answers with its own types (units, matrices, big numbers); results are plain JSON. */
function plain(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const { math } = mathjs();
  if (math.isUnit(value)) return value.toString();
  if (math.isMatrix(value)) return value.toArray();
  if (math.isBigNumber(value) || math.isFraction(value)) return math.number(value as never);
  if (math.isResultSet(value)) return (value as { entries: unknown[] }).entries.map(plain);
  return value;
}
