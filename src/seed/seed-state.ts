import type { JsonSchema, StateDocument, Toolset } from "../catalog/index.js";
import { validatorFor } from "../catalog/index.js";
import { DEFAULT_NOW } from "../engine/index.js";
import { plural, type SchemaCollection, schemaWorld, singular } from "../infer/index.js";
import { hashOf, isPlainObject } from "../patch/index.js";
import { seedFrom, synthesize } from "../simulate/index.js";
import { State } from "../state/index.js";

/**
 * A realistic start for a world that comes empty: N entities in every collection the
 * catalog's schemas describe (see `schemaWorld`), each one a record of the collection's
 * schema with values from the offline synthesizer, under keys in the collection's id scheme,
 * and with fields that name another collection's id pointing at one of its entities.
 * Deterministic: the same seed, toolset and N give the same bytes.
 */

/** The most entities per collection a seeded world holds. */
export const MAX_SEED_COUNT = 1000;

export interface SeedOptions {
  /** Entities per collection, 0 to MAX_SEED_COUNT. */
  count: number;
  /** Any text; the same seed gives the same world. */
  seed: string;
}

export interface SeededCollection {
  name: string;
  keyField: string;
  /** The keys written, in order. */
  keys: string[];
  /** Whether the collection already held entities (from `--state`) and was kept as it was. */
  kept: boolean;
  /** Fields set to keys of another collection: field → collection. */
  references: Record<string, string>;
  /** Entities the synthesizer could not make fit the record schema, with the first reason. */
  misfits: string[];
}

export interface Seeded {
  state: StateDocument;
  collections: SeededCollection[];
}

/** The toolset's state with N entities in each collection its schemas describe and its state leaves empty. */
export function seedState(toolset: Toolset, options: SeedOptions): Seeded {
  if (!Number.isInteger(options.count) || options.count < 0 || options.count > MAX_SEED_COUNT)
    throw new RangeError(`seed count out of range: ${options.count}`);
  const world = schemaWorld(toolset);
  if (!world) return { state: toolset.state, collections: [] };
  const state: StateDocument = { ...toolset.state };
  const names = new Set(world.described.map((c) => c.name));
  const now = clockOf(toolset.state);
  const collections: SeededCollection[] = [];
  for (const collection of referencedFirst(world.described, names)) {
    const existing = state[collection.name];
    if (isPlainObject(existing) && Object.keys(existing).length > 0) {
      collections.push({
        name: collection.name,
        keyField: collection.keyField,
        keys: Object.keys(existing),
        kept: true,
        references: {},
        misfits: [],
      });
      continue;
    }
    const seeded = seedCollection(toolset.id, collection, state, names, { ...options, now });
    state[collection.name] = seeded.entities;
    collections.push(seeded.report);
  }
  return { state, collections };
}

function clockOf(state: StateDocument): string {
  const runtime = state.runtime;
  const now = isPlainObject(runtime) ? runtime.now : undefined;
  return typeof now === "string" && !Number.isNaN(Date.parse(now)) ? now : DEFAULT_NOW;
}

function seedCollection(
  toolsetId: string,
  collection: SchemaCollection,
  state: StateDocument,
  names: ReadonlySet<string>,
  options: SeedOptions & { now: string },
): { entities: Record<string, unknown>; report: SeededCollection } {
  const record: JsonSchema = collection.record ?? { type: "object", properties: {} };
  const seedOf = (...parts: unknown[]) =>
    seedFrom(hashOf(options.seed, toolsetId, collection.name, ...parts));
  const keys = keysOf(collection, record, options.count, seedOf);
  const references = referencesOf(record, collection, names, state);
  // nested `*_id` strings name entities of collections seeded before this one
  const sofar = State.fromDocument(state);
  const validate = validatorFor(record);
  // a plain boolean: ajv's type guard would narrow the entity to never on failure
  const fits = (value: unknown): boolean => validate(value) === true;
  const entities: Record<string, unknown> = {};
  const misfits: string[] = [];
  keys.forEach((key, index) => {
    const synthesized = synthesize(record, {
      seed: seedOf("entity", index),
      now: options.now,
      root: record,
      toolWords: [singular(collection.name)],
      state: sofar,
    });
    const entity: Record<string, unknown> = isPlainObject(synthesized) ? { ...synthesized } : {};
    entity[collection.keyField] = collection.numeric ? Number(key) : key;
    for (const [field, target] of Object.entries(references)) {
      const before = entity[field];
      entity[field] = referenceValue(record, field, state[target], seedOf("reference", index, field));
      if (!fits(entity)) entity[field] = before;
    }
    if (!fits(entity)) {
      const error = validate.errors?.[0];
      misfits.push(`${key}: ${error?.instancePath || "(record)"} ${error?.message ?? "does not fit"}`);
    }
    entities[key] = entity;
  });
  return {
    entities,
    report: { name: collection.name, keyField: collection.keyField, keys, kept: false, references, misfits },
  };
}

/**
 * N distinct keys in the collection's scheme: 1…N for numeric ids (from the schema's
 * minimum, so the next create mints N+1). For string ids, numbered in the format the schema
 * shows, when every numbered key fits the key's schema: an example's (`OWN-0042` →
 * `OWN-0001`…), or one the key's pattern generates, or else the noun's three letters and
 * four digits (as a create in a new collection mints them). A key the numbering cannot
 * give (a uuid, a pattern or enum of other shapes) is what the key's schema generates.
 */
