import type { StateDocument } from "../catalog/index.js";
import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { fieldFor } from "./fields.js";
import { identifier } from "./reads.js";
import type { CollectionShape, FieldShape, RecordShape, StateShape } from "./shape.js";
import { recordTarget } from "./targets.js";
import { recordsAt } from "./transitions.js";
import { namesSignedInAccount, nameWords, singular } from "./words.js";

/**
 * The signed-in account: a record beside the collections that names one of their records by
 * key (`me.handle`, `session.userId`). Writes "as the signed-in user" act on it: a new post
 * is written by it, "your own posts" are the ones it wrote, "set my presence" changes its
 * record. These are the `/user` and `/me` endpoints of GitHub, Slack's `users.profile.set`,
 * and the author of a new post, issue or message on Mastodon, GitHub and Slack.
 */

export interface Principal {
  /** The collection whose record is the signed-in account. */
  collection: CollectionShape;
  /** The record that says who is signed in, and its field holding the key. */
  record: RecordShape;
  field: string;
}

/** The binding under which the record that says who is signed in is read. */
export const SIGNED_IN = "signed_in";

/** Words that name the one who is signed in, not an entity like the others. */
const SELF_WORDS = new Set([
  "me",
  "self",
  "my",
  "session",
  "current",
  "viewer",
  "auth",
  "signed",
  "logged",
  "login",
  "whoami",
  "active",
]);

export function principalOf(shape: StateShape, collection: CollectionShape): Principal | undefined {
  const keys = new Set(collection.keys);
  if (keys.size === 0) return undefined;
  for (const part of shape.parts) {
    if (part.kind !== "record" || part.path.length === 0) continue;
    if (!part.path.some((segment) => nameWords(segment).some((w) => SELF_WORDS.has(w)))) continue;
    const field =
      [...part.fields.values()].find((f) => holdsKey(f, keys)) ??
      [...part.fields.values()].find((f) => namesSignedOut(f, collection));
    if (field) return { collection, record: part, field: field.path };
  }
  return undefined;
}

/**
 * A session that starts signed out names no one yet: its field named for the collection's key
 * (`customer_id` beside `customers`), null in every example, is where a sign-in puts who it is,
 * as Firebase's `currentUser` is null and an OAuth session has no subject until one signs in.
 */
function namesSignedOut(field: FieldShape, collection: CollectionShape): boolean {
  if (field.path.includes(".") || !field.samples.every((s) => s === null)) return false;
  const words = nameWords(field.path);
  const noun = nameWords(singular(collection.name)).join("_");
  return words.at(-1) === "id" && words.slice(0, -1).map(singular).join("_") === noun;
}

function holdsKey(field: FieldShape, keys: ReadonlySet<string>): boolean {
  if (field.path.includes(".")) return false;
  const values = field.samples.filter((s) => typeof s === "string" || typeof s === "number").map(String);
  return values.length > 0 && values.every((v) => keys.has(v));
}

/** Reads the record that says who is signed in, for later effects to use its key. */
export function signedInRead(principal: Principal): Draft {
  return { kind: "read", target: principal.record.path.join("/"), as: SIGNED_IN };
}

/** The signed-in account's key, as a template. */
export function signedInKey(principal: Principal): string {
  return `{$${SIGNED_IN}.${principal.field}}`;
}

/** The signed-in account's key, in an expression. */
export function signedInExpression(principal: Principal): string {
  return `$${SIGNED_IN}.${identifier(principal.field)}`;
}

/** Fields that say who made or owns a record (`author`, `owner_id`, `from`). */
const OWNER_WORDS = new Set([
  "author",
  // a Mastodon status's `account`, a Plaid transaction's `account_id`: the account it belongs to
  "account",
  "owner",
  "creator",
  "sender",
  "from",
  "user",
  "poster",
  "by",
  "organizer",
  "organiser",
  "host",
  "reporter",
]);

