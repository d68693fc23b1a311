import RE2 from "re2";
import { isPlainObject } from "../patch/index.js";
import type { JsonSchema } from "./format.js";
import { backtrackingHazard, nestedRepetition } from "./regex-safety.js";

/**
 * How toolsim evaluates a catalog's `pattern`. JSON Schema patterns are ECMA-262 regular
 * expressions; a backtracking engine can take exponential time on some of them, so they
 * run on RE2 (linear time) whenever RE2 can compile them. A pattern RE2 cannot compile
 * (lookaround, backreferences) runs on JavaScript's engine only when its cost is provably
 * bounded; otherwise it is not enforced, and load and lint say so. A pattern JavaScript
 * rejects in Unicode mode (written for another dialect: `\:`, a lone `{`, `\Z`) is read in
 * the repaired form when one exists.
 */
export type PatternPlan =
  | { kind: "re2" | "native"; source: string; repairedFrom?: string }
  | { kind: "unenforced"; reason: string };

/** What ajv calls to build a pattern's matcher (its `code.regExp` option). */
export interface PatternMatcher {
  test(text: string): boolean;
}

const plans = new Map<string, PatternPlan>();

export function planPattern(pattern: string): PatternPlan {
  let plan = plans.get(pattern);
  if (!plan) {
    plan = decide(pattern);
    plans.set(pattern, plan);
  }
  return plan;
}

function decide(pattern: string): PatternPlan {
  const direct = compile(pattern);
  if (direct.kind !== "invalid") return direct;
  const repaired = repairForUnicode(pattern);
  if (repaired !== pattern) {
    const again = compile(repaired);
    if (again.kind !== "invalid") return { ...again, repairedFrom: pattern } as PatternPlan;
  }
  return { kind: "unenforced", reason: `it is not a valid regular expression (${direct.reason})` };
}

function compile(source: string): PatternPlan | { kind: "invalid"; reason: string } {
  try {
    new RegExp(source, "u");
  } catch (error) {
    return { kind: "invalid", reason: reasonOf(error) };
  }
  try {
    new RE2(source, "u");
    return { kind: "re2", source };
  } catch (error) {
    const hazard = backtrackingHazard(source);
    if (!hazard) return { kind: "native", source };
    return {
      kind: "unenforced",
      reason: `RE2 cannot run it (${reasonOf(error)}) and JavaScript's backtracking engine is not provably safe on it: ${hazard}`,
    };
  }
}

const matchers = new Map<string, PatternMatcher>();

/** The matcher for a pattern, as ajv's `code.regExp` wants it; never throws. */
export function patternMatcher(pattern: string): PatternMatcher {
  let matcher = matchers.get(pattern);
  if (matcher) return matcher;
  const plan = planPattern(pattern);
  if (plan.kind === "re2") matcher = new RE2(plan.source, "u");
  else if (plan.kind === "native") matcher = new RegExp(plan.source, "u");
  // not enforced: every value passes (load and lint said why)
  else matcher = { test: () => true, toString: () => `unenforced:${pattern}` } as PatternMatcher;
  matchers.set(pattern, matcher);
  return matcher;
}

export interface PatternNote {
  /** JSON path segments inside the schema, ending at the `pattern` (or the patternProperties key). */
  path: PropertyKey[];
  pattern: string;
  message: string;
}

/** What lint and load report about a schema's patterns: unenforced, repaired, or risky elsewhere. */
export function patternNotes(schema: JsonSchema): PatternNote[] {
  const notes: PatternNote[] = [];
  forEachPattern(schema, (pattern, path) => {
    const plan = planPattern(pattern);
    const shown = JSON.stringify(pattern);
    if (plan.kind === "unenforced") {
      notes.push({ path, pattern, message: `pattern ${shown} is not enforced: ${plan.reason}` });
      return;
    }
    if (plan.repairedFrom !== undefined) {
      notes.push({
        path,
        pattern,
        message: `pattern ${shown} is not valid in JSON Schema's (Unicode) regular expressions; toolsim reads it as ${JSON.stringify(plan.source)}; write that instead`,
      });
    }
    if (nestedRepetition(plan.source)) {
      notes.push({
        path,
        pattern,
        message: `pattern ${shown} repeats a repetition: backtracking engines (JavaScript, Python, Java) can take exponential time on it. toolsim evaluates it with RE2, in linear time, but a real implementation may not`,
      });
    }
  });
  return notes;
}

