import escapeRegExp from "escape-string-regexp";
import {
  preconditions,
  speaksOfArgument,
  statedStatus,
  unchangedRefused,
  valuesNeedingField,
} from "./conditions.js";
import { addError, addGap, type Context, notFoundError } from "./context.js";
import type { Draft } from "./drafts.js";
import type { OutputFact, Param } from "./facts.js";
import { LITERAL, literalValue, statedValues, statusField } from "./fields.js";
import { principalOf } from "./principal.js";
import { identifier } from "./reads.js";
import { namedPart } from "./resolve.js";
import { type FieldShape, fitsStateType, type RecordShape, type StateShape } from "./shape.js";
import { recordTarget } from "./targets.js";
import {
  DECREASE_VERBS,
  INCREASE_VERBS,
  isIdentifierName,
  LOGIN_VERBS,
  LOGOUT_VERBS,
  namesSignedInAccount,
  nameWords,
  PLAIN_UPDATE_VERBS,
  singular,
  VERBS,
} from "./words.js";

/**
 * Records: one object's fields and scalars (a device, an account, the settings of an API).
 * Reads answer the fields the output names; arguments named like fields set them; an amount
 * is added to or taken from a stored number by the verbs that say so (deposit, withdraw);
 * logging in and out sets the fields that say who is signed in. These are the shapes of the
 * singleton resources of public APIs: GitHub's `/user`, Stripe's `/v1/balance`, a smart
 * home device's state, Firebase's current user.
 */

/** Words that say a field holds a state rather than what it is a state of (`fanStatus`, `inkLevel`). */
const STATE_WORDS = new Set([
  "status",
  "state",
  "level",
  "mode",
  "setting",
  "value",
  "current",
  "is",
  "amount",
  "new",
  "updated",
  "remaining",
]);

/** A name as the thing it is about: words singular, run together, state words aside (`fan_speeds` ~ `fanSpeedStatus`). */
const fieldKeys = new Map<string, string>();

function fieldKey(name: string): string {
  let key = fieldKeys.get(name);
  if (key === undefined) {
    const words = nameWords(name).map(singular);
    const kept = words.filter((w) => !STATE_WORDS.has(w));
    key = (kept.length > 0 ? kept : words).join("");
    if (fieldKeys.size > 50_000) fieldKeys.clear();
    fieldKeys.set(name, key);
  }
  return key;
}

/** The field of a record an argument or an output names: same name, else the same thing. */
export function recordField(record: RecordShape, name: string): FieldShape | undefined {
  const exact = record.fields.get(name);
  if (exact) return exact;
  const index = fieldIndexOf(record.fields);
  const same = new Set([
    ...(index.byKey.get(fieldKey(name)) ?? []),
    ...(index.byFlat.get(flatName(name)) ?? []),
  ]);
  return same.size === 1 ? [...same][0] : undefined;
}

interface FieldIndex {
  size: number;
  byKey: Map<string, FieldShape[]>;
  byFlat: Map<string, FieldShape[]>;
}

// every tool of a toolset asks the same records about its names: each record is indexed once
const fieldIndexes = new WeakMap<Map<string, FieldShape>, FieldIndex>();

function fieldIndexOf(fields: Map<string, FieldShape>): FieldIndex {
  const known = fieldIndexes.get(fields);
  if (known && known.size === fields.size) return known;
  const index: FieldIndex = { size: fields.size, byKey: new Map(), byFlat: new Map() };
  for (const field of fields.values()) {
    pushTo(index.byKey, fieldKey(field.path), field);
    pushTo(index.byFlat, flatName(field.path), field);
  }
  fieldIndexes.set(fields, index);
  return index;
}

function pushTo(map: Map<string, FieldShape[]>, key: string, field: FieldShape): void {
  const list = map.get(key);
  if (list) list.push(field);
  else map.set(key, [field]);
}

/** `fan_speed`, `fanSpeed` and `FanSpeed` alike. */
function flatName(name: string): string {
  return name.replace(/_/g, "").toLowerCase();
}

/** Scalar-ish fields only: nested records, collections and trees are parts of their own. */
function plainField(field: FieldShape): boolean {
  return !field.types.has("object") || field.types.size > 1;
}

/**
 * A field only takes an argument of a kind it holds: a name never overwrites a list of records
 * (`complete_order(press)` does not set `orders`), nor a text a counter.
 */
function holdsArgument(field: FieldShape, param: Param): boolean {
  const kinds = [...field.types].filter((t) => t !== "null");
  if (kinds.length === 0 || param.type === undefined) return true;
  return kinds.some((kind) => fitsStateType(param.type, kind));
}

export type RecordIntent = "read" | "set" | "toggle" | "reset" | "increase" | "decrease" | "login" | "logout";

/** What a tool does to a record, from its verb: read, set, add, take away, log in or out. */
export function recordIntent(ctx: Context): RecordIntent | undefined {
  const verb = ctx.facts.verb;
  if (ctx.facts.tool.annotations?.readOnlyHint === true) return "read";
  const words = ctx.facts.words;
  if (words.some((w) => LOGIN_VERBS.has(w))) return words.some((w) => w === "status") ? "read" : "login";
  if (words.some((w) => LOGOUT_VERBS.has(w))) return "logout";
  const amount = amountParam(ctx);
  if (amount && (refilled(ctx) || ADDED.test(ctx.facts.tool.description))) return "increase";
  // a verb toolsim does not know, whose docs say which field keeps the one value given
  if (ctx.facts.verbAction === undefined && keepsTheValue(ctx)) return "set";
  if (!verb) return undefined;
  if (amount && INCREASE_VERBS.has(verb)) return "increase";
  if (amount && DECREASE_VERBS.has(verb)) return "decrease";
  if (VERBS.read.includes(verb)) return "read";
  // a toggle told which way (`toggle_shuffle(state: true)`) sets the switch rather than flip it
  if (["toggle", "flip"].includes(verb))
    return ctx.facts.params.some((p) => p.type === "boolean") ? "set" : "toggle";
  if (verb === "reset" && ctx.facts.params.length === 0) return "reset";
  // on a record a create verb sets fields too (`start_timer(minutes)` on a device)
  if (PLAIN_UPDATE_VERBS.has(verb) || VERBS.update.includes(verb) || VERBS.create.includes(verb))
    return "set";
  return undefined;
}

