import type { JsonSchema } from "../catalog/index.js";
import { addError, addGap, type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, OutputFact, Param } from "./facts.js";
import { identifier } from "./reads.js";
import { namedPart } from "./resolve.js";
import type { TreeShape } from "./shape.js";
import { nameWords } from "./words.js";

/**
 * File systems: tools that list, change folder, make, read, write, move, copy, remove and
 * find files and folders by path, in the tree the state keeps. The operations and their
 * names are POSIX's (ls, cd, pwd, mkdir, touch, cat, echo, mv, cp, rm, rmdir, find, du,
 * grep, sort, head, tail, wc), which shells, SFTP, WebDAV and the file-system MCP servers
 * all follow; a tool is read by its name's verbs and the path its arguments give.
 */

type TreeOp =
  | "pwd"
  | "list"
  | "cd"
  | "read"
  | "info"
  | "size"
  | "find"
  | "mkdir"
  | "touch"
  | "write"
  | "edit"
  | "move"
  | "copy"
  | "remove"
  | "grep"
  | "sort"
  | "head"
  | "tail"
  | "wc"
  | "diff";

const FOLDER_NOUNS = /^(dir|dirs|directory|directories|folder|folders)$/;
const FILE_NOUNS = /^(file|files|path|paths|content|contents|document|documents)$/;

/** The tree a tool works on: the one its name names, else the world's only tree. */
export function treeFor(ctx: Context): TreeShape | undefined {
  // a tree of records (pages, menu entries) is addressed by its own rules
  const trees = ctx.shape.parts.filter((p): p is TreeShape => p.kind === "tree" && !p.records);
  if (trees.length === 0) return undefined;
  return namedPart(ctx.facts, ctx.shape, ["tree"]) ?? (trees.length === 1 ? trees[0] : undefined);
}

/** What a tool does to a tree, by its name's words; undefined when it is not a file-system tool. */
function opOf(ctx: Context): TreeOp | undefined {
  const words = ctx.facts.words;
  const has = (...w: string[]) => words.some((x) => w.includes(x));
  const folder = words.some((w) => FOLDER_NOUNS.test(w));
  const file = words.some((w) => FILE_NOUNS.test(w));
  const about = folder || file || pathParams(ctx).length > 0;
  // the names of POSIX utilities and of the file APIs of scripting languages (os, shutil, pathlib)
  if (has("pwd", "getcwd", "cwd")) return "pwd";
  // `get_current_directory`, `working_folder`: where one is, as `pwd` and Python's `os.getcwd` say
  if (
    has("current", "working") &&
    folder &&
    pathParams(ctx).length === 0 &&
    !has("list", "ls", "change", "cd")
  )
    return "pwd";
  if (has("cd", "chdir") || (has("change") && folder)) return "cd";
  if (has("ls", "listdir", "scandir", "readdir") || (has("list") && about)) return "list";
  // `directory_tree(path)`, `tree`: what a folder holds
  if (has("tree") && (folder || pathParams(ctx).length > 0)) return "list";
  if (has("mkdir", "makedirs", "mkdirs") || (has("make", "create", "new", "add") && folder)) return "mkdir";
  if (has("glob")) return "find";
  if (has("unlink")) return "remove";
  if (has("rmtree")) return "remove";
  if (has("copyfile", "copytree", "copy2")) return "copy";
  if (has("touch") || (has("create", "new", "make") && file)) return "touch";
  if (has("rmdir") || (has("remove", "delete", "rm") && folder && !file)) return "remove";
  if (has("rm") || (has("remove", "delete", "unlink") && about)) return "remove";
  if (has("mv", "move", "rename") && about) return "move";
  if (has("cp", "copy") && about) return "copy";
  if (has("grep")) return "grep";
  if (has("sort") && about) return "sort";
  if (has("head") && about) return "head";
  if (has("tail") && about) return "tail";
  if (has("wc")) return "wc";
  if (has("diff", "compare") && about) return "diff";
  if (has("du") || (has("disk") && has("usage"))) return "size";
  if (has("stat", "info") && about) return "info";
  if (has("find", "search", "locate") && about) return "find";
  // `edit_file(path, edits)`, `str_replace(path, old_str, new_str)`: replacements in a file's text
  if (has("edit", "patch", "replace", "modify", "update") && about && editsOf(ctx)) return "edit";
  if (has("echo", "write", "append", "save", "put", "upload") && about) return "write";
  if (has("cat") || (has("read", "view", "show", "display", "get", "open") && (file || about))) return "read";
  return undefined;
}

