import escapeRegExp from "escape-string-regexp";
import { deepEqual, isPlainObject } from "../patch/index.js";
import { knownValues, statedStatus } from "./conditions.js";
import { addError, addGap, type Context, humanNoun, notFoundError, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { fieldFor, LITERAL, literalValue, nowFields, statusField } from "./fields.js";
import { referenceGuards, statusGuards } from "./guards.js";
import {
  chargeAccount,
  chargeFor,
  kindFields,
  PRICE_WORDS,
  sharedFields,
  spendingLimit,
} from "./payments.js";
import {
  holderMaker,
  leadingItems,
  type Maker,
  ownerField,
  principalOf,
  signedInMaker,
} from "./principal.js";
import { overlapCheck, sameFieldsCheck } from "./ranges.js";
import { bindingName, identifier, keyFieldFor, keyNameOf, wrapperOutput } from "./reads.js";
import type { Reference } from "./resolve.js";
import {
  COUNTS,
  type CollectionShape,
  type FieldShape,
  mapsByName,
  outline,
  type RecordShape,
  type StateShape,
} from "./shape.js";
import { stockTaken } from "./stock.js";
import { keptSums } from "./sums.js";
import { containerTarget, recordTarget } from "./targets.js";
import { recordsAt } from "./transitions.js";
import { nameWords, participle, partNoun, plural, singular } from "./words.js";

/**
 * Creates of records, in collections and inside other records: the ids they are filed under,
 * the fields they start with, and what moves beside them.
 */

/**
 * "New reservations are confirmed", "a new ticket starts as triaged": the status the
 * description gives a new record, when it is one the records or schemas know (unquoted words
 * are read only then).
 */
function describedStart(text: string, known: readonly string[], noun: string): string | undefined {
  const said =
    /\bnew\s+[a-z_ ]{1,30}?\s+(?:is|are|starts?|begins?)\s+(?:as\s+|in\s+)?(?:the\s+)?([a-z][a-z_ -]{0,30}?)(?:\s+status)?(?:[.,;]|$)/i.exec(
      text,
    )?.[1] ??
    // "stored as { ref, …, status: "confirmed" }": the record the docs show being kept
    /\{[^{}]*\bstatus\s*:\s*["'`]([a-z][a-z_ -]{0,30})["'`][^{}]*\}/i.exec(text)?.[1] ??
    // "Creates a confirmed booking": the status its article names
    new RegExp(
      `^\\s*(?:creates?|makes?|opens?|files?|adds?|places?)\\s+(?:a|an)\\s+([a-z][a-z_-]{2,30})\\s+(?:${escapeRegExp(noun)}|${escapeRegExp(noun.split(" ").at(-1) ?? noun)})\\b`,
      "i",
    ).exec(text)?.[1];
  if (!said) return undefined;
  return known.find((value) => value.toLowerCase() === said.toLowerCase());
}

/** Statuses that begin a lifecycle, in the words APIs give them. */
const BEGINNINGS =
  /^(open|new|pending|draft|created|requested|submitted|scheduled|queued|planned|proposed|initiated|received|unpaid|todo|to do|not started|active)$/i;

/**
 * The status a new record starts in, where the tool does not say: the one value the records
 * have that begins a lifecycle (`open` beside `closed`, `pending` beside `shipped`), or of
 * several, the one the tool's own words name (`open_ticket` among open and pending); a new
 * GitHub issue is `open`, a Zendesk ticket `new`, a Stripe invoice `draft`.
 */
function startingStatus(
  ctx: Context,
  values: readonly string[],
  enumerated: readonly string[],
): string | undefined {
  const starts = values.filter((v) => BEGINNINGS.test(v.replace(/[_-]/g, " ")));
  if (starts.length === 1) return starts[0];
  const words = new Set([...ctx.facts.words, ...nameWords(ctx.facts.tool.description)]);
  const named = starts.filter((v) => words.has(v.toLowerCase()));
  if (named.length === 1) return named[0];
  // an enum lists a lifecycle from its start: GitHub's [open, closed], Stripe's invoice
  // [draft, open, paid, …], PayPal's order [CREATED, SAVED, APPROVED, …]
  const first = enumerated.find((v) => starts.includes(v));
  // but where it lists more than one beginning, its order is all that chose: a broker's order
  // may start `pending` before it is `open`, a help desk's ticket `open` before `pending`
  if (first && starts.length > 1)
    addGap(
      ctx,
      `a new record's status '${first}' is the first of ${starts.map((s) => `'${s}'`).join(", ")} in the API's enum: a guess at which one a new record starts in`,
    );
  return first;
}

/**
 * A create files a new record in the collection the tool's name names (or a new one), under
 * an id minted the way the collection's ids are (a counter beside it, or the next after the
 * largest, in the keys' format), with the arguments that are its fields, the clock in its
 * creation timestamp, and its id appended to the list that the record it references keeps
 * of them (an author's `posts`); counts of the same noun beside it move by one.
 */
export function createRule(ctx: Context, collection: CollectionShape | undefined, noun: string): Draft[] {
  if (collection?.parent) return nestedCreate(ctx, collection, noun);
  const name = collection?.name ?? pluralNoun(noun);
  const set: Record<string, unknown> = {};
  for (const param of ctx.facts.params) {
    const field = collection ? fieldFor(param, collection) : param.name;
    if (field) set[field] = `{${param.name}}`;
    // a create keeps what it is given, as a POST body becomes the new resource's fields; a
    // record of another collection it names moves to the field that refers to it, if any
    else if (param.type !== "boolean" && param.type !== "object") set[param.name] = `{${param.name}}`;
  }
  withDefaults(ctx, set);
  if (collection) Object.assign(set, namedPlaces(ctx, collection, set));
  if (collection) countsFromList(ctx, collection, set);
  const source = collection ? sourceRecord(ctx, collection, set) : undefined;
  const maker = completeRecord(ctx, collection, set);
  const stated = statedStatus(ctx.facts.text);
  const statusPath = collection ? statusField(collection)?.path : undefined;
  if (stated) set[statusPath ?? "status"] = stated;
  else if (collection && statusPath && set[statusPath] === undefined && collection.size === 0) {
    // a world known only from its schemas: a new entity starts in the first status its schema
    // lists, as enums of lifecycles are written in order (open → closed, available → sold)
    const first = collection.fields.get(statusPath)?.values.keys().next().value;
    if (typeof first === "string") {
      set[statusPath] = first;
      ctx.notes.push(`starts it '${first}' (the first ${statusPath} its schema allows)`);
    }
  } else if (collection && statusPath && set[statusPath] === undefined) {
    const seen = [...(collection.fields.get(statusPath)?.values.keys() ?? [])];
    const known = knownValues(ctx, statusPath, seen);
    const described = describedStart(ctx.facts.text, known, humanNoun(singular(collection.name)));
    const start = described ?? startingStatus(ctx, known, knownValues(ctx, statusPath, []));
    if (described) {
      set[statusPath] = described;
      ctx.notes.push(`starts it '${described}' (the description says new ones are)`);
    } else if (start) {
      set[statusPath] = start;
      ctx.notes.push(
        `starts it '${start}' (of the ${statusPath} values the records and schemas show, the one that begins a lifecycle)`,
      );
    }
  }
  // the time it entered the status it starts in (`queued_at` of a job that starts queued)
  const started = statusPath ? set[statusPath] : undefined;
  const enteredAt =
    typeof started === "string" ? collection?.fields.get(`${started.toLowerCase()}_at`) : undefined;
  if (enteredAt && set[enteredAt.path] === undefined) set[enteredAt.path] = "{$now}";
  // a map's records without a key field: the id the toolset's tools name them by (`member_id`
  // for `club_members`), else one of the collection's noun
  const ownId = `${nameWords(singular(name)).join("_")}_id`;
  const namedId =
    collection?.container === "map" && collection.size > 0 ? keyNameOf(ctx.siblings(), collection) : ownId;
  const keyField = collection?.keyField ?? idSpelling(ctx, namedId.endsWith("_id") ? namedId : ownId);
  const binding = bindingName(collection ?? ({ name } as CollectionShape));
  const container = collection ? containerTarget(ctx, collection) : name;
  if (!container) return [];
  const given = collection ? givenKey(ctx, collection) : undefined;
  const listed = collection && !given ? givenListKey(ctx, collection) : undefined;
  const create: Draft = listed
    ? {
        kind: "create",
        target: container,
        set: {
          ...Object.fromEntries(Object.entries(set).filter(([field]) => field !== listed.param.name)),
          [listed.field]: `{${listed.param.name}}`,
        },
        as: binding,
        output: (collection && wrapperOutput(ctx, collection)) ?? "",
      }
    : given
      ? {
          kind: "create",
          target: `${container}/{${given.name}}`,
          exists: takenError(ctx, collection as CollectionShape, given.name),
          set: { ...set, ...(collection?.keyField ? { [collection.keyField]: `{${given.name}}` } : {}) },
          as: binding,
          output: (collection && wrapperOutput(ctx, collection)) ?? "",
        }
      : {
          kind: "create",
          target: container,
          id: asAnswered(ctx, mintOf(collection, name, keyField)),
          set,
          as: binding,
          output: (collection && wrapperOutput(ctx, collection)) ?? "",
        };
  if (given) ctx.notes.push(`files it under the key ${given.name} gives, refusing a taken one`);
  const taken: Draft[] = listed
    ? [
        {
          kind: "check",
          require: [
            {
              expr: `$not($args.${identifier(listed.param.name)} in $entity(${JSON.stringify(container)}).${identifier(listed.field)})`,
              error: takenError(ctx, collection as CollectionShape, listed.param.name),
            },
          ],
        },
      ]
    : [];
  if (listed)
    ctx.notes.push(`appends it with the ${listed.field} ${listed.param.name} gives, refusing a taken one`);
  const drafts: Draft[] = [...taken, ...(source ? [source] : []), ...(maker ? [maker.read] : []), create];
  const target = container;
  ctx.notes.push(
    `creates ${withArticle(humanNoun(partNoun(name)))} in ${collection ? target : name}${collection ? "" : " (a new collection)"} with ${Object.keys(set).join(", ") || "no fields"}${collection?.counter ? `, its id from ${collection.counter.path.join("/")}` : ""}`,
  );
  const idOutput = ctx.facts.outputs.find(
    (o) =>
      (o.name === keyField || o.name === "id" || o.name === `${nameWords(singular(name)).join("_")}_id`) &&
      !(collection?.fields.has(o.name) ?? false),
  );
  if (idOutput && !listed) drafts.push({ kind: "respond", output: idOutput.name, value: { $expr: "$id" } });
  if (collection) drafts.push(...countsMoving(ctx, collection, noun));
  const linked = collection ? linkedFields(ctx, collection, create) : { reads: [] };
  if (collection) unfilledFields(ctx, collection, create.set as Record<string, unknown>);
  drafts.unshift(...spendingLimit(ctx, linked.price));
  let charged = false;
  for (const reference of ctx.references) {
    if (reference.many || reference.collection.parent || reference.collection === collection) continue;
    const list = [...reference.collection.fields.values()].find(
      (f) => f.refersTo === name && f.types.has("array"),
    );
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    const referenced = recordTarget(ctx, reference.collection, `{${reference.param.name}}`);
    if (!referenced) continue;
    const named = missing ? { missing } : {};
    if (collection) drafts.unshift(...overlapCheck(ctx, collection, reference));
    const said = referenceGuards(ctx, reference.collection);
    if (said.require.length > 0)
      drafts.unshift({ kind: "read", target: referenced, ...named, require: said.require });
    if (Object.keys(said.set).length > 0)
      drafts.push({ kind: "update", target: referenced, ...named, set: said.set });
    // the record that keeps a list of these gets the new id; any other must merely exist
    // checked before the create, so a refused call files nothing
    if (list) drafts.push({ kind: "update", target: referenced, ...named, append: { [list.path]: "{$id}" } });
    else if (counted(reference.collection, name))
      drafts.unshift({
        kind: "update",
        target: referenced,
        ...named,
        inc: { [counted(reference.collection, name) as string]: 1 },
      });
    else {
      const charge = chargeFor(ctx, reference, missing, linked.price);
      charged ||= charge !== undefined;
      drafts.unshift(charge ?? { kind: "read", target: referenced, ...named });
      const taken = stockTaken(ctx, reference, referenced, missing);
      if (taken) drafts.unshift(taken);
    }
    if (list) ctx.notes.push(`appends the new id to ${reference.collection.name}.${list.path}`);
  }
  const account = !charged && linked.price ? chargeAccount(ctx, linked.price) : undefined;
  if (account) drafts.unshift(account);
  if (collection)
    drafts.unshift(...selfLinks(ctx, collection, set), ...sameFieldsCheck(ctx, collection, set));
  drafts.unshift(...linked.reads);
  return drafts;
}

/**
 * A new record made from another its arguments name (an order from an offer) takes the fields
 * every existing record shares with the one it was made from (`total_amount`,
 * `total_currency`), and a price among them is what the purchase costs: Duffel orders and
 * Amadeus flight orders are priced by their offer, Stripe invoice items by their Price,
 * Shopify order lines by their variant.
 */
function linkedFields(
  ctx: Context,
  collection: CollectionShape,
  create: Draft,
): { reads: Draft[]; price?: { name: string; expr: string } } {
  const set = create.set as Record<string, unknown>;
  const reads: Draft[] = [];
  let price: { name: string; expr: string } | undefined;
  for (const reference of ctx.references) {
    if (reference.many || reference.collection === collection || reference.collection.parent) continue;
    // the argument as given, or with the default its schema documents (`withDefaults`)
    const defaulted = `$exists(${identifier(reference.param.name)}) ?`;
    const link = Object.keys(set).find(
      (f) =>
        set[f] === `{${reference.param.name}}` ||
        (isPlainObject(set[f]) && String((set[f] as { $expr?: unknown }).$expr ?? "").startsWith(defaulted)),
    );
    if (!link) continue;
    const given = set[link] === `{${reference.param.name}}`;
    for (const [field, kind] of Object.entries(kindFields(ctx, collection, link))) {
      if (set[field] !== undefined && ctx.facts.params.some((p) => set[field] === `{${p.name}}`)) continue;
      set[field] = kind;
      ctx.notes.push(
        `sets ${field} to '${kind}', as every ${singular(collection.name)} with a ${link} has it`,
      );
    }
    const shared = sharedFields(ctx, collection, link, reference.collection).filter(
      (f) => set[f] === undefined || !ctx.facts.params.some((p) => set[f] === `{${p.name}}`),
    );
    const copies = copiedRecords(ctx, collection, link, reference.collection).filter(
      (f) => set[f] === undefined,
    );
    const target =
      (given ? shared.length : 0) + copies.length > 0
        ? recordTarget(ctx, reference.collection, `{${reference.param.name}}`)
        : undefined;
    if (!target) continue;
    const binding = `made_from_${reads.length}`;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    reads.push({
      kind: "read",
      target,
      as: binding,
      ...(missing ? { missing } : {}),
      // an argument left to its default names the record only when given
      ...(given ? {} : { when: `$exists($args.${identifier(reference.param.name)})` }),
    });
    if (given) for (const field of shared) set[field] = `{$${binding}.${field}}`;
    for (const field of copies) {
      set[field] = { $expr: `$${binding}` };
      ctx.notes.push(
        `takes ${field} as a copy of the ${humanNoun(singular(reference.collection.name))} ${reference.param.name} names`,
      );
    }
    const priced = shared.find(
      (f) => nameWords(f).some((w) => PRICE_WORDS.test(w)) && collection.fields.get(f)?.types.has("number"),
    );
    if (priced && !price)
      price = { name: `${reference.param.name}'s ${priced}`, expr: `$${binding}.${identifier(priced)}` };
    if (given && shared.length > 0)
      ctx.notes.push(
        `takes ${shared.join(", ")} from the ${singular(reference.collection.name)} ${reference.param.name} names`,
      );
  }
  if (!price) {
    const rated = ratedTotal(ctx, collection, set, reads.length);
    if (rated) {
      reads.push(rated.read);
      price = rated.price;
    }
  }
  return { reads, ...(price ? { price } : {}) };
}

/**
 * Object fields every record holds as a copy of the record its link names (a ticket's `sla`,
 * the policy of its priority; an order line's `tax`, the rate of its region): a new record takes
 * a copy, as Zendesk's SLA policies stamp a ticket's targets and Stripe's invoice lines copy their
 * tax rates, which later edits of the source do not change.
 */
function copiedRecords(
  ctx: Context,
  collection: CollectionShape,
  link: string,
  owner: CollectionShape,
): string[] {
  if (owner.parent || owner.container !== "map") return [];
  const pairs = ctx.states.flatMap((state) => {
    let at: unknown = state;
    for (const segment of owner.path) at = isPlainObject(at) ? at[segment] : undefined;
    const owners = isPlainObject(at) ? at : {};
    return recordsAt(state, collection.path)
      .filter((entry) => typeof entry[link] === "string" || typeof entry[link] === "number")
      .map((entry) => ({ entry, source: owners[String(entry[link])] }));
  });
  if (pairs.length < 2) return [];
  // the source without its key: what a copy of it holds
  const bare = (record: unknown) => {
    if (!isPlainObject(record)) return undefined;
    const { [owner.keyField ?? ""]: _key, ...rest } = record;
    return rest;
  };
  return [...collection.fields.values()]
    .filter((f) => !f.path.includes(".") && f.types.has("object") && f.path !== link)
    .map((f) => f.path)
    .filter((field) =>
      pairs.every(
        ({ entry, source }) =>
          isPlainObject(entry[field]) &&
          bare(source) !== undefined &&
          deepEqual(bare(entry[field]), bare(source)),
      ),
    );
}

/** How many of a rated thing a call takes: nights of a stay, days of a rental, seats. */
const COUNT_PARAM =
  /^(nights|days|hours|weeks|months|quantity|qty|units|seats|tickets|count|num_\w+|number_of_\w+)$/;
const RATE_WORDS = /^(rate|price|fee|cost|tariff)$/;

/**
 * A record made from another that is priced per unit (a hotel's `nightly_rate`, a car's
 * `daily_rate`, a product's `unit_price`) costs that rate times the count the call takes
 * (`nights`, `days`, `quantity`), kept in the new record's one price field (`total`): Booking
 * and Expedia stays, car rentals, and order lines (`unit_amount` × `quantity` in Stripe).
 */
function ratedTotal(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
  reads: number,
): { read: Draft; price: { name: string; expr: string } } | undefined {
  const count = ctx.facts.params.filter((p) => p.type === "integer" && COUNT_PARAM.test(p.name));
  const totals = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("number") &&
      set[f.path] === undefined &&
      nameWords(f.path).some((w) => PRICE_WORDS.test(w)),
  );
  if (count.length !== 1 || totals.length !== 1) return undefined;
  for (const reference of ctx.references) {
    if (reference.many || reference.collection === collection || reference.collection.parent) continue;
    const rates = [...reference.collection.fields.values()].filter(
      (f) =>
        !f.path.includes(".") && f.types.has("number") && nameWords(f.path).some((w) => RATE_WORDS.test(w)),
    );
    const target =
      rates.length === 1 ? recordTarget(ctx, reference.collection, `{${reference.param.name}}`) : undefined;
    if (!target) continue;
    const rate = (rates[0] as FieldShape).path;
    const by = (count[0] as Param).name;
    const binding = `made_from_${reads}`;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    const expr = `$${binding}.${identifier(rate)} * $args.${identifier(by)}`;
    const total = (totals[0] as FieldShape).path;
    set[total] = { $expr: expr };
    ctx.notes.push(`sets ${total} to the ${singular(reference.collection.name)}'s ${rate} times ${by}`);
    return {
      read: { kind: "read", target, as: binding, ...(missing ? { missing } : {}) },
      price: { name: `${rate} times ${by}`, expr },
    };
  }
  return undefined;
}

/**
 * An argument that fills a field whose values are keys of the same collection (a status's
 * `in_reply_to_id`, a comment's `parent_id`) links the new record to one that must exist,
 * whose count named for the link (`replies_count`) goes up by one: Mastodon's
 * `in_reply_to_id` and `replies_count`, Bluesky's `reply.parent` and `replyCount`,
 * GitHub's comment `in_reply_to_id`.
 */
function selfLinks(ctx: Context, collection: CollectionShape, set: Record<string, unknown>): Draft[] {
  const keys = new Set(collection.keys);
  const drafts: Draft[] = [];
  for (const param of ctx.facts.params) {
    if (param.type !== "string" && param.type !== "integer") continue;
    const field = collection.fields.get(param.name);
    if (!field || field.path === collection.keyField || set[field.path] !== `{${param.name}}`) continue;
    const values = field.samples.filter((v) => typeof v === "string" || typeof v === "number").map(String);
    if (values.length === 0 || !values.every((v) => keys.has(v))) continue;
    const target = recordTarget(ctx, collection, `{${param.name}}`);
    if (!target) continue;
    const missing = notFoundError(ctx, collection, param.name, { add: true });
    const words = nameWords(field.path).filter((w) => !/^(id|in|to|of|on)$/.test(w));
    const count = words.map((w) => counted(collection, w)).find((c) => c !== undefined);
    ctx.notes.push(
      `${param.name} must name a ${singular(collection.name)}${count ? `, whose ${count} goes up by one` : ""}`,
    );
    drafts.push({
      kind: "update",
      target,
      when: `$exists($args.${identifier(param.name)}) and $args.${identifier(param.name)} != null`,
      ...(missing ? { missing } : {}),
      ...(count ? { inc: { [count]: 1 } } : {}),
    });
  }
  return drafts;
}

/** "a ticket", "an appointment": for the report's notes. */
function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

/** The new record's id field as the tool spells it (`labelId` for `label_id`), where an output names it. */
function idSpelling(ctx: Context, snake: string): string {
  const spelled = ctx.facts.outputs.find((o) => nameWords(o.name).join("_") === snake);
  return spelled?.name ?? shortIdOutput(ctx, snake) ?? snake;
}

/**
 * An id output named by part of a compound noun, container words aside: an `appointment_records`'
 * id is its `appointment_id`, an `insurance_card_list`'s its `card_id` (the head noun). An id the
 * call was given is another record's.
 */
function shortIdOutput(ctx: Context, snake: string): string | undefined {
  const noun = partNoun(snake.split("_").slice(0, -1).join("_")).split("_");
  const found = ctx.facts.outputs.filter((o) => {
    const words = nameWords(o.name).map(singular);
    if (words.at(-1) !== "id" || words.length < 2 || words.length > noun.length + 1) return false;
    if (ctx.facts.params.some((p) => p.name === o.name)) return false;
    const own = words.slice(0, -1).join("_");
    const leading = noun.slice(0, words.length - 1).join("_");
    const trailing = noun.slice(noun.length - (words.length - 1)).join("_");
    return own === leading || own === trailing;
  });
  return found.length === 1 ? found[0]?.name : undefined;
}

/**
 * A new record has the fields its siblings have: their lists start empty, their counts at
 * zero, and fields the state shows empty (null) in some of them start empty, as a REST create
 * answers the whole resource (`"assignee": null`, `"labels": []`, `"like_count": 0`).
 */
export function emptyFields(
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const empty: Record<string, unknown> = {};
  if (collection.size === 0) return empty;
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || field.path === collection.keyField || set[field.path] !== undefined)
      continue;
    if (field.types.has("array") && field.types.size === 1) empty[field.path] = { $expr: "[]" };
    else if (field.types.has("number") && field.types.size === 1 && isCount(field))
      empty[field.path] = { $expr: "0" };
    else if (field.types.has("null")) empty[field.path] = { $expr: "null" };
    // a text some records leave empty (a card's `desc`) is empty until something sets it
    else if (field.types.has("string") && field.types.size === 1 && field.values.has(""))
      empty[field.path] = { $expr: '""' };
    else if (field.types.has("boolean") && field.types.size === 1 && happensLater(field.path))
      empty[field.path] = { $expr: "false" };
  }
  return empty;
}

