import { addError, type Context, humanNoun, notFoundError, use } from "./context.js";
import { createRule } from "./creates.js";
import type { Draft } from "./drafts.js";
import type { OutputFact, Param } from "./facts.js";
import { statusGuards } from "./guards.js";
import { identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import { COUNTS, type CollectionShape, type FieldShape, mapsByName } from "./shape.js";
import { referenceTarget } from "./targets.js";
import {
  DECREASE_VERBS,
  GOODS_IN_VERBS,
  GOODS_OUT_VERBS,
  INCREASE_VERBS,
  nameWords,
  participle,
  sameNoun,
  singular,
  VERBS,
} from "./words.js";

/**
 * Tallies: a record's counts kept per place or kind, in a map keyed by data (units on hand
 * per warehouse, seats left per fare class, a balance per currency). An argument names the
 * key; reads answer the count there, and writes add to it, take from it (never below zero),
 * or move an amount from one key to another. A write that answers the id of another
 * collection's record logs itself there (an adjustment, a transfer). These are the inventory
 * levels of Shopify (`available` per location: adjust, set, move between locations), the
 * counts per location of Square's inventory API (adjustments and transfers with ids of their
 * own), and Stripe's and Wise's balances per currency.
 */

interface Tally {
  collection: CollectionShape;
  field: FieldShape;
  keys: string[];
}

type TallyIntent = "read" | "increase" | "decrease" | "adjust" | "set" | "move";

/** Words that name the source and the destination of a move. */
const FROM_WORDS = new Set(["from", "source", "src", "origin"]);
const TO_WORDS = new Set(["to", "destination", "dest", "target"]);

export function tallyRule(ctx: Context, subject: Reference): Draft[] | undefined {
  const slots = slotParams(ctx, subject);
  if (!slots) return undefined;
  const tally = tallyOf(ctx, subject.collection, slots);
  if (!tally) return undefined;
  const intent = tallyIntent(ctx, slots);
  if (!intent) return undefined;
  const target = referenceTarget(ctx, subject);
  if (!target) return undefined;
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  // a name of its own: the collection's noun may be one an expression already uses (`$item`)
  const binding = "counted";
  const found = { ...(missing ? { missing } : {}), as: binding };
  const map = `$subject.${identifier(tally.field.path)}`;
  const at: Place = { tally, target, found, slots };
  if (intent === "read") return readCount(ctx, at);
  if (intent === "move") return moveCount(ctx, at);
  const amount = amountParam(ctx);
  const slot = slots.one as Param;
  if (!amount) return undefined;
  const current = `$lookup(${map}, $args.${identifier(slot.name)})`;
  const arg = `$args.${identifier(amount.name)}`;
  const next =
    intent === "set"
      ? arg
      : intent === "decrease"
        ? `(${current} ? ${current} : 0) - ${arg}`
        : `(${current} ? ${current} : 0) + ${arg}`;
  const require = [
    ...(intent === "increase" && !keyError(ctx, slot, false) ? [] : [presentGuard(ctx, slot, map)]),
    ...floorGuard(ctx, tally, intent, next),
  ];
  ctx.notes.push(
    `${intent === "set" ? "sets" : intent === "decrease" ? "takes" : "adds"} ${amount.name} ${intent === "decrease" ? "from" : "to"} ${tally.field.path}[${slot.name}]`,
  );
  return [
    {
      kind: "update",
      target,
      ...found,
      ...(require.length > 0 ? { require } : {}),
      set: { [tally.field.path]: { $expr: `$merge([${map}, {$args.${identifier(slot.name)}: ${next}}])` } },
      output: "",
    },
    ...answers(ctx, tally, binding, slot),
    ...logged(ctx, subject),
  ];
}

interface Slots {
  /** The argument that names one key of the map. */
  one?: Param;
  /** The arguments that name where an amount leaves and where it arrives. */
  from?: Param;
  to?: Param;
}

/**
 * The arguments that name keys of a tally: text arguments that are no field of the record
 * and name no other record, alone or as a source and destination pair.
 */
function slotParams(ctx: Context, subject: Reference): Slots | undefined {
  const free = ctx.facts.params.filter(
    (p) =>
      p !== subject.param &&
      p.type === "string" &&
      !subject.collection.fields.has(p.name) &&
      !ctx.references.some((r) => r.param === p) &&
      // a choice among fixed words is a kind or a reason, not a place
      !Array.isArray(p.schema.enum),
  );
  const from = free.find((p) => FROM_WORDS.has(p.words[0] ?? ""));
  const to = free.find((p) => TO_WORDS.has(p.words[0] ?? ""));
  if (from && to && sameNoun(from.words.slice(1).join("_"), to.words.slice(1).join("_"))) return { from, to };
  return free.length === 1 ? { one: free[0] } : undefined;
}

/**
 * The record's map of counts the slot arguments name: one whose every value is a number, that
 * the tool speaks of (an output or words of its description name it) or whose keys the
 * arguments' examples or the state's other records use for the same name.
 */
function tallyOf(ctx: Context, collection: CollectionShape, slots: Slots): Tally | undefined {
  const tallies: Tally[] = mapsByName(collection, COUNTS)
    .filter(({ inner }) => inner.length > 0)
    .map(({ field, inner }) => ({
      collection,
      field,
      keys: inner.map((f) => f.path.slice(field.path.length + 1)),
    }));
  const slot = (slots.one ?? slots.from) as Param;
  const text = ctx.facts.text.toLowerCase();
  const spoken = (t: Tally) =>
    ctx.facts.outputs.some((o) => sameName(o.name, t.field.path)) ||
    text.includes(nameWords(t.field.path).join(" "));
  const keyed = (t: Tally) =>
    slot.examples.some((e) => t.keys.includes(e)) || keysNamedElsewhere(ctx, slot.name, t.keys);
  const fitting = tallies.filter((t) => spoken(t) || keyed(t));
  return fitting.length === 1 ? fitting[0] : undefined;
}

/** Another collection's field of the argument's name holds keys of the map (an adjustment's `warehouse`). */
function keysNamedElsewhere(ctx: Context, name: string, keys: readonly string[]): boolean {
  for (const collection of ctx.shape.collections.values()) {
    const field = collection.fields.get(name);
    if (field && field.values.size > 0 && [...field.values.keys()].every((v) => keys.includes(v)))
      return true;
  }
  return false;
}

function sameName(a: string, b: string): boolean {
  return nameWords(a).join("_") === nameWords(b).join("_");
}

function tallyIntent(ctx: Context, slots: Slots): TallyIntent | undefined {
  const { facts } = ctx;
  if (facts.readOnly === true || (facts.verb && VERBS.read.includes(facts.verb))) return "read";
  const verb = facts.verb ?? facts.words[0] ?? "";
  if (slots.from && slots.to) return amountParam(ctx) ? "move" : undefined;
  const amount = amountParam(ctx);
  if (!amount) return undefined;
  if (
    /delta|change|adjust|difference|diff/.test(amount.name.toLowerCase()) ||
    /\bsigned\b/.test(amount.description.toLowerCase())
  )
    return "adjust";
  if (INCREASE_VERBS.has(verb) || GOODS_IN_VERBS.has(verb)) return "increase";
  if (DECREASE_VERBS.has(verb) || GOODS_OUT_VERBS.has(verb)) return "decrease";
  if (verb === "set" || verb === "update") return "set";
  return undefined;
}

/** The one number argument a write moves by. */
function amountParam(ctx: Context): Param | undefined {
  const numbers = ctx.facts.params.filter((p) => p.type === "number" || p.type === "integer");
  return numbers.length === 1
    ? numbers[0]
    : numbers.find((p) => /amount|quantity|count|units|delta|value/.test(p.name.toLowerCase()));
}

/** The documented error for a key the map lacks, or one added (only where `add` says so). */
function keyError(ctx: Context, slot: Param, add: boolean): string | undefined {
  const noun = nameWords(slot.name)
    .filter((w) => !FROM_WORDS.has(w) && !TO_WORDS.has(w))
    .map(singular)
    .join("_");
  const documented = ctx.facts.errors.find(
    (e) => e.kind === "not-found" && e.noun !== undefined && sameNoun(e.noun, noun),
  );
  if (documented) return use(ctx, documented);
  if (!add) return undefined;
  return addError(ctx, {
    code: `${noun.toUpperCase()}_NOT_FOUND`,
    status: 404,
    message: `No count is kept for ${noun.replace(/_/g, " ")} {${slot.name}}.`,
    when: `The record keeps no count under the given ${slot.name} (inferred from the state's counts).`,
  });
}

function presentGuard(ctx: Context, slot: Param, map: string): Record<string, unknown> {
  const error = keyError(ctx, slot, true) as string;
  return { expr: `$exists($lookup(${map}, $args.${identifier(slot.name)}))`, error };
}

/**
 * A count never falls below zero: a documented "negative" or "insufficient" error answers a
 * write that would take it there (one is added for a write that takes away).
 */
function floorGuard(
  ctx: Context,
  tally: Tally,
  intent: TallyIntent,
  next: string,
): Array<Record<string, unknown>> {
  const documented = ctx.facts.errors.find((e) =>
    /negative|below zero|less than zero|insufficient|not enough|exceeds|more than/.test(e.text),
  );
  if (!documented && intent !== "decrease" && intent !== "move") return [];
  const words = nameWords(tally.field.path);
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `INSUFFICIENT_${words.join("_").toUpperCase()}`,
        status: 409,
        message: `Not enough ${words.join(" ")} for this.`,
        when: `The count would fall below zero (inferred from the tool's verb).`,
      });
  return [{ expr: `${next} >= 0`, error }];
}

