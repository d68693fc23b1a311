import { mathjs } from "./mathjs.js";

/**
 * Unit names as people write them ("Celsius", "°F", "kilometres", "mph", "tbsp") mapped
 * onto mathjs's unit names. mathjs knows plurals and SI prefixes itself; this table covers
 * symbols, British spellings and kitchen abbreviations it does not.
 */
const ALIASES: Readonly<Record<string, string>> = {
  c: "degC",
  "°c": "degC",
  "º c": "degC",
  "degree celsius": "degC",
  "degrees celsius": "degC",
  centigrade: "degC",
  f: "degF",
  "°f": "degF",
  "degree fahrenheit": "degF",
  "degrees fahrenheit": "degF",
  k: "K",
  "°k": "K",
  kelvins: "K",
  metre: "m",
  metres: "m",
  kilometre: "km",
  kilometres: "km",
  centimetre: "cm",
  centimetres: "cm",
  millimetre: "mm",
  millimetres: "mm",
  kilometer: "km",
  kilometers: "km",
  centimeter: "cm",
  centimeters: "cm",
  millimeter: "mm",
  millimeters: "mm",
  kilogram: "kg",
  kilograms: "kg",
  milligram: "mg",
  milligrams: "mg",
  pound: "lbm",
  pounds: "lbm",
  litre: "L",
  litres: "L",
  milliliter: "mL",
  milliliters: "mL",
  millilitre: "mL",
  millilitres: "mL",
  ml: "mL",
  mph: "mi/h",
  "miles per hour": "mi/h",
  kph: "km/h",
  kmh: "km/h",
  "km/hr": "km/h",
  "kilometers per hour": "km/h",
  "kilometres per hour": "km/h",
  "m/sec": "m/s",
  "meters per second": "m/s",
  "metres per second": "m/s",
  tbsp: "tablespoon",
  tbs: "tablespoon",
  tsp: "teaspoon",
  "fl oz": "floz",
  "fluid ounce": "floz",
  "fluid ounces": "floz",
  "square meter": "m2",
  "square meters": "m2",
  "square metre": "m2",
  "square metres": "m2",
  "square feet": "sqft",
  "square foot": "sqft",
  "square mile": "sqmi",
  "square miles": "sqmi",
  "cubic meter": "m3",
  "cubic meters": "m3",
  "cubic feet": "cuft",
};

/** The mathjs unit text for a unit name, or undefined when mathjs cannot read it. */
export function unitName(text: string): string | undefined {
  const trimmed = text.trim().replace(/\s+/g, " ");
  const lower = trimmed.toLowerCase();
  // "degrees Kelvin" is a temperature: mathjs would read it as an angle times a temperature
  const scale = /^degrees? ./.test(lower) ? lower.replace(/^degrees? /, "") : undefined;
  // the table first: a bare "C" or "F" is a temperature far more often than a coulomb or a farad
  for (const candidate of [ALIASES[lower], scale && ALIASES[scale], scale, trimmed, lower]) {
    if (candidate && readable(candidate)) return candidate;
  }
  return undefined;
}

function readable(unit: string): boolean {
  try {
    mathjs().math.unit(1, unit);
    return true;
  } catch {
    return false;
  }
}
