import {
  type Effect,
  type FieldGuard,
  type Guard,
  type JsonSchema,
  type ListEffect,
  parseTemplate,
  type StateDocument,
  type Tool,
  type Toolset,
  validatorFor,
} from "../catalog/index.js";
import { clockOf, runEffects } from "../engine/index.js";
import { hashOf, isPlainObject } from "../patch/index.js";
import { seedFrom, synthesize, wordsOf } from "../simulate/index.js";

/**
 * The four stress modes of a tool audit. Each case is a call, the state it runs against,
 * and what a faithful simulation of the tool must answer.
 */
export type AuditMode = "schema-failure" | "constraint-failure" | "new-input" | "known-input";

export const AUDIT_MODES: readonly AuditMode[] = [
  "schema-failure",
  "constraint-failure",
  "new-input",
  "known-input",
];

export type AuditExpectation =
  /** Rejected by validation with a finding of this code on this argument. */
  | { kind: "rejected"; code: "IAV" | "IAT" | "IAN"; argument: string }
  /** Answered with this documented error (or, without a code, with any documented error). */
  | { kind: "documented-error"; code?: string }
  /** Accepted; a success or documented error whose result fits the output schema. */
  | { kind: "plausible" }
  /** Accepted and successful; the entity appears in the result and writes change the state as effects say. */
  | {
      kind: "consistent";
      collection?: string;
      key?: string;
      /** entity: the result shows the entity itself; mention: it names its key; none: nothing is required. */
      show: "entity" | "mention" | "none";
    };

export interface AuditCase {
  mode: AuditMode;
  /** What the case does, in a few words, e.g. `missing required "ticket_id"`. */
  label: string;
  args: Record<string, unknown>;
  state: StateDocument;
  expect: AuditExpectation;
}

const UNKNOWN_ARGUMENT = "audit_unknown_argument";

/** Up to `perMode` cases of each mode for one tool of a toolset. */
export async function auditCases(toolset: Toolset, tool: Tool, perMode: number): Promise<AuditCase[]> {
  const states = knownStates(toolset);
  const base = states[0] ?? {};
  const valid = validArguments(tool, 0);
  return [
    ...schemaFailures(tool, valid, base).slice(0, perMode),
    ...(await constraintFailures(tool, states, perMode)),
    ...newInputs(tool, base, perMode),
    ...(await knownInputs(tool, states, perMode)),
  ];
}

/** The toolset's sandbox state, then each task's initial state: where entities that exist can be found. */
function knownStates(toolset: Toolset): StateDocument[] {
  const states = [toolset.state, ...toolset.tasks.map((t) => t.state)];
  const withEntities = states.filter((s) => collectionsOf(s).length > 0);
  return withEntities.length > 0 ? withEntities : [toolset.state];
}

function collectionsOf(state: StateDocument): string[] {
  return Object.keys(state).filter((k) => k !== "runtime" && isPlainObject(state[k]));
}

/** Arguments the tool's input schema accepts, synthesized from it (a few seeds are tried). */
export function validArguments(tool: Tool, variant: number): Record<string, unknown> | undefined {
  const validate = validatorFor(tool.inputSchema);
  for (let attempt = 0; attempt < 8; attempt++) {
    const seed = seedFrom(hashOf("audit", tool.name, variant, attempt));
    const args = synthesize(tool.inputSchema, {
      seed,
      now: "2026-03-02T09:00:00Z",
      toolWords: wordsOf(tool.name),
    });
    if (isPlainObject(args) && validate(args)) return args;
  }
  return undefined;
}

// ── mode 1: the call violates the input schema ───────────────────────────────

function schemaFailures(
  tool: Tool,
  valid: Record<string, unknown> | undefined,
  state: StateDocument,
): AuditCase[] {
  const args = valid ?? {};
  const properties = propertiesOf(tool.inputSchema);
  const required = requiredOf(tool.inputSchema);
  const missing = required.map(
    (name): AuditCase => ({
      mode: "schema-failure",
      label: `missing required "${name}"`,
      args: withoutKey(args, name),
      state,
      expect: { kind: "rejected", code: "IAV", argument: name },
    }),
  );
  const wrongType = Object.entries(properties).flatMap(([name, schema]): AuditCase[] => {
    const wrong = wrongTypeValue(schema);
    if (wrong === undefined) return [];
    return [
      {
        mode: "schema-failure",
        label: `wrong type for "${name}"`,
        args: { ...args, [name]: wrong },
        state,
        expect: { kind: "rejected", code: "IAT", argument: name },
      },
    ];
  });
  const unknown: AuditCase = {
    mode: "schema-failure",
    label: `unknown argument "${UNKNOWN_ARGUMENT}"`,
    args: { ...args, [UNKNOWN_ARGUMENT]: "x" },
    state,
    expect: { kind: "rejected", code: "IAN", argument: UNKNOWN_ARGUMENT },
  };
  // one of each kind first, so a small --per-mode still covers all three
  return interleave([missing, wrongType, [unknown]]);
}

