import { isPlainObject } from "../patch/index.js";
import { currencyCode } from "./currency.js";
import { MATH_FUNCTIONS } from "./math.js";
import { OPERAND, OPERATIONS, type Operation, type Role } from "./operations.js";
import {
  type JsonSchema,
  type ParameterShape,
  shapeOf,
  type ToolDescription,
  type ToolShape,
} from "./tool-shape.js";

/**
 * Recognising computation tools from their name, description and parameters, by general
 * rules: an expression parameter means "evaluate it"; a value with from/to units or
 * currencies means "convert it"; words naming a known operation, with every parameter in a
 * role of that operation, mean "that operation on those parameters". Anything less certain
 * is declined (undefined): a wrong computation is worse than none.
 */

/** Where an argument of the computation comes from. */
export type Source =
  | {
      argument: string;
      /** Multiplied by this (a diameter used as a radius: 0.5; centimetres as metres: 0.01). */
      scale?: number;
      /** A rate: "always" divided by 100 (the tool says percent); "auto" when above 1 (it does not say). */
      percent?: "always" | "auto";
      /** Periods per year, possibly given as a word ("monthly" → 12). */
      frequency?: boolean;
      /** A length in metres, given in centimetres when it is above 3 and the tool does not say. */
      metresUnlessAbove?: number;
      /** Used when the call leaves the argument out (the tool's own default). */
      default?: unknown;
    }
  /** A fixed value; null leaves the argument to the function's own default. */
  | { value: number | string | null };

interface Common {
  /** Where the value goes in the result: "" is the whole result, otherwise a property of it. */
  output: string;
  /** The tool's documented error for input the computation cannot use, when it has one. */
  error?: string;
}

/** What to compute, before it is placed in a result. */
type Core =
  | { kind: "evaluate"; expression: Source; variables?: Source; round?: Source }
  | { kind: "math"; function: string; arguments: Source[]; round?: Source }
  | { kind: "convert"; value: Source; from: Source; to: Source; round?: Source };

export type Computation = Core & Common;

export function computationFor(tool: ToolDescription): Computation | undefined {
  const shape = shapeOf(tool);
  const core = evaluation(shape) ?? conversion(shape) ?? operation(shape);
  if (!core) return undefined;
  const output = outputFor(tool, core.kind === "math" ? core.function : core.kind);
  if (output === undefined) return undefined;
  const error = documentedError(tool, core.kind);
  return { ...core, output, ...(error ? { error } : {}) };
}

// ── evaluating an expression ────────────────────────────────────────────────

const EXPRESSION_PARAMETER =
  /^(expression|expr|formula|math expression|mathematical expression|arithmetic expression|calculation|arithmetic|equation|input expression)$/;
const EVALUATE_WORDS = /\b(calculat\w*|evaluat\w*|comput\w*|arithmetic|math\w*|result|value)\b/;
const NOT_EVALUATION =
  /\b(solve|solver|solving|derivative|differentiat\w*|integra\w*|simplif\w*|plot\w*|graph\w*|factori[sz]\w*|expand\w*|roots?|limit|symbolic|latex|pars(e|ing)|validat\w*|regex|cron|sql|query|filter|search)\b/;

function evaluation(shape: ToolShape): Core | undefined {
  if (!EVALUATE_WORDS.test(shape.text) || NOT_EVALUATION.test(shape.name)) return undefined;
  const expression = shape.parameters.find((p) => p.kind === "string" && EXPRESSION_PARAMETER.test(p.words));
  if (!expression) return undefined;
  if (/^equation$/.test(expression.words) && NOT_EVALUATION.test(shape.text)) return undefined;
  const rest = shape.parameters.filter((p) => p !== expression);
  const variables = rest.find(
    (p) =>
      p.kind === "record" && /\b(variables?|values|scope|vars|substitutions?|parameters)\b/.test(p.words),
  );
  const leftover = rest.filter((p) => p !== variables);
  const round = roundingOf(leftover);
  if (leftover.some((p) => p !== round)) return undefined;
  return {
    kind: "evaluate",
    expression: { argument: expression.name },
    ...(variables ? { variables: { argument: variables.name } } : {}),
    ...(round ? { round: sourceOf(round) } : {}),
  } as Core;
}