/** Arguments that hold a path or a name in the tree, in their order. */
function pathParams(ctx: Context): Param[] {
  return ctx.facts.params.filter((p) => {
    if (p.type !== "string") return false;
    const words = p.words;
    return (
      words.some((w) =>
        /^(path|file|filename|files|dir|directory|folder|source|src|destination|dest|dst|target)$/.test(w),
      ) || /^(name|to|from)$/.test(p.name)
    );
  });
}

const DESTINATION = /^(destination|dest|dst|to|target|new|new_name|new_path|newpath)/;

export function treeRule(ctx: Context, tree: TreeShape): Draft[] | undefined {
  const op = opOf(ctx);
  if (!op) return undefined;
  const paths = pathParams(ctx);
  const to = paths.find((p) => DESTINATION.test(p.name));
  const primary = paths.find((p) => p !== to && p.required) ?? paths.find((p) => p !== to);
  const base = {
    kind: "tree",
    target: tree.path.join("/"),
    cwd: cwdPath(ctx),
    ...(Object.keys(tree.nodes).length > 0 ? { nodes: tree.nodes } : {}),
    // where nothing says which folders exist, a file written makes the folders above it
    ...(tree.foldersUnknown && (op === "write" || op === "mkdir") ? { parents: { $expr: "true" } } : {}),
  };
  const value = (p: Param | undefined) => (p ? `{${p.name}}` : undefined);
  switch (op) {
    case "pwd":
      return answer(ctx, op, [{ ...base, op: "pwd", as: "value" }], "string");
    case "cd":
      if (!primary) return undefined;
      return answer(
        ctx,
        op,
        [
          {
            ...base,
            op: "cd",
            path: value(primary),
            errors: errorsFor(ctx, ["missing", "not-folder"]),
            as: "value",
          },
        ],
        "string",
      );
    case "list": {
      const nested = nestedListing(ctx);
      if (nested) return nestedRule(ctx, base, nested, primary);
      // with no path and no current folder (nor docs that speak of one), which folder a listing
      // means is not said
      // (`list_shared_folders`: which folders may be opened is an account's setting, not the tree's)
      if (!primary && !tree.cwd && !/\b(current|working)\b/i.test(ctx.facts.tool.description))
        addGap(ctx, "it names no folder and the world keeps no current one: the root it lists is a guess");
      const all = ctx.facts.params.find(
        (p) => p.type === "boolean" && /^(a|all|show_hidden|hidden|include_hidden)$/.test(p.name),
      );
      const records = listingEntries(ctx, tree);
      const sorted =
        /\b(?:sorted|ordered)\s+(?:alphabetically|by\s+(?:its\s+|their\s+)?(?:file\s*)?name)|\balphabetical/i.test(
          ctx.facts.tool.description,
        );
      const listing = {
        ...base,
        op: "list",
        ...(primary ? { path: value(primary) } : {}),
        ...(all ? { all: `{${all.name}}` } : {}),
        // a tool that documents "not a directory" lists folders only (listdir), not a file as itself (ls)
        ...(documents(ctx, "not-folder") ? { foldersOnly: true } : {}),
        ...(sorted ? { sorted: true } : {}),
        errors: errorsFor(ctx, documents(ctx, "not-folder") ? ["missing", "not-folder"] : ["missing"]),
        as: "value",
      };
      if (records) {
        ctx.notes.push(`lists the folder as records, answered under ${records.output}`);
        return [
          { ...listing, entries: records.entries },
          { kind: "respond", output: records.output, value: { $expr: "$value" } },
        ];
      }
      return answer(ctx, op, [{ ...listing, ...listingTags(ctx.facts.tool.description) }], "array");
    }
    case "read":
      if (!primary) return readEachRule(ctx, base);
      return answer(
        ctx,
        op,
        [
          {
            ...base,
            op: "read",
            path: value(primary),
            errors: errorsFor(ctx, ["missing", "is-folder"]),
            as: "value",
          },
        ],
        "string",
      );
    case "info":
      return infoRule(ctx, base, primary);
    case "size":
      return answer(
        ctx,
        op,
        [
          {
            ...base,
            op,
            ...(primary ? { path: value(primary) } : {}),
            errors: errorsFor(ctx, ["missing"]),
            as: "value",
          },
        ],
        op === "size" ? "number" : "object",
      );
    case "find": {
      const where = paths.find(
        (p) => p.name === "path" || p.words.includes("dir") || p.words.includes("directory"),
      );
      // the name looked for may be the only argument (`search_files(name)`): only the folder is not it
      const name = ctx.facts.params.find(
        (p) => p.type === "string" && p !== where && /^(name|pattern|query|filename|file_name)$/.test(p.name),
      );
      const contains = /\bcontain/i.test(ctx.facts.text);
      return answer(
        ctx,
        op,
        [
          {
            ...base,
            op: "find",
            ...(where ? { path: value(where) } : {}),
            ...(name ? { name: value(name) } : {}),
            match: contains ? "contains" : "glob",
            ...(/\babsolute\b/i.test(ctx.facts.text) ? { absolute: true } : {}),
            errors: errorsFor(ctx, ["missing"]),
            as: "value",
          },
        ],
        "array",
      );
    }
    case "mkdir": {
      if (!primary) return undefined;
      const parents = ctx.facts.params.find(
        (p) => p.type === "boolean" && /^(p|parents|recursive)$/.test(p.name),
      );
      const existOk = ctx.facts.params.find(
        (p) => p.type === "boolean" && /^(exist_ok|exists_ok|if_not_exists)$/.test(p.name),
      );
      // makedirs makes the folders above it too
      const always =
        ctx.facts.words.some((w) => w === "makedirs" || w === "mkdirs") ||
        /\bmkdir -p\b|missing parent/i.test(ctx.facts.text);
      return changed(ctx, op, primary, [
        {
          ...base,
          op: "mkdir",
          path: value(primary),
          ...(always ? { parents: { $expr: "true" } } : parents ? { parents: `{${parents.name}}` } : {}),
          ...(existOk ? { existOk: `{${existOk.name}}` } : always ? { existOk: { $expr: "false" } } : {}),
          errors: errorsFor(ctx, ["missing", "exists", "not-folder"]),
          as: "value",
        },
      ]);
    }
    case "touch": {
      if (!primary) return undefined;
      const refuses = ctx.facts.errors.some((e) => /exist/.test(e.text));
      return changed(ctx, op, primary, [
        {
          ...base,
          op: "touch",
          path: value(primary),
          refuseExisting: refuses,
          errors: errorsFor(ctx, ["missing", "exists"]),
          as: "value",
        },
      ]);
    }
    case "write":
      return writeRule(ctx, base, primary);
    case "edit":
      return editRule(ctx, base, primary);
    case "move":
    case "copy":
      if (!primary || !to) return undefined;
      return changed(ctx, op, primary, [
        {
          ...base,
          op,
          path: value(primary),
          to: value(to),
          errors: errorsFor(ctx, ["missing", "exists", "not-folder"]),
          as: "value",
        },
      ]);
    case "remove": {
      if (!primary) return undefined;
      const words = ctx.facts.words;
      // rmdir takes empty folders, rmtree whole folders, unlink files; rm and remove take either
      const tree = words.includes("rmtree");
      const folderOnly =
        tree ||
        words.includes("rmdir") ||
        (words.some((w) => FOLDER_NOUNS.test(w)) && !words.some((w) => FILE_NOUNS.test(w)));
      const fileOnly = words.includes("unlink") || (words.some((w) => /^files?$/.test(w)) && !folderOnly);
      const kinds = folderOnly ? "folder" : fileOnly ? "file" : "any";
      return changed(ctx, op, primary, [
        {
          ...base,
          op: "remove",
          path: value(primary),
          kinds,
          // a documented "folder not empty" error says a folder goes only once it is empty
          emptyOnly: !tree && (folderOnly || documents(ctx, "not-empty")),
          errors: errorsFor(ctx, ["missing", "not-empty", "not-folder", "is-folder"]),
          as: "value",
        },
      ]);
    }
    case "grep":
    case "sort":
    case "head":
    case "tail":
    case "wc":
      return textRule(ctx, base, op, primary);
    case "diff":
      return diffRule(ctx, base, paths);
  }
}

