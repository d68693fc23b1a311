import type { CreateEffect, Effect, ListEffect, UpdateEffect } from "../../catalog/index.js";
import { ABSENT } from "../../catalog/index.js";
import { truthy } from "../../expr/index.js";
import { isPlainObject, type Patch, type PatchOperation, toPointer } from "../../patch/index.js";
import { looselyEqual, type State } from "../../state/index.js";
import {
  candidatesInKeyOrder,
  childOf,
  entitiesInKeyOrder,
  hasCollection,
  mintKey,
  nextKey,
  rootRecord,
  valueAt,
} from "../state-access.js";
import { fail } from "./failures.js";
import { checkGuards } from "./guards.js";
import {
  assign,
  concretePath,
  dig,
  isFixedTarget,
  isTemplate,
  roundMoney,
  targetPath,
  targetSegments,
  targetSteps,
  toNumber,
} from "./paths.js";
import { commit, EffectBroken, type Ran, type Run } from "./run.js";
import { evaluate, resolve } from "./values.js";

type Entity = Record<string, unknown>;

/** read, update and delete: reach the subject at the target, check the guards, act. */
export async function changeSubject(
  run: Run,
  effect: Extract<Effect, { kind: "read" | "update" | "delete" }>,
): Promise<Ran> {
  const steps = targetSteps(run, effect.target);
  if (!steps) return undefined; // a key's argument is absent: the effect does not apply
  const path = concretePath(run.state, steps);
  const subject = path ? subjectAt(run.state, path) : undefined;
  if (!path || subject === undefined) {
    if (effect.missing) fail(run, effect.missing);
    if (effect.kind === "update" && path && isFixedTarget(effect.target))
      return makeRecord(run, path, effect);
    return undefined; // unknown entity and no rule that it must exist: leave the answer to the simulator
  }
  run.subject = subject;
  if (effect.as) run.scope.bindings[effect.as] = subject; // so a guard's error message can quote it
  await checkGuards(run, effect.require, subject);
  if (effect.kind === "read") return { value: subject };
  if (effect.kind === "delete") {
    if (path.length === 0) throw new EffectBroken("the whole state cannot be deleted");
    const pointer = toPointer(path);
    commit(run, [{ op: "remove", path: pointer }], pointer);
    return { value: subject };
  }
  const updated = await updateValue(run, subject, effect);
  if (path.length === 0) commit(run, rootChanges(subject as Entity, updated as Entity), "");
  else {
    const pointer = toPointer(path);
    commit(run, [{ op: "replace", path: pointer, value: updated }], pointer);
  }
  return { value: updated };
}

/**
 * An update of a fixed record the world lacks (its settings, the signed-in session, a part the
 * state was given without) makes the record, as a PUT to a singleton resource does, rather than
 * answering success and keeping nothing. It is made only under records: never inside a list
 * or over a value.
 */
async function makeRecord(run: Run, path: readonly string[], effect: UpdateEffect): Promise<Ran> {
  const first = path.findIndex((_, i) => valueAt(run.state, path.slice(0, i + 1)) === undefined);
  const parent = path.slice(0, first);
  if (first < 0 || !isPlainObject(subjectAt(run.state, parent))) return undefined;
  run.subject = {};
  if (effect.as) run.scope.bindings[effect.as] = run.subject;
  await checkGuards(run, effect.require, run.subject);
  const updated = await updateValue(run, run.subject, effect);
  const made = path.slice(first + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), updated);
  commit(run, [{ op: "add", path: toPointer(path.slice(0, first + 1)), value: made }], toPointer(path));
  return { value: updated };
}

/** The value at a path; the empty path is the whole state as one record (without `runtime`). */
function subjectAt(state: State, path: readonly string[]): unknown {
  return path.length === 0 ? rootRecord(state) : valueAt(state, path);
}

