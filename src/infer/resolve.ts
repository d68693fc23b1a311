import escapeRegExp from "escape-string-regexp";
import type { Param, ToolFacts } from "./facts.js";
import { type CollectionShape, type ListShape, outline, type Part, type StateShape } from "./shape.js";
import {
  JOIN_VERBS,
  LEAVE_VERBS,
  LISTING_VERBS,
  listingVerbOf,
  nameWords,
  nounKeys,
  nounOfIdentifier,
  partNoun,
  SELF_MEMBERSHIP_VERBS,
  sameNoun,
  singular,
  switchingOf,
  VERBS,
} from "./words.js";

/**
 * What the arguments and the name of a tool point at in the world. An argument names a
 * collection by its noun (`order_id` → `orders`), by the field records keep their key in
 * (`order_id`), or by the examples its description gives matching the collection's keys
 * ('#K0000000'). A name points at the part its nouns name, container words aside
 * (`get_playlist` → `play_list`, `list_guests` → `guest_index`, `get_profile_info` →
 * `profile_info`).
 */

export interface Reference {
  param: Param;
  collection: CollectionShape;
  /** The argument is an array of keys (`item_ids`). */
  many: boolean;
  /** How sure: by name and key field (strong) or only by examples or a bare `id` (weak). */
  strength: "strong" | "weak";
}

/** Words that say which way something moves, before the noun of what it names (Monzo's `source_account_id`, Wise's `targetBalanceId`). */
export const DIRECTION_WORDS = /^(from|to|source|destination|dest|target|origin|src|dst|into)$/;

/** A part of the state an argument's description says it is in ("a bottle code with a price in `cellar_prices`"). */
export function describedPart(param: Param, shape: StateShape): Part | undefined {
  const named = /\b(?:in|of|from)\s+(?:the\s+)?`?([a-z][a-z0-9]*_[a-z0-9_]+)`?/.exec(param.description)?.[1];
  return named ? shape.parts.find((p) => p.name === named && !p.path.includes("*")) : undefined;
}

/**
 * "Bottle code with a price in cellar_prices": an argument whose description says it is a key
 * of a map of plain values refers to no records, whatever records are kept under the same keys.
 */
export function keyOfValues(param: Param, shape: StateShape): boolean {
  return describedPart(param, shape)?.kind === "values";
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
  // `source_account_id`, `fromAccountId`, `targetBalanceId`: a direction before the noun
  if (noun && byNoun.length === 0) {
    const words = nameWords(noun);
    if (words.length > 1 && DIRECTION_WORDS.test(words[0] as string))
      byNoun.push(...nounMatches(shape, words.slice(1).join("_")));
  }
  // several collections keep their key in a field of this name: the one the tool names wins
  const named = byKeyField.length > 1 ? namedCollection(facts, shape) : undefined;
  // …unless another argument names that one (`moveCardToList(id, idList)`: `id` is the card)
  const namedByOther = named !== undefined && namesOtherArgument(param, facts, named);
  const preferred =
    named && byKeyField.includes(named) && !namedByOther
      ? [named]
      : !noun
        ? headNounCollection(param, facts, [
            ...byKeyField,
            ...[...shape.nested.values()].filter((c) => c.keyField === keyName && !byKeyField.includes(c)),
          ])
        : [];
  if (preferred.length === 1 && preferred[0]?.parent)
    return { param, collection: preferred[0], many, strength: "strong" };
  const strong = pick([
    ...preferred,
    ...byKeyField.filter((c) => byNoun.includes(c)),
    ...byNoun,
    ...byKeyField,
  ]);
  if (strong && (param.identifier || byKeyField.includes(strong)))
    return { param, collection: strong, many, strength: "strong" };
  // `agent` names a record of `agents` by its natural key (`login`), when the records have one
  const natural = naturalKeyCollection(param, facts, shape);
  if (natural) return { param, collection: natural, many, strength: "weak" };
  const stated = statedKeyCollection(param, facts, shape);
  if (stated) return { param, collection: stated, many, strength: "strong" };
  if (!param.identifier && !/^(id|ids|key|uuid)$/.test(param.name)) return undefined;
  const described = describedCollection(param, shape);
  if (described) return { param, collection: described, many, strength: "weak" };
  const all = [...shape.collections.values(), ...shape.nested.values()];
  const byExample = all.filter((c) => param.examples.some((example) => matchesKeys(example, c)));
  if (param.identifier && byExample.length > 0)
    return { param, collection: pick(byExample) as CollectionShape, many, strength: "weak" };
  if (/^(id|ids|key|uuid)$/.test(nameWords(param.name).join("_"))) {
    const named = all.filter((c) =>
      facts.nouns.some((w) => sameNoun(w, c.name) || sameNoun(w, partNoun(c.name))),
    );
    if (named.length > 0)
      return { param, collection: pick(named) as CollectionShape, many, strength: "weak" };
  }
  return undefined;
}

