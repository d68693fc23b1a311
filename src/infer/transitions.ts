import type { StateDocument } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";

/**
 * What the state shows an action does. When entities already in the status an action leaves
 * behind (cancelled orders) differ from entities in the status it starts from (pending ones)
 * in the same way every time, the action does that: each of their transactions is mirrored
 * by one whose kind changed (`payment` → `refund`), a field appears with the time of the
 * change or with one constant value.
 */

export type Transition =
  | {
      kind: "mirror";
      /** Array field of the entity that gains the mirrored elements. */
      field: string;
      /** Field of the elements that changes, from what to what. */
      key: string;
      from: string;
      to: string;
    }
  | { kind: "timestamp"; field: string }
  | { kind: "constant"; field: string; value: string | number | boolean };

/** How many entities must show a change before it is taken for a rule. */
const EVIDENCE = 3;

export function transitionsOf(
  states: readonly StateDocument[],
  collection: string,
  statusField: string,
  before: readonly string[],
  after: string,
): Transition[] {
  const entities = states.flatMap((state) => {
    const value = state[collection];
    return isPlainObject(value) ? Object.values(value).filter(isPlainObject) : [];
  });
  const done = entities.filter((e) => e[statusField] === after);
  const start = entities.filter((e) =>
    before.length > 0 ? before.includes(String(e[statusField])) : e[statusField] !== after,
  );
  if (done.length < EVIDENCE || start.length < EVIDENCE) return [];
  const fields = new Set(done.flatMap((e) => Object.keys(e)));
  const found: Transition[] = [];
  for (const field of fields) {
    if (field === statusField) continue;
    const mirror = mirrorOf(done, start, field);
    if (mirror) {
      found.push(mirror);
      continue;
    }
    const added = addedField(done, start, field);
    if (added) found.push(added);
  }
  return found;
}

/**
 * Every finished entity's array is its starting elements followed by one copy of each with one
 * field changed the same way, and no starting entity has such copies yet.
 */
function mirrorOf(
  done: ReadonlyArray<Record<string, unknown>>,
  start: ReadonlyArray<Record<string, unknown>>,
  field: string,
): Transition | undefined {
  let change: { key: string; from: string; to: string } | undefined;
  for (const entity of done) {
    const items = entity[field];
    if (!Array.isArray(items) || items.length === 0 || items.length % 2 !== 0) return undefined;
    const half = items.length / 2;
    for (let i = 0; i < half; i++) {
      const original = items[i];
      const copy = items[half + i];
      if (!isPlainObject(original) || !isPlainObject(copy)) return undefined;
      const differing = Object.keys({ ...original, ...copy }).filter((k) => original[k] !== copy[k]);
      if (differing.length !== 1) return undefined;
      const key = differing[0] as string;
      const from = original[key];
      const to = copy[key];
      if (typeof from !== "string" || typeof to !== "string") return undefined;
      change ??= { key, from, to };
      if (change.key !== key || change.from !== from || change.to !== to) return undefined;
    }
  }
  if (!change) return undefined;
  const { key, to } = change;
  const untouched = start.every((entity) => {
    const items = entity[field];
    return Array.isArray(items) && items.every((item) => isPlainObject(item) && item[key] !== to);
  });
  return untouched ? { kind: "mirror", field, ...change } : undefined;
}

/** A field every finished entity has and no starting entity has: the time of the change, or a constant. */
function addedField(
  done: ReadonlyArray<Record<string, unknown>>,
  start: ReadonlyArray<Record<string, unknown>>,
  field: string,
): Transition | undefined {
  if (!done.every((e) => e[field] !== undefined) || start.some((e) => e[field] !== undefined))
    return undefined;
  const values = done.map((e) => e[field]);
  if (values.every((v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v)))
    return { kind: "timestamp", field };
  const first = values[0];
  if (
    (typeof first === "string" || typeof first === "number" || typeof first === "boolean") &&
    values.every((v) => v === first)
  )
    return { kind: "constant", field, value: first };
  return undefined;
}
