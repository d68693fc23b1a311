import RandExpImport from "randexp";
import { schemaViolation } from "./schema-check.js";

/**
 * Valid argument values from a JSON Schema, written for the evaluation alone (it must not
 * borrow the synthesizer it judges): enums, consts, formats, patterns (randexp), ranges,
 * lengths, array sizes, `$ref`s into the schema's own `$defs`. Deterministic per seed. A
 * `hint` may answer first for an argument by name: an id that exists in the state, a path
 * under a folder. Every result is checked against the schema; a few seeds are tried before
 * giving up, and what still does not fit is said.
 */

// randexp ships CommonJS whose module.exports is the class; under NodeNext TypeScript sees it on `.default`.
const RandExp = RandExpImport as unknown as typeof RandExpImport.default;

export type Schema = Record<string, unknown>;

export interface ValueOptions {
  seed: number;
  /** Fill optional properties too (a create or an update that sets fields), not only required ones. */
  optional?: boolean;
  /** A value for a property by its name and schema, before the schema decides; undefined: no opinion. */
  hint?: (name: string, schema: Schema) => unknown;
}

export interface Generated {
  value: unknown;
  /** Why the value still breaks the schema after every try. */
  invalid?: string;
}

const TRIES = 6;

/** Arguments for a tool's input schema: required properties, and optional ones when asked. */
export function argumentsFor(inputSchema: Schema, options: ValueOptions): Generated {
  let last: Generated = { value: {} };
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const seed = options.seed + attempt * 7919;
    // later attempts leave optional properties out: they are where conditional rules bite
    const optional = attempt < TRIES / 2 ? options.optional : false;
    const generator = new Generator(inputSchema, { ...options, seed, optional });
    const value = generator.value(inputSchema, "", 0);
    const problem = schemaViolation(inputSchema, value);
    if (!problem) return { value };
    last = { value, invalid: problem };
  }
  return last;
}

/** One value for a schema (an argument, a field of an update). */
export function valueFor(schema: Schema, options: ValueOptions, root: Schema = schema, name = ""): unknown {
  return new Generator(root, options).value(schema, name, 0);
}

class Generator {
  private readonly random: () => number;

  constructor(
    private readonly root: Schema,
    private readonly options: ValueOptions,
  ) {
    this.random = mulberry32(options.seed);
  }

  value(schema: unknown, name: string, depth: number): unknown {
    if (!isObject(schema)) return this.words(name);
    const resolved = this.resolve(schema);
    const hinted = name && depth > 0 ? this.options.hint?.(name, resolved) : undefined;
    // a hint that breaks the property's own schema (an id of another catalog's shape) is not taken
    if (hinted !== undefined && !this.breaks(resolved, hinted)) return hinted;
    if ("const" in resolved) return resolved.const;
    if (Array.isArray(resolved.enum) && resolved.enum.length > 0) {
      const choices = resolved.enum.filter((v) => v !== null);
      return this.pick(choices.length > 0 ? choices : resolved.enum);
    }
    if (Array.isArray(resolved.examples) && resolved.examples.length > 0 && this.random() < 0.5)
      return this.pick(resolved.examples);
    const branches = (resolved.anyOf ?? resolved.oneOf) as unknown[] | undefined;
    if (Array.isArray(branches) && branches.length > 0) {
      const usable = branches.filter((b) => !(isObject(b) && b.type === "null"));
      const branch = this.pick(usable.length > 0 ? usable : branches);
      // a branch that only adds a rule (`required: [...]`) narrows the schema around it
      const { anyOf: _a, oneOf: _o, ...base } = resolved;
      return this.value(mergeAll({ ...base, allOf: [branch] }, this), name, depth);
    }
    if (Array.isArray(resolved.allOf) && resolved.allOf.some((part) => !isConditional(part)))
      return this.value(mergeAll(resolved, this), name, depth);
    switch (typeOf(resolved)) {
      case "object":
        return this.object(resolved, depth);
      case "array":
        return this.array(resolved, name, depth);
      case "integer":
        return this.number(resolved, true);
      case "number":
        return this.number(resolved, false);
      case "boolean":
        return this.random() < 0.5;
      case "null":
        return null;
      default:
        return this.string(resolved, name);
    }
  }