/**
 * An argument named for neither a collection nor a key field (`code`, `slug`, `handle`) whose
 * docs say what it keys: its description calls it a key of a collection by the collection's
 * own name ("a key of `routes`", "an id in `walls`"), or a documented not-found error speaks of
 * one collection's record and this argument ("no route with this code"); a field the records
 * keep under the argument's name makes it a lookup instead ("no user has that email"). REST docs write
 * `{code}` path parameters (GitHub's `/gitignore/templates/{name}`, Stripe's
 * `/v1/promotion_codes?code=`, Cloudflare's zones by `name`).
 */
function statedKeyCollection(param: Param, facts: ToolFacts, shape: StateShape): CollectionShape | undefined {
  const description = param.description.toLowerCase().replace(/[`*]/g, "");
  // "a key of routes", "an id in walls", "routes key": the collection is what the key is of
  const keyWords = /\b(?:keys?|ids?|identifiers?)\b/.test(description);
  const named = [...shape.collections.values()].filter((c) => {
    if (!keyWords || !description.includes(c.name.toLowerCase()) || c.fields.has(param.name)) return false;
    const name = escapeRegExp(c.name.toLowerCase());
    return new RegExp(
      String.raw`\b(?:keys?|ids?|identifiers?)\s+(?:of|in|from|into)\s+(?:the\s+)?${name}(?!\w)|(?<![\w./])${name}(?:'s)?\s+(?:keys?|ids?|identifiers?)\b`,
    ).test(description);
  });
  if (named.length === 1) return named[0];
  const words = nameWords(param.name).join(" ");
  const withArgument = new RegExp(
    `\\b(?:with|of|for|by|has|having) (?:this|that|the|the given|such an?|an?) ${escapeRegExp(words)}\\b`,
  );
  const told = facts.errors.filter(
    (e) =>
      e.kind === "not-found" && e.noun !== undefined && e.text.includes(words) && withArgument.test(e.text),
  );
  const found = new Set(
    told.flatMap((e) => nounMatches(shape, e.noun as string)).filter((c) => !c.fields.has(param.name)),
  );
  return found.size === 1 ? [...found][0] : undefined;
}

function namesOtherArgument(param: Param, facts: ToolFacts, collection: CollectionShape): boolean {
  return facts.params.some((p) => {
    const noun = p === param ? undefined : nounOfIdentifier(p.name);
    return noun !== undefined && sameNoun(noun, collection.name);
  });
}

/**
 * A bare key (`id`) among collections that all keep their key in a field of that name, nested
 * ones too (a board's lists, a list's cards), names the one the tool's name names, its head
 * noun first (`getCardsInList` → lists, `addLabelToCard` → cards), passing over one another
 * argument names (`moveCardToList(id, idList)` moves a card): Trello's `/cards/{id}` and
 * `/lists/{id}/cards`, Todoist's `/tasks/{id}`, Asana's `/tasks/{task_gid}`.
 */
function headNounCollection(
  param: Param,
  facts: ToolFacts,
  candidates: readonly CollectionShape[],
): CollectionShape[] {
  if (candidates.length < 2) return [];
  const others = new Set(
    facts.params
      .filter((p) => p !== param)
      .map((p) => nounOfIdentifier(p.name))
      .filter((n): n is string => n !== undefined),
  );
  for (const word of [...facts.nouns].reverse()) {
    if ([...others].some((n) => sameNoun(n, word))) continue;
    const found = candidates.filter((c) => sameNoun(word, c.name));
    if (found.length === 1) return found;
  }
  return [];
}

/**
 * The collection whose key the description names (`recipient_id`: "User id of the
 * recipient." names the `user_id` of users): a role names no collection, its description does.
 */
function describedCollection(param: Param, shape: StateShape): CollectionShape | undefined {
  const text = param.description.toLowerCase();
  if (!text) return undefined;
  const found = [...shape.collections.values()].filter(
    (c) =>
      c.keyField !== undefined &&
      nameWords(c.keyField).length > 1 &&
      new RegExp(`\\b${nameWords(c.keyField).join("[ _-]?")}\\b`).test(text),
  );
  return found.length === 1 ? found[0] : undefined;
}

