import { describe, expect, it } from "vitest";
import { type Computed, MATH_FUNCTIONS, math, mathFunctionName, signature } from "../src/compute/index.js";

const value = (result: Computed) => {
  if (!result.ok) throw new Error(`expected a value, got the failure: ${result.error}`);
  return result.value;
};
const failure = (result: Computed) => {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
};

/** Answers keep 15 significant digits. */
const digits15 = (x: number) => Number(x.toPrecision(15));

/**
 * Every named math function against the value a textbook gives for it, and each argument
 * rule at its edge: the answer just inside, the error (naming the argument and the rule) just
 * outside. Answers keep 15 significant digits.
 */
describe("math: each formula gives the textbook value", () => {
  const cases: Array<[string, unknown[], unknown]> = [
    // arithmetic
    ["add", [{ a: 1, b: 2 }, [3], 4], 10],
    ["add", [1, null, 2, undefined], 3],
    ["add", ["2", "3.5"], 5.5],
    ["multiply", [5], 5],
    ["multiply", [[2, 3], { x: 4 }], 24],
    ["subtract", [3, 10], -7],
    ["divide", [-9, 3], -3],
    ["modulo", [7, 3], 1],
    ["modulo", [7, -3], -2],
    ["power", [2, -1], 0.5],
    ["power", [2, 3, null], 8],
    ["power", [-2, 3, 5], 2],
    ["power", [3, 0, 7], 1],
    ["power", [2, 0, 1], 0],
    ["power", [7, 2, 10], 9],
    ["sqrt", [0], 0],
    ["sqrt", ["16"], 4],
    ["cbrt", [-27], -3],
    ["root", [16, 4], 2],
    ["root", [5, 1], 5],
    ["exp", [1], digits15(Math.E)],
    ["ln", [Math.E], 1],
    ["log", [100, 10], 2],
    ["log", [Math.E ** 2], 2],
    ["log", [0.25, 0.5], 2],
    ["log10", [1000], 3],
    ["log2", [8], 3],
    ["abs", [-3], 3],
    ["sign", [-2], -1],
    ["sign", [0], 0],
    ["round", [2.5], 3],
    ["round", [-2.5], -3],
    ["round", [1.23456, 3], 1.235],
    ["round", [0.1234567890123456, 15], 0.123456789012346],
    ["floor", [-1.5], -2],
    ["ceil", [-1.5], -1],
    ["trunc", [-1.5], -1],
    // trigonometry, in radians
    ["sin", [Math.PI / 2], 1],
    ["cos", [Math.PI], -1],
    ["tan", [Math.PI / 4], 1],
    ["asin", [1], digits15(Math.PI / 2)],
    ["acos", [0], digits15(Math.PI / 2)],
    ["atan", [1], digits15(Math.PI / 4)],
    ["atan2", [1, 0], digits15(Math.PI / 2)],
    ["atan2", [0, -1], digits15(Math.PI)],
    ["sinh", [1], 1.1752011936438],
    ["cosh", [1], 1.54308063481524],
    ["tanh", [1], 0.761594155955765],
    ["degrees", [Math.PI], 180],
    ["radians", [90], digits15(Math.PI / 2)],
    // number theory and combinatorics
    ["factorial", [0], 1],
    ["factorial", [10], 3_628_800],
    ["gcd", [[12, 18]], 6],
    ["gcd", [7], 7],
    ["lcm", [4, 6, 10], 60],
    ["combinations", [5, 5], 1],
    ["combinations", [6, 0], 1],
    ["permutations", [5], 120],
    ["permutations", [4, 4], 24],
    ["is_prime", [1], false],
    ["is_prime", [2], true],
    ["is_prime", [91], false],
    ["prime_factors", [2], [2]],
    ["prime_factors", [9], [3, 3]],
    ["prime_factors", [49], [7, 7]],
    ["prime_factors", [97], [97]],
    ["prime_factors", [2 * 3 * 5 * 7 * 11 * 13], [2, 3, 5, 7, 11, 13]],
    ["prime_factors", [25 * 27], [3, 3, 3, 5, 5]],
    ["primes", [10], [2, 3, 5, 7]],
    ["primes", [2], [2]],
    ["primes", [1], []],
    ["primes", [13, 13], [13]],
    ["primes", [30, 20], [23, 29]],
    ["fibonacci", [0], 0],
    ["fibonacci", [1], 1],
    ["fibonacci", [2], 1],
    ["fibonacci", [20], 6765],
    ["fibonacci_sequence", [0], []],
    ["fibonacci_sequence", [1], [0]],
    // statistics
    ["mean", [[1, 2, 3, 6]], 3],
    ["mean", [2, 4], 3],
    ["median", [[5, 1, 3]], 3],
    ["mode", [[4, 4, 1, 1, 2]], [4, 1]],
    ["mode", [[7]], 7],
    ["std", [[1, 3]], digits15(Math.SQRT2)],
    ["variance", [[2, 4, 4, 4, 5, 5, 7, 9]], 4.57142857142857],
    ["variance", [[1, 2]], 0.5],
    ["variance_population", [[2, 4, 4, 4, 5, 5, 7, 9]], 4],
    ["std_population", [[5]], 0],
    ["min", [[3, -1, 4]], -1],
    ["max", [3, -1, 4], 4],
    ["range", [[3, -1, 4]], 5],
    ["percentile", [[1, 2, 3, 4, 5], 0], 1],
    ["percentile", [[1, 2, 3, 4, 5], 100], 5],
    ["percentile", [[1, 2, 3, 4], 25], 1.75],
    ["percentile", [{ a: 10, b: 20, c: 30 }, 50], 20],
    // percentages
    ["percentage", [1, 8], 12.5],
    ["percent_of", [15, 200], 30],
    ["percent_change", [50, 75], 50],
    ["percent_change", [80, 60], -25],
    [
      "cosine_similarity",
      [
        [1, 2],
        [2, 4],
      ],
      1,
    ],
    [
      "cosine_similarity",
      [
        [1, 0],
        [-1, 0],
      ],
      -1,
    ],
    [
      "cosine_similarity",
      [
        [3, 4],
        [4, 3],
      ],
      0.96,
    ],
    // geometry
    ["hypot", [[5, 12]], 13],
    [
      "distance",
      [
        [1, 1, 1],
        [3, 3, 2],
      ],
      3,
    ],
    ["distance", [[5], [2]], 3],
    ["circle_circumference", [2], digits15(4 * Math.PI)],
    ["triangle_area", [3, 4], 6],
    ["triangle_area_sides", [5, 5, 6], 12],
    ["rectangle_area", [3, 4], 12],
    ["rectangle_perimeter", [3, 4], 14],
    ["square_area", [3], 9],
    ["cube_volume", [3], 27],
    ["cuboid_volume", [2, 3, 4], 24],
    ["sphere_volume", [3], 113.097335529233],
    ["sphere_area", [2], digits15(16 * Math.PI)],
    ["cylinder_volume", [2, 3], 37.6991118430775],
    ["cone_volume", [3, 2], digits15(6 * Math.PI)],
    // algebra
    ["quadratic_roots", [0, 2, -4], [2]],
    ["quadratic_roots", [1, -2, 1], [1, 1]],
    ["quadratic_roots", [-1, 0, 4], [-2, 2]],
    [
      "quadratic_roots",
      [2, 2, 1],
      [
        { re: -0.5, im: 0.5 },
        { re: -0.5, im: -0.5 },
      ],
    ],
    ["quadratic_roots", [2, -10, 12], [3, 2]],
    // finance
    ["simple_interest", [1000, 0.05, 2], 100],
    ["compound_interest", [1000, 0.1, 2], 210],
    ["future_value", [1000, 0.12, 1, 12], 1126.82503013197],
    ["present_value", [1102.5, 0.05, 2], 1000],
    ["present_value", [1000, 0.12, 1, 12], 887.449225265154],
    ["loan_payment", [1200, 0, 1], 100],
    ["loan_payment", [1000, 0.1, 1, 1], 1100],
    ["npv", [0.1, [110]], 100],
    ["npv", [0, [50, 50], 30], 70],
    ["cagr", [100, 400, 2], 1],
    // physics
    ["speed", [100, 20], 5],
    ["final_velocity", [2, 3, 4], 14],
    ["final_velocity", [0, -9.81, 2], -19.62],
    ["final_speed", [2, -9.81, 2], 17.62],
    ["final_velocity_distance", [3, 2, 4], 5],
    ["final_velocity_distance", [4, -2, 4], 0],
    ["displacement", [2, 3, 4], 32],
    ["density", [10, 4], 2.5],
    ["force", [2, 3], 6],
    ["kinetic_energy", [2, 3], 9],
    ["potential_energy", [2, 10], 196.2],
    ["potential_energy", [2, 10, 1.62], 32.4],
    ["momentum", [2, 3], 6],
    ["work", [5, 3], 15],
    ["pressure", [10, 4], 2.5],
    ["voltage", [2, 3], 6],
    ["current", [6, 4], 1.5],
    ["resistance", [6, 4], 1.5],
    // health and probability
    ["bmi", [81, 1.8], 25],
    ["probability", [1, 4], 0.25],
    ["probability", [4, 4], 1],
    ["probability", [0, 4], 0],
    ["binomial_probability", [4, 1, 0.5], 0.25],
    ["binomial_probability", [2, 2, 1], 1],
    ["binomial_probability", [2, 0, 0], 1],
    ["binomial_probability", [5, 2, 0.2], 0.2048],
  ];
  it.each(cases)("%s(%j) = %j", (name, args, expected) => {
    expect(value(math(name, ...args))).toEqual(expected);
  });

  it("answers the roots of a cubic, and of a cubic whose first coefficient is 0", () => {
    const roots = value(math("cubic_roots", 2, -4, -22, 24)) as number[];
    const sorted = [...roots].sort((a, b) => a - b);
    for (const [i, root] of [-3, 1, 4].entries()) expect(sorted[i]).toBeCloseTo(root, 12);
    const quadratic = value(math("cubic_roots", 0, 1, -3, 2)) as number[];
    expect([...quadratic].sort((a, b) => a - b)).toEqual([1, 2]);
  });

  it("differentiates and integrates a function given as text", () => {
    expect(value(math("derivative", "x^2", 3))).toBe(6);
    expect(value(math("derivative", "x^3", 2, "x", 3))).toBe(6);
    expect(value(math("derivative", "sin(t)", 0, "t"))).toBe(1);
    expect(value(math("integral", "sin(x)", 0, Math.PI))).toBe(2);
    expect(value(math("integral", "2 * u", 0, 2, "u"))).toBe(4);
    expect(value(math("integral", "x", 2, 0))).toBe(-2);
  });

  it("differentiates a long sum without simplifying it (simplification takes exponential time)", () => {
    expect(value(math("derivative", `x${" + 0".repeat(60)}`, 1))).toBe(1);
    expect(value(math("derivative", `x^2${" + x".repeat(300)}`, 2))).toBe(304);
  });

  it("refuses to differentiate again a derivative grown past 20,000 terms, and says so", () => {
    const product = Array.from({ length: 60 }, () => "x").join(" * ");
    expect(value(math("derivative", product, 1, "x", 2))).toBe(60 * 59);
    expect(failure(math("derivative", product, 1, "x", 3))).toBe(
      "derivative: the derivative of order 2 already has more than 20000 terms: ask for a lower order or a shorter function",
    );
    expect(value(math("derivative", "sin(cos(exp(x^2)))", 0.5, "x", 5))).toBeTypeOf("number");
  });
});

