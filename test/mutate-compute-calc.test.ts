import { describe, expect, it } from "vitest";
import {
  type Computed,
  calc,
  convert,
  convertCurrency,
  currencyCode,
  MAX_EXPRESSION_LENGTH,
  ratesFromState,
} from "../src/compute/index.js";

const value = (result: Computed) => {
  if (!result.ok) throw new Error(`expected a value, got the failure: ${result.error}`);
  return result.value;
};
const failure = (result: Computed) => {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
};

/**
 * The calculator, the unit converter and the currency converter as a reader of their
 * comments expects them: the spellings of other calculators, the names allowed in an
 * expression, the shapes of answers, the limits, and every refusal with its reason.
 */
describe("calc: spellings of other calculators", () => {
  it("reads Python's ** and math., typographic operators, a trailing = and a lambda", () => {
    expect(value(calc("2 ** 3 ** 2"))).toBe(512);
    expect(value(calc("Math.sqrt(9) + math.pi - pi"))).toBe(3);
    expect(value(calc("3 · 4"))).toBe(12);
    expect(value(calc("8 ÷ 2 × 3"))).toBe(12);
    expect(value(calc("5 − 3"))).toBe(2);
    expect(value(calc("5 – 3"))).toBe(2);
    expect(value(calc("  7 * 6 =  "))).toBe(42);
    expect(value(calc("lambda x: x ** 2", { x: 3 }))).toBe(9);
    expect(value(calc(" lambda   y :y + 1", { y: 1 }))).toBe(2);
  });

  it("names the empty expression, even when only an = was given", () => {
    expect(failure(calc("  =  "))).toBe('invalid expression "  =  ": the expression is empty');
    expect(failure(calc(""))).toBe('invalid expression "": the expression is empty');
  });

  it("takes an expression of up to 2000 characters, no more", () => {
    expect(MAX_EXPRESSION_LENGTH).toBe(2000);
    const longest = `1${"+1".repeat(999)}0`;
    expect(longest.length).toBe(2000);
    expect(value(calc(longest))).toBe(1009);
    expect(failure(calc(`${longest}1`))).toMatch(/: the expression is longer than 2000 characters$/);
    // the limit is on the expression, not on the spaces around it
    expect(value(calc(` ${longest} `))).toBe(1009);
  });
});

