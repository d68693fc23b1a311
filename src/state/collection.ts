import { BTree } from "./btree.js";
import { indexKeys, looselyEqual, probeKeys } from "./loose.js";
import { valueAtPath } from "./path.js";

/** Below this size a scan is as cheap as an index, and an index is not worth its memory. */
const INDEX_FROM_SIZE = 64;
/** Separates the value part of an index key from the entity key (never inside a loose key). */
const SEPARATOR = "\u0000";

/**
 * One collection of the state (a top-level object: entities by key) as a sorted map with
 * copy-on-write clones: a change copies the few tree nodes on its path and shares the rest
 * with the version it came from, so a write costs the same at 10 and at 100,000 entities.
 *
 * Two derived structures are built on first use and carried forward through changes, so
 * later versions never rebuild them: equality indexes per field (for `where` filters and
 * lookups) and the highest numbered key per prefix (for minting ids).
 */
export class Collection {
  private json?: Record<string, unknown>;

  private constructor(
    private readonly tree: BTree<string, unknown>,
    /** field path → index keyed by `indexKeys(value) + SEPARATOR + entity key` */
    private readonly indexes: Map<string, BTree<string, true>>,
    /** key prefix → highest number after it (absent: not computed yet) */
    private readonly counters: Map<string, number>,
  ) {}

  /** Takes ownership of `object`'s values: the caller must not change them afterwards. */
  static from(object: Record<string, unknown>): Collection {
    const keys = Object.keys(object).sort();
    const tree = new BTree<string, unknown>();
    for (const key of keys) tree.set(key, object[key]);
    return new Collection(tree, new Map(), new Map());
  }

  get size(): number {
    return this.tree.size;
  }

  get(key: string): unknown {
    return this.tree.get(key);
  }

  has(key: string): boolean {
    return this.tree.has(key);
  }

  /** Entries in key order, from `fromKey` on; stop iterating to stop the walk. */
  entries(fromKey?: string): IterableIterator<[string, unknown]> {
    return this.tree.entries(fromKey);
  }

  keys(): IterableIterator<string> {
    return this.tree.keys();
  }

  /** This collection with `key` set to `value`. */
  with(key: string, value: unknown): Collection {
    const previous = this.tree.get(key);
    const existed = this.tree.has(key);
    const tree = this.tree.clone();
    tree.set(key, value);
    return new Collection(
      tree,
      this.moveIndexes(key, existed ? [previous] : [], [value]),
      this.moveCounters(key, "added"),
    );
  }

  /** This collection without `key`. */
  without(key: string): Collection {
    if (!this.tree.has(key)) return this;
    const previous = this.tree.get(key);
    const tree = this.tree.clone();
    tree.delete(key);
    return new Collection(tree, this.moveIndexes(key, [previous], []), this.moveCounters(key, "removed"));
  }

  /**
   * Entries whose value at `field` loosely equals one of `wanted`, in key order, produced
   * lazily: a caller that stops after ten reads ten. Uses (and builds once) an index when
   * the collection is large enough for it to pay.
   */
  *matching(field: string, wanted: readonly unknown[]): IterableIterator<[string, unknown]> {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a scan and the index find the same entities; the size only picks the cheaper
    if (this.tree.size < INDEX_FROM_SIZE) {
      for (const entry of this.tree.entries()) {
        const actual = valueAtPath(entry[1], field);
        if (wanted.some((w) => looselyEqual(actual, w))) yield entry;
      }
      return;
    }
    const index = this.index(field);
    // one cursor per probe, each already in key order; merged, so the result is in key order too
    const cursors = [...new Set(wanted.flatMap(probeKeys))].map((probe) =>
      keysUnder(index, probe + SEPARATOR),
    );
    const heads = cursors.map((cursor) => cursor.next());
    let last: string | undefined;
    for (;;) {
      let smallest = -1;
      for (let c = 0; c < heads.length; c++) {
        const head = heads[c];
        if (!head || head.done) continue;
        const best = heads[smallest];
        if (smallest < 0 || (best && !best.done && head.value < best.value)) smallest = c;
      }
      const chosen = heads[smallest];
      if (smallest < 0 || !chosen || chosen.done) return;
      const key = chosen.value;
      heads[smallest] = (cursors[smallest] as Generator<string, void>).next();
      if (key === last) continue;
      last = key;
      yield [key, this.tree.get(key)];
    }
  }

  /** The highest number that follows `prefix` in a key ("ORD-0042" → 42 for "ORD-"), 0 when none. */
  highestNumbered(prefix: string): number {
    const known = this.counters.get(prefix);
    if (known !== undefined) return known;
    let highest = 0;
    for (const key of this.tree.keys(prefix)) {
      if (!key.startsWith(prefix)) break;
      const number = numberAfter(key, prefix);
      if (number !== undefined && number > highest) highest = number;
    }
    this.counters.set(prefix, highest);
    return highest;
  }

  /** The collection as a plain object (computed once; the caller must not change it). */
  toJSON(): Record<string, unknown> {
    if (this.json) return this.json;
    const json: Record<string, unknown> = {};
    for (const [key, value] of this.tree.entries()) json[key] = value;
    this.json = json;
    return json;
  }

  private index(field: string): BTree<string, true> {
    const existing = this.indexes.get(field);
    if (existing) return existing;
    const index = new BTree<string, true>();
    for (const [key, value] of this.tree.entries()) {
      for (const composite of indexEntries(value, field, key)) index.set(composite, true);
    }
    this.indexes.set(field, index);
    return index;
  }

  private moveIndexes(
    key: string,
    removed: readonly unknown[],
    added: readonly unknown[],
  ): Map<string, BTree<string, true>> {
    const next = new Map<string, BTree<string, true>>();
    for (const [field, index] of this.indexes) {
      const copy = index.clone();
      for (const value of removed)
        for (const composite of indexEntries(value, field, key)) copy.delete(composite);
      for (const value of added)
        for (const composite of indexEntries(value, field, key)) copy.set(composite, true);
      next.set(field, copy);
    }
    return next;
  }

  private moveCounters(key: string, change: "added" | "removed"): Map<string, number> {
    const next = new Map<string, number>();
    for (const [prefix, highest] of this.counters) {
      const number = key.startsWith(prefix) ? numberAfter(key, prefix) : undefined;
      if (number === undefined) next.set(prefix, highest);
      else if (change === "added") next.set(prefix, Math.max(highest, number));
      else if (number < highest) next.set(prefix, highest);
      // removing the highest: recounted on next use
    }
    return next;
  }
}

/** The entity keys filed under one index prefix, in key order. */
function* keysUnder(index: BTree<string, true>, prefix: string): Generator<string, void> {
  for (const composite of index.keys(prefix)) {
    if (!composite.startsWith(prefix)) return;
    yield composite.slice(prefix.length);
  }
}

function indexEntries(entity: unknown, field: string, key: string): string[] {
  return indexKeys(valueAtPath(entity, field)).map((value) => value + SEPARATOR + key);
}

function numberAfter(key: string, prefix: string): number | undefined {
  const rest = key.slice(prefix.length);
  return /^[0-9]+$/.test(rest) ? Number(rest) : undefined;
}
