import { isPlainObject } from "../../patch/index.js";
import type { JsonSchema } from "../format.js";
import {
  isKnownFormat,
  isNoDefault,
  moveArrayEnums,
  repairDefault,
  type SchemaNote,
} from "./schema-repair.js";

/**
 * Converts the JSON-Schema-like parameter descriptions many tool sources use into JSON
 * Schema 2020-12: Python, Java and JavaScript type names, `required` written on each
 * property (true/false) or on the object (a list), defaults of the wrong type. Whatever it
 * cannot carry over becomes a note.
 */

/** Type names of the sources, mapped to JSON Schema types; `undefined` means any value. */
const TYPE_NAMES: Record<string, string | undefined> = {
  string: "string",
  str: "string",
  String: "string",
  char: "string",
  Character: "string",
  number: "number",
  float: "number",
  double: "number",
  Float: "number",
  Double: "number",
  BigDecimal: "number",
  integer: "integer",
  int: "integer",
  long: "integer",
  short: "integer",
  byte: "integer",
  Integer: "integer",
  Long: "integer",
  BigInteger: "integer",
  boolean: "boolean",
  bool: "boolean",
  Boolean: "boolean",
  array: "array",
  list: "array",
  tuple: "array",
  set: "array",
  Array: "array",
  ArrayList: "array",
  List: "array",
  Set: "array",
  object: "object",
  dict: "object",
  map: "object",
  Map: "object",
  HashMap: "object",
  Object: "object",
  null: "null",
  any: undefined,
};

/** Keywords carried over as they are (their values are already JSON Schema). */
const PLAIN_KEYWORDS = new Set([
  "description",
  "title",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "examples",
]);

export interface LooseContext {
  notes: SchemaNote[];
}

/** The JSON Schema of one property (or of items). `path` names it in notes. */
export function looseToJsonSchema(raw: unknown, path: string, ctx: LooseContext): JsonSchema {
  if (!isPlainObject(raw)) {
    ctx.notes.push({ path, message: `not a schema object (${JSON.stringify(raw)}); any value is accepted` });
    return {};
  }
  const out: JsonSchema = {};
  const type = mapType(raw.type, path, ctx);
  if (type !== undefined) out.type = type;
  for (const [key, value] of Object.entries(raw)) {
    if (PLAIN_KEYWORDS.has(key)) out[key] = structuredClone(value);
    else if (key === "format") {
      if (typeof value === "string" && isKnownFormat(value)) out.format = value;
      else
        ctx.notes.push({ path: `${path}.format`, message: `format ${JSON.stringify(value)} is not checked` });
    } else if (key === "items") {
      if (Array.isArray(value)) {
        out.prefixItems = value.map((v, i) => looseToJsonSchema(v, `${path}.items[${i}]`, ctx));
      } else out.items = looseToJsonSchema(value, `${path}.items`, ctx);
    } else if (key === "properties") {
      Object.assign(out, looseObject(raw, path, ctx));
    } else if (key === "additionalProperties") {
      out.additionalProperties =
        typeof value === "boolean" ? value : looseToJsonSchema(value, `${path}.additionalProperties`, ctx);
    } else if (!["type", "default", "required", "optional"].includes(key)) {
      ctx.notes.push({ path: `${path}.${key}`, message: `keyword "${key}" is not JSON Schema; left out` });
    }
  }
  if (
    out.type === "array" &&
    out.items === undefined &&
    out.prefixItems === undefined &&
    out.enum === undefined
  ) {
    ctx.notes.push({ path, message: "array without an item type: any items are accepted" });
  }
  if (out.type === "string" && out.enum === undefined && typeof out.description === "string") {
    const listed = describedEnum(out.description);
    if (listed) out.enum = listed;
  }
  if (out.type === "array" && Array.isArray(out.enum)) moveArrayEnums(out, path, ctx.notes);
  if (raw.default === null && out.type !== undefined) allowNull(out);
  else if ("default" in raw && !isNoDefault(raw.default)) applyDefault(out, raw.default, path, ctx);
  return out;
}

