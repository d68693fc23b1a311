import type { JsonSchema, Tool } from "../catalog/index.js";
import { isPlainObject, type Patch, toPointer } from "../patch/index.js";
import type { State } from "../state/index.js";
import { isIdentifier } from "./synthesize.js";

/**
 * What the offline engine infers for tools without declared effects: whether the tool
 * reads or writes (from its annotations and the verb of its name), which entities of the
 * state its identifier arguments point at, and the state change a write implies.
 */

export type Action = "read" | "create" | "update" | "delete";

/**
 * Verbs that begin the name of a tool that only looks things up: the ones hybrid mode trusts
 * to run on a real server. Inference reads more verbs as reads (below).
 */
export const LOOKUP_VERBS: readonly string[] = [
  "get",
  "list",
  "search",
  "find",
  "fetch",
  "read",
  "describe",
  "view",
  "show",
  "retrieve",
  "query",
  "lookup",
  "browse",
  "inspect",
  "count",
  "stat",
];

/** Verbs that say a tool removes what it names. */
export const REMOVE_VERBS: readonly string[] = [
  "delete",
  "remove",
  "destroy",
  "purge",
  "drop",
  "erase",
  "unregister",
  "revoke",
  "unlink",
  "rm",
];

const VERBS: Record<Action, readonly string[]> = {
  read: [
    ...LOOKUP_VERBS,
    // these change nothing either, though a real server may do work for them
    "check",
    "calculate",
    "compute",
    "estimate",
    "quote",
    "verify",
    "validate",
    "preview",
    "track",
    "compare",
    "recommend",
    "explain",
    "summarize",
    "download",
    "export",
    "is",
    "has",
    "can",
  ],
  create: [
    "create",
    "add",
    "register",
    "book",
    "place",
    "submit",
    "schedule",
    "open",
    "issue",
    "generate",
    "new",
    "make",
    "post",
    "send",
    "upload",
    "enroll",
    "initiate",
    "start",
    "request",
    "log",
    "record",
    "reserve",
    "file",
    "insert",
  ],
  update: [
    "update",
    "set",
    "modify",
    "change",
    "edit",
    "cancel",
    "approve",
    "reject",
    "assign",
    "close",
    "complete",
    "confirm",
    "mark",
    "move",
    "rename",
    "resolve",
    "suspend",
    "activate",
    "deactivate",
    "amend",
    "transfer",
    "apply",
    "refund",
    "process",
    "reschedule",
    "pay",
    "upgrade",
    "downgrade",
    "enable",
    "disable",
    "archive",
  ],
  delete: REMOVE_VERBS,
};

/** Verbs that put an entity into a status: the stem a schema's spelling starts with, and the default. */
const STATUS_VERBS: Record<string, [stem: string, status: string]> = {
  cancel: ["cancel", "cancelled"],
  approve: ["approv", "approved"],
  reject: ["reject", "rejected"],
  close: ["close", "closed"],
  complete: ["complet", "completed"],
  confirm: ["confirm", "confirmed"],
  resolve: ["resolv", "resolved"],
  suspend: ["suspend", "suspended"],
  activate: ["activ", "active"],
  deactivate: ["inactiv", "inactive"],
  archive: ["archiv", "archived"],
  refund: ["refund", "refunded"],
};

export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function actionOf(tool: Tool): Action {
  if (tool.annotations?.readOnlyHint === true) return "read";
  const named = verbActionOf(tool.name);
  if (named) return named;
  if (tool.annotations?.destructiveHint === true) return "delete";
  return "read";
}

/** The action the verb of a tool's name states (its first two words), if a known verb is there. */
export function verbActionOf(name: string): Action | undefined {
  for (const word of wordsOf(name).slice(0, 2)) {
    for (const action of ["delete", "update", "create", "read"] as const) {
      if (VERBS[action].includes(word)) return action;
    }
  }
  return undefined;
}

export interface EntityRef {
  collection: string;
  key: string;
  entity: Record<string, unknown>;
  argument: string;
}

/** Entities of the state that identifier-like arguments name, by key or by an id field. */
export function referencedEntities(args: Record<string, unknown>, state: State): EntityRef[] {
  const refs: EntityRef[] = [];
  for (const [argument, value] of Object.entries(args)) {
    if (
      !isIdentifier(wordsOf(argument).join("_")) ||
      (typeof value !== "string" && typeof value !== "number")
    )
      continue;
    const wanted = String(value);
    for (const collection of state.keys()) {
      const entities = collection === "runtime" ? undefined : state.collection(collection);
      if (!entities) continue;
      const direct = entities.get(wanted);
      if (isPlainObject(direct)) {
        refs.push({ collection, key: wanted, entity: direct, argument });
        continue;
      }
      if (!collectionMatches(collection, argument)) continue;
      for (const [key, entity] of entities.matching(argument, [wanted])) {
        if (!isPlainObject(entity) || String(entity[argument] ?? "") !== wanted) continue;
        refs.push({ collection, key, entity, argument });
        break;
      }
    }
  }
  return refs;
}

