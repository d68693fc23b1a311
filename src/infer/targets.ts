import type { Context } from "./context.js";
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

/** The target of one record of a collection, its key given as a template. */
export function recordTarget(
  ctx: Context,
  collection: CollectionShape,
  key: string,
  bound: readonly Bound[] = [],
): string | undefined {
  const container = containerTarget(ctx, collection, bound);
  if (!container) return undefined;
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
): string | undefined {
  const segments: string[] = [];
  for (const segment of collection.path) {
    if (segment !== "*") {
      segments.push(segment);
      continue;
    }
    const parentKey = collection.parent ? parentKeyOf(ctx, collection.parent, bound) : undefined;
    if (!parentKey) {
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
