import escapeRegExp from "escape-string-regexp";
import { addGap, type Context, humanNoun, notFoundError } from "./context.js";
import type { Draft } from "./drafts.js";
import type { OutputFact, Param, ToolFacts } from "./facts.js";
import { fieldFor } from "./fields.js";
import { pagingOf } from "./paging.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape, FieldShape, ListShape } from "./shape.js";
import { containerTarget, recordTarget, referenceTarget } from "./targets.js";
import { ASKING_VERBS, nameWords, nounKeys, partNoun, sameNoun, sentencesOf, singular } from "./words.js";

/** Reads of collections: by key, lookups by other fields, and lists. */

export function readRule(ctx: Context, subject: Reference): Draft[] {
  const target = referenceTarget(ctx, subject);
  if (!target) return [];
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  ctx.notes.push(`reads ${describeTarget(target)} by ${subject.param.name}`);
  const binding = bindingName(subject.collection);
  const related = relatedList(ctx, subject);
  const placed = wrapperOutput(ctx, subject.collection);
  return [
    ...parentChecks(ctx, subject),
    {
      kind: "read",
      target,
      ...(missing ? { missing } : {}),
      as: binding,
      // the record's own fields answer beside the related list, which answers on top of them
      output: placed ?? "",
    },
    ...related,
    ...(placed ? [] : rankedPlace(ctx, subject)),
    ...(placed ? [] : keyEcho(ctx, subject)),
    ...(placed ? [] : prefixedFields(ctx, subject.collection, binding)),
  ];
}

/**
 * `rank` of an archer where the state keeps the ranking as a list of their keys (`standings:
 * ["ida", "jon"]`): the record's 1-based place in that list, as a leaderboard's rank, a
 * waitlist's position and a queue's place are answered (Steam's leaderboard entries, Twilio's
 * queue members, Shopify's waitlists).
 */
function rankedPlace(ctx: Context, subject: Reference): Draft[] {
  const output = ctx.facts.outputs.find(
    (o) =>
      /^(?:rank|position|place|queue_position)$/.test(o.name) &&
      (o.type === "integer" || o.type === "number") &&
      !subject.collection.fields.has(o.name),
  );
  if (!output) return [];
  const keys = new Set(subject.collection.keys);
  const lists = ctx.shape.parts.filter(
    (p): p is ListShape =>
      p.kind === "list" && p.items.length > 1 && p.items.every((v) => keys.has(String(v))),
  );
  const list = lists.length === 1 ? lists[0] : undefined;
  if (!list) return [];
  const target = list.path.join("/");
  ctx.notes.push(`answers ${output.name} as the place of ${subject.param.name} in ${target}`);
  return [
    { kind: "read", target, as: "ranking" },
    {
      kind: "respond",
      output: output.name,
      value: {
        $expr: `$map($ranking, function($v, $i) { $string($v) = $string($args.${identifier(subject.param.name)}) ? $i + 1 })[0]`,
      },
    },
  ];
}

/**
 * An answer that names a field of the record it reads with the record's noun in front
 * (`vehicle_mileage` for a vehicle's `mileage`, `account_status` for an account's `status`) answers
 * that field, as flattened answers do: Plaid's `account_id`, Twilio's `account_sid` and
 * Shopify's `customer_email` each name a field of the record by its owner's noun.
 */
function prefixedFields(ctx: Context, collection: CollectionShape, binding: string): Draft[] {
  const noun = new Set(nameWords(partNoun(collection.name)));
  const drafts: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    if (collection.fields.has(output.name)) continue;
    const words = nameWords(output.name);
    const at = words.findIndex((w) => !noun.has(singular(w)));
    const rest = words.slice(at).join("_");
    const field = at > 0 ? collection.fields.get(rest) : undefined;
    if (!field || field.path.includes(".") || !holdsType(field, output.type)) continue;
    ctx.notes.push(`answers the ${partNoun(collection.name).replace(/_/g, " ")}'s ${rest} as ${output.name}`);
    drafts.push({
      kind: "respond",
      output: output.name,
      value: { $expr: `$${binding}.${identifier(rest)}` },
    });
  }
  return drafts;
}

/** Whether a field's values can answer an output of a JSON type (any, where it declares none). */
function holdsType(field: FieldShape, type: string | undefined): boolean {
  if (type === undefined) return true;
  return field.types.has(type === "integer" ? "number" : type);
}

/**
 * A record read by its key answers the key as its `id` (or `key`) even where the stored record
 * does not hold it, as Stripe's `GET /v1/customers/{id}`, Trello's `GET /cards/{id}` and Todoist's
 * `GET /tasks/{id}` answer the `id` they were asked for.
 */
export function keyEcho(ctx: Context, subject: Reference): Draft[] {
  if (subject.many) return [];
  const noun = singular(subject.collection.name);
  const named = ctx.facts.outputs.find(
    (o) =>
      o.name !== subject.param.name &&
      !subject.collection.fields.has(o.name) &&
      (o.type === undefined || o.type === subject.param.type) &&
      keyWordOf(o.name) !== undefined &&
      (keyWordOf(o.name) === o.name || sameNoun(nameWords(o.name).slice(0, -1).join("_"), noun)),
  );
  if (!named) return [];
  ctx.notes.push(`answers ${subject.param.name} as the record's ${named.name}`);
  return [{ kind: "respond", output: named.name, value: `{${subject.param.name}}` }];
}

/**
 * A read of one record whose answer is a list named after another collection answers the
 * records of it that refer to this one: an account's posts are the posts whose author it is,
 * as `GET /users/{user}/repos` lists the repositories a user owns.
 */
function relatedList(ctx: Context, subject: Reference): Draft[] {
  const outputs = ctx.facts.outputs.filter((o) => o.type === "array");
  for (const output of outputs) {
    for (const collection of ctx.shape.collections.values()) {
      if (collection === subject.collection || !childNamed(collection, output.name, subject.collection))
        continue;
      const links = [...collection.fields.values()].filter(
        (f) => f.refersTo === subject.collection.name && !f.path.includes("."),
      );
      const container = links.length === 1 ? containerTarget(ctx, collection) : undefined;
      if (!container) continue;
      const link = (links[0] as FieldShape).path;
      ctx.notes.push(`answers the ${collection.name} whose ${link} is ${subject.param.name}`);
      return [
        { kind: "list", target: container, where: { [link]: `{${subject.param.name}}` }, as: "related" },
        { kind: "respond", output: output.name, value: { $expr: "[$related]" } },
      ];
    }
  }
  return [];
}

