import { z } from "zod";
import { FaultProfile } from "./faults-format.js";

/**
 * The toolset file format. One JSON file per toolset; this schema is the single source of
 * truth for it (schema/toolset.schema.json is generated from it for editors).
 */

/** A JSON Schema document. Its own validity is checked by the loader against the 2020-12 meta-schema. */
export const JsonSchemaObject = z
  .record(z.string(), z.unknown())
  .describe("A JSON Schema (draft 2020-12) object.");
export type JsonSchema = Record<string, unknown>;

/** MCP tool names: 1-128 characters of letters, digits, underscore, dash and dot. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const ID_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/;

export const ToolError = z
  .object({
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/, "error codes are UPPER_SNAKE_CASE"),
    status: z.number().int().min(400).max(599).default(400),
    message: z
      .string()
      .min(1)
      .describe("Message returned to the caller. {argument} placeholders are filled from the call."),
    when: z.string().min(1).describe("When the tool answers with this error, in plain words."),
  })
  .strict();
export type ToolError = z.infer<typeof ToolError>;

export const ToolAnnotations = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .strict();
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/**
 * An expression value (version 2): wherever a template value is accepted, `{"$expr": "..."}`
 * computes the value with JSONata instead (see docs/catalog.md for what it can read).
 */
export const ExpressionValue = z
  .object({
    $expr: z
      .string()
      .min(1)
      .describe(
        "A JSONata expression. $ is the call's arguments; $args, $runtime, $id, bindings ($order), $item, $index, $subject, $now(), $millis(), $entity(collection, key), $calc, $convert and $math are defined. An undefined value leaves the field out.",
      ),
  })
  .strict()
  .describe('A computed value: {"$expr": "quantity * $product.price"}.')
  .meta({ id: "ExpressionValue" });
export type ExpressionValue = z.infer<typeof ExpressionValue>;

const expression = (what: string) => z.string().min(1).describe(`A JSONata expression: ${what}`);
const operand = z.union([z.number(), z.string(), ExpressionValue]);
const operandList = z.union([z.array(z.unknown()), ExpressionValue]);
const errorCode = z.string().describe("Code of a documented error of the tool.");

/**
 * A guard on the value an effect reached. Each operand may be a template ("{quantity}") or
 * an expression. When the guard fails the effect answers with `error`, and nothing of the
 * call is applied.
 */
export const FieldGuard = z
  .object({
    field: z
      .string()
      .min(1)
      .describe(
        'Dotted path into the entity (or nested value) the effect reached; array indexes too ("items.0.status").',
      ),
    in: operandList.optional(),
    notIn: operandList.optional(),
    equals: z.unknown().optional(),
    gte: operand.optional(),
    lte: operand.optional(),
    error: errorCode,
  })
  .strict();
export type FieldGuard = z.infer<typeof FieldGuard>;

/** A guard written as an expression (version 2): it holds when the value is truthy. */
export const ExpressionGuard = z
  .object({
    expr: expression("the guard holds when its value is truthy. $subject is what the effect reached."),
    error: errorCode,
  })
  .strict();
export type ExpressionGuard = z.infer<typeof ExpressionGuard>;

export const Guard = z.union([FieldGuard, ExpressionGuard]).meta({ id: "Guard" });
export type Guard = z.infer<typeof Guard>;

/**
 * A target: "." (the whole state, as one record), or a first segment followed by more, each
 * a literal, a whole template ("{order_id}", "{$ret.order_id}") or, inside an array of
 * records, a selector of the element whose field equals a value ("[id={ticket_id}]"), or, in a
 * tree of records, a walk by a slash path ("*children={path}", "*children.slug={path}") or a search
 * for the node whose field equals a value at any depth ("**children.id={node_id}").
 */
const TARGET_PATTERN =
  /^(\.|[A-Za-z_][A-Za-z0-9_]*(\/(\{[^{}/]+\}|[A-Za-z0-9_.:-]+|\[[A-Za-z_][A-Za-z0-9_.]*=(\{[^{}/\]]+\}|[^{}/\]]+)\]|\*\*?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?=\{[^{}/]+\}))*)$/;
