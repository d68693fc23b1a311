import { performance } from "node:perf_hooks";
import { importSynthTools, type JsonSchema, type StateDocument } from "../src/catalog/index.js";
import { isPlainObject } from "../src/patch/index.js";
import { OfflineSimulator, synthesize } from "../src/simulate/index.js";
import { readSynthTools } from "../src/sources/index.js";
import { State } from "../src/state/index.js";

/**
 * Are synthesized results coherent? For every SynthTools tool with an output schema, the
 * offline engine answers a few synthesized calls; each answer is checked against rules a
 * reader of the result would take for granted, and violations are counted per rule:
 * - order: min ≤ max, low ≤ high, start ≤ end, from ≤ to, earliest ≤ latest, check-in ≤
 *   check-out, departure ≤ arrival, created ≤ updated, … (siblings, numbers or dates);
 * - past: timestamps of things that happened (created, updated, completed, …) are not
 *   after the simulated clock;
 * - count: a count beside a list (total_items / items, count / the only list) equals its
 *   length;
 * - total: a total beside a list of amounts (or of items with an amount) is their sum;
 * - range: numbers within the range their description states ("0-100", "1 to 5", "out of
 *   10"), or failing that the range their name implies (ratings 0–5, percentages 0–100,
 *   probabilities and confidences 0–1, ages 0–120, never negative counts, amounts,
 *   durations or sizes);
 * - reference: an `*_id` whose collection exists in the state names an entity of it.
 * The state given to each tool has a small collection for every `*_id` of its output.
 * Synthesis time is measured alone, in µs per result.
 */

const NOW = "2026-03-02T09:00:00Z";
const SEEDS = [1, 2, 3];
type Rule = "order" | "past" | "count" | "total" | "range" | "reference";
const RULES: readonly Rule[] = ["order", "past", "count", "total", "range", "reference"];

export function coherenceSection(dir: string) {
  const tools = importSynthTools(readSynthTools(dir).source)
    .toolsets.flatMap((t) => t.tools)
    .filter((t) => t.outputSchema);
  const tally = Object.fromEntries(RULES.map((r) => [r, { checked: 0, violated: 0 }])) as Record<
    Rule,
    { checked: number; violated: number }
  >;
  const examples: Array<{ tool: string; rule: Rule; field: string; detail: string }> = [];
  const simulator = new OfflineSimulator();
  let results = 0;
  const toolsWithViolations = new Set<string>();
  for (const tool of tools) {
    const schema = tool.outputSchema as JsonSchema;
    const document = referenceState(schema);
    const state = State.fromDocument(structuredClone(document));
    for (const seed of SEEDS) {
      // the calls name entities of the state, as an agent's calls would
      const args = synthesize(tool.inputSchema, { seed, now: NOW, state }) as Record<string, unknown>;
      results++;
      const outcome = simulator.respondNow({
        tool,
        args,
        state,
        effects: { status: "none" },
        history: [],
        seed: String(seed),
        now: NOW,
      });
      if (outcome.kind !== "success") continue;
      check(outcome.result, schema, document, (rule, field, violated, detail) => {
        tally[rule].checked++;
        if (!violated) return;
        tally[rule].violated++;
        toolsWithViolations.add(tool.name);
        if (examples.filter((e) => e.rule === rule).length < 5)
          examples.push({ tool: tool.name, rule, field, detail });
      });
    }
  }
  return {
    tools: tools.length,
    results,
    microsecondsPerSynthesis: synthesisTime(tools),
    toolsWithViolations: toolsWithViolations.size,
    rules: tally,
    examples,
  };
}

/**
 * Synthesis alone, in µs per result: every output schema with every seed, a warm-up round,
 * then the median of five rounds (other work on the machine moves single rounds a lot).
 */
