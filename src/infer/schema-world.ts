import type { JsonSchema, StateDocument, Toolset } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { factsOf, type ToolFacts } from "./facts.js";
import type { CollectionShape, FieldShape, TreeShape } from "./shape.js";
import { isIdentifierName, nameWords, nounOfIdentifier, plural, singular, VERBS } from "./words.js";

/**
 * The world of a catalog that comes without a state (an OpenAPI spec, a live server's tool
 * list): its collections and their records' shapes read from the tools themselves, so the
 * first create is readable, updatable, listable and deletable. A collection is the noun
 * that create, read, update, delete and list tools share (REST's `/pets` and `/pets/{petId}`,
 * or `create_pet`/`get_pet(pet_id)`); its records' fields come from the schema the tools
 * answer with, or the one a create takes; its key is the identifier argument that reads and
 * writes name one record by, held in the record's id field.
 */

export interface SchemaCollection {
  name: string;
  keyField: string;
  numeric: boolean;
  /** The schema of one record, where the tools give one. */
  record?: JsonSchema;
}

export interface SchemaWorld {
  state: StateDocument;
  collections: CollectionShape[];
  described: SchemaCollection[];
  /** A file system's tree, empty, where the tools address files and folders by path. */
  tree?: TreeShape;
}

export function schemaWorld(toolset: Toolset, known?: readonly ToolFacts[]): SchemaWorld | undefined {
  const groups = new Map<string, ToolFacts[]>();
  for (const [index, tool] of toolset.tools.entries()) {
    const facts = known?.[index] ?? factsOf(tool);
    const noun = nounOf(facts);
    if (!noun) continue;
    groups.set(noun, [...(groups.get(noun) ?? []), facts]);
  }
  const described: SchemaCollection[] = [];
  for (const [noun, tools] of groups) {
    const keyed = tools.map((t) => keyParamOf(t, noun)).find((p) => p !== undefined);
    const creates = tools.some((t) => t.verbAction === "create");
    if (!keyed && !creates) continue;
    if (tools.length < 2) continue;
    const bulk = bulkRecordOf(tools, noun);
    const record = bulk ?? recordSchemaOf(tools, noun);
    const properties = record && isPlainObject(record.properties) ? Object.keys(record.properties) : [];
    const keyField =
      properties.find((p) => keyed && (p === keyed.name || sameId(p, keyed.name))) ??
      properties.find((p) => p === "id") ??
      properties.find((p) => sameId(p, `${noun}_id`)) ??
      // records made in batches by name (a knowledge graph's entities) are keyed by it
      (bulk ? properties.find((p) => p === "name" || sameId(p, `${noun}_name`)) : undefined) ??
      keyed?.name ??
      `${noun}_id`;
    const keySchema =
      record && isPlainObject(record.properties)
        ? (record.properties[keyField] as JsonSchema | undefined)
        : undefined;
    const keyType = typeOf(keySchema) ?? keyed?.type;
    described.push({
      name: plural(noun),
      keyField,
      numeric: keyType === "integer" || keyType === "number",
      ...(record ? { record } : {}),
    });
  }
  const tree = fileSystemOf(toolset, known);
  // files and folders of a file system are the tree's, not collections of records
  if (tree)
    described.splice(0, described.length, ...described.filter((c) => !FILE_NOUNS.test(singular(c.name))));
  if (described.length === 0 && !tree) return undefined;
  return {
    state: {
      ...Object.fromEntries(described.map((c) => [c.name, {}])),
      ...(tree ? { [tree.name]: {} } : {}),
    },
    collections: described.map(shapeOf),
    described,
    ...(tree ? { tree } : {}),
  };
}

const FILE_NOUNS = /^(file|director(y|ie)|folder|dir|path|entry|entrie)$/;

/**
 * A catalog whose tools read and write files and folders by path (a file-system server's
 * `read_file(path)`, `create_directory(path)`, `move_file(source, destination)`) acts on a
 * tree: an empty one, whose folders are made as files are written into them, since nothing
 * says which folders exist.
 */
function fileSystemOf(toolset: Toolset, known?: readonly ToolFacts[]): TreeShape | undefined {
  const byPath = toolset.tools.filter((tool, index) => {
    const facts = known?.[index] ?? factsOf(tool);
    const pathed = facts.params.some((p) =>
      /^(path|paths|source|destination|file_?path|dir_?path)$/i.test(p.name),
    );
    return pathed && facts.words.some((w) => /^(files?|director(y|ies)|folders?|dirs?)$/.test(w));
  });
  if (byPath.length < 3) return undefined;
  return { kind: "tree", path: ["files"], name: "files", nodes: {}, foldersUnknown: true };
}

/** The noun a tool is about: the REST path's last collection segment, else its name's nouns. */
function nounOf(facts: ToolFacts): string | undefined {
  // resource first (`shelf_note_add`): the words before the verb name the resource
  const at = facts.verb ? facts.words.indexOf(facts.verb) : -1;
  if (at >= 2) {
    const before = facts.words.slice(0, at).filter((w) => !/^\d+$/.test(w));
    return before.length > 0
      ? [...before.slice(0, -1), singular(before.at(-1) as string)].join("_")
      : undefined;
  }
  // what follows `by`, `for` or `with` qualifies the noun (`list_badges_for_event`); the nouns
  // leave those small words out, so the cut is found among the name's words
  const cut = facts.words.findIndex((w, i) => i > 0 && ["by", "for", "with"].includes(w));
  const qualified = cut > 0 ? facts.words.slice(cut) : [];
  const words = facts.nouns.filter(
    (w) => !["id", "ids", "list", "all", "detail", "details", "info"].includes(w) && !/^\d+$/.test(w),
  );
  const head = words.filter((w) => !qualified.includes(w)).at(-1) ?? words.at(-1);
  if (!head || !facts.verbAction) return undefined;
  if (VERBS.read.includes(head)) return undefined;
  return singular(head);
}

