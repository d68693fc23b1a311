import type { Task, Tool } from "../catalog/index.js";
import { addUsage } from "../llm/index.js";
import type { CallRecord, Usage } from "../store/index.js";
import type { ChecklistItemVerdict, ChecklistJudge } from "./checklist.js";
import { episodeCalls } from "./episode.js";
import { type GoldenVerdict, judgeGolden } from "./golden.js";
import { judgeTextsWithModel } from "./text-judge.js";

/** Which judge decides: golden when the task has a solution, else the checklist (auto). */
export type JudgeMode = "auto" | "golden" | "checklist";

export interface ChecklistOutcome {
  /** Items come from the catalog, or were written by the judge (generated). */
  source: "authored" | "generated";
  items: ChecklistItemVerdict[];
}

export interface TaskVerdict {
  taskId: string;
  valid: boolean;
  /** none: nothing could judge (no solution, no model); the verdict is partial. */
  judge: "golden" | "checklist" | "none";
  /** null when unknown. */
  solved: boolean | null;
  progress: { done: number; total: number };
  golden?: GoldenVerdict;
  checklist?: ChecklistOutcome;
  /** Why the checklist judge did not run, when it was wanted. */
  unavailable?: string;
  /** Who judged free-text arguments for the golden judge: word overlap, or the model. */
  freeText?: "overlap" | "model";
  calls: { total: number; attempt: number; ok: number; error: number; rejected: number };
  infeasibleDeclared: boolean;
  answer?: string;
  /** What judging cost (checklist judge only). */
  usage?: Usage;
}

export interface JudgeInput {
  task: Task;
  /** Every call of the session, in order. */
  calls: readonly CallRecord[];
  headVersion: number;
  finalState: unknown;
  tool: (name: string) => Tool | undefined;
  answer?: string;
  infeasible: boolean;
  mode?: JudgeMode;
  checklistJudge?: ChecklistJudge;
  signal?: AbortSignal;
}

/**
 * Judges a session on its task. The golden judge is deterministic and free; the checklist
 * judge needs a model. Without either, the verdict says what is known (the calls) and that
 * the rest is unknown, never failing.
 */
export async function judgeTask(input: JudgeInput): Promise<TaskVerdict> {
  const attempt = episodeCalls(input.calls, input.headVersion);
  const base = {
    taskId: input.task.id,
    valid: input.task.valid,
    calls: {
      total: input.calls.length,
      attempt: attempt.length,
      ok: attempt.filter((c) => c.status === "ok").length,
      error: attempt.filter((c) => c.status === "error").length,
      rejected: attempt.filter((c) => c.status === "rejected").length,
    },
    infeasibleDeclared: input.infeasible,
    ...(input.answer ? { answer: input.answer } : {}),
  };
  const mode = input.mode ?? "auto";
  const hasSolution = input.task.solution.length > 0;
  const useGolden = mode === "golden" || (mode === "auto" && hasSolution);

  if (useGolden && hasSolution) {
    const texts = input.checklistJudge
      ? await judgeTextsWithModel({
          judge: input.checklistJudge,
          task: input.task,
          calls: attempt,
          tool: input.tool,
          finalState: input.finalState,
          answer: input.answer,
          infeasible: input.infeasible,
          signal: input.signal,
        })
      : undefined;
    const golden = judgeGolden({
      solution: input.task.solution,
      calls: attempt,
      tool: input.tool,
      valid: input.task.valid,
      infeasible: input.infeasible,
      judgeText: texts?.ok ? texts.judgeText : undefined,
    });
    const done = golden.steps.filter((s) => s.status === "done" && !s.outOfOrder).length;
    return {
      ...base,
      judge: "golden",
      solved: golden.solved,
      progress: { done, total: golden.steps.length },
      golden,
      freeText: texts?.ok && texts.asked > 0 ? "model" : "overlap",
      ...(texts && !texts.ok ? { unavailable: texts.error } : {}),
      ...(texts?.ok && texts.usage ? { usage: texts.usage } : {}),
    };
  }
  if (mode === "golden") {
    return {
      ...base,
      judge: "none",
      solved: null,
      progress: { done: 0, total: 0 },
      unavailable: "the task has no golden solution",
    };
  }
  const items = input.task.checklist;
  if (!input.checklistJudge) {
    return {
      ...base,
      judge: "none",
      solved: null,
      progress: { done: 0, total: items.length },
      unavailable:
        "judging this task needs the checklist judge, and no model is configured (set OPENAI_API_KEY, or OPENAI_BASE_URL and TOOLSIM_MODEL for a local server)",
    };
  }
  try {
    const list = await input.checklistJudge.checklist(input.task, input.signal);
    const judged = await input.checklistJudge.judge({
      task: input.task,
      items: list.items,
      initialState: input.task.state,
      finalState: input.finalState,
      calls: attempt,
      answer: input.answer,
      infeasible: input.infeasible,
      signal: input.signal,
    });
    const completed = judged.items.filter((i) => i.status === "completed").length;
    const settled = judged.items.filter((i) => i.status === "completed" || i.status === "rejected").length;
    const solved = input.task.valid
      ? completed === judged.items.length && !input.infeasible
      : settled === judged.items.length && input.infeasible;
    return {
      ...base,
      judge: "checklist",
      solved,
      progress: { done: settled, total: judged.items.length },
      checklist: { source: list.generated ? "generated" : "authored", items: judged.items },
      usage: addUsage(list.usage, judged.usage),
    };
  } catch (error) {
    return {
      ...base,
      judge: "none",
      solved: null,
      progress: { done: 0, total: items.length },
      unavailable: `the checklist judge failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
