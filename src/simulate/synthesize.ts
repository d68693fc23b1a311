// The package's main entry evaluates every locale (about half a second at start-up); this one loads English only.
import { faker } from "@faker-js/faker/locale/en";
import { type JsonSchema, patternMatcher } from "../catalog/index.js";
import type { Collection, State } from "../state/index.js";
import { cohere } from "./coherence.js";
import { confirmation } from "./confirmation.js";

/**
 * Deterministic, realistic values for a JSON Schema. One seeded faker, reseeded for every
 * value tree, so the same (seed, schema, state) always gives the same bytes. Property names
 * and descriptions steer the values (an `email` looks like one and matches the `name`
 * beside it; `*_at` is a timestamp near the simulated clock; a rating is 1–5 and a number
 * described as "0-100" stays in that range; an `order_id` names an order of the state), the
 * fields of an object agree with each other (see coherence.ts), and every constraint of the
 * schema is honoured.
 */

export interface SynthesisContext {
  /** A 32-bit seed (derived from session seed, tool and arguments). */
  seed: number;
  /** The simulated clock: dates are generated around it, never around the wall clock. */
  now: string;
  /** The root schema, for resolving local $refs. */
  root?: JsonSchema;
  /** Words of the tool name, which give ids their prefix when nothing better is known. */
  toolWords?: string[];
  /** The session state: an `*_id` whose collection exists in it names one of its entities. */
  state?: State;
}

interface Walk {
  ctx: SynthesisContext;
  depth: number;
  /** Names from the root to here, e.g. ["order", "items", "sku"]. */
  path: string[];
  persona?: Persona;
}

interface Persona {
  firstName: string;
  lastName: string;
}

const MAX_DEPTH = 8;

export function synthesize(schema: JsonSchema, ctx: SynthesisContext): unknown {
  faker.seed(ctx.seed);
  faker.setDefaultRefDate(new Date(ctx.now));
  return value(schema, { ctx: { ...ctx, root: ctx.root ?? schema }, depth: 0, path: [] });
}

function value(schema: JsonSchema | boolean | undefined, walk: Walk): unknown {
  if (schema === undefined || schema === true || schema === false) return fallbackFor(walk);
  const resolved = resolveRef(schema, walk.ctx.root);
  if (resolved.const !== undefined) return resolved.const;
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0)
    return faker.helpers.arrayElement(resolved.enum);
  if (Array.isArray(resolved.allOf)) return value(mergeAll(resolved), walk);
  const choice = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(choice) && choice.length > 0) return value(preferNonNull(choice, resolved), walk);
  switch (typeOf(resolved)) {
    case "object":
      return objectValue(resolved, walk);
    case "array":
      return arrayValue(resolved, walk);
    case "integer":
      return integerValue(resolved, walk);
    case "number":
      return numberValue(resolved, walk);
    case "boolean":
      return booleanValue(walk);
    case "null":
      return null;
    default:
      return stringValue(resolved, walk);
  }
}

function typeOf(schema: JsonSchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return String(type.find((t) => t !== "null") ?? type[0] ?? "string");
  if (typeof type === "string") return type;
  if (schema.properties || schema.additionalProperties) return "object";
  if (schema.items) return "array";
  if (schema.minimum !== undefined || schema.maximum !== undefined) return "number";
  return "string";
}

function resolveRef(schema: JsonSchema, root: JsonSchema | undefined): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 8; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith("#") || !root) break;
    let target: unknown = root;
    for (const raw of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      target = target && typeof target === "object" ? (target as Record<string, unknown>)[key] : undefined;
    }
    if (!target || typeof target !== "object") break;
    const { $ref: _ref, ...rest } = current;
    current = { ...(target as JsonSchema), ...rest };
  }
  return current;
}

function mergeAll(schema: JsonSchema): JsonSchema {
  const { allOf, ...rest } = schema;
  let merged: JsonSchema = { ...rest };
  for (const part of allOf as JsonSchema[]) {
    merged = {
      ...merged,
      ...part,
      properties: { ...(merged.properties as object), ...(part.properties as object) },
      required: [...((merged.required as string[]) ?? []), ...((part.required as string[]) ?? [])],
    };
  }
  return merged;
}