function synthesisTime(tools: ReadonlyArray<{ name: string; outputSchema?: JsonSchema }>): number {
  const states = tools.map((tool) => State.fromDocument(referenceState(tool.outputSchema as JsonSchema)));
  const round = () => {
    const started = performance.now();
    tools.forEach((tool, i) => {
      for (const seed of SEEDS)
        synthesize(tool.outputSchema as JsonSchema, {
          seed,
          now: NOW,
          toolWords: tool.name.split("_"),
          state: states[i],
        });
    });
    return ((performance.now() - started) * 1000) / (tools.length * SEEDS.length);
  };
  round();
  const rounds = Array.from({ length: 5 }, round).sort((a, b) => a - b);
  return Math.round((rounds[2] ?? 0) * 10) / 10;
}

type Report = (rule: Rule, field: string, violated: boolean, detail: string) => void;

function check(value: unknown, schema: JsonSchema, state: StateDocument, report: Report, path = ""): void {
  if (Array.isArray(value)) {
    const items = isPlainObject(schema.items) ? (schema.items as JsonSchema) : {};
    for (const [i, item] of value.entries()) check(item, items, state, report, `${path}[${i}]`);
    return;
  }
  if (!isPlainObject(value)) return;
  const properties = isPlainObject(schema.properties)
    ? (schema.properties as Record<string, JsonSchema>)
    : {};
  checkOrder(value, path, report);
  checkCounts(value, path, report);
  checkTotals(value, path, report);
  for (const [name, field] of Object.entries(value)) {
    const fieldSchema = properties[name] ?? {};
    const where = path ? `${path}.${name}` : name;
    checkPast(name, field, where, report);
    checkRange(name, field, fieldSchema, where, report);
    checkReference(name, field, state, where, report);
    check(field, fieldSchema, state, report, where);
  }
}

// ── order of siblings ───────────────────────────────────────────────────────

const ORDERED: ReadonlyArray<[string, string]> = [
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
];

function checkOrder(record: Record<string, unknown>, path: string, report: Report): void {
  const names = Object.keys(record);
  for (const name of names) {
    const words = name.toLowerCase().split(/[_\s]+/);
    for (const [low, high] of ORDERED) {
      const at = words.indexOf(low);
      if (at < 0) continue;
      const partner = names.find((n) => sameWith(n, words, at, high));
      if (!partner) continue;
      const a = comparable(record[name]);
      const b = comparable(record[partner]);
      if (a === undefined || b === undefined || typeof a !== typeof b) continue;
      report(
        "order",
        `${path}${name}/${partner}`,
        a > b,
        `${String(record[name])} > ${String(record[partner])}`,
      );
    }
  }
}

function sameWith(candidate: string, words: string[], at: number, replacement: string): boolean {
  const other = candidate.toLowerCase().split(/[_\s]+/);
  return (
    other.length === words.length && other.every((w, i) => (i === at ? w === replacement : w === words[i]))
  );
}

function comparable(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const time = Date.parse(value);
    return Number.isNaN(time) ? undefined : time;
  }
  return undefined;
}

// ── things that happened are in the past ────────────────────────────────────

const HAPPENED =
  /(^|_)(created|updated|modified|completed|processed|generated|submitted|registered|deleted|logged|recorded|analy[sz]ed|calculated|measured|detected|occurred|executed|finished|ended|last|validated|verified|checked|received|sent|published|posted|joined|paid|timestamp)(_|$)/;

function checkPast(name: string, value: unknown, where: string, report: Report): void {
  const lower = name.toLowerCase();
  if (!HAPPENED.test(lower) || /(next|due|expir|until|scheduled|estimated|projected|planned)/.test(lower))
    return;
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return;
  report("past", where, time > Date.parse(NOW), `${value} is after ${NOW}`);
}

// ── counts and totals beside lists ──────────────────────────────────────────

function checkCounts(record: Record<string, unknown>, path: string, report: Report): void {
  const lists = Object.entries(record).filter(([, v]) => Array.isArray(v)) as Array<[string, unknown[]]>;
  for (const [name, value] of Object.entries(record)) {
    if (typeof value !== "number" || !Number.isInteger(value)) continue;
    const words = name.toLowerCase().split("_");
    const list =
      lists.find(([listName]) => countsList(words, listName.toLowerCase())) ??
      (lists.length === 1 &&
      /^(count|total|total_count|item_count|num_items|number_of_items|size|length)$/.test(name.toLowerCase())
        ? lists[0]
        : undefined);
    if (!list) continue;
    const paged = Object.keys(record).some((k) =>
      /page|limit|offset|cursor|has_more|next/.test(k.toLowerCase()),
    );
    const length = list[1].length;
    report(
      "count",
      `${path}${name}`,
      paged ? value < length : value !== length,
      `${value} for ${length} ${list[0]}`,
    );
  }
}

