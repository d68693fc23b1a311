import { isPlainObject } from "../patch/index.js";
import type { sparse } from "../world/index.js";

/**
 * Folder listings in the shapes servers answer them, read and written again: one entry per
 * line with an optional tag (`[FILE] a.txt`, `[DIR] notes`), with or without a size column
 * and a summary after a blank line (`Total: 2 files, 1 directories`), and JSON trees of
 * `{name, type, children}`. A listing is rewritten from the real one of the same folder (or
 * of another, as a frame): its own lines for the entries that did not change, new lines in
 * its own style for the rest.
 */

// ── reading ─────────────────────────────────────────────────────────────────

const TAGGED = /^(\s*(?:\[[^\]\n]*\]|[-*•])\s+)?(.*)$/;

/** A listing's entries with their kinds (tags that name a folder make a folder; the rest are files). */
export function parseListing(text: string): Record<string, sparse.EntryKind> {
  const tree = parseTree(text);
  if (tree) return Object.fromEntries(tree.map((node) => [node.name, node.children ? "folder" : "file"]));
  const entries: Record<string, sparse.EntryKind> = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") break;
    const [, tag = "", name = ""] = TAGGED.exec(line) ?? [];
    if (name === "") continue;
    entries[name] = /dir|folder/i.test(tag) ? "folder" : "file";
  }
  return entries;
}

export interface ParsedTree {
  name: string;
  type?: unknown;
  children?: ParsedTree[];
  [field: string]: unknown;
}

