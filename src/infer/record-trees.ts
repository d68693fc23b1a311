import { addError, addGap, type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, OutputFact, Param } from "./facts.js";
import { identifier } from "./reads.js";
import type { RecordShape, RecordTreeShape, TreeShape } from "./shape.js";
import { nameWords, sameNoun } from "./words.js";

/**
 * Trees of records addressed by slash paths: a site's pages, a navigation menu, a category or
 * folder tree whose nodes carry fields of their own (`/guides/install`, `billing/refunds`). Content
 * APIs address them so (WordPress page paths, Drupal menu links, Confluence and Notion page
 * trees, Contentful's and Sanity's hierarchies): a node is read, changed, added under a parent
 * or removed by its path, an unknown path is the API's not-found error, the root cannot be
 * removed, and a node with children is removed only when the call says to remove them too.
 */

/** A tree of records as one tool addresses it: by slash paths, or by the id every node has (`byId`). */
type NodeTree = TreeShape & { records: RecordTreeShape; byId?: string };

type NodeOp = "read" | "list" | "trail" | "update" | "toggle" | "rename" | "create" | "delete" | "move";

/** The tree a tool addresses by path, when the world keeps a tree of records. */
export function recordTreeFor(ctx: Context): NodeTree | undefined {
  const trees = ctx.shape.parts.filter((p): p is NodeTree => p.kind === "tree" && p.records !== undefined);
  return trees.length === 1 ? trees[0] : undefined;
}

export function recordTreeRule(ctx: Context, shape: NodeTree): Draft[] | undefined {
  let tree = shape;
  const paths = ctx.facts.params.filter(isPathParam);
  const ids = tree.records.id ? ctx.facts.params.filter((p) => isIdParam(p, tree.records.id as string)) : [];
  // a tool that names nodes by id, where the tree's nodes have one and no argument is a path
  const byId = paths.every((p) => !p.words.includes("path")) && ids.length > 0 ? tree.records.id : undefined;
  if (byId) tree = { ...tree, byId };
  const named = byId ? ids : paths;
  const parent = named.find((p) => p.words.includes("parent"));
  const node = named.find((p) => p !== parent);
  const op = opOf(ctx, tree, node, parent);
  // a path or an id is all these rules read a node by: listings and breadcrumbs need a path
  if (!op || (byId && (op === "list" || op === "trail"))) return undefined;
  const subject = op === "create" ? parent : node;
  if (!subject || (op === "move" && !parent)) return undefined;
  const missing = notFound(ctx, subject);
  switch (op) {
    case "read":
      ctx.notes.push(`reads the node ${subject.name} names in ${tree.name}`);
      return [
        { kind: "read", target: nodeTarget(tree, `{${subject.name}}`), missing, as: "node" },
        ...answers(ctx, tree, subject),
      ];
    case "trail":
      return trailRule(ctx, tree, subject, missing);
    case "list":
      return listRule(ctx, tree, subject, missing);
    case "update":
    case "toggle":
      return updateRule(ctx, tree, subject, op, missing);
    case "delete":
      return deleteRule(ctx, tree, subject, missing);
    case "rename":
      return renameRule(ctx, tree, subject, newNameParam(ctx, tree) as Param, missing);
    case "create":
      return createRule(ctx, tree, subject, missing);
    case "move":
      return moveRule(ctx, tree, subject, parent as Param, missing);
  }
}

/** A path names a node: `path`, `page_path`, `parent_path`, `new_parent`. */
function isPathParam(param: Param): boolean {
  return param.type === "string" && (param.words.includes("path") || param.words.includes("parent"));
}

/** An id names a node: the nodes' id field by name, `node_id`, `parent_id`, `new_parent_id`. */
function isIdParam(param: Param, field: string): boolean {
  if (param.type !== "string" && param.type !== "integer" && param.type !== "number") return false;
  return param.name === field || param.words.includes("id") || param.words.includes(field);
}

