import { pathToFileURL } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { hashOf, isPlainObject } from "../patch/index.js";
import { wordsOf } from "../simulate/index.js";
import { baseName, isWithin, pathGlobTest, pathText, segmentsOf, sparse } from "../world/index.js";
import type { UpstreamBinding } from "./bindings.js";
import { type FactBook, newFacts, settle, viewOf } from "./files.js";
import { isPathLike, listIdentifiers, scalarIdentifiers } from "./identifiers.js";
import {
  type ListedEntry,
  type ParsedTree,
  parseTree,
  renderLines,
  renderTree,
  treeTypes,
} from "./listing.js";
import { lineWindow, metaOf, type Overlay } from "./overlay.js";
import { type Reality, textOf } from "./reality.js";

/**
 * Reads of the session's file system, answered in the real tool's own shape: the real
 * server is asked the same question about the real thing behind what the session changed
 * (the source of a move, the real folder below a changed one), or about a real stand-in in
 * the same condition (a name that does not exist, a real file of the same kind), and its
 * answer is given back with the session's values in: the path, the text, the size, the
 * entries of a listing, the matches of a search.
 */

/** Formats learned from a real tool, kept across calls: how a multi-file read joins its parts. */
export type FormatMemo = Map<string, MultiFormat | null>;

export interface FileReadContext {
  binding: UpstreamBinding;
  args: Record<string, unknown>;
  overlay: Overlay;
  reality: Reality;
  formats: FormatMemo;
}

type Category = "content" | "info" | "listing" | "tree" | "search";

const SEARCH_WORDS = new Set(["search", "find", "glob", "grep"]);
const INFO_WORDS = new Set(["info", "stat", "stats", "metadata", "attributes", "details", "properties"]);
const LISTING_WORDS = new Set(["list", "ls", "dir", "directory", "folder", "tree"]);

/**
 * The answer to a passed-through read that names a path the session changed (or one above
 * or below such a path); "untouched" when the read does not concern the session's changes;
 * undefined when it does but its shape is not one toolsim can speak.
 */
export async function answerFileRead(
  context: FileReadContext,
): Promise<CallToolResult | "untouched" | undefined> {
  const changes = viewOf(context.overlay);
  if (Object.keys(changes).length === 0) return "untouched";
  const lists = listIdentifiers(context.args).filter((i) => isPathLike(i.key));
  const scalars = scalarIdentifiers(context.args).filter((i) => isPathLike(i.key));
  const touched = (path: string) => Object.keys(changes).some((key) => related(key, path));
  if (lists.length > 0 && scalars.length === 0) {
    const argument = lists[0]?.argument as string;
    const paths = lists.filter((i) => i.argument === argument).map((i) => i.key);
    if (!paths.some(touched)) return "untouched";
    if (!speaksText(context.binding)) return undefined;
    return new FileReads(context, changes).multi(argument, paths);
  }
  if (!scalars.some((s) => touched(s.key))) return "untouched";
  if (scalars.length !== 1 || lists.length > 0) return undefined;
  const { argument, key } = scalars[0] as { argument: string; key: string };
  const reads = new FileReads(context, changes);
  const category = categoryOf(context.binding.original);
  // answers are made as one text (and its one text field); an output of another shape is not imitated
  if (!speaksText(context.binding) && !(category === "content" && answersBlocks(context.binding)))
    return undefined;
  switch (category) {
    case "content":
      return reads.content(argument, key);
    case "info":
      return reads.info(argument, key);
    case "listing":
      return reads.listing(argument, key);
    case "tree":
      return reads.tree(argument, key);
    case "search":
      return reads.search(argument, key);
  }
}

function categoryOf(original: string): Category {
  const words = wordsOf(original);
  if (words.some((w) => SEARCH_WORDS.has(w))) return "search";
  if (words.includes("tree")) return "tree";
  if (words.some((w) => INFO_WORDS.has(w))) return "info";
  if (words.some((w) => LISTING_WORDS.has(w)) && !words.includes("read")) return "listing";
  return "content";
}

/** `a` and `b` are the same path, or one lies below the other. */
function related(a: string, b: string): boolean {
  const x = segmentsOf(a);
  const y = segmentsOf(b);
  return isWithin(x, y) || isWithin(y, x);
}

class FileReads {
  private readonly context: FileReadContext;
  private readonly changes: sparse.Changes;
  private readonly facts: FactBook = newFacts();

