import type { JsonSchema } from "./format.js";

/**
 * JSON Schema constructs in plain words. The same sentences serve two readers: an agent
 * whose framework stripped the construct from the advertised schema (they go into the
 * descriptions), and an agent whose call broke the rule (they go into the finding).
 */

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
export function orList(items: readonly string[]): string {
  return joinWith(items, "or");
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
export function andList(items: readonly string[]): string {
  return joinWith(items, "and");
}

function joinWith(items: readonly string[], word: string): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}`;
}

/** A value as an agent would type it. */
export function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** "1 character", "3 characters". */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

const FORMATS: Record<string, string> = {
  "date-time": 'a date and time in RFC 3339 form, e.g. "2026-03-02T09:00:00Z"',
  date: 'a date in the form YYYY-MM-DD, e.g. "2026-03-02"',
  time: 'a time in the form HH:MM:SS with an offset, e.g. "09:30:00Z"',
  duration: 'an ISO 8601 duration, e.g. "P3D" or "PT2H"',
  email: 'an email address, e.g. "ana@example.com"',
  hostname: 'a host name, e.g. "example.com"',
  uri: 'an absolute URI, e.g. "https://example.com/x"',
  "uri-reference": 'a URI or a relative reference, e.g. "/orders/1"',
  uuid: 'a UUID, e.g. "3f2b8c1e-6a4d-4f5e-9b7a-1c2d3e4f5a6b"',
  ipv4: 'an IPv4 address, e.g. "192.0.2.10"',
  ipv6: 'an IPv6 address, e.g. "2001:db8::1"',
};

/** What a `format` asks for, with an example. */
export function formatWords(format: string): string {
  return FORMATS[format] ?? `text in the "${format}" format`;
}

// ── patterns ───────────────────────────────────────────────────────────────

interface PatternPart {
  /** What one repetition is, singular and plural. */
  unit: { one: string; many: string } | { literal: string };
  min: number;
  max: number;
  /** An optional group: its own parts. */
  group?: PatternPart[];
}

/**
 * A regular expression of the kind catalogs write for ids and codes (`^ACC-[0-9]{4}$`), in
 * words: `"ACC-" followed by 4 digits`. Undefined for anything richer (alternatives,
 * look-arounds, back references), where the expression itself is the clearest statement.
 */
export function patternWords(pattern: string): string | undefined {
  // every rejected call against a pattern asks again; the patterns are the catalog's, so the cache stays small
  if (PATTERN_WORDS.has(pattern)) return PATTERN_WORDS.get(pattern);
  const words = patternInWords(pattern);
  PATTERN_WORDS.set(pattern, words);
  return words;
}

const PATTERN_WORDS = new Map<string, string | undefined>();

function patternInWords(pattern: string): string | undefined {
  if (!pattern.startsWith("^") || !pattern.endsWith("$") || pattern.endsWith("\\$")) return undefined;
  const parts = parsePattern(pattern.slice(1, -1));
  if (!parts || parts.length === 0) return undefined;
  return sequenceWords(parts);
}

function sequenceWords(parts: PatternPart[]): string {
  const merged = mergeLiterals(parts);
  if (merged.some((part) => part.group)) {
    // "5 digits, optionally followed by "-" and 4 digits"
    return merged
      .map((part) =>
        part.group
          ? `optionally followed by ${andList(mergeLiterals(part.group).map(partWords))}`
          : partWords(part),
      )
      .join(", ");
  }
  const words = merged.map(partWords);
  if (words.length === 1) return words[0] ?? "";
  if (words.length === 2) return `${words[0]} followed by ${words[1]}`;
  return `${words.slice(0, -1).join(", ")}, then ${words[words.length - 1]}`;
}

function mergeLiterals(parts: PatternPart[]): PatternPart[] {
  const out: PatternPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (
      last &&
      "literal" in last.unit &&
      "literal" in part.unit &&
      last.min === 1 &&
      last.max === 1 &&
      part.min === 1 &&
      part.max === 1
    ) {
      last.unit = { literal: last.unit.literal + part.unit.literal };
    } else out.push({ ...part, unit: { ...part.unit } });
  }
  return out;
}

function partWords(part: PatternPart): string {
  if ("literal" in part.unit) {
    const text = shown(part.unit.literal);
    if (part.min === 1 && part.max === 1) return text;
    return `${text} ${countWords(part.min, part.max)} times`;
  }
  const { one, many } = part.unit;
  if (part.min === 1 && part.max === 1) return `${/^[aeiou]/i.test(one) ? "an" : "a"} ${one}`;
  if (part.min === 0 && part.max === 1) return `an optional ${one}`;
  return `${countWords(part.min, part.max)} ${part.max === 1 ? one : many}`;
}

function countWords(min: number, max: number): string {
  if (min === max) return String(min);
  if (max === Number.POSITIVE_INFINITY) return min === 0 ? "any number of" : `at least ${min}`;
  return `${min} to ${max}`;
}

/** A tiny parser for literal characters, classes, `\d`, quantifiers and optional groups; undefined otherwise. */
function parsePattern(source: string): PatternPart[] | undefined {
  const parts: PatternPart[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i] ?? "";
    let unit: PatternPart["unit"] | undefined;
    let group: PatternPart[] | undefined;
    if (char === "[") {
      const end = source.indexOf("]", i + 2);
      if (end < 0) return undefined;
      unit = classUnit(source.slice(i + 1, end));
      i = end + 1;
    } else if (char === "\\") {
      const next = source[i + 1] ?? "";
      if (next === "d") unit = { one: "digit", many: "digits" };
      else if (/[.+*?()[\]{}|^$\\/-]/.test(next)) unit = { literal: next };
      else return undefined;
      i += 2;
    } else if (char === "(") {
      const end = source.indexOf(")", i);
      if (end < 0 || source.slice(i + 1, end).includes("(") || source[end + 1] !== "?") return undefined;
      group = parsePattern(source.slice(i + 1, end));
      if (!group) return undefined;
      i = end + 2;
      parts.push({ unit: { literal: "" }, min: 0, max: 1, group });
      continue;
    } else if (/[.+*?)\]{}|^$]/.test(char)) {
      return undefined;
    } else {
      unit = { literal: char };
      i += 1;
    }
    if (!unit) return undefined;
    const quantifier = /^(?:\{(\d+)(?:(,)(\d*))?\}|([?+*]))/.exec(source.slice(i));
    let min = 1;
    let max = 1;
    if (quantifier) {
      i += quantifier[0].length;
      if (quantifier[4] === "?") [min, max] = [0, 1];
      else if (quantifier[4] === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (quantifier[4] === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
      else {
        min = Number(quantifier[1]);
        max = quantifier[2] ? (quantifier[3] ? Number(quantifier[3]) : Number.POSITIVE_INFINITY) : min;
      }
    }
    parts.push({ unit, min, max });
  }
  return parts;
}

const NAMED_RANGES: Record<string, { one: string; many: string }> = {
  "0-9": { one: "digit", many: "digits" },
  "A-Z": { one: "capital letter", many: "capital letters" },
  "a-z": { one: "lowercase letter", many: "lowercase letters" },
};

function classUnit(body: string): PatternPart["unit"] | undefined {
  if (body.startsWith("^")) return undefined;
  const names: Array<{ one: string; many: string }> = [];
  let rest = body.replace("A-Za-z", () => {
    names.push({ one: "letter", many: "letters" });
    return "";
  });
  for (const [range, name] of Object.entries(NAMED_RANGES)) {
    if (rest.includes(range)) {
      names.push(name);
      rest = rest.replace(range, "");
    }
  }
  for (const match of rest.matchAll(/(\\?.)-(\\?.)/g)) {
    const [from, to] = [match[1] ?? "", match[2] ?? ""];
    const kind = /\d/.test(from + to) ? "digit" : /^[A-Z]+$/.test(from + to) ? "capital letter" : "character";
    names.push({ one: `${kind} from ${from} to ${to}`, many: `${kind}s from ${from} to ${to}` });
  }
  rest = rest.replace(/(\\?.)-(\\?.)/g, "");
  for (const single of rest.replace(/\\(.)/g, "$1")) names.push({ one: shown(single), many: shown(single) });
  if (names.length === 0) return undefined;
  return { one: orList(names.map((n) => n.one)), many: orList(names.map((n) => n.many)) };
}

// ── constraints of one value ───────────────────────────────────────────────

/** The constraints of a value's schema as phrases that follow "must": `have at least 1 character`. */
export function constraintPhrases(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.const !== undefined) out.push(`be ${shown(schema.const)}`);
  if (Array.isArray(schema.enum)) out.push(`be ${orList(schema.enum.map(shown))}`);
  if (typeof schema.format === "string") out.push(`be ${formatWords(schema.format)}`);
  if (typeof schema.pattern === "string") out.push(patternPhrase(schema.pattern));
  const number = (key: string) => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);
  const min = number("minimum");
  const max = number("maximum");
  const exclusiveMin = number("exclusiveMinimum");
  const exclusiveMax = number("exclusiveMaximum");
  if (min !== undefined && max !== undefined) out.push(`be from ${min} to ${max}`);
  else if (min !== undefined) out.push(`be at least ${min}`);
  else if (max !== undefined) out.push(`be at most ${max}`);
  if (exclusiveMin !== undefined) out.push(`be more than ${exclusiveMin}`);
  if (exclusiveMax !== undefined) out.push(`be less than ${exclusiveMax}`);
  const multipleOf = number("multipleOf");
  if (multipleOf !== undefined) out.push(`be a multiple of ${multipleOf}`);
  out.push(...boundsPhrases(schema, "minLength", "maxLength", "character"));
  out.push(...boundsPhrases(schema, "minItems", "maxItems", "item"));
  out.push(...boundsPhrases(schema, "minProperties", "maxProperties", "field"));
  if (schema.uniqueItems === true) out.push("have no repeated items");
  return out;
}

function patternPhrase(pattern: string): string {
  const words = patternWords(pattern);
  return words ? `be ${words} (pattern ${pattern})` : `match the pattern ${pattern}`;
}

function boundsPhrases(schema: JsonSchema, minKey: string, maxKey: string, unit: string): string[] {
  const min = typeof schema[minKey] === "number" ? (schema[minKey] as number) : undefined;
  const max = typeof schema[maxKey] === "number" ? (schema[maxKey] as number) : undefined;
  if (min !== undefined && max !== undefined && min === max) return [`have exactly ${counted(min, unit)}`];
  if (min !== undefined && max !== undefined) return [`have from ${min} to ${counted(max, unit)}`];
  if (min !== undefined) return [`have at least ${counted(min, unit)}`];
  if (max !== undefined) return [`have at most ${counted(max, unit)}`];
  return [];
}

// ── rules between arguments ────────────────────────────────────────────────

const quoted = (name: unknown) => `"${String(name)}"`;

function propertiesOf(schema: unknown): Record<string, JsonSchema> {
  if (!schema || typeof schema !== "object") return {};
  const properties = (schema as JsonSchema).properties;
  return properties && typeof properties === "object" ? (properties as Record<string, JsonSchema>) : {};
}

function requiredOf(schema: unknown): string[] {
  if (!schema || typeof schema !== "object") return [];
  const required = (schema as JsonSchema).required;
  return Array.isArray(required) ? required.map(String) : [];
}

/** `"order_type" is "market" or "stop"`, for the simple conditions catalogs write in `if`. */
export function conditionWords(schema: unknown): string {
  const parts: string[] = [];
  const properties = propertiesOf(schema);
  for (const [name, sub] of Object.entries(properties)) {
    if (sub.const !== undefined) parts.push(`${quoted(name)} is ${shown(sub.const)}`);
    else if (Array.isArray(sub.enum)) parts.push(`${quoted(name)} is ${orList(sub.enum.map(shown))}`);
    else {
      const phrases = constraintPhrases(sub);
      if (phrases.length)
        parts.push(`${quoted(name)} is given and ${phrases.join(" and ").replace(/^be /, "is ")}`);
    }
  }
  const named = new Set(Object.keys(properties));
  for (const name of requiredOf(schema)) if (!named.has(name)) parts.push(`${quoted(name)} is given`);
  return parts.length ? parts.join(" and ") : "this combination of arguments is given";
}

/** What a `then`, `else` or dependent schema demands, one clause each. */
export function requirementClauses(schema: unknown): string[] {
  if (!schema || typeof schema !== "object") return [];
  const s = schema as JsonSchema;
  const clauses: string[] = [];
  const required = requiredOf(s);
  if (required.length === 1) clauses.push(`${quoted(required[0])} is required`);
  else if (required.length > 1) clauses.push(`${andList(required.map(quoted))} are required`);
  for (const [name, sub] of Object.entries(propertiesOf(s))) {
    const phrases = constraintPhrases(sub);
    if (phrases.length) clauses.push(`${quoted(name)} must ${andList(phrases)}`);
  }
  if (s.not) clauses.push(forbiddenWords(s.not));
  if (Array.isArray(s.allOf)) for (const part of s.allOf) clauses.push(...requirementClauses(part));
  return clauses;
}

/** What a `not` forbids: `"limit_price" must not be given`. */
export function forbiddenWords(schema: unknown): string {
  const s = (schema ?? {}) as JsonSchema;
  const required = requiredOf(s);
  if (required.length === 1) return `${quoted(required[0])} must not be given`;
  if (required.length > 1) return `${andList(required.map(quoted))} must not be given together`;
  if (Array.isArray(s.anyOf)) {
    const names = s.anyOf.flatMap((option) => requiredOf(option));
    if (names.length) return `none of ${andList(names.map(quoted))} may be given`;
  }
  return "this combination of arguments is not allowed";
}

/** The names a rule's consequence is about (what is required or forbidden), to point a finding at. */
export function consequenceNames(schema: unknown): string[] {
  if (!schema || typeof schema !== "object") return [];
  const s = schema as JsonSchema;
  return [...requiredOf(s), ...Object.keys(propertiesOf(s)), ...requiredOf(s.not)];
}

/** An if/then/else as one sentence: `"limit_price" is required when "order_type" is "limit" or "stop_limit".` */
export function conditionalRule(schema: JsonSchema): string {
  const condition = conditionWords(schema.if);
  const then = requirementClauses(schema.then);
  const otherwise = requirementClauses(schema.else);
  const sentences: string[] = [];
  if (then.length === 1) sentences.push(`${capitalize(then[0] ?? "")} when ${condition}.`);
  else if (then.length > 1) sentences.push(`When ${condition}: ${andList(then)}.`);
  if (otherwise.length > 0)
    sentences.push(`${then.length ? "Otherwise" : `Unless ${condition}`}, ${andList(otherwise)}.`);
  return sentences.join(" ") || `When ${condition}, the tool's other rules apply.`;
}

