import escapeRegExp from "escape-string-regexp";
import { addError, type Context, humanNoun, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { statusField } from "./fields.js";
import { identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";
import { nameWords, singular } from "./words.js";

/**
 * Arguments that bound a range (`start` and `end`, `check_in` and `check_out`, `min_price`
 * and `max_price`) must come in order where a documented error says so: the end after the
 * start. This is the `end must be after start` of Google Calendar's and Microsoft Graph's
 * events, the check-out after check-in of booking APIs, and `min <= max` of search filters.
 */

const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["start", "end"],
  ["begin", "end"],
  ["from", "to"],
  ["since", "until"],
  ["in", "out"],
  ["departure", "return"],
  ["min", "max"],
  ["minimum", "maximum"],
  ["low", "high"],
  ["first", "last"],
];

/** An error that speaks of order: after, before, earlier, later, greater, less, exceeds. */
const ORDER_WORDS =
  /\b(after|before|earlier|later|greater|less|exceeds?|precede|follows?)\b|\w\s*[<>]=?\s*\w/;

export function orderChecks(ctx: Context): Draft[] {
  const error = ctx.facts.errors.find((e) => e.kind !== "not-found" && ORDER_WORDS.test(e.text));
  if (!error) return [];
  for (const [low, high] of PAIRS) {
    const from = boundParam(ctx.facts.params, low);
    const to = boundParam(ctx.facts.params, high);
    if (!from || !to || from === to) continue;
    const text = error.text;
    // the bound's word (`end must be after start`) or the argument's own name (`range_end`)
    const bounds: ReadonlyArray<readonly [string, Param]> = [
      [low, from],
      [high, to],
    ];
    const spoken = bounds.every(
      ([w, p]) => new RegExp(`\\b${w}`).test(text) || text.includes(p.name.toLowerCase()),
    );
    if (!spoken) continue;
    const a = comparable(from);
    const b = comparable(to);
    // "INVALID_DATE_RANGE if start_date > end_date": equal bounds are allowed; ">=" refuses them
    const sign = new RegExp(`${escapeRegExp(from.name)}\\s*(>=?)\\s*${escapeRegExp(to.name)}`).exec(
      text,
    )?.[1];
    const strict = sign ? sign === ">=" : !/^(min|minimum|low|first)$/.test(low);
    ctx.notes.push(`requires ${to.name} ${strict ? "after" : "at least"} ${from.name} (${use(ctx, error)})`);
    return [
      {
        kind: "check",
        require: [
          {
            expr: `$not($exists($args.${identifier(from.name)}) and $exists($args.${identifier(to.name)})) or ${b} ${strict ? ">" : ">="} ${a}`,
            error: error.code,
          },
        ],
      },
    ];
  }
  return [];
}

/** The argument named by the bound word alone or with one more word (`start`, `start_time`, `check_in`). */
function boundParam(params: readonly Param[], word: string): Param | undefined {
  const found = params.filter((p) => {
    const words = nameWords(p.name);
    return words.includes(word) && words.length <= 2 && p.type !== "boolean" && p.type !== "array";
  });
  return found.length === 1 ? found[0] : undefined;
}

/** Times compare as instants; numbers as numbers. */
function comparable(param: Param): string {
  const arg = `$args.${identifier(param.name)}`;
  const format = typeof param.schema.format === "string" ? param.schema.format : "";
  const timeLike =
    /date|time/.test(format) || /date|time|at$|^(start|end|from|to|since|until)$/.test(param.name);
  return param.type === "string" && timeLike ? `$toMillis(${arg})` : arg;
}

/** Bound words of a span of time a record takes (`start`/`end`, `check_in`/`check_out`). */
const SPAN_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["start", "end"],
  ["begin", "end"],
  ["from", "to"],
  ["in", "out"],
];

/** A sentence saying a span may not be taken twice: "already booked", "overlaps", "any part of". */
const TAKEN_WORDS =
  /already (?:booked|reserved|taken)|overlap|conflict|double[- ]book|any part of|not available|unavailable|is busy/i;

interface Span {
  start: string;
  end: string;
  from: Param;
  to: Param;
}

/** The records' span fields and the arguments that give a span, by the same bound words. */
function spanOf(ctx: Context, collection: CollectionShape): Span | undefined {
  for (const [low, high] of SPAN_PAIRS) {
    const start = boundField(collection, low);
    const end = boundField(collection, high);
    const from = boundParam(ctx.facts.params, low);
    const to = boundParam(ctx.facts.params, high);
    if (start && end && from && to) return { start, end, from, to };
  }
  return undefined;
}

