import escapeRegExp from "escape-string-regexp";
import { isPlainObject } from "../patch/index.js";
import type { Draft } from "./drafts.js";
import type { Param, ToolFacts } from "./facts.js";
import { nameWords, sentencesOf } from "./words.js";

/**
 * Arguments the docs say are normalised before anything else is done with them ("The code is
 * upper-cased", "tags are trimmed and lower-cased"): the call goes on with the normalised
 * value, as GitHub stores a label's name without its surrounding spaces, DNS and email
 * providers take host names in lower case, and currency and country APIs upper-case ISO codes
 * (Stripe's `currency` is lower-cased, Open Exchange Rates' symbols upper-cased).
 *
 * The drafts are written with the argument as given; the normalised value is bound once by a
 * `let` at the start, and every place that read the argument reads the binding instead.
 */

export type Normalisation = "trim" | "lowercase" | "uppercase";

const SAID: Record<Normalisation, RegExp> = {
  trim: /\btrimmed\b|\b(?:leading and trailing|surrounding) (?:white ?space|spaces) (?:is |are )?(?:removed|stripped|dropped)|\bwhite ?space (?:is )?(?:stripped|removed) from (?:both|either) ends?\b/i,
  // a verb, never the adjective of a format ("lowercase letters, digits and hyphens")
  lowercase:
    /\blower-?cased\b|\b(?:converted|normali[sz]ed|folded|changed|turned|made) (?:in)?to (?:trimmed )?lower ?case\b|\bstored in lower ?case\b/i,
  uppercase:
    /\bupper-?cased\b|\b(?:converted|normali[sz]ed|changed|turned|made) (?:in)?to (?:trimmed )?upper ?case\b|\bstored in upper ?case\b|\bcapitali[sz]ed in full\b/i,
};

/** Words that say the value is kept as it came: "stored as sent", "not trimmed". */
const KEPT_AS_GIVEN =
  /\b(?:not|never|no longer) (?:trimmed|lower-?cased|upper-?cased|normali[sz]ed)\b|\bas (?:sent|given|typed)\b/i;

/** "compared case-insensitively", "ignoring case", "regardless of case": a comparison, the value kept as sent. */
const CASELESS =
  /\bcase-?insensitive(?:ly)?\b|\b(?:ignoring|regardless of|irrespective of) (?:letter )?case\b|\bnot case-?sensitive\b/i;

/** The order the transforms apply in: spaces first, then case. */
const ORDER: readonly Normalisation[] = ["trim", "lowercase", "uppercase"];

/** What the docs say is done to each string argument first, and which are compared ignoring case. */
export interface ArgumentForms {
  normalised: Map<string, Normalisation[]>;
  caseless: Set<string>;
}

export function argumentForms(facts: ToolFacts): ArgumentForms {
  const forms: ArgumentForms = { normalised: new Map(), caseless: new Set() };
  // most tools say none of these words: their sentences are not split and sorted per argument
  const said = [facts.tool.description, ...facts.params.map((p) => p.description)].join(" ");
  if (![...Object.values(SAID), CASELESS].some((words) => words.test(said))) return forms;
  for (const [param, texts] of textsAbout(facts)) {
    const about = texts.filter((s) => !KEPT_AS_GIVEN.test(s));
    const found = ORDER.filter((kind) => about.some((s) => SAID[kind].test(s)));
    // "lower-cased" and "upper-cased" both said of one value: which one wins is not said
    const cased = found.filter((kind) => kind !== "trim");
    const kept = cased.length > 1 ? found.filter((kind) => kind === "trim") : found;
    if (kept.length > 0) forms.normalised.set(param, kept);
    if (texts.some((s) => CASELESS.test(s))) forms.caseless.add(param);
  }
  return forms;
}

/**
 * What the docs say of each string argument: its own description, and the tool's sentences
 * that name it (every sentence, when the tool takes one text).
 */
function textsAbout(facts: ToolFacts): Map<string, string[]> {
  const strings = facts.params.filter((p) => p.type === "string" && /^[a-z_][a-z0-9_]*$/.test(p.name));
  const sentences = sentencesOf(facts.tool.description);
  return new Map(
    strings.map((param) => [
      param.name,
      [param.description, ...sentences.filter((s) => strings.length === 1 || mentions(s, param))].filter(
        (s) => s !== "",
      ),
    ]),
  );
}

/** A sentence about the argument: its name, or the noun its name ends in ("The code is upper-cased"). */
function mentions(sentence: string, param: Param): boolean {
  const noun = nameWords(param.name).at(-1) ?? param.name;
  return new RegExp(`\\b(?:${escapeRegExp(param.name)}|${escapeRegExp(noun)}s?)\\b`, "i").test(sentence);
}

/** The binding a normalised argument is read from. */
function bindingOf(param: string): string {
  return `normalised_${param}`;
}

function expressionOf(param: string, kinds: readonly Normalisation[]): string {
  let value = `$args.${param}`;
  for (const kind of kinds) value = `$${kind}(${value})`;
  return value;
}