/**
 * A list of records of one kind asked for beside a record of another that they point to
 * (`list_member_loans(member_id)`, `list_transactions(account_id)`): the records whose link is
 * the argument, once the record it names is found, as GitHub lists a user's repositories
 * (`GET /users/{user}/repos`, 404 for no such user), Stripe a customer's charges
 * (`GET /v1/charges?customer=`) and Shopify a customer's orders. The tool names the records
 * listed, in the plural, and they keep one field that refers to the named record's kind.
 */
export function linkedListRule(ctx: Context, subject: Reference): Draft[] | undefined {
  if (subject.collection.parent) return undefined;
  const listed = [...ctx.shape.collections.values()].filter((c) => {
    const last = nameWords(c.name).at(-1) ?? "";
    return c !== subject.collection && !c.parent && singular(last) !== last && ctx.facts.words.includes(last);
  });
  const only = listed.length === 1 ? listed[0] : undefined;
  const links = only
    ? [...only.fields.values()].filter((f) => f.refersTo === subject.collection.name && !f.path.includes("."))
    : [];
  if (!only || links.length !== 1) return undefined;
  const link = links[0];
  // the link is the argument's field, or a list of such keys named for it (`roles` for `role`)
  const linked =
    link !== undefined &&
    (fieldFor(subject.param, only) === link.path ||
      (link.types.has("array") && sameNoun(link.path, subject.param.name)));
  if (!linked) return undefined;
  const target = referenceTarget(ctx, subject);
  const lookup = target ? lookupRule(ctx, only, { holderChecked: true }) : undefined;
  if (!target || !lookup) return undefined;
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  ctx.notes.push(`checks the ${humanNoun(subject.collection.name)} ${subject.param.name} names exists first`);
  return [{ kind: "read", target, ...(missing ? { missing } : {}) }, ...lookup];
}

/**
 * A collection is the answer's list when it is named as the list is (`posts`), or named as the
 * list is under the name of the record's kind (`hotel_offers` listed as a hotel's `offers`), as
 * Stripe lists an invoice's `invoice_items` as its `lines`, GitHub an issue's comments, and
 * Shopify an order's `order_line_items` as its `line_items`.
 */
function childNamed(collection: CollectionShape, list: string, parent: CollectionShape): boolean {
  if (sameNoun(collection.name, list)) return true;
  const words = nameWords(collection.name);
  const owner = nameWords(singular(parent.name));
  const rest = words.slice(owner.length);
  return rest.length > 0 && owner.every((w, i) => words[i] === w) && sameNoun(rest.join("_"), list);
}

/**
 * Where a record goes in the answer: merged into it, unless the output schema keeps it under
 * one property named for it (`{"order": {...}}`) or has a single object property.
 */
export function wrapperOutput(ctx: Context, collection: CollectionShape): string | undefined {
  const outputs = ctx.facts.outputs;
  if (outputs.length === 0) return undefined;
  // `shelf` names a record of `shelves` (a plural in -ves reads two ways)
  const named = outputs.find((o) => o.type === "object" && sameNoun(o.name, collection.name));
  if (named) return named.name;
  const fields = new Set(collection.fields.keys());
  if (outputs.some((o) => fields.has(o.name))) return undefined;
  const objects = outputs.filter((o) => o.type === "object");
  return outputs.length === 1 && objects.length === 1 ? objects[0]?.name : undefined;
}

/** The record a nested one lives in must exist first, answered by its own not-found error. */
export function parentChecks(ctx: Context, subject: Reference): Draft[] {
  return holderChecks(ctx, subject.collection, { add: false }).checks;
}

/**
 * For records kept inside others: the argument naming their holder, and the read that finds it
 * (answering its not-found error; `add` adds one where the API documents none).
 */
function holderChecks(
  ctx: Context,
  collection: CollectionShape,
  options: { add: boolean },
): { params: string[]; checks: Draft[] } {
  const parent = collection.parent;
  const named = parent ? ctx.references.find((r) => r.collection.name === parent && !r.many) : undefined;
  const target = named ? recordTarget(ctx, named.collection, `{${named.param.name}}`) : undefined;
  if (!named || !target) return { params: [], checks: [] };
  const missing = notFoundError(ctx, named.collection, named.param.name, options);
  // the arguments that name the holder's own holders (a bucket, for an object's versions) say
  // where to look too
  const above: string[] = [];
  for (let at = named.collection.parent; at; at = ctx.shape.collections.get(at)?.parent) {
    const outer = ctx.references.find((r) => r.collection.name === at && !r.many);
    if (outer) above.push(outer.param.name);
  }
  return {
    params: [named.param.name, ...above],
    checks: [{ kind: "read", target, ...(missing ? { missing } : {}) }],
  };
}

/** How an argument selects records: equal to a field, a bound of a range, or words a field contains. */
interface Selection {
  where: Record<string, string>;
  filters: string[];
  described: string[];
  unmatched: string[];
}

/**
 * Arguments read as a selection of records: same-named fields match by equality;
 * `min_price`/`max_price`, `start_date`/`end_date`, `from`/`to`, `after`/`before` bound a
 * field of that noun; `keyword`/`query`/`q`/`text` must be contained in a text field.
 * These are the filter parameters of list endpoints across public APIs (GitHub's `since`,
 * Stripe's `created[gte]`, e-commerce `min_price`/`max_price`, full-text `q`).
 */
