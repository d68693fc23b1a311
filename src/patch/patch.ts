/**
 * RFC 6902 JSON Patch on immutable documents. Applying a patch copies only the containers
 * along each touched path, so a state of 10,000 entities is not cloned for a one-field
 * change and earlier versions held in memory stay intact.
 */

import { isPlainObject } from "./plain.js";

export type PatchOperation =
  | { op: "add"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "replace"; path: string; value: unknown }
  | { op: "move"; from: string; path: string }
  | { op: "copy"; from: string; path: string }
  | { op: "test"; path: string; value: unknown };

export type Patch = PatchOperation[];

export type PatchResult = { ok: true; document: unknown } | { ok: false; error: string; index: number };

type Container = Record<string, unknown> | unknown[];

export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new PatchError(`JSON pointer "${pointer}" must start with "/"`);
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

class PatchError extends Error {}

/**
 * Applies a patch without changing `document`. Containers copied along the way belong to
 * the patch and later operations change them in place, so k operations on a wide object
 * copy it once. A caller that applies several patches to the documents it produced itself
 * (one change built in steps) may pass the same `owned` set to every call.
 */
export function applyPatch(
  document: unknown,
  patch: readonly PatchOperation[],
  owned: WeakSet<object> = new WeakSet(),
): PatchResult {
  let current = document;
  for (let index = 0; index < patch.length; index++) {
    const operation = patch[index] as PatchOperation;
    try {
      current = applyOperation(current, operation, owned);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      return {
        ok: false,
        error: `operation ${index} (${operation.op} ${operation.path}): ${error.message}`,
        index,
      };
    }
  }
  return { ok: true, document: current };
}

/** A step on a plain value, or why it cannot be taken (the reason alone, without the operation). */
export type StepResult = { ok: true; value: unknown } | { ok: false; error: string };

/** `add` or `replace` at already parsed segments of a plain value, copying only the containers on the path. */
export function setValueAt(
  document: unknown,
  segments: readonly string[],
  value: unknown,
  mode: "add" | "replace",
): StepResult {
  return step(() => setAt(document, segments, value, mode, new WeakSet()));
}

/** `remove` at already parsed segments of a plain value. */
export function removeValueAt(document: unknown, segments: readonly string[]): StepResult {
  return step(() => removeAt(document, segments, new WeakSet()));
}

/** The value at already parsed segments, or why there is none. */
export function valueAt(document: unknown, segments: readonly string[]): StepResult {
  return step(() => getAt(document, segments));
}

/** A JSON pointer's segments, or why it is not one. */
export function pointerSegments(
  pointer: string,
): { ok: true; segments: string[] } | { ok: false; error: string } {
  try {
    return { ok: true, segments: parsePointer(pointer) };
  } catch (error) {
    if (error instanceof PatchError) return { ok: false, error: error.message };
    throw error;
  }
}

function step(run: () => unknown): StepResult {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof PatchError) return { ok: false, error: error.message };
    throw error;
  }
}

function applyOperation(document: unknown, operation: PatchOperation, owned: WeakSet<object>): unknown {
  switch (operation.op) {
    case "add":
      return setAt(document, parsePointer(operation.path), operation.value, "add", owned);
    case "replace":
      return setAt(document, parsePointer(operation.path), operation.value, "replace", owned);
    case "remove":
      return removeAt(document, parsePointer(operation.path), owned);
    case "copy":
      return setAt(
        document,
        parsePointer(operation.path),
        structuredClone(getAt(document, parsePointer(operation.from))),
        "add",
        owned,
      );
    case "move": {
      const from = parsePointer(operation.from);
      const value = getAt(document, from);
      return setAt(removeAt(document, from, owned), parsePointer(operation.path), value, "add", owned);
    }
    case "test": {
      if (!deepEqual(getAt(document, parsePointer(operation.path)), operation.value))
        throw new PatchError("test failed");
      return document;
    }
    default:
      throw new PatchError(`unknown op ${JSON.stringify((operation as { op: unknown }).op)}`);
  }
}

