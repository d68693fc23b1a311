import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape, FieldShape } from "./shape.js";
import { recordTarget } from "./targets.js";
import { nameWords } from "./words.js";

/**
 * Paying from a stored balance. A tool that says it charges a record its arguments name (a
 * card, a wallet, an account holding a `balance`) takes the price from that balance, and
 * refuses more than there is where the tool documents that; a tool that says it refunds
 * gives the price of the record it changes back to the record that paid for it. Stripe's
 * customer balance, PayPal's wallet and the gift cards of Shopify and Square pay for a
 * purchase from a stored balance, and their refunds go back to the method that paid.
 */

const CHARGE_WORDS = /\b(charge[sd]?|charging|pays?|paid|paying|debit(s|ed)?|deduct(s|ed)?|bill(s|ed)?)\b/i;
const REFUND_WORDS = /\b(refund(s|ed)?|credited back|paid back)\b/i;
const PRICE_WORDS = /^(price|amount|cost|total|fare|fee|sum|charge)$/;
const BALANCE_WORDS = /^(balance|funds|credit|cash|wallet)$/;
const SHORT_WORDS = /insufficient|not enough|does not cover|doesn't cover|exceeds|too (low|little)/;

/** The one balance of a collection's records, where they hold one. */
function balanceOf(collection: CollectionShape): FieldShape | undefined {
  const found = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") && f.types.has("number") && nameWords(f.path).some((w) => BALANCE_WORDS.test(w)),
  );
  return found.length === 1 ? found[0] : undefined;
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
): Draft | undefined {
  if (reference.many || !CHARGE_WORDS.test(ctx.facts.text)) return undefined;
  const balance = balanceOf(reference.collection);
  const price = priceParam(ctx);
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
    ...(short ? { require: [{ field: balance.path, gte: `{${price.name}}`, error: short.code }] } : {}),
    inc: { [balance.path]: { $expr: `-$args.${identifier(price.name)}` } },
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
    const payer = f.refersTo ? ctx.shape.collections.get(f.refersTo) : undefined;
    const balance = payer ? balanceOf(payer) : undefined;
    return payer && balance && !f.path.includes(".") ? [{ field: f, payer, balance }] : [];
  });
  if (payers.length !== 1) return undefined;
  const { field, payer, balance } = payers[0] as (typeof payers)[number];
  const price = (prices[0] as FieldShape).path;
  const target = recordTarget(ctx, payer, `{$${binding}.${field.path}}`);
  if (!target) return undefined;
  ctx.notes.push(`refunds ${price} to ${payer.name}.${balance.path} of the ${field.path} that paid`);
  return {
    kind: "update",
    target,
    inc: { [balance.path]: { $expr: `$${binding}.${identifier(price)}` } },
  };
}

const ORIGINAL_METHOD = /\boriginal (payment )?(method|card|source|account|tender)\b/i;
const METHOD_WORDS = /^(payment|method|card|source|tender|instrument)$/;

/**
 * A refund goes back to the method that paid. Where a documented error says the method must
 * be the original one, an argument naming a payment method must name one of those the
 * record's payments were made with, or be of the one other kind the error allows ("or a gift
 * card", where the methods keep their kind in a field). Stripe refunds only to the charge's
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

/** The kind the error allows besides the original ("… or a gift card"), where the methods say their kind. */
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
  const first = collection.path.findIndex((s) => s === "*");
  const head = first < 0 ? collection.path : collection.path.slice(0, first);
  const rest = first < 0 ? [] : collection.path.slice(first);
  const tail = rest.map((s) => (s === "*" ? ".*" : `.${identifier(s)}`)).join("");
  return `$entity(${head.map((s) => JSON.stringify(s)).join(", ")})${tail}`;
}

const LIMIT_WORDS = /^(budget|limit|cap|allowance)$/;

/**
 * A spending limit a record keeps (`spend_cap`, `monthly_limit`) bounds the price a tool
 * takes, where the tool documents the error for going past it ("above the spend cap"): Stripe
 * Issuing's spending controls, Brex and Ramp budgets, AWS Budgets actions.
 */
export function spendingLimit(ctx: Context): Draft[] {
  const price = priceParam(ctx);
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
            expr: `$type(${bound}) = "number" ? $args.${identifier(price.name)} <= ${bound} : true`,
            error: error.code,
          },
        ],
      },
    ];
  }
  return [];
}
