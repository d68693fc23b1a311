import {
  ABSENT,
  type CreateEffect,
  type Effect,
  type Guard,
  isExpressionValue,
  type ListEffect,
  renderString,
  renderValue,
  type TemplateScope,
  type Tool,
  type ToolError,
  type UpdateEffect,
} from "../catalog/index.js";
import { ratesFromState } from "../compute/index.js";
import { evaluateExpression, truthy } from "../expr/index.js";
import { isPlainObject, type Patch, type PatchOperation, toPointer } from "../patch/index.js";
import type { EffectsResult, ToolFailure } from "../simulate/index.js";
import { looselyEqual, State, type StateDocument } from "../state/index.js";
import {
  applyChanges,
  candidatesInKeyOrder,
  childOf,
  entitiesInKeyOrder,
  hasCollection,
  isIndex,
  mintKey,
  nextKey,
  valueAt,
} from "./state-access.js";

type Entity = Record<string, unknown>;

/** Raised inside the effects run when an effect answers with a documented error. */
class EffectFailure {
  constructor(readonly failure: ToolFailure) {}
}

/** Raised when an effect cannot run as written (an expression fails): the catalog's fault. */
class EffectBroken {
  constructor(readonly reason: string) {}
}

interface Run {
  tool: Tool;
  state: State;
  patch: Patch;
  output: Record<string, unknown>;
  /** A whole result that is not an object, decided by a `respond`. */
  whole?: { value: unknown };
  touched: string[];
  scope: TemplateScope;
  /** The effect running, for messages and its `computeError`. */
  effect: Effect;
  index: number;
  /** What the running effect reached (`$subject`), once it has reached it. */
  subject?: unknown;
}

/** An effect that ran, with what it produced (the entity, the list, the value). */
type Ran = { value: unknown } | undefined;

/**
 * Runs a tool's declared effects against the state, in order. The first effect that fails
 * answers the call with a documented error and nothing is applied; otherwise the result
 * carries the patch, the result fragments and the entities touched.
 */
export async function runEffects(
  tool: Tool,
  args: Record<string, unknown>,
  state: State | StateDocument,
  now: string,
): Promise<EffectsResult> {
  // a plain document (an audit case, a task's state) is copied: the effects never change what they are given
  const persistent = state instanceof State ? state : State.fromDocument(structuredClone(state));
  return (await applyEffects(tool, args, persistent, now)).effects;
}

/** runEffects, plus the state the effects leave (the input state itself when they change nothing). */
export async function applyEffects(
  tool: Tool,
  args: Record<string, unknown>,
  state: State,
  now: string,
): Promise<{ effects: EffectsResult; state: State }> {
  const [first] = tool.effects;
  if (!first) return { effects: { status: "none" }, state };
  const runtime = state.runtime;
  const run: Run = {
    tool,
    state,
    patch: [],
    output: {},
    touched: [],
    scope: { args, now, runtime, bindings: {} },
    effect: first,
    index: 0,
  };
  try {
    for (const [index, effect] of tool.effects.entries()) {
      run.effect = effect;
      run.index = index;
      await runEffect(run, effect);
    }
  } catch (error) {
    if (error instanceof EffectFailure)
      return { effects: { status: "failed", failure: error.failure }, state };
    if (error instanceof EffectBroken)
      return { effects: { status: "failed", failure: brokenEffect(run, error.reason) }, state };
    throw error;
  }
  const whole = run.whole ? { result: run.whole.value } : {};
  return {
    effects: { status: "applied", patch: run.patch, output: run.output, touched: run.touched, ...whole },
    state: run.state,
  };
}

/** An effect once, or once per element of its `each`. */
async function runEffect(run: Run, effect: Effect): Promise<void> {
  if (effect.each === undefined) {
    const ran = await runOnce(run, effect);
    if (ran) settle(run, effect, ran.value);
    return;
  }
  const items = asList(await evaluate(run, effect.each, "each"));
  const { bindings } = run.scope;
  const results: unknown[] = [];
  for (const [index, item] of items.entries()) {
    bindings.item = item;
    bindings.index = index;
    const ran = await runOnce(run, effect);
    if (ran) results.push(ran.value);
  }
  delete bindings.item;
  delete bindings.index;
  settle(run, effect, results);
}

