import type { JsonSchema } from "../catalog/index.js";
import { plural, REMOVE_VERBS, singular, wordsOf } from "../infer/index.js";
import { isPlainObject } from "../patch/index.js";
import type { ToolFailure } from "../simulate/index.js";
import { isIdentifierArgument, itemKey, listIdentifiers } from "./identifiers.js";
import {
  dataOf,
  META_KEY,
  metaOf,
  type Overlay,
  type OverlayMeta,
  type OverlayRecord,
  type RecordPut,
} from "./overlay.js";
import { objectLists, type Reality } from "./reality.js";

/**
 * The session's records in a store of records (a knowledge graph, a tracker, a directory):
 * lists of objects kept by an identifier field, or, for objects without one (relations,
 * edges), by their whole value. Simulated writes change them with the rules such stores
 * follow, reading the real records they need first (from the read that answers everything
 * the store holds): a create makes what is not there yet and answers what it made; items
 * that name another record (`{entityName, contents}`) add to or remove from a list field of
 * that record; a deletion takes with it the edges that name what it deleted. Reads are the
 * real store with the session's changes laid over it, in the real store's order, filtered
 * the way the real read filters, once toolsim has checked on the real answer that it
 * filters that way.
 */

const CREATE_VERBS = new Set([
  "create",
  "add",
  "insert",
  "new",
  "register",
  "make",
  "append",
  "attach",
  "put",
  "push",
  "record",
  "log",
]);
const REMOVE = new Set([...REMOVE_VERBS, "detach", "clear", "unset"]);

export interface RecordChange {
  puts: RecordPut[];
  /** The answer in the tool's output shape, when the output says what it should hold. */
  result?: Record<string, unknown>;
  failure?: ToolFailure;
}

/** What a record-store write does, or undefined when its arguments hold no records (then generic rules apply). */
export async function planRecordChange(
  tool: { original: string; outputSchema?: JsonSchema },
  kind: "write" | "delete",
  args: Record<string, unknown>,
  overlay: Overlay,
  reality: Reality,
): Promise<RecordChange | undefined> {
  const objectArguments = Object.entries(args).filter(
    ([, value]) => Array.isArray(value) && value.length > 0 && value.every(isPlainObject),
  ) as Array<[string, Record<string, unknown>[]]>;
  const named = listIdentifiers(args);
  if (objectArguments.length === 0 && (kind !== "delete" || named.length === 0)) return undefined;
  const whole = await reality.whole();
  const store = new Store(overlay, whole, tool.original);
  const words = wordsOf(tool.original);
  const verb = words[0] ?? "";
  const removes = kind === "delete" || REMOVE.has(verb);
  const creates = CREATE_VERBS.has(verb);
  const noun = words.at(-1) ?? "";
  const answers: Record<string, unknown[]> = {};
  const answer = (argument: string, item: Record<string, unknown>) => {
    answers[argument] = [...(answers[argument] ?? []), item];
  };
  const results: ListChange[] = [];
  for (const [argument, items] of objectArguments) {
    for (const item of items) {
      const reference = referenceOf(item, argument);
      if (reference) {
        const changed = store.changeList(reference, item, noun, removes);
        if (changed && "failure" in changed) return { puts: [], failure: changed.failure };
        if (changed) results.push(changed.result);
        continue;
      }
      if (removes) store.remove(argument, item);
      else if (creates) {
        if (store.create(argument, item)) answer(argument, item);
      } else {
        store.upsert(argument, item);
        answer(argument, item);
      }
    }
  }
  if (removes) for (const identifier of named) store.removeKey(identifier.argument, identifier.key);
  return {
    puts: store.puts(),
    ...answerOf(
      tool.outputSchema,
      answers,
      results,
      removes ? `${tool.original} simulated; the real store is unchanged.` : undefined,
    ),
  };
}

/** What one item did to a record's list field: the record it names, and the values added or removed. */
interface ListChange {
  field: string;
  key: string;
  values: unknown[];
}

