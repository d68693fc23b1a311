import type { StateDocument } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { nameWords, nounKeys, singular } from "./words.js";

/**
 * The shape of a state, as inference needs it: its collections (top-level maps of entities
 * keyed by id, and maps of entities nested inside entities, such as a user's payment
 * methods), how their keys look, which field of an entity repeats its key, the fields of
 * their entities (nested objects as dotted paths), the values a status-like field takes, and
 * which fields refer to entities of another collection.
 */

export interface KeyFormat {
  /** Characters every key starts with (`#W`, `CUST-`). */
  prefix: string;
  /** Digits after the prefix, when every key is prefix + digits. */
  digits?: number;
  /** Longest key, for keys that are not prefix + digits. */
  length: number;
}

export interface FieldShape {
  path: string;
  /** JSON types seen: string, number, boolean, object, array, null. */
  types: Set<string>;
  /** Distinct string values seen, with counts, up to a bound (for status-like fields). */
  values: Map<string, number>;
  /** More distinct values than the bound: not an enumeration. */
  open: boolean;
  /** The collection whose keys this field's values (or array items) are. */
  refersTo?: string;
  /** Field names of the objects inside an array field. */
  itemFields?: Set<string>;
  /** Sample keys of an object field that is a map keyed by ids or dates (a flight's `dates`). */
  mapKeys?: Set<string>;
}

export interface CollectionShape {
  /** `orders`, or for nested ones the field name (`payment_methods`). */
  name: string;
  /** Top-level collection holding the entities this one is nested in (`users`), if nested. */
  parent?: string;
  keys: string[];
  keyFormat?: KeyFormat;
  /** Field of each entity that holds its own key (`order_id`). */
  keyField?: string;
  fields: Map<string, FieldShape>;
  size: number;
}

export interface StateShape {
  collections: Map<string, CollectionShape>;
  /** Nested collections by their field name (several parents may share one). */
  nested: Map<string, CollectionShape>;
  /** Every collection (top-level first) by its noun (`payment_method`), and by the field that holds its keys. */
  byNoun: Map<string, CollectionShape[]>;
  byKeyField: Map<string, CollectionShape[]>;
  /** Collections of several words by the nouns their names end with (`customer_orders` under `order`). */
  bySuffix: Map<string, CollectionShape[]>;
}

/** How many entities of a collection are looked at, and how many distinct values make a field open. */
const SAMPLE = 400;
const ENUM_LIMIT = 24;

export function shapeOf(states: readonly StateDocument[]): StateShape {
  const collections = new Map<string, CollectionShape>();
  const nested = new Map<string, CollectionShape>();
  const entitiesOf = new Map<string, Array<[string, Record<string, unknown>]>>();
  for (const state of states)
    for (const [name, value] of Object.entries(state)) {
      if (name === "runtime" || !isKeyedMap(value)) continue;
      const list = entitiesOf.get(name) ?? [];
      for (const [key, entity] of Object.entries(value)) if (isPlainObject(entity)) list.push([key, entity]);
      entitiesOf.set(name, list);
    }
  for (const [name, entities] of entitiesOf) collections.set(name, describe(name, entities));
  for (const [parent, entities] of entitiesOf)
    for (const field of nestedMapFields(entities)) {
      const inner: Array<[string, Record<string, unknown>]> = [];
      for (const [, entity] of entities.slice(0, SAMPLE)) {
        const map = entity[field];
        if (isPlainObject(map))
          for (const [key, value] of Object.entries(map)) if (isPlainObject(value)) inner.push([key, value]);
      }
      if (!nested.has(field)) nested.set(field, { ...describe(field, inner), parent });
    }
  const keySets = new Map<string, Set<string>>();
  for (const [name, shape] of [...collections, ...nested]) keySets.set(name, new Set(shape.keys));
  for (const shape of [...collections.values(), ...nested.values()])
    linkReferences(shape, entitiesOf, keySets);
  const byNoun = new Map<string, CollectionShape[]>();
  const byKeyField = new Map<string, CollectionShape[]>();
  const add = (index: Map<string, CollectionShape[]>, key: string, shape: CollectionShape) =>
    index.set(key, [...(index.get(key) ?? []), shape]);
  const bySuffix = new Map<string, CollectionShape[]>();
  for (const shape of [...collections.values(), ...nested.values()]) {
    for (const key of nounKeys(shape.name)) add(byNoun, key, shape);
    if (shape.keyField) add(byKeyField, shape.keyField, shape);
    const words = nameWords(shape.name).map(singular);
    for (let size = 1; size < words.length; size++) add(bySuffix, words.slice(-size).join("_"), shape);
  }
  return { collections, nested, byNoun, byKeyField, bySuffix };
}

function describe(name: string, entities: ReadonlyArray<[string, Record<string, unknown>]>): CollectionShape {
  const sample = spread(entities, SAMPLE);
  const fields = new Map<string, FieldShape>();
  for (const [, entity] of sample) collectFields(entity, "", fields);
  return {
    name,
    keys: entities.map(([key]) => key),
    keyFormat: keyFormatOf(entities.map(([key]) => key)),
    keyField: keyFieldOf(sample),
    fields,
    size: entities.length,
  };
}

