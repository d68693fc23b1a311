import { isPlainObject } from "../patch/index.js";
import { knownValues } from "./conditions.js";
import { addError, type Context, humanNoun, notFoundError, use } from "./context.js";
import { holderOf } from "./creates.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { existsUndocumented, referenceChecks } from "./guards.js";
import { principalOf, signedInExpression, signedInRead } from "./principal.js";
import { identifier, singleArrayOutput } from "./reads.js";
import { describedPart, namedPart, type Reference } from "./resolve.js";
import {
  type CollectionShape,
  fitsStateType,
  type ListShape,
  mapsByName,
  type ValuesShape,
} from "./shape.js";
import { recordTarget, referenceTarget } from "./targets.js";
import {
  ASKING_VERBS,
  JOIN_VERBS,
  LEAVE_VERBS,
  LISTING_VERBS,
  listingVerbOf,
  nameWords,
  participle,
  SELF_MEMBERSHIP_VERBS,
  singular,
  VERBS,
} from "./words.js";

/**
 * Lists of plain values (a playlist, the people one follows, tags) and maps of plain values
 * (names to ids): what set-membership and key-value endpoints do to them. A list gains a
 * value it lacks (adding twice keeps one), loses a value, is read, or is asked whether it
 * holds one; a map is read by key, given a new key, or loses one. These follow the
 * membership endpoints of social and market APIs (GitHub's star/unstar, X's follow/unfollow,
 * a music service's playlist add/remove) and key-value stores (Redis HGET/HSET/HDEL, etcd).
 */

export type MemberIntent = "add" | "remove" | "read" | "contains";

export function memberIntent(ctx: Context): MemberIntent | undefined {
  const verb = listingVerbOf(ctx.facts.words, ctx.facts.verb);
  if (!verb) return undefined;
  if (ctx.facts.tool.annotations?.readOnlyHint === true)
    return ctx.facts.outputs.some((o) => o.type === "boolean") ? "contains" : "read";
  if (JOIN_VERBS.has(verb) || VERBS.create.includes(verb)) return "add";
  if (LEAVE_VERBS.has(verb)) return "remove";
  const listing = LISTING_VERBS[verb];
  if (listing) return listing;
  if (ASKING_VERBS.has(verb) && ctx.facts.outputs.some((o) => o.type === "boolean")) return "contains";
  if (VERBS.read.includes(verb)) return "read";
  return undefined;
}

/** The one scalar argument a membership change is about (`symbol`, `username_to_follow`). */
function valueParam(ctx: Context): Param | undefined {
  const scalars = ctx.facts.params.filter(
    (p) => p.type === "string" || p.type === "integer" || p.type === "number",
  );
  const required = scalars.filter((p) => p.required);
  return required.length === 1 ? required[0] : scalars.length === 1 ? scalars[0] : undefined;
}

export function listRule(ctx: Context, list: ListShape, intent: MemberIntent): Draft[] {
  const target = list.path.join("/");
  const output = listOutput(ctx, list);
  const answer: Draft[] = output ? [{ kind: "respond", output, value: { $expr: `[$list]` } }] : [];
  if (intent === "read") {
    const records = output ? recordsOfIds(ctx, list, output) : undefined;
    if (records) return records;
    ctx.notes.push(`reads the list ${target}`);
    return [
      readList(target),
      ...(output ? answer : [{ kind: "respond", output: list.name, value: { $expr: "[$list]" } }]),
    ];
  }
  const param = valueParam(ctx);
  const many = param ? undefined : valuesParam(ctx);
  if (many && (intent === "add" || intent === "remove")) {
    const drafts = listOfValuesRule(ctx, list, intent, many);
    if (drafts.length > 0) return drafts;
  }
  if (!param) {
    ctx.notes.push(
      `no one argument names the value to ${intent === "contains" ? "look for in" : intent === "add" ? "add to" : "remove from"} ${target}`,
    );
    return [];
  }
  const value = `$args.${identifier(param.name)}`;
  if (intent === "contains") {
    const yes = ctx.facts.outputs.find((o) => o.type === "boolean");
    ctx.notes.push(`answers whether ${target} holds ${param.name}`);
    return [
      readList(target),
      { kind: "respond", ...(yes ? { output: yes.name } : {}), value: { $expr: `${value} in $list` } },
    ];
  }
  const holder = holderOf(ctx.shape, list);
  const field = list.path.at(-1) as string;
  const holderTarget = holder ? holder.path.join("/") || "." : undefined;
  if (!holderTarget) return [];
  const current = `$subject.${identifier(field)}`;
  const changed =
    intent === "add"
      ? `${value} in ${current} ? ${current} : $append(${current} ? ${current} : [], ${value})`
      : `[${current}[$ != ${value}]]`;
  const lenient = intent === "remove" && repeatable(ctx);
  const guard =
    intent === "remove"
      ? lenient
        ? []
        : absentGuard(ctx, param, field, list)
      : presentGuard(ctx, param, field);
  // a value that names another collection's entity must name one that exists (a repository
  // to star, a status to unfavourite where taking out what is not there is no error)
  const checks =
    intent === "add" || lenient
      ? [...referenceChecks(ctx, undefined, []), ...namedExists(ctx, param, intent)]
      : [];
  const before: Draft[] = [{ kind: "read", target: holderTarget, as: "before" }];
  const counted = countOfMembers(ctx, param, intent, `$before.${identifier(field)}`);
  ctx.notes.push(
    intent === "add"
      ? `adds ${param.name} to ${target}, once`
      : `removes ${param.name} from ${target}${guard.length > 0 ? " (it must be there)" : ""}`,
  );
  const member = counted.length > 0 ? counted : memberRecord(ctx, param);
  const listed = `[$holder.${identifier(field)}]`;
  return [
    ...checks,
    ...(counted.length > 0 ? before : []),
    {
      kind: "update",
      target: holderTarget,
      require: guard,
      set: { [field]: { $expr: changed } },
      as: "holder",
    },
    ...(output
      ? [{ kind: "respond", output, value: { $expr: listed } } as Draft]
      : holderTarget === "." && member.length === 0
        ? // a list kept at the top answers itself, not the whole world that holds it
          [{ kind: "respond", output: field, value: { $expr: listed } } as Draft]
        : []),
    ...member,
    ...membershipFlags(ctx, list, value, `$holder.${identifier(field)}`, output),
    ...valueAnswered(ctx, param, intent),
    ...(intent === "add" ? placeAnswered(ctx, param, `$holder.${identifier(field)}`) : []),
  ];
}

/**
 * `position` of a value added to a queue: its 1-based place in the list after the change, as
 * Twilio's queue position, a print spooler's job position and Spotify's queue answer it.
 */
function placeAnswered(ctx: Context, param: Param, list: string): Draft[] {
  const output = ctx.facts.outputs.find(
    (o) =>
      /^(?:queue_)?(?:position|place|rank)$/.test(o.name) && (o.type === "integer" || o.type === "number"),
  );
  if (!output) return [];
  ctx.notes.push(`answers ${output.name} as the 1-based place of ${param.name} in the list after it`);
  const value = `$args.${identifier(param.name)}`;
  return [
    {
      kind: "respond",
      output: output.name,
      value: { $expr: `$map([${list}], function($v, $i) { $v = ${value} ? $i + 1 })[0]` },
    },
  ];
}

/**
 * `{removed: "ben", technicians: [...]}`: an output named for the change (`removed`, `added`,
 * `removed_tag`) answers the value added or taken out, as Mailchimp's tag updates, GitHub's
 * label removal and Slack's `conversations.kick` name what they changed.
 */
function valueAnswered(ctx: Context, param: Param, intent: MemberIntent): Draft[] {
  const verbs = intent === "add" ? /^(added|joined|inserted)$/ : /^(removed|deleted|dropped|left)$/;
  const output = ctx.facts.outputs.find((o) => {
    const [first, ...rest] = o.words;
    return (
      verbs.test(first ?? "") &&
      (rest.length === 0 || rest.join("_") === param.words.join("_")) &&
      (o.type === undefined || o.type === param.type)
    );
  });
  if (!output) return [];
  ctx.notes.push(`answers ${output.name} as the ${param.name} given`);
  return [{ kind: "respond", output: output.name, value: { $expr: `$args.${identifier(param.name)}` } }];
}

