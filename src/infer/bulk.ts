import { type Context, notFoundError } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import type { CollectionShape } from "./shape.js";
import { nameWords, singular } from "./words.js";

/**
 * Tools that act on many records of a collection in one call: a create that takes an array
 * of them (`create_entities({entities: [...]})`), a delete that takes their keys
 * (`delete_entities({entityNames: [...]})`) or the records themselves, a read that answers
 * whole collections (`read_graph`), one that answers the records named by a list of keys
 * (`open_nodes({names})`), and a search over every value of every record. These are the
 * batch endpoints of Elasticsearch (`_bulk`, `_mget`), Firestore (`batchGet`, batched
 * writes), DynamoDB (`BatchWriteItem`, `BatchGetItem`) and MCP's reference memory server.
 *
 * Only maps of records are acted on: a batch adds those not there yet (answering them),
 * removes those named, and reads in the map's order.
 */
export function bulkRule(ctx: Context): Draft[] | undefined {
  const top = [...ctx.shape.collections.values()].filter((c) => !c.parent);
  const maps = top.filter((c) => c.container === "map");
  const action = ctx.facts.verbAction;
  if (action === "delete") {
    const fromList = deleteFromList(
      ctx,
      top.filter((c) => c.container === "array" && c.keyField),
    );
    if (fromList) return fromList;
  }
  if (maps.length === 0) return undefined;
  const written =
    action === "create"
      ? // elements that name a record of another collection add to it rather than being records
        (appendMany(ctx, maps) ?? createMany(ctx, maps))
      : action === "delete"
        ? deleteMany(ctx, maps)
        : action === "update"
          ? appendMany(ctx, maps)
          : undefined;
  if (written || action === "update" || ctx.facts.tool.annotations?.destructiveHint === true) return written;
  // otherwise a read, whatever its verb (`open_nodes`), where every answer is a collection
  return readMany(ctx, maps);
}

/** The expression of a record's key: its key field, where the records given carry it, or else their content. */
function keyOf(collection: CollectionShape, param: Param): string {
  const key = collection.keyField;
  return key && param.itemProperties?.includes(key) ? identifier(key) : "$string($)";
}

function holderOf(collection: CollectionShape): { target: string; field: string } {
  const path = collection.path;
  return { target: path.slice(0, -1).join("/") || ".", field: path.at(-1) as string };
}

/**
 * The one required array of objects named after a collection (`entities`), and the other
 * required arguments, each a field every record given shares (`shelf` of
 * `add_books(books, shelf)`), as a batch endpoint's common fields do.
 */
function recordsParam(ctx: Context, maps: readonly CollectionShape[]) {
  const required = ctx.facts.params.filter((p) => p.required);
  const arrays = required.filter((p) => p.type === "array" && p.itemType === "object");
  const only = arrays.length === 1 ? arrays[0] : undefined;
  if (!only) return undefined;
  const collection = maps.find((c) => sameWords(c.name, only.name));
  if (!collection) return undefined;
  const shared = required.filter((p) => p !== only);
  if (!shared.every((p) => collection.fields.has(p.name))) return undefined;
  return { param: only, collection, shared };
}

function sameWords(a: string, b: string): boolean {
  return nameWords(a).map(singular).join("_") === nameWords(b).map(singular).join("_");
}

function createMany(ctx: Context, maps: readonly CollectionShape[]): Draft[] | undefined {
  const found = recordsParam(ctx, maps);
  if (!found) return undefined;
  const { param, collection, shared } = found;
  const { target, field } = holderOf(collection);
  const key = keyOf(collection, param);
  const given = `$args.${identifier(param.name)}`;
  const common = shared.map((p) => `${JSON.stringify(p.name)}: $args.${identifier(p.name)}`).join(", ");
  const records = common ? `${given}.$merge([$, { ${common} }])` : given;
  const fresh = `${records}[$not(${key} in $keys($before))]`;
  const output = arrayOutput(ctx, collection);
  ctx.notes.push(
    `adds each of ${param.name} to ${collection.path.join("/")} under its ${key === "$string($)" ? "content" : key}, skipping those already there${output ? `, answering the ones added as ${output}` : ""}`,
  );
  return [
    { kind: "read", target: collection.path.join("/"), as: "before" },
    {
      kind: "update",
      target,
      require: [],
      set: { [field]: { $expr: `$merge([$before, $merge([{}, ${fresh}.{ ${key}: $ }])])` } },
      as: "holder",
    },
    ...(output ? [{ kind: "respond", output, value: { $expr: `[${fresh}]` } }] : []),
  ];
}