const target = z
  .string()
  .regex(
    TARGET_PATTERN,
    'a target is ".", "collection", "collection/{key}" or a longer path such as "members/{member_id}/cards/{card_id}" or "desk/tickets/[id={ticket_id}]"',
  )
  .describe(
    '"collection/{argument}": the state collection and the key of the entity, filled from the call. More segments reach inside the entity ("orders/{order_id}/items/0"); each is a literal, an array index, a template, a selector of the array element whose field equals a value ("[id={ticket_id}]"), or a walk down a tree of records by a slash path ("root/*children={path}": each name steps into the node\'s children, kept by name, or in an array by the field after the dot: "*children.slug={path}"), or a search of such a tree for the node, at any depth, whose field equals a value ("**children.id={node_id}"). "." is the whole state as one record (its top-level values as fields).',
  );
const binding = z
  .string()
  .regex(/^[a-z_][a-z0-9_]*$/)
  .describe(
    "Name that later effects and templates use for this entity ({$name.field}, $name in expressions).",
  );
const outputPath = z
  .string()
  .describe(
    'Where the entity goes in the result: "" merges its fields into the result, "order" puts it under that key.',
  );
const fieldValues = z
  .record(z.string(), z.unknown())
  .describe(
    'Fields to set. Strings may be templates: "{argument}", "{$now}", "{$id}", "{$binding.field}"; any value may be {"$expr": "..."}.',
  );
const limit = z.union([z.number().int().positive(), z.string(), ExpressionValue]);

/** Keys every effect takes (version 2 adds `when`, `each` and `computeError`). */
const EffectControl = {
  when: expression("the effect runs only when its value is truthy.").optional(),
  each: expression(
    "an array; the effect runs once per element, with $item and $index ({$item.field}, {$index} in templates), and its `as` holds the array of results.",
  ).optional(),
  computeError: errorCode
    .optional()
    .describe("Error answered when a computation ($calc, $convert, $math) refuses the call's values."),
};

const EffectBase = {
  target,
  as: binding.optional(),
  output: outputPath.optional(),
  require: z.array(Guard).default([]),
  ...EffectControl,
};

const missing = (what: string) => errorCode.optional().describe(`Error code answered when ${what}.`);

export const ReadEffect = z
  .object({
    kind: z.literal("read"),
    ...EffectBase,
    missing: missing("the entity (or any step of the target path) does not exist"),
  })
  .strict();
export const ListEffect = z
  .object({
    kind: z.literal("list"),
    target: target.describe(
      'The collection: a top-level map of entities ("orders"), or a map or array of records deeper in the state ("desk/tickets", "users/{user_id}/cards").',
    ),
    as: binding.optional(),
    output: outputPath.optional(),
    where: fieldValues
      .default({})
      .describe(
        "Entity fields (dotted paths) that must equal these values; absent arguments are ignored; a list of values matches any of them.",
      ),
    filter: expression(
      "evaluated per entity with $ = the entity and $args the arguments; the entity is kept when truthy.",
    ).optional(),
    limit: limit.optional(),
    missing: missing("nothing matches"),
    ...EffectControl,
  })
  .strict();
export const CreateEffect = z
  .object({
    kind: z.literal("create"),
    ...EffectBase,
    id: z
      .object({
        prefix: z.string().default(""),
        width: z.number().int().min(1).max(12).default(4),
        field: z.string().optional().describe("Entity field that also holds the new id."),
        counter: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z0-9_.:-]+)*$/)
          .optional()
          .describe(
            'State path of a number that mints ids ("desk/ticket_counter"): the id is taken from it and it moves on by one.',
          ),
        counterHolds: z
          .enum(["next", "last"])
          .default("next")
          .describe(
            '"next": the counter holds the next id to give; "last": the last id given (it is raised first).',
          ),
        numeric: z
          .boolean()
          .default(false)
          .describe('The id is a number (an entity\'s id field holds 7, its key is "7").'),
      })
      .strict()
      .optional()
      .describe(
        'How "{$id}" is minted: prefix + next number, from a counter in the state or the keys already in the collection.',
      ),
    set: fieldValues.default({}),
    exists: z.string().optional().describe("Error code answered when the key is already taken."),
    missing: missing("the entity a nested target creates inside does not exist"),
  })
  .strict();
