import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileProblem, loadToolsets, type Tool, type Toolset, validatorFor } from "../src/catalog/index.js";

/** What every evaluation section measures about a set of imported toolsets. */
export interface CatalogFigures {
  toolsets: number;
  tools: number;
  tasks: number;
  /** Tools whose input and output schemas both compile with the validator. */
  compiling: number;
  compileFailures: Array<{ tool: string; reason: string }>;
  /** Problems the catalog loader finds when the toolsets are written out and loaded back. */
  loadErrors: string[];
  /** Import notes (what could not be mapped exactly), and on how many tools. */
  notes: number;
  toolsWithNotes: number;
}

export function catalogFigures(
  toolsets: readonly Toolset[],
  problems: ReadonlyArray<{ toolset: string; tool?: string }>,
): CatalogFigures {
  const tools = toolsets.flatMap((t) => t.tools);
  const compileFailures: CatalogFigures["compileFailures"] = [];
  for (const tool of tools) {
    const reason =
      compileProblem(tool.inputSchema) ?? (tool.outputSchema && compileProblem(tool.outputSchema));
    if (reason) compileFailures.push({ tool: tool.name, reason });
  }
  return {
    toolsets: toolsets.length,
    tools: tools.length,
    tasks: toolsets.reduce((n, t) => n + t.tasks.length, 0),
    compiling: tools.length - compileFailures.length,
    compileFailures,
    loadErrors: loadBack(toolsets),
    notes: problems.length,
    toolsWithNotes: new Set(problems.filter((p) => p.tool).map((p) => `${p.toolset}/${p.tool}`)).size,
  };
}

/** Writes the toolsets to a temporary folder and loads them with the real loader (format, meta-schema, names). */
function loadBack(toolsets: readonly Toolset[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), "toolsim-eval-"));
  try {
    for (const toolset of toolsets) writeFileSync(join(dir, `${toolset.id}.json`), JSON.stringify(toolset));
    return loadToolsets([dir], { checkSchemas: true })
      .problems.filter((p) => p.severity === "error")
      .map((p) => `${p.file.slice(dir.length + 1)} ${p.path}: ${p.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Validates arguments against a tool's inputSchema; the validator's reasons when rejected. */
export function rejection(tool: Tool, args: unknown): string | undefined {
  const validate = validatorFor(tool.inputSchema);
  if (validate(args)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(arguments)"} ${e.message}`).join("; ");
}