function selectionOf(ctx: Context, collection: CollectionShape, skip?: ReadonlySet<string>): Selection {
  const selection: Selection = { where: {}, filters: [], described: [], unmatched: [] };
  for (const param of ctx.facts.params) {
    if (skip?.has(param.name)) continue;
    const field = fieldFor(param, collection);
    if (field) {
      selection.where[field] = `{${param.name}}`;
      selection.described.push(field);
      continue;
    }
    // `tag` selects records whose `tags` hold it (GitHub's `labels`, Stack Overflow's `tagged`)
    const holding = [...collection.fields.values()].find(
      (f) =>
        !f.path.includes(".") &&
        f.types.has("array") &&
        param.type !== "array" &&
        singular(f.path) === param.name,
    );
    if (holding) {
      selection.filters.push(
        `($not($exists($args.${identifier(param.name)})) or $args.${identifier(param.name)} in ${fieldExpression(holding.path)})`,
      );
      selection.described.push(`${holding.path} holds ${param.name}`);
      continue;
    }
    // `unread_only`, `onlyActive`: when true, only records whose flag says so (`read` false, `active` true)
    const only = onlyFlagFor(param, collection);
    const said =
      only !== undefined
        ? [only]
        : param.type === "boolean" && param.words.includes("only")
          ? onlyFlagsSaid(ctx.facts.text, collection)
          : [];
    const stated =
      said.length === 0 && param.type === "boolean" ? onlyConditionsSaid(ctx, param, collection) : [];
    if (stated.length > 0) {
      selection.filters.push(`($args.${identifier(param.name)} = true ? ${stated.join(" and ")} : true)`);
      selection.described.push(`${stated.join(" and ")} when ${param.name}`);
      continue;
    }
    if (said.length > 0) {
      const tests = said.map((f) => `${fieldExpression(f.field)} = ${f.value}`).join(" and ");
      // an absent switch compares false with anything, so the test is on it being true
      selection.filters.push(`($args.${identifier(param.name)} = true ? ${tests} : true)`);
      selection.described.push(
        `${said.map((f) => `${f.field} is ${f.value}`).join(", ")} when ${param.name}`,
      );
      continue;
    }
    const range = rangeFor(param, collection);
    if (range) {
      selection.filters.push(
        `($not($exists($args.${identifier(param.name)})) or ${fieldExpression(range.field)} ${range.op} $args.${identifier(param.name)})`,
      );
      selection.described.push(`${range.field} ${range.op} ${param.name}`);
      continue;
    }
    if (param.type === "array" && sameNoun(param.name, collection.name)) {
      // a list named after the collection holds keys of its records: only those are looked at
      const key = keyFieldFor(ctx, collection);
      selection.filters.push(
        `($not($exists($args.${identifier(param.name)})) or ${fieldExpression(key)} in $args.${identifier(param.name)})`,
      );
      selection.described.push(`${key} in ${param.name}`);
      continue;
    }
    const started = startFieldFor(ctx, param, collection);
    if (started) {
      const arg = `$args.${identifier(param.name)}`;
      selection.filters.push(
        `($not($exists(${arg})) or $substring($string(${fieldExpression(started)}), 0, $length(${arg})) = ${arg})`,
      );
      selection.described.push(`${started} starts with ${param.name}`);
      continue;
    }
    const texts = textFieldsFor(param, collection, ctx.facts.text);
    if (texts.length > 0) {
      const arg = `$lowercase($args.${identifier(param.name)})`;
      const contains = texts.map((f) => `$contains($lowercase($string(${fieldExpression(f)})), ${arg})`);
      selection.filters.push(`($not($exists($args.${identifier(param.name)})) or ${contains.join(" or ")})`);
      selection.described.push(`${texts.join(" or ")} contains ${param.name}`);
      continue;
    }
    selection.unmatched.push(param.name);
  }
  return selection;
}

/**
 * `prefix`, `name_prefix`, `starts_with`: records whose key (or the field the argument names)
 * begins with it, as S3's and Cloud Storage's object listings take `prefix`, Consul's KV
 * store and etcd list keys under a prefix, and Vault lists secrets below a path.
 */
function startFieldFor(ctx: Context, param: Param, collection: CollectionShape): string | undefined {
  if (param.type !== "string") return undefined;
  const words = param.words;
  const last = words.at(-1);
  const starts = last === "prefix" || (words.length >= 2 && words.at(-2) === "starts" && last === "with");
  if (!starts) return undefined;
  const named = words.slice(0, last === "prefix" ? -1 : -2).join("_");
  if (named !== "") {
    const field = [...collection.fields.values()].find(
      (f) => !f.path.includes(".") && (f.path === named || nameWords(f.path).join("_") === named),
    );
    return field?.path;
  }
  return keyFieldFor(ctx, collection);
}

function onlyFlagFor(
  param: Param,
  collection: CollectionShape,
): { field: string; value: boolean } | undefined {
  if (param.type !== "boolean") return undefined;
  const words = nameWords(param.name);
  if (!words.includes("only") || words.length !== 2) return undefined;
  const word = words.find((w) => w !== "only") as string;
  const flag = (name: string) =>
    [...collection.fields.values()].find(
      (f) => !f.path.includes(".") && f.types.has("boolean") && nameWords(f.path).join("_") === name,
    );
  const same = flag(word) ?? flag(`is_${word}`);
  if (same) return { field: same.path, value: true };
  const negated = /^un|^in/.test(word) ? (flag(word.slice(2)) ?? flag(`is_${word.slice(2)}`)) : undefined;
  return negated ? { field: negated.path, value: false } : undefined;
}

/**
 * "optionally only clean, unoccupied ones": the flags a description says an `…_only` switch
 * keeps, each true, or false where the word is its negation (`unoccupied`, `inactive`), as
 * Airbnb's and hotel APIs' availability filters are described.
 */
function onlyFlagsSaid(text: string, collection: CollectionShape): { field: string; value: boolean }[] {
  const said =
    /\bonly\s+((?:(?:un|in|non-?)?[a-z]+(?:,\s*|\s+and\s+)?)+?)\s+(?:ones|records|items|entries|[a-z]+s)\b/i.exec(
      text,
    )?.[1];
  if (!said) return [];
  const flags = [...collection.fields.values()].filter(
    (f) => !f.path.includes(".") && f.types.has("boolean") && f.types.size === 1,
  );
  const found = said.split(/,\s*|\s+and\s+/).map((word) => {
    const flag = (name: string) =>
      flags.find(
        (f) =>
          nameWords(f.path)
            .filter((w) => w !== "is")
            .join("_") === name,
      );
    const same = flag(word.toLowerCase());
    if (same) return { field: same.path, value: true };
    const base = /^(un|in|non-?)(.+)$/.exec(word.toLowerCase())?.[2];
    const negated = base ? flag(base) : undefined;
    return negated ? { field: negated.path, value: false } : undefined;
  });
  return found.every((f) => f !== undefined) ? (found as { field: string; value: boolean }[]) : [];
}

