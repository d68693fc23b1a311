import type { JsonSchema } from "../catalog/index.js";
import { canonicalJson, isPlainObject, type Patch, toPointer } from "../patch/index.js";
import type { State } from "../state/index.js";
import { isUnder, itemKey, listIdentifiers, scalarIdentifiers } from "./identifiers.js";

/**
 * The session as an overlay on the real world. Everything toolsim knows about an upstream
 * lives in the session state under `upstream:NAME`, as collections of records keyed by
 * identifier: `{"upstream:fs": {"paths": {"/srv/a.txt": {"content": "…", "_toolsim": {…}}}}}`.
 * A record's `_toolsim` says whether it came from a real read or a simulated write, and
 * marks deletions and moves. See docs/hybrid.md for the rules and their limits.
 */

export const META_KEY = "_toolsim";
/** Real answers bigger than this (JSON characters) are not copied into the state. */
export const MAX_RECORDED_CHARS = 32_000;

export interface OverlayMeta {
  origin: "real" | "simulated";
  /** The upstream tool (its own name) that produced the record. */
  tool: string;
  deleted?: boolean;
  movedTo?: string;
  /**
   * A file whose text, or a folder whose entries, are those of this real path (moved or
   * copied from there, or written over nothing the session knows the text of).
   */
  aliasOf?: string;
  /** A simulated change whose resulting content toolsim could not work out. */
  opaque?: boolean;
  /** A path's kind: a file or a folder of the session's file system view. */
  type?: "file" | "folder";
  /** When the change was simulated (the wall clock: the real things around it carry real times). */
  at?: string;
  /** Made by the session (not a change of a real thing): it comes after the real ones, in `order`. */
  created?: boolean;
  order?: number;
}

export type OverlayRecord = Record<string, unknown>;
export type Overlay = Record<string, Record<string, OverlayRecord>>;

export interface Touch {
  collection: string;
  key: string;
  record: OverlayRecord;
  meta: OverlayMeta;
}

export interface RecordPut {
  collection: string;
  key: string;
  /** Undefined: the record is dropped (nothing the session did there matters any more). */
  record: OverlayRecord | undefined;
}

export function namespaceKey(upstream: string): string {
  return `upstream:${upstream}`;
}

export function overlayOf(state: State, upstream: string): Overlay {
  const namespace = state.collection(namespaceKey(upstream))?.toJSON();
  if (!isPlainObject(namespace)) return {};
  const overlay: Overlay = {};
  for (const [collection, records] of Object.entries(namespace))
    if (isPlainObject(records)) overlay[collection] = records as Record<string, OverlayRecord>;
  return overlay;
}

export function metaOf(record: OverlayRecord): OverlayMeta | undefined {
  const meta = record[META_KEY];
  return isPlainObject(meta) && (meta.origin === "real" || meta.origin === "simulated")
    ? (meta as unknown as OverlayMeta)
    : undefined;
}

/** A record's fields without toolsim's bookkeeping. */
export function dataOf(record: OverlayRecord): Record<string, unknown> {
  const { [META_KEY]: _meta, ...data } = record;
  return data;
}

export function simulatedTouches(overlay: Overlay): Touch[] {
  const touches: Touch[] = [];
  for (const [collection, records] of Object.entries(overlay)) {
    for (const [key, record] of Object.entries(records)) {
      const meta = metaOf(record);
      if (meta?.origin === "simulated") touches.push({ collection, key, record, meta });
    }
  }
  return touches;
}

/** The simulated record for a key, in whichever collection; deletions and moves first, then data. */
export function simulatedAt(overlay: Overlay, key: string): Touch | undefined {
  const touches = simulatedTouches(overlay).filter((t) => t.key === key);
  return (
    touches.find((t) => t.meta.deleted || t.meta.aliasOf) ??
    touches.find((t) => Object.keys(dataOf(t.record)).length > 0) ??
    touches[0]
  );
}

// ── reads ────────────────────────────────────────────────────────────────────

export type OverlayAnswer =
  | { kind: "record"; result: Record<string, unknown>; touch: Touch }
  | { kind: "missing"; message: string; touch: Touch }
  | { kind: "alias"; args: Record<string, unknown>; touch: Touch }
  | { kind: "simulate"; touch: Touch };

/**
 * How a read that concerns something the session changed is answered: from the record
 * (when it holds every field the tool's output needs), as "not found" after a simulated
 * delete or move, from the real source of a simulated move, or else by the simulator.
 * Undefined when no identifying argument touches a simulated record.
 */