/** Evenly spaced entities, so a sample sees the whole collection, not only its first keys. */
function spread<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)] as T);
}

function collectFields(
  value: Record<string, unknown>,
  prefix: string,
  fields: Map<string, FieldShape>,
): void {
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const field: FieldShape = fields.get(path) ?? {
      path,
      types: new Set<string>(),
      values: new Map(),
      open: false,
    };
    fields.set(path, field);
    field.types.add(typeOf(item));
    if (typeof item === "string" && !field.open) {
      field.values.set(item, (field.values.get(item) ?? 0) + 1);
      if (field.values.size > ENUM_LIMIT) field.open = true;
    }
    if (Array.isArray(item)) {
      for (const element of item.slice(0, 20))
        if (isPlainObject(element)) {
          field.itemFields ??= new Set();
          for (const k of Object.keys(element)) field.itemFields.add(k);
        }
    }
    if (isPlainObject(item) && looksKeyed(item)) {
      field.mapKeys ??= new Set();
      for (const k of Object.keys(item).slice(0, 20)) if (field.mapKeys.size < 50) field.mapKeys.add(k);
    }
    // nested objects with the same fields in every entity (an address, a name) are part of the entity
    else if (isPlainObject(item) && prefix.split(".").length < 3) collectFields(item, path, fields);
  }
}

/** A field of most entities whose value is the entity's own key. */
function keyFieldOf(sample: ReadonlyArray<[string, Record<string, unknown>]>): string | undefined {
  if (sample.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const [key, entity] of sample)
    for (const [field, value] of Object.entries(entity))
      if (String(value) === key && (typeof value === "string" || typeof value === "number"))
        counts.set(field, (counts.get(field) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return best && best[1] >= sample.length * 0.9 ? best[0] : undefined;
}

function keyFormatOf(keys: readonly string[]): KeyFormat | undefined {
  if (keys.length === 0) return undefined;
  let prefix = keys[0] ?? "";
  for (const key of keys) while (!key.startsWith(prefix)) prefix = prefix.slice(0, -1);
  // a prefix ending in digits is part of the numbers (`100`, `101`): keep only its non-digits
  prefix = prefix.replace(/[0-9]+$/, "");
  const rest = keys.map((key) => key.slice(prefix.length));
  const numeric = rest.every((r) => /^[0-9]+$/.test(r));
  const length = Math.max(...keys.map((k) => k.length));
  return numeric ? { prefix, digits: Math.max(...rest.map((r) => r.length)), length } : { prefix, length };
}

/** Object fields whose keys differ from entity to entity and whose values are objects: maps of entities. */
function nestedMapFields(entities: ReadonlyArray<[string, Record<string, unknown>]>): string[] {
  const seen = new Map<string, { union: Set<string>; total: number; objects: number }>();
  for (const [, entity] of entities.slice(0, SAMPLE))
    for (const [field, value] of Object.entries(entity)) {
      if (!isPlainObject(value)) continue;
      const entry = seen.get(field) ?? { union: new Set<string>(), total: 0, objects: 0 };
      seen.set(field, entry);
      for (const [key, item] of Object.entries(value)) {
        entry.union.add(key);
        entry.total++;
        if (isPlainObject(item)) entry.objects++;
      }
    }
  return [...seen]
    .filter(([, e]) => e.total > 0 && e.objects === e.total && e.union.size > Math.max(3, e.total * 0.5))
    .map(([field]) => field);
}

/** A map keyed by ids rather than a record with named fields: its values are all objects of one kind. */
function looksKeyed(value: Record<string, unknown>): boolean {
  const values = Object.values(value);
  return values.length > 0 && values.every(isPlainObject) && Object.keys(value).some((k) => /[0-9]/.test(k));
}

function isKeyedMap(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every(isPlainObject);
}

/** Which fields hold keys of another collection (a user's `orders`, an order's `user_id`). */
function linkReferences(
  shape: CollectionShape,
  entitiesOf: ReadonlyMap<string, Array<[string, Record<string, unknown>]>>,
  keySets: ReadonlyMap<string, Set<string>>,
): void {
  const entities = shape.parent ? [] : (entitiesOf.get(shape.name) ?? []);
  const sample = spread(entities, 100);
  for (const field of shape.fields.values()) {
    if (field.path === shape.keyField) continue;
    const values: string[] = [];
    for (const [, entity] of sample) {
      const value = dig(entity, field.path);
      if (typeof value === "string") values.push(value);
      else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") values.push(v);
    }
    if (!shape.parent && values.length === 0) for (const value of field.values.keys()) values.push(value); // nested: the sampled strings
    if (values.length === 0) continue;
    for (const [name, keys] of keySets) {
      if (name === shape.name) continue;
      const hits = values.filter((v) => keys.has(v)).length;
      if (hits >= values.length * 0.8) {
        field.refersTo = name;
        break;
      }
    }
  }
}

/** The outline of a value: digits become 9 and letters a (`INV-000123` → `aaa-999999`). */
export function outline(value: string): string {
  return value.replace(/[0-9]/g, "9").replace(/[A-Za-z]/g, "a");
}

export function dig(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
