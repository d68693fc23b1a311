import type { StateDocument } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { nameWords, nounKeys, partNoun, singular } from "./words.js";

/**
 * The shape of a world, read from example states at any depth: what each part is, not what
 * domain it comes from. A part is one of
 * - a record: one object with named fields (a device's settings, an account, an API's state);
 * - a collection: records keyed by data (ids, names, symbols) in a map, or kept in an array;
 *   collections may live inside the records of another (a user's payment methods);
 * - a map of values: data keys to plain values (names to ids);
 * - a list: an array of plain values (a playlist, tags);
 * - a tree: folders and files under names, each folder holding children of the same kind.
 * Scalars are fields of records; counters are integer fields whose value tracks the ids of a
 * collection beside them.
 */

export interface KeyFormat {
  /** Characters every key starts with (`#K`, `CUST-`). */
  prefix: string;
  /** Digits after the prefix, when every key is prefix + digits. */
  digits?: number;
  /** Longest key, for keys that are not prefix + digits. */
  length: number;
}

export interface FieldShape {
  path: string;
  /** JSON types seen: string, number, boolean, object, array, null. */
  types: Set<string>;
  /** Distinct string values seen, with counts, up to a bound (for status-like fields). */
  values: Map<string, number>;
  /** More distinct values than the bound: not an enumeration. */
  open: boolean;
  /** The collection whose keys this field's values (or array items) are. */
  refersTo?: string;
  /** Field names of the objects inside an array field. */
  itemFields?: Set<string>;
  /** Sample values of a scalar field (numbers and strings), for counters and defaults. */
  samples: unknown[];
  /** Strings seen inside array values (a user's list of order ids), for references. */
  elements: Set<string>;
}

interface PartBase {
  /** The part's place: segments from the root; "*" stands for the key of an entity of the collection above. */
  path: string[];
  /** Its name: the last named segment (`funds`, `play_list`, `profile_info`). */
  name: string;
}

export interface RecordShape extends PartBase {
  kind: "record";
  fields: Map<string, FieldShape>;
}

export interface CollectionShape extends PartBase {
  kind: "collection";
  /** Records keyed in a map, or kept in an array (and told apart by `keyField`). */
  container: "map" | "array";
  /** Name of the collection whose records hold this one, if nested. */
  parent?: string;
  keys: string[];
  keyFormat?: KeyFormat;
  /** Field of each record that holds its own key (`order_id`; for arrays, the field that tells records apart). */
  keyField?: string;
  /** Whether keys (or the key field) are numbers. */
  numericKeys: boolean;
  fields: Map<string, FieldShape>;
  size: number;
  /** A number beside the collection that mints its ids. */
  counter?: CounterShape;
  /**
   * Records that are each one key and one value, the key data (`[{"USR2": "hello"}, …]`):
   * a list of pairs, kept in order. `keyRefersTo` names the part whose keys or values the
   * pairs' keys are.
   */
  pairs?: { keyRefersTo?: string };
}

export interface CounterShape {
  /** State path of the number. */
  path: string[];
  /** Whether it holds the next id to give or the last one given. */
  holds: "next" | "last";
}

export interface ValuesShape extends PartBase {
  kind: "values";
  keys: string[];
  /** JSON type of the values. */
  valueType: string;
  values: unknown[];
}

export interface ListShape extends PartBase {
  kind: "list";
  itemType: string;
  items: unknown[];
}

export interface TreeShape extends PartBase {
  kind: "tree";
  nodes: { children?: string; kind?: { field: string; folder: string; file: string }; content?: string };
  /** A tree of records (pages, menu entries, categories) rather than of folders and files. */
  records?: RecordTreeShape;
  /** State path of a field beside the tree that keeps the current folder (`cwd`), when the state has one. */
  cwd?: string[];
  /** A tree known only from the tools: writes make the folders above them. */
  foldersUnknown?: boolean;
}

/**
 * Nodes that are records like each other: each keeps its children under one field, by name in
 * a map or in an array told apart by `name`; the tree's root is a node of its own, found at the
 * path "" (or "/").
 */
export interface RecordTreeShape {
  children: string;
  container: "map" | "array";
  /** For children kept in an array: the field naming each among its siblings (`slug`, `name`). */
  name?: string;
  /** The field whose value no two nodes share, by which tools may name a node at any depth (`id`). */
  id?: string;
  /** The nodes' own fields (every one but the children). */
  fields: Map<string, FieldShape>;
}

export type Part = RecordShape | CollectionShape | ValuesShape | ListShape | TreeShape;

export interface StateShape {
  /** Every part, outermost first. */
  parts: Part[];
  /** Collections by name (the first of a name wins), and the ones nested in another's records. */
  collections: Map<string, CollectionShape>;
  nested: Map<string, CollectionShape>;
  /** Every collection by its noun (`delivery_slot`), by the field that holds its keys, and by suffix (of its name, and of the noun of what it keeps). */
  byNoun: Map<string, CollectionShape[]>;
  byKeyField: Map<string, CollectionShape[]>;
  bySuffix: Map<string, CollectionShape[]>;
  /** The part a namespace's state lives in: the root record, or the only record at the top. */
  root: RecordShape;
}

