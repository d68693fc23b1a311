import escapeRegExp from "escape-string-regexp";
import type { Context } from "./context.js";
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

/** The string values a field takes: in the state, and in the enums of the API's arguments and outputs of its name. */
export function knownValues(ctx: Context, name: string, seen: Iterable<unknown>): string[] {
  return [...new Set([...seen, ...enumsOf(ctx, name)].filter((v): v is string => typeof v === "string"))];
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
            `\\b(?:is|are)\\s+(?:still\\s+|currently\\s+|already\\s+)?${escapeRegExp(s.toLowerCase())}\\b`,
          ).test(said),
      );
      if (!alone && !nounsOf(name).some((n) => new RegExp(`\\b${n}s?\\b`).test(said))) continue;
      const state = part.known.find(
        (s) => s.length > 1 && new RegExp(`\\b${escapeRegExp(s.toLowerCase())}\\b`).test(said),
      );
      if (!state) continue;
      const negated = new RegExp(
        `\\b(not|isn't|aren't)\\s+(\\w+\\s+)?${escapeRegExp(state.toLowerCase())}\\b`,
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
  return [...guards, ...flagPreconditions(ctx, record)];
}

/**
 * "Fails while do-not-disturb is on", "if maintenance mode is enabled": a flag of the record the
 * error names by its words refuses the call while it holds (or, "is off", while it does not), as
 * Nest refuses a setpoint in eco mode and Home Assistant a command to a locked-out device.
 */
function flagPreconditions(ctx: Context, record: RecordShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (ctx.usedErrors.has(error.code) || error.kind === "not-found") continue;
    for (const field of record.fields.values()) {
      if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) continue;
      const words = nameWords(field.path)
        .filter((w) => w !== "is" && w !== "enabled")
        .map(escapeRegExp)
        .join("[ _]");
      const said = new RegExp(
        `\\b${words}\\s+(?:is|are)\\s+(?:still\\s+)?(on|off|enabled|disabled|set|active|engaged)\\b`,
      ).exec(error.text)?.[1];
      if (!said) continue;
      const held = /^(on|enabled|set|active|engaged)$/.test(said);
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
 * "if visibility is not "public" or "private"", "when volume is outside 0-100": a condition on what an
 * argument holds, checked against the call, never a state of the record.
 */
export function speaksOfArgument(ctx: Context, text: string): boolean {
  return ctx.facts.params.some((p) =>
    new RegExp(
      `(^|[^a-z_])${escapeRegExp(p.name.toLowerCase())}\\s+(is|are|was|must|has|contains|exceeds)\\b`,
    ).test(text.toLowerCase().replace(/`/g, "")),
  );
}
