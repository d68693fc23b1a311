import { baseName, isWithin, pathText, resolvePath, type Segments, segmentsOf } from "./paths.js";
import type { TextEdit } from "./text.js";
import * as world from "./tree.js";

/**
 * A partial view of a file system laid over a real one that is known only where asked: the
 * view's own changes (what was done in it), by absolute path, over facts about the real file
 * system learned from outside (folder listings, file texts). An operation answers from what is
 * known, names what it lacks (a Question) when it cannot decide without it, and never touches
 * the real file system: its result is the view's new changes. The semantics are the tree
 * operations' own (tree.ts), run on the few nodes an operation concerns.
 */

/** What the view says of one path. */
export type Known =
  /** A file: its text, or (none given) the text of the real file at `real`. */
  | { type: "file"; content?: string; real?: string }
  /** A folder: what the view put in it, and (when `real` is given) the entries of that real folder. */
  | { type: "folder"; real?: string }
  /** Nothing is here any more, whatever the real file system has. */
  | { type: "absent" };

export type Changes = Readonly<Record<string, Known>>;

export type EntryKind = "file" | "folder";

/** What is known of the real file system, by real path. */
export interface RealFacts {
  /** A folder's entries by name; null when it cannot be listed (missing, or not a folder). */
  folders?: Readonly<Record<string, Readonly<Record<string, EntryKind>> | null>>;
  /** A file's text; null when it cannot be read. */
  texts?: Readonly<Record<string, string | null>>;
}

export interface SparseTree {
  changes: Changes;
  real: RealFacts;
  /**
   * What a fact that is not known stands for: a question (`ask`, the default), or, where no
   * one can be asked, what the operation needs (`assume`): a source or a parent is there, a
   * destination is free.
   */
  unknown?: "ask" | "assume";
}

/** What an operation needs to learn about the real file system before it can decide. */
export type Question = { ask: "list"; path: string } | { ask: "read"; path: string };

export type Found =
  | { type: "file"; path: string; content?: string; real?: string }
  | { type: "folder"; path: string; real?: string }
  /** Nothing there; `blockedBy` is a file the path would lie below. */
  | { type: "absent"; path: string; blockedBy?: string };

/** What an answer waits for: facts to learn before asking again. */
export interface Needs {
  ok: false;
  needs: Question[];
}

export type Looked = Found | Needs;

export type SparseOutcome<T> =
  | { ok: true; changes: Changes; value: T }
  | { ok: false; failure: world.TreeError }
  | Needs;

/** How a lookup reads what it cannot know, under `unknown: "assume"`. */
type Role = "source" | "target" | "parent";

// ── reading ─────────────────────────────────────────────────────────────────

/** What is at a path: the view's changes first, then the real file system below what they map to. */
export function look(sparse: SparseTree, path: string, role: Role = "source"): Looked {
  const segments = absolute(path);
  const target = pathText(segments);
  // the real path of the prefix walked so far; undefined below a folder made in the view
  let real: string[] | undefined = [];
  for (let depth = 1; depth <= segments.length; depth++) {
    const name = segments[depth - 1] as string;
    const realHere = real ? [...real, name] : undefined;
    const known = sparse.changes[pathText(segments.slice(0, depth))];
    const last = depth === segments.length;
    if (known?.type === "absent") return { type: "absent", path: target };
    if (known?.type === "file") {
      if (!last) return { type: "absent", path: target, blockedBy: pathText(segments.slice(0, depth)) };
      if (known.content !== undefined) return { type: "file", path: target, content: known.content };
      const from = known.real ?? (realHere ? pathText(realHere) : undefined);
      return { type: "file", path: target, ...(from !== undefined ? { real: from } : {}) };
    }
    if (known?.type === "folder") {
      real = known.real !== undefined ? segmentsOf(known.real) : undefined;
      if (last) return { type: "folder", path: target, ...(real ? { real: pathText(real) } : {}) };
      continue;
    }
    // not in the view: below a folder made in the view there is nothing it did not make
    if (!realHere) return { type: "absent", path: target };
    real = realHere;
    // folders above the target are taken as they are; the target's own folder is listed
    if (last) return realAt(sparse, target, realHere, role);
  }
  return { type: "folder", path: "/", real: "/" };
}

