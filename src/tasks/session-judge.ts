import type { Catalog } from "../catalog/index.js";
import type { SessionRecord, Store, TaskAnswerRecord } from "../store/index.js";
import type { ChecklistJudge } from "./checklist.js";
import { attemptVersions } from "./episode.js";
import { type JudgeMode, judgeTask, type TaskVerdict } from "./verdict.js";

/** What judging a stored session needs: the catalog for the task and tools, the store for the rest. */
export interface JudgeContext {
  catalog: Catalog;
  store: Store;
  checklistJudge?: ChecklistJudge;
}

export type SessionVerdict = { ok: true; verdict: TaskVerdict } | { ok: false; error: string };

/** Judges a stored session on its task, with the last answer the agent gave in this attempt. */
export async function judgeSession(
  context: JudgeContext,
  session: SessionRecord,
  options: { mode?: JudgeMode; signal?: AbortSignal } = {},
): Promise<SessionVerdict> {
  if (!session.taskId) {
    return {
      ok: false,
      error: "this session is not on a task; start one first (sim_start_task or serve --task)",
    };
  }
  const found = context.catalog.task(session.taskId);
  if (!found) {
    return {
      ok: false,
      error: `the session's task "${session.taskId}" is not in the loaded catalog; load the toolset that defines it`,
    };
  }
  const head = await context.store.head(session.id);
  // a call the client cancelled was never answered: it is in the log, not in the judging
  const calls = (await context.store.calls(session.id)).filter((call) => call.status !== "cancelled");
  const answer = currentAnswer(await context.store.answers(session.id), attemptVersions(calls, head.version));
  const verdict = await judgeTask({
    task: found.task,
    calls,
    headVersion: head.version,
    finalState: head.state.toJSON(),
    tool: (name) => context.catalog.tool(name)?.tool,
    answer: answer?.answer,
    infeasible: answer?.infeasible ?? false,
    mode: options.mode,
    checklistJudge: context.checklistJudge,
    signal: options.signal,
  });
  return { ok: true, verdict };
}

function currentAnswer(
  answers: readonly TaskAnswerRecord[],
  lineage: ReadonlySet<number>,
): TaskAnswerRecord | undefined {
  return answers.filter((a) => lineage.has(a.version)).at(-1);
}
