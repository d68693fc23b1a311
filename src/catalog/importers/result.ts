import type { Toolset } from "../format.js";

/**
 * Something of the source an importer could not carry over as it was: what changed or was
 * left out, and where. Importers never drop anything without one of these.
 */
export interface ImportProblem {
  /** Id of the toolset the problem belongs to (or the source's name when no toolset came of it). */
  toolset: string;
  /** The tool's name in the imported toolset, when the problem is about one tool. */
  tool?: string;
  /** Where in the source, e.g. `parameters.limit.default`. */
  path: string;
  message: string;
}

/** What every importer returns: toolsets that pass the format, and every problem met. */
export interface ImportResult {
  toolsets: Toolset[];
  problems: ImportProblem[];
}

export function formatImportProblem(problem: ImportProblem): string {
  const where = [problem.toolset, problem.tool, problem.path].filter(Boolean).join(" › ");
  return `${where}: ${problem.message}`;
}
