import type { LoadedToolset } from "./load.js";
import type { CatalogProblem } from "./problems.js";

/** The prefix of the control tools' names (`serve --control-prefix` changes it). */
export const DEFAULT_CONTROL_PREFIX = "sim_";

/** The control tools of task mode, without their prefix. */
export const CONTROL_TOOLS = [
  "list_tasks",
  "start_task",
  "task_feedback",
  "checkpoint",
  "restore",
  "reset",
  "get_state",
] as const;

/** Tool names that belong to toolsim itself: its control tools, and every name with their prefix. */
export interface ReservedNames {
  /** The control tools' prefix (`sim_` by default); empty when they are named without one. */
  prefix: string;
  /** The control tools' names. */
  names: readonly string[];
}

/** The names the control tools take with a prefix: no catalog or upstream tool may use them. */
export function controlToolNames(prefix = DEFAULT_CONTROL_PREFIX): ReservedNames {
  return { prefix, names: CONTROL_TOOLS.map((name) => prefix + name) };
}

/** Whether a tool name is toolsim's: a control tool's, or (for a non-empty prefix) any name with its prefix. */
export function isReservedName(name: string, reserved: ReservedNames): boolean {
  return reserved.names.includes(name) || (reserved.prefix !== "" && name.startsWith(reserved.prefix));
}

/**
 * Catalog tools named like toolsim's control tools: the control tool would answer every
 * call to them (it sees calls first) and clients would list the name twice, so each is
 * an error at the tool's name.
 */
export function reservedNameProblems(
  toolsets: readonly LoadedToolset[],
  reserved: ReservedNames,
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  for (const { file, toolset } of toolsets) {
    toolset.tools.forEach((tool, index) => {
      if (!isReservedName(tool.name, reserved)) return;
      problems.push({
        file,
        path: `tools[${index}].name`,
        message: `"${tool.name}" is reserved: ${describeReserved(reserved)}; rename the tool`,
        severity: "error",
      });
    });
  }
  return problems;
}

/** Why a name is reserved, in words. */
export function describeReserved(reserved: ReservedNames): string {
  return reserved.prefix
    ? `names starting with "${reserved.prefix}" belong to toolsim's control tools (${reserved.names.join(", ")})`
    : `toolsim's control tools are named ${reserved.names.join(", ")}`;
}
