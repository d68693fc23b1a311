import type { ToolFailure } from "../simulate/index.js";
import { wordsOf } from "../simulate/index.js";
import {
  editSummary,
  type RelocateOptions,
  type RemoveOptions,
  sparse,
  type TextEdit,
  type TreeError,
  textEdits,
} from "../world/index.js";
import { isIdentifierArgument, isPathLike, scalarIdentifiers } from "./identifiers.js";
import {
  dataOf,
  META_KEY,
  metaOf,
  type Overlay,
  type OverlayMeta,
  type OverlayRecord,
  type RecordPut,
} from "./overlay.js";
import type { Reality } from "./reality.js";

/**
 * The session's file system: the `paths` records of an upstream's overlay read as a sparse
 * view (world/) over the real file system, which toolsim asks about fact by fact through the
 * server's own reads. Simulated writes that name absolute paths change it with world's rules
 * (POSIX's: write, append, edit, mkdir, move and copy into a folder or by renaming, remove),
 * and reads of what they changed are answered from it (file-reads.ts).
 */

export const PATHS = "paths";

/** What a simulated call does to the file system, read from its name, description and arguments. */
export type FileOp =
  | { op: "write"; path: string; text: string; append: boolean }
  | { op: "edit"; path: string; edits: TextEdit[]; dryRun: boolean }
  | { op: "mkdir"; path: string; parents: boolean }
  | { op: "touch"; path: string }
  | { op: "move" | "copy"; from: string; to: string; options: RelocateOptions }
  | { op: "remove"; path: string; options: RemoveOptions };

export interface FileTool {
  original: string;
  description?: string;
  /** The tool's input properties (what it may be given). */
  parameters: readonly string[];
}

/** Arguments that carry a file's new text. */
const TEXT_ARGUMENTS = /^(content|contents|text|data|body)$/i;
const FOLDER_WORDS = new Set(["directory", "dir", "folder", "mkdir", "mkdirs", "makedirs"]);

/**
 * The file-system operation a simulated write performs, or undefined when it does not name
 * absolute paths in a way the file system's rules cover (it is then recorded generically).
 */
export function fileOpOf(
  kind: "write" | "delete" | "move" | "copy",
  tool: FileTool,
  args: Record<string, unknown>,
  pair?: { from: string; to: string },
): FileOp | undefined {
  const words = wordsOf(tool.original);
  const description = tool.description ?? "";
  if ((kind === "move" || kind === "copy") && pair) {
    if (!isPathLike(pair.from) || !isPathLike(pair.to)) return undefined;
    return { op: kind, from: pair.from, to: pair.to, options: relocateOptions(description, args) };
  }
  const paths = scalarIdentifiers(args).filter((s) => isPathLike(s.key));
  const target = paths[0];
  if (!target || paths.length > 1) return undefined;
  const path = target.key;
  if (kind === "delete") {
    const folder = words.some((w) => FOLDER_WORDS.has(w) || w === "rmdir");
    const file = words.includes("file");
    const recursive = args.recursive === true || args.force === true;
    const emptyOnly =
      words.includes("rmdir") || (folder && tool.parameters.includes("recursive") && !recursive);
    return {
      op: "remove",
      path,
      options: { kinds: folder && !file ? "folder" : file && !folder ? "file" : "any", emptyOnly },
    };
  }
  if (Array.isArray(args.edits)) {
    const edits = textEdits(args.edits);
    if (!edits) return undefined;
    return { op: "edit", path, edits, dryRun: args.dryRun === true || args.dry_run === true };
  }
  const textArgument = Object.keys(args).find(
    (name) => TEXT_ARGUMENTS.test(name) && !isIdentifierArgument(name),
  );
  const text = textArgument !== undefined ? args[textArgument] : undefined;
  if (typeof text === "string") return { op: "write", path, text, append: words.includes("append") };
  if (words.some((w) => FOLDER_WORDS.has(w))) {
    const parents =
      args.parents === true ||
      args.recursive === true ||
      /\b(nested|parent director|parents|ensure)/i.test(description) ||
      /already exists[^.]*succeed/i.test(description);
    return { op: "mkdir", path, parents };
  }
  if (words.includes("touch") || (words.includes("create") && words.includes("file")))
    return { op: "touch", path };
  return undefined;
}

/** A move that says it fails when the destination exists refuses any destination; otherwise mv's rules. */
function relocateOptions(description: string, args: Record<string, unknown>): RelocateOptions {
  const refuses =
    /destination[^.]*(exists|already)[^.]*(fail|error|refuse)/i.test(description) ||
    /(fail|error|refuse)s?[^.]*if[^.]*destination[^.]*exists/i.test(description);
  if (args.overwrite === true) return {};
  if (refuses || args.overwrite === false) return { into: false, replace: false };
  return {};
}