/**
 * The values a description lists as the only ones (`[Enum]: ["open", "closed"]`, or the same
 * without brackets and quotes), as function docs written for models state an enum in words.
 */
function describedEnum(description: string): string[] | undefined {
  const stated = /\[Enum\]:\s*(\[[^\]]*\]|[^\n]+)/i.exec(description)?.[1]?.trim();
  if (!stated) return undefined;
  const inner = stated.startsWith("[") ? stated.slice(1, -1) : stated.replace(/\.$/, "");
  const values = inner
    .split(",")
    .map((v) => v.trim().replace(/^["']|["']$/g, ""))
    .filter((v) => v.length > 0);
  return values.length >= 2 ? [...new Set(values)] : undefined;
}

/** `properties` and `required` of an object schema, whichever way the source marks required. */
export function looseObject(raw: Record<string, unknown>, path: string, ctx: LooseContext): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const listed = Array.isArray(raw.required) ? raw.required.filter((r) => typeof r === "string") : [];
  const source = isPlainObject(raw.properties) ? raw.properties : {};
  for (const [name, property] of Object.entries(source)) {
    const at = path ? `${path}.${name}` : name;
    properties[name] = looseToJsonSchema(property, at, ctx);
    const flagged = isPlainObject(property) && property.required === true && property.optional !== true;
    if (flagged || listed.includes(name)) required.push(name);
  }
  for (const name of listed) {
    if (!(name in properties))
      ctx.notes.push({
        path: path || "(root)",
        message: `"${name}" is listed as required but not described`,
      });
  }
  const out: JsonSchema = { properties };
  const known = required.filter((name) => name in properties);
  if (known.length > 0) out.required = known;
  return out;
}

/** A JSON `null` default says the function takes null (Python's None) for this argument. */
function allowNull(schema: JsonSchema): void {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes("null")) schema.type = [...types, "null"];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  schema.default = null;
}

function mapType(type: unknown, path: string, ctx: LooseContext): string | string[] | undefined {
  if (type === undefined) return undefined;
  if (Array.isArray(type)) {
    const mapped = type.map((t) => mapType(t, path, ctx)).filter((t): t is string => typeof t === "string");
    return mapped.length === type.length ? [...new Set(mapped)] : undefined;
  }
  if (typeof type === "string" && type in TYPE_NAMES) return TYPE_NAMES[type];
  const generic = typeof type === "string" ? /^(\w+)\s*</.exec(type)?.[1] : undefined;
  if (generic && generic in TYPE_NAMES) return TYPE_NAMES[generic];
  ctx.notes.push({
    path: `${path}.type`,
    message: `unknown type ${JSON.stringify(type)}; any value is accepted`,
  });
  return undefined;
}

function applyDefault(schema: JsonSchema, value: unknown, path: string, ctx: LooseContext): void {
  const repaired = repairDefault(schema, value);
  if (repaired.kind === "kept") schema.default = value;
  else if (repaired.kind === "coerced") {
    schema.default = repaired.value;
    ctx.notes.push({
      path: `${path}.default`,
      message: `default ${JSON.stringify(value)} does not match the type; read as ${JSON.stringify(repaired.value)}`,
    });
  } else {
    // the function's own default is always a legal argument: accept it beside the declared type
    const declared: JsonSchema = {};
    for (const key of ["type", "enum", "const", "format", "minimum", "maximum", "pattern", "items"]) {
      if (key in schema) {
        declared[key] = schema[key];
        delete schema[key];
      }
    }
    schema.anyOf = [declared, { const: value }];
    schema.default = value;
    ctx.notes.push({
      path: `${path}.default`,
      message: `default ${JSON.stringify(value)} does not match the declared type; accepted as a value of its own`,
    });
  }
}