  constructor(context: FileReadContext, changes: sparse.Changes) {
    this.context = context;
    this.changes = changes;
  }

  private get tool(): string {
    return this.context.binding.original;
  }

  private look(path: string) {
    return settle(this.changes, this.context.reality, (tree) => sparse.look(tree, path), this.facts);
  }

  private entries(path: string) {
    return settle(
      this.changes,
      this.context.reality,
      (tree) => sparse.entries(tree, path) ?? { ok: false as const },
      this.facts,
    );
  }

  /** The real answer of this tool for other arguments. */
  private real(argument: string, value: unknown): Promise<CallToolResult | undefined> {
    return this.context.reality.call(this.tool, { ...this.context.args, [argument]: value });
  }

  // ── a file's content ─────────────────────────────────────────────────────

  async content(argument: string, path: string): Promise<CallToolResult | undefined> {
    const found = await this.look(path);
    if (!("type" in found)) return undefined;
    if (found.type === "absent") return this.missing(argument, path);
    if (found.type === "folder")
      return this.asStandIn(argument, path, found.real ?? (await this.realFolderAbove(path)));
    if (found.content === undefined) {
      if (found.real === undefined) return undefined;
      return substitute(await this.real(argument, found.real), found.real, path);
    }
    const output = this.context.binding.tool.outputSchema;
    const fields = isPlainObject(output?.properties) ? Object.entries(output.properties) : [];
    const only = fields.length === 1 ? fields[0] : undefined;
    if (only && isPlainObject(only[1]) && only[1].type === "array")
      return this.media(argument, path, found.content);
    const text = lineWindow(found.content, this.context.args);
    return textResult(
      text,
      only && isPlainObject(only[1]) && only[1].type === "string" ? only[0] : undefined,
    );
  }

