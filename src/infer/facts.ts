import type { JsonSchema, Tool } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import {
  type Action,
  describedVerb,
  isIdentifierName,
  nameWords,
  singular,
  verbOf,
  verbWords,
} from "./words.js";

/** What a tool says about itself, read once: its verb, its parameters, its documented errors. */

export interface Param {
  name: string;
  words: readonly string[];
  schema: JsonSchema;
  type?: string;
  /** For arrays: the type of the items, and their property names when they are objects. */
  itemType?: string;
  itemProperties?: string[];
  required: boolean;
  description: string;
  /** Quoted examples in the description ("such as 'INV-000000'"). */
  examples: string[];
  identifier: boolean;
}

export type ErrorKind = "not-found" | "state" | "other";

export interface ErrorFact {
  code: string;
  kind: ErrorKind;
  /** The message and the `when`, lowercased, for matching. */
  text: string;
  /** For not-found errors: the noun that was not found (`order`, `delivery_slot`, `item`). */
  noun?: string;
}

export interface OutputFact {
  name: string;
  words: readonly string[];
  type?: string;
  itemType?: string;
  /** The properties of a list's items, by name, when they are records. */
  itemProperties?: Readonly<Record<string, JsonSchema>>;
  description: string;
}

export interface ToolFacts {
  tool: Tool;
  /** The words of the name, two-word verbs joined (`log_in` → login). */
  words: readonly string[];
  /** The words of the name after its verb, without small words: what it is about. */
  nouns: readonly string[];
  verb?: string;
  /** What the name's verb says; undefined when the name has no known verb. */
  verbAction?: Action;
  readOnly?: boolean;
  destructive?: boolean;
  params: Param[];
  /** The properties of the output schema, at its top. */
  outputs: OutputFact[];
  errors: ErrorFact[];
  /** Description and usage, as written. */
  text: string;
}

const SMALL_WORDS = new Set([
  "a",
  "an",
  "the",
  "to",
  "for",
  "from",
  "of",
  "by",
  "with",
  "in",
  "on",
  "at",
  "new",
  "all",
  "my",
]);

// the facts of a tool are read by the tool's own rules and by its siblings' conventions
const factsByTool = new WeakMap<Tool, Map<string, ToolFacts>>();

/**
 * The facts of a tool; `prefix` is the product's name its toolset puts before every tool's name
 * (`acme_get_alert`), which is neither its verb nor what it is about.
 */
export function factsOf(tool: Tool, prefix = ""): ToolFacts {
  let byPrefix = factsByTool.get(tool);
  if (byPrefix === undefined) {
    byPrefix = new Map();
    factsByTool.set(tool, byPrefix);
  }
  let facts = byPrefix.get(prefix);
  if (facts === undefined) {
    facts = readFacts(tool, prefix);
    byPrefix.set(prefix, facts);
  }
  return facts;
}

function readFacts(tool: Tool, prefix: string): ToolFacts {
  const all = verbWords(tool.name);
  const name = prefix !== "" && all[0] === prefix && all.length > 1 ? all.slice(1).join("_") : tool.name;
  const words = name === tool.name ? all : all.slice(1);
  const verb = describedVerb(name, tool.description) ?? verbOf(name);
  return {
    tool,
    words,
    nouns: words.filter((w) => w !== verb?.verb && !SMALL_WORDS.has(w)),
    verb: verb?.verb,
    verbAction: verb?.action,
    readOnly: tool.annotations?.readOnlyHint,
    destructive: tool.annotations?.destructiveHint,
    // credentials prove who calls; they select nothing and are stored nowhere
    params: paramsOf(tool.inputSchema, docstringArguments(tool.description)).filter(
      (p) => !isCredential(p.name),
    ),
    outputs: outputsOf(tool.outputSchema),
    errors: tool.errors.map((e) => errorFact(e.code, e.message, e.when, e.status)),
    text: [tool.description, tool.usage ?? ""].join(" ").trim(),
  };
}