/**
 * Every rule of an object schema that ties arguments together (conditions, alternatives,
 * exclusions, dependencies, counts), one sentence each; names are relative to the object.
 */
export function objectRules(schema: JsonSchema, options: { counts?: boolean } = {}): string[] {
  const rules: string[] = [];
  if (schema.if !== undefined) rules.push(conditionalRule(schema));
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf)
      if (part && typeof part === "object") rules.push(...objectRules(part as JsonSchema, options));
  }
  if (Array.isArray(schema.anyOf) && isPresenceChoice(schema.anyOf))
    rules.push(`Give at least one of ${choiceWords(schema.anyOf)}.`);
  if (Array.isArray(schema.oneOf) && isPresenceChoice(schema.oneOf))
    rules.push(`Give exactly one of ${choiceWords(schema.oneOf)}.`);
  if (schema.not !== undefined) rules.push(`${capitalize(forbiddenWords(schema.not))}.`);
  const dependentRequired = schema.dependentRequired;
  if (dependentRequired && typeof dependentRequired === "object") {
    for (const [name, needs] of Object.entries(dependentRequired as Record<string, unknown>)) {
      if (!Array.isArray(needs) || needs.length === 0) continue;
      rules.push(
        `When ${quoted(name)} is given, ${andList(needs.map(quoted))} ${needs.length === 1 ? "is" : "are"} required too.`,
      );
    }
  }
  const dependentSchemas = schema.dependentSchemas;
  if (dependentSchemas && typeof dependentSchemas === "object") {
    for (const [name, sub] of Object.entries(dependentSchemas as Record<string, unknown>)) {
      const clauses = requirementClauses(sub);
      if (clauses.length) rules.push(`When ${quoted(name)} is given, ${andList(clauses)}.`);
    }
  }
  const counts =
    options.counts === false ? [] : boundsPhrases(schema, "minProperties", "maxProperties", "argument");
  if (counts.length) rules.push(`Give ${counts.join(" and ").replace(/^have /, "")}.`);
  return rules;
}

/** Alternatives that only say which arguments must be present (`anyOf: [{required: [a]}, …]`). */
export function isPresenceChoice(options: unknown[]): boolean {
  return (
    options.length > 0 &&
    options.every((option) => {
      if (!option || typeof option !== "object") return false;
      const keys = Object.keys(option);
      return keys.length > 0 && keys.every((key) => key === "required" || key === "description");
    })
  );
}

/** `"email" or "last_name"`, `"a" and "b", or "c"`. */
export function choiceWords(options: unknown[]): string {
  return orList(options.map((option) => andList(requiredOf(option).map(quoted))));
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
