import escapeRegExp from "escape-string-regexp";
import { type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import type { FieldShape, RecordShape } from "./shape.js";
import { nameWords } from "./words.js";

/**
 * "Moves fan.speed one step: direction "up" adds 1, "down" subtracts 1": a level moved by a
 * word that says which way, within the bounds the docs give ("LIMIT_REACHED if stepping up from
 * 3 or down from 1"), as a thermostat's `raise`/`lower`, a speaker's volume up and down, and Home
 * Assistant's `fan.increase_speed`/`decrease_speed` do.
 */

const UP = /^(up|increase|raise|higher|more|plus|\+)$/;
const DOWN = /^(down|decrease|lower|less|minus|-)$/;

export function directedStepRule(ctx: Context): Draft[] | undefined {
  const direction = directionParam(ctx);
  if (!direction) return undefined;
  const [up, down] = direction.words;
  const found = steppedField(ctx);
  if (!found) return undefined;
  const { record, field } = found;
  const arg = `$args.${identifier(direction.param.name)}`;
  const current = `$subject.${identifier(field.path)}`;
  const moved = `${arg} = ${JSON.stringify(up)} ? ${current} + 1 : ${current} - 1`;
  const text = ctx.facts.tool.description;
  // "stepping up from 3 or down from 1", or the range written beside the field (`fan.speed (1..4)`)
  const range = new RegExp(
    `(?:${escapeRegExp(field.path)}|\\bleave)\\s*\\(?\\s*(-?\\d+)\\s*(?:\\.\\.|–|to)\\s*(-?\\d+)`,
    "i",
  ).exec(text);
  const top = /\bup\s+from\s+(-?\d+)/i.exec(text)?.[1] ?? range?.[2];
  const bottom = /\bdown\s+from\s+(-?\d+)/i.exec(text)?.[1] ?? range?.[1];
  const limit = ctx.facts.errors.find(
    (e) =>
      e.kind !== "not-found" &&
      /\b(limit|range|bound|max|min|from)\b/.test(`${e.text} ${e.code.toLowerCase()}`),
  );
  const within =
    limit && top !== undefined && bottom !== undefined
      ? [
          {
            expr: `($n := ${moved}; $n >= ${bottom} and $n <= ${top})`,
            error: use(ctx, limit),
          },
        ]
      : [];
  ctx.notes.push(
    `moves ${field.path} of ${record.path.join("/") || "the record"} one step, ${up} or ${down} as ${direction.param.name} says${within.length > 0 ? ` within ${bottom}..${top}` : ""}`,
  );
  const target = record.path.join("/") || ".";
  return [
    { kind: "read", target, as: "before" },
    { kind: "update", target, require: within, set: { [field.path]: { $expr: moved } }, as: "after" },
    ...ctx.facts.outputs.flatMap((output): Draft[] => {
      if (output.type !== "integer" && output.type !== "number") return [];
      if (output.words.some((w) => /^(previous|old|before|from)$/.test(w)))
        return [
          { kind: "respond", output: output.name, value: { $expr: `$before.${identifier(field.path)}` } },
        ];
      if (output.name === field.path || output.words.some((w) => /^(new|now|after|current)$/.test(w)))
        return [
          { kind: "respond", output: output.name, value: { $expr: `$after.${identifier(field.path)}` } },
        ];
      return [];
    }),
  ];
}

/** The one text argument whose choices are a way up and a way down (`"up" | "down"`). */
function directionParam(ctx: Context): { param: Param; words: [string, string] } | undefined {
  const texts = ctx.facts.params.filter((p) => p.type === "string");
  if (texts.length !== 1) return undefined;
  const param = texts[0] as Param;
  const choices = Array.isArray(param.schema.enum)
    ? (param.schema.enum as unknown[]).map(String)
    : [
        ...`${param.description} ${ctx.facts.tool.description}`.matchAll(
          /["'`]([a-z+-]{1,10})["'`]|(?:^|[\s(])([a-z]+)\s*\|/g,
        ),
      ].map((m) => m[1] ?? m[2] ?? "");
  const up = choices.find((c) => UP.test(c));
  const down = choices.find((c) => DOWN.test(c));
  return up && down ? { param, words: [up, down] } : undefined;
}

/** The number of one record the description names (`fan.speed`, or `speed` alone where one record has it). */
function steppedField(ctx: Context): { record: RecordShape; field: FieldShape } | undefined {
  const text = ctx.facts.tool.description;
  const found: Array<{ record: RecordShape; field: FieldShape }> = [];
  for (const record of ctx.shape.parts.filter((p): p is RecordShape => p.kind === "record")) {
    for (const field of record.fields.values()) {
      if (field.path.includes(".") || !field.types.has("number")) continue;
      const named = [...record.path, field.path].map(escapeRegExp).join("\\.");
      const bare = nameWords(field.path).join("[ _]");
      if (new RegExp(`(?:^|[^a-z0-9_.])(?:${named}|${bare})(?![a-z0-9_])`, "i").test(text))
        found.push({ record, field });
    }
  }
  return found.length === 1 ? found[0] : undefined;
}
