import type { State } from "../state/index.js";

/** What completion/complete answers (MCP caps the values at 100). */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export const NO_COMPLETION: Completion = { values: [] };

const MAX_VALUES = 100;
/** A collection larger than this is searched by exact prefix only (a walk of its sorted keys). */
const CASE_BLIND_SCAN = 10_000;

/** The state's collections (top-level keys) that start with what was typed, case aside. */
export function completeCollection(state: State, typed: string): Completion {
  const wanted = typed.toLowerCase();
  return bounded(state.keys().filter((key) => key.toLowerCase().startsWith(wanted)));
}

/**
 * The keys of a collection that start with what was typed: the sorted keys from the
 * typed prefix on (fast at any size); when none match exactly, a case-blind match over
 * a collection of moderate size ("ord-1" finds "ORD-1001").
 */
export function completeKey(state: State, collection: string | undefined, typed: string): Completion {
  const entities = collection === undefined ? undefined : state.collection(collection);
  if (!entities) return NO_COMPLETION;
  const found: string[] = [];
  for (const [key] of entities.entries(typed)) {
    if (!key.startsWith(typed) || found.length > MAX_VALUES) break;
    found.push(key);
  }
  if (found.length > 0 || typed === "" || entities.size > CASE_BLIND_SCAN) return bounded(found);
  const wanted = typed.toLowerCase();
  for (const key of entities.keys()) {
    if (key.toLowerCase().startsWith(wanted)) found.push(key);
    if (found.length > MAX_VALUES) break;
  }
  return bounded(found);
}

/**
 * A path into the state as typed so far ("orders/ORD-10", "orders/ORD-1001/sta"): the
 * collections, the keys of a collection, or the fields (or indexes) of the value the
 * path reaches, each as the whole path to put in the template's `path`.
 */
export function completePath(state: State, typed: string): Completion {
  const segments = typed.replace(/^\/+/, "").split("/");
  const last = segments.pop() ?? "";
  const prefix = segments.length ? `${segments.join("/")}/` : "";
  const within = (completion: Completion): Completion => ({
    ...completion,
    values: completion.values.map((value) => prefix + value),
  });
  if (segments.length === 0) return completeCollection(state, last);
  if (segments.length === 1) return within(completeKey(state, segments[0], last));
  const parent = state.get(segments);
  if (parent === null || typeof parent !== "object") return NO_COMPLETION;
  const names = Array.isArray(parent) ? parent.map((_, index) => String(index)) : Object.keys(parent);
  const wanted = last.toLowerCase();
  return within(bounded(names.filter((name) => name.toLowerCase().startsWith(wanted))));
}

/** At most 100 values: `hasMore` when there were more, `total` otherwise. */
function bounded(values: string[]): Completion {
  const more = values.length > MAX_VALUES;
  return { values: values.slice(0, MAX_VALUES), ...(more ? { hasMore: true } : { total: values.length }) };
}
