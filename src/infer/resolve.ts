import type { Param, ToolFacts } from "./facts.js";
import { type CollectionShape, outline, type StateShape } from "./shape.js";
import { nameWords, nounKeys, nounOfIdentifier, sameNoun, singular } from "./words.js";

/**
 * Which collection of the state an argument names: by its noun (`order_id` → `orders`), by
 * the field entities keep their key in (`order_id`), or by the examples its description
 * gives matching the collection's keys ('#W0000000'). Nested collections (a user's
 * `payment_methods`) are found the same way.
 */

export interface Reference {
  param: Param;
  collection: CollectionShape;
  /** The argument is an array of keys (`item_ids`). */
  many: boolean;
  /** How sure: by name and key field (strong) or only by examples or a bare `id` (weak). */
  strength: "strong" | "weak";
}

export function referenceOf(param: Param, facts: ToolFacts, shape: StateShape): Reference | undefined {
  const many = param.type === "array";
  const scalar = many ? param.itemType : param.type;
  if (scalar !== undefined && scalar !== "string" && scalar !== "integer" && scalar !== "number")
    return undefined;
  const keyName = many ? singularName(param.name) : param.name;
  const byKeyField = shape.byKeyField.get(keyName) ?? [];
  const noun = nounOfIdentifier(keyName);
  const byNoun = noun ? nounMatches(shape, noun) : [];
  const strong = pick([...byKeyField.filter((c) => byNoun.includes(c)), ...byNoun, ...byKeyField]);
  if (strong && param.identifier) return { param, collection: strong, many, strength: "strong" };
  if (!param.identifier && !/^(id|ids|key|uuid)$/.test(param.name)) return undefined;
  const all = [...shape.collections.values(), ...shape.nested.values()];
  const byExample = all.filter((c) => param.examples.some((example) => matchesKeys(example, c)));
  if (param.identifier && byExample.length > 0)
    return { param, collection: pick(byExample) as CollectionShape, many, strength: "weak" };
  if (/^(id|ids|key|uuid)$/.test(nameWords(param.name).join("_"))) {
    const named = all.filter((c) => facts.words.some((w) => sameNoun(w, c.name)));
    if (named.length > 0)
      return { param, collection: pick(named) as CollectionShape, many, strength: "weak" };
  }
  return undefined;
}

/** Top-level collections before nested ones; among equals, the first found. */
function pick(candidates: readonly CollectionShape[]): CollectionShape | undefined {
  return candidates.find((c) => !c.parent) ?? candidates[0];
}

/** Collections named by the noun, or whose name ends with it (`customer_orders` for `order`). */
function nounMatches(shape: StateShape, noun: string): CollectionShape[] {
  const exact = nounKeys(noun).flatMap((key) => shape.byNoun.get(key) ?? []);
  const longer = shape.bySuffix.get(nameWords(noun).map(singular).join("_")) ?? [];
  return [...exact, ...longer];
}

function singularName(name: string): string {
  const words = nameWords(name);
  const last = words.at(-1) ?? "";
  return [...words.slice(0, -1), singular(last)].join("_");
}

/** An example is a key of the collection, or has the outline of its keys (`#W0000000` for `#W2611340`). */
function matchesKeys(example: string, collection: CollectionShape): boolean {
  if (collection.keys.includes(example)) return true;
  const wanted = outline(example);
  return /[9]/.test(wanted) && collection.keys.slice(0, 200).some((key) => outline(key) === wanted);
}

/**
 * The collection the tool's name is about (`get_order_details` → orders), if the state has it:
 * the head noun, which English puts last (`get_rider_card` is about a card), before any `by`,
 * `for` or `with` that introduces what the tool selects by.
 */
export function namedCollection(facts: ToolFacts, shape: StateShape): CollectionShape | undefined {
  const all = facts.words.filter((w) => w !== facts.verb);
  const cut = all.findIndex((w) => ["by", "for", "with", "from", "using", "via"].includes(w));
  const words = cut > 0 ? all.slice(0, cut) : all;
  // the longest run of name words that names a collection wins (`payment_method` over `method`)
  for (let size = Math.min(3, words.length); size >= 1; size--)
    for (let start = words.length - size; start >= 0; start--) {
      const noun = words.slice(start, start + size).join("_");
      const found = nounKeys(noun)
        .map((key) => shape.byNoun.get(key)?.[0])
        .find((c) => c !== undefined);
      if (found) return found;
    }
  return undefined;
}
