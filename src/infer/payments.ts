import escapeRegExp from "escape-string-regexp";
import { addError, addGap, type Context, notFoundError, use } from "./context.js";
import { emptyFields, mintOf } from "./creates.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import { DIRECTION_WORDS, type Reference } from "./resolve.js";
import type { CollectionShape, FieldShape, RecordShape, ValuesShape } from "./shape.js";
import { containerTarget, recordTarget, referenceTarget } from "./targets.js";
import { recordsAt } from "./transitions.js";
import { DECREASE_VERBS, INCREASE_VERBS, nameWords, partNoun, sameNoun, singular } from "./words.js";

/**
 * Paying from a stored balance. A tool that says it charges a record its arguments name (a
 * card, a wallet, an account holding a `balance`) takes the price from that balance, and
 * refuses more than there is where the tool documents that; a tool that says it refunds
 * gives the price of the record it changes back to the record that paid for it. Stripe's
 * customer balance, PayPal's wallet and the store credit of Shopify and Square pay for a
 * purchase from a stored balance, and their refunds go back to the method that paid.
 */

const CHARGE_WORDS =
  /\b(charge[sd]?|charging|pays?|paid|paying|debit(s|ed)?|deduct(s|ed)?|bill(s|ed)?|purchas(e|es|ed|ing)|buy(s|ing)?|bought)\b/i;
const REFUND_WORDS = /\b(refund(s|ed)?|credited back|paid back|goes back to|returned to)\b/i;
export const PRICE_WORDS = /^(price|amount|cost|total|fare|fee|sum|charge)$/;
const BALANCE_WORDS = /^(balance|funds|credit|cash|wallet)$/;
const SHORT_WORDS =
  /insufficient|not enough|does not cover|doesn't cover|exceeds|too (low|little)|(balance|funds?) (is )?below|cannot pay|can't pay/;

/** The one balance of a collection's records, where they hold one. */
function balanceOf(collection: Pick<CollectionShape, "fields">): FieldShape | undefined {
  const found = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") && f.types.has("number") && nameWords(f.path).some((w) => BALANCE_WORDS.test(w)),
  );
  // a card with a `balance` and a `credit_limit` pays from the balance: the limit only bounds it
  const balances = found.filter((f) => nameWords(f.path).includes("balance"));
  return found.length === 1 ? found[0] : balances.length === 1 ? balances[0] : undefined;
}

function priceParam(ctx: Context): Param | undefined {
  const found = ctx.facts.params.filter(
    (p) =>
      (p.type === "number" || p.type === "integer") && nameWords(p.name).some((w) => PRICE_WORDS.test(w)),
  );
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The charge a tool makes to the record a reference names: its balance less the price,
 * where the tool says it charges or pays and the record holds a balance.
 */
export function chargeFor(
  ctx: Context,
  reference: Reference,
  missing: string | undefined,
  inherited?: { name: string; expr: string },
): Draft | undefined {
  if (reference.many || !CHARGE_WORDS.test(ctx.facts.text)) return undefined;
  const balance = balanceOf(reference.collection);
  const param = priceParam(ctx);
  // without a price argument, the price of what the purchase is made from (an offer's total)
  const price = param ? { name: param.name, expr: `$args.${identifier(param.name)}` } : inherited;
  const target = recordTarget(ctx, reference.collection, `{${reference.param.name}}`);
  if (!balance || !price || !target) return undefined;
  // a card's balance may be what is owed rather than what is left: a charge is refused for
  // want of funds only where the tool documents that error
  const short = ctx.facts.errors.find((e) => SHORT_WORDS.test(e.text));
  if (short) ctx.usedErrors.add(short.code);
  ctx.notes.push(
    `charges ${price.name} to ${reference.collection.name}.${balance.path} of ${reference.param.name}${short ? `, refusing more than it holds (${short.code})` : ""}`,
  );
  return {
    kind: "update",
    target,
    ...(missing ? { missing } : {}),
    ...(short
      ? { require: [{ expr: `$subject.${identifier(balance.path)} >= ${price.expr}`, error: short.code }] }
      : {}),
    inc: { [balance.path]: { $expr: `-${price.expr}` } },
  };
}

/**
 * Where no record the call names pays, the one account of the world does: a record that is no
 * collection's and holds the one balance (a traveler's `wallet_balance`), charged the price
 * where the tool says it charges or pays, refusing more than it holds where an error says so.
 * The caller's own wallet pays in PayPal's and Stripe's customer-balance flows.
 */
export function chargeAccount(ctx: Context, price: { name: string; expr: string }): Draft | undefined {
  if (!CHARGE_WORDS.test(ctx.facts.text)) return undefined;
  const account = soleAccount(ctx);
  if (!account) return undefined;
  const { part, balance } = account;
  const short = ctx.facts.errors.find((e) => SHORT_WORDS.test(e.text) || /insufficient/i.test(e.code));
  if (short) ctx.usedErrors.add(short.code);
  const target = part.path.join("/");
  ctx.notes.push(
    `charges ${price.name} to ${part.path.join(".")}.${balance.path}${short ? `, refusing more than it holds (${short.code})` : ""}`,
  );
  return {
    kind: "update",
    target,
    ...(short
      ? { require: [{ expr: `$subject.${identifier(balance.path)} >= ${price.expr}`, error: short.code }] }
      : {}),
    inc: { [balance.path]: { $expr: `-(${price.expr})` } },
  };
}

/**
 * The refund a tool that says so makes when it changes a record (bound as `binding`): the
 * record's price goes back to the balance of the record it names as having paid.
 */
export function refundFor(ctx: Context, collection: CollectionShape, binding: string): Draft | undefined {
  if (!REFUND_WORDS.test(ctx.facts.text)) return undefined;
  const prices = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") && f.types.has("number") && nameWords(f.path).some((w) => PRICE_WORDS.test(w)),
  );
  if (prices.length !== 1) return undefined;
  const payers = [...collection.fields.values()].flatMap((f) => {
    // a card kept inside its holder's account pays and is refunded like a card of its own
    const payer = f.refersTo
      ? (ctx.shape.collections.get(f.refersTo) ?? ctx.shape.nested.get(f.refersTo))
      : undefined;
    const balance = payer ? balanceOf(payer) : undefined;
    return payer && balance && !f.path.includes(".") ? [{ field: f, payer, balance }] : [];
  });
  const price = (prices[0] as FieldShape).path;
  if (payers.length === 0) return refundAccount(ctx, price, binding);
  if (payers.length !== 1) return undefined;
  const { field, payer, balance } = payers[0] as (typeof payers)[number];
  const target = recordTarget(ctx, payer, `{$${binding}.${field.path}}`);
  if (!target) return undefined;
  ctx.notes.push(`refunds ${price} to ${payer.name}.${balance.path} of the ${field.path} that paid`);
  return {
    kind: "update",
    target,
    inc: { [balance.path]: { $expr: `$${binding}.${identifier(price)}` } },
  };
}