/**
 * Two files compared line by line: the lines that differ at each position, the first file's
 * marked `- ` and the second's `+ ` (as difflib's ndiff and the diff views of GitHub and
 * GitLab mark them), nothing when the files are equal, as every diff prints nothing then.
 */
function diffRule(ctx: Context, base: Record<string, unknown>, paths: readonly Param[]): Draft[] | undefined {
  const files = paths.slice(0, 2);
  if (files.length < 2) return undefined;
  const reads: Draft[] = files.map((f, i) => ({
    ...base,
    kind: "tree",
    op: "read",
    path: `{${f.name}}`,
    errors: errorsFor(ctx, ["missing", "is-folder"]),
    as: `text${i + 1}`,
  }));
  const output = outputFor(ctx.facts.outputs, "string");
  ctx.notes.push(`reads ${files.map((f) => f.name).join(" and ")} and answers the lines that differ`);
  if (!output) return reads;
  const lines = (text: string) =>
    `$filter($split(${text}, "\\n"), function($v, $i, $a) { $i < $count($a) - 1 or $v != "" })`;
  const expr = `($a := ${lines("$text1")}; $b := ${lines("$text2")}; $n := $max([$count($a), $count($b)]); $d := $map($n > 0 ? [0..$n - 1] : [], function($i) { $a[$i] = $b[$i] ? "" : $join([$exists($a[$i]) ? "- " & $a[$i], $exists($b[$i]) ? "+ " & $b[$i]], "\\n") })[$ != ""]; $exists($d) ? $join($d, "\\n") : "")`;
  return [...reads, { kind: "respond", output: output.name, value: { $expr: expr } }];
}

