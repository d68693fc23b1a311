import type { ListedTool } from "./mcp-client.js";
import { isObject, singular } from "./schema-values.js";

/**
 * What a tool does to what, read as a user of the catalog would: from the effects its
 * catalog file declares (the state path they target), else from the words of its name, its
 * identifier arguments and what it answers (create_pet / get_pet(pet_id) / list_pets act on
 * "pet"). Only what tools/list and the catalog files show is used.
 */

export type Role = "create" | "read" | "update" | "delete" | "list" | "other";

export interface Profile {
  tool: ListedTool;
  role: Role;
  /** What the tool acts on, strongest reading first (singular nouns, snake_case). */
  subjects: string[];
  /** The argument that names the entity acted on (read, update, delete). */
  idArg?: string;
  /** The identifier argument takes a list of ids (`names: [..]`). */
  idList?: boolean;
  /** The collection the effects target, when the catalog file declares effects. */
  collection?: string;
  /** Arguments the effects use as keys of a collection (`orders/{order_id}` → order_id: orders). */
  keys: Record<string, string>;
  /** The toolset the tool belongs to, where the catalog files say: tools pair only within one. */
  group?: string;
  via: "effects" | "names";
}

/** An effect as a catalog file writes it (only what pairing reads). */
export interface DeclaredEffect {
  kind?: string;
  target?: string;
}

const VERBS: Record<Exclude<Role, "other">, readonly string[]> = {
  create: [
    "create",
    "add",
    "new",
    "insert",
    "post",
    "register",
    "book",
    "make",
    "submit",
    "place",
    "write",
    "upload",
    "save",
    "store",
    "issue",
    "schedule",
    "record",
    "log",
    "open",
    "start",
    "enroll",
    "subscribe",
  ],
  read: ["get", "read", "show", "fetch", "retrieve", "view", "describe", "lookup", "load", "open", "check"],
  list: ["list", "search", "find", "query", "browse", "all", "filter", "lookup"],
  update: [
    "update",
    "edit",
    "modify",
    "set",
    "change",
    "patch",
    "put",
    "rename",
    "replace",
    "adjust",
    "amend",
    "cancel",
    "approve",
    "reject",
    "assign",
    "close",
    "archive",
    "configure",
    "toggle",
    "enable",
    "disable",
    "mark",
  ],
  delete: ["delete", "remove", "destroy", "drop", "erase", "purge", "unregister", "unsubscribe", "del"],
};

const FILLER = new Set([
  "by",
  "id",
  "ids",
  "the",
  "a",
  "an",
  "for",
  "of",
  "to",
  "from",
  "in",
  "on",
  "with",
  "and",
  "or",
  "details",
  "detail",
  "info",
  "information",
  "data",
  "all",
  "new",
  "existing",
  "my",
  "single",
  "one",
  "api",
  "v1",
  "v2",
  "v3",
]);

/** Words of a name: snake_case, camelCase, kebab-case, dotted and slashed names alike. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w !== "");
}

/** "pet_id" → "pet", "entityNames" → "entity", "order_ids" → "order"; undefined for other names. */
export function stemOfIdentifier(name: string): string | undefined {
  const words = wordsOf(name);
  const last = words.at(-1);
  if (!last || words.length < 2) return undefined;
  if (!["id", "ids", "name", "names", "key", "keys", "code", "uuid", "slug", "number"].includes(last))
    return undefined;
  return words.slice(0, -1).map(singular).join("_");
}

const IDENTIFIER = /^(id|ids|uuid|key|slug|name|names|path|paths|symbol|ticker|code|handle|username|email)$/i;

function isIdentifierName(name: string): boolean {
  return IDENTIFIER.test(name) || stemOfIdentifier(name) !== undefined;
}

/** Profiles of a catalog's tools; `effects` are those the catalog files declare, by tool name. */
export function profileTools(
  tools: readonly ListedTool[],
  effects: ReadonlyMap<string, readonly DeclaredEffect[]> = new Map(),
  groups: ReadonlyMap<string, string> = new Map(),
): Profile[] {
  return tools.map((tool) => {
    const profile = profileOf(tool, effects.get(tool.name) ?? []);
    const group = groups.get(tool.name);
    return group === undefined ? profile : { ...profile, group };
  });
}

