import {
  deepEqual,
  isPlainObject,
  type Patch,
  type PatchOperation,
  pointerSegments,
  removeValueAt,
  setValueAt,
  valueAt,
} from "../patch/index.js";
import { Collection } from "./collection.js";

/** A session's state as plain JSON: collections of entities keyed by id, plus `runtime`. */
export type StateDocument = Record<string, unknown>;

export type StateResult = { ok: true; state: State } | { ok: false; error: string; index: number };

type Step = { ok: true; state: State } | { ok: false; error: string };
type Read = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * A session's state as a persistent structure. Each top-level object is a `Collection`
 * (a copy-on-write sorted map); other top-level values stay plain JSON. A change makes a
 * new State that shares everything it did not touch with the old one, so versions held
 * in memory cost only their differences and a write costs the same however large the
 * collection. JSON Patch (RFC 6902) is the one way to change it, with exactly the
 * semantics of `applyPatch` on the plain document.
 */
export class State {
  private json?: StateDocument;

  private constructor(private readonly top: ReadonlyMap<string, unknown>) {}

  static readonly empty = new State(new Map());

  /** Builds a state from a plain document and takes ownership of it: the caller must not change it afterwards. */
  static fromDocument(document: StateDocument): State {
    const top = new Map<string, unknown>();
    for (const key of Object.keys(document).sort()) top.set(key, wrap(document[key]));
    return new State(top);
  }

  /** Top-level keys, sorted. */
  keys(): string[] {
    return [...this.top.keys()];
  }

  has(name: string): boolean {
    return this.top.has(name);
  }

  /** A top-level object as a collection; undefined when absent or not an object. */
  collection(name: string): Collection | undefined {
    const value = this.top.get(name);
    return value instanceof Collection ? value : undefined;
  }

  /** One entity of a collection. */
  entity(collection: string, key: string): unknown {
    return this.collection(collection)?.get(key);
  }

  /** The state's `runtime` object (the simulated clock and context), empty when there is none. */
  get runtime(): Record<string, unknown> {
    return this.collection("runtime")?.toJSON() ?? {};
  }

  /** The value at a path of segments (as parsed from a JSON pointer); undefined when absent. */
  get(segments: readonly string[]): unknown {
    const read = this.read(segments);
    return read.ok ? read.value : undefined;
  }

  /** Applies a JSON Patch; on failure nothing is applied and the error names the operation. */
  apply(patch: readonly PatchOperation[]): StateResult {
    let state: State = this;
    for (let index = 0; index < patch.length; index++) {
      const operation = patch[index] as PatchOperation;
      const stepped = state.step(operation);
      if (!stepped.ok) {
        return {
          ok: false,
          error: `operation ${index} (${operation.op} ${operation.path}): ${stepped.error}`,
          index,
        };
      }
      state = stepped.state;
    }
    return { ok: true, state };
  }

  /** The whole state as a plain document (computed once per state; the caller must not change it). */
  toJSON(): StateDocument {
    if (this.json) return this.json;
    const json: StateDocument = {};
    for (const [key, value] of this.top) json[key] = value instanceof Collection ? value.toJSON() : value;
    this.json = json;
    return json;
  }

  private step(operation: PatchOperation): Step {
    const path = pointerSegments(operation.path);
    if (!path.ok) return path;
    switch (operation.op) {
      case "add":
      case "replace":
        return this.setAt(path.segments, operation.value, operation.op);
      case "remove":
        return this.removeAt(path.segments);
      case "test": {
        const read = this.read(path.segments);
        if (!read.ok) return read;
        return deepEqual(read.value, operation.value) ? { ok: true, state: this } : fail("test failed");
      }
      case "copy":
      case "move": {
        const from = pointerSegments(operation.from);
        if (!from.ok) return from;
        const read = this.read(from.segments);
        if (!read.ok) return read;
        if (operation.op === "copy") return this.setAt(path.segments, structuredClone(read.value), "add");
        const removed = this.removeAt(from.segments);
        return removed.ok ? removed.state.setAt(path.segments, read.value, "add") : removed;
      }
      default:
        return fail(`unknown op ${JSON.stringify((operation as { op: unknown }).op)}`);
    }
  }

  private read(segments: readonly string[]): Read {
    const [name, key, ...rest] = segments;
    if (name === undefined) return { ok: true, value: this.toJSON() };
    if (!this.top.has(name)) return fail(`path does not exist at "${name}"`);
    const value = this.top.get(name);
    if (!(value instanceof Collection)) return valueAt(value, segments.slice(1));
    if (key === undefined) return { ok: true, value: value.toJSON() };
    if (!value.has(key)) return fail(`path does not exist at "${key}"`);
    return valueAt(value.get(key), rest);
  }

  private setAt(segments: readonly string[], value: unknown, mode: "add" | "replace"): Step {
    const [name, key, ...rest] = segments;
    if (name === undefined) {
      return isPlainObject(value)
        ? { ok: true, state: State.fromDocument(value) }
        : fail("the state must stay a JSON object");
    }
    const current = this.top.get(name);
    if (key === undefined) {
      if (mode === "replace" && !this.top.has(name)) return fail(`cannot replace missing "${name}"`);
      return { ok: true, state: this.withTop(name, wrap(value)) };
    }
    if (!this.top.has(name)) return fail(`path does not exist at "${name}"`);
    if (!(current instanceof Collection))
      return this.changePlain(name, setValueAt(current, segments.slice(1), value, mode));
    if (rest.length === 0) {
      if (mode === "replace" && !current.has(key)) return fail(`cannot replace missing "${key}"`);
      return { ok: true, state: this.withTop(name, current.with(key, value)) };
    }
    if (!current.has(key)) return fail(`path does not exist at "${key}"`);
    const changed = setValueAt(current.get(key), rest, value, mode);
    return changed.ok ? { ok: true, state: this.withTop(name, current.with(key, changed.value)) } : changed;
  }

  private removeAt(segments: readonly string[]): Step {
    const [name, key, ...rest] = segments;
    if (name === undefined) return fail("cannot remove the whole document");
    if (!this.top.has(name)) return fail(`path does not exist at "${name}"`);
    const current = this.top.get(name);
    if (key === undefined) {
      const top = new Map(this.top);
      top.delete(name);
      return { ok: true, state: new State(top) };
    }
    if (!(current instanceof Collection))
      return this.changePlain(name, removeValueAt(current, segments.slice(1)));
    if (!current.has(key)) return fail(`path does not exist at "${key}"`);
    if (rest.length === 0) return { ok: true, state: this.withTop(name, current.without(key)) };
    const changed = removeValueAt(current.get(key), rest);
    return changed.ok ? { ok: true, state: this.withTop(name, current.with(key, changed.value)) } : changed;
  }

  private changePlain(name: string, changed: Read): Step {
    return changed.ok ? { ok: true, state: this.withTop(name, changed.value) } : changed;
  }

  private withTop(name: string, value: unknown): State {
    const top = new Map(this.top);
    top.set(name, value);
    if (this.top.has(name)) return new State(top);
    return new State(new Map([...top].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  }
}

function wrap(value: unknown): unknown {
  return isPlainObject(value) ? Collection.from(value) : value;
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

export type { Patch };
