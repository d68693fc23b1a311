import { derivativeAt, integral } from "./calculus.js";
import { type Computed, computed, failed, messageOf } from "./computed.js";
import { plain } from "./evaluate.js";
import { COMBINATORICS_LIMIT, mathjs, PRIME_LIMIT } from "./mathjs.js";

/**
 * Named math functions: an allowlist, each with argument rules checked before it runs, so
 * every failure says which argument is wrong and why. Rates are decimals (0.05 for 5 %),
 * angles are radians, lists are arrays of numbers (an object's values count as its list).
 */

type Check = (value: unknown) => string | undefined;

interface Parameter {
  name: string;
  check: Check;
  /** Used when the argument is absent (undefined or null); no default means required. */
  default?: unknown;
}

interface MathFunction {
  summary: string;
  parameters: Parameter[];
  /** The last parameter takes every remaining argument (numbers or lists, flattened). */
  rest?: boolean;
  run: (...args: never[]) => unknown;
}

// ── argument rules ──────────────────────────────────────────────────────────

const LIST_LIMIT = 100_000;

const number: Check = (v) => (typeof v === "number" && Number.isFinite(v) ? undefined : "must be a number");
const positive: Check = (v) => number(v) ?? ((v as number) > 0 ? undefined : "must be above 0");
const nonNegative: Check = (v) => number(v) ?? ((v as number) >= 0 ? undefined : "must be 0 or more");
const nonZero: Check = (v) => number(v) ?? (v !== 0 ? undefined : "must not be 0");
const integer =
  (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Check =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max
      ? undefined
      : `must be a whole number from ${min} to ${max}`;
const probability: Check = (v) =>
  number(v) ?? ((v as number) >= 0 && (v as number) <= 1 ? undefined : "must be a probability from 0 to 1");
const list: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.length <= LIST_LIMIT && v.every((x) => number(x) === undefined)
    ? undefined
    : `must be a list of 1 to ${LIST_LIMIT} numbers`;
const integers: Check = (v) =>
  list(v) ?? ((v as number[]).every(Number.isInteger) ? undefined : "must be a list of whole numbers");
const point: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.length <= 3 && v.every((x) => number(x) === undefined)
    ? undefined
    : "must be a point: a list of 1 to 3 coordinates";

const text: Check = (v) =>
  typeof v === "string" && v.trim() !== "" && v.length <= 2000
    ? undefined
    : "must be a text of 1 to 2000 characters";

const p = (name: string, check: Check, fallback?: unknown): Parameter =>
  fallback === undefined ? { name, check } : { name, check, default: fallback };

// ── implementations that need more than a line ──────────────────────────────

const m = () => mathjs().math;

function modulo(a: number, b: number): number {
  return ((a % b) + b) % b;
}

function power(base: number, exponent: number, modulus?: number): number {
  if (modulus === undefined) return base ** exponent;
  if (![base, exponent, modulus].every(Number.isInteger) || exponent < 0 || modulus < 1)
    throw new Error(
      "with a modulus, base, exponent and modulus must be whole numbers, exponent ≥ 0, modulus ≥ 1",
    );
  let result = 1n;
  let b = ((BigInt(base) % BigInt(modulus)) + BigInt(modulus)) % BigInt(modulus);
  for (let e = BigInt(exponent); e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % BigInt(modulus);
    b = (b * b) % BigInt(modulus);
  }
  return Number(result % BigInt(modulus));
}

function mode(values: number[]): number | number[] {
  const modes = m().mode(values) as number[];
  return modes.length === 1 ? (modes[0] as number) : modes;
}

function primeFactors(n: number): number[] {
  const factors: number[] = [];
  let rest = n;
  for (let d = 2; d * d <= rest; d += d === 2 ? 1 : 2)
    while (rest % d === 0) {
      factors.push(d);
      rest /= d;
    }
  if (rest > 1) factors.push(rest);
  return factors;
}

function primesUpTo(limit: number): number[] {
  const composite = new Uint8Array(limit + 1);
  const primes: number[] = [];
  for (let n = 2; n <= limit; n++) {
    if (composite[n]) continue;
    primes.push(n);
    for (let k = n * n; k <= limit; k += n) composite[k] = 1;
  }
  return primes;
}

function fibonacci(n: number): number {
  let [a, b] = [0, 1];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}

function distance(a: number[], b: number[]): number {
  if (a.length !== b.length) throw new Error("the two points must have the same number of coordinates");
  return Math.hypot(...a.map((x, i) => x - (b[i] as number)));
}

function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length) throw new Error("the two vectors must have the same length");
  const dot = a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);
  const norms = Math.hypot(...a) * Math.hypot(...b);
  if (norms === 0) throw new Error("a zero vector has no direction");
  return dot / norms;
}

