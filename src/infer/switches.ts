import { nounsOf, preconditions, type Switchable, switchables } from "./conditions.js";
import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import { answersFrom } from "./records.js";
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
