import {
  type DedupReport,
  type DedupTool,
  denseCosine,
  selectDuplicates,
  sparseCosine,
  tfidfVectors,
  toolText,
} from "../catalog-audit/index.js";
import { LlmClient, LlmError } from "../llm/index.js";
import { CATALOG_HELP, CATALOG_OPTIONS, loadCatalog } from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { LLM_OPTIONS, resolveEngine } from "./llm-options.js";
import { parseArgs } from "./options.js";

const HELP = `toolsim dedup — report near-duplicate tools and which ones would be dropped

Usage: toolsim dedup [--threshold X] [--lexical] [--json] [options]

Tools whose texts (name, title, description, parameter names) are closer than the threshold
by cosine similarity are joined; in each connected group the most completely described tool
is kept and the others are reported with the tool they duplicate. Embeddings come from the
configured OpenAI-compatible endpoint (/v1/embeddings); without one, or with --lexical, a
TF-IDF comparison runs offline. Nothing is changed on disk.

  --threshold X        cosine similarity from 0 to 1 at which two tools count as duplicates (default 0.85)
  --lexical            compare words (TF-IDF) even when an endpoint is configured
  --json               print the report as JSON
${CATALOG_HELP}
  --model, --llm-base-url, --llm-key, --config   the endpoint, as for toolsim serve
`;

export const dedupCommand: Command = {
  name: "dedup",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...CATALOG_OPTIONS,
        ...LLM_OPTIONS,
        threshold: { type: "string", default: "0.85" },
        lexical: { type: "boolean" },
        json: { type: "boolean" },
      },
      strict: true,
    });
    const threshold = Number(values.threshold);
    if (!Number.isFinite(threshold) || threshold <= 0 || threshold > 1)
      throw new UsageError(`--threshold takes a number above 0 and at most 1; got "${values.threshold}"`);
    const loaded = loadCatalog(values, { checkSchemas: false });
    if (!loaded) return 1;
    const tools: DedupTool[] = loaded.catalog.toolsets.flatMap((toolset) =>
      toolset.tools.map((tool) => ({ tool, toolset: toolset.id })),
    );
    const texts = tools.map((t) => toolText(t.tool));
    const resolved = values.lexical ? undefined : resolveEngine(values);
    if (resolved?.problem) throw new UsageError(resolved.problem);
    let report: DedupReport;
    if (resolved?.config) {
      try {
        const { vectors } = await new LlmClient(resolved.config).embed(texts);
        report = selectDuplicates(
          tools,
          (i, j) => denseCosine(vectors[i] ?? [], vectors[j] ?? []),
          threshold,
          "embeddings",
        );
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        process.stderr.write(
          `toolsim dedup: embeddings failed (${error.message}); comparing words instead\n`,
        );
        report = lexicalReport(tools, texts, threshold);
      }
    } else report = lexicalReport(tools, texts, threshold);
    if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(describe(report));
    return 0;
  },
};

function lexicalReport(tools: DedupTool[], texts: string[], threshold: number): DedupReport {
  const vectors = tfidfVectors(texts);
  return selectDuplicates(
    tools,
    (i, j) => sparseCosine(vectors[i] ?? new Map(), vectors[j] ?? new Map()),
    threshold,
    "lexical",
  );
}

function describe(report: DedupReport): string {
  const lines = report.drops.map((d) => `drop ${d.toolset}/${d.tool}: ${d.reason}`);
  lines.push(
    `${report.tools} tools compared (${report.method}, threshold ${report.threshold}): ` +
      `${report.components.length} group(s) of near-duplicates, ${report.drops.length} tool(s) would be dropped`,
  );
  return `${lines.join("\n")}\n`;
}