function heron(a: number, b: number, c: number): number {
  if (a + b <= c || a + c <= b || b + c <= a) throw new Error("these three sides do not make a triangle");
  const s = (a + b + c) / 2;
  return Math.sqrt(s * (s - a) * (s - b) * (s - c));
}

/** Both roots of a x² + b x + c = 0, (−b + √d) / 2a first; complex roots as {re, im}. */
function quadraticRoots(a: number, b: number, c: number): Array<number | { re: number; im: number }> {
  if (a === 0) {
    if (b === 0) throw new Error("a and b are both 0: there is no equation to solve");
    return [-c / b];
  }
  const d = b * b - 4 * a * c;
  if (d >= 0) return [(-b + Math.sqrt(d)) / (2 * a), (-b - Math.sqrt(d)) / (2 * a)];
  const re = -b / (2 * a);
  const im = Math.sqrt(-d) / (2 * a);
  return [
    { re, im },
    { re, im: -im },
  ];
}

function loanPayment(principal: number, rate: number, years: number, periods: number): number {
  const r = rate / periods;
  const n = years * periods;
  return r === 0 ? principal / n : (principal * r) / (1 - (1 + r) ** -n);
}

function npv(rate: number, flows: number[], initial: number): number {
  return flows.reduce((total, flow, t) => total + flow / (1 + rate) ** (t + 1), -initial);
}

function binomial(n: number, k: number, chance: number): number {
  if (k > n) throw new Error("successes cannot exceed trials");
  return (m().combinations(n, k) as number) * chance ** k * (1 - chance) ** (n - k);
}

// ── the allowlist ───────────────────────────────────────────────────────────

const fn = (
  summary: string,
  parameters: Parameter[],
  run: (...args: never[]) => unknown,
  rest = false,
): MathFunction => ({ summary, parameters, run, rest });

