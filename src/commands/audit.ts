import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AuditReport,
  auditToolsets,
  dropUnreliable,
  type FilteredCatalog,
  LlmPlausibilityJudge,
  type PlausibilityJudge,
} from "../catalog-audit/index.js";
import { LlmClient, type ResolvedLlm } from "../llm/index.js";
import { createRuntime } from "../runtime/index.js";
import { CATALOG_HELP, CATALOG_OPTIONS, INFER_HELP, INFER_OPTIONS, loadCatalog } from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { LLM_OPTIONS, type LlmSelection, resolveEngine } from "./llm-options.js";
import { parseArgs } from "./options.js";

const HELP = `toolsim audit — stress-test every tool through the simulator and score its reliability

Usage: toolsim audit [--toolsets PATH...] [--tool NAME...] [--per-mode N] [--drop-below X] [--out DIR] [--json]

Each tool is called in four modes, on a throwaway in-memory session store:
  schema      arguments that break the input schema (a missing required argument, a wrong
              type, an unknown argument): the call must be rejected with the matching finding
              code (IAV, IAT, IAN)
  constraint  schema-valid arguments against a documented rule (an id no entity has, an
              entity that fails an effect's guard): the documented error must come back
  new         schema-valid synthesized arguments: a success or documented error whose result
              fits the output schema, then judged for plausibility by the judge model when one
              is configured (otherwise "not judged")
  known       arguments naming entities of the toolset's state or its tasks' states: the call
              must succeed, the entity's fields must appear unchanged in the result, and writes
              must change the state as the tool's effects say
Reliability = passed / decided checks. Calls are answered by the engine the LLM options select
(offline unless a model is configured); the judge uses the configured endpoint even when the
engine is offline (--engine offline --llm-base-url URL judges offline answers).

  --tool NAME...       audit only these tools
  --per-mode N         cases per mode and tool (default 3: one of each schema failure kind)
  --drop-below X       write the toolsets to --out without the tools whose reliability is below X
                       (0 to 1); tasks whose solutions call a dropped tool are left out too
  --out DIR            folder for the filtered toolset files and audit.json (needed by --drop-below)
  --no-judge           do not ask a model for plausibility, even when one is configured
  --json               print the full report (every case) as JSON
${CATALOG_HELP}
${INFER_HELP}
  --engine, --model, --llm-base-url, --llm-key, --config   as for toolsim serve (see docs/llm.md)
`;

export const auditCommand: Command = {
  name: "audit",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...CATALOG_OPTIONS,
        ...INFER_OPTIONS,
        ...LLM_OPTIONS,
        tool: { type: "string", multiple: true },
        "per-mode": { type: "string", default: "3" },
        "drop-below": { type: "string" },
        out: { type: "string" },
        "no-judge": { type: "boolean" },
        json: { type: "boolean" },
      },
      strict: true,
    });
    const perMode = Number(values["per-mode"]);
    if (!Number.isInteger(perMode) || perMode < 1 || perMode > 50)
      throw new UsageError(`--per-mode takes a whole number from 1 to 50; got "${values["per-mode"]}"`);
    const threshold = values["drop-below"] === undefined ? undefined : Number(values["drop-below"]);
    if (threshold !== undefined && (!Number.isFinite(threshold) || threshold < 0 || threshold > 1))
      throw new UsageError(`--drop-below takes a number from 0 to 1; got "${values["drop-below"]}"`);
    if (threshold !== undefined && !values.out)
      throw new UsageError("--drop-below writes the filtered toolsets: name a folder with --out DIR");
    const resolved = resolveEngine(values);
    const loaded = loadCatalog(values, { checkSchemas: false, infer: !values["no-infer"] });
    if (!loaded) return 1;
    const { catalog } = loaded;
    if (values.tool?.length) {
      const unknown = values.tool.filter((name) => !catalog.tool(name));
      if (unknown.length > 0) throw new UsageError(`unknown tool(s): ${unknown.join(", ")}`);
    }

    const runtime = await createRuntime({
      catalog,
      db: ":memory:",
      llm: resolved.config
        ? { config: resolved.config, passes: resolved.passes, onlyGuessed: resolved.onlyGuessed }
        : undefined,
    });
    const judge = values["no-judge"] ? undefined : judgeFor(values, resolved);
    let report: AuditReport;
    try {
      report = await auditToolsets(runtime.engine, catalog.toolsets, {
        perMode,
        tools: values.tool,
        judge,
        onTool: (done, total, audit) =>
          process.stderr.write(
            `audit ${done}/${total} ${audit.toolset}/${audit.tool}: ${percent(audit.reliability)}\n`,
          ),
      });
    } finally {
      await runtime.close();
    }

    const filtered =
      threshold === undefined ? undefined : dropUnreliable(catalog.toolsets, report, threshold);
    if (values.out) writeOutputs(values.out, report, filtered);
    if (values.json) {
      process.stdout.write(
        `${JSON.stringify({ ...report, filtered: filtered && summaryOf(filtered) }, null, 2)}\n`,
      );
    } else {
      process.stdout.write(tableOf(report));
      if (filtered && threshold !== undefined)
        process.stdout.write(dropText(filtered, threshold, values.out ?? ""));
    }
    return 0;
  },
};

