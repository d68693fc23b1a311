import { addError, type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { OutputFact, Param } from "./facts.js";
import { placeOfValue, withoutValue } from "./list-values.js";
import { isSubsetList } from "./ordered-lists.js";
import { identifier } from "./reads.js";
import type { ListShape } from "./shape.js";
import { LEAVE_VERBS, nameWords, REMOVE_VERBS, sameNoun, sentencesOf, VERBS } from "./words.js";

/**
 * Lists of names kept side by side (a crew's rowers and reserves, a class's enrolled students
 * and waitlist, a board's columns of ids): a value is on one of them, and a tool that names no
 * list asks where a value stands, takes it off whichever list holds it, moves it to the list an
 * argument names, or moves the head of one list to another, as Redis's `LPOS`, `LREM` and
 * `LMOVE` over several keys, kanban columns and a waitlist's promotion do.
 */

interface Group {
  /** The lists a value is on one of. */
  lists: ListShape[];
  /** Those and the lists that hold only some of their values. */
  all: ListShape[];
  /** Target of the record that keeps them ("." at the top). */
  holder: string;
}

/** The lists of text beside each other under one record, two or more. */
function groupOf(ctx: Context): Group | undefined {
  const lists = ctx.shape.parts.filter(
    (p): p is ListShape => p.kind === "list" && p.itemType === "string" && !p.path.includes("*"),
  );
  const byHolder = new Map<string, ListShape[]>();
  for (const list of lists) {
    const holder = list.path.slice(0, -1).join("/") || ".";
    byHolder.set(holder, [...(byHolder.get(holder) ?? []), list]);
  }
  // a list that holds only another's names (who sits a round out, of the queue) is a subset of
  // that side, not a side of its own
  const groups = [...byHolder.entries()]
    .map(([holder, members]) => ({
      holder,
      all: members,
      lists: members.filter((list) => !members.some((other) => isSubsetList(list, other))),
    }))
    .filter((group) => group.lists.length >= 2);
  return groups.length === 1 ? groups[0] : undefined;
}

/** The one text argument that is the value looked for (`name`, `guest`, `symbol`). */
function valueParam(ctx: Context): Param | undefined {
  const texts = ctx.facts.params.filter((p) => p.type === "string");
  return texts.length === 1 ? texts[0] : undefined;
}

const field = (list: ListShape) => `$lists.${identifier(list.path.at(-1) as string)}`;
const listName = (list: ListShape) => list.path.at(-1) as string;

/** The lists a sentence about taking the value off names ("from rowing or from the reserves"); else every one. */
function namedLists(ctx: Context, group: Group): ListShape[] {
  const text = sentencesOf(ctx.facts.tool.description)
    .filter((sentence) => /\bfrom\b/i.test(sentence))
    .join(" ")
    .toLowerCase();
  const named = group.lists.filter((list) => {
    const words = nameWords(listName(list)).join("[ _]");
    return new RegExp(`(?:^|[^a-z_])${words}(?:[^a-z_]|$)`).test(text);
  });
  return named.length > 0 ? named : group.lists;
}

/** An error for a value on none of the lists: "NOT_LISTED - the name is on neither list". */
const NOWHERE = /\b(not listed|neither|no list|not on|none of|on no)\b/i;

/**
 * "DUPLICATE_PLAYER if the name is already on any of the three lists": an add to one list of the
 * group refused while the value is on any of them, where the error says so.
 */
export function alreadyOnAny(ctx: Context, list: ListShape): Draft[] {
  const group = groupOf(ctx);
  const value = valueParam(ctx);
  if (!group || !value || !group.lists.includes(list)) return [];
  const error = ctx.facts.errors.find(
    (e) => /\balready\b/.test(e.text) && /\b(any|either|one) of\b|\blists\b/.test(e.text),
  );
  if (!error) return [];
  const onAny = group.lists.map((l) => `${value.name} in ${field(l)}`).join(" or ");
  ctx.notes.push(
    `refuses ${value.name} while it is on any of ${group.lists.map(listName).join(", ")} (${error.code})`,
  );
  return [
    { kind: "read", target: group.holder, as: "lists" },
    { kind: "check", require: [{ expr: `$not(${onAny})`, error: use(ctx, error) }] },
  ];
}

export function siblingListsRule(ctx: Context): Draft[] | undefined {
  const group = groupOf(ctx);
  if (!group) return undefined;
  if (ctx.facts.params.length === 0) return popAndAppend(ctx, group);
  const value = valueParam(ctx) ?? movedValueParam(ctx, group);
  if (!value) return undefined;
  // a tool named after one of the lists is that list's (`add_to_bench`)
  const own = group.lists.some((list) => ctx.facts.nouns.some((n) => sameNoun(n, listName(list))));
  if (own) return undefined;
  const verb = ctx.facts.verb ?? "";
  const destination = destinationParam(ctx, group, value);
  if (destination) return moveBetween(ctx, group, value, destination);
  if (REMOVE_VERBS.includes(verb) || LEAVE_VERBS.has(verb)) return removeFromWhichever(ctx, group, value);
  if (VERBS.read.includes(verb) || ctx.facts.tool.annotations?.readOnlyHint === true || verb === "")
    return whereItStands(ctx, group, value);
  return undefined;
}

/** What the answer says of where the value is: on a list (`on_reserves`, `ashore`), its place on one (`reserves_position`). */
function standing(output: OutputFact, group: Group, value: Param): string | undefined {
  const words = output.words;
  const list = group.all.find((l) => {
    const name = nameWords(listName(l));
    return name.every((w) => words.includes(w)) || sameNoun(output.name, listName(l));
  });
  if (!list) return undefined;
  if (output.type === "boolean") return `${value.name} in ${field(list)}`;
  if (
    (output.type === "integer" || output.type === "number") &&
    words.some((w) => /^(position|place|rank|index)$/.test(w))
  )
    return `($p := ${placeOfValue(field(list), value.name)}; $exists($p) and $p != null ? $p + 1 : null)`;
  return undefined;
}

function whereItStands(ctx: Context, group: Group, value: Param): Draft[] | undefined {
  const answers: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    const expression = output.name === value.name ? value.name : standing(output, group, value);
    if (expression) answers.push({ kind: "respond", output: output.name, value: { $expr: expression } });
  }
  if (answers.every((a) => a.output === value.name)) return undefined;
  ctx.notes.push(`answers where ${value.name} stands on ${group.lists.map(listName).join(", ")}`);
  return [{ kind: "read", target: group.holder, as: "lists" }, ...answers];
}

