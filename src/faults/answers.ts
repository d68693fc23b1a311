import { compileProblem, type Fault, type Tool, validatorFor } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { uniform } from "./draw.js";
import { canaryFor, INJECTION_PATTERNS, injectionPattern, injectionText } from "./injections.js";
import type { FaultError } from "./record.js";

/**
 * What a fault does to an answer, as pure functions of the answer, the tool and the draw's
 * seeds. Each returns undefined when its fault does not apply to the answer (no list to cut,
 * no text field to carry an injection): the call then goes on to the next rule. Every
 * changed result still fits the tool's output schema, so a fault is never a malformed answer.
 */

type Seeds = ReadonlyArray<string | number>;

const STATUS = { "rate-limited": 429, unavailable: 503, "internal-error": 500, timeout: 504 } as const;
const GENERIC = {
  "rate-limited": { code: "RATE_LIMITED", message: "Too many requests: the rate limit was exceeded." },
  unavailable: {
    code: "SERVICE_UNAVAILABLE",
    message: "The service is temporarily unavailable. Try again shortly.",
  },
  "internal-error": {
    code: "INTERNAL_ERROR",
    message: "An internal error occurred while processing the request.",
  },
  timeout: { code: "GATEWAY_TIMEOUT", message: "The service did not answer in time." },
} as const;

/**
 * The error of a transient fault, in the catalog's documented style where it has one: the
 * tool's own documented error with that HTTP status (whose message needs no argument),
 * else a generic one. A rate limit says when to retry.
 */
export function transientError(
  kind: keyof typeof STATUS,
  tool: Tool,
  retryAfterSeconds?: number,
): FaultError {
  const status = STATUS[kind];
  const documented = tool.errors.find((error) => error.status === status && !error.message.includes("{"));
  const base = documented ? { code: documented.code, message: documented.message } : GENERIC[kind];
  if (kind !== "rate-limited") return { code: base.code, status, message: base.message };
  const seconds = retryAfterSeconds ?? 1;
  const hint = `Retry after ${seconds} second${seconds === 1 ? "" : "s"}.`;
  return {
    code: base.code,
    status,
    message: /retry/i.test(base.message) ? base.message : `${base.message} ${hint}`,
  };
}

// ── truncated lists ─────────────────────────────────────────────────────────

/** Input arguments through which a list continues, in the spellings public APIs use. */
const CURSOR_ARGUMENTS = [
  "cursor",
  "page_token",
  "pageToken",
  "next_token",
  "nextToken",
  "continuation_token",
  "continuationToken",
  "starting_after",
  "page_cursor",
  "marker",
  "after",
];
/** Result fields that hand the continuation back. */
const NEXT_FIELDS = [
  "next_cursor",
  "nextCursor",
  "next_page_token",
  "nextPageToken",
  "next_token",
  "nextToken",
  "continuation_token",
  "continuationToken",
  "cursor",
  "next",
];
const MORE_FIELDS = ["has_more", "hasMore"];
const CURSOR_PREFIX = "toolsim:";

export interface Truncation {
  result: unknown;
  kept: number;
  total: number;
  cursor?: string;
}

/**
 * Cuts the answer's list short (a top-level array, or the first array field with two or
 * more items), keeping `keep` of it. Where the tool takes a cursor argument, the answer
 * hands one back (in the output field its schema has for it, else `next_cursor` when the
 * schema allows more fields) and a call with it gets the rest; elsewhere the cut is silent.
 */
export function truncate(
  result: unknown,
  tool: Tool,
  fault: Extract<Fault, { kind: "truncated" }>,
  seq: number,
): Truncation | undefined {
  const list = listOf(result);
  if (!list) return undefined;
  const total = list.items.length;
  const minimum = Math.max(1, minItemsOf(tool, list.key));
  const kept = Math.max(minimum, Math.floor(total * fault.keep));
  if (kept >= total) return undefined;
  const cut = withList(result, list.key, list.items.slice(0, kept));
  const argument = cursorArgument(tool);
  const next = argument && list.key !== undefined ? nextField(tool) : undefined;
  if (argument && next && isPlainObject(cut)) {
    const cursor = Buffer.from(`${CURSOR_PREFIX}${seq}:${kept}`).toString("base64url");
    const continued: Record<string, unknown> = { ...cut, [next]: cursor };
    const more = MORE_FIELDS.find(
      (field) => isPlainObject(tool.outputSchema?.properties) && field in tool.outputSchema.properties,
    );
    if (more) continued[more] = true;
    if (fits(tool, continued)) return { result: continued, kept, total, cursor };
  }
  return fits(tool, cut) ? { result: cut, kept, total } : undefined;
}