  /** A read that answers bytes as content blocks: a real file of the same kind read, its bytes and name swapped. */
  private async media(argument: string, path: string, content: string): Promise<CallToolResult | undefined> {
    const extension = /\.[^./]+$/.exec(path)?.[0] ?? "";
    const standIn =
      (await this.realFileNear(path, (name) => name.endsWith(extension) && extension !== "")) ??
      (await this.realFileNear(path, () => true));
    const answer = standIn ? await this.real(argument, standIn) : undefined;
    const data = Buffer.from(content, "utf8").toString("base64");
    const url = pathToFileURL(path).href;
    if (!answer || answer.isError || !standIn) return undefined;
    const standInUrl = pathToFileURL(standIn).href;
    const swap = (block: unknown): unknown => {
      if (!isPlainObject(block)) return block;
      const out: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(block)) {
        if ((field === "data" || field === "blob") && typeof value === "string") out[field] = data;
        else if (field === "uri" && value === standInUrl) out[field] = url;
        else if (field === "text" && typeof value === "string") out[field] = content;
        else out[field] = isPlainObject(value) ? swap(value) : value;
      }
      return out;
    };
    const blocks = answer.content.map((block) => swap(block)) as CallToolResult["content"];
    const structured = isPlainObject(answer.structuredContent)
      ? Object.fromEntries(
          Object.entries(answer.structuredContent).map(([field, value]) => [
            field,
            Array.isArray(value) ? value.map(swap) : swap(value),
          ]),
        )
      : undefined;
    return { content: blocks, ...(structured ? { structuredContent: structured } : {}) };
  }

  // ── metadata ─────────────────────────────────────────────────────────────

  async info(argument: string, path: string): Promise<CallToolResult | undefined> {
    const found = await this.look(path);
    if (!("type" in found)) return undefined;
    if (found.type === "absent") return this.missing(argument, path);
    if (found.type === "file" && found.content === undefined) {
      if (found.real === undefined) return undefined;
      return substitute(await this.real(argument, found.real), found.real, path);
    }
    if (found.type === "folder" && found.real !== undefined)
      return substitute(await this.real(argument, found.real), found.real, path);
    // made or rewritten by the session: a real thing of the same kind answers, with the session's values
    const at = this.changedAt(path);
    const rewritten = found.type === "file" ? await this.realCounterpart(path, "file") : undefined;
    const standIn =
      rewritten ??
      (found.type === "file" ? await this.realFileNear(path, () => true) : undefined) ??
      (await this.realFolderAbove(path));
    if (!standIn) return undefined;
    const answer = await this.real(argument, standIn);
    if (!answer || answer.isError) return undefined;
    const values: InfoValues = {
      kind: found.type,
      ...(found.type === "file" ? { size: Buffer.byteLength(found.content ?? "", "utf8") } : {}),
      ...(at ? { modified: at, ...(rewritten ? {} : { created: at, accessed: at }) } : {}),
    };
    return substitute(adjustInfo(answer, values), standIn, path);
  }

  private changedAt(path: string): string | undefined {
    return metaOf(this.context.overlay.paths?.[path] ?? {})?.at;
  }

  // ── listings ─────────────────────────────────────────────────────────────

  async listing(argument: string, path: string): Promise<CallToolResult | undefined> {
    const at = await this.folderFrame(argument, path);
    if ("result" in at) return at.result;
    const { found, frame } = at;
    const inside = await this.entries(path);
    if (!("entries" in inside)) return undefined;
    const listed: ListedEntry[] = [];
    for (const [name, entry] of Object.entries(inside.entries)) {
      const child = `${path === "/" ? "" : path}/${name}`;
      const asListed =
        frame.own && "real" in entry && entry.real === `${found.real}/${name}` && !(child in this.changes);
      listed.push({
        name,
        kind: entry.type === "folder" ? "folder" : "file",
        asListed,
        ...(await this.sizeOf(entry)),
      });
    }
    const description = this.context.binding.tool.description ?? "";
    const text = renderLines(textOf(frame.answer), listed, {
      description,
      bySize: this.context.args.sortBy === "size",
    });
    return textResult(text, singleTextField(this.context.binding));
  }

  /**
   * A folder's real answer to rewrite (and what the session knows of the folder), or the
   * whole answer where there is nothing to rewrite: the path is gone, a file, or the real
   * call failed.
   */
  private async folderFrame(argument: string, path: string) {
    const found = await this.look(path);
    if (!("type" in found)) return { result: undefined };
    if (found.type === "absent") return { result: await this.missing(argument, path) };
    if (found.type === "file")
      return {
        result: await this.asStandIn(
          argument,
          path,
          found.real ?? (await this.realFileNear(path, () => true)),
        ),
      };
    const frame = await this.frame(argument, path, found.real);
    if (!frame) return { result: undefined };
    if (frame.answer.isError) return { result: substitute(frame.answer, frame.realPath, path) };
    return { found, frame };
  }

  private async sizeOf(entry: sparse.Found): Promise<{ size?: number }> {
    if (entry.type !== "file") return {};
    if (entry.content !== undefined) return { size: Buffer.byteLength(entry.content, "utf8") };
    if (entry.real === undefined) return {};
    const text = await this.context.reality.read(entry.real);
    return typeof text === "string" ? { size: Buffer.byteLength(text, "utf8") } : {};
  }

  /**
   * The real answer this listing is rewritten from: the real folder's own listing, or, for a
   * folder only the session has, another real folder's as a frame (its entries are not kept).
   */
  private async frame(
    argument: string,
    path: string,
    real: string | undefined,
  ): Promise<{ answer: CallToolResult; realPath: string; own: boolean } | undefined> {
    const realPath = real ?? (await this.realFolderAbove(path));
    if (!realPath) return undefined;
    const answer = await this.real(argument, realPath);
    return answer ? { answer, realPath, own: real !== undefined } : undefined;
  }

  // ── trees ────────────────────────────────────────────────────────────────

  async tree(argument: string, path: string): Promise<CallToolResult | undefined> {
    const at = await this.folderFrame(argument, path);
    if ("result" in at) return at.result;
    const { frame } = at;
    const realTree = parseTree(textOf(frame.answer));
    if (!realTree) return undefined;
    if (frame.own) this.learnTree(realTree, frame.realPath);
    const types = treeTypes(realTree);
    const excludes = stringsOf(this.context.args, /exclude/i);
    const excluded = (relative: string) => excludes.some((pattern) => treeExcludes(pattern, relative));
    const build = async (
      folder: string,
      realFolder: string | undefined,
      nodes: readonly ParsedTree[],
      relative: string,
    ): Promise<ParsedTree[] | undefined> => {
      const inside = await this.entries(folder);
      if (!("entries" in inside)) return undefined;
      const out: ParsedTree[] = [];
      for (const [name, entry] of Object.entries(inside.entries)) {
        const rel = relative ? `${relative}/${name}` : name;
        const child = `${folder === "/" ? "" : folder}/${name}`;
        const real = "real" in entry ? entry.real : undefined;
        const listedNode =
          realFolder !== undefined && real === `${realFolder}/${name}`
            ? nodes.find((n) => n.name === name)
            : undefined;
        if (!listedNode && excluded(rel)) continue;
        if (entry.type === "folder") {
          if (!listedNode && entry.real) await this.learnRealTree(entry.real);
          const children = await build(
            child,
            listedNode ? `${realFolder}/${name}` : entry.real,
            listedNode?.children ?? [],
            rel,
          );
          if (!children) return undefined;
          out.push(listedNode ? { ...listedNode, children } : { name, type: types.folder, children });
        } else out.push(listedNode ? { ...listedNode } : { name, type: types.file });
      }
      return out;
    };
    const merged = await build(path, frame.own ? frame.realPath : undefined, frame.own ? realTree : [], "");
    if (!merged) return undefined;
    return textResult(renderTree(textOf(frame.answer), merged), singleTextField(this.context.binding));
  }

  private learnTree(tree: readonly ParsedTree[], root: string): void {
    const visit = (nodes: readonly ParsedTree[], folder: string) => {
      this.facts.folders[folder] = Object.fromEntries(
        nodes.map((n) => [n.name, n.children ? "folder" : "file"]),
      );
      for (const node of nodes) if (node.children) visit(node.children, `${folder}/${node.name}`);
    };
    visit(tree, root);
  }

  private readonly treesLearned = new Set<string>();

  private async learnRealTree(root: string): Promise<void> {
    const segments = segmentsOf(root);
    if ([...this.treesLearned].some((learned) => isWithin(segments, segmentsOf(learned)))) return;
    this.treesLearned.add(root);
    const folders = await this.context.reality.tree(root);
    for (const [folder, entries] of Object.entries(folders ?? {})) this.facts.folders[folder] = entries;
  }

  // ── searches ─────────────────────────────────────────────────────────────

  async search(argument: string, path: string): Promise<CallToolResult | undefined> {
    const found = await this.look(path);
    if (!("type" in found)) return undefined;
    if (found.type === "absent") return this.missing(argument, path);
    if (found.type === "file")
      return this.asStandIn(argument, path, found.real ?? (await this.realFileNear(path, () => true)));
    const pattern = patternOf(this.context.args, argument);
    if (pattern === undefined) return undefined;
    const excludes = stringsOf(this.context.args, /exclude/i);
    const test = (relative: string) =>
      pathGlobTest(pattern)(relative) && !excludes.some((e) => pathGlobTest(e)(relative));
    // the real answer, and the real tree it was found in: toolsim's matching must give the same
    let realLines: string[] = [];
    let noMatches: string | undefined;
    if (found.real !== undefined) {
      const answer = await this.real(argument, found.real);
      if (!answer) return undefined;
      if (answer.isError) return substitute(answer, found.real, path);
      const text = textOf(answer);
      await this.learnRealTree(found.real);
      const expected = this.matchesBelow(found.real, test, true);
      if (!expected) return undefined;
      realLines = text.split("\n").filter((line) => line.trim() !== "");
      if (expected.length === 0) {
        if (!realLines.every((line) => !isPathLike(line.trim()))) return undefined;
        noMatches = text;
        realLines = [];
      } else if (!sameSet(expected, realLines)) return undefined;
    }
    const merged = await this.searchMerged(path, test);
    if (!merged) return undefined;
    const realOrder = new Map(realLines.map((line, i) => [line, i]));
    const mapped = (line: string) =>
      found.real && found.real !== path ? path + line.slice(found.real.length) : line;
    const ordered = [...merged].sort(
      (a, b) =>
        (realOrderOf(realOrder, a, mapped) ?? Number.MAX_SAFE_INTEGER) -
        (realOrderOf(realOrder, b, mapped) ?? Number.MAX_SAFE_INTEGER),
    );
    if (ordered.length === 0) {
      noMatches ??= await this.noMatchesText(argument, found.real ?? (await this.realFolderAbove(path)));
      if (noMatches === undefined) return undefined;
      return textResult(noMatches, singleTextField(this.context.binding));
    }
    return textResult(ordered.join("\n"), singleTextField(this.context.binding));
  }

  /** What toolsim's matching finds below a real folder in the real tree alone (undefined when not all known). */
  private matchesBelow(root: string, test: (relative: string) => boolean, _real: true): string[] | undefined {
    const out: string[] = [];
    const visit = (folder: string, relative: string): boolean => {
      const listed = this.facts.folders[folder];
      if (!listed) return listed === null;
      for (const [name, kind] of Object.entries(listed)) {
        const rel = relative ? `${relative}/${name}` : name;
        if (test(rel)) out.push(`${folder}/${name}`);
        if (kind === "folder" && !visit(`${folder}/${name}`, rel)) return false;
      }
      return true;
    };
    return visit(root, "") ? out : undefined;
  }

  private async searchMerged(
    root: string,
    test: (relative: string) => boolean,
  ): Promise<string[] | undefined> {
    const out: string[] = [];
    const visit = async (folder: string, relative: string): Promise<boolean> => {
      const inside = await this.entries(folder);
      if (!("entries" in inside)) return false;
      for (const [name, entry] of Object.entries(inside.entries)) {
        const rel = relative ? `${relative}/${name}` : name;
        const child = `${folder === "/" ? "" : folder}/${name}`;
        if (test(rel)) out.push(child);
        if (entry.type === "folder") {
          if (entry.real) await this.learnRealTree(entry.real);
          if (!(await visit(child, rel))) return false;
        }
      }
      return true;
    };
    return (await visit(root, "")) ? out : undefined;
  }

  private async noMatchesText(argument: string, realFolder: string | undefined): Promise<string | undefined> {
    if (!realFolder) return undefined;
    const patternArgument = Object.keys(this.context.args).find(
      (name) => name !== argument && typeof this.context.args[name] === "string",
    );
    if (!patternArgument) return undefined;
    const answer = await this.context.reality.call(this.tool, {
      ...this.context.args,
      [argument]: realFolder,
      [patternArgument]: `toolsim-${hashOf(realFolder).slice(0, 12)}-matches-nothing`,
    });
    return answer && !answer.isError ? textOf(answer) : undefined;
  }

  // ── reading several files ────────────────────────────────────────────────

  async multi(argument: string, paths: readonly string[]): Promise<CallToolResult | undefined> {
    const format = await this.multiFormat(argument, paths);
    if (!format) return undefined;
    const looks: sparse.Found[] = [];
    for (const path of paths) {
      const found = await this.look(path);
      if (!("type" in found)) return undefined;
      looks.push(found);
    }
    const touched = (path: string) => Object.keys(this.changes).some((key) => related(key, path));
    // the real server reads what is real: untouched paths, and the real files behind moved ones
    const asked: string[] = [];
    const realOf = paths.map((path, i) => {
      const found = looks[i] as sparse.Found;
      if (!touched(path)) return path;
      return found.type === "file" && found.content === undefined ? found.real : undefined;
    });
    for (const real of realOf) if (real !== undefined) asked.push(real);
    let parts: string[] = [];
    if (asked.length > 0) {
      const answer = await this.context.reality.call(this.tool, { ...this.context.args, [argument]: asked });
      if (!answer || answer.isError) return undefined;
      const split = splitParts(textOf(answer), asked, format.separator);
      if (!split) return undefined;
      parts = split;
    }
    const out: string[] = [];
    let next = 0;
    for (const [i, path] of paths.entries()) {
      const found = looks[i] as sparse.Found;
      const real = realOf[i];
      if (real !== undefined) {
        const part = parts[next++] as string;
        out.push(real === path ? part : path + part.slice(real.length));
      } else if (found.type === "file") {
        out.push(`${path}${format.before}${found.content ?? ""}${format.after}`);
      } else {
        const failure =
          found.type === "absent"
            ? await this.missingPart(argument, path)
            : await this.standInPart(argument, path, found.real ?? (await this.realFolderAbove(path)));
        if (failure === undefined) return undefined;
        out.push(failure);
      }
    }
    return textResult(out.join(format.separator), singleTextField(this.context.binding));
  }

  /**
   * How this tool answers for several files: learned once by asking it for one real file
   * twice. Its answer is that file's part, a separator, the same part again; the part is
   * the path, something, the text, something.
   */
  private async multiFormat(argument: string, paths: readonly string[]): Promise<MultiFormat | undefined> {
    const key = `${this.context.binding.upstream}\u0000${this.tool}`;
    const known = this.context.formats.get(key);
    if (known !== undefined) return known ?? undefined;
    const standIn = await this.realFileNear(paths[0] ?? "/", () => true, true);
    if (!standIn) return undefined;
    const text = await this.context.reality.read(standIn);
    if (typeof text !== "string" || text === "") return undefined;
    const answer = await this.context.reality.call(this.tool, {
      ...this.context.args,
      [argument]: [standIn, standIn],
    });
    const learned = answer && !answer.isError ? learnMultiFormat(textOf(answer), standIn, text) : undefined;
    this.context.formats.set(key, learned ?? null);
    return learned;
  }

  private async missingPart(argument: string, path: string): Promise<string | undefined> {
    const standIn = await this.missingStandIn(path);
    if (!standIn) return undefined;
    const answer = await this.context.reality.call(this.tool, {
      ...this.context.args,
      [argument]: [standIn],
    });
    return answer && !answer.isError ? textOf(answer).split(standIn).join(path) : undefined;
  }

  private async standInPart(
    argument: string,
    path: string,
    standIn: string | undefined,
  ): Promise<string | undefined> {
    if (!standIn) return undefined;
    const answer = await this.context.reality.call(this.tool, {
      ...this.context.args,
      [argument]: [standIn],
    });
    return answer && !answer.isError ? textOf(answer).split(standIn).join(path) : undefined;
  }

  // ── stand-ins ────────────────────────────────────────────────────────────

  /** The real answer for something that does not exist, in the same place, as the answer for `path`. */
  private async missing(argument: string, path: string): Promise<CallToolResult | undefined> {
    const standIn = await this.missingStandIn(path);
    if (!standIn) return undefined;
    const answer = await this.real(argument, standIn);
    if (!answer?.isError) return undefined;
    return substitute(answer, standIn, path);
  }

  /** The real answer for a real thing of the same kind (a folder read as a file, a file listed as a folder). */
  private async asStandIn(
    argument: string,
    path: string,
    standIn: string | undefined,
  ): Promise<CallToolResult | undefined> {
    if (!standIn) return undefined;
    const answer = await this.real(argument, standIn);
    if (!answer?.isError) return undefined;
    return substitute(answer, standIn, path);
  }

  /**
   * A real path that does not exist and lies as `path` does: below the deepest real folder
   * above it, with the first missing name replaced by one no folder has.
   */
  private async missingStandIn(path: string): Promise<string | undefined> {
    const segments = segmentsOf(path);
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const above = pathText(segments.slice(0, depth));
      const found = await this.look(above);
      if (!("type" in found) || found.type !== "folder" || found.real === undefined) continue;
      const fresh = `.toolsim-missing-${hashOf(path).slice(0, 12)}`;
      return pathText([...segmentsOf(found.real), fresh, ...segments.slice(depth + 1)]);
    }
    return undefined;
  }

  /** The nearest real folder at or above the folder of `path`. */
  private async realFolderAbove(path: string): Promise<string | undefined> {
    const segments = segmentsOf(path);
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const found = await this.look(pathText(segments.slice(0, depth)));
      if ("type" in found && found.type === "folder" && found.real !== undefined) return found.real;
    }
    return undefined;
  }

  /** The real path `path` has when the session did not make it: a real thing of that kind already there. */
  private async realCounterpart(path: string, kind: sparse.EntryKind): Promise<string | undefined> {
    const segments = segmentsOf(path);
    const parent = await this.look(pathText(segments.slice(0, -1)));
    if (!("type" in parent) || parent.type !== "folder" || parent.real === undefined) return undefined;
    const listed = await this.context.reality.list(parent.real);
    return listed?.[baseName(segments)] === kind
      ? `${parent.real === "/" ? "" : parent.real}/${baseName(segments)}`
      : undefined;
  }

  /** A real file near `path` (in the nearest real folder above it, or further up) whose name fits. */
  private async realFileNear(
    path: string,
    fits: (name: string) => boolean,
    readable = false,
  ): Promise<string | undefined> {
    const segments = segmentsOf(path);
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const found = await this.look(pathText(segments.slice(0, depth)));
      if (!("type" in found) || found.type !== "folder" || found.real === undefined) continue;
      const listed = await this.context.reality.list(found.real);
      for (const [name, kind] of Object.entries(listed ?? {})) {
        if (kind !== "file" || !fits(name)) continue;
        const candidate = `${found.real === "/" ? "" : found.real}/${name}`;
        if (readable) {
          const text = await this.context.reality.read(candidate);
          if (typeof text !== "string" || text === "") continue;
        }
        return candidate;
      }
    }
    return undefined;
  }
}