/** A change of the whole state as a record: one operation per top-level value that changed. */
function rootChanges(before: Entity, after: Entity): Patch {
  const ops: Patch = [];
  for (const key of Object.keys(before))
    if (!Object.hasOwn(after, key)) ops.push({ op: "remove", path: toPointer([key]) });
  for (const [key, value] of Object.entries(after)) {
    if (!Object.hasOwn(before, key)) ops.push({ op: "add", path: toPointer([key]), value });
    else if (before[key] !== value) ops.push({ op: "replace", path: toPointer([key]), value });
  }
  return ops;
}

export async function listEntities(run: Run, effect: ListEffect): Promise<Ran> {
  const where = (await resolve(run, effect.where, "where")) as Record<string, unknown>;
  const limitValue = await resolve(run, effect.limit, "limit");
  const limit = typeof limitValue === "number" && limitValue > 0 ? limitValue : Number.POSITIVE_INFINITY;
  const matches: Entity[] = [];
  for (const [, entity] of candidates(run, effect.target, where)) {
    if (!isPlainObject(entity) || !matchesWhere(entity, where)) continue;
    if (effect.filter !== undefined && !truthy(await evaluate(run, effect.filter, "filter", entity)))
      continue;
    matches.push(entity);
    if (matches.length >= limit) break;
  }
  if (matches.length === 0 && effect.missing) fail(run, effect.missing);
  return { value: matches };
}

/**
 * The entities a `where` may match, in key order: a top-level collection through the index on
 * the first field of the `where` when it has one; a deeper map or an array of records, in order.
 */
function candidates(run: Run, target: string, where: Record<string, unknown>): Iterable<[string, unknown]> {
  const segments = targetSegments(target);
  if (segments.length === 1 && hasCollection(run.state, target)) {
    const [first] = Object.entries(where);
    if (!first) return entitiesInKeyOrder(run.state, target);
    const [field, wanted] = first;
    // a list matches any of its values, or an array field equal to the whole list
    return candidatesInKeyOrder(
      run.state,
      target,
      field,
      Array.isArray(wanted) ? [...wanted, wanted] : [wanted],
    );
  }
  const path = targetPath(run, target);
  const container = path ? valueAt(run.state, path) : undefined;
  if (Array.isArray(container)) return container.map((element, index) => [String(index), element]);
  if (isPlainObject(container)) return Object.entries(container);
  return [];
}

/** A `where` value matches equal fields; an array of values matches any of them. */
function matchesWhere(entity: Entity, where: Record<string, unknown>): boolean {
  return Object.entries(where).every(([path, wanted]) => {
    const actual = dig(entity, path);
    if (Array.isArray(wanted) && !Array.isArray(actual)) return wanted.some((w) => looselyEqual(actual, w));
    return looselyEqual(actual, wanted);
  });
}

/**
 * create: "collection" files the value under a minted key, "collection/{key}" under the
 * given one; a longer target ending in a template names the new key inside the entity,
 * and one ending in a literal names a container (an object gets a minted key, an array
 * gets the value appended).
 */
export async function createValue(run: Run, effect: CreateEffect): Promise<Ran> {
  const segments = targetSegments(effect.target);
  if (segments.length === 1 && !effect.id?.counter && hasCollection(run.state, segments[0] as string))
    return createEntity(run, effect, false);
  if (segments.length === 2 && isTemplate(segments[1] as string)) return createEntity(run, effect, true);
  if (segments.length === 1 && !valueAt(run.state, segments) && !effect.id?.counter)
    return createEntity(run, effect, false);
  return createInside(run, effect, segments);
}

