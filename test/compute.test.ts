import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importOpenAiFunctions, type Tool } from "../src/catalog/index.js";
import {
  type Computed,
  calc,
  computationEffects,
  computationFor,
  convert,
  MATH_FUNCTIONS,
  math,
  ratesFromState,
} from "../src/compute/index.js";
import { evaluateExpression } from "../src/expr/index.js";

const value = (result: Computed) => {
  if (!result.ok) throw new Error(`expected a value, got the failure: ${result.error}`);
  return result.value;
};
const failure = (result: Computed) => {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
};

function tool(
  name: string,
  description: string,
  properties: Record<string, Record<string, unknown>>,
  extra: Partial<Tool> = {},
): Tool {
  return {
    name,
    description,
    inputSchema: { type: "object", properties, required: Object.keys(properties) },
    errors: [],
    effects: [],
    ...extra,
  };
}

/**
 * The value a computation effect answers, evaluated by the effects language's own
 * expression room (its $calc, $convert and $math call the compute room); a computation
 * that refuses the values raises its reason.
 */
async function answer(
  t: Tool,
  args: Record<string, unknown>,
  state?: Record<string, unknown>,
): Promise<unknown> {
  const effect = computationEffects(t)?.[0];
  if (!effect) throw new Error(`${t.name} is not recognised`);
  const evaluated = await evaluateExpression(effect.value.$expr, {
    input: args,
    variables: { args },
    now: "2026-03-02T09:00:00Z",
    rates: () => ratesFromState(state),
  });
  if (!evaluated.ok) throw new Error(`${evaluated.kind}: ${evaluated.error}`);
  return evaluated.value;
}

describe("calc: arithmetic from text, safely", () => {
  it("evaluates arithmetic, Python spellings, functions, units and variables", () => {
    expect(value(calc("(2 + 3) * 4"))).toBe(20);
    expect(value(calc("0.1 + 0.2"))).toBe(0.3);
    expect(value(calc("2**10"))).toBe(1024);
    expect(value(calc("math.sqrt(16) + 1"))).toBe(5);
    expect(value(calc("3 × 4 ÷ 2"))).toBe(6);
    expect(value(calc("12 - 5 ="))).toBe(7);
    expect(value(calc("sin(pi / 2)"))).toBe(1);
    expect(value(calc("100 degF to degC"))).toBe("37.7777777777778 degC");
    expect(value(calc("rate * hours", { rate: 12.5, hours: 8 }))).toBe(100);
    expect(value(calc("mean([2, 4, 9])"))).toBe(5);
  });

  it("refuses what is not arithmetic, and says why", () => {
    expect(failure(calc("f(x) = f(x - 1); f(3)"))).toMatch(/definitions and assignments are not allowed/);
    expect(failure(calc("sum(1:100000000)"))).toMatch(/ranges/);
    expect(failure(calc("zeros(100000, 100000)"))).toMatch(/unavailable function zeros/);
    expect(failure(calc("import({})"))).toMatch(/unavailable function import/);
    expect(failure(calc("secret + 1"))).toMatch(/unknown name secret/);
    expect(failure(calc("2 +* 3"))).toMatch(/invalid expression "2 \+\* 3"/);
    expect(failure(calc(""))).toMatch(/empty/);
    expect(failure(calc(42))).toMatch(/must be a text/);
    expect(failure(calc("171!"))).toMatch(/not a finite number/);
    expect(failure(calc("x + 1", { x: "one" }))).toMatch(/variable x must be a number/);
  });

  it("stays fast on inputs meant to run long", () => {
    for (const text of [
      "combinations(10000000, 5000000)",
      "isPrime(1e15 + 37)",
      "1e6!",
      "((((((1))))))".repeat(100),
    ]) {
      const started = performance.now();
      calc(text);
      expect(performance.now() - started, text).toBeLessThan(100);
    }
  });
});

