import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { formatProblem, loadToolsets, type Tool, type Toolset } from "../catalog/index.js";
import { compactEffect, inferToolset, renderReport, type ToolReport, tallyLine } from "../infer/index.js";
import { inferEffectsWithModel } from "../infer-model/index.js";
import { addUsage, LlmClient, type LlmConfig, zeroUsage } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import { type Command, UsageError } from "./command.js";
import { resolveEngine } from "./llm-options.js";
import { parseArgs } from "./options.js";

const HELP = `toolsim infer — infer effects for tools that have none, and report per tool

Usage: toolsim infer PATH... [--write] [--json] [--model NAME [--llm-base-url URL]]

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

With a model
  --model NAME         a model writes the effects of every tool the rules inferred only partly
                       or not at all: one request per tool, the answer linted and replayed
                       against the state, repaired once (src/infer-model); kept only when it
                       passes, marked {"by": "model", …}. Later runs without --model keep it
  --llm-base-url URL   OpenAI-compatible endpoint (env OPENAI_BASE_URL; OPENAI_API_KEY for OpenAI)
  --llm-key KEY        API key (prefer env OPENAI_API_KEY)
  --config FILE        settings file, as for toolsim serve
`;

export const inferCommand: Command = {
  name: "infer",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        write: { type: "boolean" },
        json: { type: "boolean" },
        model: { type: "string" },
        "llm-base-url": { type: "string" },
        "llm-key": { type: "string" },
        config: { type: "string" },
      },
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
    const client = values.model ? new LlmClient(endpointOf(values)) : undefined;
    const report: ToolReport[] = [];
    const written: string[] = [];
    let asked: Asked = { usage: zeroUsage(), tools: 0, reached: 0, problem: undefined };
    for (const { file, toolset } of loaded.toolsets) {
      const inferred = inferToolset(toolset);
      if (client) asked = addAsked(asked, await askModel(client, inferred));
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
      if (client)
        process.stdout.write(
          `model: ${asked.usage.requests} request(s), ${asked.usage.promptTokens} prompt and ${asked.usage.completionTokens} completion tokens\n`,
        );
      for (const file of written) process.stdout.write(`wrote ${shortPath(file)}\n`);
      for (const problem of broken) process.stderr.write(`${formatProblem(problem)}\n`);
      if (!values.write && report.some((r) => r.verdict === "inferred" || r.verdict === "partly"))
        process.stdout.write("(nothing written: --write puts these effects into the files)\n");
    }
    if (client && asked.tools > 0 && asked.reached === 0) {
      // a model that could not be reached wrote nothing: the run did not do what was asked
      process.stderr.write(
        `toolsim infer: the model answered none of its ${asked.tools} request(s) (${asked.problem ?? "no answer"}); the rules' effects are kept. Check --llm-base-url, the model name and the API key (docs/llm.md).\n`,
      );
      return 1;
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

/** The configured endpoint for --model; without one, say how to configure it. */
function endpointOf(values: {
  model?: string;
  "llm-base-url"?: string;
  "llm-key"?: string;
  config?: string;
}): LlmConfig {
  try {
    const resolved = resolveEngine({ ...values, engine: "llm" });
    if (resolved.config) return resolved.config;
  } catch (error) {
    if (!(error instanceof UsageError) || !/needs an endpoint/.test(error.message)) throw error;
  }
  throw new UsageError(
    "--model needs an endpoint: set OPENAI_API_KEY, or point --llm-base-url at an OpenAI-compatible server; see docs/llm.md",
  );
}

/**
 * Each tool the rules left partly or not inferred goes to the model once. An answer that
 * lints and replays replaces the rules' effects (and the errors they added), marked with the
 * model's provenance; one that does not is reported and the rules' effects stay.
 */
async function askModel(
  client: LlmClient,
  inferred: { toolset: Toolset; report: ToolReport[] },
): Promise<Asked> {
  let asked: Asked = { usage: zeroUsage(), tools: 0, reached: 0, problem: undefined };
  for (const entry of inferred.report) {
    if (entry.verdict !== "partly" && entry.verdict !== "not inferred") continue;
    const answer = await inferEffectsWithModel(inferred.toolset, entry.tool, { client });
    asked = addAsked(asked, {
      usage: answer.usage,
      tools: 1,
      reached: answer.reached ? 1 : 0,
      problem: answer.reached ? undefined : answer.problems[0],
    });
    if (answer.status !== "inferred" || !answer.effects?.length) {
      entry.gaps.push(...answer.problems.map((problem) => `model ${answer.provenance.model}: ${problem}`));
      continue;
    }
    const index = inferred.toolset.tools.findIndex((t) => t.name === entry.tool);
    const tool = inferred.toolset.tools[index] as Tool;
    const added = new Set(tool.inferred?.added ?? []);
    const notes = [
      `written by ${answer.provenance.model} (${answer.provenance.replayed}); the rules had: ${entry.verdict}`,
    ];
    inferred.toolset.tools[index] = {
      ...tool,
      errors: tool.errors.filter((e) => !added.has(e.code)),
      effects: answer.effects,
      inferred: { ...answer.provenance, status: "inferred", notes, added: [] },
    };
    entry.verdict = "inferred";
    entry.notes.push(...notes);
    entry.gaps = [];
  }
  return asked;
}

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

/** What asking the model came to: its usage, the tools asked about, how many it answered, why not. */
interface Asked {
  usage: Usage;
  tools: number;
  reached: number;
  problem: string | undefined;
}

function addAsked(a: Asked, b: Asked): Asked {
  return {
    usage: addUsage(a.usage, b.usage) ?? a.usage,
    tools: a.tools + b.tools,
    reached: a.reached + b.reached,
    problem: a.problem ?? b.problem,
  };
}