/**
 * The drafts with each normalised argument bound first and read from its binding; an output
 * named like the argument answers the normalised value (the code as stored, not as typed).
 */
export function withNormalisedArguments(
  facts: ToolFacts,
  drafts: readonly Draft[],
  normalised: ReadonlyMap<string, readonly Normalisation[]>,
): Draft[] {
  if (normalised.size === 0) return [...drafts];
  const names = [...normalised.keys()];
  const rewritten = drafts.map((draft) => mapStrings(draft, (text) => rewriteText(text, names)) as Draft);
  const answered = new Set(rewritten.flatMap((d) => (typeof d.output === "string" ? [d.output] : [])));
  const echoes: Draft[] = facts.outputs
    .filter((o) => normalised.has(o.name) && !answered.has(o.name))
    .map((o) => ({ kind: "respond", output: o.name, value: { $expr: `$${bindingOf(o.name)}` } }));
  const bound: Draft[] = [...normalised].map(([param, kinds]) => ({
    kind: "let",
    as: bindingOf(param),
    value: { $expr: expressionOf(param, kinds) },
  }));
  return [...bound, ...rewritten, ...echoes];
}

/** Every string below `value` (never an object's keys) changed by `change`. */
function mapStrings(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === "string") return change(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, change));
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, mapStrings(inner, change)]));
  return value;
}

function rewriteText(text: string, names: readonly string[]): string {
  let out = text;
  for (const name of names) {
    const escaped = escapeRegExp(name);
    // `$args.code` in an expression, `{code}` in a template
    const bound = `$${bindingOf(name)}`;
    out = out
      .replace(new RegExp(`\\$args\\.${escaped}(?![A-Za-z0-9_])`, "g"), () => bound)
      .replace(new RegExp(`\\{${escaped}\\}`, "g"), () => `{${bound}}`);
  }
  return out;
}

/** A list or a value in an expression: `$subject.tags`, `$entity("waiting")`, `$list`. */
const OPERAND = String.raw`\$[A-Za-z_][A-Za-z0-9_]*(?:\([^()]*\))?(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|\`[^\`]*\`))*`;

/** What folding the comparisons did: the drafts, the arguments now compared ignoring case, and what is still not. */
export interface Folded {
  drafts: Draft[];
  handled: Set<string>;
  gaps: string[];
}

/**
 * The drafts with each caseless argument compared ignoring case: "is it in the list" and "every
 * entry but it" fold both sides to lower case; what is stored stays as sent. An argument a
 * record is looked up by (a target's key) is not folded, and an answer that repeats an argument
 * an entry was matched by gives it as typed, where the entry may be spelled otherwise: both
 * stay gaps.
 */
export function withCaselessComparisons(drafts: readonly Draft[], caseless: ReadonlySet<string>): Folded {
  const handled = new Set<string>();
  if (caseless.size === 0) return { drafts: [...drafts], handled, gaps: [] };
  const matched = new Set<string>();
  const out = drafts.map(
    (draft) => mapStrings(draft, (value) => foldComparisons(value, caseless, handled, matched)) as Draft,
  );
  const targets = drafts.flatMap((d) => (typeof d.target === "string" ? [d.target] : [])).join(" ");
  for (const name of [...handled])
    if (targets.includes(`{${name}}`) || targets.includes(`{$${bindingOf(name)}}`)) handled.delete(name);
  const gaps = out.flatMap((draft) => {
    const echoed = draft.kind === "respond" ? echoedArgument(draft.value) : undefined;
    return echoed !== undefined && matched.has(echoed) && typeof draft.output === "string"
      ? [
          `answers ${draft.output} as typed, but ${echoed} is matched ignoring case: the stored entry may be spelled otherwise`,
        ]
      : [];
  });
  return { drafts: out, handled, gaps };
}

/** The argument a value repeats as it is (`$args.name`, or its normalised binding). */
function echoedArgument(value: unknown): string | undefined {
  const expression = isPlainObject(value) && typeof value.$expr === "string" ? value.$expr : undefined;
  const found = expression ? /^\$(?:args\.|normalised_)([a-z_][a-z0-9_]*)$/.exec(expression) : null;
  return found?.[1];
}

function foldComparisons(
  expression: string,
  caseless: ReadonlySet<string>,
  handled: Set<string>,
  matched: Set<string>,
): string {
  let out = expression;
  for (const name of caseless) {
    const value = `(?:\\$args\\.${escapeRegExp(name)}|\\$${bindingOf(name)})(?![A-Za-z0-9_])`;
    const member = out.replace(
      new RegExp(`(${value}) in (${OPERAND})`, "g"),
      (_, v: string, list: string) =>
        `$lowercase(${v}) in $map(${list}, function($v) { $lowercase($string($v)) })`,
    );
    const entry = member.replace(
      new RegExp(`\\$ (!?=) (${value})`, "g"),
      (_, op: string, v: string) => `$lowercase($string($)) ${op} $lowercase(${v})`,
    );
    if (entry !== out) handled.add(name);
    if (entry !== member) matched.add(name);
    out = entry;
  }
  return out;
}