/**
 * A collection named by the argument itself (`agent` → `agents`) whose records have a natural
 * key field, or that keeps them by key (`channel` → `channels: {general: …}`, as Slack's
 * `channel`, Kubernetes' `namespace` and GitHub's `repo` name a record by its key). The argument
 * of a create named for what it makes is its content (`add_note(note)`), as is an update's where
 * no other argument sets a field (`set_photo(photo)`); what a membership verb joins or leaves,
 * and the record an update's other arguments change (`edit_page(page, body)`), are records.
 */
function naturalKeyCollection(
  param: Param,
  facts: ToolFacts,
  shape: StateShape,
): CollectionShape | undefined {
  if (param.identifier || param.type === "object" || param.type === "boolean") return undefined;
  const noun = nameWords(many(param) ? singularName(param.name) : param.name)
    .map(singular)
    .join("_");
  const byNounKey = nounKeys(noun).flatMap((key) => shape.byNoun.get(key) ?? []);
  // `channel` of `workspace_channels`: the head noun of the one collection whose name ends in it
  const byHead =
    byNounKey.length > 0
      ? []
      : [...shape.collections.values()].filter(
          (c) => c.container === "map" && !c.parent && singular(nameWords(c.name).at(-1) ?? "") === noun,
        );
  const found = byHead.length === 1 ? byHead : byNounKey;
  const byField = found.find(
    (c) => c.keyField && !/(^|_)id$|Id$/.test(c.keyField) && c.container === "array",
  );
  if (byField) return byField;
  // `join_channel(channel)` names the channel it joins; `set_photo(photo)` gives the photo
  // a map kept inside records is named this way only beside the argument that names its holder
  // (`device` of a `room`'s devices)
  const map = found.find(
    (c) => c.container === "map" && (!c.parent || holderNamed(c.parent, param, facts, shape)),
  );
  if (!map || SELF_MEMBERSHIP_VERBS.has(facts.verb ?? "") || !facts.nouns.some((n) => singular(n) === noun))
    return map;
  // `add_user_to_channel(channel, user)`: the record the name puts something into or takes it from
  const at = facts.words.findIndex((w) => singular(w) === noun);
  if (at > 0 && /^(to|into|in|from|on|onto)$/.test(facts.words[at - 1] ?? "")) return map;
  // an update whose other arguments set the record's fields names the record it changes
  // (`edit_page(page, body)`); one whose argument is all it gives sets it (`set_photo(photo)`)
  const setsFields = facts.params.some((p) => p !== param && map.fields.has(p.name));
  // a switch throws the record it names (`turn_on_device(device)`), it gives it nothing
  const switches = switchingOf(facts.words, facts.verb) !== undefined;
  const content =
    facts.verbAction === "create" || (facts.verbAction === "update" && !setsFields && !switches);
  return content ? undefined : map;
}

function holderNamed(parent: string, param: Param, facts: ToolFacts, shape: StateShape): boolean {
  return facts.params.some(
    (p) =>
      p !== param &&
      nounKeys(nameWords(p.name).map(singular).join("_")).some((key) =>
        (shape.byNoun.get(key) ?? []).some((c) => c.name === parent && !c.parent),
      ),
  );
}

function many(param: Param): boolean {
  return param.type === "array";
}

/** Top-level collections before nested ones; among equals, the first found. */
function pick(candidates: readonly CollectionShape[]): CollectionShape | undefined {
  return candidates.find((c) => !c.parent) ?? candidates[0];
}

/** Collections named by the noun, or whose name ends with it (`customer_orders` for `order`, `payment_card_list` for `card`). */
function nounMatches(shape: StateShape, noun: string): CollectionShape[] {
  const exact = nounKeys(noun).flatMap((key) => shape.byNoun.get(key) ?? []);
  const longer = shape.bySuffix.get(nameWords(noun).map(singular).join("_")) ?? [];
  const contained = [...shape.collections.values(), ...shape.nested.values()].filter(
    (c) => partNoun(c.name) === nameWords(noun).map(singular).join("_"),
  );
  return [...exact, ...longer, ...contained];
}

function singularName(name: string): string {
  const words = nameWords(name);
  const last = words.at(-1) ?? "";
  return [...words.slice(0, -1), singular(last)].join("_");
}

/** An example is a key of the collection, or has the outline of its keys (`#K0000000` for `#K4810273`). */
function matchesKeys(example: string, collection: CollectionShape): boolean {
  if (collection.keys.includes(example)) return true;
  const wanted = outline(example);
  return /[9]/.test(wanted) && collection.keys.slice(0, 200).some((key) => outline(key) === wanted);
}