/** The field of a record that says who made it, holding keys of the principal's collection. */
export function ownerField(collection: CollectionShape, principal: Principal): string | undefined {
  const owners = [...collection.fields.values()].filter(
    (f) =>
      f.refersTo === principal.collection.name &&
      !f.path.includes(".") &&
      nameWords(f.path).some((w) => OWNER_WORDS.has(w)),
  );
  if (owners.length === 1) return owners[0]?.path;
  // or the one field named for the account's own collection (an order's `customer_id` where
  // customers sign in): whose it is, as Stripe's `customer` and Shopify's `customer_id` say
  const noun = nameWords(singular(principal.collection.name)).join("_");
  const named = [...collection.fields.values()].filter(
    (f) =>
      f.refersTo === principal.collection.name &&
      !f.path.includes(".") &&
      nameWords(f.path)
        .filter((w) => w !== "id")
        .map(singular)
        .join("_") === noun,
  );
  return owners.length === 0 && named.length === 1 ? named[0]?.path : undefined;
}

/**
 * A documented error for acting on what is not one's own ("not your post", "the author is not
 * the signed-in account") refuses a record another account owns.
 */
export function ownGuard(
  ctx: Context,
  collection: CollectionShape,
): { guard: Record<string, unknown>; principal: Principal } | undefined {
  const error = ctx.facts.errors.find((e) =>
    /\bnot (your|yours|the owner|the author|owned by)\b|\bnot the (signed|logged|current)|someone else|another (user|account)/.test(
      e.text,
    ),
  );
  if (!error) return undefined;
  const principals = [...ctx.shape.collections.values()]
    .map((c) => principalOf(ctx.shape, c))
    .filter((p): p is Principal => p !== undefined);
  for (const principal of principals) {
    const owner = ownerField(collection, principal);
    if (!owner) continue;
    ctx.usedErrors.add(error.code);
    ctx.notes.push(`refuses a ${collection.name} record the signed-in account does not own (${error.code})`);
    return {
      guard: { expr: `$subject.${identifier(owner)} = ${signedInExpression(principal)}`, error: error.code },
      principal,
    };
  }
  return undefined;
}

/**
 * A tool that names no record but sets fields of the signed-in account's (`set_presence`,
 * `update_my_profile`), or reads it with no argument (`get_me`), acts on that account's record.
 */
export function ownRecordRule(
  ctx: Context,
  action: "read" | "update",
  amounts?: { increase: ReadonlySet<string>; decrease: ReadonlySet<string> },
): Draft[] | undefined {
  // signing in and out changes the session, not the account
  if (ctx.facts.words.some((w) => /^(login|logout|signin|signout|logon|logoff|authenticate)$/.test(w)))
    return undefined;
  for (const collection of ctx.shape.collections.values()) {
    const principal = principalOf(ctx.shape, collection);
    if (!principal) continue;
    const params = ctx.facts.params;
    const fields = params.map((p) => fieldFor(p, collection));
    if (action === "update" && (params.length === 0 || fields.some((f) => f === undefined))) continue;
    const nested = action === "read" && params.length === 0 ? nestedRecordRead(ctx, collection) : undefined;
    if (
      action === "read" &&
      !nested &&
      (params.length > 0 || !ctx.facts.outputs.some((o) => collection.fields.has(o.name)))
    )
      continue;
    const record = recordTarget(ctx, collection, signedInKey(principal));
    if (!record) continue;
    const target = nested ? `${record}/${nested}` : record;
    const guard = signedInCheck(ctx, principal);
    if (action === "read") {
      ctx.notes.push(
        `reads the signed-in account's record of ${collection.name}${nested ? `, its ${nested}` : ""}`,
      );
      return [signedInRead(principal), ...guard, { kind: "read", target, as: "own", output: "" }];
    }
    const moved = amountOf(ctx, params, fields, amounts);
    if (moved) {
      const { param, field, sign } = moved;
      const short = ctx.facts.errors.find((e) =>
        /insufficient|not enough|exceeds|too (low|little)/i.test(e.text),
      );
      if (short) ctx.usedErrors.add(short.code);
      const path = field.split(".").map(identifier).join(".");
      ctx.notes.push(
        `${sign > 0 ? "adds" : "takes"} ${param.name} ${sign > 0 ? "to" : "from"} ${field} of the signed-in account's record of ${collection.name}${short && sign < 0 ? `, never more than it holds (${short.code})` : ""}`,
      );
      const last = field.split(".").at(-1) as string;
      return [
        signedInRead(principal),
        ...guard,
        {
          kind: "update",
          target: record,
          ...(short && sign < 0
            ? {
                require: [{ expr: `$subject.${path} >= $args.${identifier(param.name)}`, error: short.code }],
              }
            : {}),
          inc: { [field]: sign > 0 ? `{${param.name}}` : { $expr: `-$args.${identifier(param.name)}` } },
          as: "own",
        },
        ...ctx.facts.outputs
          .filter((o) => o.name === last)
          .map((o) => ({ kind: "respond", output: o.name, value: { $expr: `$own.${path}` } })),
      ];
    }
    const set = Object.fromEntries(params.map((p, i) => [fields[i] as string, `{${p.name}}`]));
    ctx.notes.push(
      `sets ${Object.keys(set).join(", ")} of the signed-in account's record of ${collection.name}`,
    );
    return [signedInRead(principal), ...guard, { kind: "update", target, set, as: "own", output: "" }];
  }
  return undefined;
}