/** A value of a type the property does not accept, or undefined when it accepts anything. */
function wrongTypeValue(schema: unknown): unknown {
  if (!isPlainObject(schema)) return undefined;
  const types = Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type ?? "")];
  if (types.includes("")) return undefined;
  const candidates: Array<[string[], unknown]> = [
    [["string"], 12345],
    [["integer", "number"], "not a number"],
    [["boolean"], "yes"],
    [["array"], "not a list"],
    [["object"], "not an object"],
  ];
  for (const [accepted, value] of candidates) {
    if (accepted.some((t) => types.includes(t))) return value;
  }
  return undefined;
}

// ── mode 2: schema-valid, but against a documented constraint ─────────────────

async function constraintFailures(
  tool: Tool,
  states: StateDocument[],
  perMode: number,
): Promise<AuditCase[]> {
  const cases: AuditCase[] = [];
  for (const [index, effect] of tool.effects.entries()) {
    if (cases.length >= perMode) break;
    const key = keyArgument(effect);
    if (!key) continue;
    const synthesized = validArguments(tool, 100 + index);
    if (!synthesized) continue;
    const state = states.find((s) => isPlainObject(s[key.collection])) ?? states[0] ?? {};
    // the other keyed effects must find their entities, so that this one is the rule that fails
    const valid = boundToState(tool, synthesized, state);
    const entities = recordAt(state, key.collection);
    const failsWith = async (args: Record<string, unknown>, code: string) => {
      const run = await runEffects(tool, args, state, clockOf(state));
      return run.status === "failed" && run.failure.code === code;
    };
    if ((effect.kind === "read" || effect.kind === "update" || effect.kind === "delete") && effect.missing) {
      const absent = absentKey(tool, key.argument, entities, index);
      if (absent !== undefined && (await failsWith({ ...valid, [key.argument]: absent }, effect.missing))) {
        cases.push({
          mode: "constraint-failure",
          label: `"${key.argument}" names no ${key.collection} entity`,
          args: { ...valid, [key.argument]: absent },
          state,
          expect: { kind: "documented-error", code: effect.missing },
        });
      }
    }
    if (effect.kind === "create" && effect.exists) {
      const taken = Object.keys(entities)[0];
      if (
        taken !== undefined &&
        acceptsValue(tool, key.argument, valid, taken) &&
        (await failsWith({ ...valid, [key.argument]: taken }, effect.exists))
      ) {
        cases.push({
          mode: "constraint-failure",
          label: `"${key.argument}" is already taken`,
          args: { ...valid, [key.argument]: taken },
          state,
          expect: { kind: "documented-error", code: effect.exists },
        });
      }
    }
    for (const guard of "require" in effect ? effect.require : []) {
      const broken = await guardViolation(tool, guard, key, valid, state);
      if (broken) cases.push(broken);
    }
  }
  if (cases.length === 0) cases.push(...undeclaredMissing(tool, states[0] ?? {}));
  return cases.slice(0, perMode);
}

/** The arguments with every keyed effect's argument set to an entity that exists (where the schema allows). */
function boundToState(
  tool: Tool,
  args: Record<string, unknown>,
  state: StateDocument,
): Record<string, unknown> {
  const bound = { ...args };
  for (const effect of tool.effects) {
    const key = keyArgument(effect);
    if (!key || effect.kind === "create") continue;
    const entities = recordAt(state, key.collection);
    if (String(bound[key.argument]) in entities) continue;
    const existing = Object.keys(entities).find((k) => acceptsValue(tool, key.argument, bound, k));
    if (existing !== undefined) bound[key.argument] = existing;
  }
  return bound;
}

