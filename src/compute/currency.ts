import { isPlainObject } from "../patch/index.js";
import { type Computed, computed, failed } from "./computed.js";

/**
 * Currency conversion, offline and deterministic. Rates come from the session state when
 * it has them (see `ratesFromState`), otherwise from a fixed table of approximate rates:
 * a simulation must answer the same amount for the same call, never a live quote.
 */

/** Units of each currency that one US dollar buys: a fixed snapshot, rounded, not a live quote. */
const PER_USD: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 150,
  CNY: 7.2,
  INR: 83,
  CAD: 1.36,
  AUD: 1.52,
  NZD: 1.64,
  CHF: 0.88,
  HKD: 7.8,
  SGD: 1.34,
  SEK: 10.5,
  NOK: 10.6,
  DKK: 6.9,
  PLN: 4,
  CZK: 23,
  HUF: 360,
  RUB: 92,
  TRY: 32,
  MXN: 17,
  BRL: 5,
  ARS: 870,
  CLP: 950,
  COP: 3900,
  ZAR: 18.5,
  EGP: 48,
  NGN: 1500,
  KES: 130,
  KRW: 1330,
  TWD: 32,
  THB: 36,
  IDR: 15700,
  MYR: 4.7,
  PHP: 56,
  VND: 24500,
  PKR: 280,
  BDT: 110,
  AED: 3.6725,
  SAR: 3.75,
  ILS: 3.7,
};

/** Names people write for currencies (lower case, singular), to their ISO 4217 code. */
const NAMES: Readonly<Record<string, string>> = {
  dollar: "USD",
  "us dollar": "USD",
  "u.s. dollar": "USD",
  "american dollar": "USD",
  $: "USD",
  euro: "EUR",
  "€": "EUR",
  pound: "GBP",
  "pound sterling": "GBP",
  "british pound": "GBP",
  sterling: "GBP",
  "£": "GBP",
  yen: "JPY",
  "japanese yen": "JPY",
  "¥": "JPY",
  yuan: "CNY",
  renminbi: "CNY",
  rmb: "CNY",
  "chinese yuan": "CNY",
  rupee: "INR",
  "indian rupee": "INR",
  "₹": "INR",
  "canadian dollar": "CAD",
  "australian dollar": "AUD",
  "new zealand dollar": "NZD",
  "swiss franc": "CHF",
  franc: "CHF",
  "hong kong dollar": "HKD",
  "singapore dollar": "SGD",
  "swedish krona": "SEK",
  "norwegian krone": "NOK",
  "danish krone": "DKK",
  zloty: "PLN",
  "polish zloty": "PLN",
  "czech koruna": "CZK",
  forint: "HUF",
  ruble: "RUB",
  rouble: "RUB",
  "russian ruble": "RUB",
  lira: "TRY",
  "turkish lira": "TRY",
  peso: "MXN",
  "mexican peso": "MXN",
  real: "BRL",
  "brazilian real": "BRL",
  rand: "ZAR",
  "south african rand": "ZAR",
  won: "KRW",
  "korean won": "KRW",
  "south korean won": "KRW",
  baht: "THB",
  "thai baht": "THB",
  rupiah: "IDR",
  ringgit: "MYR",
  dirham: "AED",
  riyal: "SAR",
  shekel: "ILS",
  "new shekel": "ILS",
};

/** Exchange rates: `rate(from, to)` is how many `to` one `from` buys. */
export interface RateTable {
  /** Directly known pairs, "FROM>TO" → rate. */
  readonly pairs: ReadonlyMap<string, number>;
}

/** The ISO 4217 code a text names ("usd", "US Dollars", "€"), or undefined when it names no currency. */
export function currencyCode(text: string, known: ReadonlySet<string> = KNOWN): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Za-z]{3}$/.test(trimmed) && known.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  const words = trimmed.toLowerCase().split(/\s+/);
  // "pounds sterling", "US dollars": plural words become singular, but not "swiss" or "us"
  const singular = words.map((w) => (w.length > 3 && /[^su]s$/.test(w) ? w.slice(0, -1) : w));
  return NAMES[words.join(" ")] ?? NAMES[singular.join(" ")];
}

