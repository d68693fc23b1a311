import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/server";
import { DEFAULT_CONTROL_PREFIX, type JsonSchema } from "../catalog/index.js";
import { type Finding, rejectionText, validateInput } from "../engine/index.js";
import { type DeskResult, MAX_DISTRACTORS, type TaskDesk, type TaskVerdict } from "../tasks/index.js";
import type { ToolExtension } from "./hub.js";

export { controlToolNames, DEFAULT_CONTROL_PREFIX } from "../catalog/index.js";

export interface ControlToolsOptions {
  /** Prefix of every control tool's name (default "sim_"). */
  prefix?: string;
  /** Called when a session's tool list changed (a task started), so clients list again. */
  onToolsChanged?: (sessionId: string) => void;
}

type Args = Record<string, unknown>;
type Handler = (sessionId: string, args: Args, signal?: AbortSignal) => Promise<CallToolResult>;

const OBJECT = { type: "object" } as const;

/**
 * The control tools of task mode (list, start, feedback, checkpoint, restore, reset, state)
 * as MCP tools ahead of the catalog's. They act on the simulation session itself, so they are
 * never recorded as calls of the task; `serve --no-control-tools` hides them from an agent.
 */
export function controlTools(desk: TaskDesk, options: ControlToolsOptions = {}): ToolExtension {
  const prefix = options.prefix ?? DEFAULT_CONTROL_PREFIX;
  const definitions = toolDefinitions(prefix);
  const handlers = new Map<string, Handler>([
    [`${prefix}list_tasks`, async () => structured({ tasks: desk.listTasks() }, listText(desk))],
    [
      `${prefix}start_task`,
      async (sessionId, args) => {
        const started = await desk.start(
          sessionId,
          String(args.task_id),
          args.distractors as number | undefined,
        );
        if (!started.ok) return failure(started.error);
        options.onToolsChanged?.(sessionId);
        const { value } = started;
        return structured(
          { ...value },
          `Started task ${value.taskId} (state version ${value.version}). The user asks:\n\n${value.description}\n\nTools: ${value.tools.join(", ")}.`,
        );
      },
    ],
    [
      `${prefix}task_feedback`,
      async (sessionId, args, signal) => {
        const judged = await desk.feedback(sessionId, {
          answer: args.answer as string | undefined,
          infeasible: args.infeasible as boolean | undefined,
          signal,
        });
        if (!judged.ok) return failure(judged.error);
        return structured(
          {
            solved: judged.value.verdict.solved,
            text: judged.value.text,
            verdict: agentView(judged.value.verdict),
          },
          judged.value.text,
        );
      },
    ],
    [
      `${prefix}checkpoint`,
      async (sessionId, args) =>
        answer(
          await desk.checkpoint(sessionId, stringArg(args.name)),
          (v) => `Checkpoint "${v.name}" is state version ${v.version}.`,
        ),
    ],
    [
      `${prefix}restore`,
      async (sessionId, args) =>
        answer(
          await desk.restore(sessionId, stringArg(args.name)),
          (v) =>
            `Restored checkpoint "${v.name}": the state is version ${v.version} again. Calls made since stay in the log.`,
        ),
    ],
    [
      `${prefix}reset`,
      async (sessionId) =>
        answer(
          await desk.reset(sessionId),
          (v) =>
            `The state is back to ${v.taskId ? `the start of task ${v.taskId}` : "the sandbox"} (version ${v.version}).`,
        ),
    ],
    [
      `${prefix}get_state`,
      async (sessionId, args) => {
        return answer(await desk.getState(sessionId, args.path as string | undefined), (v) =>
          JSON.stringify(v.value, null, 2),
        );
      },
    ],
  ]);

  const schemas = new Map(definitions.map((tool) => [tool.name, tool.inputSchema as JsonSchema]));
  return {
    name: "control-tools",
    tools: () => definitions,
    async call(sessionId, name, args, context) {
      const handler = handlers.get(name);
      const inputSchema = schemas.get(name);
      if (!handler || !inputSchema) return undefined;
      // checked like any tool's arguments, with the same findings, so an agent fixes them the same way
      const validated = validateInput(inputSchema, args);
      if (!validated.ok) return rejected({ name, inputSchema }, validated.findings);
      return withPrefix(await handler(sessionId, validated.args, context.signal), prefix);
    },
  };
}

function rejected(tool: { name: string; inputSchema: JsonSchema }, findings: Finding[]): CallToolResult {
  return {
    content: [{ type: "text", text: rejectionText(tool.name, findings, tool) }],
    isError: true,
    _meta: {
      "toolsim/findings": findings.map(({ code, argument, message }) => ({
        code,
        ...(argument ? { argument } : {}),
        message,
      })),
    },
  };
}

