import type { JsonSchema } from "../catalog/index.js";

/**
 * Rules that make the fields of one synthesized object agree with each other, as a reader
 * of a real API's answer takes for granted:
 * - order: min ≤ max, low ≤ high, start ≤ end, from ≤ to, earliest ≤ latest, check-in ≤
 *   check-out, departure ≤ arrival, created ≤ updated, issued ≤ due… (numbers or dates);
 * - counts: `total_items`, `item_count`, `num_items`… (or `count` beside the only list)
 *   equal the length of the list they count (at least it, when the object pages);
 * - totals: a line's total is quantity × unit price; a subtotal is the sum of the list of
 *   amounts beside it; a total is the subtotal plus tax, shipping and fees, less discounts.
 * Values that came from somewhere else (`fixed`: the state, the call's arguments) are never
 * changed; a value is only changed when the new one still fits its own schema.
 */

interface Plan {
  /** [lower, upper] field names that must be in that order. */
  order: Array<[string, string]>;
  /** [count field, list field, paged]. */
  counts: Array<[string, string, boolean]>;
  /** The subtotal field, and the list of amounts it sums when there is one. */
  subtotal?: [string, string | undefined];
  /** The total field, and the list it sums when there is no subtotal. */
  total?: [string, string | undefined];
  /** Additions and deductions a total includes beside its subtotal: [field, sign]. */
  extras: Array<[string, 1 | -1]>;
  /** A line total that is quantity × unit price: [total field, quantity field, unit price field]. */
  line?: [string, string, string];
}

const ORDERED: ReadonlyArray<readonly [string, string]> = [
  ["min", "max"],
  ["minimum", "maximum"],
  ["low", "high"],
  ["lowest", "highest"],
  ["lower", "upper"],
  ["start", "end"],
  ["begin", "end"],
  ["from", "to"],
  ["earliest", "latest"],
  ["oldest", "newest"],
  ["first", "last"],
  ["in", "out"],
  ["departure", "arrival"],
  ["created", "updated"],
  ["created", "modified"],
  ["opened", "closed"],
  ["issued", "due"],
  ["issued", "expires"],
  ["start", "finish"],
];

const COUNT_WORDS = new Set(["total", "count", "num", "number", "of", "n"]);
const PAGING = /page|limit|offset|cursor|has_more|next/;
const MONEY_LIST = /(amount|cost|price|value|fee|charge|payment)/;
const ITEM_LIST = /(line|item|entries|breakdown)/;
const NOT_AMOUNTS = /(quantit|count|qty|number|id)/;
const ITEM_AMOUNT = /^(amount|price|cost|total|subtotal|value|line_total|sum|fee)$/;

const plans = new WeakMap<object, Plan>();
const EMPTY_PLAN: Plan = { order: [], counts: [], extras: [] };

/** The fields of `record` made coherent in place; `properties` is its object schema's properties. */
export function cohere(
  record: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
  fixed: ReadonlySet<string> = NO_FIXED,
): void {
  const plan = planOf(properties);
  if (plan === EMPTY_PLAN) return;
  const free = (name: string) => !fixed.has(name) && name in record;
  if (plan.line) {
    const [total, quantity, unit] = plan.line;
    const q = record[quantity];
    const p = record[unit];
    if (free(total) && typeof q === "number" && typeof p === "number")
      assign(record, properties, total, money(q * p));
  }
  for (const [count, list, paged] of plan.counts) {
    const items = record[list];
    const value = record[count];
    if (!free(count) || !Array.isArray(items) || typeof value !== "number") continue;
    if (paged ? value < items.length : value !== items.length)
      assign(record, properties, count, items.length);
  }
  const base = subtotalOf(record, properties, plan, free);
  if (plan.total && base !== undefined && free(plan.total[0]))
    assign(record, properties, plan.total[0], money(base + extrasOf(record, plan.extras)));
  for (const [low, high] of plan.order) order(record, properties, low, high, fixed);
}