function opOf(
  ctx: Context,
  tree: NodeTree,
  node: Param | undefined,
  parent: Param | undefined,
): NodeOp | undefined {
  const words = ctx.facts.words;
  const has = (...w: string[]) => words.some((x) => w.includes(x));
  if (has("move", "reparent", "relocate") && node && parent) return "move";
  if (has("create", "add", "new", "insert", "make") && parent) return "create";
  if (has("delete", "remove", "drop", "destroy") && node) return "delete";
  if (has("toggle", "flip") && node) return "toggle";
  // `rename_node(path, new_name)`: the key a node is kept under in its parent's map changes
  if (has("rename") && node && !tree.byId && tree.records.container === "map" && newNameParam(ctx, tree))
    return "rename";
  if (
    node &&
    nodeFieldParams(ctx, tree).length > 0 &&
    has("set", "update", "rename", "edit", "change", "publish", "unpublish")
  )
    return "update";
  // `get_breadcrumbs(path)`, `ancestors(path)`: the nodes from the root down to it
  if (node && has("breadcrumb", "breadcrumbs", "ancestors", "trail", "lineage") && trailOutput(ctx))
    return "trail";
  // `list_tree(path)`, `walk(path)`, `descendants(path)`: the paths of a subtree, as `find` prints them
  if (node && has("list", "walk", "tree", "subtree", "descendants") && pathsOutput(ctx)) return "list";
  if (node && (ctx.facts.verbAction === "read" || has("get", "read", "show", "describe", "view", "fetch")))
    return "read";
  return undefined;
}

/** The target of the node a path (or an id) template names, down the tree's children. */
function nodeTarget(tree: NodeTree, path: string): string {
  const { children, name } = tree.records;
  if (tree.byId) return `${tree.path.join("/")}/**${children}.${tree.byId}=${path}`;
  return `${tree.path.join("/")}/*${children}${name ? `.${name}` : ""}=${path}`;
}

/** The documented error for a path (or an id) that leads to no node, or one added in the catalog's style. */
function notFound(ctx: Context, subject: Param): string {
  const documented = ctx.facts.errors.find((e) => e.kind === "not-found");
  if (documented) return use(ctx, documented);
  return addError(ctx, {
    code: "NODE_NOT_FOUND",
    status: 404,
    message: `No node at {${subject.name}}.`,
    when: `The ${subject.name} given leads to no node of the tree.`,
  });
}

function documentedError(ctx: Context, test: (error: ErrorFact) => boolean): string | undefined {
  const error = ctx.facts.errors.find(test);
  return error ? use(ctx, error) : undefined;
}

const speaks = (pattern: RegExp) => (error: ErrorFact) =>
  pattern.test(nameWords(error.code).join(" ")) || pattern.test(error.text);

/** A name already taken, by the error's code (`PAGE_EXISTS`, `KEY_TAKEN`): its text may say "already" of other things. */
const nameTaken = (error: ErrorFact) =>
  /\b(exists|taken|duplicate|already)\b/i.test(nameWords(error.code).join(" "));

/** Arguments named like a field of the nodes (`title`, `label`, `published`). */
function nodeFieldParams(ctx: Context, tree: NodeTree): Array<{ param: Param; field: string }> {
  const { fields, name } = tree.records;
  // the field a node is named by (in its path, or by its id) is where it is, not what it holds
  const naming = tree.byId ?? name;
  const found: Array<{ param: Param; field: string }> = [];
  for (const param of ctx.facts.params) {
    if (isPathParam(param) || (tree.byId && isIdParam(param, tree.byId))) continue;
    const field = [...fields.keys()].find((f) => f === param.name || sameNoun(f, param.name));
    if (field && field !== naming) found.push({ param, field });
  }
  return found;
}

/** The names of a path (JSONata), an empty list for the root. */
function segments(path: string): string {
  return `$append([], $filter($split(${path}, "/"), function($s) { $s != "" }))`;
}

/** A path written in the style of the one given: with a leading slash when it has one. */
function written(style: string, names: string): string {
  return `($substring(${style}, 0, 1) = "/" ? "/" : "") & $join(${names}, "/")`;
}

/**
 * A JSONata function, `$walk(node, path)`, giving the paths of a node and every node below it,
 * a node before its children (pre-order, as `find` lists a folder), in the style of `style`.
 */
function walker(records: RecordTreeShape, style: string): string {
  const { children, container, name } = records;
  const kids = `$n.${identifier(children)}`;
  const below = (child: string, key: string) =>
    `$walk(${child}, ($p = "" or $p = "/" ? ($substring(${style}, 0, 1) = "/" ? "/" : "") : $p & "/") & ${key})`;
  const step =
    container === "map"
      ? `$reduce($keys(${kids}), function($acc, $k) { $append($acc, ${below(`$lookup(${kids}, $k)`, "$k")}) }, [])`
      : `$reduce(${kids}, function($acc, $c) { $append($acc, ${below("$c", `$c.${identifier(name ?? "name")}`)}) }, [])`;
  return `$walk := function($n, $p) { $append([$p], ${step}) }`;
}