function removeFromWhichever(ctx: Context, group: Group, value: Param): Draft[] {
  const lists = namedLists(ctx, group);
  const onAny = lists.map((l) => `${value.name} in ${field(l)}`).join(" or ");
  const documented =
    ctx.facts.errors.find((e) => e.kind === "not-found") ??
    ctx.facts.errors.find((e) => NOWHERE.test(e.text) || NOWHERE.test(nameWords(e.code).join(" ")));
  const missing = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: "NOT_FOUND",
        status: 404,
        message: `{${value.name}} is on no list.`,
        when: `The value is on none of ${lists.map(listName).join(", ")}.`,
      });
  const set = Object.fromEntries(
    lists.map((l) => [
      listName(l),
      {
        $expr: withoutValue(`$subject.${identifier(listName(l))}`, value.name),
      },
    ]),
  );
  const which = lists.reduceRight(
    (rest, l) => `${value.name} in ${field(l)} ? ${JSON.stringify(listName(l))} : ${rest}`,
    "null",
  );
  const answers: Draft[] = ctx.facts.outputs.flatMap((output): Draft[] => {
    if (output.name === value.name)
      return [{ kind: "respond", output: output.name, value: { $expr: value.name } }];
    if (output.type === "string" && output.words.some((w) => /^(from|list|removed)$/.test(w)))
      return [{ kind: "respond", output: output.name, value: { $expr: which } }];
    return [];
  });
  ctx.notes.push(`takes ${value.name} off whichever of ${lists.map(listName).join(", ")} holds it`);
  return [
    { kind: "read", target: group.holder, as: "lists" },
    { kind: "check", require: [{ expr: onAny, error: missing }] },
    ...answers,
    { kind: "update", target: group.holder, set },
  ];
}

