import { addError, type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import type { RecordShape } from "./shape.js";
import { nameWords } from "./words.js";

/**
 * "Flips one switch: switch is "nav_lights", "bilge_pump" or "anchor_light"": a toggle whose
 * argument names which of a record's switches it flips, as Home Assistant's `toggle` on an
 * entity's attribute, a feature-flag service's `toggle(flag)` and a device's settings endpoint
 * that takes the setting's name do. An unknown name answers the documented error.
 */
export function namedToggleRule(ctx: Context): Draft[] | undefined {
  if (!/^(toggle|flip)$/.test(ctx.facts.verb ?? ctx.facts.words[0] ?? "")) return undefined;
  const texts = ctx.facts.params.filter((p) => p.type === "string");
  if (texts.length !== 1) return undefined;
  const param = texts[0] as Param;
  for (const record of ctx.shape.parts.filter((p): p is RecordShape => p.kind === "record")) {
    const switches = namedSwitches(ctx, record, param);
    if (switches.length >= 2) return toggled(ctx, record, param, switches);
  }
  return undefined;
}

/** The record's boolean fields the argument's choices or the docs name as quoted words. */
function namedSwitches(ctx: Context, record: RecordShape, param: Param): string[] {
  const flags = [...record.fields.values()]
    .filter((f) => !f.path.includes(".") && f.types.size === 1 && f.types.has("boolean"))
    .map((f) => f.path);
  const choices = Array.isArray(param.schema.enum) ? (param.schema.enum as unknown[]).map(String) : [];
  if (choices.length > 0) return choices.every((c) => flags.includes(c)) ? choices : [];
  const told = `${param.description} ${ctx.facts.tool.description}`;
  return flags.filter((flag) =>
    new RegExp(`["'\`]${flag}["'\`]|(?:^|[\\s|,(])${flag}(?=\\s*[|,)])`).test(told),
  );
}

function toggled(ctx: Context, record: RecordShape, param: Param, switches: readonly string[]): Draft[] {
  const target = record.path.join("/") || ".";
  const arg = `$args.${identifier(param.name)}`;
  const unknown = ctx.facts.errors.find(
    (e) =>
      e.kind !== "not-found" &&
      (/\b(?:not one of|unknown|no such|invalid|not a)\b/.test(e.text) || /UNKNOWN|INVALID/.test(e.code)) &&
      new RegExp(`\\b${nameWords(param.name).join("[ _]")}\\b`).test(e.text),
  );
  const error = unknown
    ? use(ctx, unknown)
    : addError(ctx, {
        code: `UNKNOWN_${nameWords(param.name).join("_").toUpperCase()}`,
        status: 400,
        message: `{${param.name}} is not one of ${switches.join(", ")}.`,
        when: `The ${param.name} names none of the switches ${switches.join(", ")} (inferred from the docs).`,
      });
  ctx.notes.push(`flips the one of ${switches.join(", ")} that ${param.name} names`);
  const set = Object.fromEntries(
    switches.map((flag) => [
      flag,
      {
        $expr: `${arg} = ${JSON.stringify(flag)} ? $not($subject.${identifier(flag)}) : $subject.${identifier(flag)}`,
      },
    ]),
  );
  const answers: Draft[] = ctx.facts.outputs.flatMap((output): Draft[] => {
    if (output.name === param.name) return [{ kind: "respond", output: output.name, value: { $expr: arg } }];
    if (output.type === "boolean")
      return [{ kind: "respond", output: output.name, value: { $expr: `$lookup($after, ${arg})` } }];
    return [];
  });
  return [
    { kind: "check", require: [{ expr: `${arg} in ${JSON.stringify(switches)}`, error }] },
    { kind: "update", target, set, as: "after" },
    ...answers,
  ];
}
