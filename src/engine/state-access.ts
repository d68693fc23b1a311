import type { StateDocument } from "../catalog/index.js";
import { applyPatch, type Patch } from "../patch/index.js";

/**
 * Every access the effects make to the session state goes through these functions: reading
 * the value at a path, walking a collection in key order, minting a key, applying changes.
 * Top-level collections are the only part whose representation may change (e.g. to sorted
 * persistent maps); below an entity, values are plain JSON.
 */

/** The value at [collection, key, ...steps inside the entity]; undefined when any step is absent. */
export function valueAt(document: StateDocument, path: readonly string[]): unknown {
  let current: unknown = document;
  for (const segment of path) {
    current = childOf(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/** One step into plain JSON: an object's own key, or an array's index. */
export function childOf(value: unknown, segment: string): unknown {
  if (Array.isArray(value)) return isIndex(segment) ? value[Number(segment)] : undefined;
  if (value === null || typeof value !== "object") return undefined;
  return Object.hasOwn(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
}

export function isIndex(segment: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(segment);
}

/** The entities of a collection in key order (the caller filters and stops when it has enough). */
export function* entitiesInKeyOrder(
  document: StateDocument,
  collection: string,
): Generator<[key: string, entity: unknown]> {
  const entities = document[collection];
  if (entities === null || typeof entities !== "object" || Array.isArray(entities)) return;
  const record = entities as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) yield [key, record[key]];
}

/** Whether the document holds the collection as a keyed container. */
export function hasCollection(document: StateDocument, collection: string): boolean {
  const entities = document[collection];
  return entities !== null && typeof entities === "object" && !Array.isArray(entities);
}

/** A new key for a collection: prefix + the next number after the largest one used with that prefix. */
export function mintKey(document: StateDocument, collection: string, prefix: string, width: number): string {
  const entities = document[collection];
  const keys = entities !== null && typeof entities === "object" ? Object.keys(entities) : [];
  return nextKey(keys, prefix, width);
}

/** prefix + the next number after the largest one already used with that prefix, zero-padded. */
export function nextKey(keys: Iterable<unknown>, prefix: string, width: number): string {
  let highest = 0;
  for (const key of keys) {
    if (typeof key !== "string" || !key.startsWith(prefix)) continue;
    const digits = /^[0-9]+$/.test(key.slice(prefix.length)) ? Number(key.slice(prefix.length)) : Number.NaN;
    if (digits > highest) highest = digits;
  }
  return `${prefix}${String(highest + 1).padStart(width, "0")}`;
}

/**
 * The document after a list of JSON Patch operations. Containers in `owned` were copied by
 * this run and may change in place. A patch the effects built that does not apply is a bug.
 */
export function applyChanges(document: StateDocument, ops: Patch, owned: WeakSet<object>): StateDocument {
  const applied = applyPatch(document, ops, owned);
  if (!applied.ok) throw new Error(`effects produced a patch that does not apply: ${applied.error}`);
  return applied.document as StateDocument;
}