// ── converting units and currencies ─────────────────────────────────────────

const CONVERT_WORDS = /\b(convert\w*|conversion|exchange|converter|translate \w+ units?)\b/;
const VALUE_PARAMETER =
  /^(value|amount|quantity|number|measurement|qty|input|input value|val|magnitude|sum|money|temperature|temp|distance|length|weight|mass|volume|speed|size|measure)$/;
const FROM_PARAMETER =
  /^(from|source|input|original|base|current|initial)( (unit|units|currency|scale|measure|type))?$|^(unit|currency) (from|in)$|^from \w+$/;
const TO_PARAMETER =
  /^(to|target|output|desired|destination|result|convert to|new|quote)( (unit|units|currency|scale|measure|type))?$|^(unit|currency) to$|^to \w+$/;
const MEASURE_WORDS =
  /\b(units?|currenc\w+|measure\w*|temperature|weight|length|distance|volume|exchange|money|scale|metric|imperial|cooking|kitchen)\b/;
const NOT_MEASURE =
  /\b(format|file|image|audio|video|time ?zone|timezone|encoding|language|case|colou?r|coordinates?|date|time|base64|text)\b/;
const RATE_WORDS = /\b(exchange rate|conversion rate|fx rate|rate of exchange)\b/;

function conversion(shape: ToolShape): Core | undefined {
  return namedConversion(shape) ?? parameterConversion(shape);
}

/** A value with from and to parameters: convert(value, from, to); without a value, a rate: convert(1, from, to). */
function parameterConversion(shape: ToolShape): Core | undefined {
  const strings = shape.parameters.filter((p) => p.kind === "string");
  const from = strings.find((p) => FROM_PARAMETER.test(p.words));
  const to = strings.find((p) => p !== from && TO_PARAMETER.test(p.words));
  if (!from || !to) return undefined;
  if (!CONVERT_WORDS.test(shape.text) && !RATE_WORDS.test(shape.text)) return undefined;
  // a conversion that adds its own charges answers more than the converted amount
  if (/\b(charges?|fees?|commissions?|spread|markup)\b/.test(shape.text)) return undefined;
  const about = `${from.words} ${from.description} ${to.words} ${to.description}`;
  if (!MEASURE_WORDS.test(`${shape.text} ${about}`) || NOT_MEASURE.test(`${from.words} ${to.words}`))
    return undefined;
  const numbers = shape.parameters.filter(
    (p) => (p.kind === "number" || p.kind === "integer") && p !== from && p !== to,
  );
  const round = roundingOf(numbers);
  const values = numbers.filter((p) => p !== round);
  const value = values.length === 1 && values[0] && isConvertedValue(values[0]) ? values[0] : undefined;
  if (values.length > 1 || (values.length === 1 && !value)) return undefined;
  const used = new Set([from, to, value, round]);
  if (shape.parameters.some((p) => !used.has(p) && !ignorableInConversion(p))) return undefined;
  if (!value && !RATE_WORDS.test(shape.text)) return undefined;
  return {
    kind: "convert",
    value: value ? sourceOf(value) : { value: 1 },
    from: sourceOf(from),
    to: sourceOf(to),
    ...(round ? { round: sourceOf(round) } : {}),
  } as Core;
}

/** The number a conversion converts: required, named so, or described so; never a fee or a rate. */
function isConvertedValue(p: ParameterShape): boolean {
  if (/\b(fee|fees|rate|commission|charge|tax|precision|margin|spread)\b/.test(p.words)) return false;
  return (
    p.required ||
    VALUE_PARAMETER.test(p.words) ||
    /\b(to (be )?convert|being converted)\b/.test(p.description)
  );
}

