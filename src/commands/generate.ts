import {
  CostLedger,
  costSummary,
  generateCatalog,
  Progress,
  StageFiles,
  withRun,
} from "../generate/index.js";
import { LlmClient, type LlmConfig } from "../llm/index.js";
import { type Command, UsageError } from "./command.js";
import { lintPaths } from "./lint.js";
import { LLM_OPTIONS, resolveEngine } from "./llm-options.js";
import { parseArgs } from "./options.js";

const HELP = `toolsim generate — build a catalog of toolsets and tasks with a model

Usage: toolsim generate --out DIR [--fields N | --field NAME...] [options]

Stages, each kept under DIR/.toolsim-generate/ so that running the same command again
resumes where it stopped (finished stages are read back, not asked again):
  fields → subdomains of each field → workflows of each subdomain (one toolset each) →
  the toolset's tools (each saying what it consumes and produces) and sandbox state →
  tasks with an initial state and a golden solution.
Every toolset must load without errors and every golden solution must replay against its
task's state (as toolsim lint checks them); an answer that fails is asked for again with
its problems shown, up to --attempts times; tasks that still fail are dropped with the
reason. Each finished toolset is written to DIR/<id>.json.

  --out DIR            output folder (required)
  --fields N           how many fields the model proposes (default 1)
  --field NAME...      use these fields instead of asking for them
  --subdomains N       subdomains per field (default 2)
  --toolsets N         toolsets (workflows) per subdomain (default 2)
  --tools MIN-MAX      tools per toolset (default 3-6)
  --tasks N            tasks per toolset (default 2)
  --concurrency N      requests in flight at once (default 4)
  --attempts N         answers asked for per item before giving up on it (default 3)
  --price-in USD       price of 1M prompt tokens, for the cost estimate
  --price-out USD      price of 1M completion tokens
  --model, --llm-base-url, --llm-key, --config   the endpoint (see docs/llm.md); generation
                       needs one: OPENAI_API_KEY, or --llm-base-url with --model for a local server
`;

export const generateCommand: Command = {
  name: "generate",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...LLM_OPTIONS,
        out: { type: "string" },
        fields: { type: "string" },
        field: { type: "string", multiple: true },
        subdomains: { type: "string", default: "2" },
        toolsets: { type: "string", default: "2" },
        tools: { type: "string", default: "3-6" },
        tasks: { type: "string", default: "2" },
        concurrency: { type: "string", default: "4" },
        attempts: { type: "string", default: "3" },
        "price-in": { type: "string" },
        "price-out": { type: "string" },
      },
      strict: true,
    });
    if (!values.out) throw new UsageError("name the output folder with --out DIR");
    if (values.fields !== undefined && values.field?.length)
      throw new UsageError("give either --fields N or --field NAME..., not both");
    const count = (name: string, text: string | undefined, max: number) => {
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1 || n > max)
        throw new UsageError(`--${name} takes a whole number from 1 to ${max}; got "${text}"`);
      return n;
    };
    const tools = /^(\d+)-(\d+)$/.exec(values.tools ?? "");
    const min = Number(tools?.[1]);
    const max = Number(tools?.[2]);
    if (!tools || min < 1 || max < min || max > 40)
      throw new UsageError(`--tools takes MIN-MAX, e.g. 3-6 (1 to 40); got "${values.tools}"`);
    const price = (name: string, text: string | undefined) => {
      if (text === undefined) return undefined;
      const n = Number(text);
      if (!Number.isFinite(n) || n < 0)
        throw new UsageError(`--${name} takes dollars per 1M tokens; got "${text}"`);
      return n;
    };
    const prices = {
      input: price("price-in", values["price-in"]),
      output: price("price-out", values["price-out"]),
    };
    const concurrency = count("concurrency", values.concurrency, 64);
    const config = endpointOf(values);

    const progress = new Progress(process.stderr);
    const files = new StageFiles(values.out);
    const result = await generateCatalog({
      out: values.out,
      fields: values.field?.length
        ? { names: values.field }
        : { count: count("fields", values.fields ?? "1", 50) },
      subdomains: count("subdomains", values.subdomains, 50),
      toolsets: count("toolsets", values.toolsets, 50),
      tools: { min, max },
      tasks: count("tasks", values.tasks, 50),
      concurrency,
      attempts: count("attempts", values.attempts, 10),
      client: new LlmClient({ ...config, concurrency }),
      check: (file) => lintPaths([file]),
      progress,
    });
    const ledger = withRun(files.read("costs.json", CostLedger), result.usage, new Date().toISOString());
    files.write("costs.json", ledger);

    const lines = result.written.map((file) => `wrote ${file}`);
    for (const d of result.dropped) lines.push(`dropped ${d.item}: ${d.reason}`);
    lines.push(
      `${result.written.length} toolset file(s) in ${values.out}; ${result.resumed} stage item(s) resumed from disk, ${result.dropped.length} dropped`,
      ...costSummary(result.usage, ledger, prices),
    );
    process.stdout.write(`${lines.join("\n")}\n`);
    return result.written.length > 0 ? 0 : 1;
  },
};

/** The configured endpoint; without one, generation cannot start. */
function endpointOf(values: Parameters<typeof resolveEngine>[0]): LlmConfig {
  try {
    const resolved = resolveEngine({ ...values, engine: "llm" });
    if (resolved.config) return resolved.config;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (!/needs an endpoint/.test(error.message)) throw error;
  }
  throw new UsageError(
    "generate needs a model: set OPENAI_API_KEY (and optionally --model), or point --llm-base-url at a local " +
      "OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp) with --model NAME; see docs/llm.md",
  );
}
