import type { StateDocument, Tool } from "../catalog/index.js";
import { canonicalJson, readPointer, toPointer } from "../patch/index.js";
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
 * The part of the state a call needs, bounded so the prompt stays the same size however
 * many entities the state holds: the entities the arguments reference, the ones the
 * declared effects touched, a few of the collection the tool is about, and a summary of
 * every collection.
 */
export function stateView(
  input: { tool: Tool; args: Record<string, unknown>; state: StateDocument; effects: EffectsResult },
  limits: SliceLimits = DEFAULT_SLICE_LIMITS,
): StateView {
  const { state } = input;
  if (canonicalJson(state).length < limits.wholeBelowBytes) return { kind: "whole", document: state };

  const entities: Record<string, unknown> = {};
  const add = (pointer: string, value: unknown) => {
    if (!(pointer in entities)) entities[pointer] = bounded(value, limits.entityBytes);
  };
  for (const ref of referencedEntities(input.args, state))
    add(toPointer([ref.collection, ref.key]), ref.entity);
  if (input.effects.status === "applied") {
    for (const pointer of input.effects.touched) {
      const found = readPointer(state, pointer);
      if (found !== undefined) add(pointer, found);
    }
  }
  for (const [pointer, entity] of relatedEntities(input.tool, input.args, state, limits.relatedEntities)) {
    add(pointer, entity);
  }

  const collections: CollectionSummary[] = [];
  for (const [name, value] of Object.entries(state)) {
    if (name === "runtime") continue;
    collections.push(summarize(name, value, limits));
  }
  const runtime = state.runtime === undefined ? undefined : bounded(state.runtime, limits.entityBytes);
  return { kind: "slice", entities, collections, runtime };
}

/** A few entities of the collection the tool's name is about, preferring those whose fields equal the arguments. */
function relatedEntities(
  tool: Tool,
  args: Record<string, unknown>,
  state: StateDocument,
  limit: number,
): Array<[string, unknown]> {
  const words = new Set(wordsOf(tool.name).flatMap((w) => [w, singular(w)]));
  const name = Object.keys(state).find(
    (key) => key !== "runtime" && isRecord(state[key]) && (words.has(key) || words.has(singular(key))),
  );
  if (!name) return [];
  const collection = state[name] as Record<string, unknown>;
  const filters = Object.entries(args).filter(
    ([, v]) => typeof v === "string" || typeof v === "number" || typeof v === "boolean",
  );
  const picked: Array<[string, unknown]> = [];
  const fallback: Array<[string, unknown]> = [];
  // walks at most a bounded number of entities, so a huge collection costs no more than a small one
  let seen = 0;
  for (const [key, entity] of Object.entries(collection)) {
    if (picked.length >= limit || seen++ >= 2_000) break;
    const pointer = toPointer([name, key]);
    const matches =
      filters.length > 0 && isRecord(entity) && filters.some(([field, value]) => entity[field] === value);
    if (matches) picked.push([pointer, entity]);
    else if (fallback.length < limit) fallback.push([pointer, entity]);
  }
  return picked.length > 0 ? picked : fallback;
}

function summarize(name: string, value: unknown, limits: SliceLimits): CollectionSummary {
  if (Array.isArray(value)) {
    return { name, count: value.length, sampleKeys: [], fields: fieldsOf(value.slice(0, 5), limits.fields) };
  }
  if (!isRecord(value)) return { name, count: 1, sampleKeys: [], fields: [] };
  const keys: string[] = [];
  const sample: unknown[] = [];
  let count = 0;
  for (const key in value) {
    if (keys.length < limits.sampleKeys) keys.push(key);
    if (sample.length < 5) sample.push(value[key]);
    count++;
  }
  return { name, count, sampleKeys: keys, fields: fieldsOf(sample, limits.fields) };
}

function fieldsOf(entities: unknown[], max: number): string[] {
  const fields = new Set<string>();
  for (const entity of entities) {
    if (!isRecord(entity)) continue;
    for (const field of Object.keys(entity)) if (fields.size < max) fields.add(field);
  }
  return [...fields];
}

/** Large entities keep their scalar fields; nested values are replaced by a note of their size. */
function bounded(value: unknown, maxBytes: number): unknown {
  if (!isRecord(value) || canonicalJson(value).length <= maxBytes) return value;
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
