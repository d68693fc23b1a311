import { addError, type Context, humanNoun, use } from "./context.js";
import type { Draft } from "./drafts.js";
import { statusField } from "./fields.js";
import { bindingName, identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";
import { recordTarget } from "./targets.js";
import { nameWords, sameNoun, singular } from "./words.js";

/**
 * Numbers a record keeps of what is left of it (seats, copies, days off): taken by a record made
 * from it or by a change whose description says so, given back when the record that took one
 * is removed.
 */

/**
 * A record that took one of what another keeps count of (an enrollment a course's
 * `seats_left`, a loan a book's `copies_available`) gives it back when it is removed: Shopify
 * restocks a cancelled order's items, Amadeus frees a cancelled booking's seats, and a
 * dropped course frees its seat.
 */
export function stockReturned(ctx: Context, collection: CollectionShape): Draft[] {
  const binding = bindingName(collection);
  const drafts: Draft[] = [];
  for (const link of collection.fields.values()) {
    const held =
      link.refersTo && !link.path.includes(".") ? ctx.shape.collections.get(link.refersTo) : undefined;
    if (!held || held === collection || held.parent) continue;
    const stock = stockFieldOf(held);
    const target = stock ? recordTarget(ctx, held, `{$${binding}.${identifier(link.path)}}`) : undefined;
    if (!stock || !target) continue;
    ctx.notes.push(
      `gives one back to ${held.name}.${stock} of the ${humanNoun(singular(held.name))} its ${link.path} names`,
    );
    drafts.push({ kind: "update", target, inc: { [stock]: 1 } });
  }
  return drafts;
}

/**
 * A record that holds one of what another counts (a loan of a book whose `copies_available`
 * count the copies on the shelf), and keeps no status of its own: returning it ends it.
 */
export function holdsStock(ctx: Context, collection: CollectionShape): boolean {
  if (statusField(collection)) return false;
  return [...collection.fields.values()].some((link) => {
    const held =
      link.refersTo && !link.path.includes(".") ? ctx.shape.collections.get(link.refersTo) : undefined;
    return held !== undefined && held !== collection && stockFieldOf(held) !== undefined;
  });
}

/** The one number of a record that says how many of it are left (`seats_left`, `copies_available`). */
function stockFieldOf(collection: CollectionShape): string | undefined {
  const stock = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.size === 1 &&
      (f.types.has("number") || f.types.has("integer")) &&
      nameWords(f.path).some((w) => STOCK.test(w)),
  );
  return stock.length === 1 ? stock[0]?.path : undefined;
}

/** A number of a record that says how many of it are left to take (`bookable_seats`, `stock`). */
const STOCK = /^(stock|inventory|available|remaining|in_stock|bookable|left|free|vacant)$/;

/**
 * A record made from another that keeps how many are left (an order of an offer with
 * bookable seats, a ticket of an event with `tickets_remaining`) takes its quantity from
 * it (the `quantity`-like argument, else one), refused when too few are left: Amadeus's
 * `numberOfBookableSeats`, Shopify's inventory on an order, Eventbrite's ticket classes.
 */