/**
 * "If free_only is true, only tools with borrower null and wear "ok" are listed":
 * what a switch keeps, read from the sentence that names it, as fields the records have and the
 * values (or null) the sentence gives them.
 */
function onlyConditionsSaid(ctx: Context, param: Param, collection: CollectionShape): string[] {
  const sentence = sentencesOf(ctx.facts.tool.description).find(
    (s) =>
      new RegExp(`(?:^|[^A-Za-z0-9_])${escapeRegExp(param.name)}(?![A-Za-z0-9_])`).test(s) &&
      /\bonly\b/i.test(s),
  );
  if (!sentence) return [];
  const tests: string[] = [];
  for (const field of collection.fields.values()) {
    if (field.path.includes(".")) continue;
    const name = nameWords(field.path).join("[ _]");
    if (new RegExp(`\\b${name}\\s+(?:is\\s+|=\\s*|==\\s*)?null\\b`, "i").test(sentence)) {
      tests.push(`${fieldExpression(field.path)} = null`);
      continue;
    }
    const valued = new RegExp(`\\b${name}\\s+(?:is\\s+|=\\s*|==\\s*)?["'\`]([^"'\`]{1,40})["'\`]`, "i").exec(
      sentence,
    );
    if (valued?.[1] && field.values.has(valued[1]))
      tests.push(`${fieldExpression(field.path)} = ${JSON.stringify(valued[1])}`);
  }
  return tests;
}

const LOWER = /^(min|minimum|from|start|since|after|low|lower|earliest)$/;
const UPPER = /^(max|maximum|to|end|until|before|high|upper|latest)$/;

/** `min_price` → price ≥; `end_date` → a date field ≤; `since` → the record's time ≥. */
function rangeFor(param: Param, collection: CollectionShape): { field: string; op: ">=" | "<=" } | undefined {
  if (param.type === "array" || param.type === "object" || param.type === "boolean") return undefined;
  const words = param.words;
  const bound = words.find((w) => LOWER.test(w) || UPPER.test(w));
  if (!bound) return undefined;
  const op = LOWER.test(bound) ? ">=" : "<=";
  const rest = words.filter((w) => w !== bound).join("_");
  const fields = [...collection.fields.values()].filter((f) => !f.path.includes("."));
  const numeric = (f: FieldShape) => f.types.has("number");
  const dated = (f: FieldShape) => [...f.values.keys()].some((v) => /^\d{4}-\d{2}-\d{2}/.test(v));
  const byName = fields.find((f) => rest !== "" && (f.path === rest || nameWords(f.path).includes(rest)));
  if (byName && (numeric(byName) || dated(byName))) return { field: byName.path, op };
  // `start_date`, `since`: the one date field the records have
  if (rest === "date" || rest === "time" || rest === "") {
    const dates = fields.filter(dated);
    if (dates.length === 1) return { field: dates[0]?.path as string, op };
    // several (an event's `start` and `end`): the one it begins at, as Google Calendar's
    // `timeMin`/`timeMax`, Outlook's `calendarView` and CalDAV time ranges select events by time
    const starts = dates.filter((f) =>
      nameWords(f.path).some((w) => /^(start|starts|begin|begins)$/.test(w)),
    );
    if (starts.length === 1) return { field: starts[0]?.path as string, op };
  }
  return undefined;
}

/**
 * `keyword`, `query`, `q`, `search`, `text`: contained in the text fields the description names
 * ("search by title or author"), else in the records' one long text field, never in their keys.
 * Open Library's `q` and Google Books' `q` search titles and authors alike; GitHub's `in:`
 * qualifier names the fields a query looks in.
 */
function textFieldsFor(param: Param, collection: CollectionShape, description: string): string[] {
  if (param.type !== "string" || !/^(keyword|keywords|query|q|search|text|term|phrase)$/.test(param.name))
    return [];
  // many distinct values make a text, unless they are keys: the records' own or another's
  const texts = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("string") &&
      ((f.open && f.path !== collection.keyField && f.refersTo === undefined) ||
        /content|text|body|message|description|title|name/.test(f.path)),
  );
  // "by title or author": said of the argument, else of the tool
  const phrase = searchedFields(param.description) ?? searchedFields(description) ?? "";
  const said = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("string") &&
      f.path !== collection.keyField &&
      f.refersTo === undefined &&
      new RegExp(`\\b${nameWords(f.path).join("[ _]")}s?\\b`, "i").test(phrase),
  );
  if (said.length > 1) return said.map((f) => f.path);
  const preferred = texts.find((f) => /content|text|body|message/.test(f.path)) ?? said[0] ?? texts[0];
  return preferred ? [preferred.path] : [];
}

/** The words after "by" (or "in", "across") that name two or more things joined by "or", "and" or commas. */
function searchedFields(text: string): string | undefined {
  return /\b(?:by|in|across)\s+((?:(?:the|their|its)\s+)?[a-z_]+(?:(?:\s*,\s*|\s+or\s+|\s+and\s+)(?:the\s+|its\s+|their\s+)?[a-z_]+)+)/i.exec(
    text,
  )?.[1];
}

/**
 * "Get the most recent tracking event", "the latest reading": one record, the newest by the
 * records' one time field (the last kept where they have none). GitHub's
 * `GET /repos/{o}/{r}/releases/latest`, Stripe's newest-first lists taken at their first, and a
 * carrier's latest tracking event.
 */
