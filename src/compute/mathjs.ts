import { createRequire } from "node:module";

/**
 * The one mathjs instance of the process. mathjs costs a few hundred milliseconds to load,
 * so it is created on the first computation that needs it, never at start-up: a catalog
 * without computation tools never pays for it.
 */

type MathJs = typeof import("mathjs");
export type MathInstance = ReturnType<MathJs["create"]>;
export type MathNode = import("mathjs").MathNode;

/** The instance, and its parser kept for the host: expressions themselves cannot reach it. */
export interface MathJsHandle {
  math: MathInstance;
  parse: (text: string) => MathNode;
  /** Symbolic differentiation, for the host only. */
  derivative: (node: MathNode, variable: string) => MathNode;
}

let instance: MathJsHandle | undefined;

/**
 * Loads mathjs now, so that its few hundred milliseconds of loading fall outside the time
 * bound of the first expression that computes.
 */
export function loadMath(): void {
  mathjs();
}

export function mathjs(): MathJsHandle {
  if (instance) return instance;
  const { create, all } = createRequire(import.meta.url)("mathjs") as MathJs;
  const math = create(all ?? {});
  const hostParse = math.parse;
  const hostDerivative = math.derivative;
  const parse = (text: string): MathNode => hostParse(text);
  // mathjs simplifies a derivative by default, which takes exponential time in the terms of
  // the function ("x + 0 + 0 + …" of 40 terms did not finish in minutes): the tree is evaluated
  // at a number anyway, so it is kept as it comes
  const derivative = (node: MathNode, variable: string): MathNode =>
    hostDerivative(node, variable, { simplify: false });
  // the functions whose running time grows with their arguments get a ceiling
  const { combinations, permutations, isPrime } = math;
  math.import(
    {
      combinations: (n: number, k: number) => combinations(atMost(n, COMBINATORICS_LIMIT, "combinations"), k),
      permutations: (n: number, k?: number) =>
        k === undefined
          ? permutations(atMost(n, COMBINATORICS_LIMIT, "permutations"))
          : permutations(atMost(n, COMBINATORICS_LIMIT, "permutations"), k),
      isPrime: (n: number) => isPrime(atMost(n, PRIME_LIMIT, "isPrime")),
    },
    { override: true },
  );
  const refuse = (name: string) => () => {
    throw new Error(`${name} is not available in computations`);
  };
  // an expression must not define units, import functions, evaluate nested text or draw random numbers
  math.import(
    Object.fromEntries(
      [
        "import",
        "createUnit",
        "evaluate",
        "parse",
        "compile",
        "simplify",
        "simplifyConstant",
        "simplifyCore",
        "rationalize",
        "derivative",
        "resolve",
        "leafCount",
        "random",
        "randomInt",
        "pickRandom",
      ].map((name) => [name, refuse(name)]),
    ),
    { override: true },
  );
  instance = { math, parse, derivative };
  return instance;
}

/** Beyond these, the answers overflow a double anyway, or take longer than a call may. */
export const COMBINATORICS_LIMIT = 10_000;
export const PRIME_LIMIT = 1e12;

function atMost(value: number, limit: number, name: string): number {
  if (typeof value === "number" && Math.abs(value) > limit)
    throw new Error(`${name}: arguments above ${limit} are not computed`);
  return value;
}