/** One amount moved by a deposit- or withdraw-like verb into or out of a number of the account's record (`loyalty.points`). */
function amountOf(
  ctx: Context,
  params: readonly Param[],
  fields: ReadonlyArray<string | undefined>,
  amounts: { increase: ReadonlySet<string>; decrease: ReadonlySet<string> } | undefined,
): { param: Param; field: string; sign: 1 | -1 } | undefined {
  const verb = ctx.facts.verb ?? "";
  const sign = amounts?.increase.has(verb) ? 1 : amounts?.decrease.has(verb) ? -1 : undefined;
  if (!sign || params.length !== 1) return undefined;
  const param = params[0] as Param;
  const field = fields[0];
  if (!field || (param.type !== "integer" && param.type !== "number")) return undefined;
  return { param, field, sign };
}

/**
 * A read of the account's own nested record (`loyalty` of a customer) by a tool that names it
 * (`get_loyalty_account`) and answers its fields: GitHub's `GET /user/...`, the `/me/...`
 * sub-resources of Microsoft Graph and Spotify.
 */
function nestedRecordRead(ctx: Context, collection: CollectionShape): string | undefined {
  const outputs = ctx.facts.outputs.map((o) => o.name);
  if (outputs.length === 0) return undefined;
  const holders = new Set(
    [...collection.fields.keys()].filter((f) => f.includes(".")).map((f) => f.split(".")[0] as string),
  );
  const named = [...holders].filter(
    (h) =>
      ctx.facts.nouns.some((n) => singular(n) === singular(h)) &&
      outputs.every((o) => collection.fields.has(`${h}.${o}`)),
  );
  return named.length === 1 ? named[0] : undefined;
}

/**
 * A tool about the signed-in account's own record that documents an error for no one signed
 * in answers it when no one is: GitHub's `GET /user` and Spotify's `/me` answer 401 without a token.
 */
function signedInCheck(ctx: Context, principal: Principal): Draft[] {
  const error = ctx.facts.errors.find((e) =>
    /log(ged)? ?in|sign(ed)? ?in|authenticat|unauthori/i.test(e.text),
  );
  if (!error) return [];
  ctx.usedErrors.add(error.code);
  return [
    { kind: "check", require: [{ expr: `$boolean(${signedInExpression(principal)})`, error: error.code }] },
  ];
}

/** Who makes a new record, where no argument says: a field to fill, the read that finds them, and their key. */
export interface Maker {
  field: string;
  read: Draft;
  /** Their key, as a template and in an expression. */
  template: string;
  expression: string;
}

/** The binding under which the record a collection lives in is read. */
const HOLDER = "holder";

/** The signed-in account as the maker of a new record, where the record keeps who wrote it. */
export function signedInMaker(principal: Principal, field: string): Maker {
  return {
    field,
    read: signedInRead(principal),
    template: signedInKey(principal),
    expression: signedInExpression(principal),
  };
}

