import {
  ABSENT,
  type CreateEffect,
  type Effect,
  type Guard,
  type ListEffect,
  renderString,
  renderValue,
  type StateDocument,
  type TemplateScope,
  type Tool,
  type ToolError,
} from "../catalog/index.js";
import { applyPatch, deepEqual, type Patch, type PatchOperation, toPointer } from "../patch/index.js";
import type { EffectsResult, ToolFailure } from "../simulate/index.js";

type Entity = Record<string, unknown>;

/** Raised inside the effects run when an effect answers with a documented error. */
class EffectFailure {
  constructor(readonly failure: ToolFailure) {}
}

interface Run {
  tool: Tool;
  document: StateDocument;
  patch: Patch;
  output: Record<string, unknown>;
  touched: string[];
  scope: TemplateScope;
  /** Containers this run copied: its later effects change them in place (see applyPatch). */
  owned: WeakSet<object>;
}

/**
 * Runs a tool's declared effects against the state, in order. The first effect that fails
 * answers the call with a documented error and nothing is applied; otherwise the result
 * carries the patch, the result fragments and the entities touched.
 */
export function runEffects(
  tool: Tool,
  args: Record<string, unknown>,
  state: StateDocument,
  now: string,
): EffectsResult {
  return applyEffects(tool, args, state, now).effects;
}

/** runEffects, plus the state the effects leave (the input state itself when they change nothing). */
export function applyEffects(
  tool: Tool,
  args: Record<string, unknown>,
  state: StateDocument,
  now: string,
): { effects: EffectsResult; state: StateDocument } {
  if (tool.effects.length === 0) return { effects: { status: "none" }, state };
  const runtime = isEntity(state.runtime) ? state.runtime : {};
  const run: Run = {
    tool,
    document: state,
    patch: [],
    output: {},
    touched: [],
    scope: { args, now, runtime, bindings: {} },
    owned: new WeakSet(),
  };
  try {
    for (const effect of tool.effects) applyEffect(run, effect);
  } catch (error) {
    if (error instanceof EffectFailure)
      return { effects: { status: "failed", failure: error.failure }, state };
    throw error;
  }
  return {
    effects: { status: "applied", patch: run.patch, output: run.output, touched: run.touched },
    state: run.document,
  };
}

function applyEffect(run: Run, effect: Effect): void {
  if (effect.kind === "list") {
    listEntities(run, effect);
    return;
  }
  if (effect.kind === "create") {
    createEntity(run, effect);
    return;
  }
  const target = resolveTarget(run, effect.target);
  if (!target) return; // the key's argument is absent: the effect does not apply to this call
  const entity = entityAt(run.document, target.collection, target.key);
  if (entity === undefined) {
    if (effect.missing) fail(run, effect.missing);
    return; // unknown entity and no rule that it must exist: leave the answer to the simulator
  }
  if (effect.as) run.scope.bindings[effect.as] = entity; // so a guard's error message can quote it
  checkGuards(run, effect.require, entity);
  if (effect.kind === "read") {
    settle(run, effect, entity);
    return;
  }
  const pointer = toPointer([target.collection, target.key]);
  if (effect.kind === "delete") {
    commit(run, [{ op: "remove", path: pointer }], pointer);
    settle(run, effect, entity);
    return;
  }
  const updated = updateEntity(run, entity, effect.set, effect.inc, effect.append);
  commit(run, [{ op: "replace", path: pointer, value: updated }], pointer);
  settle(run, effect, updated);
}

function listEntities(run: Run, effect: ListEffect): void {
  const collection = run.document[effect.target];
  const where = renderValue(effect.where, run.scope) as Record<string, unknown>;
  const limitValue = typeof effect.limit === "string" ? renderString(effect.limit, run.scope) : effect.limit;
  const limit = typeof limitValue === "number" && limitValue > 0 ? limitValue : Number.POSITIVE_INFINITY;
  const matches: Entity[] = [];
  if (isEntity(collection)) {
    for (const key of Object.keys(collection).sort()) {
      const entity = collection[key];
      if (!isEntity(entity) || !matchesWhere(entity, where)) continue;
      matches.push(entity);
      if (matches.length >= limit) break;
    }
  }
  if (effect.as) run.scope.bindings[effect.as] = matches;
  if (effect.output !== undefined) place(run.output, effect.output, matches);
}

/** A `where` value matches equal fields; an array of values matches any of them. */
function matchesWhere(entity: Entity, where: Record<string, unknown>): boolean {
  return Object.entries(where).every(([path, wanted]) => {
    const actual = dig(entity, path);
    if (Array.isArray(wanted) && !Array.isArray(actual)) return wanted.some((w) => looselyEqual(actual, w));
    return looselyEqual(actual, wanted);
  });
}

function createEntity(run: Run, effect: CreateEffect): void {
  const collection = collectionOf(effect.target);
  const collectionValue = run.document[collection];
  const existing = isEntity(collectionValue) ? collectionValue : {};
  const keyed = effect.target.includes("/");
  // a target without a key ("return_requests") means: under a freshly minted id
  if (effect.id || !keyed) run.scope.id = mintId(existing, effect.id?.prefix ?? "", effect.id?.width ?? 4);
  const target = keyed ? resolveTarget(run, effect.target) : { collection, key: run.scope.id as string };
  if (!target) return;
  if (existing[target.key] !== undefined) {
    if (effect.exists) fail(run, effect.exists);
    return;
  }
  const entity = renderValue(effect.set, run.scope) as Entity;
  if (effect.id?.field) entity[effect.id.field] = target.key;
  const ops: Patch = [];
  if (!isEntity(collectionValue)) ops.push({ op: "add", path: toPointer([collection]), value: {} });
  const pointer = toPointer([collection, target.key]);
  ops.push({ op: "add", path: pointer, value: entity });
  commit(run, ops, pointer);
  settle(run, effect, entity);
}

