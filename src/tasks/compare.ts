import type { JsonSchema, Tool } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { isFreeText, sameText } from "./free-text.js";

/**
 * How the golden judge compares a call with a solution step: tool names up to case and
 * separators; values as the tool's input schema types them (numbers by value only where the
 * schema says number or integer, so the string "007" is not "7"); strings up to case,
 * spacing and Unicode form; free text (notes, reasons in words) by what it says.
 */

/** `getOrder`, `get-order` and `GET_ORDER` all name `get_order`. */
export function normalizeToolName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

export function normalizeString(text: string): string {
  return text.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, " ");
}

/** How one argument of a call differs from the solution's. */
export interface ArgumentDifference {
  argument: string;
  /** missing: the solution has it, the call not; wrong: different value; unexpected: only the call has it. */
  kind: "missing" | "wrong" | "unexpected";
  /** Notes are reported but do not make the call wrong (free-text arguments). */
  severity: "error" | "note";
  /** The argument is free text: "wrong" means it does not say what the solution's says. */
  freeText?: true;
}

/**
 * Decides whether a free-text value says what the solution's says. The offline judge is
 * word overlap (sameText); a model's verdicts can stand in (see verdict.ts).
 */
export type TextJudge = (expected: string, actual: string, argument: string) => boolean;

export interface CompareOptions {
  judgeText?: TextJudge;
}

/** The argument differences of a call against a solution step (empty: same call). */
export function compareArguments(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  tool: Tool | undefined,
  options: CompareOptions = {},
): ArgumentDifference[] {
  const schema = tool?.inputSchema;
  const differences: ArgumentDifference[] = [];
  for (const [name, value] of Object.entries(expected)) {
    if (value === null || value === undefined) continue;
    const given = actual[name];
    const property = propertySchema(schema, name);
    const prose = typeof value === "string" && isFreeText(name, property);
    const mark = prose ? { freeText: true as const } : {};
    if (given === undefined || given === null) {
      differences.push({ argument: name, kind: "missing", severity: "error", ...mark });
    } else if (!sameArgument(name, value, given, property, options)) {
      differences.push({ argument: name, kind: "wrong", severity: "error", ...mark });
    }
  }
  for (const [name, value] of Object.entries(actual)) {
    if (value === null || value === undefined || expected[name] !== undefined) continue;
    const prose = typeof value === "string" && isFreeText(name, propertySchema(schema, name));
    differences.push({
      argument: name,
      kind: "unexpected",
      severity: prose ? "note" : "error",
      ...(prose ? { freeText: true as const } : {}),
    });
  }
  return differences;
}

/**
 * Equality as the schema types the values: numbers with a relative tolerance, booleans,
 * normalized strings, free text by content, arrays in any order, objects field by field.
 * Without a schema, a number equals only a number and a string only a string.
 */
export function sameValue(
  expected: unknown,
  actual: unknown,
  schema?: JsonSchema,
  options: CompareOptions = {},
): boolean {
  return sameArgument("", expected, actual, schema, options);
}

function sameArgument(
  name: string,
  expected: unknown,
  actual: unknown,
  schema: JsonSchema | undefined,
  options: CompareOptions,
): boolean {
  const numeric = numbersBySchema(schema);
  const n = asNumber(expected, numeric);
  if (n !== undefined) {
    const m = asNumber(actual, numeric);
    return m !== undefined && Math.abs(n - m) <= 1e-9 * Math.max(1, Math.abs(n), Math.abs(m));
  }
  if (typeof expected === "boolean") return asBoolean(actual, schema) === expected;
  if (typeof expected === "string") {
    if (typeof actual !== "string") return false;
    if (name && isFreeText(name, schema)) return (options.judgeText ?? sameText)(expected, actual, name);
    return normalizeString(expected) === normalizeString(actual);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    const items = itemsSchema(schema);
    const same = (a: unknown, b: unknown) => sameArgument(name, a, b, items, options);
    if (expected.every((item, i) => same(item, actual[i]))) return true;
    return sameMultiset(expected, actual, same);
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      const a = expected[key];
      const b = actual[key];
      // absent and null are the same; either against a value differs, as the value's own comparison says
      if ((a === undefined || a === null) && (b === undefined || b === null)) continue;
      if (!sameArgument(key, a, b, propertySchema(schema, key), options)) return false;
    }
    return true;
  }
  return expected === actual;
}

function sameMultiset(
  expected: unknown[],
  actual: unknown[],
  same: (a: unknown, b: unknown) => boolean,
): boolean {
  const used = new Set<number>();
  return expected.every((item) => {
    const index = actual.findIndex((candidate, i) => !used.has(i) && same(item, candidate));
    if (index < 0) return false;
    used.add(index);
    return true;
  });
}

/** A JSON number is a number; a numeric string only where the schema says number and not string. */
function asNumber(value: unknown, numericStrings: boolean): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (numericStrings && typeof value === "string" && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value))
    return Number(value);
  return undefined;
}

function asBoolean(value: unknown, schema: JsonSchema | undefined): boolean | undefined {
  if (typeof value === "boolean") return value;
  const types = typesOf(schema);
  if (!types.has("boolean") || types.has("string")) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  return undefined;
}

function numbersBySchema(schema: JsonSchema | undefined): boolean {
  const types = typesOf(schema);
  return (types.has("number") || types.has("integer")) && !types.has("string");
}

/** The types a schema allows: its `type`, or those of its anyOf/oneOf branches. */
function typesOf(schema: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  const type = schema.type;
  if (typeof type === "string") types.add(type);
  if (Array.isArray(type)) for (const t of type) if (typeof t === "string") types.add(t);
  for (const branch of branches(schema)) for (const t of typesOf(branch)) types.add(t);
  return types;
}

/** The schema of a property: from `properties`, or from the first allOf/anyOf/oneOf branch that has it. */
export function propertySchema(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  if (!schema) return undefined;
  const properties = schema.properties;
  if (isPlainObject(properties) && isPlainObject(properties[name])) return properties[name] as JsonSchema;
  for (const branch of branches(schema)) {
    const found = propertySchema(branch, name);
    if (found) return found;
  }
  return undefined;
}

function itemsSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  const items = schema?.items;
  return isPlainObject(items) ? (items as JsonSchema) : undefined;
}

function branches(schema: JsonSchema): JsonSchema[] {
  return ["allOf", "anyOf", "oneOf"].flatMap((key) => {
    const list = schema[key];
    return Array.isArray(list) ? list.filter(isPlainObject) : [];
  }) as JsonSchema[];
}
