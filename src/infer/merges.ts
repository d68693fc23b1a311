import { addError, type Context, humanNoun, notFoundError } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";
import { referenceTarget } from "./targets.js";
import { nameWords, sameNoun, singular } from "./words.js";

/** Verbs that fold one record into another of its kind. */
const MERGE_VERBS: ReadonlySet<string> = new Set(["merge", "combine", "consolidate"]);
/** The argument naming the record that stays, and the one that goes. */
const KEPT_WORDS = /^(primary|target|into|keep|kept|master|main|survivor|winner|destination)$/;
const GONE_WORDS = /^(duplicate|source|from|secondary|other|loser|merged|old)$/;

/**
 * Merging one record into another of its kind (`merge_contacts(primary_id, duplicate_id)`):
 * both must exist and differ; the kept record gains the values the other's lists hold that it
 * lacks, and its empty fields take the other's values; the other is deleted. HubSpot's contact
 * merge, Zendesk's user merge (the identities move to the kept user) and Salesforce's merge
 * (the master record's fields win, the others are deleted).
 */
export function mergeRule(ctx: Context): Draft[] | undefined {
  const pair = twoOfAKind(ctx, MERGE_VERBS, KEPT_WORDS, GONE_WORDS, (p, words) =>
    p.words.some((w) => words.test(w)),
  );
  if (!pair) return undefined;
  const { collection, first: kept, second: gone } = pair;
  const keptAt = referenceTarget(ctx, kept);
  const goneAt = referenceTarget(ctx, gone);
  if (!keptAt || !goneAt) return undefined;
  const noun = humanNoun(singular(collection.name));
  const self = addError(ctx, {
    code: `SAME_${nameWords(singular(collection.name)).join("_").toUpperCase()}`,
    status: 400,
    message: `A ${noun} cannot be merged into itself.`,
    when: `${kept.param.name} and ${gone.param.name} name the same ${noun}.`,
  });
  const set: Record<string, unknown> = {};
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || field.path === collection.keyField) continue;
    const own = `$subject.${identifier(field.path)}`;
    const theirs = `$merged.${identifier(field.path)}`;
    // a list some records leave null is still a list; an empty text is an empty field
    const list = field.types.has("array") && [...field.types].every((t) => t === "array" || t === "null");
    set[field.path] = {
      $expr: list
        ? `$distinct($append(${own} ? ${own} : [], ${theirs} ? ${theirs} : []))`
        : `$exists(${own}) and ${own} != null and ${own} != "" ? ${own} : ${theirs}`,
    };
  }
  ctx.notes.push(
    `merges the ${noun} ${gone.param.name} names into the one ${kept.param.name} names (lists joined, empty fields filled) and deletes it`,
  );
  const keptMissing = notFoundError(ctx, collection, kept.param.name, { add: true });
  const goneMissing = notFoundError(ctx, collection, gone.param.name, { add: true });
  return [
    {
      kind: "check",
      require: [
        { expr: `$args.${identifier(kept.param.name)} != $args.${identifier(gone.param.name)}`, error: self },
      ],
    },
    { kind: "read", target: goneAt, as: "merged", ...(goneMissing ? { missing: goneMissing } : {}) },
    { kind: "update", target: keptAt, set, as: "kept", ...(keptMissing ? { missing: keptMissing } : {}) },
    { kind: "delete", target: goneAt, output: "" },
    // the answer is the record that stays, as it now is
    { kind: "respond", value: { $expr: "$kept" } },
  ];
}

/** Verbs that exchange what two records hold. */
const SWAP_VERBS: ReadonlySet<string> = new Set(["swap", "exchange", "switch", "trade"]);
const FIRST_WORDS = /^(first|one|a|left|from|source)$/;
const SECOND_WORDS = /^(second|other|b|right|with|to|target)$/;

/**
 * Swapping a field between two records of a kind (`swap_shifts(first_shift_id,
 * second_shift_id)`: "swap the employees of two shifts"): both must exist, and each takes the
 * other's value of the field the description names (of the records' fields, the one its words
 * name). Rota tools swap the people of two shifts, seat maps the passengers of two seats, and
 * Trello's and Jira's boards the positions of two cards.
 */
export function swapRule(ctx: Context): Draft[] | undefined {
  const pair = twoOfAKind(ctx, SWAP_VERBS, FIRST_WORDS, SECOND_WORDS, (p, words) =>
    words.test(p.words[0] ?? ""),
  );
  if (!pair) return undefined;
  const { collection, first, second } = pair;
  const text = ctx.facts.text.toLowerCase();
  const field = [...collection.fields.values()].find(
    (f) =>
      !f.path.includes(".") &&
      f.path !== collection.keyField &&
      new RegExp(`\\b${nameWords(f.path).join(" ")}s?\\b`).test(text),
  );
  if (!field) return undefined;
  const a = referenceTarget(ctx, first);
  const b = referenceTarget(ctx, second);
  if (!a || !b) return undefined;
  const missing = notFoundError(ctx, collection, first.param.name, { add: true });
  const found = missing ? { missing } : {};
  const name = identifier(field.path);
  ctx.notes.push(
    `swaps the ${field.path} of the ${humanNoun(singular(collection.name))} ${first.param.name} names with that of the one ${second.param.name} names`,
  );
  return [
    { kind: "read", target: a, as: "first", ...found },
    { kind: "read", target: b, as: "second", ...found },
    { kind: "update", target: a, set: { [field.path]: { $expr: `$second.${name}` } }, output: "" },
    { kind: "update", target: b, set: { [field.path]: { $expr: `$first.${name}` } }, output: "" },
  ];
}

/**
 * Two records of the kind the tool names, each named by an argument in its role (`primary_id`
 * and `duplicate_id`, `first_shift_id` and `second_shift_id`), for a verb that acts on both.
 */
function twoOfAKind(
  ctx: Context,
  verbs: ReadonlySet<string>,
  firstWords: RegExp,
  secondWords: RegExp,
  plays: (param: Param, words: RegExp) => boolean,
): { collection: CollectionShape; first: Reference; second: Reference } | undefined {
  if (!verbs.has(ctx.facts.verb ?? ctx.facts.words[0] ?? "")) return undefined;
  const collection = [...ctx.shape.collections.values()].find(
    (c) => !c.parent && ctx.facts.nouns.some((n) => sameNoun(n, c.name)),
  );
  if (!collection) return undefined;
  const role = (words: RegExp): Reference | undefined => {
    const param = ctx.facts.params.find(
      (p) => p.required && (p.type === "string" || p.type === "integer") && plays(p, words),
    );
    return param ? { param, collection, many: false, strength: "weak" } : undefined;
  };
  const first = role(firstWords);
  const second = role(secondWords);
  return first && second && first.param !== second.param ? { collection, first, second } : undefined;
}