/** The output a record write answers, from what it made or changed; nothing when it cannot fill every field. */
function answerOf(
  output: JsonSchema | undefined,
  answers: Record<string, unknown[]>,
  results: ListChange[],
  message: string | undefined,
): { result?: Record<string, unknown> } {
  const properties = isPlainObject(output?.properties) ? output.properties : {};
  const lists = objectLists(output);
  const result: Record<string, unknown> = {};
  for (const list of lists) {
    if (answers[list]) result[list] = answers[list];
    else if (results.length > 0) {
      const items = properties[list] as { items?: { properties?: Record<string, unknown> } };
      const fields = Object.entries(items.items?.properties ?? {});
      result[list] = results.map((change) =>
        Object.fromEntries(
          fields.map(([field, schema]) => [
            field,
            field === change.field
              ? change.key
              : isPlainObject(schema) && schema.type === "array"
                ? change.values
                : undefined,
          ]),
        ),
      );
    } else result[list] = [];
  }
  for (const [field, schema] of Object.entries(properties)) {
    if (field in result || !isPlainObject(schema)) continue;
    if (schema.type === "boolean" && /success|ok|done/i.test(field)) result[field] = true;
    else if (schema.type === "string" && message && /message|status|result/i.test(field))
      result[field] = message;
  }
  return Object.keys(result).length === Object.keys(properties).length && Object.keys(result).length > 0
    ? { result }
    : {};
}

/**
 * A field that names another record (`entityName` names an entity), unless it names the
 * item itself (`name`, or `relationName` in `relations`).
 */
function referenceOf(
  item: Record<string, unknown>,
  argument: string,
): { field: string; collection: string; key: string } | undefined {
  for (const [field, value] of Object.entries(item)) {
    if (!isIdentifierArgument(field) || (typeof value !== "string" && typeof value !== "number")) continue;
    const prefix = wordsOf(field).slice(0, -1);
    if (prefix.length === 0) return undefined;
    const noun = prefix.join("_");
    if (singular(noun) === singular(wordsOf(argument).join("_"))) return undefined;
    return { field, collection: plural(noun), key: String(value) };
  }
  return undefined;
}

/** The store as the session sees it: real records (read once), with the session's records over them. */
class Store {
  private readonly overlay: Overlay;
  private readonly whole: Record<string, unknown> | undefined;
  private readonly tool: string;
  private readonly changed = new Map<string, RecordPut>();
  private order: number;

  constructor(overlay: Overlay, whole: Record<string, unknown> | undefined, tool: string) {
    this.overlay = overlay;
    this.whole = whole;
    this.tool = tool;
    this.order = Math.max(
      0,
      ...Object.values(overlay).flatMap((records) =>
        Object.values(records).map((r) => metaOf(r)?.order ?? 0),
      ),
    );
  }

  puts(): RecordPut[] {
    return [...this.changed.values()];
  }

  /** The record as it is now (the session's, or the real one), or undefined when it is not there. */
  current(
    collection: string,
    key: string,
  ): { data: Record<string, unknown>; meta?: OverlayMeta } | undefined {
    const put = this.changed.get(JSON.stringify([collection, key]));
    const record = put ? put.record : this.overlay[collection]?.[key];
    const meta = record ? metaOf(record) : undefined;
    if (record && meta?.origin === "simulated") {
      if (meta.deleted || meta.opaque) return meta.deleted ? undefined : { data: dataOf(record), meta };
      return { data: dataOf(record), meta };
    }
    const real = this.realItems(collection).find((item) => itemKey(item).key === key);
    return real ? { data: real } : undefined;
  }

  create(collection: string, item: Record<string, unknown>): boolean {
    const { key } = itemKey(item);
    if (this.current(collection, key)) return false;
    this.put(collection, key, item, { created: true, order: ++this.order });
    return true;
  }

  upsert(collection: string, item: Record<string, unknown>): void {
    const { key } = itemKey(item);
    const now = this.current(collection, key);
    const created = now ? now.meta?.created === true : true;
    this.put(
      collection,
      key,
      { ...(now?.data ?? {}), ...item },
      created ? { created, order: now?.meta?.order ?? ++this.order } : {},
    );
  }

  remove(collection: string, item: Record<string, unknown>): void {
    this.removeKey(collection, itemKey(item).key);
  }

  /** A tombstone, and tombstones for the edges that name the removed record. */
  removeKey(argument: string, key: string): void {
    const collection =
      this.collectionHolding(key) ?? plural(wordsOf(argument).slice(0, -1).join("_") || argument);
    this.changed.set(JSON.stringify([collection, key]), {
      collection,
      key,
      record: { [META_KEY]: { origin: "simulated", tool: this.tool, deleted: true } },
    });
    for (const [other, items] of this.collections()) {
      if (other === collection) continue;
      for (const edge of items) {
        const { key: edgeKey, identified } = itemKey(edge);
        if (identified || !Object.values(edge).some((value) => value === key)) continue;
        this.changed.set(JSON.stringify([other, edgeKey]), {
          collection: other,
          key: edgeKey,
          record: { [META_KEY]: { origin: "simulated", tool: this.tool, deleted: true } },
        });
      }
    }
  }

