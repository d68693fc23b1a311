import { isPlainObject } from "../patch/index.js";
import { type Context, notFoundError } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { namesSomeone } from "./principal.js";
import { identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { ValuesShape } from "./shape.js";
import { referenceTarget } from "./targets.js";
import { nameWords, singular, VERBS } from "./words.js";

/**
 * Lists kept beside a collection, keyed by its records' keys (`comments: {"<post id>": […]}`,
 * `reviews` by product id): a tool that makes one about a record (`comment_on_post`,
 * `respond_to_post`) appends it to the list under that record's key, making the list where
 * there is none, and the record must exist. The item takes the arguments its siblings' fields
 * are named by, and who wrote it from the account the state is (`username` at its top). These
 * are the sub-collections of JSON Server's `/posts/1/comments`, Firebase's
 * `comments/{postId}` lists and Redis lists keyed by a record's id.
 */
export function besideListRule(ctx: Context, subject: Reference): Draft[] | undefined {
  const verb = ctx.facts.verb;
  if (!verb || verb.length < 4 || !VERBS.create.includes(verb)) return undefined;
  const map = besideList(ctx, subject, verb);
  const target = referenceTarget(ctx, subject);
  if (!map || !target) return undefined;
  const fields = new Set(
    map.values
      .flatMap((v) => (Array.isArray(v) ? v : []))
      .filter(isPlainObject)
      .flatMap(Object.keys),
  );
  const noun = nameWords(map.name).map(singular);
  const given = ctx.facts.params
    .filter((p) => p !== subject.param)
    .map((p) => ({ param: p, field: itemField(p.words, fields, noun) }))
    .filter((g): g is { param: Param; field: string } => g.field !== undefined);
  if (given.length === 0) return undefined;
  const holderPath = map.path.slice(0, -1);
  // the account the record holding the lists is writes it, where the items say who wrote them
  const holder = ctx.shape.parts.find(
    (p) =>
      p.kind === "record" &&
      p.path.length === holderPath.length &&
      p.path.every((s, i) => s === holderPath[i]),
  );
  const who = holder?.kind === "record" ? writer([...fields], holder.fields) : undefined;
  const item: Record<string, string> = who ? { [who.field]: `$subject.${identifier(who.from)}` } : {};
  for (const { param, field } of given) item[field] = `$args.${identifier(param.name)}`;
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  const lists = `$subject.${identifier(map.name)}`;
  const key = `$string($args.${identifier(subject.param.name)})`;
  const kept = `$lookup(${lists}, ${key})`;
  const object = Object.entries(item)
    .map(([field, value]) => `${JSON.stringify(field)}: ${value}`)
    .join(", ");
  ctx.notes.push(
    `appends to the ${map.name} kept under the ${subject.param.name} it names (${Object.keys(item).join(", ")})`,
  );
  return [
    { kind: "read", target, ...(missing ? { missing } : {}) },
    {
      kind: "update",
      target: holderPath.join("/") || ".",
      set: {
        [map.name]: {
          $expr: `$merge([${lists} ? ${lists} : {}, {${key}: $append(${kept} ? ${kept} : [], [{${object}}])}])`,
        },
      },
    },
  ];
}

/**
 * The field of the items that says who wrote them, and the holder's field that says who the
 * account is: the same name (`username`), or the account's name (`username`, `handle`,
 * `login`) for an `author` or `user` field of the items.
 */
function writer(
  fields: readonly string[],
  holder: ReadonlyMap<string, unknown>,
): { field: string; from: string } | undefined {
  const same = fields.find((f) => namesSomeone(f) && holder.has(f));
  if (same) return { field: same, from: same };
  const someone = fields.filter((f) => namesSomeone(f));
  const account = ["username", "user_name", "handle", "login", "user"].filter((f) => holder.has(f));
  return someone.length === 1 && account.length === 1
    ? { field: someone[0] as string, from: account[0] as string }
    : undefined;
}

/**
 * The field of an item an argument fills: its own name, its name without the list's noun
 * (`comment_content` → `content`), or the noun alone (`comment_text` → `comment`) where
 * the items keep their text under it.
 */
function itemField(
  words: readonly string[],
  fields: ReadonlySet<string>,
  noun: readonly string[],
): string | undefined {
  const whole = words.join("_");
  if (fields.has(whole)) return whole;
  const rest = words.filter((w) => !noun.includes(singular(w))).join("_");
  if (rest && fields.has(rest)) return rest;
  const named = noun.join("_");
  return rest !== whole && fields.has(named) ? named : undefined;
}

/** The one map of lists beside the subject's collection, keyed by its keys, named like the verb. */
function besideList(ctx: Context, subject: Reference, verb: string): ValuesShape | undefined {
  const keys = new Set(subject.collection.keys);
  const stem = verb.slice(0, 4);
  const maps = ctx.shape.parts.filter(
    (p): p is ValuesShape =>
      p.kind === "values" &&
      p.valueType === "array" &&
      !p.path.includes("*") &&
      (nameWords(p.name)[0] ?? "").startsWith(stem) &&
      p.keys.length > 0 &&
      p.keys.every((k) => keys.has(k)),
  );
  return maps.length === 1 ? maps[0] : undefined;
}