/** "celsius_to_fahrenheit(celsius)", "km to miles", "usd_to_eur(amount)": the units are in the name. */
function namedConversion(shape: ToolShape): Core | undefined {
  const match = shape.name.match(/(?:^| )([a-z]+(?: [a-z]+)?) (?:to|into|in) ([a-z]+(?: [a-z]+)?)$/);
  if (!match?.[1] || !match[2]) return undefined;
  const from = unitWord(match[1]);
  const to = unitWord(match[2]);
  if (!from || !to) return undefined;
  const numbers = shape.parameters.filter((p) => p.kind === "number" || p.kind === "integer");
  const round = roundingOf(numbers);
  const values = numbers.filter((p) => p !== round);
  if (values.length !== 1 || !values[0]) return undefined;
  const used = new Set([values[0], round]);
  if (shape.parameters.some((p) => !used.has(p))) return undefined;
  return {
    kind: "convert",
    value: sourceOf(values[0]),
    from: { value: from },
    to: { value: to },
    ...(round ? { round: sourceOf(round) } : {}),
  } as Core;
}

/** Unit words the recogniser trusts in a name (the last word or two before and after "to"). */
const UNIT_WORDS = new Set([
  ...[
    "celsius",
    "fahrenheit",
    "kelvin",
    "meters",
    "meter",
    "metres",
    "metre",
    "km",
    "kilometers",
    "kilometres",
  ],
  ...["miles", "mile", "feet", "foot", "ft", "inches", "inch", "cm", "centimeters", "mm", "yards", "yard"],
  ...["kg", "kilograms", "pounds", "lbs", "lb", "grams", "gram", "ounces", "oz", "liters", "litres", "liter"],
  ...["gallons", "gallon", "cups", "cup", "ml", "milliliters", "teaspoons", "tablespoons", "mph", "kph"],
  ...["radians", "degrees", "seconds", "minutes", "hours", "days", "weeks", "joules", "calories", "watts"],
  ...["bytes", "kilobytes", "megabytes", "gigabytes", "acres", "hectares"],
]);

function unitWord(words: string): string | undefined {
  const last = words.split(" ").at(-1) ?? "";
  if (currencyCode(words) && !UNIT_WORDS.has(words)) return currencyCode(words);
  if (currencyCode(last) && !UNIT_WORDS.has(last)) return currencyCode(last);
  if (UNIT_WORDS.has(words)) return words;
  return UNIT_WORDS.has(last) ? last : undefined;
}

function ignorableInConversion(p: ParameterShape): boolean {
  // the thing converted ("flour") changes nothing between like units, and offline every rate is the fixed one
  if (p.kind === "string")
    return (
      /^(item|ingredient|substance|product)( name)?$|^(note|label)$/.test(p.words) ||
      (!p.required && /^(date|as of|rate provider|provider|rate source|source of rates)$/.test(p.words))
    );
  return (
    p.kind === "boolean" &&
    !p.required &&
    /^(live|live conversion|real ?time|use live rates?|live rates?)$/.test(p.words)
  );
}

// ── named operations ────────────────────────────────────────────────────────

function operation(shape: ToolShape): Core | undefined {
  // most tools of a catalog have a parameter no operation could take (an id, a name): they are passed over at once
  if (!shape.parameters.every(takenBySomeRole)) return undefined;
  const matches = OPERATIONS.map((op) => matchOf(op, shape)).filter((m): m is Match => m !== undefined);
  if (matches.length === 0) return undefined;
  const byName = matches.filter((m) => m.inName);
  const candidates = byName.length > 0 ? byName : matches;
  const functions = new Set(candidates.map((m) => m.core.function));
  if (functions.size !== 1) return undefined;
  return candidates[0]?.core;
}

const ROLES: readonly Role[] = OPERATIONS.flatMap((op) => Object.values(op.roles));

/**
 * Whether some role of some operation could take the parameter, or an operation could leave
 * it aside: `matchOf` refuses a tool with a parameter left over, so a tool with one that none
 * could take matches no operation.
 */
function takenBySomeRole(p: ParameterShape): boolean {
  if (isUnitLabel(p) || (!p.required && /^(method|algorithm)$/.test(p.words))) return true;
  return ROLES.some((role) => {
    if (!role.kinds.includes(p.kind) && !(role.frequency && p.kind === "string")) return false;
    if (p.kind !== "string") return true;
    return role.alternatives.some(
      (a) =>
        a.sole === true ||
        (!(a.not?.test(p.words) ?? false) &&
          ((a.name?.test(p.words) ?? false) || (a.description?.test(p.description) ?? false))),
    );
  });
}

