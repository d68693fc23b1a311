import { deepEqual, isPlainObject } from "../src/patch/index.js";

/**
 * How an answer of toolsim is compared with the answer of a real implementation: the real
 * answer is flattened to its leaves (path → value), and each leaf counts as found when
 * toolsim's answer holds an equal value at the same path. toolsim may place the entity at the
 * root or one level down (`{"order": {...}}`); the better of those alignments counts.
 */

export type Leaves = Map<string, unknown>;

/**
 * Equal values, numbers within floating-point noise: a real implementation that sums prices
 * answers 0.04999999999999716 where the amount is 0.05. The bound (a billionth, relative) is
 * far below any amount a rule could get wrong, so 0.05 and 0.051 still differ.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number")
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]))
    );
  }
  return deepEqual(a, b);
}

/**
 * The leaves of a value, path → value. Paths are unambiguous: an array index is `[0]`, a key
 * holding `.`, `[`, `]` or `"` (a file name) is quoted (`["notes.txt"]`), so `{"a.b": 1}`,
 * `{"a": {"b": 1}}` and `{"a": [1]}` never share a path. An empty object or array is a leaf.
 */
export function leavesOf(value: unknown, prefix = "", out: Leaves = new Map()): Leaves {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(prefix, []);
    value.forEach((item, index) => {
      leavesOf(item, `${prefix}[${index}]`, out);
    });
    return out;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) out.set(prefix, {});
    for (const [key, item] of entries) leavesOf(item, childPath(prefix, key), out);
    return out;
  }
  out.set(prefix, value);
  return out;
}

function childPath(prefix: string, key: string): string {
  if (key !== "" && !/[.[\]"]/.test(key)) return prefix ? `${prefix}.${key}` : key;
  return `${prefix}[${JSON.stringify(key)}]`;
}

export interface Recall {
  found: number;
  total: number;
}

/**
 * The leaves of `truth` found with equal values at the same path in `answer` (best
 * alignment). Fields `answer` has beyond them neither help nor hurt; an empty `truth` (`{}`,
 * `[]`, or no value at all: a function that returns nothing) has nothing to find (total 0),
 * nor have the leaves `exclude` names (values that are random in the real implementation).
 */
export function fieldRecall(
  truth: unknown,
  answer: unknown,
  options: { exclude?: ReadonlySet<string> } = {},
): Recall {
  if (truth === null || truth === undefined) return { found: 0, total: 0 };
  if ((isPlainObject(truth) || Array.isArray(truth)) && Object.keys(truth).length === 0)
    return { found: 0, total: 0 };
  if (!isPlainObject(truth) && !Array.isArray(truth)) {
    if (options.exclude?.has("")) return { found: 0, total: 0 };
    return { found: scalarFound(truth, answer) ? 1 : 0, total: 1 };
  }
  const wanted = leavesOf(truth);
  for (const path of options.exclude ?? []) wanted.delete(path);
  let best = 0;
  for (const candidate of alignments(answer)) {
    const have = leavesOf(candidate);
    let found = 0;
    for (const [path, value] of wanted) if (have.has(path) && sameValue(have.get(path), value)) found++;
    best = Math.max(best, found);
  }
  return { found: best, total: wanted.size };
}

/** A scalar answer (an id, a number, a message) is found when toolsim answers it, alone or as a top-level field. */
function scalarFound(truth: unknown, answer: unknown): boolean {
  if (looseEqual(truth, answer)) return true;
  return isPlainObject(answer) && Object.values(answer).some((value) => looseEqual(truth, value));
}

/** "2.0" from a Python str() equals the number 2 answered as JSON. */
function looseEqual(a: unknown, b: unknown): boolean {
  if (sameValue(a, b)) return true;
  if (typeof a === "string" && typeof b === "number") return Number(a) === b && a.trim() !== "";
  if (typeof a === "number" && typeof b === "string") return Number(b) === a && b.trim() !== "";
  return false;
}

function alignments(answer: unknown): unknown[] {
  const candidates: unknown[] = [answer];
  if (isPlainObject(answer))
    for (const value of Object.values(answer)) if (isPlainObject(value)) candidates.push(value);
  return candidates;
}

/** The entity toolsim's read answered, at the root or under one key, whichever holds `field`. */
export function entityIn(answer: unknown, fields: readonly string[]): Record<string, unknown> | undefined {
  const candidates = alignments(answer).filter(isPlainObject);
  return (
    candidates.find((candidate) => fields.every((field) => field in candidate)) ??
    candidates.find((candidate) => fields.some((field) => field in candidate)) ??
    candidates[0]
  );
}

/** `given` is contained in `stored`: objects by their given fields, arrays element by element. */
export function containedIn(given: unknown, stored: unknown): boolean {
  if (Array.isArray(given))
    return (
      Array.isArray(stored) &&
      given.length === stored.length &&
      given.every((item, i) => containedIn(item, stored[i]))
    );
  if (isPlainObject(given))
    return (
      isPlainObject(stored) && Object.entries(given).every(([key, value]) => containedIn(value, stored[key]))
    );
  return looseEqual(given, stored);
}
