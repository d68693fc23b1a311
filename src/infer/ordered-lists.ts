import { type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, OutputFact, Param } from "./facts.js";
import { placeOfValue, withoutValue } from "./list-values.js";
import { identifier } from "./reads.js";
import type { ListShape, StateShape } from "./shape.js";
import { JOIN_VERBS, LEAVE_VERBS, nameWords, REMOVE_VERBS, sentencesOf, VERBS } from "./words.js";

/**
 * A list of names whose order matters (a speaking order, a queue, a ranking), named by the
 * tool's description rather than its name ("Inserts name into queue at index position",
 * "Reorders queue"): a name is inserted at a place, taken out, moved to another place,
 * toggled on a second list that holds some of the first's names, or looked up, as Redis's
 * `LINSERT`, `LREM`, `LPOS` and `SADD`/`SREM`, a playlist's reorder and a kanban column's rank do.
 */

interface Ordered {
  list: ListShape;
  /** Lists whose names are all on this one (who sits a round out, of everyone in the queue). */
  within: ListShape[];
  holder: string;
}

const topLists = (shape: StateShape) =>
  shape.parts.filter(
    (p): p is ListShape => p.kind === "list" && p.itemType === "string" && !p.path.includes("*"),
  );

const listName = (list: ListShape) => list.path.at(-1) as string;
const holderOf = (list: ListShape) => list.path.slice(0, -1).join("/") || ".";

/** Whether every name of `part` is on `whole` and `part` holds some: a subset kept beside its set. */
export function isSubsetList(part: ListShape, whole: ListShape): boolean {
  if (part === whole || part.items.length === 0) return false;
  const all = new Set(whole.items.map(String));
  return part.items.every((item) => all.has(String(item)));
}

/** The list the opening of the description names as a word, where the tool's name names none. */
function describedList(ctx: Context): Ordered | undefined {
  const lists = topLists(ctx.shape);
  if (lists.length === 0) return undefined;
  const opening = sentencesOf(ctx.facts.tool.description)[0] ?? "";
  const at = (list: ListShape) => {
    const found = new RegExp(`(?:^|[^a-z_.])${nameWords(listName(list)).join("[ _]")}(?![a-z_])`, "i").exec(
      opening,
    );
    return found ? found.index : -1;
  };
  const named = lists.filter((l) => at(l) >= 0).sort((a, b) => at(a) - at(b));
  const list = named[0];
  if (!list) return undefined;
  // a list the name does name is the other rules' (`add_to_bench`)
  if (lists.some((l) => nameWords(listName(l)).every((w) => ctx.facts.words.includes(w)) && l !== list))
    return undefined;
  const within = lists.filter((l) => holderOf(l) === holderOf(list) && isSubsetList(l, list));
  return { list, within, holder: holderOf(list) };
}

/** The one text argument that is the name looked for. */
function nameParam(ctx: Context): Param | undefined {
  const texts = ctx.facts.params.filter((p) => p.type === "string");
  return texts.length === 1 ? texts[0] : undefined;
}

function placeParam(ctx: Context): Param | undefined {
  const places = ctx.facts.params.filter(
    (p) =>
      (p.type === "integer" || p.type === "number") &&
      /^(?:to_)?(?:position|index|place|at|slot|rank)$|^(?:new|target)_(?:position|index)$/.test(p.name),
  );
  return places.length === 1 ? places[0] : undefined;
}

/** Places counted from 1 only where the docs say so; an index is counted from 0. */
function fromOne(ctx: Context): boolean {
  const text = ctx.facts.tool.description;
  return (
    /\b(?:1-based|one-based|starting (?:at|from) 1)\b/i.test(text) &&
    !/\b(?:0-based|zero-based)\b/i.test(text)
  );
}

function errorSaying(ctx: Context, pattern: RegExp, skip: readonly ErrorFact[] = []): ErrorFact | undefined {
  return ctx.facts.errors.find(
    (e) => !skip.includes(e) && (pattern.test(e.text) || pattern.test(nameWords(e.code).join(" "))),
  );
}

export function orderedListRule(ctx: Context): Draft[] | undefined {
  const ordered = describedList(ctx);
  const value = nameParam(ctx);
  if (!ordered || !value) return undefined;
  const verb = ctx.facts.verb ?? ctx.facts.words[0] ?? "";
  const place = placeParam(ctx);
  if (/^(toggle|flip)$/.test(verb)) return toggled(ctx, ordered, value);
  if (place && /^(move|reorder|reposition|rerank|shift)$/.test(verb))
    return moved(ctx, ordered, value, place);
  if (JOIN_VERBS.has(verb) || VERBS.create.includes(verb) || /^(insert|enqueue|push)$/.test(verb))
    return inserted(ctx, ordered, value, place);
  if (REMOVE_VERBS.includes(verb) || LEAVE_VERBS.has(verb)) return removed(ctx, ordered, value);
  if (VERBS.read.includes(verb) || ctx.facts.tool.annotations?.readOnlyHint === true)
    return looked(ctx, ordered, value);
  return undefined;
}

