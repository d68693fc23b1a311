import { nounsOf, preconditions, type Switchable, switchables } from "./conditions.js";
import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import { answersFrom, namedRecordChecks, recordField } from "./records.js";
import { nameWords, singular } from "./words.js";

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

const STATES: Readonly<Record<string, readonly string[]>> = {
  start: ["running", "started", "on", "active", "playing"],
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
  play: ["playing", "running", "started"],
  mute: ["muted"],
  unmute: ["unmuted"],
  engage: ["engaged", "on"],
  release: ["released", "disengaged", "off"],
  connect: ["connected"],
  disconnect: ["disconnected"],
  plug: ["plugged", "connected"],
  unplug: ["unplugged", "disconnected"],
};

interface Switching {
  /** The verb as the notes name it: `on` for `turn_on`. */
  verb: string;
  /** The word of the name that says it (`turn`), no noun of the thing switched. */
  word: string;
  states: readonly string[];
}

/** What the verb puts things into: its states, most likely first. */
function statesOf(ctx: Context): Switching | undefined {
  const words = ctx.facts.words;
  // the vocabulary of the other rules need not know a switching verb (`stop`)
  const verb = ctx.facts.verb ?? words[0];
  // `turn_on`, `switch_off`, `power_on`
  if (verb && ["turn", "switch", "power"].includes(verb)) {
    if (words.includes("on")) return { verb: "on", word: verb, states: ["on"] };
    if (words.includes("off")) return { verb: "off", word: verb, states: ["off"] };
  }
  const states = verb ? STATES[verb] : undefined;
  return verb && states ? { verb, word: verb, states } : undefined;
}

/** The part the tool switches: the one whose values hold the verb's state, named by the tool where several do. */
function switched(ctx: Context, verb: Switching): { part: Switchable; state: string } | undefined {
  // a verb the other rules do not know (`mute`) is still no noun
  const nouns = new Set(ctx.facts.nouns.filter((n) => n !== verb.word).map(singular));
  const fits = switchables(ctx).flatMap((part) => {
    const state = verb.states.find((s) => part.known.includes(s));
    return state ? [{ part, state, nouns: nounsOf(part.kind === "map" ? part.field : part.field.path) }] : [];
  });
  const named = fits.filter((fit) => fit.nouns.some((n) => nouns.has(n)));
  if (named.length === 1) return named[0];
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

export function switchRule(ctx: Context): Draft[] | undefined {
  const verb = statesOf(ctx);
  if (!verb) return undefined;
  const found = switched(ctx, verb);
  if (!found) return flagSwitch(ctx, verb);
  const { part, state } = found;
  // an argument that sets the field itself is a plain set, not a switch
  const fieldName = part.kind === "map" ? part.field : part.field.path;
  if (ctx.facts.params.some((p) => p.name === fieldName && part.kind === "field")) return undefined;
  const value = JSON.stringify(state);
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

/** Verbs whose states are the opposites of another's: `pause` leaves `playing`, `stop` leaves `running`. */
const OPPOSITES: Readonly<Record<string, string>> = {
  start: "stop",
  stop: "start",
  lock: "unlock",
  unlock: "lock",
  open: "close",
  close: "open",
  enable: "disable",
  disable: "enable",
  activate: "deactivate",
  deactivate: "activate",
  arm: "disarm",
  disarm: "arm",
  pause: "play",
  play: "pause",
  resume: "pause",
  mute: "unmute",
  unmute: "mute",
  engage: "release",
  release: "engage",
  connect: "disconnect",
  disconnect: "connect",
  plug: "unplug",
  unplug: "plug",
};

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
  const opposite = OPPOSITES[verb.verb];
  const against = opposite ? (STATES[opposite] ?? []) : [];
  const flags = ctx.shape.parts.flatMap((record) => {
    if (record.kind !== "record") return [];
    return [...record.fields.values()].flatMap((field) => {
      if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) return [];
      const words = nameWords(field.path).filter((w) => w !== "is");
      if (words.length !== 1) return [];
      const word = words[0] as string;
      if (verb.states.includes(word)) return [{ record, field, value: true }];
      if (against.includes(word)) return [{ record, field, value: false }];
      return [];
    });
  });
  if (flags.length !== 1) return undefined;
  const { record, field, value } = flags[0] as (typeof flags)[number];
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
