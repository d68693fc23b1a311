import type { JsonSchema } from "./format.js";

/**
 * OpenAI's published rules for function parameters in strict mode (Structured Outputs,
 * "Supported schemas"), as a checker: the API refuses a tool whose schema breaks one.
 *
 * - The root is an object, not anyOf.
 * - Types: string, number, integer, boolean, object, array, null (enum, const and anyOf too).
 * - Every object sets additionalProperties: false and lists every property in required
 *   (optional fields are emulated with a union with null).
 * - Supported keywords: strings pattern, format (date-time, time, date, duration, email,
 *   hostname, ipv4, ipv6, uuid); numbers multipleOf, maximum, exclusiveMaximum, minimum,
 *   exclusiveMinimum; arrays items, minItems, maxItems; $defs and $ref (with no siblings);
 *   description and title. Composition (allOf, not, oneOf, if/then/else,
 *   dependentRequired, dependentSchemas) and everything else is refused.
 * - At most 5000 object properties and 10 levels of nesting; at most 1000 enum values in
 *   all, and 15,000 characters for one enum of more than 250 values; at most 120,000
 *   characters of property names, definition names, enum and const values together.
 */
export const STRICT_LIMITS = {
  properties: 5000,
  depth: 10,
  enumValues: 1000,
  largeEnum: 250,
  largeEnumChars: 15_000,
  totalChars: 120_000,
} as const;

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** Formats strict mode accepts. */
export const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

const NUMBER_KEYWORDS = ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"];

/** Keywords strict mode accepts: on any schema, and by the type they apply to. */
export const STRICT_KEYWORDS: Record<string, readonly string[]> = {
  any: ["type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs", "definitions"],
  string: ["pattern", "format"],
  number: NUMBER_KEYWORDS,
  integer: NUMBER_KEYWORDS,
  array: ["items", "minItems", "maxItems"],
  object: ["properties", "required", "additionalProperties"],
};

interface Tally {
  properties: number;
  enumValues: number;
  chars: number;
}

/** Every way a parameters schema breaks OpenAI's strict mode, each with its path; empty when it is accepted. */
export function strictModeProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema.type !== "object") problems.push("(root): must be of type object");
  if (schema.anyOf !== undefined) problems.push("(root): must not be anyOf");
  const tally: Tally = { properties: 0, enumValues: 0, chars: 0 };
  checkNode(schema, "", 1, problems, tally);
  for (const key of ["$defs", "definitions"]) {
    const defs = schema[key];
    if (!defs || typeof defs !== "object") continue;
    for (const [name, sub] of Object.entries(defs as Record<string, unknown>)) {
      tally.chars += name.length;
      checkNode(sub, `/${key}/${name}`, 1, problems, tally);
    }
  }
  if (tally.properties > STRICT_LIMITS.properties)
    problems.push(`(root): ${tally.properties} object properties, more than ${STRICT_LIMITS.properties}`);
  if (tally.enumValues > STRICT_LIMITS.enumValues)
    problems.push(`(root): ${tally.enumValues} enum values, more than ${STRICT_LIMITS.enumValues}`);
  if (tally.chars > STRICT_LIMITS.totalChars)
    problems.push(
      `(root): ${tally.chars} characters of names and values, more than ${STRICT_LIMITS.totalChars}`,
    );
  return problems;
}

function checkNode(node: unknown, path: string, depth: number, problems: string[], tally: Tally): void {
  const at = path || "(root)";
  if (!node || typeof node !== "object" || Array.isArray(node)) {
    problems.push(`${at}: a schema must be an object`);
    return;
  }
  const s = node as JsonSchema;
  if (depth > STRICT_LIMITS.depth) problems.push(`${at}: nested deeper than ${STRICT_LIMITS.depth} levels`);
  if (s.$ref !== undefined) {
    const siblings = Object.keys(s).filter((key) => key !== "$ref");
    if (siblings.length) problems.push(`${at}: $ref cannot have sibling keywords (${siblings.join(", ")})`);
    return;
  }
  const types = Array.isArray(s.type) ? s.type.map(String) : s.type !== undefined ? [String(s.type)] : [];
  for (const type of types) if (!TYPES.has(type)) problems.push(`${at}: type "${type}" is not supported`);
  if (types.length === 0 && s.anyOf === undefined && s.enum === undefined && s.const === undefined)
    problems.push(`${at}: every schema needs a type (or anyOf, enum, const)`);
  const allowed = new Set([
    ...(STRICT_KEYWORDS.any ?? []),
    ...types.flatMap((type) => STRICT_KEYWORDS[type] ?? []),
  ]);
  for (const key of Object.keys(s)) {
    if (!allowed.has(key)) problems.push(`${at}: keyword "${key}" is not supported in strict mode`);
  }
  if (typeof s.format === "string" && !STRICT_FORMATS.has(s.format))
    problems.push(`${at}: format "${s.format}" is not supported`);
  countValues(s, at, problems, tally);
  if (types.includes("object")) checkObject(s, path, at, depth, problems, tally);
  if (types.includes("array") && s.items !== undefined) {
    if (Array.isArray(s.items)) problems.push(`${at}: items must be one schema`);
    else checkNode(s.items, `${path}/items`, depth, problems, tally);
  }
  if (Array.isArray(s.anyOf)) {
    for (const [i, option] of s.anyOf.entries())
      checkNode(option, `${path}/anyOf/${i}`, depth, problems, tally);
  }
}

function checkObject(
  s: JsonSchema,
  path: string,
  at: string,
  depth: number,
  problems: string[],
  tally: Tally,
): void {
  if (s.additionalProperties !== false) problems.push(`${at}: additionalProperties must be false`);
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  for (const [name, sub] of Object.entries(properties)) {
    tally.properties += 1;
    tally.chars += name.length;
    if (!required.has(name))
      problems.push(`${at}: property "${name}" must be required (make it nullable instead)`);
    checkNode(sub, `${path}/properties/${name}`, depth + 1, problems, tally);
  }
  for (const name of required)
    if (!(name in properties)) problems.push(`${at}: required "${name}" is not a property`);
}

function countValues(s: JsonSchema, at: string, problems: string[], tally: Tally): void {
  if (s.const !== undefined) tally.chars += String(s.const).length;
  if (!Array.isArray(s.enum)) return;
  tally.enumValues += s.enum.length;
  const chars = s.enum.reduce((sum: number, value) => sum + String(value).length, 0);
  tally.chars += chars;
  if (s.enum.length > STRICT_LIMITS.largeEnum && chars > STRICT_LIMITS.largeEnumChars)
    problems.push(
      `${at}: an enum of ${s.enum.length} values may have at most ${STRICT_LIMITS.largeEnumChars} characters`,
    );
}
