import { addError, type Context, humanNoun } from "./context.js";
import { requiredStatuses } from "./fields.js";
import type { CollectionShape } from "./shape.js";
import { nameWords, participle, sameNoun } from "./words.js";

/**
 * "For a pending order, this function can only be called once": the write leaves a mark
 * on its entity (the time it ran, `items_modified_at`) and refuses an entity that bears
 * it. A write whose new status already fails its own status guard needs no mark: the
 * status keeps it from running twice.
 */

export interface Once {
  /** The field that records the write, set to the time it ran. */
  field: string;
  /** The guard that refuses a second run. */
  guard: { expr: string; error: string };
}

const ONLY_ONCE =
  /\b(?:can|may|could|should)\s+(?:only\s+)?be\s+(?:only\s+)?(?:called|used|done|applied|performed|made|run|invoked)\s+(?:only\s+)?once\b/;

export function onceOnly(
  ctx: Context,
  collection: CollectionShape,
  newStatus: string | undefined,
): Once | undefined {
  const verb = ctx.facts.verb;
  if (!verb || !ONLY_ONCE.test(ctx.facts.text.toLowerCase())) return undefined;
  if (newStatus !== undefined && statusStopsRepeat(ctx, collection, newStatus)) return undefined;
  const done = participle(verb);
  const object = objectWords(ctx.facts.words, collection);
  const field = [...object, done, "at"].join("_");
  const noun = humanNoun(collection.name);
  const what = object.length > 0 ? `${noun}'s ${object.join(" ")} were` : `${noun} was`;
  const error = addError(ctx, {
    code: [...nameWords(noun), ...object, "already", done].join("_").toUpperCase(),
    status: 409,
    message: `The ${what} already ${done}; ${ctx.facts.tool.name} can only be called once for it.`,
    when: `The ${noun} already bears ${field} (inferred from the tool's description: it can only be called once).`,
  });
  ctx.notes.push(
    `records ${field} and refuses a ${noun} that has it (${error}): the description says it runs only once`,
  );
  return { field, guard: { expr: `$not($exists($subject.${field}))`, error } };
}

/** The new status is one the tool's own status guard refuses. */
function statusStopsRepeat(ctx: Context, collection: CollectionShape, status: string): boolean {
  const { values, notIn } = requiredStatuses(ctx, collection);
  if (values.length > 0) return !values.includes(status);
  return notIn.includes(status);
}

/** The words of the name after the entity's noun (`modify_pending_order_items` → items). */
function objectWords(words: readonly string[], collection: CollectionShape): string[] {
  const at = words.findIndex((w) => sameNoun(w, collection.name));
  return at >= 0 ? words.slice(at + 1).filter((w) => /^[a-z]+$/.test(w)) : [];
}
