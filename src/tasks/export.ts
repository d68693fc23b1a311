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
): Promise<{ ok: true; example: OpenAiExample } | { ok: false; error: string }> {
  const judged = await judgeSession(context, session);
  if (!judged.ok) return judged;
  const { verdict } = judged;
  const task = context.catalog.task(verdict.taskId)?.task;
  const calls = episodeCalls(await context.store.calls(session.id), session.headVersion);
  const advancing = advancingCalls(verdict);
  const messages: Message[] = [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: task?.description ?? "" },
  ];
  const rewards: OpenAiExample["rewards"] = [];
  for (const call of calls) {
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
  if (verdict.answer) messages.push({ role: "assistant", content: verdict.answer });
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