/**
 * A flag for what happens to a record after it is made (`closed`, `is_archived`,
 * `dueComplete`): a new record has not been through it, as GitHub's new issue is not
 * `locked`, Trello's new card not `closed` and Todoist's new task not `completed`.
 */
function happensLater(path: string): boolean {
  return LATER_STATES.test(nameWords(path).at(-1) ?? "");
}

const LATER_STATES =
  /^(disabled|revoked|banned|voided|closed|archived|deleted|complete|completed|done|resolved|pinned|locked|muted|hidden|starred|flagged|cancell?ed|merged|blocked|suspended|expired)$/;

/** Plurals that count how often something happened to a record. */
const TIMES_COUNTED =
  /^(attempts|retries|tries|views|visits|downloads|clicks|failures|errors|reboots|restarts|plays|opens|uses|runs|hits|replies|lookups)$/;
/** Of those, the ones no record holds as its own amount: a count even where none is at zero yet. */
const ONLY_COUNTED = /^(views|visits|downloads|clicks|plays|hits|replies|lookups)$/;

/**
 * A count of things that accrue to a record by its name (`like_count`, `commentCount`); a
 * `num_shares` or `quantity` is the record's own amount, not a count that starts at zero.
 */
function isCount(field: FieldShape): boolean {
  const words = nameWords(field.path);
  const last = words.at(-1) ?? "";
  if (last === "count") return true;
  // `attempts`, `retries`: how often something happened, as whole numbers, some still at zero
  // (not what a record holds: `shares`, `units` are its own amount)
  const seen = field.samples;
  return (
    words.length === 1 &&
    TIMES_COUNTED.test(last) &&
    (seen.includes(0) || ONLY_COUNTED.test(last)) &&
    seen.every((v) => typeof v === "number" && Number.isInteger(v) && v >= 0)
  );
}

