import type { Tool } from "../catalog/index.js";
import { canonicalJson, isPlainObject, pointerSegments, toPointer } from "../patch/index.js";
import type { State, StateDocument } from "../state/index.js";
import { referencedEntities, wordsOf } from "./infer.js";
import type { EffectsResult } from "./types.js";

/** What a simulator prompt shows of the session state: all of it when small, else a bounded slice. */
export type StateView =
  | { kind: "whole"; document: StateDocument }
  | {
      kind: "slice";
      /** Entities the call names or the effects touched, and a few of the collection the tool works on. */
      entities: Record<string, unknown>;
      collections: CollectionSummary[];
      runtime?: unknown;
    };

export interface CollectionSummary {
  name: string;
  count: number;
  /** The first few keys, so the model sees how identifiers look. */
  sampleKeys: string[];
  fields: string[];
}

export interface SliceLimits {
  /** Below this many bytes of canonical JSON the whole state is shown. */
  wholeBelowBytes: number;
  /** Entities shown from the collection the tool's name points at. */
  relatedEntities: number;
  /** An entity larger than this shows its scalar fields and the sizes of the rest. */
  entityBytes: number;
  sampleKeys: number;
  fields: number;
}

export const DEFAULT_SLICE_LIMITS: SliceLimits = {
  wholeBelowBytes: 8_000,
  relatedEntities: 3,
  entityBytes: 4_000,
  sampleKeys: 3,
  fields: 24,
};

/**
 * The part of the state a call needs, bounded so the prompt (and the time to build it)
 * stays the same however many entities the state holds: the entities the arguments
 * reference, the ones the declared effects touched, a few of the collection the tool is
 * about, and a summary of every collection. The whole state is shown only when it is
 * small, which is found out without serializing a large one.
 */
export function stateView(
  input: { tool: Tool; args: Record<string, unknown>; state: State; effects: EffectsResult },
  limits: SliceLimits = DEFAULT_SLICE_LIMITS,
): StateView {
  const { state } = input;
  if (smallerThan(state, limits.wholeBelowBytes)) return { kind: "whole", document: state.toJSON() };

  const entities: Record<string, unknown> = {};
  const add = (pointer: string, value: unknown) => {
    if (!(pointer in entities)) entities[pointer] = bounded(value, limits.entityBytes);
  };
  for (const ref of referencedEntities(input.args, state))
    add(toPointer([ref.collection, ref.key]), ref.entity);
  if (input.effects.status === "applied") {
    for (const pointer of input.effects.touched) {
      const path = pointerSegments(pointer);
      const found = path.ok ? state.get(path.segments) : undefined;
      if (found !== undefined) add(pointer, found);
    }
  }
  for (const [pointer, entity] of relatedEntities(input.tool, input.args, state, limits.relatedEntities)) {
    add(pointer, entity);
  }

  const collections: CollectionSummary[] = [];
  for (const name of state.keys()) {
    if (name === "runtime") continue;
    collections.push(summarize(state, name, limits));
  }
  const runtime = state.has("runtime") ? bounded(state.runtime, limits.entityBytes) : undefined;
  return { kind: "slice", entities, collections, runtime };
}

/** Whether the state's JSON is shorter than `bytes`, measured entity by entity and given up as soon as it is not. */
function smallerThan(state: State, bytes: number): boolean {
  let size = 0;
  for (const name of state.keys()) {
    const collection = state.collection(name);
    const parts = collection ? collection.entries() : [[name, state.get([name])] as [string, unknown]];
    for (const [key, value] of parts) {
      size += key.length + (JSON.stringify(value)?.length ?? 0);
      if (size >= bytes) return false;
    }
  }
  return true;
}

/** A few entities of the collection the tool's name is about, preferring those whose fields equal the arguments. */
function relatedEntities(
  tool: Tool,
  args: Record<string, unknown>,
  state: State,
  limit: number,
): Array<[string, unknown]> {
  const words = new Set(wordsOf(tool.name).flatMap((w) => [w, singular(w)]));
  const name = state
    .keys()
    .find(
      (key) => key !== "runtime" && state.collection(key) && (words.has(key) || words.has(singular(key))),
    );
  const collection = name ? state.collection(name) : undefined;
  if (!name || !collection) return [];
  const filters = Object.entries(args).filter(
    ([, v]) => typeof v === "string" || typeof v === "number" || typeof v === "boolean",
  );
  const picked: Array<[string, unknown]> = [];
  for (const [field, value] of filters) {
    for (const [key, entity] of collection.matching(field, [value])) {
      if (picked.length >= limit) break;
      picked.push([toPointer([name, key]), entity]);
    }
  }
  if (picked.length > 0) return picked;
  const first: Array<[string, unknown]> = [];
  for (const [key, entity] of collection.entries()) {
    if (first.length >= limit) break;
    first.push([toPointer([name, key]), entity]);
  }
  return first;
}

function summarize(state: State, name: string, limits: SliceLimits): CollectionSummary {
  const collection = state.collection(name);
  if (!collection) {
    const value = state.get([name]);
    if (Array.isArray(value)) {
      return {
        name,
        count: value.length,
        sampleKeys: [],
        fields: fieldsOf(value.slice(0, 5), limits.fields),
      };
    }
    return { name, count: 1, sampleKeys: [], fields: [] };
  }
  const keys: string[] = [];
  const sample: unknown[] = [];
  for (const [key, entity] of collection.entries()) {
    if (keys.length < limits.sampleKeys) keys.push(key);
    if (sample.length < 5) sample.push(entity);
    if (keys.length >= limits.sampleKeys && sample.length >= 5) break;
  }
  return { name, count: collection.size, sampleKeys: keys, fields: fieldsOf(sample, limits.fields) };
}

function fieldsOf(entities: unknown[], max: number): string[] {
  const fields = new Set<string>();
  for (const entity of entities) {
    if (!isPlainObject(entity)) continue;
    for (const field of Object.keys(entity)) if (fields.size < max) fields.add(field);
  }
  return [...fields];
}

/** Large entities keep their scalar fields; nested values are replaced by a note of their size. */
function bounded(value: unknown, maxBytes: number): unknown {
  if (!isPlainObject(value) || canonicalJson(value).length <= maxBytes) return value;
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) {
    if (inner === null || typeof inner !== "object") out[field] = inner;
    else out[field] = Array.isArray(inner) ? `(${inner.length} items not shown)` : "(object not shown)";
  }
  return out;
}

function singular(word: string): string {
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ss")) return word;
  return word.replace(/s$/, "");
}
