import { checkedParse, plain } from "./evaluate.js";
import { type MathNode, mathjs } from "./mathjs.js";

/**
 * Derivatives and definite integrals of a function given as text ("3x^2 + 2x - 1",
 * "x**3", "lambda x: sin(x)"), evaluated at numbers: what calculus tools answer. The text
 * passes the same allowlist as `calc`, with the variable as its only free name.
 */

const VARIABLE = /^[A-Za-z_]\w{0,15}$/;

/** The order-th derivative of the function at a point, symbolically (mathjs), then evaluated. */
export function derivativeAt(text: string, at: number, variable: string, order: number): number {
  if (!VARIABLE.test(variable))
    throw new Error(`the variable must be a name such as x, got ${JSON.stringify(variable)}`);
  const parsed = checkedParse(text, [variable]);
  if (typeof parsed === "string") throw new Error(`invalid function ${JSON.stringify(text)}: ${parsed}`);
  let node = parsed;
  for (let i = 0; i < order; i++) {
    if (i > 0 && sizeOf(node) > MAX_DERIVATIVE_NODES)
      throw new Error(
        `the derivative of order ${i} already has more than ${MAX_DERIVATIVE_NODES} terms: ask for a lower order or a shorter function`,
      );
    node = mathjs().derivative(node, variable);
  }
  return numberOf(node.compile().evaluate({ [variable]: at }));
}

/**
 * Each derivative of a product repeats its factors (the product rule), so a tree grows by a
 * factor as large as its depth: a tree past this size is not differentiated again.
 */
const MAX_DERIVATIVE_NODES = 20_000;

function sizeOf(node: MathNode): number {
  let size = 0;
  node.traverse(() => {
    size++;
  });
  return size;
}

/** Evaluations of the function an integral may spend: adaptive Simpson stops well before. */
const MAX_EVALUATIONS = 200_000;

/** The definite integral from `from` to `to`, by adaptive Simpson's rule to about 1e-10. */
export function integral(text: string, from: number, to: number, variable: string): number {
  if (!VARIABLE.test(variable))
    throw new Error(`the variable must be a name such as x, got ${JSON.stringify(variable)}`);
  const parsed = checkedParse(text, [variable]);
  if (typeof parsed === "string") throw new Error(`invalid function ${JSON.stringify(text)}: ${parsed}`);
  const compiled = parsed.compile();
  let evaluations = 0;
  const f = (x: number): number => {
    if (++evaluations > MAX_EVALUATIONS)
      throw new Error("the integral does not settle: is the function smooth on the interval?");
    return numberOf(compiled.evaluate({ [variable]: x }));
  };
  const simpson = (a: number, b: number, fa: number, fm: number, fb: number) =>
    ((b - a) / 6) * (fa + 4 * fm + fb);
  const refine = (
    a: number,
    b: number,
    fa: number,
    fm: number,
    fb: number,
    whole: number,
    tolerance: number,
    depth: number,
  ): number => {
    const m = (a + b) / 2;
    const lm = (a + m) / 2;
    const rm = (m + b) / 2;
    const flm = f(lm);
    const frm = f(rm);
    const left = simpson(a, m, fa, flm, fm);
    const right = simpson(m, b, fm, frm, fb);
    if (depth <= 0 || Math.abs(left + right - whole) <= 15 * tolerance)
      return left + right + (left + right - whole) / 15;
    return (
      refine(a, m, fa, flm, fm, left, tolerance / 2, depth - 1) +
      refine(m, b, fm, frm, fb, right, tolerance / 2, depth - 1)
    );
  };
  const fa = f(from);
  const fb = f(to);
  const fm = f((from + to) / 2);
  return refine(from, to, fa, fm, fb, simpson(from, to, fa, fm, fb), 1e-10, 40);
}

function numberOf(value: unknown): number {
  const result = plain(value);
  if (typeof result !== "number")
    throw new Error(`the function does not give a real number there (got ${JSON.stringify(result)})`);
  return result;
}