/**
 * The count a record keeps of the records of another collection made about it (a post's
 * `comment_count`, an issue's `comments` number), which a new one raises by one: GitHub's
 * issue `comments`, Reddit's `num_comments`, YouTube's `commentCount`.
 */
export function counted(collection: CollectionShape, made: string): string | undefined {
  const noun = singular(nameWords(made).at(-1) ?? made);
  const found = [...collection.fields.values()].filter((f) => {
    if (f.path.includes(".") || !f.types.has("number") || f.types.size !== 1) return false;
    const words = nameWords(f.path).map(singular);
    return words.includes(noun) && (isCount(f) || words[0] === "num" || words.length === 1);
  });
  return found.length === 1 ? found[0]?.path : undefined;
}

/**
 * A new record's maker, where the record keeps who made it and no argument says so: the
 * signed-in account (a post's `author`, a message's `from`), or else the owner of the record
 * the collection lives in (a calendar's owner organizes its events).
 */
function makerOf(ctx: Context, collection: CollectionShape, set: Record<string, unknown>): Maker | undefined {
  for (const other of ctx.shape.collections.values()) {
    const principal = principalOf(ctx.shape, other);
    const field = principal ? ownerField(collection, principal) : undefined;
    if (principal && field && set[field] === undefined) return signedInMaker(principal, field);
  }
  const owner = holderMaker(ctx.shape, collection);
  return owner && set[owner.field] === undefined ? owner : undefined;
}

