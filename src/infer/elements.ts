import escapeRegExp from "escape-string-regexp";
import { type Context, humanNoun, notFoundError, use } from "./context.js";
import { nestedCreate, sameName } from "./creates.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, Param } from "./facts.js";
import {
  capacityGuard,
  existsUndocumented,
  keyedLimitGuards,
  referenceChecks,
  statusGuards,
} from "./guards.js";
import { bindingName, identifier, wrapperOutput } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";
import { keptSums } from "./sums.js";
import { referenceTarget } from "./targets.js";
import { recordsAt } from "./transitions.js";
import { type Action, JOIN_VERBS, LEAVE_VERBS, nameWords, participle, singular } from "./words.js";

/** A record's own lists: values and records added to them, changed in place and removed. */

/**
 * The record a key added to a list names must exist (a track added to a playlist), answered by
 * its not-found error: added here where the API documents none, as `referenceChecks` checks
 * those it documents.
 */
function keyExists(ctx: Context, referred: CollectionShape | undefined, rest: readonly Param[]): Draft[] {
  const param = referred && onlyKeyOf(rest, referred) ? rest.find((p) => p.required) : undefined;
  return param && referred ? existsUndocumented(ctx, referred, param) : [];
}

/** Arguments that give a record of this collection by its key alone, no field of a new one. */
function onlyKeyOf(params: readonly Param[], collection: CollectionShape): boolean {
  const given = params.filter((p) => p.required);
  const key = collection.keyField;
  return given.length === 1 && key !== undefined && (given[0]?.name === key || given[0]?.name === `${key}s`);
}

/**
 * The things a record keeps a list of (a ticket's notes, an event's attendees, an order's
 * lines), named by the tool's noun: adding one puts it at the end, and one picked by a field
 * of its own (an attendee's email) is changed or removed in place, as the sub-resources of
 * GitHub's issues (comments, labels), Google Calendar's attendees and Stripe's line items are.
 */