/** What a path is, answered under the output properties that ask for it (`type`, `size`, `name`, `path`). */
function infoRule(ctx: Context, base: Record<string, unknown>, primary: Param | undefined): Draft[] {
  const read: Draft = {
    ...base,
    kind: "tree",
    op: "info",
    ...(primary ? { path: `{${primary.name}}` } : {}),
    errors: errorsFor(ctx, ["missing"]),
    as: "value",
  };
  const known = ["name", "path", "type", "size"];
  const answers: Draft[] = ctx.facts.outputs
    .filter((o) => known.includes(o.name))
    .map((o) => ({ kind: "respond", output: o.name, value: { $expr: `$value.${o.name}` } }));
  // asked for as one text: a `field: value` line each, as `stat` and file servers print metadata
  const lone =
    ctx.facts.outputs.length === 1 && ctx.facts.outputs[0]?.type === "string"
      ? ctx.facts.outputs[0]
      : undefined;
  if (answers.length === 0 && lone) {
    answers.push({
      kind: "respond",
      output: lone.name,
      value: { $expr: `$join($each($value, function($v, $k) { $k & ": " & $v }), "\n")` },
    });
    // which facts the API lists (times, permissions) and in which words is its own
    addGap(
      ctx,
      `${lone.name} lists name, path, type and size as "field: value" lines: which facts of a path the API lists, and in which words, is a guess`,
    );
  }
  ctx.notes.push(
    `info in the tree${answers.length > 0 ? `, answering ${answers.map((a) => a.output).join(", ")}` : ""}`,
  );
  return [
    read,
    ...(answers.length > 0 || ctx.facts.outputs.length > 0
      ? answers
      : [{ kind: "respond", value: { $expr: "$value" } }]),
  ];
}

/** Where the current folder is kept: `runtime/cwd`, or one per tree when the world has several. */
function cwdPath(ctx: Context): string {
  const kept = treeFor(ctx)?.cwd;
  if (kept) return kept.join("/");
  const trees = ctx.shape.parts.filter((p) => p.kind === "tree");
  return trees.length > 1
    ? `runtime/cwd_${(treeFor(ctx)?.name ?? "tree").replace(/[^A-Za-z0-9_]/g, "_")}`
    : "runtime/cwd";
}

/**
 * `echo`-like tools write text to a file; without a file they only answer the text (the
 * file argument is optional: the text goes to the terminal).
 */