interface KeyArgument {
  collection: string;
  argument: string;
}

/** `collection/{argument}` targets name the entity by one argument. */
function keyArgument(effect: Effect): KeyArgument | undefined {
  if (!("target" in effect) || effect.kind === "list") return undefined;
  const [collection, template] = effect.target.split("/");
  if (!collection || !template) return undefined;
  const parts = parseTemplate(template);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (!only || !("ref" in only) || only.ref.source !== "argument" || only.ref.path.length !== 1)
    return undefined;
  const argument = only.ref.path[0];
  return argument ? { collection, argument } : undefined;
}

/** A schema-valid value for the key argument that is not a key of the collection. */
function absentKey(
  tool: Tool,
  argument: string,
  entities: Record<string, unknown>,
  variant: number,
): unknown {
  for (let attempt = 0; attempt < 6; attempt++) {
    const args = validArguments(tool, 200 + variant * 10 + attempt);
    const value = args?.[argument];
    if (value !== undefined && !(String(value) in entities)) return value;
  }
  return undefined;
}

/** A state where the chosen entity breaks this one guard, and the call that meets it. */
async function guardViolation(
  tool: Tool,
  guard: Guard,
  key: KeyArgument,
  valid: Record<string, unknown>,
  state: StateDocument,
): Promise<AuditCase | undefined> {
  if ("expr" in guard) return undefined; // no value to break: an expression guard is met by the whole call
  const entities = recordAt(state, key.collection);
  const keys = Object.keys(entities).filter((k) => acceptsValue(tool, key.argument, valid, k));
  if (keys.length === 0) return undefined;
  // prefer an entity the call would otherwise succeed on, so only this guard fails
  const now = clockOf(state);
  let chosen = keys[0];
  for (const k of keys) {
    if ((await runEffects(tool, { ...valid, [key.argument]: k }, state, now)).status !== "applied") continue;
    chosen = k;
    break;
  }
  if (chosen === undefined) return undefined;
  const args = { ...valid, [key.argument]: chosen };
  const entity = entities[chosen];
  if (!isPlainObject(entity)) return undefined;
  const value = violatingValue(guard, args);
  if (value === undefined) return undefined;
  const broken = structuredClone(state);
  setPath(recordAt(broken, key.collection)[chosen] as Record<string, unknown>, guard.field, value);
  const check = await runEffects(tool, args, broken, now);
  if (check.status !== "failed" || check.failure.code !== guard.error) return undefined;
  return {
    mode: "constraint-failure",
    label: `${key.collection} ${chosen} breaks the guard on "${guard.field}"`,
    args,
    state: broken,
    expect: { kind: "documented-error", code: guard.error },
  };
}

function violatingValue(guard: FieldGuard, args: Record<string, unknown>): unknown {
  const operand = (value: unknown) => {
    if (typeof value !== "string") return value;
    const parts = parseTemplate(value);
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only && "ref" in only && only.ref.source === "argument") return args[only.ref.path[0] ?? ""];
    return value;
  };
  if (guard.equals !== undefined) return otherThan(operand(guard.equals));
  if (Array.isArray(guard.in)) return otherThan(guard.in[0], guard.in);
  if (Array.isArray(guard.notIn) && guard.notIn.length > 0) return guard.notIn[0];
  const gte = Number(operand(guard.gte));
  if (guard.gte !== undefined && Number.isFinite(gte)) return gte - 1;
  const lte = Number(operand(guard.lte));
  if (guard.lte !== undefined && Number.isFinite(lte)) return lte + 1;
  return undefined;
}

function otherThan(value: unknown, avoid: unknown[] = [value]): unknown {
  if (typeof value === "number") return Math.max(...avoid.map(Number).filter(Number.isFinite), value) + 1;
  if (typeof value === "boolean") return !value;
  let candidate = `not_${String(value ?? "set")}`;
  while (avoid.includes(candidate)) candidate = `${candidate}_x`;
  return candidate;
}

/**
 * Without effects, the documented "not found" kind of error is the constraint to meet: a
 * call naming an identifier that no entity has should be answered with one.
 */
