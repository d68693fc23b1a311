import type { Context } from "./context.js";
import type { Param } from "./facts.js";
import type { CollectionShape, FieldShape } from "./shape.js";

/**
 * Items swapped for others. Two parallel lists of ids, `item_ids` and `new_item_ids`, name
 * elements of the entity's own list of those (its `items`, each with an `item_id`) and the
 * ones to put in their place, whose other fields (a price, options) come from where the
 * state keeps such things (a product's `variants`, found through the element's
 * `product_id`).
 */
export interface Swap {
  old: Param;
  replacement: Param;
  /** The field of an element that holds its id (`item_id`). */
  key: string;
  /** The entity's list of such elements (`items`). */
  list: FieldShape;
  /** Where the new elements' fields are looked up: the nested collection and its parent. */
  source?: { collection: string; parent: string; parentKey: string; shape: CollectionShape };
  /** Fields of an element taken from the source (`price`, `options`). */
  copied: string[];
}

export function swapsOf(ctx: Context, collection: CollectionShape): Swap[] {
  const swaps: Swap[] = [];
  for (const old of ctx.facts.params) {
    if (old.type !== "array" || old.words.at(-1) !== "ids") continue;
    const replacement = ctx.facts.params.find((p) => p.type === "array" && p.name === `new_${old.name}`);
    if (!replacement) continue;
    const key = `${old.words.slice(0, -1).join("_")}_id`;
    const list = [...collection.fields.values()].find((f) => !f.path.includes(".") && f.itemFields?.has(key));
    if (!list?.itemFields) continue;
    const found = (ctx.shape.byKeyField.get(key) ?? []).find((c) => c.parent);
    const parentKey = found?.parent ? ctx.shape.collections.get(found.parent)?.keyField : undefined;
    const itemFields = list.itemFields;
    const copied =
      found && parentKey && itemFields.has(parentKey)
        ? [...itemFields].filter((f) => f !== key && f !== parentKey && found.fields.has(f))
        : [];
    const source =
      found?.parent && parentKey && copied.length > 0
        ? { collection: found.name, parent: found.parent, parentKey, shape: found }
        : undefined;
    swaps.push({ old, replacement, key, list, ...(source ? { source } : {}), copied });
  }
  return swaps;
}

/**
 * The expression that swaps the elements in the entity bound as `binding`: each pair of the
 * two lists replaces the first element still holding the old id.
 */
export function swapExpression(swap: Swap, binding: string): string {
  const { key, source, copied } = swap;
  const fetch = source ? `$new := ${newElement(swap, "$v", "$pair[1]")}; ` : "";
  const fields = [
    `${JSON.stringify(key)}: $pair[1]`,
    ...(source ? copied.map((f) => `${JSON.stringify(f)}: $new.${jsonataName(f)}`) : []),
  ];
  return (
    `$reduce($zip($args.${jsonataName(swap.old.name)}, $args.${jsonataName(swap.replacement.name)}), function($items, $pair) {(` +
    ` $at := $map($items, function($v, $i) { $v.${jsonataName(key)} = $pair[0] ? $i : -1 })[$ >= 0][0];` +
    ` [$map($items, function($v, $i) { $i = $at ? (${fetch}$merge([$v, {${fields.join(", ")}}])) : $v })]` +
    ` )}, $${binding}.${jsonataName(swap.list.path)})`
  );
}

/** The source entry for a new id, looked up through the parent key the old element holds. */
export function newElement(swap: Swap, element: string, id: string): string {
  const { source } = swap;
  if (!source) return "undefined";
  return `$lookup($entity(${JSON.stringify(source.parent)}, ${element}.${jsonataName(source.parentKey)}).${jsonataName(source.collection)}, ${id})`;
}

export function describeSwap(swap: Swap): string {
  const { source, copied } = swap;
  return (
    `replaces the ${swap.list.path} named in ${swap.old.name} by those in ${swap.replacement.name}` +
    (source ? `, with their ${copied.join(", ")} from ${source.parent}.${source.collection}` : "")
  );
}

export function jsonataName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``;
}