export function profileOf(tool: ListedTool, effects: readonly DeclaredEffect[]): Profile {
  const fromEffects = effectReading(tool, effects);
  const fromNames = nameReading(tool);
  const keys: Record<string, string> = {};
  for (const effect of effects) {
    if (typeof effect.target !== "string") continue;
    const { collection, keyArg } = split(effect.target, tool);
    if (keyArg && !(keyArg in keys)) keys[keyArg] = collection;
  }
  if (!fromEffects) return { ...fromNames, keys };
  return {
    ...fromEffects,
    keys,
    subjects: unique([...fromEffects.subjects, ...fromNames.subjects]),
    idArg: fromEffects.idArg ?? (fromEffects.role === fromNames.role ? fromNames.idArg : undefined),
    idList: fromEffects.idArg ? false : fromNames.idList,
  };
}

function effectReading(tool: ListedTool, effects: readonly DeclaredEffect[]): Profile | undefined {
  const targeted = effects
    .filter((e) => typeof e.target === "string" && typeof e.kind === "string")
    .map((e) => ({ kind: e.kind as string, ...split(e.target as string, tool, e.kind) }));
  if (targeted.length === 0) return undefined;
  const verb = verbOf(tool);
  // a tool that adds an entity creates it, whatever else it updates on the way (a parent's counters)
  const write =
    targeted.find((e) => e.kind === "create") ??
    targeted.find((e) => ["update", "delete"].includes(e.kind) && e.keyArg) ??
    targeted.find((e) => ["update", "delete"].includes(e.kind));
  const read = targeted.find((e) => e.kind === "read" && e.keyArg);
  const list = targeted.find((e) => e.kind === "list");
  const chosen = write ?? (verb === "list" && list ? list : (read ?? list));
  if (!chosen) return undefined;
  const role: Role = chosen === write ? (chosen.kind as Role) : chosen === read ? "read" : "list";
  const profile: Profile = {
    tool,
    role,
    keys: {},
    subjects: [singular(chosen.collection.split("/").at(-1) ?? chosen.collection)],
    collection: chosen.collection,
    via: "effects",
  };
  if (chosen.keyArg && role !== "create" && role !== "list") profile.idArg = chosen.keyArg;
  return profile;
}

/**
 * "orders/{order_id}" → collection orders, key argument order_id (when it is a plain
 * argument). A create inside an entity ("users/{user_id}/payment_methods") makes a thing of
 * its own kind: its collection is the whole path, keys elided.
 */
function split(target: string, tool: ListedTool, kind?: string): { collection: string; keyArg?: string } {
  const parts = target.split("/");
  const [first = "", key] = parts;
  const arg = key?.match(/^\{([A-Za-z0-9_]+)\}$/)?.[1];
  const properties = isObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  if (kind === "create" && parts.length > 2)
    return { collection: parts.map((p) => (p.startsWith("{") ? "*" : p)).join("/") };
  return arg && arg in properties ? { collection: first, keyArg: arg } : { collection: first };
}

