import { enumsOf, nounsOf, preconditions, type Switchable, switchables } from "./conditions.js";
import { addGap, type Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { switchedNouns, theFlag, thrownFlags } from "./fields.js";
import { identifier } from "./reads.js";
import { answersFrom, namedRecordChecks, recordField } from "./records.js";
import type { FieldShape, RecordShape } from "./shape.js";
import {
  flagName,
  nameWords,
  SWITCH_OPPOSITES as OPPOSITES,
  participle,
  SWITCH_STATES as STATES,
  type Switching,
  singular,
  switchingOf,
} from "./words.js";

/**
 * Switches: verbs that put a thing into a state — start and stop charging, open and close
 * windows, arm an alarm, mute a speaker. The state the verb means (`start` → `running` or
 * `started`, `open` → `open`) is one of the values a field of a record takes (`charging`:
 * `stopped`, `started`) or that parts keyed by name hold (`windows.rear_left`: `closed`):
 * the tool sets that field, or every part it names (all of them where it names none). A
 * documented error that speaks of a state of the record ("a window is open", "the charge
 * port is closed") refuses the call in that state. Tesla's Fleet API (`door_lock`,
 * `charge_start`, `window_control`), Smartcar's security endpoint (`LOCK`, `UNLOCK`) and Home
 * Assistant's `lock.lock` and `switch.turn_on` services work so.
 */

/** What the verb puts things into: its states, most likely first. */
function statesOf(ctx: Context): Switching | undefined {
  return switchingOf(ctx.facts.words, ctx.facts.verb);
}

/** The part the tool switches: the one whose values hold the verb's state, named by the tool where several do. */
function switched(
  ctx: Context,
  verb: Switching,
): { part: Switchable; state: string; guessedWord?: true } | undefined {
  // a verb the other rules do not know (`mute`) is still no noun
  const nouns = new Set(ctx.facts.nouns.filter((n) => n !== verb.word).map(singular));
  const fits = switchables(ctx).flatMap((part) => {
    const state = verb.states.find((s) => part.known.includes(s));
    return state ? [{ part, state, nouns: nounsOf(part.kind === "map" ? part.field : part.field.path) }] : [];
  });
  // a part that shares a word with the name but each has one the other lacks is something else
  // (`stop_pool_pump` and `pool_heater`: a pump is no heater)
  const named = fits.filter(
    (fit) =>
      fit.nouns.some((n) => nouns.has(n)) &&
      !(fit.nouns.some((n) => !nouns.has(n)) && [...nouns].some((n) => !fit.nouns.includes(n))),
  );
  if (named.length === 1) return named[0];
  const left = named.length === 0 ? leftState(ctx, verb, nouns) : undefined;
  if (left) return left;
  // several share a word with the name (`open_garage_door`: `garage_door`, `front_door`): the
  // one it names whole, the longest where several are (`porch_light` before `lights`)
  const whole = named
    .filter((fit) => fit.nouns.every((n) => nouns.has(n)))
    .sort((a, b) => b.nouns.length - a.nouns.length);
  const [first, second] = whole;
  if (first && first.nouns.length > (second?.nouns.length ?? 0)) return first;
  // a tool whose name names something else (`start_sleep_timer`) does not switch a lone part
  return fits.length === 1 && nouns.size === 0 ? fits[0] : undefined;
}

/**
 * A field the tool names whole, in a state of the opposite verb's (`parking_brake`: `engaged`,
 * for `release_parking_brake`), where no schema lists the words it takes: the verb puts it into
 * its own first state (`released`). The word is a guess at the API's own, and said so.
 */
function leftState(
  ctx: Context,
  verb: Switching,
  nouns: ReadonlySet<string>,
): { part: Switchable; state: string; guessedWord: true } | undefined {
  const opposite = OPPOSITES[verb.verb];
  const against = opposite ? (STATES[opposite] ?? []) : [];
  const state = verb.states[0];
  if (against.length === 0 || !state || nouns.size === 0) return undefined;
  const left = switchables(ctx).filter(
    (part) =>
      part.kind === "field" &&
      part.known.some((value) => against.includes(value)) &&
      enumsOf(ctx, part.field.path).length === 0 &&
      nounsOf(part.field.path).every((n) => nouns.has(n)),
  );
  const [only] = left;
  return only && left.length === 1 ? { part: only, state, guessedWord: true } : undefined;
}

export function switchRule(ctx: Context): Draft[] | undefined {
  const verb = statesOf(ctx);
  if (!verb) return flagMapSwitch(ctx, undefined);
  const found = switched(ctx, verb);
  if (!found) return flagSwitch(ctx, verb) ?? flagMapSwitch(ctx, verb);
  const { part, state } = found;
  // an argument that sets the field itself is a plain set, not a switch
  const fieldName = part.kind === "map" ? part.field : part.field.path;
  if (ctx.facts.params.some((p) => p.name === fieldName && part.kind === "field")) return undefined;
  const value = JSON.stringify(state);
  const target = part.record.path.join("/") || ".";
  const require = preconditions(ctx, part.record);
  if (part.kind === "field") {
    ctx.notes.push(`sets ${part.field.path} of ${target} to '${state}' (the verb "${verb.verb}")`);
    if (found.guessedWord)
      addGap(
        ctx,
        `'${state}' for ${part.field.path} once ${participle(verb.verb)} is seen nowhere in the state or the schemas: a guess at the API's own word`,
      );
    return [
      { kind: "update", target, require, set: { [part.field.path]: { $expr: value } }, as: "record" },
      ...answersFrom(ctx, part.record, "record"),
    ];
  }
  const keys = keysParam(ctx, part);
  const map = `$subject.${identifier(part.field)}`;
  const every = `$merge($each(${map}, function($v, $k) { {$k: ${value}} }))`;
  const named = keys ? `$args.${identifier(keys.name)}` : undefined;
  // the parts the call names, or every part where it names none
  const chosen = named ? `($exists(${named}) ? $merge(${named}.{$: ${value}}) : ${every})` : every;
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
  ];
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

/**
 * A switching verb on a record that keeps the state as a boolean named for it (`is_playing`,
 * `locked`, `muted`) sets it: true for the verb's own state (`play`, `resume`, `start` →
 * `is_playing`), false for its opposite's (`pause` → `is_playing` false), where the record has
 * one such flag. Arguments named like the record's fields are set with it (a track to play),
 * and records they name must exist. Spotify's player (`is_playing` after play and pause),
 * Home Assistant's `media_player` (`is_volume_muted` after mute), Tesla's Fleet API
 * (`locked` after `door_lock` and `door_unlock`).
 */
function flagSwitch(ctx: Context, verb: Switching): Draft[] | undefined {
  const nouns = switchedNouns(ctx, verb);
  const flags = ctx.shape.parts.flatMap((record) =>
    record.kind === "record"
      ? thrownFlags(record.fields.values(), verb, nouns).map((flag) => ({ record, ...flag }))
      : [],
  );
  const chosen = theFlag(flags);
  if (!chosen) return undefined;
  const { record, field, value } = chosen;
  const target = record.path.join("/") || ".";
  const set: Record<string, unknown> = { [field.path]: { $expr: String(value) } };
  for (const param of ctx.facts.params) {
    const named = recordField(record, param.name);
    if (named && named !== field && !named.types.has("object")) set[named.path] = `{${param.name}}`;
  }
  const others = Object.entries(set).filter(([f]) => f !== field.path);
  ctx.notes.push(
    `sets ${field.path} of ${target} to ${value} (the verb "${verb.verb}")${others.map(([f, v]) => `, ${f} from ${String(v).slice(1, -1)}`).join("")}`,
  );
  return [
    ...namedRecordChecks(ctx),
    { kind: "update", target, require: preconditions(ctx, record), set, as: "record" },
    ...answersFrom(ctx, record, "record"),
  ];
}

function isFlag(field: FieldShape): boolean {
  return !field.path.includes(".") && field.types.size === 1 && field.types.has("boolean");
}

/** The verb whose state a word is (`locked` → `lock`), or the word itself where it is such a verb. */
function verbOfState(word: string): string | undefined {
  if (word in STATES) return word;
  return Object.keys(STATES).find((verb) => STATES[verb]?.includes(word));
}

/**
 * Parts keyed by name, each a flag named for its state (`doors_locked: {driver: true, …}`): a
 * switching verb sets the flags an argument names, every one where none does, true for its own
 * state and false for its opposite's (`lock_doors`, `unlock_doors`). Where the verb is no switch
 * (`set_door_locks`), a boolean argument named for the state or its verb (`locked`, `lock`) gives
 * the value, one named for the opposite (`unlock`) its negation. Tesla's Fleet API
 * (`vehicle_state.df`… and `door_lock`), Smartcar's lock status (`doors: [{type, status}]`) and
 * Home Assistant's lock entities keep locks so.
 */
function flagMapSwitch(ctx: Context, verb: Switching | undefined): Draft[] | undefined {
  // without a switching verb, only a boolean argument can say the value: most tools have none
  if (!verb && !ctx.facts.params.some((p) => p.type === "boolean")) return undefined;
  const toolNouns = new Set(ctx.facts.nouns.filter((n) => n !== verb?.word && !(n in STATES)).map(singular));
  const records = ctx.shape.parts.filter((p): p is RecordShape => p.kind === "record");
  const maps = ctx.shape.parts.flatMap((part) => {
    // a map of flags, or a record whose fields are all flags (`{driver: true, passenger: false}`)
    const keys =
      part.kind === "values" && part.valueType === "boolean"
        ? part.keys
        : part.kind === "record" && part.fields.size >= 2 && [...part.fields.values()].every(isFlag)
          ? [...part.fields.keys()]
          : undefined;
    if (!keys) return [];
    const holder = records.find((r) => r.path.join("/") === part.path.slice(0, -1).join("/"));
    const field = part.path.at(-1);
    if (!holder || !field) return [];
    const { state, of } = flagName(field);
    const stateVerb = verbOfState(state);
    if (!stateVerb || of.length === 0 || !of.every((n) => toolNouns.has(n))) return [];
    return [{ holder, field, keys, state, stateVerb }];
  });
  if (maps.length !== 1) return undefined;
  const map = maps[0] as (typeof maps)[number];
  const value = flagValue(ctx, verb, map.state, map.stateVerb);
  if (!value) return undefined;
  const part = { kind: "map" as const, record: map.holder, keys: map.keys, field: map.field, known: [] };
  const keys = keysParam(ctx, part);
  const subject = `$subject.${identifier(map.field)}`;
  const every = `$merge($each(${subject}, function($v, $k) { {$k: ${value.expr}} }))`;
  const named = keys ? `$args.${identifier(keys.name)}` : undefined;
  const chosen = named ? `($exists(${named}) ? $merge(${named}.{$: ${value.expr}}) : ${every})` : every;
  const target = map.holder.path.join("/") || ".";
  ctx.notes.push(
    `sets ${keys ? `the ${map.field} named by ${keys.name}` : `every one of ${map.field}`} to ${value.said}`,
  );
  return [
    {
      kind: "update",
      target,
      require: preconditions(ctx, map.holder),
      set: { [map.field]: { $expr: `$merge([${subject}, ${chosen}])` } },
      as: "record",
    },
    ...answersFrom(ctx, map.holder, "record"),
  ];
}

/** What a flag map's flags become: the verb's own state or its opposite's, or a boolean argument's value. */
function flagValue(
  ctx: Context,
  verb: Switching | undefined,
  state: string,
  stateVerb: string,
): { expr: string; said: string } | undefined {
  if (verb) {
    if (verb.states.includes(state)) return { expr: "true", said: `true (the verb "${verb.verb}")` };
    const opposite = OPPOSITES[verb.verb];
    if (opposite && (STATES[opposite] ?? []).includes(state))
      return { expr: "false", said: `false (the verb "${verb.verb}")` };
    return undefined;
  }
  const opposite = OPPOSITES[stateVerb];
  for (const param of ctx.facts.params) {
    if (param.type !== "boolean") continue;
    const words = nameWords(param.name).filter((w) => w !== "is");
    if (words.length !== 1) continue;
    const word = words[0] as string;
    const arg = `$args.${identifier(param.name)}`;
    if (word === state || word === stateVerb) return { expr: arg, said: `${param.name}` };
    if (opposite && (word === opposite || (STATES[opposite] ?? []).includes(word)))
      return { expr: `$not(${arg})`, said: `the opposite of ${param.name}` };
  }
  return undefined;
}
