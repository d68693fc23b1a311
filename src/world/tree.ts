import { isPlainObject } from "../patch/index.js";
import { baseName, globTest, isWithin, pathText, resolvePath, type Segments, segmentsOf } from "./paths.js";
import { applyEdits, type EditedText, type TextEdit } from "./text.js";

/**
 * A tree of folders and files kept as plain JSON, and what a file system does to it: list,
 * change folder, make folders and files, read, write, move, copy, remove, find, measure.
 * The semantics are POSIX's (mv into an existing folder keeps the name, otherwise renames;
 * rmdir refuses a folder that is not empty; find prints paths starting with the path it was
 * given), because every shell, file API and file-system MCP server people use follows them.
 *
 * The tree's value in the state is its top: a map of names to nodes. When the top holds a
 * single folder, a session starts in it (a home folder); otherwise at "/".
 */

export interface NodeConventions {
  /** Field of a folder that holds its children by name; absent: a folder is itself the map of its children. */
  children?: string;
  /** Field that says what a node is, with its value for folders and for files. */
  kind?: { field: string; folder: string; file: string };
  /** Field of a file that holds its text; absent: a file is its text. */
  content?: string;
}

export type TreeErrorKind = "missing" | "exists" | "not-folder" | "is-folder" | "not-empty" | "invalid";

export interface TreeError {
  error: TreeErrorKind;
  /** The path the error is about, as text. */
  path: string;
  detail?: string;
}

export interface TreeChange<T> {
  ok: true;
  /** The tree's top after the operation (the same object when nothing changed). */
  top: Record<string, unknown>;
  value: T;
  /** The current folder after the operation, when it moved. */
  cwd?: string;
}

export type TreeOutcome<T> = TreeChange<T> | { ok: false; failure: TreeError };

type Node = unknown;

export interface Tree {
  top: Record<string, unknown>;
  nodes: NodeConventions;
  /** The current folder, absolute ("/" for the root). */
  cwd: string;
}

/** Where a session starts in a tree: its only top folder, or the root. */
export function homeOf(top: Record<string, unknown>, nodes: NodeConventions): string {
  const names = Object.keys(top);
  if (names.length === 1 && isFolder(top[names[0] as string], nodes)) return `/${names[0]}`;
  return "/";
}

// ── reading ─────────────────────────────────────────────────────────────────

export function pwd(tree: Tree): TreeOutcome<string> {
  return done(tree.top, tree.cwd);
}

/** A listing's entries as records: the child's name and kind under the fields an API answers them by. */
export interface EntryFields {
  name: string;
  /** The field that says what the entry is, in the words given for folders and files. */
  kind?: { field: string; folder: string; file: string };
  /** Fields of the node itself an entry repeats (`size_bytes`, `owner`). */
  fields?: readonly string[];
}

export interface ListOptions {
  /** Names starting with "." too. */
  all?: boolean;
  /** A file is not a folder to list (`listdir`: not a directory), rather than listed as itself. */
  foldersOnly?: boolean;
  /** Each name after the tag of its kind ("[DIR] notes"). */
  tags?: { file: string; folder: string };
  /** Each child as a record rather than a name. */
  entries?: EntryFields;
  /** In order of name rather than in the order the folder keeps. */
  sorted?: boolean;
}

/**
 * The names in a folder; names starting with "." only when `all`. A file lists itself, as
 * `ls` does, unless the listing takes folders only (`listdir`: not a directory).
 */
export function list(
  tree: Tree,
  path: string | undefined,
  options: ListOptions = {},
): TreeOutcome<unknown[]> {
  const at = locate(tree, path ?? ".");
  if ("failure" in at) return at;
  const shown = (name: string, node: Node): unknown => {
    const folder = isFolder(node, tree.nodes);
    if (options.entries) return entryOf(name, node, folder, options.entries);
    return options.tags ? `${folder ? options.tags.folder : options.tags.file} ${name}` : name;
  };
  if (!isFolder(at.node, tree.nodes))
    return options.foldersOnly
      ? failed("not-folder", at.segments)
      : done(tree.top, [shown(baseName(at.segments), at.node)]);
  const children = Object.entries(childrenOf(at.node, tree.nodes));
  const visible = options.all ? children : children.filter(([name]) => !name.startsWith("."));
  const ordered = options.sorted ? [...visible].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : visible;
  return done(
    tree.top,
    ordered.map(([name, node]) => shown(name, node)),
  );
}