describe("calc: names an expression may use", () => {
  it("knows the constants", () => {
    expect(value(calc("e"))).toBe(Number(Math.E.toPrecision(15)));
    expect(value(calc("[E - e, PI - pi]"))).toEqual([0, 0]);
    expect(value(calc("tau / pi"))).toBe(2);
    expect(value(calc("phi"))).toBe(1.61803398874989);
    expect(value(calc("i * i"))).toBe(-1);
    expect(value(calc("true and not false"))).toBe(true);
  });

  it("takes units as names, but not names that are neither units, constants nor variables", () => {
    expect(value(calc("5 km to mile"))).toBe("3.10685596118667 mile");
    expect(value(calc("number(2 km, m)"))).toBe(2000);
    expect(failure(calc("5 parsecs"))).toBe('invalid expression "5 parsecs": unknown name parsecs');
    expect(failure(calc("sqrt(foo)"))).toBe('invalid expression "sqrt(foo)": unknown name foo');
    expect(failure(calc("max(1, 2) + y", { x: 1 }))).toBe(
      'invalid expression "max(1, 2) + y": unknown name y',
    );
  });

  it("refuses definitions, assignments, ranges and functions outside the list, with the reason", () => {
    expect(failure(calc("a = 1"))).toBe(
      'invalid expression "a = 1": definitions and assignments are not allowed: write the arithmetic itself',
    );
    expect(failure(calc("f(x) = 2x"))).toMatch(/definitions and assignments are not allowed/);
    expect(failure(calc("sum(1:3)"))).toBe(
      'invalid expression "sum(1:3)": ranges (a:b) are not allowed: list the numbers',
    );
    for (const name of ["evaluate", "simplify", "random", "derivative", "parse", "createUnit"])
      expect(failure(calc(`${name}("1")`)), name).toBe(
        `invalid expression "${name}(\\"1\\")": unknown or unavailable function ${name}()`,
      );
  });

  it("takes variables that are numbers or lists of numbers, of up to 100,000 items", () => {
    expect(value(calc("sum(xs) * k", { xs: [1, 2, 3], k: 2 }))).toBe(12);
    expect(value(calc("size(xs)", { xs: Array.from({ length: 100_000 }, () => 0) }))).toEqual([100_000]);
    expect(failure(calc("1", { xs: Array.from({ length: 100_001 }, () => 0) }))).toMatch(
      /^variable xs must be a number or a list of numbers, got \[0,0,/,
    );
    expect(failure(calc("x", { x: [1, "2"] }))).toBe(
      'variable x must be a number or a list of numbers, got [1,"2"]',
    );
    expect(failure(calc("x", { x: true }))).toBe(
      "variable x must be a number or a list of numbers, got true",
    );
    expect(failure(calc(null))).toBe("the expression must be a text, got null");
  });
});

describe("calc: answers as plain JSON", () => {
  it("answers lists for matrices, {re, im} for complex numbers, text for quantities", () => {
    expect(value(calc("[1, 2] * 2"))).toEqual([2, 4]);
    expect(value(calc("transpose([[1, 2], [3, 4]])"))).toEqual([
      [1, 3],
      [2, 4],
    ]);
    expect(value(calc("det([[1, 2], [3, 4]])"))).toBe(-2);
    expect(value(calc("sqrt(-4)"))).toEqual({ re: 0, im: 2 });
    expect(value(calc("2 + 3i"))).toEqual({ re: 2, im: 3 });
    expect(value(calc("3 inch + 1 cm"))).toBe("3.39370078740157 inch");
  });

  it("answers each line of several, and only the last of statements joined by ;", () => {
    expect(value(calc("1 + 1\n2 * 3"))).toEqual([2, 6]);
    expect(value(calc("1 + 1; 2 * 3"))).toEqual([6]);
  });

  it("says what mathjs found wrong while evaluating, and refuses results JSON cannot carry", () => {
    expect(failure(calc("1 km + 1 kg"))).toBe('invalid expression "1 km + 1 kg": Units do not match');
    expect(failure(calc("1 / 0"))).toBe(
      "the result is not a finite number (too large, or undefined for these arguments)",
    );
    expect(failure(calc("[1, 1/0]"))).toMatch(/not a finite number/);
    expect(failure(calc("0 / 0"))).toMatch(/not a finite number/);
    expect(value(calc("[[0.1 + 0.2, 0.7 * 3]]"))).toEqual([[0.3, 2.1]]);
    expect(value(calc("0.1 + 0.2 + 2i"))).toEqual({ re: 0.3, im: 2 });
    expect(failure(calc("1/0 + 2i"))).toMatch(/not a finite number/);
  });
});

describe("convert: units", () => {
  it("reads unit names in any case and spacing, trying the table before mathjs", () => {
    expect(value(convert(0, "°C", "°F"))).toBe(32);
    expect(value(convert(212, "  degrees   Fahrenheit ", "degree celsius"))).toBe(100);
    expect(value(convert(0, "centigrade", "K"))).toBe(273.15);
    expect(value(convert(1, "KM", "metres"))).toBe(1000);
    expect(value(convert(1, "Mm", "km"))).toBe(1000);
    // a temperature after "degrees", not an angle times a temperature
    expect(value(convert(0, "degrees Kelvin", "degC"))).toBe(-273.15);
    expect(value(convert(0, "degrees K", "degrees C"))).toBe(-273.15);
    expect(value(convert(491.67, "degrees Rankine", "°F"))).toBe(32);
    expect(value(convert(180, "degrees", "radians"))).toBe(Number(Math.PI.toPrecision(15)));
    expect(value(convert(1, "square metres", "square feet"))).toBe(10.7639104167097);
    expect(value(convert(2, "litres", "millilitres"))).toBe(2000);
  });

  it("takes an amount written as text, and names what is wrong otherwise", () => {
    expect(value(convert(" 2.5 ", "m", "cm"))).toBe(250);
    expect(failure(convert(" ", "m", "cm"))).toBe('the value to convert must be a number, got " "');
    expect(failure(convert(Number.POSITIVE_INFINITY, "m", "cm"))).toBe(
      "the value to convert must be a number, got null",
    );
    expect(failure(convert(1, 5, "m"))).toBe('units must be given as text, got 5 and "m"');
    expect(failure(convert(1, "m", null))).toBe('units must be given as text, got "m" and null');
    expect(failure(convert(1, "m", "parsec"))).toBe('unknown unit "parsec"');
    expect(failure(convert(1, "kg", "m"))).toBe("cannot convert kg to m: Units do not match ('m' != '1 kg')");
  });
});

describe("convert: currencies", () => {
  it("reads codes and names, plural or singular, in any case", () => {
    expect(currencyCode("usd")).toBe("USD");
    expect(currencyCode(" US Dollars ")).toBe("USD");
    expect(currencyCode("Swiss Francs")).toBe("CHF");
    expect(currencyCode("pounds sterling")).toBe("GBP");
    expect(currencyCode("€")).toBe("EUR");
    expect(currencyCode("reals")).toBe("BRL");
    expect(currencyCode("bus")).toBeUndefined();
    expect(currencyCode("XAU")).toBeUndefined();
    expect(currencyCode("xau", new Set(["XAU"]))).toBe("XAU");
  });

  it("converts with the built-in table, and takes a mass in pounds for a mass", () => {
    expect(value(convert(150, "JPY", "USD"))).toBe(1);
    expect(value(convert(10, "pounds", "kg"))).toBe(4.5359237);
    expect(value(convert(79, "£", "$"))).toBe(100);
  });

  it("names the unknown currency, on either side, with codes to use instead", () => {
    const advice = "use an ISO 4217 code such as USD, EUR, GBP, JPY, CNY, INR";
    expect(failure(convert(1, "USD", "ZZZ"))).toBe(`unknown currency "ZZZ": ${advice}`);
    expect(failure(convert(1, "ZZZ", "euros"))).toBe(`unknown currency "ZZZ": ${advice}`);
    expect(failure(convert(1, "euro", "parsec"))).toBe(`unknown currency "parsec": ${advice}`);
    expect(failure(convertCurrency(Number.NaN, "USD", "EUR"))).toBe(
      "the amount to convert must be a finite number, got null",
    );
  });

  it("takes a code only the state knows, and says when no rate links two currencies", () => {
    const gold = ratesFromState({ exchange_rates: { "XAU/XAG": 80 } });
    expect(value(convert(2, "XAU", "XAG", gold))).toBe(160);
    expect(value(convert(160, "xag", "xau", gold))).toBe(2);
    expect(failure(convert(1, "XAU", "EUR", gold))).toBe("no exchange rate from XAU to EUR");
    expect(failure(convert(1, "XAU", "EUR"))).toMatch(/^unknown currency "XAU"/);
  });
});

describe("ratesFromState: the rates a session's state holds", () => {
  it("reads each spelling of a pair as units of the second per one of the first", () => {
    for (const key of ["EUR/USD", "EUR_USD", "EUR-USD", "EUR>USD", "EUR:USD", "EURUSD", "eur/usd"]) {
      const rates = ratesFromState({ exchange_rates: { [key]: 2 } });
      expect(value(convert(3, "EUR", "USD", rates)), key).toBe(6);
    }
  });

  it("reads {from, to, rate} records under each of their names", () => {
    const records = [
      { from: "EUR", to: "USD", rate: 2 },
      { base: "EUR", quote: "USD", value: 2 },
      { source: "eur", target: "usd", exchange_rate: 2 },
      { from_currency: "EUR", to_currency: "USD", rate: 2 },
      { base_currency: "EUR", target_currency: "USD", rate: 2 },
      { base: "EUR", currency: "USD", rate: 2 },
    ];
    for (const record of records) {
      const rates = ratesFromState({ currency_rates: { any: record } });
      expect(value(convert(3, "EUR", "USD", rates)), JSON.stringify(record)).toBe(6);
    }
  });

  it("reads a code's rate against the record's own base, or the table's", () => {
    const perPound = ratesFromState({ rates: { EUR: { rate: 1.2, base: "GBP" } } });
    expect(value(convert(10, "GBP", "EUR", perPound))).toBe(12);
    const lower = ratesFromState({ rates: { eur: 0.5 } });
    expect(value(convert(10, "USD", "EUR", lower))).toBe(5);
  });

  it("skips entries it cannot read, and answers nothing when none is left", () => {
    const rates = ratesFromState({
      exchange_rates: {
        note: "rates of the day",
        EUR: 0,
        GBP: -1,
        JPY: "150",
        long: { from: "euro", to: "USD", rate: 2 },
        CHF: 0.5,
      },
    });
    expect(value(convert(10, "USD", "CHF", rates))).toBe(5);
    // the others fall back to the built-in table
    expect(value(convert(100, "USD", "EUR", rates))).toBe(92);
    expect(ratesFromState({ exchange_rates: { note: "none today" } })).toBeUndefined();
    expect(ratesFromState({ rates: {} })).toBeUndefined();
    expect(ratesFromState(undefined)).toBeUndefined();
  });

  it("looks in exchange_rates, then currency_rates, then rates, taking the first that is an object", () => {
    const first = ratesFromState({
      exchange_rates: [{ EUR: 9 }],
      currency_rates: { EUR: 0.5 },
      rates: { EUR: 0.25 },
    });
    expect(value(convert(10, "USD", "EUR", first))).toBe(5);
    const last = ratesFromState({ exchange_rates: "none", rates: { EUR: 0.25 } });
    expect(value(convert(10, "USD", "EUR", last))).toBe(2.5);
  });

  it("reads a state that hands out collections, and reads the same collection once", () => {
    const collection = { EUR: 0.5 };
    const asked: string[] = [];
    const reader = {
      collection(name: string) {
        asked.push(name);
        return name === "currency_rates" ? { toJSON: () => collection } : undefined;
      },
    };
    const rates = ratesFromState(reader);
    expect(asked).toEqual(["exchange_rates", "currency_rates", "rates"]);
    expect(value(convert(10, "USD", "EUR", rates))).toBe(5);
    expect(ratesFromState({ rates: collection })).toBe(rates);
  });

  it("goes through a currency both sides are quoted against, in either direction", () => {
    const rates = ratesFromState({ exchange_rates: { "USD/EUR": 0.5, "GBP/USD": 2 } });
    expect(value(convert(1, "GBP", "EUR", rates))).toBe(1);
    expect(value(convert(1, "EUR", "GBP", rates))).toBe(1);
    expect(value(convert(4, "EUR", "EUR", rates))).toBe(4);
  });
});
