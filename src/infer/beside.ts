import { isPlainObject } from "../patch/index.js";
import { type Context, notFoundError } from "./context.js";
import type { Draft } from "./drafts.js";
import { namesSomeone } from "./principal.js";
import { identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { ValuesShape } from "./shape.js";
import { referenceTarget } from "./targets.js";
import { nameWords, VERBS } from "./words.js";

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
  const given = ctx.facts.params.filter((p) => p !== subject.param && fields.has(p.name));
  if (given.length === 0) return undefined;
  const holderPath = map.path.slice(0, -1);
  // the account the whole state is writes it, where the items say who wrote them
  const who =
    holderPath.length === 0
      ? [...fields].find((f) => namesSomeone(f) && ctx.shape.root.fields.has(f))
      : undefined;
  const item: Record<string, string> = who ? { [who]: `$subject.${identifier(who)}` } : {};
  for (const param of given) item[param.name] = `$args.${identifier(param.name)}`;
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
