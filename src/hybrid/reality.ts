import type { CallToolResult } from "@modelcontextprotocol/server";
import { isPlainObject } from "../patch/index.js";
import { wordsOf } from "../simulate/index.js";
import type { sparse } from "../world/index.js";
import type { UpstreamBinding } from "./bindings.js";
import { isIdentifierArgument } from "./identifiers.js";
import { type ParsedTree, parseListing, parseTree } from "./listing.js";

/**
 * What toolsim may ask a real server, through the server's own tools that pass through (and
 * so only read), to decide a simulated change or to answer a read in the server's words:
 * a folder's entries, a file's text, a tree below a folder, everything a store of records
 * holds, or any read's own answer. One per call: answers are kept for the rest of the call.
 */
export interface Reality {
  /** A real folder's entries; null when it cannot be listed; undefined when no tool lists folders. */
  list(path: string): Promise<Readonly<Record<string, sparse.EntryKind>> | null | undefined>;
  /** A real file's text; null when it cannot be read; undefined when no tool reads text. */
  read(path: string): Promise<string | null | undefined>;
  /** The real tree below a folder, as every folder's entries by path; undefined when it cannot be had. */
  tree(path: string): Promise<Record<string, Record<string, sparse.EntryKind>> | undefined>;
  /** The answer of a read that passes through (by the upstream's own name); undefined when it cannot be had. */
  call(tool: string, args: Record<string, unknown>): Promise<CallToolResult | undefined>;
  /** Everything a store of records holds: the read that takes no arguments and answers lists of records. */
  whole(): Promise<Record<string, unknown> | undefined>;
}

/** The connection and the tools of one upstream, as the hybrid knows them. */
export interface UpstreamAccess {
  upstream: string;
  bindings: readonly UpstreamBinding[];
  call(tool: string, args: Record<string, unknown>): Promise<CallToolResult | undefined>;
}

/** Folders a tree may hold before toolsim stops walking it folder by folder. */
const MAX_FOLDERS_WALKED = 200;
/** A tree answer bigger than this (characters) is not read for facts: a search then passes with a note. */
const MAX_TREE_CHARS = 4_000_000;
/** A whole store bigger than this (JSON characters) is not read again and again. */
const MAX_WHOLE_CHARS = 1_000_000;

export class UpstreamReality implements Reality {
  private readonly access: UpstreamAccess;
  private readonly answers = new Map<string, Promise<CallToolResult | undefined>>();

  constructor(access: UpstreamAccess) {
    this.access = access;
  }

  async list(path: string): Promise<Record<string, sparse.EntryKind> | null | undefined> {
    const lister = this.pick(isLister);
    if (!lister) return undefined;
    const answer = await this.call(lister.binding.original, { [lister.argument]: path });
    if (!answer) return undefined;
    if (answer.isError) return null;
    return parseListing(textOf(answer));
  }

  async read(path: string): Promise<string | null | undefined> {
    const reader = this.pick(isTextReader, (b) => /text/.test(b.original));
    if (!reader) return undefined;
    const answer = await this.call(reader.binding.original, { [reader.argument]: path });
    if (!answer) return undefined;
    if (answer.isError) return null;
    const structured = answer.structuredContent;
    if (isPlainObject(structured) && typeof structured.content === "string") return structured.content;
    return textOf(answer);
  }

  async tree(path: string): Promise<Record<string, Record<string, sparse.EntryKind>> | undefined> {
    const treeTool = this.pick(isTreeLister);
    if (treeTool) {
      const answer = await this.call(treeTool.binding.original, { [treeTool.argument]: path });
      const text = answer && !answer.isError ? textOf(answer) : "";
      if (text.length > MAX_TREE_CHARS) return undefined;
      const parsed = parseTree(text);
      if (parsed) return foldersOf(parsed, path);
    }
    // folder by folder, within a bound
    const folders: Record<string, Record<string, sparse.EntryKind>> = {};
    const queue = [path];
    while (queue.length > 0) {
      if (Object.keys(folders).length >= MAX_FOLDERS_WALKED) return undefined;
      const folder = queue.shift() as string;
      const listed = await this.list(folder);
      if (!listed) return undefined;
      folders[folder] = { ...listed };
      for (const [name, kind] of Object.entries(listed))
        if (kind === "folder") queue.push(join(folder, name));
    }
    return folders;
  }

  async whole(): Promise<Record<string, unknown> | undefined> {
    const reader = this.access.bindings
      .filter((b) => b.upstream === this.access.upstream && b.decision.route === "pass")
      .filter((b) => requiredOf(b).length === 0 && Object.keys(propertiesOf(b.tool.inputSchema)).length === 0)
      .map((b) => ({ b, lists: objectLists(b.tool.outputSchema).length }))
      .filter(({ lists }) => lists > 0)
      .sort((x, y) => y.lists - x.lists)[0]?.b;
    if (!reader) return undefined;
    const answer = await this.call(reader.original, {});
    const structured = answer && !answer.isError ? answer.structuredContent : undefined;
    if (!isPlainObject(structured) || JSON.stringify(structured).length > MAX_WHOLE_CHARS) return undefined;
    return structured;
  }