/**
 * A value added that is the key of a record kept elsewhere (a recipe's id added to the
 * favourites) must name one that exists: its not-found error, added where the API documents
 * none, as Spotify's `PUT /me/tracks` answers 404 for an unknown track and GitHub's star an
 * unknown repository.
 */
function namedExists(ctx: Context, param: Param, intent: MemberIntent): Draft[] {
  const reference = ctx.references.find((r) => r.param === param && !r.many && r.strength === "strong");
  return intent === "add" && reference ? existsUndocumented(ctx, reference.collection, param) : [];
}

/** The one array argument of plain values a membership change may take instead (`ids`, `user_ids`). */
function valuesParam(ctx: Context): Param | undefined {
  const arrays = ctx.facts.params.filter(
    (p) => p.type === "array" && (p.itemType === "string" || p.itemType === "integer"),
  );
  return arrays.length === 1 && ctx.facts.params.length === 1 ? arrays[0] : undefined;
}

/**
 * Several values added at once (`save_tracks(ids)`) join the list in the order given, each
 * once, and where the list's values are all keys of one collection, each must name a record of
 * it (its not-found error, before anything is added); taken out, every one of them leaves.
 * Spotify's `PUT`/`DELETE /me/tracks?ids=…` and `/me/following?ids=…`, GitHub's
 * `POST /repos/{o}/{r}/issues/{n}/labels` (`labels: [...]`), and Slack's
 * `conversations.invite` (`users=U1,U2`) take a list of values so.
 */
function listOfValuesRule(ctx: Context, list: ListShape, intent: "add" | "remove", param: Param): Draft[] {
  const holder = holderOf(ctx.shape, list);
  const holderTarget = holder ? holder.path.join("/") || "." : undefined;
  if (!holderTarget) return [];
  const field = list.path.at(-1) as string;
  const target = list.path.join("/");
  const values = `$args.${identifier(param.name)}`;
  const current = `($subject.${identifier(field)} ? $subject.${identifier(field)} : [])`;
  const changed =
    intent === "add"
      ? `$reduce(${values}, function($held, $v) { $v in $held ? $held : $append($held, $v) }, ${current})`
      : `[${current}[$not($ in ${values})]]`;
  const checks: Draft[] = [];
  const keysOf = intent === "add" ? collectionOfItems(ctx, list) : undefined;
  const missing = keysOf ? notFoundError(ctx, keysOf, param.name, { add: true }) : undefined;
  if (keysOf && missing) {
    checks.push({
      kind: "read",
      each: values,
      target: `${keysOf.path.join("/")}/{$item}`,
      missing,
    });
    ctx.notes.push(`checks every one of ${param.name} names one of ${keysOf.name} (${missing})`);
  }
  ctx.notes.push(
    intent === "add"
      ? `adds each of ${param.name} to ${target}, once`
      : `removes every one of ${param.name} from ${target}`,
  );
  const output = listOutput(ctx, list);
  return [
    ...checks,
    { kind: "update", target: holderTarget, set: { [field]: { $expr: changed } }, as: "holder" },
    ...(output ? [{ kind: "respond", output, value: { $expr: `[$holder.${identifier(field)}]` } }] : []),
  ];
}

/** The top-level collection every value of the list is a key of (saved track ids: `tracks`). */
function collectionOfItems(ctx: Context, list: ListShape): CollectionShape | undefined {
  const ids = list.items.map(String);
  if (ids.length === 0) return undefined;
  const named = [...ctx.shape.collections.values()].filter(
    (c) => !c.parent && c.path.length === 1 && ids.every((id) => c.keys.includes(id)),
  );
  return named.length === 1 ? named[0] : undefined;
}

/**
 * A boolean answer named for the list (`following`) or for the verb done (`favourited`,
 * `bookmarked`) says whether the value is in the list after the call: Mastodon's Relationship
 * and Status (`following`, `favourited`, `bookmarked`), X's `{"following": true}` and
 * `{"liked": true}`, Spotify's `/me/following/contains`.
 */
function membershipFlags(
  ctx: Context,
  list: ListShape,
  value: string,
  held: string,
  answered: string | undefined,
): Draft[] {
  const verb = ctx.facts.verb?.replace(/^un/, "");
  const names = new Set([nameWords(list.name).join("_"), ...(verb ? [participle(verb)] : [])]);
  return ctx.facts.outputs
    .filter((o) => o.type === "boolean" && o.name !== answered && names.has(nameWords(o.name).join("_")))
    .map((o) => ({ kind: "respond", output: o.name, value: { $expr: `${value} in ${held}` } }));
}

/**
 * A membership change whose answer has the fields of the record the value names answers that
 * record: Mastodon's favourite, bookmark and pin answer the status, GitHub's
 * `PUT /user/starred` is followed by the repository, Spotify's saved tracks are tracks.
 */
function memberRecord(ctx: Context, param: Param): Draft[] {
  const reference = ctx.references.find((r) => r.param === param && !r.many);
  if (!reference) return [];
  const outputs = ctx.facts.outputs.filter((o) => reference.collection.fields.has(o.name));
  const target = outputs.length > 0 ? referenceTarget(ctx, reference) : undefined;
  if (!target) return [];
  ctx.notes.push(`answers the ${singular(reference.collection.name)} ${param.name} names`);
  return [
    { kind: "read", target, as: "member" },
    ...outputs.map((o) => ({
      kind: "respond",
      output: o.name,
      value: { $expr: `$member.${identifier(o.name)}` },
    })),
  ];
}

/**
 * A documented "already" error (or one saying the value is among those held) refuses adding
 * a value the list holds, where adding twice would otherwise keep one silently; "already
 * holds 20" or "is full" speaks of how many, not of which.
 */
function presentGuard(ctx: Context, param: Param, field: string): Array<Record<string, unknown>> {
  const error = ctx.facts.errors.find(
    (e) =>
      e.kind !== "not-found" && /\balready\b|\bis (among|in|on)\b/.test(e.text) && !CAPACITY.test(e.text),
  );
  if (!error) return [];
  ctx.notes.push(`refuses ${param.name} already there (${use(ctx, error)})`);
  return [
    { expr: `$not($args.${identifier(param.name)} in $subject.${identifier(field)})`, error: error.code },
  ];
}

const CAPACITY = /\bfull\b|\b(?:holds|has|contains)\s+(?:\d+|[a-z_.]*(?:max|most|limit|capacity))/;

/**
 * The record a membership names keeps a count of its members, named for the verb
 * (`like_count`, `likes`, `stargazers_count` for star): it moves by one with the list, and
 * the record's fields answer, as liking or starring does on social and code-hosting APIs.
 */
function countOfMembers(ctx: Context, param: Param, intent: "add" | "remove", held: string): Draft[] {
  const reference = ctx.references.find((r) => r.param === param && !r.many);
  const verb = ctx.facts.verb?.replace(/^un/, "");
  if (!reference || !verb) return [];
  const stem = verb.replace(/e$/, "");
  const count = [...reference.collection.fields.values()].find(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("number") &&
      f.types.size === 1 &&
      nameWords(f.path).some((w) => w.startsWith(stem)),
  );
  const target = count ? referenceTarget(ctx, reference) : undefined;
  if (!count || !target) return [];
  ctx.notes.push(
    `${intent === "add" ? "raises" : "lowers"} ${reference.collection.name}.${count.path} by one`,
  );
  const binding = "counted";
  // the count moves only when the list does: adding what is there, or taking out what is not,
  // where that is allowed, leaves both as they were
  const value = `$args.${identifier(param.name)}`;
  const moved = intent === "add" ? `${value} in ${held} ? 0 : 1` : `${value} in ${held} ? -1 : 0`;
  return [
    { kind: "update", target, inc: { [count.path]: { $expr: moved } }, as: binding },
    ...ctx.facts.outputs
      .filter((o) => reference.collection.fields.has(o.name))
      .map((o) => ({
        kind: "respond",
        output: o.name,
        value: { $expr: `$${binding}.${identifier(o.name)}` },
      })),
  ];
}