// ── shapes ──────────────────────────────────────────────────────────────────

export interface MultiFormat {
  /** What joins the parts. */
  separator: string;
  /** What comes between a part's path and its text, and after the text. */
  before: string;
  after: string;
}

/** From the answer for one file asked twice: its part, and what joins two parts. */
export function learnMultiFormat(answer: string, path: string, text: string): MultiFormat | undefined {
  for (let length = Math.floor(answer.length / 2); length > path.length; length--) {
    const part = answer.slice(0, length);
    if (answer.slice(answer.length - length) !== part || !part.startsWith(path)) continue;
    const at = part.indexOf(text, path.length);
    if (at < 0) continue;
    return {
      separator: answer.slice(length, answer.length - length),
      before: part.slice(path.length, at),
      after: part.slice(at + text.length),
    };
  }
  return undefined;
}

/** An answer for several paths cut into one part per path, each starting with its path. */
function splitParts(answer: string, paths: readonly string[], separator: string): string[] | undefined {
  const starts: number[] = [];
  let from = 0;
  for (const [i, path] of paths.entries()) {
    if (i === 0) {
      if (!answer.startsWith(path)) return undefined;
      starts.push(0);
      continue;
    }
    let at = answer.indexOf(separator + path, from);
    if (at < 0) return undefined;
    at += separator.length;
    starts.push(at);
    from = at;
  }
  return starts.map((start, i) => {
    const end = i + 1 < starts.length ? (starts[i + 1] as number) - separator.length : answer.length;
    return answer.slice(start, end);
  });
}