/** How many records of a collection are looked at, and how many distinct values make a field open. */
const SAMPLE = 400;
const ENUM_LIMIT = 24;
/** How deep the walk goes: deeper values are fields of what holds them. */
const MAX_DEPTH = 8;

export function shapeOf(states: readonly StateDocument[]): StateShape {
  const parts: Part[] = [];
  const worlds = states.map((state) => {
    const { runtime: _runtime, ...world } = state;
    return world;
  });
  const root = walkRecord(worlds, [], "", parts, 0);
  linkReferences(parts, worlds);
  attachCounters(parts, worlds);
  return indexed(parts, root);
}

/** A shape of collections known from elsewhere (the schemas of a catalog without a state). */
export function shapeOfCollections(
  collections: readonly CollectionShape[],
  others: readonly Part[] = [],
): StateShape {
  const root: RecordShape = { kind: "record", path: [], name: "", fields: new Map() };
  return indexed([root, ...collections, ...others], root);
}

/** The indexes of a shape, rebuilt after some of its parts were replaced. */
export function reindexed(parts: Part[], root: RecordShape): StateShape {
  return indexed(parts, root);
}

function indexed(parts: Part[], root: RecordShape): StateShape {
  const collections = new Map<string, CollectionShape>();
  const nested = new Map<string, CollectionShape>();
  for (const part of parts) {
    if (part.kind !== "collection") continue;
    const index = part.parent ? nested : collections;
    if (!index.has(part.name)) index.set(part.name, part);
  }
  const byNoun = new Map<string, CollectionShape[]>();
  const byKeyField = new Map<string, CollectionShape[]>();
  const bySuffix = new Map<string, CollectionShape[]>();
  const add = (index: Map<string, CollectionShape[]>, key: string, shape: CollectionShape) =>
    index.set(key, [...(index.get(key) ?? []), shape]);
  for (const shape of [...collections.values(), ...nested.values()]) {
    for (const key of nounKeys(shape.name)) add(byNoun, key, shape);
    if (shape.keyField) add(byKeyField, shape.keyField, shape);
    const words = nameWords(shape.name).map(singular);
    for (let size = 1; size < words.length; size++) add(bySuffix, words.slice(-size).join("_"), shape);
    // and by the head noun of what it keeps, container words aside: `card` for `payment_card_list`
    const kept = nameWords(partNoun(shape.name));
    for (let size = 1; size < kept.length; size++) {
      const suffix = kept.slice(-size).join("_");
      if (!bySuffix.get(suffix)?.includes(shape)) add(bySuffix, suffix, shape);
    }
  }
  return { parts, collections, nested, byNoun, byKeyField, bySuffix, root };
}

// ── the walk ──────────────────────────────────────────────────────────────────

/** Objects seen at one place of the states, read as one record: its fields, and the parts below it. */
function walkRecord(
  samples: ReadonlyArray<Record<string, unknown>>,
  path: string[],
  name: string,
  parts: Part[],
  depth: number,
): RecordShape {
  const record: RecordShape = { kind: "record", path, name, fields: new Map() };
  parts.push(record);
  const names = new Set(samples.flatMap((s) => Object.keys(s)));
  const first = parts.length;
  for (const field of names) {
    const values = samples.map((s) => s[field]).filter((v) => v !== undefined);
    collectField(record.fields, field, values);
    if (depth < MAX_DEPTH) walkValue(values, [...path, field], field, parts, depth + 1);
  }
  const cwd = cwdField(record);
  if (cwd) {
    for (const part of parts.slice(first))
      if (part.kind === "tree" && (part.path.length === path.length + 1 || rootNodeBeside(part, path)))
        part.cwd = [...path, cwd];
  }
  return record;
}

/** Whatever lives at one place: a part of its own (record, collection, values, list, tree), or a scalar. */
function walkValue(
  values: readonly unknown[],
  path: string[],
  name: string,
  parts: Part[],
  depth: number,
): void {
  const objects = values.filter(isPlainObject);
  const arrays = values.filter(Array.isArray);
  if (arrays.length > 0 && arrays.length >= objects.length) {
    const items = arrays.flat();
    const records = items.filter(isPlainObject);
    // an array's records are keyed by the array they come from: outside a collection each
    // array is one example state's, and a task's state often holds the same records as the
    // toolset's, so a key field need only tell apart the records of one state
    const nested = path.includes("*");
    const grouped = arrays.flatMap((array, group) =>
      array
        .filter(isPlainObject)
        .map((r): [string, Record<string, unknown>] => [nested ? "0" : String(group), r]),
    );
    if (records.length > 0 && records.length >= items.length / 2)
      parts.push(...collectionParts(grouped, path, name, "array", depth));
    else if (items.length > 0 || arrays.length > 0)
      parts.push({
        kind: "list",
        path,
        name,
        itemType: typeOf(items.find((i) => i !== null) ?? ""),
        items: items.slice(0, 50),
      });
    return;
  }
  if (objects.length === 0) return;
  const tree = treeNodesOf(objects);
  if (tree) {
    parts.push({ kind: "tree", path, name, nodes: tree });
    return;
  }
  const records = recordTreeOf(objects);
  if (records) {
    parts.push({ kind: "tree", path, name, nodes: { children: records.children }, records });
    return;
  }
  const entries = objects.flatMap((o) => Object.entries(o));
  if (entries.length === 0) {
    // empty everywhere: a collection waiting for its first record (an empty world's `{"pets": {}}`)
    if (depth === 1 || path.length === 1) parts.push(...collectionParts([], path, name, "map", depth));
    return;
  }
  if (isMapOfRecords(objects)) {
    const records = entries.filter(([, v]) => isPlainObject(v)) as Array<[string, Record<string, unknown>]>;
    const keyed = records.filter(([k]) => dataKey(k));
    parts.push(...collectionParts(keyed.length > 0 ? keyed : records, path, name, "map", depth));
    return;
  }
  if (isMapOfValues(objects)) {
    parts.push({
      kind: "values",
      path,
      name,
      keys: entries.map(([k]) => k).slice(0, 200),
      valueType: typeOf(entries[0]?.[1]),
      values: entries.map(([, v]) => v).slice(0, 200),
    });
    return;
  }
  walkRecord(objects, path, name, parts, depth);
}