function nameReading(tool: ListedTool): Profile {
  const words = wordsOf(tool.name);
  // a number in a name tells versions apart (`generate_image_2`), it names nothing
  const nouns = words.filter((w) => !isVerb(w) && !FILLER.has(w) && !/^\d+$/.test(w)).map(singular);
  const identifier = identifierOf(tool, nouns);
  // what a removal takes is the noun after its verb: `remove_label(card_id, label)` and
  // `remove_track_from_playlist(playlist_id, track_id)` change the card and the playlist
  const stem = identifier ? stemOfIdentifier(identifier.name) : undefined;
  // and what follows "from" holds it (`unregister_from_talk(talk_id, attendee_id)` keeps the talk)
  const from = words.indexOf("from");
  const holder =
    from >= 0 && stem !== undefined && singular(words[from + 1] ?? "") === stem && required(tool).length > 1;
  const part =
    roleOf(tool) === "delete" && stem !== undefined && nouns.length > 0 && (stem !== nouns[0] || holder);
  const role = part ? "other" : roleOf(tool);
  const subjects: string[] = [];
  if (identifier && role !== "create" && role !== "list") {
    const stem = stemOfIdentifier(identifier.name);
    if (stem) subjects.push(stem);
  }
  if (nouns.length > 0) subjects.push(nouns.join("_"), nouns.at(-1) as string, nouns[0] as string);
  if (role === "read" || role === "list") subjects.push(...answeredNouns(tool));
  if (role === "create") subjects.push(...createdNouns(tool));
  // files and folders are entries of one tree: a tool addressed by a path acts on "a path",
  // one named for folders on a folder's (a folder made is no file to read)
  if (addressedByPath(tool)) subjects.push(nouns.some((n) => FOLDER_WORDS.has(n)) ? "folder_path" : "path");
  const profile: Profile = { tool, role, keys: {}, subjects: unique(subjects), via: "names" };
  if (identifier && (role === "read" || role === "update" || role === "delete")) {
    profile.idArg = identifier.name;
    profile.idList = identifier.list;
  }
  return profile;
}

const FOLDER_WORDS = new Set(["dir", "directory", "folder"]);

function addressedByPath(tool: ListedTool): boolean {
  return required(tool).some((name) => /^(path|paths|source|file_?path|directory)$/i.test(name));
}

function required(tool: ListedTool): string[] {
  return Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.map(String) : [];
}

function roleOf(tool: ListedTool): Role {
  const verb = verbOf(tool);
  const hints = tool.annotations ?? {};
  const identifier = identifierOf(tool, []);
  if (verb === "open") return hints.readOnlyHint === true ? "read" : "create";
  if (verb === "read" && !identifier) return "list";
  if (verb === "check") return hints.readOnlyHint === false ? "other" : identifier ? "read" : "other";
  if (verb === "lookup") return identifier ? "read" : "list";
  if (verb) return verb;
  // no verb in the name: the annotations (an OpenAPI method's, a server's own) say what it does
  if (hints.readOnlyHint === true) return identifier ? "read" : "list";
  // MCP calls any update that overwrites destructive (`freeze_account` setting a flag, a
  // deposit): without a verb it may be a delete as well as an update, so it is not read
  if (hints.destructiveHint === true) return "other";
  if (hints.readOnlyHint === false && hints.idempotentHint === true) return "update";
  return "other";
}

/**
 * Words that are nouns as often as verbs ("campaign_schedule_builder", "order_record"): a
 * verb only as a name's first word.
 */
const AMBIGUOUS = new Set([
  "schedule",
  "record",
  "log",
  "book",
  "place",
  "issue",
  "post",
  "check",
  "set",
  "list",
  "search",
  "filter",
  "query",
  "store",
  "save",
  "open",
  "start",
  "change",
  "patch",
  "mark",
  "close",
  "lookup",
  "view",
  "show",
  "new",
  "all",
  "make",
  "load",
  "drop",
  "submit",
  "write",
  "read",
]);

function verbOf(tool: ListedTool): Role | "open" | "check" | "lookup" | "read" | undefined {
  const words = wordsOf(tool.name);
  for (const [i, word] of words.slice(0, 3).entries()) {
    if (i > 0 && AMBIGUOUS.has(word)) continue;
    if (word === "open" || word === "check" || word === "lookup") return word;
    if (word === "read") return "read";
    for (const role of ["delete", "update", "list", "create", "read"] as const)
      if (VERBS[role].includes(word)) return role;
  }
  return undefined;
}

function isVerb(word: string): boolean {
  return Object.values(VERBS).some((verbs) => verbs.includes(word));
}