/** `order_id` belongs with `orders`, `patient_id` with `patients`. */
function collectionMatches(collection: string, argument: string): boolean {
  const noun = wordsOf(argument).slice(0, -1).join("_");
  return (
    noun !== "" && (collection === plural(noun) || collection === noun || collection.endsWith(plural(noun)))
  );
}

/**
 * Lays entity fields over a synthesized result: under a property named after the
 * entity (`order` for `orders`) when the output has one, else onto same-named fields.
 */
export function overlayEntities(
  result: Record<string, unknown>,
  refs: readonly EntityRef[],
  output?: JsonSchema,
) {
  const properties = (output?.properties ?? {}) as Record<string, unknown>;
  for (const ref of refs) {
    const singular = singular_(ref.collection);
    if (singular in properties) {
      result[singular] = { ...(isPlainObject(result[singular]) ? result[singular] : {}), ...ref.entity };
      continue;
    }
    for (const [field, value] of Object.entries(ref.entity)) {
      if (field in properties || !output) result[field] = value;
    }
  }
}

export interface InferredWrite {
  patch: Patch;
  /** The entity as it stands after the write, for the result. */
  entity?: Record<string, unknown>;
}

/** The state change a write tool without effects implies. */
export function inferWrite(
  tool: Tool,
  action: Action,
  args: Record<string, unknown>,
  result: Record<string, unknown>,
  refs: readonly EntityRef[],
  state: State,
): InferredWrite {
  if (action === "read") return { patch: [] };
  const target = refs[0];
  if (action === "create") return inferCreate(tool, args, result, state);
  if (!target) return { patch: [] };
  const pointer = toPointer([target.collection, target.key]);
  if (action === "delete") return { patch: [{ op: "remove", path: pointer }], entity: target.entity };
  const updated = { ...target.entity };
  for (const [field, value] of Object.entries(args)) {
    if (field !== target.argument) updated[field] = value;
  }
  const status = statusAfter(tool, target.entity);
  if (status !== undefined) updated.status = status;
  return { patch: [{ op: "replace", path: pointer, value: updated }], entity: updated };
}

function inferCreate(
  tool: Tool,
  args: Record<string, unknown>,
  result: Record<string, unknown>,
  state: State,
): InferredWrite {
  const noun = wordsOf(tool.name).slice(1).join("_") || "record";
  const collection = plural(noun);
  const idField =
    Object.keys(result).find((k) => isIdentifier(k) && k.startsWith(singular_(noun))) ??
    Object.keys(result).find((k) => isIdentifier(k) && typeof result[k] === "string");
  const key = idField ? String(result[idField]) : undefined;
  if (!key) return { patch: [] };
  const entity: Record<string, unknown> = { ...args };
  for (const [field, value] of Object.entries(result)) {
    if (value === null || typeof value !== "object") entity[field] ??= value;
  }
  delete entity.message;
  delete entity.success;
  const patch: Patch = [];
  if (!state.collection(collection)) patch.push({ op: "add", path: toPointer([collection]), value: {} });
  patch.push({ op: "add", path: toPointer([collection, key]), value: entity });
  return { patch, entity };
}

/** `cancel_booking` on an entity with a status leaves it "cancelled" (or the spelling the schema uses). */
function statusAfter(tool: Tool, entity: Record<string, unknown>): string | undefined {
  if (!("status" in entity)) return undefined;
  const verb = wordsOf(tool.name).find((w) => w in STATUS_VERBS);
  if (!verb) return undefined;
  const [stem, status] = STATUS_VERBS[verb] as [string, string];
  return statusEnum(tool.outputSchema).find((value) => value.toLowerCase().startsWith(stem)) ?? status;
}

function statusEnum(schema: JsonSchema | undefined): string[] {
  const found: string[] = [];
  const visit = (node: unknown, key?: string) => {
    if (!isPlainObject(node)) return;
    if (key === "status" && Array.isArray(node.enum)) found.push(...node.enum.map(String));
    for (const [k, child] of Object.entries(node)) {
      if (k === "properties" && isPlainObject(child)) for (const [p, s] of Object.entries(child)) visit(s, p);
      else if (k === "items" || k === "additionalProperties") visit(child);
    }
  };
  visit(schema);
  return found;
}

function plural(noun: string): string {
  if (noun.endsWith("s")) return noun;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

function singular_(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us)$/.test(word)) return word;
  return word.replace(/s$/, "");
}