/** JSONata hands back a lone element as itself and no elements as nothing. */
function asList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

async function runOnce(run: Run, effect: Effect): Promise<Ran> {
  run.subject = undefined;
  if (effect.when !== undefined && !truthy(await evaluate(run, effect.when, "when"))) return undefined;
  switch (effect.kind) {
    case "check":
      await checkGuards(run, effect.require, run.scope.args);
      return { value: undefined };
    case "respond":
    case "let": {
      const value = await resolve(run, effect.value, "value");
      return value === ABSENT ? undefined : { value };
    }
    case "list":
      return listEntities(run, effect);
    case "create":
      return createValue(run, effect);
    default:
      return changeSubject(run, effect);
  }
}

/** read, update and delete: reach the subject at the target, check the guards, act. */
async function changeSubject(
  run: Run,
  effect: Exclude<Effect, { kind: "check" | "respond" | "let" | "list" | "create" }>,
) {
  const path = targetPath(run, effect.target);
  if (!path || path.length < 2) return undefined; // a key's argument is absent: the effect does not apply
  const subject = subjectAt(run.state, path);
  if (subject === undefined) {
    if (effect.missing) fail(run, effect.missing);
    return undefined; // unknown entity and no rule that it must exist: leave the answer to the simulator
  }
  run.subject = subject;
  if (effect.as) run.scope.bindings[effect.as] = subject; // so a guard's error message can quote it
  await checkGuards(run, effect.require, subject);
  if (effect.kind === "read") return { value: subject };
  const pointer = toPointer(path);
  if (effect.kind === "delete") {
    commit(run, [{ op: "remove", path: pointer }], pointer);
    return { value: subject };
  }
  const updated = await updateValue(run, subject, effect);
  commit(run, [{ op: "replace", path: pointer, value: updated }], pointer);
  return { value: updated };
}

/**
 * The subject at a path. An entity (collection/key) must be an object, as in version 1;
 * deeper values may be anything present.
 */
function subjectAt(state: State, path: readonly string[]): unknown {
  const value = valueAt(state, path);
  if (path.length === 2 && !isPlainObject(value)) return undefined;
  return value;
}