function keysOf(
  collection: SchemaCollection,
  record: JsonSchema,
  count: number,
  seedOf: (...parts: unknown[]) => number,
): string[] {
  const schema = keySchemaOf(record, collection.keyField);
  if (collection.numeric) {
    const start = Math.max(1, Math.ceil(Number(schema.minimum ?? 1)));
    return Array.from({ length: count }, (_, i) => String(start + i));
  }
  const holder: JsonSchema = {
    type: "object",
    properties: { [collection.keyField]: schema },
    required: [collection.keyField],
    ...(record.$defs ? { $defs: record.$defs } : {}),
  };
  const generated = (attempt: number) => {
    const value = (
      synthesize(holder, { seed: seedOf("key", attempt), now: DEFAULT_NOW }) as Record<string, unknown>
    )[collection.keyField];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const constrained =
    typeof schema.pattern === "string" || typeof schema.format === "string" || Array.isArray(schema.enum);
  const sample = exampleOf(schema) ?? (constrained ? generated(-1) : `${letterPrefix(collection.name)}0000`);
  const numbered = sample === undefined ? null : /^([^0-9]*)([0-9]+)$/.exec(sample);
  if (numbered) {
    const [, prefix = "", digits = ""] = numbered;
    const keys = Array.from(
      { length: count },
      (_, i) => `${prefix}${String(i + 1).padStart(digits.length, "0")}`,
    );
    const fits = validatorFor(holder);
    if (keys.every((key) => fits({ [collection.keyField]: key }) === true)) return keys;
  }
  const keys = new Set<string>();
  // a few tries per key: a pattern or an enum may allow fewer keys than asked for
  for (let attempt = 0; keys.size < count && attempt < count * 4; attempt++) {
    const key = generated(attempt);
    if (key !== undefined) keys.add(key);
  }
  return [...keys];
}

function keySchemaOf(record: JsonSchema, keyField: string): JsonSchema {
  const properties = isPlainObject(record.properties) ? record.properties : {};
  return resolved(properties[keyField], record);
}

function exampleOf(schema: JsonSchema): string | undefined {
  const examples = Array.isArray(schema.examples) ? schema.examples : [schema.example];
  return examples.find((e): e is string => typeof e === "string" && e !== "");
}

function letterPrefix(collection: string): string {
  const letters = singular(collection)
    .replace(/[^a-z]/gi, "")
    .slice(0, 3)
    .toUpperCase();
  return letters ? `${letters}-` : "";
}

/**
 * The record's top-level fields that name another collection's id (`owner_id`, `ownerId`,
 * `tag_ids` → `owners`, `tags`), for collections that have keys by the time this one is seeded.
 */
function referencesOf(
  record: JsonSchema,
  collection: SchemaCollection,
  names: ReadonlySet<string>,
  state: StateDocument,
): Record<string, string> {
  const properties = isPlainObject(record.properties) ? record.properties : {};
  const out: Record<string, string> = {};
  for (const field of Object.keys(properties)) {
    if (field === collection.keyField) continue;
    const target = targetOf(field, names);
    if (!target || target === collection.name) continue;
    const entities = state[target];
    if (isPlainObject(entities) && Object.keys(entities).length > 0) out[field] = target;
  }
  return out;
}

/** The collection an identifier field names, among the world's collections. */
function targetOf(field: string, names: ReadonlySet<string>): string | undefined {
  const snake = field.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  const match = /^(.+?)_?(id|ids|key|keys|uuid|uuids)$/.exec(snake);
  const stem = match?.[1]?.replace(/_$/, "");
  if (!stem) return undefined;
  const noun = singular(stem);
  return [plural(noun), stem, noun].find((name) => names.has(name));
}

/** One key of the target collection (a list of them for an array field), typed as the field is. */
function referenceValue(record: JsonSchema, field: string, target: unknown, seed: number): unknown {
  const keys = Object.keys(isPlainObject(target) ? target : {});
  const schema = keySchemaOf(record, field);
  const pick = (offset: number) => keys[(seed + offset) % keys.length] as string;
  const typed = (key: string, type: unknown) =>
    (type === "integer" || type === "number") && /^\d+$/.test(key) ? Number(key) : key;
  if (schema.type === "array") {
    const items = resolved(schema.items, record);
    const count = Math.min(keys.length, Math.max(1, Number(schema.minItems ?? 1)));
    return Array.from({ length: count }, (_, i) => typed(pick(i), items.type));
  }
  return typed(pick(0), schema.type);
}

/** A property's schema with a local `$ref` into the record's `$defs` followed. */
function resolved(raw: unknown, record: JsonSchema): JsonSchema {
  if (!isPlainObject(raw)) return {};
  const ref = raw.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return raw as JsonSchema;
  const defs = isPlainObject(record.$defs) ? record.$defs : {};
  const target = defs[ref.slice("#/$defs/".length)];
  return isPlainObject(target) ? (target as JsonSchema) : {};
}

/** Collections others refer to come first, so references find their keys; a cycle keeps the schema's order. */
function referencedFirst(
  collections: readonly SchemaCollection[],
  names: ReadonlySet<string>,
): SchemaCollection[] {
  const needs = new Map(
    collections.map((c) => {
      const properties =
        c.record && isPlainObject(c.record.properties) ? Object.keys(c.record.properties) : [];
      const targets = properties
        .filter((field) => field !== c.keyField)
        .map((field) => targetOf(field, names))
        .filter((t): t is string => t !== undefined && t !== c.name);
      return [c.name, new Set(targets)];
    }),
  );
  const ordered: SchemaCollection[] = [];
  const placed = new Set<string>();
  while (ordered.length < collections.length) {
    const ready =
      collections.find(
        (c) => !placed.has(c.name) && [...(needs.get(c.name) ?? [])].every((t) => placed.has(t)),
      ) ?? collections.find((c) => !placed.has(c.name));
    if (!ready) break;
    ordered.push(ready);
    placed.add(ready.name);
  }
  return ordered;
}