function entryOf(name: string, node: Node, folder: boolean, entries: EntryFields): Record<string, unknown> {
  const entry: Record<string, unknown> = { [entries.name]: name };
  if (entries.kind) entry[entries.kind.field] = folder ? entries.kind.folder : entries.kind.file;
  for (const field of entries.fields ?? [])
    if (isPlainObject(node) && node[field] !== undefined) entry[field] = node[field];
  return entry;
}

/** A node of a nested listing: a folder's entry has its children, a file's none. */
export interface NestedNode {
  name: string;
  type: string;
  children?: NestedNode[];
}

/** Everything under a folder, nested (`tree`), each node's type in the words given. */
export function nested(
  tree: Tree,
  path: string | undefined,
  types: { file: string; folder: string },
): TreeOutcome<NestedNode[]> {
  const at = locate(tree, path ?? ".");
  if ("failure" in at) return at;
  const nodeOf = (name: string, node: Node): NestedNode =>
    isFolder(node, tree.nodes)
      ? { name, type: types.folder, children: childrenList(node) }
      : { name, type: types.file };
  const childrenList = (folder: Node): NestedNode[] =>
    Object.entries(childrenOf(folder, tree.nodes)).map(([name, node]) => nodeOf(name, node));
  if (!isFolder(at.node, tree.nodes)) return failed("not-folder", at.segments);
  return done(tree.top, childrenList(at.node));
}

/** Changes the current folder; answers the new one. */
export function cd(tree: Tree, path: string): TreeOutcome<string> {
  const at = locate(tree, path);
  if ("failure" in at) return at;
  if (!isFolder(at.node, tree.nodes)) return failed("not-folder", at.segments);
  const cwd = pathText(at.segments);
  return { ok: true, top: tree.top, value: cwd, cwd };
}

/** A file's text. */
export function read(tree: Tree, path: string): TreeOutcome<string> {
  const at = locate(tree, path);
  if ("failure" in at) return at;
  if (isFolder(at.node, tree.nodes)) return failed("is-folder", at.segments);
  return done(tree.top, contentOf(at.node, tree.nodes));
}

export interface NodeInfo {
  name: string;
  path: string;
  /** What the node is, in the tree's own words (`directory`) where it has them, else folder or file. */
  type: string;
  size: number;
}

export function info(tree: Tree, path: string | undefined): TreeOutcome<NodeInfo> {
  const at = locate(tree, path ?? ".");
  if ("failure" in at) return at;
  return done(tree.top, {
    name: baseName(at.segments),
    path: pathText(at.segments),
    type: isFolder(at.node, tree.nodes)
      ? (tree.nodes.kind?.folder ?? "folder")
      : (tree.nodes.kind?.file ?? "file"),
    size: sizeOf(at.node, tree.nodes),
  });
}

/** Bytes of text under a path (a file's own, or everything below a folder). */
export function size(tree: Tree, path: string | undefined): TreeOutcome<number> {
  const at = locate(tree, path ?? ".");
  if ("failure" in at) return at;
  return done(tree.top, sizeOf(at.node, tree.nodes));
}

export interface FindOptions {
  /** Answer absolute paths, whatever path the search started from. */
  absolute?: boolean;
  /** A name to look for: whole names with shell wildcards, or any name containing it. */
  name?: string;
  match?: "glob" | "contains";
  /** Only folders, or only files. */
  type?: "folder" | "file";
}

/**
 * Everything below a folder whose name matches, depth first in the folder's order, as paths
 * that start with the path given (`find .` answers `./a/b`), the way POSIX find prints them.
 */
export function find(tree: Tree, path: string | undefined, options: FindOptions = {}): TreeOutcome<string[]> {
  const given = path === undefined || path.trim() === "" ? "." : path.trim();
  const at = locate(tree, given);
  if ("failure" in at) return at;
  const test = nameTest(options);
  const prefix = options.absolute
    ? at.segments.length === 0
      ? ""
      : pathText(at.segments)
    : given === "/"
      ? ""
      : given.replace(/\/+$/, "");
  const found: string[] = [];
  const visit = (node: Node, shown: string) => {
    if (!isFolder(node, tree.nodes)) return;
    for (const [name, child] of Object.entries(childrenOf(node, tree.nodes))) {
      const childPath = `${shown}/${name}`;
      const kind = isFolder(child, tree.nodes) ? "folder" : "file";
      if (test(name) && (!options.type || options.type === kind)) found.push(childPath);
      visit(child, childPath);
    }
  };
  visit(at.node, prefix);
  return done(tree.top, found);
}