  private breaks(schema: Schema, value: unknown): boolean {
    const standalone =
      this.root === schema || !isObject(this.root.$defs) ? schema : { ...schema, $defs: this.root.$defs };
    const problem = schemaViolation(standalone, value);
    return problem !== undefined && !problem.startsWith("the schema does not compile");
  }

  resolve(schema: Schema, depth = 0): Schema {
    const ref = schema.$ref;
    if (typeof ref !== "string" || depth > 20) return schema;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const defs = match ? this.root[match[1] as string] : undefined;
    const target =
      match && isObject(defs)
        ? defs[
            decodeURIComponent(match[2] as string)
              .replace(/~1/g, "/")
              .replace(/~0/g, "~")
          ]
        : undefined;
    if (!isObject(target)) return {};
    const { $ref: _ignored, ...rest } = schema;
    return this.resolve({ ...target, ...rest }, depth + 1);
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const out: Record<string, unknown> = {};
    if (depth > 6) return out;
    for (const [key, property] of Object.entries(properties)) {
      if (!required.has(key) && !this.options.optional) continue;
      if (isObject(property) && property.deprecated === true && !required.has(key)) continue;
      out[key] = this.value(property, key, depth + 1);
    }
    // required names without a declared schema still need a value
    for (const key of required) if (!(key in out)) out[key] = this.words(key);
    this.applyConditionals(schema, out, depth);
    const least = typeof schema.minProperties === "number" ? schema.minProperties : 0;
    for (const [key, property] of Object.entries(properties)) {
      if (Object.keys(out).length >= least) break;
      if (!(key in out)) out[key] = this.value(property, key, depth + 1);
    }
    return out;
  }

  /**
   * `if`/`then`/`else` rules (on the object or in its `allOf`): the branch that applies adds
   * the properties it requires, narrows those it constrains, and removes those it forbids
   * (`not: {required: [...]}`).
   */
  private applyConditionals(schema: Schema, out: Record<string, unknown>, depth: number): void {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const rules = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])]
      .filter(isConditional)
      .map((rule) => this.resolve(rule as Schema));
    for (let round = 0; round < 2; round++)
      for (const rule of rules) {
        const branch = schemaViolation(rule.if, out) === undefined ? rule.then : rule.else;
        if (!isObject(branch)) continue;
        const narrowed = isObject(branch.properties) ? branch.properties : {};
        const wanted = Array.isArray(branch.required) ? branch.required.map(String) : [];
        for (const key of new Set([...wanted, ...Object.keys(narrowed)])) {
          const own = properties[key];
          const extra = narrowed[key];
          const merged = isObject(extra) ? { ...(isObject(own) ? this.resolve(own) : {}), ...extra } : own;
          const present = key in out;
          if (present && (!isObject(extra) || schemaViolation(merged, out[key]) === undefined)) continue;
          if (!present && !wanted.includes(key)) continue;
          out[key] = this.value(merged ?? {}, key, depth + 1);
        }
        const not = isObject(branch.not) && Array.isArray(branch.not.required) ? branch.not.required : [];
        for (const key of not) delete out[String(key)];
      }
  }

  private array(schema: Schema, name: string, depth: number): unknown[] {
    const min = typeof schema.minItems === "number" ? schema.minItems : 1;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : Math.max(min, 2);
    const count = Math.max(min, Math.min(max, min === 0 ? 1 : min));
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const items: unknown[] = [];
    const seen = new Set<string>();
    for (let i = 0; items.length < count && i < count * 6; i++) {
      const itemSchema = prefix[items.length] ?? schema.items;
      const item = this.value(itemSchema ?? {}, singular(name), depth + 1);
      const key = JSON.stringify(item);
      if (schema.uniqueItems === true && seen.has(key)) continue;
      seen.add(key);
      items.push(item);
    }
    return items;
  }

  private number(schema: Schema, integer: boolean): number {
    let low = typeof schema.minimum === "number" ? schema.minimum : undefined;
    let high = typeof schema.maximum === "number" ? schema.maximum : undefined;
    const step = integer ? 1 : 0.01;
    if (typeof schema.exclusiveMinimum === "number") low = schema.exclusiveMinimum + step;
    if (typeof schema.exclusiveMaximum === "number") high = schema.exclusiveMaximum - step;
    if (low === undefined && high === undefined) [low, high] = [1, 100];
    else if (low === undefined) low = Math.min(0, (high as number) - 100);
    else if (high === undefined) high = low + 100;
    const lo = low as number;
    const hi = Math.max(lo, high as number);
    let value = lo + this.random() * (hi - lo);
    const multiple = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : 0;
    if (multiple) value = Math.ceil(value / multiple) * multiple;
    if (integer) return Math.min(Math.floor(hi), Math.max(Math.ceil(lo), Math.round(value)));
    return Math.min(hi, Math.max(lo, Math.round(value * 100) / 100));
  }

  private string(schema: Schema, name: string): string {
    const format = typeof schema.format === "string" ? schema.format : "";
    let text: string;
    if (typeof schema.pattern === "string") text = this.matching(schema.pattern) ?? this.words(name);
    else if (format) text = this.formatted(format, name);
    else text = this.words(name);
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
    while (text.length < min) text += "x";
    return text.length > max ? text.slice(0, max) : text;
  }

  private matching(pattern: string): string | undefined {
    try {
      const generator = new RandExp(pattern);
      generator.max = 6;
      generator.randInt = (low: number, high: number) => low + Math.floor(this.random() * (high - low + 1));
      return generator.gen();
    } catch {
      return undefined;
    }
  }

  private formatted(format: string, name: string): string {
    const day = 1 + Math.floor(this.random() * 27);
    const month = 1 + Math.floor(this.random() * 12);
    const date = `2026-${pad(month)}-${pad(day)}`;
    const time = `${pad(8 + Math.floor(this.random() * 10))}:${pad(Math.floor(this.random() * 60))}:00`;
    const token = this.token();
    switch (format) {
      case "date":
        return date;
      case "date-time":
        return `${date}T${time}Z`;
      case "time":
        return `${time}Z`;
      case "email":
      case "idn-email":
        return `${token}@example.com`;
      case "uri":
      case "url":
      case "iri":
      case "uri-reference":
        return `https://example.com/${token}`;
      case "uuid":
        return uuidOf(this.random);
      case "ipv4":
        return `192.0.2.${1 + Math.floor(this.random() * 250)}`;
      case "ipv6":
        return `2001:db8::${(1 + Math.floor(this.random() * 9000)).toString(16)}`;
      case "hostname":
      case "idn-hostname":
        return `${token}.example.com`;
      case "duration":
        return `PT${1 + Math.floor(this.random() * 50)}M`;
      default:
        return this.words(name);
    }
  }

  /** A readable, distinct text: the property's own words and a token. */
  private words(name: string): string {
    const stem = name
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .replace(/[_\-.]+/g, " ")
      .trim()
      .toLowerCase();
    return stem ? `${stem} ${this.token()}` : this.token();
  }

  private token(): string {
    return `v${Math.floor(this.random() * 1e6)
      .toString(36)
      .padStart(4, "0")}`;
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)] as T;
  }
}