export const UpdateEffect = z
  .object({
    kind: z.literal("update"),
    ...EffectBase,
    set: fieldValues.default({}),
    inc: fieldValues.default({}).describe("Numeric fields to add to (negative to subtract)."),
    append: fieldValues.default({}).describe("Array fields to push a value onto."),
    missing: missing("the entity (or any step of the target path) does not exist"),
  })
  .strict();
export const DeleteEffect = z
  .object({
    kind: z.literal("delete"),
    ...EffectBase,
    missing: missing("the entity (or any step of the target path) does not exist"),
  })
  .strict();
/** Guards on the arguments and the bindings alone, with no target (version 2). */
export const CheckEffect = z
  .object({
    kind: z.literal("check"),
    require: z
      .array(Guard)
      .min(1)
      .describe("Guards; a field guard reads the arguments, an expression guard anything in scope."),
    ...EffectControl,
  })
  .strict();
/** A computed value placed in the result (version 2). */
export const RespondEffect = z
  .object({
    kind: z.literal("respond"),
    value: z.unknown().describe('A template or {"$expr": "..."}: the value placed in the result.'),
    output: outputPath
      .optional()
      .describe(
        'Where the value goes: "total" puts it under that key; absent or "" merges an object into the result, and any other value is the whole result.',
      ),
    as: binding.optional(),
    ...EffectControl,
  })
  .strict();

/** A computed value bound to a name for later effects, placed nowhere (an addition to version 2). */
export const LetEffect = z
  .object({
    kind: z.literal("let"),
    as: binding.describe("Name later effects, templates and expressions use for the value ($name)."),
    value: z.unknown().describe('A template or {"$expr": "..."}: the value bound.'),
    ...EffectControl,
  })
  .strict();

/** What a tree effect does, as a shell would: list, cd, read, write, move, copy, remove, find. */
export const TREE_OPERATIONS = [
  "pwd",
  "list",
  "cd",
  "read",
  "info",
  "size",
  "find",
  "mkdir",
  "touch",
  "write",
  "edit",
  "move",
  "copy",
  "remove",
] as const;
export const TREE_ERROR_KINDS = [
  "missing",
  "exists",
  "not-folder",
  "is-folder",
  "not-empty",
  "invalid",
] as const;

const treeValue = (what: string) =>
  z.unknown().optional().describe(`A template or {"$expr": "..."}: ${what}`);

/**
 * A tree of folders and files at `target` (a map of names to nodes), changed or read by
 * paths the way a shell reads them, relative to a current folder kept in the state.
 */
