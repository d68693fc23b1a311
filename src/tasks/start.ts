import { type Catalog, nearest, type StateDocument, type Task } from "../catalog/index.js";
import type { SessionScope } from "../store/index.js";
import { chooseDistractors } from "./distractors.js";

/** Everything a session needs to be on a task: its initial state and what it may call. */
export interface TaskStart {
  task: Task;
  toolsetId: string;
  /** The catalog's own document: never changed (the store builds the session's state from it once). */
  state: StateDocument;
  scope: SessionScope;
  /** The task's own tools, then the distractors. */
  tools: string[];
  distractors: string[];
}

export type TaskStartResult = { ok: true; start: TaskStart } | { ok: false; error: string };

/** The most distractors a task session may ask for. */
export const MAX_DISTRACTORS = 50;

export function planTaskStart(catalog: Catalog, taskId: string, distractorCount = 0): TaskStartResult {
  const found = catalog.task(taskId);
  if (!found) return { ok: false, error: unknownTaskMessage(catalog, taskId) };
  if (!Number.isInteger(distractorCount) || distractorCount < 0 || distractorCount > MAX_DISTRACTORS) {
    return { ok: false, error: `distractors must be a whole number from 0 to ${MAX_DISTRACTORS}` };
  }
  const ownToolsets = [found.toolset.id, ...(found.task.toolsets ?? [])];
  const unknown = ownToolsets.filter((id) => !catalog.toolset(id));
  if (unknown.length > 0)
    return {
      ok: false,
      error: `task "${taskId}" uses toolset(s) ${unknown.map((id) => `"${id}"`).join(", ")}, which the loaded catalog does not have; load them with --toolsets`,
    };
  const distractors = chooseDistractors(catalog, ownToolsets, distractorCount);
  return {
    ok: true,
    start: {
      task: found.task,
      toolsetId: found.toolset.id,
      state: found.task.state,
      scope: { toolsets: ownToolsets, ...(distractors.length ? { tools: distractors } : {}) },
      tools: [
        ...ownToolsets.flatMap((id) => catalog.toolset(id)?.tools.map((t) => t.name) ?? []),
        ...distractors,
      ],
      distractors,
    },
  };
}

export function unknownTaskMessage(catalog: Catalog, taskId: string): string {
  const ids = catalog.allTasks().map((t) => t.task.id);
  if (ids.length === 0) return `unknown task "${taskId}": the loaded catalog has no tasks`;
  const near = nearest(taskId, ids, 3);
  const hint = near.length ? ` Did you mean ${near.map((id) => `"${id}"`).join(", ")}?` : "";
  return `unknown task "${taskId}".${hint} Tasks: ${ids.join(", ")}`;
}
