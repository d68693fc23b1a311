import type { Catalog } from "../catalog/index.js";
import type { Engine } from "../engine/index.js";
import { pointerSegments, toPointer } from "../patch/index.js";
import type { State } from "../state/index.js";
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
    const session = await this.engine.record(sessionId);
    if (!session.taskId) {
      return {
        ok: false,
        error: "no task is started in this session; start one first (sim_start_task or serve --task)",
      };
    }
    if (input.answer !== undefined || input.infeasible !== undefined) {
      await this.store.recordAnswer(sessionId, {
        answer: input.answer,
        infeasible: input.infeasible ?? false,
      });
    }
    const judged = await judgeSession(
      { catalog: this.catalog, store: this.store, checklistJudge: this.checklistJudge },
      session,
      { mode: input.mode, signal: input.signal },
    );
    if (!judged.ok) return judged;
    return { ok: true, value: { verdict: judged.verdict, text: feedbackText(judged.verdict) } };
  }

  async checkpoint(sessionId: string, name: string): Promise<DeskResult<{ name: string; version: number }>> {
    const problem = checkpointNameProblem(name);
    if (problem) return { ok: false, error: problem };
    // the store's head, not a cached one: another process (toolsim restore) may have moved it
    const record = await this.store.checkpoint(sessionId, name);
    return { ok: true, value: { name: record.name, version: record.version } };
  }

  async checkpoints(sessionId: string): Promise<Array<{ name: string; version: number }>> {
    return (await this.store.checkpoints(sessionId)).map(({ name, version }) => ({ name, version }));
  }

  /** Moves the head to a checkpoint: the state is exactly the checkpoint's; the call log keeps everything. */
  async restore(sessionId: string, name: string): Promise<DeskResult<{ name: string; version: number }>> {
    const checkpoints = await this.checkpoints(sessionId);
    const checkpoint = checkpoints.find((c) => c.name === name);
    if (!checkpoint) {
      const names = checkpoints.map((c) => c.name);
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
    const session = await this.engine.record(sessionId);
    const task = session.taskId ? this.catalog.task(session.taskId) : undefined;
    const state = task ? task.task.state : this.catalog.sandboxState();
    const head = await this.engine.resetSession(sessionId, state, {
      reason: task ? `reset task ${task.task.id}` : "reset",
    });
    return { ok: true, value: { taskId: session.taskId, version: head.version } };
  }

  /** The state, or one part of it by JSON pointer ("/orders/ORD-1") or dotted path ("orders.ORD-1"). */
  async getState(
    sessionId: string,
    path?: string,
  ): Promise<DeskResult<{ version: number; path: string; value: unknown }>> {
    const head = await this.engine.state(sessionId);
    if (!path || path === "/")
      return { ok: true, value: { version: head.version, path: "", value: head.state.toJSON() } };
    const pointer = path.startsWith("/") ? path : toPointer(path.split("."));
    const segments = pointerSegments(pointer);
    const value = segments.ok ? head.state.get(segments.segments) : undefined;
    if (value === undefined) {
      return {
        ok: false,
        error: `nothing at ${pointer}; ${available(head.state, segments.ok ? segments.segments : [])}`,
      };
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

/** The keys at the deepest part of a path that exists, so the caller can correct the path. */
function available(state: State, segments: readonly string[]): string {
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    const at = segments.slice(0, depth);
    const keys = keysAt(state, at);
    if (keys) {
      const shown = keys.slice(0, 30).join(", ");
      return `keys at ${toPointer(at) || "/"}: ${shown}${keys.length > 30 ? ", …" : ""}`;
    }
  }
  return "the state is empty";
}

/** The first keys of the object at a path (a collection's without reading it whole), or undefined. */
function keysAt(state: State, path: readonly string[]): string[] | undefined {
  if (path.length === 0) return state.keys();
  const collection = path.length === 1 ? state.collection(path[0] as string) : undefined;
  if (collection) {
    const keys: string[] = [];
    for (const key of collection.keys()) {
      if (keys.push(key) > 30) break;
    }
    return keys;
  }
  const parent = state.get(path);
  return parent !== null && typeof parent === "object" ? Object.keys(parent) : undefined;
}