/** A collection and the collections its records hold (a user's payment methods), below "*". */
function collectionParts(
  entities: ReadonlyArray<[string, Record<string, unknown>]>,
  path: string[],
  name: string,
  container: "map" | "array",
  depth: number,
): Part[] {
  const sample = spread(entities, SAMPLE);
  const fields = new Map<string, FieldShape>();
  for (const [, entity] of sample) collectFields(entity, "", fields);
  const keyField = container === "map" ? keyFieldOf(sample) : distinctField(sample);
  const keys =
    container === "map"
      ? entities.map(([key]) => key)
      : keyField
        ? entities.map(([, e]) => String(e[keyField]))
        : [];
  const numericKeys =
    keys.length > 0 &&
    (container === "map"
      ? keys.every((k) => /^(0|[1-9][0-9]*)$/.test(k))
      : sample.every(([, e]) => typeof e[keyField ?? ""] === "number"));
  // pairs: nearly every record is one data key and its value (a stray record of several keys aside)
  const single = sample.filter(
    ([, e]) => Object.keys(e).length === 1 && dataKey(Object.keys(e)[0] as string),
  );
  const pairs = container === "array" && sample.length > 0 && single.length >= sample.length * 0.9;
  const collection: CollectionShape = {
    kind: "collection",
    path,
    name,
    container,
    keys,
    keyFormat: keyFormatOf(keys),
    keyField,
    numericKeys,
    fields: pairs ? new Map() : fields,
    size: entities.length,
    ...(pairs ? { pairs: {} } : {}),
  };
  const inner: Part[] = [];
  if (depth < MAX_DEPTH)
    for (const field of new Set(sample.flatMap(([, e]) => Object.keys(e)))) {
      const values = sample.map(([, e]) => e[field]).filter((v) => v !== undefined);
      const found: Part[] = [];
      walkValue(values, [...path, "*", field], field, found, depth + 2);
      // only what holds records of its own is a part: plain fields stay fields of the collection;
      // records reached through plain objects (a user's `profile.addresses`) are its records' too
      for (const part of found)
        if (part.kind === "collection" && !part.parent && !part.path.slice(path.length + 1).includes("*"))
          inner.push({ ...part, parent: name });
        else if (part.kind === "collection" && part.parent) inner.push(part);
    }
  // what a nested collection's records hold are its fields, not fields of the holder's records
  // (`packets.kale.qty` of a drawer whose `packets` are kept by name)
  for (const part of inner) {
    const at = part.path.slice(path.length + 1);
    if (at.includes("*") || part.kind !== "collection" || part.container !== "map") continue;
    const prefix = `${at.join(".")}.`;
    const keys = new Set(part.keys);
    for (const field of [...collection.fields.keys()])
      if (field.startsWith(prefix) && keys.has(field.slice(prefix.length).split(".")[0] ?? ""))
        collection.fields.delete(field);
  }
  return [collection, ...inner];
}

// ── classification ──────────────────────────────────────────────────────────

/** Keys that are data (ids, names, symbols, dates, file names), not the names of fields. */
function dataKey(key: string): boolean {
  return !/^[a-z][a-zA-Z]*(_[a-zA-Z]+)*$/.test(key);
}

/**
 * An object whose values are records of one kind: keyed by data, or several alike. A stray
 * named value beside records under data keys (`{"12345": {...}, "kind": "buy"}`) does not
 * stop the records from being a map.
 */
function isMapOfRecords(objects: ReadonlyArray<Record<string, unknown>>): boolean {
  const entries = objects.flatMap((o) => Object.entries(o));
  const keyed = entries.filter(([k, v]) => dataKey(k) && isPlainObject(v));
  if (keyed.length > 0 && keyed.length * 2 >= entries.length - keyed.length) return true;
  if (!entries.every(([, v]) => isPlainObject(v))) return false;
  const keys = entries.map(([k]) => k);
  if (keys.some(dataKey)) return true;
  // records that hold their own key (`{"pl_road": {"playlist_id": "pl_road", …}}`) are entries
  // of a map, even one record under a word key
  if (entries.every(([k, v]) => Object.values(v as object).some((field) => field === k))) return true;
  // one record's object empty where another's holds records: what it holds are entries, not
  // fields (a drawer's `packets`: `{}` in one, `{"kale": {…}}` in another)
  if (objects.some((o) => Object.keys(o).length === 0)) return true;
  const shapes = entries.map(([, v]) => new Set(Object.keys(v as object)));
  if (shapes.length < 2) return false;
  // several records sharing most of their fields are entries of one map, even under word keys
  const union = new Set(shapes.flatMap((s) => [...s]));
  return union.size > 0 && shapes.every((s) => s.size >= union.size * 0.6);
}