/**
 * Additions to the lists of several records at once (`add_observations({observations:
 * [{entityName, contents: [...]}]})`): each element names a record by its key and carries the
 * values its list gains, those it lacks; a record that does not exist refuses the whole call,
 * and the answer says, per record, what was added. Firestore's `arrayUnion` in a batched
 * write, Elasticsearch `_bulk` scripted updates, and MCP's reference memory server do this.
 */
function appendMany(ctx: Context, maps: readonly CollectionShape[]): Draft[] | undefined {
  const required = ctx.facts.params.filter((p) => p.required);
  const param = required.length === 1 ? required[0] : undefined;
  if (param?.type !== "array" || param.itemType !== "object") return undefined;
  const items = itemSchema(param.schema);
  const props = Object.entries(items);
  for (const collection of maps) {
    const noun = nameWords(singular(collection.name)).join("_");
    const keyProp = props.find(([name, schema]) => {
      const words = nameWords(name);
      return (
        schema.type === "string" &&
        /^(name|id|key)$/.test(words.at(-1) ?? "") &&
        words.slice(0, -1).map(singular).join("_") === noun
      );
    })?.[0];
    const values = props.filter(([, schema]) => schema.type === "array").map(([name]) => name);
    const lists = [...collection.fields.values()].filter(
      (f) => !f.path.includes(".") && f.types.has("array"),
    );
    const list =
      lists.find((f) => sameWords(f.path, param.name)) ?? (lists.length === 1 ? lists[0] : undefined);
    if (!keyProp || values.length !== 1 || !list) continue;
    return appendTo(ctx, collection, { param, keyProp, valuesProp: values[0] as string, list: list.path });
  }
  return undefined;
}

function appendTo(
  ctx: Context,
  collection: CollectionShape,
  names: { param: Param; keyProp: string; valuesProp: string; list: string },
): Draft[] {
  const { param, keyProp, valuesProp, list } = names;
  const { target, field } = holderOf(collection);
  const key = identifier(keyProp);
  const given = `$args.${identifier(param.name)}`;
  // per element: the record named, what it holds, and what it gains
  const per = (body: string) =>
    `${given}.($rec := $lookup($before, ${key}); $have := $rec.${identifier(list)} ? $rec.${identifier(list)} : []; $new := [${identifier(valuesProp)}[$not($ in $have)]]; ${body})`;
  const error = notFoundError(ctx, collection, keyProp, { add: true });
  const output = resultsOutput(ctx, keyProp);
  ctx.notes.push(
    `adds each element's ${valuesProp} to the ${list} of the ${collection.name} record its ${keyProp} names, skipping values there already`,
  );
  return [
    { kind: "read", target: collection.path.join("/"), as: "before" },
    {
      kind: "update",
      target,
      require: error ? [{ expr: `$count(${given}[$not(${key} in $keys($before))]) = 0`, error }] : [],
      set: {
        [field]: {
          $expr: `$merge([$before, $merge([{}, ${per(`{ ${key}: $merge([$rec, { ${JSON.stringify(list)}: $append($have, $new) }]) }`)}])])`,
        },
      },
      as: "holder",
    },
    ...(output
      ? [
          {
            kind: "respond",
            output: output.name,
            value: {
              $expr: `[${per(`{ ${JSON.stringify(keyProp)}: ${key}, ${JSON.stringify(output.added)}: $new }`)}]`,
            },
          },
        ]
      : []),
  ];
}

