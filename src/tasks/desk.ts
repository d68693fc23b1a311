import type { Catalog } from "../catalog/index.js";
import type { Engine } from "../engine/index.js";
import { parsePointer, readPointer, toPointer } from "../patch/index.js";
import type { Store } from "../store/index.js";
import type { ChecklistJudge } from "./checklist.js";
import { feedbackText } from "./feedback.js";
import { judgeSession } from "./session-judge.js";
import { planTaskStart } from "./start.js";
import type { JudgeMode, TaskVerdict } from "./verdict.js";

export type DeskResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface TaskSummary {
  id: string;
  toolset: string;
  difficulty: string;
  description: string;
  /** How the task is judged: golden (a solution exists), checklist, or none. */
  judging: "golden" | "checklist";
}

export interface StartedTask {
  taskId: string;
  description: string;
  difficulty: string;
  tools: string[];
  distractors: string[];
  version: number;
}

export interface TaskDeskOptions {
  engine: Engine;
  store: Store;
  checklistJudge?: ChecklistJudge;
  /** Distractors added when a start does not say how many. */
  defaultDistractors?: number;
}

/**
 * Task mode on a session: start a task, ask how it is going, checkpoint, restore, reset,
 * look at the state. Every operation returns a value; bad input is an error value with
 * what to do about it.
 */
export class TaskDesk {
  private readonly engine: Engine;
  private readonly store: Store;
  private readonly checklistJudge?: ChecklistJudge;
  readonly defaultDistractors: number;

  constructor(options: TaskDeskOptions) {
    this.engine = options.engine;
    this.store = options.store;
    this.checklistJudge = options.checklistJudge;
    this.defaultDistractors = options.defaultDistractors ?? 0;
  }

  private get catalog(): Catalog {
    return this.engine.catalog;
  }

  listTasks(): TaskSummary[] {
    return this.catalog.allTasks().map(({ task, toolset }) => ({
      id: task.id,
      toolset: toolset.id,
      difficulty: task.difficulty,
      description: task.description,
      judging: task.solution.length > 0 ? "golden" : "checklist",
    }));
  }

  async start(sessionId: string, taskId: string, distractors?: number): Promise<DeskResult<StartedTask>> {
    const planned = planTaskStart(this.catalog, taskId, distractors ?? this.defaultDistractors);
    if (!planned.ok) return planned;
    const { start } = planned;
    const head = await this.engine.resetSession(sessionId, start.state, {
      reason: `start task ${start.task.id}`,
      taskId: start.task.id,
      scope: start.scope,
    });
    return {
      ok: true,
      value: {
        taskId: start.task.id,
        description: start.task.description,
        difficulty: start.task.difficulty,
        tools: start.tools,
        distractors: start.distractors,
        version: head.version,
      },
    };
  }

  /** Judges the session's task; a given answer (or infeasible claim) is recorded first. */
  async feedback(
    sessionId: string,
    input: { answer?: string; infeasible?: boolean; mode?: JudgeMode; signal?: AbortSignal } = {},
  ): Promise<DeskResult<{ verdict: TaskVerdict; text: string }>> {
    const session = this.engine.session(sessionId);
    if (!session) return { ok: false, error: `unknown session ${sessionId}` };
    if (!session.taskId) {
      return {
        ok: false,
        error: "no task is started in this session; start one first (sim_start_task or serve --task)",
      };
    }
    if (input.answer !== undefined || input.infeasible !== undefined) {
      this.store.recordAnswer(sessionId, { answer: input.answer, infeasible: input.infeasible ?? false });
    }
    const judged = await judgeSession(
      { catalog: this.catalog, store: this.store, checklistJudge: this.checklistJudge },
      session,
      { mode: input.mode, signal: input.signal },
    );
    if (!judged.ok) return judged;
    return { ok: true, value: { verdict: judged.verdict, text: feedbackText(judged.verdict) } };
  }

  checkpoint(sessionId: string, name: string): DeskResult<{ name: string; version: number }> {
    const problem = checkpointNameProblem(name);
    if (problem) return { ok: false, error: problem };
    // the store's head, not a cached one: another process (toolsim restore) may have moved it
    const record = this.store.checkpoint(sessionId, name);
    return { ok: true, value: { name: record.name, version: record.version } };
  }

  checkpoints(sessionId: string): Array<{ name: string; version: number }> {
    return this.store.checkpoints(sessionId).map(({ name, version }) => ({ name, version }));
  }

  /** Moves the head to a checkpoint: the state is exactly the checkpoint's; the call log keeps everything. */
  async restore(sessionId: string, name: string): Promise<DeskResult<{ name: string; version: number }>> {
    const checkpoint = this.store.checkpoints(sessionId).find((c) => c.name === name);
    if (!checkpoint) {
      const names = this.checkpoints(sessionId).map((c) => c.name);
      return {
        ok: false,
        error: `no checkpoint named "${name}" in this session; ${names.length ? `checkpoints: ${names.join(", ")}` : "none was made yet"}`,
      };
    }
    const head = await this.engine.moveHead(sessionId, checkpoint.version);
    return { ok: true, value: { name, version: head.version } };
  }

  /** Back to the task's initial state (or the catalog's sandbox state), keeping the tools. */
  async reset(sessionId: string): Promise<DeskResult<{ taskId: string | null; version: number }>> {
    const session = this.engine.session(sessionId);
    if (!session) return { ok: false, error: `unknown session ${sessionId}` };
    const task = session.taskId ? this.catalog.task(session.taskId) : undefined;
    const state = task ? structuredClone(task.task.state) : this.catalog.sandboxState();
    const head = await this.engine.resetSession(sessionId, state, {
      reason: task ? `reset task ${task.task.id}` : "reset",
    });
    return { ok: true, value: { taskId: session.taskId, version: head.version } };
  }

  /** The state, or one part of it by JSON pointer ("/orders/ORD-1") or dotted path ("orders.ORD-1"). */
  getState(sessionId: string, path?: string): DeskResult<{ version: number; path: string; value: unknown }> {
    const head = this.store.head(sessionId);
    if (!path || path === "/")
      return { ok: true, value: { version: head.version, path: "", value: head.document } };
    const pointer = path.startsWith("/") ? path : toPointer(path.split("."));
    const value = readPointer(head.document, pointer);
    if (value === undefined) {
      return { ok: false, error: `nothing at ${pointer}; ${available(head.document, pointer)}` };
    }
    return { ok: true, value: { version: head.version, path: pointer, value } };
  }
}

function checkpointNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(name)) {
    return `checkpoint names are 1-64 letters, digits, "_", ".", ":" or "-"; got ${JSON.stringify(name)}`;
  }
  return undefined;
}

/** The keys at the deepest part of a pointer that exists, so the caller can correct the path. */
function available(document: unknown, pointer: string): string {
  const segments = parsePointer(pointer);
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    const parent = readPointer(document, toPointer(segments.slice(0, depth)));
    if (parent !== null && typeof parent === "object") {
      const keys = Object.keys(parent as object);
      const shown = keys.slice(0, 30).join(", ");
      return `keys at ${toPointer(segments.slice(0, depth)) || "/"}: ${shown}${keys.length > 30 ? ", …" : ""}`;
    }
  }
  return "the state is empty";
}