function latestAsked(ctx: Context, collection: CollectionShape): { time?: string } | undefined {
  if (ctx.facts.outputs.some((o) => o.type === "array")) return undefined;
  const noun = nameWords(singular(collection.name)).at(-1) ?? "";
  const asked = new RegExp(
    `\\b(?:most recent|latest|last|newest)\\s+(?:[a-z]+\\s+){0,2}?${escapeRegExp(noun)}\\b(?!s)`,
    "i",
  );
  if (!asked.test(ctx.facts.tool.description)) return undefined;
  const times = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.samples.length > 0 &&
      f.samples.every((v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)),
  );
  return times.length === 1 ? { time: times[0]?.path } : {};
}

/**
 * A read whose arguments are fields of the records rather than their key: `find_member_id_by_phone`,
 * `search_rooms(city, check_in, nights)`, or a list of everything (`list_all_products`). It
 * lists what matches, at most as many as a limit argument says; a tool that says it finds an
 * id answers the id, and its documented not-found error answers when nothing matches.
 */
export function lookupRule(
  ctx: Context,
  collection: CollectionShape,
  options: { holderChecked?: boolean } = {},
): Draft[] | undefined {
  const paging = pagingOf(ctx, collection, "matches");
  // the argument that names the record a nested list lives in (`user_id` of a user's addresses)
  // says where to look, not what to match
  const holder = holderChecks(ctx, collection, { add: true });
  const skip = new Set([...(paging?.params ?? []), ...holder.params]);
  const selection = selectionOf(ctx, collection, skip);
  if (selection.described.length === 0 && ctx.facts.params.some((p) => p.required && !skip.has(p.name)))
    return undefined;
  if (selection.unmatched.length > 0)
    ctx.notes.push(`argument(s) ${selection.unmatched.join(", ")} match no field of ${collection.name}`);
  const target = containerTarget(ctx, collection);
  if (!target) return undefined;
  const answersId = answersAnId(ctx, collection);
  // where the record the list belongs to was found first, its not-found error is that one's
  const missing =
    !options.holderChecked && (answersId || ctx.facts.errors.some((e) => e.kind === "not-found"))
      ? notFoundError(ctx, collection, singular(collection.name), { add: false })
      : undefined;
  const binding = "matches";
  const list: Draft = {
    kind: "list",
    target,
    ...(Object.keys(selection.where).length > 0 ? { where: selection.where } : {}),
    ...(selection.filters.length > 0 ? { filter: selection.filters.join(" and ") } : {}),
    ...(missing ? { missing } : {}),
    as: binding,
  };
  ctx.notes.push(
    `lists ${collection.name}${selection.described.length > 0 ? ` where ${selection.described.join(", ")}` : ""}${missing ? `; none: ${missing}` : ""}`,
  );
  // records of a map listed where the answer names their key field keep their key in it
  if (
    collection.container === "map" &&
    !collection.keyField &&
    answerNames(ctx, keyNameOf(ctx.siblings(), collection))
  )
    keyFieldFor(ctx, collection);
  if (answersId) {
    const keyField = keyFieldFor(ctx, collection);
    const plural = ctx.facts.words.includes("ids");
    ctx.notes.push(`answers the ${plural ? "ids" : "id"} (${keyField}) of what matches`);
    const value = plural ? `[$${binding}.${identifier(keyField)}]` : `$${binding}[0].${identifier(keyField)}`;
    const output = idOutput(ctx, keyField);
    return [
      { ...list, ...(plural ? {} : { limit: 1 }) },
      { kind: "respond", ...(output ? { output } : {}), value: { $expr: value } },
    ];
  }
  const latest = latestAsked(ctx, collection);
  if (latest) {
    const looked = ctx.facts.params.find((p) => p.required && !skip.has(p.name))?.name;
    const none = notFoundError(ctx, collection, looked ?? singular(collection.name), { add: true });
    const pick = latest.time
      ? `$sort($${binding}, function($l, $r) { $l.${identifier(latest.time)} > $r.${identifier(latest.time)} })[-1]`
      : `$${binding}[-1]`;
    ctx.notes.push(
      `answers the most recent of them${latest.time ? ` by ${latest.time}` : ", the last kept"}`,
    );
    return [
      ...holder.checks,
      list,
      ...(none
        ? [{ kind: "check" as const, require: [{ expr: `$count($${binding}) > 0`, error: none }] }]
        : []),
      { kind: "respond", value: { $expr: pick } },
    ];
  }
  const summed = summedFields(ctx, collection, binding);
  if (summed.length > 0) return [...holder.checks, list, ...summed];
  // a lookup whose answer is one record's fields (`find_user_by_email` → {user_id, display_name})
  const fields = new Set(collection.fields.keys());
  // a search answers lists, empty when nothing matches; only a lookup of one record answers its fields
  // without outputs, one record asked for by name: "Find the contact who has an e-mail address"
  const noun = nameWords(singular(collection.name)).join(" ");
  const oneAsked =
    ctx.facts.outputs.length === 0 &&
    ctx.facts.words.includes(nameWords(singular(collection.name)).at(-1) ?? "") &&
    new RegExp(`^\\s*\\w+\\s+the\\s+${escapeRegExp(noun)}\\b(?!s)`, "i").test(ctx.facts.tool.description);
  const single =
    (oneAsked || ctx.facts.outputs.length > 0) &&
    !ctx.facts.outputs.some((o) => o.type === "array") &&
    !SEARCH_VERBS.has(ctx.facts.verb ?? "") &&
    // "get all invoices", `list_customer_invoices`: many are asked for, whatever the schema says
    !ctx.facts.words.includes(collection.name) &&
    !/\ball\b/i.test(ctx.facts.tool.description) &&
    (oneAsked || ctx.facts.outputs.some((o) => fields.has(o.name)));
  if (single) {
    // the not-found message names what was looked for, an argument the call has
    const looked = ctx.facts.params.find((p) => p.required && !skip.has(p.name))?.name;
    const none =
      missing ?? notFoundError(ctx, collection, looked ?? singular(collection.name), { add: true });
    ctx.notes.push(`answers the first match's fields${none ? `; none: ${none}` : ""}`);
    return [
      { ...list, limit: 1, ...(none ? { missing: none } : {}) },
      { kind: "respond", value: { $expr: `$${binding}[0]` } },
    ];
  }
  if (paging) return [...holder.checks, list, paging.draft, ...listAnswer(ctx, collection, "page", binding)];
  return [...holder.checks, list, ...listAnswer(ctx, collection, binding)];
}

