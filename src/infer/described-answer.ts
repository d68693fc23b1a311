import type { JsonSchema, StateDocument } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";

/**
 * The answer a description spells out, for a tool without an output schema: "Returns
 * {"run_id", "state": "queued"}", "Responds with {"name", "owners": <full list>}". API
 * references show a response's fields this way (GitHub's and Stripe's response samples, MCP
 * servers' "Returns a JSON object with …"); the fields become the tool's output schema, so
 * the answer holds them: from the state, from the arguments, or synthesized and said to be
 * guessed. Only the first such object after a returning verb is read; its top-level keys are
 * the answer's, each typed by the value the description gives, the argument of its name or
 * the state's values of that name.
 */
export function describedAnswer(
  description: string,
  params: Readonly<Record<string, JsonSchema>>,
  states: readonly StateDocument[],
  others: readonly string[] = [],
): JsonSchema | undefined {
  const listed = fieldList(description);
  if (listed) return schemaOf(listed, params, states, /\bwhether\b/i.test(description));
  const opening = RETURNS.exec(description) ?? objectUnderHeading(description);
  if (!opening) return undefined;
  const body = objectAt(description, opening.index + opening[0].length - 1);
  if (body === undefined) return undefined;
  const fields = fieldsOf(body).map((field) =>
    field.value === undefined ? { ...field, value: definedElsewhere(field.key, others) } : field,
  );
  if (fields.length === 0) return undefined;
  return schemaOf(fields, params, states, /\bwhether\b/i.test(description));
}

/**
 * "Returns { settings }" where a sibling says "{ settings: <all controller fields> }": an API
 * defines a field of its answers once, and the others name it bare.
 */
function definedElsewhere(key: string, others: readonly string[]): string | undefined {
  const pattern = new RegExp(`(?:^|[^A-Za-z0-9_])"?${key}"?\\s*:\\s*(<[^>]+>)`);
  for (const text of others) {
    if (!text.includes(key)) continue;
    const value = pattern.exec(text)?.[1];
    if (value) return value;
  }
  return undefined;
}