function preferNonNull(choices: JsonSchema[], parent: JsonSchema): JsonSchema {
  const { oneOf: _one, anyOf: _any, ...rest } = parent;
  const first = choices.find((c) => c && c.type !== "null") ?? choices[0] ?? {};
  return { ...rest, ...first };
}

// ── objects and arrays ──────────────────────────────────────────────────────

function objectValue(schema: JsonSchema, walk: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (walk.depth >= MAX_DEPTH) return out;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  // a fresh persona per object, so a name and an email side by side belong to one person
  const inner: Walk = { ...walk, depth: walk.depth + 1, persona: undefined };
  for (const [name, propertySchema] of Object.entries(properties)) {
    // optional fields deep in a tree are left out sometimes, as a real API would
    if (!required.has(name) && walk.depth >= 2 && faker.number.int({ min: 0, max: 3 }) === 0) continue;
    out[name] = value(propertySchema, { ...inner, path: [...walk.path, name] });
  }
  for (const name of required) {
    if (!(name in out)) out[name] = value(undefined, { ...inner, path: [...walk.path, name] });
  }
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length === 0 && extra && typeof extra === "object") {
    const count = Math.max(Number(schema.minProperties ?? 0), 2);
    for (let i = 0; i < count; i++) {
      out[faker.word.noun()] = value(extra as JsonSchema, { ...inner, path: [...walk.path, "value"] });
    }
  }
  cohere(out, properties);
  return out;
}