/** An argument naming one of the lists (`to`, `list`, `destination`): its docs or its choices give their names. */
function destinationParam(ctx: Context, group: Group, value: Param): Param | undefined {
  const names = group.lists.map(listName);
  return ctx.facts.params.find((p) => {
    if (p === value || p.type !== "string") return false;
    const choices = Array.isArray(p.schema.enum) ? (p.schema.enum as unknown[]).map(String) : [];
    const told = `${p.description} ${ctx.facts.tool.description}`;
    const quoted = names.filter((n) => new RegExp(`["'\`]${n}["'\`]`).test(told));
    return (
      (choices.length >= 2 && choices.every((c) => names.includes(c))) ||
      (/^(to|into|list|destination|target|to_list)$/.test(p.name) && quoted.length >= 2)
    );
  });
}

/** With a destination among several text arguments, the value moved is the other one. */
function movedValueParam(ctx: Context, group: Group): Param | undefined {
  const texts = ctx.facts.params.filter((p) => p.type === "string");
  if (texts.length !== 2) return undefined;
  const [first, second] = texts as [Param, Param];
  if (destinationParam(ctx, group, first) === second) return first;
  if (destinationParam(ctx, group, second) === first) return second;
  return undefined;
}

function errorSaying(ctx: Context, pattern: RegExp): string | undefined {
  const error = ctx.facts.errors.find(
    (e) => pattern.test(e.text) || pattern.test(nameWords(e.code).join(" ")),
  );
  return error ? use(ctx, error) : undefined;
}

/**
 * "Moves a player from their current list to list `to`; with `position` they end up at that
 * 1-based place, else at the end": the value leaves whichever list holds it and joins the one an
 * argument names, as Redis's `LMOVE`, a kanban card moved between columns and a crew change do.
 */
function moveBetween(ctx: Context, group: Group, value: Param, to: Param): Draft[] {
  const names = group.lists.map(listName);
  const position = ctx.facts.params.find(
    (p) => (p.type === "integer" || p.type === "number") && /^(position|index|place|at|slot)$/.test(p.name),
  );
  const oneBased = position !== undefined && !/\b0-based|zero-based\b/i.test(ctx.facts.tool.description);
  const onAny = group.lists.map((l) => `${value.name} in ${field(l)}`).join(" or ");
  const target = `$lookup($lists, ${to.name})`;
  // the value on no list, not a list that does not exist (`UNKNOWN_LIST`)
  const notFound =
    ctx.facts.errors.find((e) => NOWHERE.test(e.text)) ??
    ctx.facts.errors.find(
      (e) => e.kind === "not-found" && !nameWords(e.code).some((w) => /^lists?$/.test(w)),
    );
  const unknownList = errorSaying(ctx, /\b(unknown list|not one of|no such list|invalid list)\b/i);
  const same = errorSaying(ctx, /\b(same list|already on|already in)\b/i);
  const badPosition = position ? errorSaying(ctx, /\b(position|index|out of range|outside)\b/i) : undefined;
  const at = position ? (oneBased ? `${position.name} - 1` : position.name) : undefined;
  const require = [
    ...(notFound ? [{ expr: onAny, error: use(ctx, notFound) }] : []),
    ...(unknownList ? [{ expr: `${to.name} in ${JSON.stringify(names)}`, error: unknownList }] : []),
    ...(same ? [{ expr: `$not(${value.name} in ${target})`, error: same }] : []),
    ...(badPosition && at
      ? [
          {
            expr: `$not($exists(${position?.name})) or (${at} >= 0 and ${at} <= $count(${target}))`,
            error: badPosition,
          },
        ]
      : []),
  ];
  const set = Object.fromEntries(
    group.lists.map((l) => {
      const kept = withoutValue(`$subject.${identifier(listName(l))}`, value.name);
      const placed = at
        ? // the place is bound first: inside a predicate the context is the array's element
          `($base := ${kept}; $at := ${at}; $exists(${position?.name}) ? $append($append($base[[0..($at - 1)]], [${value.name}]), $base[[$at..($count($base) - 1)]]) : $append($base, [${value.name}]))`
        : `$append(${kept}, [${value.name}])`;
      return [listName(l), { $expr: `${to.name} = ${JSON.stringify(listName(l))} ? ${placed} : ${kept}` }];
    }),
  );
  const from = group.lists.reduceRight(
    (rest, l) => `${value.name} in ${field(l)} ? ${JSON.stringify(listName(l))} : ${rest}`,
    "null",
  );
  const answers: Draft[] = ctx.facts.outputs.flatMap((output): Draft[] => {
    const respond = (expression: string): Draft[] => [
      { kind: "respond", output: output.name, value: { $expr: expression } },
    ];
    if (output.name === value.name || output.name === to.name) return respond(output.name);
    if (output.words.includes("from")) return respond(from);
    if (position && output.name === position.name)
      return respond(
        `$exists(${position.name}) ? ${position.name} : $count(${target}) + ${oneBased ? 1 : 0}`,
      );
    return [];
  });
  ctx.notes.push(
    `moves ${value.name} from whichever of ${names.join(", ")} holds it to the one ${to.name} names`,
  );
  return [
    { kind: "read", target: group.holder, as: "lists" },
    ...(require.length > 0 ? [{ kind: "check", require }] : []),
    ...answers,
    { kind: "update", target: group.holder, set },
  ];
}

