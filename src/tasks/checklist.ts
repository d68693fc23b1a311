import type { Task } from "../catalog/index.js";
import type { LlmClient } from "../llm/index.js";
import { diff } from "../patch/index.js";
import type { CallRecord, Usage } from "../store/index.js";

/**
 * completed: the final state and the calls show it done; in_progress: begun, not finished;
 * failed: not done, or done wrongly; rejected: the agent rightly declined it (the task asks
 * for something that cannot or must not be done) and said so.
 */
export type ChecklistStatus = "completed" | "in_progress" | "failed" | "rejected";
export const CHECKLIST_STATUSES: readonly ChecklistStatus[] = [
  "completed",
  "in_progress",
  "failed",
  "rejected",
];

export interface ChecklistItemVerdict {
  item: string;
  status: ChecklistStatus;
  reason: string;
  /** Seqs of the calls that made the item true (their training reward is +1). */
  calls: number[];
}

export interface ChecklistInput {
  task: Task;
  items: readonly string[];
  initialState: unknown;
  finalState: unknown;
  calls: readonly CallRecord[];
  answer?: string;
  infeasible: boolean;
  signal?: AbortSignal;
}

/** Judges a task by outcomes; implemented with a model (LlmChecklistJudge), replaceable in tests. */
export interface ChecklistJudge {
  /** The task's checklist: authored in the catalog, or written once by the judge and cached. */
  checklist(
    task: Task,
    signal?: AbortSignal,
  ): Promise<{ items: string[]; generated: boolean; usage?: Usage }>;
  judge(input: ChecklistInput): Promise<{ items: ChecklistItemVerdict[]; usage?: Usage }>;
}

const GENERATE_SYSTEM = `You write acceptance checklists for tasks an AI agent performs with tools.
Given what a user asked, list 2 to 6 outcomes that must hold when the task is done right, each one
checkable by looking at the final state of the system and the calls the agent made. Name concrete
entities and values from the request. Include what must NOT happen when the request implies it.
If the request cannot be fully done, the outcome for that part is that the agent declines it and
tells the user why.`;

const JUDGE_SYSTEM = `You judge whether an AI agent completed a task, one checklist item at a time.
You see the user's request, the checklist, the calls the agent made (with their results), the
changes the calls made to the system state, the final state, and the agent's final answer.
For each item answer one status:
- completed: the final state and the calls show the item is true;
- in_progress: the agent started on it but it is not finished;
- failed: it is not true, or it was done wrongly;
- rejected: the item cannot or must not be done, and the agent declined it and told the user.
Give a one-sentence reason naming the evidence (call numbers, state paths), and list the numbers
of the calls that made the item true. Judge only from what is shown.`;

const CHECKLIST_SCHEMA = {
  type: "object",
  properties: { items: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 8 } },
  required: ["items"],
  additionalProperties: false,
};

const VERDICT_SCHEMA = {
  type: "object",
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          index: { type: "integer", minimum: 1 },
          status: { type: "string", enum: [...CHECKLIST_STATUSES] },
          reason: { type: "string" },
          calls: { type: "array", items: { type: "integer" } },
        },
        required: ["index", "status", "reason", "calls"],
        additionalProperties: false,
      },
    },
  },
  required: ["items"],
  additionalProperties: false,
};

interface RawItem {
  index: number;
  status: ChecklistStatus;
  reason: string;
  calls: number[];
}

/** Limits on what one judging prompt carries, so a long session still fits a context window. */
const MAX_STATE_CHARS = 24_000;
const MAX_RESULT_CHARS = 1_200;

export class LlmChecklistJudge implements ChecklistJudge {
  constructor(private readonly client: LlmClient) {}

  async checklist(task: Task, signal?: AbortSignal) {
    if (task.checklist.length > 0) return { items: [...task.checklist], generated: false };
    // the request is the same every time, so the client's cache makes this a one-time cost
    const answer = await this.client.json<{ items: string[] }>({
      role: "judge",
      system: GENERATE_SYSTEM,
      user: `The user's request:\n${task.description}`,
      schema: CHECKLIST_SCHEMA,
      schemaName: "task_checklist",
      signal,
    });
    return { items: answer.value.items, generated: true, usage: answer.usage };
  }

  async judge(input: ChecklistInput) {
    const items = input.items;
    const answer = await this.client.json<RawItem[]>({
      role: "judge",
      system: JUDGE_SYSTEM,
      user: judgePrompt(input),
      schema: VERDICT_SCHEMA,
      schemaName: "checklist_verdict",
      parse: (value) => {
        const raw = (value as { items: RawItem[] }).items;
        for (let i = 1; i <= items.length; i++) {
          if (!raw.some((r) => r.index === i)) throw new Error(`item ${i} has no verdict`);
        }
        return raw;
      },
      signal: input.signal,
    });
    const verdicts = items.map((item, i): ChecklistItemVerdict => {
      const raw = answer.value.find((r) => r.index === i + 1);
      return {
        item,
        status: raw?.status ?? "failed",
        reason: raw?.reason ?? "the judge gave no verdict",
        calls: raw?.calls ?? [],
      };
    });
    return { items: verdicts, usage: answer.usage };
  }
}

function judgePrompt(input: ChecklistInput): string {
  const calls = input.calls.map((call) => {
    const outcome =
      call.status === "rejected"
        ? `REJECTED before running: ${call.findings.map((f) => `[${f.code}] ${f.message}`).join(" ")}`
        : call.status === "error"
          ? `ERROR ${clip(JSON.stringify(call.error), MAX_RESULT_CHARS)}`
          : `OK ${clip(JSON.stringify(call.result ?? {}), MAX_RESULT_CHARS)}`;
    return `#${call.seq} ${call.tool}(${JSON.stringify(call.arguments)}) → ${outcome}`;
  });
  const changes = diff(input.initialState, input.finalState).map(
    (op) => `${op.op} ${op.path}${"value" in op ? ` = ${clip(JSON.stringify(op.value), 400)}` : ""}`,
  );
  return [
    `## The user's request\n${input.task.description}`,
    input.task.valid
      ? ""
      : `## Note for the judge\nThis request cannot be fully done: ${input.task.invalid_reason ?? "(no reason given)"}`,
    `## Checklist\n${input.items.map((item, i) => `${i + 1}. ${item}`).join("\n")}`,
    `## Calls the agent made\n${calls.join("\n") || "(none)"}`,
    `## Changes to the state\n${changes.join("\n") || "(none)"}`,
    `## Final state\n${clip(JSON.stringify(input.finalState), MAX_STATE_CHARS)}`,
    `## The agent's final answer\n${input.answer?.trim() || "(none given)"}${input.infeasible ? "\n(The agent declared that the task cannot be done as asked.)" : ""}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