interface InfoValues {
  kind: sparse.EntryKind;
  size?: number;
  modified?: string;
  created?: string;
  accessed?: string;
}

/** Metadata answered as `key: value` lines (or a JSON object), with the session's values put in by key. */
function adjustInfo(answer: CallToolResult, values: InfoValues): CallToolResult {
  const adjustText = (text: string): string => {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isPlainObject(parsed)) {
        const indent = /^\{\n( +)/.exec(text)?.[1]?.length;
        return JSON.stringify(adjustObject(parsed, values), null, indent);
      }
    } catch {
      // not JSON: lines of `key: value`
    }
    return text
      .split("\n")
      .map((line) => {
        const match = /^(\s*)([A-Za-z_][\w ]*?)(\s*[:=]\s*)(.*)$/.exec(line);
        if (!match) return line;
        const [, lead = "", key = "", sep = "", value = ""] = match;
        const next = adjustValue(key, value, values);
        return next === undefined ? line : `${lead}${key}${sep}${next}`;
      })
      .join("\n");
  };
  const content = answer.content.map((block) =>
    block.type === "text" ? { ...block, text: adjustText(block.text) } : block,
  );
  const structured = isPlainObject(answer.structuredContent)
    ? Object.fromEntries(
        Object.entries(answer.structuredContent).map(([field, value]) => [
          field,
          typeof value === "string" ? adjustText(value) : value,
        ]),
      )
    : undefined;
  return { ...answer, content, ...(structured ? { structuredContent: structured } : {}) };
}