const NO_FIXED: ReadonlySet<string> = new Set();

/** What a total adds its extras to: the subtotal (summed from its list first), or the total's own list. */
function subtotalOf(
  record: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
  plan: Plan,
  free: (name: string) => boolean,
): number | undefined {
  if (!plan.subtotal) return plan.total?.[1] === undefined ? undefined : sumOf(record[plan.total[1]]);
  const [field, list] = plan.subtotal;
  const sum = list === undefined ? undefined : sumOf(record[list]);
  if (sum !== undefined && free(field)) assign(record, properties, field, money(sum));
  const value = record[field];
  return typeof value === "number" ? value : undefined;
}

function planOf(properties: Record<string, JsonSchema>): Plan {
  const cached = plans.get(properties);
  if (cached) return cached;
  const names = Object.keys(properties);
  if (names.length === 0) return EMPTY_PLAN; // not remembered: such objects are made afresh on every call
  const type = (name: string) => (properties[name] as JsonSchema | undefined)?.type;
  const numeric = (name: string) => type(name) === "number" || type(name) === "integer";
  const lists = names.filter((n) => type(n) === "array");
  const plan: Plan = { order: [], counts: [], extras: [] };
  const paged = names.some((n) => PAGING.test(n.toLowerCase()));
  for (const name of names) {
    const words = wordsOf(name);
    for (const [low, high] of ORDERED) {
      const at = words.indexOf(low);
      if (at < 0) continue;
      const partner = names.find((n) => {
        const other = wordsOf(n);
        return (
          other.length === words.length && other.every((w, i) => (i === at ? w === high : w === words[i]))
        );
      });
      if (partner) plan.order.push([name, partner]);
    }
    if (type(name) === "integer" || (type(name) === "number" && /count|num/.test(name.toLowerCase()))) {
      const list =
        lists.find((l) => counts(words, wordsOf(l).join("_"))) ??
        (lists.length === 1 &&
        /^(count|total|total_count|item_count|num_items|number_of_items)$/.test(name.toLowerCase())
          ? lists[0]
          : undefined);
      if (list) plan.counts.push([name, list, paged]);
    }
  }
  const amounts = amountList(lists, properties);
  for (const name of names) {
    const lower = name.toLowerCase();
    if (!numeric(name)) continue;
    if (/^(sub_?total|subtotal_amount)$/.test(lower)) plan.subtotal ??= [name, amounts];
    else if (/^(total|grand_total|total_(amount|cost|price|value|due))$/.test(lower))
      plan.total ??= [name, amounts];
    else if (
      /^(tax|tax_amount|taxes|shipping|shipping_cost|shipping_fee|fee|fees|service_fee|handling|handling_fee|tip)$/.test(
        lower,
      )
    )
      plan.extras.push([name, 1]);
    else if (/^(discount|discount_amount|discounts|savings)$/.test(lower)) plan.extras.push([name, -1]);
  }
  // a total with neither a list nor a subtotal to add up is left as it is
  if (plan.total && plan.total[1] === undefined && !plan.subtotal) delete plan.total;
  const quantity = names.find((n) => /^(quantity|qty|units|count)$/.test(n.toLowerCase()) && numeric(n));
  const unit = names.find(
    (n) => /^(unit_price|price_per_unit|unit_cost|price)$/.test(n.toLowerCase()) && numeric(n),
  );
  const line = names.find(
    (n) => /^(line_total|total|total_price|subtotal|amount)$/.test(n.toLowerCase()) && numeric(n),
  );
  if (quantity && unit && line && line !== unit) {
    plan.line = [line, quantity, unit];
    if (plan.total?.[0] === line) delete plan.total;
    if (plan.subtotal?.[0] === line) delete plan.subtotal;
  }
  const empty =
    !plan.line && !plan.total && !plan.subtotal && plan.order.length === 0 && plan.counts.length === 0;
  plans.set(properties, empty ? EMPTY_PLAN : plan);
  return empty ? EMPTY_PLAN : plan;
}

