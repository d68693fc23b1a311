import type { StateDocument } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { fieldFor, recordFieldFor } from "./fields.js";
import { jsonataName, newElement, type Swap } from "./items.js";
import type { CollectionShape } from "./shape.js";
import type { Bound } from "./targets.js";
import type { Transition } from "./transitions.js";
import { CREDITED, nameWords, PAYMENT_STEMS, REFUND_STEMS, singular } from "./words.js";

/**
 * Money a write moves, where the texts say so and the state shows where it goes:
 * - a refund "added to the … balance": each payment the write refunds goes back into the
 *   balance of the method it was paid with, when that method keeps one;
 * - a "price difference" an argument pays for: the new items' prices less the old ones'.
 *   A write that swaps the items settles it (a payment or a refund in the entity's record
 *   of transactions, the paying method's balance); a write that files a request records it
 *   beside the request's other arguments. A documented "insufficient … balance" error
 *   guards it.
 */

export interface Money {
  /** Effects between reading the subject and changing it (the difference is computed from the old items). */
  before: Draft[];
  /** Fields of the subject the write sets. */
  set: Record<string, unknown>;
  /** Effects after the subject changed (other entities' balances). */
  after: Draft[];
}

/** The write a money rule looks at: its subject, the items it swaps, whether it settles, the reads of what it names. */
export interface Write {
  subject: Bound;
  swaps: readonly Swap[];
  /** A plain update carries the change out; any other verb files a request. */
  settles: boolean;
  /** The reference checks' reads, whose bindings a rule reuses. */
  payerReads: readonly Draft[];
}

/** Each refunded payment back into its method's balance, when the tool's text says refunds go there. */
export function refundsToBalance(ctx: Context, subject: Bound, transitions: readonly Transition[]): Draft[] {
  const sentence = sentences(ctx.facts.text).find((s) => /\brefund/.test(s) && CREDITED.test(s));
  if (!sentence) return [];
  const drafts: Draft[] = [];
  for (const change of transitions) {
    if (change.kind !== "mirror" || !startsWithAny(change.to, REFUND_STEMS)) continue;
    const elements = elementsOf(ctx.states, subject.collection.name, change.field);
    const method = methodReference(ctx, subject.collection, [
      ...new Set(elements.flatMap((e) => Object.keys(e))),
    ]);
    const amount = pickNumber(numericFields(elements), sentence);
    const balance = method && pickNumber(numericFieldsOf(method.collection), sentence, { named: true });
    if (!method || !amount || !balance) continue;
    const places = decimalsOf(ctx.states, [amount, balance]);
    const owner = `$${subject.binding}.${jsonataName(method.ownerField)}`;
    const item = `$item.${jsonataName(method.field)}`;
    drafts.push({
      kind: "update",
      each: `[$${subject.binding}.${jsonataName(change.field)}[${jsonataName(change.key)} = ${JSON.stringify(change.from)}]]`,
      when: `$exists($lookup($entity(${JSON.stringify(method.collection.parent)}, ${owner}).${jsonataName(method.collection.name)}, ${item}).${jsonataName(balance)})`,
      target: `${method.collection.parent}/{${owner}}/${method.collection.name}/{${item}}`,
      set: {
        [balance]: {
          $expr: `$round($subject.${jsonataName(balance)} + $item.${jsonataName(amount)}, ${places})`,
        },
      },
    });
    ctx.notes.push(
      `adds the ${amount} of each ${change.from} refunded to the ${balance} of its ${method.field}, where it has one (the description says so)`,
    );
  }
  return drafts;
}

/**
 * The price difference of swapped items, when an argument's description says it pays for
 * one: computed before the swap, then settled (`settles`) or recorded.
 */