/** Where a read or a move acts: the tally, the record's target, how it is found, and the keys named. */
interface Place {
  tally: Tally;
  target: string;
  found: Record<string, unknown>;
  slots: Slots;
}

function readCount(ctx: Context, { tally, target, found, slots }: Place): Draft[] | undefined {
  const slot = slots.one;
  if (!slot) return undefined;
  const binding = found.as as string;
  const map = `$subject.${identifier(tally.field.path)}`;
  ctx.notes.push(`reads ${tally.field.path}[${slot.name}] of ${tally.collection.name}`);
  return [
    { kind: "read", target, ...found, require: [presentGuard(ctx, slot, map)], output: "" },
    ...answers(ctx, tally, binding, slot),
  ];
}

/** Takes the amount from one key and adds it to the other, refusing more than the source holds. */
function moveCount(ctx: Context, { tally, target, found, slots }: Place): Draft[] | undefined {
  const { from, to } = slots;
  const amount = amountParam(ctx);
  if (!from || !to || !amount) return undefined;
  const map = `$subject.${identifier(tally.field.path)}`;
  const source = `$lookup(${map}, $args.${identifier(from.name)})`;
  const arrived = `$lookup(${map}, $args.${identifier(to.name)})`;
  const arg = `$args.${identifier(amount.name)}`;
  const moved = `$merge([${map}, {$args.${identifier(from.name)}: ${source} - ${arg}}, {$args.${identifier(to.name)}: (${arrived} ? ${arrived} : 0) + ${arg}}])`;
  ctx.notes.push(`moves ${amount.name} of ${tally.field.path} from ${from.name} to ${to.name}`);
  return [
    {
      kind: "update",
      target,
      ...found,
      require: [presentGuard(ctx, from, map), ...floorGuard(ctx, tally, "move", `${source} - ${arg}`)],
      set: { [tally.field.path]: { $expr: moved } },
      output: "",
    },
    ...answers(ctx, tally, found.as as string, undefined),
    ...logged(ctx, { param: from, collection: tally.collection, many: false, strength: "weak" }),
  ];
}