function adjustObject(object: Record<string, unknown>, values: InfoValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const next = adjustValue(key, typeof value === "string" ? value : JSON.stringify(value), values);
    if (next === undefined) out[key] = value;
    else if (typeof value === "string") out[key] = next;
    else
      try {
        out[key] = JSON.parse(next);
      } catch {
        out[key] = next;
      }
  }
  return out;
}

/** The session's value for one metadata field, written the way the real value is written. */
function adjustValue(key: string, value: string, values: InfoValues): string | undefined {
  const words = wordsOf(key);
  const name = words.join("");
  if (values.size !== undefined && (words.includes("size") || name === "bytes" || name === "length"))
    return /^\d+$/.test(value.trim()) ? String(values.size) : undefined;
  if (name === "isdirectory" || name === "isdir" || name === "isfolder" || name === "directory")
    return /^(true|false)$/.test(value) ? String(values.kind === "folder") : undefined;
  if (name === "isfile" || name === "file")
    return /^(true|false)$/.test(value) ? String(values.kind === "file") : undefined;
  if (name === "type" || name === "kind") {
    const folderWord = /^(directory|dir|folder)$/i.test(value);
    const fileWord = /^file$/i.test(value);
    if (!folderWord && !fileWord) return undefined;
    if ((values.kind === "folder") === folderWord) return value;
    return values.kind === "folder" ? "directory" : "file";
  }
  const time = /modif|mtime|updated|changed/.test(name)
    ? values.modified
    : /creat|birth/.test(name)
      ? values.created
      : /access|atime/.test(name)
        ? values.accessed
        : undefined;
  if (time !== undefined) return sameTimeFormat(value, time);
  return undefined;
}