describe("convert: units and currencies", () => {
  it("converts units written the way people write them", () => {
    expect(value(convert(100, "F", "C"))).toBeCloseTo(37.7778, 4);
    expect(value(convert(5, "kilometres", "miles"))).toBeCloseTo(3.10686, 5);
    expect(value(convert(3, "tbsp", "tsp"))).toBe(9);
    expect(value(convert(60, "mph", "kph"))).toBeCloseTo(96.56064, 5);
    expect(value(convert(10, "pounds", "kg"))).toBeCloseTo(4.5359237, 7);
    expect(value(convert("2", "cups", "ml"))).toBeCloseTo(473.176, 3);
  });

  it("says which unit is unknown, and when units do not match", () => {
    expect(failure(convert(1, "parsec", "m"))).toBe('unknown unit "parsec"');
    expect(failure(convert(1, "kg", "m"))).toMatch(/cannot convert kg to m/);
    expect(failure(convert("ten", "m", "km"))).toMatch(/must be a number/);
  });

  it("converts currencies with the built-in table, by code or by name", () => {
    expect(value(convert(100, "USD", "EUR"))).toBe(92);
    expect(value(convert(92, "euros", "US dollars"))).toBe(100);
    expect(value(convert(10, "pounds", "dollars"))).toBeCloseTo(12.658, 3);
    expect(failure(convert(1, "USD", "ZZZ"))).toMatch(/unknown currency "ZZZ": use an ISO 4217 code/);
  });

  it("takes rates from the state when it has them: by code, by pair, or as {from, to, rate}", () => {
    const byCode = ratesFromState({ exchange_rates: { EUR: 0.5, JPY: { rate: 100 } } });
    expect(value(convert(10, "USD", "EUR", byCode))).toBe(5);
    expect(value(convert(5, "EUR", "JPY", byCode))).toBe(1000); // through USD, both quoted against it
    const byPair = ratesFromState({ rates: { "GBP/CHF": 1.25, x: { from: "CHF", to: "SEK", rate: 10 } } });
    expect(value(convert(8, "GBP", "CHF", byPair))).toBe(10);
    expect(value(convert(10, "CHF", "GBP", byPair))).toBe(8); // inverted
    expect(value(convert(1, "GBP", "SEK", byPair))).toBe(12.5);
    expect(value(convert(1, "GBP", "USD", byPair))).toBeCloseTo(1 / 0.79, 6); // the state has no USD: the table
    expect(ratesFromState({ orders: {} })).toBeUndefined();
  });

  it("reads a cross-rate table, one row of rates per code, pair by pair as the rows give them", () => {
    const matrix = ratesFromState({ rates: { EUR: { USD: 1.1, GBP: 0.85 }, GBP: { EUR: 1.18 } } });
    expect(value(convert(100, "EUR", "GBP", matrix))).toBe(85);
    expect(value(convert(10, "GBP", "EUR", matrix))).toBeCloseTo(11.8, 6); // its own row, not 1/0.85
    expect(value(convert(10, "EUR", "USD", matrix))).toBeCloseTo(11, 6);
  });

  it("reads a table that quotes one currency at 1 as quoted against that one", () => {
    const perEuro = ratesFromState({ exchange_rates: { EUR: 1, USD: 1.25, GBP: 0.8 } });
    expect(value(convert(100, "EUR", "USD", perEuro))).toBe(125);
    expect(value(convert(125, "USD", "GBP", perEuro))).toBe(80);
    // two codes at 1 say nothing about which is the base: dollars, as before
    const ambiguous = ratesFromState({ exchange_rates: { EUR: 1, CHF: 1, GBP: 0.5 } });
    expect(value(convert(10, "USD", "GBP", ambiguous))).toBe(5);
  });
});