/** The count answered where the output holds one number for it; the key as given. */
function answers(ctx: Context, tally: Tally, binding: string, slot: Param | undefined): Draft[] {
  const drafts: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    if (slot && sameName(output.name, slot.name))
      drafts.push({ kind: "respond", output: output.name, value: `{${slot.name}}` });
    else if (slot && countOutput(output, tally))
      drafts.push({
        kind: "respond",
        output: output.name,
        value: {
          $expr: `$lookup($${binding}.${identifier(tally.field.path)}, $args.${identifier(slot.name)})`,
        },
      });
  }
  return drafts;
}

function countOutput(output: OutputFact, tally: Tally): boolean {
  return (output.type === "integer" || output.type === "number") && sameName(output.name, tally.field.path);
}

/**
 * A write that answers the key of another collection's records, whose fields its arguments
 * name, files a record of itself there (an adjustment log, a ledger of transfers).
 */
function logged(ctx: Context, subject: Reference): Draft[] {
  for (const collection of ctx.shape.collections.values()) {
    if (collection === subject.collection || !collection.keyField) continue;
    const key = collection.keyField;
    if (!ctx.facts.outputs.some((o) => o.name === key)) continue;
    const named = ctx.facts.params.filter((p) => collection.fields.has(p.name)).length;
    if (named < 2) continue;
    ctx.notes.push(`logs the change in ${collection.name}`);
    return createRule(ctx, collection, nameWords(singular(collection.name)).join("_")).filter(
      (d) => d.kind !== "read",
    );
  }
  return [];
}

