import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import { answersFrom } from "./records.js";
import type { FieldShape, RecordShape } from "./shape.js";
import { nameWords, singular } from "./words.js";

/**
 * Switches: verbs that put a thing into a state — start and stop an engine, lock and unlock
 * doors, arm an alarm, mute a speaker. The state the verb means (`start` → `running` or `on`,
 * `lock` → `locked`) is one of the values a field of a record takes (`engine`: `off`,
 * `running`) or that a map of parts to states holds (`doors.driver`: `locked`): the tool
 * sets that field, or every part it names (all of them where it names none), and a flag
 * argument named for the opposite verb (`unlock`) sets the opposite state. A documented
 * error that speaks of a state of the record ("a door is unlocked", "the engine is not
 * running") refuses the call in that state. Tesla's Fleet API (`door_lock`, `door_unlock`),
 * Smartcar's security endpoint (`LOCK`, `UNLOCK`) and Home Assistant's `lock.lock` and
 * `switch.turn_on` services work so.
 */

const STATES: Readonly<Record<string, readonly string[]>> = {
  start: ["running", "started", "on", "active"],
  stop: ["stopped", "off", "idle", "inactive"],
  lock: ["locked"],
  unlock: ["unlocked"],
  open: ["open", "opened"],
  close: ["closed", "shut"],
  enable: ["enabled", "on", "active"],
  disable: ["disabled", "off", "inactive"],
  activate: ["active", "activated", "on", "enabled"],
  deactivate: ["inactive", "deactivated", "off", "disabled"],
  arm: ["armed"],
  disarm: ["disarmed"],
  pause: ["paused"],
  resume: ["running", "resumed", "active", "playing"],
  mute: ["muted"],
  unmute: ["unmuted"],
  engage: ["engaged", "on"],
  release: ["released", "disengaged", "off"],
  connect: ["connected"],
  disconnect: ["disconnected"],
};

const OPPOSITE: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ["start", "stop"],
    ["lock", "unlock"],
    ["open", "close"],
    ["enable", "disable"],
    ["activate", "deactivate"],
    ["arm", "disarm"],
    ["pause", "resume"],
    ["mute", "unmute"],
    ["engage", "release"],
    ["connect", "disconnect"],
  ].flatMap(([a, b]) => [
    [a, b],
    [b, a],
  ]),
);

/** What the verb puts things into: its states, and the opposite verb's (for a flag that reverses it). */
function statesOf(
  ctx: Context,
): { verb: string; states: readonly string[]; opposite: readonly string[] } | undefined {
  const words = ctx.facts.words;
  // the vocabulary of the other rules need not know a switching verb (`stop`)
  const verb = ctx.facts.verb ?? words[0];
  // `turn_on`, `switch_off`, `power_on`
  if (verb && ["turn", "switch", "power"].includes(verb)) {
    if (words.includes("on")) return { verb: "on", states: ["on"], opposite: ["off"] };
    if (words.includes("off")) return { verb: "off", states: ["off"], opposite: ["on"] };
  }
  const states = verb ? STATES[verb] : undefined;
  if (!verb || !states) return undefined;
  return { verb, states, opposite: STATES[OPPOSITE[verb] ?? ""] ?? [] };
}

type Switchable =
  | { kind: "field"; record: RecordShape; field: FieldShape; known: string[] }
  | { kind: "map"; record: RecordShape; keys: string[]; field: string; known: string[] };

/** The string values a field takes: in the state, and in the enums of the API's arguments and outputs of its name. */
function knownValues(ctx: Context, name: string, seen: Iterable<unknown>): string[] {
  const enums = [ctx.facts, ...ctx.siblings()].flatMap((facts) => {
    const output = (
      facts.tool.outputSchema?.properties as Record<string, { enum?: unknown[] }> | undefined
    )?.[name];
    const param = facts.params.find((p) => p.name === name);
    return [...(output?.enum ?? []), ...((param?.schema.enum as unknown[] | undefined) ?? [])];
  });
  return [...new Set([...seen, ...enums].filter((v): v is string => typeof v === "string"))];
}

