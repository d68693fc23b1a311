import escapeRegExp from "escape-string-regexp";
import { type Context, use } from "./context.js";
import type { Param, ToolFacts } from "./facts.js";
import { identifier } from "./reads.js";
import type { FieldShape, RecordShape } from "./shape.js";
import { nameWords, singular } from "./words.js";

/**
 * The parts of a record that are in a state — a field that takes a few words (`engine`:
 * `off`, `running`), or parts keyed by name each in one (`doors.driver`: `locked`) — and the
 * documented errors that refuse a call in one of those states. Switching verbs set them
 * (`switches.ts`); any change to the record is refused in a state an error names.
 */

export type Switchable =
  | { kind: "field"; record: RecordShape; field: FieldShape; known: string[] }
  | { kind: "map"; record: RecordShape; keys: string[]; field: string; known: string[] };

/**
 * The string values a field takes: in the state, in the enums of the API's arguments and
 * outputs of its name, and, for a status, those the API's tools say they put records in
 * ("status becomes completed"), which a record may hold by the time a call comes.
 */
export function knownValues(ctx: Context, name: string, seen: Iterable<unknown>): string[] {
  const set = /^(?:status|state)$|_status$/.test(name) ? statusesSet(ctx) : [];
  return [
    ...new Set([...seen, ...enumsOf(ctx, name), ...set].filter((v): v is string => typeof v === "string")),
  ];
}

/** The statuses the toolset's tools say they set, read once per toolset. */
const statusesSetBy = new WeakMap<readonly ToolFacts[], string[]>();

function statusesSet(ctx: Context): string[] {
  const siblings = ctx.siblings();
  let found = statusesSetBy.get(siblings);
  if (!found) {
    found = siblings
      .map((facts) => statedStatus(facts.text)?.toLowerCase())
      .filter((value): value is string => value !== undefined && /^[a-z][a-z_-]{2,30}$/.test(value));
    statusesSetBy.set(siblings, found);
  }
  return found;
}