function toolDefinitions(prefix: string): McpTool[] {
  const tool = (
    name: string,
    description: string,
    properties: Record<string, unknown>,
    required: string[],
    output: Record<string, unknown>,
    readOnly: boolean,
  ): McpTool => ({
    name: `${prefix}${name}`,
    description,
    inputSchema: {
      type: "object",
      properties,
      required,
      additionalProperties: false,
    } as McpTool["inputSchema"],
    outputSchema: { type: "object", ...output } as McpTool["outputSchema"],
    annotations: { readOnlyHint: readOnly, openWorldHint: false },
  });
  const versionOut = (extra: Record<string, unknown>, required: string[]) => ({
    properties: { version: { type: "integer" }, ...extra },
    required: ["version", ...required],
  });
  return [
    tool(
      "list_tasks",
      "Simulator control: list the tasks of the catalog (id, toolset, difficulty, what the user asks).",
      {},
      [],
      {
        properties: {
          tasks: {
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "string" },
                toolset: { type: "string" },
                difficulty: { type: "string" },
                description: { type: "string" },
                judging: { type: "string", enum: ["golden", "checklist"] },
              },
              required: ["id", "toolset", "difficulty", "description", "judging"],
            },
          },
        },
        required: ["tasks"],
      },
      true,
    ),
    tool(
      "start_task",
      "Simulator control: start a task in this session. The state becomes the task's initial state and the tools become the task's toolset (plus similar distractor tools if asked). Returns what the user asks.",
      {
        task_id: { type: "string", minLength: 1, description: `Id of a task, from ${prefix}list_tasks.` },
        distractors: {
          type: "integer",
          minimum: 0,
          maximum: MAX_DISTRACTORS,
          description: "How many similar tools of other toolsets to add (default 0).",
        },
      },
      ["task_id"],
      {
        properties: {
          taskId: { type: "string" },
          description: { type: "string" },
          difficulty: { type: "string" },
          tools: { type: "array", items: { type: "string" } },
          distractors: { type: "array", items: { type: "string" } },
          version: { type: "integer" },
        },
        required: ["taskId", "description", "tools", "distractors", "version"],
      },
      false,
    ),
    tool(
      "task_feedback",
      "Simulator control: ask whether the task is done. Says what is done, what remains and what went wrong (without giving away the expected values). When you are finished, pass your final answer to the user; if you concluded the request cannot be done as asked, also pass infeasible: true.",
      {
        answer: { type: "string", description: "Your final answer to the user, if you have one." },
        infeasible: {
          type: "boolean",
          description: "True when you concluded the request cannot (or must not) be done as asked.",
        },
      },
      [],
      {
        properties: {
          solved: { type: ["boolean", "null"] },
          text: { type: "string" },
          verdict: OBJECT,
        },
        required: ["solved", "text", "verdict"],
      },
      false,
    ),
    tool(
      "checkpoint",
      `Simulator control: name the current state so ${prefix}restore can return to it exactly.`,
      { name: { type: "string", pattern: "^[A-Za-z0-9_.:-]{1,64}$", description: "Checkpoint name." } },
      ["name"],
      versionOut({ name: { type: "string" } }, ["name"]),
      false,
    ),
    tool(
      "restore",
      "Simulator control: return the state to a checkpoint, exactly. Calls made since stay in the log but no longer count for the task.",
      { name: { type: "string", description: "Name of a checkpoint made in this session." } },
      ["name"],
      versionOut({ name: { type: "string" } }, ["name"]),
      false,
    ),
    tool(
      "reset",
      "Simulator control: return the state to the start of the current task (or the sandbox state).",
      {},
      [],
      versionOut({ taskId: { type: ["string", "null"] } }, ["taskId"]),
      false,
    ),
    tool(
      "get_state",
      "Simulator control: read the session state, whole or at a path (JSON pointer like /orders/ORD-1 or dotted like orders.ORD-1).",
      { path: { type: "string", description: "Part of the state to read; omit for all of it." } },
      [],
      versionOut({ path: { type: "string" }, value: {} }, ["path"]),
      true,
    ),
  ];
}

/** The verdict as the agent sees it: whether the task is feasible at all is not the agent's to read. */
function agentView(verdict: TaskVerdict): Record<string, unknown> {
  const { valid: _valid, golden, ...rest } = verdict;
  if (!golden) return rest;
  const { attemptedWrites: _attempted, ...shownGolden } = golden;
  return { ...rest, golden: shownGolden };
}

function listText(desk: TaskDesk): string {
  const tasks = desk.listTasks();
  if (tasks.length === 0) return "The catalog has no tasks.";
  return tasks.map((t) => `${t.id} (${t.toolset}, ${t.difficulty}): ${t.description}`).join("\n");
}

function stringArg(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function answer<T extends Record<string, unknown>>(
  result: DeskResult<T>,
  text: (value: T) => string,
): CallToolResult {
  return result.ok ? structured({ ...result.value }, text(result.value)) : failure(result.error);
}

const CONTROL_NAMES = /\bsim_(list_tasks|start_task|task_feedback|checkpoint|restore|reset|get_state)\b/g;

/** The task room names control tools by the default prefix; an agent must read the names it can call. */
function withPrefix(result: CallToolResult, prefix: string): CallToolResult {
  if (prefix === DEFAULT_CONTROL_PREFIX) return result;
  const rename = (text: string) => text.replace(CONTROL_NAMES, (_, name: string) => prefix + name);
  const content = result.structuredContent as Record<string, unknown> | undefined;
  return {
    ...result,
    content: result.content.map((block) =>
      block.type === "text" ? { ...block, text: rename(block.text) } : block,
    ),
    ...(content && typeof content.text === "string"
      ? { structuredContent: { ...content, text: rename(content.text) } }
      : {}),
  };
}

function structured(content: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: content };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