function arrayValue(schema: JsonSchema, walk: Walk): unknown[] {
  if (walk.depth >= MAX_DEPTH) return [];
  const min = Number(schema.minItems ?? 0);
  const max = Number(schema.maxItems ?? Math.max(min, 3));
  const count = Math.min(max, Math.max(min, faker.number.int({ min: 1, max: 3 })));
  const prefix = (schema.prefixItems as JsonSchema[] | undefined) ?? [];
  const itemSchema = schema.items as JsonSchema | undefined;
  const items: unknown[] = [];
  const seen = new Set<string>();
  const singular = singularize(walk.path[walk.path.length - 1] ?? "item");
  for (let attempts = 0; items.length < Math.max(count, prefix.length) && attempts < count * 6; attempts++) {
    const item = value(prefix[items.length] ?? itemSchema, {
      ...walk,
      depth: walk.depth + 1,
      path: [...walk.path.slice(0, -1), singular],
    });
    if (schema.uniqueItems) {
      const key = JSON.stringify(item);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    items.push(item);
  }
  return items;
}

// ── numbers and booleans ────────────────────────────────────────────────────

function bounds(schema: JsonSchema, fallback: [number, number]): [number, number] {
  let min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  let max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  if (typeof schema.exclusiveMinimum === "number") min = schema.exclusiveMinimum + 1e-6;
  if (typeof schema.exclusiveMaximum === "number") max = schema.exclusiveMaximum - 1e-6;
  const low = min ?? Math.min(fallback[0], max ?? fallback[0]);
  const high = max ?? Math.max(fallback[1], low);
  return [low, Math.max(low, high)];
}

function integerValue(schema: JsonSchema, walk: Walk): number {
  const name = leaf(walk);
  const fallback: [number, number] =
    rangeFromWords(schema, name, true) ??
    (/quantity|qty|count|number_of|seats|nights|passengers|guests/.test(name)
      ? [1, 5]
      : /year/.test(name)
        ? [2020, 2027]
        : /age/.test(name)
          ? [18, 85]
          : /percent|rate|score/.test(name)
            ? [0, 100]
            : /total|page|size|limit/.test(name)
              ? [1, 50]
              : [1, 1000]);
  const [low, high] = bounds(schema, fallback);
  let result = faker.number.int({ min: Math.ceil(low), max: Math.floor(high) });
  const step = Number(schema.multipleOf ?? 0);
  if (step > 0) result = Math.max(Math.ceil(low / step) * step, Math.floor(result / step) * step);
  return result;
}

function numberValue(schema: JsonSchema, walk: Walk): number {
  const name = leaf(walk);
  if (/latitude|^lat$/.test(name)) return faker.location.latitude();
  if (/longitude|^lng$|^lon$/.test(name)) return faker.location.longitude();
  const money = /amount|price|total|cost|balance|fee|subtotal|refund|tax|value|credit|fare|charge|paid/.test(
    name,
  );
  const fallback: [number, number] =
    rangeFromWords(schema, name, false) ??
    (money ? [5, 500] : /rate|percent|ratio/.test(name) ? [0, 100] : [0, 1000]);
  const [low, high] = bounds(schema, fallback);
  const step = Number(schema.multipleOf ?? 0);
  if (step > 0) {
    const steps = faker.number.int({ min: Math.ceil(low / step), max: Math.floor(high / step) });
    return Number((steps * step).toFixed(10));
  }
  // a rating reads 4.5, a probability 0.73: as many decimals as the range calls for
  const fractionDigits = high - low <= 1 ? 2 : high - low <= 10 ? 1 : 2;
  return faker.number.float({ min: low, max: high, fractionDigits });
}

/**
 * The range a number's description states ("0-100", "1 to 5", "between 0 and 1", "out of
 * 10"), or failing that the one its name implies: ratings 1–5 (0–10 or 0–100 when the
 * description says out of 10 or 100), percentages 0–100, probabilities and confidences
 * 0–1 (0–100 when described as a percentage), scores 0–100, ages 18–85.
 */
function rangeFromWords(schema: JsonSchema, name: string, integer: boolean): [number, number] | undefined {
  // a schema is synthesized again and again under the same name: read its words once
  const cached = ranges.get(schema);
  if (cached && cached.name === name && cached.integer === integer) return cached.range;
  const range = readRange(schema, name, integer);
  ranges.set(schema, { name, integer, range });
  return range;
}

const ranges = new WeakMap<
  JsonSchema,
  { name: string; integer: boolean; range: [number, number] | undefined }
>();

function readRange(schema: JsonSchema, name: string, integer: boolean): [number, number] | undefined {
  const description = typeof schema.description === "string" ? schema.description.toLowerCase() : "";
  const stated = statedRange(description);
  if (stated) return stated;
  const words = name.split("_");
  const has = (...candidates: string[]) => candidates.some((w) => words.includes(w));
  if (has("rating", "ratings", "stars", "star")) return [1, 5];
  if (has("percent", "percentage", "pct", "percentile")) return [0, 100];
  if (has("count", "num", "number", "total") || /\b(number|count) of\b/.test(description)) return undefined;
  if (has("probability", "likelihood", "confidence", "certainty") && !has("interval"))
    return /%|percent/.test(description) || integer ? [0, 100] : [0, 1];
  if (has("score") && !has("credit")) return [0, 100];
  if (has("age")) return [18, 85];
  return undefined;
}

function statedRange(description: string): [number, number] | undefined {
  if (!description) return undefined;
  const out = description.match(/\bout of (\d+(?:\.\d+)?)\b/);
  if (out?.[1]) return [0, Number(out[1])];
  const span = description.match(
    /(?:^|[\s(])(-?\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(-?\d+(?:\.\d+)?)(?=[\s),.%]|$)|\bbetween (-?\d+(?:\.\d+)?) and (-?\d+(?:\.\d+)?)\b/,
  );
  if (!span) return undefined;
  const low = Number(span[1] ?? span[3]);
  const high = Number(span[2] ?? span[4]);
  // "2020-2024" is a span of years, not of values
  if (!(low < high) || (low >= 1900 && high <= 2100 && Number.isInteger(low) && Number.isInteger(high)))
    return undefined;
  return [low, high];
}

function booleanValue(walk: Walk): boolean {
  const name = leaf(walk);
  if (/^(success|ok|succeeded|valid|available|eligible|confirmed|verified|active)$/.test(name)) return true;
  return faker.datatype.boolean();
}

// ── strings ─────────────────────────────────────────────────────────────────

function stringValue(schema: JsonSchema, walk: Walk): string {
  return fitLength(schema, rawString(schema, walk));
}

function rawString(schema: JsonSchema, walk: Walk): string {
  const name = leaf(walk);
  const format = typeof schema.format === "string" ? schema.format : undefined;
  if (isIdentifier(name) || name === "id") {
    const existing = existingKey(name, walk);
    if (existing !== undefined && matchesPattern(schema, existing)) return existing;
  }
  if (typeof schema.pattern === "string") {
    const generated = fromPattern(schema.pattern);
    if (generated !== undefined) return generated;
  }
  if (format) {
    const formatted = formatted_(format, name);
    if (formatted !== undefined) return formatted;
  }
  if (/(^|_)(at|time|timestamp)$|date_?time/.test(name)) return timestamp(name);
  if (/(^|_)date$|^dob$|birth/.test(name)) return timestamp(name).slice(0, 10);
  if (isIdentifier(name)) return identifier(name, walk);
  const person = personaFor(walk);
  if (/email/.test(name)) return faker.internet.email({ ...person, provider: "example.com" }).toLowerCase();
  if (/phone|mobile|fax/.test(name)) return faker.phone.number({ style: "international" });
  if (/first_?name|given_?name/.test(name)) return person.firstName;
  if (/last_?name|family_?name|surname/.test(name)) return person.lastName;
  if (/full_?name|customer_?name|patient_?name|holder|passenger_?name|contact_?name|^name$/.test(name)) {
    return nameFor(walk, person);
  }
  if (/company|merchant|vendor|carrier|airline|employer|organization|insurer|payer|brand/.test(name))
    return faker.company.name();
  if (/product|item_?name|title/.test(name)) return faker.commerce.productName();
  if (/street|address_?line|^address$/.test(name)) return faker.location.streetAddress();
  if (/city|town/.test(name)) return faker.location.city();
  if (/country/.test(name)) return faker.location.countryCode();
  if (/(^|_)state$|province|region/.test(name)) return faker.location.state({ abbreviated: true });
  if (/zip|postal|postcode/.test(name)) return faker.location.zipCode("#####");
  if (/currency/.test(name)) return "USD";
  if (/url|uri|link|website/.test(name)) return faker.internet.url();
  if (/status|state$/.test(name)) return faker.helpers.arrayElement(["active", "pending", "completed"]);
  if (/color|colour/.test(name)) return faker.color.human();
  if (/description|summary|details/.test(name)) return faker.commerce.productDescription();
  if (/message/.test(name)) return confirmation((walk.ctx.toolWords ?? ["request"]).join("_"));
  if (/reason|note|comment|remark|instruction/.test(name)) return faker.lorem.sentence({ min: 4, max: 9 });
  if (/code|sku|symbol|ticker/.test(name)) return faker.string.alphanumeric({ length: 6, casing: "upper" });
  if (/token|key|secret|hash/.test(name)) return faker.string.alphanumeric(24);
  if (/category|type|kind|class|tier|level|plan/.test(name)) return faker.commerce.department().toLowerCase();
  return faker.word.words({ count: { min: 1, max: 3 } });
}

function formatted_(format: string, name: string): string | undefined {
  switch (format) {
    case "date-time":
      return timestamp(name);
    case "date":
      return timestamp(name).slice(0, 10);
    case "time":
      return `${timestamp(name).slice(11, 19)}Z`;
    case "email":
      return faker.internet.email({ provider: "example.com" }).toLowerCase();
    case "uri":
    case "url":
    case "iri":
      return faker.internet.url();
    case "uri-reference":
      return `/${faker.word.noun()}/${faker.string.numeric(4)}`;
    case "uuid":
      return faker.string.uuid();
    case "hostname":
      return faker.internet.domainName();
    case "ipv4":
      return faker.internet.ipv4();
    case "ipv6":
      return faker.internet.ipv6();
    case "duration":
      return `P${faker.number.int({ min: 1, max: 14 })}D`;
    default:
      return undefined;
  }
}

/** Past for things that happened (created_at), future for things planned (departure, due). */
function timestamp(name: string): string {
  // whole words: a "send_time" has already happened, an "end_time" has not
  const future =
    /(^|_)(due|expir\w*|depart\w*|arriv\w*|scheduled|start\w*|end\w*|until|deadline|appointment|check_?in|check_?out|next|valid_to|upcoming|planned)(_|$)/.test(
      name,
    );
  const date = future ? faker.date.soon({ days: 45 }) : faker.date.recent({ days: 30 });
  date.setUTCMilliseconds(0);
  return date.toISOString().replace(".000Z", "Z");
}

const ID_NAME = /(^|_)(id|ids|uuid|number|no|ref|reference|code|key)$|Id$/;

export function isIdentifier(name: string): boolean {
  return ID_NAME.test(name) && !/phone|zip|postal|street/.test(name);
}

function identifier(name: string, walk: Walk): string {
  if (/uuid/.test(name)) return faker.string.uuid();
  const noun =
    name.replace(/(_?(id|ids|uuid|number|no|ref|reference|code|key))$/i, "") || walk.path.at(-2) || "";
  const word = noun || walk.ctx.toolWords?.at(-1) || "ref";
  const prefix =
    word
      .replace(/[^a-z]/gi, "")
      .slice(0, 3)
      .toUpperCase() || "ID";
  return `${prefix}-${faker.string.numeric(6)}`;
}

/**
 * A key of the state collection an `*_id` names (`order_id` → `orders`; an `id` inside an
 * object named `customer` → `customers`), chosen by the seeded faker among the first keys
 * in key order; undefined when the state has no such collection.
 */
function existingKey(name: string, walk: Walk): string | undefined {
  const state = walk.ctx.state;
  if (!state) return undefined;
  const stem = name === "id" ? singularize(walk.path.at(-2) ?? "") : name.replace(ID_SUFFIX, "");
  if (!stem) return undefined;
  for (const candidate of collectionNames(stem)) {
    const collection = candidate === "runtime" ? undefined : state.collection(candidate);
    const keys = collection && firstKeys(collection);
    if (keys && keys.length > 0) return faker.helpers.arrayElement(keys);
  }
  return undefined;
}

const ID_SUFFIX = /_?(id|ids|uuid|key|ref|reference)$/;

/** Names a collection of `stem` may have: orders, addresses, categories, or the stem itself. */
function collectionNames(stem: string): string[] {
  let names = collectionNamesOf.get(stem);
  if (!names) {
    names = [`${stem}s`, `${stem}es`, stem.replace(/y$/, "ies"), stem];
    if (collectionNamesOf.size < 50_000) collectionNamesOf.set(stem, names);
  }
  return names;
}

const collectionNamesOf = new Map<string, string[]>();

/** How many keys a reference chooses among: enough for variety, bounded for a collection of any size. */
const REFERENCE_CHOICES = 100;

/** The first keys of a collection, remembered per version (a collection never changes in place). */
const keysOfCollection = new WeakMap<Collection, string[]>();

function firstKeys(collection: Collection): string[] {
  let keys = keysOfCollection.get(collection);
  if (!keys) {
    keys = [];
    for (const key of collection.keys()) {
      keys.push(key);
      if (keys.length >= REFERENCE_CHOICES) break;
    }
    keysOfCollection.set(collection, keys);
  }
  return keys;
}

function personaFor(walk: Walk): Persona {
  walk.persona ??= { firstName: faker.person.firstName(), lastName: faker.person.lastName() };
  return walk.persona;
}

function nameFor(walk: Walk, person: Persona): string {
  const owner = walk.path.at(-2) ?? "";
  if (/product|item|plan|service|hotel|airline|store|merchant|drug|medication|account/.test(owner))
    return faker.commerce.productName();
  return `${person.firstName} ${person.lastName}`;
}

/** Whether a text fits the schema's pattern, tested as validation tests it (RE2 where it can). */
function matchesPattern(schema: JsonSchema, text: string): boolean {
  return typeof schema.pattern !== "string" || patternMatcher(schema.pattern).test(text);
}

function fromPattern(pattern: string): string | undefined {
  try {
    const generated = faker.helpers.fromRegExp(pattern.replace(/^\^/, "").replace(/\$$/, ""));
    return patternMatcher(pattern).test(generated) ? generated : undefined;
  } catch {
    return undefined;
  }
}

function fitLength(schema: JsonSchema, text: string): string {
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Number.POSITIVE_INFINITY);
  let out = text;
  while (out.length < min) out += faker.string.alpha({ length: min - out.length, casing: "lower" });
  return out.length > max ? out.slice(0, max) : out;
}

function fallbackFor(walk: Walk): unknown {
  const name = leaf(walk);
  if (isIdentifier(name)) return identifier(name, walk);
  return faker.word.words({ count: { min: 1, max: 2 } });
}

function leaf(walk: Walk): string {
  const raw = walk.path[walk.path.length - 1] ?? "";
  let name = leafNames.get(raw);
  if (name === undefined) {
    name = raw.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
    if (leafNames.size < 50_000) leafNames.set(raw, name);
  }
  return name;
}

/** Property names in snake case: the same few thousand names come back on every call. */
const leafNames = new Map<string, string>();

function singularize(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us)$/.test(word)) return word;
  if (/s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A 32-bit seed from a hex digest. */
export function seedFrom(hexDigest: string): number {
  return Number.parseInt(hexDigest.slice(0, 8), 16);
}