/** `access_token`, `apiKey`, `client_secret`, `password`: what authenticates a call, as OAuth and API-key schemes name it. */
function isCredential(name: string): boolean {
  const words = nameWords(name).join("_");
  return /^(access_token|api_key|apikey|auth_token|bearer_token|token|refresh_token|client_secret|secret|password|session_token|auth)$/.test(
    words,
  );
}

/**
 * "Args:\n    symbol: Bottle code with a price in cellar_prices.": what a docstring's arguments
 * section says of each argument, as Google-style and NumPy-style docstrings write it and as
 * Python MCP servers (FastMCP) pass the whole docstring on as a tool's description.
 */
function docstringArguments(description: string): Map<string, string> {
  const said = new Map<string, string>();
  const lines = description.split("\n");
  const start = lines.findIndex((line) => /^\s*(?:args|arguments|parameters|params)\s*:?\s*$/i.test(line));
  if (start < 0) return said;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") continue;
    const entry = /^\s+`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:\([^)]*\))?\s*[:–—-]\s+(.+)$/.exec(line);
    if (!entry?.[1] || !entry[2]) break;
    said.set(entry[1], entry[2].trim());
  }
  return said;
}

function paramsOf(schema: JsonSchema, documented: ReadonlyMap<string, string> = new Map()): Param[] {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties).map(([name, raw]) => {
    const property = (isPlainObject(raw) ? raw : {}) as JsonSchema;
    const items = isPlainObject(property.items) ? (property.items as JsonSchema) : undefined;
    const description =
      typeof property.description === "string" && property.description !== ""
        ? property.description
        : (documented.get(name) ?? "");
    return {
      name,
      words: nameWords(name),
      schema: property,
      type: typeName(property),
      itemType: items ? typeName(items) : undefined,
      itemProperties: items && isPlainObject(items.properties) ? Object.keys(items.properties) : undefined,
      required: required.has(name),
      description,
      examples: examplesIn(description),
      identifier: isIdentifierName(name),
    };
  });
}

function outputsOf(schema: JsonSchema | undefined): OutputFact[] {
  const properties = schema && isPlainObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties).map(([name, raw]) => {
    const property = (isPlainObject(raw) ? raw : {}) as JsonSchema;
    const items = isPlainObject(property.items) ? (property.items as JsonSchema) : undefined;
    return {
      name,
      words: nameWords(name),
      type: typeName(property),
      itemType: items ? typeName(items) : undefined,
      ...(items && isPlainObject(items.properties)
        ? { itemProperties: items.properties as Record<string, JsonSchema> }
        : {}),
      description: typeof property.description === "string" ? property.description : "",
    };
  });
}

function typeName(schema: JsonSchema): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") as string | undefined;
  if (isPlainObject(schema.properties)) return "object";
  return undefined;
}

/**
 * 'quoted' or "quoted" values in a description: the examples authors give of a value's shape.
 * An apostrophe inside a word (the paddle's tag) opens and closes no quote.
 */
export function examplesIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?<![a-z0-9])'([^'\s][^']{0,60})'(?![a-z0-9])|"([^"\s][^"]{0,60})"/gi)) {
    const value = match[1] ?? match[2];
    if (value) found.push(value);
  }
  return found;
}

const NOT_FOUND =
  /\b(not found|does ?n[o']t exist|no such|unknown|not exist|could not be found|cannot be found|missing)\b/;

/**
 * "No account has the given number.", "The id names no order.": nothing matches what was given,
 * said at the start of the message or of the `when`; the noun is the one that was not there.
 */
const NAMES_NOTHING =
  /^(?:error:\s*)?(?:no (?:such )?(\w+(?: \w+)?) (?:has|have|is|are|with|under|matches|match|by|named|called|exists)\b|(?:the|this) \w+(?: \w+)? (?:names|matches|identifies) no (\w+))/;

function errorFact(code: string, message: string, when: string, status?: number): ErrorFact {
  const text = `${message} ${when}`.toLowerCase();
  const codeWords = nameWords(code);
  const nothing = [message, when].map((part) => NAMES_NOTHING.exec(part.toLowerCase())).find(Boolean);
  // a 401 or 403 ("the token is missing or expired") says who may call, never that nothing matched
  const refusesCaller = status === 401 || status === 403;
  const notFound =
    !refusesCaller &&
    (NOT_FOUND.test(text) ||
      nothing !== undefined ||
      /(^|_)(not_(found|exists?)|does_not_exist|no_such|nonexistent)(_|$)/.test(codeWords.join("_")) ||
      codeWords[0] === "unknown" ||
      code === "NOT_FOUND");
  // "NOT_STOCKED: the cellar has no bottle in code": nothing kept under what was given, of no
  // noun the records are named by
  if (
    !notFound &&
    !refusesCaller &&
    codeWords[0] === "not" &&
    /\b(?:has )?no \w+ (?:in|for|named|called|under)\b/.test(text)
  )
    return { code, kind: "not-found", text };
  if (!notFound)
    return {
      code,
      kind: /\b(cannot|can ?not|only|non-|must be|not allowed|already)\b/.test(text) ? "state" : "other",
      text,
    };
  const named = nothing?.[1] ?? nothing?.[2];
  return { code, kind: "not-found", text, noun: notFoundNoun(text, codeWords, named) };
}

/** "order not found" → order; "{item_id} not found" → item; "delivery slot not found" → delivery_slot. */
function notFoundNoun(text: string, codeWords: readonly string[], named?: string): string | undefined {
  const head = text.replace(/^error:\s*/, "");
  // a camelCase placeholder arrives lowercased: `{postid}` is a post's id
  const placeholder = /\{([a-z_]{2,}?)(_?ids?)?\}\s+(was\s+)?(not found|does)/.exec(head);
  // a bare `{id}` names no noun: "Kayak {id} not found" is a kayak's
  if (placeholder?.[1] && !/^ids?$/.test(placeholder[1]))
    return placeholder[1].split("_").map(singular).join("_");
  const before =
    /^(?:the\s+|some\s+|an?\s+|this\s+|that\s+)?((?:[a-z]+\s+){0,2}?[a-z]+?)\s+(?:\{[^}]*\}\s+)?(?:was\s+|is\s+)?(?:not found|does ?n[o']t exist|not exist|could not be found|cannot be found)/.exec(
      head,
    );
  if (before?.[1]) return before[1].split(/\s+/).map(singular).join("_");
  // a code that says "not" or "no such" names its noun surely; "no … has" before a guess at one
  const code = nounOfCode(codeWords);
  const words = code.sure && code.noun.length > 0 ? code.noun : (named?.split(/\s+/) ?? code.noun);
  return words.length > 0 ? words.map(singular).join("_") : undefined;
}

/**
 * The noun a not-found code names: `NO_SUCH_KAYAK`, `UNKNOWN_KAYAK`, `BAD_KAYAK` → kayak (the
 * words after what says "none"); `KAYAK_NOT_FOUND`, `KAYAK_DOES_NOT_EXIST` → kayak (the words
 * before "not"); `KAYAK_MISSING`, `KAYAK_GONE` → kayak (all but the last word, a guess).
 */
function nounOfCode(codeWords: readonly string[]): { noun: readonly string[]; sure: boolean } {
  const lead = codeWords.findIndex((w) => !/^(no|such|unknown|invalid|bad|nonexistent)$/.test(w));
  if (lead > 0) return { noun: codeWords.slice(lead), sure: true };
  const not = codeWords.indexOf("not");
  if (not < 0) return { noun: codeWords.slice(0, -1), sure: false };
  const subject = codeWords.slice(0, not);
  return {
    noun: /^(does|do|is|was)$/.test(subject.at(-1) ?? "") ? subject.slice(0, -1) : subject,
    sure: true,
  };
}
