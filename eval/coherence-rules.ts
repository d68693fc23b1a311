import { isObject, singular } from "./schema-values.js";
import { wordsOf } from "./tool-roles.js";

/**
 * What a coherent record is, written down as a reader of an API's answers takes it for
 * granted, without looking at how toolsim makes its answers:
 * - order: of two sibling fields named as the two ends of one span (min/max, start/end,
 *   from/to, check-in/check-out, departure/arrival, created/updated, issued/due, …), the low
 *   end is not after the high one (numbers, or dates);
 * - past: what already happened (created, updated, paid, sent, last login, …) is not after
 *   the simulated clock;
 * - count: a count beside the list it counts equals its length (at least its length when the
 *   answer is a page of a longer list);
 * - total: a subtotal is the sum of the amounts listed beside it, a total is that plus tax,
 *   shipping and fees, less discounts;
 * - range: a number stays in the range its description states ("0-100", "1 to 5", "out of
 *   10"), else in the one its name implies (ratings 0–5, percentages 0–100, probabilities
 *   0–1, ages 0–150, counts, amounts, prices, durations and sizes never negative);
 * - reference: an `*_id` whose collection is in the state names one of its entities.
 * Each rule reports every field it could judge, held or not, so what was checked is counted.
 */

export type Rule = "order" | "past" | "count" | "total" | "range" | "reference";
export const RULES: readonly Rule[] = ["order", "past", "count", "total", "range", "reference"];

export interface Finding {
  rule: Rule;
  field: string;
  held: boolean;
  detail: string;
}

export interface Context {
  /** The simulated clock when the answer was given (ISO date-time). */
  now: string;
  /** The state the answer was given in: collections of entities by key. */
  state: Record<string, unknown>;
}

/** Every finding of every rule on a result, with the schema that describes it (for stated ranges). */
export function checkResult(value: unknown, schema: unknown, context: Context): Finding[] {
  const findings: Finding[] = [];
  walk(value, isObject(schema) ? schema : {}, "", context, findings, 0);
  return findings;
}

function walk(
  value: unknown,
  schema: Record<string, unknown>,
  path: string,
  context: Context,
  findings: Finding[],
  depth: number,
): void {
  if (depth > 12) return;
  if (Array.isArray(value)) {
    const items = isObject(schema.items) ? schema.items : {};
    value.forEach((item, i) => {
      walk(item, items, `${path}[${i}]`, context, findings, depth + 1);
    });
    return;
  }
  if (!isObject(value)) return;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const at = (name: string) => (path ? `${path}.${name}` : name);
  findings.push(...orderFindings(value, at), ...countFindings(value, at), ...totalFindings(value, at));
  for (const [name, field] of Object.entries(value)) {
    const fieldSchema = isObject(properties[name]) ? properties[name] : {};
    findings.push(...pastFindings(name, field, at(name), context.now));
    findings.push(...rangeFindings(name, field, fieldSchema, at(name)));
    findings.push(...referenceFindings(name, field, at(name), context.state));
    walk(field, fieldSchema, at(name), context, findings, depth + 1);
  }
}

// ── order ───────────────────────────────────────────────────────────────────

/** The two ends of a span, as words of a field name. */
const SPANS: ReadonlyArray<readonly [string, string]> = [
  ["min", "max"],
  ["minimum", "maximum"],
  ["low", "high"],
  ["lowest", "highest"],
  ["lower", "upper"],
  ["start", "end"],
  ["starts", "ends"],
  ["begin", "end"],
  ["from", "to"],
  ["from", "until"],
  ["earliest", "latest"],
  ["first", "last"],
  ["oldest", "newest"],
  ["in", "out"],
  ["departure", "arrival"],
  ["depart", "arrive"],
  ["created", "updated"],
  ["created", "modified"],
  ["opened", "closed"],
  ["issued", "due"],
  ["issued", "expires"],
  ["issue", "expiry"],
  ["pickup", "dropoff"],
];

