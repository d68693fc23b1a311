import { performance } from "node:perf_hooks";
import type { Catalog, Task } from "../catalog/index.js";
import type { Engine, FindingCode } from "../engine/index.js";
import type { FaultCounts } from "../faults/index.js";
import { zeroUsage } from "../llm/index.js";
import type { AttemptOutcome, SessionRecord, Store, Usage } from "../store/index.js";
import {
  type JudgeMode,
  patternFigures,
  planTaskStart,
  type TaskDesk,
  type TaskVerdict,
} from "../tasks/index.js";
import {
  type Agent,
  type AgentConversation,
  type AttemptProblem,
  addInto,
  type ConversationEntry,
} from "./agent.js";
import { attemptFaults } from "./faults.js";
import { attemptSessionName, type PlannedAttempt } from "./plan.js";
import type { User } from "./user.js";

/** What running attempts needs: the run, the session machinery, the agent and its user. */
export interface AttemptEnvironment {
  runId: string;
  seed: string;
  catalog: Catalog;
  engine: Engine;
  store: Store;
  desk: TaskDesk;
  agent: Agent;
  userFor(task: Task, attempt: number): User;
  feedbackRetries: number;
  distractors: number;
  judgeMode: JudgeMode;
  attemptTimeoutMs: number;
  /**
   * Called with each attempt's session before the agent starts: the seam for what a run
   * sets up per attempt beyond the task's state (a profile of injected faults, say).
   */
  prepareSession?: (session: SessionRecord, attempt: PlannedAttempt) => Promise<void>;
}

/** Model usage of an attempt, by whose requests they were. */
export interface AttemptUsage {
  agent: Usage;
  user: Usage;
  judge: Usage;
  simulator: Usage;
}

/** One try of an attempt: the first, or one after the judge's feedback. */
export interface TryResult {
  outcome: AttemptOutcome;
  progress: { done: number; total: number };
}

/** Everything a run keeps of one attempt. */
export interface AttemptResult {
  task: string;
  attempt: number;
  session: string;
  sessionId: string;
  outcome: AttemptOutcome;
  /** The first try's outcome: the result before any feedback. */
  firstTry: AttemptOutcome;
  tries: TryResult[];
  reward: 0 | 1;
  verdict?: {
    judge: TaskVerdict["judge"];
    solved: boolean | null;
    progress: { done: number; total: number };
    infeasibleDeclared: boolean;
    unavailable?: string;
  };
  calls: { total: number; ok: number; error: number; rejected: number };
  /** Calls with each ToolScan pattern (IAC: steps or checklist items left undone). */
  toolscan: Record<FindingCode, number>;
  /** Per fault kind, how the agent met the faults injected on purpose; present when there were any. */
  faults?: FaultCounts;
  usage: AttemptUsage;
  /** Model requests of the built-in agent. */
  steps: number;
  /** User messages the agent answered. */
  turns: number;
  stoppedBy?: "answer" | "step-cap" | "exit";
  answer?: string;
  error?: { kind: AttemptProblem["kind"]; message: string };
  conversation: ConversationEntry[];
  /** Wall time of the attempt (ms). */
  durationMs: number;
}

/** How an attempt ended: a result to keep, or the run must stop (interrupted, or a fatal problem). */
export type AttemptRun =
  | { kind: "done"; result: AttemptResult }
  | { kind: "stopped"; problem: AttemptProblem; sessionName: string };

/** The words that introduce the judge's feedback to the agent. */
export const FEEDBACK_INTRO = "Your work on this request was checked, and it is not done yet:";

export function feedbackMessage(feedback: string): string {
  return `${FEEDBACK_INTRO}\n\n${feedback}\n\nContinue in the same session: do what is missing or put right what is wrong, then answer again.`;
}

/**
 * One attempt: a fresh session on the task, the conversation (the user's turns, each
 * answered by the agent), the judge, and up to `feedbackRetries` more tries in the same
 * session after a failed one, each after the judge's feedback. A problem (a model error, a
 * crash, the attempt's time running out) ends it as `error`; the run's own stop (Ctrl-C, a
 * fatal problem) is returned as `stopped` and nothing is kept.
 */