function pathsOutput(ctx: Context): OutputFact | undefined {
  return ctx.facts.outputs.find(
    (o) =>
      o.type === "array" && o.itemType === "string" && o.words.some((w) => w === "paths" || w === "path"),
  );
}

function listRule(ctx: Context, tree: NodeTree, path: Param, missing: string): Draft[] | undefined {
  const paths = pathsOutput(ctx);
  if (!paths) return undefined;
  const count = ctx.facts.outputs.find((o) => o.words.includes("count") || o.name === "total");
  const start = written(path.name, segments(path.name));
  const root = `($count(${segments(path.name)}) = 0 ? ${path.name} : ${start})`;
  ctx.notes.push(`lists the paths below the node ${path.name} names, the node first`);
  return [
    { kind: "read", target: nodeTarget(tree, `{${path.name}}`), missing, as: "node" },
    {
      kind: "respond",
      output: paths.name,
      as: "subtree",
      value: { $expr: `(${walker(tree.records, path.name)}; $walk($node, ${root}))` },
    },
    ...(count ? [{ kind: "respond", output: count.name, value: { $expr: "$count($subtree)" } }] : []),
  ];
}

function trailOutput(ctx: Context): OutputFact | undefined {
  return ctx.facts.outputs.find((o) => o.type === "array" && o.itemType === "object" && o.itemProperties);
}

/**
 * Breadcrumbs: one entry per node from the root down to the one the path names (its ancestors
 * alone where the tool says ancestors), each with the fields its items ask for and its path.
 */
function trailRule(ctx: Context, tree: NodeTree, path: Param, missing: string): Draft[] | undefined {
  const output = trailOutput(ctx);
  if (!output?.itemProperties) return undefined;
  const { children, container, name, fields } = tree.records;
  const kids = `$n.${identifier(children)}`;
  const child =
    container === "map"
      ? `$lookup(${kids}, $segs[$i])`
      : `${kids}[${identifier(name ?? "name")} = $segs[$i]]`;
  const stripped = /\bwithout (?:a )?(?:leading|trailing)|\bnormali[sz]ed\b/i.test(
    ctx.facts.tool.description,
  );
  const lead = stripped ? `""` : `($substring(${path.name}, 0, 1) = "/" ? "/" : "")`;
  const entry = Object.keys(output.itemProperties)
    .map((key) => {
      if (key === "path") return `"path": $p`;
      if (fields.has(key) && key !== children) return `"${key}": $n.${identifier(key)}`;
      if (/^(depth|level)$/.test(key)) return `"${key}": $count(${segments("$p")})`;
      return undefined;
    })
    .filter((e) => e !== undefined);
  if (entry.length === 0) return undefined;
  const ancestorsOnly =
    ctx.facts.words.includes("ancestors") && !/\bincluding\b/i.test(ctx.facts.tool.description);
  const trail = [
    `$segs := ${segments(path.name)}`,
    `$entry := function($n, $p) { { ${entry.join(", ")} } }`,
    `$step := function($n, $i, $p) { $i >= $count($segs) ? [] : ($c := ${child}; $q := ($p = "" or $p = "/" ? ${lead} : $p & "/") & $segs[$i]; $append([$entry($c, $q)], $step($c, $i + 1, $q))) }`,
    `$all := $append([$entry($root, ${lead} = "/" ? "/" : "")], $step($root, 0, ${lead}))`,
    ancestorsOnly ? "$count($all) > 1 ? $all[[0..$count($all) - 2]] : []" : "$all",
  ];
  ctx.notes.push(`answers the nodes from the root down to the one ${path.name} names`);
  return [
    { kind: "read", target: nodeTarget(tree, `{${path.name}}`), missing },
    { kind: "read", target: tree.path.join("/"), as: "root" },
    { kind: "respond", output: output.name, value: { $expr: `(${trail.join("; ")})` } },
    ...ctx.facts.outputs
      .filter((o) => o !== output && (o.words.includes("count") || o.words.includes("depth")))
      .map((o) => ({ kind: "respond", output: o.name, value: { $expr: `$count(${segments(path.name)})` } })),
  ];
}