/** The properties of the objects an array schema holds. */
function itemSchema(schema: Param["schema"]): Record<string, { type?: unknown }> {
  const items = schema.items;
  const props =
    items && typeof items === "object" && !Array.isArray(items)
      ? (items as { properties?: unknown }).properties
      : undefined;
  return props && typeof props === "object" ? (props as Record<string, { type?: unknown }>) : {};
}

/** The array output whose elements carry the key and one list: what each record gained. */
function resultsOutput(ctx: Context, keyProp: string): { name: string; added: string } | undefined {
  const properties = ctx.facts.tool.outputSchema?.properties as Record<string, unknown> | undefined;
  if (!properties) return undefined;
  for (const output of ctx.facts.outputs.filter((o) => o.type === "array")) {
    const items = itemSchema(properties[output.name] as Param["schema"]);
    const lists = Object.entries(items).filter(([, schema]) => schema.type === "array");
    if (keyProp in items && lists.length === 1)
      return { name: output.name, added: (lists[0] as [string, unknown])[0] };
  }
  return undefined;
}

/** The array output named after the collection, else the one array output. */
function arrayOutput(ctx: Context, collection: CollectionShape): string | undefined {
  const arrays = ctx.facts.outputs.filter((o) => o.type === "array");
  return (
    arrays.find((o) => sameWords(o.name, collection.name)) ?? (arrays.length === 1 ? arrays[0] : undefined)
  )?.name;
}

function deleteMany(ctx: Context, maps: readonly CollectionShape[]): Draft[] | undefined {
  const records = recordsParam(ctx, maps);
  const keys = records ? undefined : keysParam(ctx, maps);
  const found = records ?? keys;
  if (!found) return undefined;
  const { param, collection } = found;
  const { target, field } = holderOf(collection);
  const given = `$args.${identifier(param.name)}`;
  // records given whole are told apart by their key, as stored
  const named = records ? `${given}.(${keyOf(collection, param)})` : given;
  ctx.notes.push(`removes from ${collection.path.join("/")} each record ${param.name} names`);
  return [
    { kind: "read", target: collection.path.join("/"), as: "before" },
    {
      kind: "update",
      target,
      require: [],
      set: {
        [field]: { $expr: `$merge([{}, $sift($before, function($v, $k) { $not($k in [${named}]) })])` },
      },
      as: "holder",
    },
  ];
}

/**
 * A delete given the keys of records kept in an array (`delete_pets(pet_ids)` over
 * `pets: [{pet_id, …}]`): those whose key field is among them leave the list, in its order.
 */
function deleteFromList(ctx: Context, lists: readonly CollectionShape[]): Draft[] | undefined {
  const found = keysParam(ctx, lists);
  const keyField = found?.collection.keyField;
  if (!found || !keyField) return undefined;
  const { param, collection } = found;
  const { target, field } = holderOf(collection);
  const key = identifier(keyField);
  ctx.notes.push(`removes from ${collection.path.join("/")} each record whose ${key} ${param.name} names`);
  return [
    { kind: "read", target: collection.path.join("/"), as: "before" },
    {
      kind: "update",
      target,
      require: [],
      set: { [field]: { $expr: `[$before[$not(${key} in [$args.${identifier(param.name)}])]]` } },
      as: "holder",
    },
  ];
}

/** An array of keys of a collection: `entityNames`, `order_ids`, or plain `names`/`ids`/`keys`. */
function keysParam(ctx: Context, maps: readonly CollectionShape[]) {
  const required = ctx.facts.params.filter((p) => p.required);
  const only = required.length === 1 ? required[0] : undefined;
  if (only?.type !== "array" || (only.itemType !== "string" && only.itemType !== "integer")) return undefined;
  const words = nameWords(only.name);
  if (!/^(names|ids|keys)$/.test(words.at(-1) ?? "")) return undefined;
  const noun = words.slice(0, -1).map(singular).join("_");
  const collection = noun
    ? maps.find((c) => sameWords(c.name, noun))
    : onlyNamedBy(maps, words.at(-1) as string);
  return collection ? { param: only, collection } : undefined;
}

