import { posix } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { isPlainObject } from "../patch/index.js";
import { wordsOf } from "../simulate/index.js";
import { isPathLike, isUnder, scalarIdentifiers } from "./identifiers.js";
import { dataOf, type Overlay, simulatedAt, simulatedTouches, type Touch } from "./overlay.js";

/**
 * A folder listing that passed through, made to agree with the session's simulated changes:
 * what the session created or moved in is added, what it deleted or moved away is dropped.
 * Two shapes of listing are understood: one entry per line with an optional tag
 * (`[FILE] a.txt`, `[DIR] notes`), and a JSON tree of `{name, type, children}`. A search's
 * answer only loses what the session removed. What a listing cannot show is named in the
 * note the extension adds.
 */

/** Words in a tool's name that say it lists a folder's contents. */
const LISTING_WORDS = new Set(["list", "ls", "tree", "directory", "dir", "folder"]);
/** Words that say it searches one: only what the session removed is dropped, nothing is added. */
const SEARCH_WORDS = new Set(["search", "find", "glob"]);
/** Words in a simulated tool's name that say the thing it made is a folder. */
const FOLDER_WORDS = new Set(["directory", "dir", "folder", "mkdir", "mkdirs"]);

type Kind = "file" | "folder";

interface Entry {
  name: string;
  kind: Kind;
  /** The simulated records this entry stands for. */
  keys: string[];
  /** Moved here from this real path (its kind is the source's). */
  from?: string;
}

/** What the session changed directly inside one folder. */
interface FolderChanges {
  folder: string;
  present: Map<string, Entry>;
  removed: Map<string, Entry>;
  /** Every simulated record under the folder, at any depth. */
  below: Touch[];
}

export interface ReconciledListing {
  result: CallToolResult;
  /** Keys of the simulated records the listing now shows (or, removed, no longer shows). */
  applied: Set<string>;
}

/**
 * Lays the session's changes over a real listing of the folder the call names. The text
 * blocks are rewritten, and structured string fields that held the same text with them.
 */
export function reconcileListing(
  tool: { original: string; description?: string },
  args: Record<string, unknown>,
  overlay: Overlay,
  result: CallToolResult,
  /** Real listings of the folders entries were moved in from (see sourceFolders), by folder. */
  sources: ReadonlyMap<string, string> = new Map(),
): ReconciledListing {
  const applied = new Set<string>();
  const words = wordsOf(tool.original);
  const searches = words.some((w) => SEARCH_WORDS.has(w));
  if (!searches && !words.some((w) => LISTING_WORDS.has(w))) return { result, applied };
  let current = result;
  for (const identifier of scalarIdentifiers(args)) {
    if (!isPathLike(identifier.key)) continue;
    const changes = folderChanges(overlay, identifier.key);
    if (changes.below.length === 0) continue;
    const rewrite = (text: string) =>
      searches
        ? dropRemoved(text, changes, applied)
        : reconcileText(text, changes, { description: tool.description ?? "", sources }, applied);
    current = rewriteTexts(current, rewrite);
  }
  return { result: current, applied };
}

/**
 * The listing of a folder that exists only in this session's simulation, built from the
 * overlay alone: one entry per line, or a JSON tree when the tool's description says JSON.
 * Only for tools whose output is one text field; undefined otherwise, or when the call does
 * not name such a folder.
 */
export function listingOfSimulatedFolder(
  tool: { description?: string; outputSchema?: Record<string, unknown> },
  original: string,
  args: Record<string, unknown>,
  overlay: Overlay,
): Record<string, unknown> | undefined {
  if (!wordsOf(original).some((w) => LISTING_WORDS.has(w))) return undefined;
  const properties = isPlainObject(tool.outputSchema?.properties) ? tool.outputSchema.properties : {};
  const fields = Object.entries(properties);
  const [field, schema] = fields[0] ?? [];
  if (fields.length !== 1 || !field || !isPlainObject(schema) || schema.type !== "string") return undefined;
  const folder = scalarIdentifiers(args).find((identifier) => {
    const touch = simulatedAt(overlay, identifier.key);
    return touch && !touch.meta.deleted && !touch.meta.aliasOf && kindOf(touch) === "folder";
  });
  if (!folder) return undefined;
  const description = tool.description ?? "";
  const empty = /\bJSON\b/.test(description) ? "[]" : "";
  const changes = folderChanges(overlay, folder.key);
  return { [field]: reconcileText(empty, changes, { description, sources: new Map() }, new Set()) };
}