/** The forms a part's name is compared in, run together: its noun and its noun keys (computed once per part). */
const partForms = new WeakMap<Part, Set<string>>();

function formsOf(part: Part): Set<string> {
  let forms = partForms.get(part);
  if (!forms) {
    const names = [partNoun(part.name), ...nounKeys(part.name)];
    // a list of ids is named for what they identify: `liked_post_ids` is the liked posts
    if (part.kind === "list" && /_?ids?$/i.test(part.name) && nameWords(part.name).length > 1)
      names.push(partNoun(part.name.replace(/_?ids?$/i, "")));
    forms = new Set(names.map((f) => f.replace(/_/g, "")));
    partForms.set(part, forms);
  }
  return forms;
}

/**
 * The part of the world a tool's name is about, if the world has it: the longest run of the
 * name's nouns (before any `by`, `for`, `with`, `from` that introduces what it selects by) that
 * names a part, container words aside; the head noun (English puts it last) wins a tie.
 */
export function namedPart<K extends Part["kind"]>(
  facts: ToolFacts,
  shape: StateShape,
  kinds: readonly K[],
): Extract<Part, { kind: K }> | undefined {
  const all = facts.words.filter((w) => w !== facts.verb);
  const cut = all.findIndex((w) => ["by", "for", "with", "using", "via"].includes(w));
  const words = (cut > 0 ? all.slice(0, cut) : all).filter(
    (w) => !["a", "an", "the", "to", "from", "of", "all", "my", "new"].includes(w),
  );
  const candidates = shape.parts.filter(
    (p): p is Extract<Part, { kind: K }> => (kinds as readonly string[]).includes(p.kind) && p.name !== "",
  );
  if (candidates.length === 0) return undefined;
  const singulars = words.map(singular);
  for (let size = words.length; size >= 1; size--)
    for (let start = words.length - size; start >= 0; start--) {
      const run = singulars.slice(start, start + size).join("");
      const found = candidates.find((p) => formsOf(p).has(run));
      if (found) return found;
    }
  // the head noun alone names a part whose name ends with it, where only one does (`list_cards`
  // for `payment_cards`, as Stripe lists payment methods of type card)
  const head = singulars.at(-1);
  const ending = head
    ? candidates.filter(
        (p) =>
          p.kind === "collection" &&
          nameWords(p.name).length > 1 &&
          singular(nameWords(p.name).at(-1) ?? "") === head,
      )
    : [];
  return ending.length === 1 ? ending[0] : undefined;
}

/**
 * The list a membership verb keeps, named by the verb's participle: `follow`/`unfollow` keep
 * `following`, `like` keeps `liked_post_ids`, `star` keeps `starred` (as GitHub's and X's
 * APIs name them), or by its noun (`subscribe` keeps `subscriptions`, as YouTube's and
 * Reddit's do). Verbs that say nothing of the list (add, remove) name none.
 */
export function listOfVerb(facts: ToolFacts, shape: StateShape): ListShape | undefined {
  // the vocabulary of the other rules need not know a listing verb (`mute`)
  const verb = listingVerbOf(facts.words, facts.verb);
  if (!verb || !(JOIN_VERBS.has(verb) || LEAVE_VERBS.has(verb) || LISTING_VERBS[verb])) return undefined;
  const stem = verb.replace(/^un/, "");
  if (PLAIN_MEMBERSHIP.has(stem)) return undefined;
  const bare = stem.replace(/e$/, "");
  // …or by the verb's noun: `subscribe` keeps `subscriptions`, `bookmark` keeps `bookmarks`
  const forms = new Set([
    `${bare}ing`,
    `${bare}ed`,
    `${stem}${stem.at(-1)}ed`,
    `${bare}es`,
    `${stem}s`,
    stem,
    stem.replace(/scribe$/, "scription"),
  ]);
  const lists = shape.parts.filter((p): p is ListShape => {
    const first = nameWords(p.name)[0] ?? "";
    return p.kind === "list" && (forms.has(first) || forms.has(singular(first)));
  });
  return lists.length === 1 ? lists[0] : undefined;
}

/**
 * "Append a bus to the end of the wash line (`wash_line`)": a making verb
 * whose opening sentence appends to a list of the state it names in code is that list's, not a
 * new record of the noun it names, as Redis `RPUSH`, SQS `SendMessage` and a playlist's "add to
 * queue" put a value at a list's end. An opening that adds or appends "to the end of the reserves"
 * names the list as a word, under any verb.
 */