/**
 * A description that says taking out what is not there changes nothing ("is left as it is",
 * "no-op"): the removal is idempotent, as Mastodon's unfavourite and unbookmark, GitHub's
 * `DELETE /user/starred/{owner}/{repo}` and Spotify's `DELETE /me/tracks` are.
 */
function repeatable(ctx: Context): boolean {
  return /\b(left as it is|changes nothing|does nothing|has no effect|no-op|idempotent)\b/i.test(
    ctx.facts.tool.description ?? "",
  );
}

/**
 * A read of a list of ids whose answer is a list of records answers the records those ids
 * name, in the list's order: GitHub's `GET /user/starred` answers repositories, Spotify's
 * `GET /me/tracks` saved tracks, Mastodon's `GET /api/v1/bookmarks` statuses.
 */
function recordsOfIds(ctx: Context, list: ListShape, output: string): Draft[] | undefined {
  const fact = ctx.facts.outputs.find((o) => o.name === output);
  if (fact?.itemType !== "object") return undefined;
  const ids = list.items.map(String);
  if (ids.length === 0) return undefined;
  const named = [...ctx.shape.collections.values()].filter(
    (c) => !c.parent && ids.every((id) => c.keys.includes(id)),
  );
  const collection = named.length === 1 ? named[0] : undefined;
  if (!collection) return undefined;
  const target = list.path.join("/");
  const properties = Object.keys(fact.itemProperties ?? {});
  // a ranking or a queue of keys (`standings: ["ida", "jon"]`) answers each record with its key and its place
  const place = properties.find((p) => /^(rank|position|place|order|slot|index)$/.test(p));
  const key =
    collection.keyField ??
    properties.find(
      (p) => p !== place && !collection.fields.has(p) && /(id|key|name|handle|code|symbol)$/.test(p),
    );
  if (!key) return undefined;
  ctx.notes.push(
    `answers the ${collection.name} the ids of the list ${target} name${place ? `, with each one's ${place}` : ""}`,
  );
  const record = collection.keyField
    ? `$records[$string(${identifier(key)}) = $string($k)]`
    : `$merge([{${JSON.stringify(key)}: $k}, $lookup($records, $string($k))])`;
  const placed = place ? `$merge([{${JSON.stringify(place)}: $i + 1}, ${record}])` : record;
  // items the schema spells out carry what it spells out, not every field the record keeps
  const shown =
    properties.length > 0
      ? `$sift(${placed}, function($v, $n) { $n in ${JSON.stringify(properties)} })`
      : placed;
  return [
    readList(target),
    collection.keyField
      ? { kind: "list", target: collection.path.join("/"), as: "records" }
      : { kind: "read", target: collection.path.join("/"), as: "records" },
    {
      kind: "respond",
      output,
      value: { $expr: `[$map($list, function($k, $i) { ${shown} })]` },
    },
  ];
}

function readList(target: string): Draft {
  return { kind: "read", target, as: "list" };
}

/** A documented error for taking out what is not there makes removing an absent value an error. */
function absentGuard(
  ctx: Context,
  param: Param,
  field: string,
  list: ListShape,
): Array<Record<string, unknown>> {
  const absent = (e: { text: string }) =>
    /not (in|on|among)\b|not (found|present)|isn't (in|on|among)\b/.test(e.text);
  const error = ctx.facts.errors.find(absent) ?? ctx.facts.errors.find((e) => e.kind === "not-found");
  // taking out what is not there is refused, in the catalog's words where it has them
  const code = error
    ? use(ctx, error)
    : addError(ctx, {
        code: `${nameWords(singular(param.name)).join("_").toUpperCase()}_NOT_IN_${nameWords(list.name).join("_").toUpperCase()}`,
        status: 404,
        message: `{${param.name}} is not in ${humanNoun(list.name)}.`,
        when: `The ${humanNoun(param.name)} is not in ${humanNoun(list.name)} (inferred).`,
      });
  return [{ expr: `$args.${identifier(param.name)} in $subject.${identifier(field)}`, error: code }];
}

/** The output property a list goes to: one named for it, else the only array output. */
function listOutput(ctx: Context, list: ListShape): string | undefined {
  const key = nameWords(list.name).join("");
  const named = ctx.facts.outputs.find((o) => o.type === "array" && nameWords(o.name).join("") === key);
  return (named ?? singleArrayOutput(ctx.facts.outputs))?.name;
}

// ── maps of values ────────────────────────────────────────────────────────────

export type ValuesIntent = "get" | "put" | "remove" | "list" | "lookup";

export function valuesIntent(ctx: Context, values: ValuesShape): ValuesIntent | undefined {
  const verb = ctx.facts.verb;
  if (!verb) return undefined;
  if (LEAVE_VERBS.has(verb) || VERBS.delete.includes(verb)) return "remove";
  if (JOIN_VERBS.has(verb) || VERBS.create.includes(verb) || VERBS.update.includes(verb)) return "put";
  if (!VERBS.read.includes(verb) && ctx.facts.tool.annotations?.readOnlyHint !== true) return undefined;
  if (ctx.facts.params.filter((p) => p.required).length === 0) return "list";
  return keyParam(ctx, values) ? "get" : valueReference(ctx, values) ? "lookup" : "get";
}

/**
 * Lists kept beside a collection by its records' keys (a post's `comments` under the post's
 * id): a record with none has an empty list, not a missing one; only a key that names no
 * record is not found, as `GET /posts/{id}/comments` answers `[]` for a post without comments
 * and 404 for no post (JSON Server, GitHub's issue comments, Firebase lists).
 */
function besideRecords(ctx: Context, values: ValuesShape, key: Param): Draft[] | undefined {
  const reference = ctx.references.find((r) => r.param === key && !r.many);
  if (!reference || values.valueType !== "array" || values.path.includes("*")) return undefined;
  const keys = new Set(reference.collection.keys);
  if (values.keys.length === 0 || !values.keys.every((k) => keys.has(k))) return undefined;
  const target = referenceTarget(ctx, reference);
  if (!target) return undefined;
  const missing = notFoundError(ctx, reference.collection, key.name, { add: true });
  const output = ctx.facts.outputs.length === 1 ? ctx.facts.outputs[0]?.name : undefined;
  const lists = values.path.join("/");
  ctx.notes.push(
    `reads the ${values.name} kept under the ${singular(reference.collection.name)} ${key.name} names; none is an empty list`,
  );
  return [
    { kind: "read", target, ...(missing ? { missing } : {}) },
    { kind: "read", target: lists, as: "lists" },
    {
      kind: "respond",
      output: output ?? values.name,
      value: { $expr: `[$lookup($lists, $string($args.${identifier(key.name)}))]` },
    },
  ];
}

/** The argument that is a key of the map (`user` of `names → ids`): required, a string, not a value of it. */
function keyParam(ctx: Context, values: ValuesShape): Param | undefined {
  const required = ctx.facts.params.filter(
    (p) => p.required && (p.type === "string" || p.type === "integer"),
  );
  const notValues = required.filter((p) => !valueReferenceParam(p, values));
  // `set(key, value)`: the argument named the key is it
  return notValues.length === 1 ? notValues[0] : notValues.find((p) => p.name === "key");
}

/** An argument whose values are the map's values (a `user_id` where the map holds ids). */
export function valueReference(ctx: Context, values: ValuesShape): Param | undefined {
  return ctx.facts.params.find((p) => valueReferenceParam(p, values));
}

function valueReferenceParam(param: Param, values: ValuesShape): boolean {
  if (!param.identifier) return false;
  const noun = nameWords(param.name).slice(0, -1).map(singular).join("_");
  const mapNoun = nameWords(values.name).map(singular)[0] ?? "";
  return noun === mapNoun && values.valueType === "string";
}

