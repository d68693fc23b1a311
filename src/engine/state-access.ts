import type { Patch } from "../patch/index.js";
import type { State } from "../state/index.js";

/**
 * Every access the effects make to the session state goes through these functions: reading
 * the value at a path, walking a collection in key order (through an index when a filter
 * names a field), minting a key, applying changes. Each costs the same at 10 and at 100,000
 * entities: the state is persistent (see `state/`); below an entity, values are plain JSON.
 */

/** The value at [collection, key, ...steps inside the entity]; undefined when any step is absent. */
export function valueAt(state: State, path: readonly string[]): unknown {
  if (path.length < 2) return path.length === 1 ? state.get(path) : undefined;
  const [collection, key, ...inside] = path as [string, string, ...string[]];
  const entity = state.collection(collection)?.get(key) ?? state.get([collection, key]);
  return inside.reduce<unknown>(
    (current, segment) => (current === undefined ? undefined : childOf(current, segment)),
    entity,
  );
}

/** The whole state as one record: every top-level value but the `runtime` context. */
export function rootRecord(state: State): Record<string, unknown> {
  const { runtime: _runtime, ...world } = state.toJSON();
  return world;
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
  state: State,
  collection: string,
): Generator<[key: string, entity: unknown]> {
  const entities = state.collection(collection);
  if (entities) yield* entities.entries();
}

/**
 * The entities of a collection in key order whose `field` may loosely equal one of
 * `wanted`: through the collection's equality index, so a selective filter does not walk the
 * whole collection. A candidate list: the caller still applies its own test to each.
 */
export function* candidatesInKeyOrder(
  state: State,
  collection: string,
  field: string,
  wanted: readonly unknown[],
): Generator<[key: string, entity: unknown]> {
  const entities = state.collection(collection);
  if (entities) yield* entities.matching(field, wanted);
}

/** Whether the state holds the collection as a keyed container. */
export function hasCollection(state: State, collection: string): boolean {
  return state.collection(collection) !== undefined;
}

/** A new key for a collection: prefix + the next number after the largest one used with that prefix. */
export function mintKey(state: State, collection: string, prefix: string, width: number): string {
  const found = state.collection(collection);
  const highest = found?.highestNumbered(prefix) ?? 0;
  // past 2^53 a number rounds: such keys are snowflakes, counted exactly from their text
  if (found && highest > Number.MAX_SAFE_INTEGER) return nextKey(Object.keys(found.toJSON()), prefix, width);
  return `${prefix}${String(highest + 1).padStart(width, "0")}`;
}

/** prefix + the next number after the largest one already used with that prefix, zero-padded (small containers inside an entity). */
export function nextKey(keys: Iterable<unknown>, prefix: string, width: number): string {
  // BigInt, as ids written as text run past 2^53 (the snowflakes of X, Discord and Mastodon)
  let highest = 0n;
  for (const raw of keys) {
    const key = typeof raw === "number" && Number.isInteger(raw) ? String(raw) : raw;
    if (typeof key !== "string" || !key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    if (!/^[0-9]{1,40}$/.test(rest)) continue;
    const digits = BigInt(rest);
    if (digits > highest) highest = digits;
  }
  return `${prefix}${String(highest + 1n).padStart(width, "0")}`;
}

/** The state after a list of JSON Patch operations. A patch the effects built that does not apply is a bug. */
export function applyChanges(state: State, ops: Patch): State {
  const applied = state.apply(ops);
  if (!applied.ok) throw new Error(`effects produced a patch that does not apply: ${applied.error}`);
  return applied.state;
}