function orderFindings(record: Record<string, unknown>, at: (name: string) => string): Finding[] {
  const findings: Finding[] = [];
  const names = Object.keys(record);
  const worded = names.map((name) => ({ name, words: wordsOf(name) }));
  for (const low of worded)
    for (const [lowWord, highWord] of SPANS) {
      const index = low.words.indexOf(lowWord);
      if (index < 0) continue;
      const wanted = low.words.map((w, i) => (i === index ? highWord : w)).join(" ");
      const high = worded.find((other) => other.words.join(" ") === wanted);
      if (!high) continue;
      const a = comparable(record[low.name]);
      const b = comparable(record[high.name]);
      if (a === undefined || b === undefined || a.kind !== b.kind) continue;
      findings.push({
        rule: "order",
        field: `${at(low.name)} ≤ ${high.name}`,
        held: a.value <= b.value,
        detail: `${JSON.stringify(record[low.name])} and ${JSON.stringify(record[high.name])}`,
      });
    }
  return findings;
}

/** A number, or a date (by its time): what two ends of a span can be compared as. */
function comparable(value: unknown): { kind: "number" | "time"; value: number } | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return { kind: "number", value };
  const time = timeOf(value);
  return time === undefined ? undefined : { kind: "time", value: time };
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

// ── past ────────────────────────────────────────────────────────────────────

const HAPPENED = new Set([
  "created",
  "updated",
  "modified",
  "completed",
  "processed",
  "submitted",
  "registered",
  "deleted",
  "logged",
  "recorded",
  "detected",
  "occurred",
  "executed",
  "finished",
  "published",
  "posted",
  "joined",
  "paid",
  "sent",
  "received",
  "delivered",
  "shipped",
  "cancelled",
  "canceled",
  "approved",
  "verified",
  "validated",
  "generated",
  "calculated",
  "measured",
  "analyzed",
  "analysed",
  "last",
]);
const AHEAD = new Set([
  "next",
  "due",
  "expires",
  "expiry",
  "expiration",
  "until",
  "scheduled",
  "estimated",
  "planned",
  "projected",
  "target",
  "deadline",
  "eta",
  "upcoming",
  "future",
  "renewal",
]);

function pastFindings(name: string, value: unknown, field: string, now: string): Finding[] {
  const words = wordsOf(name);
  if (!words.some((w) => HAPPENED.has(w)) || words.some((w) => AHEAD.has(w))) return [];
  const time = timeOf(value);
  const clock = Date.parse(now);
  if (time === undefined || Number.isNaN(clock)) return [];
  return [{ rule: "past", field, held: time <= clock, detail: `${String(value)} against the clock ${now}` }];
}

// ── count ───────────────────────────────────────────────────────────────────

const COUNT_WORDS = new Set(["count", "total", "num", "number", "n"]);
// a bare "total" is as often a sum of money as a count: it is judged as a bill's total, not as a count
const GENERIC_COUNTS = new Set(["count", "total count", "num results", "result count", "total results"]);
const PAGING = /page|limit|offset|cursor|has_?more|next|per_?page/i;

function countFindings(record: Record<string, unknown>, at: (name: string) => string): Finding[] {
  const lists = Object.entries(record).filter((entry): entry is [string, unknown[]] =>
    Array.isArray(entry[1]),
  );
  if (lists.length === 0) return [];
  const paged = Object.keys(record).some((k) => PAGING.test(k));
  const findings: Finding[] = [];
  for (const [name, value] of Object.entries(record)) {
    if (typeof value !== "number" || !Number.isInteger(value)) continue;
    const words = wordsOf(name);
    if (!words.some((w) => COUNT_WORDS.has(w))) continue;
    const counted = words
      .filter((w) => !COUNT_WORDS.has(w) && w !== "of")
      .map(singular)
      .join(" ");
    const list =
      lists.find(([listName]) => counted !== "" && wordsOf(listName).map(singular).join(" ") === counted) ??
      (lists.length === 1 && GENERIC_COUNTS.has(words.join(" ")) ? lists[0] : undefined);
    if (!list) continue;
    const length = list[1].length;
    findings.push({
      rule: "count",
      field: at(name),
      held: paged ? value >= length : value === length,
      detail: `${value} for ${length} ${list[0]}${paged ? " (a page)" : ""}`,
    });
  }
  return findings;
}