/** The text of a file the lookup found: the view's, or the real file's (asked for when unknown). */
export function textOf(sparse: SparseTree, found: Found & { type: "file" }): string | Needs {
  if (found.content !== undefined) return found.content;
  if (found.real === undefined) return "";
  const text = sparse.real.texts?.[found.real];
  if (text === undefined) return { ok: false, needs: [{ ask: "read", path: found.real }] };
  return text ?? "";
}

/** A folder's entries as the view has them: the real ones it maps to, less what it removed, plus what it made. */
export function entries(
  sparse: SparseTree,
  path: string,
): { ok: true; entries: Record<string, Found> } | Needs | undefined {
  const folder = look(sparse, path);
  if ("needs" in folder) return folder;
  if (folder.type !== "folder") return undefined;
  const segments = absolute(folder.path);
  const names = new Set<string>(namesInside(sparse.changes, pathText(segments)));
  if (folder.real !== undefined) {
    const listed = sparse.real.folders?.[folder.real];
    if (listed === undefined) {
      if (sparse.unknown !== "assume") return { ok: false, needs: [{ ask: "list", path: folder.real }] };
    } else for (const name of Object.keys(listed ?? {})) names.add(name);
  }
  const found: Record<string, Found> = {};
  for (const name of [...names].sort()) {
    const child = look(sparse, pathText([...segments, name]));
    if ("needs" in child) return child;
    if (child.type !== "absent") found[name] = child;
  }
  return { ok: true, entries: found };
}

function realAt(sparse: SparseTree, target: string, real: Segments, role: Role): Looked {
  if (real.length === 0) return { type: "folder", path: target, real: "/" };
  const realText = pathText(real);
  // a folder that could be listed is there
  const own = sparse.real.folders?.[realText];
  if (own) return { type: "folder", path: target, real: realText };
  const parent = pathText(real.slice(0, -1));
  const listed = sparse.real.folders?.[parent];
  if (listed) {
    const kind = listed[baseName(real)];
    return kind === undefined
      ? { type: "absent", path: target }
      : { type: kind, path: target, real: realText };
  }
  // a folder that cannot be listed may still hold this one (a server may keep its callers out
  // of the folders above the ones it serves): the target is there if it can be listed itself
  if (listed === null && own === null) return { type: "absent", path: target };
  if (sparse.unknown !== "assume") {
    return { ok: false, needs: [{ ask: "list", path: listed === null ? realText : parent }] };
  }
  if (role === "target") return { type: "absent", path: target };
  return role === "parent"
    ? { type: "folder", path: target, real: realText }
    : { type: "file", path: target, real: realText };
}

// ── changing ────────────────────────────────────────────────────────────────

/** Writes a file's text (see tree.write). */
export function write(
  sparse: SparseTree,
  path: string,
  text: string,
  options: world.WriteOptions = {},
): SparseOutcome<string> {
  const target = look(sparse, path, options.create ? "target" : "source");
  if ("needs" in target) return target;
  const nodes: Found[] = [target];
  if (target.type === "absent") {
    const parent = parentOf(sparse, target.path);
    if ("needs" in parent) return parent;
    nodes.push(parent);
  } else if (target.type === "file" && options.append) {
    const before = textOf(sparse, target);
    if (typeof before !== "string") return before;
    nodes[0] = { ...target, content: before };
  }
  return run(sparse, nodes, (tree) => world.write(tree, target.path, text, options));
}

/** Edits a file's text (see tree.edit), reading the real text first when the view has none. */
export function edit(
  sparse: SparseTree,
  path: string,
  edits: readonly TextEdit[],
): SparseOutcome<{ text: string; hunks: Array<{ before: string; after: string }> }> {
  const target = look(sparse, path);
  if ("needs" in target) return target;
  let node: Found = target;
  if (target.type === "file") {
    const before = textOf(sparse, target);
    if (typeof before !== "string") return before;
    node = { ...target, content: before };
  }
  return run(sparse, [node], (tree) => world.edit(tree, target.path, edits));
}

/** A new empty file (see tree.touch). */
export function touch(sparse: SparseTree, path: string, refuseExisting = false): SparseOutcome<string> {
  const target = look(sparse, path, "target");
  if ("needs" in target) return target;
  const nodes: Found[] = [target];
  if (target.type === "absent") {
    const parent = parentOf(sparse, target.path);
    if ("needs" in parent) return parent;
    nodes.push(parent);
  }
  return run(sparse, nodes, (tree) => world.touch(tree, target.path, refuseExisting));
}

