import {
  Catalog,
  type CatalogProblem,
  controlToolNames,
  formatProblem,
  loadToolsets,
  qualityProblems,
  reservedNameProblems,
} from "../catalog/index.js";
import { Engine } from "../engine/index.js";
import { taskFaultProblems } from "../faults/index.js";
import { OfflineSimulator } from "../simulate/index.js";
import { openStore } from "../store/index.js";
import { type Command, UsageError } from "./command.js";
import { parseArgs } from "./options.js";

const HELP = `toolsim lint — check toolset files and report every problem

Usage: toolsim lint PATH... [--json]

Checks each file against the toolset format (naming the file, the JSON path and the
reason), that input and output schemas are valid JSON Schema, that effects name documented
errors and real arguments, that names are unique across files and leave the names of
toolsim's control tools (sim_*) alone, that every task's fault profile names tools and
toolsets that exist, and that every task's golden solution validates and runs against the
task's initial state. Exits 1 when there are errors.

  --json               print the problems as JSON
`;

export const lintCommand: Command = {
  name: "lint",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw new UsageError("name at least one toolset file or folder");
    const problems = await lintPaths(positionals);
    const errors = problems.filter((p) => p.severity === "error").length;
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ errors, problems }, null, 2)}\n`);
    } else {
      for (const problem of problems) process.stdout.write(`${formatProblem(problem)}\n`);
      const warnings = problems.length - errors;
      process.stdout.write(
        problems.length === 0 ? "no problems\n" : `${errors} error(s), ${warnings} warning(s)\n`,
      );
    }
    return errors > 0 ? 1 : 0;
  },
};

export async function lintPaths(paths: string[]): Promise<CatalogProblem[]> {
  const loaded = loadToolsets(paths, { checkSchemas: true });
  // the default control prefix: `serve --control-prefix P` checks its own at start
  const problems = [...loaded.problems, ...reservedNameProblems(loaded.toolsets, controlToolNames())];
  if (problems.some((p) => p.severity === "error")) return problems;
  const catalog = new Catalog(loaded.toolsets);
  problems.push(...taskFaultProblems(catalog));
  problems.push(...(await replaySolutions(catalog)));
  for (const { file, toolset } of loaded.toolsets) problems.push(...qualityProblems(file, toolset));
  return problems;
}

/** Runs every task's golden solution against its initial state with the offline engine. */
async function replaySolutions(catalog: Catalog): Promise<CatalogProblem[]> {
  const problems: CatalogProblem[] = [];
  const store = await openStore(":memory:");
  const offline = new OfflineSimulator();
  const engine = new Engine({ catalog, store, simulator: offline, offline });
  try {
    for (const { task, toolset } of catalog.allTasks()) {
      const file = catalog.files.get(toolset.id) ?? toolset.id;
      const index = toolset.tasks.indexOf(task);
      const session = await engine.openSession({ taskId: task.id });
      const toolsets = [toolset.id, ...(task.toolsets ?? [])];
      const tools = new Set(toolsets.flatMap((id) => catalog.toolset(id)?.tools.map((t) => t.name) ?? []));
      for (const [step, call] of task.solution.entries()) {
        const path = `tasks[${index}].solution[${step}]`;
        if (!tools.has(call.tool)) {
          problems.push({
            file,
            path,
            message: `tool "${call.tool}" is not in toolset${toolsets.length > 1 ? "s" : ""} ${toolsets.join(", ")}`,
            severity: "error",
          });
          continue;
        }
        const outcome = await engine.call(session.id, call.tool, call.arguments);
        if (outcome.status === "rejected") {
          const reasons = outcome.findings
            .filter((f) => f.severity === "error")
            .map((f) => `[${f.code}] ${f.message}`);
          problems.push({
            file,
            path,
            message: `golden call is rejected: ${reasons.join(" ")}`,
            severity: "error",
          });
        } else if (outcome.status === "error" && task.valid) {
          const failure = outcome.failure;
          problems.push({
            file,
            path,
            message: `golden call fails against the task state: ${failure?.code} ${failure?.message}`,
            severity: "error",
          });
        }
      }
    }
  } finally {
    await store.close();
  }
  return problems;
}