/** A time written as an example is: JavaScript's Date text, ISO 8601, or milliseconds or seconds since 1970. */
function sameTimeFormat(example: string, iso: string): string | undefined {
  const was = Date.parse(example);
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return undefined;
  if (/^\d{12,14}$/.test(example)) return String(at.getTime());
  if (/^\d{9,11}$/.test(example)) return String(Math.floor(at.getTime() / 1000));
  if (Number.isNaN(was)) return undefined;
  const ways = [(d: Date) => d.toString(), (d: Date) => d.toISOString(), (d: Date) => d.toUTCString()];
  const way = ways.find((w) => w(new Date(was)) === example);
  return way ? way(at) : undefined;
}

/**
 * Whether a tree's exclusion pattern leaves out a path: a pattern with a wildcard matches
 * the path as a glob; a plain name also matches that name at any depth and what lies below it.
 */
function treeExcludes(pattern: string, relative: string): boolean {
  if (pattern.includes("*")) return pathGlobTest(pattern)(relative);
  return (
    pathGlobTest(pattern)(relative) ||
    pathGlobTest(`**/${pattern}`)(relative) ||
    pathGlobTest(`**/${pattern}/**`)(relative)
  );
}

function realOrderOf(
  order: ReadonlyMap<string, number>,
  line: string,
  mapped: (line: string) => string,
): number | undefined {
  for (const [real, i] of order) if (mapped(real) === line) return i;
  return undefined;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
}