async function createEntity(run: Run, effect: CreateEffect, keyed: boolean): Promise<Ran> {
  const collection = targetSegments(effect.target)[0] as string;
  // a target without a key ("return_requests") means: under a freshly minted id
  if (effect.id || !keyed) {
    const minted = mintKey(
      run.state,
      collection,
      effect.id?.prefix ?? "",
      effect.id?.numeric ? 1 : (effect.id?.width ?? 4),
    );
    run.scope.id = effect.id?.numeric && effect.id.prefix === "" ? Number(minted) : minted;
  }
  const key = keyed ? targetPath(run, effect.target)?.[1] : String(run.scope.id);
  if (key === undefined) return undefined;
  if (valueAt(run.state, [collection, key]) !== undefined) {
    if (effect.exists) fail(run, effect.exists);
    return undefined;
  }
  const entity = await newValue(run, effect, keyed ? key : run.scope.id);
  const ops: Patch = [];
  if (!hasCollection(run.state, collection))
    ops.push({ op: "add", path: toPointer([collection]), value: {} });
  const pointer = toPointer([collection, key]);
  ops.push({ op: "add", path: pointer, value: entity });
  commit(run, ops, pointer);
  return { value: entity };
}

async function createInside(run: Run, effect: CreateEffect, segments: readonly string[]): Promise<Ran> {
  const steps = targetSteps(run, effect.target);
  if (!steps) return undefined; // an argument the target needs is absent
  const path = concretePath(run.state, steps);
  // no element of an array holds the field's value: the record to create inside is missing
  if (!path) {
    if (effect.missing) fail(run, effect.missing);
    return undefined;
  }
  const keyed = isTemplate(segments[segments.length - 1] as string);
  const containerPath = keyed ? path.slice(0, -1) : path;
  const parent =
    containerPath.length <= 1 ? rootRecord(run.state) : valueAt(run.state, containerPath.slice(0, -1));
  if (parent === null || typeof parent !== "object") {
    if (effect.missing) fail(run, effect.missing);
    return undefined;
  }
  const container = childOf(parent, containerPath[containerPath.length - 1] as string);
  const missing = container === undefined;
  if (Array.isArray(container) || (missing && !keyed && siblingShape(run.state, containerPath) === "array")) {
    if (keyed) throw new EffectBroken(`${effect.target} names a key, but the value there is an array`);
    return appendInto(run, effect, containerPath, Array.isArray(container) ? container : undefined);
  }
  if (!missing && !isPlainObject(container))
    throw new EffectBroken(`${effect.target} leads to a ${typeof container}, not an object or an array`);
  const counter = mintFromCounter(run, effect, Object.keys(container ?? {}));
  if (!keyed)
    run.scope.id =
      counter?.id ?? nextKey(Object.keys(container ?? {}), effect.id?.prefix ?? "", effect.id?.width ?? 4);
  const key = keyed ? (path[path.length - 1] as string) : String(run.scope.id);
  if (container && Object.hasOwn(container, key)) {
    if (effect.exists) fail(run, effect.exists);
    return undefined;
  }
  const value = await newValue(run, effect, keyed ? key : run.scope.id);
  const pointer = toPointer([...containerPath, key]);
  const op: PatchOperation = missing
    ? { op: "add", path: toPointer(containerPath), value: { [key]: value } }
    : { op: "add", path: pointer, value };
  commit(run, [op, ...(counter?.ops ?? [])], pointer);
  return { value };
}

/** Appends a created value to an array (made when it is missing). */
async function appendInto(
  run: Run,
  effect: CreateEffect,
  containerPath: readonly string[],
  container: readonly unknown[] | undefined,
): Promise<Ran> {
  const existing = container ?? [];
  const used = idsIn(existing, effect.id?.field);
  const counter = mintFromCounter(run, effect, used.map(String));
  if (effect.id) run.scope.id = counter?.id ?? nextId(used, effect.id);
  const value = await newValue(run, effect, effect.id ? run.scope.id : undefined);
  const pointer = toPointer([...containerPath, String(existing.length)]);
  const op: PatchOperation = container
    ? { op: "add", path: toPointer([...containerPath, "-"]), value }
    : { op: "add", path: toPointer(containerPath), value: [value] };
  commit(run, [op, ...(counter?.ops ?? [])], pointer);
  return { value };
}

