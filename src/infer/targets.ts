import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";

/**
 * The target path of the record an argument names, wherever its collection lives: a map
 * (`orders/{order_id}`, `TradeDesk/stocks/{symbol}`), an array told apart by a field
 * (`desk/tickets/[id={ticket_id}]`), or inside the records of another collection, whose key
 * comes from an argument (`members/{member_id}/cards/{card_id}`) or from a
 * record bound earlier that refers to the parent (`members/{$loan.member_id}/cards/…`).
 */

export interface Bound {
  collection: CollectionShape;
  binding: string;
}

export function referenceTarget(
  ctx: Context,
  reference: Reference,
  bound: readonly Bound[] = [],
): string | undefined {
  const { collection, param } = reference;
  return recordTarget(ctx, collection, `{${param.name}}`, bound);
}

/**
 * The record an argument names where it is now, found by its own key, whatever holder another
 * argument names (a card being moved to the list `idList` names is still in its own).
 */
export function currentTarget(ctx: Context, reference: Reference): string | undefined {
  const key = `{${reference.param.name}}`;
  const { collection } = reference;
  const container = locatedContainer(ctx, collection, key);
  if (!container) return referenceTarget(ctx, reference);
  if (collection.container === "map") return `${container}/${key}`;
  return collection.keyField ? `${container}/[${collection.keyField}=${key}]` : undefined;
}

/** The target of one record of a collection, its key given as a template. */
export function recordTarget(
  ctx: Context,
  collection: CollectionShape,
  key: string,
  bound: readonly Bound[] = [],
): string | undefined {
  const container =
    containerTarget(ctx, collection, bound, { quiet: true }) ?? locatedContainer(ctx, collection, key);
  if (!container) {
    containerTarget(ctx, collection, bound);
    return undefined;
  }
  if (collection.container === "map") return `${container}/${key}`;
  if (!collection.keyField) {
    ctx.notes.push(`the records of ${collection.name} have no field that tells them apart`);
    return undefined;
  }
  return `${container}/[${collection.keyField}=${key}]`;
}

/** The target of the collection itself (for lists and creates), its parent's key filled in. */
export function containerTarget(
  ctx: Context,
  collection: CollectionShape,
  bound: readonly Bound[] = [],
  options: { quiet?: boolean } = {},
): string | undefined {
  const named = namedContainer(ctx, collection, bound, options.quiet === true);
  if (named) return named;
  // the record holding them is named by an argument, found wherever it is kept (a list by its id)
  const parent = collection.parent
    ? (ctx.shape.collections.get(collection.parent) ?? ctx.shape.nested.get(collection.parent))
    : undefined;
  const byArgument = parent?.parent
    ? ctx.references.find((r) => r.collection === parent && !r.many && r.strength === "strong")
    : undefined;
  const holder = parent && byArgument ? recordTarget(ctx, parent, `{${byArgument.param.name}}`) : undefined;
  return holder ? `${holder}/${collection.path.at(-1)}` : undefined;
}

function namedContainer(
  ctx: Context,
  collection: CollectionShape,
  bound: readonly Bound[],
  quiet: boolean,
): string | undefined {
  // a record two levels down or deeper is found by its own key (`locatedContainer`)
  if (collection.path.filter((s) => s === "*").length > 1) return undefined;
  const segments: string[] = [];
  for (const segment of collection.path) {
    if (segment !== "*") {
      segments.push(segment);
      continue;
    }
    const parentKey = collection.parent ? parentKeyOf(ctx, collection.parent, bound) : undefined;
    if (!parentKey) {
      if (quiet) return undefined;
      ctx.notes.push(
        `${collection.name} live inside ${collection.parent ?? "other records"}, but nothing names which one`,
      );
      return undefined;
    }
    const parentShape = collection.parent ? ctx.shape.collections.get(collection.parent) : undefined;
    if (parentShape?.container === "array" && parentShape.keyField)
      segments.push(`[${parentShape.keyField}=${parentKey}]`);
    else segments.push(parentKey);
  }
  return segments.join("/") || ".";
}

function parentKeyOf(ctx: Context, parent: string, bound: readonly Bound[]): string | undefined {
  const byArgument = ctx.references.find(
    (r) => r.collection.name === parent && !r.collection.parent && !r.many,
  );
  if (byArgument) return `{${byArgument.param.name}}`;
  for (const { collection, binding } of bound) {
    const field = [...collection.fields.values()].find((f) => f.refersTo === parent && !f.path.includes("."));
    if (field && !field.types.has("array")) return `{$${binding}.${field.path}}`;
  }
  return undefined;
}