function undeclaredMissing(tool: Tool, state: StateDocument): AuditCase[] {
  const notFound = tool.errors.find((e) => /NOT_FOUND|UNKNOWN|MISSING|NO_SUCH/.test(e.code));
  if (!notFound) return [];
  const valid = validArguments(tool, 300);
  if (!valid) return [];
  const argument = Object.keys(valid).find((name) => /(^|_)id$|Id$/.test(name));
  if (!argument) return [];
  const absent = absentKey(tool, argument, knownIdentifiers(state), 30);
  if (absent === undefined) return [];
  return [
    {
      mode: "constraint-failure",
      label: `"${argument}" names nothing that exists`,
      args: { ...valid, [argument]: absent },
      state,
      expect: { kind: "documented-error" },
    },
  ];
}

/** Every key and identifier field value in the state, as the keys of one record. */
function knownIdentifiers(state: StateDocument): Record<string, true> {
  const known: Record<string, true> = {};
  for (const name of collectionsOf(state)) {
    for (const [key, entity] of Object.entries(recordAt(state, name))) {
      known[key] = true;
      if (!isPlainObject(entity)) continue;
      for (const [field, value] of Object.entries(entity)) {
        if (/(^|_)id$|Id$/.test(field) && (typeof value === "string" || typeof value === "number"))
          known[String(value)] = true;
      }
    }
  }
  return known;
}

// ── mode 3: schema-valid, values never seen ──────────────────────────────────

function newInputs(tool: Tool, state: StateDocument, perMode: number): AuditCase[] {
  const cases: AuditCase[] = [];
  const seen = new Set<string>();
  for (let variant = 0; variant < perMode * 3 && cases.length < perMode; variant++) {
    const args = validArguments(tool, 400 + variant);
    if (!args) break;
    const key = hashOf(args);
    if (seen.has(key)) continue;
    seen.add(key);
    cases.push({
      mode: "new-input",
      label: `synthesized arguments #${cases.length + 1}`,
      args,
      state,
      expect: { kind: "plausible" },
    });
  }
  return cases;
}

// ── mode 4: schema-valid, naming entities that exist ─────────────────────────

async function knownInputs(tool: Tool, states: StateDocument[], perMode: number): Promise<AuditCase[]> {
  const valid = validArguments(tool, 500);
  if (!valid) return [];
  const effect = tool.effects.map((e) => ({ effect: e, key: keyArgument(e) })).find((e) => e.key);
  if (effect?.key && effect.effect.kind !== "create") {
    const shown = "output" in effect.effect && effect.effect.output !== undefined;
    const show = shown && effect.effect.kind !== "delete" ? "entity" : "none";
    return keyedInputs(tool, effect.key, show, valid, states, perMode);
  }
  const list = tool.effects.find((e): e is ListEffect => e.kind === "list");
  if (list) return listInputs(tool, list, valid, states);
  return identifierInputs(tool, valid, states, perMode);
}

async function keyedInputs(
  tool: Tool,
  key: KeyArgument,
  show: "entity" | "none",
  valid: Record<string, unknown>,
  states: StateDocument[],
  perMode: number,
): Promise<AuditCase[]> {
  const cases: AuditCase[] = [];
  const seen = new Set<string>();
  for (const state of states) {
    const now = clockOf(state);
    for (const entityKey of Object.keys(recordAt(state, key.collection))) {
      if (cases.length >= perMode) return cases;
      const args = { ...boundToState(tool, valid, state), [key.argument]: entityKey };
      // tasks often start from the sandbox state: the same call on the same entity says nothing new
      if (seen.has(hashOf(args)) || !validatorFor(tool.inputSchema)(args)) continue;
      seen.add(hashOf(args));
      // an entity the declared rules accept: a call that must succeed
      if ((await runEffects(tool, args, state, now)).status !== "applied") continue;
      cases.push({
        mode: "known-input",
        label: `${key.collection} ${entityKey}`,
        args,
        state,
        expect: { kind: "consistent", collection: key.collection, key: entityKey, show },
      });
    }
  }
  return cases;
}

/**
 * A listing that must show entities of the state: filters bound to an existing entity's
 * values (or left out), and the declared rules must list at least one entity.
 */