/**
 * An argument naming a record of another collection fills the one field of the new record
 * that refers to that collection and that is not its author (`recipient_id` → `to`).
 */
function referencedFields(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const reference of ctx.references) {
    if (reference.many || reference.collection === collection) continue;
    // a field of the argument's own name takes it: another that refers to the same records
    // (`assignee` beside `mechanic_id`) is someone else
    if (collection.fields.has(reference.param.name)) continue;
    const principal = principalOf(ctx.shape, reference.collection);
    const owner = principal ? ownerField(collection, principal) : undefined;
    const fields = [...collection.fields.values()].filter(
      (f) =>
        f.refersTo === reference.collection.name &&
        !f.path.includes(".") &&
        f.path !== owner &&
        set[f.path] === undefined,
    );
    if (fields.length !== 1) continue;
    const field = fields[0] as FieldShape;
    filled[field.path] = `{${reference.param.name}}`;
    delete set[reference.param.name];
    ctx.notes.push(`${reference.param.name} fills ${field.path}`);
  }
  return filled;
}

/**
 * The argument a create files its record under, where the caller names the key (`sku`,
 * `username`, `{noun}_id`): the key field's own name, an identifier of the collection's noun,
 * or a naming word for a map keyed by text — as `PUT /items/{sku}` and registries that take
 * the name you choose (npm packages, GitHub repositories, DNS records) do.
 */
function givenKey(ctx: Context, collection: CollectionShape): Param | undefined {
  if (collection.container !== "map" || collection.numericKeys) return undefined;
  const noun = nameWords(singular(collection.name)).map(singular).join("_");
  // "Creates a new price under the given lookup_key": the argument the description files it under
  const told = ctx.facts.params.find(
    (p) =>
      p.required &&
      (p.type === "string" || p.type === "integer") &&
      new RegExp(
        `\\b(?:under|keyed by)\\s+(?:the\\s+)?(?:given\\s+)?\`?${escapeRegExp(p.name)}\\b`,
        "i",
      ).test(ctx.facts.tool.description),
  );
  if (told) return told;
  const keyed = ctx.facts.params.find(
    (p) => p.required && (p.type === "string" || p.type === "integer") && statedAsKey(ctx, collection, p),
  );
  if (keyed) return keyed;
  const candidates = ctx.facts.params.filter(
    (p) =>
      p.required &&
      (p.type === "string" || p.type === "integer") &&
      (sameName(p.name, collection.keyField) ||
        (p.identifier && nameWords(p.name).slice(0, -1).map(singular).join("_") === noun) ||
        /^(sku|code|slug|handle|username|symbol|ticker|key|name)$/.test(p.words.at(-1) ?? "")) &&
      (sameName(p.name, collection.keyField) || keysLookLike(collection, p)),
  );
  // a code beside a name (`code` and `name` of a currency keyed "EUR"): the code is the key
  return candidates.find((p) => CODING.test(p.words.at(-1) ?? "")) ?? candidates[0];
}

