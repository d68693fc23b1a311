import { type Context, notFoundError } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { fieldFor } from "./fields.js";
import type { Reference } from "./resolve.js";
import { type CollectionShape, outline } from "./shape.js";
import { referenceTarget } from "./targets.js";
import { nameWords, singular } from "./words.js";

/** Reads by key, lookups by other fields, and lists. */

export function readRule(ctx: Context, subject: Reference): Draft[] {
  const target = referenceTarget(ctx, subject);
  if (!target) return [];
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  ctx.notes.push(`reads ${describeTarget(target)} by ${subject.param.name}`);
  return [
    ...parentChecks(ctx, subject),
    {
      kind: "read",
      target,
      ...(missing ? { missing } : {}),
      as: bindingName(subject.collection),
      output: "",
    },
  ];
}

/** The entity a nested one lives in must exist first, answered by its own not-found error. */
export function parentChecks(ctx: Context, subject: Reference): Draft[] {
  const parent = subject.collection.parent;
  const named = parent ? ctx.references.find((r) => r.collection.name === parent && !r.many) : undefined;
  if (!named) return [];
  const missing = notFoundError(ctx, named.collection, named.param.name, { add: false });
  return [{ kind: "read", target: `${parent}/{${named.param.name}}`, ...(missing ? { missing } : {}) }];
}

/**
 * A read whose arguments are fields of the entities rather than their key: `find_member_id_by_phone`,
 * `search_rooms(city, check_in, nights)`. It lists what matches; a tool that says it finds
 * an id answers the id, and its documented not-found error answers when nothing matches.
 */
export function lookupRule(ctx: Context, collection: CollectionShape): Draft[] | undefined {
  const where: Record<string, string> = {};
  const filters: string[] = [];
  const unmatched: string[] = [];
  for (const param of ctx.facts.params) {
    const field = fieldFor(param, collection);
    if (field) {
      where[field] = `{${param.name}}`;
      continue;
    }
    const map = mapFieldFor(param, collection);
    if (map) filters.push(`$exists($lookup(${pathExpression(map)}, $args.${identifierOf(param.name)}))`);
    else unmatched.push(param.name);
  }
  if (Object.keys(where).length === 0 && filters.length === 0 && ctx.facts.params.length > 0)
    return undefined;
  if (unmatched.length > 0)
    ctx.notes.push(`argument(s) ${unmatched.join(", ")} match no field of ${collection.name}`);
  const answersId = answersAnId(ctx, collection);
  const missing =
    answersId || ctx.facts.errors.some((e) => e.kind === "not-found")
      ? notFoundError(ctx, collection, singular(collection.name), { add: false })
      : undefined;
  const binding = "matches";
  const list: Draft = {
    kind: "list",
    target: collection.name,
    ...(Object.keys(where).length > 0 ? { where } : {}),
    ...(filters.length > 0 ? { filter: filters.join(" and ") } : {}),
    ...(missing ? { missing } : {}),
    as: binding,
  };
  const described = Object.keys(where).concat(filters.length > 0 ? ["a key of a map field"] : []);
  ctx.notes.push(
    `lists ${collection.name}${described.length > 0 ? ` where ${described.join(", ")}` : ""}${missing ? `; none: ${missing}` : ""}`,
  );
  if (answersId) {
    const keyField = collection.keyField ?? keyFieldName(ctx, collection);
    if (!collection.keyField) ctx.keyFields.set(collection.name, keyField);
    const plural = ctx.facts.words.includes("ids");
    ctx.notes.push(`answers the ${plural ? "ids" : "id"} (${keyField}) of what matches`);
    return [
      { ...list, ...(plural ? {} : { limit: 1 }) },
      {
        kind: "respond",
        value: { $expr: plural ? `$${binding}.${keyField}` : `$${binding}[0].${keyField}` },
      },
    ];
  }
  return [list, { kind: "respond", value: { $expr: listAnswer(ctx, collection, binding) } }];
}

/** The tool's name or description says it finds an id (`find_member_id_by_phone`, "returns the customer id"). */
function answersAnId(ctx: Context, collection: CollectionShape): boolean {
  const noun = nameWords(singular(collection.name)).join("_");
  const name = ctx.facts.words.join("_");
  if (new RegExp(`(^|_)${noun}_ids?(_|$)`).test(name) || /(^|_)ids?(_|$)/.test(name.replace(/_by_.*/, "")))
    return true;
  return new RegExp(
    `\\b(returns?|finds?|looks? up|gets?)\\s+(the\\s+)?${noun.replace(/_/g, " ")}\\s+ids?\\b`,
    "i",
  ).test(ctx.facts.text);
}

/** The name a key field takes when entities lack one: the argument other tools name this collection by. */
function keyFieldName(ctx: Context, collection: CollectionShape): string {
  const noun = nameWords(singular(collection.name)).join("_");
  for (const sibling of ctx.siblings())
    for (const param of sibling.params)
      if (param.identifier && param.type !== "array" && param.words.slice(0, -1).join("_") === noun)
        return param.name;
  return `${noun}_id`;
}

/** An object field keyed by values shaped like the argument's examples (a flight's `dates` for a `date`). */
function mapFieldFor(param: Param, collection: CollectionShape): string | undefined {
  const examples = param.examples.map(outline);
  for (const field of collection.fields.values()) {
    if (!field.mapKeys || field.mapKeys.size === 0) continue;
    const keys = [...field.mapKeys].map(outline);
    if (examples.some((e) => keys.includes(e)) || (sameWordStem(param.name, field.path) && keys.length > 0))
      return field.path;
  }
  return undefined;
}

function sameWordStem(a: string, b: string): boolean {
  return singular(nameWords(a).join("_")) === singular(nameWords(b).join("_"));
}

/** A list of everything in the collection (`list_all_products`), filtered by any argument that is a field. */
export function listRule(ctx: Context, collection: CollectionShape): Draft[] {
  const where: Record<string, string> = {};
  let limit: string | undefined;
  for (const param of ctx.facts.params) {
    const field = fieldFor(param, collection);
    if (field) where[field] = `{${param.name}}`;
    else if (/^(limit|max|max_results|page_size|count|top|n)$/.test(param.name) && param.type === "integer")
      limit = `{${param.name}}`;
  }
  ctx.notes.push(
    `lists ${collection.name}${Object.keys(where).length > 0 ? ` where ${Object.keys(where).join(", ")}` : ""}`,
  );
  return [
    {
      kind: "list",
      target: collection.name,
      ...(Object.keys(where).length > 0 ? { where } : {}),
      ...(limit ? { limit } : {}),
      as: "matches",
      output: collection.name,
    },
    { kind: "respond", value: { $expr: listAnswer(ctx, collection, "matches") } },
  ];
}

/** The matches, or only the fields of each the description names. */
function listAnswer(ctx: Context, collection: CollectionShape, binding: string): string {
  const fields = statedFields(ctx.facts.text, collection);
  if (!fields) return `$${binding}`;
  ctx.notes.push(`answers only ${fields.join(", ")} of each (the description says so)`);
  return `[$${binding}.{${fields.map((f) => `${JSON.stringify(f)}: \`${f}\``).join(", ")}}]`;
}

/**
 * "List the name and product id of all product types": the fields a list answers, when the
 * description names them and each is a field of the entities.
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
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : "entity";
}

function describeTarget(target: string): string {
  return target.replace(/\{[^}]+\}/g, "…");
}

function identifierOf(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``;
}

function pathExpression(path: string): string {
  return path
    .split(".")
    .map((p) => identifierOf(p))
    .join(".");
}