export function stockTaken(
  ctx: Context,
  reference: Reference,
  target: string,
  missing: string | undefined,
): Draft | undefined {
  const field = stockFieldOf(reference.collection);
  if (!field) return undefined;
  // where another tool's docs say it takes from that field (approving a request takes the days),
  // making the record takes nothing yet
  if (
    ctx
      .siblings()
      .some((s) => s.tool !== ctx.facts.tool && statedTake(s.text, reference.collection)?.field === field)
  )
    return undefined;
  const quantity = ctx.facts.params.find(
    (p) =>
      (p.type === "integer" || p.type === "number") &&
      /^(quantity|qty|count|seats|tickets|number_of_\w+|num_\w+)$/.test(p.name),
  );
  const amount = quantity ? `{${quantity.name}}` : 1;
  const what = nameWords(field).join(" ");
  // "No rooms left.", "not enough seats": what is left runs out (not money: that is a balance's error)
  const documented = ctx.facts.errors.find(
    (e) =>
      /sold out|out of stock|fully booked|no (more )?(seats|tickets|stock|rooms|units|spots|places)|not enough (seats|tickets|stock|rooms|units|spots|places)|\bno (more )?(\w+ ){1,4}(left|remaining)\b|unavailable|no longer available/i.test(
        e.text,
      ) && !/\b(funds?|balance|money|credit|wallet)\b/i.test(e.text),
  );
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${nameWords(singular(reference.collection.name)).join("_").toUpperCase()}_SOLD_OUT`,
        status: 409,
        message: `Not enough ${what.replace(/ (left|remaining|available)$/, "")} left.`,
        when: `The ${humanNoun(reference.collection.name)} has fewer ${what} than the call takes (inferred from its ${field}).`,
      });
  ctx.notes.push(
    `takes ${quantity ? quantity.name : "one"} from ${reference.collection.name}.${field} (${error})`,
  );
  return {
    kind: "update",
    target,
    ...(missing ? { missing } : {}),
    require: [{ field, gte: amount, error }],
    inc: { [field]: quantity ? { $expr: `-$args.${identifier(quantity.name)}` } : -1 },
  };
}

/**
 * "The days are taken from the employee's days left": what of the record the description says
 * is taken from (or added to) a number of the record it refers to, by the words of both.
 */
function statedTake(
  text: string,
  holder: CollectionShape,
): { what: string; field: string; sign: 1 | -1 } | undefined {
  const said =
    /\b(?:the |its )?([a-z ]{2,30}?) (?:are|is) (taken|deducted|subtracted|added|credited) (?:from|to) (?:the |its )?([a-z ]{2,30}?)(?:'s|’s) ([a-z ]{2,40}?)(?:[.,;]|$)/.exec(
      text.toLowerCase(),
    );
  if (!said || !sameNoun(said[3] ?? "", nameWords(singular(holder.name)).join("_"))) return undefined;
  const words = (said[4] ?? "").trim().replace(/ /g, "_");
  const field = [...holder.fields.values()].find(
    (f) => !f.path.includes(".") && nameWords(f.path).join("_") === words && f.types.has("number"),
  );
  if (!field) return undefined;
  return {
    what: (said[1] ?? "").trim(),
    field: field.path,
    sign: /^(added|credited)$/.test(said[2] ?? "") ? 1 : -1,
  };
}

/**
 * A change whose description says what of its record is taken from a number of the record it
 * refers to ("approve a request: the days are taken from the employee's days left") moves that
 * number by the record's own field of those words, refusing more than there is: HR systems'
 * approved leave (BambooHR, Personio) drawing on a balance, a fulfilled order drawing on stock,
 * an accepted expense on a budget.
 */
export function takenFromHolder(ctx: Context, collection: CollectionShape, binding: string): Draft[] {
  return [...collection.fields.values()].flatMap((link): Draft[] => {
    const holder =
      link.refersTo && !link.path.includes(".") ? ctx.shape.collections.get(link.refersTo) : undefined;
    const take = holder ? statedTake(ctx.facts.text, holder) : undefined;
    const amount = take ? fieldNamedBy(collection, take.what) : undefined;
    const target =
      holder && amount ? recordTarget(ctx, holder, `{$${binding}.${identifier(link.path)}}`) : undefined;
    if (!holder || !take || !amount || !target) return [];
    const moved = `$${binding}.${identifier(amount)}`;
    const what = nameWords(take.field).join(" ");
    const error = addError(ctx, {
      code: `INSUFFICIENT_${nameWords(take.field).join("_").toUpperCase()}`,
      status: 409,
      message: `The ${humanNoun(singular(holder.name))}'s ${what} do not cover it.`,
      when: `The ${what} of the ${humanNoun(singular(holder.name))} are fewer than the ${amount} (inferred from the tool's description).`,
    });
    ctx.notes.push(
      `${take.sign < 0 ? "takes" : "adds"} its ${amount} ${take.sign < 0 ? "from" : "to"} ${holder.name}.${take.field} of the record its ${link.path} names`,
    );
    return [
      {
        kind: "update",
        target,
        ...(take.sign < 0
          ? { require: [{ expr: `$subject.${identifier(take.field)} >= ${moved}`, error }] }
          : {}),
        inc: { [take.field]: { $expr: take.sign < 0 ? `-${moved}` : moved } },
      },
    ];
  });
}

function fieldNamedBy(collection: CollectionShape, words: string): string | undefined {
  const wanted = words.replace(/ /g, "_");
  return [...collection.fields.values()].find(
    (f) => !f.path.includes(".") && (f.types.has("number") || f.types.has("integer")) && f.path === wanted,
  )?.path;
}