/**
 * "Adds `routes[code]`", "`code` — the route code (key in `routes`)", an argument described as
 * "a key of routes": the docs file the new record under the argument, as JSON Patch paths and
 * REST docs write a map entry (`PUT /kv/{key}` of Consul, `PUT /buckets/{name}` of S3, Firebase's
 * `set(ref(db, 'users/' + id))`).
 */
function statedAsKey(ctx: Context, collection: CollectionShape, p: Param): boolean {
  const name = escapeRegExp(collection.name);
  const param = escapeRegExp(p.name);
  const text = ctx.facts.tool.description;
  if (new RegExp(`\\b${name}\\s*\\[\\s*['"\`]?${param}['"\`]?\\s*\\]`, "i").test(text)) return true;
  const keyOf = new RegExp(`\\bkeys?\\s+(?:in|of)\\s+(?:the\\s+)?\`?${name}\\b`, "i");
  if (keyOf.test(p.description)) return true;
  return text
    .split("\n")
    .some((line) => new RegExp(`^\\W*\`?${param}\`?\\s*[-–—:]`).test(line) && keyOf.test(line));
}

/**
 * Records kept in a list and told apart by a name people choose (`handle`, `username`, `slug`):
 * an argument of the key field's name gives the new one's, as a sign-up takes the handle asked
 * for (GitHub's `login`, Mastodon's `username`, npm's package `name`).
 */
function givenListKey(
  ctx: Context,
  collection: CollectionShape,
): { param: Param; field: string } | undefined {
  const field = collection.keyField;
  if (collection.container !== "array" || collection.path.length !== 1 || !field || collection.numericKeys)
    return undefined;
  // `add_worker(worker_id, …)` where workers are told apart by an `id` people chose
  // (`m-ada`, not `m-0001`): the argument of the record's own noun gives it, as a PUT to
  // `/things/{thing_id}` does
  const own = `${nameWords(singular(collection.name)).join("_")}_id`;
  const chosen =
    (field === "id" || sameName(field, own)) &&
    (collection.keyFormat?.digits === undefined ||
      /\b(?:caller[- ]chosen|chosen by the caller|(?:the )?caller (?:picks|chooses)|(?:given|provided|supplied) id|id (?:given|provided|supplied))\b/i.test(
        ctx.facts.tool.description,
      ))
      ? ctx.facts.params.find((p) => p.required && p.type === "string" && sameName(p.name, own))
      : undefined;
  if (chosen) return { param: chosen, field };
  if (!NAMING.test(nameWords(field).at(-1) ?? "") && !/^(username|login|email|code|sku)$/.test(field))
    return undefined;
  const param = ctx.facts.params.find((p) => p.required && p.type === "string" && sameName(p.name, field));
  return param ? { param, field } : undefined;
}

export function sameName(a: string, b: string | undefined): boolean {
  return b !== undefined && nameWords(a).join("_") === nameWords(b).join("_");
}

/** The collection's keys look like values of the argument: its examples have their outline, or it is the key field. */
function keysLookLike(collection: CollectionShape, param: Param): boolean {
  // a map keyed by names (`ceiling`, `kettle`) is keyed by what a `name` argument gives
  if (param.examples.length === 0)
    return (
      sameName(param.name, collection.keyField) ||
      (CODING.test(param.words.at(-1) ?? "") && keyedByCodes(collection)) ||
      (NAMING.test(param.words.at(-1) ?? "") &&
        keyedByNames(collection) &&
        // records that keep their key as an id (`playlist_id: "pl_road"`) were given a minted one
        (collection.keyField === undefined || NAMING.test(nameWords(collection.keyField).at(-1) ?? "")))
    );
  const outlines = new Set(collection.keys.slice(0, 50).map(outline));
  return param.examples.some((e) => outlines.has(outline(e)));
}

const NAMING = /^(name|title|slug|handle|key)$/;
const CODING = /^(code|symbol|ticker|sku)$/;

/** Keys written alike (`EUR`, `USD`, `JPY`): codes, each of one outline, not minted ids (`BAY-03`). */
function keyedByCodes(collection: CollectionShape): boolean {
  return (
    collection.keys.length > 1 &&
    // a prefix and a number (`payee_0001`, `BAY-03`, `mte-4`) is an id minted in turn, not a code
    // people spell
    collection.keyFormat?.digits === undefined &&
    collection.keys.every((key) => !/[0-9]{2}/.test(key)) &&
    new Set(collection.keys.slice(0, 50).map(outline)).size === 1 &&
    collection.keys.every((k) => k.length <= 12)
  );
}

/** Keys that are words people chose, not numbers or minted ids (`CUST-001`). */
function keyedByNames(collection: CollectionShape): boolean {
  return (
    collection.keys.length > 0 &&
    collection.keyFormat?.digits === undefined &&
    collection.keys.every((k) => /[a-z]{2}/i.test(k) && !/[0-9]{3}/.test(k))
  );
}

/** The documented error for a key already taken, or an added `<NOUN>_ALREADY_EXISTS` (409). */
function takenError(ctx: Context, collection: CollectionShape, argument: string): string {
  const documented = ctx.facts.errors.find(
    (e) => /already|exists|taken|duplicate|in use/.test(e.text) || /EXISTS|TAKEN|DUPLICATE/.test(e.code),
  );
  if (documented) return use(ctx, documented);
  const noun = humanNoun(collection.name);
  return addError(ctx, {
    code: `${noun.replace(/ /g, "_").toUpperCase()}_ALREADY_EXISTS`,
    status: 409,
    message: `A ${noun} {${argument}} already exists.`,
    when: `The key is taken (inferred: the caller names the key of a new ${noun}).`,
  });
}

/**
 * Numbers beside a collection that count its records of one noun (`note_count`,
 * `open_issues_count`), other than its id counter: one more with each record made.
 */
function countsMoving(ctx: Context, collection: CollectionShape, noun: string): Draft[] {
  const holder = holderOf(ctx.shape, collection);
  if (!holder) return [];
  const wanted = new Set([singular(noun), ...nameWords(singular(collection.name)).map(singular)]);
  const drafts: Draft[] = [];
  for (const field of holder.fields.values()) {
    const words = nameWords(field.path);
    if (!words.includes("count") || !field.types.has("number") || field.types.size !== 1) continue;
    if (collection.counter && collection.counter.path.at(-1) === field.path) continue;
    if (!words.some((w) => wanted.has(singular(w)))) continue;
    drafts.push({ kind: "update", target: holder.path.join("/") || ".", inc: { [field.path]: 1 } });
    ctx.notes.push(`adds one to ${field.path}`);
  }
  return drafts;
}

/** The record a collection is a field of (an API's state, or the whole state). */
export function holderOf(shape: StateShape, part: { path: readonly string[] }): RecordShape | undefined {
  return shape.parts.find(
    (p): p is RecordShape =>
      p.kind === "record" &&
      p.path.length === part.path.length - 1 &&
      p.path.every((s, i) => part.path[i] === s),
  );
}

/**
 * What a create's description says a new record starts with: "at escalation level 0", "with a
 * balance of 100", "with 0 wins and 0 losses" (the number of the field those words name), "start
 * active" (a flag of that name), "unassigned" (the field named for
 * the assignment empty), as a new Zendesk ticket is unassigned and a new Jira issue has no
 * assignee until one is set.
 */