function nameTest(options: FindOptions): (name: string) => boolean {
  const wanted = options.name;
  if (wanted === undefined || wanted === "") return () => true;
  if (options.match === "contains") return (name) => name.includes(wanted);
  return globTest(wanted);
}

// ── changing ────────────────────────────────────────────────────────────────

/**
 * A new folder; its parent must exist unless `parents`; a name already taken is refused,
 * except by a folder when `existOk` (as `mkdir -p` and `makedirs(exist_ok=True)` do).
 */
export function mkdir(tree: Tree, path: string, parents = false, existOk = parents): TreeOutcome<string> {
  const target = resolveOrFail(tree, path);
  if ("failure" in target) return target;
  if (target.segments.length === 0) return failed("exists", target.segments);
  const existing = nodeAt(tree, target.segments);
  if (existing !== undefined) {
    if (existOk && isFolder(existing, tree.nodes)) return done(tree.top, pathText(target.segments));
    return failed("exists", target.segments);
  }
  const above = parents ? withParents(tree, target.segments) : { tree };
  if ("failure" in above) return above;
  return create(above.tree, target.segments, newFolder(tree.nodes));
}

/** The tree with every missing folder above the path made (`mkdir -p`); a file in the way fails. */
function withParents(tree: Tree, segments: Segments): { tree: Tree } | { ok: false; failure: TreeError } {
  let top = tree.top;
  for (let depth = 1; depth < segments.length; depth++) {
    const step = segments.slice(0, depth);
    const node = nodeAt({ ...tree, top }, step);
    if (node === undefined) top = put({ ...tree, top }, step, newFolder(tree.nodes));
    else if (!isFolder(node, tree.nodes)) return failed("not-folder", step);
  }
  return { tree: { ...tree, top } };
}

/**
 * A new empty file. A name already taken changes nothing (POSIX touch), unless the tool
 * documents that it refuses one (`refuseExisting`).
 */
export function touch(tree: Tree, path: string, refuseExisting = false): TreeOutcome<string> {
  const target = resolveOrFail(tree, path);
  if ("failure" in target) return target;
  const existing = nodeAt(tree, target.segments);
  if (existing !== undefined) {
    if (refuseExisting || target.segments.length === 0) return failed("exists", target.segments);
    return done(tree.top, pathText(target.segments));
  }
  return create(tree, target.segments, newFile("", tree.nodes));
}

export interface WriteOptions {
  /** Make the file when it does not exist (otherwise: missing). */
  create?: boolean;
  /** Add to the end instead of replacing. */
  append?: boolean;
  /** Make missing folders above a file it creates (a world that knows no folders yet). */
  parents?: boolean;
}

export function write(
  tree: Tree,
  path: string,
  text: string,
  options: WriteOptions = {},
): TreeOutcome<string> {
  const target = resolveOrFail(tree, path);
  if ("failure" in target) return target;
  const existing = nodeAt(tree, target.segments);
  if (existing === undefined) {
    if (!options.create) return failed("missing", target.segments);
    const above = options.parents ? withParents(tree, target.segments) : { tree };
    if ("failure" in above) return above;
    return create(above.tree, target.segments, newFile(text, tree.nodes));
  }
  if (isFolder(existing, tree.nodes)) return failed("is-folder", target.segments);
  const before = options.append ? contentOf(existing, tree.nodes) : "";
  const changed = withContent(existing, before + text, tree.nodes);
  return done(put(tree, target.segments, changed), pathText(target.segments));
}

/**
 * Edits a file's text in place (see applyEdits); an edit whose text is not found changes
 * nothing and fails as `invalid`, with the edit named in the detail.
 */
export function edit(tree: Tree, path: string, edits: readonly TextEdit[]): TreeOutcome<EditedText> {
  const at = locate(tree, path);
  if ("failure" in at) return at;
  if (isFolder(at.node, tree.nodes)) return failed("is-folder", at.segments);
  const edited = applyEdits(contentOf(at.node, tree.nodes), edits);
  if (!edited.ok) return failed("invalid", at.segments, edited.message);
  return done(put(tree, at.segments, withContent(at.node, edited.text, tree.nodes)), edited);
}