export function elementRule(ctx: Context, subject: Reference, action: Action): Draft[] {
  // a verb that is the noun of what it adds (`tag_recipe`) adds one, whatever else it may update
  // as does a verb that gives a record something (`grant_role`)
  const verb = ctx.facts.verb ?? "";
  const leaving = LEAVE_VERBS.has(verb) || (verb.startsWith("un") && JOIN_VERBS.has(verb.slice(2)));
  const acting =
    action === "update" && (NOUN_VERBS.has(verb) || JOIN_VERBS.has(verb))
      ? "create"
      : action === "update" && leaving
        ? "delete"
        : action;
  const field = listFieldNamed(ctx, subject.collection, subject);
  const target = referenceTarget(ctx, subject);
  if (!field || !target) return [];
  const collection = subject.collection;
  const missing = notFoundError(ctx, collection, subject.param.name, { add: true });
  const binding = bindingName(collection);
  const rest = ctx.facts.params.filter((p) => p.name !== subject.param.name);
  const key = field.itemFields ? rest.find((p) => p.required && field.itemFields?.has(p.name)) : undefined;
  const answersElement =
    field.itemFields !== undefined &&
    ctx.facts.outputs.some((o) => field.itemFields?.has(o.name) && !collection.fields.has(o.name));
  const many = field.itemFields ? undefined : manyValues(ctx, subject, field.path, rest);
  if (many) return many;
  // a list of records with keys of their own (a list's cards) gets a new record like any collection
  const kept = keptCollection(ctx, collection, field.path);
  if (acting === "create" && kept?.keyField) return nestedCreate(ctx, kept, singular(field.path));
  // a list of another collection's keys (a writer's `essays`) gains a new record's id when one is
  // made there: what a create makes is the record, not a value of the list
  // made there: what a create makes is the record, not a value of the list; one given only the
  // key of a record that exists (`add_track_to_playlist(playlist_id, track_id)`) adds the key
  const referred = field.refersTo ? ctx.shape.collections.get(field.refersTo) : undefined;
  if (acting === "create" && !field.itemFields && referred && !onlyKeyOf(rest, referred)) return [];
  if (acting === "create") {
    const made = appendedValue(ctx, rest, field.itemFields);
    if (made === undefined) return [];
    const value = withItemNumber(
      ctx,
      collection,
      made,
      field.path,
      field.itemFields,
      `$subject.${identifier(field.path)}`,
    );
    const taken = ctx.facts.errors.find(
      (e) => /\balready\b/.test(e.text) || /ALREADY|EXISTS|DUPLICATE/.test(e.code),
    );
    const list = `$subject.${identifier(field.path)}`;
    // "a label it already has is left as it is": a plain value joins once, with no error
    if (!taken && typeof value === "string" && !field.itemFields && ONCE.test(ctx.facts.tool.description)) {
      const given = `$args.${identifier(value.slice(1, -1))}`;
      ctx.notes.push(
        `adds ${value.slice(1, -1)} to the ${field.path} of the ${humanNoun(collection.name)} ${subject.param.name} names, once`,
      );
      return [
        ...referenceChecks(ctx, subject, []),
        {
          kind: "update",
          target,
          ...(missing ? { missing } : {}),
          set: {
            [field.path]: {
              $expr: `${given} in ${list} ? ${list} : $append(${list} ? ${list} : [], ${given})`,
            },
          },
          as: binding,
          ...answerOf(ctx, collection, binding),
        },
        ...fieldAnswers(ctx, collection, binding),
      ];
    }
    const inc = summedInto(ctx, collection, field.path, value);
    const present = key
      ? `$count(${list}[${identifier(key.name)} = $args.${identifier(key.name)}]) = 0`
      : `$not($args.${identifier(rest.find((p) => p.required)?.name ?? "")} in ${list})`;
    ctx.notes.push(
      `appends to the ${field.path} of the ${humanNoun(collection.name)} ${subject.param.name} names${taken ? `, refusing one already there (${use(ctx, taken)})` : ""}`,
    );
    return [
      ...referenceChecks(ctx, subject, []),
      ...keyExists(ctx, referred, rest),
      {
        kind: "update",
        target,
        ...(missing ? { missing } : {}),
        // "add a line to an open order": the holder's status and flags the text states
        require: [
          ...statusGuards(ctx, collection),
          ...keyedLimitGuards(ctx),
          ...(taken ? [{ expr: present, error: taken.code }] : []),
          ...capacityGuard(ctx, collection, list),
        ],
        append: { [field.path]: value },
        ...(Object.keys(inc).length > 0 ? { inc } : {}),
        as: binding,
        ...(answersElement ? {} : { output: wrapperOutput(ctx, collection) ?? "" }),
      },
      ...(answersElement
        ? [{ kind: "respond", value: { $expr: `$${binding}.${identifier(field.path)}[-1]` } }]
        : []),
    ];
  }
  if (acting === "delete" && !key && !field.itemFields)
    return plainValueRemoved(ctx, subject, field.path, rest);
  if (!key || (acting !== "update" && acting !== "delete")) return [];
  const noun = singular(field.path);
  const gone = notInListError(ctx, noun);
  const element = `${target}/${field.path}/[${key.name}={${key.name}}]`;
  const read: Draft = { kind: "read", target, ...(missing ? { missing } : {}), as: binding };
  const elementMissing = gone ? { missing: use(ctx, gone) } : {};
  if (acting === "delete") {
    ctx.notes.push(
      `removes the ${noun} whose ${key.name} is given from the ${field.path} of the ${humanNoun(collection.name)}`,
    );
    return [read, { kind: "delete", target: element, ...elementMissing, as: "element", output: "" }];
  }
  const set: Record<string, unknown> = {};
  for (const param of rest)
    if (param !== key && field.itemFields?.has(param.name)) set[param.name] = `{${param.name}}`;
  if (Object.keys(set).length === 0) return [];
  ctx.notes.push(
    `sets ${Object.keys(set).join(", ")} of the ${noun} whose ${key.name} is given, in the ${humanNoun(collection.name)}'s ${field.path}`,
  );
  return [
    read,
    { kind: "update", target: element, ...elementMissing, require: [], set, as: "element", output: "" },
  ];
}

/**
 * Values given as an array join a record's list of plain values once each (`label(issue_id,
 * labels)`, `tag(photo_id, tags)`), or leave it, by the verb: GitHub's
 * `POST /issues/{n}/labels` adds the labels the issue lacks, Trello's card `idMembers` and
 * Todoist's task `labels` take several at once.
 */
