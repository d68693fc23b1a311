import {
  type Catalog,
  type CatalogProblem,
  controlToolNames,
  type ReservedNames,
  reservedNameProblems,
} from "../catalog/index.js";
import type { ResolvedLlm } from "../llm/index.js";
import type { Runtime } from "../runtime/index.js";
import { controlTools, DEFAULT_CONTROL_PREFIX } from "../server/index.js";
import type { SessionRecord } from "../store/index.js";
import {
  MAX_DISTRACTORS,
  planTaskStart,
  TaskDesk,
  type TaskStart,
  unknownTaskMessage,
} from "../tasks/index.js";
import { UsageError } from "./command.js";
import { checklistJudgeFor } from "./judge-options.js";

export const TASK_OPTIONS = {
  task: { type: "string" },
  distractors: { type: "string" },
  "no-control-tools": { type: "boolean" },
  "control-prefix": { type: "string" },
} as const;

export const TASK_HELP = `  --task ID            every new session starts on this task: its initial state, its toolset only
  --distractors N      add the N tools of other toolsets most like the task's (default 0)
  --no-control-tools   hide the control tools (list/start tasks, feedback, checkpoint, restore, reset,
                       state) from the agent under test
  --control-prefix P   name prefix of the control tools (default ${DEFAULT_CONTROL_PREFIX})`;

export interface TaskSelection {
  task?: string;
  distractors?: string;
  "no-control-tools"?: boolean;
  "control-prefix"?: string;
}

export interface TaskMode {
  /** The task every new session starts on, planned once (with its distractors). */
  start?: TaskStart;
  distractors: number;
  controlTools: boolean;
  prefix: string;
}

/** Checks the task flags against the catalog; misuse is a UsageError naming what exists. */
export function planTaskMode(catalog: Catalog, values: TaskSelection): TaskMode {
  let distractors = 0;
  if (values.distractors !== undefined) {
    distractors = Number(values.distractors);
    if (!Number.isInteger(distractors) || distractors < 0 || distractors > MAX_DISTRACTORS) {
      throw new UsageError(
        `--distractors takes a whole number from 0 to ${MAX_DISTRACTORS}; got "${values.distractors}"`,
      );
    }
  }
  const prefix = values["control-prefix"] ?? DEFAULT_CONTROL_PREFIX;
  if (!/^[A-Za-z0-9_.-]{0,32}$/.test(prefix)) {
    throw new UsageError(`--control-prefix takes up to 32 letters, digits, "_", "-" or "."; got "${prefix}"`);
  }
  let start: TaskStart | undefined;
  if (values.task !== undefined) {
    if (!catalog.task(values.task)) throw new UsageError(unknownTaskMessage(catalog, values.task));
    const planned = planTaskStart(catalog, values.task, distractors);
    if (!planned.ok) throw new UsageError(planned.error);
    start = planned.start;
  }
  return { start, distractors, controlTools: !values["no-control-tools"], prefix };
}

/**
 * Puts task mode on a runtime: the control tools on the hub (unless hidden), and the way new
 * sessions open: on the task, with its tools in scope before the first tools/list, so
 * clients that ignore list_changed see the right tools. Under `--task` every new connection
 * (a stdio process, a 2025-era MCP session) is a fresh attempt: a named session that exists
 * starts the task over (its earlier calls stay in the log; judging looks at the attempt).
 * A 2026-era request has no connection: its named session resumes.
 */
export function attachTaskMode(runtime: Runtime, mode: TaskMode, llm?: ResolvedLlm): OpenSessionFor {
  if (mode.controlTools) {
    const desk = new TaskDesk({
      engine: runtime.engine,
      store: runtime.store,
      checklistJudge: checklistJudgeFor(runtime.store, llm),
      defaultDistractors: mode.distractors,
    });
    runtime.hub.use(
      controlTools(desk, { prefix: mode.prefix, onToolsChanged: (id) => runtime.hub.notifyToolsChanged(id) }),
    );
  }
  const start = mode.start;
  return async (name, tenant, connection) => {
    const existing = name ? await runtime.engine.session(name, tenant) : undefined;
    if (!start) return runtime.engine.openSession({ name, tenant });
    if (!existing)
      return runtime.engine.openSession({ name, tenant, taskId: start.task.id, scope: start.scope });
    if (!connection) return existing;
    await runtime.engine.resetSession(existing.id, start.state, {
      reason: `start task ${start.task.id} (a new connection)`,
      taskId: start.task.id,
      scope: start.scope,
    });
    return runtime.engine.record(existing.id);
  };
}

/**
 * Opens (resumes or creates) a tenant's session, by name or anonymous. `connection`: a new
 * connection opens it (under `--task`, a fresh attempt), not a request of a stateless client.
 */
export type OpenSessionFor = (
  name: string | undefined,
  tenant: string,
  connection: boolean,
) => Promise<SessionRecord>;

/** The names the control tools take in this mode (none when they are hidden). */
export function reservedNames(mode: TaskMode): ReservedNames | undefined {
  return mode.controlTools ? controlToolNames(mode.prefix) : undefined;
}

/** Catalog tools named like a control tool: the control tool would answer their calls. */
export function reservedToolProblems(catalog: Catalog, mode: TaskMode): CatalogProblem[] {
  const reserved = reservedNames(mode);
  if (!reserved) return [];
  const loaded = catalog.toolsets.map((toolset) => ({
    toolset,
    file: catalog.files.get(toolset.id) ?? toolset.id,
  }));
  return reservedNameProblems(loaded, reserved);
}
