import { type Catalog, type CatalogTask, nearest } from "../catalog/index.js";

/** A task as an MCP prompt (the shape of prompts/list). */
export interface TaskPrompt {
  name: string;
  title: string;
  description: string;
  arguments?: Array<{ name: string; description: string; required: boolean }>;
}

/** What prompts/get answers: the user's message(s) of the task. */
export interface TaskPromptMessages {
  description: string;
  messages: Array<{ role: "user"; content: { type: "text"; text: string } }>;
}

export type TaskPromptResult = { ok: true; value: TaskPromptMessages } | { ok: false; error: string };

/** The prompt argument that picks a turn of a task in several turns. */
export const TURN_ARGUMENT = "turn";

const TITLE_LENGTH = 80;

/**
 * The catalog's tasks as prompts: what the user asks, for a client to put into its
 * conversation. Only the request: never the solution, the checklist, whether the task can
 * be done or the simulated user's brief.
 */
export function taskPrompts(catalog: Catalog): TaskPrompt[] {
  return catalog.allTasks().map(promptOf);
}

/**
 * The user's message of a task: the request, or for a task in several turns the turn
 * the `turn` argument names (1 by default, "all" for every turn in order).
 */
export function taskPrompt(
  catalog: Catalog,
  name: string,
  args: Record<string, string> = {},
): TaskPromptResult {
  const found = catalog.task(name);
  if (!found) return { ok: false, error: unknownPrompt(catalog, name) };
  const turns = turnsOf(found);
  const unknown = Object.keys(args).filter((key) => key !== TURN_ARGUMENT || turns.length === 1);
  if (unknown.length > 0) {
    const takes = turns.length > 1 ? `only "${TURN_ARGUMENT}"` : "no arguments";
    return {
      ok: false,
      error: `prompt "${name}" takes ${takes}; got ${unknown.map((k) => `"${k}"`).join(", ")}`,
    };
  }
  const picked = pickTurns(turns, args[TURN_ARGUMENT]);
  if (!picked.ok) return { ok: false, error: `prompt "${name}": ${picked.error}` };
  return {
    ok: true,
    value: {
      description: promptOf(found).description,
      messages: picked.turns.map((text) => ({ role: "user", content: { type: "text", text } })),
    },
  };
}

/** The values the `turn` argument of a task's prompt takes, for completion. */
export function turnChoices(catalog: Catalog, name: string): string[] {
  const found = catalog.task(name);
  const count = found ? turnsOf(found).length : 0;
  return count > 1 ? [...Array.from({ length: count }, (_, i) => String(i + 1)), "all"] : [];
}

function promptOf({ task, toolset }: CatalogTask): TaskPrompt {
  const turns = turnsOf({ task, toolset });
  const inTurns = turns.length > 1 ? `, in ${turns.length} turns` : "";
  const title =
    task.description.length > TITLE_LENGTH
      ? `${task.description.slice(0, TITLE_LENGTH - 1).trimEnd()}…`
      : task.description;
  return {
    name: task.id,
    title,
    description:
      `The user's request of task ${task.id} (${toolset.id}, ${task.difficulty}${inTurns}). ` +
      "Start the task in the session first (serve --task, or the start-task control tool) so its state and tools are there.",
    ...(turns.length > 1
      ? {
          arguments: [
            {
              name: TURN_ARGUMENT,
              description: `Which of the user's ${turns.length} turns: 1 to ${turns.length}, or "all" for every turn in order (default 1).`,
              required: false,
            },
          ],
        }
      : {}),
  };
}

function unknownPrompt(catalog: Catalog, name: string): string {
  const ids = catalog.allTasks().map(({ task }) => task.id);
  if (ids.length === 0) return `unknown prompt "${name}": the catalog has no tasks, so there are no prompts`;
  const near = nearest(name, ids, 3);
  const hint = near.length ? ` Did you mean ${near.map((id) => `"${id}"`).join(", ")}?` : "";
  return `unknown prompt "${name}": each prompt is a task of the catalog, named by its id.${hint} See prompts/list.`;
}

function turnsOf({ task }: CatalogTask): string[] {
  return task.turns?.length ? task.turns : [task.description];
}

function pickTurns(
  turns: string[],
  turn: string | undefined,
): { ok: true; turns: string[] } | { ok: false; error: string } {
  if (turn === undefined || turn === "") return { ok: true, turns: turns.slice(0, 1) };
  if (turn === "all") return { ok: true, turns };
  const index = /^[1-9][0-9]*$/.test(turn) ? Number(turn) : Number.NaN;
  if (!(index <= turns.length)) {
    return { ok: false, error: `"${TURN_ARGUMENT}" takes 1 to ${turns.length} or "all"; got "${turn}"` };
  }
  return { ok: true, turns: [turns[index - 1] as string] };
}