describe("math: the allowlisted functions", () => {
  const cases: Array<[string, unknown[], unknown]> = [
    ["add", [1, 2, 3.5], 6.5],
    ["add", [[1, 2], 3], 6],
    ["subtract", [10, 4], 6],
    ["multiply", [2, 3, 4], 24],
    ["divide", [7, 2], 3.5],
    ["modulo", [-7, 3], 2],
    ["power", [2, 10], 1024],
    ["power", [4, 13, 497], 445],
    ["sqrt", [2.25], 1.5],
    ["root", [-27, 3], -3],
    ["log", [8, 2], 3],
    ["round", [2.345, 2], 2.35],
    ["factorial", [5], 120],
    ["gcd", [12, 18, 30], 6],
    ["lcm", [4, 6], 12],
    ["combinations", [5, 2], 10],
    ["permutations", [5, 2], 20],
    ["is_prime", [97], true],
    ["prime_factors", [360], [2, 2, 2, 3, 3, 5]],
    ["primes", [20, 10], [11, 13, 17, 19]],
    ["fibonacci", [10], 55],
    ["fibonacci_sequence", [6], [0, 1, 1, 2, 3, 5]],
    ["mean", [{ art: 80, math: 90 }], 85],
    ["median", [[3, 1, 4, 2]], 2.5],
    ["mode", [[1, 2, 2, 3]], 2],
    ["mode", [[1, 1, 2, 2]], [1, 2]],
    ["std", [[2, 4, 4, 4, 5, 5, 7, 9]], 2.1380899352994],
    ["std_population", [[2, 4, 4, 4, 5, 5, 7, 9]], 2],
    ["percentile", [[1, 2, 3, 4, 5], 50], 3],
    ["percentage", [30, 120], 25],
    ["hypot", [3, 4], 5],
    [
      "distance",
      [
        [0, 0],
        [6, 8],
      ],
      10,
    ],
    ["circle_area", [2], 12.5663706143592],
    ["triangle_area_sides", [3, 4, 5], 6],
    ["quadratic_roots", [1, -3, 2], [2, 1]],
    [
      "quadratic_roots",
      [1, 2, 5],
      [
        { re: -1, im: 2 },
        { re: -1, im: -2 },
      ],
    ],
    ["derivative", ["3x^2 + 2x - 1", 2], 14],
    ["derivative", ["lambda t: t**3", 2, "t", 2], 12],
    ["integral", ["x**2", 0, 3], 9],
    ["compound_interest", [1000, 0.05, 10, 4], 643.61946348701],
    ["future_value", [1000, 0.05, 2], 1102.5],
    ["loan_payment", [200000, 0.06, 30], 1199.10105030551],
    ["npv", [0.1, [110, 121], 100], 100],
    ["cagr", [100, 121, 2], 0.1],
    ["final_speed", [0, -9.81, 2], 19.62],
    ["bmi", [72, 1.8], 22.2222222222222],
    ["binomial_probability", [3, 2, 0.5], 0.375],
    [
      "cosine_similarity",
      [
        [1, 0],
        [0, 1],
      ],
      0,
    ],
  ];
  it.each(cases)("%s(%j) = %j", (name, args, expected) => {
    expect(value(math(name, ...args))).toEqual(expected);
  });

  it("answers the roots of a cubic, in any order", () => {
    const roots = value(math("cubic_roots", 1, -6, 11, -6)) as number[];
    expect([...roots].sort()).toEqual([1, 2, 3]);
  });

  it("takes other names for the same functions", () => {
    expect(value(math("average", [1, 2, 3]))).toBe(2);
    expect(value(math("HCF", 8, 12))).toBe(4);
    expect(value(math("standard-deviation", [1, 3]))).toBeCloseTo(Math.SQRT2, 6);
  });

  it("checks arguments first and names the one to fix", () => {
    expect(failure(math("factorial", -1))).toBe(
      "factorial: argument n must be a whole number from 0 to 170, got -1",
    );
    expect(failure(math("divide", 1, 0))).toBe("divide: argument b must not be 0, got 0");
    expect(failure(math("power", 2))).toBe(
      "power: argument exponent is missing (power(base, exponent, modulus?))",
    );
    expect(failure(math("sqrt", 1, 2))).toMatch(/sqrt takes 1 arguments/);
    expect(failure(math("mean", []))).toMatch(/argument values must be a list of 1 to/);
    expect(failure(math("std", [5]))).toMatch(/at least two values/);
    expect(failure(math("triangle_area_sides", 1, 1, 5))).toMatch(/do not make a triangle/);
    expect(failure(math("derivative", "x + y", 1))).toMatch(/unknown name y/);
    expect(failure(math("teleport", 1))).toMatch(
      /^unknown math function "teleport": use one of add, subtract/,
    );
  });

  it("documents every function with a summary", () => {
    for (const [name, spec] of Object.entries(MATH_FUNCTIONS))
      expect(spec.summary.length, name).toBeGreaterThan(1);
  });
});