export const MATH_FUNCTIONS: Readonly<Record<string, MathFunction>> = {
  // arithmetic
  add: fn("sum of the values", [p("values", list)], (v: number[]) => v.reduce((a, b) => a + b, 0), true),
  subtract: fn("a − b", [p("a", number), p("b", number)], (a: number, b: number) => a - b),
  multiply: fn(
    "product of the values",
    [p("values", list)],
    (v: number[]) => v.reduce((a, b) => a * b, 1),
    true,
  ),
  divide: fn("a ÷ b", [p("a", number), p("b", nonZero)], (a: number, b: number) => a / b),
  modulo: fn("remainder of a ÷ b, with the sign of b", [p("a", number), p("b", nonZero)], modulo),
  power: fn(
    "base raised to exponent (mod modulus when given)",
    [p("base", number), p("exponent", number), p("modulus", number, null)],
    (b: number, e: number, mod: number | null) => power(b, e, mod ?? undefined),
  ),
  sqrt: fn("square root", [p("x", nonNegative)], Math.sqrt),
  cbrt: fn("cube root", [p("x", number)], Math.cbrt),
  root: fn("n-th root", [p("x", number), p("n", integer(1, 1000))], (x: number, n: number) =>
    m().nthRoot(x, n),
  ),
  exp: fn("e raised to x", [p("x", number)], Math.exp),
  ln: fn("natural logarithm", [p("x", positive)], Math.log),
  log: fn(
    "logarithm to base (e when absent)",
    [p("x", positive), p("base", positive, Math.E)],
    (x: number, b: number) => {
      if (b === 1) throw new Error("base must not be 1");
      return Math.log(x) / Math.log(b);
    },
  ),
  log10: fn("logarithm to base 10", [p("x", positive)], Math.log10),
  log2: fn("logarithm to base 2", [p("x", positive)], Math.log2),
  abs: fn("absolute value", [p("x", number)], Math.abs),
  sign: fn("-1, 0 or 1 as x is negative, zero or positive", [p("x", number)], Math.sign),
  round: fn(
    "x rounded to digits decimals, halves away from zero",
    [p("x", number), p("digits", integer(0, 15), 0)],
    (x: number, d: number) => m().round(x, d),
  ),
  floor: fn("largest whole number ≤ x", [p("x", number)], Math.floor),
  ceil: fn("smallest whole number ≥ x", [p("x", number)], Math.ceil),
  trunc: fn("x without its fraction", [p("x", number)], Math.trunc),
  // trigonometry (radians)
  sin: fn("sine", [p("x", number)], Math.sin),
  cos: fn("cosine", [p("x", number)], Math.cos),
  tan: fn("tangent", [p("x", number)], Math.tan),
  asin: fn("arcsine", [p("x", number)], Math.asin),
  acos: fn("arccosine", [p("x", number)], Math.acos),
  atan: fn("arctangent", [p("x", number)], Math.atan),
  atan2: fn("angle of the point (x, y)", [p("y", number), p("x", number)], Math.atan2),
  sinh: fn("hyperbolic sine", [p("x", number)], Math.sinh),
  cosh: fn("hyperbolic cosine", [p("x", number)], Math.cosh),
  tanh: fn("hyperbolic tangent", [p("x", number)], Math.tanh),
  degrees: fn("radians to degrees", [p("x", number)], (x: number) => (x * 180) / Math.PI),
  radians: fn("degrees to radians", [p("x", number)], (x: number) => (x * Math.PI) / 180),
  // number theory and combinatorics
  factorial: fn("n!", [p("n", integer(0, 170))], (n: number) => m().factorial(n)),
  gcd: fn(
    "greatest common divisor",
    [p("values", integers)],
    (v: number[]) => v.reduce((a, b) => m().gcd(a, b) as number),
    true,
  ),
  lcm: fn(
    "least common multiple",
    [p("values", integers)],
    (v: number[]) => v.reduce((a, b) => m().lcm(a, b) as number),
    true,
  ),
  combinations: fn(
    "ways to choose k of n, order ignored",
    [p("n", integer(0, COMBINATORICS_LIMIT)), p("k", integer(0, COMBINATORICS_LIMIT))],
    (n: number, k: number) => {
      if (k > n) throw new Error("k cannot exceed n");
      return m().combinations(n, k);
    },
  ),
  permutations: fn(
    "ways to arrange k of n, order counted (k = n when absent)",
    [p("n", integer(0, COMBINATORICS_LIMIT)), p("k", integer(0, COMBINATORICS_LIMIT), null)],
    (n: number, k: number | null) => {
      if (k !== null && k > n) throw new Error("k cannot exceed n");
      return m().permutations(n, k ?? n);
    },
  ),
  is_prime: fn("whether n is prime", [p("n", integer(0, PRIME_LIMIT))], (n: number) => m().isPrime(n)),
  prime_factors: fn(
    "prime factors, ascending, with repetition",
    [p("n", integer(2, PRIME_LIMIT))],
    primeFactors,
  ),
  primes: fn(
    "primes from start (0 when absent) up to limit, both included",
    [p("limit", integer(0, 1_000_000)), p("start", integer(0, 1_000_000), 0)],
    (limit: number, start: number) => primesUpTo(limit).filter((n) => n >= start),
  ),
  fibonacci: fn("n-th Fibonacci number (F0 = 0, F1 = 1)", [p("n", integer(0, 1476))], fibonacci),
  fibonacci_sequence: fn(
    "the first count Fibonacci numbers, from 0",
    [p("count", integer(0, 1477))],
    (count: number) => Array.from({ length: count }, (_, i) => fibonacci(i)),
  ),
  // statistics
  mean: fn("arithmetic mean", [p("values", list)], (v: number[]) => m().mean(v), true),
  median: fn("median", [p("values", list)], (v: number[]) => m().median(v), true),
  mode: fn("most frequent value (a list when several tie)", [p("values", list)], mode, true),
  std: fn("sample standard deviation (n − 1)", [p("values", list)], (v: number[]) => sample(v, "std"), true),
  std_population: fn(
    "population standard deviation (n)",
    [p("values", list)],
    (v: number[]) => m().std(v, "uncorrected"),
    true,
  ),
  variance: fn("sample variance (n − 1)", [p("values", list)], (v: number[]) => sample(v, "variance"), true),
  variance_population: fn(
    "population variance (n)",
    [p("values", list)],
    (v: number[]) => m().variance(v, "uncorrected"),
    true,
  ),
  min: fn("smallest value", [p("values", list)], (v: number[]) => Math.min(...v), true),
  max: fn("largest value", [p("values", list)], (v: number[]) => Math.max(...v), true),
  range: fn(
    "largest − smallest",
    [p("values", list)],
    (v: number[]) => Math.max(...v) - Math.min(...v),
    true,
  ),
  percentile: fn(
    "value below which percent of the values fall (linear interpolation)",
    [p("values", list), p("percent", number)],
    (v: number[], q: number) => {
      if (q < 0 || q > 100) throw new Error("percent must be from 0 to 100");
      return m().quantileSeq(v, q / 100);
    },
  ),
  // percentages
  percentage: fn(
    "part as a percentage of whole",
    [p("part", number), p("whole", nonZero)],
    (a: number, b: number) => (a / b) * 100,
  ),
  percent_of: fn(
    "percent % of value",
    [p("percent", number), p("value", number)],
    (q: number, v: number) => (q / 100) * v,
  ),
  percent_change: fn(
    "change from old to new, in percent",
    [p("old", nonZero), p("new", number)],
    (a: number, b: number) => ((b - a) / a) * 100,
  ),
  cosine_similarity: fn("cosine of the angle between two vectors", [p("a", list), p("b", list)], cosine),
  // geometry
  hypot: fn(
    "square root of the sum of squares",
    [p("values", list)],
    (v: number[]) => Math.hypot(...v),
    true,
  ),
  distance: fn("Euclidean distance between two points", [p("a", point), p("b", point)], distance),
  circle_area: fn("π r²", [p("radius", nonNegative)], (r: number) => Math.PI * r * r),
  circle_circumference: fn("2 π r", [p("radius", nonNegative)], (r: number) => 2 * Math.PI * r),
  triangle_area: fn(
    "base × height ÷ 2",
    [p("base", nonNegative), p("height", nonNegative)],
    (b: number, h: number) => (b * h) / 2,
  ),
  triangle_area_sides: fn(
    "Heron's formula from three sides",
    [p("a", positive), p("b", positive), p("c", positive)],
    heron,
  ),
  rectangle_area: fn(
    "length × width",
    [p("length", nonNegative), p("width", nonNegative)],
    (l: number, w: number) => l * w,
  ),
  rectangle_perimeter: fn(
    "2 (length + width)",
    [p("length", nonNegative), p("width", nonNegative)],
    (l: number, w: number) => 2 * (l + w),
  ),
  square_area: fn("side²", [p("side", nonNegative)], (s: number) => s * s),
  cube_volume: fn("side³", [p("side", nonNegative)], (s: number) => s ** 3),
  cuboid_volume: fn(
    "length × width × height",
    [p("length", nonNegative), p("width", nonNegative), p("height", nonNegative)],
    (l: number, w: number, h: number) => l * w * h,
  ),
  sphere_volume: fn("4⁄3 π r³", [p("radius", nonNegative)], (r: number) => (4 / 3) * Math.PI * r ** 3),
  sphere_area: fn("4 π r²", [p("radius", nonNegative)], (r: number) => 4 * Math.PI * r * r),
  cylinder_volume: fn(
    "π r² h",
    [p("radius", nonNegative), p("height", nonNegative)],
    (r: number, h: number) => Math.PI * r * r * h,
  ),
  cone_volume: fn(
    "π r² h ÷ 3",
    [p("radius", nonNegative), p("height", nonNegative)],
    (r: number, h: number) => (Math.PI * r * r * h) / 3,
  ),
  // algebra
  quadratic_roots: fn(
    "roots of a x² + b x + c = 0",
    [p("a", number), p("b", number), p("c", number)],
    quadraticRoots,
  ),
  cubic_roots: fn(
    "roots of a x³ + b x² + c x + d = 0; complex roots as {re, im}",
    [p("a", number), p("b", number), p("c", number), p("d", number)],
    (a: number, b: number, c: number, d: number) => {
      if (a === 0 && b === 0 && c === 0)
        throw new Error("a, b and c are all 0: there is no equation to solve");
      return plain(m().polynomialRoot(d, c, b, a));
    },
  ),
  // calculus, on a function given as text ("3x^2 + 2x", "x**3", "sin(x)")
  derivative: fn(
    "the order-th derivative of the function at a point",
    [p("function", text), p("at", number), p("variable", text, "x"), p("order", integer(1, 5), 1)],
    derivativeAt,
  ),
  integral: fn(
    "the definite integral of the function from a to b",
    [p("function", text), p("from", number), p("to", number), p("variable", text, "x")],
    integral,
  ),
  // finance (rates are decimals: 0.05 for 5 %)
  simple_interest: fn(
    "interest: principal × rate × years",
    [p("principal", number), p("rate", number), p("years", nonNegative)],
    (pv: number, r: number, t: number) => pv * r * t,
  ),
  compound_interest: fn(
    "interest earned: principal (1 + rate/periods)^(periods × years) − principal",
    [p("principal", number), p("rate", number), p("years", nonNegative), p("periods", positive, 1)],
    (pv: number, r: number, t: number, n: number) => pv * (1 + r / n) ** (n * t) - pv,
  ),
  future_value: fn(
    "principal (1 + rate/periods)^(periods × years)",
    [p("principal", number), p("rate", number), p("years", nonNegative), p("periods", positive, 1)],
    (pv: number, r: number, t: number, n: number) => pv * (1 + r / n) ** (n * t),
  ),
  present_value: fn(
    "future ÷ (1 + rate/periods)^(periods × years)",
    [p("future", number), p("rate", number), p("years", nonNegative), p("periods", positive, 1)],
    (fv: number, r: number, t: number, n: number) => fv / (1 + r / n) ** (n * t),
  ),
  loan_payment: fn(
    "payment per period of an amortized loan",
    [p("principal", number), p("rate", number), p("years", positive), p("periods", positive, 12)],
    loanPayment,
  ),
  npv: fn(
    "net present value of cash flows at the end of periods 1, 2, …, less the initial investment",
    [p("rate", number), p("cash_flows", list), p("initial", number, 0)],
    npv,
  ),
  cagr: fn(
    "compound annual growth rate (a decimal)",
    [p("initial", positive), p("final", nonNegative), p("years", positive)],
    (a: number, b: number, t: number) => (b / a) ** (1 / t) - 1,
  ),
  // physics (SI units)
  speed: fn("distance ÷ time", [p("distance", number), p("time", nonZero)], (d: number, t: number) => d / t),
  final_velocity: fn(
    "initial + acceleration × time",
    [p("initial", number), p("acceleration", number), p("time", number)],
    (v: number, a: number, t: number) => v + a * t,
  ),
  final_speed: fn(
    "|initial + acceleration × time|",
    [p("initial", number), p("acceleration", number), p("time", number)],
    (v: number, a: number, t: number) => Math.abs(v + a * t),
  ),
  final_velocity_distance: fn(
    "√(initial² + 2 × acceleration × distance)",
    [p("initial", number), p("acceleration", number), p("distance", number)],
    (v: number, a: number, d: number) => {
      const square = v * v + 2 * a * d;
      if (square < 0) throw new Error("the object never covers that distance with this acceleration");
      return Math.sqrt(square);
    },
  ),
  displacement: fn(
    "initial × time + acceleration × time² ÷ 2",
    [p("initial", number), p("acceleration", number), p("time", number)],
    (v: number, a: number, t: number) => v * t + (a * t * t) / 2,
  ),
  density: fn(
    "mass ÷ volume",
    [p("mass", number), p("volume", nonZero)],
    (mass: number, v: number) => mass / v,
  ),
  force: fn(
    "mass × acceleration",
    [p("mass", number), p("acceleration", number)],
    (mass: number, a: number) => mass * a,
  ),
  kinetic_energy: fn(
    "mass × velocity² ÷ 2",
    [p("mass", number), p("velocity", number)],
    (mass: number, v: number) => (mass * v * v) / 2,
  ),
  potential_energy: fn(
    "mass × gravity × height",
    [p("mass", number), p("height", number), p("gravity", number, 9.81)],
    (mass: number, h: number, g: number) => mass * g * h,
  ),
  momentum: fn(
    "mass × velocity",
    [p("mass", number), p("velocity", number)],
    (mass: number, v: number) => mass * v,
  ),
  work: fn("force × distance", [p("force", number), p("distance", number)], (f: number, d: number) => f * d),
  pressure: fn("force ÷ area", [p("force", number), p("area", nonZero)], (f: number, a: number) => f / a),
  voltage: fn(
    "current × resistance",
    [p("current", number), p("resistance", number)],
    (i: number, r: number) => i * r,
  ),
  current: fn(
    "voltage ÷ resistance",
    [p("voltage", number), p("resistance", nonZero)],
    (v: number, r: number) => v / r,
  ),
  resistance: fn(
    "voltage ÷ current",
    [p("voltage", number), p("current", nonZero)],
    (v: number, i: number) => v / i,
  ),
  // health
  bmi: fn(
    "body mass index: weight (kg) ÷ height (m)²",
    [p("weight", positive), p("height", positive)],
    (w: number, h: number) => w / (h * h),
  ),
  // probability
  probability: fn(
    "favorable ÷ total",
    [p("favorable", nonNegative), p("total", positive)],
    (f: number, t: number) => {
      if (f > t) throw new Error("favorable outcomes cannot exceed the total");
      return f / t;
    },
  ),
  binomial_probability: fn(
    "chance of exactly k successes in n trials",
    [p("n", integer(0, COMBINATORICS_LIMIT)), p("k", integer(0, COMBINATORICS_LIMIT)), p("p", probability)],
    binomial,
  ),
};