function manyValues(
  ctx: Context,
  subject: Reference,
  path: string,
  rest: readonly Param[],
): Draft[] | undefined {
  const verb = ctx.facts.verb ?? "";
  const joining = JOIN_VERBS.has(verb) ? true : LEAVE_VERBS.has(verb) ? false : undefined;
  const arrays = rest.filter((p) => p.required && p.type === "array" && p.itemType !== "object");
  const target = referenceTarget(ctx, subject);
  if (
    joining === undefined ||
    arrays.length !== 1 ||
    rest.some((p) => p.required && p !== arrays[0]) ||
    !target
  )
    return undefined;
  const param = arrays[0] as Param;
  const list = `$subject.${identifier(path)}`;
  const given = `$args.${identifier(param.name)}`;
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  const binding = bindingName(subject.collection);
  ctx.notes.push(
    `${joining ? "adds" : "removes"} each of ${param.name} ${joining ? "to" : "from"} the ${path} of the ${humanNoun(subject.collection.name)} ${subject.param.name} names${joining ? ", once" : ""}`,
  );
  const value = joining
    ? `[$append(${list}, [${given}][$not($ in ${list})])]`
    : `[${list}[$not($ in ${given})]]`;
  return [
    ...referenceChecks(ctx, subject, []),
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      set: { [path]: { $expr: value } },
      as: binding,
      ...answerOf(ctx, subject.collection, binding),
    },
    ...fieldAnswers(ctx, subject.collection, binding),
  ];
}

function keptCollection(ctx: Context, holder: CollectionShape, path: string): CollectionShape | undefined {
  const at = [...holder.path, "*", path].join("/");
  return [...ctx.shape.nested.values()].find((c) => c.path.join("/") === at);
}

/**
 * The documented error for an element a record's list lacks: the not-found error naming its
 * noun, else one saying it is not among them ("not in the playlist", "has no such label").
 */
function notInListError(ctx: Context, noun: string): ErrorFact | undefined {
  const head = nameWords(noun)[0] ?? noun;
  // "the user is not listed", `NOT_A_COLLABORATOR`, `NOT_WATCHING` (of a `watched_by` list), and
  // "the user does not follow the account" for unfollow
  const verb = (ctx.facts.verb ?? "").replace(/^un(?=[a-z]{3})/, "");
  const notThere = new RegExp(
    `\\bnot (?:(?:a|an|currently|yet) )?(?:listed|${escapeRegExp(head)}${verb ? `|${escapeRegExp(verb)}` : ""})`,
  );
  return (
    ctx.facts.errors.find((e) => e.kind === "not-found" && e.noun !== undefined && sameName(e.noun, noun)) ??
    ctx.facts.errors.find(
      (e) =>
        /not (among|in|on|part of)\b|isn't (among|in|on)\b|has no such\b/.test(e.text) ||
        notThere.test(`${e.text} ${nameWords(e.code).join(" ")}`),
    )
  );
}

/**
 * "LAST_OWNER if the user is the only owner", "a team must keep at least one owner":
 * the error a removal answers where it would take the list's last value.
 */
function lastOneError(ctx: Context, noun: string): ErrorFact | undefined {
  const head = escapeRegExp(nameWords(noun)[0] ?? noun);
  const last = new RegExp(
    `\\b(?:only|last|sole) (?:remaining )?${head}|\\bat least one ${head}|\\bat least one\\b`,
  );
  return ctx.facts.errors.find(
    (e) => e.kind !== "not-found" && last.test(`${e.text} ${nameWords(e.code).join(" ")}`),
  );
}

/** A description saying a value already there is left as it is: the add is idempotent, not refused. */
const ONCE =
  /\b(left as it is|already (has|there|present|follows?|listed)[^.]*(left|kept|nothing)|changes nothing|nothing changes|no-op|idempotent)\b/i;

/**
 * A plain value taken out of a record's list (a label off a card): the list without it; one
 * the list lacks answers the documented error that names its noun or says it is not there, as
 * GitHub's `DELETE …/labels/{name}` answers 404 for a label the issue lacks and Trello's
 * `DELETE /cards/{id}/idLabels/{idLabel}` does for one the card lacks.
 */
function plainValueRemoved(ctx: Context, subject: Reference, path: string, rest: readonly Param[]): Draft[] {
  const required = rest.filter((p) => p.required && p.type !== "object" && p.type !== "array");
  const target = referenceTarget(ctx, subject);
  if (required.length !== 1 || !target) return [];
  const param = required[0] as Param;
  const noun = singular(path);
  const gone = notInListError(ctx, noun);
  const kept = lastOneError(ctx, noun);
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  const given = `$args.${identifier(param.name)}`;
  const list = `$subject.${identifier(path)}`;
  ctx.notes.push(
    `removes ${param.name} from the ${path} of the ${humanNoun(subject.collection.name)} ${subject.param.name} names${gone ? ` (${use(ctx, gone)} where it is not there)` : ""}`,
  );
  return [
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      require: [
        ...(gone ? [{ expr: `${given} in ${list}`, error: gone.code }] : []),
        ...(kept ? [{ expr: `$count(${list}[$ != ${given}]) > 0`, error: use(ctx, kept) }] : []),
      ],
      set: { [path]: { $expr: `[${list}[$ != ${given}]]` } },
      as: bindingName(subject.collection),
      ...answerOf(ctx, subject.collection, bindingName(subject.collection)),
    },
    ...fieldAnswers(ctx, subject.collection, bindingName(subject.collection)),
  ];
}