/** "**Response**\n`{ "code": <code>, "removed": true }`": an object shown under a response heading. */
function objectUnderHeading(description: string): { index: number; 0: string } | undefined {
  const heading = RESPONSE_HEADING.exec(description);
  if (!heading) return undefined;
  const from = heading.index + heading[0].length;
  const brace = /^[\s`]*\{/.exec(description.slice(from));
  return brace ? { index: from, 0: brace[0] } : undefined;
}

const RESPONSE_HEADING =
  /^\s*(?:#+\s*)?(?:\*\*|__)?(?:response|returns|output)(?:\s+fields)?(?:\s*:)?(?:\*\*|__)?\s*:?[ \t]*$/im;

/** "Returns {", "returns an object {", "Responds with {", "Answers {", "Response: `{". */
const RETURNS = /\b(?:returns?|responds?\s+with|answers?(?:\s+with)?|response\s*:)[^{.]{0,40}\{/i;

/**
 * "Response fields:\n- `id` (string)\n- `labels` (string[]) – names of …": a list of the
 * answer's fields under a heading, each with its type in brackets.
 */
function fieldList(description: string): Field[] | undefined {
  if (!description.includes("\n")) return undefined;
  const lines = description.split("\n");
  const heading = lines.findIndex((line) =>
    /^\s*(?:#+\s*)?(?:\*\*|__)?(?:response|returns|output)(?:\s+fields)?(?:\s*:)?(?:\*\*|__)?\s*:?\s*$/i.test(
      line,
    ),
  );
  if (heading >= 0) return bulletFields(lines, heading + 1);
  // "Returns an object with one field, `boards`, an array of:" and the items' fields below
  const opening = lines.findIndex((line) =>
    /\breturns?\b.*`[A-Za-z_]\w*`[^`]*\b(?:array|list)\b[^`]*:\s*$/i.test(line),
  );
  if (opening < 0) return undefined;
  const key = /`([A-Za-z_]\w*)`[^`]*\b(?:array|list)\b[^`]*:\s*$/i.exec(lines[opening] as string)?.[1];
  const items = bulletFields(lines, opening + 1);
  return key && items ? [{ key, items }] : undefined;
}

/**
 * The fields a bulleted list gives from line `start` on: "- `id` (string) – words", several in
 * one item ("- `slug`, `star_count` (after the change)"), and the fields of a list's items
 * in bullets one level deeper.
 */
function bulletFields(lines: readonly string[], start: number): Field[] | undefined {
  const fields: Field[] = [];
  let indent: number | undefined;
  let inner: string[] = [];
  const closeInner = () => {
    const owner = fields.at(-1);
    const items = inner.length > 0 ? bulletFields(inner, 0) : undefined;
    if (owner && items) owner.items = items;
    inner = [];
  };
  for (const line of lines.slice(start)) {
    const depth = /^\s*/.exec(line)?.[0].length ?? 0;
    if (indent !== undefined && depth > indent && /^\s*[-*]\s/.test(line)) {
      inner.push(line);
      continue;
    }
    closeInner();
    if (/^\s*[-*]\s+`[A-Za-z_]\w*`\s*(?:\([^)]*\))?\s*,/.test(line)) {
      indent ??= depth;
      for (const name of line.matchAll(/`([A-Za-z_]\w*)`/g)) fields.push({ key: name[1] as string });
      continue;
    }
    const item =
      /^\s*[-*]\s+`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:\(([^)]*)\))?\s*(?:[–—:-]\s*(.*))?$/.exec(line) ??
      // "  hive_id - the hive.": an indented name and its words, without a bullet
      /^\s+`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:\(([^)]*)\))?\s+[–—-]\s+(.*)$/.exec(line);
    if (!item?.[1]) break;
    indent ??= depth;
    fields.push({ key: item[1], value: item[2] ? `<${item[2]}>` : undefined, type: item[2], note: item[3] });
  }
  closeInner();
  // a field named twice (once among others, once with its words) is the one with its words
  const byKey = new Map<string, Field>();
  for (const field of fields)
    if (!byKey.has(field.key) || field.note || field.items) byKey.set(field.key, field);
  return byKey.size > 0 ? [...byKey.values()] : undefined;
}

function schemaOf(
  fields: readonly Field[],
  params: Readonly<Record<string, JsonSchema>>,
  states: readonly StateDocument[],
  whether: boolean,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    if (field.items) {
      const items = schemaOf(field.items, params, states, whether);
      properties[field.key] = {
        type: "array",
        items: { type: "object", properties: items.properties },
        ...(field.note?.trim() ? { description: field.note.trim() } : {}),
      };
      continue;
    }
    const property = field.type
      ? (listedType(field.type) ?? propertyOf(field.key, undefined, params, states, whether))
      : propertyOf(field.key, field.note ? `<${field.note}>` : field.value, params, states, whether);
    properties[field.key] = field.note?.trim() ? { ...property, description: field.note.trim() } : property;
  }
  return { type: "object", properties, required: fields.map((f) => f.key) };
}

/** `string`, `string|null`, `string[]`, `integer`, `boolean`: a type a field list gives. */
function listedType(said: string): JsonSchema | undefined {
  const text = said.trim().toLowerCase();
  const array = /^(\w+)\[\]$/.exec(text);
  if (array?.[1]) return { type: "array", items: listedType(array[1]) ?? {} };
  const types = text
    .split(/\s*\|\s*/)
    .filter((t) => ["string", "integer", "number", "boolean", "null", "object", "array"].includes(t));
  if (types.length === 0) return undefined;
  return { type: types.length === 1 ? types[0] : types };
}

/** The text inside the braces that open at `start`, or undefined when they never close. */
function objectAt(text: string, start: number): string | undefined {
  let depth = 0;
  let quoted = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === "\\") i++;
      else if (char === '"') quoted = false;
      continue;
    }
    if (char === '"') quoted = true;
    else if (OPENS.has(char ?? "")) depth++;
    else if (CLOSES.has(char ?? "")) {
      depth--;
      if (depth === 0) return text.slice(start + 1, i);
    }
  }
  return undefined;
}

