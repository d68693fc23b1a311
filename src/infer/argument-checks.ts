import escapeRegExp from "escape-string-regexp";
import { speaksOfArgument } from "./conditions.js";
import { addError, type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, Param } from "./facts.js";
import { identifier } from "./reads.js";

/**
 * Documented errors whose condition is about what an argument holds: "INVALID_VOLUME if volume
 * is not between 0 and 100", "OUT_OF_RANGE if brightness is outside that range" (the range given
 * elsewhere in the description), "TOO_FEW if seats is less than 1", "EMPTY_TITLE if
 * title is empty", "INVALID_EMAIL if email contains no "@"". Each becomes a check of the call
 * before anything is read or changed, as a 400 with the API's own code: Stripe's
 * `amount_too_small`, GitHub's 422 `missing_field`, Slack's `invalid_name_maxlength`. An
 * argument left out is not checked (its absence is the schema's business).
 */
export function statedArgumentChecks(ctx: Context): Draft[] {
  const require: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    if (!speaksOfArgument(ctx, error.text)) continue;
    const param = spokenOf(ctx, error);
    const test = param ? testOf(ctx, error, param) : undefined;
    if (!param || !test) continue;
    const arg = `$args.${identifier(param.name)}`;
    require.push({ expr: `$not($exists(${arg})) or (${test(arg)})`, error: use(ctx, error) });
    ctx.notes.push(`checks ${param.name} as ${error.code} says`);
  }
  require.push(...bracketedRanges(ctx));
  return require.length > 0 ? [{ kind: "check", require }] : [];
}

/**
 * "Set target_temp_c (10-35) and/or target_humidity_pct (30-90) … if any given value is out of
 * range the call fails": a range in brackets after an argument's name, where the description
 * says a value out of it fails, bounds it (the documented error that speaks of a range, else an
 * added `<ARGUMENT>_OUT_OF_RANGE`, 400), as Nest's setpoint limits and Hue's brightness 1-254 do.
 */
function bracketedRanges(ctx: Context): Array<Record<string, unknown>> {
  const text = ctx.facts.tool.description;
  if (!/\bout of (?:its |the )?range\b|\boutside (?:its |the |that )?range\b/i.test(text)) return [];
  const out: Array<Record<string, unknown>> = [];
  for (const param of ctx.facts.params) {
    if (param.type !== "integer" && param.type !== "number") continue;
    const range = new RegExp(
      `\\b${escapeRegExp(param.name)}\`?\\s*\\(\\s*${NUMBER}\\s*(?:-|–|to)\\s*${NUMBER}\\s*\\)`,
    ).exec(text);
    if (!range?.[1] || !range[2]) continue;
    const documented = ctx.facts.errors.find(
      (e) => e.kind !== "not-found" && !ctx.usedErrors.has(e.code) && /\brange\b/.test(e.text),
    );
    const error = documented
      ? use(ctx, documented)
      : addError(ctx, {
          code: `${param.name.toUpperCase()}_OUT_OF_RANGE`,
          status: 400,
          message: `${param.name} must be between ${range[1]} and ${range[2]}.`,
          when: `The ${param.name} given is outside ${range[1]}-${range[2]} (inferred from the tool's description).`,
        });
    const arg = `$args.${identifier(param.name)}`;
    out.push({ expr: `$not($exists(${arg})) or (${arg} >= ${range[1]} and ${arg} <= ${range[2]})`, error });
    ctx.notes.push(`checks ${param.name} is within ${range[1]}-${range[2]} (${error})`);
  }
  return out;
}

/** The argument the condition is about: the one named before its verb. */
function spokenOf(ctx: Context, error: ErrorFact): Param | undefined {
  const text = error.text.toLowerCase().replace(/`/g, "");
  return ctx.facts.params.find((p) =>
    new RegExp(`(^|[^a-z_])${p.name.toLowerCase()}\\s+(is|are|was|must|has|contains|exceeds)\\b`).test(text),
  );
}

type Test = (arg: string) => string;

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;

function testOf(ctx: Context, error: ErrorFact, param: Param): Test | undefined {
  const text = error.text.toLowerCase();
  const numeric = param.type === "integer" || param.type === "number";
  if (numeric) {
    const range =
      rangeIn(text) ??
      (/\b(outside|out of)\b/.test(text) ? rangeIn(`${ctx.facts.text} ${param.description}`) : undefined);
    const negated = /\b(not|outside|out of)\b/.test(text);
    if (range && negated) return (arg) => `${arg} >= ${range[0]} and ${arg} <= ${range[1]}`;
    // "price is zero or negative", "amount is not positive", "quantity is negative"
    if (
      /\b(?:zero or negative|negative or zero|not (?:an? )?positive|not greater than (?:0|zero))\b/.test(text)
    )
      return (arg) => `${arg} > 0`;
    if (/\bis negative\b/.test(text)) return (arg) => `${arg} >= 0`;
    // "delta is 0": a move by nothing is refused
    if (/\bis (?:0|zero)\s*(?:[.,;)]|$)/.test(text)) return (arg) => `${arg} != 0`;
    const below = new RegExp(`\\b(?:less than|below|under|smaller than)\\s+${NUMBER}`).exec(text);
    if (below?.[1]) return (arg) => `${arg} >= ${below[1]}`;
    const above = new RegExp(`\\b(?:greater than|more than|above|over|exceeds)\\s+${NUMBER}`).exec(text);
    if (above?.[1]) return (arg) => `${arg} <= ${above[1]}`;
    return undefined;
  }
  if (param.type !== "string") return undefined;
  // "if region is not one of the listed regions", "if visibility is not "public" or "private""
  const allowed = Array.isArray(param.schema.enum) ? param.schema.enum : undefined;
  if (allowed && /\bnot\s+(one of|"|valid|a valid|allowed|supported|listed)/.test(text))
    return (arg) => `${arg} in ${JSON.stringify(allowed)}`;
  if (/\bis empty\b|\bis blank\b/.test(text)) return (arg) => `$length($trim(${arg})) > 0`;
  const lacks = /\bcontains no\s+"([^"]+)"|\bdoes not contain\s+(?:an?\s+)?"([^"]+)"/.exec(text);
  const needed = lacks?.[1] ?? lacks?.[2];
  if (needed) return (arg) => `$contains(${arg}, ${JSON.stringify(needed)})`;
  const has = /\bcontains (?:an?\s+)?"?(space|[^\s"]+)"?(?:\s|$|[.,;])/.exec(text);
  if (has?.[1] === "space") return (arg) => `$not($contains(${arg}, " "))`;
  return undefined;
}

/** "between 1 and 10", "from 88 to 96", "1 (finest) to 10", "88-96". */
function rangeIn(text: string): [string, string] | undefined {
  const lower = text.toLowerCase();
  const match =
    new RegExp(`\\bbetween\\s+${NUMBER}\\s+and\\s+${NUMBER}`).exec(lower) ??
    new RegExp(`\\b(?:from\\s+)?${NUMBER}(?:\\s*\\([^)]*\\))?\\s+to\\s+${NUMBER}`).exec(lower) ??
    new RegExp(`\\b${NUMBER}\\s*[-–]\\s*${NUMBER}\\b`).exec(lower);
  return match?.[1] && match[2] ? [match[1], match[2]] : undefined;
}