/** "the order status will be changed to 'cancelled'", "status becomes shipped", "marked as 'closed'". */
export function statedStatus(text: string): string | undefined {
  const patterns = [
    /(?<![\w.])status\s+(?:will\s+be\s+|is\s+|gets\s+|shall\s+be\s+)?(?:changed|set|updated|moved)\s+to\s+['"`]([^'"`]{1,40})['"`]/i,
    /(?<![\w.])status\s+(?:will\s+be\s+|is\s+|gets\s+)?(?:changed|set|updated|moved)\s+to\s+([a-z_-]+)/i,
    /(?<![\w.])status\s+becomes\s+['"`]?([a-z_ -]{1,40}?)['"`]?(?:[.,;)]|\s+and\b|$)/i,
    // "(status open becomes resolved)": the value it leaves, then the one it takes
    /(?<![\w.])status\s+['"`]?[a-z_-]{1,40}['"`]?\s+becomes\s+['"`]?([a-z_-]{1,40})['"`]?(?:[.,;)\s]|$)/i,
    // "status confirmed → checked_in", as state diagrams and changelogs write a transition
    /(?<![\w.])status\s*:?\s+['"`]?[a-z_-]{1,40}['"`]?\s*(?:→|->|=>)\s*['"`]?([a-z_-]{1,40})['"`]?/i,
    /marks?\s+(?:it|them|the\s+[a-z_ ]+?)\s+as\s+['"`]([^'"`]{1,40})['"`]/i,
    /\bstarts?\s+(?:out\s+)?(?:in\s+|as\s+)?(?:status\s+|state\s+)?['"`]([^'"`]{1,40})['"`]/i,
    /\b(?:is|are)\s+created\s+(?:in\s+|with\s+)?(?:status\s+|state\s+)['"`]?([a-z_ -]{1,40}?)['"`]?(?:[.,;]|$)/i,
    /\bnew\s+[a-z_ ]{1,30}?\s+(?:is|are|starts)\s+['"`]([^'"`]{1,40})['"`]/i,
    // "sets amount_paid and status `paid`": a status set beside other fields
    /\bsets?\s+(?:[a-z_]+(?:,\s*[a-z_]+)*\s+and\s+)?(?:its\s+|the\s+)?status\s+(?:to\s+)?['"`]([^'"`]{1,40})['"`]/i,
    // "moves the issue back to "open"": where the record returns
    /\bback\s+(?:in)?to\s+['"`]([^'"`]{1,40})['"`]/i,
  ];
  for (const pattern of patterns) {
    const value = pattern.exec(text)?.[1]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** The values the API's enums offer for a name: its tools' outputs and arguments of that name. */
export function enumsOf(ctx: Context, name: string): unknown[] {
  return [ctx.facts, ...ctx.siblings()].flatMap((facts) => {
    const output = (
      facts.tool.outputSchema?.properties as Record<string, { enum?: unknown[] }> | undefined
    )?.[name];
    const param = facts.params.find((p) => p.name === name);
    const listed = (values: unknown) => (Array.isArray(values) ? values : []);
    return [...listed(output?.enum), ...listed(param?.schema.enum)];
  });
}

/** One tool's parts in a state: its switch and its guards both ask, and each field's enums take a walk over every tool. */
const switchablesOf = new WeakMap<Context, Switchable[]>();

export function switchables(ctx: Context): Switchable[] {
  let found = switchablesOf.get(ctx);
  if (!found) {
    found = partsInAState(ctx);
    switchablesOf.set(ctx, found);
  }
  return found;
}

function partsInAState(ctx: Context): Switchable[] {
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

export function nounsOf(name: string): string[] {
  return nameWords(name).map(singular);
}

/**
 * Documented errors that speak of a state of the record's parts refuse the call in it: "a door
 * is unlocked" refuses while any door is, "the engine is not running" while it is not.
 */
export function preconditions(ctx: Context, record: RecordShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  // guards read the record the call changes
  const parts = switchables(ctx).filter((part) => part.record === record);
  for (const error of ctx.facts.errors) {
    if (ctx.usedErrors.has(error.code)) continue;
    const said = `${error.text} ${nameWords(error.code).join(" ")}`.toLowerCase();
    if (speaksOfArgument(ctx, error.text)) continue;
    // "a sync is running": a state word only one part can be in needs no noun of that part
    const owners = (state: string) =>
      parts.filter((p) => p.known.some((k) => k.toLowerCase() === state)).length;
    for (const part of parts) {
      const name = part.kind === "map" ? part.field : part.field.path;
      const alone = part.known.find(
        (s) =>
          s.length > 3 &&
          owners(s.toLowerCase()) === 1 &&
          new RegExp(
            `\\b(?:is|are)\\s+(?:not\\s+)?(?:still\\s+|currently\\s+|already\\s+)?${escapeRegExp(s.toLowerCase())}\\b`,
          ).test(said),
      );
      if (!alone && !nounsOf(name).some((n) => new RegExp(`\\b${n}s?\\b`).test(said))) continue;
      const state = part.known.find(
        (s) => s.length > 1 && new RegExp(`\\b${escapeRegExp(s.toLowerCase())}\\b`).test(said),
      );
      if (!state) continue;
      const negated = new RegExp(
        // "is not running", "no run is active"
        `\\b(?:(?:not|isn't|aren't)\\s+(?:\\w+\\s+)?|no\\s+\\w+\\s+(?:is|are)\\s+(?:currently\\s+)?)${escapeRegExp(state.toLowerCase())}\\b`,
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
  return [...guards, ...flagPreconditions(ctx, record), ...thresholds(ctx, record)];
}

/**
 * "if battery_pct is below 25", "if free_space_mb is less than 100": a number of the record
 * an error names by its own name, against a number, refuses the call past it, as a robot
 * lawn mower refuses a run on a low battery and a drone a take-off.
 */
function thresholds(ctx: Context, record: RecordShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (ctx.usedErrors.has(error.code) || error.kind === "not-found") continue;
    // "GRIND_OUT_OF_RANGE when grind_size is below 1" of `set_grind(grind_size)`: the value given, not the one held
    if (speaksOfArgument(ctx, error.text)) continue;
    for (const field of record.fields.values()) {
      if (field.path.includes(".") || !field.types.has("number") || field.types.size !== 1) continue;
      const said = new RegExp(
        `\\b${escapeRegExp(field.path.toLowerCase())}\\s+(?:is\\s+)?(below|less than|under|lower than|above|greater than|more than|over|exceeds)\\s+(-?\\d+(?:\\.\\d+)?)\\b`,
      ).exec(error.text);
      if (!said?.[1] || !said[2]) continue;
      const low = /below|less|under|lower/.test(said[1]);
      const at = `$subject.${identifier(field.path)}`;
      guards.push({ expr: `${at} ${low ? ">=" : "<="} ${said[2]}`, error: error.code });
      ctx.usedErrors.add(error.code);
      ctx.notes.push(`refuses while ${field.path} is ${low ? "below" : "above"} ${said[2]} (${error.code})`);
      break;
    }
  }
  return guards;
}

/**
 * "Fails while do-not-disturb is on", "if maintenance mode is enabled": a flag of the record the
 * error names by its words refuses the call while it holds (or, "is off", while it does not), as
 * Nest refuses a setpoint in eco mode and Home Assistant a command to a locked-out device.
 */
function flagPreconditions(ctx: Context, record: RecordShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  for (const field of record.fields.values()) {
    if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) continue;
    const valued = flagValueError(ctx, nameWords(field.path).map(escapeRegExp).join("[ _]"));
    if (!valued) continue;
    const unless = valued.when ? `$not(${valued.when}) or ` : "";
    guards.push({
      expr: `${unless}$subject.${identifier(field.path)} != ${valued.value}`,
      error: valued.error,
    });
    ctx.notes.push(
      `refuses while ${field.path} is ${valued.value}${valued.when ? ` where ${valued.when}` : ""} (${valued.error})`,
    );
  }
  for (const error of ctx.facts.errors) {
    if (ctx.usedErrors.has(error.code) || error.kind === "not-found") continue;
    for (const field of record.fields.values()) {
      if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) continue;
      // "the child lock is engaged" of `locked`: the flag's last word as its stem says it too
      const words = nameWords(field.path)
        .filter((w) => w !== "is" && w !== "enabled")
        .map((w, i, all) => (i === all.length - 1 ? stemmed(w) : escapeRegExp(w)))
        .join("[ _]");
      const said = new RegExp(
        `\\b${words}\\s+(?:is|are)\\s+(not\\s+)?(?:still\\s+)?(on|off|enabled|disabled|set|active|engaged)\\b`,
      ).exec(error.text);
      const word = said?.[2];
      if (!said || !word) continue;
      // "is not off" is on
      const held = /^(on|enabled|set|active|engaged)$/.test(word) !== (said[1] !== undefined);
      const at = `$subject.${identifier(field.path)}`;
      guards.push({ expr: held ? `${at} != true` : `${at} = true`, error: error.code });
      ctx.usedErrors.add(error.code);
      ctx.notes.push(`refuses while ${field.path} is ${held ? "true" : "false"} (${error.code})`);
      break;
    }
  }
  return guards;
}

/**
 * "ARTWORK_ON_LOAN — the artwork's `on_loan` is `true`", "ALREADY_LIVE if live is already
 * true": an error told by the value of a flag of the record refuses a record holding it. A
 * condition that also speaks of an argument ("if enable is true while …") is the argument's.
 */
export function flagValueError(
  ctx: Context,
  flag: string,
): { error: string; value: boolean; when?: string } | undefined {
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found") continue;
    const text = error.text.replace(/[`*]/g, "");
    const said = new RegExp(
      String.raw`(?:^|[^\w.])${flag}\s+(?:is|are)\s+(?:already\s+|still\s+|currently\s+)?(true|false)\b`,
    ).exec(text);
    if (!said?.[1] || speaksOfArgument(ctx, text.replace(said[0], " "))) continue;
    // "boost can only be selected while child_lock is false": a requirement, for
    // the values of an argument it names
    const before = text.slice(0, said.index);
    const only = /\bonly\b/.test(before);
    const when = namedChoices(ctx, before);
    return {
      error: use(ctx, error),
      value: (said[1] === "true") !== only,
      ...(when ? { when } : {}),
    };
  }
  return undefined;
}

/** "boost can only be selected": the values of an enum argument a condition names, as a test of the call. */
function namedChoices(ctx: Context, text: string): string | undefined {
  for (const param of ctx.facts.params) {
    const choices = Array.isArray(param.schema.enum) ? param.schema.enum.map(String) : [];
    const named = choices.filter((c) => new RegExp(`(?:^|[^\\w])${escapeRegExp(c)}(?:[^\\w]|$)`).test(text));
    if (named.length > 0 && named.length < choices.length)
      return `$args.${identifier(param.name)} in ${JSON.stringify(named)}`;
  }
  return undefined;
}

/**
 * "if visibility is not "public" or "private"", "when volume is outside 0-100": a condition on what an
 * argument holds, checked against the call, never a state of the record.
 */
export function speaksOfArgument(ctx: Context, text: string): boolean {
  return argumentSpokenOf(ctx, text) !== undefined;
}

/** The argument a condition is about: the one named before its verb or its comparison (`decimals < 0`). */
export function argumentSpokenOf(ctx: Context, text: string): Param | undefined {
  const spoken = text.toLowerCase().replace(/`/g, "");
  return ctx.facts.params.find((p) =>
    new RegExp(
      `(^|[^a-z_])${escapeRegExp(p.name.toLowerCase())}\\s*(?:(?:is|are|was|must|has|contains|exceeds)\\b|[<>])`,
    ).test(spoken),
  );
}

/**
 * "STATUS_UNCHANGED - the requested status equals the current one": the documented error for
 * a change to the value a field already holds, as APIs refuse a no-op transition (GitHub's 422
 * for a state already set, Jira's transition to the current status, Stripe's update to the
 * plan a subscription is on).
 */
export function unchangedRefused(
  ctx: Context,
  set: Readonly<Record<string, unknown>>,
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const [field, value] of Object.entries(set)) {
    const param = typeof value === "string" ? /^\{([^{}$]+)\}$/.exec(value)?.[1] : undefined;
    if (!param) continue;
    const words = [field, param].map((w) => nameWords(w).map(escapeRegExp).join("[ _]")).join("|");
    const error = ctx.facts.errors.find((e) => {
      const text = e.text.replace(/[`*]/g, "");
      return (
        new RegExp(
          String.raw`\b(?:${words})\b[^.;]*?\b(?:equals|is the same as|matches|is already)\s+(?:the\s+)?(?:current|existing|present)\b`,
        ).test(text) ||
        // "if the device is already in that mode", "already set to the requested level"
        new RegExp(
          String.raw`\balready\s+(?:in|at|on|set to|has|uses|using)\s+(?:that|the same|this|the requested|the given)\s+(?:${words})\b`,
        ).test(text)
      );
    });
    if (!error) continue;
    out.push({ expr: `$subject.${identifier(field)} != $args.${identifier(param)}`, error: use(ctx, error) });
    ctx.notes.push(`refuses setting ${field} to the value it holds (${error.code})`);
  }
  return out;
}

