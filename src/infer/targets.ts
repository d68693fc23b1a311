import type { Context } from "./context.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";

/**
 * The target path of the entity an argument names: `orders/{order_id}` at the top, and for
 * a nested collection the path through its parent, whose key comes from an argument
 * (`users/{user_id}/payment_methods/{payment_method_id}`) or from an entity bound earlier
 * that refers to the parent (`users/{$order.user_id}/payment_methods/{payment_method_id}`).
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
  const key = `{${param.name}}`;
  if (!collection.parent) return `${collection.name}/${key}`;
  const parentKey = parentKeyOf(ctx, collection.parent, bound);
  if (!parentKey) {
    ctx.notes.push(
      `${param.name} names a ${collection.name} entry of ${collection.parent}, but nothing names the ${collection.parent} entity`,
    );
    return undefined;
  }
  return `${collection.parent}/${parentKey}/${collection.name}/${key}`;
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