const OPENS = new Set(["{", "[", "(", "<"]);
const CLOSES = new Set(["}", "]", ")", ">"]);

interface Field {
  key: string;
  /** What follows the key's colon, or undefined for a bare key ("run_id"). */
  value?: string;
  /** The type a field list gives in brackets (`string|null`). */
  type?: string;
  /** What a field list says of it after a dash. */
  note?: string;
  /** The fields of each item, for a list whose items a nested list describes. */
  items?: Field[];
}

/** `"a", "b": 1, "c" (a note), "d": <words>` → a, b = 1, c, d = <words>. */
function fieldsOf(body: string): Field[] {
  const fields: Field[] = [];
  for (const part of topLevelParts(body)) {
    // keys quoted (`"run_id"`) or bare (`run_id`), as docs write a response's shape
    const match = /^\s*"?([A-Za-z_][A-Za-z0-9_]*)"?\s*(?::\s*([\s\S]*?))?\s*(?:\([^)]*\))?\s*$/.exec(part);
    const last = fields.at(-1);
    // "…: mean of the durations, null if there are none": words after a comma go on the value before
    if (
      !match?.[1] &&
      last?.value !== undefined &&
      /^\s*[a-z][a-z ]*\b/.test(part) &&
      part.trim().includes(" ")
    ) {
      last.value = `${last.value}, ${part.trim()}`;
      continue;
    }
    if (!match?.[1]) return [];
    fields.push(match[2] === undefined ? { key: match[1] } : { key: match[1], value: match[2] });
  }
  return fields;
}