async function listInputs(
  tool: Tool,
  list: ListEffect,
  valid: Record<string, unknown>,
  states: StateDocument[],
): Promise<AuditCase[]> {
  const state = states.find((s) => Object.keys(recordAt(s, list.target)).length > 0);
  if (!state) return [];
  const now = clockOf(state);
  const entities = Object.values(recordAt(state, list.target)).filter(isPlainObject).slice(0, 3);
  const candidates = [
    onlyRequired(tool, valid),
    ...entities.map((e) => boundToEntity(list, valid, e)),
    valid,
  ];
  const validate = validatorFor(tool.inputSchema);
  for (const args of candidates) {
    if (!validate(args)) continue;
    const run = await runEffects(tool, args, state, now);
    if (run.status !== "applied") continue;
    const shown = JSON.stringify(run.output);
    if (!Object.keys(recordAt(state, list.target)).some((k) => shown.includes(JSON.stringify(k)))) continue;
    return [
      {
        mode: "known-input",
        label: `list ${list.target}`,
        args,
        state,
        expect: { kind: "consistent", collection: list.target, show: "mention" },
      },
    ];
  }
  return [];
}

/** The listing's filter arguments set to the entity's own values. */
function boundToEntity(
  list: ListEffect,
  valid: Record<string, unknown>,
  entity: Record<string, unknown>,
): Record<string, unknown> {
  const args = { ...valid };
  for (const [field, template] of Object.entries(list.where)) {
    if (typeof template !== "string") continue;
    const parts = parseTemplate(template);
    const only = parts.length === 1 ? parts[0] : undefined;
    if (!only || !("ref" in only) || only.ref.source !== "argument" || only.ref.path.length !== 1) continue;
    const argument = only.ref.path[0] ?? "";
    if (entity[field] !== undefined) args[argument] = entity[field];
  }
  return args;
}

/** Tools without keyed effects: an identifier argument bound to an entity whose field or key matches. */
function identifierInputs(
  tool: Tool,
  valid: Record<string, unknown>,
  states: StateDocument[],
  perMode: number,
): AuditCase[] {
  const cases: AuditCase[] = [];
  const seen = new Set<string>();
  const identifiers = Object.keys(propertiesOf(tool.inputSchema)).filter((n) => /(^|_)id$|Id$/.test(n));
  for (const argument of identifiers) {
    for (const state of states) {
      for (const collection of collectionsOf(state)) {
        for (const [entityKey, entity] of Object.entries(recordAt(state, collection))) {
          if (cases.length >= perMode) return cases;
          if (!isPlainObject(entity) || (entity[argument] !== entityKey && entity[argument] === undefined))
            continue;
          const args = { ...valid, [argument]: entity[argument] ?? entityKey };
          if (seen.has(hashOf(args)) || !validatorFor(tool.inputSchema)(args)) continue;
          seen.add(hashOf(args));
          cases.push({
            mode: "known-input",
            label: `${collection} ${entityKey}`,
            args,
            state,
            expect: { kind: "consistent", collection, key: entityKey, show: mentionFor(tool, argument) },
          });
        }
      }
    }
  }
  return cases;
}

/**
 * A result must name the entity when its output schema has a place for the identifier (or
 * there is no output schema to say otherwise); an estimate or a summary need not repeat it.
 */
function mentionFor(tool: Tool, argument: string): "mention" | "none" {
  if (!tool.outputSchema) return "mention";
  return JSON.stringify(tool.outputSchema).includes(JSON.stringify(argument)) ? "mention" : "none";
}

// ── small helpers over plain JSON ────────────────────────────────────────────

function onlyRequired(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  const required = new Set(requiredOf(tool.inputSchema));
  return Object.fromEntries(Object.entries(args).filter(([name]) => required.has(name)));
}

function acceptsValue(tool: Tool, argument: string, valid: Record<string, unknown>, value: unknown): boolean {
  return validatorFor(tool.inputSchema)({ ...valid, [argument]: value });
}

export function propertiesOf(schema: JsonSchema): Record<string, unknown> {
  return isPlainObject(schema.properties) ? schema.properties : {};
}

function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.map(String) : [];
}

function withoutKey(args: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = args;
  return rest;
}

function recordAt(state: StateDocument, collection: string): Record<string, unknown> {
  const value = state[collection];
  return isPlainObject(value) ? value : {};
}

function setPath(entity: Record<string, unknown>, dotted: string, value: unknown): void {
  const path = dotted.split(".");
  let current = entity;
  for (const segment of path.slice(0, -1)) {
    if (!isPlainObject(current[segment])) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  current[path[path.length - 1] ?? dotted] = value;
}

function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i] as T);
  return out;
}