export function valuesRule(ctx: Context, values: ValuesShape, intent: ValuesIntent): Draft[] {
  const target = values.path.join("/");
  const noun = humanNoun(values.name.replace(/_(map|dict|index|table|ids)$/, ""));
  switch (intent) {
    case "list": {
      const output = singleArrayOutput(ctx.facts.outputs);
      ctx.notes.push(`lists the keys of ${target}`);
      return [
        { kind: "read", target, as: "map" },
        { kind: "respond", ...(output ? { output: output.name } : {}), value: { $expr: "[$keys($map)]" } },
      ];
    }
    case "get": {
      const key = keyParam(ctx, values);
      if (!key) return [];
      const beside = besideRecords(ctx, values, key);
      if (beside) return beside;
      const missing = notFoundFor(ctx, noun, key);
      const output = ctx.facts.outputs.length === 1 ? ctx.facts.outputs[0]?.name : undefined;
      ctx.notes.push(`reads ${target} at ${key.name} (${missing})`);
      return [
        { kind: "read", target: `${target}/{${key.name}}`, missing, as: "value", output: output ?? "value" },
      ];
    }
    case "lookup": {
      const param = valueReference(ctx, values) as Param;
      const missing = notFoundFor(ctx, noun, param);
      const output = ctx.facts.outputs.length === 1 ? ctx.facts.outputs[0]?.name : undefined;
      ctx.notes.push(`finds the key of ${target} holding ${param.name} (${missing})`);
      const found = `$keys($map)[$lookup($map, $) = $args.${identifier(param.name)}][0]`;
      return [
        { kind: "read", target, as: "map" },
        {
          kind: "check",
          require: [
            { expr: `$args.${identifier(param.name)} in $each($map, function($v) { $v })`, error: missing },
          ],
        },
        { kind: "respond", ...(output ? { output } : {}), value: { $expr: found } },
      ];
    }
    case "remove": {
      const key = keyParam(ctx, values);
      if (!key) return [];
      const missing = notFoundFor(ctx, noun, key);
      ctx.notes.push(`removes ${key.name} from ${target} (${missing})`);
      return [{ kind: "delete", target: `${target}/{${key.name}}`, missing }];
    }
    case "put":
      return putValue(ctx, values, target, noun);
  }
}

/**
 * A map whose values are lists (`playlists: {"morning-mix": ["Sunrise", …]}`), a key argument
 * and an item argument: adding appends the item to the key's list, once, and removing takes it
 * out, the others keeping their order; an unknown key is not found. The answer's list field is
 * the list after the change. Lists kept per name are how Redis keeps `RPUSH`/`LREM` lists,
 * Spotify playlists their tracks and Mastodon lists their accounts.
 */
export function keyedListRule(ctx: Context, values: ValuesShape, intent: "put" | "remove"): Draft[] {
  if (values.valueType !== "array" || values.path.includes("*")) return [];
  const key = keyParam(ctx, values) ?? ctx.facts.params.find((p) => p.required && p.type === "string");
  const item = ctx.facts.params.find(
    (p) => p !== key && p.required && (p.type === "string" || p.type === "integer" || p.type === "number"),
  );
  if (!key || !item) return [];
  const target = values.path.join("/");
  const field = values.path.at(-1) as string;
  const at = `$lookup($subject.${identifier(field)}, $args.${identifier(key.name)})`;
  const value = `$args.${identifier(item.name)}`;
  const missing = notFoundFor(ctx, humanNoun(values.name), key);
  const words = nameWords(item.name).join(" ");
  const refusal = ctx.facts.errors.find(
    (e) =>
      e.kind !== "not-found" &&
      (intent === "put"
        ? /\b(already|exists|duplicate)\b/.test(e.text)
        : /\bnot\s+(?:in|on|found|listed|present)\b/.test(e.text) || nameWords(e.code).includes("not")) &&
      (e.text.includes(words) || nameWords(e.code).includes(nameWords(item.name)[0] ?? "")),
  );
  const held = `${value} in ${at}`;
  const guard = refusal
    ? [{ expr: intent === "put" ? `$not(${held})` : held, error: use(ctx, refusal) }]
    : [];
  const changed = intent === "put" ? `$append(${at}, ${value})` : `[${at}[$ != ${value}]]`;
  const list = singleArrayOutput(ctx.facts.outputs);
  ctx.notes.push(
    `${intent === "put" ? "appends" : "removes"} ${item.name} ${intent === "put" ? "to" : "from"} the list of ${target} under ${key.name}${refusal ? ` (${refusal.code})` : ""}`,
  );
  return [
    { kind: "read", target: `${target}/{${key.name}}`, missing },
    {
      kind: "update",
      target: parentOf(target),
      require: guard,
      set: {
        [field]: {
          $expr: `$merge([$subject.${identifier(field)}, {$args.${identifier(key.name)}: ${changed}}])`,
        },
      },
    },
    { kind: "read", target: `${target}/{${key.name}}`, as: "list_after" },
    ...(list ? [{ kind: "respond", output: list.name, value: { $expr: "[$list_after]" } }] : []),
  ];
}

/**
 * A new key: given a value argument, it maps to it; given only the key, the value is a new
 * id in the format the map's values have, from the counter beside the map when there is one.
 */
function putValue(ctx: Context, values: ValuesShape, target: string, noun: string): Draft[] {
  const key = keyParam(ctx, values);
  if (!key) return [];
  const value = ctx.facts.params.find((p) => p !== key && fitsStateType(p.type, values.valueType));
  if (value && changesValue(ctx)) {
    // `set_seat`, `update_seat`: a key already there gets the new value (as Redis HSET does)
    ctx.notes.push(`sets ${key.name} to ${value.name} in ${target}`);
    return putPlain(target, key, value);
  }
  const taken = ctx.facts.errors.find((e) => /already|exists|taken|duplicate/.test(e.text));
  const exists =
    taken?.code ??
    addError(ctx, {
      code: `${nameWords(noun).join("_").toUpperCase()}_ALREADY_EXISTS`,
      status: 409,
      message: `${noun.charAt(0).toUpperCase()}${noun.slice(1)} {${key.name}} already exists.`,
      when: `The ${noun} is already in ${values.name} (inferred).`,
    });
  if (taken) use(ctx, taken);
  const guard = {
    expr: `$not($exists($lookup($entity(${target
      .split("/")
      .map((s) => JSON.stringify(s))
      .join(", ")}), $args.${identifier(key.name)})))`,
    error: exists,
  };
  if (value) {
    ctx.notes.push(`maps ${key.name} to ${value.name} in ${target}`);
    return [{ kind: "check", require: [guard] }, ...putPlain(target, key, value)];
  }
  const minted = mintedValue(ctx, values);
  if (!minted) return [];
  ctx.notes.push(`gives ${key.name} a new id in ${target} (${minted.note})`);
  const id = ctx.facts.outputs.find((o) => /id$/.test(o.name) || o.name === "id");
  return [
    { kind: "check", require: [guard] },
    ...minted.drafts,
    {
      kind: "update",
      target: parentOf(target),
      set: {
        [values.name]: {
          $expr: `$merge([$subject.${identifier(values.name)}, {$args.${identifier(key.name)}: $new_value}])`,
        },
      },
    },
    ...(id ? [{ kind: "respond", output: id.name, value: { $expr: "$new_value" } }] : []),
  ];
}

/** An update verb (set, change) that is no membership verb: it changes a key's value, and may add the key. */
function changesValue(ctx: Context): boolean {
  const verb = ctx.facts.verb ?? "";
  return VERBS.update.includes(verb) && !JOIN_VERBS.has(verb) && !VERBS.create.includes(verb);
}

function putPlain(target: string, key: Param, value: Param): Draft[] {
  const field = target.split("/").at(-1) as string;
  return [
    {
      kind: "update",
      target: parentOf(target),
      set: {
        [field]: {
          $expr: `$merge([$subject.${identifier(field)}, {$args.${identifier(key.name)}: $args.${identifier(value.name)}}])`,
        },
      },
    },
  ];
}