/** The body split at its top-level commas. */
function topLevelParts(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const char = body[i] ?? "";
    if (quoted) {
      if (char === "\\") i++;
      else if (char === '"') quoted = false;
      continue;
    }
    if (char === '"') quoted = true;
    else if (OPENS.has(char)) depth++;
    else if (CLOSES.has(char)) depth--;
    else if (char === "," && depth === 0) {
      parts.push(body.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(body.slice(from));
  return parts.filter((p) => p.trim().length > 0);
}

function propertyOf(
  key: string,
  value: string | undefined,
  params: Readonly<Record<string, JsonSchema>>,
  states: readonly StateDocument[],
  whether = false,
): JsonSchema {
  const literal = value === undefined ? undefined : literalOf(value);
  if (literal !== undefined) return { ...typeOf(literal.value), const: literal.value };
  const said = value?.trim() ?? "";
  if (said.startsWith("[")) return { type: "array", items: itemsOf(said, params, states) };
  if (said.startsWith("{")) return { type: "object" };
  const param = params[key];
  if (param) return { ...typeOnly(param), ...(said ? { description: words(said) } : {}) };
  // "<all controller fields>": a part of the state, named
  const part = partNamed(said, states);
  if (part !== undefined) return { ...typeOf(part), description: words(said) };
  const sample = sampleOf(states, key);
  const typed =
    sample.value === undefined
      ? typeFromWords(said, key, whether)
      : orNull(typeOf(sample.value), sample.nullable);
  return { ...typed, ...(said ? { description: words(said) } : {}) };
}

function itemsOf(
  said: string,
  params: Readonly<Record<string, JsonSchema>>,
  states: readonly StateDocument[],
): JsonSchema {
  const inner = said.slice(1).trimStart();
  if (!inner.startsWith("{")) return {};
  const body = objectAt(inner, 0);
  const fields = body === undefined ? [] : fieldsOf(body);
  if (fields.length === 0) return { type: "object" };
  const properties: Record<string, JsonSchema> = {};
  for (const { key, value } of fields) properties[key] = propertyOf(key, value, params, states);
  return { type: "object", properties };
}

function literalOf(value: string): { value: string | number | boolean | null } | undefined {
  try {
    const parsed: unknown = JSON.parse(value.trim());
    if (parsed === null || ["string", "number", "boolean"].includes(typeof parsed))
      return { value: parsed as string | number | boolean | null };
  } catch {
    // not a JSON value: words or a placeholder
  }
  return undefined;
}

function orNull(schema: JsonSchema, nullable: boolean): JsonSchema {
  return nullable && typeof schema.type === "string" ? { ...schema, type: [schema.type, "null"] } : schema;
}

function typeOf(value: unknown): JsonSchema {
  if (value === null) return {};
  if (Array.isArray(value)) return { type: "array" };
  if (isPlainObject(value)) return { type: "object" };
  if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
  return { type: typeof value };
}

function typeOnly(schema: JsonSchema): JsonSchema {
  const { description: _d, default: _default, examples: _e, ...rest } = schema;
  return rest;
}

/** What the words say the field is, else what its name says; a count stays whole. */
function typeFromWords(said: string, key: string, whether: boolean): JsonSchema {
  const worded = wordedType(said);
  const named = namedType(key, whether);
  if (worded.type === undefined) return named;
  return worded.type === "number" && named.type === "integer" ? named : worded;
}

/** `<boolean>`, `<number of …>`, `<its length>`: the type the words name, when they name one. */
function wordedType(said: string): JsonSchema {
  const text = said.toLowerCase().replace(/^<|>$/g, "").trim();
  if (/^(?:an? )?(?:object|map|dictionary)\b/.test(text)) return { type: "object" };
  if (/^(?:an? |the )?(?:array|list|codes|ids|keys|names)\b/.test(text)) return { type: "array" };
  if (/^(?:whether|true\b|false\b)|\b(?:boolean|whether|true (?:if|when)|false (?:if|when))\b/.test(text))
    return { type: "boolean" };
  if (/\b(count|number of|length|sum|total|how many)\b/.test(text)) return { type: "number" };
  return {};
}

/**
 * `open_count`, `position`, `is_member`: the type a field's name gives it; in the answer of a
 * tool that checks whether something holds, a bare word (`following`) is the yes or no, and a
 * plural (`labels`) is a list.
 */
function namedType(key: string, whether: boolean): JsonSchema {
  if (/^(is|has|can)_|(^|_)(exists|found)$/.test(key)) return { type: "boolean" };
  if (whether && !key.includes("_")) return { type: "boolean" };
  if (/[^s]s$/.test(key) && !/(us|is|ss)$/.test(key) && !key.includes("_")) return { type: "array" };
  if (/(^|_)(count|position|index|number|quantity|rank)$/.test(key)) return { type: "integer" };
  if (/(^|_)(total|sum|size|length|amount|average)$/.test(key)) return { type: "number" };
  return {};
}

function words(said: string): string {
  return said.replace(/^<|>$/g, "").trim();
}

/** The part of the state at the top that the words name by its key (`device_config`). */
function partNamed(said: string, states: readonly StateDocument[]): unknown {
  const state = states[0];
  if (!state || !said.includes("_")) return undefined;
  for (const name of said.match(/[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+/g) ?? [])
    if (Object.hasOwn(state, name) && typeof state[name] === "object" && state[name] !== null)
      return state[name];
  return undefined;
}

/**
 * The first value the state documents hold under `key`, at any depth, and whether some record
 * holds null there (a `closed_at` of the issues still open): such a field is
 * answered null, not made up to fit a type.
 */
function sampleOf(states: readonly StateDocument[], key: string): { value: unknown; nullable: boolean } {
  const seen: unknown[] = [...states];
  let nullable = false;
  for (let i = 0; i < seen.length && i < 5_000; i++) {
    const value = seen[i];
    if (Array.isArray(value)) seen.push(...value.slice(0, 5));
    else if (isPlainObject(value)) {
      if (Object.hasOwn(value, key)) {
        if (value[key] !== null) return { value: value[key], nullable };
        nullable = true;
      }
      seen.push(...Object.values(value).slice(0, 50));
    }
  }
  return { value: undefined, nullable };
}
