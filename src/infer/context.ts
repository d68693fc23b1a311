import type { StateDocument, ToolError } from "../catalog/index.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, ToolFacts } from "./facts.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape, StateShape } from "./shape.js";
import { nameWords, nounKeys, nounOfIdentifier, partNoun, sameNoun, singular } from "./words.js";

/** Everything the rules for one tool share, and what they accumulate. */
export interface Context {
  facts: ToolFacts;
  shape: StateShape;
  /** The toolset's states (its own and its tasks'), for rules that learn from examples. */
  states: readonly StateDocument[];
  /** The other tools of the toolset, for rules that read a toolset's conventions. */
  siblings: () => readonly ToolFacts[];
  /** Every tool's name and description as written, for words one tool gives another's fields. */
  descriptions?: ReadonlyMap<string, string>;
  references: Reference[];
  /** Errors inference adds to the tool (a not-found error the source did not document). */
  addedErrors: ToolError[];
  /** What the rules decided, for the per-tool report. */
  notes: string[];
  /** Documented errors the rules gave an effect to. */
  usedErrors: Set<string>;
  /** What the effects leave undone that the tool's docs ask for (an argument that filters nothing). */
  gaps?: string[];
  /** Outputs the effects answer from something that is itself a guess (a fixed table of rates). */
  guesses?: string[];
  /** Collections whose entities must keep their key as a field for an effect to answer it. */
  keyFields: Map<string, string>;
  /**
   * Effects that find where a nested record is kept, by the collection's path and the key's
   * expression; each runs before the first effect that goes through it.
   */
  located?: Map<string, Draft>;
}

/** Something the tool's docs ask for that the effects leave undone: the verdict is `partly`. */
export function addGap(ctx: Context, gap: string): void {
  if (ctx.gaps) ctx.gaps.push(gap);
  else ctx.gaps = [gap];
}

/** The documented error for "no <noun> with this key", or one added when the source documents none. */
export function notFoundError(
  ctx: Context,
  collection: CollectionShape,
  argument: string,
  options: { add: boolean },
): string | undefined {
  const nouns = [collection.name, argument.replace(/_?(id|ids|key)$/i, "")];
  const notFound = ctx.facts.errors.filter((e) => e.kind === "not-found");
  const named =
    notFound.find((e) => e.noun !== undefined && nouns.some((n) => nounsMatch(e.noun as string, n))) ??
    // "no such card" for a payment card: the noun's head word, where nothing closer is documented
    notFound.find((e) => e.noun !== undefined && nouns.some((n) => sameNoun(e.noun as string, headWord(n))));
  const generic = notFound.filter((e) => e.noun === undefined || e.code === "NOT_FOUND");
  const chosen = named ?? (notFound.length === 1 && generic.length === 1 ? generic[0] : undefined);
  if (chosen) return use(ctx, chosen);
  if (!options.add) return undefined;
  const noun = nounOf(collection.name, argument);
  const code = `${noun.join("_").toUpperCase()}_NOT_FOUND`;
  const earlier = ctx.addedErrors.find((e) => e.code === code && namedBy.has(e));
  if (earlier) return answerFor(ctx, earlier, noun, collection, argument);
  const added: ToolError = { code, status: 404, ...notFoundWords(noun, collection, [argument]) };
  namedBy.set(added, [argument]);
  return addError(ctx, added);
}

/** The arguments each added not-found error speaks of. */
const namedBy = new WeakMap<ToolError, readonly string[]>();

function notFoundWords(
  noun: readonly string[],
  collection: CollectionShape,
  argumentNames: readonly string[],
) {
  return {
    message: `${capitalized(noun.join(" "))} ${argumentNames.map((a) => `{${a}}`).join(" or ")} not found.`,
    when: `No ${noun.join(" ")} has the given ${argumentNames.join(" or ")} (inferred from the state's ${collection.name}).`,
  };
}

/**
 * One added code for two arguments (a split from one hive into another): its message names
 * both, so that it never blames the one that named a record.
 */
function answerFor(
  ctx: Context,
  error: ToolError,
  noun: readonly string[],
  collection: CollectionShape,
  argument: string,
): string {
  const spoken = namedBy.get(error) ?? [];
  if (!spoken.includes(argument)) {
    const both = [...spoken, argument];
    Object.assign(error, notFoundWords(noun, collection, both));
    namedBy.set(error, both);
    ctx.notes.push(`${error.code} answers for ${argument} too`);
  }
  ctx.usedErrors.add(error.code);
  return error.code;
}

/**
 * The words of one of a collection's records, as the argument spells them where both fit:
 * `shelf_id` of `shelves` is a shelf (a plural in -ves reads two ways).
 */
function nounOf(collection: string, argument: string): readonly string[] {
  const named = nounOfIdentifier(argument);
  if (named !== undefined && nounKeys(collection).includes(named)) return nameWords(named);
  // a collection named as a whole (`menu`, `catalog`) has records named by their key (`item_id`)
  if (named !== undefined && nameWords(collection).length === 1 && singular(collection) === collection)
    return nameWords(named);
  // a collection named for how it keeps (`insurance_card_list`) names its records without it
  return partNoun(collection).split("_");
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function use(ctx: Context, error: ErrorFact): string {
  ctx.usedErrors.add(error.code);
  return error.code;
}

export function addError(ctx: Context, error: ToolError): string {
  const taken = new Set([...ctx.facts.tool.errors, ...ctx.addedErrors].map((e) => e.code));
  if (taken.has(error.code)) {
    ctx.usedErrors.add(error.code);
    return error.code;
  }
  ctx.addedErrors.push(error);
  ctx.notes.push(`added documented error ${error.code} (${error.when})`);
  ctx.usedErrors.add(error.code);
  return error.code;
}

/** `delivery_slot` matches `delivery_slots`; `item` matches `new_item` only when nothing closer exists. */
function nounsMatch(errorNoun: string, noun: string): boolean {
  return sameNoun(errorNoun, noun) || sameNoun(errorNoun.split("_").slice(-2).join("_"), noun);
}

function headWord(noun: string): string {
  return nameWords(noun).at(-1) ?? noun;
}

export function humanNoun(collection: string): string {
  return nameWords(singular(collection)).join(" ");
}