/** An object whose values are plain values of one type, keyed by data (a map of names to ids). */
function isMapOfValues(objects: ReadonlyArray<Record<string, unknown>>): boolean {
  const entries = objects.flatMap((o) => Object.entries(o));
  if (entries.length === 0) return false;
  const types = new Set(entries.map(([, v]) => typeOf(v)));
  if (types.size !== 1 || types.has("object")) return false;
  const keys = entries.map(([k]) => k);
  // lists under data keys (comments per post) are values too; under field names they are a record's fields
  if (types.has("array")) return keys.every(dataKey);
  return keys.every(dataKey) || new Set(keys).size > 12;
}

/**
 * The conventions of a tree, when the objects are one: nodes under names whose folders keep
 * their children in one field, each child a node of the same kind (telling folders and
 * files apart by a field both have, when there is one), or nested objects whose leaves are
 * text under file names.
 */
function treeNodesOf(objects: ReadonlyArray<Record<string, unknown>>): TreeShape["nodes"] | undefined {
  // the value is the root folder itself (`{"type": "directory", "children": {...}}`): a node
  // says its kind in a text, which a map of records (however many) has none of
  const root = objects[0] ?? {};
  if (Object.values(root).some((v) => typeof v === "string"))
    for (const [children, inner] of Object.entries(root)) {
      if (!isPlainObject(inner)) continue;
      const found = nodeConventions(objects, children);
      if (found?.kind) return found;
    }
  // a map of names to nodes holds nothing else: a record with a tree among other fields is a record
  const values = objects.flatMap((o) => Object.values(o));
  const tops = values.filter(isPlainObject);
  if (tops.length < values.length) return plainTree(objects) ? {} : undefined;
  // each field that may hold children is tried once, not once per node that has it
  const tried = new Set<string>();
  for (const top of tops)
    for (const [children, inner] of Object.entries(top)) {
      if (!isPlainObject(inner) || tried.has(children)) continue;
      tried.add(children);
      const found = nodeConventions(tops, children);
      if (found) return found;
    }
  return plainTree(objects) ? {} : undefined;
}

/**
 * Nodes form a tree through `children` when every top node and every node below it shares
 * a string field (`type`) whose value is one for the nodes holding children (folders) and
 * another for those that do not (files); the files' other string field is their content.
 */
function nodeConventions(
  tops: ReadonlyArray<Record<string, unknown>>,
  children: string,
): TreeShape["nodes"] | undefined {
  const nodes = collectNodes(tops, children);
  const below = nodes.slice(tops.length);
  const sample = tops.find((t) => isPlainObject(t[children]));
  if (!sample) return undefined;
  for (const [field, value] of Object.entries(sample)) {
    if (typeof value !== "string" || field === children) continue;
    if (!nodes.every((n) => typeof n[field] === "string")) continue;
    const folders = nodes.filter((n) => isPlainObject(n[children]));
    const files = nodes.filter((n) => !isPlainObject(n[children]));
    const folderValues = new Set(folders.map((n) => n[field]));
    const fileValues = new Set(files.map((n) => n[field]));
    if (folderValues.size !== 1 || fileValues.size > 1) continue;
    const folder = [...folderValues][0] as string;
    const file = [...fileValues][0] as string | undefined;
    if (file === folder) continue;
    // nothing below the top: a lone empty folder only counts under a name that says so
    if (below.length === 0 && !/^(contents|children|entries|files|items|nodes)$/.test(children)) continue;
    const content = files.length > 0 ? contentFieldOf(files, field) : undefined;
    return { children, kind: { field, folder, file: file ?? "file" }, ...(content ? { content } : {}) };
  }
  return undefined;
}

/**
 * A root node whose children are nodes like it, two levels down or more (a site's pages, a
 * menu, a category tree): every node keeps its children under the same field (empty at the
 * leaves), all in maps or all in arrays, and each node of an array has a text field no
 * sibling shares.
 */
function recordTreeOf(objects: ReadonlyArray<Record<string, unknown>>): RecordTreeShape | undefined {
  const root = objects[0];
  if (!root || objects.length > 1) return undefined;
  for (const [children, inner] of Object.entries(root)) {
    const container = Array.isArray(inner) ? "array" : isPlainObject(inner) ? "map" : undefined;
    if (!container) continue;
    const name = container === "array" ? siblingNameField(root, children) : undefined;
    if (container === "array" && !name) continue;
    const nodes = treeRecords(root, children, name);
    if (!nodes || nodes.length < 3 || !nodes.some((n) => n.depth >= 2)) continue;
    const below = nodes.slice(1).map((n) => n.node);
    // every node holds fields of its own beside its children: a map of maps is nested data
    if (!below.every((n) => Object.keys(n).some((k) => k !== children))) continue;
    // nodes alike all keep children, if none yet: leaves without any are files among folders
    if (!below.every((n) => n[children] !== undefined)) continue;
    // folders that keep records of another kind beside their subfolders (notes, links) are a
    // store of those records, sorted into folders, not a tree of nodes alike
    if (nodes.some((n) => holdsOtherRecords(n.node, children))) continue;
    const fields = new Map<string, FieldShape>();
    for (const { node } of nodes) collectFields(withoutField(node, children), "", fields);
    const id = uniqueIdField(below);
    return { children, container, ...(name ? { name } : {}), ...(id ? { id } : {}), fields };
  }
  return undefined;
}