function switchables(ctx: Context): Switchable[] {
  const found: Switchable[] = [];
  const records = ctx.shape.parts.filter((p): p is RecordShape => p.kind === "record");
  for (const record of records)
    for (const field of record.fields.values())
      if (!field.path.includes(".") && field.types.has("string") && field.types.size === 1)
        found.push({
          kind: "field",
          record,
          field,
          known: knownValues(ctx, field.path, field.values.keys()),
        });
  // parts keyed by name, each in a state: a map of values, or a record whose fields all take
  // the same words (`doors: {driver: "locked", …}`)
  for (const part of ctx.shape.parts) {
    const holder = records.find((r) => r.path.join("/") === part.path.slice(0, -1).join("/"));
    const field = part.path.at(-1);
    if (!holder || !field) continue;
    if (part.kind === "values" && part.valueType === "string")
      found.push({
        kind: "map",
        record: holder,
        keys: part.keys,
        field,
        known: knownValues(ctx, field, part.values),
      });
    if (part.kind === "record" && part.fields.size >= 2) {
      const fields = [...part.fields.values()];
      if (!fields.every((f) => f.types.size === 1 && f.types.has("string"))) continue;
      const seen = new Set(fields.flatMap((f) => [...f.values.keys()]));
      if (seen.size > fields.length) continue;
      found.push({
        kind: "map",
        record: holder,
        keys: fields.map((f) => f.path),
        field,
        known: knownValues(ctx, field, seen),
      });
    }
  }
  return found;
}

function nounsOf(name: string): string[] {
  return nameWords(name).map(singular);
}

/** The part the tool switches: the one whose values hold the verb's state, named by the tool where several do. */
function switched(ctx: Context, states: readonly string[]): { part: Switchable; state: string } | undefined {
  const nouns = new Set(ctx.facts.nouns.map(singular));
  const fits = switchables(ctx).flatMap((part) => {
    const state = states.find((s) => part.known.includes(s));
    return state ? [{ part, state }] : [];
  });
  const named = fits.filter(({ part }) =>
    nounsOf(part.kind === "map" ? part.field : part.field.path).some((n) => nouns.has(n)),
  );
  if (named.length === 1) return named[0];
  // a tool whose name names something else (`start_sleep_timer`) does not switch a lone part
  return fits.length === 1 && nouns.size === 0 ? fits[0] : undefined;
}

export function switchRule(ctx: Context): Draft[] | undefined {
  const verb = statesOf(ctx);
  if (!verb) return undefined;
  const found = switched(ctx, verb.states);
  if (!found) return undefined;
  const { part, state } = found;
  // an argument that sets the field itself is a plain set, not a switch
  const fieldName = part.kind === "map" ? part.field : part.field.path;
  if (ctx.facts.params.some((p) => p.name === fieldName && part.kind === "field")) return undefined;
  const opposite = verb.opposite.find((s) => part.known.includes(s));
  const flip = opposite ? flipParam(ctx, verb.verb) : undefined;
  const value = flip
    ? `($args.${identifier(flip.name)} ? ${JSON.stringify(opposite)} : ${JSON.stringify(state)})`
    : JSON.stringify(state);
  const target = part.record.path.join("/") || ".";
  const require = preconditions(ctx, part.record);
  if (part.kind === "field") {
    ctx.notes.push(`sets ${part.field.path} of ${target} to '${state}' (the verb "${verb.verb}")`);
    return [
      { kind: "update", target, require, set: { [part.field.path]: { $expr: value } }, as: "record" },
      ...answersFrom(ctx, part.record, "record"),
    ];
  }
  const keys = keysParam(ctx, part);
  const map = `$subject.${identifier(part.field)}`;
  const chosen = keys
    ? `$merge($args.${identifier(keys.name)}.{$: ${value}})`
    : `$merge($each(${map}, function($v, $k) { {$k: ${value}} }))`;
  ctx.notes.push(
    `sets ${keys ? `the ${part.field} named by ${keys.name}` : `every one of ${part.field}`} to '${state}' (the verb "${verb.verb}")`,
  );
  return [
    {
      kind: "update",
      target,
      require,
      set: { [part.field]: { $expr: `$merge([${map}, ${chosen}])` } },
      as: "record",
    },
    ...answersFrom(ctx, part.record, "record"),
    ...stateCounts(ctx, part),
  ];
}