// ── totals ──────────────────────────────────────────────────────────────────

const EXTRA_WORDS = new Set(["tax", "taxes", "shipping", "fee", "fees", "handling", "tip", "surcharge"]);
const DEDUCTION_WORDS = new Set(["discount", "discounts", "savings", "rebate", "credit"]);

function totalFindings(record: Record<string, unknown>, at: (name: string) => string): Finding[] {
  const lines = Object.entries(record).find(
    ([name, value]) =>
      Array.isArray(value) &&
      value.length > 0 &&
      !wordsOf(name).some((w) => ["id", "ids", "quantity", "quantities", "count"].includes(w)) &&
      value.every((item) => lineAmount(item) !== undefined),
  );
  const sum = lines
    ? (lines[1] as unknown[]).reduce<number>((n, item) => n + (lineAmount(item) ?? 0), 0)
    : undefined;
  const findings: Finding[] = [];
  const subtotalName = Object.keys(record).find(
    (n) => wordsOf(n).join("") === "subtotal" && typeof record[n] === "number",
  );
  const subtotal = subtotalName === undefined ? undefined : (record[subtotalName] as number);
  if (subtotalName && subtotal !== undefined && sum !== undefined && lines)
    findings.push({
      rule: "total",
      field: at(subtotalName),
      held: Math.abs(subtotal - sum) <= 0.011,
      detail: `${subtotal} for ${lines[0]} adding up to ${round(sum)}`,
    });
  const base = subtotal ?? sum;
  if (base === undefined) return findings;
  let adjustment = 0;
  for (const [name, value] of Object.entries(record)) {
    if (typeof value !== "number") continue;
    const words = wordsOf(name);
    if (words.some((w) => EXTRA_WORDS.has(w)) && !words.includes("rate")) adjustment += value;
    if (words.some((w) => DEDUCTION_WORDS.has(w)) && !words.includes("rate")) adjustment -= value;
  }
  for (const [name, value] of Object.entries(record)) {
    const words = wordsOf(name);
    if (typeof value !== "number" || (words[0] !== "total" && words.join(" ") !== "grand total")) continue;
    if (
      words.length > 2 ||
      (words.length === 2 &&
        !["amount", "cost", "price", "due", "total", "value"].includes(words[1] as string))
    )
      continue;
    findings.push({
      rule: "total",
      field: at(name),
      held: Math.abs(value - (base + adjustment)) <= 0.011,
      detail: `${value} for ${round(base)} plus extras less deductions = ${round(base + adjustment)}`,
    });
  }
  return findings;
}