function holdsOtherRecords(node: Record<string, unknown>, children: string): boolean {
  return Object.entries(node).some(
    ([field, value]) =>
      field !== children &&
      ((Array.isArray(value) && value.some(isPlainObject)) ||
        (isPlainObject(value) && Object.values(value).some(isPlainObject))),
  );
}

interface TreeRecord {
  node: Record<string, unknown>;
  depth: number;
}

/**
 * The nodes below a root through `children` (in arrays when a `name` field names them, else
 * in maps), depth first; undefined when one is not a record of the same kind.
 */
function treeRecords(
  root: Record<string, unknown>,
  children: string,
  name: string | undefined,
): TreeRecord[] | undefined {
  const found: TreeRecord[] = [];
  const visit = (node: Record<string, unknown>, depth: number): boolean => {
    if (found.length >= 500) return true;
    found.push({ node, depth });
    const inner = node[children];
    if (inner === undefined) return true;
    const kids = name
      ? Array.isArray(inner)
        ? inner
        : undefined
      : isPlainObject(inner)
        ? Object.values(inner)
        : undefined;
    if (!kids) return false;
    return kids.every((child) => isPlainObject(child) && visit(child, depth + 1));
  };
  return visit(root, 0) ? found : undefined;
}

/** The text field that names a node among its siblings in an array: present on all, unique among each node's children. */
function siblingNameField(root: Record<string, unknown>, children: string): string | undefined {
  const groups: Array<Array<Record<string, unknown>>> = [];
  const gather = (node: Record<string, unknown>) => {
    const inner = node[children];
    if (!Array.isArray(inner)) return;
    const kids = inner.filter(isPlainObject);
    if (kids.length > 0) groups.push(kids);
    kids.forEach(gather);
  };
  gather(root);
  const first = groups[0]?.[0];
  if (!first) return undefined;
  // a name, a slug or a key reads as a path's segment before a title does
  const candidates = Object.keys(first)
    .filter((k) => k !== children)
    .sort((a, b) => nameRank(a) - nameRank(b));
  return candidates.find((field) =>
    groups.every((kids) => {
      const values = kids.map((k) => k[field]);
      return (
        values.every((v) => typeof v === "string" && v !== "" && !v.includes("/")) &&
        new Set(values).size === values.length
      );
    }),
  );
}

/** A field named as an id (`id`, `node_id`, `uid`, `key`) that every node below the root has, no two alike. */
function uniqueIdField(nodes: ReadonlyArray<Record<string, unknown>>): string | undefined {
  const first = nodes[0];
  if (!first) return undefined;
  return Object.keys(first).find((field) => {
    if (!/^(id|uid|uuid|key|code)$|_id$/.test(field)) return false;
    const values = nodes.map((n) => n[field]);
    return (
      values.every((v) => (typeof v === "string" && v !== "") || typeof v === "number") &&
      new Set(values.map(String)).size === values.length
    );
  });
}

function nameRank(field: string): number {
  const rank = ["slug", "name", "key", "id", "path_segment", "segment"].indexOf(field);
  return rank < 0 ? 10 : rank;
}

function withoutField(node: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _, ...rest } = node;
  return rest;
}

/** A tree whose root is a node of its own (`tree: {kind, children: {…}}`), one step below the record. */
function rootNodeBeside(tree: TreeShape, path: readonly string[]): boolean {
  return tree.path.length === path.length + 2 && tree.path.at(-1) === tree.nodes.children;
}

/** A text field that keeps the current folder beside a tree: `cwd`, `current_dir`, `working_directory`, holding absolute paths. */
function cwdField(record: RecordShape): string | undefined {
  for (const field of record.fields.values()) {
    const words = nameWords(field.path);
    const named =
      words.includes("cwd") ||
      words.includes("pwd") ||
      ((words.includes("current") || words.includes("working")) &&
        words.some((w) => /^(dir|directory|folder|path|location)$/.test(w)));
    if (!named || !field.types.has("string")) continue;
    if (field.samples.every((v) => typeof v === "string" && v.startsWith("/"))) return field.path;
  }
  return undefined;
}

/** Every node reachable through the children field, breadth first, up to a bound. */
function collectNodes(
  tops: ReadonlyArray<Record<string, unknown>>,
  children: string,
): Array<Record<string, unknown>> {
  const seen: Array<Record<string, unknown>> = [];
  const queue = [...tops];
  while (queue.length > 0 && seen.length < 500) {
    const node = queue.shift() as Record<string, unknown>;
    seen.push(node);
    const inner = node[children];
    if (isPlainObject(inner))
      for (const child of Object.values(inner)) if (isPlainObject(child)) queue.push(child);
  }
  return seen;
}

function contentFieldOf(
  files: ReadonlyArray<Record<string, unknown>>,
  kindField: string,
): string | undefined {
  const candidates = new Set(files.flatMap((f) => Object.keys(f)).filter((k) => k !== kindField));
  return [...candidates].find((field) =>
    files.every((f) => typeof f[field] === "string" || f[field] === undefined),
  );
}