/** The world's one account: a record that is no collection's and holds the one balance. */
function soleAccount(ctx: Context): { part: RecordShape; balance: FieldShape } | undefined {
  const accounts = ctx.shape.parts.flatMap((part) => {
    if (part.kind !== "record" || part.path.length === 0 || part.path.includes("*")) return [];
    const balance = balanceOf(part);
    return balance ? [{ part, balance }] : [];
  });
  return accounts.length === 1 ? accounts[0] : undefined;
}

/** The world's one account gets the price back where no record names a payer. */
function refundAccount(ctx: Context, price: string, binding: string): Draft | undefined {
  const account = soleAccount(ctx);
  if (!account) return undefined;
  const { part, balance } = account;
  ctx.notes.push(`refunds ${price} to ${part.path.join(".")}.${balance.path}`);
  return {
    kind: "update",
    target: part.path.join("/"),
    inc: { [balance.path]: { $expr: `$${binding}.${identifier(price)}` } },
  };
}

const ORIGINAL_METHOD = /\boriginal (payment )?(method|card|source|account|tender)\b/i;
const METHOD_WORDS = /^(payment|method|card|source|tender|instrument)$/;

/**
 * A refund goes back to the method that paid. Where a documented error says the method must
 * be the original one, an argument naming a payment method must name one of those the
 * record's payments were made with, or be of the one other kind the error allows ("or store
 * credit", where the methods keep their kind in a field). Stripe refunds only to the charge's
 * own payment method, Square to the tender that paid, Shopify to the original gateway or as
 * store credit.
 */
export function refundDestination(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const error = ctx.facts.errors.find((e) => !ctx.usedErrors.has(e.code) && ORIGINAL_METHOD.test(e.text));
  if (!error) return [];
  const method = ctx.references.find(
    (r) =>
      !r.many && r.collection !== collection && nameWords(r.param.name).some((w) => METHOD_WORDS.test(w)),
  );
  if (!method) return [];
  const name = method.param.name;
  const payments = [...collection.fields.values()].find(
    (f) => !f.path.includes(".") && f.types.has("array") && f.itemFields?.has(name),
  );
  if (!payments) return [];
  const given = `$args.${identifier(name)}`;
  const paid = `${given} in $subject.${identifier(payments.path)}.${identifier(name)}`;
  const other = otherKind(error.text, method.collection, given);
  ctx.usedErrors.add(error.code);
  ctx.notes.push(
    `refuses a ${name} that did not pay for it (in ${payments.path})${other ? ` unless a ${other.kind}` : ""} (${error.code})`,
  );
  return [{ expr: other ? `${paid} or ${other.expr}` : paid, error: error.code }];
}

/** The kind the error allows besides the original ("… or a voucher"), where the methods say their kind. */
function otherKind(
  text: string,
  methods: CollectionShape,
  given: string,
): { kind: string; expr: string } | undefined {
  const after = text.slice((ORIGINAL_METHOD.exec(text)?.index ?? 0) + 1);
  const named = /\bor (?:an?|to an?) ([a-z]+(?: [a-z]+)?)\b/i.exec(after)?.[1];
  if (!named) return undefined;
  const kind = nameWords(named).join("_");
  const field = [...methods.fields.values()].find(
    (f) => !f.path.includes(".") && f.types.has("string") && f.values.has(kind),
  );
  if (!field) return undefined;
  return {
    kind: named.toLowerCase(),
    expr: `$lookup(${everyRecordOf(methods)}, ${given}).${identifier(field.path)} = ${JSON.stringify(kind)}`,
  };
}

/** The records of a collection wherever they are kept (a user's payment methods, for every user). */
function everyRecordOf(collection: CollectionShape): string {
  const first = collection.path.indexOf("*");
  const head = first < 0 ? collection.path : collection.path.slice(0, first);
  const rest = first < 0 ? [] : collection.path.slice(first);
  const tail = rest.map((s) => (s === "*" ? ".*" : `.${identifier(s)}`)).join("");
  return `$entity(${head.map((s) => JSON.stringify(s)).join(", ")})${tail}`;
}