function startingValues(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const text = ctx.facts.tool.description.toLowerCase();
  const values: Record<string, unknown> = {};
  for (const field of collection.fields.values()) {
    if (field.path.includes(".")) continue;
    // an optional argument that sets the field takes the default the description gives
    const optional = ctx.facts.params.find((p) => !p.required && set[field.path] === `{${p.name}}`);
    if (optional) {
      const fallback = statedStart(ctx.facts.tool.description, field.path);
      if (fallback !== undefined) {
        const arg = `$args.${identifier(optional.name)}`;
        values[field.path] = { $expr: `$exists(${arg}) ? ${arg} : ${JSON.stringify(fallback.value)}` };
      }
      continue;
    }
    if (set[field.path] !== undefined) continue;
    const words = nameWords(field.path).map(escapeRegExp).join("[ _]");
    const number = new RegExp(
      `\\b(?:at|with)\\s+(?:an?\\s+)?${words}\\s+(?:of\\s+)?(-?\\d+(?:\\.\\d+)?)\\b`,
    ).exec(text);
    // "start with 0 wins and 0 losses": the count written before the field's name
    const counted = new RegExp(`\\b(?:with|and)\\s+(-?\\d+(?:\\.\\d+)?)\\s+${words}\\b`).exec(text);
    const said = number ?? counted;
    if (said && (field.types.has("number") || field.types.has("integer"))) {
      values[field.path] = Number(said[1]);
      continue;
    }
    // "newcomers start active": a flag the new record starts in
    if (
      field.types.has("boolean") &&
      new RegExp(`\\bstarts?\\s+(?:out\\s+)?(?:as\\s+)?${words}\\b`).test(text)
    ) {
      values[field.path] = true;
      continue;
    }
    const stated = statedStart(ctx.facts.tool.description, field.path);
    if (stated !== undefined) {
      values[field.path] = stated.value;
      continue;
    }
    const stem = /\bun(assign|claim|schedul|allocat)ed\b/.exec(text)?.[1];
    if (stem && nameWords(field.path)[0]?.startsWith(stem)) values[field.path] = null;
  }
  if (Object.keys(values).length > 0)
    ctx.notes.push(`starts ${Object.keys(values).join(", ")} as the description says`);
  return values;
}

/**
 * "retries defaults to 3", "closed_at starts as null", "with state "pending"": the
 * value a field a description names by its own name starts with, as reference docs give a new
 * resource's defaults (Stripe's "defaults to", GitHub's "Default: false").
 */
function statedStart(written: string, path: string): { value: unknown } | undefined {
  if (!written.includes(path)) return undefined;
  // Markdown's code spans and emphasis ("`ascents` = 0") mark names, they are not part of
  // them; a word in a code span after "=" or after "with" and the name ("`status` = `held`", "with state
  // `waiting`") is a text value
  const text = written
    .replace(/(=|\bwith\s+`?[A-Za-z_]+`?)\s*`([^`\s]+)`/g, (_said, before: string, value: string) =>
      /^(?:-?\d+(?:\.\d+)?|true|false|null)$/.test(value) ? `${before} ${value}` : `${before} "${value}"`,
    )
    .replace(/[`*]/g, "");
  const name = escapeRegExp(path);
  const said =
    // "Its status is "pending", unless …": what the new record's own field holds first
    new RegExp(`\\bits\\s+${name}\\s+is\\s+${LITERAL}`, "i").exec(text) ??
    new RegExp(
      `(?:^|[^A-Za-z_])${name}\\s+(?:defaults to|starts (?:as|at|with|out as)|is initially|begins at|is set to|=)\\s+${LITERAL}`,
      "i",
    ).exec(text) ??
    new RegExp(`\\bwith\\s+${name}\\s+${LITERAL}`, "i").exec(text) ??
    // "opened_at is now, closed_at null", "no lines, total_cents 0, and …": a field and its
    // value in a list of what it starts with
    new RegExp(
      `(?:^|[,;(]\\s*|\\band\\s+)${name}\\s+(null|true|false|-?\\d+(?:\\.\\d+)?)(?=\\s*(?:[.,;)]|$))`,
      "i",
    ).exec(text);
  // "currency defaults to USD": a bare code in capitals is a text value (currencies, time zones, methods)
  const code = said
    ? undefined
    : new RegExp(`(?:^|[^A-Za-z_])${name}\\s+defaults\\s+to\\s+([A-Z][A-Z0-9_]{1,15})\\b`).exec(text)?.[1];
  return code ? { value: code } : literalValue(said?.[1]);
}

/** A sum the record keeps of a list it starts with empty (see sums.ts) starts at zero. */
function emptySums(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const zero: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(set)) {
    const empty =
      typeof value === "object" && value !== null && (value as { $expr?: unknown }).$expr === "[]";
    if (!empty) continue;
    for (const sum of keptSums(ctx, collection, path)) if (set[sum.total] === undefined) zero[sum.total] = 0;
  }
  return zero;
}

/**
 * What a new record holds besides its arguments: the records the arguments name, the empty
 * values its kind starts with, who made it, and when.
 */
function completeRecord(
  ctx: Context,
  collection: CollectionShape | undefined,
  set: Record<string, unknown>,
): Maker | undefined {
  if (collection) Object.assign(set, referencedFields(ctx, collection, set));
  if (collection) Object.assign(set, emptyFields(collection, set), leftEmpty(ctx, collection, set));
  if (collection)
    Object.assign(
      set,
      emptySums(ctx, collection, set),
      startingValues(ctx, collection, set),
      nowFields(ctx, collection, set),
    );
  if (collection) Object.assign(set, switchedLater(ctx, collection, set));
  const maker = collection ? makerOf(ctx, collection, set) : undefined;
  if (maker && collection) {
    set[maker.field] = maker.template;
    Object.assign(set, leadingItems(ctx.states, collection, maker));
  }
  for (const field of collection ? createdAtFields(collection) : ["created_at"]) set[field] ??= "{$now}";
  return maker;
}

/**
 * A flag another tool of the API throws by its verb (`protect_branch` → `protected`,
 * `lock_issue` → `locked`) is something done to a record after it is made: a new one has it
 * false, as GitHub's new branch is not protected and its new issue not locked.
 */
function switchedLater(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const thrown = new Set(
    ctx.siblings().flatMap((s) => {
      const verb = s.verb ?? s.words[0];
      return verb ? [participle(verb)] : [];
    }),
  );
  const off: Record<string, unknown> = {};
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || set[field.path] !== undefined) continue;
    if (!field.types.has("boolean") || field.types.size !== 1) continue;
    const flag = nameWords(field.path).filter((w) => w !== "is");
    if (flag.length === 1 && thrown.has(flag[0] as string)) off[field.path] = { $expr: "false" };
  }
  return off;
}

/** An optional argument left out leaves its field as empty as its kind starts (`desc: ""`). */
function leftEmpty(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const empties = emptyFields(collection, {});
  const filled: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(set)) {
    const name = typeof value === "string" ? /^\{([^{}$]+)\}$/.exec(value)?.[1] : undefined;
    const param = ctx.facts.params.find((p) => p.name === name);
    const empty = empties[field] as { $expr: string } | undefined;
    // a field that names another record stays as the argument leaves it, for the checks on it
    if (!param || param.required || !empty) continue;
    if (param.identifier || collection.fields.get(field)?.refersTo) continue;
    if (ctx.references.some((r) => r.param === param)) continue;
    const given = identifier(param.name);
    filled[field] = { $expr: `$exists(${given}) ? ${given} : ${empty.$expr}` };
  }
  return filled;
}