/** A boolean argument named for the opposite verb or state (`unlock`, `off`) reverses the switch. */
function flipParam(ctx: Context, verb: string): Param | undefined {
  const opposite = OPPOSITE[verb];
  const words = new Set([
    opposite,
    ...(opposite ? (STATES[opposite] ?? []) : []),
    verb === "on" ? "off" : "on",
  ]);
  return ctx.facts.params.find((p) => p.type === "boolean" && words.has(p.name));
}

/** The argument naming which parts of the map to switch: a list (or one) of its keys. */
function keysParam(ctx: Context, part: Extract<Switchable, { kind: "map" }>): Param | undefined {
  const keys = new Set(part.keys);
  const noun = singular(part.field);
  return ctx.facts.params.find((p) => {
    const items =
      p.type === "array" ? (p.schema.items as { enum?: unknown[] } | undefined)?.enum : p.schema.enum;
    const inMap = Array.isArray(items) && items.length > 0 && items.every((v) => keys.has(String(v)));
    return (p.type === "array" || p.type === "string") && (inMap || nounsOf(p.name).includes(noun));
  });
}

/** Outputs that count the parts in one state (`unlocked_doors`): how many of the map's values are that state, after the change. */
function stateCounts(ctx: Context, part: Extract<Switchable, { kind: "map" }>): Draft[] {
  const noun = singular(part.field);
  return ctx.facts.outputs.flatMap((o) => {
    if (o.type !== "integer" && o.type !== "number") return [];
    const words = nameWords(o.name);
    const state = part.known.find((s) => words.includes(s));
    if (!state || !words.map(singular).includes(noun)) return [];
    return [
      {
        kind: "respond",
        output: o.name,
        value: {
          $expr: `$count($each($record.${identifier(part.field)}, function($v) { $v })[$ = ${JSON.stringify(state)}])`,
        },
      },
    ];
  });
}

/**
 * Documented errors that speak of a state of the record's parts refuse the call in it: "a door
 * is unlocked" refuses while any door is, "the engine is not running" while it is not.
 */
function preconditions(ctx: Context, record: RecordShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  // guards read the record the call changes
  const parts = switchables(ctx).filter((part) => part.record === record);
  for (const error of ctx.facts.errors) {
    if (ctx.usedErrors.has(error.code)) continue;
    const said = `${error.text} ${nameWords(error.code).join(" ")}`.toLowerCase();
    for (const part of parts) {
      const name = part.kind === "map" ? part.field : part.field.path;
      if (!nounsOf(name).some((n) => new RegExp(`\\b${n}s?\\b`).test(said))) continue;
      const state = part.known.find(
        (s) => s.length > 1 && new RegExp(`\\b${escaped(s.toLowerCase())}\\b`).test(said),
      );
      if (!state) continue;
      const negated = new RegExp(
        `\\b(not|isn't|aren't)\\s+(\\w+\\s+)?${escaped(state.toLowerCase())}\\b`,
      ).test(said);
      const values =
        part.kind === "map" ? `$each($subject.${identifier(name)}, function($v) { $v })` : undefined;
      const quoted = JSON.stringify(state);
      const guard =
        part.kind === "field"
          ? { field: name, ...(negated ? { in: [state] } : { notIn: [state] }), error: error.code }
          : {
              expr: negated ? `$count(${values}[$ != ${quoted}]) = 0` : `$not(${quoted} in ${values})`,
              error: error.code,
            };
      guards.push(guard);
      ctx.usedErrors.add(error.code);
      ctx.notes.push(`refuses while ${name} ${negated ? "is not" : "has"} '${state}' (${error.code})`);
      break;
    }
  }
  return guards;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