/** A JSONata function giving the ids (as text) of a node and every node below it. */
function idsBelow(records: RecordTreeShape, idField: string): string {
  const kids = `$n.${identifier(records.children)}`;
  const each = records.container === "map" ? `$keys(${kids}).$lookup(${kids}, $)` : kids;
  return `function($n) { $append([$string($n.${identifier(idField)})], $reduce(${each}, function($acc, $c) { $append($acc, $ids($c)) }, [])) }`;
}

/** What the answer says of the node, by the outputs' names: its fields, its path, its children, its depth. */
function answers(
  ctx: Context,
  tree: NodeTree,
  path: Param,
  /** The node's path as the answer writes it, where it is not the argument (a node just made). */
  at?: string,
): Draft[] {
  const { children, container, name, fields } = tree.records;
  const kids = `$node.${identifier(children)}`;
  const names =
    container === "map"
      ? `$keys(${kids})`
      : `$map(${kids}, function($c) { $c.${identifier(name ?? "name")} })`;
  const alphabetical = /\balphabetical/i.test(ctx.facts.tool.description);
  const sorted = alphabetical || /\bsorted by name\b|\bby name ascending\b/i.test(ctx.facts.tool.description);
  const drafts: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    const value = answerOf(output);
    if (value) drafts.push({ kind: "respond", output: output.name, value: { $expr: value } });
  }
  return drafts;

  function answerOf(output: OutputFact): string | undefined {
    const words = output.words;
    if (fields.has(output.name) && output.name !== children) return `$node.${identifier(output.name)}`;
    if (tree.byId) return undefined;
    if (output.name === "path" || (words.includes("path") && words.length === 1))
      return at ?? pathAnswer(ctx, path);
    if (words.includes("depth") || words.includes("level")) return `$count(${segments(at ?? path.name)})`;
    const aboutChildren = words.some((w) => w === "child" || w === "children" || w === children);
    if (aboutChildren && (words.includes("count") || output.type === "integer" || output.type === "number"))
      return `$count(${container === "map" ? `$keys(${kids})` : kids})`;
    if (aboutChildren && output.type === "array" && output.itemType === "string")
      return alphabetical ? `$sort($append([], ${names}))` : `$append([], ${names})`;
    if (aboutChildren && output.type === "array" && output.itemProperties)
      return childRecords(output.itemProperties, sorted);
    // a node kept under its name in a map: the path's last name, empty for the root
    if (output.name === "name" && container === "map" && !fields.has("name")) {
      const segs = segments(at ?? path.name);
      return `($s := ${segs}; $count($s) = 0 ? "" : $s[-1])`;
    }
    if (
      words.some((w) => /^descendants?$/.test(w)) &&
      (output.type === "integer" || output.type === "number")
    )
      return `(${walker(tree.records, '""')}; $count($walk($node, "")) - 1)`;
    return undefined;
  }

  /** The children as records: each one's name, its own fields the items ask for, how many children it has. */
  function childRecords(properties: Readonly<Record<string, unknown>>, inOrder: boolean): string {
    const entry = (child: string, key: string) =>
      Object.keys(properties).flatMap((property) => {
        const words = nameWords(property);
        if (fields.has(property) && property !== children)
          return [`${JSON.stringify(property)}: ${child}.${identifier(property)}`];
        if (property === (name ?? "name") || property === "slug" || property === "key")
          return [`${JSON.stringify(property)}: ${key}`];
        if (words.includes("count") && words.some((w) => w === "child" || w === "children"))
          return [
            `${JSON.stringify(property)}: $count(${container === "map" ? `$keys(${child}.${identifier(children)})` : `${child}.${identifier(children)}`})`,
          ];
        return [];
      });
    const listed =
      container === "map"
        ? `$map($keys(${kids}), function($k) { ($c := $lookup(${kids}, $k); { ${entry("$c", "$k").join(", ")} }) })`
        : `$map(${kids}, function($c) { { ${entry("$c", `$c.${identifier(name ?? "name")}`).join(", ")} } })`;
    const key = JSON.stringify(name ?? "name");
    return inOrder
      ? `$sort($append([], ${listed}), function($a, $b) { $lookup($a, ${key}) > $lookup($b, ${key}) })`
      : `$append([], ${listed})`;
  }
}

/** The path as the answer writes it: as given, or without the slashes at its ends where the docs say paths are written so. */
function pathAnswer(ctx: Context, path: Param): string {
  const stripped = /\bwithout (?:a )?(?:leading|trailing)|\bnormali[sz]ed\b/i.test(
    ctx.facts.tool.description,
  );
  return stripped ? `$join(${segments(path.name)}, "/")` : path.name;
}