async function listEntities(run: Run, effect: ListEffect): Promise<Ran> {
  const where = (await resolve(run, effect.where, "where")) as Record<string, unknown>;
  const limitValue = await resolve(run, effect.limit, "limit");
  const limit = typeof limitValue === "number" && limitValue > 0 ? limitValue : Number.POSITIVE_INFINITY;
  const matches: Entity[] = [];
  for (const [, entity] of candidates(run.state, effect.target, where)) {
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
 * The entities a `where` may match, in key order: through the index on its first field when
 * it has one (a value, or any of a list of values), otherwise the whole collection.
 */
function candidates(state: State, collection: string, where: Record<string, unknown>) {
  const [first] = Object.entries(where);
  if (!first) return entitiesInKeyOrder(state, collection);
  const [field, wanted] = first;
  // a list matches any of its values, or an array field equal to the whole list
  return candidatesInKeyOrder(
    state,
    collection,
    field,
    Array.isArray(wanted) ? [...wanted, wanted] : [wanted],
  );
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
async function createValue(run: Run, effect: CreateEffect): Promise<Ran> {
  const segments = targetSegments(effect.target);
  if (segments.length <= 2) return createEntity(run, effect, segments.length === 2);
  return createInside(run, effect, segments);
}

async function createEntity(run: Run, effect: CreateEffect, keyed: boolean): Promise<Ran> {
  const collection = targetSegments(effect.target)[0] as string;
  // a target without a key ("return_requests") means: under a freshly minted id
  if (effect.id || !keyed)
    run.scope.id = mintKey(run.state, collection, effect.id?.prefix ?? "", effect.id?.width ?? 4);
  const key = keyed ? targetPath(run, effect.target)?.[1] : (run.scope.id as string);
  if (key === undefined) return undefined;
  if (valueAt(run.state, [collection, key]) !== undefined) {
    if (effect.exists) fail(run, effect.exists);
    return undefined;
  }
  const entity = await newValue(run, effect, key);
  const ops: Patch = [];
  if (!hasCollection(run.state, collection))
    ops.push({ op: "add", path: toPointer([collection]), value: {} });
  const pointer = toPointer([collection, key]);
  ops.push({ op: "add", path: pointer, value: entity });
  commit(run, ops, pointer);
  return { value: entity };
}

async function createInside(run: Run, effect: CreateEffect, segments: readonly string[]): Promise<Ran> {
  const path = targetPath(run, effect.target);
  if (!path) return undefined;
  const keyed = isTemplate(segments[segments.length - 1] as string);
  const containerPath = keyed ? path.slice(0, -1) : path;
  const parent = subjectAt(run.state, containerPath.slice(0, -1));
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
  if (!keyed)
    run.scope.id = nextKey(Object.keys(container ?? {}), effect.id?.prefix ?? "", effect.id?.width ?? 4);
  const key = keyed ? (path[path.length - 1] as string) : (run.scope.id as string);
  if (container && Object.hasOwn(container, key)) {
    if (effect.exists) fail(run, effect.exists);
    return undefined;
  }
  const value = await newValue(run, effect, key);
  const pointer = toPointer([...containerPath, key]);
  const op: PatchOperation = missing
    ? { op: "add", path: toPointer(containerPath), value: { [key]: value } }
    : { op: "add", path: pointer, value };
  commit(run, [op], pointer);
  return { value };
}

/** Appends a created value to an array inside an entity (made when it is missing). */
async function appendInto(
  run: Run,
  effect: CreateEffect,
  containerPath: readonly string[],
  container: readonly unknown[] | undefined,
): Promise<Ran> {
  const existing = container ?? [];
  if (effect.id) run.scope.id = nextKey(idsIn(existing, effect.id.field), effect.id.prefix, effect.id.width);
  const value = await newValue(run, effect, effect.id ? run.scope.id : undefined);
  const pointer = toPointer([...containerPath, String(existing.length)]);
  const op: PatchOperation = container
    ? { op: "add", path: toPointer([...containerPath, "-"]), value }
    : { op: "add", path: toPointer(containerPath), value: [value] };
  commit(run, [op], pointer);
  return { value };
}

/**
 * The shape a missing container takes: the one the same field has in the collection's other
 * entities (a list of items, a map of payment methods), or an array when none has it.
 */
function siblingShape(state: State, containerPath: readonly string[]): "array" | "object" {
  const [collection, , ...inside] = containerPath;
  if (collection === undefined) return "array";
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
async function newValue(run: Run, effect: CreateEffect, key: string | undefined): Promise<Entity> {
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

/** The operators of a field guard, each a test of the field's value against the operand. */
const GUARD_TESTS: ReadonlyArray<[operator: "in" | "notIn" | "equals" | "gte" | "lte", holds: GuardTest]> = [
  ["in", (actual, operand) => anyEqual(actual, operand)],
  ["notIn", (actual, operand) => !anyEqual(actual, operand)],
  ["equals", (actual, operand) => looselyEqual(actual, operand)],
  ["gte", (actual, operand) => compares(actual, operand, (a, b) => a >= b)],
  ["lte", (actual, operand) => compares(actual, operand, (a, b) => a <= b)],
];

type GuardTest = (actual: unknown, operand: unknown) => boolean;

/**
 * Every guard must hold, in order; the first that does not answers its error. An operand
 * that renders to nothing (an optional argument not given) sets no condition.
 */
async function checkGuards(run: Run, guards: readonly Guard[], subject: unknown): Promise<void> {
  for (const [index, guard] of guards.entries()) {
    if ("expr" in guard) {
      if (!truthy(await evaluate(run, guard.expr, `require[${index}].expr`))) fail(run, guard.error);
      continue;
    }
    const actual = dig(subject, guard.field);
    for (const [operator, holds] of GUARD_TESTS) {
      if (guard[operator] === undefined) continue;
      const operand = await resolve(run, guard[operator], `require[${index}].${operator}`);
      if (operand !== ABSENT && !holds(actual, operand)) fail(run, guard.error, { [guard.field]: actual });
    }
  }
}

function anyEqual(actual: unknown, values: unknown): boolean {
  return asList(values).some((v) => looselyEqual(actual, v));
}

/** Numbers compare as numbers, dates and date-times by time; anything else fails the comparison. */
function compares(actual: unknown, operand: unknown, test: (a: number, b: number) => boolean): boolean {
  const a = toNumber(actual) ?? toTime(actual);
  const b = toNumber(operand) ?? toTime(operand);
  return a !== undefined && b !== undefined && test(a, b);
}

/** Dates and date-times compare by time, so a guard can say "not after {$now}". */
function toTime(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

function settle(run: Run, effect: Effect, value: unknown): void {
  if (effect.kind === "check") return;
  if (effect.as) run.scope.bindings[effect.as] = value;
  if (effect.kind === "respond") respondWith(run, effect.output, value);
  else if ("output" in effect && effect.output !== undefined) place(run.output, effect.output, value);
}

/** A respond without an output merges an object into the result; any other value is the whole result. */
function respondWith(run: Run, output: string | undefined, value: unknown): void {
  if (output !== undefined && output !== "" && output !== ".") place(run.output, output, value);
  else if (isPlainObject(value) && !run.whole) Object.assign(run.output, value);
  else run.whole = { value };
}

function commit(run: Run, ops: Patch, touched: string): void {
  run.state = applyChanges(run.state, ops);
  run.patch.push(...(ops as PatchOperation[]));
  run.touched.push(touched);
}

// ── values: templates and expressions ───────────────────────────────────────

/** Whether a value holds an expression anywhere (remembered per object: catalogs do not change). */
const holdsExpression = new WeakMap<object, boolean>();

function hasExpression(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const known = holdsExpression.get(value);
  if (known !== undefined) return known;
  const found = isExpressionValue(value) || Object.values(value).some(hasExpression);
  holdsExpression.set(value, found);
  return found;
}

/**
 * A value of an effect, rendered: templates filled, expressions evaluated, ABSENT when it
 * renders to nothing. Values without expressions render without waiting on anything.
 */
function resolve(run: Run, value: unknown, key: string): unknown | Promise<unknown> {
  if (!hasExpression(value)) return renderValue(value, run.scope);
  return resolveWithExpressions(run, value, key);
}

async function resolveWithExpressions(run: Run, value: unknown, key: string): Promise<unknown> {
  if (isExpressionValue(value)) {
    const computed = await evaluate(run, value.$expr, key);
    return computed === undefined ? ABSENT : computed;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const [index, item] of value.entries()) {
      const resolved = await resolveWithExpressions(run, item, `${key}[${index}]`);
      if (resolved !== ABSENT) items.push(resolved);
    }
    return items;
  }
  if (isPlainObject(value)) {
    const out: Entity = {};
    for (const [field, item] of Object.entries(value)) {
      const resolved = await resolveWithExpressions(run, item, `${key}.${field}`);
      if (resolved !== ABSENT) out[field] = resolved;
    }
    return out;
  }
  return renderValue(value, run.scope);
}

/** Evaluates one expression of the running effect; a failure is the catalog's (or a computation's) fault. */
async function evaluate(run: Run, text: string, key: string, input?: unknown): Promise<unknown> {
  const { args, runtime, bindings, id, now } = run.scope;
  const variables: Record<string, unknown> = { ...bindings, args, runtime };
  if (id !== undefined) variables.id = id;
  if (run.subject !== undefined) variables.subject = run.subject;
  const evaluated = await evaluateExpression(text, {
    input: input === undefined ? args : input,
    variables,
    now,
    entity: (collection, entityKey) => valueAt(run.state, [collection, entityKey]),
    rates: () => ratesFromState(run.state),
  });
  if (evaluated.ok) return evaluated.value;
  if (evaluated.kind === "compute") computeRefused(run, evaluated.error);
  throw new EffectBroken(`the expression in ${key} ${evaluated.error}`);
}

/**
 * A computation refused the call's values ($calc of a malformed formula): the effect's
 * `computeError`, else the tool's only documented 400/422 error, else the catalog's fault.
 */
function computeRefused(run: Run, reason: string): never {
  const effect = run.effect;
  const clientErrors = run.tool.errors.filter((e) => e.status === 400 || e.status === 422);
  const code = effect.computeError ?? (clientErrors.length === 1 ? clientErrors[0]?.code : undefined);
  if (code) fail(run, code, {}, reason);
  throw new EffectBroken(`a computation failed: ${reason}`);
}

// ── failures ──────────────────────────────────────────────────────────────

function fail(run: Run, code: string, extra: Record<string, unknown> = {}, reason?: string): never {
  const documented = run.tool.errors.find((e) => e.code === code);
  const message = documented ? renderMessage(documented.message, run.scope) : undefined;
  const described = describeFailure(
    code,
    documented && { ...documented, message: message ?? documented.message },
    {
      ...extra,
      ...run.scope.args,
    },
  );
  if (reason) described.message = `${described.message} (${reason})`;
  throw new EffectFailure(described);
}

/** EFFECT_FAILED: an effect could not run as written; nothing of the call is applied. */
function brokenEffect(run: Run, reason: string): ToolFailure {
  return {
    code: "EFFECT_FAILED",
    status: 500,
    message: `toolsim cannot answer ${run.tool.name}: effect ${run.index} (${run.effect.kind}) cannot run: ${reason}. The catalog needs fixing (toolsim lint); this is not a problem with the call.`,
  };
}

/** Fills `{$binding.field}`, `{$now}` and `{$runtime.x}` in an error message; `{argument}` stays for describeFailure. */
function renderMessage(message: string, scope: TemplateScope): string {
  return message.replace(/\{\$[A-Za-z_][A-Za-z0-9_.]*\}/g, (whole) => {
    const value = renderString(whole, scope);
    if (value === ABSENT) return whole;
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}

/** Fills `{argument}` placeholders of a documented error message from the call. */
export function describeFailure(
  code: string,
  documented: ToolError | undefined,
  values: Record<string, unknown>,
): ToolFailure {
  const message = (documented?.message ?? code).replace(
    /\{([A-Za-z_][A-Za-z0-9_.]*)\}/g,
    (whole, path: string) => {
      const value = dig(values, path);
      if (value === undefined) return whole;
      return typeof value === "string" ? value : JSON.stringify(value);
    },
  );
  return { code, status: documented?.status ?? 400, message };
}

// ── targets ───────────────────────────────────────────────────────────────

const segmentsOf = new Map<string, string[]>();

function targetSegments(target: string): string[] {
  let segments = segmentsOf.get(target);
  if (!segments) {
    segments = target.split("/");
    segmentsOf.set(target, segments);
  }
  return segments;
}

function isTemplate(segment: string): boolean {
  return segment.startsWith("{") && segment.endsWith("}");
}

/** The target's segments with templates filled; undefined when one renders to nothing (an absent argument). */
function targetPath(run: Run, target: string): string[] | undefined {
  const path: string[] = [];
  for (const segment of targetSegments(target)) {
    if (!isTemplate(segment)) {
      path.push(segment);
      continue;
    }
    const value = renderString(segment, run.scope);
    if (value === ABSENT || value === null || value === "") return undefined;
    path.push(typeof value === "string" ? value : JSON.stringify(value));
  }
  return path;
}

// ── plain JSON helpers ─────────────────────────────────────────────────────

/** Puts a value into the result: "" merges an object's fields, "a.b" nests it. */
function place(output: Record<string, unknown>, path: string, value: unknown): void {
  if (path === "" || path === ".") {
    if (isPlainObject(value)) Object.assign(output, value);
    return;
  }
  const keys = path.split(".");
  let cursor = output;
  for (const key of keys.slice(0, -1)) {
    if (!isPlainObject(cursor[key])) cursor[key] = {};
    cursor = cursor[key] as Record<string, unknown>;
  }
  cursor[keys[keys.length - 1] as string] = value;
}

/** A copy of `value` with the dotted path set; array elements by index, missing objects created. */
function assign(value: unknown, path: string, newValue: unknown): unknown {
  const [head = "", ...rest] = path.split(".");
  const inner = (current: unknown) =>
    rest.length === 0 ? newValue : assign(current, rest.join("."), newValue);
  if (Array.isArray(value) && isIndex(head)) {
    const copy = [...value];
    copy[Number(head)] = inner(value[Number(head)]);
    return copy;
  }
  const entity = isPlainObject(value) ? value : {};
  return { ...entity, [head]: inner(entity[head]) };
}

/** The value at a dotted path: object fields and array indexes. */
function dig(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (Array.isArray(current)) {
      if (!isIndex(key)) return undefined;
      current = current[Number(key)];
    } else if (isPlainObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/** Keeps sums of money free of binary noise (0.1 + 0.2). */
function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