function countsList(words: string[], list: string): boolean {
  const counted = words.filter((w) => !["total", "count", "num", "number", "of", "n"].includes(w)).join("_");
  const hasCountWord = words.some((w) => ["total", "count", "num", "number"].includes(w));
  return (
    hasCountWord && counted !== "" && (counted === list || `${counted}s` === list || counted === `${list}s`)
  );
}

const AMOUNT = /^(amount|price|cost|total|subtotal|value|line_total|sum|fee)$/;
const EXTRA =
  /^(tax|tax_amount|taxes|shipping|shipping_cost|shipping_fee|fee|fees|service_fee|handling|handling_fee|tip)$/;
const DEDUCTION = /^(discount|discount_amount|discounts|savings)$/;

/** A subtotal is the sum of the amounts listed beside it; a total is the subtotal (or that sum) plus extras, less deductions. */
function checkTotals(record: Record<string, unknown>, path: string, report: Report): void {
  const names = Object.keys(record);
  const summable = Object.entries(record).filter(
    ([name, v]) =>
      Array.isArray(v) &&
      v.length > 0 &&
      !/(quantit|count|qty|number|id)/.test(name.toLowerCase()) &&
      v.every((item) => amountOf(item) !== undefined),
  );
  const amounts =
    summable.find(([name]) => /(amount|cost|price|value|fee|charge|payment)/.test(name.toLowerCase())) ??
    summable.find(([name]) => /(line|item|entries|breakdown)/.test(name.toLowerCase()));
  const listSum = amounts
    ? (amounts[1] as unknown[]).reduce<number>((sum, item) => sum + (amountOf(item) ?? 0), 0)
    : undefined;
  const subtotalName = names.find(
    (n) => /^sub_?total$/.test(n.toLowerCase()) && typeof record[n] === "number",
  );
  const subtotal = subtotalName === undefined ? undefined : (record[subtotalName] as number);
  if (subtotalName !== undefined && subtotal !== undefined && listSum !== undefined)
    report(
      "total",
      `${path}${subtotalName}`,
      Math.abs(listSum - subtotal) > 0.011,
      `${subtotal} for items summing to ${listSum}`,
    );
  let extras = 0;
  for (const name of names) {
    const value = record[name];
    if (typeof value !== "number") continue;
    if (EXTRA.test(name.toLowerCase())) extras += value;
    if (DEDUCTION.test(name.toLowerCase())) extras -= value;
  }
  const base = subtotal ?? listSum;
  if (base === undefined) return;
  for (const name of names) {
    const value = record[name];
    if (
      typeof value !== "number" ||
      !/^(total|grand_total|total_(amount|cost|price|value|due))$/.test(name.toLowerCase())
    )
      continue;
    const expected = base + extras;
    report(
      "total",
      `${path}${name}`,
      Math.abs(expected - value) > 0.011,
      `${value} for ${expected} (subtotal or items, plus extras)`,
    );
  }
}

function amountOf(item: unknown): number | undefined {
  if (typeof item === "number") return item;
  if (!isPlainObject(item)) return undefined;
  const quantity = item.quantity ?? item.qty;
  const unit = item.unit_price ?? item.price;
  if (typeof quantity === "number" && typeof unit === "number" && !("amount" in item) && !("total" in item))
    return quantity * unit;
  const key = Object.keys(item).find((k) => AMOUNT.test(k.toLowerCase()) && typeof item[k] === "number");
  return key === undefined ? undefined : (item[key] as number);
}

// ── plausible ranges ────────────────────────────────────────────────────────