/** A new folder (see tree.mkdir); with `parents`, the nearest existing folder above is found from below. */
export function mkdir(sparse: SparseTree, path: string, parents = false): SparseOutcome<string> {
  const target = look(sparse, path, "target");
  if ("needs" in target) return target;
  const nodes: Found[] = [target];
  if (target.type === "absent") {
    const segments = absolute(target.path);
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const above = look(sparse, pathText(segments.slice(0, depth)), "parent");
      if ("needs" in above) return above;
      nodes.push(withBlocker(above));
      if (above.type !== "absent" || above.blockedBy || !parents) break;
    }
  }
  return run(sparse, nodes, (tree) => world.mkdir(tree, target.path, parents));
}

/** Moves or renames (see tree.move); what the view knows below the source goes with it. */
export function move(
  sparse: SparseTree,
  from: string,
  to: string,
  options: world.RelocateOptions = {},
): SparseOutcome<string> {
  return relocate(sparse, from, to, true, options);
}

/** Copies (see tree.copy); what the view knows below the source is copied with it. */
export function copy(
  sparse: SparseTree,
  from: string,
  to: string,
  options: world.RelocateOptions = {},
): SparseOutcome<string> {
  return relocate(sparse, from, to, false, options);
}

/** Removes a file or a folder (see tree.remove); an empty-only removal lists the folder first. */
export function remove(
  sparse: SparseTree,
  path: string,
  options: world.RemoveOptions = {},
): SparseOutcome<string> {
  const target = look(sparse, path);
  if ("needs" in target) return target;
  const nodes: Found[] = [withBlocker(target)];
  if (target.type === "folder" && options.emptyOnly) {
    const inside = entries(sparse, target.path);
    if (inside && !inside.ok) return inside;
    nodes.push(...Object.values(inside?.entries ?? {}));
  }
  return run(sparse, nodes, (tree) => world.remove(tree, target.path, options));
}

function relocate(
  sparse: SparseTree,
  from: string,
  to: string,
  removeSource: boolean,
  options: world.RelocateOptions,
): SparseOutcome<string> {
  const source = look(sparse, from);
  if ("needs" in source) return source;
  const destination = look(sparse, to, "target");
  if ("needs" in destination) return destination;
  const nodes: Found[] = [withBlocker(source), withBlocker(destination)];
  if (destination.type === "folder" && options.into !== false) {
    const inside = look(
      sparse,
      pathText([...absolute(destination.path), baseName(absolute(source.path))]),
      "target",
    );
    if ("needs" in inside) return inside;
    nodes.push(inside);
  } else if (destination.type === "absent" && !destination.blockedBy) {
    const parent = parentOf(sparse, destination.path);
    if ("needs" in parent) return parent;
    nodes.push(parent);
  }
  const moved = run(sparse, nodes, (tree) =>
    removeSource
      ? world.move(tree, source.path, destination.path, options)
      : world.copy(tree, source.path, destination.path, options),
  );
  if (!moved.ok || moved.value === source.path) return moved;
  // what the view knows below the source lies below the landing now
  const landing = absolute(moved.value);
  const below = absolute(source.path);
  const carried: Record<string, Known> = {};
  for (const [key, known] of Object.entries(sparse.changes)) {
    const inner = segmentsOf(key);
    if (inner.length > below.length && isWithin(inner, below))
      carried[pathText([...landing, ...inner.slice(below.length)])] = known;
  }
  return { ...moved, changes: pruned({ ...moved.changes, ...carried }) };
}

// ── running tree operations on the nodes concerned ──────────────────────────

const NODES: world.NodeConventions = {
  children: "children",
  kind: { field: "type", folder: "folder", file: "file" },
  content: "content",
};

/** The parent folder of a path (or what stands in its way), for operations that make something there. */
function parentOf(sparse: SparseTree, path: string): Looked {
  const segments = absolute(path);
  if (segments.length === 0) return { type: "folder", path: "/", real: "/" };
  const parent = look(sparse, pathText(segments.slice(0, -1)), "parent");
  return "needs" in parent ? parent : withBlocker(parent);
}

/** A path below a file stands for that file, so that the tree operation answers "not a folder". */
function withBlocker(found: Found): Found {
  return found.type === "absent" && found.blockedBy ? { type: "file", path: found.blockedBy } : found;
}

/**
 * Builds a small tree of the nodes an operation concerns (their folders above them made as
 * needed), runs the operation on it, and turns what changed into the view's changes.
 */