describe("math: the argument rules, at their edges", () => {
  const refusals: Array<[string, unknown[], string]> = [
    ["sqrt", [-1], "sqrt: argument x must be 0 or more, got -1"],
    ["ln", [0], "ln: argument x must be above 0, got 0"],
    ["log", [8, 0], "log: argument base must be above 0, got 0"],
    ["log", [8, 1], "log: base must not be 1"],
    ["modulo", [5, 0], "modulo: argument b must not be 0, got 0"],
    ["sqrt", ["abc"], 'sqrt: argument x must be a number, got "abc"'],
    ["sqrt", [" "], 'sqrt: argument x must be a number, got " "'],
    ["sqrt", [Number.NaN], "sqrt: argument x must be a number, got null"],
    ["abs", [Number.POSITIVE_INFINITY], "abs: argument x must be a number, got null"],
    ["root", [16, 0], "root: argument n must be a whole number from 1 to 1000, got 0"],
    ["root", [16, 1001], "root: argument n must be a whole number from 1 to 1000, got 1001"],
    ["root", [16, 2.5], "root: argument n must be a whole number from 1 to 1000, got 2.5"],
    ["round", [1.5, 16], "round: argument digits must be a whole number from 0 to 15, got 16"],
    ["round", [1.5, -1], "round: argument digits must be a whole number from 0 to 15, got -1"],
    ["factorial", [171], "factorial: argument n must be a whole number from 0 to 170, got 171"],
    ["gcd", [2.5, 5], "gcd: argument values must be a list of whole numbers, got [2.5,5]"],
    ["lcm", [], "lcm: argument values must be a list of 1 to 100000 numbers, got []"],
    ["mean", [[1, "x"]], 'mean: argument values must be a list of 1 to 100000 numbers, got [1,"x"]'],
    ["combinations", [2, 5], "combinations: k cannot exceed n"],
    ["permutations", [2, 3], "permutations: k cannot exceed n"],
    ["prime_factors", [1], "prime_factors: argument n must be a whole number from 2 to 1000000000000, got 1"],
    ["primes", [1_000_001], "primes: argument limit must be a whole number from 0 to 1000000, got 1000001"],
    ["fibonacci", [1477], "fibonacci: argument n must be a whole number from 0 to 1476, got 1477"],
    [
      "fibonacci_sequence",
      [1478],
      "fibonacci_sequence: argument count must be a whole number from 0 to 1477, got 1478",
    ],
    ["variance", [[5]], "variance: a sample needs at least two values"],
    ["std", [[5]], "std: a sample needs at least two values"],
    ["percentile", [[1, 2], 101], "percentile: percent must be from 0 to 100"],
    ["percentile", [[1, 2], -1], "percentile: percent must be from 0 to 100"],
    ["percent_change", [0, 5], "percent_change: argument old must not be 0, got 0"],
    ["cosine_similarity", [[1, 2], [1]], "cosine_similarity: the two vectors must have the same length"],
    [
      "cosine_similarity",
      [
        [0, 0],
        [1, 1],
      ],
      "cosine_similarity: a zero vector has no direction",
    ],
    ["distance", [[0, 0], [1]], "distance: the two points must have the same number of coordinates"],
    [
      "distance",
      [
        [0, 0, 0, 0],
        [1, 1, 1, 1],
      ],
      "distance: argument a must be a point: a list of 1 to 3 coordinates, got [0,0,0,0]",
    ],
    ["distance", [[], [1]], "distance: argument a must be a point: a list of 1 to 3 coordinates, got []"],
    ["triangle_area_sides", [1, 1, 5], "triangle_area_sides: these three sides do not make a triangle"],
    ["triangle_area_sides", [1, 5, 1], "triangle_area_sides: these three sides do not make a triangle"],
    ["triangle_area_sides", [5, 1, 1], "triangle_area_sides: these three sides do not make a triangle"],
    ["triangle_area_sides", [1, 2, 3], "triangle_area_sides: these three sides do not make a triangle"],
    ["triangle_area_sides", [0, 1, 1], "triangle_area_sides: argument a must be above 0, got 0"],
    ["circle_area", [-1], "circle_area: argument radius must be 0 or more, got -1"],
    ["quadratic_roots", [0, 0, 1], "quadratic_roots: a and b are both 0: there is no equation to solve"],
    ["cubic_roots", [0, 0, 0, 5], "cubic_roots: a, b and c are all 0: there is no equation to solve"],
    [
      "power",
      [2, -1, 5],
      "power: with a modulus, base, exponent and modulus must be whole numbers, exponent ≥ 0, modulus ≥ 1",
    ],
    [
      "power",
      [2, 3, 0],
      "power: with a modulus, base, exponent and modulus must be whole numbers, exponent ≥ 0, modulus ≥ 1",
    ],
    [
      "power",
      [2.5, 3, 7],
      "power: with a modulus, base, exponent and modulus must be whole numbers, exponent ≥ 0, modulus ≥ 1",
    ],
    ["loan_payment", [1000, 0.05, 0], "loan_payment: argument years must be above 0, got 0"],
    ["cagr", [0, 10, 1], "cagr: argument initial must be above 0, got 0"],
    [
      "final_velocity_distance",
      [0, -10, 5],
      "final_velocity_distance: the object never covers that distance with this acceleration",
    ],
    ["probability", [5, 4], "probability: favorable outcomes cannot exceed the total"],
    ["probability", [1, 0], "probability: argument total must be above 0, got 0"],
    ["binomial_probability", [2, 3, 0.5], "binomial_probability: successes cannot exceed trials"],
    [
      "binomial_probability",
      [2, 1, 1.5],
      "binomial_probability: argument p must be a probability from 0 to 1, got 1.5",
    ],
    [
      "binomial_probability",
      [2, 1, -0.1],
      "binomial_probability: argument p must be a probability from 0 to 1, got -0.1",
    ],
    ["derivative", ["", 1], 'derivative: argument function must be a text of 1 to 2000 characters, got ""'],
    ["derivative", ["x", 1, "2x"], 'derivative: the variable must be a name such as x, got "2x"'],
    ["integral", ["x", 0, 1, "x y"], 'integral: the variable must be a name such as x, got "x y"'],
    ["integral", ["x +", 0, 1], 'integral: invalid function "x +": Unexpected end of expression (char 4)'],
    [
      "derivative",
      ["sqrt(x)", -4],
      'derivative: the function does not give a real number there (got {"re":0,"im":-0.25})',
    ],
    [
      "integral",
      ["1 / x", -1, 1],
      "integral: the integral does not settle: is the function smooth on the interval?",
    ],
  ];
  it.each(refusals)("%s(%j) is refused: %s", (name, args, error) => {
    expect(failure(math(name, ...args))).toBe(error);
  });

  it("takes a list of up to 100,000 numbers, no more", () => {
    const ones = Array.from({ length: 100_000 }, () => 1);
    expect(value(math("add", ones))).toBe(100_000);
    expect(failure(math("add", [...ones, 1]))).toMatch(
      /^add: argument values must be a list of 1 to 100000 numbers/,
    );
  });

  it("takes a function text of up to 2000 characters", () => {
    const long = `x${" + 0".repeat(399)}`.padEnd(2000, " ");
    expect(long.length).toBe(2000);
    expect(value(math("derivative", long, 1))).toBe(1);
    expect(failure(math("derivative", `${long}x`, 1))).toMatch(
      /argument function must be a text of 1 to 2000/,
    );
    expect(failure(math("derivative", "   ", 1))).toMatch(/argument function must be a text of 1 to 2000/);
  });

  it("answers an error, not a number JSON cannot carry, when a result overflows", () => {
    for (const [name, args] of [
      ["exp", [1000]],
      ["power", [10, 400]],
      ["factorial", [170]],
    ] as const) {
      const result = math(name, ...args);
      if (name === "factorial") expect(result.ok, name).toBe(true);
      else
        expect(failure(result), name).toBe(
          "the result is not a finite number (too large, or undefined for these arguments)",
        );
    }
  });

  it("counts the arguments of a function with a fixed list, and names what is missing", () => {
    expect(failure(math("subtract", 1, 2, 3))).toBe("subtract takes 2 arguments (subtract(a, b)), got 3");
    expect(failure(math("subtract", 1))).toBe("subtract: argument b is missing (subtract(a, b))");
    expect(failure(math("subtract", 1, null))).toBe("subtract: argument b is missing (subtract(a, b))");
    expect(value(math("log", 8, null))).toBe(2.07944154167984);
    expect(value(math("round", 2.6, undefined))).toBe(3);
  });
});