function checkRange(name: string, value: unknown, schema: JsonSchema, where: string, report: Report): void {
  if (typeof value !== "number") return;
  if (typeof schema.minimum === "number" || typeof schema.maximum === "number") return; // the schema decides
  const lower = name.toLowerCase();
  const description = typeof schema.description === "string" ? schema.description.toLowerCase() : "";
  const range = statedRange(description) ?? impliedRange(lower, description);
  if (!range) return;
  const [low, high] = range;
  report("range", where, value < low || value > high, `${value} outside ${low}–${high}`);
}

function statedRange(description: string): [number, number] | undefined {
  const out = description.match(/\bout of (\d+(?:\.\d+)?)\b/);
  if (out?.[1]) return [0, Number(out[1])];
  const span = description.match(
    /(?:^|[\s(])(-?\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(-?\d+(?:\.\d+)?)(?=[\s),.%]|$)|\bbetween (-?\d+(?:\.\d+)?) and (-?\d+(?:\.\d+)?)\b/,
  );
  if (!span) return undefined;
  const low = Number(span[1] ?? span[3]);
  const high = Number(span[2] ?? span[4]);
  if (!(low < high) || (low >= 1900 && high <= 2100)) return undefined; // not a range of values, or years
  return [low, high];
}

function impliedRange(name: string, description: string): [number, number] | undefined {
  if (/(^|_)(rating|ratings|stars|star_rating)($|_)/.test(name)) return [0, 5];
  if (/(percent|percentage|pct)/.test(name)) return [0, 100];
  if (/(^|_)(count|num|number)($|_)/.test(name) || /\b(number|count) of\b/.test(description))
    return [0, Number.POSITIVE_INFINITY];
  if (
    /(^|_)(probability|likelihood|confidence)($|_)/.test(name) &&
    !/interval|%|percent/.test(`${name} ${description}`)
  )
    return [0, 1];
  if (/(^|_)age($|_)/.test(name)) return [0, 120];
  if (
    /(^|_)(count|total|num|number|quantity|qty|amount|price|cost|duration|size|length|distance|days|hours|minutes|seconds|ms)($|_)/.test(
      name,
    ) &&
    !/(change|delta|difference|growth|variance|net|balance|profit|return|gain|loss|offset|adjustment)/.test(
      name,
    )
  )
    return [0, Number.POSITIVE_INFINITY];
  return undefined;
}

// ── references into the state ───────────────────────────────────────────────

function checkReference(
  name: string,
  value: unknown,
  state: StateDocument,
  where: string,
  report: Report,
): void {
  if (typeof value !== "string") return;
  const collection = collectionOf(name, state);
  if (!collection) return;
  report("reference", where, !(value in collection), `${value} is not a key of the collection`);
}

/** "order_id" → "order", "customerId" → "customer"; undefined for names that are not ids. */
function stemOfId(name: string): string | undefined {
  return name.match(/^(.+?)(_id|Id|ID)$/)?.[1]?.toLowerCase();
}

function collectionOf(name: string, state: StateDocument): Record<string, unknown> | undefined {
  const stem = stemOfId(name);
  if (!stem) return undefined;
  for (const candidate of [`${stem}s`, `${stem}es`, stem.replace(/y$/, "ies")]) {
    const collection = state[candidate];
    if (isPlainObject(collection)) return collection;
  }
  return undefined;
}

/** A state with a small collection for every `*_id` the output schema names. */
function referenceState(schema: JsonSchema): StateDocument {
  const state: StateDocument = {};
  const visit = (node: unknown) => {
    if (!isPlainObject(node)) return;
    const properties = isPlainObject(node.properties) ? node.properties : {};
    for (const [name, sub] of Object.entries(properties)) {
      const stem = stemOfId(name);
      if (stem && isPlainObject(sub) && sub.type === "string") {
        const prefix = stem.slice(0, 3).toUpperCase();
        state[`${stem}s`] = Object.fromEntries(
          [1001, 1002, 1003].map((n) => [`${prefix}-${n}`, { [`${stem}_id`]: `${prefix}-${n}` }]),
        );
      }
      visit(sub);
    }
    visit(node.items);
  };
  visit(schema);
  return state;
}