const LIMIT_WORDS = /^(budget|limit|cap|allowance)$/;

/**
 * A spending limit a record keeps (`spend_cap`, `monthly_limit`, a card's `spending_limit`) bounds
 * the price a tool takes (its price argument, or the price of what it is made from), where the tool documents the error for going past it ("above the spend cap"): Stripe
 * Issuing's spending controls, Brex and Ramp budgets, AWS Budgets actions.
 */
export function spendingLimit(ctx: Context, inherited?: { name: string; expr: string }): Draft[] {
  const param = priceParam(ctx);
  // without a price argument, the price of what the purchase is made from (an offer's total)
  const price = param ? { name: param.name, expr: `$args.${identifier(param.name)}` } : inherited;
  if (!price) return [];
  for (const record of ctx.shape.parts) {
    if (record.kind !== "record") continue;
    const limits = [...record.fields.values()].filter(
      (f) =>
        !f.path.includes(".") &&
        // a limit not yet set is null
        (f.types.has("number") || (f.types.has("null") && f.types.size === 1)) &&
        nameWords(f.path).some((w) => LIMIT_WORDS.test(w)) &&
        !nameWords(f.path).some((w) => BALANCE_WORDS.test(w)),
    );
    if (limits.length !== 1) continue;
    const limit = (limits[0] as FieldShape).path;
    const words = nameWords(limit).filter((w) => LIMIT_WORDS.test(w));
    const error = ctx.facts.errors.find((e) => words.some((w) => new RegExp(`\\b${w}`).test(e.text)));
    if (!error) continue;
    ctx.usedErrors.add(error.code);
    ctx.notes.push(`refuses ${price.name} above ${record.path.join(".")}.${limit} (${error.code})`);
    const bound = `$limits.${identifier(limit)}`;
    return [
      { kind: "read", target: record.path.join("/") || ".", as: "limits" },
      {
        kind: "check",
        require: [
          // a limit not set (null) bounds nothing
          {
            expr: `$type(${bound}) = "number" ? ${price.expr} <= ${bound} : true`,
            error: error.code,
          },
        ],
      },
    ];
  }
  return [];
}

// ── money moved between stored balances ──────────────────────────────────────

/** Words of an argument naming where money comes from, and where it goes. */
const FROM_WORDS = /^(from|source|origin|sender|debtor|payer)$/;
const TO_WORDS = /^(to|destination|target|recipient|creditor|payee|into)$/;
const MOVE_VERBS = new Set(["transfer", "move"]);
/** Verbs that pay someone from a stored balance: the balance named by an argument loses the amount. */
const PAY_VERBS = new Set(["pay", "remit"]);

const NEW_RECORD = /^\s*(?:adds?|creates?|registers?|makes?)\s+(?:a|an)\s+new\b/i;

/** One record a move changes: which argument names it, and whether it gains or loses. */
interface Side {
  reference: Reference;
  balance: FieldShape;
  sign: 1 | -1;
}

/**
 * Money moved into or out of stored balances, each a record of a collection an argument names:
 * a deposit-like verb adds the amount to the record the tool is about, a withdraw-like verb
 * takes it away, refusing more than there is; a `from…`/`source…` argument names where it
 * comes from and a `to…`/`destination…` one where it goes (a transfer between accounts, a
 * deposit into a pot from an account). A limit the paying record keeps (`dailyLimit`, null
 * while unset) refuses more, where an error names it; a ledger the description says the move
 * is appended to gets an entry. Monzo's pots (`deposit`, `withdraw` with `source_account_id`),
 * Wise's balance movements (`sourceBalanceId`, `targetBalanceId`), Stripe Treasury's transfers
 * and the Open Banking payments API, whose transactions list every movement.
 */
export function moneyMove(
  ctx: Context,
  subject: Reference | undefined,
  verbs: { increase: ReadonlySet<string>; decrease: ReadonlySet<string> },
): Draft[] | undefined {
  const verb = ctx.facts.verb ?? ctx.facts.words[0] ?? "";
  const direction = verbs.increase.has(verb)
    ? 1
    : verbs.decrease.has(verb) || PAY_VERBS.has(verb)
      ? -1
      : MOVE_VERBS.has(verb)
        ? 0
        : undefined;
  const amount = amountParamOf(ctx);
  if (direction === undefined || !amount) return undefined;
  // "Creates a new price under the given lookup_key": a record made, not an amount added to one
  if (direction === 1 && NEW_RECORD.test(ctx.facts.tool.description)) return undefined;
  const sides = sidesOf(ctx, subject, direction);
  if (sides.length === 0 || sides.length > 2) return undefined;
  if (sides.length === 2 && sides[0]?.sign === sides[1]?.sign) return undefined;
  const value = `$args.${identifier(amount.name)}`;
  const checks: Draft[] = [];
  const updates: Draft[] = [];
  for (const side of sides) {
    const target = recordTarget(ctx, side.reference.collection, `{${side.reference.param.name}}`);
    if (!target) return undefined;
    const missing = notFoundError(ctx, side.reference.collection, side.reference.param.name, { add: true });
    const guards = side.sign < 0 ? [shortGuard(ctx, side, value), ...limitGuards(ctx, side, value)] : [];
    checks.push({
      kind: "read",
      target,
      as: side.sign < 0 ? "payer" : "payee",
      ...(missing ? { missing } : {}),
      ...(guards.length > 0 ? { require: guards } : {}),
    });
    const moved = side.sign > 0 ? `{${amount.name}}` : { $expr: `-${value}` };
    updates.push({
      kind: "update",
      target,
      inc: {
        [side.balance.path]: moved,
        ...Object.fromEntries(alsoMoved(ctx, side).map((field) => [field, moved])),
      },
      as: side === sides[0] ? "moved" : "other",
    });
    ctx.notes.push(
      `${side.sign > 0 ? "adds" : "takes"} ${amount.name} ${side.sign > 0 ? "to" : "from"} ${side.reference.collection.name}.${side.balance.path} of ${side.reference.param.name}`,
    );
  }
  // whatever else the call names must exist too (the payee paid)
  for (const reference of ctx.references) {
    if (reference.many || sides.some((s) => s.reference === reference)) continue;
    const target = recordTarget(ctx, reference.collection, `{${reference.param.name}}`);
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    if (target) checks.push({ kind: "read", target, ...(missing ? { missing } : {}) });
  }
  const ledger = ledgerEntry(ctx, sides, value);
  const answersEntry = ledger?.some((d) => d.output === "") ?? false;
  return [
    ...checks,
    ...updates,
    ...(ledger ?? []),
    ...(answersEntry ? [] : answersOf(ctx, sides[0] as Side)),
  ];
}