/**
 * The folders whose real listing says what an entry moved into a listed folder is (a file or
 * a folder): the sources' parents, but for the listed folder itself. The caller lists them
 * with the same tool and hands the texts to reconcileListing.
 */
export function sourceFolders(
  original: string,
  args: Record<string, unknown>,
  overlay: Overlay,
): Array<{ argument: string; folder: string }> {
  if (!wordsOf(original).some((w) => LISTING_WORDS.has(w))) return [];
  const wanted = new Map<string, string>();
  for (const identifier of scalarIdentifiers(args)) {
    if (!isPathLike(identifier.key)) continue;
    for (const touch of folderChanges(overlay, identifier.key).below) {
      const from = touch.meta.deleted ? undefined : touch.meta.aliasOf;
      if (!from || !isPathLike(from)) continue;
      const parent = posix.dirname(from);
      if (parent !== identifier.key) wanted.set(parent, identifier.argument);
    }
  }
  return [...wanted].map(([folder, argument]) => ({ argument, folder }));
}

function rewriteTexts(result: CallToolResult, rewrite: (text: string) => string): CallToolResult {
  const rewritten = new Map<string, string>();
  const content = result.content.map((block) => {
    if (block.type !== "text") return block;
    const text = rewrite(block.text);
    rewritten.set(block.text, text);
    return { ...block, text };
  });
  const structured = isPlainObject(result.structuredContent)
    ? Object.fromEntries(
        Object.entries(result.structuredContent).map(([field, value]) => [
          field,
          typeof value === "string" ? (rewritten.get(value) ?? value) : value,
        ]),
      )
    : undefined;
  return { ...result, content, ...(structured ? { structuredContent: structured } : {}) };
}

function folderChanges(overlay: Overlay, folder: string): FolderChanges {
  const below = simulatedTouches(overlay).filter((t) => isUnder(t.key, folder));
  const present = new Map<string, Entry>();
  const removed = new Map<string, Entry>();
  for (const touch of below) {
    const [name, ...deeper] = posix.relative(folder, touch.key).split("/");
    if (!name) continue;
    if (deeper.length === 0 && touch.meta.deleted) {
      removed.set(name, { name, kind: kindOf(touch), keys: [touch.key] });
      continue;
    }
    if (touch.meta.deleted) continue;
    const kind = deeper.length > 0 ? "folder" : kindOf(touch);
    const from = deeper.length === 0 ? touch.meta.aliasOf : undefined;
    const entry = present.get(name);
    if (entry) {
      entry.keys.push(touch.key);
      if (kind === "folder") entry.kind = "folder";
      if (from) entry.from = from;
    } else present.set(name, { name, kind, keys: [touch.key], ...(from ? { from } : {}) });
  }
  for (const name of present.keys()) removed.delete(name);
  return { folder, present, removed, below };
}

function kindOf(touch: Touch): Kind {
  const made = wordsOf(touch.meta.tool).some((w) => FOLDER_WORDS.has(w));
  return made && dataOf(touch.record).content === undefined ? "folder" : "file";
}

interface ListingHints {
  /** The tool's description, which may name its tags (`[FILE]`, `[DIR]`) or say it answers JSON. */
  description: string;
  /** Real listings of the folders entries were moved in from, by folder. */
  sources: ReadonlyMap<string, string>;
}

function reconcileText(
  text: string,
  changes: FolderChanges,
  hints: ListingHints,
  applied: Set<string>,
): string {
  const tree = parseTree(text);
  if (tree) return reconcileTree(text, tree, changes, hints.sources, applied);
  return reconcileLines(text.split("\n"), changes, hints, applied);
}

// ── one entry per line ───────────────────────────────────────────────────────