/**
 * The next id for a map whose values are ids (`MEM-07` → `MEM-08`): prefix and width from the
 * values, the number from the counter beside the map (raised first when it holds the last),
 * else one more than the largest value.
 */
function mintedValue(ctx: Context, values: ValuesShape): { drafts: Draft[]; note: string } | undefined {
  const strings = values.values.filter((v): v is string => typeof v === "string");
  const parsed = strings
    .map((v) => /^(.*?)([0-9]+)$/.exec(v))
    .filter((m): m is RegExpExecArray => m !== null);
  const prefix = dominantPrefix(parsed);
  if (prefix === undefined) return undefined;
  const scheme = parsed.filter((m) => m[1] === prefix);
  const holder = holderOf(ctx.shape, values);
  const counter = holder ? counterFor(holder.fields, values) : undefined;
  // with a counter to count from, a few values in another scheme (entries brought in from
  // elsewhere) do not hide the map's own; without one, the next number is read from every value
  const covers = counter ? scheme.length * 4 >= strings.length * 3 : scheme.length === strings.length;
  if (scheme.length === 0 || !covers) return undefined;
  const width = commonWidth(scheme.map((m) => m[2] as string));
  const highest = `$max([$each($entity(${values.path.map((s) => JSON.stringify(s)).join(", ")}), function($v) { $number($substring($v, ${prefix.length})) })])`;
  // a world that starts without the map or its count still mints the first id of the scheme
  const afterHighest = `($highest := ${highest}; $exists($highest) ? $highest + 1 : 1)`;
  const next = counter
    ? `($count := $entity(${[...(holder?.path ?? []), counter].map((s) => JSON.stringify(s)).join(", ")}); $exists($count) ? $count + 1 : ${afterHighest})`
    : afterHighest;
  const drafts: Draft[] = [
    {
      kind: "let",
      as: "new_value",
      value: { $expr: `${JSON.stringify(prefix)} & $pad($string(${next}), -${width}, "0")` },
    },
  ];
  if (counter && holder)
    drafts.push({ kind: "update", target: holder.path.join("/") || ".", inc: { [counter]: 1 } });
  return { drafts, note: counter ? `from ${counter}` : "the next after the largest" };
}

/**
 * The width most of the numbers are written in (`007` of `MEM-007`): a few longer ones (ids
 * brought in from elsewhere, or past the padding) do not widen every new id.
 */