/** The id after the largest one used; a number when the ids are numbers (or the tool says they are). */
function nextId(used: readonly unknown[], id: NonNullable<CreateEffect["id"]>): string | number {
  const numbers = used.length > 0 && used.every((u) => typeof u === "number");
  if ((numbers || id.numeric) && id.prefix === "") return Number(nextKey(used, "", 1));
  return nextKey(used, id.prefix, id.width);
}

/**
 * An id from a counter of the state: the number it holds ("next") or one more ("last"), past
 * any id already taken; the counter then holds what its convention says.
 */
function mintFromCounter(
  run: Run,
  effect: CreateEffect,
  taken: readonly string[],
): { id: string | number; ops: Patch } | undefined {
  const id = effect.id;
  if (!id?.counter) return undefined;
  const counterPath = id.counter.split("/");
  const current = toNumber(valueAt(run.state, counterPath)) ?? 0;
  const used = new Set(taken);
  const format = (n: number) => `${id.prefix}${id.numeric ? String(n) : String(n).padStart(id.width, "0")}`;
  let number = id.counterHolds === "last" ? current + 1 : current;
  while (used.has(format(number))) number++;
  const stored = id.counterHolds === "last" ? number : number + 1;
  const ops: Patch = [
    {
      op: valueAt(run.state, counterPath) === undefined ? "add" : "replace",
      path: toPointer(counterPath),
      value: stored,
    },
  ];
  return { id: id.numeric && id.prefix === "" ? number : format(number), ops };
}

/**
 * The shape a missing container takes: the one the same field has in the collection's other
 * entities (a list of items, a map of payment methods), or an array when none has it.
 */
function siblingShape(state: State, containerPath: readonly string[]): "array" | "object" {
  const [collection, , ...inside] = containerPath;
  if (collection === undefined || inside.length === 0) return "array";
  for (const [, entity] of entitiesInKeyOrder(state, collection)) {
    const value = inside.reduce<unknown>((current, segment) => childOf(current, segment), entity);
    if (Array.isArray(value)) return "array";
    if (isPlainObject(value)) return "object";
  }
  return "array";
}

/** The ids already used in an array container: its elements' id field (or the elements themselves). */
function idsIn(container: readonly unknown[], field: string | undefined): unknown[] {
  return container.map((element) => (field ? childOf(element, field) : element));
}

/** The value a create adds: its `set`, with the new id in `id.field`, checked by its guards. */
async function newValue(run: Run, effect: CreateEffect, key: unknown): Promise<Entity> {
  const value = (await resolve(run, effect.set, "set")) as Entity;
  if (effect.id?.field && key !== undefined) value[effect.id.field] = key;
  run.subject = value;
  await checkGuards(run, effect.require, value);
  return value;
}

async function updateValue(run: Run, subject: unknown, effect: UpdateEffect): Promise<unknown> {
  const changes = [effect.set, effect.inc, effect.append].some((fields) => Object.keys(fields).length > 0);
  if (changes && subject !== null && typeof subject !== "object")
    throw new EffectBroken(`${effect.target} leads to a ${typeof subject}, which has no fields to change`);
  let updated = isPlainObject(subject) ? { ...subject } : subject;
  for (const [path, template] of Object.entries(effect.set)) {
    const value = await resolve(run, template, `set.${path}`);
    if (value !== ABSENT) updated = assign(updated, path, value);
  }
  for (const [path, template] of Object.entries(effect.inc)) {
    const delta = toNumber(await resolve(run, template, `inc.${path}`));
    if (delta === undefined) continue;
    const current = toNumber(dig(updated, path)) ?? 0;
    updated = assign(updated, path, roundMoney(current + delta));
  }
  for (const [path, template] of Object.entries(effect.append)) {
    const value = await resolve(run, template, `append.${path}`);
    if (value === ABSENT) continue;
    const current = dig(updated, path);
    updated = assign(updated, path, [...(Array.isArray(current) ? current : []), value]);
  }
  return updated;
}