/** Whether the docs name the field of a record that keeps the call's one argument ("Keeps the new tare in `scale.tare_g`"). */
function keepsTheValue(ctx: Context): boolean {
  const only = ctx.facts.params.length === 1 ? (ctx.facts.params[0] as Param) : undefined;
  return (
    only !== undefined &&
    ctx.shape.parts.some((p) => p.kind === "record" && assignedField(ctx, p, only) !== undefined)
  );
}

/**
 * `refuel`, `restock`, `recharge`: a verb made of re- and the noun of a number some record
 * keeps (`fuel_liters`) puts more of it there; answers that noun.
 */
function refilled(ctx: Context): string | undefined {
  const verb = ctx.facts.verb ?? ctx.facts.words[0];
  if (!verb || !/^re[a-z]{3,}$/.test(verb)) return undefined;
  const noun = verb.slice(2);
  return numberWords(ctx.shape).has(noun) ? noun : undefined;
}

/** The words of the numbers records keep, once per world: many verbs start with re-. */
const numberWordsOf = new WeakMap<StateShape, Set<string>>();

function numberWords(shape: StateShape): Set<string> {
  let words = numberWordsOf.get(shape);
  if (!words) {
    words = new Set();
    for (const part of shape.parts)
      if (part.kind === "record")
        for (const field of part.fields.values())
          if (field.types.has("number")) for (const w of nameWords(field.path)) words.add(singular(w));
    numberWordsOf.set(shape, words);
  }
  return words;
}

/**
 * "Records that units were added to the stock", "adds the given credits to the
 * balance": an amount the description says is added, as a stock or a wallet API tops one up.
 */
const ADDED =
  /\b(?:were|are|is|was|gets?) added (?:to|into)\b|\badds? (?:the )?(?:given )?[a-z_]+ to (?:the|its)\b/i;

/** The one number argument an increase or decrease moves by. */
function amountParam(ctx: Context): Param | undefined {
  const numbers = ctx.facts.params.filter((p) => p.type === "number" || p.type === "integer");
  return numbers.length === 1
    ? numbers[0]
    : numbers.find((p) => /amount|quantity|value|sum|delta/.test(p.name));
}

/** The record a tool acts on: the one its name names, else the one whose fields its arguments and outputs name most. */
export function recordFor(ctx: Context, intent: RecordIntent): RecordShape | undefined {
  const named = namedPart(ctx.facts, ctx.shape, ["record"]);
  if (named && named.fields.size > 0) return named;
  const records = ctx.shape.parts.filter((p): p is RecordShape => p.kind === "record" && p.fields.size > 0);
  const score = (record: RecordShape) => {
    const names =
      intent === "read" ? ctx.facts.outputs.map((o) => o.name) : ctx.facts.params.map((p) => p.name);
    const byName = names.filter((n) => {
      const field = recordField(record, n);
      return field !== undefined && plainField(field);
    }).length;
    const byNoun = ctx.facts.nouns.filter((n) =>
      [...record.fields.keys()].some((f) => fieldKey(f).startsWith(singular(n))),
    ).length;
    // the tool names one field (`toggle_child_lock`), or its one argument ends one (`minutes` of `sleep_timer_minutes`)
    const only = ctx.facts.params.length === 1 ? (ctx.facts.params[0] as Param) : undefined;
    const named =
      namedField(ctx, record) ??
      (only && intent !== "read" ? (tailField(record, only) ?? assignedField(ctx, record, only)) : undefined);
    // a field holding a record of its own is that record's name, not a value the tool sets
    return byName * 2 + byNoun + (named && plainField(named) ? 2 : 0);
  };
  const asksWhoIsIn = ctx.facts.outputs.some(
    (o) => o.type === "boolean" && /status|logged|authenticated|signed|login/.test(o.name),
  );
  if (
    intent === "login" ||
    intent === "logout" ||
    (intent === "read" && asksWhoIsIn && ctx.facts.words.some((w) => /login|logged|auth|signed/.test(w)))
  )
    return records.find((r) => authFields(r).length > 0);
  if (intent === "increase" || intent === "decrease") {
    const candidates = records.filter((r) => amountField(ctx, r) !== undefined);
    return candidates.sort((a, b) => score(b) - score(a))[0];
  }
  const ranked = records
    .map((r) => ({ r, s: score(r) }))
    .filter((x) => x.s >= 2)
    .sort((a, b) => b.s - a.s);
  return ranked[0]?.r;
}

export function recordRule(ctx: Context, record: RecordShape, intent: RecordIntent): Draft[] {
  const target = record.path.join("/") || ".";
  switch (intent) {
    case "read":
      return readRecord(ctx, record, target);
    case "set":
      return setRecord(ctx, record, target);
    case "toggle":
      return toggleField(ctx, record, target);
    case "reset":
      return resetField(ctx, record, target);
    case "increase":
    case "decrease":
      return moveAmount(ctx, record, target, intent);
    case "login":
    case "logout":
      return signInOrOut(ctx, record, target, intent);
  }
}

/** Reads the record; each output property the record has a field for is answered from it. */
function readRecord(ctx: Context, record: RecordShape, target: string): Draft[] {
  const answers = answersFrom(ctx, record, "record");
  const auth = authFields(record);
  // "is anyone signed in?": a boolean output answered from the fields that say who is
  for (const output of ctx.facts.outputs) {
    if (answers.some((a) => a.output === output.name) || output.type !== "boolean" || auth.length === 0)
      continue;
    if (!/status|logged|authenticated|signed|login/.test(output.name)) continue;
    const field = auth[0] as FieldShape;
    answers.push({
      kind: "respond",
      output: output.name,
      value: { $expr: `$boolean($record.${identifier(field.path)})` },
    });
  }
  if (answers.length === 0 && ctx.facts.outputs.length > 0) {
    ctx.notes.push(`no output of ${ctx.facts.tool.name} is a field of ${target}`);
    return [];
  }
  ctx.notes.push(
    `reads ${target}${answers.length > 0 ? `, answering ${answers.map((a) => a.output).join(", ")}` : ""}`,
  );
  return [
    { kind: "read", target, as: "record", ...(answers.length === 0 ? { output: "" } : {}) },
    ...answers,
    ...besideRecords(ctx, record, answers),
  ];
}