  /**
   * Adds values to (or removes them from) a list field of the record an item names: the field
   * named by the tool's noun (`add_observations`), or one named like the item's list.
   */
  changeList(
    reference: { field: string; collection: string; key: string },
    item: Record<string, unknown>,
    noun: string,
    removes: boolean,
  ): { result: ListChange } | { failure: ToolFailure } | undefined {
    const lists = Object.entries(item).filter(
      ([field, value]) =>
        field !== reference.field && Array.isArray(value) && value.every((v) => typeof v !== "object"),
    );
    const values = lists.length === 1 ? (lists[0]?.[1] as unknown[]) : undefined;
    if (!values) return undefined;
    const now = this.current(reference.collection, reference.key);
    if (!now) {
      if (removes) return { result: { field: reference.field, key: reference.key, values: [] } };
      const what = singular(reference.collection);
      return {
        failure: {
          code: "NOT_FOUND",
          status: 404,
          message: `There is no ${what} named ${JSON.stringify(reference.key)}: nothing was added. Create the ${what} first.`,
        },
      };
    }
    const field =
      [noun, lists[0]?.[0] as string].find((name) => Array.isArray(now.data[name])) ??
      Object.keys(now.data).find((name) => Array.isArray(now.data[name]) && wordsOf(name).at(-1) === noun);
    if (!field) return undefined;
    const before = now.data[field] as unknown[];
    const added = removes ? [] : values.filter((v, i) => !before.includes(v) && values.indexOf(v) === i);
    const after = removes ? before.filter((v) => !values.includes(v)) : [...before, ...added];
    const meta = now.meta?.created ? { created: true, order: now.meta.order ?? ++this.order } : {};
    this.put(reference.collection, reference.key, { ...now.data, [field]: after }, meta);
    return { result: { field: reference.field, key: reference.key, values: removes ? values : added } };
  }

  private put(
    collection: string,
    key: string,
    data: Record<string, unknown>,
    extra: Partial<OverlayMeta>,
  ): void {
    const record: OverlayRecord = { ...data, [META_KEY]: { origin: "simulated", tool: this.tool, ...extra } };
    this.changed.set(JSON.stringify([collection, key]), { collection, key, record });
  }

  private collectionHolding(key: string): string | undefined {
    for (const [collection, items] of this.collections())
      if (items.some((item) => itemKey(item).identified && itemKey(item).key === key)) return collection;
    for (const [collection, records] of Object.entries(this.overlay)) if (records[key]) return collection;
    return undefined;
  }

  /** Every list of the store as the session sees it now. */
  private collections(): Array<[string, Record<string, unknown>[]]> {
    const names = new Set([...Object.keys(this.whole ?? {}), ...Object.keys(this.overlay)]);
    const out: Array<[string, Record<string, unknown>[]]> = [];
    for (const name of names) {
      const merged = mergedList(this.realItems(name), this.overlayWith(name));
      out.push([name, merged]);
    }
    return out;
  }

  private overlayWith(collection: string): Record<string, OverlayRecord> {
    const records = { ...(this.overlay[collection] ?? {}) };
    for (const put of this.changed.values())
      if (put.collection === collection && put.record) records[put.key] = put.record;
    return records;
  }

  private realItems(collection: string): Record<string, unknown>[] {
    const items = this.whole?.[collection];
    return Array.isArray(items) ? items.filter(isPlainObject) : [];
  }
}

// ── reads ───────────────────────────────────────────────────────────────────

/**
 * One list of the store with the session's changes laid over it: deleted items go, changed
 * ones take their place, and what the session made comes after the real ones, in the order
 * it was made (what it deleted and made again too).
 */