/**
 * A verb toolsim does not know that names one key of a record's map of counts and who does it
 * (`vote(poll_id, voter, option)` over a poll's `votes: {"Lisbon": 3}` and `voters`): the
 * count under the key goes up by one, the person joins the list named for them, once (a repeat
 * answers the documented "already" error, else an added `ALREADY_<VERB>ED`), and a key the map
 * lacks is refused. Slack's reactions (a count per emoji, its users, `already_reacted`),
 * GitHub's reactions (one per user and content) and Doodle's polls (one vote per participant,
 * counted per option).
 */
export function countedOnce(ctx: Context, subject: Reference): Draft[] | undefined {
  if (ctx.facts.verbAction !== undefined || amountParam(ctx)) return undefined;
  const collection = subject.collection;
  const lists = [...collection.fields.values()].filter(
    (f) => !f.path.includes(".") && f.types.has("array") && f.types.size === 1,
  );
  const free = ctx.facts.params.filter(
    (p) =>
      p.required && p.type === "string" && p !== subject.param && !ctx.references.some((r) => r.param === p),
  );
  const person = free.find((p) => lists.some((l) => sameNoun(l.path, p.name)));
  const list = person ? lists.find((l) => sameNoun(l.path, person.name)) : undefined;
  const slots = free.filter((p) => p !== person && !collection.fields.has(p.name));
  const maps = mapsByName(collection, COUNTS).filter(({ inner }) => inner.length > 0);
  const [slot] = slots;
  const map = maps[0]?.field;
  const target = referenceTarget(ctx, subject);
  if (!person || !list || slots.length !== 1 || !slot || maps.length !== 1 || !map || !target)
    return undefined;
  const missing = notFoundError(ctx, collection, subject.param.name, { add: true });
  const counts = `$subject.${identifier(map.path)}`;
  const who = `$args.${identifier(person.name)}`;
  const key = `$args.${identifier(slot.name)}`;
  const verb = ctx.facts.verb ?? ctx.facts.words[0] ?? "";
  const documented = ctx.facts.errors.find((e) => e.kind !== "not-found" && /\balready\b/.test(e.text));
  const repeat = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `ALREADY_${participle(verb).toUpperCase()}`,
        status: 409,
        message: `That ${nameWords(person.name).join(" ")} has already ${participle(verb)}.`,
        when: `The ${nameWords(person.name).join(" ")} is already among the ${humanNoun(collection.name)}'s ${list.path} (inferred from the list named for them).`,
      });
  ctx.notes.push(
    `adds one to ${map.path}[${slot.name}] and ${person.name} to ${list.path}, once (${repeat})`,
  );
  return [
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      require: [
        ...statusGuards(ctx, collection),
        presentGuard(ctx, slot, counts),
        { expr: `$not(${who} in $subject.${identifier(list.path)})`, error: repeat },
      ],
      set: {
        [map.path]: { $expr: `$merge([${counts}, {${key}: $lookup(${counts}, ${key}) + 1}])` },
        [list.path]: { $expr: `$append($subject.${identifier(list.path)}, [${who}])` },
      },
      as: "counted",
    },
  ];
}
