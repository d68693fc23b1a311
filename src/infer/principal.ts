import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import { fieldFor } from "./fields.js";
import { identifier } from "./reads.js";
import type { CollectionShape, FieldShape, RecordShape, StateShape } from "./shape.js";
import { recordTarget } from "./targets.js";
import { nameWords } from "./words.js";

/**
 * The signed-in account: a record beside the collections that names one of their records by
 * key (`me.handle`, `session.userId`). Writes "as the signed-in user" act on it: a new post
 * is written by it, "your own posts" are the ones it wrote, "set my presence" changes its
 * record. These are the `/user` and `/me` endpoints of GitHub, Slack's `users.profile.set`,
 * and the author of a new tweet, issue or message on X, GitHub and Slack.
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
    const field = [...part.fields.values()].find((f) => holdsKey(f, keys));
    if (field) return { collection, record: part, field: field.path };
  }
  return undefined;
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
  return owners.length === 1 ? owners[0]?.path : undefined;
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
export function ownRecordRule(ctx: Context, action: "read" | "update"): Draft[] | undefined {
  for (const collection of ctx.shape.collections.values()) {
    const principal = principalOf(ctx.shape, collection);
    if (!principal) continue;
    const params = ctx.facts.params;
    const fields = params.map((p) => fieldFor(p, collection));
    if (action === "update" && (params.length === 0 || fields.some((f) => f === undefined))) continue;
    if (
      action === "read" &&
      (params.length > 0 || !ctx.facts.outputs.some((o) => collection.fields.has(o.name)))
    )
      continue;
    const target = recordTarget(ctx, collection, signedInKey(principal));
    if (!target) continue;
    const set = Object.fromEntries(params.map((p, i) => [fields[i] as string, `{${p.name}}`]));
    ctx.notes.push(
      action === "read"
        ? `reads the signed-in account's record of ${collection.name}`
        : `sets ${Object.keys(set).join(", ")} of the signed-in account's record of ${collection.name}`,
    );
    return [
      signedInRead(principal),
      action === "read"
        ? { kind: "read", target, as: "own", output: "" }
        : { kind: "update", target, set, as: "own", output: "" },
    ];
  }
  return undefined;
}
