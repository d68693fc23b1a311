import { addError, type Context, humanNoun, notFoundError, use } from "./context.js";
import { type Draft, isExpression } from "./drafts.js";
import {
  fieldFor,
  recordFieldFor,
  requiredStatuses,
  statedStatus,
  statusAfter,
  statusField,
} from "./fields.js";
import { describeSwap, jsonataName, type Swap, swapExpression, swapsOf } from "./items.js";
import { payerChange, priceDifference, refundsToBalance } from "./money.js";
import { onceOnly } from "./once.js";
import { bindingName } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape, StateShape } from "./shape.js";
import { type Bound, referenceTarget } from "./targets.js";
import { type Transition, transitionsOf } from "./transitions.js";
import { nameWords, PLAIN_UPDATE_VERBS, plural, sameNoun, singular } from "./words.js";

/** Updates, deletes and creates, with the guards and reference checks their texts state. */

export function updateRule(ctx: Context, subject: Reference): Draft[] {
  const target = referenceTarget(ctx, subject);
  if (!target) return [];
  const collection = subject.collection;
  const binding = bindingName(collection);
  const bound = { collection, binding };
  const swaps = swapsOf(ctx, collection);
  // a plain update swaps the items itself; any other verb files a request that records them
  const settles = ctx.facts.verb !== undefined && PLAIN_UPDATE_VERBS.has(ctx.facts.verb);
  const set = argumentFields(ctx, subject, settles ? swaps : []);
  const status = statusAfter(ctx, collection);
  if (status && set[status.field] === undefined) {
    set[status.field] = status.value;
    ctx.notes.push(`sets ${status.field} to '${status.value}' (${status.rule})`);
  }
  const once = onceOnly(ctx, collection, status?.value);
  if (once) set[once.field] ??= "{$now}";
  const missing = notFoundError(ctx, collection, subject.param.name, { add: true });
  const require = [...statusGuards(ctx, collection), ...(once ? [once.guard] : [])];
  const learned = status
    ? learnedChanges(ctx, collection, status.field, status.value, binding)
    : { set: {}, transitions: [] };
  for (const swap of settles ? swaps : []) {
    set[swap.list.path] ??= { $expr: swapExpression(swap, binding) };
    ctx.notes.push(describeSwap(swap));
  }
  for (const [field, value] of Object.entries(learned.set)) set[field] ??= value;
  const checks = referenceChecks(ctx, subject, [bound]);
  const write = { subject: bound, swaps, settles, payerReads: checks };
  const money = swaps.length > 0 ? priceDifference(ctx, write) : payerChange(ctx, write);
  for (const [field, value] of Object.entries(money.set)) set[field] ??= value;
  const after = [...money.after, ...refundsToBalance(ctx, bound, learned.transitions)];
  if (!Object.values(set).some(isExpression) && money.before.length === 0 && after.length === 0)
    return [
      { kind: "update", target, ...(missing ? { missing } : {}), require, set, as: binding, output: "" },
      ...checks,
    ];
  // values computed from the entity as it was: read it first, under the name they use
  return [
    { kind: "read", target, ...(missing ? { missing } : {}), require, as: binding },
    ...checks,
    ...money.before,
    { kind: "update", target, set, as: binding, output: "" },
    ...after,
  ];
}

/** The fields the arguments set: the entity's own, else the action's record of them; swapped lists set none. */
function argumentFields(ctx: Context, subject: Reference, swaps: readonly Swap[]): Record<string, unknown> {
  const swapped = new Set(swaps.flatMap((s) => [s.old, s.replacement]));
  const set: Record<string, unknown> = {};
  const unmapped: string[] = [];
  for (const param of ctx.facts.params) {
    if (param.name === subject.param.name || swapped.has(param)) continue;
    const field = fieldFor(param, subject.collection) ?? recordFieldFor(ctx, param);
    if (field) set[field] = `{${param.name}}`;
    else if (!ctx.references.some((r) => r.param === param)) unmapped.push(param.name);
  }
  const mapped = Object.entries(set);
  if (mapped.length > 0)
    ctx.notes.push(
      `sets ${mapped.map(([field, value]) => `${field} from ${String(value).slice(1, -1)}`).join(", ")}`,
    );
  if (unmapped.length > 0)
    ctx.notes.push(`argument(s) ${unmapped.join(", ")} set no field of ${subject.collection.name}`);
  return set;
}