/** A create of something kept inside another record (a card among a user's payment methods). */
export function nestedCreate(ctx: Context, collection: CollectionShape, noun: string): Draft[] {
  const parent = ctx.references.find((r) => r.collection.name === collection.parent && !r.many);
  if (!parent) {
    ctx.notes.push(
      `a ${noun} lives inside ${collection.parent}, but no argument names the ${collection.parent} record`,
    );
    return [];
  }
  const set: Record<string, unknown> = {};
  for (const param of ctx.facts.params) {
    if (param === parent.param) continue;
    const field = fieldFor(param, collection);
    if (field) set[field] = `{${param.name}}`;
  }
  withDefaults(ctx, set);
  Object.assign(set, namedPlaces(ctx, collection, set));
  const container = containerTarget(ctx, collection);
  const parentTarget = recordTarget(ctx, parent.collection, `{${parent.param.name}}`);
  if (!container || !parentTarget) return [];
  const maker = completeRecord(ctx, collection, set);
  const missing = notFoundError(ctx, parent.collection, parent.param.name, { add: true });
  ctx.notes.push(
    `creates ${withArticle(noun)} in ${collection.parent}.${collection.name} of the ${humanNoun(collection.parent ?? "")} ${parent.param.name} names${collection.counter ? `, its id from ${collection.counter.path.join("/")}` : ""}`,
  );
  // a list of records whose key the caller gives (a reader's email) keeps the one given
  const given =
    collection.container === "array" && !!collection.keyField && set[collection.keyField] !== undefined;
  // a map keyed by what the caller names (a room's devices by name) files it under that name
  const named = given ? undefined : givenKey(ctx, collection);
  if (named) {
    delete set[named.name];
    // its records keep their key where the toolset's answers need it (`fillKeys`): so does this one
    set[keyFieldFor(ctx, collection)] = `{${named.name}}`;
    ctx.notes.push(`files it under the key ${named.name} gives, refusing a taken one`);
  }
  // "add a line to an open order": the holder's status and flags the text states
  const holderGuards = statusGuards(ctx, parent.collection);
  const summed = given ? summedOnRepeat(ctx, collection, set) : undefined;
  return [
    {
      kind: "read",
      target: parentTarget,
      ...(missing ? { missing } : {}),
      ...(holderGuards.length > 0 ? { require: holderGuards } : {}),
      ...(summed ? { as: "holder" } : {}),
    },
    ...referencedGuards(ctx, parent, collection, summed?.resulting),
    ...(maker ? [maker.read] : []),
    ...(summed ? [summed.update] : []),
    {
      ...(summed ? { when: summed.absent } : {}),
      kind: "create",
      target: named ? `${container}/{${named.name}}` : container,
      ...(named ? { exists: takenError(ctx, collection, named.name) } : {}),
      ...(given || named
        ? {}
        : {
            id: mintOf(collection, collection.name, collection.keyField ?? `${nameWords(noun).join("_")}_id`),
          }),
      set,
      as: nameWords(noun).join("_"),
      output: wrapperOutput(ctx, collection) ?? "",
    },
  ];
}

/**
 * "If the product is already in the cart its quantity is increased": an item whose key the
 * holder's list already has adds the amount given to that item instead of filing a second one,
 * as Shopify's `cart/add`, commercetools' `addLineItem` and Saleor's `checkoutLinesAdd` merge
 * a line of the same product.
 */
function summedOnRepeat(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): { update: Draft; absent: string; resulting?: string } | undefined {
  const key = collection.keyField;
  const list = collection.path.at(-1);
  if (!key || !list) return undefined;
  const amounts = ctx.facts.params.filter(
    (p) => (p.type === "integer" || p.type === "number") && set[p.name] === `{${p.name}}`,
  );
  const amount = amounts.length === 1 ? amounts[0] : undefined;
  if (!amount) return undefined;
  const words = nameWords(amount.name).join("[ _]");
  const said = new RegExp(
    `\\balready\\b[^.;]{0,60}?\\b(?:its|the)\\s+${words}\\s+(?:is|are)\\s+(?:increased|incremented|added to|raised|summed)`,
    "i",
  );
  if (!said.test(ctx.facts.tool.description)) return undefined;
  const given = /^\{(\w+)\}$/.exec(String(set[key]))?.[1];
  const container = containerTarget(ctx, collection);
  if (!given || !container) return undefined;
  const there = `$count($holder.${identifier(list)}[${identifier(key)} = $args.${identifier(given)}]) > 0`;
  ctx.notes.push(`adds ${amount.name} to the ${list} item of the same ${key} where there is one`);
  const target = `${container}/[${key}={${given}}]`;
  // "the resulting quantity cannot exceed …": what the item will hold is compared, not the argument
  const resulting = /\b(?:resulting|combined|new total)\b/i.test(ctx.facts.tool.description)
    ? `($args.${identifier(amount.name)} + $sum([$holder.${identifier(list)}[${identifier(key)} = $args.${identifier(given)}].${identifier(amount.name)}]))`
    : undefined;
  return {
    update: { kind: "update", target, when: there, inc: { [amount.name]: `{${amount.name}}` } },
    absent: `$not(${there})`,
    ...(resulting ? { resulting } : {}),
  };
}

/**
 * What a nested create's description says of another record it names ("the quantity cannot
 * exceed the product's stock"): that record is read, must exist, and is compared as a create's
 * referenced record is.
 */
function referencedGuards(
  ctx: Context,
  parent: Reference,
  made: CollectionShape,
  compared?: string,
): Draft[] {
  // an item's field that is another collection's key (a line's `sku`) names a record of it too
  const keyed = ctx.facts.params.flatMap((param): Reference[] => {
    if (ctx.references.some((r) => r.param === param && r.collection !== made)) return [];
    const named = [...ctx.shape.collections.values()].filter(
      (c) => !c.parent && c !== made && c !== parent.collection && c.keyField === param.name,
    );
    return named.length === 1 && named[0]
      ? [{ param, collection: named[0], many: false, strength: "weak" }]
      : [];
  });
  return [...ctx.references, ...keyed].flatMap((reference): Draft[] => {
    if (reference === parent || reference.many || reference.collection === made) return [];
    const said = referenceGuards(ctx, reference.collection, compared);
    const target = recordTarget(ctx, reference.collection, `{${reference.param.name}}`);
    if (said.require.length === 0 || !target) return [];
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    return [{ kind: "read", target, ...(missing ? { missing } : {}), require: said.require }];
  });
}

/** Words before a noun that name the record a new one starts from (`from_branch`, `source_project`). */
const SOURCE_WORDS = /^(from|source|base|template)$/;

/**
 * A create given a record of its own kind to start from (`create_branch(name, from_branch)`)
 * finds it (its not-found error) and points where it points: the new record takes the
 * source's fields that refer to other records (a branch's `head` commit), and the argument is
 * no field of its own. GitHub's `POST /git/refs` (a branch at another's sha), GitLab's
 * `POST /repository/branches?ref=main` and Bitbucket's branch from a target work so.
 */