const TAGGED = /^(\s*(?:\[[^\]\n]*\]|[-*•])\s+)?(.*)$/;

interface Line {
  text: string;
  tag: string;
  /** The entry's name, if the line names one. */
  name?: string;
}

function reconcileLines(
  lines: readonly string[],
  changes: FolderChanges,
  hints: ListingHints,
  applied: Set<string>,
): string {
  const known = new Set([...changes.present.keys(), ...changes.removed.keys()]);
  const parsed = lines.map((text): Line => {
    const [, tag = "", rest = ""] = TAGGED.exec(text) ?? [];
    const name = [...known].find((n) => rest === n || rest.startsWith(`${n} `) || rest.startsWith(`${n}/`));
    return { text, tag, ...(name ? { name } : {}) };
  });
  const kept = parsed.filter((line) => !(line.name && changes.removed.has(line.name)));
  const shown = new Set(kept.map((line) => line.name).filter(Boolean));
  const tags = entryTags(parsed, hints.description);
  const added: string[] = [];
  for (const entry of changes.present.values()) {
    if (shown.has(entry.name)) continue;
    // moved in: it keeps the tag its source has in the real listing of the source's folder
    const tag = entry.from ? sourceTag(entry.from, changes.folder, lines, hints.sources) : undefined;
    added.push(`${tag ?? tags[entry.kind]}${entry.name}`);
  }
  // a flat listing shows all it can of what changed below it: its entries
  for (const touch of changes.below) applied.add(touch.key);
  added.sort((a, b) => compareNames(nameOf(a), nameOf(b)));
  const texts = kept.map((line) => line.text);
  if (added.length === 0) return texts.join("\n");
  if (texts.every((line) => line.trim() === "")) return added.join("\n");
  // new entries go after the last line that looks like an entry, before a blank line and a summary
  const blank = texts.findIndex((line) => line.trim() === "");
  const at = blank < 0 ? texts.length : blank;
  const entries = texts.slice(0, at);
  const sorted =
    entries.length > 1 && entries.every((line, i) => i === 0 || nameOf(entries[i - 1]) <= nameOf(line));
  const merged = sorted
    ? [...entries, ...added].sort((a, b) => compareNames(nameOf(a), nameOf(b)))
    : [...entries, ...added];
  return [...merged, ...texts.slice(at)].join("\n");
}