/**
 * Lines of something kept elsewhere (a cart's `items`, each `{item_id, quantity}` where the
 * menu keeps `item_id` too): adding one that is there adds to its quantity, adding one that is
 * not makes its line, once the thing it names is found. Shopify's `/cart/add.js` and
 * commercetools' `addLineItem` merge a repeated product into its line; Square's order line
 * items are made per catalog object.
 */
export function lineAdded(ctx: Context, subject: Reference | undefined): Draft[] | undefined {
  if (!subject || !INCREASE_LINE_VERBS.has(ctx.facts.verb ?? "")) return undefined;
  const key = subject.param.name;
  const amount = amountParamOf(ctx);
  if (!amount) return undefined;
  // the lines keep the key and a count named as the amount is, where the tool names them or
  // what holds them (`add_to_cart` and a cart's `items`); what they are lines of keeps the key
  // as its own
  const all = [...ctx.shape.collections.values()].filter((c) => !c.parent);
  const lines = all.find(
    (c) =>
      c.container === "array" &&
      c.fields.has(key) &&
      (c.fields.get(amount.name)?.types.has("number") ?? false) &&
      ctx.facts.nouns.some((n) => c.path.some((part) => sameNoun(part, n))),
  );
  const kept = all.find((c) => c !== lines && c.keyField === key && c.container === "map");
  if (!lines || !kept) return undefined;
  const container = containerTarget(ctx, lines);
  const item = recordTarget(ctx, kept, `{${key}}`);
  const line = recordTarget(ctx, lines, `{${key}}`);
  if (!container || !item || !line) return undefined;
  const missing = notFoundError(ctx, kept, key, { add: true });
  const there = `$count($lines[${identifier(key)} = $args.${identifier(key)}]) > 0`;
  ctx.notes.push(
    `adds ${amount.name} to the line of ${lines.name} whose ${key} is given, or makes that line (${key} must name one of ${kept.name})`,
  );
  return [
    { kind: "read", target: item, ...(missing ? { missing } : {}) },
    { kind: "list", target: container, as: "lines" },
    { kind: "update", target: line, when: there, inc: { [amount.name]: `{${amount.name}}` } },
    {
      kind: "create",
      target: container,
      when: `$not(${there})`,
      set: { [key]: `{${key}}`, [amount.name]: `{${amount.name}}` },
    },
    { kind: "read", target: line, as: "line", output: "" },
  ];
}

const INCREASE_LINE_VERBS: ReadonlySet<string> = new Set(["add", "put", "increase"]);

function amountParamOf(ctx: Context): Param | undefined {
  // an id is never the amount (`ticket_id` of `add_ticket_note`)
  const numbers = ctx.facts.params.filter(
    (p) => (p.type === "number" || p.type === "integer") && !p.identifier,
  );
  const named = numbers.filter((p) =>
    nameWords(p.name).some((w) => /^(amount|sum|value|points|quantity)$/.test(w)),
  );
  return named.length === 1 ? named[0] : numbers.length === 1 ? numbers[0] : undefined;
}

/** The number a record moves: its one balance, else the one numeric field named like the amount (`points`). */
function movedField(ctx: Context, collection: CollectionShape): FieldShape | undefined {
  const stated = statedMovedField(ctx, collection);
  if (stated) return stated;
  const balance = balanceOf(collection);
  if (balance) return balance;
  const amount = amountParamOf(ctx);
  const words = amount ? nameWords(amount.name) : [];
  const named = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("number") &&
      nameWords(f.path).some((w) => words.includes(w) && w !== "amount"),
  );
  return named.length === 1 ? named[0] : undefined;
}

/**
 * "quantity is reduced by amount", "adds amount to the bottle's quantity": the
 * number of the records the description says the amount moves, as stock and wallet APIs
 * document it (Shopify's inventory `adjust` "by the given delta", Square's inventory
 * adjustments, Stripe's customer balance transactions).
 */