const KNOWN: ReadonlySet<string> = new Set(Object.keys(PER_USD));

/** Whether a text names a currency the built-in table or the given rates know. */
export function isCurrency(text: string, rates?: RateTable): boolean {
  return currencyCode(text, knownCodes(rates)) !== undefined;
}

/**
 * Converts an amount between currencies. State rates win: a pair the state knows
 * (directly, inverted, or through one currency both sides are quoted against) is used as
 * is; otherwise the built-in table.
 */
export function convertCurrency(amount: number, from: string, to: string, rates?: RateTable): Computed {
  if (typeof amount !== "number" || !Number.isFinite(amount))
    return failed(`the amount to convert must be a finite number, got ${JSON.stringify(amount)}`);
  const known = knownCodes(rates);
  const source = currencyCode(from, known);
  const target = currencyCode(to, known);
  if (!source || !target) {
    const unknown = source ? to : from;
    return failed(
      `unknown currency ${JSON.stringify(unknown)}: use an ISO 4217 code such as ${[...known].slice(0, 6).join(", ")}`,
    );
  }
  const rate = (rates && rateIn(rates.pairs, source, target)) ?? builtInRate(source, target);
  if (rate === undefined) return failed(`no exchange rate from ${source} to ${target}`);
  return computed(amount * rate);
}

function builtInRate(from: string, to: string): number | undefined {
  const a = PER_USD[from];
  const b = PER_USD[to];
  return a === undefined || b === undefined ? undefined : b / a;
}

function rateIn(pairs: ReadonlyMap<string, number>, from: string, to: string): number | undefined {
  const direct = pairRate(pairs, from, to);
  if (direct !== undefined) return direct;
  for (const via of codesOf(pairs)) {
    const first = pairRate(pairs, from, via);
    const second = first === undefined ? undefined : pairRate(pairs, via, to);
    if (first !== undefined && second !== undefined) return first * second;
  }
  return undefined;
}

function pairRate(pairs: ReadonlyMap<string, number>, from: string, to: string): number | undefined {
  if (from === to) return 1;
  const direct = pairs.get(`${from}>${to}`);
  if (direct !== undefined) return direct;
  const inverse = pairs.get(`${to}>${from}`);
  return inverse ? 1 / inverse : undefined;
}

function codesOf(pairs: ReadonlyMap<string, number>): Set<string> {
  const codes = new Set<string>();
  for (const key of pairs.keys()) for (const code of key.split(">")) codes.add(code);
  return codes;
}

function knownCodes(rates?: RateTable): ReadonlySet<string> {
  if (!rates || rates.pairs.size === 0) return KNOWN;
  return new Set([...KNOWN, ...codesOf(rates.pairs)]);
}

/** Collections of the state that hold exchange rates, in the order they are looked for. */
export const RATE_COLLECTIONS = ["exchange_rates", "currency_rates", "rates"] as const;

/**
 * The exchange rates a session state holds, or undefined. The first of `exchange_rates`,
 * `currency_rates`, `rates` that is an object is read; each entity is one of:
 * - keyed by a currency code, a number or `{rate}`: units of that currency per one unit of
 *   the entity's `base` (default USD): `"EUR": 0.92` or `"EUR": {"rate": 0.92, "base": "USD"}`;
 * - keyed by a pair, `"EUR/USD"`, `"EUR_USD"`, `"EUR-USD"`, `"EUR>USD"` or `"EURUSD"`, a
 *   number or `{rate}`: units of the second per one unit of the first;
 * - any key, `{from, to, rate}` (also `base`/`quote`, `source`/`target`).
 */
