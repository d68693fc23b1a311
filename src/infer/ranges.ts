import { type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import { nameWords } from "./words.js";

/**
 * Arguments that bound a range (`start` and `end`, `check_in` and `check_out`, `min_price`
 * and `max_price`) must come in order where a documented error says so: the end after the
 * start. This is the `end must be after start` of Google Calendar's and Microsoft Graph's
 * events, the check-out after check-in of booking APIs, and `min <= max` of search filters.
 */

const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["start", "end"],
  ["begin", "end"],
  ["from", "to"],
  ["since", "until"],
  ["in", "out"],
  ["departure", "return"],
  ["min", "max"],
  ["minimum", "maximum"],
  ["low", "high"],
  ["first", "last"],
];

/** An error that speaks of order: after, before, earlier, later, greater, less, exceeds. */
const ORDER_WORDS = /\b(after|before|earlier|later|greater|less|exceeds?|precede|follows?)\b/;

export function orderChecks(ctx: Context): Draft[] {
  const error = ctx.facts.errors.find((e) => e.kind !== "not-found" && ORDER_WORDS.test(e.text));
  if (!error) return [];
  for (const [low, high] of PAIRS) {
    const from = boundParam(ctx.facts.params, low);
    const to = boundParam(ctx.facts.params, high);
    if (!from || !to || from === to) continue;
    const text = error.text;
    // the bound's word (`end must be after start`) or the argument's own name (`range_end`)
    const bounds: ReadonlyArray<readonly [string, Param]> = [
      [low, from],
      [high, to],
    ];
    const spoken = bounds.every(
      ([w, p]) => new RegExp(`\\b${w}`).test(text) || text.includes(p.name.toLowerCase()),
    );
    if (!spoken) continue;
    const a = comparable(from);
    const b = comparable(to);
    const strict = !/^(min|minimum|low|first)$/.test(low);
    ctx.notes.push(`requires ${to.name} ${strict ? "after" : "at least"} ${from.name} (${use(ctx, error)})`);
    return [
      {
        kind: "check",
        require: [
          {
            expr: `$not($exists($args.${identifier(from.name)}) and $exists($args.${identifier(to.name)})) or ${b} ${strict ? ">" : ">="} ${a}`,
            error: error.code,
          },
        ],
      },
    ];
  }
  return [];
}

/** The argument named by the bound word alone or with one more word (`start`, `start_time`, `check_in`). */
function boundParam(params: readonly Param[], word: string): Param | undefined {
  const found = params.filter((p) => {
    const words = nameWords(p.name);
    return words.includes(word) && words.length <= 2 && p.type !== "boolean" && p.type !== "array";
  });
  return found.length === 1 ? found[0] : undefined;
}

/** Times compare as instants; numbers as numbers. */
function comparable(param: Param): string {
  const arg = `$args.${identifier(param.name)}`;
  const format = typeof param.schema.format === "string" ? param.schema.format : "";
  const timeLike =
    /date|time/.test(format) || /date|time|at$|^(start|end|from|to|since|until)$/.test(param.name);
  return param.type === "string" && timeLike ? `$toMillis(${arg})` : arg;
}