  /** The whole-store read's own name, when there is one (its answers need no second call). */
  wholeTool(): string | undefined {
    return this.access.bindings.find(
      (b) =>
        b.upstream === this.access.upstream &&
        b.decision.route === "pass" &&
        requiredOf(b).length === 0 &&
        Object.keys(propertiesOf(b.tool.inputSchema)).length === 0 &&
        objectLists(b.tool.outputSchema).length > 0,
    )?.original;
  }

  call(tool: string, args: Record<string, unknown>): Promise<CallToolResult | undefined> {
    const passes = this.access.bindings.some(
      (b) => b.upstream === this.access.upstream && b.original === tool && b.decision.route === "pass",
    );
    if (!passes) return Promise.resolve(undefined);
    const key = JSON.stringify([tool, args]);
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.access.call(tool, args);
      this.answers.set(key, answer);
    }
    return answer;
  }

  /** A passed-through tool of this upstream that fits, with the one argument it takes. */
  private pick(
    fits: (binding: UpstreamBinding) => boolean,
    preferred: (binding: UpstreamBinding) => boolean = () => false,
  ): { binding: UpstreamBinding; argument: string } | undefined {
    const candidates = this.access.bindings
      .filter((b) => b.upstream === this.access.upstream && b.decision.route === "pass" && fits(b))
      .map((b) => ({ binding: b, argument: requiredOf(b)[0] as string }));
    return candidates.find((c) => preferred(c.binding)) ?? candidates[0];
  }
}

const LISTING_WORDS = new Set(["list", "ls", "dir", "directory", "folder"]);
const NOT_PLAIN_LISTING = new Set([
  "tree",
  "size",
  "sizes",
  "search",
  "find",
  "glob",
  "allowed",
  "recursive",
]);

/** A tool that takes one identifier (a path) and answers one line per entry: `list_directory(path)`. */
function isLister(binding: UpstreamBinding): boolean {
  const words = wordsOf(binding.original);
  return (
    words.some((w) => LISTING_WORDS.has(w)) &&
    !words.some((w) => NOT_PLAIN_LISTING.has(w)) &&
    takesOneIdentifier(binding) &&
    answersText(binding)
  );
}

/** A tool that takes one identifier and answers a JSON tree of `{name, type, children}`: `directory_tree(path)`. */
function isTreeLister(binding: UpstreamBinding): boolean {
  return wordsOf(binding.original).includes("tree") && takesOneIdentifier(binding) && answersText(binding);
}

/** A tool that reads a file's text by its path alone: `read_text_file(path)`. */
function isTextReader(binding: UpstreamBinding): boolean {
  const verb = wordsOf(binding.original)[0];
  const content = propertiesOf(binding.tool.outputSchema).content;
  return (
    (verb === "read" || verb === "get") &&
    takesOneIdentifier(binding) &&
    isPlainObject(content) &&
    content.type === "string"
  );
}

function takesOneIdentifier(binding: UpstreamBinding): boolean {
  const required = requiredOf(binding);
  return required.length === 1 && isIdentifierArgument(required[0] as string);
}

function answersText(binding: UpstreamBinding): boolean {
  const output = binding.tool.outputSchema;
  if (!output) return true;
  const fields = Object.values(propertiesOf(output));
  return fields.length === 1 && isPlainObject(fields[0]) && fields[0].type === "string";
}

function requiredOf(binding: UpstreamBinding): string[] {
  const required = binding.tool.inputSchema.required;
  return Array.isArray(required) ? required.map(String) : [];
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  return isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
}

/** The names of the output's lists of objects (`entities`, `relations`). */
export function objectLists(output: unknown): string[] {
  return Object.entries(propertiesOf(output))
    .filter(
      ([, p]) =>
        isPlainObject(p) && p.type === "array" && isPlainObject(p.items) && p.items.type === "object",
    )
    .map(([name]) => name);
}

function foldersOf(
  tree: readonly ParsedTree[],
  root: string,
): Record<string, Record<string, sparse.EntryKind>> {
  const folders: Record<string, Record<string, sparse.EntryKind>> = {};
  const visit = (nodes: readonly ParsedTree[], folder: string) => {
    const entries: Record<string, sparse.EntryKind> = {};
    for (const node of nodes) {
      entries[node.name] = node.children ? "folder" : "file";
      if (node.children) visit(node.children, join(folder, node.name));
    }
    folders[folder] = entries;
  };
  visit(tree, root);
  return folders;
}

function join(folder: string, name: string): string {
  return folder.endsWith("/") ? `${folder}${name}` : `${folder}/${name}`;
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}