/**
 * A status that joins two records ("power and target_c from the settings, water_c from the
 * readings"): an output the read record lacks is answered from the one other record beside it
 * that has a field of that name, as a thermostat's status joins its settings and its readings
 * (Nest's traits, Home Assistant's attributes, a printer's `status` with its sensors).
 */
function besideRecords(ctx: Context, record: RecordShape, answered: readonly Draft[]): Draft[] {
  const others = ctx.shape.parts.filter(
    (p): p is RecordShape => p.kind === "record" && p !== record && p.path.length > 0,
  );
  return ctx.facts.outputs.flatMap((output): Draft[] => {
    if (answered.some((a) => a.output === output.name)) return [];
    const holders = others.filter((o) => o.fields.has(output.name) && !output.name.includes("."));
    const holder = holders.length === 1 ? holders[0] : undefined;
    if (!holder) return [];
    const at = holder.path.map((segment) => JSON.stringify(segment)).join(", ");
    ctx.notes.push(`answers ${output.name} from ${holder.path.join("/")}`);
    return [
      {
        kind: "respond",
        output: output.name,
        value: { $expr: `$lookup($entity(${at}), ${JSON.stringify(output.name)})` },
      },
    ];
  });
}

/** `respond` drafts for the output properties the record has fields for. */
export function answersFrom(
  ctx: Context,
  record: RecordShape,
  binding: string,
): Array<Draft & { output: string }> {
  const answers: Array<Draft & { output: string }> = [];
  for (const output of ctx.facts.outputs) {
    const field = outputField(ctx, record, output);
    if (field)
      answers.push({
        kind: "respond",
        output: output.name,
        value: { $expr: `$${binding}.${identifier(field.path)}` },
      });
  }
  return answers;
}

function outputField(ctx: Context, record: RecordShape, output: OutputFact): FieldShape | undefined {
  const direct = recordField(record, output.name);
  if (direct) return direct;
  // a lone output of a tool named after one field (`get_ink_level` → `{level}`)
  if (ctx.facts.outputs.length !== 1) return undefined;
  const named = namedField(ctx, record);
  // an object or a list answered (`{config}` of `set_fan_mode`) is not the one value set
  const output0 = ctx.facts.outputs[0];
  if (named && (output0?.type === "object" || output0?.type === "array") && !named.types.has(output0.type))
    return undefined;
  return named && plainField(named) ? named : undefined;
}

/** The field the tool's name names (`setFanSpeed` → `fanSpeedStatus`, `get_spend_cap` → `spend_cap`). */
function namedField(ctx: Context, record: RecordShape): FieldShape | undefined {
  const own = new Set(nameWords(record.name).map(singular));
  const nouns = ctx.facts.nouns.map(singular).filter((n) => !own.has(n));
  for (let size = Math.min(3, nouns.length); size >= 1; size--)
    for (let start = nouns.length - size; start >= 0; start--) {
      const run = nouns.slice(start, start + size).join("");
      const forms = namesOf(record.fields);
      // the field's whole name first (`dark_mode`, where "mode" is a state word), then what it is
      // about, then its first words (`spend` of `spend_cap`): never a part of a word (`mode` of `model`)
      const whole = forms.filter((f) => f.whole === run);
      if (whole.length === 1) return whole[0]?.field;
      const found = forms.filter((f) => f.key === run || f.prefixes.includes(run));
      if (found.length === 1) return found[0]?.field;
    }
  return undefined;
}

interface FieldNames {
  field: FieldShape;
  /** `darkmode` for `dark_mode`. */
  whole: string;
  /** What it is about (state words aside). */
  key: string;
  /** `spend_cap_cents` → spend, spendcap, spendcapcent. */
  prefixes: string[];
}

// every tool of a toolset asks the same records about its name: each record's names once
const namesOfFields = new WeakMap<Map<string, FieldShape>, FieldNames[]>();

function namesOf(fields: Map<string, FieldShape>): FieldNames[] {
  const known = namesOfFields.get(fields);
  if (known && known.length === fields.size) return known;
  const names = [...fields.values()].map((field) => {
    const words = nameWords(field.path).map(singular);
    return {
      field,
      whole: words.join(""),
      key: fieldKey(field.path),
      prefixes: words.map((_, i) => words.slice(0, i + 1).join("")),
    };
  });
  namesOfFields.set(fields, names);
  return names;
}