/** Where a move or a copy lands when something is already at the destination. */
export interface RelocateOptions {
  /** A folder at the destination receives the source under its own name (mv); otherwise it is in the way. Default true. */
  into?: boolean;
  /** A file at the destination is replaced (mv, rename(2)); otherwise it is in the way. Default true. */
  replace?: boolean;
}

/**
 * Moves (or renames): into `to` when it is a folder, keeping the name; otherwise to `to`
 * itself, replacing a file there but never a folder. Tools that refuse any existing
 * destination say so with `{into: false, replace: false}`.
 */
export function move(
  tree: Tree,
  from: string,
  to: string,
  options: RelocateOptions = {},
): TreeOutcome<string> {
  return relocate(tree, from, to, true, options);
}

/** Copies, with the same rule for where the copy lands as a move. */
export function copy(
  tree: Tree,
  from: string,
  to: string,
  options: RelocateOptions = {},
): TreeOutcome<string> {
  return relocate(tree, from, to, false, options);
}

export interface RemoveOptions {
  /** What may be removed: files only, folders only, or either. */
  kinds?: "file" | "folder" | "any";
  /** A folder must be empty (rmdir). */
  emptyOnly?: boolean;
}

export function remove(tree: Tree, path: string, options: RemoveOptions = {}): TreeOutcome<string> {
  const at = locate(tree, path);
  if ("failure" in at) return at;
  if (at.segments.length === 0) return failed("invalid", at.segments, "the root cannot be removed");
  const folder = isFolder(at.node, tree.nodes);
  const kinds = options.kinds ?? "any";
  if (folder && kinds === "file") return failed("is-folder", at.segments);
  if (!folder && kinds === "folder") return failed("not-folder", at.segments);
  if (folder && options.emptyOnly && Object.keys(childrenOf(at.node, tree.nodes)).length > 0)
    return failed("not-empty", at.segments);
  const top = put(tree, at.segments, undefined);
  // a removed current folder leaves the session in the folder above it
  const cwd = isWithin(segmentsOf(tree.cwd), at.segments) ? pathText(at.segments.slice(0, -1)) : undefined;
  return { ok: true, top, value: pathText(at.segments), ...(cwd !== undefined ? { cwd } : {}) };
}

function relocate(
  tree: Tree,
  from: string,
  to: string,
  removeSource: boolean,
  options: RelocateOptions,
): TreeOutcome<string> {
  const source = locate(tree, from);
  if ("failure" in source) return source;
  if (source.segments.length === 0) return failed("invalid", source.segments, "the root cannot be moved");
  const destination = resolveOrFail(tree, to);
  if ("failure" in destination) return destination;
  let landing = destination.segments;
  const there = nodeAt(tree, landing);
  const thereIsFolder = there !== undefined && isFolder(there, tree.nodes);
  if (thereIsFolder && options.into !== false) {
    landing = [...landing, baseName(source.segments)];
    const inside = nodeAt(tree, landing);
    if (inside !== undefined) return failed("exists", landing);
  } else if (there !== undefined && (thereIsFolder || options.replace === false)) {
    return failed("exists", landing);
  } else if (there !== undefined && isFolder(source.node, tree.nodes)) {
    return failed("not-folder", destination.segments);
  }
  if (isWithin(landing, source.segments))
    return failed("invalid", landing, `cannot put ${pathText(source.segments)} inside itself`);
  const parent = nodeAt(tree, landing.slice(0, -1));
  if (parent === undefined) return failed("missing", landing.slice(0, -1));
  if (!isFolder(parent, tree.nodes)) return failed("not-folder", landing.slice(0, -1));
  if (pathText(landing) === pathText(source.segments)) return done(tree.top, pathText(landing));
  const moved = removeSource ? put(tree, source.segments, undefined) : tree.top;
  const top = put({ ...tree, top: moved }, landing, structuredClone(source.node));
  const cwd =
    removeSource && isWithin(segmentsOf(tree.cwd), source.segments)
      ? pathText([...landing, ...segmentsOf(tree.cwd).slice(source.segments.length)])
      : undefined;
  return { ok: true, top, value: pathText(landing), ...(cwd !== undefined ? { cwd } : {}) };
}

function create(tree: Tree, segments: Segments, node: Node): TreeOutcome<string> {
  const parent = nodeAt(tree, segments.slice(0, -1));
  if (parent === undefined) return failed("missing", segments.slice(0, -1));
  if (!isFolder(parent, tree.nodes)) return failed("not-folder", segments.slice(0, -1));
  return done(put(tree, segments, node), pathText(segments));
}