/**
 * A copy of a schema with every repairable pattern written in its repaired form, and a
 * note for each pattern changed or left unenforced (importers write the copy).
 */
export function repairPatterns(schema: JsonSchema): { schema: JsonSchema; notes: PatternNote[] } {
  const notes: PatternNote[] = [];
  const copy = structuredClone(schema);
  forEachPattern(copy, (pattern, path, replace) => {
    const plan = planPattern(pattern);
    if (plan.kind === "unenforced") {
      notes.push({
        path,
        pattern,
        message: `pattern ${JSON.stringify(pattern)} kept but not enforced: ${plan.reason}`,
      });
    } else if (plan.repairedFrom !== undefined) {
      replace(plan.source);
      notes.push({
        path,
        pattern,
        message: `pattern ${JSON.stringify(pattern)} is not valid in JSON Schema's (Unicode) regular expressions; written as ${JSON.stringify(plan.source)}`,
      });
    }
  });
  return { schema: copy, notes };
}

type PatternVisitor = (pattern: string, path: PropertyKey[], replace: (source: string) => void) => void;

/** Every `pattern` keyword and patternProperties key of a schema, without recursion. */
function forEachPattern(schema: JsonSchema, visit: PatternVisitor): void {
  const pending: Array<{ node: unknown; path: PropertyKey[] }> = [{ node: schema, path: [] }];
  while (pending.length > 0) {
    const { node, path } = pending.pop() as (typeof pending)[number];
    if (Array.isArray(node)) {
      // children go on the stack last first, so patterns are met in document order
      for (let index = node.length - 1; index >= 0; index--)
        pending.push({ node: node[index], path: [...path, index] });
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    const record = node as Record<string, unknown>;
    if (typeof record.pattern === "string")
      visit(record.pattern, [...path, "pattern"], (source) => {
        record.pattern = source;
      });
    const patternProperties = record.patternProperties;
    if (isPlainObject(patternProperties)) {
      const properties = patternProperties;
      for (const key of Object.keys(properties)) {
        visit(key, [...path, "patternProperties", key], (source) => {
          if (source in properties) return;
          properties[source] = properties[key];
          delete properties[key];
        });
      }
    }
    for (const [key, value] of Object.entries(record).reverse()) {
      // values, not schemas: a string there is data
      if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
      if (value !== null && typeof value === "object") pending.push({ node: value, path: [...path, key] });
    }
  }
}

const SYNTAX = new Set(["^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/"]);
const CLASS_ESCAPE = /^\\[dDwWsSpP]/;
const QUANTIFIER = /^\{\d+(,\d*)?\}/;

/**
 * The pattern rewritten into what JavaScript's Unicode mode accepts, for what other
 * dialects and non-Unicode JavaScript allow: needless escapes (`\:`, `\_`, `\-`), lone
 * braces and brackets, `-` next to a class escape inside a class, Python's `\A`, `\Z`,
 * `(?P<name>` and `(?P=name)`. Everything else is copied as it is.
 */
export function repairForUnicode(pattern: string): string {
  let out = "";
  let inClass = false;
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] as string;
    const rest = pattern.slice(i);
    if (char === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) {
        out += "\\\\";
        i++;
      } else if (/[A-Za-z0-9]/.test(next)) {
        if (!inClass && next === "A") out += "^";
        else if (!inClass && (next === "Z" || next === "z")) out += "$";
        else out += `\\${next}`;
        i += 2;
      } else {
        const kept = SYNTAX.has(next) || (inClass && next === "-");
        out += kept ? `\\${next}` : next;
        i += 2;
      }
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      const besideEscape = CLASS_ESCAPE.test(pattern.slice(i + 1)) || /\\[dDwWsS]$/.test(out);
      out += char === "-" && besideEscape ? "\\-" : char;
      i++;
      continue;
    }
    if (char === "[") {
      inClass = true;
      out += char;
      i++;
      continue;
    }
    const named = /^\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    const reference = /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest);
    const quantifier = QUANTIFIER.exec(rest);
    if (named) {
      out += `(?<${named[1]}>`;
      i += named[0].length;
    } else if (reference) {
      out += `\\k<${reference[1]}>`;
      i += reference[0].length;
    } else if (quantifier) {
      out += quantifier[0];
      i += quantifier[0].length;
    } else {
      out += char === "{" || char === "}" || char === "]" ? `\\${char}` : char;
      i++;
    }
  }
  return out;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
}