/** An answer of only some of the record's fields (`{labels}`) gives those; any other, the record. */
function answerOf(ctx: Context, collection: CollectionShape, binding: string): { output?: string } {
  if (fieldAnswers(ctx, collection, binding).length > 0) return {};
  const wrapper = wrapperOutput(ctx, collection);
  if (wrapper) return { output: wrapper };
  // an answer that names none of the record's fields (`{reply_status}`) is not the record
  const outputs = ctx.facts.outputs;
  return outputs.length > 0 && !outputs.some((o) => collection.fields.has(o.name)) ? {} : { output: "" };
}

function fieldAnswers(ctx: Context, collection: CollectionShape, binding: string): Draft[] {
  const outputs = ctx.facts.outputs;
  const some = outputs.length > 0 && outputs.length < collection.fields.size / 2;
  if (!some || !outputs.every((o) => collection.fields.has(o.name))) return [];
  return outputs.map((o) => ({
    kind: "respond",
    output: o.name,
    value: { $expr: `$${binding}.${identifier(o.name)}` },
  }));
}

/**
 * The record's one array field the tool's name names (`notes` for `add_ticket_note`), else
 * the one whose records have a field for every other argument (an attendee's email and rsvp).
 */
function listFieldNamed(ctx: Context, collection: CollectionShape, subject: Reference) {
  const rest = ctx.facts.params.filter((p) => p.name !== subject.param.name);
  const holding = [...collection.fields.values()].filter(
    (f) => !f.path.includes(".") && rest.length >= 2 && rest.every((p) => f.itemFields?.has(p.name)),
  );
  return namedListField(ctx, collection) ?? (holding.length === 1 ? holding[0] : undefined);
}

function namedListField(ctx: Context, collection: CollectionShape) {
  const own = new Set(nameWords(collection.name).map(singular));
  const words = new Set(
    ctx.facts.words.filter((w) => w !== ctx.facts.verb && !own.has(singular(w))).map(singular),
  );
  // a verb that puts values into a list of its own name (`label` → `labels`, `tag` → `tags`,
  // `comment_on_issue` → an issue's `comments`)
  const verb = ctx.facts.verb;
  if (verb && (JOIN_VERBS.has(verb) || LEAVE_VERBS.has(verb) || NOUN_VERBS.has(verb))) {
    const base = verb.replace(/^un/, "");
    words.add(base);
    // or of who does it: `follow` → `followers`, `subscribe` → `subscribers`, `watch` → `watchers`
    words.add(base.endsWith("e") ? `${base}r` : `${base}er`);
  }
  // or the list the one value given is an item of (`join_team(team_id, member)` → `members`)
  const values = ctx.facts.params.filter((p) => p.type === "string" && !p.identifier);
  if (values.length === 1 && verb && (JOIN_VERBS.has(verb) || LEAVE_VERBS.has(verb)))
    words.add(singular(values[0]?.words.at(-1) ?? ""));
  // or a list named for who the verb was done to (`register_for_talk` → a talk's `registered`,
  // `unregister_from_talk` takes from it), as Eventbrite's and Meetup's attendee lists are
  const done = verb ? participle(verb.replace(/^un(?=[a-z]{4})/, "")) : undefined;
  const arrays = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("array") &&
      (words.has(singular(listNoun(f.path))) || (done !== undefined && namedForDone(f.path, done))),
  );
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** `liked_by` for like, `assigned_to` for assign, `registered` for register. */
function namedForDone(path: string, done: string): boolean {
  return path === done || new RegExp(`^${done}_(with|by|to|for)$`).test(path);
}

/**
 * An item of a list numbered within it (`item_id` 1, 2, … of a report's `items`) gets the next
 * number, as a GitHub issue's number follows the repository's last and a Stripe invoice's line
 * items are numbered per invoice.
 */