describe("math: names", () => {
  it("reads a function's name in any case, with spaces or dashes, and its other names", () => {
    expect(mathFunctionName("  Square Root ")).toBe("sqrt");
    expect(mathFunctionName("prime-factors")).toBe("prime_factors");
    expect(mathFunctionName("nCr")).toBe("combinations");
    expect(mathFunctionName("Standard Deviation")).toBe("std");
    expect(mathFunctionName("POW")).toBe("power");
    expect(mathFunctionName("teleport")).toBeUndefined();
  });

  it("takes no name inherited from JavaScript objects for a function", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(mathFunctionName(name), name).toBeUndefined();
      expect(failure(math(name, 1)), name).toMatch(/^unknown math function/);
    }
  });

  it("says which function is unknown, whatever was given as its name", () => {
    expect(failure(math(42, 1))).toMatch(/^unknown math function 42: use one of add, subtract, multiply/);
    expect(failure(math(undefined))).toMatch(/^unknown math function undefined: use one of /);
    expect(failure(math("nope"))).toContain(Object.keys(MATH_FUNCTIONS).join(", "));
  });

  it("writes a function's signature with its optional and list parameters", () => {
    expect(signature("power")).toBe("power(base, exponent, modulus?)");
    expect(signature("add")).toBe("add(...values)");
    expect(signature("derivative")).toBe("derivative(function, at, variable?, order?)");
    expect(signature("npv")).toBe("npv(rate, cash_flows, initial?)");
    expect(signature("nothing")).toBe("nothing");
  });
});
