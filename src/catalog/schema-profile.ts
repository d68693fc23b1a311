import { isPlainObject } from "../patch/index.js";
import type { JsonSchema } from "./format.js";
import {
  andList,
  constraintPhrases,
  formatWords,
  isPresenceChoice,
  objectRules,
  patternWords,
  shown,
} from "./schema-words.js";
import { STRICT_FORMATS, STRICT_KEYWORDS, strictModeProblems } from "./strict-rules.js";

/**
 * How much of an input schema toolsim advertises. Agent frameworks convert MCP schemas
 * into their own forms and lose what they cannot express; a profile advertises only what
 * survives and says the rest in words. toolsim validates every call against the full
 * schema whatever the profile.
 *
 * - `full`: the schema as the catalog wrote it.
 * - `portable`: no conditional keywords (if/then/else, allOf, oneOf, not, dependent*, and
 *   anyOf that only says which arguments to give); those rules go into the descriptions,
 *   as do formats and patterns, which several frameworks strip.
 * - `openai-strict`: portable, and what OpenAI's strict mode accepts: every property
 *   required (optional ones nullable: null means omitted), `additionalProperties: false`
 *   on every object, only the keywords strict mode supports.
 */
export type SchemaProfile = "full" | "portable" | "openai-strict";

export const SCHEMA_PROFILES: readonly SchemaProfile[] = ["full", "portable", "openai-strict"];

export function isSchemaProfile(value: string): value is SchemaProfile {
  return (SCHEMA_PROFILES as readonly string[]).includes(value);
}

export interface ProfiledSchema {
  schema: JsonSchema;
  /** Rules between top-level arguments that the schema no longer states, for the tool's description. */
  rules: string[];
}

/** Converts an input schema for a profile. Pure: the catalog's schema is never changed. */
export function profileSchema(schema: JsonSchema, profile: SchemaProfile): ProfiledSchema {
  if (profile === "full") return { schema, rules: [] };
  const strict = profile === "openai-strict";
  // portable keeps minProperties and maxProperties in the schema; strict mode cannot
  const rules = objectRules(schema, { counts: strict });
  const converted = convert(schema, { strict, root: true });
  return { schema: strict ? { ...converted, type: "object" } : converted, rules };
}

/** The keywords that state rules between arguments; no profile but `full` keeps them. */
const CONDITIONAL = [
  "if",
  "then",
  "else",
  "allOf",
  "oneOf",
  "not",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
];

/** Every keyword strict mode accepts, whatever type it applies to. */
const STRICT_KEPT = new Set(Object.values(STRICT_KEYWORDS).flat());

interface Mode {
  strict: boolean;
  root?: boolean;
}

function convert(schema: JsonSchema, mode: Mode): JsonSchema {
  const node = mergePlainAllOf(schema);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (CONDITIONAL.includes(key)) continue;
    if (key === "anyOf" && Array.isArray(value) && isPresenceChoice(value)) continue;
    out[key] = value;
  }
  // a oneOf of value forms (a string or a number) reads the same as anyOf to an agent
  if (Array.isArray(node.oneOf) && !isPresenceChoice(node.oneOf)) out.anyOf = node.oneOf;
  const notes = valueNotes(node, mode);
  if (!mode.root && isObjectSchema(node)) notes.push(...objectRules(node, { counts: mode.strict }));
  convertChildren(out, mode);
  if (mode.strict) strictNode(out, notes);
  if (notes.length > 0) out.description = withNotes(out.description, notes);
  return out;
}

/** allOf parts that only add properties and required names are the object itself. */
function mergePlainAllOf(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const plain = schema.allOf.filter(isPlainPart);
  if (plain.length === 0) return schema;
  const merged: JsonSchema = { ...schema, allOf: schema.allOf.filter((part) => !isPlainPart(part)) };
  for (const part of plain as JsonSchema[]) {
    if (part.properties)
      merged.properties = { ...(part.properties as object), ...((merged.properties as object) ?? {}) };
    if (Array.isArray(part.required))
      merged.required = [
        ...new Set([...((merged.required as string[]) ?? []), ...part.required.map(String)]),
      ];
  }
  if ((merged.allOf as unknown[]).length === 0) delete merged.allOf;
  return merged;
}

function isPlainPart(part: unknown): boolean {
  if (!part || typeof part !== "object") return false;
  return Object.keys(part).every((key) => ["properties", "required", "type", "description"].includes(key));
}

function convertChildren(out: JsonSchema, mode: Mode): void {
  const child = (value: unknown) => (isPlainObject(value) ? convert(value, { strict: mode.strict }) : value);
  if (out.properties && typeof out.properties === "object") {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, unknown>).map(([name, sub]) => [name, child(sub)]),
    );
  }
  if (Array.isArray(out.items)) out.items = out.items.map(child);
  else if (out.items !== undefined) out.items = child(out.items);
  if (Array.isArray(out.prefixItems)) out.prefixItems = out.prefixItems.map(child);
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map(child);
  if (out.additionalProperties && typeof out.additionalProperties === "object")
    out.additionalProperties = child(out.additionalProperties);
  for (const key of ["$defs", "definitions"]) {
    const defs = out[key];
    if (defs && typeof defs === "object")
      out[key] = Object.fromEntries(
        Object.entries(defs as Record<string, unknown>).map(([name, sub]) => [name, child(sub)]),
      );
  }
}