function statedMovedField(ctx: Context, collection: CollectionShape): FieldShape | undefined {
  const amount = amountParamOf(ctx);
  if (!amount) return undefined;
  const text = ctx.facts.tool.description.replace(/[`*]/g, "").toLowerCase();
  const given = escapeRegExp(amount.name.toLowerCase());
  const found = [...collection.fields.values()].filter((field) => {
    if (field.path.includes(".") || !field.types.has("number")) return false;
    const name = nameWords(field.path).map(escapeRegExp).join("[ _]");
    return (
      new RegExp(
        `\\b${name}\\s+(?:is|gets|are)\\s+(?:reduced|decreased|lowered|increased|raised|incremented|decremented)\\s+by\\s+(?:the\\s+)?${given}\\b`,
      ).test(text) ||
      new RegExp(
        `\\b(?:adds?|subtracts?|deducts?|takes?)\\s+(?:the\\s+)?${given}\\b[^.]{0,40}?\\b(?:to|from)\\s+(?:the\\s+[a-z]+'s\\s+|its\\s+|the\\s+)?${name}\\b`,
      ).test(text)
    );
  });
  return found.length === 1 ? found[0] : undefined;
}

function sidesOf(ctx: Context, subject: Reference | undefined, direction: 1 | -1 | 0): Side[] {
  const sides: Side[] = [];
  for (const reference of ctx.references) {
    if (reference.many) continue;
    const balance = movedField(ctx, reference.collection);
    if (!balance) continue;
    const words = reference.param.words;
    const sign = words.some((w) => FROM_WORDS.test(w))
      ? -1
      : words.some((w) => TO_WORDS.test(w))
        ? 1
        : undefined;
    if (sign !== undefined) sides.push({ reference, balance, sign });
    else if (reference === subject && direction !== 0) sides.push({ reference, balance, sign: direction });
  }
  // one side named by its direction (`to_jar_id`, `source_jar_id`) and another record of the same
  // kind named plainly (`jar_id`): the plain one is the other side, as a transfer moves both
  const [only] = sides;
  const counterpart =
    sides.length === 1 && only
      ? ctx.references.filter(
          (r) =>
            !r.many &&
            r !== only.reference &&
            r.collection === only.reference.collection &&
            !r.param.words.some((w) => FROM_WORDS.test(w) || TO_WORDS.test(w)),
        )
      : [];
  if (only && counterpart.length === 1 && counterpart[0])
    sides.push({ reference: counterpart[0], balance: only.balance, sign: only.sign > 0 ? -1 : 1 });
  // paying a payee, who keeps no balance: the one balance an argument names pays
  const others = ctx.references.filter((r) => !r.many && r !== subject && movedField(ctx, r.collection));
  if (sides.length === 0 && direction !== 0 && others.length === 1) {
    const reference = others[0] as Reference;
    sides.push({ reference, balance: movedField(ctx, reference.collection) as FieldShape, sign: direction });
  }
  // the record the tool is about comes first: it answers
  return sides.sort((a, b) => (a.reference === subject ? -1 : b.reference === subject ? 1 : 0));
}

function shortGuard(ctx: Context, side: Side, value: string): Record<string, unknown> {
  const documented = ctx.facts.errors.find((e) => SHORT_WORDS.test(e.text));
  const code = documented ? use(ctx, documented) : addError(ctx, shortError(side.balance.path));
  return { expr: `$subject.${identifier(side.balance.path)} >= ${value}`, error: code };
}

/** The error of taking more than is there: funds for money, else named for what runs short (`INSUFFICIENT_QUANTITY`). */
function shortError(field: string): { code: string; status: number; message: string; when: string } {
  const words = nameWords(field);
  const money = words.some((w) => BALANCE_WORDS.test(w) || /^(amount|money|budget)$/.test(w));
  const what = words.join(" ");
  return {
    code: money ? "INSUFFICIENT_FUNDS" : `INSUFFICIENT_${words.join("_").toUpperCase()}`,
    status: 409,
    message: `The ${what} does not cover the amount.`,
    when: `The amount is more than the ${money ? "balance" : what} it is taken from (inferred from the tool's verb).`,
  };
}

/** A limit the paying record keeps (`dailyLimit`, `spend_cap`; null while unset) bounds the amount, where an error names it. */
function limitGuards(ctx: Context, side: Side, value: string): Array<Record<string, unknown>> {
  const limits = [...side.reference.collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      (f.types.has("number") || f.types.has("null")) &&
      nameWords(f.path).some((w) => LIMIT_WORDS.test(w)) &&
      !nameWords(f.path).some((w) => BALANCE_WORDS.test(w)),
  );
  if (limits.length !== 1) return [];
  const limit = (limits[0] as FieldShape).path;
  const words = nameWords(limit).filter((w) => LIMIT_WORDS.test(w));
  const error = ctx.facts.errors.find((e) => words.some((w) => new RegExp(`\\b${w}`).test(e.text)));
  if (!error) return [];
  ctx.notes.push(`refuses more than ${side.reference.collection.name}.${limit} (${use(ctx, error)})`);
  const bound = `$subject.${identifier(limit)}`;
  return [{ expr: `$type(${bound}) = "number" ? ${value} <= ${bound} : true`, error: error.code }];
}

/**
 * The entry a move appends to a ledger the description names ("appended to the
 * transactions"), or whose record the tool answers: the account it is about (the paying
 * one), the amount signed as the ledger signs money going out where it holds negative
 * amounts, the time, and the fields its entries leave empty empty.
 */