export const TreeEffect = z
  .object({
    kind: z.literal("tree"),
    op: z.enum(TREE_OPERATIONS),
    target,
    cwd: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z0-9_.:-]+)*$/)
      .optional()
      .describe(
        'State path where the current folder is kept ("runtime/cwd"); without one, relative paths start at the home folder.',
      ),
    nodes: z
      .object({
        children: z.string().optional().describe("Field of a folder holding its children by name."),
        kind: z
          .object({ field: z.string(), folder: z.string(), file: z.string() })
          .strict()
          .optional()
          .describe("Field saying what a node is, with its value for folders and files."),
        content: z.string().optional().describe("Field of a file holding its text."),
      })
      .strict()
      .default({})
      .describe("How nodes are written: without fields, folders are objects and files are their text."),
    path: treeValue(
      "the path the operation is about (list, find, size and info default to the current folder).",
    ),
    to: treeValue("where a move or copy goes: into it when it is a folder, else to it."),
    paths: treeValue(
      "read: several paths instead of one, each read on its own: answered as a list of {path, content}, or {path, error} for one that cannot be read.",
    ),
    content: treeValue("the text a write puts in the file."),
    edits: treeValue(
      "edit: the replacements, a list of {oldText, newText} (or old_text/new_text, old_string/new_string), each of the first exact occurrence.",
    ),
    dryRun: treeValue("edit: answer what would change and change nothing."),
    all: treeValue("list: also names starting with a dot."),
    name: treeValue("find: the name to look for."),
    match: z
      .enum(["glob", "contains"])
      .default("glob")
      .describe("find: whole names with wildcards, or containing the name."),
    type: z.enum(["folder", "file"]).optional().describe("find: only folders or only files."),
    kinds: z.enum(["file", "folder", "any"]).default("any").describe("remove: what may be removed."),
    emptyOnly: z.boolean().default(false).describe("remove: a folder must be empty."),
    parents: treeValue("mkdir, write: make missing folders above it too."),
    existOk: treeValue("mkdir: a folder already there is no error (defaults to `parents`, as mkdir -p)."),
    absolute: z.boolean().default(false).describe("find: answer absolute paths."),
    create: z.boolean().default(false).describe("write: make the file when it does not exist."),
    append: z
      .union([z.boolean(), z.string(), ExpressionValue])
      .default(false)
      .describe("write: add to the end instead of replacing (a template or expression may decide per call)."),
    foldersOnly: z
      .boolean()
      .default(false)
      .describe("list: a file is not a folder to list (an error), not itself."),
    nested: z
      .object({ file: z.string().max(40), folder: z.string().max(40) })
      .strict()
      .optional()
      .describe(
        'list: everything under the folder as nodes {name, type, children}, `type` in these words ({"file": "file", "folder": "directory"}).',
      ),
    tags: z
      .object({ file: z.string().max(40), folder: z.string().max(40) })
      .strict()
      .optional()
      .describe(
        'list: each name after the tag of its kind ("[FILE] a.txt", "[DIR] notes"), as the docs show them.',
      ),
    entries: z
      .object({
        name: z.string().max(100),
        kind: z
          .object({ field: z.string().max(100), folder: z.string().max(40), file: z.string().max(40) })
          .strict()
          .optional(),
        fields: z.array(z.string().max(100)).max(50).optional(),
      })
      .strict()
      .optional()
      .describe(
        'list: each child as a record, its name under `name`, what it is under `kind` ({"field": "type", "folder": "folder", "file": "file"}), and the node\'s own `fields` repeated.',
      ),
    sorted: z.boolean().default(false).describe("list: in order of name, not the order the folder keeps."),
    refuseExisting: z.boolean().default(false).describe("touch: a name already taken is an error."),
    errors: z
      .partialRecord(z.enum(TREE_ERROR_KINDS), errorCode)
      .default({})
      .describe("The documented error answered for each kind of failure."),
    as: binding.optional(),
    output: outputPath.optional(),
    ...EffectControl,
  })
  .strict();

export const Effect = z.discriminatedUnion("kind", [
  ReadEffect,
  ListEffect,
  CreateEffect,
  UpdateEffect,
  DeleteEffect,
  CheckEffect,
  RespondEffect,
  LetEffect,
  TreeEffect,
]);
export type Effect = z.infer<typeof Effect>;
export type TreeEffect = z.infer<typeof TreeEffect>;
export type ReadEffect = z.infer<typeof ReadEffect>;
export type ListEffect = z.infer<typeof ListEffect>;
export type CreateEffect = z.infer<typeof CreateEffect>;
export type UpdateEffect = z.infer<typeof UpdateEffect>;
export type DeleteEffect = z.infer<typeof DeleteEffect>;
export type CheckEffect = z.infer<typeof CheckEffect>;
export type RespondEffect = z.infer<typeof RespondEffect>;
export type LetEffect = z.infer<typeof LetEffect>;
/** Effect kinds, in the order docs list them. */
export const EFFECT_KINDS = [
  "read",
  "list",
  "create",
  "update",
  "delete",
  "check",
  "respond",
  "let",
  "tree",
] as const;