export function priceDifference(ctx: Context, write: Write): Money {
  const { subject, swaps, settles, payerReads } = write;
  const found = differenceOf(ctx, swaps);
  if (!found) return { before: [], set: {}, after: [] };
  const { swap, payer, field } = found;
  const name = `${field}_difference`;
  const before: Draft[] = [
    { kind: "let", as: name, value: { $expr: differenceExpression(ctx, subject, swap, field) } },
  ];
  ctx.notes.push(
    `computes the ${field} difference of the ${swap.list.path} swapped (new less old, from ${swap.source?.parent}.${swap.source?.collection})`,
  );
  const method = payingMethod(ctx, payer, payerReads);
  const guard = method ? balanceGuard(ctx, name, payer.name, method.binding, method.balance) : undefined;
  if (guard) before.push(guard);
  if (!settles) {
    const recorded = recordFieldFor(ctx, { name, words: [field, "difference"] });
    if (!recorded) return { before, set: {}, after: [] };
    ctx.notes.push(`sets ${recorded} to the ${field} difference`);
    return { before, set: { [recorded]: { $expr: `$${name}` } }, after: [] };
  }
  const set = paymentRecord(ctx, subject, payer, name);
  if (!method) return { before, set, after: [] };
  const { balance, binding, target } = method;
  const places = decimalsOf(ctx.states, [field, balance]);
  ctx.notes.push(`takes the ${field} difference from the ${balance} of ${payer.name}, where it has one`);
  const after: Draft[] = [
    {
      kind: "update",
      target,
      when: `$exists($${name}) and $exists($${binding}.${jsonataName(balance)})`,
      set: { [balance]: { $expr: `$round($subject.${jsonataName(balance)} - $${name}, ${places})` } },
    },
  ];
  return { before, set, after };
}

/** New prices less old, pair by pair as the lists give them, rounded as the state writes prices. */
function differenceExpression(ctx: Context, subject: Bound, swap: Swap, field: string): string {
  const own = `$${subject.binding}.${jsonataName(swap.list.path)}`;
  const sum =
    `$reduce($zip($args.${jsonataName(swap.old.name)}, $args.${jsonataName(swap.replacement.name)}), function($sum, $pair) {(` +
    ` $old := ${own}[${jsonataName(swap.key)} = $pair[0]][0];` +
    ` $sum + (${newElement(swap, "$old", "$pair[1]")}.${jsonataName(field)} - $old.${jsonataName(field)})` +
    ` )}, 0)`;
  return `$round(${sum}, ${decimalsOf(ctx.states, [field])})`;
}

/** The entity the paying argument names, as the reference checks read it, when it keeps a balance the texts name. */
function payingMethod(
  ctx: Context,
  payer: Param,
  payerReads: readonly Draft[],
): { binding: string; target: string; balance: string } | undefined {
  const read = payerReads.find((d) => d.kind === "read" && String(d.target).endsWith(`{${payer.name}}`));
  const collection = ctx.references.find((r) => r.param === payer)?.collection;
  if (!read || typeof read.as !== "string" || !collection) return undefined;
  const balance = pickNumber(numericFieldsOf(collection), toolTexts(ctx), { named: true });
  return balance ? { binding: read.as, target: String(read.target), balance } : undefined;
}

/** The swap whose copied number an argument's description names with "… difference" (`price difference`). */
function differenceOf(
  ctx: Context,
  swaps: readonly Swap[],
): { swap: Swap; payer: Param; field: string } | undefined {
  for (const payer of ctx.facts.params)
    for (const said of payer.description.toLowerCase().matchAll(/\b([a-z]+) difference\b/g)) {
      const word = singular(said[1] ?? "");
      for (const swap of swaps) {
        const field = swap.copied.find((f) => f === word);
        if (field && swap.source?.shape.fields.get(field)?.types.has("number")) return { swap, payer, field };
      }
    }
  return undefined;
}

/** "insufficient … balance": the paying method's balance must cover a positive difference. */
function balanceGuard(
  ctx: Context,
  name: string,
  payer: string,
  binding: string,
  balance: string,
): Draft | undefined {
  const words = nameWords(balance).join(" ");
  const error = ctx.facts.errors.find(
    (e) => /\b(?:insufficient|not enough)\b/.test(e.text) && e.text.includes(words),
  );
  if (!error) return undefined;
  const code = use(ctx, error);
  ctx.notes.push(
    `requires the ${balance} of the paying ${payer} to cover the ${name.replace(/_/g, " ")} (${code})`,
  );
  const held = `$${binding}.${jsonataName(balance)}`;
  return {
    kind: "check",
    require: [
      { expr: `$not($exists($${name})) or $not($exists(${held})) or ${held} >= $${name}`, error: code },
    ],
  };
}

/**
 * The entity's record of transactions that name the paying argument: the array whose
 * elements hold a field of the argument's name, a kind that reads as a payment or a refund,
 * one amount, and nothing else.
 */