describe("computationFor: recognising computation tools by general rules", () => {
  it("an expression parameter means evaluate it", async () => {
    const t = tool("evaluate_formula", "Evaluates an arithmetic formula and returns the result.", {
      formula: { type: "string", description: "The formula, e.g. (1 + 2) * 3" },
    });
    expect(computationFor(t)).toMatchObject({
      kind: "evaluate",
      expression: { argument: "formula" },
      output: "",
    });
    expect(await answer(t, { formula: "(19.99 + 5.01) * 2" })).toBe(50);
  });

  it("a value with from and to units or currencies means convert it", async () => {
    const scales = tool("switch_reading", "Convert a temperature reading between measurement scales.", {
      reading: { type: "number" },
      source_scale: { type: "string" },
      target_scale: { type: "string" },
    });
    expect(computationFor(scales)).toMatchObject({ kind: "convert", value: { argument: "reading" } });
    expect(await answer(scales, { reading: 212, source_scale: "Fahrenheit", target_scale: "Celsius" })).toBe(
      100,
    );

    const money = tool("exchange_money", "Convert an amount of money from one currency to another.", {
      amount: { type: "number" },
      from_currency: { type: "string" },
      to_currency: { type: "string" },
    });
    expect(await answer(money, { amount: 50, from_currency: "USD", to_currency: "EUR" })).toBe(46);
    // the session's own rates win over the built-in table
    const state = { exchange_rates: { EUR: { rate: 0.5, base: "USD" } } };
    expect(await answer(money, { amount: 50, from_currency: "USD", to_currency: "EUR" }, state)).toBe(25);

    const quote = tool("fx_quote", "Get the current exchange rate between two currencies.", {
      base_currency: { type: "string" },
      quote_currency: { type: "string" },
    });
    expect(await answer(quote, { base_currency: "EUR", quote_currency: "EUR" })).toBe(1);

    const named = tool("miles_to_km", "Turns a distance into another unit.", {
      distance: { type: "number" },
    });
    expect(await answer(named, { distance: 10 })).toBeCloseTo(16.09344, 5);
  });

  it("words naming an operation, with every parameter in a role, mean that operation", async () => {
    const tank = tool("tank_capacity", "Work out the volume of a cylindrical tank.", {
      radius: { type: "number" },
      height: { type: "number" },
    });
    expect(computationFor(tank)).toMatchObject({ kind: "math", function: "cylinder_volume" });
    expect(await answer(tank, { radius: 1, height: 2 })).toBeCloseTo(2 * Math.PI, 10);

    const scores = tool("summarize_scores", "Compute the average of a list of test scores.", {
      scores: { type: "array", items: { type: "number" } },
      decimals: { type: "integer", description: "Decimal places of the answer" },
    });
    expect(await answer(scores, { scores: [70, 80, 95] })).toBeCloseTo(81.6667, 4);
    expect(await answer(scores, { scores: [70, 80, 95], decimals: 1 })).toBe(81.7);

    const gcd = tool("shared_divisor", "Find the greatest common divisor of two whole numbers.", {
      first_number: { type: "integer" },
      second_number: { type: "integer" },
    });
    expect(await answer(gcd, { first_number: 84, second_number: 36 })).toBe(12);

    const loan = tool("monthly_installment", "Monthly payment of a loan.", {
      loan_amount: { type: "number" },
      annual_rate: { type: "number", description: "Yearly interest rate as a percentage, e.g. 6 for 6%" },
      years: { type: "integer" },
    });
    expect(computationFor(loan)).toMatchObject({ function: "loan_payment" });
    expect(await answer(loan, { loan_amount: 200000, annual_rate: 6, years: 30 })).toBeCloseTo(1199.101, 3);

    const slope = tool("rate_of_change", "Compute the derivative of a function at a point.", {
      function: { type: "string" },
      x: { type: "number" },
    });
    expect(await answer(slope, { function: "x^3", x: 2 })).toBe(12);

    const mass = tool("body_index", "Body mass index from weight and height.", {
      weight: { type: "number", description: "Weight in pounds" },
      height: { type: "number", description: "Height in inches" },
    });
    expect(await answer(mass, { weight: 160, height: 70 })).toBeCloseTo(22.957, 3);
  });

  it("declines when unsure: a wrong computation is worse than none", () => {
    const declined = [
      tool("get_forecast", "Retrieve the average temperature for a city over some days.", {
        city: { type: "string" },
        days: { type: "integer" },
      }),
      tool("circle_area", "Area of a circle.", {
        radius: { type: "number" },
        fill_color: { type: "string" },
      }),
      tool("square_stats", "Calculate the area and perimeter of a square.", { side: { type: "number" } }),
      tool("shipping_cost", "Calculate the shipping cost of a parcel.", {
        weight: { type: "number" },
        destination: { type: "string" },
      }),
      tool("convert_with_fee", "Convert money between currencies, including the bank's fees.", {
        amount: { type: "number" },
        from_currency: { type: "string" },
        to_currency: { type: "string" },
      }),
      tool("image_converter", "Convert an image from one format to another.", {
        quality: { type: "integer" },
        from_format: { type: "string" },
        to_format: { type: "string" },
      }),
      tool("simplify_expression", "Simplify a mathematical expression symbolically.", {
        expression: { type: "string" },
      }),
      tool(
        "triangle_area",
        "Area of a triangle.",
        { base: { type: "number" }, height: { type: "number" } },
        {
          outputSchema: {
            type: "object",
            properties: { summary: { type: "string" }, shape: { type: "string" } },
          },
        },
      ),
    ];
    for (const t of declined) expect(computationFor(t), t.name).toBeUndefined();
  });

  it("places the value in the output property that is plainly the answer", () => {
    const t = tool(
      "convert_length",
      "Convert a length between units.",
      { value: { type: "number" }, from_unit: { type: "string" }, to_unit: { type: "string" } },
      {
        outputSchema: {
          type: "object",
          properties: { converted_value: { type: "number" }, unit: { type: "string" } },
        },
      },
    );
    expect(computationFor(t)?.output).toBe("converted_value");
    expect(computationEffects(t)?.at(-1)).toMatchObject({ kind: "respond", output: "converted_value" });
  });
});