function commonWidth(numbers: readonly string[]): number {
  const counts = new Map<number, number>();
  for (const n of numbers) counts.set(n.length, (counts.get(n.length) ?? 0) + 1);
  let best: [number, number] = [1, 0];
  for (const entry of counts)
    if (entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
  return best[0];
}

/** The prefix most of the values' numbers come after (`MEM-` of `MEM-07`). */
function dominantPrefix(parsed: readonly RegExpExecArray[]): string | undefined {
  const counts = new Map<string, number>();
  for (const m of parsed) counts.set(m[1] as string, (counts.get(m[1] as string) ?? 0) + 1);
  let best: [string, number] | undefined;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return best?.[0];
}

/** A count beside a map named after what it maps (`member_count` beside `member_index`). */
function counterFor(
  fields: ReadonlyMap<string, { path: string; types: Set<string> }>,
  values: ValuesShape,
): string | undefined {
  const noun = nameWords(values.name).map(singular)[0] ?? "";
  for (const field of fields.values()) {
    const words = nameWords(field.path).map(singular);
    if (
      field.types.has("number") &&
      words.includes(noun) &&
      words.some((w) => ["count", "counter", "seq"].includes(w))
    )
      return field.path;
  }
  return undefined;
}

function parentOf(target: string): string {
  const segments = target.split("/");
  return segments.length > 1 ? segments.slice(0, -1).join("/") : ".";
}

/**
 * An id argument that names someone the world keeps in a map of names to ids must be one of
 * the map's ids: a `member_id`, or a role whose docs say whose id it is (`assignee_id`, "the
 * member id of the assignee"), as sending to or signing in an unknown user answers 404 in
 * Slack's `chat.postMessage` (`user_not_found`), Discord's DM channel and GitHub's invitations.
 * A session whose world keeps no such map cannot say who is unknown.
 */
function knownValueCheck(ctx: Context, param: Param): Draft[] {
  const map = mapOfIds(ctx, param);
  if (!map) return [];
  const noun = humanNoun(mapNoun(map));
  const error = notFoundFor(ctx, noun, param);
  ctx.notes.push(`checks ${param.name} is a known ${noun} (${error})`);
  const path = map.path.map((s) => JSON.stringify(s)).join(", ");
  return [
    {
      kind: "check",
      require: [
        {
          expr: `$not($exists($entity(${path}))) or $args.${identifier(param.name)} in $each($entity(${path}), function($v) { $v })`,
          error,
        },
      ],
    },
  ];
}

/**
 * Checks of the id arguments of a change against the maps of ids they name, for every
 * argument the change's own rule neither references nor files into the map.
 */
export function knownValueChecks(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const changes = drafts.filter((d) => d.kind === "create" || d.kind === "update" || d.kind === "delete");
  if (changes.length === 0) return [];
  return ctx.facts.params.flatMap((param) => {
    if (ctx.references.some((r) => r.param === param)) return [];
    const map = mapOfIds(ctx, param);
    if (!map) return [...listedValueCheck(ctx, param, changes), ...keyOfCheck(ctx, param)];
    if (changes.some((d) => changesMap(d, map))) return [];
    return knownValueCheck(ctx, param);
  });
}

/**
 * A text argument of a change whose name names a list of the state's own (`firmware` and
 * `firmware_releases`, `region` and `regions`) must be one of the list's values: the
 * documented error that speaks of it, else an added `UNKNOWN_<ARGUMENT>`, 400. AWS IoT OTA
 * updates install a firmware from the released ones, Docker pulls only a tag that was pushed,
 * and Stripe takes only a currency it supports.
 */
function listedValueCheck(ctx: Context, param: Param, changes: readonly Draft[]): Draft[] {
  if (param.type !== "string" || param.schema.enum !== undefined) return [];
  const own = param.words.map(singular).join("_");
  const lists = ctx.shape.parts.filter(
    (p): p is ListShape =>
      p.kind === "list" &&
      p.itemType === "string" &&
      !p.path.includes("*") &&
      p.items.length > 0 &&
      (singular(p.name) === own ||
        nameWords(p.name).map(singular).join("_").startsWith(`${own}_`) ||
        // `zone` of `mower_garden_zones`: the list's head noun, where the docs speak of its
        // words or name the list itself
        (singular(nameWords(p.name).at(-1) ?? "") === own &&
          (ctx.facts.text.includes(p.name) ||
            nameWords(p.name)
              .slice(0, -1)
              .some((w) => new RegExp(`\\b${w}\\b`, "i").test(ctx.facts.text))))),
  );
  // a list of what is refused (`banned_tracks`, `blocked_users`) refuses its members instead
  const allowing = lists.filter((l) => !REFUSED_LIST.test(l.name));
  const refusing = lists.filter((l) => REFUSED_LIST.test(l.name));
  return [
    ...(allowing.length === 1 ? listCheck(ctx, param, changes, allowing[0] as ListShape, true) : []),
    ...(refusing.length === 1 ? listCheck(ctx, param, changes, refusing[0] as ListShape, false) : []),
  ];
}

/**
 * "TRACK_UNKNOWN (not a key of track_lengths)": an argument an error says must be a key of a
 * map or collection of the state is checked against its keys, as an API refuses a reference
 * to what it does not keep (Stripe's `resource_missing` for an unknown price, Spotify's 404
 * for an unknown track id, a package registry's unknown dependency).
 */
function keyOfCheck(ctx: Context, param: Param): Draft[] {
  if (param.type !== "string" && param.type !== "integer") return [];
  const words = nameWords(param.name);
  for (const error of ctx.facts.errors) {
    if (ctx.usedErrors.has(error.code)) continue;
    const text = error.text.replace(/[`*]/g, "");
    const said =
      /\bnot\s+(?:a\s+key\s+(?:of|in)|among\s+the\s+keys\s+of|one\s+of\s+the\s+keys\s+of)\s+(?:the\s+)?([a-z][a-z0-9_]*)/.exec(
        text,
      );
    // …or the argument's own description names the map it is a key of ("Bottle code with a price in
    // cellar_prices")
    const part = said?.[1]
      ? ctx.shape.parts.find((p) => p.name === said[1] && !p.path.includes("*"))
      : describedPart(param, ctx.shape);
    if (!part || (part.kind !== "values" && part.kind !== "collection")) continue;
    const speaks = words.some((w) => nameWords(error.code).includes(w)) || text.includes(words.join(" "));
    if (!speaks) continue;
    const at = part.path.map((seg) => JSON.stringify(seg)).join(", ");
    const arg = `$args.${identifier(param.name)}`;
    ctx.notes.push(`checks ${param.name} is a key of ${part.path.join("/")} (${error.code})`);
    return [
      {
        kind: "check",
        require: [
          {
            expr: `${param.required ? "" : `$not($exists(${arg})) or `}$string(${arg}) in $keys($entity(${at}))`,
            error: use(ctx, error),
          },
        ],
      },
    ];
  }
  return [];
}

/** Words that name a list of what is refused: a blocklist, as GitHub's blocked users and Spotify's hidden artists. */
const REFUSED_LIST =
  /(^|_)(banned|blocked|blocklist|blacklist|blacklisted|denied|denylist|deny|excluded|forbidden|disallowed|suspended|muted)(_|$)/;

function listCheck(
  ctx: Context,
  param: Param,
  changes: readonly Draft[],
  list: ListShape,
  allowed: boolean,
): Draft[] {
  const path = list.path.join("/");
  // the list the change itself adds to or takes from is no list of allowed values
  const touches = (d: Draft) =>
    String(d.target ?? "").startsWith(path) ||
    [d.set, d.inc, d.append].some((v) => isPlainObject(v) && Object.hasOwn(v, list.name));
  if (changes.some(touches)) return [];
  const words = nameWords(param.name).join(" ");
  // an allowed value's error may be shared; a refused one's must be its own
  const open = ctx.facts.errors.filter((e) => allowed || !ctx.usedErrors.has(e.code));
  const unused = open.filter((e) => e.kind !== "not-found");
  // the error that names the list itself speaks of it ("TECHNICIAN_NOT_FOUND (name not in
  // repair_technicians)"), before one that only names the argument
  const documented =
    open.find((e) => e.text.includes(list.name)) ??
    (allowed
      ? unused.find((e) => e.text.includes(words))
      : unused.find((e) => REFUSED_LIST.test(nameWords(e.code).join("_"))));
  if (!allowed && !documented) return [];
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `UNKNOWN_${nameWords(param.name).join("_").toUpperCase()}`,
        status: 400,
        message: `That ${words} is not one of the ${nameWords(list.name).join(" ")}.`,
        when: `The ${param.name} given is not among the state's ${list.name}.`,
      });
  ctx.notes.push(`checks ${param.name} is ${allowed ? "one" : "none"} of ${path} (${error})`);
  const at = list.path.map((s) => JSON.stringify(s)).join(", ");
  const held = `$args.${identifier(param.name)} in $entity(${at})`;
  return [
    {
      kind: "check",
      require: [
        {
          expr: `${param.required ? "" : `$not($exists($args.${identifier(param.name)})) or `}${allowed ? held : `$not(${held})`}`,
          error,
        },
      ],
    },
  ];
}

/** Whom a map of names to ids keeps: the first word of its name (`member_index`, `member_ids`). */
function mapNoun(map: ValuesShape): string {
  return nameWords(map.name).map(singular)[0] ?? "";
}

/** The change files into the map itself (a new contact's id), or into its record's field of it. */
function changesMap(draft: Draft, map: ValuesShape): boolean {
  const path = map.path.join("/");
  const target = String(draft.target ?? "");
  if (target === path || target.startsWith(`${path}/`)) return true;
  const fields = [draft.set, draft.inc, draft.append].flatMap((v) =>
    isPlainObject(v) ? Object.keys(v) : [],
  );
  return target === parentOf(path) && fields.includes(map.name);
}

/** The one map of names to ids that an id argument names, by its own noun or by its description. */
function mapOfIds(ctx: Context, param: Param): ValuesShape | undefined {
  if (!param.identifier || param.type !== "string") return undefined;
  const noun = nameWords(param.name).slice(0, -1).map(singular).join("_");
  const maps = ctx.shape.parts.filter(
    (p): p is ValuesShape => p.kind === "values" && p.valueType === "string",
  );
  const byName = maps.filter((map) => mapNoun(map) === noun);
  if (byName.length > 0) return byName.length === 1 ? byName[0] : undefined;
  const text = param.description.toLowerCase();
  const described = maps.filter((map) => new RegExp(`\\b${mapNoun(map)}[ _-]?id\\b`).test(text));
  return described.length === 1 ? described[0] : undefined;
}

function notFoundFor(ctx: Context, mapNoun: string, param: Param): string {
  const documented = ctx.facts.errors.find((e) => e.kind === "not-found");
  if (documented) return use(ctx, documented);
  // what is missing is the key, not the store it is looked up in
  const noun = param.name === "key" ? "key" : mapNoun;
  return addError(ctx, {
    code: `${nameWords(noun).join("_").toUpperCase()}_NOT_FOUND`,
    status: 404,
    message: `${noun.charAt(0).toUpperCase()}${noun.slice(1)} {${param.name}} not found.`,
    when:
      noun === "key"
        ? `The ${mapNoun} holds no such key (inferred from the state).`
        : `No ${noun} has the given ${param.name} (inferred from the state).`,
  });
}

// ── the values a record keeps in a list ──────────────────────────────────────

const POSITION_WORDS = /^(position|index|at|offset)$/;

/**
 * Values given as a list (`track_ids`) join or leave the record's list named for them (a
 * playlist's `tracks`), the record named by another argument (`playlist_id`, its not-found
 * error where it does not exist); where the list's values are keys of a collection, each given
 * must name one. A list the tool places by a position argument is a sequence, which takes a
 * value twice and inserts at that position (at the end without one); any other takes each value
 * once. Removing takes out every occurrence. Spotify's `POST`/`DELETE
 * /playlists/{id}/tracks` (`uris`, `position`), GitHub's `POST`/`DELETE
 * /repos/{o}/{r}/issues/{n}/labels`, and Google Tasks' and YouTube's playlist items
 * (`position`) work so.
 */
export function recordListValuesRule(ctx: Context): Draft[] | undefined {
  const verb = ctx.facts.verb;
  const intent =
    verb && (JOIN_VERBS.has(verb) || ["insert", "append", "put"].includes(verb))
      ? "add"
      : verb && (LEAVE_VERBS.has(verb) || ["delete"].includes(verb))
        ? "remove"
        : undefined;
  if (!intent) return undefined;
  for (const param of ctx.facts.params) {
    if (param.type !== "array" || (param.itemType !== "string" && param.itemType !== "integer")) continue;
    const noun = nameWords(param.name).filter((w) => !/^(id|ids|key|keys|uri|uris)$/.test(w));
    if (noun.length === 0) continue;
    const wanted = singular(noun.join("_"));
    for (const reference of ctx.references) {
      if (reference.many || reference.param === param || reference.strength !== "strong") continue;
      const field = [...reference.collection.fields.values()].find(
        (f) =>
          !f.path.includes(".") &&
          f.types.has("array") &&
          f.itemFields === undefined &&
          singular(nameWords(f.path).join("_")) === wanted,
      );
      const target = field ? recordTarget(ctx, reference.collection, `{${reference.param.name}}`) : undefined;
      if (!field || !target) continue;
      return valuesOfRecord(ctx, {
        param,
        field: field.path,
        refersTo: field.refersTo,
        target,
        reference,
        intent,
      });
    }
  }
  return undefined;
}

function valuesOfRecord(
  ctx: Context,
  at: {
    param: Param;
    field: string;
    refersTo: string | undefined;
    target: string;
    reference: { collection: CollectionShape; param: Param };
    intent: "add" | "remove";
  },
): Draft[] {
  const { param, field, target, reference, intent } = at;
  const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
  const values = `$args.${identifier(param.name)}`;
  const current = `($subject.${identifier(field)} ? $subject.${identifier(field)} : [])`;
  const position = ctx.facts.params.find(
    (p) => p !== param && p.type === "integer" && nameWords(p.name).some((w) => POSITION_WORDS.test(w)),
  );
  const at_ = position ? `$args.${identifier(position.name)}` : undefined;
  const changed =
    intent === "remove"
      ? `[${current}[$not($ in ${values})]]`
      : at_
        ? `($c := ${current}; $p := $exists(${at_}) ? ${at_} : $count($c); $append($append([$filter($c, function($v, $i) { $i < $p })], ${values}), [$filter($c, function($v, $i) { $i >= $p })]))`
        : `$reduce(${values}, function($held, $v) { $v in $held ? $held : $append($held, $v) }, ${current})`;
  const checks: Draft[] = [];
  const items = at.refersTo ? ctx.shape.collections.get(at.refersTo) : undefined;
  const itemMissing =
    intent === "add" && items ? notFoundError(ctx, items, param.name, { add: true }) : undefined;
  if (items && itemMissing) {
    checks.push({ kind: "read", target, ...(missing ? { missing } : {}) });
    checks.push({
      kind: "read",
      each: values,
      target: `${items.path.join("/")}/{$item}`,
      missing: itemMissing,
    });
    ctx.notes.push(`checks every one of ${param.name} names one of ${items.name} (${itemMissing})`);
  }
  ctx.notes.push(
    intent === "add"
      ? `adds ${param.name} to the ${field} of the ${humanNoun(reference.collection.name)} ${reference.param.name} names${at_ ? `, at ${position?.name} (else at the end), repeats kept` : ", each once"}`
      : `removes every ${param.name} from the ${field} of the ${humanNoun(reference.collection.name)} ${reference.param.name} names`,
  );
  return [
    ...checks,
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      set: { [field]: { $expr: changed } },
      as: "holder",
    },
    ...ctx.facts.outputs
      .filter((o) => reference.collection.fields.has(o.name))
      .map((o) => ({ kind: "respond", output: o.name, value: { $expr: `$holder.${identifier(o.name)}` } })),
  ];
}

/**
 * Joining or leaving a record that lists its members by key (`members: ["U1", "U3"]` of a
 * channel), where no argument names who: the signed-in account joins (once) or leaves it, as
 * Slack's `conversations.join`/`leave`, Matrix's `/rooms/{id}/join` and Discord's
 * `/guilds/{id}/members/@me` act for the caller.
 */
export function joinAsSignedIn(ctx: Context, subject: Reference): Draft[] | undefined {
  const verb = ctx.facts.verb;
  if (!verb || !SELF_MEMBERSHIP_VERBS.has(verb)) return undefined;
  // another argument naming someone would say who joins
  if (ctx.references.some((r) => r !== subject)) return undefined;
  const lists = [...subject.collection.fields.values()].flatMap((field) => {
    if (field.path.includes(".") || !field.types.has("array") || !field.refersTo) return [];
    const members = ctx.shape.collections.get(field.refersTo);
    const principal = members ? principalOf(ctx.shape, members) : undefined;
    return principal ? [{ field, principal }] : [];
  });
  if (lists.length !== 1) return undefined;
  const { field, principal } = lists[0] as (typeof lists)[number];
  const target = referenceTarget(ctx, subject);
  if (!target) return undefined;
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  const who = signedInExpression(principal);
  const list = `$record.${identifier(field.path)}`;
  const joining = JOIN_VERBS.has(verb);
  const value = joining
    ? `${who} in ${list} ? ${list} : $append(${list} ? ${list} : [], [${who}])`
    : `[${list}[$ != ${who}]]`;
  ctx.notes.push(
    `${joining ? "adds" : "removes"} the signed-in ${singular(principal.collection.name)} ${joining ? "to" : "from"} the ${field.path} of the ${singular(subject.collection.name)} ${subject.param.name} names`,
  );
  return [
    signedInRead(principal),
    { kind: "read", target, as: "record", ...(missing ? { missing } : {}) },
    { kind: "update", target, set: { [field.path]: { $expr: value } } },
  ];
}

/**
 * A change whose description says a part of the state is emptied by it ("the cart is emptied",
 * "clears the basket") empties that part after what it does: Shopify's checkout completes and
 * the cart is gone, Square's orders are paid from a cleared cart, and a mail client's "empty
 * the trash on sending" empties it.
 */
export function statedEmptied(ctx: Context, drafts: readonly Draft[]): readonly Draft[] {
  const emptied = emptiedPart(ctx, drafts);
  if (!emptied) return drafts;
  const { target, field, empty, record } = emptied;
  const clear: Draft = { kind: "update", target, set: { [field]: empty } };
  // what a record's list held goes into the record made from it ("an order with everything in
  // the cart"), where the new record keeps a list of that name
  const create = record ? drafts.find((d) => d.kind === "create") : undefined;
  const set = create?.set as Record<string, unknown> | undefined;
  if (!create || !set || !(field in set)) return [...drafts, clear];
  ctx.notes.push(`its ${field} are what ${target}.${field} held`);
  return [
    { kind: "read", target, as: "emptied" },
    ...drafts.map((d) =>
      d === create ? { ...d, set: { ...set, [field]: { $expr: `$emptied.${identifier(field)}` } } } : d,
    ),
    clear,
  ];
}

/** The part a change's description says it empties: where it is, the field emptied, and what is left. */
function emptiedPart(
  ctx: Context,
  drafts: readonly Draft[],
): { target: string; field: string; empty: unknown[] | Record<string, never>; record: boolean } | undefined {
  if (!drafts.some((d) => d.kind === "create" || d.kind === "update" || d.kind === "delete"))
    return undefined;
  const said =
    /\b(?:the|your|its)\s+([a-z_]+)\s+(?:is|gets|will be)\s+(?:emptied|cleared)\b/i.exec(
      ctx.facts.text,
    )?.[1] ?? /\b(?:empties|clears)\s+(?:the|your|its)\s+([a-z_]+)\b/i.exec(ctx.facts.text)?.[1];
  if (!said) return undefined;
  const facts = { ...ctx.facts, words: [said.toLowerCase()], verb: undefined };
  const part = namedPart(facts, ctx.shape, ["collection", "list", "values", "record"]);
  const name = part?.path.at(-1);
  if (!part || !name || part.path.includes("*")) return undefined;
  // a record (a cart) is emptied of its one list of lines; a list or map, of everything
  if (part.kind === "record") {
    const lists = [...part.fields.values()].filter((f) => f.types.has("array") && !f.path.includes("."));
    const field = lists.length === 1 ? lists[0]?.path : undefined;
    if (!field) return undefined;
    ctx.notes.push(`empties ${part.path.join("/")}.${field} (the description says so)`);
    return { target: part.path.join("/") || ".", field, empty: [], record: true };
  }
  const array = part.kind === "list" || (part.kind === "collection" && part.container === "array");
  ctx.notes.push(`empties ${part.path.join("/")} (the description says so)`);
  return {
    target: part.path.slice(0, -1).join("/") || ".",
    field: name,
    empty: array ? [] : {},
    record: false,
  };
}

/** Verbs that empty what they name. */
const CLEAR_VERBS: ReadonlySet<string> = new Set(["clear", "empty", "flush", "wipe"]);

/**
 * A tool that clears what its name names, given nothing else (`clear_cart`, `empty_trash`,
 * `clear_coat_check`), empties that part of the state and answers it empty: Shopify's
 * `POST /cart/clear.js` answers the emptied cart, Redis `FLUSHDB` empties a database, and the
 * Web Storage API's `clear()` empties a store.
 */
export function clearRule(ctx: Context): Draft[] | undefined {
  // the verb is first, whatever other verb the name's last word may be (`clear_coat_check`)
  const verb = ctx.facts.words[0] ?? "";
  if (!CLEAR_VERBS.has(verb) || ctx.facts.params.some((p) => p.required)) return undefined;
  const part = namedPart({ ...ctx.facts, verb }, ctx.shape, ["collection", "list", "values"]);
  if (!part) return clearedByValue(ctx, verb);
  if (part.path.includes("*")) return undefined;
  const name = part.path.at(-1);
  if (!name) return undefined;
  const empty = part.kind === "list" || (part.kind === "collection" && part.container === "array") ? [] : {};
  ctx.notes.push(`empties ${part.path.join("/")}`);
  return [
    { kind: "update", target: part.path.slice(0, -1).join("/") || ".", set: { [name]: empty }, as: "holder" },
    { kind: "respond", output: name, value: { $expr: `$holder.${identifier(name)}` } },
  ];
}

/**
 * What a clearing names may be a place its records sit in rather than a part of the state
 * (`empty_trash` where messages have a `folder`, one of them `trash`): the records there are
 * deleted, the others kept. Google Drive's `files.emptyTrash`, Gmail's trash emptied by its
 * label, and Todoist's completed tasks cleared by their flag work so.
 */
function clearedByValue(ctx: Context, verb: string): Draft[] | undefined {
  const words = ctx.facts.words.filter((w) => w !== verb);
  if (words.length !== 1) return undefined;
  const [word] = words as [string];
  for (const collection of ctx.shape.collections.values()) {
    if (collection.parent || collection.path.includes("*")) continue;
    for (const field of collection.fields.values()) {
      if (field.path.includes(".") || field.open || !field.types.has("string")) continue;
      const value = knownValues(ctx, field.path, field.values.keys()).find((v) => v.toLowerCase() === word);
      if (value === undefined) continue;
      const name = collection.path.at(-1) as string;
      const test = `$v.${identifier(field.path)} = ${JSON.stringify(value)}`;
      const pick = (keep: string) =>
        collection.container === "map"
          ? `$merge([{}, $sift($before, function($v) { ${keep} })])`
          : `[$filter($before, function($v) { ${keep} })]`;
      ctx.notes.push(`deletes the ${collection.name} whose ${field.path} is '${value}'`);
      return [
        { kind: "read", target: collection.path.join("/"), as: "before" },
        {
          kind: "update",
          target: collection.path.slice(0, -1).join("/") || ".",
          set: { [name]: { $expr: pick(`$not(${test})`) } },
        },
        // as a delete answers what it deleted
        { kind: "respond", output: name, value: { $expr: pick(test) } },
      ];
    }
  }
  return undefined;
}

/**
 * Values kept by name inside a record (a device's `config`, a project's `variables`, an
 * object's `metadata`), given the record's key, a `key` and, to set one, a `value`: the value
 * is set under the key (the others kept), read (the documented not-found error, or an added
 * `<FIELD>_KEY_NOT_FOUND`, for a key it lacks), or taken out. Heroku's config vars
 * (`PATCH /apps/{app}/config-vars`), GitHub's repository variables
 * (`/repos/{o}/{r}/actions/variables/{name}`) and Stripe's `metadata[key]` work so.
 */
export function keyedValuesRule(
  ctx: Context,
  subject: Reference,
  acting: "read" | "update" | "delete",
): Draft[] | undefined {
  const collection = subject.collection;
  const keyed = keyedField(ctx, collection);
  // a `name` is the value's where the tool names the values (`set_project_variable`), else the record's
  const own = (p: Param) => !keyed?.named && collection.fields.has(p.name);
  // the values' keys by name (`key`, `name`), or by what they are (an e-mail address keyed by itself)
  const keys = keyed ? keysOf(collection, keyed.path) : [];
  const key = ctx.facts.params.find(
    (p) =>
      p.required &&
      p.type === "string" &&
      p !== subject.param &&
      (/^(key|name)$/.test(p.words.at(-1) ?? "") || (keyed?.named === true && looksLikeKeys(p, keys))) &&
      !own(p),
  );
  // the value by name, or an argument whose choices the values are (`role`: viewer, editor)
  const kept = keyed ? valuesOf(collection, keyed.path) : [];
  const value = ctx.facts.params.find(
    (p) =>
      p !== key &&
      (p.words.at(-1) === "value" ||
        (Array.isArray(p.schema.enum) &&
          kept.length > 0 &&
          kept.every((v) => (p.schema.enum as unknown[]).includes(v)))) &&
      !own(p),
  );
  if (!key || (acting === "update") !== (value !== undefined)) return undefined;
  const field = keyed?.path;
  const target = field ? referenceTarget(ctx, subject) : undefined;
  if (!field || !target) return undefined;
  const missing = notFoundError(ctx, collection, subject.param.name, { add: true });
  const at = `$record.${identifier(field)}`;
  const named = `$args.${identifier(key.name)}`;
  const read: Draft = { kind: "read", target, as: "record", ...(missing ? { missing } : {}) };
  if (acting === "update") {
    ctx.notes.push(`sets the ${field} value ${key.name} names to ${value?.name}`);
    return [
      read,
      {
        kind: "update",
        target,
        set: {
          [field]: { $expr: `$merge([{}, ${at}, {${named}: $args.${identifier(value?.name ?? "")}}])` },
        },
      },
    ];
  }
  const absent = addError(ctx, {
    code: `${nameWords(singular(field)).join("_").toUpperCase()}_KEY_NOT_FOUND`,
    status: 404,
    message: `No ${field} value has that ${key.name}.`,
    when: `The ${humanNoun(collection.name)} keeps no ${field} value under the given ${key.name} (inferred from its ${field}).`,
  });
  const held = {
    kind: "check",
    require: [{ expr: `$exists($lookup(${at}, ${named}))`, error: absent }],
  } as const;
  if (acting === "delete") {
    ctx.notes.push(`takes the ${field} value ${key.name} names out`);
    return [
      read,
      held,
      {
        kind: "update",
        target,
        set: { [field]: { $expr: `$merge([{}, $sift(${at}, function($v, $k) { $k != ${named} })])` } },
      },
    ];
  }
  ctx.notes.push(`reads the ${field} value ${key.name} names`);
  return [
    read,
    held,
    { kind: "respond", value: { $expr: `{"${key.name}": ${named}, "value": $lookup(${at}, ${named})}` } },
  ];
}

/** The keys the records' values are kept under in a field (`shared_with`'s addresses). */
function keysOf(collection: CollectionShape, path: string): string[] {
  return [...collection.fields.keys()]
    .filter((f) => f.startsWith(`${path}.`))
    .map((f) => f.slice(path.length + 1));
}

function valuesOf(collection: CollectionShape, path: string): unknown[] {
  return [...collection.fields.values()]
    .filter((f) => f.path.startsWith(`${path}.`))
    .flatMap((f) => [...f.values.keys()]);
}

/** An argument that gives keys like the map's: addresses where the map is keyed by addresses. */
function looksLikeKeys(param: Param, keys: readonly string[]): boolean {
  if (keys.length === 0) return false;
  const email = (k: string) => /^[^@\s]+@[^@\s]+$/.test(k);
  return keys.every(email) && (param.schema.format === "email" || param.words.includes("email"));
}

/** The record's one field of values kept by name the tool's name names (`config`), or its only one. */
function keyedField(ctx: Context, collection: CollectionShape): { path: string; named: boolean } | undefined {
  const plain = mapsByName(collection, (inner) => !inner.types.has("object")).map(({ field }) => field);
  // named by a word of the tool's name, or by its verb's participle (`shared_with` for `unshare`)
  const verb = (ctx.facts.verb ?? ctx.facts.words[0] ?? "").replace(/^un/, "");
  const named = plain.filter(
    (f) =>
      ctx.facts.words.some((w) => nameWords(f.path).some((part) => singular(part) === singular(w))) ||
      (verb.length > 2 && nameWords(f.path).includes(participle(verb))),
  );
  const [one] = named.length === 1 ? named : plain.length === 1 && named.length === 0 ? plain : [];
  return one ? { path: one.path, named: named.length === 1 } : undefined;
}
