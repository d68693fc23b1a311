import type { Tool } from "../catalog/index.js";
import { type Finding, type FindingCode, rejectionText } from "../engine/index.js";
import { faultOf } from "../faults/index.js";
import type { CallRecord, SessionRecord } from "../store/index.js";
import { episodeCalls } from "./episode.js";
import { type JudgeContext, judgeSession } from "./session-judge.js";
import type { TaskVerdict } from "./verdict.js";

export type Reward = -1 | 0 | 1;

interface ToolCallMessage {
  role: "assistant";
  content: null;
  tool_calls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  /** OpenAI fine-tuning: 0 leaves a rejected call out of the loss. */
  weight: 0 | 1;
}

type Message =
  | { role: "system" | "user"; content: string }
  | ToolCallMessage
  | { role: "tool"; tool_call_id: string; content: string }
  | { role: "assistant"; content: string };

export interface ExportOptions {
  /**
   * What was said, in order, each placed after the calls made before it (a run's attempt:
   * several user turns, the judge's feedback, the agent's answers). Absent: the task's
   * request, then the calls, then the last answer the agent gave.
   */
  conversation?: ReadonlyArray<{ role: "user" | "agent" | "feedback"; text: string; afterCalls: number }>;
  /** The system prompt the agent worked with (default: a generic one). */
  system?: string;
  /** More fields for the example's metadata (a run's id, the attempt, its reward). */
  metadata?: Record<string, unknown>;
}

/** One session as a chat-format training example (one JSONL line). */
export interface OpenAiExample {
  messages: Message[];
  tools: Array<{ type: "function"; function: { name: string; description: string; parameters: unknown } }>;
  parallel_tool_calls: false;
  /** One per tool call: -1 rejected, 0 accepted but not advancing the task, +1 advancing it. */
  rewards: Array<{ tool_call_id: string; seq: number; tool: string; reward: Reward }>;
  metadata: {
    session: string;
    task: string;
    solved: boolean | null;
    judge: TaskVerdict["judge"];
    progress: { done: number; total: number };
    [more: string]: unknown;
  };
}

const SYSTEM_PROMPT =
  "You are an assistant that carries out the user's request with the tools provided. Call tools to look " +
  "things up and to make changes; read each result before the next step; fix a rejected call from its error " +
  "message. When the request cannot be done as asked, do not force it: explain why to the user.";

/**
 * The attempt that led to the session's current state, as an OpenAI chat conversation:
 * the system prompt, the tools the session offered, the task as the user's message, each
 * call with what the tool answered, and the agent's final answer. Calls undone by a restore
 * or a reset are left out, so the conversation is one coherent path.
 */
export async function exportOpenAi(
  context: JudgeContext,
  session: SessionRecord,
  tools: readonly Tool[],
  options: ExportOptions = {},
): Promise<{ ok: true; example: OpenAiExample } | { ok: false; error: string }> {
  const judged = await judgeSession(context, session);
  if (!judged.ok) return judged;
  const { verdict } = judged;
  const task = context.catalog.task(verdict.taskId)?.task;
  const calls = episodeCalls(await context.store.calls(session.id), session.headVersion);
  const advancing = advancingCalls(verdict);
  const spoken = options.conversation ?? [
    { role: "user" as const, text: task?.description ?? "", afterCalls: 0 },
    ...(verdict.answer
      ? [{ role: "agent" as const, text: verdict.answer, afterCalls: Number.POSITIVE_INFINITY }]
      : []),
  ];
  const messages: Message[] = [{ role: "system", content: options.system ?? SYSTEM_PROMPT }];
  let said = 0;
  const sayUpTo = (callsBefore: number) => {
    for (; said < spoken.length && (spoken[said]?.afterCalls ?? 0) <= callsBefore; said++) {
      const entry = spoken[said];
      if (entry) messages.push({ role: entry.role === "agent" ? "assistant" : "user", content: entry.text });
    }
  };
  const rewards: OpenAiExample["rewards"] = [];
  for (const call of calls) {
    sayUpTo(call.seq - 1);
    const id = `call_${call.seq}`;
    const reward: Reward = call.status === "rejected" ? -1 : advancing.has(call.seq) ? 1 : 0;
    rewards.push({ tool_call_id: id, seq: call.seq, tool: call.tool, reward });
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id,
          type: "function",
          function: { name: call.tool, arguments: JSON.stringify(call.arguments ?? {}) },
        },
      ],
      weight: reward < 0 ? 0 : 1,
    });
    messages.push({ role: "tool", tool_call_id: id, content: toolAnswer(call, tools) });
  }
  sayUpTo(Number.POSITIVE_INFINITY);
  return {
    ok: true,
    example: {
      messages,
      tools: tools.map((tool) => ({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      })),
      parallel_tool_calls: false,
      rewards,
      metadata: {
        session: session.id,
        task: verdict.taskId,
        solved: verdict.solved,
        judge: verdict.judge,
        progress: verdict.progress,
        ...options.metadata,
      },
    },
  };
}

/** Calls that made a golden step or a checklist item true. */
function advancingCalls(verdict: TaskVerdict): Set<number> {
  const seqs = new Set<number>();
  for (const step of verdict.golden?.steps ?? []) {
    if (step.status === "done" && !step.outOfOrder && step.seq !== undefined) seqs.add(step.seq);
  }
  for (const item of verdict.checklist?.items ?? []) {
    if (item.status === "completed") for (const seq of item.calls) seqs.add(seq);
  }
  return seqs;
}

/** What the agent read back from the tool, as it read it. */
function toolAnswer(call: CallRecord, tools: readonly Tool[]): string {
  // a lost answer: the write was applied, and the agent read the error the fault put in its place
  const lost = faultOf(call);
  if (lost?.kind === "lost-answer" && lost.error) return JSON.stringify({ error: lost.error });
  if (call.status === "ok") return JSON.stringify(call.result ?? {});
  if (call.status === "error") return JSON.stringify({ error: call.error });
  const findings: Finding[] = call.findings.map((f) => ({
    code: f.code as FindingCode,
    ...(f.argument ? { argument: f.argument } : {}),
    message: f.message,
    severity: f.code === "RAC" ? "note" : "error",
  }));
  return rejectionText(
    call.tool,
    findings,
    tools.find((t) => t.name === call.tool),
  );
}