function isRootCheck(ctx: Context, tree: NodeTree, path: Param): Draft[] {
  const root = documentedError(ctx, speaks(/\broot\b/i));
  if (!root) return [];
  if (tree.byId)
    return [
      { kind: "read", target: tree.path.join("/"), as: "tree_root" },
      {
        kind: "check",
        require: [
          { expr: `$string(${path.name}) != $string($tree_root.${identifier(tree.byId)})`, error: root },
        ],
      },
    ];
  return [
    {
      kind: "check",
      require: [{ expr: `$replace(${path.name}, "/", "") != ""`, error: root }],
    },
  ];
}

function updateRule(
  ctx: Context,
  tree: NodeTree,
  path: Param,
  op: "update" | "toggle",
  missing: string,
): Draft[] | undefined {
  const set: Record<string, unknown> = {};
  if (op === "toggle") {
    const flags = [...tree.records.fields.values()].filter(
      (f) => f.types.has("boolean") && !f.path.includes("."),
    );
    const named =
      flags.find((f) => ctx.facts.words.some((w) => sameNoun(w, f.path))) ??
      (flags.length === 1 ? flags[0] : undefined);
    if (!named) return undefined;
    set[named.path] = { $expr: `$not($subject.${identifier(named.path)})` };
  } else for (const { param, field } of nodeFieldParams(ctx, tree)) set[field] = `{${param.name}}`;
  const empty = documentedError(ctx, speaks(/\b(empty|nothing|no field|no change)/i));
  const given = nodeFieldParams(ctx, tree).map((f) => f.param.name);
  ctx.notes.push(
    `${op === "toggle" ? "flips" : "sets"} ${Object.keys(set).join(", ")} of the node ${path.name} names`,
  );
  if (/\b(cascad|descendant)/i.test(ctx.facts.tool.description))
    addGap(ctx, "the change reaches the node's descendants too: only the node itself is changed");
  if (/\bancestors?\b/i.test(ctx.facts.tool.description))
    addGap(ctx, "what the docs ask of the node's ancestors is not checked");
  return [
    ...isRootCheck(ctx, tree, path),
    ...(empty && given.length > 1
      ? [{ kind: "check", require: [{ expr: given.map((g) => `$exists(${g})`).join(" or "), error: empty }] }]
      : []),
    { kind: "update", target: nodeTarget(tree, `{${path.name}}`), missing, set, as: "node" },
    ...answers(ctx, tree, path),
  ];
}

/** An output counting what a removal took away: `deleted_count`, `nodes_removed`. */
const REMOVED = /^(count|deleted|removed|affected)$/;

function deleteRule(ctx: Context, tree: NodeTree, path: Param, missing: string): Draft[] {
  const { children, container } = tree.records;
  const recursive = ctx.facts.params.find(
    (p) => p.type === "boolean" && /recursive|cascade|force/.test(p.name),
  );
  const hasChildren = documentedError(ctx, speaks(/\b(children|not empty|has child)/i));
  const kids = `$subject.${identifier(children)}`;
  const childless = `$count(${container === "map" ? `$keys(${kids})` : kids}) = 0`;
  const guard =
    hasChildren !== undefined
      ? [{ expr: recursive ? `${childless} or ${recursive.name} = true` : childless, error: hasChildren }]
      : [];
  ctx.notes.push(
    `removes the node ${path.name} names${guard.length > 0 ? ", refused while it has children" : ""}`,
  );
  return [
    ...isRootCheck(ctx, tree, path),
    { kind: "delete", target: nodeTarget(tree, `{${path.name}}`), missing, require: guard, as: "node" },
    ...answers(ctx, tree, path),
    ...ctx.facts.outputs
      .filter((o) => (o.type === "integer" || o.type === "number") && o.words.some((w) => REMOVED.test(w)))
      .map((o) => ({
        kind: "respond",
        output: o.name,
        value: { $expr: `(${walker(tree.records, '""')}; $count($walk($node, "")))` },
      })),
  ];
}

/** The argument that names the new node among its siblings: the nodes' naming field, a slug or a name. */
function childNameParam(ctx: Context, records: RecordTreeShape): Param | undefined {
  const strings = ctx.facts.params.filter((p) => p.type === "string" && !isPathParam(p));
  return (
    strings.find((p) => p.name === records.name) ??
    strings.find((p) => /^(slug|name|key|segment)$/.test(p.name))
  );
}