/** Words for what frameworks strip from a value's schema: formats, patterns, and in strict mode every unsupported constraint. */
function valueNotes(schema: JsonSchema, mode: Mode): string[] {
  const phrases: string[] = [];
  if (typeof schema.format === "string") phrases.push(`be ${formatWords(schema.format)}`);
  if (typeof schema.pattern === "string") {
    const words = patternWords(schema.pattern);
    phrases.push(words ? `be ${words}` : `match the pattern ${schema.pattern}`);
  }
  if (mode.strict) {
    // what strict mode drops from a value (an object's field counts are among its rules)
    const dropped: JsonSchema = {};
    for (const key of ["minLength", "maxLength", "uniqueItems"])
      if (schema[key] !== undefined) dropped[key] = schema[key];
    phrases.push(...constraintPhrases(dropped));
  }
  const notes = phrases.length ? [`Must ${andList(phrases)}.`] : [];
  if (mode.strict && schema.default !== undefined)
    notes.push(`Default ${shown(schema.default)} (send null for it).`);
  return notes;
}

function withNotes(description: unknown, notes: string[]): string {
  const text = typeof description === "string" ? description.trim() : "";
  const lead = text && !/[.!?)]$/.test(text) ? `${text}.` : text;
  return [lead, ...notes].filter(Boolean).join(" ");
}

function isObjectSchema(schema: JsonSchema): boolean {
  return (
    schema.type === "object" ||
    (Array.isArray(schema.type) && schema.type.includes("object")) ||
    schema.properties !== undefined
  );
}

/** One node made to OpenAI's strict rules (its children are already converted). */
function strictNode(out: JsonSchema, notes: string[]): void {
  if (out.const !== undefined) {
    out.enum = [out.const];
    delete out.const;
  }
  if (typeof out.format === "string" && !STRICT_FORMATS.has(out.format)) delete out.format;
  for (const key of Object.keys(out)) if (!STRICT_KEPT.has(key)) delete out[key];
  if (!isObjectSchema(out)) return;
  const properties = (out.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(out.required) ? out.required.map(String) : []);
  if (
    out.additionalProperties !== undefined &&
    out.additionalProperties !== false &&
    Object.keys(properties).length === 0
  )
    notes.push("Its fields are free-form, which strict mode cannot describe.");
  out.properties = Object.fromEntries(
    Object.entries(properties).map(([name, sub]) => [name, required.has(name) ? sub : nullable(sub)]),
  );
  out.required = Object.keys(properties);
  out.additionalProperties = false;
}

/** An optional property as strict mode wants it: present, and null when the caller means "not given". */
function nullable(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  const { description, title, ...rest } = schema;
  const annotated = (inner: JsonSchema): JsonSchema => ({
    ...inner,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
  });
  if (Array.isArray(rest.anyOf)) return annotated({ ...rest, anyOf: [...rest.anyOf, { type: "null" }] });
  const type = rest.type;
  if (typeof type === "string" && type !== "object" && type !== "array") {
    return annotated({
      ...rest,
      type: [type, "null"],
      ...(Array.isArray(rest.enum) ? { enum: [...rest.enum, null] } : {}),
    });
  }
  return annotated({ anyOf: [rest, { type: "null" }] });
}

/** Whether a schema takes null as a value of its own (then null cannot also mean "not given"). */
export function acceptsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!schema || typeof schema !== "object") return false;
  const s = schema as JsonSchema;
  if (Object.keys(s).every((key) => key === "description" || key === "title")) return true;
  if (s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"))) return true;
  if (s.const === null || (Array.isArray(s.enum) && s.enum.includes(null))) return true;
  for (const key of ["anyOf", "oneOf"]) {
    const options = s[key];
    if (Array.isArray(options) && options.some(acceptsNull)) return true;
  }
  return false;
}

/** Words that stand in when a rule is too rich to describe; an agent learns nothing from them. */
const VAGUE_RULE = /this combination of arguments|the tool's other rules apply/;

/**
 * What a catalog author should know before a framework converts the schema: rules that
 * `portable` and `openai-strict` cannot put into words, values strict mode cannot
 * describe, and whatever still breaks OpenAI's strict rules after conversion.
 */
export function conversionProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  walkObjects(schema, "", (node, path) => {
    for (const rule of objectRules(node))
      if (VAGUE_RULE.test(rule))
        problems.push(
          `${path || "(root)"}: a rule between arguments is too rich to say in words once frameworks strip it (${rule}); write its condition with const, enum or required`,
        );
    const properties = node.properties;
    if (node.additionalProperties !== undefined && node.additionalProperties !== false && !properties)
      problems.push(
        `${path || "(root)"}: a free-form object cannot be described in OpenAI strict mode; declare its properties`,
      );
  });
  walkValues(schema, "", (node, path) => {
    if (typeof node.pattern === "string" && /\(\?[=!<]|\\[1-9]/.test(node.pattern))
      problems.push(
        `${path}: the pattern ${node.pattern} uses look-arounds or back references, which OpenAI's strict mode refuses`,
      );
  });
  for (const problem of strictModeProblems(profileSchema(schema, "openai-strict").schema))
    problems.push(`openai-strict: ${problem}`);
  return problems;
}

function walkObjects(schema: unknown, path: string, visit: (node: JsonSchema, path: string) => void): void {
  walkValues(schema, path, (node, at) => {
    if (isObjectSchema(node)) visit(node, at);
  });
}

function walkValues(schema: unknown, path: string, visit: (node: JsonSchema, path: string) => void): void {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return;
  const node = schema as JsonSchema;
  visit(node, path);
  for (const [name, sub] of Object.entries((node.properties ?? {}) as Record<string, unknown>))
    walkValues(sub, path ? `${path}.${name}` : name, visit);
  if (node.items && typeof node.items === "object") walkValues(node.items, `${path}[]`, visit);
}