// ── the overlay's paths as a sparse view ─────────────────────────────────────

/** The session's changes to the file system, from its `paths` records. */
export function viewOf(overlay: Overlay): sparse.Changes {
  const changes: Record<string, sparse.Known> = {};
  for (const [key, record] of Object.entries(overlay[PATHS] ?? {})) {
    if (!isPathLike(key)) continue;
    const known = knownOf(record);
    if (known) changes[key] = known;
  }
  return changes;
}

function knownOf(record: OverlayRecord): sparse.Known | undefined {
  const meta = metaOf(record);
  if (meta?.origin !== "simulated") return undefined;
  if (meta.deleted) return { type: "absent" };
  const content = dataOf(record).content;
  if (meta.type === "folder") return { type: "folder", ...(meta.aliasOf ? { real: meta.aliasOf } : {}) };
  if (typeof content === "string") return { type: "file", content };
  if (meta.type === "file" || meta.aliasOf)
    return { type: "file", ...(meta.aliasOf ? { real: meta.aliasOf } : {}) };
  return undefined;
}

/** The records that turn one view into another, each marked with the tool and the time. */
export function putsBetween(
  before: sparse.Changes,
  after: sparse.Changes,
  overlay: Overlay,
  meta: { tool: string; at: string; movedTo?: { from: string; to: string } },
): RecordPut[] {
  const puts: RecordPut[] = [];
  for (const [key, known] of Object.entries(after)) {
    if (JSON.stringify(before[key]) === JSON.stringify(known)) continue;
    const common: OverlayMeta = { origin: "simulated", tool: meta.tool, at: meta.at };
    let record: OverlayRecord;
    if (known.type === "absent") {
      const movedTo = meta.movedTo?.from === key ? { movedTo: meta.movedTo.to } : {};
      record = { [META_KEY]: { ...common, deleted: true, ...movedTo } };
    } else if (known.type === "folder") {
      record = { [META_KEY]: { ...common, type: "folder", ...(known.real ? { aliasOf: known.real } : {}) } };
    } else if (known.content !== undefined) {
      record = { content: known.content, [META_KEY]: { ...common, type: "file" } };
    } else {
      record = { [META_KEY]: { ...common, type: "file", ...(known.real ? { aliasOf: known.real } : {}) } };
    }
    puts.push({ collection: PATHS, key, record });
  }
  for (const key of Object.keys(before))
    if (!(key in after) && overlay[PATHS]?.[key]) puts.push({ collection: PATHS, key, record: undefined });
  return puts;
}

// ── asking the real file system until an operation decides ──────────────────

/** A question nobody could answer (no tool reads the text an edit needs). */
export interface Unanswered {
  ok: false;
  unanswered: true;
}

/**
 * Runs a sparse operation or lookup, answering the questions it asks from the real server,
 * until it decides. With nobody to ask for a folder's entries, it assumes what the
 * operation needs; a text nobody can read leaves it undecided.
 */
export async function settle<R extends object>(
  changes: sparse.Changes,
  reality: Reality,
  operation: (tree: sparse.SparseTree) => R | sparse.Needs,
  facts: FactBook = newFacts(),
): Promise<Exclude<R, sparse.Needs> | Unanswered> {
  for (let round = 0; round < 64; round++) {
    const outcome = operation({ changes, real: facts.real, unknown: facts.assume ? "assume" : "ask" });
    if (!isNeeds(outcome)) return outcome as Exclude<R, sparse.Needs>;
    for (const question of outcome.needs) {
      if (question.ask === "list") {
        const listed = await reality.list(question.path);
        if (listed === undefined) facts.assume = true;
        else facts.folders[question.path] = listed;
      } else {
        const text = await reality.read(question.path);
        if (text === undefined) return { ok: false, unanswered: true };
        facts.texts[question.path] = text;
      }
    }
  }
  return { ok: false, unanswered: true };
}

function isNeeds(value: object): value is sparse.Needs {
  return "needs" in value && Array.isArray((value as sparse.Needs).needs);
}

/** What was learned of the real file system during one call, shared by its operations. */
export interface FactBook {
  folders: Record<string, Readonly<Record<string, sparse.EntryKind>> | null>;
  texts: Record<string, string | null>;
  assume: boolean;
  readonly real: sparse.RealFacts;
}

export function newFacts(): FactBook {
  const folders: FactBook["folders"] = {};
  const texts: FactBook["texts"] = {};
  return { folders, texts, assume: false, real: { folders, texts } };
}

// ── simulated writes ────────────────────────────────────────────────────────

export interface FileChange {
  puts: RecordPut[];
  /** What the call did, in words, for tools whose result is one line of text. */
  message: string;
  failure?: ToolFailure;
}