function isConditional(part: unknown): boolean {
  return isObject(part) && "if" in part;
}

/** `allOf` parts merged into one schema; `if`/`then` parts stay in `allOf`, for the object to apply. */
function mergeAll(schema: Schema, generator: Generator): Schema {
  const merged: Schema = { ...schema };
  const conditionals = (schema.allOf as unknown[]).filter(isConditional);
  delete merged.allOf;
  if (conditionals.length > 0) merged.allOf = conditionals;
  const properties: Record<string, unknown> = isObject(schema.properties) ? { ...schema.properties } : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const part of schema.allOf as unknown[]) {
    if (!isObject(part) || isConditional(part)) continue;
    const resolved = generator.resolve(part);
    for (const [key, value] of Object.entries(resolved)) {
      if (key === "properties" && isObject(value)) Object.assign(properties, value);
      else if (key === "required" && Array.isArray(value)) for (const r of value) required.add(String(r));
      else if (!(key in merged)) merged[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function typeOf(schema: Schema): string {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return String(type.find((t) => t !== "null") ?? type[0] ?? "string");
  if (isObject(schema.properties)) return "object";
  if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
  if (typeof schema.minimum === "number" || typeof schema.maximum === "number") return "number";
  return "string";
}

export function singular(word: string): string {
  if (/ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/i.test(word)) return word;
  if (/(s|x|z|ch|sh)es$/i.test(word)) return word.slice(0, -2);
  if (/s$/i.test(word)) return word.slice(0, -1);
  return word;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function uuidOf(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = "8";
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A small seeded generator: the same seed gives the same values on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0 || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