/** The one map keyed by names (for `names`) or by ids (for `ids`, `keys`). */
function onlyNamedBy(maps: readonly CollectionShape[], word: string): CollectionShape | undefined {
  const byName = maps.filter((c) => (word === "names" ? c.keyField === "name" : c.keyField !== "name"));
  return byName.length === 1 ? byName[0] : undefined;
}

function readMany(ctx: Context, maps: readonly CollectionShape[]): Draft[] | undefined {
  const outputs = ctx.facts.outputs.filter((o) => o.type === "array");
  const answered = outputs
    .map((o) => ({ output: o.name, collection: maps.find((c) => sameWords(c.name, o.name)) }))
    .filter((a): a is { output: string; collection: CollectionShape } => a.collection !== undefined);
  if (answered.length === 0 || answered.length !== outputs.length) return undefined;
  const required = ctx.facts.params.filter((p) => p.required);
  // a read of several collections at once (a whole graph); one collection's list is the list rule's
  const several = answered.length >= 2;
  if (several && ctx.facts.params.length === 0) return answerAll(ctx, answered, () => "");
  const keys = keysParam(ctx, maps);
  const keyed = keys ? answered.findIndex((a) => a.collection === keys.collection) : -1;
  if (keys && keyed >= 0) {
    const named = `$args.${identifier(keys.param.name)}`;
    // the records of the other collections that link only named ones (the edges among the
    // nodes asked for: the subgraph they induce), told by values that are keys of the first
    const links = `$each($v, function($x) { $x })[$ in $keys($c${keyed})]`;
    return answerAll(
      ctx,
      answered,
      (collection) =>
        collection === keys.collection
          ? `$k in ${named}`
          : `$count(${links}) > 0 and $count(${links}[$not($ in ${named})]) = 0`,
      `key is in ${keys.param.name}, or whose links are all to those`,
    );
  }
  const query = several ? searchParam(ctx, required) : undefined;
  if (query)
    return answerAll(
      ctx,
      answered,
      () =>
        `$contains($lowercase($join($each($v, function($x) { $string($x) }), " ")), $lowercase($args.${identifier(query.name)}))`,
      `one of its values contains ${query.name}, ignoring case`,
    );
  return undefined;
}

/** The text a search matches (`query`, `q`, `keyword`, `text`) when it is the one thing asked. */
function searchParam(ctx: Context, required: readonly Param[]): Param | undefined {
  const only = required.length === 1 ? required[0] : undefined;
  const searching = ctx.facts.verb !== undefined && ["search", "find", "query"].includes(ctx.facts.verb);
  return only && only.type === "string" && (searching || /^(q|query|keyword|text|search)$/.test(only.name))
    ? only
    : undefined;
}

/**
 * Each output answered from its collection's records, those the filter keeps (`""` keeps
 * all; no filter leaves the output to the engine, and says so in its verdict).
 */
function answerAll(
  ctx: Context,
  answered: ReadonlyArray<{ output: string; collection: CollectionShape }>,
  filter: (collection: CollectionShape) => string | undefined,
  said = "",
): Draft[] {
  // every collection is read first: a filter may look at another's keys
  const drafts: Draft[] = answered.map(({ collection }, index) => ({
    kind: "read",
    target: collection.path.join("/"),
    as: `c${index}`,
  }));
  for (const [index, { output, collection }] of answered.entries()) {
    const condition = filter(collection);
    if (condition === undefined) continue;
    const binding = `c${index}`;
    const kept = condition === "" ? "$v" : `(${condition}) ? $v`;
    drafts.push({
      kind: "respond",
      output,
      value: { $expr: `[$each($${binding}, function($v, $k) { ${kept} })]` },
    });
    ctx.notes.push(
      `answers ${output} from ${collection.path.join("/")}${condition && said ? `, each whose ${said}` : ""}`,
    );
  }
  return drafts;
}