const SEARCH_VERBS: ReadonlySet<string> = new Set(["search", "list", "query", "filter", "browse"]);

function answerNames(ctx: Context, field: string): boolean {
  return JSON.stringify(ctx.facts.tool.outputSchema ?? {}).includes(`"${field}"`);
}

/** The output property an id goes to, when the output schema has one for it. */
function idOutput(ctx: Context, keyField: string): string | undefined {
  const outputs = ctx.facts.outputs;
  return (outputs.find((o) => o.name === keyField) ?? (outputs.length === 1 ? outputs[0] : undefined))?.name;
}

/** The tool's name or description says it finds an id (`find_member_id_by_phone`, "returns the customer id"). */
function answersAnId(ctx: Context, collection: CollectionShape): boolean {
  const nouns = nounReadings(collection).join("|");
  const name = ctx.facts.words.join("_");
  if (new RegExp(`(^|_)(${nouns})_ids?(_|$)`).test(name) || /(^|_)ids?(_|$)/.test(name.replace(/_by_.*/, "")))
    return true;
  return new RegExp(
    `\\b(returns?|finds?|looks? up|gets?)\\s+(the\\s+)?(${nouns.replace(/_/g, " ")})\\s+ids?\\b`,
    "i",
  ).test(ctx.facts.text);
}

/**
 * "Sum metered water over the days between start_date and end_date. Returns {days,
 * hot_litres, cold_litres, total_litres} where days is the number of rows counted": a read
 * whose description opens by summing answers each number output named for a field of the
 * records as that field's sum over the matches, one said to be "the number of" them as their
 * count, and a `total_<unit>` as the sum of the others in that unit, as usage and billing
 * reports sum over a period (Stripe's usage record summaries, AWS Cost Explorer, Toggl's
 * summary reports).
 */
function summedFields(ctx: Context, collection: CollectionShape, binding: string): Draft[] {
  const text = ctx.facts.tool.description;
  if (!/^\s*(?:sums?|totals?|summari[sz]es?|tall(?:y|ies)|adds? up)\b/i.test(text)) return [];
  const numbers = ctx.facts.outputs.filter((o) => o.type === "integer" || o.type === "number");
  const summed = numbers.filter((o) => {
    const field = collection.fields.get(o.name);
    return field !== undefined && (field.types.has("number") || field.types.has("integer"));
  });
  if (summed.length === 0) return [];
  const drafts: Draft[] = summed.map((o) => ({
    kind: "respond",
    output: o.name,
    value: { $expr: `$sum($${binding}.${identifier(o.name)})` },
  }));
  for (const o of numbers) {
    if (summed.includes(o)) continue;
    const unit = nameWords(o.name).at(-1);
    const parts = summed.filter((p) => nameWords(p.name).at(-1) === unit);
    if (
      new RegExp(
        `\\b${escapeRegExp(o.name)}\\b\\s*(?:is|=|:|[-–—])\\s*(?:the\\s+)?(?:number|count) of\\b`,
      ).test(text)
    )
      drafts.push({ kind: "respond", output: o.name, value: { $expr: `$count($${binding})` } });
    else if (nameWords(o.name)[0] === "total" && parts.length > 1)
      drafts.push({
        kind: "respond",
        output: o.name,
        value: { $expr: parts.map((p) => `$sum($${binding}.${identifier(p.name)})`).join(" + ") },
      });
  }
  ctx.notes.push(`answers ${summed.map((o) => o.name).join(", ")} summed over the matches`);
  return drafts;
}

/**
 * The field of each record that holds its key. Where the records of a map lack one, the
 * toolset's states get it (named after the argument other tools name them by), as the
 * format's convention has it: records keep their own key.
 */
export function keyFieldFor(ctx: Context, collection: CollectionShape): string {
  if (collection.keyField) return collection.keyField;
  const name = keyNameOf(ctx.siblings(), collection);
  if (collection.container === "map") ctx.keyFields.set(collection.path.join("/"), name);
  return name;
}

/** The name a key field takes when records lack one: the argument other tools name this collection by. */
export function keyNameOf(siblings: readonly ToolFacts[], collection: CollectionShape): string {
  const nouns = nounReadings(collection);
  for (const sibling of siblings)
    for (const param of sibling.params)
      if (param.identifier && param.type !== "array" && nouns.includes(param.words.slice(0, -1).join("_")))
        return param.name;
  // the head noun of a collection named for how it keeps (`card_id` for `insurance_card_list`)
  const head = partNoun(collection.name).split("_").at(-1) ?? "";
  for (const sibling of siblings)
    for (const param of sibling.params)
      if (param.identifier && param.type !== "array" && param.words.slice(0, -1).join("_") === head)
        return param.name;
  // the one argument of a sibling named after the collection (`get_fund(ticker)`) is its key
  for (const sibling of siblings) {
    const required = sibling.params.filter((p) => p.required);
    const names = sibling.nouns.map(singular).join("_");
    if (
      required.length === 1 &&
      nouns.some((noun) => names.includes(noun)) &&
      /^(symbol|ticker|name|username|handle|code|slug|key|title|email|sku)$/.test(required[0]?.name ?? "")
    )
      return required[0]?.name as string;
  }
  // an argument named for the thing itself (`device`, `channel`) names it by its key
  for (const sibling of siblings)
    for (const param of sibling.params)
      if (!param.identifier && param.type === "string" && nouns.includes(param.words.join("_")))
        return param.name;
  return `${nouns[0]}_id`;
}

/**
 * The noun of a collection's records in every reading: its name made singular (`sales_order`)
 * and, for a plural in -ves, each singular it may have (`shelves` → shelve, shelf), so that
 * `shelf_code` and "the shelf id" name the records of `shelves`.
 */
function nounReadings(collection: CollectionShape): string[] {
  return [...new Set([nameWords(singular(collection.name)).join("_"), ...nounKeys(collection.name)])];
}

/**
 * The answer of a list: where the output schema has one array property, the matches go
 * there — as keys when it holds plain values (a list of ids), as records otherwise — else
 * the fields the description names of each, else the records.
 */