interface Match {
  core: Extract<Core, { kind: "math" }>;
  /** The tool's name alone names the operation (stronger than its description). */
  inName: boolean;
}

function matchOf(op: Operation, shape: ToolShape): Match | undefined {
  const identity = op.identity.find((words) => words.every((w) => w.test(shape.text)));
  if (!identity || op.exclude?.test(shape.text)) return undefined;
  const spec = MATH_FUNCTIONS[op.fn];
  if (!spec) return undefined;
  const free = new Set(shape.parameters);
  const args: Source[] = [];
  for (const parameter of spec.parameters) {
    const role = op.roles[parameter.name];
    const taken = role ? fill(role, parameter.name === "values" && spec.rest === true, free) : undefined;
    if (taken === undefined) {
      if (parameter.default === undefined) return undefined;
      args.push({ value: null });
      continue;
    }
    args.push(...taken);
  }
  const leftover = [...free];
  const round = roundingOf(leftover);
  const ignorable = (p: ParameterShape) =>
    (op.unitFree && isUnitLabel(p)) ||
    (op.methodFree === true && !p.required && /^(method|algorithm)$/.test(p.words));
  if (leftover.some((p) => p !== round && !ignorable(p))) return undefined;
  while (args.length > 0 && isAbsent(args.at(-1))) args.pop();
  return {
    core: {
      kind: "math",
      function: op.fn,
      arguments: args,
      ...(round ? { round: sourceOf(round) } : {}),
    } as Match["core"],
    inName: identity.every((w) => w.test(shape.name)),
  };
}

/** The sources a role takes from the free parameters (removing them), or undefined when none fits. */
function fill(role: Role, list: boolean, free: Set<ParameterShape>): Source[] | undefined {
  if (list) {
    const single = [...free].find((p) => role.kinds.includes(p.kind));
    if (single) {
      free.delete(single);
      return [sourceOf(single)];
    }
    const operands = [...free].filter((p) => isNumeric(p) && OPERAND.test(p.words));
    if (operands.length < 2) return undefined;
    for (const p of operands) free.delete(p);
    return operands.map(sourceOf);
  }
  for (const alternative of role.alternatives) {
    const candidates = [...free].filter(
      (p) => role.kinds.includes(p.kind) || (role.frequency && p.kind === "string"),
    );
    const found = alternative.sole
      ? soleOf(candidates)
      : candidates.find(
          (p) =>
            !(alternative.not?.test(p.words) ?? false) &&
            ((alternative.name?.test(p.words) ?? false) ||
              (alternative.description?.test(p.description) ?? false)),
        );
    if (!found) continue;
    free.delete(found);
    return [roleSource(role, found, alternative.scale)];
  }
  return undefined;
}

/** The one candidate left once rounding parameters are set aside, if there is exactly one. */
function soleOf(candidates: ParameterShape[]): ParameterShape | undefined {
  const left = candidates.filter((p) => !ROUNDING.test(p.words));
  return left.length === 1 ? left[0] : undefined;
}

function roleSource(role: Role, p: ParameterShape, scale: number | undefined): Source {
  const source = sourceOf(p) as Extract<Source, { argument: string }>;
  if (scale !== undefined) source.scale = scale;
  if (role.rate) {
    const text = `${p.words} ${p.description}`;
    if (!/\bdecimal\b/.test(text)) source.percent = /\b(percent\w*|pct)\b|%/.test(text) ? "always" : "auto";
  }
  if (role.frequency) source.frequency = true;
  if (role.si) {
    const factor = siFactor(`${p.words} ${p.description}`, role.si);
    if (factor === undefined && role.si === "length") source.metresUnlessAbove = 3;
    else if (factor !== undefined && factor !== 1) source.scale = (source.scale ?? 1) * factor;
  }
  return source;
}

