import { isPlainObject } from "../../patch/index.js";
import type { JsonSchema } from "../format.js";

/**
 * Helpers that turn loosely written schemas into JSON Schema 2020-12 the loader accepts,
 * saying what they changed. A note is returned for each change; the caller turns notes into
 * import problems with its own path prefix.
 */
export interface SchemaNote {
  path: string;
  message: string;
}

/** Formats ajv-formats checks; any other format would only be ignored with a console warning. */
const KNOWN_FORMATS = new Set([
  "date",
  "time",
  "date-time",
  "iso-time",
  "iso-date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
  "byte",
  "int32",
  "int64",
  "float",
  "double",
  "password",
  "binary",
]);

export function isKnownFormat(format: string): boolean {
  return KNOWN_FORMATS.has(format);
}

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);

/** The JSON types a schema declares, as a list (empty when it declares none). */
function declaredTypes(schema: JsonSchema): unknown[] {
  const declared = schema.type;
  return Array.isArray(declared) ? declared : declared === undefined ? [] : [declared];
}

/** Whether a schema takes a list, alone or beside other types (`["array", "null"]`). */
function takesList(schema: JsonSchema): boolean {
  return declaredTypes(schema).includes("array");
}

export function isJsonType(name: unknown): name is string {
  return typeof name === "string" && JSON_TYPES.has(name);
}

/** Whether a value has the JSON type(s) a schema declares (items checked one level down). */
export function matchesType(schema: JsonSchema, value: unknown): boolean {
  const types = declaredTypes(schema);
  if (types.length > 0 && !types.some((t) => hasJsonType(t, value))) return false;
  if (Array.isArray(value) && isPlainObject(schema.items)) {
    const items = schema.items;
    return value.every((v) => matchesType(items, v));
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    return false;
  return true;
}

function hasJsonType(type: unknown, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

/** Values that mean "no default" in sources written from Python. */
export function isNoDefault(value: unknown): boolean {
  return value === null || value === undefined || value === "None" || value === "null" || value === "";
}

export type DefaultRepair =
  | { kind: "kept"; value: unknown }
  | { kind: "coerced"; value: unknown }
  | { kind: "dropped" };

/**
 * Fits a default to its schema: kept when it matches, coerced when text spells a value of the
 * right type ("50" for a number, "[1, 2]" or "email" for an array), dropped otherwise.
 */
export function repairDefault(schema: JsonSchema, value: unknown): DefaultRepair {
  if (matchesType(schema, value)) return { kind: "kept", value };
  if (typeof value === "string") {
    for (const candidate of textReadings(value, schema)) {
      if (matchesType(schema, candidate)) return { kind: "coerced", value: candidate };
    }
  }
  if (!Array.isArray(value) && takesList(schema) && matchesType(schema, [value]))
    return { kind: "coerced", value: [value] };
  return { kind: "dropped" };
}

function textReadings(text: string, schema: JsonSchema): unknown[] {
  const readings: unknown[] = [];
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (lower === "true" || lower === "false") readings.push(lower === "true");
  if (trimmed !== "" && Number.isFinite(Number(trimmed))) readings.push(Number(trimmed));
  try {
    readings.push(JSON.parse(trimmed));
  } catch {
    // not JSON; Python-style quotes are tried next
  }
  if (/^\[.*\]$/s.test(trimmed)) {
    try {
      readings.push(JSON.parse(trimmed.replace(/'/g, '"')));
    } catch {
      // neither JSON nor a simple Python list
    }
  }
  if (takesList(schema)) readings.push([trimmed], trimmed.split(/\s*,\s*/));
  return readings;
}

/**
 * Walks a schema and removes `format`s no validator knows (they would be ignored anyway),
 * reporting each. Mutates and returns the schema.
 */
export function dropUnknownFormats(schema: unknown, path: string, notes: SchemaNote[]): void {
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => {
      dropUnknownFormats(s, `${path}[${i}]`, notes);
    });
    return;
  }
  if (!isPlainObject(schema)) return;
  if (typeof schema.format === "string" && !isKnownFormat(schema.format)) {
    notes.push({
      path: path || "(root)",
      message: `format "${schema.format}" is not checked by the validator; kept in the description`,
    });
    const description = typeof schema.description === "string" ? `${schema.description} ` : "";
    schema.description = `${description}(format: ${schema.format})`.trim();
    delete schema.format;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
    if (isPlainObject(value) || Array.isArray(value))
      dropUnknownFormats(value, path ? `${path}.${key}` : key, notes);
  }
}

/**
 * An `enum` of single values on an array-typed schema means "each item is one of these"
 * (a JSON Schema `enum` there would accept no array at all): it moves to `items`. Walks the
 * whole schema, reporting each move.
 */
export function moveArrayEnums(schema: unknown, path: string, notes: SchemaNote[]): void {
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => {
      moveArrayEnums(s, `${path}[${i}]`, notes);
    });
    return;
  }
  if (!isPlainObject(schema)) return;
  if (
    takesList(schema) &&
    Array.isArray(schema.enum) &&
    schema.enum.length > 0 &&
    schema.enum.every((value) => !Array.isArray(value))
  ) {
    const items: JsonSchema = isPlainObject(schema.items) ? schema.items : {};
    if (items.enum === undefined) items.enum = schema.enum;
    schema.items = items;
    delete schema.enum;
    notes.push({
      path: path || "(root)",
      message: "an enum on an array parameter lists the allowed items; moved to items",
    });
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
    if (isPlainObject(value) || Array.isArray(value))
      moveArrayEnums(value, path ? `${path}.${key}` : key, notes);
  }
}