function listAnswer(ctx: Context, collection: CollectionShape, binding: string, all = binding): Draft[] {
  const answer = listValue(ctx, collection, binding);
  // a count beside the list (`total`, `count`) is how many matched: GitHub's `total_count`, Stripe's `total_count`
  const count = ctx.facts.outputs.find(
    (o) =>
      (o.type === "integer" || o.type === "number") &&
      /^(total|count|total_count|totalcount|size|num_results|results_count|matches)$/.test(
        o.name.toLowerCase(),
      ),
  );
  const perValue = valueCounts(ctx, collection, all);
  // counts by status alone (`{open, closed, total}`) answer no list beside them
  const listed = perValue.length > 0 && !ctx.facts.outputs.some((o) => o.type === "array") ? [] : [answer];
  if (!count || answer.output === undefined) return [...listed, ...perValue];
  ctx.notes.push(`answers how many matched under ${count.name}`);
  return [
    ...listed,
    ...perValue,
    { kind: "respond", output: count.name, value: { $expr: `$count($${all})` } },
  ];
}

/**
 * `{open, pending, solved, closed, total}`: number outputs named for the values a field of the
 * records takes (two or more of them seen in the state; the others from an argument's enum of
 * that field's name) count the matches holding each, as GitHub's issue counts by state, Jira's
 * counts by status category and Zendesk's ticket counts by status answer.
 */
function valueCounts(ctx: Context, collection: CollectionShape, binding: string): Draft[] {
  const numbers = ctx.facts.outputs.filter((o) => o.type === "integer" || o.type === "number");
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !field.types.has("string") || field.open) continue;
    const seen = numbers.filter((o) => field.values.has(o.name));
    if (seen.length < 2) continue;
    const enumerated = new Set(
      [ctx.facts, ...ctx.siblings()].flatMap((t) =>
        t.params
          .filter((p) => p.name === field.path && Array.isArray(p.schema.enum))
          .flatMap((p) => (p.schema.enum as unknown[]).map(String)),
      ),
    );
    const counted = numbers.filter((o) => field.values.has(o.name) || enumerated.has(o.name));
    ctx.notes.push(
      `answers ${counted.map((o) => o.name).join(", ")} as how many matched hold each ${field.path}`,
    );
    return counted.map((o) => ({
      kind: "respond",
      output: o.name,
      value: { $expr: `$count($${binding}[${identifier(field.path)} = ${JSON.stringify(o.name)}])` },
    }));
  }
  return [];
}