/**
 * "NO_TECHNICIAN (fixing or finishing a job with no technician)": a documented error that names
 * values an argument sets a field to and a field the record must then hold refuses those values
 * while that field is empty, as Zendesk refuses solving a ticket without an assignee, Jira a
 * transition whose screen requires a resolution, and GitHub a merge without the required review.
 */
export function valuesNeedingField(
  ctx: Context,
  fields: ReadonlyMap<string, FieldShape>,
  set: Readonly<Record<string, unknown>>,
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const value of Object.values(set)) {
    const name = typeof value === "string" ? /^\{([^{}$]+)\}$/.exec(value)?.[1] : undefined;
    const param = ctx.facts.params.find((p) => p.name === name);
    const choices = Array.isArray(param?.schema.enum) ? param.schema.enum.map(String) : [];
    if (!param || choices.length === 0) continue;
    for (const error of ctx.facts.errors) {
      if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
      const text = error.text.replace(/[`*]/g, "");
      const lacking =
        /\b(?:with no|without|lacking|missing|that has no|has no)\s+(?:an?\s+|its\s+)?([a-z_]+)/.exec(
          text,
        )?.[1];
      const field = lacking && [...fields.keys()].find((f) => f === lacking || f === `${lacking}_id`);
      if (!field || field === param.name) continue;
      // a value is named as itself or as the verb that reaches it ("solving" for solved)
      const named = choices.filter((c) =>
        new RegExp(`\\b(?:${escapeRegExp(c)}|${escapeRegExp(c.replace(/e?d$/, ""))}e?ing)\\b`).test(text),
      );
      if (named.length === 0 || named.length === choices.length) continue;
      const held = `$subject.${identifier(field)}`;
      out.push({
        expr: `$not($args.${identifier(param.name)} in ${JSON.stringify(named)}) or (${held} != null and ${held} != "")`,
        error: use(ctx, error),
      });
      ctx.notes.push(`refuses ${param.name} ${named.join(" or ")} while ${field} is empty (${error.code})`);
    }
  }
  return out;
}

/** `locked` → `lock(?:ed)?`, `paused` → `paus(?:e|ed)`: a participle and the noun it is made from. */
function stemmed(word: string): string {
  const stem = /^([a-z]{3,}?)(e?d)$/.exec(word);
  return stem?.[1] ? `${escapeRegExp(stem[1])}(?:e|ed|d)?` : escapeRegExp(word);
}