function boundField(collection: CollectionShape, word: string): string | undefined {
  const found = [...collection.fields.values()].filter((f) => {
    const words = nameWords(f.path);
    return !f.path.includes(".") && words.includes(word) && words.length <= 2 && f.types.has("string");
  });
  return found.length === 1 ? found[0]?.path : undefined;
}

/** The records of a collection in a list expression, whether kept in a map or an array. */
function recordsOf(collection: CollectionShape): string {
  const at = `$entity(${collection.path.map((s) => JSON.stringify(s)).join(", ")})`;
  return collection.container === "map" ? `$each(${at}, function($v) { $v })` : at;
}

/** The test that a record `$b` takes part of the span the arguments give, unless it was called off. */
function overlaps(collection: CollectionShape, span: Span): string {
  return [
    `$toMillis($b.${identifier(span.start)}) < $toMillis($args.${identifier(span.to.name)})`,
    `$toMillis($b.${identifier(span.end)}) > $toMillis($args.${identifier(span.from.name)})`,
    calledOffNot(collection),
  ].join(" and ");
}

/** The test that a record `$b` was not called off: one called off holds no time, whether its status was in the state or written by a cancel. */
function calledOffNot(collection: CollectionShape): string {
  const status = identifier(statusField(collection)?.path ?? "status");
  return `$not($exists($b.${status}) and $contains($string($b.${status}), /cancel|declin|reject|void|releas/i))`;
}

/**
 * A new record that takes a span of time of another (a booking of a room), where the
 * description says a span cannot be taken twice ("fails when the room is already booked for
 * any part of that time"): a record of the same holder whose span overlaps refuses it (a span
 * ending when the new one starts does not), with the documented error, else an added
 * `<HOLDER>_NOT_AVAILABLE`, 409. Google Calendar's resources decline overlapping events,
 * Microsoft Graph's room bookings report conflicts, and Calendly refuses a taken slot.
 */
export function overlapCheck(ctx: Context, collection: CollectionShape, holder: Reference): Draft[] {
  const span = spanOf(ctx, collection);
  const link = [...collection.fields.values()].find(
    (f) => f.refersTo === holder.collection.name && !f.path.includes("."),
  );
  if (!span && link) return slotCheck(ctx, collection, holder, link.path);
  if (!span || !link || !TAKEN_WORDS.test(ctx.facts.tool.description)) return [];
  const noun = nameWords(singular(holder.collection.name)).join(" ");
  const error = takenError(ctx, holder, {
    message: `The ${noun} is already taken for part of that time.`,
    when: `Another ${humanNoun(singular(collection.name))} of the ${noun} overlaps the time given (inferred from the tool's description).`,
  });
  ctx.notes.push(`refuses a span that overlaps another of the same ${noun} (${error})`);
  const taken = `$filter(${recordsOf(collection)}, function($b) { $b.${identifier(link.path)} = $args.${identifier(holder.param.name)} and ${overlaps(collection, span)} })`;
  return [{ kind: "check", require: [{ expr: `$count(${taken}) = 0`, error }] }];
}

/**
 * A new record that takes a holder at a point in time given as fields (a table at a date and
 * a time), where the description says the holder cannot be taken twice ("fails if the table
 * already has a reservation at that date and time"): a record of the same holder at the same
 * date and time, not called off, refuses it. OpenTable's and Resy's slots, a barber's
 * appointment times in Square Appointments, a court booked by the hour.
 */
function slotCheck(ctx: Context, collection: CollectionShape, holder: Reference, link: string): Draft[] {
  const description = ctx.facts.tool.description;
  if (!TAKEN_WORDS.test(description) && !/\balready (?:has|have|holds) an?\b/i.test(description)) return [];
  const slot = ctx.facts.params.filter((p) => {
    const field = collection.fields.get(p.name);
    const format = typeof p.schema.format === "string" ? p.schema.format : "";
    return (
      field !== undefined &&
      p.type === "string" &&
      (/^(date|time|date-time)$/.test(format) || /^(date|time|slot|start|start_time|starts_at)$/.test(p.name))
    );
  });
  const named = slot.filter((p) => new RegExp(`\\b${p.name}\\b`, "i").test(description));
  if (named.length === 0 || named.length !== slot.length) return [];
  const noun = nameWords(singular(holder.collection.name)).join(" ");
  const at = named.map((p) => p.name).join(" and ");
  const error = takenError(ctx, holder, {
    message: `The ${noun} is already taken at that ${at}.`,
    when: `Another ${humanNoun(singular(collection.name))} of the ${noun} has the ${at} given (inferred from the tool's description).`,
  });
  ctx.notes.push(`refuses a ${noun} already taken at the same ${at} (${error})`);
  const same = named.map((p) => `$b.${identifier(p.name)} = $args.${identifier(p.name)}`).join(" and ");
  const taken = `$filter(${recordsOf(collection)}, function($b) { $b.${identifier(link)} = $args.${identifier(holder.param.name)} and ${same} and ${calledOffNot(collection)} })`;
  return [{ kind: "check", require: [{ expr: `$count(${taken}) = 0`, error }] }];
}

