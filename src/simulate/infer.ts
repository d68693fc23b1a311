import type { Tool } from "../catalog/index.js";
import {
  type Action,
  isIdentifierName,
  plural,
  STATUS_VERBS,
  singular,
  verbOf,
  wordsOf,
} from "../infer/index.js";
import { isPlainObject, type Patch, toPointer } from "../patch/index.js";
import type { State } from "../state/index.js";

/**
 * The runtime fallback for a tool nothing covers (no effects, none inferred): which entities
 * of the state its identifier arguments name, and the change a write implies. It reads
 * tools with the same vocabulary as the inference of effects (src/infer), so the two agree
 * on what a verb does and which argument names which entity.
 */

export {
  type Action,
  actionOf,
  describesOutcome,
  isIdentifierName,
  LOGIN_VERBS,
  LOGOUT_VERBS,
  namesChangeOutcome,
  namesFailureOnly,
  nounOfIdentifier,
  participle,
  SHELL_COMMANDS,
  singular,
  TEXT_ANSWER,
  verbOf,
  verbWords,
  wordsOf,
} from "../infer/index.js";

/** The action the verb of a tool's name states (its first two words), if a known verb is there. */
export function verbActionOf(name: string): Action | undefined {
  return verbOf(name)?.action;
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
    if (!isIdentifierName(argument) || (typeof value !== "string" && typeof value !== "number")) continue;
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
 * Lays entity fields over a result: under a property named after the entity (`order` for
 * `orders`) when the output schema has one, else onto same-named fields; without an output
 * schema the entity is the result.
 */
export function overlayEntities(
  result: Record<string, unknown>,
  refs: readonly EntityRef[],
  output?: Record<string, unknown>,
) {
  const properties = (output?.properties ?? {}) as Record<string, unknown>;
  for (const ref of refs) {
    const name = singular(ref.collection);
    if (name in properties) {
      result[name] = { ...(isPlainObject(result[name]) ? result[name] : {}), ...ref.entity };
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

/** The state change a write tool without effects implies, on the entity its first identifier names. */
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
  if (action === "delete")
    // `remove_plants(bed_code, …)` takes something out of the bed, not the bed itself:
    // a guess never deletes a record the tool's name does not name
    return namesCollection(tool, target.collection)
      ? { patch: [{ op: "remove", path: pointer }], entity: target.entity }
      : { patch: [] };
  let updated: Record<string, unknown> = { ...target.entity };
  for (const [argument, value] of Object.entries(args)) {
    if (argument === target.argument) continue;
    const field = fieldOf(updated, argument);
    if (field) updated = assign(updated, field, value);
  }
  const status = statusAfter(tool, target.entity);
  if (status !== undefined) updated.status = status;
  return { patch: [{ op: "replace", path: pointer, value: updated }], entity: updated };
}

/** `delete_bed` for `beds`, `removeUserAccount` for `user_accounts`. */
function namesCollection(tool: Tool, collection: string): boolean {
  const words = wordsOf(tool.name).map(singular).join("_");
  const noun = wordsOf(collection).map(singular).join("_");
  return noun !== "" && `_${words}_`.includes(`_${noun}_`);
}

/** Where an argument lands: the field of its name, else the one nested field of its name (`address.zip`). */
function fieldOf(entity: Record<string, unknown>, argument: string): string | undefined {
  if (argument in entity) return argument;
  const nested = Object.entries(entity)
    .filter(([, value]) => isPlainObject(value) && argument in value)
    .map(([field]) => `${field}.${argument}`);
  return nested.length === 1 ? nested[0] : undefined;
}

function assign(entity: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head = "", ...rest] = path.split(".");
  if (rest.length === 0) return { ...entity, [head]: value };
  const inner = isPlainObject(entity[head]) ? entity[head] : {};
  return { ...entity, [head]: assign(inner, rest.join("."), value) };
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
    Object.keys(result).find((k) => isIdentifierName(k) && k.startsWith(singular(noun))) ??
    Object.keys(result).find((k) => isIdentifierName(k) && typeof result[k] === "string");
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

/** `cancel_subscription` on an entity with a status leaves it "cancelled" (or the spelling the schema uses). */
function statusAfter(tool: Tool, entity: Record<string, unknown>): string | undefined {
  if (!("status" in entity)) return undefined;
  const verb = wordsOf(tool.name).find((w) => w in STATUS_VERBS);
  if (!verb) return undefined;
  const [stem, status] = STATUS_VERBS[verb] as readonly [string, string];
  return statusEnum(tool.outputSchema).find((value) => value.toLowerCase().startsWith(stem)) ?? status;
}

function statusEnum(schema: Record<string, unknown> | undefined): string[] {
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