/** A JSON tree of `{name, children}` nodes, or undefined when the text is not one. */
export function parseTree(text: string): ParsedTree[] | undefined {
  if (!text.trimStart().startsWith("[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((n) => isPlainObject(n) && typeof n.name === "string")
      ? (parsed as ParsedTree[])
      : undefined;
  } catch {
    return undefined;
  }
}

// ── one entry per line ───────────────────────────────────────────────────────

export interface ListedEntry {
  name: string;
  kind: sparse.EntryKind;
  /** Bytes of a file, when known. */
  size?: number;
  /** The frame shows this very entry as it is: its line is kept. */
  asListed: boolean;
}

interface Line {
  text: string;
  tag: string;
  name?: string;
  /** The size text at the end of the line (`26 B`), if the listing has sizes. */
  size?: string;
}

const SIZE = /(\d+(?:\.\d+)?) ?(B|KB|MB|GB|TB|bytes)?\s*$/;

/**
 * The entries as the frame's tool would list them: the frame's own lines for entries it
 * lists as they are, new lines in its style (tags, columns, sizes) for the others, in its
 * order when it is sorted, and its summary counted again.
 */
export function renderLines(
  frame: string,
  entries: readonly ListedEntry[],
  hints: { description: string; bySize?: boolean },
): string {
  const all = frame === "" ? [] : frame.split("\n");
  const blank = all.findIndex((line) => line.trim() === "");
  const entryTexts = blank < 0 ? all : all.slice(0, blank);
  const summary = blank < 0 ? [] : all.slice(blank);
  const names = new Set(entries.map((e) => e.name));
  const lines = entryTexts.map((text) => parseLine(text, names));
  const layout = layoutOf(lines, hints.description);
  const kept = new Map<string, Line>();
  for (const line of lines) if (line.name !== undefined) kept.set(line.name, line);
  const rendered: Array<{ entry: ListedEntry; text: string; size?: number }> = [];
  for (const entry of entries) {
    const own = kept.get(entry.name);
    if (entry.asListed && own)
      rendered.push({ entry, text: own.text, size: entry.size ?? bytesOf(own.size) });
    else
      rendered.push({
        entry,
        text: layout.line(entry),
        ...(entry.size !== undefined ? { size: entry.size } : {}),
      });
  }
  const order = orderOf(lines, hints.bySize === true);
  if (order === "name") rendered.sort((a, b) => a.entry.name.localeCompare(b.entry.name));
  else if (order === "size")
    rendered.sort((a, b) => (b.size ?? folderSize(b.entry)) - (a.size ?? folderSize(a.entry)));
  else {
    // unsorted: the frame's own lines first, in its order, then the new ones
    const position = new Map(lines.map((line, i) => [line.name, i]));
    rendered.sort(
      (a, b) =>
        (position.get(a.entry.name) ?? Number.MAX_SAFE_INTEGER) -
        (position.get(b.entry.name) ?? Number.MAX_SAFE_INTEGER),
    );
  }
  const counted = summary.map((line) => recount(line, rendered));
  return [...rendered.map((r) => r.text), ...counted].join("\n");
}

function parseLine(text: string, names: ReadonlySet<string>): Line {
  const [, tag = "", rest = ""] = TAGGED.exec(text) ?? [];
  const size = SIZE.exec(rest);
  // the entry's name is the longest known name the line starts with, followed by its end or a space
  let name: string | undefined;
  for (const candidate of names)
    if (
      (rest === candidate || rest.startsWith(`${candidate} `)) &&
      (name === undefined || candidate.length > name.length)
    )
      name = candidate;
  if (name === undefined) name = size && rest.includes("  ") ? rest.slice(0, rest.indexOf("  ")) : rest;
  const sized = size && rest.length > (name?.length ?? 0) ? size[0].trim() : undefined;
  return { text, tag, name, ...(sized ? { size: sized } : {}) };
}

interface Layout {
  line(entry: ListedEntry): string;
}

/** How the frame writes an entry: its tags for files and folders, and its columns when it has sizes. */
function layoutOf(lines: readonly Line[], description: string): Layout {
  const tags = entryTags(lines, description);
  const fileLines = lines.filter(
    (l) => l.size !== undefined && l.tag.trim() !== "" && !/dir|folder/i.test(l.tag),
  );
  // folder lines padded to a column (they end in spaces) are padded the same way
  const folderLines = lines.filter((l) => /dir|folder/i.test(l.tag) && l.text !== l.text.trimEnd());
  const width = (texts: readonly Line[]) => mostCommon(texts.map((l) => l.text.length));
  const fileWidth = width(fileLines);
  const folderWidth = width(folderLines);
  const sizeStyle = fileLines.find((l) => l.size)?.size;
  return {
    line(entry) {
      const head = `${tags[entry.kind]}${entry.name}`;
      if (entry.kind === "folder") return folderWidth !== undefined ? head.padEnd(folderWidth) : head;
      if (fileWidth === undefined || sizeStyle === undefined || entry.size === undefined) return head;
      const size = formatSize(entry.size, sizeStyle);
      return `${head}${" ".repeat(Math.max(1, fileWidth - head.length - size.length))}${size}`;
    },
  };
}

/** The tag a new entry of each kind gets: as the listing's own lines have it, or as the tool's description says. */
function entryTags(lines: readonly Line[], description: string): Record<sparse.EntryKind, string> {
  const tagged = lines.map((line) => line.tag).filter((tag) => tag.trim() !== "");
  const described = [...description.matchAll(/\[[A-Za-z_ -]{1,20}\]/g)].map((m) => `${m[0]} `);
  const candidates = [...tagged, ...described];
  const folder = candidates.find((tag) => /dir|folder/i.test(tag));
  const file = candidates.find((tag) => /file/i.test(tag));
  const common = tagged[0] ?? "";
  return { folder: (folder ?? common).trimStart(), file: (file ?? common).trimStart() };
}

/** Whether the frame's entries are in name order, in size order, or in neither (the file system's). */
function orderOf(lines: readonly Line[], bySize: boolean): "name" | "size" | "none" {
  const named = lines.filter((l) => l.name !== undefined);
  if (bySize) return "size";
  if (named.length < 2) return "name";
  const sorted = named.every(
    (line, i) => i === 0 || (named[i - 1]?.name ?? "").localeCompare(line.name ?? "") <= 0,
  );
  return sorted ? "name" : "none";
}

/** A folder's own size does not show; listed by size, folders go by the size a folder usually has. */
function folderSize(entry: ListedEntry): number {
  return entry.kind === "folder" ? 4096 : 0;
}

/** A summary line with its counts of files and folders, and its total size, made to agree with the entries. */
function recount(line: string, rendered: ReadonlyArray<{ entry: ListedEntry; size?: number }>): string {
  const files = rendered.filter((r) => r.entry.kind === "file");
  const folders = rendered.length - files.length;
  let out = line
    .replace(/\b\d+(\s+files?)\b/i, `${files.length}$1`)
    .replace(/\b\d+(\s+(?:directories|directory|folders?|dirs?))\b/i, `${folders}$1`);
  const total = /^(.*size:\s*)(\d+(?:\.\d+)?\s*(?:B|KB|MB|GB|TB|bytes)?)\s*$/i.exec(out);
  if (total && files.every((f) => f.size !== undefined)) {
    const bytes = files.reduce((sum, f) => sum + (f.size ?? 0), 0);
    out = `${total[1]}${formatSize(bytes, total[2] ?? "")}`;
  }
  return out;
}

/** Bytes written in the style of an example: `26 B`, `1.50 KB` (units of 1024), or a bare number. */
export function formatSize(bytes: number, example: string): string {
  const units = /(B|KB|MB|GB|TB)\s*$/.exec(example.trim());
  if (/bytes\s*$/i.test(example)) return `${bytes} bytes`;
  if (!units) return String(bytes);
  const names = ["B", "KB", "MB", "GB", "TB"];
  if (bytes <= 0) return "0 B";
  const power = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), names.length - 1);
  if (power === 0) return `${bytes} B`;
  const decimals = /\.(\d+)/.exec(example)?.[1]?.length ?? 2;
  return `${(bytes / 1024 ** power).toFixed(decimals)} ${names[power]}`;
}

function bytesOf(size: string | undefined): number | undefined {
  if (!size) return undefined;
  const match = /(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB|bytes)?/.exec(size);
  if (!match) return undefined;
  const power = ["B", "KB", "MB", "GB", "TB"].indexOf(match[2] ?? "B");
  return Math.round(Number(match[1]) * 1024 ** Math.max(0, power));
}

function mostCommon(values: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: number | undefined;
  for (const [v, n] of counts) if (best === undefined || n > (counts.get(best) ?? 0)) best = v;
  return best;
}

// ── a JSON tree of {name, type, children} ────────────────────────────────────

/** The `type` values a tree uses for folders (nodes with children) and files. */
export function treeTypes(tree: readonly ParsedTree[]): Record<sparse.EntryKind, unknown> {
  const types: Record<sparse.EntryKind, unknown> = { folder: "directory", file: "file" };
  const visit = (nodes: readonly ParsedTree[]) => {
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

/** A tree as JSON in the frame's indentation. */
export function renderTree(frame: string, tree: readonly ParsedTree[]): string {
  const indent = /^\[\s*\n( +)/.exec(frame)?.[1]?.length ?? (frame.trim() === "[]" ? 2 : 0);
  return JSON.stringify(tree, null, indent || undefined);
}