/**
 * "DUPLICATE_SLOT (an entry already exists for the same day and time)": a documented error that
 * says a record with the same values of fields the call sets already exists refuses a new one
 * whose values match, as a unique constraint over several columns does: GitHub refuses a second
 * label of the same name in a repository, Google Calendar a second event of the same iCalUID,
 * and Stripe a second price with the same lookup key.
 */
export function sameFieldsCheck(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Draft[] {
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const text = error.text.replace(/[`*]/g, "");
    if (!/\b(?:already|duplicate|exists|taken|in use)\b/.test(text)) continue;
    const named = /\b(?:same|identical)\s+((?:[a-z_]+(?:\s*,\s*|\s+(?:and|&)\s+)?){1,4})/.exec(text)?.[1];
    const words = named?.split(/\s*,\s*|\s+(?:and|&)\s+/).filter((w) => w.length > 0) ?? [];
    const fields = words.map((w) =>
      [...collection.fields.keys()].find((f) => f === w || f === w.replace(/ /g, "_")),
    );
    if (fields.length === 0 || fields.some((f) => f === undefined || set[f] === undefined)) continue;
    const given = fields as string[];
    const same = given
      .map(
        (f) =>
          `$b.${identifier(f)} = ${JSON.stringify(set[f]).replace(/^"\{([^{}$]+)\}"$/, (_, a: string) => `$args.${identifier(a)}`)}`,
      )
      .join(" and ");
    if (/"\{/.test(same)) continue;
    ctx.notes.push(
      `refuses a second ${humanNoun(singular(collection.name))} with the same ${given.join(" and ")} (${error.code})`,
    );
    const taken = `$filter(${recordsOf(collection)}, function($b) { ${same} })`;
    return [{ kind: "check", require: [{ expr: `$count(${taken}) = 0`, error: use(ctx, error) }] }];
  }
  return [];
}

/** The documented error that says a holder is taken, else an added `<HOLDER>_NOT_AVAILABLE`, 409. */
function takenError(ctx: Context, holder: Reference, said: { message: string; when: string }): string {
  const documented = ctx.facts.errors.find((e) => e.kind !== "not-found" && TAKEN_WORDS.test(e.text));
  if (documented) return use(ctx, documented);
  const code = `${nameWords(singular(holder.collection.name)).join("_").toUpperCase()}_NOT_AVAILABLE`;
  return addError(ctx, { code, status: 409, ...said });
}

/**
 * A list of records another kind takes spans of, given a span, that asks for those with none
 * during it ("list the rooms with no booking during a time", "free", "available"): the records
 * no span of theirs overlaps. Google Calendar's `freeBusy`, Microsoft Graph's `findMeetingTimes`
 * and hotel availability searches (rooms with no stay in the dates).
 */
export function freeDuring(ctx: Context, named: CollectionShape | undefined): Draft[] | undefined {
  if (!named || named.parent) return undefined;
  if (!/\b(?:no|free|available|unbooked|vacant)\b/i.test(ctx.facts.tool.description)) return undefined;
  for (const taker of ctx.shape.collections.values()) {
    const link = [...taker.fields.values()].find((f) => f.refersTo === named.name && !f.path.includes("."));
    const span = link ? spanOf(ctx, taker) : undefined;
    const key = named.keyField;
    if (!link || !span || !key) continue;
    ctx.notes.push(
      `lists the ${named.name} no ${humanNoun(singular(taker.name))} takes during the span given`,
    );
    const busy = `$filter(${recordsOf(taker)}, function($b) { $b.${identifier(link.path)} = $r.${identifier(key)} and ${overlaps(taker, span)} })`;
    return [
      {
        kind: "respond",
        value: { $expr: `[$filter(${recordsOf(named)}, function($r) { $count(${busy}) = 0 })]` },
      },
    ];
  }
  return undefined;
}
