import type { Toolset } from "../catalog/index.js";
import type { AuditReport } from "./audit.js";

export interface DroppedTool {
  toolset: string;
  tool: string;
  reliability: number;
}

export interface FilteredCatalog {
  /** The toolsets that keep at least one tool, with the unreliable tools removed. */
  toolsets: Toolset[];
  dropped: DroppedTool[];
  /** Tasks removed because their golden solution calls a dropped tool. */
  droppedTasks: Array<{ toolset: string; task: string; tool: string }>;
  /** Toolsets left without any tool, which are not written at all. */
  emptied: string[];
}

/**
 * Removes every tool whose reliability is below the threshold. Tools nothing was decided
 * for stay (there is no evidence against them); tasks that need a removed tool go too, so
 * what is left still loads and its solutions still replay.
 */
export function dropUnreliable(
  toolsets: readonly Toolset[],
  report: AuditReport,
  threshold: number,
): FilteredCatalog {
  const dropped = report.tools
    .filter((t) => t.reliability !== null && t.reliability < threshold)
    .map((t) => ({ toolset: t.toolset, tool: t.tool, reliability: t.reliability as number }));
  const droppedTasks: FilteredCatalog["droppedTasks"] = [];
  const emptied: string[] = [];
  const kept: Toolset[] = [];
  for (const toolset of toolsets) {
    const gone = new Set(dropped.filter((d) => d.toolset === toolset.id).map((d) => d.tool));
    const tools = toolset.tools.filter((t) => !gone.has(t.name));
    if (tools.length === 0) {
      emptied.push(toolset.id);
      continue;
    }
    const tasks = toolset.tasks.filter((task) => {
      const needed = task.solution.find((call) => gone.has(call.tool));
      if (needed) droppedTasks.push({ toolset: toolset.id, task: task.id, tool: needed.tool });
      return !needed;
    });
    kept.push({ ...toolset, tools, tasks });
  }
  return { toolsets: kept, dropped, droppedTasks, emptied };
}