interface Ledger {
  field: string;
  /** The element's fields, in the order the state writes them. */
  fields: string[];
  amount: string;
  kind: { field: string; payment: string; refund: string };
}

function ledgerOf(ctx: Context, subject: Bound, payer: Param): Ledger | undefined {
  for (const field of subject.collection.fields.values()) {
    if (field.path.includes(".") || !field.itemFields?.has(payer.name)) continue;
    const elements = elementsOf(ctx.states, subject.collection.name, field.path);
    const amounts = numericFields(elements);
    const kind = kindValues(elements);
    if (amounts.length !== 1 || !kind) continue;
    const amount = amounts[0] as string;
    const fields = [...field.itemFields];
    const known = new Set([payer.name, amount, kind.field]);
    if (fields.some((f) => !known.has(f))) continue;
    return { field: field.path, fields, amount, kind };
  }
  return undefined;
}

/** A transaction of the ledger as an expression: its kind, amount and payer, each an expression. */
function transaction(
  ledger: Ledger,
  payer: Param,
  values: { kind: string; amount: string; by: string },
): string {
  const parts = ledger.fields.map((f) => {
    if (f === payer.name) return `${JSON.stringify(f)}: ${values.by}`;
    if (f === ledger.amount) return `${JSON.stringify(f)}: ${values.amount}`;
    return `${JSON.stringify(f)}: ${values.kind}`;
  });
  return `{${parts.join(", ")}}`;
}

/** The transaction a settled difference adds to the ledger: a payment, or a refund when it is negative. */
function paymentRecord(ctx: Context, subject: Bound, payer: Param, name: string): Record<string, unknown> {
  const ledger = ledgerOf(ctx, subject, payer);
  if (!ledger) return {};
  const { payment, refund } = ledger.kind;
  const record = transaction(ledger, payer, {
    kind: `$${name} > 0 ? ${JSON.stringify(payment)} : ${JSON.stringify(refund)}`,
    amount: `$abs($${name})`,
    by: `$args.${jsonataName(payer.name)}`,
  });
  ctx.notes.push(
    `adds to ${ledger.field} a ${payment} of the difference (a ${refund} when it is negative) by ${payer.name}`,
  );
  const list = `$${subject.binding}.${jsonataName(ledger.field)}`;
  return { [ledger.field]: { $expr: `$exists($${name}) ? $append(${list}, [${record}])` } };
}

/**
 * A plain update naming another payer for an entity paid through its ledger ("modify the
 * payment method of a pending order"): the new payer pays what was paid so far, the
 * current one (the last payment's) gets it back, both as transactions like the ledger's
 * own, and each payer's balance moves where it has one. Documented errors guard it: a
 * payer "different from the current one", "exactly one payment", an "insufficient …
 * balance".
 */
export function payerChange(ctx: Context, write: Write): Money {
  const { subject, swaps, settles, payerReads } = write;
  const none = { before: [], set: {}, after: [] };
  if (!settles || swaps.length > 0) return none;
  const text = ctx.facts.text.toLowerCase();
  for (const payer of ctx.facts.params) {
    const reference = ctx.references.find((r) => r.param === payer && r.collection.parent);
    const noun = nameWords(payer.name).filter((w) => w !== "id");
    if (!reference || fieldFor(payer, subject.collection) || !text.includes(noun.join(" "))) continue;
    const ledger = ledgerOf(ctx, subject, payer);
    if (ledger) return changedPayer(ctx, subject, payer, ledger, payerReads);
  }
  return none;
}