/** What a line of a bill comes to: a number, its amount, or its quantity times its unit price. */
function lineAmount(item: unknown): number | undefined {
  if (typeof item === "number") return item;
  if (!isObject(item)) return undefined;
  for (const key of ["line_total", "amount", "total", "subtotal"])
    if (typeof item[key] === "number") return item[key];
  const quantity = item.quantity ?? item.qty;
  const unit = item.unit_price ?? item.price;
  if (typeof quantity === "number" && typeof unit === "number") return quantity * unit;
  for (const key of ["price", "cost", "value", "fee"]) if (typeof item[key] === "number") return item[key];
  return undefined;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

// ── ranges ──────────────────────────────────────────────────────────────────

const SIGNED = new Set([
  "change",
  "delta",
  "difference",
  "diff",
  "growth",
  "variance",
  "net",
  "balance",
  "profit",
  "return",
  "returns",
  "gain",
  "loss",
  "offset",
  "adjustment",
  "pnl",
  "temperature",
  "temp",
  "latitude",
  "longitude",
  "lat",
  "lng",
  "lon",
  "elevation",
  "score",
  "sentiment",
  "correlation",
]);
const NEVER_NEGATIVE = new Set([
  "count",
  "num",
  "quantity",
  "qty",
  "amount",
  "price",
  "cost",
  "fee",
  "duration",
  "size",
  "length",
  "distance",
  "weight",
  "height",
  "width",
  "days",
  "hours",
  "minutes",
  "seconds",
  "ms",
  "age",
]);

function rangeFindings(
  name: string,
  value: unknown,
  schema: Record<string, unknown>,
  field: string,
): Finding[] {
  if (typeof value !== "number") return [];
  // a schema bound is the output schema's to check; the words only speak where it is silent
  if (
    ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].some((k) => typeof schema[k] === "number")
  )
    return [];
  const description = typeof schema.description === "string" ? schema.description.toLowerCase() : "";
  const range = statedRange(description) ?? impliedRange(wordsOf(name), description);
  if (!range) return [];
  const [low, high] = range;
  return [
    {
      rule: "range",
      field,
      held: value >= low && value <= high,
      detail: `${value} against ${low} to ${high === Number.POSITIVE_INFINITY ? "∞" : high}`,
    },
  ];
}

/** "0-100", "1 to 5", "between 0 and 1", "out of 10" in a description. */
export function statedRange(description: string): [number, number] | undefined {
  const outOf = /\bout of (\d+(?:\.\d+)?)\b/.exec(description);
  if (outOf?.[1]) return [0, Number(outOf[1])];
  const between = /\bbetween (-?\d+(?:\.\d+)?) and (-?\d+(?:\.\d+)?)\b/.exec(description);
  const span = /(?:^|[\s(])(-?\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(-?\d+(?:\.\d+)?)(?=[\s),.%]|$)/.exec(
    description,
  );
  const match = between ?? span;
  if (!match?.[1] || !match[2]) return undefined;
  const low = Number(match[1]);
  const high = Number(match[2]);
  // years ("1990-2020") and backwards spans describe something else than the value's range
  if (!(low < high) || (low >= 1000 && high <= 2200 && Number.isInteger(low) && Number.isInteger(high)))
    return undefined;
  return [low, high];
}

function impliedRange(words: readonly string[], description: string): [number, number] | undefined {
  if (words.some((w) => SIGNED.has(w))) return undefined;
  // "Number of predictions above the confidence threshold" counts; its name may say confidence
  if (/\b(number|count) of\b/.test(description)) return [0, Number.POSITIVE_INFINITY];
  if (words.some((w) => ["rating", "ratings", "stars"].includes(w))) return [0, 5];
  if (words.some((w) => ["percent", "percentage", "pct"].includes(w))) return [0, 100];
  if (
    words.some((w) => ["probability", "likelihood", "confidence"].includes(w)) &&
    // a count of low-confidence items or a confidence interval's end is not a probability
    !words.some((w) => ["count", "num", "number", "interval", "total"].includes(w)) &&
    !/%|percent/.test(description)
  )
    return [0, 1];
  if (words.includes("age")) return [0, 150];
  if (words.some((w) => NEVER_NEGATIVE.has(w)) || /\b(number|count) of\b/.test(description))
    return [0, Number.POSITIVE_INFINITY];
  return undefined;
}

// ── references ──────────────────────────────────────────────────────────────

function referenceFindings(
  name: string,
  value: unknown,
  field: string,
  state: Record<string, unknown>,
): Finding[] {
  if (typeof value !== "string") return [];
  const words = wordsOf(name);
  if (words.length < 2 || words.at(-1) !== "id") return [];
  const noun = words.slice(0, -1).join("_");
  const collection = [`${noun}s`, `${noun}es`, `${noun.replace(/y$/, "")}ies`, noun]
    .map((candidate) => state[candidate])
    .find(isObject);
  if (!collection) return [];
  return [
    {
      rule: "reference",
      field,
      held: Object.hasOwn(collection, value),
      detail: `${value} among ${Object.keys(collection).length} entities`,
    },
  ];
}
