import type { Task } from "../../src/catalog/index.js";
import { canonicalJson } from "../../src/patch/index.js";
import { FEEDBACK_INTRO, STOP_SIGNAL } from "../../src/run/index.js";
import type { FakeStep, RecordedMessage, RecordedRequest } from "./fake-openai.js";

export interface PlayerOptions {
  /** Tools the agent leaves out until it has read the judge's feedback: a first try that fails. */
  skipUntilFeedback?: readonly string[];
  /** Requests for this model are the simulated user's: they get the user's lines. */
  userModel?: string;
  /** The agent's answer when a turn's calls are done (default: "Done: TASK", or INFEASIBLE for an invalid task). */
  answer?: (task: Task, turn: number) => string;
  /**
   * Asked at the first request of an attempt: true makes the agent answer at once without
   * working the task (a model whose sampling sometimes goes wrong; decide by the request's seed).
   */
  giveUpWhen?: (request: RecordedRequest) => boolean;
}

/** What the agent says when it gives up. */
export const GIVE_UP = "Sorry, I could not get this done.";

/**
 * A scripted model that plays tasks as a capable agent would, from the conversation alone:
 * it finds the task by the first user message, works out which golden calls of the turns
 * said so far are done (from the tool calls already in the conversation), asks for the next
 * one by the name the request offers (a framework's prefix, strict mode's nulls), and answers
 * when none is left. It can also play the simulated user (`userModel`): the task's turns, one
 * per message, then the stop signal.
 */
export function taskPlayer(
  tasks: readonly Task[],
  options: PlayerOptions = {},
): (request: RecordedRequest) => FakeStep {
  return (request) => {
    if (options.userModel && request.model === options.userModel) return playUser(tasks, request);
    return playAgent(tasks, request, options);
  };
}

function playAgent(tasks: readonly Task[], request: RecordedRequest, options: PlayerOptions): FakeStep {
  const users = request.messages.filter((m) => m.role === "user");
  const opening = users[0]?.content ?? "";
  const task = tasks.find((t) => t.description === opening || t.turns?.[0] === opening);
  if (!task) return { kind: "text", content: `I do not know how to help with: ${opening}` };
  const feedback = users.some((m) => m.content.startsWith(FEEDBACK_INTRO));
  const turnsSaid = users.filter((m) => !m.content.startsWith(FEEDBACK_INTRO)).length;
  const lastTurn = Math.max(0, (task.turns?.length ?? 1) - 1);
  const turn = Math.min(turnsSaid - 1, lastTurn);
  const called = calledTools(request.messages);
  const first = !request.messages.some((m) => m.role === "assistant");
  if (first && options.giveUpWhen?.(request)) return { kind: "text", content: GIVE_UP };
  const skipped = new Set(feedback ? [] : (options.skipUntilFeedback ?? []));
  const offered = offeredFunctions(request);
  const used = new Set<number>();
  for (const step of task.solution) {
    if ((step.turn ?? 0) > turn) continue;
    const index = called.findIndex(
      (call, i) =>
        !used.has(i) && sameTool(call.name, step.tool) && sameArguments(call.arguments, step.arguments),
    );
    if (index >= 0) {
      used.add(index);
      continue;
    }
    if (skipped.has(step.tool)) continue;
    const fn = offered.find((f) => sameTool(f.name, step.tool));
    const name = fn?.name ?? step.tool;
    return { kind: "tools", calls: [{ name, arguments: withNulls(step.arguments, fn?.parameters) }] };
  }
  const answer =
    options.answer?.(task, turn) ??
    (task.valid
      ? `Done: ${task.id}, turn ${turn + 1}.`
      : `INFEASIBLE: ${task.invalid_reason ?? "this cannot be done"}`);
  return { kind: "text", content: answer };
}

/** The simulated user: the task found by its brief in the instructions; its turns in order, then stop. */
function playUser(tasks: readonly Task[], request: RecordedRequest): FakeStep {
  const system = request.messages[0]?.content ?? "";
  const task = tasks.find((t) => system.includes(t.user ?? t.description));
  if (!task) return { kind: "text", content: STOP_SIGNAL };
  const said = request.messages.filter((m) => m.role === "assistant").length;
  const lines = task.turns ?? [task.description];
  return { kind: "text", content: lines[said] ?? STOP_SIGNAL };
}

function calledTools(messages: readonly RecordedMessage[]): Array<{ name: string; arguments: unknown }> {
  return messages.flatMap((m) =>
    (m.toolCalls ?? []).map((call) => ({ name: call.name, arguments: parse(call.arguments) })),
  );
}

function offeredFunctions(
  request: RecordedRequest,
): Array<{ name: string; parameters?: Record<string, unknown> }> {
  const tools = Array.isArray(request.body.tools) ? request.body.tools : [];
  return tools.map((tool: { function?: { name?: string; parameters?: Record<string, unknown> } }) => ({
    name: String(tool.function?.name),
    parameters: tool.function?.parameters,
  }));
}

/** A framework may put a prefix before the name (Mastra: toolsim_) or swap dots for underscores. */
function sameTool(called: string, tool: string): boolean {
  const plain = tool.replace(/[^A-Za-z0-9_-]/g, "_");
  return called === tool || called === plain || called.endsWith(`_${plain}`);
}

function sameArguments(given: unknown, expected: Record<string, unknown>): boolean {
  return canonicalJson(withoutNulls(given)) === canonicalJson(expected);
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

/** Strict mode: every property the schema requires is sent, null for those the call leaves out. */
function withNulls(args: Record<string, unknown>, parameters: Record<string, unknown> | undefined) {
  const required = Array.isArray(parameters?.required) ? (parameters.required as string[]) : [];
  const strict = parameters?.additionalProperties === false && required.length > 0;
  if (!strict) return args;
  return { ...Object.fromEntries(required.map((name) => [name, null])), ...args };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