function changedPayer(
  ctx: Context,
  subject: Bound,
  payer: Param,
  ledger: Ledger,
  payerReads: readonly Draft[],
): Money {
  const { payment, refund } = ledger.kind;
  const list = `$${subject.binding}.${jsonataName(ledger.field)}`;
  const ofKind = (kind: string) => `${list}[${jsonataName(ledger.kind.field)} = ${JSON.stringify(kind)}]`;
  const places = decimalsOf(ctx.states, [ledger.amount]);
  const amount = jsonataName(ledger.amount);
  const paid = "amount_paid";
  const current = `current_${payer.name}`;
  const before: Draft[] = [
    {
      kind: "let",
      as: paid,
      value: {
        $expr: `$round($sum([${ofKind(payment)}.${amount}]) - $sum([${ofKind(refund)}.${amount}]), ${places})`,
      },
    },
    { kind: "let", as: current, value: { $expr: `${ofKind(payment)}[-1].${jsonataName(payer.name)}` } },
  ];
  ctx.notes.push(
    `pays what was paid (${payment}s less ${refund}s in ${ledger.field}) by ${payer.name} and refunds it to the last ${payment}'s payer`,
  );
  before.push(...payerGuards(ctx, payer, ledger, ofKind(payment), current));
  const method = payingMethod(ctx, payer, payerReads);
  const covered = method ? balanceGuard(ctx, paid, payer.name, method.binding, method.balance) : undefined;
  if (covered) before.push(covered);
  const records = [
    transaction(ledger, payer, {
      kind: JSON.stringify(payment),
      amount: `$${paid}`,
      by: `$args.${jsonataName(payer.name)}`,
    }),
    transaction(ledger, payer, { kind: JSON.stringify(refund), amount: `$${paid}`, by: `$${current}` }),
  ];
  const set = {
    [ledger.field]: { $expr: `$exists($${current}) ? $append(${list}, [${records.join(", ")}])` },
  };
  if (!method) return { before, set, after: [] };
  const { balance, binding, target } = method;
  const held = jsonataName(balance);
  const previous = `previous_${nameWords(payer.name)
    .filter((w) => w !== "id")
    .join("_")}`;
  const previousTarget = target.replace(`{${payer.name}}`, `{$${current}}`);
  ctx.notes.push(`moves the amount between the ${balance}s of the two, where they have one`);
  const after: Draft[] = [
    { kind: "read", target: previousTarget, as: previous },
    {
      kind: "update",
      target,
      when: `$exists($${current}) and $exists($${binding}.${held})`,
      set: { [balance]: { $expr: `$round($subject.${held} - $${paid}, ${places})` } },
    },
    {
      kind: "update",
      target: previousTarget,
      when: `$exists($${previous}.${held})`,
      set: { [balance]: { $expr: `$round($subject.${held} + $${paid}, ${places})` } },
    },
  ];
  return { before, set, after };
}

/** What the documented errors ask of a new payer: not the current one; exactly one payment so far. */
function payerGuards(ctx: Context, payer: Param, ledger: Ledger, payments: string, current: string): Draft[] {
  const noun = nameWords(payer.name)
    .filter((w) => w !== "id")
    .join(" ");
  const guards: Array<{ expr: string; error: string }> = [];
  // the ledger must hold the one payment before the payer it names can be compared
  const errors = [...ctx.facts.errors].sort(
    (a, b) => Number(/\bexactly one\b/.test(b.text)) - Number(/\bexactly one\b/.test(a.text)),
  );
  for (const error of errors) {
    if (
      error.text.includes(noun) &&
      /\bdifferent from the (?:current|original|existing|old) one\b/.test(error.text)
    ) {
      guards.push({ expr: `$args.${jsonataName(payer.name)} != $${current}`, error: use(ctx, error) });
      ctx.notes.push(`requires ${payer.name} to differ from the current one (${error.code})`);
    }
    const only = /\bexactly one ([a-z_ ]+?)\b(?: for| in| on|$)/.exec(error.text)?.[1];
    if (only && nameWords(only).join("_") === nameWords(ledger.kind.payment).join("_")) {
      guards.push({ expr: `$count(${payments}) = 1`, error: use(ctx, error) });
      ctx.notes.push(`requires exactly one ${ledger.kind.payment} in ${ledger.field} (${error.code})`);
    }
  }
  return guards.length > 0 ? [{ kind: "check", require: guards }] : [];
}

/** A string field of the elements with one value that reads as a payment and one as a refund. */
function kindValues(
  elements: ReadonlyArray<Record<string, unknown>>,
): { field: string; payment: string; refund: string } | undefined {
  const fields = new Set(elements.flatMap((e) => Object.keys(e)));
  for (const field of fields) {
    const values = new Set(elements.map((e) => e[field]).filter((v): v is string => typeof v === "string"));
    const payment = [...values].find((v) => startsWithAny(v, PAYMENT_STEMS));
    const refund = [...values].find((v) => startsWithAny(v, REFUND_STEMS));
    if (payment && refund) return { field, payment, refund };
  }
  return undefined;
}

