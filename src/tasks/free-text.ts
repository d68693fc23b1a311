import type { JsonSchema } from "../catalog/index.js";

/**
 * Free text: an argument whose exact words cannot be expected of an agent (a note, a reason
 * in words). It is recognised by what the schema and the name say, never by how many words
 * a value has, and judged by its content, never by being there.
 */

/** The last word of an argument's name that makes it prose (`note`, `customer_note`, `cancelReason`). */
const PROSE_WORDS = new Set([
  "note",
  "notes",
  "comment",
  "comments",
  "message",
  "messages",
  "memo",
  "remark",
  "remarks",
  "reason",
  "reasons",
  "rationale",
  "justification",
  "explanation",
  "description",
  "summary",
  "body",
  "text",
  "instructions",
  "details",
  "feedback",
]);

/** What a description says of an argument written in words. */
const PROSE_DESCRIPTION =
  /\bfree[- ]?text\b|\bin (?:the |their |his |her |your |its )?(?:\w+'s |own )?words\b|\bexplaining\b|\bexplanation\b/i;

/**
 * A string argument is free text when its schema leaves the words open (no enum, const,
 * pattern or format) and its name (last word) or its description says it is prose.
 */
export function isFreeText(name: string, schema: JsonSchema | undefined): boolean {
  if (schema) {
    if (schema.enum !== undefined || schema.const !== undefined || schema.pattern || schema.format)
      return false;
    if (schema.type !== undefined && schema.type !== "string") return false;
  }
  const words = nameWords(name);
  if (PROSE_WORDS.has(words.at(-1) ?? "")) return true;
  if (words.includes("free") && words.includes("text")) return true;
  return typeof schema?.description === "string" && PROSE_DESCRIPTION.test(schema.description);
}

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * How much of the expected text's content a given text carries, with the threshold that
 * decides. Measured on the shipped tasks' notes and their paraphrases (docs/tasks.md):
 * faithful paraphrases keep at least half of the content words, texts about something else
 * keep a fifth or less.
 */
export const FREE_TEXT_THRESHOLD = 0.5;

export interface TextOverlap {
  /** Share of the expected content words (stemmed) found in the given text, 0..1. */
  score: number;
  /** Numbers (and ids with digits) of the expected text that the given text lacks. */
  missingFacts: string[];
  same: boolean;
}

/**
 * Word overlap of a given text with the expected one: the share of the expected text's
 * content words (function words dropped, light stemming) that the given text has. Every
 * number in the expected text is a fact the given text must state too ("8% tax" is not
 * "9% tax", whatever else matches). A text with no content words must match as written.
 */
export function textOverlap(expected: string, actual: string): TextOverlap {
  const want = contentTerms(expected);
  const have = contentTerms(actual);
  const missingFacts = [...want.facts].filter((fact) => !have.facts.has(fact));
  if (want.words.size === 0 && want.facts.size === 0) {
    const same = normalizeProse(expected) === normalizeProse(actual) && normalizeProse(actual) !== "";
    return { score: same ? 1 : 0, missingFacts, same };
  }
  const terms = [...want.words, ...want.facts];
  const found = terms.filter((term) => have.words.has(term) || have.facts.has(term)).length;
  const score = found / terms.length;
  return { score, missingFacts, same: score >= FREE_TEXT_THRESHOLD && missingFacts.length === 0 };
}

/** A free-text value says the same as the expected one (offline judgement). */
export function sameText(expected: string, actual: string): boolean {
  return textOverlap(expected, actual).same;
}

function normalizeProse(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

interface Terms {
  words: Set<string>;
  facts: Set<string>;
}

function contentTerms(text: string): Terms {
  const words = new Set<string>();
  const facts = new Set<string>();
  const tokens = normalizeProse(text)
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .split(/[^\p{L}\p{N}.]+/u)
    .map((token) => token.replace(/^\.+|\.+$/g, ""))
    .filter(Boolean);
  for (const token of tokens) {
    const number = NUMBER_WORDS.get(token) ?? numberIn(token);
    if (number !== undefined) facts.add(number);
    else if (!STOP_WORDS.has(token)) words.add(stem(token));
  }
  return { words, facts };
}

/** The number a token states: `8`, `69.12`, `x2`, `4th`, `2nd`; ids keep their whole spelling (`rma-0005`). */
function numberIn(token: string): string | undefined {
  if (!/\d/.test(token)) return undefined;
  const plain = /^(?:x)?(\d+(?:\.\d+)?)(?:x|st|nd|rd|th|%)?$/.exec(token);
  if (plain?.[1]) return String(Number(plain[1]));
  return token;
}

const NUMBER_WORDS = new Map(
  [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
  ].map((word, value) => [word, String(value)]),
);

/**
 * Light suffix stripping, the same on both sides, so "reinstalled"/"reinstalling" and
 * "moved"/"move" meet: a plural first, then one verb or adverb ending, a doubled final
 * consonant, a final e. Not a full stemmer: it only has to make two texts comparable.
 */
function stem(word: string): string {
  let base = word;
  if (base.length > 4 && base.endsWith("ies")) base = `${base.slice(0, -3)}y`;
  else if (base.length > 3 && base.endsWith("s") && !/(ss|us|is)$/.test(base)) base = base.slice(0, -1);
  for (const [suffix, replacement] of ENDINGS) {
    if (base.length - suffix.length >= 3 && base.endsWith(suffix)) {
      base = base.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  if (/([b-df-hj-np-tv-z])\1$/.test(base) && !/(ll|ss|zz)$/.test(base)) base = base.slice(0, -1);
  return base.length > 3 ? base.replace(/e$/, "") : base;
}

const ENDINGS: ReadonlyArray<[string, string]> = [
  ["ied", "y"],
  // "agreed" is "agree" + d, not "agre" + ed
  ["eed", "ee"],
  ["ing", ""],
  ["ed", ""],
  ["er", ""],
  ["ly", ""],
];

/** Function words: they carry no content of a note. Negations are kept: "no fee" is not "fee". */
const STOP_WORDS = new Set(
  (
    "a an the and or but if then so as of to in on at by for with from into onto over under about " +
    "after before than this that these those it its is are was were be been being am do does did " +
    "has have had will would shall should can could may might must i me my we us our you your he " +
    "him his she her they them their there here what which who whom whose also just very all any " +
    "some per via incl including etc"
  ).split(" "),
);