/** prefix + the next number after the largest one already used with that prefix, zero-padded. */
function mintId(collection: Record<string, unknown>, prefix: string, width: number): string {
  let highest = 0;
  for (const key of Object.keys(collection)) {
    if (!key.startsWith(prefix)) continue;
    const digits = /^[0-9]+$/.test(key.slice(prefix.length)) ? Number(key.slice(prefix.length)) : Number.NaN;
    if (digits > highest) highest = digits;
  }
  return `${prefix}${String(highest + 1).padStart(width, "0")}`;
}

function updateEntity(
  run: Run,
  entity: Entity,
  set: Record<string, unknown>,
  inc: Record<string, unknown>,
  append: Record<string, unknown>,
): Entity {
  let updated: Entity = { ...entity };
  for (const [path, template] of Object.entries(set)) {
    const value = renderValue(template, run.scope);
    if (value !== ABSENT) updated = assign(updated, path, value);
  }
  for (const [path, template] of Object.entries(inc)) {
    const delta = toNumber(renderValue(template, run.scope));
    if (delta === undefined) continue;
    const current = toNumber(dig(updated, path)) ?? 0;
    updated = assign(updated, path, roundMoney(current + delta));
  }
  for (const [path, template] of Object.entries(append)) {
    const value = renderValue(template, run.scope);
    if (value === ABSENT) continue;
    const current = dig(updated, path);
    updated = assign(updated, path, [...(Array.isArray(current) ? current : []), value]);
  }
  return updated;
}

function checkGuards(run: Run, guards: readonly Guard[], entity: Entity): void {
  for (const guard of guards) {
    const actual = dig(entity, guard.field);
    const operand = (value: unknown) => renderValue(value, run.scope);
    const holds =
      (guard.in === undefined || (operand(guard.in) as unknown[]).some((v) => looselyEqual(actual, v))) &&
      (guard.notIn === undefined ||
        !(operand(guard.notIn) as unknown[]).some((v) => looselyEqual(actual, v))) &&
      (guard.equals === undefined || looselyEqual(actual, operand(guard.equals))) &&
      compares(actual, guard.gte === undefined ? undefined : operand(guard.gte), (a, b) => a >= b) &&
      compares(actual, guard.lte === undefined ? undefined : operand(guard.lte), (a, b) => a <= b);
    if (!holds) fail(run, guard.error, { [guard.field]: actual });
  }
}

/** A numeric comparison that holds trivially when its operand is absent (an optional argument not given). */
function compares(actual: unknown, operand: unknown, test: (a: number, b: number) => boolean): boolean {
  if (operand === undefined || operand === ABSENT) return true;
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

function settle(run: Run, effect: { as?: string; output?: string }, entity: unknown): void {
  if (effect.as) run.scope.bindings[effect.as] = entity;
  if (effect.output !== undefined) place(run.output, effect.output, entity);
}

function commit(run: Run, ops: Patch, touched: string): void {
  const applied = applyPatch(run.document, ops, run.owned);
  if (!applied.ok)
    throw new Error(`effects of ${run.tool.name} produced a patch that does not apply: ${applied.error}`);
  run.document = applied.document as StateDocument;
  run.patch.push(...(ops as PatchOperation[]));
  run.touched.push(touched);
}

function fail(run: Run, code: string, extra: Record<string, unknown> = {}): never {
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
  throw new EffectFailure(described);
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

function resolveTarget(run: Run, target: string): { collection: string; key: string } | undefined {
  const slash = target.indexOf("/");
  if (slash < 0) return undefined;
  const key = renderString(target.slice(slash + 1), run.scope);
  if (key === ABSENT || key === null || key === "") return undefined;
  return { collection: target.slice(0, slash), key: typeof key === "string" ? key : JSON.stringify(key) };
}

function collectionOf(target: string): string {
  const slash = target.indexOf("/");
  return slash < 0 ? target : target.slice(0, slash);
}

function entityAt(document: StateDocument, collection: string, key: string): Entity | undefined {
  const entities = document[collection];
  if (!isEntity(entities)) return undefined;
  const entity = entities[key];
  return isEntity(entity) ? entity : undefined;
}

/** Puts a value into the result: "" merges an object's fields, "a.b" nests it. */
function place(output: Record<string, unknown>, path: string, value: unknown): void {
  if (path === "" || path === ".") {
    if (isEntity(value)) Object.assign(output, value);
    return;
  }
  const keys = path.split(".");
  let cursor = output;
  for (const key of keys.slice(0, -1)) {
    if (!isEntity(cursor[key])) cursor[key] = {};
    cursor = cursor[key] as Record<string, unknown>;
  }
  cursor[keys[keys.length - 1] as string] = value;
}

function assign(entity: Entity, path: string, value: unknown): Entity {
  const [head = "", ...rest] = path.split(".");
  if (rest.length === 0) return { ...entity, [head]: value };
  const inner = isEntity(entity[head]) ? (entity[head] as Entity) : {};
  return { ...entity, [head]: assign(inner, rest.join("."), value) };
}

function dig(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (!isEntity(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Compares values the way a user means them: "5" equals 5, case-insensitive for strings. */
function looselyEqual(a: unknown, b: unknown): boolean {
  if (deepEqual(a, b)) return true;
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  const na = toNumber(a);
  const nb = toNumber(b);
  return na !== undefined && nb !== undefined && na === nb;
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

function isEntity(value: unknown): value is Entity {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