/** Metres or kilograms per unit the parameter's words name; undefined when they name none. */
function siFactor(text: string, kind: "length" | "mass"): number | undefined {
  const factors: Array<[RegExp, number]> =
    kind === "length"
      ? [
          [/\b(centimet\w*|cm)\b/, 0.01],
          [/\b(millimet\w*|mm)\b/, 0.001],
          [/\binch(es)?\b/, 0.0254],
          [/\b(feet|foot|ft)\b/, 0.3048],
          [/\b(met(er|re)s?|m)\b/, 1],
        ]
      : [
          [/\b(kilo\w*|kgs?)\b/, 1],
          [/\b(pounds?|lbs?)\b/, 0.45359237],
          [/\b(grams?|g)\b/, 0.001],
        ];
  return factors.find(([words]) => words.test(text))?.[1];
}

function isAbsent(source: Source | undefined): boolean {
  return source !== undefined && "value" in source && source.value === null;
}

// ── parameters every kind shares ────────────────────────────────────────────

const ROUNDING =
  /^(round|round to|rounding|round off|decimal places|decimals|decimal|precision|digits|decimal points|num decimals|ndigits|places|decimal digits)$/;

function roundingOf(parameters: ParameterShape[]): ParameterShape | undefined {
  return parameters.find(
    (p) =>
      (ROUNDING.test(p.words) ||
        (/^(accuracy|precision)$/.test(p.words) && /\bdecimal/.test(p.description))) &&
      (p.kind === "integer" || p.kind === "number"),
  );
}

function isUnitLabel(p: ParameterShape): boolean {
  return (
    p.kind === "string" &&
    /^(units?|measure|measurement|unit of measure(ment)?|measurement units?|currency)$/.test(p.words)
  );
}

function isNumeric(p: ParameterShape): boolean {
  return p.kind === "number" || p.kind === "integer";
}

function sourceOf(p: ParameterShape): Source {
  return p.default === undefined ? { argument: p.name } : { argument: p.name, default: p.default };
}

// ── where the value goes, and which documented error answers bad input ─────

/**
 * A tool without an output schema answers the value itself. With one, the value goes into
 * the property that is plainly the answer (named result, value, answer…, or the only
 * property that can hold it); with none plainly so, undefined: the recogniser declines.
 */
function outputFor(tool: ToolDescription, what: string): string | undefined {
  const schema = tool.outputSchema;
  if (!schema) return "";
  const properties = isPlainObject(schema.properties)
    ? (schema.properties as Record<string, JsonSchema>)
    : {};
  const entries = Object.entries(properties);
  if (entries.length === 0) return "";
  const holds = entries.filter(([, s]) =>
    ["number", "integer", "string", "array", undefined].includes(typeOf(s)),
  );
  const words = what.split("_");
  const named =
    holds.find(([n]) =>
      /^(result|value|answer|output|computed value|converted( (value|amount|quantity|result))?)$/.test(
        wordsOfKey(n),
      ),
    ) ?? holds.find(([n]) => words.some((w) => wordsOfKey(n).split(" ").includes(w)));
  if (named) return named[0];
  return holds.length === 1 && entries.length === 1 ? holds[0]?.[0] : undefined;
}

function wordsOfKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .toLowerCase();
}

function typeOf(schema: JsonSchema): string | undefined {
  return typeof schema.type === "string" ? schema.type : undefined;
}

const ERROR_WORDS: Record<Computation["kind"], RegExp> = {
  evaluate: /\b(expression|formula|syntax|character|equation|input|calculation|malformed|parse)\b/,
  convert: /\b(unit|units|currency|currencies|conversion|convert)\b/,
  math: /\b(input|argument|number|value|parameter|domain|negative|zero|division)\b/,
};

/** The documented error a failed computation answers: one that says the input is invalid, of this kind first. */
function documentedError(tool: ToolDescription, kind: Computation["kind"]): string | undefined {
  const invalid = tool.errors.filter((e) =>
    /\b(invalid|malformed|unsupported|unknown|not (a )?valid|cannot|can't|could not|unable|bad|illegal|unrecogni[sz]ed)\b/.test(
      `${wordsOfKey(e.code)} ${e.message} ${e.when}`.toLowerCase(),
    ),
  );
  const specific = invalid.find((e) =>
    ERROR_WORDS[kind].test(`${wordsOfKey(e.code)} ${e.message} ${e.when}`.toLowerCase()),
  );
  return (specific ?? (invalid.length === 1 ? invalid[0] : undefined))?.code;
}
