import type { StateDocument } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";

/**
 * What the state shows an action does. When records already in the status an action leaves
 * behind (cancelled orders) all have a field that records in the status it starts from lack
 * — the time of the change (`cancelled_at`) or one constant value — the action sets it too.
 * Public APIs keep such fields beside a status: Stripe's `canceled_at` and
 * `cancellation_reason`, Shopify's `cancelled_at`, GitHub's `closed_at`.
 */

export type Transition =
  | { kind: "timestamp"; field: string }
  | { kind: "constant"; field: string; value: string | number | boolean };

/** How many records must show a change before it is taken for a rule. */
const EVIDENCE = 3;

export function transitionsOf(
  states: readonly StateDocument[],
  path: readonly string[],
  statusField: string,
  before: readonly string[],
  after: string,
): Transition[] {
  const entities = states.flatMap((state) => recordsAt(state, path));
  const done = entities.filter((e) => e[statusField] === after);
  const start = entities.filter((e) =>
    before.length > 0 ? before.includes(String(e[statusField])) : e[statusField] !== after,
  );
  if (done.length === 0 || start.length === 0) return [];
  // fewer examples are enough for a time named for the status itself that every record before
  // it keeps as null (`cancelled_at: null`, as Stripe's and Shopify's objects do)
  const few = done.length < EVIDENCE || start.length < EVIDENCE;
  const named = new RegExp(`^${after.toLowerCase().replace(/[^a-z]/g, "")}_?(at|on|date|time)$`, "i");
  const declared = (field: string) => named.test(field) && start.every((e) => e[field] === null);
  const fields = new Set(done.flatMap((e) => Object.keys(e)));
  const found: Transition[] = [];
  for (const field of fields) {
    if (field === statusField || (few && !declared(field))) continue;
    const added = addedField(done, start, field);
    if (added) found.push(added);
  }
  return found;
}

/** The records of a collection at a path (maps and arrays alike); none when the path passes through other records. */
export function recordsAt(state: StateDocument, path: readonly string[]): Array<Record<string, unknown>> {
  if (path.includes("*")) return [];
  let value: unknown = state;
  for (const segment of path) value = isPlainObject(value) ? value[segment] : undefined;
  if (Array.isArray(value)) return value.filter(isPlainObject);
  return isPlainObject(value) ? Object.values(value).filter(isPlainObject) : [];
}

/** A field every finished record has and no starting record has (or has null): the time of the change, or a constant. */
function addedField(
  done: ReadonlyArray<Record<string, unknown>>,
  start: ReadonlyArray<Record<string, unknown>>,
  field: string,
): Transition | undefined {
  // null is no value: Stripe and Shopify keep `canceled_at: null` until the cancellation
  const held = (v: unknown) => v !== undefined && v !== null;
  if (!done.every((e) => held(e[field])) || start.some((e) => held(e[field]))) return undefined;
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