/** The list a subtotal sums: of numbers or objects, named for money first (`item_amounts`), then for items. */
function amountList(lists: string[], properties: Record<string, JsonSchema>): string | undefined {
  const summable = lists.filter((l) => {
    const items = properties[l]?.items as JsonSchema | undefined;
    const type = items?.type;
    return (
      (type === undefined || type === "number" || type === "integer" || type === "object") &&
      !NOT_AMOUNTS.test(l.toLowerCase())
    );
  });
  return (
    summable.find((l) => MONEY_LIST.test(l.toLowerCase())) ??
    summable.find((l) => ITEM_LIST.test(l.toLowerCase()))
  );
}

function counts(words: string[], list: string): boolean {
  const counted = words.filter((w) => !COUNT_WORDS.has(w)).join("_");
  return (
    words.some((w) => COUNT_WORDS.has(w) && w !== "of") &&
    counted !== "" &&
    (counted === list || `${counted}s` === list || counted === `${list}s` || `${counted}es` === list)
  );
}

function sumOf(list: unknown): number | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  let sum = 0;
  for (const item of list) {
    const amount = amountOf(item);
    if (amount === undefined) return undefined;
    sum += amount;
  }
  return sum;
}

function amountOf(item: unknown): number | undefined {
  if (typeof item === "number") return item;
  if (item === null || typeof item !== "object" || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  const key = Object.keys(record).find(
    (k) => ITEM_AMOUNT.test(k.toLowerCase()) && typeof record[k] === "number",
  );
  if (key !== undefined) return record[key] as number;
  const quantity = record.quantity ?? record.qty;
  const price = record.unit_price ?? record.price;
  return typeof quantity === "number" && typeof price === "number" ? quantity * price : undefined;
}

function extrasOf(record: Record<string, unknown>, extras: Plan["extras"]): number {
  let sum = 0;
  for (const [name, sign] of extras) {
    const value = record[name];
    if (typeof value === "number") sum += sign * value;
  }
  return sum;
}

/** Puts `low` before `high`: swaps two free values, or moves the free one onto the fixed one. */
function order(
  record: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
  low: string,
  high: string,
  fixed: ReadonlySet<string>,
): void {
  const a = record[low];
  const b = record[high];
  const x = comparable(a);
  const y = comparable(b);
  if (x === undefined || y === undefined || typeof a !== typeof b || x <= y) return;
  if (typeof a === "string" && typeof b === "string" && a.length !== b.length) return; // a date and a date-time
  if (fixed.has(low) && fixed.has(high)) return;
  if (!fixed.has(low) && !fixed.has(high)) {
    if (fits(properties[low], b) && fits(properties[high], a)) {
      record[low] = b;
      record[high] = a;
    }
    return;
  }
  if (fixed.has(low)) assign(record, properties, high, a);
  else assign(record, properties, low, b);
}

function comparable(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const time = Date.parse(value);
    return Number.isNaN(time) ? undefined : time;
  }
  return undefined;
}

function assign(
  record: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
  name: string,
  value: unknown,
): void {
  const schema = properties[name];
  const fitted = schema?.type === "integer" && typeof value === "number" ? Math.round(value) : value;
  if (fits(schema, fitted)) record[name] = fitted;
}

/** Within the schema's own bounds and type, so coherence never makes a result invalid. */
function fits(schema: JsonSchema | undefined, value: unknown): boolean {
  if (!schema) return true;
  if (typeof value === "number") {
    if (schema.type === "integer" && !Number.isInteger(value)) return false;
    if (typeof schema.minimum === "number" && value < schema.minimum) return false;
    if (typeof schema.maximum === "number" && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) return false;
    if (
      typeof schema.multipleOf === "number" &&
      Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9
    )
      return false;
    return true;
  }
  return true;
}

function money(value: number): number {
  return Math.round(value * 100) / 100;
}

function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_\s-]+/)
    .filter(Boolean);
}