/** The tag of a path's entry in the real listing of its folder (the listed one, or a source's). */
function sourceTag(
  path: string,
  folder: string,
  lines: readonly string[],
  sources: ReadonlyMap<string, string>,
): string | undefined {
  const parent = posix.dirname(path);
  const listing = parent === folder ? lines : sources.get(parent)?.split("\n");
  const name = posix.basename(path);
  for (const line of listing ?? []) {
    const [, tag = "", rest = ""] = TAGGED.exec(line) ?? [];
    if (tag.trim() !== "" && (rest === name || rest.startsWith(`${name} `))) return tag.trimStart();
  }
  return undefined;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function nameOf(line: string | undefined): string {
  return (TAGGED.exec(line ?? "")?.[2] ?? "").toLowerCase();
}

/** The tag a new entry of each kind gets: as the listing's own lines have it, or as the tool's description says. */
function entryTags(lines: readonly Line[], description: string): Record<Kind, string> {
  const tagged = lines.map((line) => line.tag).filter((tag) => tag.trim() !== "");
  const described = [...description.matchAll(/\[[A-Za-z_ -]{1,20}\]/g)].map((m) => `${m[0]} `);
  const candidates = [...tagged, ...described];
  const folder = candidates.find((tag) => /dir|folder/i.test(tag));
  const file = candidates.find((tag) => /file/i.test(tag));
  const common = tagged[0] ?? "";
  return { folder: (folder ?? common).trimStart(), file: (file ?? common).trimStart() };
}

// ── searches ─────────────────────────────────────────────────────────────────

/**
 * A search's answer loses what the session removed (lines that are, or lie below, a removed
 * path). What the session created is not added, because whether it matches the search is the
 * server's to say; the note names it.
 */
function dropRemoved(text: string, changes: FolderChanges, applied: Set<string>): string {
  const removed = changes.below.filter((touch) => touch.meta.deleted).map((touch) => touch.key);
  if (removed.length === 0) return text;
  for (const key of removed) applied.add(key);
  const gone = (line: string) => removed.some((key) => line.trim() === key || isUnder(line.trim(), key));
  return text
    .split("\n")
    .filter((line) => !gone(line))
    .join("\n");
}

// ── a JSON tree of {name, type, children} ────────────────────────────────────

interface TreeNode {
  name: string;
  type?: unknown;
  children?: TreeNode[];
  [field: string]: unknown;
}

function parseTree(text: string): TreeNode[] | undefined {
  if (!text.trimStart().startsWith("[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((n) => isPlainObject(n) && typeof n.name === "string")
      ? (parsed as TreeNode[])
      : undefined;
  } catch {
    return undefined;
  }
}

function reconcileTree(
  text: string,
  tree: TreeNode[],
  changes: FolderChanges,
  sources: ReadonlyMap<string, string>,
  applied: Set<string>,
): string {
  const types = treeTypes(tree);
  const walk = (nodes: TreeNode[], folder: string): TreeNode[] => {
    const here = folderChanges(overlayOfTouches(changes.below), folder);
    const kept = nodes.filter((node) => !here.removed.has(node.name));
    for (const entry of here.removed.values()) for (const key of entry.keys) applied.add(key);
    const names = new Set(kept.map((node) => node.name));
    for (const entry of here.present.values()) {
      for (const key of entry.keys) applied.add(key);
      if (names.has(entry.name)) continue;
      // moved from somewhere in this tree: the node moves, with its type and children
      const source = entry.from ? movedNode(tree, changes.folder, entry.from, sources) : undefined;
      kept.push(
        source
          ? { ...source, name: entry.name }
          : entry.kind === "folder"
            ? { name: entry.name, type: types.folder, children: [] }
            : { name: entry.name, type: types.file },
      );
    }
    return kept.map((node) =>
      Array.isArray(node.children)
        ? { ...node, children: walk(node.children, `${folder}/${node.name}`) }
        : node,
    );
  };
  const indent = /^\[\s*\n( +)/.exec(text)?.[1]?.length ?? 0;
  return JSON.stringify(walk(tree, changes.folder), null, indent || undefined);
}

/** The real node of a moved entry's source: in this tree, or in the real tree of its folder. */
function movedNode(
  tree: readonly TreeNode[],
  root: string,
  from: string,
  sources: ReadonlyMap<string, string>,
): TreeNode | undefined {
  const here = nodeAt(tree, root, from);
  if (here) return here;
  const listed = parseTree(sources.get(posix.dirname(from)) ?? "");
  return listed?.find((node) => node.name === posix.basename(from));
}

/** The node of a path in a tree listed from `root`, if the tree shows it. */
function nodeAt(tree: readonly TreeNode[], root: string, path: string): TreeNode | undefined {
  if (!isUnder(path, root)) return undefined;
  let nodes: readonly TreeNode[] | undefined = tree;
  let found: TreeNode | undefined;
  for (const name of posix.relative(root, path).split("/")) {
    found = nodes?.find((node) => node.name === name);
    nodes = found?.children;
  }
  return found;
}

/** The `type` values the tree uses for folders (nodes with children) and files. */
function treeTypes(tree: readonly TreeNode[]): Record<Kind, unknown> {
  const types: Record<Kind, unknown> = { folder: "directory", file: "file" };
  const visit = (nodes: readonly TreeNode[]) => {
    for (const node of nodes) {
      if (node.type === undefined) continue;
      if (Array.isArray(node.children)) {
        types.folder = node.type;
        visit(node.children);
      } else types.file = node.type;
    }
  };
  visit(tree);
  return types;
}

/** An overlay holding only these touches, to ask what changed in one subfolder. */
function overlayOfTouches(touches: readonly Touch[]): Overlay {
  const overlay: Overlay = {};
  for (const touch of touches) {
    const records = overlay[touch.collection] ?? {};
    records[touch.key] = touch.record;
    overlay[touch.collection] = records;
  }
  return overlay;
}