function ledgerEntry(ctx: Context, sides: readonly Side[], value: string): Draft[] | undefined {
  const ledger = [...ctx.shape.collections.values()].find((c) => {
    if (c.parent || !c.keyField || sides.some((s) => s.reference.collection === c)) return false;
    const noun = `(${c.name}|${singular(c.name)})`.toLowerCase();
    const named = new RegExp(
      `\\b(appended|recorded|logged|records?|logs?)\\b[^.]*\\b${noun}\\b|\\b${noun}\\b[^.]*\\b(appended|recorded|logged)\\b`,
      "i",
    );
    const answered =
      ctx.facts.outputs.some((o) => o.name === c.keyField) &&
      ctx.facts.outputs.every((o) => c.fields.has(o.name));
    return (
      named.test(ctx.facts.text) ||
      (answered &&
        [...c.fields.values()].some((f) => sides.some((s) => f.refersTo === s.reference.collection.name)))
    );
  });
  if (!ledger?.keyField) return undefined;
  const payer = sides.find((s) => s.sign < 0) ?? (sides[0] as Side);
  const account = [...ledger.fields.values()].find(
    (f) => !f.path.includes(".") && f.refersTo === payer.reference.collection.name,
  );
  // the amount's field: named as money is, or as the argument that moves it (`points`)
  const given = /^\$args\.(\w+)$/.exec(value)?.[1];
  const amountField =
    [...ledger.fields.values()].find(
      (f) =>
        !f.path.includes(".") && f.types.has("number") && nameWords(f.path).some((w) => PRICE_WORDS.test(w)),
    ) ??
    [...ledger.fields.values()].find(
      (f) => !f.path.includes(".") && f.types.has("number") && f.path === given,
    );
  if (!account || !amountField) return undefined;
  const signed = amountField.samples.some((v) => typeof v === "number" && v < 0) && payer.sign < 0;
  const set: Record<string, unknown> = {
    [account.path]: `{${payer.reference.param.name}}`,
    [amountField.path]: signed ? { $expr: `-${value}` } : { $expr: value },
  };
  for (const field of ledger.fields.values())
    if (
      !field.path.includes(".") &&
      set[field.path] === undefined &&
      // a time the call gives is the entry's own (a `date` argument), not the clock's
      !ctx.facts.params.some((p) => p.name === field.path) &&
      /^(created|createdat|created_at|date|timestamp|time)$/i.test(field.path.replace(/_/g, ""))
    )
      set[field.path] = "{$now}";
  for (const param of ctx.facts.params)
    if (set[param.name] === undefined && ledger.fields.has(param.name) && param !== payer.reference.param)
      set[param.name] = `{${param.name}}`;
  // the kind of entry the description names in quotes ("records an `earn` transaction")
  for (const [, quoted] of ctx.facts.tool.description.matchAll(/[`'"]([a-z_]{2,30})[`'"]/g))
    for (const field of ledger.fields.values())
      if (!field.path.includes(".") && set[field.path] === undefined && field.values.has(quoted ?? ""))
        set[field.path] = quoted;
  // what every entry shares with the account it is about (its `currency`) comes from it
  const binding = payer.sign < 0 ? "payer" : "payee";
  for (const field of sharedFields(ctx, ledger, account.path, payer.reference.collection))
    if (set[field] === undefined) set[field] = `{$${binding}.${field}}`;
  Object.assign(set, emptyFields(ledger, set));
  const target = containerTarget(ctx, ledger);
  if (!target) return undefined;
  ctx.notes.push(`appends an entry to ${ledger.name}`);
  const answers = ctx.facts.outputs.some((o) => o.name === ledger.keyField);
  return [
    {
      kind: "create",
      target,
      id: mintOf(ledger, ledger.name, ledger.keyField),
      set,
      as: "entry",
      ...(answers ? { output: "" } : {}),
    },
  ];
}

/**
 * "Adds to both the balance and lifetime points": the other number of the record the
 * description says the amount moves with the balance, as a loyalty program's lifetime points
 * follow every earning (Square Loyalty's `lifetime_points`, a Starbucks member's stars earned).
 */
function alsoMoved(ctx: Context, side: Side): string[] {
  const said =
    /\b(?:adds?|credits?|takes?|deducts?)\s+(?:it\s+)?(?:to|from)\s+both\s+(?:the\s+|its\s+)?([a-z_ ]+?)\s+and\s+(?:the\s+|its\s+)?([a-z_ ]+?)(?:[.,;]|$)/i.exec(
      ctx.facts.tool.description,
    );
  if (!said) return [];
  const named = [said[1] ?? "", said[2] ?? ""].map((words) =>
    words.trim().toLowerCase().replace(/\s+/g, "_"),
  );
  return [...side.reference.collection.fields.values()]
    .filter(
      (f) =>
        !f.path.includes(".") &&
        f.path !== side.balance.path &&
        (f.types.has("number") || f.types.has("integer")) &&
        named.some((n) => f.path === n || nameWords(f.path).join("_") === n),
    )
    .map((f) => f.path);
}

/** The outputs the moved record answers: its fields, and arguments echoed by name. */
function answersOf(ctx: Context, side: Side): Draft[] {
  return ctx.facts.outputs.flatMap((o) => {
    if (side.reference.collection.fields.has(o.name))
      return [{ kind: "respond", output: o.name, value: { $expr: `$moved.${identifier(o.name)}` } }];
    const param = ctx.facts.params.find((p) => p.name === o.name);
    return param
      ? [{ kind: "respond", output: o.name, value: { $expr: `$args.${identifier(param.name)}` } }]
      : [];
  });
}

/** Fields whose value, in every entry of the ledger that names a record by `link`, is the value of the same field of that record. */
export function sharedFields(
  ctx: Context,
  ledger: CollectionShape,
  link: string,
  owner: CollectionShape,
): string[] {
  const entries = ctx.states.flatMap((state) => recordsAt(state, ledger.path));
  const owners = new Map<string, Record<string, unknown>>();
  for (const state of ctx.states)
    for (const record of recordsAt(state, owner.path)) {
      const key = owner.keyField ? record[owner.keyField] : undefined;
      if (typeof key === "string" || typeof key === "number") owners.set(String(key), record);
    }
  // an entry that links to nothing (a car's booking has no hotel offer) says nothing of the link
  const linked = entries.filter((entry) => entry[link] !== null && entry[link] !== undefined);
  if (linked.length === 0) return [];
  return [...ledger.fields.keys()].filter(
    (field) =>
      !field.includes(".") &&
      field !== ledger.keyField &&
      field !== link &&
      owner.fields.has(field) &&
      linked.every((entry) => {
        const record = owners.get(String(entry[link]));
        return record !== undefined && entry[field] !== undefined && entry[field] === record[field];
      }),
  );
}

/**
 * A field that tells records made from one kind of record from the others: every record that
 * names one by `link` holds one value there, and every record that names none holds another
 * (`product: "hotel"` on the bookings of hotel offers, `"car"` on the others). A new record made
 * from that kind takes the value: Stripe's `object` and balance transactions' `type`, Amadeus
 * orders' `type`, Expedia itineraries' room and car items, each say what they were made from.
 */
export function kindFields(ctx: Context, ledger: CollectionShape, link: string): Record<string, string> {
  const entries = ctx.states.flatMap((state) => recordsAt(state, ledger.path));
  const named = (entry: Record<string, unknown>) => entry[link] !== null && entry[link] !== undefined;
  const linked = entries.filter(named);
  const others = entries.filter((entry) => !named(entry));
  if (linked.length === 0 || others.length === 0) return {};
  const kinds: Record<string, string> = {};
  for (const field of ledger.fields.keys()) {
    if (field.includes(".") || field === ledger.keyField || field === link) continue;
    const value = linked[0]?.[field];
    if (typeof value !== "string") continue;
    if (!linked.every((entry) => entry[field] === value)) continue;
    // a value every record has its own of (a time, a name) is data, not a kind
    if (new Set(entries.map((entry) => entry[field])).size === entries.length) continue;
    if (others.every((entry) => typeof entry[field] === "string" && entry[field] !== value))
      kinds[field] = value;
  }
  return kinds;
}

/**
 * A create of something the state keeps nowhere (a parking pass bought for a vehicle, a ticket for
 * an event whose tickets no part of the state holds) still needs the records its arguments
 * name, each answering its not-found error, and pays from the balance of the one that holds
 * it. Where the new thing is kept is not inferred, and the report says so. Stripe's payment
 * intents, Square's payments and PayPal's orders each refuse a customer, card or order that
 * does not exist and charge the amount given, whatever is bought.
 */
export function unkeptCreate(ctx: Context, noun: string): Draft[] | undefined {
  const references = ctx.references.filter((r) => !r.many && r.strength === "strong" && r.param.required);
  const drafts: Draft[] = [];
  for (const reference of references) {
    const target = referenceTarget(ctx, reference);
    if (!target) continue;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    const charge = chargeFor(ctx, reference, missing);
    if (!charge)
      ctx.notes.push(
        `checks the ${partNoun(reference.collection.name).replace(/_/g, " ")} ${reference.param.name} names exists`,
      );
    drafts.push(charge ?? { kind: "read", target, ...(missing ? { missing } : {}) });
  }
  if (drafts.length === 0) return undefined;
  addGap(
    ctx,
    `where it keeps the ${noun.replace(/_/g, " ")} it makes is not inferred: no part of the state is named for it`,
  );
  return drafts;
}

/** Verbs that exchange one currency or asset of a wallet for another. */
const EXCHANGE_VERBS: ReadonlySet<string> = new Set(["convert", "exchange", "swap"]);
/** Verbs that send money out of a wallet to someone outside it. */
const SEND_VERBS: ReadonlySet<string> = new Set(["send", "transfer", "pay", "remit", "spend"]);

/**
 * Money kept as one number per currency or asset in a map (`wallet.balances: {"EUR": 120.5}`),
 * given the key as an argument: a deposit-like verb adds the amount under it (a key the map
 * lacks starts at zero), a withdraw- or send-like verb takes it away and refuses more than there
 * is; an exchange (`convert(from_currency, to_currency, amount)`) takes the amount from one key
 * and adds it, at the rate a cross-rate table of the state gives for the pair, to the other.
 * Wise's multi-currency balances (`POST /balance-movements`), Revolut Business's accounts per
 * currency (`POST /exchange`) and Coinbase's wallets per asset work so.
 */
export function balanceMapMove(ctx: Context): { drafts: Draft[]; alone: boolean } | undefined {
  const verb = ctx.facts.verb ?? ctx.facts.words[0] ?? "";
  const amount = amountParamOf(ctx);
  const map = balanceMap(ctx);
  if (!amount || !map) return undefined;
  const at = map.path.map((s) => JSON.stringify(s)).join(", ");
  const current = (key: string) => `($b := $lookup($entity(${at}), ${key}); $exists($b) ? $b : 0)`;
  const value = `$args.${identifier(amount.name)}`;
  const places = decimalsOf(map);
  const put = (entries: string) => ({
    kind: "update" as const,
    target: map.path.slice(0, -1).join("/") || ".",
    set: { [map.name]: { $expr: `$merge([$entity(${at}), ${entries}])` } },
  });
  if (EXCHANGE_VERBS.has(verb)) {
    const pair = exchangePair(ctx);
    const table = pair ? rateTable(ctx) : undefined;
    if (!pair || !table) return undefined;
    const [from, to] = [`$args.${identifier(pair.from.name)}`, `$args.${identifier(pair.to.name)}`];
    const rate = `$lookup($lookup($entity(${table.path.map((s) => JSON.stringify(s)).join(", ")}), ${from}), ${to})`;
    const noRate = addError(ctx, {
      code: "RATE_NOT_FOUND",
      status: 404,
      message: "No rate is known for that pair.",
      when: `The state's ${table.name} has no rate from ${pair.from.name} to ${pair.to.name}.`,
    });
    ctx.notes.push(
      `takes ${amount.name} from ${map.name} under ${pair.from.name} and adds it at the ${table.name} rate under ${pair.to.name}`,
    );
    return {
      alone: true,
      drafts: [
        {
          kind: "check",
          require: [{ expr: `$exists(${rate})`, error: noRate }, shortFor(ctx, current(from), value)],
        },
        put(
          `{${from}: $round(${current(from)} - ${value}, ${places}), ${to}: $round(${current(to)} + ${value} * ${rate}, ${places})}`,
        ),
        {
          kind: "respond",
          value: {
            $expr: `{"${pair.to.name}": ${to}, "${amount.name}": $round(${value} * ${rate}, ${places})}`,
          },
        },
      ],
    };
  }
  const sign = INCREASE_VERBS.has(verb) ? 1 : DECREASE_VERBS.has(verb) || SEND_VERBS.has(verb) ? -1 : 0;
  const key = sign === 0 ? undefined : keyArgument(ctx, amount);
  if (!key) return undefined;
  const named = `$args.${identifier(key.name)}`;
  const next = `$round(${current(named)} ${sign > 0 ? "+" : "-"} ${value}, ${places})`;
  ctx.notes.push(
    `${sign > 0 ? "adds" : "takes"} ${amount.name} ${sign > 0 ? "to" : "from"} ${map.name} under ${key.name}`,
  );
  return {
    // a send files what was sent where the tool names it (a transfer): this is only its money
    alone: false,
    drafts: [
      ...(sign < 0 ? [{ kind: "check" as const, require: [shortFor(ctx, current(named), value)] }] : []),
      put(`{${named}: ${next}}`),
      // read after the update: the balance as it now stands
      {
        kind: "respond",
        value: {
          $expr: `{"${key.name}": ${named}, "${singular(map.name)}": $lookup($entity(${at}), ${named})}`,
        },
      },
    ],
  };
}

/** The one map of numbers named for money (`balances`, `funds`), outside any collection. */
function balanceMap(ctx: Context): ValuesShape | undefined {
  const maps = ctx.shape.parts.filter(
    (p): p is ValuesShape =>
      p.kind === "values" &&
      p.valueType === "number" &&
      !p.path.includes("*") &&
      nameWords(p.name).some((w) => BALANCE_WORDS.test(w) || BALANCE_WORDS.test(singular(w))),
  );
  return maps.length === 1 ? maps[0] : undefined;
}

/** The one required text argument that is neither an id nor a party named by direction (`to_iban`). */
function keyArgument(ctx: Context, amount: Param): Param | undefined {
  const keys = ctx.facts.params.filter(
    (p) =>
      p !== amount &&
      p.required &&
      p.type === "string" &&
      !p.identifier &&
      !DIRECTION_WORDS.test(p.words[0] ?? "") &&
      !ctx.references.some((r) => r.param === p && r.collection.keyField !== undefined),
  );
  return keys.length === 1 ? keys[0] : undefined;
}

/** `from_currency` and `to_currency`: two required texts that differ only in their direction. */
function exchangePair(ctx: Context): { from: Param; to: Param } | undefined {
  const by = (word: RegExp) =>
    ctx.facts.params.find((p) => p.required && p.type === "string" && word.test(p.words[0] ?? ""));
  const from = by(/^(from|source|sell|base)$/);
  const to = by(/^(to|target|buy|quote|into)$/);
  if (!from || !to || from.words.slice(1).join("_") !== to.words.slice(1).join("_")) return undefined;
  return { from, to };
}

/** A collection of rows keyed by the codes its rows hold rates to: a cross-rate table. */
function rateTable(ctx: Context): CollectionShape | undefined {
  const tables = [...ctx.shape.collections.values()].filter((c) => {
    if (c.parent || c.container !== "map" || c.fields.size === 0) return false;
    const keys = new Set(c.keys);
    return [...c.fields.values()].every(
      (f) => keys.has(f.path) && (f.types.has("number") || f.types.has("integer")),
    );
  });
  return tables.length === 1 ? tables[0] : undefined;
}

/** The decimals money keeps in the map: two where no balance has more, else eight (assets). */
function decimalsOf(map: ValuesShape): number {
  const finer = map.values.some((v) => typeof v === "number" && Math.round(v * 100) !== v * 100);
  return finer ? 8 : 2;
}

function shortFor(ctx: Context, current: string, value: string): { expr: string; error: string } {
  const documented = ctx.facts.errors.find((e) => SHORT_WORDS.test(e.text));
  const error = documented ? use(ctx, documented) : addError(ctx, shortError("balance"));
  return { expr: `${current} >= ${value}`, error };
}
