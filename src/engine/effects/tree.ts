import { ABSENT, type ToolError, type TreeEffect } from "../../catalog/index.js";
import { truthy } from "../../expr/index.js";
import { diff, isPlainObject, type Patch, toPointer } from "../../patch/index.js";
import type { State } from "../../state/index.js";
import * as world from "../../world/index.js";
import { valueAt } from "../state-access.js";
import { failureOf } from "./failures.js";
import { targetPath } from "./paths.js";
import { commit, EffectFailure, type Ran, type Run } from "./run.js";
import { resolve } from "./values.js";

/**
 * The `tree` effect: a file system kept in the state, read and changed by path through
 * `world/`, with the current folder kept where the effect says.
 */
export async function runTree(run: Run, effect: TreeEffect): Promise<Ran> {
  const target = targetPath(run, effect.target);
  if (!target) return undefined;
  // the target may hold the root folder itself rather than the names at the top
  const rootNode = isRootNode(valueAt(run.state, target), effect);
  const path = rootNode && effect.nodes.children ? [...target, effect.nodes.children] : target;
  const stored = valueAt(run.state, path);
  const top = isPlainObject(stored) ? stored : {};
  const cwdPath = effect.cwd?.split("/");
  const kept = cwdPath ? valueAt(run.state, cwdPath) : undefined;
  const tree: world.Tree = {
    top,
    nodes: effect.nodes,
    cwd:
      typeof kept === "string" && kept.startsWith("/")
        ? kept
        : rootNode
          ? "/"
          : world.homeOf(top, effect.nodes),
  };
  const outcome = await operate(run, effect, tree);
  if (!outcome.ok) throw new EffectFailure(treeFailure(run, effect, outcome.failure));
  const ops: Patch =
    outcome.top === top
      ? []
      : stored === undefined
        ? [{ op: "add", path: toPointer(path), value: outcome.top }]
        : diff(top, outcome.top, path);
  if (outcome.cwd !== undefined && cwdPath && outcome.cwd !== kept)
    ops.push(...setting(run.state, cwdPath, outcome.cwd));
  if (ops.length > 0) commit(run, ops, toPointer(path));
  return { value: outcome.value };
}

function isRootNode(value: unknown, effect: TreeEffect): boolean {
  const { children, kind } = effect.nodes;
  return (
    isPlainObject(value) &&
    children !== undefined &&
    kind !== undefined &&
    value[kind.field] === kind.folder &&
    isPlainObject(value[children])
  );
}

async function operate(run: Run, effect: TreeEffect, tree: world.Tree): Promise<world.TreeOutcome<unknown>> {
  const path = await text(run, effect.path, "path");
  const given = (what: string, value: string | undefined): string =>
    value ?? missingArgument(run, effect, what);
  switch (effect.op) {
    case "pwd":
      return world.pwd(tree);
    case "list":
      if (effect.nested) return world.nested(tree, path, effect.nested);
      return world.list(tree, path, {
        all: await flag(run, effect.all, "all"),
        foldersOnly: effect.foldersOnly,
        ...(effect.tags ? { tags: effect.tags } : {}),
        ...(effect.entries ? { entries: effect.entries } : {}),
        sorted: effect.sorted,
      });
    case "cd":
      return world.cd(tree, given("path", path));
    case "read":
      return effect.paths === undefined ? world.read(tree, given("path", path)) : readEach(run, effect, tree);
    case "info":
      return world.info(tree, path);
    case "size":
      return world.size(tree, path);
    case "find":
      return world.find(tree, path, {
        name: await text(run, effect.name, "name"),
        match: effect.match,
        absolute: effect.absolute,
        ...(effect.type ? { type: effect.type } : {}),
      });
    case "mkdir": {
      const parents = await flag(run, effect.parents, "parents");
      const existOk = effect.existOk === undefined ? parents : await flag(run, effect.existOk, "existOk");
      return world.mkdir(tree, given("path", path), parents, existOk);
    }
    case "touch":
      return world.touch(tree, given("path", path), effect.refuseExisting);
    case "write":
      return world.write(tree, given("path", path), (await text(run, effect.content, "content")) ?? "", {
        create: effect.create,
        append: typeof effect.append === "boolean" ? effect.append : await flag(run, effect.append, "append"),
        parents: await flag(run, effect.parents, "parents"),
      });
    case "edit":
      return edit(run, effect, tree, given("path", path));
    case "move":
      return world.move(tree, given("path", path), given("to", await text(run, effect.to, "to")));
    case "copy":
      return world.copy(tree, given("path", path), given("to", await text(run, effect.to, "to")));
    case "remove":
      return world.remove(tree, given("path", path), { kinds: effect.kinds, emptyOnly: effect.emptyOnly });
  }
}