export async function runAttempt(
  env: AttemptEnvironment,
  planned: PlannedAttempt,
  runSignal: AbortSignal,
): Promise<AttemptRun> {
  const started = performance.now();
  const found = env.catalog.task(planned.taskId);
  if (!found) throw new Error(`task ${planned.taskId} is not in the catalog`); // the plan was checked against it
  const task = found.task;
  const session = await openAttemptSession(env, planned);
  await env.prepareSession?.(session, planned);
  const stop = attemptStop(runSignal, env.attemptTimeoutMs);
  const { signal } = stop;
  const user = env.userFor(task, planned.attempt);
  const conversation: ConversationEntry[] = [];
  const agent = await env.agent.start({
    runId: env.runId,
    taskId: task.id,
    task,
    attempt: planned.attempt,
    sessionId: session.id,
    sessionName: session.name ?? session.id,
    seed: env.seed,
    interactiveUser: user.interactive,
  });
  const said = async (role: ConversationEntry["role"], text: string) => {
    conversation.push({ role, text, afterCalls: await env.store.callCount(session.id) });
  };
  const tries: TryResult[] = [];
  let problem: AttemptProblem | undefined;
  let answer: { text: string; infeasible: boolean; stoppedBy: AttemptResult["stoppedBy"] } | undefined;
  let verdict: TaskVerdict | undefined;
  let turns = 0;
  const judgeUsage = zeroUsage();
  try {
    problem = await converse(user, agent, conversation, said, signal, (reply) => {
      answer = { text: reply.answer, infeasible: reply.infeasible, stoppedBy: reply.stoppedBy };
      turns++;
    });
    for (let tryNumber = 1; !problem; tryNumber++) {
      const judged = await env.desk.feedback(session.id, {
        answer: answer?.text,
        infeasible: answer?.infeasible ?? false,
        mode: env.judgeMode,
        signal,
      });
      if (!judged.ok) {
        problem = { kind: "judge", message: `the judge could not judge the attempt: ${judged.error}` };
        break;
      }
      verdict = judged.value.verdict;
      if (verdict.usage) addInto(judgeUsage, verdict.usage);
      tries.push({ outcome: outcomeOf(verdict), progress: verdict.progress });
      if (verdict.solved !== false || tryNumber > env.feedbackRetries) break;
      const message = feedbackMessage(judged.value.text);
      await said("feedback", message);
      const replied = await agent.respond({
        message,
        kind: "feedback",
        turn: Math.max(0, turns - 1),
        tryNumber: tryNumber + 1,
        history: conversation.slice(0, -1),
        signal,
      });
      if (!replied.ok) {
        problem = replied.problem;
        break;
      }
      answer = {
        text: replied.reply.answer,
        infeasible: replied.reply.infeasible,
        stoppedBy: replied.reply.stoppedBy,
      };
      await said("agent", replied.reply.answer);
    }
  } finally {
    stop.dispose();
    await agent.close();
  }
  if (problem && (problem.fatal || (runSignal.aborted && !stop.timedOut()))) {
    env.engine.release(session.id);
    return { kind: "stopped", problem, sessionName: session.name ?? session.id };
  }
  if (problem && stop.timedOut()) {
    problem = {
      kind: "timeout",
      message: `the attempt ran out of time (--attempt-timeout ${env.attemptTimeoutMs / 1000} s)`,
    };
  }
  if (problem && !verdict) {
    // how far the agent got, for the record: judged without an answer
    const judged = await env.desk.feedback(session.id, { mode: env.judgeMode });
    if (judged.ok) verdict = judged.value.verdict;
  }
  const logged = await env.store.calls(session.id);
  const calls = logged.filter((call) => call.status !== "cancelled");
  env.engine.release(session.id);
  // counted over every call, the cancelled ones included, as `toolsim report` counts them
  const faults = attemptFaults(logged, verdict, answer?.text);
  const outcome: AttemptOutcome = problem ? "error" : (tries.at(-1)?.outcome ?? "error");
  // what is left undone is known only where something judged the attempt
  const judged = verdict && verdict.judge !== "none" ? verdict : undefined;
  const toolscan = Object.fromEntries(
    patternFigures(calls, judged).map((figure) => [figure.code, figure.count]),
  ) as Record<FindingCode, number>;
  return {
    kind: "done",
    result: {
      task: task.id,
      attempt: planned.attempt,
      session: session.name ?? session.id,
      sessionId: session.id,
      outcome,
      firstTry: problem && tries.length === 0 ? "error" : (tries[0]?.outcome ?? outcome),
      tries,
      reward: outcome === "passed" ? 1 : 0,
      ...(verdict
        ? {
            verdict: {
              judge: verdict.judge,
              solved: verdict.solved,
              progress: verdict.progress,
              infeasibleDeclared: verdict.infeasibleDeclared,
              ...(verdict.unavailable ? { unavailable: verdict.unavailable } : {}),
            },
          }
        : {}),
      calls: {
        total: calls.length,
        ok: calls.filter((c) => c.status === "ok").length,
        error: calls.filter((c) => c.status === "error").length,
        rejected: calls.filter((c) => c.status === "rejected").length,
      },
      toolscan,
      ...(faults ? { faults } : {}),
      usage: {
        agent: { ...agent.usage },
        user: { ...user.usage },
        judge: judgeUsage,
        simulator: sumUsage(calls.map((call) => call.usage)),
      },
      steps: agent.steps,
      turns,
      ...(answer ? { answer: answer.text, stoppedBy: answer.stoppedBy } : {}),
      ...(problem ? { error: { kind: problem.kind, message: problem.message } } : {}),
      conversation,
      durationMs: performance.now() - started,
    },
  };
}