/** The judge asks the configured endpoint, whichever engine answers the calls. */
function judgeFor(values: LlmSelection, resolved: ResolvedLlm): PlausibilityJudge | undefined {
  let config = resolved.config;
  if (!config && values.engine === "offline") {
    try {
      config = resolveEngine({ ...values, engine: "llm" }).config;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
    }
  }
  return config ? new LlmPlausibilityJudge(new LlmClient(config)) : undefined;
}

function writeOutputs(dir: string, report: AuditReport, filtered: FilteredCatalog | undefined): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "audit.json"), `${JSON.stringify(report, null, 2)}\n`);
  for (const toolset of filtered?.toolsets ?? []) {
    writeFileSync(join(dir, `${toolset.id}.json`), `${JSON.stringify(toolset, null, 2)}\n`);
  }
}

function summaryOf(filtered: FilteredCatalog) {
  return {
    kept: filtered.toolsets.map((t) => t.id),
    dropped: filtered.dropped,
    droppedTasks: filtered.droppedTasks,
    emptied: filtered.emptied,
  };
}

function tableOf(report: AuditReport): string {
  const header = [
    "tool",
    "reliability",
    "pass",
    "fail",
    "not judged",
    "schema",
    "constraint",
    "new",
    "known",
  ];
  const rows = report.tools.map((t) => [
    `${t.toolset}/${t.tool}`,
    percent(t.reliability),
    String(t.passed),
    String(t.failed),
    String(t.notJudged),
    ...(["schema-failure", "constraint-failure", "new-input", "known-input"] as const).map((m) => {
      const tally = t.modes[m];
      const total = tally.passed + tally.failed + tally.notJudged;
      return total === 0
        ? "-"
        : `${tally.passed}/${tally.passed + tally.failed}${tally.notJudged ? ` (+${tally.notJudged}?)` : ""}`;
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const lines = [line(header), ...rows.map(line)];
  const failures = report.tools.flatMap((t) =>
    t.cases
      .filter((c) => c.verdict === "fail")
      .map((c) => `  ${t.tool} [${c.mode}] ${c.label}: ${c.reasons.join("; ")}`),
  );
  if (failures.length > 0) lines.push("", "failed checks:", ...failures);
  const judged = report.judge ? "judge on" : "no judge (new-input answers are not judged)";
  const usage =
    report.usage.requests > 0
      ? `, ${report.usage.requests} model request(s), ${report.usage.promptTokens + report.usage.completionTokens} tokens`
      : "";
  lines.push(
    "",
    `${report.tools.length} tool(s) audited with the ${report.simulator} simulator, ${judged}${usage}`,
  );
  return `${lines.join("\n")}\n`;
}

function dropText(filtered: FilteredCatalog, threshold: number, out: string): string {
  const lines = filtered.dropped.map(
    (d) =>
      `dropped ${d.toolset}/${d.tool}: reliability ${percent(d.reliability)} is below ${percent(threshold)}`,
  );
  for (const t of filtered.droppedTasks)
    lines.push(`dropped task ${t.toolset}/${t.task}: its solution calls ${t.tool}`);
  for (const id of filtered.emptied) lines.push(`toolset ${id} lost every tool and was not written`);
  lines.push(
    `${filtered.toolsets.length} toolset file(s) written to ${out} (${filtered.dropped.length} tool(s) dropped)`,
  );
  return `${lines.join("\n")}\n`;
}

function percent(value: number | null): string {
  return value === null ? "n/a" : `${Math.round(value * 100)}%`;
}
