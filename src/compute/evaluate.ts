import { type Computed, computed, failed, messageOf } from "./computed.js";
import { convertCurrency, isCurrency, type RateTable } from "./currency.js";
import { type MathNode, mathjs } from "./mathjs.js";
import { unitName } from "./units.js";

/**
 * Safe evaluation of arithmetic for computation tools (calculators, formula evaluators,
 * unit conversion). mathjs parses its own expression language (no JavaScript eval); before
 * anything runs, the parsed expression is checked against an allowlist, so an expression
 * can only do arithmetic: no definitions of functions (no recursion), no ranges or matrix
 * builders (no huge allocations), no functions outside the list. Evaluation is therefore
 * bounded by the length of the text.
 */

/** Longer texts are not arithmetic a tool is asked to evaluate. */
export const MAX_EXPRESSION_LENGTH = 2000;

/** Functions an expression may call (mathjs names). */
const FUNCTIONS: ReadonlySet<string> = new Set([
  ...["abs", "add", "cbrt", "ceil", "cube", "divide", "exp", "expm1", "fix", "floor", "hypot"],
  ...["log", "log10", "log1p", "log2", "mod", "multiply", "nthRoot", "pow", "round", "sign"],
  ...["sqrt", "square", "subtract", "unaryMinus", "unaryPlus", "gcd", "lcm", "factorial", "gamma"],
  ...["combinations", "permutations", "isPrime", "isInteger", "max", "min", "mean", "median"],
  ...["mode", "std", "variance", "sum", "prod", "mad", "quantileSeq", "cumsum", "norm", "dot", "cross"],
  ...["sin", "cos", "tan", "sec", "csc", "cot", "asin", "acos", "atan", "atan2", "sinh", "cosh"],
  ...["tanh", "asinh", "acosh", "atanh", "to", "number", "re", "im", "conj", "arg", "det", "inv"],
  ...["transpose", "size", "equal", "unequal", "larger", "smaller", "largerEq", "smallerEq", "and"],
  ...["or", "not", "xor", "compare", "deepEqual"],
]);

/** Constants an expression may name. */
const CONSTANTS: ReadonlySet<string> = new Set(["pi", "PI", "e", "E", "tau", "phi", "i", "true", "false"]);

/**
 * Evaluates an arithmetic expression given as text: "(2 + 3) * 4", "sqrt(16)", "2**10",
 * "5 km to mile", "x * 2" with `scope` {x: 3}. Variables come from `scope` only (numbers,
 * or arrays of numbers).
 */
export function calc(text: unknown, scope: Readonly<Record<string, unknown>> = {}): Computed {
  if (typeof text !== "string") return failed(`the expression must be a text, got ${JSON.stringify(text)}`);
  const variables = numericScope(scope);
  if (typeof variables === "string") return failed(variables);
  const node = checkedParse(text, Object.keys(variables));
  if (typeof node === "string") return failed(`invalid expression ${JSON.stringify(text)}: ${node}`);
  try {
    return computed(plain(node.compile().evaluate({ ...variables })));
  } catch (error) {
    return failed(`invalid expression ${JSON.stringify(text)}: ${messageOf(error)}`);
  }
}

/**
 * An expression parsed and checked against the allowlist, with `variables` as the only free
 * names; or why it cannot be used. Also reads a function written as a lambda
 * ("lambda x: 3x**2").
 */
