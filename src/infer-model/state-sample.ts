import type { StateDocument } from "../catalog/index.js";

export interface SampleLimits {
  /** Entities shown per collection. */
  entities: number;
  /** Characters of one entity, past which it is cut. */
  entityChars: number;
}

export const DEFAULT_SAMPLE: SampleLimits = { entities: 3, entityChars: 1_500 };

/**
 * A few entities of each collection (the first keys in order), how many there are and a
 * few more of their keys, and the runtime: enough for a model to see the shapes and the
 * id formats without the whole state.
 */
export function stateSample(state: StateDocument, limits: SampleLimits = DEFAULT_SAMPLE): StateDocument {
  const sample: StateDocument = {};
  for (const [name, value] of Object.entries(state)) {
    if (name === "runtime" || value === null || typeof value !== "object" || Array.isArray(value)) {
      sample[name] = clip(value, limits.entityChars * 2);
      continue;
    }
    const keys = Object.keys(value).sort();
    const entities = Object.fromEntries(
      keys
        .slice(0, limits.entities)
        .map((key) => [key, clip((value as Record<string, unknown>)[key], limits.entityChars)]),
    );
    sample[name] = { count: keys.length, keys: keys.slice(0, 12), entities };
  }
  return sample;
}

function clip(value: unknown, maxChars: number): unknown {
  const text = JSON.stringify(value ?? null);
  return text.length <= maxChars
    ? value
    : `(${text.length} characters, starts with) ${text.slice(0, maxChars)}…`;
}
