import { z } from "zod";

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
 * A guard on an entity an effect reached. Each operand may be a template ("{quantity}").
 * When the guard fails the effect answers with `error`, and nothing of the call is applied.
 */
export const Guard = z
  .object({
    field: z.string().min(1).describe("Dotted path into the entity."),
    in: z.array(z.unknown()).optional(),
    notIn: z.array(z.unknown()).optional(),
    equals: z.unknown().optional(),
    gte: z.union([z.number(), z.string()]).optional(),
    lte: z.union([z.number(), z.string()]).optional(),
    error: z.string().describe("Code of a documented error of the tool."),
  })
  .strict();
export type Guard = z.infer<typeof Guard>;

const target = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*(\/\{[^}]+\}|\/[A-Za-z0-9_.:-]+)?$/,
    'a target is "collection" or "collection/{key}"',
  )
  .describe('"collection/{argument}": the state collection and the key of the entity, filled from the call.');
const binding = z
  .string()
  .regex(/^[a-z_][a-z0-9_]*$/)
  .describe("Name that later effects and templates use for this entity ({$name.field}).");
const outputPath = z
  .string()
  .describe(
    'Where the entity goes in the result: "" merges its fields into the result, "order" puts it under that key.',
  );
const fieldValues = z
  .record(z.string(), z.unknown())
  .describe('Fields to set. Strings may be templates: "{argument}", "{$now}", "{$id}", "{$binding.field}".');

const EffectBase = {
  target,
  as: binding.optional(),
  output: outputPath.optional(),
  require: z.array(Guard).default([]),
};

export const ReadEffect = z
  .object({
    kind: z.literal("read"),
    ...EffectBase,
    missing: z.string().optional().describe("Error code answered when the entity does not exist."),
  })
  .strict();
export const ListEffect = z
  .object({
    kind: z.literal("list"),
    target: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
    as: binding.optional(),
    output: outputPath.optional(),
    where: fieldValues
      .default({})
      .describe("Entity fields that must equal these values; absent arguments are ignored."),
    limit: z.union([z.number().int().positive(), z.string()]).optional(),
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
      })
      .strict()
      .optional()
      .describe('How "{$id}" is minted: prefix + next number, from the keys already in the collection.'),
    set: fieldValues.default({}),
    exists: z.string().optional().describe("Error code answered when the key is already taken."),
  })
  .strict();
export const UpdateEffect = z
  .object({
    kind: z.literal("update"),
    ...EffectBase,
    set: fieldValues.default({}),
    inc: fieldValues.default({}).describe("Numeric fields to add to (negative to subtract)."),
    append: fieldValues.default({}).describe("Array fields to push a value onto."),
    missing: z.string().optional(),
  })
  .strict();
export const DeleteEffect = z
  .object({
    kind: z.literal("delete"),
    ...EffectBase,
    missing: z.string().optional(),
  })
  .strict();

export const Effect = z.discriminatedUnion("kind", [
  ReadEffect,
  ListEffect,
  CreateEffect,
  UpdateEffect,
  DeleteEffect,
]);
export type Effect = z.infer<typeof Effect>;
export type ReadEffect = z.infer<typeof ReadEffect>;
export type ListEffect = z.infer<typeof ListEffect>;
export type CreateEffect = z.infer<typeof CreateEffect>;
export type UpdateEffect = z.infer<typeof UpdateEffect>;
export type DeleteEffect = z.infer<typeof DeleteEffect>;

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