function sourceRecord(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Draft | undefined {
  const noun = nameWords(singular(collection.name)).join("_");
  const param = ctx.facts.params.find(
    (p) =>
      p.required &&
      p.type === "string" &&
      SOURCE_WORDS.test(p.words[0] ?? "") &&
      p.words.slice(1).map(singular).join("_") === noun,
  );
  if (!param) return undefined;
  const target = recordTarget(ctx, collection, `{${param.name}}`);
  const missing = notFoundError(ctx, collection, param.name, { add: true });
  if (!target || !missing) return undefined;
  const links = [...collection.fields.values()].filter(
    (f) => f.refersTo !== undefined && f.refersTo !== collection.name && !f.path.includes("."),
  );
  delete set[param.name];
  for (const link of links) set[link.path] ??= { $expr: `$source.${identifier(link.path)}` };
  ctx.notes.push(
    `starts from the ${humanNoun(noun)} ${param.name} names${links.length > 0 ? `, pointing where it points (${links.map((l) => l.path).join(", ")})` : ""}`,
  );
  return { kind: "read", target, missing, as: "source" };
}

/**
 * A list of names given to a create whose records keep counts by name (`create_poll(question,
 * options)` and a poll's `votes: {"Lisbon": 3}`), where the description says they start with
 * none ("each with no votes yet"): the counts start at zero under each name given, and the
 * list is no field of its own. Doodle's and StrawPoll's polls (options, each counted), GitHub's
 * reaction summary (every reaction at 0), an inventory's new item counted per location.
 */
function countsFromList(ctx: Context, collection: CollectionShape, set: Record<string, unknown>): void {
  const maps = mapsByName(collection, COUNTS).filter(({ inner }) => inner.length > 0);
  const map = maps[0]?.field;
  const list = ctx.facts.params.find(
    (p) => p.type === "array" && p.itemType === "string" && !collection.fields.has(p.name),
  );
  if (maps.length !== 1 || !map || !list || set[map.path] !== undefined) return;
  const words = nameWords(map.path).join(" ");
  if (
    !new RegExp(`\\b(?:no|zero)\\s+${escapeRegExp(words)}\\b|\\bat zero\\b`).test(
      ctx.facts.text.toLowerCase(),
    )
  )
    return;
  delete set[list.name];
  set[map.path] = { $expr: `$merge([{}, $map($args.${identifier(list.name)}, function($k) { {$k: 0} })])` };
  ctx.notes.push(`counts ${map.path} from zero under each of ${list.name}`);
}

/**
 * Fields every record of the kind holds a value in (three records or more) that a create fills
 * from nothing it knows (a sent message's `from`, a transfer's `date`): the new record lacks them
 * where the real API would fill them, so the create is only partly known.
 */
function unfilledFields(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): void {
  const records = ctx.states.flatMap((state) => recordsAt(state, collection.path));
  if (records.length < 3) return;
  const lacking = [...collection.fields.values()]
    .filter((f) => !f.path.includes(".") && f.path !== collection.keyField && set[f.path] === undefined)
    .filter((f) => records.every((r) => r[f.path] !== undefined && r[f.path] !== null))
    .map((f) => f.path);
  if (lacking.length > 0)
    addGap(
      ctx,
      `a new ${humanNoun(singular(collection.name))} lacks what every one has: ${lacking.join(", ")}`,
    );
}

/** An argument left out takes the default its schema documents, as the API would. */
function withDefaults(ctx: Context, set: Record<string, unknown>): void {
  for (const param of ctx.facts.params) {
    const field = set[param.name] === `{${param.name}}` ? param.name : undefined;
    const fallback =
      param.schema.default !== undefined ? { value: param.schema.default } : describedDefault(param);
    if (field && fallback !== undefined && !param.required)
      set[field] = {
        $expr: `$exists(${identifier(param.name)}) ? ${identifier(param.name)} : ${JSON.stringify(fallback.value)}`,
      };
  }
}

/** "Send as a draft; default false.", "Number of seats (defaults to 1)": a default told in words. */
function describedDefault(param: Param): { value: unknown } | undefined {
  const text = typeof param.schema.description === "string" ? param.schema.description : "";
  const said = new RegExp(
    `\\bdefaults?(?:\\s+(?:to|is|of))?\\s*:?\\s*${LITERAL}(?=\\s*(?:[.,;)]|$))`,
    "i",
  ).exec(text);
  const found = literalValue(said?.[1]);
  if (!found) return undefined;
  const type = param.type;
  const fits =
    (type === "boolean" && typeof found.value === "boolean") ||
    ((type === "integer" || type === "number") && typeof found.value === "number") ||
    (type === "string" && typeof found.value === "string");
  return fits ? found : undefined;
}

/**
 * Where the description says a new record goes, by a value of one of its fields and the
 * field's name ("a copy is kept in the sent folder", "creates a draft invoice" beside a
 * `status`): Gmail's `messages.send` files the copy under SENT, Microsoft Graph's
 * `POST /me/messages` saves a draft "in the Drafts folder", and Stripe's invoices are created
 * as drafts.
 */
function namedPlaces(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const placed: Record<string, string> = {};
  const text = ctx.facts.text.toLowerCase();
  for (const field of collection.fields.values()) {
    if (set[field.path] !== undefined || field.path.includes(".") || field.open || !field.types.has("string"))
      continue;
    if (field.path === collection.keyField) continue;
    const name = nameWords(field.path).join(" ");
    const value = knownValues(ctx, field.path, field.values.keys()).find((v) =>
      new RegExp(`\\b${escapeRegExp(v.toLowerCase())}\\s+${escapeRegExp(name)}\\b`).test(text),
    );
    if (value === undefined) continue;
    placed[field.path] = value;
    ctx.notes.push(`files it with ${field.path} '${value}' (the description says so)`);
  }
  return placed;
}

/**
 * The fields saying when a record was made: named so (`created_at`, `posted_on`), or a bare
 * `date`/`timestamp` holding moments to the second (a comment's, a transaction's), as GitHub's
 * comments say `created_at`, Trello's actions `date` and Stripe's events `created`.
 */
function createdAtFields(collection: CollectionShape): string[] {
  return [...collection.fields.values()]
    .filter((f) => {
      if (f.path.includes(".")) return false;
      const name = nameWords(f.path).join("_");
      const values = [...f.values.keys()];
      if (
        /^(created|creation|booked|placed|submitted|opened|requested|sent|posted|published)(_at|_on|_date|_time)?$/.test(
          name,
        )
      )
        return values.some((v) => /^\d{4}-\d{2}-\d{2}/.test(v));
      return (
        /^(date|timestamp|datetime|date_time)$/.test(name) &&
        values.length > 0 &&
        values.every((v) => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v))
      );
    })
    .map((f) => f.path);
}

/**
 * Ids like the collection's: from its counter, else the next after the largest; numbers
 * where its ids are numbers, else its keys' prefix and digit count, else a 3-letter prefix
 * from the noun for a new collection.
 */
export function mintOf(collection: CollectionShape | undefined, name: string, keyField: string) {
  const numeric = collection?.numericKeys ?? false;
  const counter = collection?.counter
    ? { counter: collection.counter.path.join("/"), counterHolds: collection.counter.holds }
    : {};
  if (numeric) return { prefix: "", width: 1, numeric: true, field: keyField, ...counter };
  const format = collection?.keyFormat;
  if (format?.digits !== undefined)
    return { prefix: format.prefix, width: Math.max(1, format.digits), field: keyField, ...counter };
  if (format) {
    const width = Math.min(12, Math.max(4, format.length - format.prefix.length));
    return { prefix: format.prefix, width, field: keyField, ...counter };
  }
  if (collection && collection.size === 0)
    return { prefix: "", width: 1, numeric: true, field: keyField, ...counter };
  const letters = nameWords(singular(name))
    .join("")
    .replace(/[^a-z]/g, "")
    .slice(0, 3)
    .toUpperCase();
  return { prefix: letters ? `${letters}-` : "", width: 4, field: keyField, ...counter };
}

/** An id the tool answers as text is minted as text, though it counts up from 1. */
function asAnswered<T extends { numeric?: boolean; field: string }>(ctx: Context, mint: T): T {
  const answered = ctx.facts.outputs.find((o) => o.name === mint.field);
  return mint.numeric && answered?.type === "string" ? { ...mint, numeric: false } : mint;
}

/** `booking` → `bookings`, `delivery_slot` → `delivery_slots`. */
export function pluralNoun(noun: string): string {
  const words = nameWords(noun);
  return [...words.slice(0, -1), plural(words.at(-1) ?? noun)].join("_");
}