export function appendedList(facts: ToolFacts, shape: StateShape): ListShape | undefined {
  const opening = facts.tool.description.split(/(?<=[.!?])\s|\n/)[0] ?? "";
  const lists = shape.parts.filter((p): p is ListShape => p.kind === "list" && !p.path.includes("*"));
  if (facts.verb && VERBS.create.includes(facts.verb)) {
    if (/\b(?:append|appends|push|pushes|enqueue|enqueues)\b/i.test(opening)) {
      const coded = lists.filter((p) => opening.includes(`\`${p.path.join(".")}\``));
      if (coded.length === 1) return coded[0];
    }
  }
  // "Adds a new rower to the end of the reserves", "sends a rower ashore by appending
  // the name to ashore": the list the opening puts the value at the end of, by its name
  if (!/\b(?:add|adds|adding|append|appends|appending|push|pushes|pushing)\b/i.test(opening))
    return undefined;
  const named = lists.filter((p) => {
    const name = nameWords(p.name).join("[ _]");
    return new RegExp(
      `\\b(?:to|onto)\\s+(?:the\\s+)?(?:(?:end|back|tail|bottom)\\s+of\\s+(?:the\\s+)?)?\`?${name}\`?\\b`,
      "i",
    ).test(opening);
  });
  return named.length === 1 ? named[0] : undefined;
}

const PLAIN_MEMBERSHIP = new Set([
  "add",
  "remove",
  "delete",
  "drop",
  "include",
  "exclude",
  "append",
  "join",
  "leave",
]);

/** Joins whose nouns name records of their own (a subscription), not a bare set. */
export const FILED_JOINS: ReadonlySet<string> = new Set(["subscribe"]);

/**
 * The collection the verb's noun names, where the tool's other words name none: `book_room`
 * files a booking, `reserve_room` a reservation, `subscribe` a subscription, as REST APIs
 * name the resource an action makes (Amadeus flight orders and Booking.com reservations,
 * Stripe's `POST /v1/subscriptions`, Eventbrite's registrations).
 */
export function collectionOfVerb(facts: ToolFacts, shape: StateShape): CollectionShape | undefined {
  const verb = facts.verb;
  // only a verb that makes something names what it makes (`list` names no listing); joining
  // something kept as records makes one (`subscribe` files a subscription, as Stripe's
  // `POST /v1/subscriptions` and YouTube's `subscriptions.insert` do)
  if (!verb || verb.length < 3 || !(VERBS.create.includes(verb) || FILED_JOINS.has(verb))) return undefined;
  const bare = verb.replace(/e$/, "");
  const forms = new Set([
    `${verb}ing`,
    `${bare}ing`,
    `${bare}ation`,
    `${verb}ation`,
    `${verb}ment`,
    `${bare}al`,
    `${verb}al`,
    `${bare}ion`,
    `${verb}y`,
    verb.replace(/scribe$/, "scription"),
    // submit → submission, register → registration
    verb.replace(/mit$/, "mission"),
    verb.replace(/ster$/, "stration"),
  ]);
  // any word of the name: `booking_records` and `reservation_list` are named for what they keep
  const found = [...shape.collections.values()].filter((c) =>
    nameWords(c.name).some((w) => forms.has(singular(w))),
  );
  return found.length === 1 ? found[0] : undefined;
}

/**
 * A verb that is itself the noun of a collection, followed by a preposition, makes one of
 * those, about the record that follows: `comment_on_post` files a comment on a post,
 * `reply_to_message` a reply, `post_to_channel` a post (GitHub's issue comments, Reddit's
 * comments on a submission, Slack's messages posted to a channel).
 */
export function verbNounCollection(facts: ToolFacts, shape: StateShape): CollectionShape | undefined {
  const verb = facts.verb;
  const next = facts.tool.name === "" ? undefined : nameWords(facts.tool.name)[1];
  if (!verb || !next || !["on", "to", "for", "in", "under", "about", "at"].includes(next)) return undefined;
  if (!VERBS.create.includes(verb)) return undefined;
  const found = [...shape.collections.values()].filter((c) => nameWords(singular(c.name)).at(-1) === verb);
  return found.length === 1 ? found[0] : undefined;
}

/** The collection the tool's name is about (`show_invoice_summary` → invoices), if the state has it. */
export function namedCollection(facts: ToolFacts, shape: StateShape): CollectionShape | undefined {
  return namedPart(facts, shape, ["collection"]);
}