/**
 * "Takes the first name off the reserves and appends it to rowing": the head of one list moves
 * to the end of another, as Redis's `LMOVE source destination LEFT RIGHT` (`RPOPLPUSH`), a
 * waitlist's promotion and a job queue's claim do; an empty source answers the error that says so.
 */
function popAndAppend(ctx: Context, group: Group): Draft[] | undefined {
  const text = ctx.facts.tool.description;
  const names = group.lists.map(listName).map((n) => nameWords(n).join("[ _]"));
  const said = new RegExp(
    `\\b(?:pops?|takes?|moves?|shifts?)\\s+the\\s+(first|last)\\s+\\w+\\s+(?:off|from|out of)\\s+(?:the\\s+)?(${names.join("|")})\\b[^.]*?\\b(?:appends?|adds?|puts?|pushes?)\\s+(?:it|them)\\s+(?:to|onto)\\s+(?:the\\s+(?:end\\s+of\\s+(?:the\\s+)?)?)?(${names.join("|")})\\b`,
    "i",
  ).exec(text);
  if (!said) return undefined;
  const [, end = "first", fromName = "", toName = ""] = said;
  const from = group.lists.find((l) =>
    new RegExp(`^${nameWords(listName(l)).join("[ _]")}$`, "i").test(fromName),
  );
  const to = group.lists.find((l) =>
    new RegExp(`^${nameWords(listName(l)).join("[ _]")}$`, "i").test(toName),
  );
  if (!from || !to || from === to) return undefined;
  const source = `$subject.${identifier(listName(from))}`;
  const head = end.toLowerCase() === "first" ? `${source}[0]` : `${source}[-1]`;
  const rest =
    end.toLowerCase() === "first"
      ? `${source}[[1..($count(${source}) - 1)]]`
      : `${source}[[0..($count(${source}) - 2)]]`;
  const empty = errorSaying(ctx, /\b(empty|nobody|no one|nothing)\b/i);
  ctx.notes.push(`moves the ${end.toLowerCase()} of ${listName(from)} to the end of ${listName(to)}`);
  const moved = `$lists.${identifier(listName(from))}[${end.toLowerCase() === "first" ? "0" : "-1"}]`;
  return [
    { kind: "read", target: group.holder, as: "lists" },
    ...(empty ? [{ kind: "check", require: [{ expr: `$count(${field(from)}) > 0`, error: empty }] }] : []),
    {
      kind: "update",
      target: group.holder,
      set: {
        [listName(from)]: { $expr: `$append([], ${rest})` },
        [listName(to)]: { $expr: `$append($subject.${identifier(listName(to))}, [${head}])` },
      },
      as: "after",
    },
    ...ctx.facts.outputs.flatMap((output): Draft[] => {
      if (output.type === "string")
        return [{ kind: "respond", output: output.name, value: { $expr: moved } }];
      return [];
    }),
  ];
}