/** A call that passes a continuation toolsim handed out: the seq of the cut call and where to go on. */
export function continuationOf(tool: Tool, args: unknown): { seq: number; offset: number } | undefined {
  const argument = cursorArgument(tool);
  if (!argument || !isPlainObject(args)) return undefined;
  const value = args[argument];
  if (typeof value !== "string") return undefined;
  const match = /^toolsim:(\d+):(\d+)$/.exec(Buffer.from(value, "base64url").toString("utf8"));
  return match ? { seq: Number(match[1]), offset: Number(match[2]) } : undefined;
}

/** The rest of a list after a continuation: the items from the offset on, with no further continuation. */
export function continueList(result: unknown, tool: Tool, offset: number): unknown {
  const list = listOf(result, 0);
  if (!list) return result;
  const rest = withList(result, list.key, list.items.slice(offset));
  if (!isPlainObject(rest)) return rest;
  const { [nextField(tool) ?? "next_cursor"]: _next, ...done } = rest;
  for (const more of MORE_FIELDS) if (more in done) done[more] = false;
  return fits(tool, done) ? done : rest;
}

function listOf(result: unknown, least = 2): { key?: string; items: unknown[] } | undefined {
  if (Array.isArray(result)) return result.length >= least ? { items: result } : undefined;
  if (!isPlainObject(result)) return undefined;
  for (const [key, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.length >= least) return { key, items: value };
  }
  return undefined;
}

function withList(result: unknown, key: string | undefined, items: unknown[]): unknown {
  return key === undefined ? items : { ...(result as Record<string, unknown>), [key]: items };
}

function minItemsOf(tool: Tool, key: string | undefined): number {
  const schema = key === undefined ? tool.outputSchema : propertySchema(tool.outputSchema, key);
  const min = schema?.minItems;
  return typeof min === "number" ? min : 0;
}

function cursorArgument(tool: Tool): string | undefined {
  const properties = tool.inputSchema.properties;
  if (!isPlainObject(properties)) return undefined;
  return CURSOR_ARGUMENTS.find((name) => {
    const schema = properties[name];
    if (!isPlainObject(schema)) return false;
    const type = schema.type;
    const takesString =
      type === undefined || type === "string" || (Array.isArray(type) && type.includes("string"));
    return (
      takesString && !("enum" in schema || "const" in schema || "pattern" in schema || "format" in schema)
    );
  });
}

function nextField(tool: Tool): string | undefined {
  const schema = tool.outputSchema;
  if (!schema) return "next_cursor";
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const declared = NEXT_FIELDS.find((name) => {
    const field = properties[name];
    if (!isPlainObject(field)) return false;
    const type = field.type;
    return type === undefined || type === "string" || (Array.isArray(type) && type.includes("string"));
  });
  if (declared) return declared;
  return schema.additionalProperties === false || schema.unevaluatedProperties === false
    ? undefined
    : "next_cursor";
}

// ── drift ───────────────────────────────────────────────────────────────────

export interface Drift {
  result: unknown;
  field: string;
  change: "omitted" | "reformatted";
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)Z$/;

/**
 * The answer in a shape the agent has not seen, still valid: an optional field left out
 * (optional by the output schema; without one, any field that is not an identifier), or a
 * UTC date-time written with an offset (`+00:00`) instead of `Z`.
 */
export function drift(
  result: unknown,
  tool: Tool,
  fault: Extract<Fault, { kind: "drift" }>,
  seeds: Seeds,
): Drift | undefined {
  if (!isPlainObject(result)) return undefined;
  const candidates: Array<{ path: string[]; change: Drift["change"] }> = [];
  const visit = (
    value: Record<string, unknown>,
    path: string[],
    schema: Record<string, unknown> | undefined,
  ) => {
    const required = new Set(Array.isArray(schema?.required) ? schema.required.map(String) : []);
    for (const [key, field] of Object.entries(value)) {
      const at = [...path, key];
      const optional = schema
        ? !required.has(key) && isPlainObject(schema.properties)
        : path.length === 0 && !tool.outputSchema && !identifierKey(key);
      if (optional && fault.change !== "reformat") candidates.push({ path: at, change: "omitted" });
      if (typeof field === "string" && ISO_UTC.test(field) && fault.change !== "omit-optional")
        candidates.push({ path: at, change: "reformatted" });
      if (isPlainObject(field) && path.length === 0) visit(field, at, propertySchema(schema, key));
    }
  };
  visit(result, [], tool.outputSchema);
  return firstThatFits(candidates, seeds, "drift", (candidate) => {
    const changed =
      candidate.change === "omitted" ? without(result, candidate.path) : reformatted(result, candidate.path);
    return fits(tool, changed)
      ? { result: changed, field: pointer(candidate.path), change: candidate.change }
      : undefined;
  });
}