/** Nested objects with text under names that look like files (`notes.txt`), at least two levels deep. */
function plainTree(objects: ReadonlyArray<Record<string, unknown>>): boolean {
  let files = 0;
  let folders = 0;
  const visit = (value: Record<string, unknown>, depth: number) => {
    for (const [name, child] of Object.entries(value)) {
      // files are named with an extension; an address (`lee@corp.test`) is no file name
      if (typeof child === "string" && /^[^/@]+\.[A-Za-z0-9]{1,8}$/.test(name)) files++;
      else if (isPlainObject(child) && depth < 6) {
        folders++;
        visit(child, depth + 1);
      } else if (typeof child !== "string") folders -= 100;
    }
  };
  for (const object of objects) visit(object, 0);
  return files > 0 && folders > 0;
}

// ── fields ───────────────────────────────────────────────────────────────────

function collectField(fields: Map<string, FieldShape>, path: string, values: readonly unknown[]): void {
  const field: FieldShape = fields.get(path) ?? {
    path,
    types: new Set<string>(),
    values: new Map(),
    open: false,
    samples: [],
    elements: new Set(),
  };
  fields.set(path, field);
  for (const item of values) {
    field.types.add(typeOf(item));
    if ((typeof item === "string" || typeof item === "number") && field.samples.length < 20)
      field.samples.push(item);
    if (typeof item === "string" && !field.open) {
      field.values.set(item, (field.values.get(item) ?? 0) + 1);
      if (field.values.size > ENUM_LIMIT) field.open = true;
    }
    if (Array.isArray(item))
      for (const element of item.slice(0, 20)) {
        if (isPlainObject(element)) {
          field.itemFields ??= new Set();
          for (const k of Object.keys(element)) field.itemFields.add(k);
        } else if (typeof element === "string" && field.elements.size < 200) field.elements.add(element);
      }
  }
}

function collectFields(
  value: Record<string, unknown>,
  prefix: string,
  fields: Map<string, FieldShape>,
): void {
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    collectField(fields, path, [item]);
    // nested objects with the same fields in every record (an address, a name) are part of the record
    if (isPlainObject(item) && !looksKeyed(item) && prefix.split(".").length < 3)
      collectFields(item, path, fields);
  }
}

/** A map keyed by ids rather than a record with named fields: its values are all objects of one kind. */
function looksKeyed(value: Record<string, unknown>): boolean {
  const values = Object.values(value);
  return values.length > 0 && values.every(isPlainObject) && Object.keys(value).some(dataKey);
}