export function answerFromOverlay(
  tool: { original: string; outputSchema?: JsonSchema },
  args: Record<string, unknown>,
  overlay: Overlay,
): OverlayAnswer | undefined {
  for (const identifier of scalarIdentifiers(args)) {
    const touch = simulatedAt(overlay, identifier.key);
    if (!touch) continue;
    if (touch.meta.deleted) {
      const message = touch.meta.movedTo
        ? `${identifier.key} no longer exists: this session moved it to ${touch.meta.movedTo} (simulated ${touch.meta.tool}).`
        : `${identifier.key} does not exist: this session deleted it (simulated ${touch.meta.tool}).`;
      return { kind: "missing", message, touch };
    }
    if (touch.meta.aliasOf) {
      return { kind: "alias", args: { ...args, [identifier.argument]: touch.meta.aliasOf }, touch };
    }
    const result = resultFromRecord(tool.outputSchema, dataOf(touch.record), args);
    return result ? { kind: "record", result, touch } : { kind: "simulate", touch };
  }
  const listed = listIdentifiers(args)
    .map((identifier) => simulatedAt(overlay, identifier.key))
    .find((t) => t !== undefined);
  if (listed && !hasObjectLists(tool.outputSchema)) return { kind: "simulate", touch: listed };
  return undefined;
}

/** The record as the tool's result, when it holds every required output field (head/tail applied). */
function resultFromRecord(
  output: JsonSchema | undefined,
  data: Record<string, unknown>,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const properties = isPlainObject(output?.properties) ? output.properties : undefined;
  let result: Record<string, unknown>;
  if (properties) {
    const required = Array.isArray(output?.required) ? output.required.map(String) : [];
    if (required.some((field) => !(field in data))) return undefined;
    result = Object.fromEntries(Object.entries(data).filter(([field]) => field in properties));
  } else {
    result = data;
  }
  if (Object.keys(result).length === 0) return undefined;
  return lineWindows(result, args);
}

/** The `head`/`tail` arguments of file readers: the first or last N lines of every text field. */
function lineWindows(
  result: Record<string, unknown>,
  args: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(result).map(([field, value]) => [
      field,
      typeof value === "string" ? lineWindow(value, args) : value,
    ]),
  );
}

/** The first `head` or last `tail` lines of a text, when the read asks for them. */
export function lineWindow(text: string, args: Record<string, unknown>): string {
  const head = typeof args.head === "number" ? args.head : undefined;
  const tail = typeof args.tail === "number" ? args.tail : undefined;
  if (head === undefined && tail === undefined) return text;
  const lines = text.split("\n");
  return (head !== undefined ? lines.slice(0, head) : lines.slice(-(tail ?? 0))).join("\n");
}

function hasObjectLists(output: JsonSchema | undefined): boolean {
  const properties = isPlainObject(output?.properties) ? output.properties : {};
  return Object.values(properties).some(
    (p) => isPlainObject(p) && p.type === "array" && isPlainObject(p.items) && p.items.type === "object",
  );
}

/**
 * Lays the session's changes over a real answer: in every list of objects, items the
 * session deleted go, items it changed are replaced, and items it created are added when
 * the read asked for everything (no arguments) or named them.
 */
export function mergeIntoResult(
  structured: Record<string, unknown>,
  overlay: Overlay,
  args: Record<string, unknown>,
): { result: Record<string, unknown>; applied: Set<string> } {
  const readsAll = Object.keys(args).length === 0;
  const named = new Set(listIdentifiers(args).map((i) => i.key));
  const deleted = new Set(
    simulatedTouches(overlay)
      .filter((t) => t.meta.deleted)
      .map((t) => t.key),
  );
  const applied = new Set<string>();
  const result = { ...structured };
  for (const [property, value] of Object.entries(structured)) {
    if (!Array.isArray(value) || !value.every(isPlainObject)) continue;
    const records = overlay[property] ?? {};
    const seen = new Set<string>();
    const items: Record<string, unknown>[] = [];
    for (const item of value) {
      const { key } = itemKey(item);
      seen.add(key);
      const record = records[key];
      const meta = record ? metaOf(record) : undefined;
      if (deleted.has(key)) {
        applied.add(key);
        continue;
      }
      if (record && meta?.origin === "simulated" && !meta.opaque) {
        items.push(dataOf(record));
        applied.add(key);
      } else items.push(item);
    }
    for (const [key, record] of Object.entries(records)) {
      const meta = metaOf(record);
      if (seen.has(key) || meta?.origin !== "simulated" || meta.opaque) continue;
      if (meta.deleted) {
        applied.add(key);
        continue;
      }
      if (!readsAll && !named.has(key)) continue;
      items.push(dataOf(record));
      applied.add(key);
    }
    result[property] = items;
  }
  return { result, applied };
}