/** Several files read at once; one that cannot be read is answered with its error, the rest still read. */
async function readEach(run: Run, effect: TreeEffect, tree: world.Tree): Promise<world.TreeOutcome<unknown>> {
  const given = await resolve(run, effect.paths, "paths");
  const paths = Array.isArray(given) ? given.filter((p): p is string => typeof p === "string") : [];
  const read = paths.map((path) => {
    const outcome = world.read(tree, path);
    if (outcome.ok) return { path, content: outcome.value };
    return { path, error: treeFailure(run, effect, outcome.failure).message };
  });
  return { ok: true, top: tree.top, value: read };
}

/**
 * Replacements in a file's text, answered as a short diff of the lines they changed; a dry
 * run answers the same and keeps the tree as it was. A replacement whose text is not in the
 * file changes nothing and answers the tool's documented error for it, else EDIT_NOT_APPLIED.
 */
async function edit(
  run: Run,
  effect: TreeEffect,
  tree: world.Tree,
  path: string,
): Promise<world.TreeOutcome<unknown>> {
  const given = effect.edits === undefined ? undefined : await resolve(run, effect.edits, "edits");
  const edits = world.textEdits(given);
  if (!edits) throw new EffectFailure(failureOf(run, BAD_EDITS.code, {}, undefined, BAD_EDITS));
  const before = world.read(tree, path);
  if (!before.ok) return before;
  const applied = world.applyEdits(before.value, edits);
  if (!applied.ok)
    throw new EffectFailure(
      failureOf(run, effect.errors.invalid ?? NO_MATCH.code, {}, `${path}: ${applied.message}`, NO_MATCH),
    );
  const summary = world.editSummary(path, applied.hunks);
  if (await flag(run, effect.dryRun, "dryRun")) return { ok: true, top: tree.top, value: summary };
  const written = world.write(tree, path, applied.text);
  return written.ok ? { ...written, value: summary } : written;
}

const NO_MATCH: ToolError = {
  code: "EDIT_NOT_APPLIED",
  status: 400,
  message: "The text to replace is not in the file.",
  when: "",
};

const BAD_EDITS: ToolError = {
  code: "INVALID_EDITS",
  status: 400,
  message: "The edits must be a list of {oldText, newText}, each a string.",
  when: "",
};

async function text(run: Run, value: unknown, key: string): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const resolved = await resolve(run, value, key);
  if (resolved === ABSENT || resolved === undefined || resolved === null) return undefined;
  return typeof resolved === "string" ? resolved : JSON.stringify(resolved);
}

async function flag(run: Run, value: unknown, key: string): Promise<boolean> {
  if (value === undefined) return false;
  const resolved = await resolve(run, value, key);
  return resolved !== ABSENT && truthy(resolved);
}

/** An operation that needs a path the call left out is refused as an invalid path. */
function missingArgument(run: Run, effect: TreeEffect, what: string): never {
  throw new EffectFailure(
    treeFailure(run, effect, { error: "invalid", path: "", detail: `no ${what} given` }),
  );
}

/** What a shell says for each kind of failure, as a documented error when the tool has none of its own. */
const SHELL_ERRORS: Readonly<Record<world.TreeErrorKind, ToolError>> = {
  missing: { code: "NOT_FOUND", status: 404, message: "No such file or directory.", when: "" },
  exists: { code: "ALREADY_EXISTS", status: 409, message: "File exists.", when: "" },
  "not-folder": { code: "NOT_A_DIRECTORY", status: 400, message: "Not a directory.", when: "" },
  "is-folder": { code: "IS_A_DIRECTORY", status: 400, message: "Is a directory.", when: "" },
  "not-empty": { code: "DIRECTORY_NOT_EMPTY", status: 409, message: "Directory not empty.", when: "" },
  invalid: { code: "INVALID_PATH", status: 400, message: "Invalid path.", when: "" },
};

function treeFailure(run: Run, effect: TreeEffect, failure: world.TreeError) {
  const code = effect.errors[failure.error] ?? SHELL_ERRORS[failure.error].code;
  const where = failure.path
    ? `${failure.path}${failure.detail ? `: ${failure.detail}` : ""}`
    : failure.detail;
  return failureOf(run, code, {}, where, SHELL_ERRORS[failure.error]);
}

/** Operations that put a value at a path, making the objects above it when they are missing. */
function setting(state: State, path: readonly string[], value: unknown): Patch {
  for (let depth = path.length - 1; depth >= 1; depth--) {
    if (valueAt(state, path.slice(0, depth)) === undefined) continue;
    let nested: unknown = value;
    for (let i = path.length - 1; i > depth; i--) nested = { [path[i] as string]: nested };
    const exists = valueAt(state, path.slice(0, depth + 1)) !== undefined;
    return [{ op: exists ? "replace" : "add", path: toPointer(path.slice(0, depth + 1)), value: nested }];
  }
  let nested: unknown = value;
  for (let i = path.length - 1; i > 0; i--) nested = { [path[i] as string]: nested };
  return [{ op: "add", path: toPointer(path.slice(0, 1)), value: nested }];
}