/** A field of most records whose value is the record's own key. */
function keyFieldOf(sample: ReadonlyArray<[string, Record<string, unknown>]>): string | undefined {
  if (sample.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const [key, entity] of sample)
    for (const [field, value] of Object.entries(entity))
      if (String(value) === key && (typeof value === "string" || typeof value === "number"))
        counts.set(field, (counts.get(field) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return best && best[1] >= sample.length * 0.9 ? best[0] : undefined;
}

/**
 * The field that tells the records of an array apart: named like an id, with a value unique to
 * each within its group (each record's key: the example state its array is in, outside a
 * collection; one group for the arrays inside a collection's records).
 */
function distinctField(sample: ReadonlyArray<[string, Record<string, unknown>]>): string | undefined {
  if (sample.length === 0) return undefined;
  const fields = Object.keys(sample[0]?.[1] ?? {});
  const distinct = (field: string, grouped: boolean) => {
    const values = sample.map(([, e]) => e[field]);
    const keyed = sample.map(([group, e]) => `${grouped ? group : ""}:${String(e[field])}`);
    return (
      values.every((v) => typeof v === "string" || typeof v === "number") &&
      new Set(keyed).size === values.length
    );
  };
  // an id repeated across states names the same record copied into each: unique in each state
  // will do; a natural key is weaker evidence (one record a state is unique in anything), so it
  // must tell apart the records of every state together
  const ids = fields.filter((f) => distinct(f, true));
  const naturals = fields.filter((f) => distinct(f, false));
  // an id-like field first; else a natural key people name records by (an email, a login, a
  // handle), else the number a record is filed under (an issue's `number`, an `order_number`),
  // else the reference it is quoted by
  return (
    ids.find((f) => /^(id|key|uuid)$/i.test(f)) ??
    ids.find((f) => /(_id|Id|_key|_uuid)$/.test(f)) ??
    // an asset's tag, a book's ISBN, a device's serial: codes printed on the thing itself
    naturals.find((f) =>
      /^(email|login|username|handle|name|code|slug|sku|symbol|tag|asset_tag|serial|serial_number|isbn|barcode)$/i.test(
        f,
      ),
    ) ??
    naturals.find((f) => /^number$|(_number|Number)$/.test(f)) ??
    // a booking's `ref`, a payment's `reference`, a flight's `locator`: codes records are quoted by
    naturals.find((f) => /^(?:ref|reference|locator|confirmation_code)$|(_ref|Ref)$/.test(f))
  );
}

function keyFormatOf(keys: readonly string[]): KeyFormat | undefined {
  if (keys.length === 0) return undefined;
  let prefix = keys[0] ?? "";
  for (const key of keys) while (!key.startsWith(prefix)) prefix = prefix.slice(0, -1);
  // a prefix ending in digits is part of the numbers (`100`, `101`): keep only its non-digits
  prefix = prefix.replace(/[0-9]+$/, "");
  const rest = keys.map((key) => key.slice(prefix.length));
  const numeric = rest.every((r) => /^[0-9]+$/.test(r));
  const length = Math.max(...keys.map((k) => k.length));
  return numeric ? { prefix, digits: Math.max(...rest.map((r) => r.length)), length } : { prefix, length };
}

// ── references and counters ────────────────────────────────────────────────

/** Which fields hold keys of another collection (a user's `orders`, an order's `user_id`). */
function linkReferences(parts: readonly Part[], _worlds: readonly unknown[]): void {
  const collections = parts.filter((p): p is CollectionShape => p.kind === "collection");
  const keySets = new Map(collections.map((c) => [c.name, new Set(c.keys)] as const));
  for (const shape of collections)
    for (const field of shape.fields.values()) {
      if (field.path === shape.keyField) continue;
      const all = [...field.values.keys(), ...field.elements];
      // numbers, and text made only of digits, refer only where the field is named for the
      // collection (`post_id` → posts, `card_id` → payment_card_list): small counts and a
      // payment reference's "90210" look like numeric keys too
      const texts = all.filter((v) => !/^[0-9]+$/.test(v));
      const numbers = [
        ...field.samples.filter((v) => typeof v === "number").map(String),
        ...all.filter((v) => /^[0-9]+$/.test(v)),
      ];
      const words = nameWords(field.path).map(singular);
      for (const [name, keys] of keySets) {
        if (name === shape.name || keys.size === 0) continue;
        const named = words.includes(nameWords(partNoun(name)).at(-1) ?? "");
        const values = named ? [...texts, ...numbers] : texts;
        if (values.length === 0) continue;
        const hits = values.filter((v) => keys.has(v)).length;
        if (hits >= values.length * 0.8) {
          field.refersTo = name;
          break;
        }
      }
    }
}

/**
 * A counter beside a collection mints its ids: an integer field of the record holding the
 * collection, named after it (`crate_counter` for `crates`, `member_count` for `member_index`)
 * or a bare `next_id`/`counter`, whose value is the largest id (it holds the last one given)
 * or one more (the next one to give). Records kept inside others' (a list's cards) are
 * numbered by a counter at the top of the state named after them (`next_card_id`), as
 * Trello, Jira and GitHub number cards, issues and comments across their containers.
 */
function attachCounters(parts: readonly Part[], worlds: readonly unknown[]): void {
  const records = parts.filter((p): p is RecordShape => p.kind === "record");
  for (const part of parts) {
    if (part.kind !== "collection") continue;
    const holder = part.parent
      ? records.find((r) => r.path.length === 0)
      : records.find(
          (r) => r.path.length === part.path.length - 1 && r.path.every((s, i) => part.path[i] === s),
        );
    if (!holder) continue;
    const noun = nameWords(singular(part.name))[0] ?? "";
    // records kept in folders (`inbox`, `sent`) are named by their key field (`messageId`)
    const keyNoun = part.keyField ? nameWords(part.keyField).filter((w) => w !== "id")[0] : undefined;
    for (const field of holder.fields.values()) {
      const words = nameWords(field.path);
      const counterWord =
        words.some((w) => ["counter", "count", "seq", "sequence"].includes(w)) ||
        // `next_id`, and `billing_next_invoice_id` where a prefix names the product
        words.includes("next") ||
        words[0] === "last";
      if (!counterWord || !field.types.has("number") || field.types.size !== 1) continue;
      // a counter whose name starts with a product's word (`billing_next_invoice_id`) names its
      // collection by the head noun (`invoices`), not by that shared word (`billing_next_id` is
      // not the counter of `billing_accounts`)
      const prefixed = words.includes("next") && words[0] !== "next" && words[0] !== "last";
      const head = nameWords(singular(part.name)).at(-1) ?? "";
      const named = prefixed
        ? words.some((w) => singular(w) === head)
        : words.some((w) => singular(w) === noun || singular(w) === keyNoun) ||
          (!part.parent && ["counter", "next_id", "last_id", "id_counter"].includes(field.path));
      if (!named) continue;
      const path = [...holder.path, field.path];
      const holds = part.parent ? holdsOverall(part, field) : holdsPerState(part, path, worlds, words);
      if (holds === undefined) continue;
      part.counter = { path, holds };
      break;
    }
  }
  attachUnnamedCounters(parts, records, worlds);
}

/**
 * `next_number` beside a `line` of `T-4` to `T-6` and 7: a `next_…` number named for no
 * collection is the counter of the one collection beside it whose largest id it is one more
 * than in every state, as a queue's ticket number or a print spooler's next job number is kept.
 */
function attachUnnamedCounters(
  parts: readonly Part[],
  records: readonly RecordShape[],
  worlds: readonly unknown[],
): void {
  const taken = new Set(
    parts.flatMap((p) => (p.kind === "collection" && p.counter ? [p.counter.path.join("/")] : [])),
  );
  for (const holder of records) {
    const uncounted = parts.filter(
      (p): p is CollectionShape =>
        p.kind === "collection" &&
        !p.counter &&
        !p.parent &&
        p.path.length === holder.path.length + 1 &&
        holder.path.every((s, i) => p.path[i] === s),
    );
    for (const field of holder.fields.values()) {
      const path = [...holder.path, field.path];
      if (taken.has(path.join("/")) || nameWords(field.path)[0] !== "next") continue;
      if (!field.types.has("number") || field.types.size !== 1) continue;
      const fits = uncounted.filter((part) => nextInEveryState(part, path, worlds));
      if (fits.length !== 1) continue;
      (fits[0] as CollectionShape).counter = { path, holds: "next" };
    }
  }
}

/** Whether the number is one more than the collection's largest numbered id wherever both are seen. */
function nextInEveryState(
  part: CollectionShape,
  path: readonly string[],
  worlds: readonly unknown[],
): boolean {
  let seen = 0;
  for (const world of worlds) {
    const value = valueAt(world, path);
    const records = valueAt(world, part.path);
    if (typeof value !== "number" || records === null || typeof records !== "object") continue;
    const keys = Array.isArray(records)
      ? part.keyField
        ? records.map((r) => String((r as Record<string, unknown> | null)?.[part.keyField as string]))
        : []
      : Object.keys(records);
    const highest = highestNumber(keys);
    if (highest === undefined) continue;
    if (value !== highest + 1) return false;
    seen++;
  }
  return seen > 0;
}

/** Nested records are numbered across their holders: the counter against every key seen. */
function holdsOverall(part: CollectionShape, field: FieldShape): CounterShape["holds"] | undefined {
  const value = field.samples.find((s) => typeof s === "number") as number | undefined;
  if (value === undefined) return undefined;
  const highest = highestNumber(part.keys);
  return highest === undefined || value > highest ? "next" : "last";
}

/**
 * Each example state says what its counter holds: one more than its largest id (the next
 * to give) or the largest (the last given). States of different tasks hold different
 * records, so a counter is compared with its own state's ids only; a state without ids
 * says nothing, and then the name does (`last_id`).
 */
function holdsPerState(
  part: CollectionShape,
  path: readonly string[],
  worlds: readonly unknown[],
  words: readonly string[],
): CounterShape["holds"] | undefined {
  let next = 0;
  let last = 0;
  let seen = false;
  for (const world of worlds) {
    const value = valueAt(world, path);
    if (typeof value !== "number") continue;
    seen = true;
    const records = valueAt(world, part.path);
    const keys =
      records !== null && typeof records === "object" && !Array.isArray(records)
        ? Object.keys(records)
        : Array.isArray(records) && part.keyField
          ? records.map((r) => String((r as Record<string, unknown> | null)?.[part.keyField as string]))
          : [];
    const highest = highestNumber(keys);
    if (highest === undefined) continue;
    if (value > highest) next++;
    else if (value === highest) last++;
  }
  if (!seen) return undefined;
  if (next === last) return words[0] === "last" ? "last" : "next";
  return next > last ? "next" : "last";
}

function valueAt(world: unknown, path: readonly string[]): unknown {
  let at = world;
  for (const step of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at;
}

function highestNumber(keys: readonly string[]): number | undefined {
  const numbers = keys
    .map((k) => /([0-9]+)$/.exec(k)?.[1])
    .filter((d): d is string => d !== undefined)
    .map(Number);
  return numbers.length > 0 ? Math.max(...numbers) : undefined;
}

// ── helpers ──────────────────────────────────────────────────────────────────

/** Evenly spaced items, so a sample sees the whole collection, not only its first keys. */
function spread<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)] as T);
}