function withItemNumber(
  ctx: Context,
  holder: CollectionShape,
  item: unknown,
  list: string,
  itemFields: ReadonlySet<string> | undefined,
  current: string,
): unknown {
  if (!item || typeof item !== "object" || !itemFields) return item;
  const noun = singular(listNoun(list));
  const id = [...itemFields].find((f) => f === "id" || f === `${noun}_id` || f === `${noun}_number`);
  if (!id || (item as Record<string, unknown>)[id] !== undefined) return item;
  const numbers = ctx.states
    .flatMap((state) => recordsAt(state, holder.path))
    .flatMap((record) => (Array.isArray(record[list]) ? (record[list] as unknown[]) : []))
    .map((entry) =>
      entry && typeof entry === "object" ? (entry as Record<string, unknown>)[id] : undefined,
    );
  if (numbers.length === 0 || !numbers.every((n) => Number.isInteger(n))) return item;
  ctx.notes.push(`numbers the new ${noun} after the list's largest ${id}`);
  return {
    [id]: { $expr: `$max([0, ${current}.${identifier(id)}]) + 1` },
    ...(item as Record<string, unknown>),
  };
}

/** The holder's sums of its items' amounts (see sums.ts) an item made of the arguments adds to. */
function summedInto(
  ctx: Context,
  holder: CollectionShape,
  list: string,
  item: unknown,
): Record<string, string> {
  if (!item || typeof item !== "object") return {};
  const inc: Record<string, string> = {};
  for (const sum of keptSums(ctx, holder, list)) {
    const value = (item as Record<string, unknown>)[sum.of];
    if (typeof value !== "string" || !/^\{\w+\}$/.test(value)) continue;
    inc[sum.total] = value;
    ctx.notes.push(`adds the new item's ${sum.of} to the ${sum.total} it sums`);
  }
  return inc;
}

/**
 * A tool that adds an item of a record's list that the tool's name names, whose items hold an
 * amount an argument gives (`add_expense_item(report_id, amount)`): an item is made, not an
 * amount moved into a balance.
 */
export function addsListItem(ctx: Context, subject: Reference): boolean {
  const field = namedListField(ctx, subject.collection);
  return (
    field?.itemFields !== undefined &&
    ctx.facts.params.some(
      (p) => (p.type === "number" || p.type === "integer") && field.itemFields?.has(p.name) === true,
    )
  );
}

/**
 * Whether a record keeps a list named by the participle of the tool's verb (a course's
 * `enrolled`, an event's `registered`, a team's `invited`): who the verb was done to.
 */
export function verbsOwnList(ctx: Context, collection: CollectionShape): boolean {
  const verb = ctx.facts.verb;
  if (!verb) return false;
  const done = participle(verb.replace(/^un(?=[a-z]{4})/, ""));
  return [...collection.fields.values()].some(
    (f) => !f.path.includes(".") && f.types.has("array") && namedForDone(f.path, done),
  );
}

/** Verbs that are the noun of what they add: a comment, a note, a review, a reply, a tag, a label. */
const NOUN_VERBS: ReadonlySet<string> = new Set(["comment", "note", "review", "reply", "tag", "label"]);

/** What a list holds, by its name: `labels` → label, `track_ids` → track (the keys of tracks). */
function listNoun(name: string): string {
  const words = nameWords(name);
  const last = words.at(-1) ?? "";
  return /^(ids|keys)$/.test(last) && words.length > 1 ? (words.at(-2) ?? "") : last;
}

/**
 * A list of plain values gains the one argument left; a list of records, one made of the
 * arguments, the clock in its time fields and the values the description gives the rest
 * ("added with the RSVP 'needs_action'").
 */
function appendedValue(
  ctx: Context,
  rest: readonly Param[],
  itemFields: ReadonlySet<string> | undefined,
): unknown {
  if (!itemFields || itemFields.size === 0) {
    const required = rest.filter((p) => p.required && p.type !== "object" && p.type !== "array");
    return required.length === 1 ? `{${(required[0] as Param).name}}` : undefined;
  }
  const item: Record<string, unknown> = {};
  for (const name of itemFields) {
    const param = rest.find((p) => p.name === name);
    const stated = new RegExp(
      `\\b${nameWords(name).join("[ _]")}\\b[^.'"]{0,20}['"]([^'"]{1,40})['"]`,
      "i",
    ).exec(ctx.facts.tool.description)?.[1];
    if (param) item[name] = `{${param.name}}`;
    else if (/(^|_)(at|time|timestamp|date)$|At$/.test(name)) item[name] = "{$now}";
    else if (stated) item[name] = stated;
  }
  return Object.keys(item).some((k) => rest.some((p) => p.name === k)) ? item : undefined;
}