function listValue(ctx: Context, collection: CollectionShape, binding: string): Draft {
  // records a map keeps under their names answer with the name, or a list could not be acted on
  // (or where the answer or the description names the key, "each element has `code`, `name`…")
  const keyName =
    collection.container === "map" && !collection.keyField ? keyNameOf(ctx.siblings(), collection) : "";
  if (
    keyName &&
    (ctx.facts.outputs.length === 0 || answerNames(ctx, keyName) || ctx.facts.text.includes(`\`${keyName}\``))
  ) {
    const key = keyFieldFor(ctx, collection);
    ctx.notes.push(`answers each with its key under ${key}`);
  }
  const array = singleArrayOutput(ctx.facts.outputs);
  const fields = statedFields(ctx.facts.text, collection);
  const records = fields
    ? `[$${binding}.{${fields.map((f) => `${JSON.stringify(f)}: \`${f}\``).join(", ")}}]`
    : `[$${binding}]`;
  if (fields) ctx.notes.push(`answers only ${fields.join(", ")} of each (the description says so)`);
  if (array?.itemType && array.itemType !== "object" && array.itemType !== "array") {
    const key = keyFieldFor(ctx, collection);
    ctx.notes.push(`answers the ${key} of what matches under ${array.name}`);
    return { kind: "respond", output: array.name, value: { $expr: `[$${binding}.${identifier(key)}]` } };
  }
  if (array) return { kind: "respond", output: array.name, value: { $expr: records } };
  const map = collection.container === "map" && !fields ? mapOutput(ctx, collection) : undefined;
  if (map) {
    const key = keyFieldFor(ctx, collection);
    ctx.notes.push(`answers the matches keyed by their ${key} under ${map.name}`);
    return {
      kind: "respond",
      output: map.name,
      value: { $expr: `$merge([$${binding}.{$string(${identifier(key)}): $}])` },
    };
  }
  if (ctx.facts.outputs.length > 0)
    return { kind: "respond", output: collection.name, value: { $expr: records } };
  return { kind: "respond", value: { $expr: records } };
}

/**
 * An object answer that is the collection itself, keyed as the state keys it (`{"card_7":
 * {…}}`): the one output named for the collection (container words aside: `appointment_history`
 * for `appointment_records`), or the only output, as Firebase answers a list as the keyed object
 * and Consul's KV a tree of keys.
 */
function mapOutput(ctx: Context, collection: CollectionShape): OutputFact | undefined {
  const objects = ctx.facts.outputs.filter((o) => o.type === "object");
  const noun = partNoun(collection.name);
  const named = objects.filter((o) => partNoun(o.name) === noun || sameNoun(o.name, collection.name));
  if (named.length === 1) return named[0];
  return ctx.facts.outputs.length === 1 && objects.length === 1 ? objects[0] : undefined;
}

export function singleArrayOutput(outputs: readonly OutputFact[]): OutputFact | undefined {
  const arrays = outputs.filter((o) => o.type === "array");
  return arrays.length === 1 ? arrays[0] : undefined;
}

/**
 * "List the name and product id of all product types": the fields a list answers, when the
 * description names them and each is a field of the records.
 */
function statedFields(text: string, collection: CollectionShape): string[] | undefined {
  const said =
    /\b(?:list|lists|return|returns|get|gets|show|shows)\s+(?:the\s+)?([a-z][a-z ,]{0,60}?)\s+of\s+(?:all|every|each)\b/.exec(
      text.toLowerCase(),
    )?.[1];
  if (!said) return undefined;
  const phrases = said.split(/\s*(?:,|\band\b)\s*/).filter((p) => p.length > 0);
  const fields = phrases.map((phrase) => {
    const wanted = nameWords(phrase).join("_");
    return [...collection.fields.values()].find(
      (f) => !f.path.includes(".") && nameWords(f.path).join("_") === wanted,
    )?.path;
  });
  return fields.length > 0 && fields.every((f) => f !== undefined) ? (fields as string[]) : undefined;
}

export function bindingName(collection: CollectionShape): string {
  // the key field says the singular best (`shelf_id` for shelves); else the plural made singular
  const fromKey =
    collection.keyField && /_id$/.test(collection.keyField) ? collection.keyField.slice(0, -3) : undefined;
  const name = fromKey ?? nameWords(singular(collection.name)).join("_");
  return /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED_BINDINGS.has(name) ? name : "entity";
}

/** Names effects already use for themselves: a binding must take another. */
const RESERVED_BINDINGS = new Set([
  "args",
  "runtime",
  "id",
  "item",
  "index",
  "subject",
  "now",
  "millis",
  "entity",
  "calc",
  "convert",
  "math",
]);

function describeTarget(target: string): string {
  return target.replace(/\{[^}]+\}/g, "…");
}

/** A name as JSONata reads it: plain, or in backquotes. */
export function identifier(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``;
}

function fieldExpression(path: string): string {
  return path
    .split(".")
    .map((p) => identifier(p))
    .join(".");
}

/** `id`, `key`, `order_id`, `flagKey`: the last word when it names a key. */
function keyWordOf(name: string): string | undefined {
  const last = nameWords(name).at(-1);
  return last === "id" || last === "key" ? last : undefined;
}

/** Words of a list's name that say it is a list, not what it lists (`flag_list`, `all_rooms`). */
const LIST_WORDS = /^(list|all|available|known|supported|valid)$/;
/** Words for a list of keys, whatever the records are (`symbols`, `room_ids`, `codes`). */
const KEY_WORDS = /^(ids|keys|symbols|codes|names|handles|slugs)$/;

/**
 * A read whose one answer is a list of plain values named for a keyed collection
 * (`flag_list`, `symbols`, `room_ids`) answers the collection's keys, as Alpaca's assets,
 * Stripe's `GET /v1/country_specs` and Slack's `conversations.list` are the catalog of what
 * the other calls take. An argument that names no field cannot narrow the list: the answer
 * keeps every key, and the report says so.
 */
export function keyListRule(ctx: Context, collection: CollectionShape): Draft[] | undefined {
  const [output, ...more] = ctx.facts.outputs;
  if (!output || more.length > 0 || output.type !== "array") return undefined;
  if (output.itemType !== "string" && output.itemType !== "integer") return undefined;
  const words = nameWords(output.name).filter((w) => !LIST_WORDS.test(w));
  const last = words.at(-1) ?? "";
  const noun = (KEY_WORDS.test(last) ? words.slice(0, -1) : words).join("_");
  if (noun ? !sameNoun(noun, collection.name) : !KEY_WORDS.test(last)) return undefined;
  const keys = keysExpression(collection, output.itemType);
  const target = collection.parent ? undefined : containerTarget(ctx, collection);
  if (!target || !keys) return undefined;
  const unused = ctx.facts.params.filter((p) => p.required).map((p) => p.name);
  if (unused.length > 0)
    addGap(ctx, `${unused.join(", ")} names no field of ${collection.name}: the list is not narrowed by it`);
  ctx.notes.push(`answers the keys of ${collection.name}`);
  return [
    { kind: "read", target, as: "all" },
    { kind: "respond", output: output.name, value: { $expr: keys } },
  ];
}

/** The keys of every record of `$all`, in the type the answer lists. */
function keysExpression(collection: CollectionShape, itemType: string): string | undefined {
  if (collection.container === "array")
    return collection.keyField ? `[$all.${fieldExpression(collection.keyField)}]` : undefined;
  return collection.numericKeys && itemType === "integer" ? "[$keys($all).$number($)]" : "[$keys($all)]";
}

/**
 * A question whether a record's list holds a value (`has_tag(post_id, tag)` → is `tag` among the
 * post's `tags`), answered as the one boolean the tool answers: GitHub's
 * `GET /repos/{o}/{r}/collaborators/{user}` (204 or 404), Slack's `conversations.members`
 * checked for one user, Spotify's `GET /me/tracks/contains`.
 */
export function elementHeldRule(ctx: Context, subject: Reference): Draft[] | undefined {
  const flags = ctx.facts.outputs.filter((o) => o.type === "boolean");
  const verb = ctx.facts.verb ?? ctx.facts.words[0] ?? "";
  // besides the yes or no, an answer may repeat the arguments (`{show_id, username, following}`)
  const echoes = ctx.facts.outputs.every(
    (o) => o === flags[0] || ctx.facts.params.some((p) => p.name === o.name),
  );
  if (flags.length !== 1 || !echoes || !ASKING_VERBS.has(verb)) return undefined;
  const rest = ctx.facts.params.filter(
    (p) => p !== subject.param && p.type !== "array" && p.type !== "object",
  );
  const nouns = new Set(ctx.facts.nouns.map(singular));
  const lists = [...subject.collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("array") &&
      !f.itemFields &&
      rest.length === 1 &&
      // the list named like the value (`tags` for `tag`) or like the tool (`members` for `check_team_member`)
      (singular(nameWords(f.path).at(-1) ?? "") === singular(nameWords(rest[0]?.name ?? "").at(-1) ?? "") ||
        nouns.has(singular(nameWords(f.path).at(-1) ?? ""))),
  );
  const [field] = lists;
  const target = referenceTarget(ctx, subject);
  const value = rest[0];
  if (!field || lists.length !== 1 || !target || !value) return undefined;
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  const binding = bindingName(subject.collection);
  const list = `$${binding}.${identifier(field.path)}`;
  ctx.notes.push(
    `answers whether the ${field.path} of the ${humanNoun(subject.collection.name)} ${subject.param.name} names hold ${value.name}`,
  );
  return [
    { kind: "read", target, ...(missing ? { missing } : {}), as: binding },
    {
      kind: "respond",
      output: (flags[0] as { name: string }).name,
      value: { $expr: `$args.${identifier(value.name)} in (${list} ? ${list} : [])` },
    },
  ];
}