/** Runs a simulated write on the session's file system and says what records it leaves. */
export async function planFileChange(
  op: FileOp,
  tool: string,
  overlay: Overlay,
  reality: Reality,
  at: string,
): Promise<FileChange> {
  const before = viewOf(overlay);
  const run = <T>(operation: (tree: sparse.SparseTree) => sparse.SparseOutcome<T>) =>
    settle(before, reality, operation);
  const unchanged = "in simulation; the real system is unchanged.";
  switch (op.op) {
    case "write": {
      const done = await run((t) => sparse.write(t, op.path, op.text, { create: true, append: op.append }));
      return outcome(done, before, overlay, { tool, at }, `${tool} applied to ${op.path} ${unchanged}`);
    }
    case "touch": {
      const done = await run((t) => sparse.touch(t, op.path));
      return outcome(done, before, overlay, { tool, at }, `${tool} applied to ${op.path} ${unchanged}`);
    }
    case "mkdir": {
      const done = await run((t) => sparse.mkdir(t, op.path, op.parents));
      return outcome(done, before, overlay, { tool, at }, `${tool} applied to ${op.path} ${unchanged}`);
    }
    case "remove": {
      const done = await run((t) => sparse.remove(t, op.path, op.options));
      return outcome(done, before, overlay, { tool, at }, `${tool} applied to ${op.path} ${unchanged}`);
    }
    case "move":
    case "copy": {
      const relocate = op.op === "move" ? sparse.move : sparse.copy;
      const done = await run((t) => relocate(t, op.from, op.to, op.options));
      const landing = done.ok ? done.value : op.to;
      const verb = op.op === "move" ? "moved" : "copied";
      return outcome(
        done,
        before,
        overlay,
        { tool, at, ...(op.op === "move" ? { movedTo: { from: op.from, to: landing } } : {}) },
        `${op.from} ${verb} to ${landing} ${unchanged}`,
      );
    }
    case "edit": {
      const done = await run((t) => sparse.edit(t, op.path, op.edits));
      if (!done.ok && "unanswered" in done) {
        const unknown = opaque(op.path, tool, at);
        return op.dryRun ? { puts: [], message: unknown.message } : unknown;
      }
      if (done.ok) {
        const summary = editSummary(op.path, done.value.hunks);
        if (op.dryRun) return { puts: [], message: summary };
        return outcome(done, before, overlay, { tool, at }, summary);
      }
      return outcome(done, before, overlay, { tool, at }, "");
    }
  }
}

function outcome(
  done: sparse.SparseOutcome<unknown> | Unanswered,
  before: sparse.Changes,
  overlay: Overlay,
  meta: { tool: string; at: string; movedTo?: { from: string; to: string } },
  message: string,
): FileChange {
  if (done.ok) return { puts: putsBetween(before, done.changes, overlay, meta), message };
  if ("failure" in done) return failed(describeFailure(done.failure));
  return failed({
    code: "UNKNOWN_REAL_STATE",
    status: 503,
    message: `${meta.tool}: the real file system could not be asked what is there, so nothing was changed.`,
  });
}

/** An edit of a file whose text nobody can read: the file is marked as changed, its text unknown. */
function opaque(path: string, tool: string, at: string): FileChange {
  const record = { [META_KEY]: { origin: "simulated", tool, at, type: "file", opaque: true } };
  return {
    puts: [{ collection: PATHS, key: path, record }],
    message: `${tool} on ${path} simulated, but its current content is unknown, so the edited content is too.`,
  };
}

const FAILURES: Record<TreeError["error"], { code: string; status: number; text: string }> = {
  missing: { code: "NOT_FOUND", status: 404, text: "no such file or directory" },
  exists: { code: "ALREADY_EXISTS", status: 409, text: "already exists" },
  "not-folder": { code: "NOT_A_DIRECTORY", status: 400, text: "not a directory" },
  "is-folder": { code: "IS_A_DIRECTORY", status: 400, text: "is a directory" },
  "not-empty": { code: "DIRECTORY_NOT_EMPTY", status: 409, text: "directory not empty" },
  invalid: { code: "INVALID_PATH", status: 400, text: "invalid" },
};

function describeFailure(failure: TreeError): ToolFailure {
  const kind = FAILURES[failure.error];
  if (failure.error === "invalid" && failure.detail)
    return { code: kind.code, status: kind.status, message: `${failure.detail}\nNothing was changed.` };
  const detail = failure.detail ? ` (${failure.detail})` : "";
  return {
    code: kind.code,
    status: kind.status,
    message: `${failure.path}: ${kind.text}${detail}. Nothing was changed, in simulation or for real.`,
  };
}

function failed(failure: ToolFailure): FileChange {
  return { puts: [], message: failure.message, failure };
}