function createRule(ctx: Context, tree: NodeTree, parent: Param, missing: string): Draft[] | undefined {
  if (tree.byId) return createById(ctx, tree, tree.byId, parent, missing);
  const { children, container, name } = tree.records;
  const named = childNameParam(ctx, tree.records);
  if (!named) return undefined;
  const set: Record<string, unknown> = { [children]: container === "map" ? {} : [] };
  if (name) set[name] = `{${named.name}}`;
  for (const { param, field } of nodeFieldParams(ctx, tree))
    if (param !== named) set[field] = `{${param.name}}`;
  const defaults = statedFlags(ctx, tree.records, Object.keys(set));
  Object.assign(set, defaults);
  const exists = documentedError(ctx, nameTaken);
  const under = nodeTarget(tree, `{${parent.name}}`);
  ctx.notes.push(`adds a node under the one ${parent.name} names, named by ${named.name}`);
  const unset = [...tree.records.fields.keys()].filter((f) => !f.includes(".") && !(f in set));
  if (unset.length > 0)
    addGap(
      ctx,
      `what a new node holds in ${unset.join(", ")} is not given by an argument nor said by the docs`,
    );
  const created: Draft =
    container === "map"
      ? {
          kind: "create",
          target: `${under}/${children}/{${named.name}}`,
          missing,
          set,
          as: "node",
          ...(exists ? { exists } : {}),
        }
      : { kind: "create", target: `${under}/${children}`, missing, set, as: "node" };
  const taken =
    container === "array" && exists
      ? [
          { kind: "read", target: under, missing, as: "parent" },
          {
            kind: "check",
            require: [
              {
                expr: `$not(${named.name} in $map($parent.${identifier(children)}, function($c) { $c.${identifier(name ?? "name")} }))`,
                error: exists,
              },
            ],
          },
        ]
      : [];
  const at = written(parent.name, `$append(${segments(parent.name)}, [${named.name}])`);
  return [...taken, ...depthLimit(ctx, tree, parent, "0"), created, ...answers(ctx, tree, parent, at)];
}

/**
 * A node added under the one an id names gets an id in the tree's scheme: from a counter kept
 * beside the tree (`next_node_id`), else after the largest among its siblings, written as the
 * ids already are (`n12`, `C-0007`, or a number).
 */
function createById(ctx: Context, tree: NodeTree, idField: string, parent: Param, missing: string): Draft[] {
  const { children, container } = tree.records;
  const set: Record<string, unknown> = { [children]: container === "map" ? {} : [] };
  for (const { param, field } of nodeFieldParams(ctx, tree))
    if (param !== parent && field !== idField) set[field] = `{${param.name}}`;
  Object.assign(set, statedFlags(ctx, tree.records, Object.keys(set)));
  const counter = idCounter(ctx, tree);
  const format = idFormat(tree.records.fields.get(idField)?.samples ?? []);
  const id = {
    field: idField,
    ...format,
    ...(counter ? { counter: counter.path, counterHolds: counter.holds } : {}),
  };
  ctx.notes.push(
    `adds a node under the one ${parent.name} names, its ${idField} ${counter ? `from ${counter.path}` : "after the largest of its siblings'"}`,
  );
  const unset = [...tree.records.fields.keys()].filter(
    (f) => !f.includes(".") && !(f in set) && f !== idField,
  );
  if (unset.length > 0)
    addGap(
      ctx,
      `what a new node holds in ${unset.join(", ")} is not given by an argument nor said by the docs`,
    );
  return [
    ...depthLimit(ctx, tree, parent, "0"),
    {
      kind: "create",
      target: `${nodeTarget(tree, `{${parent.name}}`)}/${children}`,
      missing,
      set,
      id,
      as: "node",
    },
    ...answers(ctx, tree, parent),
  ];
}

/** A number beside the tree that mints its ids: `next_node_id`, `node_counter`, `last_id`. */
function idCounter(ctx: Context, tree: NodeTree): { path: string; holds: "next" | "last" } | undefined {
  const holder = ctx.shape.parts.find(
    (p): p is RecordShape => p.kind === "record" && p.path.length === tree.path.length - 1,
  );
  for (const field of holder?.fields.values() ?? []) {
    const words = nameWords(field.path);
    if (!field.types.has("number") || field.path.includes(".")) continue;
    if (!words.some((w) => /^(id|ids|counter|seq|sequence)$/.test(w))) continue;
    const holds = words.includes("last")
      ? "last"
      : words.includes("next") || words.includes("counter")
        ? "next"
        : undefined;
    if (holds) return { path: [...(holder?.path ?? []), field.path].join("/"), holds };
  }
  return undefined;
}