// ── nodes ─────────────────────────────────────────────────────────────────────

export function isFolder(node: Node, nodes: NodeConventions): boolean {
  if (!isPlainObject(node)) return false;
  if (nodes.kind) return node[nodes.kind.field] === nodes.kind.folder;
  if (nodes.children) return isPlainObject(node[nodes.children]);
  return true;
}

function childrenOf(folder: Node, nodes: NodeConventions): Record<string, unknown> {
  if (!isPlainObject(folder)) return {};
  if (!nodes.children) return folder;
  const children = folder[nodes.children];
  return isPlainObject(children) ? children : {};
}

function withChildren(folder: Node, children: Record<string, unknown>, nodes: NodeConventions): Node {
  if (!nodes.children) return children;
  return { ...(isPlainObject(folder) ? folder : {}), [nodes.children]: children };
}

function contentOf(file: Node, nodes: NodeConventions): string {
  const value = nodes.content && isPlainObject(file) ? file[nodes.content] : file;
  return typeof value === "string"
    ? value
    : value === undefined || value === null
      ? ""
      : JSON.stringify(value);
}

function withContent(file: Node, text: string, nodes: NodeConventions): Node {
  if (!nodes.content || !isPlainObject(file)) return text;
  return { ...file, [nodes.content]: text };
}

function newFolder(nodes: NodeConventions): Node {
  const folder: Record<string, unknown> = {};
  if (nodes.kind) folder[nodes.kind.field] = nodes.kind.folder;
  return nodes.children ? { ...folder, [nodes.children]: {} } : {};
}

function newFile(text: string, nodes: NodeConventions): Node {
  if (!nodes.content) return text;
  const file: Record<string, unknown> = {};
  if (nodes.kind) file[nodes.kind.field] = nodes.kind.file;
  file[nodes.content] = text;
  return file;
}

function sizeOf(node: Node, nodes: NodeConventions): number {
  if (!isFolder(node, nodes)) return Buffer.byteLength(contentOf(node, nodes), "utf8");
  let total = 0;
  for (const child of Object.values(childrenOf(node, nodes))) total += sizeOf(child, nodes);
  return total;
}

/** The node at a path; the root is a folder whose children are the top. */
function nodeAt(tree: Pick<Tree, "top" | "nodes">, segments: Segments): Node | undefined {
  let node: Node = withChildren(newFolder(tree.nodes), tree.top, tree.nodes);
  for (const name of segments) {
    if (!isFolder(node, tree.nodes)) return undefined;
    const children = childrenOf(node, tree.nodes);
    if (!Object.hasOwn(children, name)) return undefined;
    node = children[name];
  }
  return node;
}

/** The top with the node at a path replaced (or removed, for undefined), copying only the path. */
function put(
  tree: Pick<Tree, "top" | "nodes">,
  segments: Segments,
  node: Node | undefined,
): Record<string, unknown> {
  const replace = (folderChildren: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const name = segments[depth] as string;
    const out = { ...folderChildren };
    if (depth === segments.length - 1) {
      if (node === undefined) delete out[name];
      else out[name] = node;
      return out;
    }
    const child = folderChildren[name];
    out[name] = withChildren(child, replace(childrenOf(child, tree.nodes), depth + 1), tree.nodes);
    return out;
  };
  return segments.length === 0 ? tree.top : replace(tree.top, 0);
}

function locate(
  tree: Tree,
  path: string,
): { segments: string[]; node: Node } | { ok: false; failure: TreeError } {
  const target = resolveOrFail(tree, path);
  if ("failure" in target) return target;
  const node = nodeAt(tree, target.segments);
  if (node === undefined) return failed("missing", target.segments);
  return { segments: target.segments, node };
}

function resolveOrFail(tree: Tree, path: string): { segments: string[] } | { ok: false; failure: TreeError } {
  const segments = resolvePath(path, segmentsOf(tree.cwd));
  if (!segments) return { ok: false, failure: { error: "invalid", path, detail: "an empty path" } };
  return { segments };
}

function done<T>(top: Record<string, unknown>, value: T): TreeChange<T> {
  return { ok: true, top, value };
}

function failed(
  error: TreeErrorKind,
  segments: Segments,
  detail?: string,
): { ok: false; failure: TreeError } {
  return { ok: false, failure: { error, path: pathText(segments), ...(detail ? { detail } : {}) } };
}