/** Arguments named like fields set them; one argument of a tool named after a field sets that field. */
function setRecord(ctx: Context, record: RecordShape, target: string): Draft[] {
  const set: Record<string, string> = {};
  // where the docs say which field keeps the one value given, that field takes it
  const only = ctx.facts.params.length === 1 ? (ctx.facts.params[0] as Param) : undefined;
  const assigned = only ? assignedField(ctx, record, only) : undefined;
  if (only && assigned && plainField(assigned)) set[assigned.path] = `{${only.name}}`;
  else
    for (const param of ctx.facts.params) {
      const field = recordField(record, param.name);
      if (field && plainField(field)) set[field.path] = `{${param.name}}`;
    }
  if (Object.keys(set).length === 0 && ctx.facts.params.length === 1) {
    const param = ctx.facts.params[0] as Param;
    // the tool names the field (`setFanSpeed(speed)`), or the argument ends it (`minutes` of `timer_minutes`)
    const field = namedField(ctx, record) ?? tailField(record, param);
    if (field && plainField(field) && holdsArgument(field, param)) set[field.path] = `{${param.name}}`;
  }
  const stepped = Object.keys(set).length === 0 ? steppedSetting(ctx, record) : undefined;
  if (Object.keys(set).length === 0 && !stepped) return [];
  const named = namedRecordChecks(ctx);
  if (stepped) ctx.notes.push(`sets ${stepped.note} of ${target}`);
  else
    ctx.notes.push(
      `sets ${Object.entries(set)
        .map(([f, v]) => `${f} from ${v.slice(1, -1)}`)
        .join(", ")} of ${target}`,
    );
  // "Sets status to `mowing` and zone to the zone name": what the description gives beside
  const stated = statedOn(ctx, record, ctx.facts.tool.description.replace(/`/g, '"'));
  const told = Object.fromEntries(Object.entries(stated).filter(([field]) => set[field] === undefined));
  if (Object.keys(told).length > 0)
    ctx.notes.push(`sets ${Object.keys(told).join(", ")} as the description says`);
  return [
    ...named,
    {
      kind: "update",
      target,
      require: [
        ...recordGuards(ctx, record),
        ...unchangedRefused(ctx, set),
        ...valuesNeedingField(ctx, record.fields, set),
      ],
      set: { ...set, ...told, ...stepped?.set },
      as: "record",
    },
    ...answersFrom(ctx, record, "record"),
  ];
}

/**
 * `set_brightness(level, step)`: the number the tool names, set to an absolute value or moved by a
 * signed step the docs say is added to it, kept within the range they say the result is clamped
 * to, as Sonos's `setVolume` and `setRelativeVolume`, Spotify's `volume_percent` and Home
 * Assistant's `volume_set` and `volume_up` do. The value given wins; neither keeps the number.
 */
function steppedSetting(
  ctx: Context,
  record: RecordShape,
): { set: Record<string, unknown>; note: string } | undefined {
  const field = namedField(ctx, record);
  if (!field?.types.has("number") || !plainField(field)) return undefined;
  const fits = ctx.facts.params.filter((p) => p.type === "integer" || p.type === "number");
  const step = fits.find(
    (p) =>
      /^(step|delta|by|change|increment|offset)$/.test(p.name) ||
      /\badded to\b|\brelative\b/i.test(p.description),
  );
  // the value given outright: named so, or the one other number beside a step
  const others = fits.filter((p) => p !== step);
  const absolute =
    others.find(
      (p) =>
        /^(level|value|to|target|absolute)$/.test(p.name) ||
        /\b(absolute|target|new value)\b/i.test(p.description),
    ) ?? (step && others.length === 1 ? others[0] : undefined);
  if (!step && !absolute) return undefined;
  const text = `${step?.description ?? ""} ${ctx.facts.tool.description}`;
  const range =
    /\bclamp\w*\s+(?:in)?to\s+(?:the\s+range\s+)?(-?\d+(?:\.\d+)?)\s*(?:\.\.|-|–|to)\s*(-?\d+(?:\.\d+)?)/i.exec(
      text,
    );
  const current = `$subject.${identifier(field.path)}`;
  const moved = step ? `${current} + ${step.name}` : current;
  const kept = range ? `$max([${range[1]}, $min([${range[2]}, ${moved}])])` : moved;
  const stepped = step ? `($exists(${step.name}) ? ${kept} : ${current})` : current;
  const value = absolute ? `$exists(${absolute.name}) ? ${absolute.name} : ${stepped}` : stepped;
  const parts = [
    absolute && `to ${absolute.name}`,
    step && `by ${step.name}${range ? ` within ${range[1]}..${range[2]}` : ""}`,
  ];
  return {
    set: { [field.path]: { $expr: value } },
    note: `${field.path} ${parts.filter(Boolean).join(" or ")}`,
  };
}

/**
 * "Sets mixer_desk.master_gain = level": the field a description assigns the
 * argument to, written as the record's path and the field's name, as reference docs and
 * changelogs write a setting (`config.volume = level`, Home Assistant's `media_player.volume_set`
 * writing `volume_level`, a device twin's `properties.desired.fan_speed`).
 */
function assignedField(ctx: Context, record: RecordShape, param: Param): FieldShape | undefined {
  const path = record.path.map(escapeRegExp).join("\\.");
  if (path === "") return undefined;
  const text = ctx.facts.tool.description.replace(/\*/g, "");
  const said =
    new RegExp(
      `\\b${path}\\.([a-z_][a-z0-9_]*)\\s*(?:=|:=|becomes|is set to|to)\\s*\\\`?${escapeRegExp(param.name)}\\b`,
    ).exec(text) ??
    // "Records a new reading in `settings.current_light_lux`": where the one value given is kept
    (ctx.facts.params.length === 1
      ? new RegExp(
          `\\b(?:[Rr]ecords?|[Ss]tores?|[Ss]aves?|[Ww]rites?|[Kk]eeps?)\\b[^.;]*?\\b(?:in|into|to|as)\\s+\\\`?${path}\\.([a-z_][a-z0-9_]*)\\b`,
        ).exec(text)
      : null);
  const field = said?.[1] ? record.fields.get(said[1]) : undefined;
  return field && holdsArgument(field, param) ? field : undefined;
}

/**
 * A record of a collection an argument names (the track a player is told to play) must exist,
 * answered by its not-found error before anything changes, as a `PUT` that refers to an unknown
 * resource is a 404: Spotify's player given an unknown track, GitHub's issue given an unknown
 * milestone, Stripe's subscription given an unknown price.
 */
export function namedRecordChecks(ctx: Context): Draft[] {
  return ctx.references.flatMap((reference) => {
    if (reference.many || reference.strength !== "strong") return [];
    const target = recordTarget(ctx, reference.collection, `{${reference.param.name}}`);
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    if (!target || !missing) return [];
    ctx.notes.push(`checks ${reference.param.name} names one of ${reference.collection.name} (${missing})`);
    return [{ kind: "read", target, missing }];
  });
}

/** The number an amount moves: named by the tool (`refillInkTank` → `inkLevel`), else the record's one balance. */
function amountField(ctx: Context, record: RecordShape): FieldShape | undefined {
  const numeric = [...record.fields.values()].filter(
    (f) => f.types.has("number") && f.types.size === 1 && !isIdentifierName(f.path),
  );
  const named = namedField(ctx, record);
  if (named && numeric.includes(named)) return named;
  // "step is added to the current grind_size": the number the description adds the amount to
  const told = ADDED_TO.exec(ctx.facts.tool.description.replace(/[`*]/g, ""))?.[1];
  const said = told ? numeric.find((f) => f.path === told) : undefined;
  if (said) return said;
  // the field the amount's own name ends (`units` of `stock_units`)
  const amount = amountParam(ctx);
  const tail = amount ? tailField(record, amount) : undefined;
  if (tail && numeric.includes(tail)) return tail;
  const stem = refilled(ctx);
  const filled = numeric.filter((f) => stem !== undefined && nameWords(f.path).map(singular).includes(stem));
  if (filled.length === 1) return filled[0];
  // a limit beside the balance (`max_balance`) is what an increase may not pass, not what it moves
  const money = numeric.filter(
    (f) => /balance|funds|credit|cash|wallet/.test(f.path.toLowerCase()) && !isLimit(f),
  );
  return money.length === 1 ? money[0] : undefined;
}

/** "is added to the current grind_size", "adds the given credits to the balance": the number named after "to". */
const ADDED_TO =
  /\b(?:(?:were|are|is|was|gets?) added|adds? (?:the )?(?:given )?[a-z_]+) (?:to|into) (?:the |its )?(?:current |stored )?([a-z_][a-z0-9_]*)/i;

/** A number that says how much another may hold (`tank_capacity_liters`, `max_balance`). */
function isLimit(field: FieldShape): boolean {
  return nameWords(field.path)
    .map(singular)
    .some((w) => /^(capacity|max|maximum|limit|cap)$/.test(w));
}

/**
 * Adds the amount to the number, or takes it away; taking more than there is answers the
 * documented "insufficient" error (or one added), as payment and wallet APIs do.
 */
function moveAmount(
  ctx: Context,
  record: RecordShape,
  target: string,
  intent: "increase" | "decrease",
): Draft[] {
  const field = amountField(ctx, record);
  const amount = amountParam(ctx);
  if (!field || !amount) return [];
  const name = `{${amount.name}}`;
  if (intent === "increase") {
    // "the level is capped at 19000 ml (any excess is spilled)": a fill that stops at its top
    const cap = /\bcapped at (?:the |its )?(\d+(?:\.\d+)?)\b/i.exec(ctx.facts.tool.description)?.[1];
    ctx.notes.push(`adds ${amount.name} to ${target}.${field.path}${cap ? `, up to ${cap}` : ""}`);
    const current = `$subject.${identifier(field.path)}`;
    const change = cap
      ? { set: { [field.path]: { $expr: `$min([${current} + $args.${identifier(amount.name)}, ${cap}])` } } }
      : { inc: { [field.path]: name } };
    return [
      {
        kind: "update",
        target,
        require: [...recordGuards(ctx, record), ...(cap ? [] : capacityGuard(ctx, record, field, amount))],
        ...change,
        as: "record",
      },
      ...answersFrom(ctx, record, "record"),
    ];
  }
  const documented = ctx.facts.errors.find((e) =>
    /insufficient|not enough|exceeds|too (low|little)/.test(e.text),
  );
  const error =
    documented?.code ??
    addError(ctx, {
      code: `INSUFFICIENT_${nameWords(field.path).join("_").toUpperCase()}`,
      status: 409,
      message: `Not enough ${nameWords(field.path).join(" ")} for {${amount.name}}.`,
      when: `The ${nameWords(field.path).join(" ")} is less than the amount taken (inferred from the tool's verb).`,
    });
  if (documented) ctx.usedErrors.add(documented.code);
  ctx.notes.push(`takes ${amount.name} from ${target}.${field.path}, refusing more than there is (${error})`);
  return [
    {
      kind: "update",
      target,
      require: [{ field: field.path, gte: name, error }, ...recordGuards(ctx, record)],
      inc: { [field.path]: { $expr: `-$args.${identifier(amount.name)}` } },
      as: "record",
    },
    ...answersFrom(ctx, record, "record"),
  ];
}

/**
 * What an increase may not pass: a number of the same record that says how much it can hold
 * (`tank_capacity_liters` beside `fuel_liters`, `max_balance`), where the tool documents the
 * error for going past it (a tank, a battery, a card's limit).
 */
function capacityGuard(
  ctx: Context,
  record: RecordShape,
  field: FieldShape,
  amount: Param,
): Array<Record<string, unknown>> {
  const error = ctx.facts.errors.find((e) =>
    /exceed|capacity|overflow|too (much|many)|over the (limit|maximum)|full\b/.test(e.text),
  );
  if (!error) return [];
  const words = new Set(nameWords(field.path).map(singular));
  const limits = [...record.fields.values()].filter((f) => {
    const own = nameWords(f.path).map(singular);
    return (
      f !== field &&
      f.types.has("number") &&
      isLimit(f) &&
      (own.some((w) => words.has(w)) || ctx.facts.text.includes(f.path))
    );
  });
  if (limits.length !== 1) return [];
  const limit = (limits[0] as FieldShape).path;
  ctx.usedErrors.add(error.code);
  ctx.notes.push(`refuses to pass ${limit} (${error.code})`);
  return [
    {
      expr: `$subject.${identifier(field.path)} + $args.${identifier(amount.name)} <= $subject.${identifier(limit)}`,
      error: error.code,
    },
  ];
}

/** Fields that say whether, or who, someone is signed in: `authenticated`, `logged_in`, `signed_in_user`. */
export function authFields(record: RecordShape): FieldShape[] {
  // a session record (`session`, `auth`) says who by an id and holds the token it was given
  const session = record.path.some((segment) => nameWords(segment).some((w) => /^(session|auth)$/.test(w)));
  const rank = (f: FieldShape) => (f.types.has("boolean") ? 0 : nameWords(f.path).at(-1) === "id" ? 1 : 2);
  return [...record.fields.values()]
    .filter((f) => {
      if (f.path.includes(".")) return false;
      const words = nameWords(f.path);
      const flag =
        f.types.has("boolean") &&
        words.some((w) => /^(authenticated|logged|login|signed|authorized)$/.test(w));
      const who =
        (words.includes("current") && words.some((w) => /^(user|account|member|id)$/.test(w))) ||
        (!f.types.has("boolean") && namesSignedInAccount(f.path));
      const held = session && !f.types.has("boolean") && (words.at(-1) === "id" || words.at(-1) === "token");
      return flag || who || held;
    })
    .sort((a, b) => rank(a) - rank(b));
}

/** Logging in sets the flag and who; logging out clears them. */
function signInOrOut(ctx: Context, record: RecordShape, target: string, intent: "login" | "logout"): Draft[] {
  const fields = authFields(record);
  if (fields.length === 0) return [];
  if (intent === "login") {
    const found = signInByField(ctx, record, target, fields);
    if (found) return found;
  }
  const set: Record<string, unknown> = {};
  // who signs in: an argument named for an account, else the one plain text argument (`clerk`)
  const texts = ctx.facts.params.filter(
    (p) => p.type === "string" && !/pass|secret|pin|token|code/i.test(p.name),
  );
  const who =
    ctx.facts.params.find((p) => /user|account|member|name|id/.test(p.name) && p.type !== "boolean") ??
    (texts.length === 1 ? texts[0] : undefined);
  for (const field of fields) {
    if (field.types.has("boolean")) set[field.path] = intent === "login";
    else set[field.path] = intent === "login" ? (who ? `{${who.name}}` : undefined) : null;
  }
  for (const [key, value] of Object.entries(set)) if (value === undefined) delete set[key];
  ctx.notes.push(
    `${intent === "login" ? "signs in" : "signs out"}: sets ${Object.keys(set).join(", ")} of ${target}`,
  );
  const held = intent === "login" ? heldCredentials(ctx, record) : [];
  const match = held.map((name) => `$args.${identifier(name)} = $subject.${identifier(name)}`).join(" and ");
  if (match) {
    // wrong credentials leave the session as it was
    for (const [key, value] of Object.entries(set))
      set[key] = {
        $expr: `(${match}) ? ${JSON.stringify(value)} : ($exists($subject.${identifier(key)}) ? $subject.${identifier(key)} : ${typeof value === "boolean" ? "false" : "null"})`,
      };
    ctx.notes.push(`signs in only when ${held.join(" and ")} match the ones ${target} holds`);
  }
  const answers: Draft[] = ctx.facts.outputs
    .filter(
      (o) => o.type === "boolean" && /status|success|authenticated|logged|signed|login|logout/.test(o.name),
    )
    .map((o) => ({
      kind: "respond",
      output: o.name,
      value: { $expr: match ? `$boolean(${match.replaceAll("$subject.", "$record.")})` : "true" },
    }));
  return [{ kind: "update", target, set, as: "record" }, ...answers];
}

/**
 * The credentials a sign-in takes that the signed-in record itself holds (its `username` and
 * `password`): a sign-in succeeds only when they match, as any password check does.
 */
function heldCredentials(ctx: Context, record: RecordShape): string[] {
  const properties = ctx.facts.tool.inputSchema.properties;
  if (properties === null || typeof properties !== "object") return [];
  const names = Object.keys(properties).filter((name) => record.fields.get(name)?.types.has("string"));
  return names.some((name) => /pass|secret|pin/i.test(name)) ? names : [];
}

/**
 * Signing in by a field of the accounts (`email`) rather than their key: the account whose
 * field holds the argument is who signs in, and none answers the documented credentials
 * error; the session's id field gets its key, its flags turn true. The token an API mints is
 * its own secret and is left to synthesis. Firebase's `signInWithEmailAndPassword`, Django's
 * `authenticate(email=…)`, and the password grants of OAuth servers sign in by email.
 */
function signInByField(
  ctx: Context,
  record: RecordShape,
  target: string,
  fields: FieldShape[],
): Draft[] | undefined {
  for (const collection of ctx.shape.collections.values()) {
    const principal = principalOf(ctx.shape, collection);
    if (principal?.record !== record || !collection.keyField) continue;
    const by = ctx.facts.params.find(
      (p) => p.type === "string" && collection.fields.has(p.name) && p.name !== collection.keyField,
    );
    if (!by) continue;
    const error = ctx.facts.errors.find((e) =>
      /credential|password|wrong|invalid|no (user|account|customer)/i.test(e.text),
    );
    const code =
      error?.code ??
      addError(ctx, {
        code: "INVALID_CREDENTIALS",
        status: 401,
        message: "The credentials are wrong.",
        when: `No ${singular(collection.name)} has the given ${by.name} (inferred).`,
      });
    if (error) ctx.usedErrors.add(error.code);
    const set: Record<string, unknown> = {
      [principal.field]: { $expr: `$found[0].${identifier(collection.keyField)}` },
    };
    for (const field of fields) if (field.types.has("boolean")) set[field.path] = true;
    ctx.notes.push(`signs in the ${singular(collection.name)} whose ${by.name} is given (${code})`);
    const key = collection.keyField;
    return [
      { kind: "list", target: collection.path.join("/"), where: { [by.name]: `{${by.name}}` }, as: "found" },
      { kind: "check", require: [{ expr: "$count($found) > 0", error: code }] },
      { kind: "update", target, set, as: "record" },
      ...ctx.facts.outputs
        .filter((o) => o.name === principal.field || o.name === key)
        .map((o) => ({ kind: "respond", output: o.name, value: { $expr: `$found[0].${identifier(key)}` } })),
    ];
  }
  return undefined;
}

/**
 * In a world that keeps who is signed in, a change needs someone signed in: the write
 * endpoints of public APIs answer 401 without a session (GitHub, X, Reddit), while reads of
 * public data do not. The guard reads the flag (or who) beside the part the write changes.
 */
export function signedInGuard(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const words = ctx.facts.words;
  if (words.some((w) => LOGIN_VERBS.has(w) || LOGOUT_VERBS.has(w))) return [];
  // only where the API has a way to sign in: otherwise a world that starts signed out could change nothing
  if (!ctx.siblings().some((s) => s.words.some((w) => LOGIN_VERBS.has(w)))) return [];
  const changed = drafts
    .filter((d) => d.kind === "create" || d.kind === "update" || d.kind === "delete")
    .map((d) => String(d.target ?? ""));
  if (changed.length === 0) return [];
  const holders = ctx.shape.parts.filter(
    (p): p is RecordShape => p.kind === "record" && authFields(p).length > 0,
  );
  // the record that says who is signed in, around what changes or, beside it, the only one
  const holder =
    holders.find((r) =>
      changed.some(
        (t) => r.path.length === 0 || t === r.path.join("/") || t.startsWith(`${r.path.join("/")}/`),
      ),
    ) ?? (holders.length === 1 && holders[0]?.path.length === 1 ? holders[0] : undefined);
  if (!holder) return [];
  const field = authFields(holder)[0] as FieldShape;
  const documented = ctx.facts.errors.find((e) =>
    /log(ged)? ?in|sign(ed)? ?in|authenticat|unauthori/.test(e.text),
  );
  // an API may let some changes through without a session: only what the docs say needs one
  if (
    !documented &&
    !/\b(log(ged)?[- ]?in|sign(ed)?[- ]?in|authenticated|credentials)\b/i.test(ctx.facts.text)
  )
    return [];
  const error =
    documented?.code ??
    addError(ctx, {
      code: "NOT_AUTHENTICATED",
      status: 401,
      message: "No one is signed in; sign in first.",
      when: "The change needs someone signed in, and the state says no one is (inferred from the state's sign-in fields).",
    });
  if (documented) ctx.usedErrors.add(documented.code);
  ctx.notes.push(`requires someone signed in (${field.path}; ${error})`);
  const path = [...holder.path, field.path].map((s) => JSON.stringify(s)).join(", ");
  return [{ kind: "check", require: [{ expr: `$boolean($entity(${path}))`, error }] }];
}

/** A field whose name ends with the argument's words (`sleep_timer_minutes` for `minutes`), when only one does. */
function tailField(record: RecordShape, param: Param): FieldShape | undefined {
  const tail = param.words.join("_");
  const found = [...record.fields.values()].filter(
    (f) => plainField(f) && nameWords(f.path).join("_").endsWith(`_${tail}`),
  );
  return found.length === 1 ? found[0] : undefined;
}

/**
 * "Only possible in manual mode": a documented error that says a change needs a field of the
 * record to hold one of its values guards the change with it — the way device APIs refuse a
 * command in the wrong mode (Google Smart Home `notSupported` in the current mode, Philips
 * Hue's "not available in this state", a thermostat's setpoint outside heat mode).
 */
function recordGuards(ctx: Context, record: RecordShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (speaksOfArgument(ctx, error.text)) continue;
    const said = `${error.text} ${nameWords(error.code).join(" ")}`;
    for (const field of record.fields.values()) {
      if (!field.types.has("string")) continue;
      const words = nameWords(field.path).join(" ");
      // the values the state shows, and those the API's own arguments for the field offer
      const offered = ctx
        .siblings()
        .flatMap((s) => s.params)
        .filter((p) => p.name === field.path && Array.isArray(p.schema.enum))
        .flatMap((p) => (p.schema.enum as unknown[]).filter((v): v is string => typeof v === "string"));
      const value = [...new Set([...field.values.keys(), ...offered])].find((v) =>
        new RegExp(
          `\\b(?:only|not)\\b[^.]*\\bin\\s+${escapeRegExp(v.toLowerCase())}\\s+${escapeRegExp(words)}\\b`,
        ).test(said),
      );
      if (!value) continue;
      guards.push({ field: field.path, in: [value], error: error.code });
      ctx.usedErrors.add(error.code);
      ctx.notes.push(`requires ${field.path} '${value}' (${error.code})`);
    }
  }
  // "the engine is not running": a state of the record's parts an error names
  return [...guards, ...preconditions(ctx, record)];
}

/** A toggle flips the one switch the tool names (`toggle_child_lock` → `child_lock`). */
function toggleField(ctx: Context, record: RecordShape, target: string): Draft[] {
  const field = namedField(ctx, record);
  if (!field?.types.has("boolean")) return [];
  ctx.notes.push(`flips ${target}.${field.path}`);
  return [
    {
      kind: "update",
      target,
      require: recordGuards(ctx, record),
      set: { [field.path]: { $expr: `$not($subject.${identifier(field.path)})` } },
      as: "record",
    },
    ...answersFrom(ctx, record, "record"),
    ...ctx.facts.outputs
      .filter((o) => o.type === "boolean" && !recordField(record, o.name))
      .map((o) => ({
        kind: "respond",
        output: o.name,
        value: { $expr: `$record.${identifier(field.path)}` },
      })),
  ];
}

/** A reset puts the field the tool names back where the description says ("goes back to 100 percent"). */
function resetField(ctx: Context, record: RecordShape, target: string): Draft[] {
  const field = namedField(ctx, record);
  const stated =
    /\b(?:back\s+to|resets?\s+(?:it\s+|them\s+)?to|returns?\s+to|is\s+set\s+to)\s+(-?\d+(?:\.\d+)?|'[^']+'|"[^"]+"|true|false)/i.exec(
      ctx.facts.text,
    )?.[1];
  if (!field || stated === undefined) return [];
  const value = /^['"]/.test(stated) ? stated.slice(1, -1) : JSON.parse(stated);
  ctx.notes.push(`sets ${target}.${field.path} to ${JSON.stringify(value)} (the description says so)`);
  return [
    { kind: "update", target, set: { [field.path]: value }, as: "record" },
    ...answersFrom(ctx, record, "record"),
  ];
}

/**
 * A command to a device or an account whose description says what it leaves ("Status becomes
 * `paused`; zone is kept", "zone is cleared to null", "sets mode to "eco""):
 * the one record whose fields it names is changed so, arguments named like its fields set
 * them, and the errors that name its states refuse it, as Roborock's `app_pause`, a Nest
 * thermostat's mode commands and Spotify's player `pause` change the one device they drive.
 */
export function describedRecordChange(ctx: Context): Draft[] | undefined {
  const text = ctx.facts.tool.description.replace(/`/g, '"');
  const changes = ctx.shape.parts
    .filter((p): p is RecordShape => p.kind === "record" && p.fields.size > 0)
    .map((record) => ({ record, set: statedOn(ctx, record, text) }))
    .filter((c) => Object.keys(c.set).length > 0);
  // fields of the same name in several records: the record the tool's name speaks of (`halt_logger`)
  const named = changes.length > 1 ? namedPart(ctx.facts, ctx.shape, ["record"]) : undefined;
  const change = changes.length === 1 ? changes[0] : changes.find((c) => c.record === named);
  if (!change) return undefined;
  const { record, set } = change;
  const target = record.path.join("/") || ".";
  ctx.notes.push(`changes ${Object.keys(set).join(", ")} of ${target} as the description says`);
  if (ctx.facts.verbAction === undefined)
    addGap(
      ctx,
      `its verb (${ctx.facts.verb ?? ctx.facts.words[0]}) says nothing toolsim knows: only the changes its description states are made`,
    );
  return [
    { kind: "update", target, require: preconditions(ctx, record), set, as: "record" },
    ...answersFrom(ctx, record, "record"),
  ];
}

/** The values a description gives the record's fields, its status, and the arguments named like them. */
function statedOn(ctx: Context, record: RecordShape, text: string): Record<string, unknown> {
  const set: Record<string, unknown> = {
    ...statedValues(ctx, record, {}, text),
    ...choiceValues(ctx, record, text),
    ...argumentsKept(ctx, record, text),
  };
  const status = statusField(record);
  const stated = status && set[status.path] === undefined ? statedStatus(text) : undefined;
  if (status && stated) set[status.path] = stated;
  if (Object.keys(set).length === 0) return set;
  for (const param of ctx.facts.params) {
    const field = recordField(record, param.name);
    if (field && plainField(field) && set[field.path] === undefined) set[field.path] = `{${param.name}}`;
  }
  return set;
}

/**
 * "Links the lamp to a hub, storing `hub_name` in linked_hub", "sets volume to `level`", "turns it on or
 * off by setting `lit`": an argument the docs say a field of the record keeps, as a device's
 * or an account's reference says where a setting goes (Home Assistant's `media_player.volume_set`
 * writing `volume_level`, a Hue light's `on` writing `state.on`, Spotify's `device_id` kept as the
 * active device). "By setting" a field gives it the one argument that fits it.
 */
function argumentsKept(ctx: Context, record: RecordShape, text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const field = `"?([a-z_][a-z0-9_]*)"?`;
  for (const param of ctx.facts.params) {
    // most descriptions never name an argument where a field keeps it: no pattern is built then
    if (!text.includes(param.name)) continue;
    const arg = `"?${escapeRegExp(param.name)}"?`;
    const said =
      new RegExp(
        `\\b(?:stor|sav|record|writ|keep|put)(?:es|e|s|ing)?\\s+(?:the\\s+)?${arg}(?:\\s*\\([^)]*\\))?\\s+(?:in|into|as)\\s+(?:the\\s+)?${field}`,
        "i",
      ).exec(text) ??
      new RegExp(
        `\\bsets?\\s+(?:the\\s+)?${field}\\s+to\\s+(?:the\\s+)?(?:given\\s+)?${arg}(?![\\w"])`,
        "i",
      ).exec(text);
    const kept = said?.[1] ? record.fields.get(said[1]) : undefined;
    if (kept && plainField(kept) && holdsArgument(kept, param)) out[kept.path] = `{${param.name}}`;
  }
  const by = /\bby setting\s+(?:the\s+)?"?([a-z_][a-z0-9_]*)"?/i.exec(text)?.[1];
  const set = by ? record.fields.get(by) : undefined;
  const fits = set ? ctx.facts.params.filter((p) => holdsArgument(set, p) && p.type !== undefined) : [];
  if (set && plainField(set) && out[set.path] === undefined && fits.length === 1)
    out[set.path] = `{${(fits[0] as Param).name}}`;
  return out;
}

/**
 * 'command is "on" or "off"; on sets powered to true, off sets it to false': an argument
 * of a few named choices, each of which the docs say sets a field of the record to a value,
 * sets it by the choice given, as Spotify's player `state`, a smart plug's `on`/`off` command and
 * a media player's `play`/`pause` action do. A choice the docs give no value leaves the field.
 */
function choiceValues(ctx: Context, record: RecordShape, text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const param of ctx.facts.params) {
    const options = param.schema.enum;
    if (!Array.isArray(options) || options.length < 2 || !options.every((o) => typeof o === "string"))
      continue;
    const values = new Map<string, Map<string, unknown>>();
    let last: string | undefined;
    for (const option of options as string[]) {
      const said = new RegExp(
        `["']?\\b${escapeRegExp(option)}\\b["']?\\s+sets\\s+(?:(it)|(?:its\\s+|the\\s+)?([a-z_][a-z0-9_]*))\\s+to\\s+${LITERAL}`,
        "i",
      ).exec(text);
      const field = said?.[1] ? last : said?.[2];
      const value = literalValue(said?.[3]);
      if (!field || !value || !record.fields.has(field)) continue;
      last = field;
      const cases = values.get(field) ?? new Map<string, unknown>();
      cases.set(option, value.value);
      values.set(field, cases);
    }
    for (const [field, cases] of values) {
      if (cases.size < 2) continue;
      const given = `$args.${identifier(param.name)}`;
      const otherwise = `$subject.${identifier(field)}`;
      const expression = [...cases].reduceRight(
        (rest, [option, value]) =>
          `${given} = ${JSON.stringify(option)} ? ${JSON.stringify(value)} : (${rest})`,
        otherwise,
      );
      out[field] = { $expr: expression };
      ctx.notes.push(
        `sets ${field} by ${param.name}: ${[...cases].map(([o, v]) => `${o} → ${JSON.stringify(v)}`).join(", ")}`,
      );
    }
  }
  return out;
}

/**
 * `get_status` answering `{station, anemometer, logger}` where those are the state's own top-level
 * parts: an overview that returns several parts as they are stored, as a device's status
 * endpoint groups its subsystems (OctoPrint's `/api/printer` answers `temperature`, `sd` and
 * `state`; Home Assistant's `/api/config` and a router's status page do the same).
 */
export function partsSnapshot(ctx: Context): Draft[] | undefined {
  const outputs = ctx.facts.outputs;
  if (ctx.facts.params.length > 0 || outputs.length < 2) return undefined;
  const root = ctx.shape.root;
  const topLevel = (name: string) =>
    root.fields.has(name) ||
    ctx.shape.parts.some(
      (p) =>
        p.path.length === root.path.length + 1 &&
        p.path.at(-1) === name &&
        root.path.every((s, i) => p.path[i] === s),
    );
  if (!outputs.every((o) => topLevel(o.name))) return undefined;
  ctx.notes.push(`answers ${outputs.map((o) => o.name).join(", ")} as the state keeps them`);
  return [
    { kind: "read", target: root.path.join("/") || ".", as: "whole" },
    ...outputs.map(
      (o): Draft => ({ kind: "respond", output: o.name, value: { $expr: `$whole.${identifier(o.name)}` } }),
    ),
  ];
}