/** The glob argument of a search: a string argument other than the path. */
function patternOf(args: Record<string, unknown>, pathArgument: string): string | undefined {
  const name = Object.keys(args).find(
    (n) => n !== pathArgument && typeof args[n] === "string" && !/exclude/i.test(n),
  );
  const value = name !== undefined ? args[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

function stringsOf(args: Record<string, unknown>, name: RegExp): string[] {
  return Object.entries(args)
    .filter(([n, v]) => name.test(n) && Array.isArray(v))
    .flatMap(([, v]) => (v as unknown[]).filter((x): x is string => typeof x === "string"));
}

/** No output schema, or one text field: the shapes toolsim writes a file read's answer in. */
function speaksText(binding: UpstreamBinding): boolean {
  const output = binding.tool.outputSchema;
  return !isPlainObject(output?.properties) || singleTextField(binding) !== undefined;
}

/** One list field: content blocks (a media read), answered from a real file's blocks. */
function answersBlocks(binding: UpstreamBinding): boolean {
  const output = binding.tool.outputSchema;
  const fields = isPlainObject(output?.properties) ? Object.values(output.properties) : [];
  return fields.length === 1 && isPlainObject(fields[0]) && fields[0].type === "array";
}

function singleTextField(binding: UpstreamBinding): string | undefined {
  const output = binding.tool.outputSchema;
  const fields = isPlainObject(output?.properties) ? Object.entries(output.properties) : [];
  const only = fields.length === 1 ? fields[0] : undefined;
  return only && isPlainObject(only[1]) && only[1].type === "string" ? only[0] : undefined;
}

function textResult(text: string, field: string | undefined): CallToolResult {
  return { content: [{ type: "text", text }], ...(field ? { structuredContent: { [field]: text } } : {}) };
}

/** A real answer about `from`, told about `to`: the path in every text and string, and its file URL. */
function substitute(
  answer: CallToolResult | undefined,
  from: string,
  to: string,
): CallToolResult | undefined {
  if (!answer) return undefined;
  if (from === to) return answer;
  const swap = (text: string) =>
    text.split(pathToFileURL(from).href).join(pathToFileURL(to).href).split(from).join(to);
  const deep = (value: unknown): unknown =>
    typeof value === "string"
      ? swap(value)
      : Array.isArray(value)
        ? value.map(deep)
        : isPlainObject(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]))
          : value;
  return {
    ...answer,
    content: deep(answer.content) as CallToolResult["content"],
    ...(answer.structuredContent !== undefined
      ? { structuredContent: deep(answer.structuredContent) as Record<string, unknown> }
      : {}),
  };
}