/** The changes the state shows this status change brings (see transitions.ts), as values to set. */
function learnedChanges(
  ctx: Context,
  collection: CollectionShape,
  statusPath: string,
  status: string,
  binding: string,
): { set: Record<string, unknown>; transitions: Transition[] } {
  const { values } = requiredStatuses(ctx, collection);
  const set: Record<string, unknown> = {};
  const transitions = transitionsOf(ctx.states, collection.name, statusPath, values, status);
  for (const change of transitions) {
    if (change.kind === "timestamp") set[change.field] = "{$now}";
    else if (change.kind === "constant") set[change.field] = change.value;
    else {
      const items = `$${binding}.${jsonataName(change.field)}`;
      const key = jsonataName(change.key);
      set[change.field] = {
        $expr: `$append(${items}, ${items}[${key} = ${JSON.stringify(change.from)}].$merge([$, {${JSON.stringify(change.key)}: ${JSON.stringify(change.to)}}]))`,
      };
    }
    ctx.notes.push(
      `${describeTransition(change)} (as the ${humanNoun(collection.name)}s already '${status}' show)`,
    );
  }
  return { set, transitions };
}

function describeTransition(change: Transition): string {
  if (change.kind === "timestamp") return `sets ${change.field} to the time of the change`;
  if (change.kind === "constant") return `sets ${change.field} to ${JSON.stringify(change.value)}`;
  return `adds to ${change.field} a copy of each element with ${change.key} '${change.from}', as '${change.to}'`;
}

export function deleteRule(ctx: Context, subject: Reference): Draft[] {
  const target = referenceTarget(ctx, subject);
  if (!target) return [];
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  ctx.notes.push(`deletes the ${humanNoun(subject.collection.name)} ${subject.param.name} names`);
  return [
    {
      kind: "delete",
      target,
      ...(missing ? { missing } : {}),
      require: statusGuards(ctx, subject.collection),
      as: bindingName(subject.collection),
      output: "",
    },
    ...referenceChecks(ctx, subject, []),
  ];
}

/**
 * A write names other entities too (the payment method to use, the items to return): each
 * must exist, answered by the tool's documented not-found error for it. Items named inside
 * the subject (`item_ids` of an order's `items`) must be among them.
 */
function referenceChecks(ctx: Context, subject: Reference | undefined, bound: readonly Bound[]): Draft[] {
  const checks: Draft[] = [];
  for (const reference of ctx.references) {
    if (reference === subject) continue;
    const inside = subject && reference.many ? elementsOf(subject.collection, reference) : undefined;
    if (inside && subject) {
      const error = notFoundError(ctx, reference.collection, reference.param.name, { add: false });
      if (!error) continue;
      const binding = bound[0]?.binding ?? bindingName(subject.collection);
      checks.push({
        kind: "check",
        require: [
          {
            expr: `$count($args.${reference.param.name}[$not($ in $${binding}.${inside.array}.${inside.key})]) = 0`,
            error,
          },
        ],
      });
      ctx.notes.push(`checks every ${reference.param.name} is among the ${inside.array} (${error})`);
      continue;
    }
    if (reference.many) continue;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: false });
    if (!missing) continue;
    const target = referenceTarget(ctx, reference, bound);
    if (!target) continue;
    const named = bindingName(reference.collection);
    const as = bound.some((b) => b.binding === named) ? `${named}_given` : named;
    checks.push({ kind: "read", target, missing, as });
    ctx.notes.push(`checks ${reference.param.name} exists (${missing})`);
    const either = bound[0] ? eitherCheck(ctx, reference, bound[0], as) : undefined;
    if (either) checks.push(either);
  }
  return checks;
}

/**
 * "the card must be either the one on file or a prepaid card": the entity an
 * argument names must be the one the subject already holds (the first, when it holds a list)
 * or of the kind named, read from the field whose values name kinds (`kind: prepaid_card`).
 */
function eitherCheck(ctx: Context, reference: Reference, subject: Bound, as: string): Draft | undefined {
  for (const error of ctx.facts.errors) {
    const said =
      /\b(?:should|must) be (?:either )?(?:the )?(?:original|current|same|existing) ([a-z ]+?) or (?:a |an |the )?([a-z ]+?)(?:[.,;]|$)/.exec(
        error.text,
      );
    if (!said?.[1] || !said[2] || !sameNoun(said[1].trim().replace(/ /g, "_"), reference.collection.name))
      continue;
    const held = heldReference(subject.collection, reference);
    const kind = kindValue(reference.collection, said[2].trim());
    if (!held || !kind) continue;
    const param = jsonataName(reference.param.name);
    ctx.notes.push(
      `checks ${reference.param.name} is the one the ${subject.binding} holds or a ${said[2].trim()} (${use(ctx, error)})`,
    );
    return {
      kind: "check",
      require: [
        {
          expr: `$args.${param} = $${subject.binding}.${held} or $${as}.${jsonataName(kind.field)} = ${JSON.stringify(kind.value)}`,
          error: error.code,
        },
      ],
    };
  }
  return undefined;
}