/**
 * The session's changes a real answer may not show: records below a folder the read names,
 * or (for reads that search rather than name) every change not laid over the answer.
 */
export function unreflectedChanges(
  overlay: Overlay,
  args: Record<string, unknown>,
  applied: ReadonlySet<string>,
): Touch[] {
  const scalars = scalarIdentifiers(args);
  const touches = simulatedTouches(overlay).filter((t) => !applied.has(t.key));
  if (scalars.length > 0) {
    return touches.filter((t) => scalars.some((s) => isUnder(t.key, s.key)));
  }
  if (listIdentifiers(args).length > 0) return [];
  return touches;
}

export function describeTouch(touch: Touch): string {
  const what = touch.meta.movedTo
    ? `moved to ${touch.meta.movedTo}`
    : touch.meta.deleted
      ? "deleted"
      : touch.meta.aliasOf
        ? `moved here from ${touch.meta.aliasOf}`
        : "changed";
  return `${touch.key} (${what} by ${touch.meta.tool})`;
}

/**
 * Records of what a real read returned: a read that only names its target is kept under
 * the tool's name and the target; objects with an identifier in its lists are kept under
 * the list's name. Never over a simulated record, never when the answer is large.
 */
export function realReadRecords(
  tool: string,
  args: Record<string, unknown>,
  structured: Record<string, unknown>,
  overlay: Overlay,
): RecordPut[] {
  if (JSON.stringify(structured).length > MAX_RECORDED_CHARS) return [];
  const puts: RecordPut[] = [];
  const meta: OverlayMeta = { origin: "real", tool };
  // never over a simulated record, and not again when the state already holds this answer
  const free = (collection: string, key: string, record: OverlayRecord) => {
    const existing = overlay[collection]?.[key];
    return (
      !existing ||
      (metaOf(existing)?.origin !== "simulated" && canonicalJson(existing) !== canonicalJson(record))
    );
  };
  const scalars = scalarIdentifiers(args);
  const target = scalars[0];
  const whole = { ...structured, [META_KEY]: meta };
  if (target && scalars.length === Object.keys(args).length && free(tool, target.key, whole)) {
    puts.push({ collection: tool, key: target.key, record: whole });
  }
  for (const [property, value] of Object.entries(structured)) {
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (!isPlainObject(item)) continue;
      const { key, identified } = itemKey(item);
      const record = { ...item, [META_KEY]: meta };
      if (identified && free(property, key, record)) puts.push({ collection: property, key, record });
    }
  }
  return puts;
}

/** JSON Patch operations that put records into an upstream's namespace (or drop them), creating what is missing. */
export function overlayPatch(state: State, upstream: string, puts: readonly RecordPut[]): Patch {
  if (puts.length === 0) return [];
  const namespace = namespaceKey(upstream);
  const existing = overlayOf(state, upstream);
  const patch: Patch = [];
  if (!state.collection(namespace)) patch.push({ op: "add", path: toPointer([namespace]), value: {} });
  const created = new Set<string>();
  // whether each record is there, as the operations so far leave it
  const there = new Map<string, boolean>();
  const has = (collection: string, key: string) =>
    there.get(JSON.stringify([collection, key])) ?? Object.hasOwn(existing[collection] ?? {}, key);
  for (const put of puts) {
    const id = JSON.stringify([put.collection, put.key]);
    if (put.record === undefined) {
      if (!has(put.collection, put.key)) continue;
      patch.push({ op: "remove", path: toPointer([namespace, put.collection, put.key]) });
      there.set(id, false);
      continue;
    }
    if (!existing[put.collection] && !created.has(put.collection)) {
      patch.push({ op: "add", path: toPointer([namespace, put.collection]), value: {} });
      created.add(put.collection);
    }
    patch.push({ op: "add", path: toPointer([namespace, put.collection, put.key]), value: put.record });
    there.set(id, true);
  }
  return patch;
}
