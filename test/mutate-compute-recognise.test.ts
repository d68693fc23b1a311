import { beforeAll, describe, expect, it } from "vitest";
import type { Tool } from "../src/catalog/index.js";
import { calc, computationEffects, computationFor, ratesFromState } from "../src/compute/index.js";
import { evaluateExpression } from "../src/expr/index.js";

function tool(
  name: string,
  description: string,
  properties: Record<string, Record<string, unknown>>,
  extra: Partial<Tool> & { optional?: string[] } = {},
): Tool {
  const { optional = [], ...rest } = extra;
  return {
    name,
    description,
    inputSchema: {
      type: "object",
      properties,
      required: Object.keys(properties).filter((key) => !optional.includes(key)),
    },
    errors: [],
    effects: [],
    ...rest,
  };
}

const NUMBER = { type: "number" };
const INTEGER = { type: "integer" };
const TEXT = { type: "string" };
const NUMBERS = { type: "array", items: { type: "number" } };

/** The value the tool's computation effect answers for a call, run by the effects language. */
async function answer(t: Tool, args: Record<string, unknown>, state?: Record<string, unknown>) {
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

// mathjs loads on the first computation; loading it inside an expression's time bound would
// spend that bound on a busy machine
beforeAll(() => {
  calc("1");
});

const declined = (t: Tool) => expect(computationFor(t), t.name).toBeUndefined();

/**
 * Recognition by general rules, one tool shaped for each rule: the computation it finds
 * (and the answer a call gets), and each reason it declines a tool, since a wrong
 * computation is worse than none.
 */
describe("recognising an expression to evaluate", () => {
  it("takes variables and a rounding parameter beside the expression", async () => {
    const t = tool("evaluate_with_values", "Evaluate a math expression with variables.", {
      expression: TEXT,
      variables: { type: "object", additionalProperties: NUMBER },
      precision: INTEGER,
    });
    expect(computationFor(t)).toEqual({
      kind: "evaluate",
      expression: { argument: "expression" },
      variables: { argument: "variables" },
      round: { argument: "precision" },
      output: "",
    });
    expect(await answer(t, { expression: "x / 3", variables: { x: 10 }, precision: 2 })).toBe(3.33);
    expect(await answer(t, { expression: "x / 3", variables: { x: 10 } })).toBeCloseTo(3.3333, 4);
  });

  it("rounds each number of a list, leaves text alone, and uses the tool's own default", async () => {
    const t = tool(
      "calculator",
      "Calculate an arithmetic expression.",
      { expression: TEXT, decimals: { type: "integer", default: 1 } },
      { optional: ["decimals"] },
    );
    expect(await answer(t, { expression: "[1.234, 5.678]" })).toEqual([1.2, 5.7]);
    expect(await answer(t, { expression: "[1.25, 2.5, 2i]", decimals: 0 })).toEqual([1, 3, { re: 0, im: 2 }]);
    expect(await answer(t, { expression: "2 / 3", decimals: 3 })).toBe(0.667);
    expect(await answer(t, { expression: "5 km to mile" })).toBe("3.10685596118667 mile");
    expect(await answer(t, { expression: "1 < 2" })).toBe(true);
  });

  it("reads an equation as arithmetic only when nothing says it is to be solved", async () => {
    const plain = tool("equation_calculator", "Calculate the value of an equation.", { equation: TEXT });
    expect(await answer(plain, { equation: "3 * (2 + 5)" })).toBe(21);
    declined(tool("equation_tool", "Calculate the roots of an equation.", { equation: TEXT }));
    declined(
      tool("solve_expression", "Calculate the value that solves an expression.", { expression: TEXT }),
    );
    // a formula to evaluate is still one when the description mentions solving
    const formula = tool("formula_calculator", "Calculate a formula, no need to solve anything.", {
      formula: TEXT,
    });
    expect(computationFor(formula)?.kind).toBe("evaluate");
  });

  it("declines an expression tool with no word of calculation, or with another parameter", () => {
    declined(tool("run_expression", "Runs the given text.", { expression: TEXT }));
    declined(tool("calculate", "Calculate an expression.", { expression: TEXT, mode: TEXT }));
    declined(tool("calculate", "Calculate an expression.", { expression: TEXT, variables: NUMBERS }));
    declined(tool("calculate", "Calculate an expression.", { expression: INTEGER }));
  });
});

describe("recognising a conversion by its from and to parameters", () => {
  it("converts a value between units, rounding it when asked", async () => {
    const t = tool("convert_units", "Convert a value between units of measurement.", {
      value: NUMBER,
      from_unit: TEXT,
      to_unit: TEXT,
      decimal_places: INTEGER,
    });
    expect(computationFor(t)).toMatchObject({ kind: "convert", round: { argument: "decimal_places" } });
    expect(await answer(t, { value: 1, from_unit: "mile", to_unit: "km", decimal_places: 2 })).toBe(1.61);
  });

  it("finds the measure in a parameter's description when the tool's words do not name it", async () => {
    const t = tool("switch_reading", "Convert a reading.", {
      reading: NUMBER,
      source: { type: "string", description: "The unit the reading is in" },
      target: TEXT,
    });
    expect(await answer(t, { reading: 1, source: "kg", target: "g" })).toBe(1000);
    declined(tool("switch_reading", "Convert a reading.", { reading: NUMBER, source: TEXT, target: TEXT }));
  });

  it("answers a rate for a tool that converts no amount, only when it speaks of a rate", async () => {
    const rate = tool("fx", "Look up the exchange rate between two currencies.", {
      from_currency: TEXT,
      to_currency: TEXT,
    });
    expect(computationFor(rate)).toMatchObject({ kind: "convert", value: { value: 1 } });
    expect(await answer(rate, { from_currency: "USD", to_currency: "JPY" })).toBe(150);
    declined(tool("pair", "Convert between two currencies.", { from_currency: TEXT, to_currency: TEXT }));
    declined(
      tool("pair", "Pairs of currencies and their units.", { from_currency: TEXT, to_currency: TEXT }),
    );
  });

  it("takes the value converted: required, named as a value, or described as the thing to convert", async () => {
    const optionalAmount = tool(
      "convert_money",
      "Convert money between currencies.",
      { amount: NUMBER, from: TEXT, to: TEXT },
      { optional: ["amount"] },
    );
    expect(computationFor(optionalAmount)).toMatchObject({ value: { argument: "amount" } });
    const described = tool(
      "convert_money",
      "Convert money between currencies.",
      { q: { type: "number", description: "the sum to convert" }, from: TEXT, to: TEXT },
      { optional: ["q"] },
    );
    expect(await answer(described, { q: 100, from: "USD", to: "EUR" })).toBe(92);
    declined(
      tool(
        "convert_money",
        "Convert money between currencies.",
        { q: NUMBER, from: TEXT, to: TEXT },
        {
          optional: ["q"],
        },
      ),
    );
    declined(
      tool("convert_money", "Convert money between currencies.", { fee: NUMBER, from: TEXT, to: TEXT }),
    );
    declined(
      tool("convert_money", "Convert money between currencies.", {
        amount: NUMBER,
        margin: NUMBER,
        from: TEXT,
        to: TEXT,
      }),
    );
  });

  it("declines a conversion that adds charges of its own", () => {
    for (const word of ["charges", "a fee", "commission", "the spread", "a markup"])
      declined(
        tool("convert_money", `Convert money between currencies, with ${word}.`, {
          amount: NUMBER,
          from: TEXT,
          to: TEXT,
        }),
      );
  });

  it("ignores what changes nothing offline: the thing converted, an optional date or provider, a live flag", async () => {
    const cooking = tool("convert_measure", "Convert a kitchen measure between units.", {
      quantity: NUMBER,
      from_unit: TEXT,
      to_unit: TEXT,
      ingredient: TEXT,
    });
    expect(
      await answer(cooking, { quantity: 3, from_unit: "tsp", to_unit: "tbsp", ingredient: "salt" }),
    ).toBe(1);
    const money = tool(
      "convert_money",
      "Convert money between currencies.",
      { amount: NUMBER, from: TEXT, to: TEXT, date: TEXT, live: { type: "boolean" } },
      { optional: ["date", "live"] },
    );
    expect(computationFor(money)?.kind).toBe("convert");
    declined(
      tool("convert_money", "Convert money between currencies.", {
        amount: NUMBER,
        from: TEXT,
        to: TEXT,
        date: TEXT,
      }),
    );
    declined(
      tool("convert_money", "Convert money between currencies.", {
        amount: NUMBER,
        from: TEXT,
        to: TEXT,
        live: { type: "boolean" },
      }),
    );
    declined(
      tool("convert_money", "Convert money between currencies.", {
        amount: NUMBER,
        from: TEXT,
        to: TEXT,
        bank: TEXT,
      }),
    );
  });
});

describe("recognising a conversion named in the tool's name", () => {
  it("reads units and currencies from the words before and after 'to'", async () => {
    expect(
      await answer(tool("celsius_to_fahrenheit", "Convert.", { celsius: NUMBER }), { celsius: 100 }),
    ).toBe(212);
    expect(await answer(tool("usd_to_eur", "Exchange dollars.", { amount: NUMBER }), { amount: 100 })).toBe(
      92,
    );
    expect(await answer(tool("us_dollars_into_euros", "Exchange.", { amount: NUMBER }), { amount: 50 })).toBe(
      46,
    );
    const weight = tool("kilograms_to_pounds", "Convert a weight.", { kg: NUMBER, decimals: INTEGER });
    expect(computationFor(weight)).toMatchObject({ from: { value: "kilograms" }, to: { value: "pounds" } });
    expect(await answer(weight, { kg: 1, decimals: 2 })).toBe(2.2);
    expect(await answer(tool("metres_in_feet", "Convert.", { metres: NUMBER }), { metres: 0.3048 })).toBe(1);
  });

  it("declines names whose words are not units, and tools with more than the one value", () => {
    declined(tool("apples_to_oranges", "Convert.", { count: NUMBER }));
    declined(tool("km_to_miles", "Convert.", { distance: NUMBER, label: TEXT }));
    declined(tool("km_to_miles", "Convert.", { distance: NUMBER, factor: NUMBER }));
    declined(tool("km_to_miles", "Convert.", { distance: TEXT }));
  });
});

describe("recognising a named operation", () => {
  it("takes several operand parameters, or one list, for a function of many values", async () => {
    expect(await answer(tool("add_numbers", "Add numbers.", { a: NUMBER, b: NUMBER }), { a: 2, b: 3 })).toBe(
      5,
    );
    expect(await answer(tool("sum_list", "Sum a list.", { numbers: NUMBERS }), { numbers: [1, 2, 3] })).toBe(
      6,
    );
    declined(tool("add_one", "Add to a number.", { a: NUMBER }));
    declined(tool("add_words", "Add words.", { words: { type: "array", items: TEXT } }));
  });

  it("prefers the operation the tool's name names, and declines two operations it cannot choose between", async () => {
    const product = tool("product_of_list", "Returns the product of the numbers, not their sum.", {
      values: NUMBERS,
    });
    expect(await answer(product, { values: [2, 3, 4] })).toBe(24);
    declined(tool("combine", "Add or multiply the numbers.", { values: NUMBERS }));
    declined(tool("sum_of_squares", "Sum of the squares of numbers.", { values: NUMBERS }));
  });

  it("leaves an optional argument the tool does not take to the function's default", async () => {
    const power = tool("power", "Raise a number to a power.", { base: NUMBER, exponent: NUMBER });
    expect(computationFor(power)).toMatchObject({
      arguments: [{ argument: "base" }, { argument: "exponent" }],
    });
    expect(await answer(power, { base: 2, exponent: 5 })).toBe(32);
    const modular = tool("power", "Raise a number to a power.", {
      base: NUMBER,
      exponent: NUMBER,
      mod: NUMBER,
    });
    expect(await answer(modular, { base: 4, exponent: 13, mod: 497 })).toBe(445);
    const log = tool("log", "Logarithm of a number.", { number: NUMBER });
    expect(await answer(log, { number: Math.E ** 3 })).toBe(3);
    const gravity = tool("potential_energy", "Potential energy of a mass.", { mass: NUMBER, height: NUMBER });
    expect(await answer(gravity, { mass: 2, height: 10 })).toBe(196.2);
  });

  it("takes the only number left as the argument, rounding parameters aside", async () => {
    const t = tool("compute_factorial", "Factorial of a whole number.", { k: INTEGER, decimals: INTEGER });
    expect(computationFor(t)).toMatchObject({
      arguments: [{ argument: "k" }],
      round: { argument: "decimals" },
    });
    expect(await answer(t, { k: 5 })).toBe(120);
    declined(tool("compute_factorial", "Factorial of a whole number.", { k: INTEGER, j: INTEGER }));
  });

  it("ignores a unit label where the answer does not depend on it, and a method where the answer is exact", () => {
    expect(
      computationFor(tool("circle_area", "Area of a circle.", { radius: NUMBER, unit: TEXT }))?.kind,
    ).toBe("math");
    declined(tool("force", "Compute the force.", { mass: NUMBER, acceleration: NUMBER, unit: TEXT }));
    const method = { type: "string" };
    expect(
      computationFor(tool("factorial", "Factorial of n.", { n: INTEGER, method }, { optional: ["method"] }))
        ?.kind,
    ).toBe("math");
    declined(tool("factorial", "Factorial of n.", { n: INTEGER, method }));
    declined(tool("sqrt", "Square root of a number.", { x: NUMBER, method }, { optional: ["method"] }));
  });

  it("halves a diameter used as a radius", async () => {
    const t = tool("circle_area", "Area of a circle.", { diameter: NUMBER });
    expect(computationFor(t)).toMatchObject({ arguments: [{ argument: "diameter", scale: 0.5 }] });
    expect(await answer(t, { diameter: 2 })).toBe(Number(Math.PI.toPrecision(15)));
  });

  it("reads a rate in percent when it says so, as a decimal when it says so, and by its size otherwise", async () => {
    const withRate = (rate: Record<string, unknown>) =>
      tool("simple_interest", "Simple interest on a deposit.", { principal: NUMBER, rate, years: NUMBER });
    const percent = withRate({ type: "number", description: "Annual rate in percent" });
    const decimal = withRate({ type: "number", description: "Annual rate as a decimal" });
    const unsaid = withRate(NUMBER);
    expect(await answer(percent, { principal: 1000, rate: 0.5, years: 2 })).toBe(10);
    expect(await answer(decimal, { principal: 1000, rate: 5, years: 2 })).toBe(10_000);
    expect(await answer(unsaid, { principal: 1000, rate: 5, years: 2 })).toBe(100);
    expect(await answer(unsaid, { principal: 1000, rate: 0.05, years: 2 })).toBe(100);
    expect(await answer(unsaid, { principal: 1000, rate: 1, years: 2 })).toBe(2000);
  });

  it("reads periods per year as a number or as a word, and never as the number of years", async () => {
    const t = tool("compound_interest", "Compound interest earned on a deposit.", {
      principal: NUMBER,
      rate: { type: "number", description: "a decimal" },
      years: NUMBER,
      periods_per_year: { type: "string" },
    });
    expect(computationFor(t)).toMatchObject({
      arguments: [
        { argument: "principal" },
        { argument: "rate" },
        { argument: "years" },
        { argument: "periods_per_year", frequency: true },
      ],
    });
    expect(await answer(t, { principal: 1000, rate: 0.12, years: 1, periods_per_year: " Monthly " })).toBe(
      126.82503013197,
    );
    expect(await answer(t, { principal: 1000, rate: 0.1, years: 2, periods_per_year: 1 })).toBe(210);
    expect(await answer(t, { principal: 1000, rate: 0.1, years: 1, periods_per_year: "semi-annually" })).toBe(
      102.5,
    );
  });

  it("converts a body's height and weight to metres and kilograms from the words of their parameters", async () => {
    const bmi = (height: Record<string, unknown>, weight: Record<string, unknown> = NUMBER) =>
      tool("bmi", "Body mass index.", { weight, height });
    expect(
      await answer(bmi({ type: "number", description: "in centimeters" }), { weight: 81, height: 180 }),
    ).toBe(25);
    expect(await answer(bmi({ type: "number", description: "in metres" }), { weight: 81, height: 1.8 })).toBe(
      25,
    );
    expect(await answer(bmi({ type: "number", description: "in mm" }), { weight: 81, height: 1800 })).toBe(
      25,
    );
    expect(
      await answer(
        bmi({ type: "number", description: "in feet" }, { type: "number", description: "grams" }),
        {
          weight: 81_000,
          height: 6,
        },
      ),
    ).toBeCloseTo(24.2, 1);
    // no unit said: a height above 3 is in centimetres
    expect(await answer(bmi(NUMBER), { weight: 81, height: 180 })).toBe(25);
    expect(await answer(bmi(NUMBER), { weight: 81, height: 1.8 })).toBe(25);
    expect(await answer(bmi(NUMBER), { weight: 81, height: 3 })).toBe(9);
  });

  it("finds a coefficient by its description when its name says nothing", async () => {
    const t = tool("quadratic_solver", "Roots of a quadratic equation.", {
      p1: { type: "number", description: "coefficient of x^2" },
      p2: { type: "number", description: "coefficient of x" },
      p3: { type: "number", description: "the constant term" },
    });
    expect(await answer(t, { p1: 1, p2: -3, p3: 2 })).toEqual([2, 1]);
  });
});

describe("where the answer goes, and which documented error answers bad input", () => {
  it("places the value under the output named for the function, or the only one", () => {
    const area = tool(
      "circle_area",
      "Area of a circle.",
      { radius: NUMBER },
      { outputSchema: { type: "object", properties: { area: NUMBER, unit: TEXT } } },
    );
    expect(computationEffects(area)).toEqual([
      { kind: "respond", value: { $expr: '$math("circle_area", $args.`radius`)' }, output: "area" },
    ]);
    const only = tool(
      "quadratic",
      "Roots of a quadratic.",
      { a: NUMBER, b: NUMBER, c: NUMBER },
      { outputSchema: { type: "object", properties: { roots: { type: "array" } } } },
    );
    expect(computationFor(only)?.output).toBe("roots");
    const camel = tool(
      "convert_money",
      "Convert money between currencies.",
      { amount: NUMBER, from: TEXT, to: TEXT },
      { outputSchema: { type: "object", properties: { rateUsed: NUMBER, convertedAmount: NUMBER } } },
    );
    expect(computationFor(camel)?.output).toBe("convertedAmount");
    const empty = tool("sqrt", "Square root.", { x: NUMBER }, { outputSchema: { type: "object" } });
    expect(computationFor(empty)?.output).toBe("");
  });

  it("declines when no output can hold the value", () => {
    declined(
      tool(
        "sqrt",
        "Square root.",
        { x: NUMBER },
        { outputSchema: { type: "object", properties: { details: { type: "object" } } } },
      ),
    );
    declined(
      tool(
        "sqrt",
        "Square root.",
        { x: NUMBER },
        { outputSchema: { type: "object", properties: { ok: { type: "boolean" }, note: TEXT, at: TEXT } } },
      ),
    );
  });

  it("names the documented error that says the input is invalid, of the computation's kind first", () => {
    const error = (code: string, message = "", when = "") => ({ code, status: 400, message, when });
    const withErrors = (errors: Tool["errors"]) =>
      computationFor(
        tool("convert_units", "Convert between units.", { value: NUMBER, from: TEXT, to: TEXT }, { errors }),
      )?.error;
    expect(withErrors([error("INVALID_TOKEN"), error("INVALID_UNIT")])).toBe("INVALID_UNIT");
    expect(withErrors([error("E1", "the request was malformed")])).toBe("E1");
    expect(withErrors([error("E2", "", "the conversion could not be made")])).toBe("E2");
    expect(withErrors([error("INVALID_TOKEN"), error("BAD_GATEWAY")])).toBeUndefined();
    expect(withErrors([error("RATE_LIMITED", "too many calls")])).toBeUndefined();
    const math = tool(
      "sqrt",
      "Square root.",
      { x: NUMBER },
      { errors: [error("TIMEOUT"), error("NEGATIVE_INPUT", "cannot take a negative number")] },
    );
    expect(computationEffects(math)?.[0]?.computeError).toBe("NEGATIVE_INPUT");
  });
});

describe("what the recogniser reads of a tool's schema", () => {
  it("reads a nullable type as its type, and names in camel case, dots and capitals as words", async () => {
    const t = tool("calcVolume.cuboid", "Volume of a box.", {
      length: { type: ["number", "null"] },
      width: NUMBER,
      height: INTEGER,
    });
    expect(await answer(t, { length: 2, width: 3, height: 4 })).toBe(24);
    expect(computationFor(tool("HTTPSquareRoot", "Computes.", { x: NUMBER }))).toMatchObject({
      function: "sqrt",
    });
    expect(
      computationFor({ ...tool("tool_1", "Computes.", { x: NUMBER }), title: "Square Root" }),
    ).toMatchObject({
      function: "sqrt",
    });
  });

  it("takes an object of numbers as a list, but not an object with properties, nor a list of texts", async () => {
    const scores = (values: Record<string, unknown>) => tool("average", "Average of the values.", { values });
    expect(
      await answer(scores({ type: "object", additionalProperties: INTEGER }), { values: { a: 1, b: 3 } }),
    ).toBe(2);
    expect(await answer(scores({ type: "object" }), { values: { a: 1, b: 3 } })).toBe(2);
    expect(await answer(scores({ type: "array" }), { values: [1, 3] })).toBe(2);
    declined(scores({ type: "object", additionalProperties: TEXT }));
    declined(scores({ type: "object", properties: { a: NUMBER } }));
    declined(scores({ type: "array", items: TEXT }));
    declined(scores({ description: "no type" }));
  });

  it("reads a schema without properties or required names as a tool without parameters", () => {
    const bare: Tool = {
      name: "random_fact",
      description: "Calculate something.",
      inputSchema: { type: "object", properties: "none", required: "all" },
      errors: [],
      effects: [],
    };
    expect(computationFor(bare)).toBeUndefined();
    const odd: Tool = {
      name: "sqrt",
      description: "Square root.",
      inputSchema: { type: "object", properties: { x: true } },
      errors: [],
      effects: [],
    };
    expect(computationFor(odd)).toBeUndefined();
  });
});