/**
 * The entity a transaction names (its `payment_method_id`), kept inside the entity the
 * subject belongs to (a user's `payment_methods`, the subject holding the `user_id`).
 */
function methodReference(
  ctx: Context,
  subject: CollectionShape,
  elementFields: readonly string[],
): { field: string; collection: CollectionShape & { parent: string }; ownerField: string } | undefined {
  for (const field of elementFields) {
    if (!field.endsWith("_id")) continue;
    const noun = field.slice(0, -3);
    for (const collection of ctx.shape.byNoun.get(noun) ?? []) {
      const parent = collection.parent;
      if (!parent) continue;
      const owner = [...subject.fields.values()].find(
        (f) => f.refersTo === parent && !f.path.includes(".") && !f.types.has("array"),
      );
      if (owner) return { field, collection: { ...collection, parent }, ownerField: owner.path };
    }
  }
  return undefined;
}

/** The tool's own words: description, arguments and documented errors. */
function toolTexts(ctx: Context): string {
  return [
    ctx.facts.text,
    ...ctx.facts.params.map((p) => p.description),
    ...ctx.facts.errors.map((e) => e.text),
  ]
    .join(" ")
    .toLowerCase();
}

/**
 * The number field a text names (`balance`), or with `named` unset, the only one. Words of
 * several-word names must all appear.
 */
function pickNumber(
  fields: readonly string[],
  text: string,
  options: { named?: boolean } = {},
): string | undefined {
  const lower = text.toLowerCase();
  const named = fields.filter((f) => nameWords(f).every((w) => new RegExp(`\\b${w}`).test(lower)));
  if (named.length === 1) return named[0];
  if (options.named) return undefined;
  return fields.length === 1 ? fields[0] : undefined;
}

function numericFieldsOf(collection: CollectionShape): string[] {
  return [...collection.fields.values()]
    .filter((f) => !f.path.includes(".") && f.types.has("number"))
    .map((f) => f.path);
}

/** Fields that hold a number in every element that has them. */
function numericFields(elements: ReadonlyArray<Record<string, unknown>>): string[] {
  const fields = new Set(elements.flatMap((e) => Object.keys(e)));
  return [...fields].filter((f) => {
    const values = elements.map((e) => e[f]).filter((v) => v !== undefined);
    return values.length > 0 && values.every((v) => typeof v === "number");
  });
}

/** Up to `limit` elements of an array field of a collection's entities, across the states. */
function elementsOf(
  states: readonly StateDocument[],
  collection: string,
  field: string,
  limit = 200,
): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  for (const state of states) {
    const entities = state[collection];
    if (!isPlainObject(entities)) continue;
    for (const entity of Object.values(entities)) {
      const list = isPlainObject(entity) ? entity[field] : undefined;
      if (!Array.isArray(list)) continue;
      for (const element of list) if (isPlainObject(element)) found.push(element);
      if (found.length >= limit) return found;
    }
  }
  return found;
}

/**
 * How many decimals the state writes the named numbers with (cents: 2), so that a computed
 * amount is rounded as the state's own are. Looks at a bounded number of values.
 */
export function decimalsOf(states: readonly StateDocument[], fields: readonly string[]): number {
  const wanted = new Set(fields);
  let places = 0;
  let seen = 0;
  let visited = 0;
  const walk = (value: unknown, depth: number): void => {
    if (seen >= 500 || visited >= 50_000 || depth > 6) return;
    visited++;
    if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else if (isPlainObject(value))
      for (const [key, item] of Object.entries(value)) {
        if (wanted.has(key) && typeof item === "number") {
          seen++;
          places = Math.max(places, decimalPlaces(item));
        } else walk(item, depth + 1);
      }
  };
  for (const state of states) walk(state, 0);
  return Math.min(places, 6);
}

function decimalPlaces(value: number): number {
  const [, fraction = ""] = String(value).split(".");
  return fraction.length;
}

function sentences(text: string): string[] {
  return text
    .toLowerCase()
    .split(/(?<=[.!?;])\s+/)
    .filter((s) => s.length > 0);
}

function startsWithAny(value: string, stems: readonly string[]): boolean {
  const first = nameWords(value)[0] ?? "";
  return stems.some((stem) => first.startsWith(stem));
}