/** The argument naming the entity: the one whose stem is a noun of the name, else `id`, else an id-like one. */
function identifierOf(
  tool: ListedTool,
  nouns: readonly string[],
): { name: string; list: boolean } | undefined {
  const properties = isObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.map(String) : [];
  const candidates = required.filter((name) => {
    const schema = properties[name];
    if (!isObject(schema)) return false;
    return isIdentifierName(name) && scalarOrList(schema);
  });
  const named =
    candidates.find((name) => nouns.includes(stemOfIdentifier(name) ?? "")) ??
    candidates.find((name) => /^(id|uuid|key|slug|path|name|symbol)$/i.test(name)) ??
    candidates.find((name) => stemOfIdentifier(name) !== undefined) ??
    candidates[0] ??
    (required.length === 1 &&
    isObject(properties[required[0] as string]) &&
    scalarOrList(properties[required[0] as string] as Record<string, unknown>) &&
    nouns.length > 0
      ? required[0]
      : undefined);
  if (!named) return undefined;
  const schema = properties[named];
  return { name: named, list: isObject(schema) && schema.type === "array" };
}

function scalarOrList(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === "string" || type === "integer" || type === "number") return true;
  if (type === "array" && isObject(schema.items))
    return ["string", "integer", "number"].includes(String(schema.items.type));
  return type === undefined && !isObject(schema.properties);
}

/** The nouns a read or list answers: its output's top-level lists and objects (`entities`, `pet`). */
function answeredNouns(tool: ListedTool): string[] {
  const properties = isObject(tool.outputSchema?.properties) ? tool.outputSchema.properties : {};
  return Object.entries(properties)
    .filter(([, schema]) => isObject(schema) && (schema.type === "array" || schema.type === "object"))
    .map(([name]) => wordsOf(name).map(singular).join("_"));
}

/** The ids a create's output names at its top level (`{"pet_id": …}`): the thing it made. */
function createdNouns(tool: ListedTool): string[] {
  const output = isObject(tool.outputSchema?.properties) ? tool.outputSchema.properties : {};
  return Object.keys(output).flatMap((name) => {
    const stem = stemOfIdentifier(name);
    return stem && /(_id|Id|ID)$/.test(name) ? [stem] : [];
  });
}

/** How well two tools name the same thing: 0 for nothing in common, higher for stronger readings. */
export function affinity(a: Profile, b: Profile): number {
  if (a.collection && b.collection) return a.collection === b.collection ? 100 : 0;
  let best = 0;
  a.subjects.forEach((x, i) => {
    b.subjects.forEach((y, j) => {
      if (x === y) best = Math.max(best, 50 - i - j);
    });
  });
  return best;
}

/** A read that needs nothing but the id: its error can only be about the id. */
export function isPureRead(profile: Profile): boolean {
  if (profile.role !== "read" || !profile.idArg) return false;
  const required = Array.isArray(profile.tool.inputSchema.required) ? profile.tool.inputSchema.required : [];
  return required.every((name) => name === profile.idArg);
}

/** The partner of `profile` among tools of a role that acts on the same thing best; undefined when none does. */
export function partnersOf(profile: Profile, profiles: readonly Profile[], role: Role): Profile[] {
  return profiles
    .filter((p) => p.role === role && p !== profile)
    .map((p) => ({ p, score: affinity(profile, p) }))
    .filter(({ score }) => score > 0)
    .sort((x, y) => y.score - x.score)
    .map(({ p }) => p);
}

/**
 * The tools among `candidates` that act on `profile`'s own noun: those matched by its
 * strongest subject (a file's reads, not every read of a path).
 */
export function closestPartners(profile: Profile, candidates: readonly Profile[]): Profile[] {
  const rank = (other: Profile) => {
    if (profile.collection && other.collection) return profile.collection === other.collection ? 0 : -1;
    return profile.subjects.findIndex((s) => other.subjects.includes(s));
  };
  const ranked = candidates.map((c) => ({ c, r: rank(c) })).filter(({ r }) => r >= 0);
  const best = Math.min(...ranked.map(({ r }) => r));
  return ranked.filter(({ r }) => r === best).map(({ c }) => c);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((v) => v !== ""))];
}