function mergedList(
  real: readonly Record<string, unknown>[],
  records: Record<string, OverlayRecord>,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const item of real) {
    const { key } = itemKey(item);
    seen.add(key);
    const record = records[key];
    const meta = record ? metaOf(record) : undefined;
    if (!record || meta?.origin !== "simulated") {
      out.push(item);
      continue;
    }
    if (meta.deleted || meta.created) continue;
    out.push(meta.opaque ? item : dataOf(record));
  }
  const made = Object.entries(records)
    .filter(([key, record]) => {
      const meta = metaOf(record);
      return (
        meta?.origin === "simulated" && !meta.deleted && !meta.opaque && (meta.created || !seen.has(key))
      );
    })
    .sort(([, a], [, b]) => (metaOf(a)?.order ?? 0) - (metaOf(b)?.order ?? 0));
  for (const [, record] of made) out.push(dataOf(record));
  return out;
}

/** The whole store with the session's changes: every list of objects of the real answer. */
export function mergeWhole(whole: Record<string, unknown>, overlay: Overlay): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(whole)) {
    out[field] =
      Array.isArray(value) && value.every(isPlainObject) ? mergedList(value, overlay[field] ?? {}) : value;
  }
  return out;
}

/** Whether the session changed records of the lists a read answers. */
export function touchesLists(output: JsonSchema | undefined, overlay: Overlay): boolean {
  return objectLists(output).some((list) =>
    Object.values(overlay[list] ?? {}).some((record) => metaOf(record)?.origin === "simulated"),
  );
}

/**
 * A filtered read of the store answered from the whole store with the session's changes, when
 * toolsim's filter gives the real answer from the real whole store: by the names the read
 * gives, or by its text found in any field, with the edges that touch what was selected.
 * Undefined when no filter toolsim knows gives the real answer.
 */
export function filteredRead(
  args: Record<string, unknown>,
  real: Record<string, unknown>,
  whole: Record<string, unknown>,
  merged: Record<string, unknown>,
): Record<string, unknown> | undefined {
  for (const filter of filtersFor(args)) {
    if (JSON.stringify(applyFilter(filter, whole, real)) === JSON.stringify(real))
      return applyFilter(filter, merged, real);
  }
  return undefined;
}

type Filter = { select: (item: Record<string, unknown>, key: string) => boolean; edges: "any" | "all" };

function filtersFor(args: Record<string, unknown>): Filter[] {
  const names = new Set(listIdentifiers(args).map((i) => i.key));
  const texts = Object.entries(args)
    .filter(([name, value]) => typeof value === "string" && !isIdentifierArgument(name))
    .map(([, value]) => (value as string).toLowerCase());
  const selects: Array<Filter["select"]> = [];
  if (names.size > 0) selects.push((_item, key) => names.has(key));
  if (texts.length > 0) selects.push((item) => texts.every((text) => mentions(item, text)));
  if (Object.keys(args).length === 0) selects.push(() => true);
  return selects.flatMap((select) => [
    { select, edges: "any" as const },
    { select, edges: "all" as const },
  ]);
}

function mentions(value: unknown, text: string): boolean {
  if (typeof value === "string") return value.toLowerCase().includes(text);
  if (Array.isArray(value)) return value.some((v) => mentions(v, text));
  if (isPlainObject(value)) return Object.values(value).some((v) => mentions(v, text));
  return false;
}

/** The lists a read answers, from a store: identified items by the filter, edges by what they touch. */
function applyFilter(
  filter: Filter,
  store: Record<string, unknown>,
  shape: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const selected = new Set<string>();
  const lists = Object.keys(shape).filter((field) => Array.isArray(store[field]));
  for (const field of lists) {
    const items = (store[field] as unknown[]).filter(isPlainObject);
    if (!items.some((item) => itemKey(item).identified)) continue;
    out[field] = items.filter((item) => {
      const { key, identified } = itemKey(item);
      const chosen = identified && filter.select(item, key);
      if (chosen) selected.add(key);
      return chosen;
    });
  }
  for (const field of lists) {
    if (field in out) continue;
    const items = (store[field] as unknown[]).filter(isPlainObject);
    out[field] = items.filter((edge) => {
      const ends = Object.values(edge).filter((v): v is string => typeof v === "string" && isKeyOf(store, v));
      if (ends.length === 0) return false;
      return filter.edges === "any"
        ? ends.some((end) => selected.has(end))
        : ends.every((end) => selected.has(end));
    });
  }
  return Object.fromEntries(
    Object.entries(shape).map(([field, value]) => [field, field in out ? out[field] : value]),
  );
}

function isKeyOf(store: Record<string, unknown>, value: string): boolean {
  return Object.values(store).some(
    (items) =>
      Array.isArray(items) &&
      items.some((item) => isPlainObject(item) && itemKey(item).identified && itemKey(item).key === value),
  );
}