function getAt(document: unknown, segments: readonly string[]): unknown {
  let current = document;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      const index = arrayIndex(segment, current.length, false);
      current = current[index];
    } else if (isPlainObject(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      throw new PatchError(`path does not exist at "${segment}"`);
    }
  }
  return current;
}

/** A copy of the container that this patch may change in place (the container itself once copied). */
function writable<T extends Container>(container: T, owned: WeakSet<object>): T {
  if (owned.has(container)) return container;
  const copy = (Array.isArray(container) ? container.slice() : { ...container }) as T;
  owned.add(copy);
  return copy;
}

function setAt(
  document: unknown,
  segments: readonly string[],
  value: unknown,
  mode: "add" | "replace",
  owned: WeakSet<object>,
): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  const container = asContainer(document, head);
  if (Array.isArray(container)) {
    const copy = writable(container, owned);
    if (rest.length > 0) {
      const index = arrayIndex(head, copy.length, false);
      copy[index] = setAt(copy[index], rest, value, mode, owned);
    } else if (mode === "add") {
      copy.splice(arrayIndex(head, copy.length, true), 0, value);
    } else {
      copy[arrayIndex(head, copy.length, false)] = value;
    }
    return copy;
  }
  if (!Object.hasOwn(container, head) && (rest.length > 0 || mode === "replace")) {
    throw new PatchError(
      rest.length > 0 ? `path does not exist at "${head}"` : `cannot replace missing "${head}"`,
    );
  }
  const copy = writable(container, owned);
  copy[head] = rest.length > 0 ? setAt(container[head], rest, value, mode, owned) : value;
  return copy;
}

function removeAt(document: unknown, segments: readonly string[], owned: WeakSet<object>): unknown {
  if (segments.length === 0) throw new PatchError("cannot remove the whole document");
  const [head, ...rest] = segments as [string, ...string[]];
  const container = asContainer(document, head);
  if (Array.isArray(container)) {
    const copy = writable(container, owned);
    const index = arrayIndex(head, copy.length, false);
    if (rest.length > 0) copy[index] = removeAt(copy[index], rest, owned);
    else copy.splice(index, 1);
    return copy;
  }
  if (!Object.hasOwn(container, head)) throw new PatchError(`path does not exist at "${head}"`);
  const copy = writable(container, owned);
  if (rest.length > 0) copy[head] = removeAt(container[head], rest, owned);
  else delete copy[head];
  return copy;
}

function asContainer(value: unknown, segment: string): Container {
  if (Array.isArray(value) || isPlainObject(value)) return value;
  throw new PatchError(`cannot step into a ${value === null ? "null" : typeof value} at "${segment}"`);
}

function arrayIndex(segment: string, length: number, allowEnd: boolean): number {
  if (allowEnd && segment === "-") return length;
  if (!/^(0|[1-9][0-9]*)$/.test(segment)) throw new PatchError(`"${segment}" is not an array index`);
  const index = Number(segment);
  if (index > length || (!allowEnd && index === length))
    throw new PatchError(`index ${index} is out of bounds`);
  return index;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b as object, k) && deepEqual((a as never)[k], (b as never)[k]));
}

/** The value at a JSON pointer, or undefined when the path does not exist. */
export function readPointer(document: unknown, pointer: string): unknown {
  try {
    return getAt(document, parsePointer(pointer));
  } catch (error) {
    if (error instanceof PatchError) return undefined;
    throw error;
  }
}

/** The patch that turns `before` into `after`, descending into objects; arrays are replaced whole. */
export function diff(before: unknown, after: unknown, at: string[] = []): Patch {
  if (before === after) return [];
  if (!isPlainObject(before) || !isPlainObject(after)) {
    return deepEqual(before, after) ? [] : [{ op: "replace", path: toPointer(at), value: after }];
  }
  const ops: Patch = [];
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) ops.push({ op: "remove", path: toPointer([...at, key]) });
  }
  for (const [key, value] of Object.entries(after)) {
    if (!Object.hasOwn(before, key)) ops.push({ op: "add", path: toPointer([...at, key]), value });
    else ops.push(...diff(before[key], value, [...at, key]));
  }
  return ops;
}