/**
 * The owner of the record a collection lives in (a calendar's `owner`, or the `username` of a
 * client API whose whole state is one account's) makes the records created there, where the
 * records already there name that owner in the one field that says who made them
 * (`organizer`, `username`), or, while there are none, whose schema has a field of the
 * owner field's own name. Google Calendar's `events.insert` makes the calendar's owner
 * the organizer; Microsoft Graph's events and Zoom's meetings are organized or hosted by the
 * account whose calendar holds them.
 */
export function holderMaker(shape: StateShape, collection: CollectionShape): Maker | undefined {
  if (collection.path.length < 1 || collection.path.includes("*")) return undefined;
  const holderPath = collection.path.slice(0, -1).join("/");
  const holder = shape.parts.find(
    (p): p is RecordShape => p.kind === "record" && p.path.join("/") === holderPath,
  );
  if (!holder) return undefined;
  for (const field of holder.fields.values()) {
    if (!saysWho(field) && !namesSignedInAccount(field.path)) continue;
    const owner = field.samples.find((s) => typeof s === "string" || typeof s === "number");
    if (owner === undefined) continue;
    // with no records yet, the schema's field of the holder's own name (`username`) says who
    const made = [...collection.fields.values()].filter((f) =>
      collection.size === 0 ? f.path === field.path : saysWho(f) && f.samples.includes(owner),
    );
    if (made.length !== 1) continue;
    return {
      field: (made[0] as FieldShape).path,
      read: { kind: "read", target: holderPath || ".", as: HOLDER },
      template: `{$${HOLDER}.${field.path}}`,
      expression: `$${HOLDER}.${identifier(field.path)}`,
    };
  }
  return undefined;
}

/** Names of a field that says who someone is: an owner word, or an account's name (`username`, `handle`). */
const WHO_WORDS = new Set([...OWNER_WORDS, "username", "handle", "login"]);

function saysWho(field: FieldShape): boolean {
  return !field.path.includes(".") && namesSomeone(field.path);
}

export function namesSomeone(name: string): boolean {
  return nameWords(name).some((w) => WHO_WORDS.has(w));
}

/** How many records must agree before the way their lists start is taken for a rule. */
const EVIDENCE = 3;

/**
 * Lists of objects that, in every record of the collection, start with an item naming the
 * record's maker, the item's other fields the same everywhere (the organizer first among
 * the attendees, accepted; the owner first among a board's members, as admin): a new
 * record's list starts with its maker the same way. Google Calendar lists the organizer
 * among the attendees as accepted, Trello a board's creator among its members as admin,
 * GitHub a new repository's owner among its collaborators as admin.
 */
export function leadingItems(
  states: readonly StateDocument[],
  collection: CollectionShape,
  maker: Maker,
): Record<string, { $expr: string }> {
  const records = states.flatMap((state) => recordsAt(state, collection.path));
  if (records.length < EVIDENCE) return {};
  const lists: Record<string, { $expr: string }> = {};
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !field.itemFields) continue;
    const firsts = records.map((r) => {
      const list = r[field.path];
      return Array.isArray(list) ? list[0] : undefined;
    });
    if (!firsts.every(isObject)) continue;
    const heads = firsts as Array<Record<string, unknown>>;
    const naming = [...field.itemFields].find((name) =>
      heads.every((head, i) => head[name] !== undefined && head[name] === records[i]?.[maker.field]),
    );
    if (!naming) continue;
    const others = [...field.itemFields].filter((name) => name !== naming);
    const constant = (name: string) =>
      heads.every((head) => isScalar(head[name]) && head[name] === heads[0]?.[name]);
    if (!others.every(constant)) continue;
    const parts = [
      `${JSON.stringify(naming)}: ${maker.expression}`,
      ...others.map((name) => `${JSON.stringify(name)}: ${JSON.stringify(heads[0]?.[name])}`),
    ];
    lists[field.path] = { $expr: `[{${parts.join(", ")}}]` };
  }
  return lists;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}
