import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import { identifier } from "./reads.js";
import { fitsStateType, type Part, type StateShape } from "./shape.js";
import { singular } from "./words.js";

/**
 * Answers about what the top of the state keeps: its lists' lengths and its own values. They
 * run after a tool's rules, for the outputs those left unanswered.
 */

/** The outputs the drafts already answer. */
export function answeredBy(drafts: readonly Draft[]): Set<string> {
  return new Set(
    drafts.flatMap((d) => (typeof d.output === "string" ? [d.output.split(".")[0] as string] : [])),
  );
}

/** Field names the parts of the state keep, the top's own or not; once per world, as every tool asks. */
interface KeptNames {
  everywhere: Set<string>;
  belowTheTop: Set<string>;
}

const keptNamesOf = new WeakMap<StateShape, KeptNames>();

function keptNames(shape: StateShape): KeptNames {
  let kept = keptNamesOf.get(shape);
  if (!kept) {
    const below = shape.parts.filter((part) => part !== shape.root);
    const names = (parts: readonly Part[]) =>
      new Set(parts.flatMap((part) => ("fields" in part ? [...part.fields.keys()] : [])));
    kept = { everywhere: names(shape.parts), belowTheTop: names(below) };
    keptNamesOf.set(shape, kept);
  }
  return kept;
}

/**
 * `waitlist_size`, `line_length`, `number_of_holds`: a count named for a list at the top of
 * the state, which nothing else answers and no record keeps, is that list's length after the
 * call, as Redis answers `LLEN`, Amazon SQS a queue's `ApproximateNumberOfMessages` and a
 * playlist API its track count.
 */
export function topListLengths(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const answered = answeredBy(drafts);
  const lists = Object.entries(ctx.states[0] ?? {}).filter(([, value]) => Array.isArray(value));
  // a count the records keep themselves (a post's own `likes_count`) is theirs to answer
  const kept = keptNames(ctx.shape).everywhere;
  const out: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    if (answered.has(output.name) || kept.has(output.name)) continue;
    if (output.type !== "integer" && output.type !== "number") continue;
    const stem = /^(?:number_of_|num_)(.+)$|^(.+)_(?:length|size|count|len)$/.exec(output.name);
    const named = stem?.[1] ?? stem?.[2];
    if (!named) continue;
    const list = lists.find(([key]) => key === named || singular(key) === singular(named));
    if (!list) continue;
    out.push({
      kind: "respond",
      output: output.name,
      value: { $expr: `$count($entity(${JSON.stringify(list[0])}))` },
    });
    ctx.notes.push(`answers ${output.name} as the length of ${list[0]}`);
  }
  return out;
}

/**
 * `{now_playing, volume, battery_pct}` of a status call on a world whose top keeps those values:
 * an output named exactly like a value the top of the state keeps, that nothing else answers
 * and no record below keeps under that name, is that value after the call, as Spotify's
 * player state answers `is_playing` and `shuffle_state`, a smart plug's status its `relay_state`
 * and GitHub's rate limit its `remaining`.
 */
export function topValues(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const root = ctx.shape.root;
  if (root.path.length > 1 || root.fields.size === 0) return [];
  const answered = answeredBy(drafts);
  const kept = keptNames(ctx.shape).belowTheTop;
  const params = new Set(ctx.facts.params.map((p) => p.name));
  const out: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    if (answered.has(output.name) || kept.has(output.name) || params.has(output.name)) continue;
    const field = root.fields.get(output.name);
    // an object or a collection of records at the top is a part of its own, for the rules that
    // read parts; a list of plain values (a device's presets by name) is a value like any other
    if (!field || field.types.has("object") || (field.itemFields?.size ?? 0) > 0) continue;
    if (ctx.shape.collections.has(output.name)) continue;
    const types = [...field.types].filter((t) => t !== "null");
    if (output.type !== undefined && types.length > 0 && !types.some((t) => fitsStateType(output.type, t)))
      continue;
    const place =
      root.path.length === 0
        ? `$entity(${JSON.stringify(output.name)})`
        : `$entity(${JSON.stringify(root.path[0])}).${identifier(output.name)}`;
    out.push({ kind: "respond", output: output.name, value: { $expr: place } });
    ctx.notes.push(`answers ${output.name} from ${[...root.path, output.name].join(".")}`);
  }
  return out;
}