/** The argument that names one record: an identifier of the noun (`petId`, `pet_id`), or a bare `id`. */
function keyParamOf(facts: ToolFacts, noun: string) {
  return facts.params.find(
    (p) =>
      p.required &&
      p.type !== "array" &&
      p.type !== "object" &&
      ((isIdentifierName(p.name) && nounOfIdentifier(p.name) === noun) || /^(id|key|uuid)$/.test(p.name)),
  );
}

function sameId(a: string, b: string): boolean {
  return nameWords(a).join("_") === nameWords(b).join("_");
}

/** The schema of one record: what a read by key answers, else a create's answer, else a list's items, else a create's arguments. */
function recordSchemaOf(tools: readonly ToolFacts[], noun: string): JsonSchema | undefined {
  const objects = (schema: JsonSchema | undefined) => {
    const resolved = schema ? resolveRef(schema, schema) : undefined;
    return resolved && isPlainObject(resolved.properties) ? resolved : undefined;
  };
  const read = tools.find((t) => t.verbAction === "read" && keyParamOf(t, noun));
  const create = tools.find((t) => t.verbAction === "create");
  const list = tools.find((t) => t.verbAction === "read" && !keyParamOf(t, noun));
  const listItems = () => {
    const schema = list?.tool.outputSchema;
    if (!schema || !isPlainObject(schema.properties)) return undefined;
    const arrays = Object.values(schema.properties).filter((p) => isPlainObject(p) && p.type === "array");
    const items = arrays.length === 1 ? (arrays[0] as JsonSchema).items : undefined;
    return isPlainObject(items) ? objects({ ...(items as JsonSchema), $defs: schema.$defs }) : undefined;
  };
  return (
    objects(unwrap(read?.tool.outputSchema)) ??
    objects(unwrap(create?.tool.outputSchema)) ??
    listItems() ??
    (create ? objects(create.tool.inputSchema) : undefined)
  );
}

/**
 * The record of a collection made in batches: the items of a create's one argument that is
 * an array of objects named for the collection (`create_entities({entities: [...]})`, as
 * bulk endpoints such as Elasticsearch `_bulk`, Stripe's batch and MCP's memory server take).
 */
export function bulkRecordOf(tools: readonly ToolFacts[], noun: string): JsonSchema | undefined {
  for (const tool of tools) {
    if (tool.verbAction !== "create") continue;
    const batch = bulkParamOf(tool, noun);
    const items = batch?.schema.items;
    if (isPlainObject(items) && isPlainObject((items as JsonSchema).properties)) return items as JsonSchema;
  }
  return undefined;
}

/** A create's one required argument that is an array of objects named after the noun's plural. */
export function bulkParamOf(facts: ToolFacts, noun: string) {
  const required = facts.params.filter((p) => p.required);
  const only = required.length === 1 ? required[0] : undefined;
  return only && only.type === "array" && only.itemType === "object" && sameId(only.name, plural(noun))
    ? only
    : undefined;
}

/** An answer wrapped as `{result: …}` (a non-object response) is its inner schema. */
function unwrap(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema || !isPlainObject(schema.properties)) return schema;
  const names = Object.keys(schema.properties);
  if (names.length === 1 && names[0] === "result" && isPlainObject(schema.properties.result))
    return { ...(schema.properties.result as JsonSchema), $defs: schema.$defs };
  return schema;
}

/** Follows a local `$ref` into the schema's own `$defs`. */
function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return schema;
  const defs = isPlainObject(root.$defs) ? root.$defs : {};
  const target = defs[ref.slice("#/$defs/".length)];
  return isPlainObject(target) ? { ...(target as JsonSchema), $defs: root.$defs } : schema;
}

function typeOf(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") as string | undefined;
  return undefined;
}

/** A collection shape from a record schema: its fields, their types, and the values an enum allows. */
function shapeOf(collection: SchemaCollection): CollectionShape {
  const fields = new Map<string, FieldShape>();
  const properties =
    collection.record && isPlainObject(collection.record.properties) ? collection.record.properties : {};
  for (const [name, raw] of Object.entries(properties)) {
    const property = (
      isPlainObject(raw) ? resolveRef(raw as JsonSchema, collection.record ?? {}) : {}
    ) as JsonSchema;
    const type = typeOf(property);
    const values = new Map<string, number>();
    if (Array.isArray(property.enum))
      for (const value of property.enum) if (typeof value === "string") values.set(value, 1);
    fields.set(name, {
      path: name,
      types: new Set([type === "integer" ? "number" : (type ?? "string")]),
      values,
      open: !Array.isArray(property.enum),
      samples: [],
      elements: new Set(),
    });
  }
  if (!fields.has(collection.keyField))
    fields.set(collection.keyField, {
      path: collection.keyField,
      types: new Set([collection.numeric ? "number" : "string"]),
      values: new Map(),
      open: true,
      samples: [],
      elements: new Set(),
    });
  return {
    kind: "collection",
    path: [collection.name],
    name: collection.name,
    container: "map",
    keys: [],
    keyField: collection.keyField,
    numericKeys: collection.numeric,
    fields,
    size: 0,
  };
}