/**
 * A record kept inside others (a card in a list on a board) whose key is unique wherever it is
 * kept is addressed by that key alone, as Trello's `GET /1/cards/{id}`, Todoist's
 * `GET /tasks/{id}` and Asana's `GET /tasks/{gid}` find a card or task without its project or
 * section: a `let` finds the keys of the records it is kept in (placeholders that name nothing
 * when it is nowhere, so the effect that reads it answers its not-found error), and the target
 * goes through them.
 */
function locatedContainer(ctx: Context, collection: CollectionShape, key: string): string | undefined {
  const wanted = keyExpression(key);
  if (!wanted || !collection.path.includes("*") || collection.path[0] === "*") return undefined;
  if (collection.container === "array" && !collection.keyField) return undefined;
  ctx.located ??= new Map();
  // one search per record a tool names, however many of its effects go through it
  const place = `${collection.path.join("/")} ${wanted}`;
  const known = ctx.located.get(place)?.as;
  const binding =
    typeof known === "string" ? known : `at_${identifierOf(collection.name)}_${ctx.located.size}`;
  if (typeof known !== "string") ctx.located.set(place, locatingLet(ctx, collection, wanted, binding));
  const segments: string[] = [collection.path[0] as string];
  let star = 0;
  for (let i = 1; i < collection.path.length; i++) {
    const segment = collection.path[i] as string;
    if (segment !== "*") {
      segments.push(segment);
      continue;
    }
    const holder = collectionAt(ctx, collection.path.slice(0, i));
    const slot = `{$${binding}.k${star++}}`;
    segments.push(holder?.container === "array" && holder.keyField ? `[${holder.keyField}=${slot}]` : slot);
  }
  return segments.join("/");
}

function locatingLet(ctx: Context, collection: CollectionShape, wanted: string, binding: string): Draft {
  const stars = collection.path.filter((s) => s === "*").length;
  const none = `{${Array.from({ length: stars }, (_, i) => `"k${i}": "(none)"`).join(", ")}}`;
  const search = searchExpression(
    ctx,
    collection,
    0,
    `$entity(${JSON.stringify(collection.path[0])})`,
    1,
    [],
  );
  return {
    kind: "let",
    as: binding,
    value: {
      $expr: `($want := $string(${wanted}); $found := [${search}]; $count($found) > 0 ? $found[0] : ${none})`,
    },
  };
}

function collectionAt(ctx: Context, path: readonly string[]): CollectionShape | undefined {
  const joined = path.join("/");
  return [...ctx.shape.collections.values(), ...ctx.shape.nested.values()].find(
    (c) => c.path.join("/") === joined,
  );
}

/** The key template as an expression: `{id}` is an argument, `{$card.list_id}` a binding. */
function keyExpression(key: string): string | undefined {
  const template = /^\{([^{}]+)\}$/.exec(key)?.[1];
  if (!template) return undefined;
  if (template.startsWith("$")) return template;
  return `$args.${template
    .split(".")
    .map((s) => `\`${s}\``)
    .join(".")}`;
}

function identifierOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * A JSONata sequence of the key tuples (`{"k0": board, "k1": list}`) under which a record with
 * the wanted key is kept: every record of every level is walked, as the path says.
 */
function searchExpression(
  ctx: Context,
  collection: CollectionShape,
  star: number,
  node: string,
  index: number,
  keys: readonly string[],
): string {
  if (index >= collection.path.length) {
    const has =
      collection.container === "map"
        ? `$exists($lookup(${node}, $want))`
        : `$count(${node}[$string(\`${collection.keyField}\`) = $want]) > 0`;
    return `(${has} ? {${keys.join(", ")}} : [])`;
  }
  const segment = collection.path[index] as string;
  if (segment !== "*")
    return searchExpression(
      ctx,
      collection,
      star,
      `$lookup(${node}, ${JSON.stringify(segment)})`,
      index + 1,
      keys,
    );
  const holder = collectionAt(ctx, collection.path.slice(0, index));
  const value = `$v${star}`;
  if (holder?.container === "array" && holder.keyField) {
    const inner = searchExpression(ctx, collection, star + 1, value, index + 1, [
      ...keys,
      `"k${star}": $string(${value}.\`${holder.keyField}\`)`,
    ]);
    return `$reduce($map(${node}, function(${value}) { [${inner}] }), $append, [])`;
  }
  const key = `$k${star}`;
  const inner = searchExpression(ctx, collection, star + 1, value, index + 1, [
    ...keys,
    `"k${star}": ${key}`,
  ]);
  return `$reduce($each(${node}, function(${value}, ${key}) { [${inner}] }), $append, [])`;
}
