import { addError, type Context, use } from "./context.js";
import { holderOf } from "./creates.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier, singleArrayOutput } from "./reads.js";
import type { CollectionShape } from "./shape.js";
import { JOIN_VERBS, LEAVE_VERBS, nameWords, singular, VERBS } from "./words.js";

/**
 * Lists of pairs: records that are each one key and one value, kept in order
 * (`[{"USR2": "hello"}, {"USR3": "hi"}]`), the shape of a log of who-got-what, of HTTP
 * header lists and of query strings. A new pair is appended; a pair is removed by its key
 * (the latest one where the text says so); values are searched; pairs are grouped by key.
 */

/** The collections a write may add a pair to, when its name names no part: the world's only list of pairs. */
export function pairsList(ctx: Context): CollectionShape | undefined {
  const lists = [...ctx.shape.collections.values()].filter((c) => c.pairs);
  return lists.length === 1 ? lists[0] : undefined;
}

/** The argument that is a pair's key (an id), and the one that is its value (the text). */
function keyAndValue(ctx: Context): { key?: Param; value?: Param } {
  const strings = ctx.facts.params.filter((p) => p.type === "string" || p.type === "integer");
  const key = strings.find((p) => p.identifier);
  const value = strings.find((p) => p !== key && !p.identifier);
  return { key, value };
}

export function pairsRule(ctx: Context, list: CollectionShape): Draft[] | undefined {
  const holder = holderOf(ctx.shape, list);
  if (!holder) return undefined;
  const target = holder.path.join("/") || ".";
  const field = list.name;
  const verb = ctx.facts.verb ?? "";
  const { key, value } = keyAndValue(ctx);
  const current = `$subject.${identifier(field)}`;
  if ((VERBS.create.includes(verb) || JOIN_VERBS.has(verb)) && key && value) {
    ctx.notes.push(`appends {${key.name}: ${value.name}} to ${list.path.join("/")}`);
    return [
      {
        kind: "update",
        target,
        set: {
          [field]: {
            $expr: `$append(${current} ? ${current} : [], {$args.${identifier(key.name)}: $args.${identifier(value.name)}})`,
          },
        },
      },
      ...countsOf(ctx, holder.path, list),
    ];
  }
  if ((LEAVE_VERBS.has(verb) || VERBS.delete.includes(verb)) && key)
    return removePair(ctx, target, field, key);
  if (VERBS.read.includes(verb) || ctx.facts.tool.annotations?.readOnlyHint === true)
    return readPairs(ctx, list);
  return undefined;
}

/** Removes the pairs under a key, or only the latest one where the tool says so; none there is not found. */
function removePair(ctx: Context, target: string, field: string, key: Param): Draft[] {
  const latest = /\b(latest|last|most recent|newest)\b/i.test(ctx.facts.text);
  const current = `$subject.${identifier(field)}`;
  const has = `$exists($lookup($e, $args.${identifier(key.name)}))`;
  const kept = latest
    ? `($at := $max([-1, $map(${current}, function($e, $i) { ${has} ? $i : -1 })]); [$filter(${current}, function($e, $i) { $i != $at })])`
    : `[$filter(${current}, function($e) { $not(${has}) })]`;
  const missing = notFound(ctx, key);
  ctx.notes.push(`removes the ${latest ? "latest pair" : "pairs"} under ${key.name} (${missing})`);
  return [
    {
      kind: "update",
      target,
      require: [
        {
          expr: `$count(${current}[$exists($lookup($, $args.${identifier(key.name)}))]) > 0`,
          error: missing,
        },
      ],
      set: { [field]: { $expr: kept } },
    },
  ];
}

/**
 * Reads pairs: those whose value contains a keyword, as records of the output's item
 * fields (the identifier field takes the key); or all pairs grouped by key, where the
 * answer is an object; or the pairs as they are.
 */
function readPairs(ctx: Context, list: CollectionShape): Draft[] | undefined {
  const read: Draft = { kind: "read", target: list.path.join("/"), as: "pairs" };
  const keyword = ctx.facts.params.find(
    (p) => p.type === "string" && /^(keyword|query|q|text|term|search)$/.test(p.name),
  );
  const array = singleArrayOutput(ctx.facts.outputs);
  if (keyword && array) {
    const itemFields = itemFieldsOf(ctx, array.name);
    const keyField = itemFields.find((f) => /(^|_)(id|key)$/.test(f)) ?? "key";
    const valueField = itemFields.find((f) => f !== keyField) ?? "value";
    ctx.notes.push(`answers the pairs whose value contains ${keyword.name}, as {${keyField}, ${valueField}}`);
    const each = `$each($, function($v, $k) { {${JSON.stringify(keyField)}: $k, ${JSON.stringify(valueField)}: $v} })`;
    const match = `$contains($lowercase($string(\`${valueField}\`)), $lowercase($args.${identifier(keyword.name)}))`;
    return [read, { kind: "respond", output: array.name, value: { $expr: `[$pairs.${each}[${match}]]` } }];
  }
  // a map of keys to lists: an object output that declares no properties of its own
  const object = ctx.facts.outputs.find(
    (o) => o.type === "object" && itemFieldsOf(ctx, o.name, "properties").length === 0,
  );
  if (object && ctx.facts.params.length === 0) {
    ctx.notes.push(`answers the pairs grouped by key under ${object.name}`);
    return [
      read,
      {
        kind: "respond",
        output: object.name,
        value: { $expr: `$merge([$distinct($pairs.$keys($)).(($k := $; {$k: [$pairs.$lookup($, $k)]}))])` },
      },
    ];
  }
  return undefined;
}

/** The property names an output declares for its items (or, with `properties`, for itself). */
function itemFieldsOf(ctx: Context, output: string, of: "items" | "properties" = "items"): string[] {
  const schema = ctx.facts.tool.outputSchema as
    | { properties?: Record<string, { items?: { properties?: object }; properties?: object }> }
    | undefined;
  const property = schema?.properties?.[output];
  return Object.keys((of === "items" ? property?.items?.properties : property?.properties) ?? {});
}

/** Counts of the pairs' noun beside the list move with each pair added (`note_count`). */
function countsOf(ctx: Context, holderPath: readonly string[], list: CollectionShape): Draft[] {
  const holder = ctx.shape.parts.find(
    (p) => p.kind === "record" && p.path.join("/") === holderPath.join("/"),
  );
  if (holder?.kind !== "record") return [];
  const nouns = new Set([...ctx.facts.nouns, ...nameWords(list.name)].map(singular));
  const drafts: Draft[] = [];
  for (const field of holder.fields.values()) {
    const words = nameWords(field.path).map(singular);
    if (!words.includes("count") || !field.types.has("number")) continue;
    if (!words.some((w) => nouns.has(w))) continue;
    drafts.push({ kind: "update", target: holderPath.join("/") || ".", inc: { [field.path]: 1 } });
    ctx.notes.push(`adds one to ${field.path}`);
  }
  return drafts;
}

function notFound(ctx: Context, key: Param): string {
  const documented = ctx.facts.errors.find((e) => e.kind === "not-found");
  if (documented) return use(ctx, documented);
  const noun = nameWords(key.name).slice(0, -1).join(" ") || key.name;
  return addError(ctx, {
    code: `${nameWords(noun).join("_").toUpperCase()}_NOT_FOUND`,
    status: 404,
    message: `Nothing under ${noun} {${key.name}}.`,
    when: `No pair has the given ${key.name} (inferred from the state).`,
  });
}