const field = (list: ListShape) => `$lists.${identifier(listName(list))}`;
const current = (list: ListShape) => `$subject.${identifier(listName(list))}`;
const without = (list: ListShape, value: string) => withoutValue(current(list), value);

function notOn(ctx: Context, ordered: Ordered): ErrorFact | undefined {
  const name = nameWords(listName(ordered.list)).join("[ _]");
  return errorSaying(ctx, new RegExp(`\\bnot\\s+(?:in|on)\\s+(?:the\\s+)?${name}\\b`));
}

function answer(output: OutputFact, expr: string): Draft {
  return { kind: "respond", output: output.name, value: { $expr: expr } };
}

/** The answers every change shares: the name, the list after, its length. */
function common(ctx: Context, ordered: Ordered, value: Param, after: string): Draft[] {
  return ctx.facts.outputs.flatMap((output): Draft[] => {
    const words = output.words;
    if (
      output.name === value.name ||
      (output.type === "string" && /^(removed|added|moved)$/.test(output.name))
    )
      return [answer(output, value.name)];
    if (output.type === "array" && output.name === listName(ordered.list))
      return [answer(output, `[${after}]`)];
    if (
      (output.type === "integer" || output.type === "number") &&
      words.some((w) => /^(length|size|count)$/.test(w)) &&
      !words.some((w) => /^(present|absent)$/.test(w))
    )
      return [answer(output, `$count(${after})`)];
    return [];
  });
}

function inserted(ctx: Context, ordered: Ordered, value: Param, place: Param | undefined): Draft[] {
  const list = ordered.list;
  const shift = fromOne(ctx) ? 1 : 0;
  const at = place ? `$args.${identifier(place.name)} - ${shift}` : undefined;
  const taken = errorSaying(ctx, /\balready\b/);
  const badPlace = place
    ? errorSaying(ctx, /\b(?:position|index|place|out of range|outside)\b/, taken ? [taken] : [])
    : undefined;
  const require = [
    ...(taken ? [{ expr: `$not(${value.name} in ${field(list)})`, error: use(ctx, taken) }] : []),
    ...(badPlace && at && place
      ? [
          {
            expr: `$not($exists($args.${identifier(place.name)})) or (${at} >= 0 and ${at} <= $count(${field(list)}))`,
            error: use(ctx, badPlace),
          },
        ]
      : []),
  ];
  const base = current(list);
  const placed =
    at && place
      ? `($base := ${base}; $at := ${at}; $exists($args.${identifier(place.name)}) ? $append($append($base[[0..($at - 1)]], [${value.name}]), $base[[$at..($count($base) - 1)]]) : $append($base, [${value.name}]))`
      : `$append(${base}, [${value.name}])`;
  ctx.notes.push(
    `puts ${value.name} into ${listName(list)}${place ? ` at ${place.name}, else at the end` : ", at the end"}`,
  );
  const after = `$after.${identifier(listName(list))}`;
  return [
    { kind: "read", target: ordered.holder, as: "lists" },
    ...(require.length > 0 ? [{ kind: "check", require }] : []),
    { kind: "update", target: ordered.holder, set: { [listName(list)]: { $expr: placed } }, as: "after" },
    ...ctx.facts.outputs.flatMap((output) =>
      place && (output.name === "position" || output.name === place.name || output.name === "index")
        ? [answer(output, `${placeOfValue(after, value.name)} + ${shift}`)]
        : [],
    ),
    ...common(ctx, ordered, value, after),
  ];
}

function removed(ctx: Context, ordered: Ordered, value: Param): Draft[] {
  const missing = notOn(ctx, ordered);
  const lists = [ordered.list, ...ordered.within];
  ctx.notes.push(
    `takes ${value.name} out of ${listName(ordered.list)}${ordered.within.length > 0 ? ` and out of ${ordered.within.map(listName).join(", ")}, which hold only its names` : ""}`,
  );
  const after = `$after.${identifier(listName(ordered.list))}`;
  return [
    { kind: "read", target: ordered.holder, as: "lists" },
    ...(missing
      ? [
          {
            kind: "check",
            require: [{ expr: `${value.name} in ${field(ordered.list)}`, error: use(ctx, missing) }],
          },
        ]
      : []),
    {
      kind: "update",
      target: ordered.holder,
      set: Object.fromEntries(lists.map((l) => [listName(l), { $expr: without(l, value.name) }])),
      as: "after",
    },
    ...ctx.facts.outputs.flatMap((output) => {
      const sub = ordered.within.find((l) => nameWords(listName(l)).every((w) => output.words.includes(w)));
      return output.type === "boolean" && sub ? [answer(output, `${value.name} in ${field(sub)}`)] : [];
    }),
    ...common(ctx, ordered, value, after),
  ];
}