/** Where the subject keeps the key of the entity an argument names: a field of that name, or the first of a list. */
function heldReference(subject: CollectionShape, reference: Reference): string | undefined {
  const name = reference.param.name;
  const direct =
    subject.fields.get(name) ??
    [...subject.fields.values()].find((f) => f.refersTo === reference.collection.name);
  if (direct && !direct.types.has("array")) return jsonataName(direct.path);
  const list = [...subject.fields.values()].find((f) => !f.path.includes(".") && f.itemFields?.has(name));
  return list ? `${jsonataName(list.path)}[0].${jsonataName(name)}` : undefined;
}

/** The field of a collection whose values include the kind a text names (`prepaid card` → kind: prepaid_card). */
function kindValue(collection: CollectionShape, kind: string): { field: string; value: string } | undefined {
  const wanted = nameWords(kind).join("_");
  for (const field of collection.fields.values())
    for (const value of field.values.keys())
      if (nameWords(value).join("_") === wanted) return { field: field.path, value };
  return undefined;
}

/** The array of the subject whose elements carry the keys an array argument lists (`items` for `item_ids`). */
function elementsOf(
  subject: CollectionShape,
  reference: Reference,
): { array: string; key: string } | undefined {
  const key = nameWords(reference.param.name)
    .map((w, i, all) => (i === all.length - 1 ? singular(w) : w))
    .join("_");
  const array = [...subject.fields.values()].find((f) => !f.path.includes(".") && f.itemFields?.has(key));
  return array ? { array: array.path, key } : undefined;
}

/** Guards on the subject's status the tool's name, description or errors state plainly. */
export function statusGuards(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const field = statusField(collection);
  if (!field) return [];
  const { values, notIn } = requiredStatuses(ctx, collection);
  const wanted = values.length > 0 ? values : notIn;
  if (wanted.length === 0) return [];
  const error = statusError(ctx, collection, wanted, values.length > 0);
  const guard =
    values.length > 0 ? { field: field.path, in: values, error } : { field: field.path, notIn, error };
  ctx.notes.push(
    `requires ${field.path} ${values.length > 0 ? "in" : "not in"} [${wanted.join(", ")}] (${error})`,
  );
  return [guard];
}

function statusError(
  ctx: Context,
  collection: CollectionShape,
  statuses: readonly string[],
  required: boolean,
): string {
  const mentions = ctx.facts.errors.filter(
    (e) => e.kind !== "not-found" && statuses.some((s) => e.text.includes(s.toLowerCase())),
  );
  const chosen = mentions.find((e) => e.text.includes("non-")) ?? mentions[0];
  if (chosen) return use(ctx, chosen);
  const noun = humanNoun(collection.name);
  const status = statuses.join(" or ");
  const code = `${noun.replace(/ /g, "_").toUpperCase()}_${required ? "NOT" : "ALREADY"}_${nameWords(
    statuses[0] ?? "",
  )
    .join("_")
    .toUpperCase()}`;
  return addError(ctx, {
    code,
    status: 409,
    message: required ? `The ${noun} is not ${status}.` : `The ${noun} is already ${status}.`,
    when: required
      ? `The ${noun} is not ${status} (inferred from the tool's name and description).`
      : `The ${noun} is ${status} (inferred from the tool's description).`,
  });
}

/**
 * A create files a new entity in the collection the tool's name names (or a new one), under
 * an id minted like the collection's keys, with the arguments that are its fields, the
 * clock in its creation timestamp, and its id appended to the list that the entity it
 * references keeps of them (a user's `reservations`).
 */
export function createRule(ctx: Context, collection: CollectionShape | undefined, noun: string): Draft[] {
  if (collection?.parent) return nestedCreate(ctx, collection, noun);
  const name = collection?.name ?? pluralNoun(noun);
  const set: Record<string, unknown> = {};
  for (const param of ctx.facts.params) {
    const field = collection ? fieldFor(param, collection) : param.name;
    if (field) set[field] = `{${param.name}}`;
  }
  for (const field of collection ? createdAtFields(collection) : ["created_at"]) set[field] ??= "{$now}";
  const stated = statedStatus(ctx.facts.text);
  const statusPath = collection ? statusField(collection)?.path : undefined;
  if (stated) set[statusPath ?? "status"] = stated;
  const keyField = collection?.keyField ?? `${nameWords(singular(name)).join("_")}_id`;
  const binding = bindingName(collection ?? ({ name } as CollectionShape));
  const drafts: Draft[] = [
    { kind: "create", target: name, id: mintOf(collection, name, keyField), set, as: binding, output: "" },
  ];
  ctx.notes.push(
    `creates a ${humanNoun(name)} in ${name}${collection ? "" : " (a new collection)"} with ${Object.keys(set).join(", ") || "no fields"}`,
  );
  for (const reference of ctx.references) {
    if (reference.many || reference.collection.parent) continue;
    const list = [...reference.collection.fields.values()].find(
      (f) => f.refersTo === name && f.types.has("array"),
    );
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    const target = `${reference.collection.name}/{${reference.param.name}}`;
    const named = missing ? { missing } : {};
    // the entity that keeps a list of these gets the new id; any other must merely exist
    drafts.push(
      list
        ? { kind: "update", target, ...named, append: { [list.path]: "{$id}" } }
        : { kind: "read", target, ...named },
    );
    if (list) ctx.notes.push(`appends the new id to ${reference.collection.name}.${list.path}`);
  }
  return drafts;
}

