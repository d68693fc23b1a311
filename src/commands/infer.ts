import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { formatProblem, loadToolsets, type Tool, type Toolset } from "../catalog/index.js";
import { compactEffect, inferToolset, renderReport, type ToolReport, tallyLine } from "../infer/index.js";
import { type Command, UsageError } from "./command.js";

const HELP = `toolsim infer — infer effects for tools that have none, and report per tool

Usage: toolsim infer PATH... [--write] [--json]

For every tool without effects, infers them from the tool's name, parameters, descriptions,
documented errors and the shape of the toolset's state: reads by id (also of entities nested
in entities), lookups by other fields, lists, creates, updates, deletes, the documented
not-found error, and guards the description states plainly. Prints per tool: inferred,
partly (and what is missing), or not inferred (and why). Tools with authored effects are
left alone; tools whose effects were inferred before (they carry an "inferred" mark) are
inferred again.

  --write   write the inferred effects into the toolset files, each tool marked "inferred"
            (remove the mark to make the effects your own); the files are checked afterwards
  --json    print the report as JSON
`;

export const inferCommand: Command = {
  name: "infer",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { write: { type: "boolean" }, json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw new UsageError("name at least one toolset file or folder");
    const loaded = loadToolsets(positionals, { checkSchemas: false });
    const errors = loaded.problems.filter((p) => p.severity === "error");
    if (errors.length > 0) {
      for (const problem of errors) process.stderr.write(`${formatProblem(problem)}\n`);
      process.stderr.write(
        `toolsim infer: ${errors.length} error(s) in the toolset files; fix them first (toolsim lint).\n`,
      );
      return 1;
    }
    const report: ToolReport[] = [];
    const written: string[] = [];
    for (const { file, toolset } of loaded.toolsets) {
      const inferred = inferToolset(toolset);
      report.push(...inferred.report);
      if (values.write && changed(toolset, inferred.toolset)) {
        writeFileSync(
          file,
          `${JSON.stringify(rewrite(readFileSync(file, "utf8"), inferred.toolset), null, 2)}\n`,
        );
        written.push(file);
      }
    }
    const check = written.length > 0 ? loadToolsets(written, { checkSchemas: true }).problems : [];
    const broken = check.filter((p) => p.severity === "error");
    if (values.json) {
      process.stdout.write(
        `${JSON.stringify({ report, written: written.map(shortPath), problems: broken }, null, 2)}\n`,
      );
    } else {
      process.stdout.write(renderReport(report));
      for (const file of written) process.stdout.write(`wrote ${shortPath(file)}\n`);
      for (const problem of broken) process.stderr.write(`${formatProblem(problem)}\n`);
      if (!values.write && report.some((r) => r.verdict === "inferred" || r.verdict === "partly"))
        process.stdout.write("(nothing written: --write puts these effects into the files)\n");
    }
    if (broken.length > 0) {
      // inferred effects that the loader rejects are a bug in the inference, not in the file
      process.stderr.write(
        `toolsim infer: the written files have ${broken.length} error(s); ${tallyLine(report)}\n`,
      );
      return 1;
    }
    return 0;
  },
};

function changed(before: Toolset, after: Toolset): boolean {
  return JSON.stringify(before) !== JSON.stringify(after);
}

/**
 * The file as it was, with only what inference decides replaced: the effects, errors and mark
 * of the tools it inferred (or un-inferred), and the states when entities gained their key
 * as a field. Authored tools and everything else keep their exact text.
 */
function rewrite(text: string, inferred: Toolset): unknown {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const tools = Array.isArray(raw.tools) ? (raw.tools as Array<Record<string, unknown>>) : [];
  raw.tools = tools.map((original) => {
    const tool = inferred.tools.find((t) => t.name === original.name);
    if (!tool || (!tool.inferred && !original.inferred)) return original;
    return toolFile(original, tool);
  });
  if (JSON.stringify(raw.state ?? {}) !== JSON.stringify(inferred.state)) raw.state = inferred.state;
  if (Array.isArray(raw.tasks))
    raw.tasks = (raw.tasks as Array<Record<string, unknown>>).map((task) => {
      const state = inferred.tasks.find((t) => t.id === task.id)?.state;
      return state && task.state !== undefined ? { ...task, state } : task;
    });
  return raw;
}

function toolFile(original: Record<string, unknown>, tool: Tool): Record<string, unknown> {
  const { effects: _effects, inferred: _mark, errors: _errors, ...rest } = original;
  return {
    ...rest,
    ...(tool.errors.length > 0 ? { errors: tool.errors } : {}),
    ...(tool.effects.length > 0 ? { effects: tool.effects.map(compactEffect) } : {}),
    ...(tool.inferred ? { inferred: tool.inferred } : {}),
  };
}

function shortPath(file: string): string {
  return relative(process.cwd(), file) || file;
}