/**
 * Effects that were inferred rather than authored: by what, how completely, and what the
 * inference decided. Remove the mark to make the effects your own; `toolsim infer --write`
 * replaces only effects that carry it. Other keys (a model's name, a replay count) are kept.
 */
export const InferredMark = z
  .looseObject({
    by: z.string().min(1).describe('What wrote the effects: "rules" (toolsim infer), or a model.'),
    status: z.enum(["inferred", "partly"]).describe('"partly": some of what the tool does is not covered.'),
    notes: z.array(z.string()).default([]).describe("What the inference decided, and what it left out."),
    added: z.array(z.string()).default([]).describe("Codes of documented errors the inference added."),
  })
  .describe("Present when the effects were inferred, not authored (see docs/catalog.md, Inference).");
export type InferredMark = z.infer<typeof InferredMark>;

export const Tool = z
  .object({
    name: z.string().regex(TOOL_NAME_PATTERN, "tool names are 1-128 characters of A-Z a-z 0-9 _ - ."),
    title: z.string().optional(),
    description: z.string().min(1),
    usage: z.string().optional().describe("How and when to use the tool, in plain words."),
    inputSchema: JsonSchemaObject,
    outputSchema: JsonSchemaObject.optional(),
    errors: z.array(ToolError).default([]),
    annotations: ToolAnnotations.optional(),
    effects: z.array(Effect).default([]),
    inferred: InferredMark.optional(),
  })
  .strict();
export type Tool = z.infer<typeof Tool>;

export const SolutionCall = z
  .object({
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()).default({}),
    group: z
      .string()
      .optional()
      .describe("Calls sharing a group may happen in any order relative to each other."),
    turn: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("For a task in several turns: the index in `turns` of the user message this call answers."),
  })
  .strict();
export type SolutionCall = z.infer<typeof SolutionCall>;

/** A session's state: collections of entities keyed by id, plus `runtime` context. */
export const StateDocument = z.record(z.string(), z.unknown());
export type StateDocument = Record<string, unknown>;

export const Task = z
  .object({
    id: z.string().regex(ID_PATTERN, "task ids are lowercase letters, digits, _ . -"),
    description: z.string().min(1).describe("What the user asks for, as they would say it."),
    difficulty: z.enum(["simple", "medium", "complex"]),
    valid: z.boolean().default(true),
    invalid_reason: z.string().optional().describe("For valid: false, why the task cannot be done."),
    state: StateDocument.default({}),
    solution: z.array(SolutionCall).default([]),
    checklist: z.array(z.string()).default([]),
    turns: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        "The user's messages turn by turn, for a task in several turns (the first is the description's request).",
      ),
    toolsets: z
      .array(z.string().regex(ID_PATTERN, "toolset ids are lowercase letters, digits, _ . -"))
      .optional()
      .describe("Further toolsets whose tools the task uses, beside its own (a task across several APIs)."),
    user: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Instructions for a simulated user: who they are, what they want, what they will and will not say.",
      ),
    faults: z
      .union([z.string().min(1), FaultProfile])
      .optional()
      .describe(
        'Faults every session on this task meets: a built-in profile ("slow", "flaky", "hostile") or a profile written here (see docs/faults.md).',
      ),
  })
  .strict();
export type Task = z.infer<typeof Task>;

export const Toolset = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(ID_PATTERN, "toolset ids are lowercase letters, digits, _ . -"),
    name: z.string().optional(),
    field: z.string().min(1),
    subdomain: z.string().min(1),
    description: z.string().min(1),
    version: z.string().optional(),
    state: StateDocument.default({}).describe(
      "The sandbox state a session starts with when no task is started.",
    ),
    tools: z.array(Tool).min(1),
    tasks: z.array(Task).default([]),
  })
  .strict();
export type Toolset = z.infer<typeof Toolset>;
/** The shape authors write (defaults not yet applied). */
export type ToolsetInput = z.input<typeof Toolset>;