describe("computationEffects: version 2 effects, as data", () => {
  // imported the way a calculator of another catalog arrives, its error strings becoming documented errors
  const calculator = importOpenAiFunctions(
    {
      functions: [
        {
          schema: {
            type: "function",
            function: {
              name: "calculator",
              description: "Calculate the result of a mathematical expression.",
              parameters: {
                type: "object",
                properties: { expression: { type: "string" } },
                required: ["expression"],
              },
            },
          },
          error_messages: ["Error: invalid characters in expression", "Timeout: the service did not answer"],
        },
      ],
    },
    { id: "calc" },
  ).toolsets[0]?.tools[0] as Tool;

  it("a recognised tool gets a respond with a $expr value, naming the documented error for bad input", () => {
    const effects = computationEffects(calculator);
    expect(effects).toEqual([
      {
        kind: "respond",
        value: { $expr: "$calc($args.`expression`)" },
        computeError: "INVALID_CHARACTERS_IN_EXPRESSION",
      },
    ]);
    expect(JSON.parse(JSON.stringify(effects))).toEqual(effects); // plain data, ready for a toolset file
  });

  it("a computation that refuses the call's values is a compute failure with its reason, not a broken expression", async () => {
    expect(await answer(calculator, { expression: "2 + 2" })).toBe(4);
    await expect(answer(calculator, { expression: "2 + + " })).rejects.toThrow(
      /^compute: invalid expression/,
    );
  });

  it("a tool that is not a computation gets no effects", () => {
    expect(
      computationEffects(tool("get_order", "Get an order by id.", { order_id: { type: "string" } })),
    ).toBeUndefined();
  });
});

describe("mathjs loads on the first computation that needs it, never before", () => {
  it("importing the room, recognising tools and plain math do not load it; calc does", () => {
    const door = resolve(import.meta.dirname, "../dist/compute/index.js");
    const script = `
      import { createRequire } from "node:module";
      const { computationFor, math, calc } = await import(${JSON.stringify(door)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("/mathjs/"));
      computationFor({ name: "add_numbers", description: "Add two numbers.", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }, errors: [], effects: [] });
      math("add", 1, 2);
      const before = loaded();
      calc("1 + 1");
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ before: false, after: true });
  });
});