export function ratesFromState(
  state: StateReader | Readonly<Record<string, unknown>> | undefined,
): RateTable | undefined {
  if (!state) return undefined;
  const collection = RATE_COLLECTIONS.map((name) => collectionIn(state, name)).find(isPlainObject);
  if (!collection) return undefined;
  const cached = tables.get(collection);
  if (cached) return cached.table;
  const pairs = new Map<string, number>();
  const base = baseOf(collection);
  for (const [key, entity] of Object.entries(collection)) {
    const row = rowOf(key, entity);
    for (const [to, rate] of row) pairs.set(`${key.toUpperCase()}>${to}`, rate);
    const pair = row.length > 0 ? undefined : pairOf(key, entity, base);
    if (pair) pairs.set(`${pair.from}>${pair.to}`, pair.rate);
  }
  const table = pairs.size > 0 ? { pairs } : undefined;
  tables.set(collection, { table });
  return table;
}

/** A state that hands out collections (the persistent state does), rather than a plain document. */
export interface StateReader {
  collection(name: string): { toJSON(): Record<string, unknown> } | undefined;
}

/** Rate tables per collection object: a collection version never changes, so it is read once. */
const tables = new WeakMap<object, { table: RateTable | undefined }>();

function collectionIn(state: StateReader | Readonly<Record<string, unknown>>, name: string): unknown {
  if (typeof (state as StateReader).collection === "function")
    return (state as StateReader).collection(name)?.toJSON();
  return (state as Record<string, unknown>)[name];
}

/**
 * The currency a table of codes to plain numbers is quoted against: the one code it quotes at
 * exactly 1, as reference-rate tables list their own base (`{"EUR": 1, "USD": 1.08}`); USD
 * where no single code is.
 */
function baseOf(collection: Record<string, unknown>): string {
  const ones = Object.entries(collection).filter(([key, value]) => value === 1 && /^[A-Za-z]{3}$/.test(key));
  return ones.length === 1 && ones[0] ? ones[0][0].toUpperCase() : "USD";
}

/**
 * A row of a cross-rate table: one code's rates to the others by their codes
 * (`"EUR": {"USD": 1.1, "GBP": 0.85}`), as cross-rate matrices and the ECB's and Open Exchange
 * Rates' per-base tables list them.
 */
function rowOf(key: string, entity: unknown): Array<[string, number]> {
  if (!/^[A-Za-z]{3}$/.test(key) || !isPlainObject(entity)) return [];
  const entries = Object.entries(entity);
  const row = entries.filter(
    (entry): entry is [string, number] =>
      /^[A-Za-z]{3}$/.test(entry[0]) && typeof entry[1] === "number" && entry[1] > 0,
  );
  return row.length > 0 && row.length === entries.length
    ? row.map(([to, rate]) => [to.toUpperCase(), rate])
    : [];
}

function pairOf(
  key: string,
  entity: unknown,
  base: string,
): { from: string; to: string; rate: number } | undefined {
  const record = isPlainObject(entity) ? entity : {};
  const rate = typeof entity === "number" ? entity : numberIn(record, ["rate", "value", "exchange_rate"]);
  if (rate === undefined || !(rate > 0)) return undefined;
  const from = codeIn(record, ["from", "base", "source", "from_currency", "base_currency"]);
  const to = codeIn(record, ["to", "quote", "target", "to_currency", "target_currency", "currency"]);
  if (from && to) return { from, to, rate };
  const split = key.toUpperCase().match(/^([A-Z]{3})[/_\->:]?([A-Z]{3})$/);
  if (split?.[1] && split[2]) return { from: split[1], to: split[2], rate };
  if (/^[A-Za-z]{3}$/.test(key)) return { from: from ?? base, to: key.toUpperCase(), rate };
  return undefined;
}

function numberIn(record: Record<string, unknown>, names: string[]): number | undefined {
  for (const name of names) if (typeof record[name] === "number") return record[name] as number;
  return undefined;
}

function codeIn(record: Record<string, unknown>, names: string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === "string" && /^[A-Za-z]{3}$/.test(value)) return value.toUpperCase();
  }
  return undefined;
}