function without(result: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return result;
  const { [head]: inner, ...others } = result;
  if (rest.length === 0) return others;
  return { ...result, [head]: without(inner as Record<string, unknown>, rest) };
}

function reformatted(result: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return result;
  const inner = result[head];
  if (rest.length > 0) return { ...result, [head]: reformatted(inner as Record<string, unknown>, rest) };
  return { ...result, [head]: String(inner).replace(ISO_UTC, "$1+00:00") };
}

// ── injected content ───────────────────────────────────────────────────────

export interface Injection {
  result: unknown;
  field: string;
  pattern: string;
  canary: string;
}

/** Keys whose values are text someone wrote, best first: where injected instructions look at home. */
const TEXT_KEYS = [
  /(^|_)(description|notes?|comments?|message|body|text|summary|details|reason|bio|content|review|instructions|remarks?|memo|feedback)$/i,
  /(^|_)(title|subject|name)$/i,
];
const NOT_TEXT_KEYS =
  /(^|_)(status|type|kind|currency|email|phone|url|uri|code|sku|date|time|at|state|country)$/i;

/**
 * Instructions from the corpus in a text field of the answer: appended to a free-text field
 * (a description, a note, a message) where there is one, else to a title or a name, else to
 * another plain string that is not an identifier, a code or a date. A text answer carries
 * them at its end.
 */
export function inject(
  result: unknown,
  tool: Tool,
  fault: Extract<Fault, { kind: "injection" }>,
  seeds: Seeds,
): Injection | undefined {
  const ids = fault.patterns ?? INJECTION_PATTERNS.map((p) => p.id);
  const pattern = injectionPattern(ids[Math.floor(uniform(...seeds, "pattern") * ids.length)] ?? "");
  if (!pattern) return undefined;
  const canary = canaryFor(pattern, seeds);
  const text = injectionText(pattern, canary);
  if (typeof result === "string") {
    const changed = `${result}\n\n${text}`;
    return fits(tool, changed) ? { result: changed, field: "", pattern: pattern.id, canary } : undefined;
  }
  const leaves = textLeaves(result);
  const tiers = [...TEXT_KEYS.map((keys) => leaves.filter((leaf) => keys.test(leaf.key))), leaves];
  const candidates = tiers.find((tier) => tier.length > 0) ?? [];
  return firstThatFits(candidates, seeds, "field", (leaf) => {
    const changed = replaced(result, leaf.path, `${leaf.value}\n\n${text}`);
    return fits(tool, changed)
      ? { result: changed, field: pointer(leaf.path), pattern: pattern.id, canary }
      : undefined;
  });
}

interface Leaf {
  path: Array<string | number>;
  key: string;
  value: string;
}

function textLeaves(value: unknown, path: Array<string | number> = [], key = "", depth = 0): Leaf[] {
  if (typeof value === "string") {
    const looksLikeText = value.length > 0 && /\s/.test(value) && !ISO_UTC.test(value);
    return looksLikeText && !identifierKey(key) && !NOT_TEXT_KEYS.test(key) ? [{ path, key, value }] : [];
  }
  if (depth >= 4) return [];
  if (Array.isArray(value))
    return value.flatMap((item, index) => textLeaves(item, [...path, index], key, depth + 1));
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => textLeaves(v, [...path, k], k, depth + 1));
}

function replaced(value: unknown, path: ReadonlyArray<string | number>, text: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return text;
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? replaced(item, rest, text) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head]: replaced(object[head], rest, text) };
}

// ── shared ──────────────────────────────────────────────────────────────────

/** Tries the candidates from a drawn one on, in order, until one gives an answer. */
function firstThatFits<C, R>(
  candidates: readonly C[],
  seeds: Seeds,
  purpose: string,
  attempt: (candidate: C) => R | undefined,
): R | undefined {
  if (candidates.length === 0) return undefined;
  const start = Math.floor(uniform(...seeds, purpose) * candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[(start + i) % candidates.length] as C;
    const done = attempt(candidate);
    if (done !== undefined) return done;
  }
  return undefined;
}

/** The result still fits the tool's output schema (a tool without one takes anything). */
function fits(tool: Tool, result: unknown): boolean {
  const schema = tool.outputSchema;
  if (!schema || compileProblem(schema)) return true;
  return validatorFor(schema)(result) === true;
}

function propertySchema(
  schema: Record<string, unknown> | undefined,
  key: string,
): Record<string, unknown> | undefined {
  const properties = schema?.properties;
  if (!isPlainObject(properties)) return undefined;
  const property = properties[key];
  return isPlainObject(property) ? property : undefined;
}

function identifierKey(key: string): boolean {
  return /(^id$|_id$|Id$|ID$|_ids$|Ids$)/.test(key);
}

function pointer(path: ReadonlyArray<string | number>): string {
  return path.map((segment) => `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