function sample(values: number[], kind: "std" | "variance"): number {
  if (values.length < 2) throw new Error("a sample needs at least two values");
  return Number(kind === "std" ? m().std(values) : m().variance(values));
}

/** Other names people use for the same functions. */
const ALIASES: Readonly<Record<string, string>> = {
  sum: "add",
  plus: "add",
  addition: "add",
  minus: "subtract",
  difference: "subtract",
  product: "multiply",
  times: "multiply",
  quotient: "divide",
  mod: "modulo",
  remainder: "modulo",
  pow: "power",
  exponent: "power",
  square_root: "sqrt",
  cube_root: "cbrt",
  nth_root: "root",
  nthroot: "root",
  prod: "multiply",
  natural_log: "ln",
  absolute: "abs",
  hcf: "gcd",
  gcf: "gcd",
  greatest_common_divisor: "gcd",
  least_common_multiple: "lcm",
  choose: "combinations",
  ncr: "combinations",
  npr: "permutations",
  prime: "is_prime",
  isprime: "is_prime",
  average: "mean",
  avg: "mean",
  stdev: "std",
  standard_deviation: "std",
  pstdev: "std_population",
  var: "variance",
  pvariance: "variance_population",
  minimum: "min",
  maximum: "max",
  quantile: "percentile",
  heron: "triangle_area_sides",
  velocity: "speed",
};