export function checkedParse(text: string, variables: readonly string[]): MathNode | string {
  const source = normalize(text.replace(/^\s*lambda\s+[A-Za-z_]\w*\s*:/, ""));
  if (source === "") return "the expression is empty";
  if (source.length > MAX_EXPRESSION_LENGTH)
    return `the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`;
  try {
    const node = mathjs().parse(source);
    return refusalOf(node, new Set(variables)) ?? node;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * Converts a quantity between units ("km" → "mile", "Celsius" → "F", "tbsp" → "ml") or an
 * amount between currencies ("USD" → "EUR", "euros" → "yen"), with `rates` from the state
 * winning over the built-in table for currencies.
 */
export function convert(value: unknown, from: unknown, to: unknown, rates?: RateTable): Computed {
  const amount = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof amount !== "number" || !Number.isFinite(amount))
    return failed(`the value to convert must be a number, got ${JSON.stringify(value)}`);
  if (typeof from !== "string" || typeof to !== "string")
    return failed(`units must be given as text, got ${JSON.stringify(from)} and ${JSON.stringify(to)}`);
  const source = unitName(from);
  const target = unitName(to);
  // "pounds" is a currency beside "euros" and a mass beside "kg"
  const currencies = isCurrency(from, rates) || isCurrency(to, rates);
  if (currencies && !(source && target)) return convertCurrency(amount, from, to, rates);
  if (!source) return failed(`unknown unit ${JSON.stringify(from)}`);
  if (!target) return failed(`unknown unit ${JSON.stringify(to)}`);
  try {
    return computed(mathjs().math.unit(amount, source).toNumber(target));
  } catch (error) {
    return failed(`cannot convert ${from} to ${to}: ${messageOf(error)}`);
  }
}

/** Spellings from other calculators: Python's `**` and `math.`, typographic operators, a trailing "=". */
function normalize(text: string): string {
  return text
    .trim()
    .replace(/=\s*$/, "")
    .replace(/\*\*/g, "^")
    .replace(/[×·]/g, "*")
    .replace(/÷/g, "/")
    .replace(/[−–]/g, "-")
    .replace(/\bmath\.(?=[a-z])/gi, "")
    .trim();
}

function numericScope(scope: Readonly<Record<string, unknown>>): Record<string, unknown> | string {
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(scope)) {
    const numeric =
      typeof value === "number" ||
      (Array.isArray(value) && value.length <= 100_000 && value.every((v) => typeof v === "number"));
    if (!numeric)
      return `variable ${name} must be a number or a list of numbers, got ${JSON.stringify(value)}`;
    variables[name] = value;
  }
  return variables;
}

/** Why an expression may not run, or undefined when every node is allowed. */
function refusalOf(root: MathNode, variables: ReadonlySet<string>): string | undefined {
  const { math } = mathjs();
  let refusal: string | undefined;
  root.traverse((node, _path, parent) => {
    if (refusal) return;
    const named = node as MathNode & { name?: string; fn?: unknown };
    switch (node.type) {
      case "FunctionAssignmentNode":
      case "AssignmentNode":
        refusal = "definitions and assignments are not allowed: write the arithmetic itself";
        return;
      case "RangeNode":
        refusal = "ranges (a:b) are not allowed: list the numbers";
        return;
      case "FunctionNode": {
        const name = (named.fn as { name?: string } | undefined)?.name ?? "";
        if (!FUNCTIONS.has(name)) refusal = `unknown or unavailable function ${name}()`;
        return;
      }
      case "SymbolNode": {
        const name = named.name ?? "";
        const isCallee = parent?.type === "FunctionNode" && (parent as { fn?: unknown }).fn === node;
        if (isCallee || CONSTANTS.has(name) || variables.has(name)) return;
        if (!math.Unit.isValuelessUnit(name)) refusal = `unknown name ${name}`;
        return;
      }
    }
  });
  return refusal;
}

/** mathjs answers with its own types (units, matrices, complex, big numbers); results are plain JSON. */
export function plain(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const { math } = mathjs();
  if (math.isUnit(value)) return value.format({ precision: 15 });
  if (math.isMatrix(value)) return plain(value.toArray());
  if (Array.isArray(value)) return value.map(plain);
  if (math.isComplex(value)) return value.im === 0 ? value.re : { re: value.re, im: value.im };
  if (math.isBigNumber(value) || math.isFraction(value)) return math.number(value as never);
  if (math.isResultSet(value)) return (value as { entries: unknown[] }).entries.map(plain);
  return value;
}