function moved(ctx: Context, ordered: Ordered, value: Param, place: Param): Draft[] {
  const list = ordered.list;
  const shift = fromOne(ctx) ? 1 : 0;
  const missing = notOn(ctx, ordered);
  const badPlace = errorSaying(
    ctx,
    /\b(?:position|index|place|out of range|outside)\b/,
    missing ? [missing] : [],
  );
  const at = `$args.${identifier(place.name)} - ${shift}`;
  const require = [
    ...(missing ? [{ expr: `${value.name} in ${field(list)}`, error: use(ctx, missing) }] : []),
    ...(badPlace
      ? [{ expr: `${at} >= 0 and ${at} <= $count(${field(list)}) - 1`, error: use(ctx, badPlace) }]
      : []),
  ];
  const placed = `($base := ${without(list, value.name)}; $at := ${at}; $append($append($base[[0..($at - 1)]], [${value.name}]), $base[[$at..($count($base) - 1)]]))`;
  ctx.notes.push(`moves ${value.name} within ${listName(list)} to ${place.name}`);
  const after = `$after.${identifier(listName(list))}`;
  return [
    { kind: "read", target: ordered.holder, as: "lists" },
    ...(require.length > 0 ? [{ kind: "check", require }] : []),
    { kind: "update", target: ordered.holder, set: { [listName(list)]: { $expr: placed } }, as: "after" },
    ...ctx.facts.outputs.flatMap((output): Draft[] => {
      if (output.type !== "integer" && output.type !== "number") return [];
      if (output.name === "from" || output.words.includes("old") || output.words.includes("previous"))
        return [answer(output, `${placeOfValue(field(list), value.name)} + ${shift}`)];
      if (output.name === "to" || output.name === place.name || output.name === "position")
        return [answer(output, `$args.${identifier(place.name)}`)];
      return [];
    }),
    ...common(ctx, ordered, value, after),
  ];
}

/** "Flips whether a member is out today": the name joins the list that holds some of the set's, or leaves it. */
function toggled(ctx: Context, ordered: Ordered, value: Param): Draft[] | undefined {
  const list = ordered.list;
  // the set the toggled list is part of: a name must be on it first
  const whole = topLists(ctx.shape).find((l) => holderOf(l) === ordered.holder && isSubsetList(list, l));
  const missing = whole
    ? errorSaying(
        ctx,
        new RegExp(`\\bnot\\s+(?:in|on)\\s+(?:the\\s+)?${nameWords(listName(whole)).join("[ _]")}\\b`),
      )
    : undefined;
  const base = current(list);
  ctx.notes.push(`puts ${value.name} on ${listName(list)}, or takes it off where it is there`);
  const after = `$after.${identifier(listName(list))}`;
  return [
    { kind: "read", target: ordered.holder, as: "lists" },
    ...(missing && whole
      ? [{ kind: "check", require: [{ expr: `${value.name} in ${field(whole)}`, error: use(ctx, missing) }] }]
      : []),
    {
      kind: "update",
      target: ordered.holder,
      set: {
        [listName(list)]: {
          $expr: `${value.name} in ${base} ? ${without(list, value.name)} : $append(${base}, [${value.name}])`,
        },
      },
      as: "after",
    },
    ...ctx.facts.outputs.flatMap((output) => {
      if (output.type !== "boolean") return [];
      return nameWords(listName(list)).every((w) => output.words.includes(w)) ||
        /^(on|value|state|enabled)$/.test(output.name)
        ? [answer(output, `${value.name} in ${after}`)]
        : [];
    }),
    ...ctx.facts.outputs.flatMap((output) =>
      output.name === value.name ? [answer(output, value.name)] : [],
    ),
  ];
}

function looked(ctx: Context, ordered: Ordered, value: Param): Draft[] | undefined {
  const shift = fromOne(ctx) ? 1 : 0;
  const lists = topLists(ctx.shape).filter((l) => holderOf(l) === ordered.holder);
  const answers = ctx.facts.outputs.flatMap((output): Draft[] => {
    if (output.name === value.name) return [answer(output, value.name)];
    const named = lists.find((l) => nameWords(listName(l)).every((w) => output.words.includes(w)));
    if (output.type === "boolean" && named) return [answer(output, `${value.name} in ${field(named)}`)];
    const counted = output.type === "integer" || output.type === "number";
    if (counted && output.words.some((w) => /^(position|index|place|rank)$/.test(w))) {
      const of = named ?? ordered.list;
      const index = placeOfValue(field(of), value.name);
      return [answer(output, `($i := ${index}; $exists($i) and $i != null ? $i + ${shift} : null)`)];
    }
    return [];
  });
  if (answers.every((a) => a.output === value.name)) return undefined;
  ctx.notes.push(`answers where ${value.name} stands in ${listName(ordered.list)}`);
  return [{ kind: "read", target: ordered.holder, as: "lists" }, ...answers];
}