/** The allowlisted function a name designates ("Average", "std-dev", "nCr"), or undefined. */
export function mathFunctionName(name: string): string | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  if (Object.hasOwn(MATH_FUNCTIONS, key)) return key;
  const alias = ALIASES[key];
  return alias && Object.hasOwn(MATH_FUNCTIONS, alias) ? alias : undefined;
}

/**
 * Runs an allowlisted math function: `math("power", 2, 10)`, `math("mean", [1, 2, 3])`,
 * `math("gcd", 12, 18)`. Arguments are checked first; an absent optional argument
 * (undefined or null) takes its default. Numbers given as numeric text are read as numbers.
 */
export function math(name: unknown, ...args: unknown[]): Computed {
  const key = typeof name === "string" ? mathFunctionName(name) : undefined;
  if (!key)
    return failed(
      `unknown math function ${JSON.stringify(name)}: use one of ${Object.keys(MATH_FUNCTIONS).join(", ")}`,
    );
  const spec = MATH_FUNCTIONS[key] as MathFunction;
  const values = spec.rest ? gather(args) : args.map(numeric);
  const bound = spec.rest
    ? [values]
    : spec.parameters.map((parameter, i) => listFor(parameter, values[i]) ?? parameter.default);
  if (!spec.rest && args.length > spec.parameters.length)
    return failed(`${key} takes ${spec.parameters.length} arguments (${signature(key)}), got ${args.length}`);
  for (const [i, parameter] of spec.parameters.entries()) {
    const value = bound[i];
    if (value === null && parameter.default === null) continue;
    if (value === undefined || value === null)
      return failed(`${key}: argument ${parameter.name} is missing (${signature(key)})`);
    const problem = parameter.check(value);
    if (problem) return failed(`${key}: argument ${parameter.name} ${problem}, got ${JSON.stringify(value)}`);
  }
  try {
    return computed((spec.run as (...a: unknown[]) => unknown)(...bound));
  } catch (error) {
    return failed(`${key}: ${messageOf(error)}`);
  }
}

/** "power(base, exponent, modulus?)". */
export function signature(name: string): string {
  const spec = MATH_FUNCTIONS[name];
  if (!spec) return name;
  const names = spec.parameters.map(
    (q) => `${spec.rest ? "..." : ""}${q.name}${q.default !== undefined ? "?" : ""}`,
  );
  return `${name}(${names.join(", ")})`;
}

/** Every argument of a list function, flattened: numbers, lists, and the values of objects. */
function gather(args: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const arg of args) {
    if (arg === undefined || arg === null) continue;
    if (Array.isArray(arg)) out.push(...arg.map(numeric));
    else if (typeof arg === "object") out.push(...Object.values(arg).map(numeric));
    else out.push(numeric(arg));
  }
  return out;
}

/** A list parameter also takes an object: its values are the list ({"math": 90, "art": 80}). */
function listFor(parameter: Parameter, value: unknown): unknown {
  const wantsList = parameter.check === list || parameter.check === integers;
  if (!wantsList || value === null || typeof value !== "object") return value;
  return (Array.isArray(value) ? value : Object.values(value)).map(numeric);
}

function numeric(value: unknown): unknown {
  if (typeof value !== "string" || value.trim() === "") return value;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}