/** The user's turns, each answered by the agent, until the user ends; a problem ends it early. */
async function converse(
  user: User,
  agent: AgentConversation,
  conversation: ConversationEntry[],
  said: (role: ConversationEntry["role"], text: string) => Promise<void>,
  signal: AbortSignal,
  answered: (reply: {
    answer: string;
    infeasible: boolean;
    stoppedBy: "answer" | "step-cap" | "exit";
  }) => void,
): Promise<AttemptProblem | undefined> {
  let last: string | undefined;
  for (let turn = 0; ; turn++) {
    const move = await user.next(last, signal);
    if (move.kind === "problem") return move.problem;
    if (move.kind === "end") return undefined;
    await said("user", move.message);
    const replied = await agent.respond({
      message: move.message,
      kind: "user",
      turn,
      tryNumber: 1,
      history: conversation.slice(0, -1),
      signal,
    });
    if (!replied.ok) return replied.problem;
    answered(replied.reply);
    await said("agent", replied.reply.answer);
    last = replied.reply.answer;
  }
}

/**
 * The attempt's signal: aborted when the run stops or the attempt's time is up. Its timer
 * and listener go when the attempt ends, so a long run holds none of finished attempts.
 */
function attemptStop(runSignal: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  const onRunStop = () => controller.abort(runSignal.reason);
  runSignal.addEventListener("abort", onRunStop, { once: true });
  if (runSignal.aborted) controller.abort(runSignal.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("the attempt ran out of time"));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      runSignal.removeEventListener("abort", onRunStop);
    },
  };
}

function sumUsage(parts: ReadonlyArray<Usage | undefined>): Usage {
  const total = zeroUsage();
  for (const part of parts) if (part) addInto(total, part);
  return total;
}

function outcomeOf(verdict: TaskVerdict): AttemptOutcome {
  if (verdict.solved === null) return "unjudged";
  return verdict.solved ? "passed" : "failed";
}

/**
 * The attempt's own session, on the task's initial state with its tools (and distractors),
 * named after the run, the task and the attempt. A name already taken (an attempt a killed
 * run left unfinished) gets the next free suffix, so nothing resumes an earlier session.
 */
async function openAttemptSession(env: AttemptEnvironment, planned: PlannedAttempt): Promise<SessionRecord> {
  const start = planTaskStart(env.catalog, planned.taskId, env.distractors);
  if (!start.ok) throw new Error(start.error); // checked when the run was planned
  const base = attemptSessionName(env.runId, planned);
  let name = base;
  for (let n = 2; await env.engine.session(name); n++) name = `${base}#${n}`;
  return env.engine.openSession({ name, taskId: planned.taskId, scope: start.start.scope, seed: env.seed });
}