/** A create of something kept inside another entity (a certificate among a user's payment methods). */
function nestedCreate(ctx: Context, collection: CollectionShape, noun: string): Draft[] {
  const parent = ctx.references.find((r) => r.collection.name === collection.parent && !r.many);
  if (!parent) {
    ctx.notes.push(
      `a ${noun} lives inside ${collection.parent}, but no argument names the ${collection.parent} entity`,
    );
    return [];
  }
  const kinds = kindFields(collection, noun);
  const set: Record<string, unknown> = {};
  for (const param of ctx.facts.params) {
    if (param === parent.param) continue;
    const field = fieldFor(param, collection);
    if (field) set[field] = `{${param.name}}`;
  }
  for (const field of kinds) set[field] = noun;
  const prefixed = collection.keys.filter((k) => k.startsWith(`${noun}_`));
  const digits = prefixed.map((k) => k.slice(noun.length + 1)).filter((rest) => /^[0-9]+$/.test(rest));
  const id = {
    prefix: prefixed.length > 0 ? `${noun}_` : "",
    width: Math.max(4, ...digits.map((d) => d.length)),
    ...(collection.keyField ? { field: collection.keyField } : {}),
  };
  const missing = notFoundError(ctx, parent.collection, parent.param.name, { add: true });
  ctx.notes.push(
    `creates a ${noun} in ${collection.parent}.${collection.name} of the ${humanNoun(collection.parent ?? "")} ${parent.param.name} names`,
  );
  return [
    { kind: "read", target: `${collection.parent}/{${parent.param.name}}`, ...(missing ? { missing } : {}) },
    {
      kind: "create",
      target: `${collection.parent}/{${parent.param.name}}/${collection.name}`,
      id,
      set,
      as: nameWords(noun).join("_"),
      output: "",
    },
  ];
}

/** Fields of a nested collection whose value says what kind an entry is, where the noun is one of them. */
function kindFields(collection: CollectionShape, noun: string): string[] {
  return [...collection.fields.values()]
    .filter((f) => !f.open && [...f.values.keys()].some((v) => sameNoun(v, noun)))
    .map((f) => f.path);
}

/** A nested collection whose entries include the noun as their kind (`source: certificate`) or key prefix. */
export function nestedKindCollection(shape: StateShape, noun: string): CollectionShape | undefined {
  return [...shape.nested.values()].find(
    (c) => kindFields(c, noun).length > 0 || c.keys.some((k) => k.startsWith(`${noun}_`)),
  );
}

function createdAtFields(collection: CollectionShape): string[] {
  return [...collection.fields.values()]
    .filter(
      (f) =>
        !f.path.includes(".") &&
        /^(created|creation|booked|placed|submitted|opened|requested)(_at|_on|_date|_time)?$/.test(f.path) &&
        [...f.values.keys()].some((v) => /^\d{4}-\d{2}-\d{2}/.test(v)),
    )
    .map((f) => f.path);
}

/** Ids like the collection's keys: its prefix and digit count, else a 3-letter prefix from the noun. */
function mintOf(collection: CollectionShape | undefined, name: string, keyField: string) {
  const format = collection?.keyFormat;
  if (format?.digits !== undefined) return { prefix: format.prefix, width: format.digits, field: keyField };
  if (format) {
    const width = Math.min(12, Math.max(4, format.length - format.prefix.length));
    return { prefix: format.prefix, width, field: keyField };
  }
  const letters = nameWords(singular(name))
    .join("")
    .replace(/[^a-z]/g, "")
    .slice(0, 3)
    .toUpperCase();
  return { prefix: letters ? `${letters}-` : "", width: 4, field: keyField };
}

/** `booking` → `bookings`, `payment_method` → `payment_methods`. */
export function pluralNoun(noun: string): string {
  const words = nameWords(noun);
  return [...words.slice(0, -1), plural(words.at(-1) ?? noun)].join("_");
}