function run<T>(
  sparse: SparseTree,
  nodes: readonly Found[],
  operation: (tree: world.Tree) => world.TreeOutcome<T>,
): SparseOutcome<T> {
  let top: Record<string, unknown> = {};
  const placed = [...nodes]
    .filter((node) => node.type !== "absent")
    .sort((a, b) => absolute(a.path).length - absolute(b.path).length);
  for (const node of placed) top = place(top, absolute(node.path), nodeOf(node));
  const outcome = operation({ top, nodes: NODES, cwd: "/" });
  if (!outcome.ok) return outcome;
  const before = flatten(top);
  const after = flatten(outcome.top);
  const changed: Record<string, Known> = {};
  for (const [path, node] of after) {
    const earlier = before.get(path);
    if (!earlier || JSON.stringify(earlier) !== JSON.stringify(node)) changed[path] = node;
  }
  for (const path of before.keys()) if (!after.has(path)) changed[path] = { type: "absent" };
  return { ok: true, changes: pruned({ ...sparse.changes, ...changed }), value: outcome.value };
}

function nodeOf(found: Found): Record<string, unknown> {
  if (found.type === "folder")
    return { type: "folder", children: {}, ...(found.real !== undefined ? { real: found.real } : {}) };
  if (found.type === "absent") return {};
  return {
    type: "file",
    ...(found.content !== undefined ? { content: found.content } : {}),
    ...(found.content === undefined && found.real !== undefined ? { real: found.real } : {}),
  };
}

/** The top with a node at a path, folders made above it as needed; a folder already there keeps its children. */
function place(
  top: Record<string, unknown>,
  segments: Segments,
  node: Record<string, unknown>,
): Record<string, unknown> {
  const [name, ...rest] = segments;
  if (name === undefined) return top;
  const existing = top[name] as Record<string, unknown> | undefined;
  if (rest.length === 0) {
    const children = existing?.children;
    return { ...top, [name]: existing && node.type === "folder" ? { ...node, children } : node };
  }
  const folder = existing ?? { type: "folder", children: {} };
  const children = (folder.children ?? {}) as Record<string, unknown>;
  return { ...top, [name]: { ...folder, children: place(children, rest, node) } };
}

/** Every node of a small tree by path, without its children. */
function flatten(top: Record<string, unknown>, prefix: Segments = []): Map<string, Known> {
  const out = new Map<string, Known>();
  for (const [name, value] of Object.entries(top)) {
    const node = value as {
      type?: string;
      content?: string;
      real?: string;
      children?: Record<string, unknown>;
    };
    const path = [...prefix, name];
    if (node.type === "folder") {
      out.set(pathText(path), { type: "folder", ...(node.real !== undefined ? { real: node.real } : {}) });
      for (const [inner, known] of flatten(node.children ?? {}, path)) out.set(inner, known);
    } else if (node.content !== undefined) {
      out.set(pathText(path), { type: "file", content: node.content });
    } else {
      out.set(pathText(path), { type: "file", ...(node.real !== undefined ? { real: node.real } : {}) });
    }
  }
  return out;
}

/** The changes without what lies below something absent or below a file: nothing can be there. */
function pruned(changes: Record<string, Known>): Record<string, Known> {
  const blocking = new Set(
    Object.entries(changes)
      .filter(([, known]) => known.type !== "folder")
      .map(([path]) => path),
  );
  const out: Record<string, Known> = {};
  for (const [path, known] of Object.entries(changes)) {
    const segments = segmentsOf(path);
    let blocked = false;
    for (let depth = segments.length - 1; depth >= 1 && !blocked; depth--)
      blocked = blocking.has(pathText(segments.slice(0, depth)));
    if (!blocked) out[path] = known;
  }
  return out;
}

/** The names the changes hold directly inside each folder, worked out once per set of changes. */
const childNames = new WeakMap<Changes, Map<string, string[]>>();

function namesInside(changes: Changes, folder: string): readonly string[] {
  let index = childNames.get(changes);
  if (!index) {
    index = new Map();
    for (const key of Object.keys(changes)) {
      const segments = segmentsOf(key);
      if (segments.length === 0) continue;
      const parent = pathText(segments.slice(0, -1));
      index.set(parent, [...(index.get(parent) ?? []), baseName(segments)]);
    }
    childNames.set(changes, index);
  }
  return index.get(folder) ?? [];
}

function absolute(path: string): string[] {
  return resolvePath(path, []) ?? [];
}