function writeRule(
  ctx: Context,
  base: Record<string, unknown>,
  file: Param | undefined,
): Draft[] | undefined {
  const content = ctx.facts.params.find(
    (p) => p.type === "string" && /^(content|contents|text|data|body|message|line|lines)$/.test(p.name),
  );
  if (!content || !file) return undefined;
  // an `append` argument decides per call; otherwise the name or the description does
  const flag = ctx.facts.params.find((p) => p.type === "boolean" && /^(append|add)$/.test(p.name));
  const append: boolean | string = flag
    ? `{${flag.name}}`
    : ctx.facts.words.includes("append") || /\bappend/i.test(ctx.facts.tool.description);
  // "created when it does not exist", "creating it if missing", "creating it if needed"
  const creates = ctx.facts.text
    .split(/(?<=[.;:])\s/)
    .some(
      (sentence) =>
        /\bcreat\w*/i.test(sentence) &&
        /n[o']t exist|missing|absent|new file|if (needed|necessary)|as needed|when needed/i.test(sentence),
    );
  const drafts: Draft[] = [
    {
      ...base,
      kind: "tree",
      op: "write",
      path: `{${file.name}}`,
      content: `{${content.name}}`,
      append,
      create: creates,
      errors: errorsFor(ctx, ["missing", "is-folder"]),
      as: "value",
      ...(file.required ? {} : { when: `$exists($args.${identifier(file.name)})` }),
    },
  ];
  if (!file.required) {
    const text = ctx.facts.outputs.find((o) => o.type === "string");
    if (text)
      drafts.push({
        kind: "respond",
        when: `$not($exists($args.${identifier(file.name)}))`,
        output: text.name,
        value: `{${content.name}}`,
      });
    ctx.notes.push(`writes ${content.name} to ${file.name}, or answers it when no file is given`);
    return drafts;
  }
  ctx.notes.push(
    `${append === true ? "appends" : flag ? `writes (appends when ${flag.name})` : "writes"} ${content.name} to ${file.name}`,
  );
  // a write answers the path it wrote, as a change does, where an output holds one
  return changed(ctx, "write", undefined, drafts);
}

/**
 * Several files read in one call (`read_multiple_files(paths)`, a batch get of paths): each
 * file's text under its path, and for one that cannot be read its error, the others still
 * read, as batch reads of the file-system MCP server, Google Drive's and S3's batch APIs do.
 */
function readEachRule(ctx: Context, base: Record<string, unknown>): Draft[] | undefined {
  const list = ctx.facts.params.find(
    (p) =>
      p.type === "array" &&
      p.itemType === "string" &&
      p.words.some((w) => /^(paths|files|filenames)$/.test(w)),
  );
  if (!list) return undefined;
  const output = outputFor(ctx.facts.outputs, "string");
  ctx.notes.push(`reads each of ${list.name} in the tree${output ? `, answered under ${output.name}` : ""}`);
  // as text: each file's path, then its text (or what went wrong), the files set apart by a rule
  const text = `$join($map($value, function($r) { $exists($r.error) ? $r.path & ": Error - " & $r.error : $r.path & ":\n" & $r.content }), "\n---\n")`;
  return [
    {
      ...base,
      kind: "tree",
      op: "read",
      paths: `{${list.name}}`,
      errors: errorsFor(ctx, ["missing", "is-folder"]),
      as: "value",
    },
    {
      kind: "respond",
      ...(output ? { output: output.name } : {}),
      value: { $expr: output?.type === "string" ? text : "$value" },
    },
  ];
}

/**
 * A listing whose docs say it answers a JSON tree of nodes with children (`directory_tree`):
 * the node types in the docs' words (`'type' (file/directory)`), indented where they say so.
 */
function nestedListing(
  ctx: Context,
): { types: { file: string; folder: string }; indent: boolean } | undefined {
  const text = ctx.facts.tool.description;
  if (!/\bjson\b/i.test(text) || !/\bchildren\b/i.test(text)) return undefined;
  const named = /\b(file)\s*(?:\/|\bor\b)\s*['"]?(directory|folder|dir)\b/i.exec(text);
  return {
    types: named
      ? { file: named[1] as string, folder: named[2] as string }
      : { file: "file", folder: "directory" },
    indent: /\bindent/i.test(text),
  };
}

function nestedRule(
  ctx: Context,
  base: Record<string, unknown>,
  nested: { types: { file: string; folder: string }; indent: boolean },
  primary: Param | undefined,
): Draft[] {
  const output = outputFor(ctx.facts.outputs, "string");
  ctx.notes.push(
    `lists everything under the folder, nested${output ? `, answered under ${output.name}` : ""}`,
  );
  return [
    {
      ...base,
      kind: "tree",
      op: "list",
      ...(primary ? { path: `{${primary.name}}` } : {}),
      nested: nested.types,
      errors: errorsFor(ctx, ["missing", "not-folder"]),
      as: "value",
    },
    {
      kind: "respond",
      ...(output ? { output: output.name } : {}),
      value: { $expr: output?.type === "string" ? `$string($value, ${nested.indent})` : "$value" },
    },
  ];
}

/**
 * The tags a listing's docs say mark files and folders (`[FILE]` and `[DIR]`, as the
 * file-system MCP server, FTP clients' `[D]` and many shells' tools print them).
 */
function listingTags(
  description: string,
): { tags: { file: string; folder: string } } | Record<string, never> {
  const file = /\[(?:file|f)\]/i.exec(description)?.[0];
  const folder = /\[(?:dir|directory|folder|d)\]/i.exec(description)?.[0];
  return file && folder ? { tags: { file, folder } } : {};
}

/**
 * "entries: array of {name, type}": a listing answered as records, each child's name under
 * the item's name field and what it is under its kind field (in the words the state or the
 * item's enum uses), and the node's own fields the item also has, as Google Drive's
 * `files.list`, Dropbox's `list_folder` and GitHub's contents API answer a folder.
 */
function listingEntries(ctx: Context, tree: TreeShape): { entries: Entries; output: string } | undefined {
  const lists = ctx.facts.outputs.filter((o) => o.type === "array" && o.itemProperties !== undefined);
  const output = lists.length === 1 ? lists[0] : undefined;
  const items = output?.itemProperties;
  if (!output || !items) return undefined;
  const name = ["name", "filename", "file_name", "basename", "title"].find((n) => n in items);
  if (!name) return undefined;
  const kindField = [tree.nodes.kind?.field, "type", "kind", "entry_type"].find(
    (k) => k !== undefined && k !== name && k in items,
  );
  const kind = kindField ? { field: kindField, ...kindWords(tree, items[kindField]) } : undefined;
  const fields = Object.keys(items).filter((f) => f !== name && f !== kindField);
  return {
    output: output.name,
    entries: { name, ...(kind ? { kind } : {}), ...(fields.length > 0 ? { fields } : {}) },
  };
}

/** How a listing's record names its child, says what it is, and repeats the node's fields (the tree effect's `entries`). */
interface Entries {
  name: string;
  kind?: { field: string; folder: string; file: string };
  fields?: string[];
}

/** The words an entry says it is a folder or a file in: the item's enum's, else the state's, else plain ones. */
function kindWords(tree: TreeShape, schema: JsonSchema | undefined): { folder: string; file: string } {
  const words = Array.isArray(schema?.enum)
    ? schema.enum.filter((w): w is string => typeof w === "string")
    : [];
  const folder = words.find((w) => /dir|folder/i.test(w)) ?? tree.nodes.kind?.folder ?? "folder";
  const file = words.find((w) => /file/i.test(w)) ?? tree.nodes.kind?.file ?? "file";
  return { folder, file };
}

/** The replacements an editing tool takes: a list of {old, new} pairs, or one pair of arguments. */
function editsOf(ctx: Context): { list: Param } | { old: Param; new: Param } | undefined {
  const pair = (names: readonly string[]) => {
    const old = names.find((n) => OLD_TEXT.test(n));
    const replacement = names.find((n) => NEW_TEXT.test(n));
    return old && replacement ? { old, replacement } : undefined;
  };
  const list = ctx.facts.params.find((p) => p.type === "array" && pair(p.itemProperties ?? []));
  if (list) return { list };
  const strings = ctx.facts.params.filter((p) => p.type === "string");
  const found = pair(strings.map((p) => p.name));
  const old = strings.find((p) => p.name === found?.old);
  const replacement = strings.find((p) => p.name === found?.replacement);
  return old && replacement ? { old, new: replacement } : undefined;
}

// the names editors give the two texts: oldText/newText, old_str/new_str, old_string/new_string
const OLD_TEXT = /^old_?(text|str|string)$/i;
const NEW_TEXT = /^new_?(text|str|string)$/i;

/**
 * Replacements in a file's text, each of the first exact occurrence, answered as a diff of
 * the lines changed; a text not found fails and changes nothing (the file-system MCP
 * server's `edit_file`, the text editor tools of coding agents, `sed`'s first-match `s///`).
 */
function editRule(ctx: Context, base: Record<string, unknown>, file: Param | undefined): Draft[] | undefined {
  const edits = editsOf(ctx);
  if (!file || !edits) return undefined;
  const dryRun = ctx.facts.params.find((p) => p.type === "boolean" && /^(dry_?run|preview)$/i.test(p.name));
  const value =
    "list" in edits
      ? `{${edits.list.name}}`
      : {
          $expr: `[{"oldText": $args.${identifier(edits.old.name)}, "newText": $args.${identifier(edits.new.name)}}]`,
        };
  return answer(
    ctx,
    "edit",
    [
      {
        ...base,
        kind: "tree",
        op: "edit",
        path: `{${file.name}}`,
        edits: value,
        ...(dryRun ? { dryRun: `{${dryRun.name}}` } : {}),
        errors: errorsFor(ctx, ["missing", "is-folder"]),
        as: "value",
      },
    ],
    "string",
  );
}

/**
 * POSIX text utilities on a file's content: grep (lines containing a pattern), sort (lines
 * in order), head and tail (the first or last lines, ten by default), wc (lines, words or
 * characters).
 */
function textRule(
  ctx: Context,
  base: Record<string, unknown>,
  op: "grep" | "sort" | "head" | "tail" | "wc",
  file: Param | undefined,
): Draft[] | undefined {
  if (!file) return undefined;
  const read: Draft = {
    ...base,
    kind: "tree",
    op: "read",
    path: `{${file.name}}`,
    errors: errorsFor(ctx, ["missing", "is-folder"]),
    as: "text",
  };
  // the text's lines, a trailing newline ending the last rather than starting an empty one
  const split = `$filter($split($text, "\\n"), function($v, $i, $a) { $i < $count($a) - 1 or $v != "" })`;
  const count = ctx.facts.params.find(
    (p) => (p.type === "integer" || p.type === "number") && /^(n|lines|count|num|number)$/.test(p.name),
  );
  const n = count
    ? `($exists($args.${identifier(count.name)}) ? $args.${identifier(count.name)} : 10)`
    : "10";
  let expr: string;
  let type: "array" | "string" | "number";
  switch (op) {
    case "grep": {
      const pattern = ctx.facts.params.find((p) => p !== file && p.type === "string");
      if (!pattern) return undefined;
      expr = `[${split}[$contains($, $args.${identifier(pattern.name)})]]`;
      type = "array";
      break;
    }
    case "sort":
      expr = `$join($sort(${split}), "\\n")`;
      type = "string";
      break;
    case "head":
      expr = `($all := ${split}; $join($filter($all, function($v, $i) { $i < ${n} }), "\\n"))`;
      type = "string";
      break;
    case "tail":
      expr = `($all := ${split}; $join($filter($all, function($v, $i) { $i >= $count($all) - ${n} }), "\\n"))`;
      type = "string";
      break;
    case "wc": {
      const mode = ctx.facts.params.find((p) => p !== file && p.type === "string");
      const m = mode ? `$args.${identifier(mode.name)}` : `"l"`;
      expr = `${words(m)} ? $count($split($trim($text), /\\s+/)[$ != ""]) : ${characters(m)} ? $length($text) : $count(${split})`;
      type = "number";
      break;
    }
  }
  ctx.notes.push(`reads ${file.name} and answers ${op}'s result on its text`);
  const output = outputFor(ctx.facts.outputs, type);
  const drafts: Draft[] = [
    read,
    { kind: "respond", ...(output ? { output: output.name } : {}), value: { $expr: expr } },
  ];
  // wc's counts are of lines, words or characters; an output asking which says it
  const unit = op === "wc" ? ctx.facts.outputs.find((o) => o !== output && o.type === "string") : undefined;
  if (unit && /^(type|kind|unit|units|mode|what)$/.test(unit.name)) {
    const mode = ctx.facts.params.find((p) => p !== file && p.type === "string");
    const m = mode ? `$args.${identifier(mode.name)}` : `"l"`;
    drafts.push({
      kind: "respond",
      output: unit.name,
      value: { $expr: `${words(m)} ? "words" : ${characters(m)} ? "characters" : "lines"` },
    });
  }
  return drafts;
}

/** wc's modes, by POSIX flag letter or name: -w words, -c and -m characters, else lines. */
function words(mode: string): string {
  return `(${mode} = "w" or ${mode} = "words")`;
}

function characters(mode: string): string {
  return `(${mode} = "c" or ${mode} = "m" or ${mode} = "chars" or ${mode} = "characters")`;
}

/** The value of a reading operation goes to the output property of its type (the only one, or the only one of that type). */
function answer(ctx: Context, op: TreeOp, drafts: Draft[], type: string): Draft[] {
  const output = outputFor(ctx.facts.outputs, type);
  // a file's text is no list of media blocks nor a record: such an answer is left to synthesis,
  // and reported as guessed
  if (output && (output.type === "array" || output.type === "object") && output.type !== type) {
    ctx.notes.push(
      `${op} in the tree; what it answers under ${output.name} (${output.type}) is not its ${type}`,
    );
    return drafts;
  }
  ctx.notes.push(`${op} in the tree${output ? `, answered under ${output.name}` : ""}`);
  // a size asked for as text is written the way du and ls -l write one: in bytes
  // names asked for as text are one per line, as ls and find print them
  const spelt = type === "number" && output?.type === "string";
  if (spelt)
    addGap(
      ctx,
      `${output.name} writes the size as "N bytes": how the API writes a size (its units, its rounding) is a guess`,
    );
  const value = spelt
    ? `$string($value) & " bytes"`
    : type === "array" && output?.type === "string"
      ? `$join($value, "\n")`
      : "$value";
  return [
    ...drafts,
    { kind: "respond", ...(output ? { output: output.name } : {}), value: { $expr: value } },
  ];
}

/**
 * A change answers nothing of its own (a real tool says what it did in its own words), unless
 * an output holds a path: the path it reached, and the path it was given where one output says
 * it is the old one (`old_path` beside `new_path`, as Dropbox's move answers `from_path` and
 * the metadata at its new place).
 */
function changed(ctx: Context, op: TreeOp, given: Param | undefined, drafts: Draft[]): Draft[] {
  const paths = ctx.facts.outputs.filter(
    (o) => o.type === "string" && /path|location|destination/.test(o.name),
  );
  const old = paths.find((o) => /^(old|from|source|src|previous|original)/.test(o.name));
  const reached = paths.find((o) => o !== old);
  ctx.notes.push(`${op} in the tree`);
  return [
    ...drafts,
    ...(reached ? [{ kind: "respond", output: reached.name, value: { $expr: "$value" } }] : []),
    ...(old && given && reached
      ? [{ kind: "respond", output: old.name, value: { $expr: `$args.${identifier(given.name)}` } }]
      : []),
  ];
}

function outputFor(outputs: readonly OutputFact[], type: string): OutputFact | undefined {
  if (outputs.length === 1) return outputs[0];
  const typed = outputs.filter((o) =>
    type === "number" ? o.type === "number" || o.type === "integer" : o.type === type,
  );
  if (typed.length === 1) return typed[0];
  // `{cwd, kind}`: of several texts, a path is the one named for a place
  const placed = typed.filter((o) => nameWords(o.name).some((w) => PLACE_WORDS.has(w)));
  return type === "string" && placed.length === 1 ? placed[0] : undefined;
}

const PLACE_WORDS = new Set(["path", "cwd", "pwd", "dir", "directory", "folder", "location"]);

type Failure = "missing" | "exists" | "not-folder" | "is-folder" | "not-empty";

const SHELL: Record<
  Failure,
  { pattern: RegExp; errno: string; code: string; status: number; message: string }
> = {
  missing: {
    pattern: /no such|not found|does ?n[o']t exist|not exist/,
    errno: "ENOENT",
    code: "NO_SUCH_FILE_OR_DIRECTORY",
    status: 404,
    message: "No such file or directory.",
  },
  exists: {
    pattern: /already exists|file exists|exists/,
    errno: "EEXIST",
    code: "FILE_EXISTS",
    status: 409,
    message: "File exists.",
  },
  "not-folder": {
    pattern: /not a director|not a folder/,
    errno: "ENOTDIR",
    code: "NOT_A_DIRECTORY",
    status: 400,
    message: "Not a directory.",
  },
  "is-folder": {
    pattern: /is a director|is a folder/,
    errno: "EISDIR",
    code: "IS_A_DIRECTORY",
    status: 400,
    message: "Is a directory.",
  },
  "not-empty": {
    pattern: /not empty|still (?:has|holds|contains) (?:children|files|items|entries|contents)/,
    errno: "ENOTEMPTY",
    code: "DIRECTORY_NOT_EMPTY",
    status: 409,
    message: "Directory not empty.",
  },
};

/** Whether the tool documents an error of this kind. */
function documents(ctx: Context, kind: Failure): boolean {
  return ctx.facts.errors.some((e) => isFailure(e, kind));
}

/** Whether a documented error is of this kind: by its errno, its words, or the words of its code (`FOLDER_NOT_EMPTY`). */
function isFailure(error: ErrorFact, kind: Failure): boolean {
  const { pattern, errno } = SHELL[kind];
  return error.code === errno || pattern.test(error.text) || pattern.test(nameWords(error.code).join(" "));
}

/** The documented error for each kind of failure, or a shell's, added to the tool's errors. */
function errorsFor(ctx: Context, kinds: readonly Failure[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const kind of kinds) {
    const documented = ctx.facts.errors.find((e) => isFailure(e, kind));
    const shell = SHELL[kind];
    errors[kind] = documented
      ? use(ctx, documented)
      : addError(ctx, {
          code: shell.code,
          status: shell.status,
          message: shell.message,
          when: `The path does not suit the operation (${nameWords(kind).join(" ")}), as a shell would say.`,
        });
  }
  return errors;
}