/** How ids are written: a number, or a prefix and digits (padded where every id has as many). */
function idFormat(samples: readonly unknown[]): { prefix: string; width: number; numeric?: boolean } {
  if (samples.length > 0 && samples.every((v) => typeof v === "number"))
    return { prefix: "", width: 1, numeric: true };
  const parts = samples.map((v) => /^(\D*)(\d+)$/.exec(String(v)));
  const prefixes = new Set(parts.map((m) => m?.[1]));
  const prefix = parts.every((m) => m) && prefixes.size === 1 ? ((parts[0]?.[1] as string) ?? "") : "";
  const widths = new Set(parts.map((m) => m?.[2]?.length));
  const padded =
    widths.size === 1 && parts.every((m) => m?.[2]?.startsWith("0") || false) ? [...widths][0] : undefined;
  return { prefix, width: padded ?? 1 };
}

/**
 * What the docs say a new node's flags start as: "the new page is unpublished", "with visible
 * true", "hidden until published" reads no flag it does not name.
 */
function statedFlags(
  ctx: Context,
  records: RecordTreeShape,
  given: readonly string[],
): Record<string, boolean> {
  const text = ctx.facts.tool.description;
  const flags: Record<string, boolean> = {};
  for (const field of records.fields.values()) {
    if (!field.types.has("boolean") || field.path.includes(".") || given.includes(field.path)) continue;
    const word = field.path.replace(/_/g, " ");
    const stated = new RegExp(`\\b${word}\\s*(?:=|:|is|set to|as)?\\s*(true|false)\\b`, "i").exec(text);
    if (stated) flags[field.path] = stated[1]?.toLowerCase() === "true";
    else if (new RegExp(`\\b(?:un${word}|not ${word})\\b`, "i").test(text)) flags[field.path] = false;
  }
  return flags;
}

function moveRule(ctx: Context, tree: NodeTree, path: Param, parent: Param, missing: string): Draft[] {
  const { children, container } = tree.records;
  const fields = [...tree.records.fields.keys()].filter((f) => !f.includes("."));
  const set: Record<string, unknown> = Object.fromEntries(
    [...fields, children].map((f) => [f, { $expr: `$moved.${identifier(f)}` }]),
  );
  const last = tree.byId ? `$string($moved.${identifier(tree.byId)})` : `${segments(path.name)}[-1]`;
  const invalid = documentedError(ctx, speaks(/\b(invalid|cycle|descendant|itself|loop)\b/i));
  const exists = documentedError(ctx, nameTaken);
  const within = `$join(${segments(path.name)}, "/")`;
  const into = `$join(${segments(parent.name)}, "/")`;
  // by id, the new parent is below the node where it is among the ids of its subtree
  const outside = tree.byId
    ? `($ids := ${idsBelow(tree.records, tree.byId)}; $not($string(${parent.name}) in $ids($moved)))`
    : `${into} != ${within} and $substring(${into}, 0, $length(${within}) + 1) != (${within} & "/")`;
  ctx.notes.push(`moves the node ${path.name} names under the one ${parent.name} names`);
  return [
    ...isRootCheck(ctx, tree, path),
    { kind: "read", target: nodeTarget(tree, `{${path.name}}`), missing, as: "moved" },
    { kind: "read", target: nodeTarget(tree, `{${parent.name}}`), missing },
    ...(invalid
      ? [
          {
            kind: "check",
            require: [
              {
                expr: outside,
                error: invalid,
              },
            ],
          },
        ]
      : []),
    { kind: "let", as: "moved_name", value: { $expr: last } },
    ...oldAndNewPaths(ctx, path, `$append(${segments(parent.name)}, [$moved_name])`),
    ...depthLimit(
      ctx,
      tree,
      parent,
      `(${walker(tree.records, '""')}; $max($walk($moved, "").$count(${segments("$")})))`,
    ),
    { kind: "delete", target: nodeTarget(tree, `{${path.name}}`), missing },
    container === "map"
      ? {
          kind: "create",
          target: `${nodeTarget(tree, `{${parent.name}}`)}/${children}/{$moved_name}`,
          missing,
          set,
          ...(exists ? { exists } : {}),
        }
      : { kind: "create", target: `${nodeTarget(tree, `{${parent.name}}`)}/${children}`, missing, set },
  ];
}

