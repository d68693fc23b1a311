import { z } from "zod";

/**
 * The shapes the model answers with at each stage, as zod (checked here) and as JSON
 * Schema (sent as the response format). Stage files on disk hold the same shapes, so a
 * resumed run checks a file exactly as it would check a fresh answer.
 */

const Named = z.object({ name: z.string().min(1), description: z.string().min(1) });
export type Named = z.infer<typeof Named>;

export const FieldsAnswer = z.object({ fields: z.array(Named).min(1) });
export const SubdomainsAnswer = z.object({ subdomains: z.array(Named).min(1) });
export const WorkflowsAnswer = z.object({
  toolsets: z
    .array(
      z.object({
        id: z.string().regex(/^[a-z0-9][a-z0-9_]*$/),
        name: z.string().min(1),
        description: z.string().min(1),
      }),
    )
    .min(1),
});
export type FieldsAnswer = z.infer<typeof FieldsAnswer>;
export type SubdomainsAnswer = z.infer<typeof SubdomainsAnswer>;
export type WorkflowsAnswer = z.infer<typeof WorkflowsAnswer>;
export type Workflow = WorkflowsAnswer["toolsets"][number];

const GeneratedTool = z.object({
  name: z.string().min(1),
  description: z.string().min(1),
  consumes: z.array(z.string().min(1)),
  produces: z.array(z.string().min(1)).min(1),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()),
  errors: z
    .array(z.object({ code: z.string(), status: z.number().int(), message: z.string(), when: z.string() }))
    .default([]),
  readOnly: z.boolean().default(false),
  effects: z.array(z.record(z.string(), z.unknown())).default([]),
});
export const ToolsetAnswer = z.object({
  state: z.record(z.string(), z.unknown()),
  tools: z.array(GeneratedTool).min(1),
});
export type ToolsetAnswer = z.infer<typeof ToolsetAnswer>;

const GeneratedTask = z.object({
  id: z.string().min(1),
  description: z.string().min(1),
  difficulty: z.enum(["simple", "medium", "complex"]),
  state: z.record(z.string(), z.unknown()),
  solution: z.array(z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) })).min(1),
  checklist: z.array(z.string()).min(1),
});
export const TasksAnswer = z.object({ tasks: z.array(GeneratedTask).min(1) });
export type TasksAnswer = z.infer<typeof TasksAnswer>;
export type GeneratedTask = z.infer<typeof GeneratedTask>;

const namedList = (key: string) => ({
  type: "object",
  properties: {
    [key]: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, description: { type: "string" } },
        required: ["name", "description"],
      },
    },
  },
  required: [key],
});

const OPEN_OBJECT = { type: "object" };

export const ANSWER_SCHEMAS = {
  generate_fields: namedList("fields"),
  generate_subdomains: namedList("subdomains"),
  generate_workflows: {
    type: "object",
    properties: {
      toolsets: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string", pattern: "^[a-z0-9][a-z0-9_]*$" },
            name: { type: "string" },
            description: { type: "string" },
          },
          required: ["id", "name", "description"],
        },
      },
    },
    required: ["toolsets"],
  },
  generate_toolset: {
    type: "object",
    properties: {
      state: OPEN_OBJECT,
      tools: {
        type: "array",
        items: {
          type: "object",
          properties: {
            name: { type: "string" },
            description: { type: "string" },
            consumes: { type: "array", items: { type: "string" } },
            produces: { type: "array", items: { type: "string" } },
            inputSchema: OPEN_OBJECT,
            outputSchema: OPEN_OBJECT,
            errors: { type: "array", items: OPEN_OBJECT },
            readOnly: { type: "boolean" },
            effects: { type: "array", items: OPEN_OBJECT },
          },
          required: ["name", "description", "consumes", "produces", "inputSchema", "outputSchema"],
        },
      },
    },
    required: ["state", "tools"],
  },
  generate_tasks: {
    type: "object",
    properties: {
      tasks: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string" },
            description: { type: "string" },
            difficulty: { type: "string", enum: ["simple", "medium", "complex"] },
            state: OPEN_OBJECT,
            solution: {
              type: "array",
              items: {
                type: "object",
                properties: { tool: { type: "string" }, arguments: OPEN_OBJECT },
                required: ["tool", "arguments"],
              },
            },
            checklist: { type: "array", items: { type: "string" } },
          },
          required: ["id", "description", "difficulty", "state", "solution", "checklist"],
        },
      },
    },
    required: ["tasks"],
  },
} satisfies Record<string, Record<string, unknown>>;

export type StageName = keyof typeof ANSWER_SCHEMAS;