/** The outline of a value: digits become 9 and letters a (`INV-000123` → `aaa-999999`). */
/**
 * A record's top-level fields that are objects kept by name (a record's `votes` by option, its
 * `config` by key), with the fields below them, where every field below passes `holds` (all
 * numbers: counts by name; no object: plain values by name). Keys may hold dots themselves
 * (`lee@corp.test`), so what lies below is told by prefix, not by depth.
 */
export function mapsByName(
  collection: CollectionShape,
  holds: (inner: FieldShape) => boolean,
): Array<{ field: FieldShape; inner: FieldShape[] }> {
  const fields = [...collection.fields.values()];
  return fields.flatMap((field) => {
    if (field.path.includes(".") || !field.types.has("object") || field.types.size !== 1) return [];
    const inner = fields.filter((f) => f.path.startsWith(`${field.path}.`));
    return inner.every(holds) ? [{ field, inner }] : [];
  });
}

/** Counts kept by name: every value below is a number. */
export const COUNTS = (inner: FieldShape) => inner.types.size === 1 && inner.types.has("number");

export function outline(value: string): string {
  return value.replace(/[0-9]/g, "9").replace(/[A-Za-z]/g, "a");
}

export function dig(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Whether values of a schema's type can be the state's (whose numbers all read as `number`). */
export function fitsStateType(schemaType: string | undefined, stateType: string): boolean {
  return schemaType === stateType || (schemaType === "integer" && stateType === "number");
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The target of a part's records: its path with the entity keys filled in (`users/{user_id}/cards`). */
export function partTarget(part: Pick<PartBase, "path">, keys: readonly string[] = []): string {
  let next = 0;
  return part.path.map((segment) => (segment === "*" ? (keys[next++] ?? "*") : segment)).join("/") || ".";
}