/** The argument a rename gives the new name in: `new_name`, `new_slug`, `to`, not a path or a node's field. */
function newNameParam(ctx: Context, tree: NodeTree): Param | undefined {
  return ctx.facts.params.find(
    (p) =>
      p.type === "string" &&
      !isPathParam(p) &&
      !tree.records.fields.has(p.name) &&
      /^(?:new_)?(?:name|slug|key)$|^to$/.test(p.name),
  );
}

/**
 * "Renames the category at path to new_name within the same parent": the node
 * leaves its parent's map under the old name and comes back under the new one, refused where a
 * sibling has that name, as a rename of a folder or a page slug is (Confluence, Drupal, `mv` in
 * one folder).
 */
function renameRule(ctx: Context, tree: NodeTree, path: Param, to: Param, missing: string): Draft[] {
  const { children } = tree.records;
  const fields = [...tree.records.fields.keys()].filter((f) => !f.includes("."));
  const set: Record<string, unknown> = Object.fromEntries(
    [...fields, children].map((f) => [f, { $expr: `$renamed.${identifier(f)}` }]),
  );
  const exists = documentedError(ctx, nameTaken);
  const parentNames = `($s := ${segments(path.name)}; $count($s) > 1 ? $s[[0..$count($s) - 2]] : [])`;
  const parentOf = `$join(${parentNames}, "/")`;
  ctx.notes.push(`renames the node ${path.name} names to ${to.name}, keeping it under its parent`);
  return [
    ...isRootCheck(ctx, tree, path),
    { kind: "read", target: nodeTarget(tree, `{${path.name}}`), missing, as: "renamed" },
    { kind: "let", as: "renamed_parent", value: { $expr: parentOf } },
    ...oldAndNewPaths(ctx, path, `$append(${parentNames}, [${to.name}])`),
    { kind: "delete", target: nodeTarget(tree, `{${path.name}}`), missing },
    {
      kind: "create",
      target: `${nodeTarget(tree, "{$renamed_parent}")}/${children}/{${to.name}}`,
      missing,
      set,
      ...(exists ? { exists } : {}),
    },
  ];
}

/** A move's or a rename's answer: the path it had (`old_path`) and the one it has (`new_path`), given its new names. */
function oldAndNewPaths(ctx: Context, path: Param, newNames: string): Draft[] {
  return ctx.facts.outputs.flatMap((output): Draft[] => {
    const words = output.words;
    if (!words.includes("path")) return [];
    if (words.some((w) => /^(old|from|previous|source)$/.test(w)))
      return [{ kind: "respond", output: output.name, value: { $expr: pathAnswer(ctx, path) } }];
    if (words.some((w) => /^(new|to|destination|current)$/.test(w)))
      return [{ kind: "respond", output: output.name, value: { $expr: written(path.name, newNames) } }];
    return [];
  });
}

/**
 * "No node may sit deeper than max_levels": where the state keeps a depth limit beside the tree
 * and the tool documents an error that speaks of depth, the deepest node the call would place
 * (the parent's depth, one, and the height of what it places) is checked against it.
 */
function depthLimit(ctx: Context, tree: NodeTree, parent: Param, height: string): Draft[] {
  // a node's depth is read from its path: one named by id has none to read
  if (tree.byId) return [];
  const error = documentedError(ctx, speaks(/\b(depth|deep|deeper|nesting|levels?)\b/i));
  if (!error) return [];
  const holder = ctx.shape.parts.find(
    (p): p is RecordShape => p.kind === "record" && p.path.length === tree.path.length - 1,
  );
  const limit = [...(holder?.fields.values() ?? [])].find((f) => {
    const words = nameWords(f.path);
    return (
      f.types.has("number") &&
      words.some((w) => /^(max|maximum|limit)$/.test(w)) &&
      words.some((w) => /^(depth|levels?|nesting)$/.test(w))
    );
  });
  if (!holder || !limit) return [];
  const target = [...holder.path, limit.path].join("/");
  ctx.notes.push(`refuses a node deeper than ${target}`);
  return [
    { kind: "read", target, as: "depth_limit" },
    {
      kind: "check",
      require: [{ expr: `$count(${segments(parent.name)}) + 1 + ${height} <= $depth_limit`, error }],
    },
  ];
}
