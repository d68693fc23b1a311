import { parseArgs } from "node:util";
// BFCL multi-turn against the real classes (its own block, below)
import { bfclMultiTurnSection, classList, renderBfclMultiTurn } from "./bfcl-multiturn.js";
import { coherenceSection } from "./coherence.js";
import { computationSection } from "./computation.js";
import { mcpServersSection, renderMcpServers } from "./mcp-servers.js";
import { openApiCrudSection, renderOpenApiCrud } from "./openapi-crud.js";
import { bfclSection, synthToolsSection, tauSection, toolAlpacaSection } from "./sections.js";
import {
  CONSISTENCY_KINDS,
  consistencySection,
  consistencySources,
  renderConsistency,
} from "./self-consistency.js";
import { type Mode, renderTauBench, tauBenchSection } from "./tau-bench.js";
import { renderWorldCalls, worldCallsSection } from "./world-calls.js";

/** The τ-bench replay compares toolsim as imported with toolsim as imported and inferred. */
const TAU_BENCH_MODES: readonly Mode[] = [
  { name: "without inference (--no-infer)", flags: ["--no-infer"] },
  { name: "with inferred effects (the default)", flags: [] },
];

/**
 * `npm run eval -- --synthtools DIR --bfcl DIR --tau DIR --toolalpaca DIR [--json]`:
 * imports external tool data given by path and prints what came through.
 * `--tau-bench DIR [--tau-splits test,dev,train]` replays τ-bench's golden actions over MCP
 * and compares the answers with the real implementation; `--bfcl-multiturn DIR
 * [--bfcl-classes A,B] [--bfcl-state given|loaded]` does the same for BFCL's multi-turn entries
 * and real classes (`loaded`: toolsim starts from the state the real classes hold after loading
 * each configuration, defaults filled in). Reads only the paths it is given;
 * writes nothing but temporary files.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      synthtools: { type: "string" },
      bfcl: { type: "string" },
      tau: { type: "string" },
      toolalpaca: { type: "string" },
      "tau-bench": { type: "string" },
      "tau-splits": { type: "string", default: "test" },
      "tau-modes": { type: "string", default: "both" },
      "bfcl-multiturn": { type: "string" },
      "bfcl-classes": { type: "string" },
      "bfcl-state": { type: "string" },
      consistency: { type: "boolean" },
      "consistency-limit": { type: "string", default: "0" },
      "openapi-crud": { type: "string", multiple: true },
      "mcp-servers": { type: "boolean" },
      "mcp-rounds": { type: "string", default: "3" },
      "world-calls": { type: "string" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
    },
    strict: true,
    // `--openapi-crud DIR…`: the folders after the first are positionals
    allowPositionals: true,
  });
  const openApiPaths = values["openapi-crud"] ? [...values["openapi-crud"], ...positionals] : [];
  if (positionals.length > 0 && openApiPaths.length === 0) {
    process.stderr.write(`eval: unexpected ${positionals.join(" ")}\n`);
    return 2;
  }
  if (
    !values.synthtools &&
    !values.bfcl &&
    !values.tau &&
    !values.toolalpaca &&
    !values["tau-bench"] &&
    !values["bfcl-multiturn"] &&
    !values.consistency &&
    !values["mcp-servers"] &&
    !values["world-calls"] &&
    openApiPaths.length === 0
  ) {
    process.stderr.write(
      "usage: npm run eval -- [--synthtools DIR] [--bfcl DIR] [--tau DIR] [--toolalpaca DIR]\n" +
        "                       [--tau-bench DIR [--tau-splits test,dev,train] [--tau-modes both|inferred|plain]]\n" +
        "                       [--bfcl-multiturn DIR [--bfcl-classes A,B,C] [--bfcl-state given|loaded]]\n" +
        "                       [--consistency [--consistency-limit N]]\n" +
        "                       [--mcp-servers [--mcp-rounds N]] [--openapi-crud DIR…]\n" +
        "                       [--world-calls eval/worlds]\n" +
        "                       [--json] [--verbose]\n",
    );
    return 2;
  }
  const bfclState = stateOption(values["bfcl-state"]);
  if (bfclState === undefined) {
    process.stderr.write(`eval: --bfcl-state takes given or loaded; got "${values["bfcl-state"]}"\n`);
    return 2;
  }
  const report: Record<string, unknown> = {};
  if (values.synthtools) report.synthtools = synthToolsSection(values.synthtools);
  if (values.bfcl) report.bfcl = bfclSection(values.bfcl);
  if (values.tau) report.tau = tauSection(values.tau);
  if (values.toolalpaca) report.toolalpaca = await toolAlpacaSection(values.toolalpaca);
  if (values.synthtools)
    report.coherence = await coherenceSection(values.synthtools, (line) =>
      process.stderr.write(`eval: ${line}\n`),
    );
  if (values.bfcl || values.tau || values.synthtools)
    report.computation = await computationSection(values.bfcl, values.tau, values.synthtools);
  const replay = values["tau-bench"]
    ? await tauBenchSection(values["tau-bench"], {
        splits: values["tau-splits"].split(",").map((s) => s.trim()),
        modes: TAU_BENCH_MODES.filter(
          (_, i) => values["tau-modes"] === "both" || (values["tau-modes"] === "inferred") === (i === 1),
        ),
      })
    : undefined;
  // ── BFCL multi-turn replayed against the real classes ──
  const multiTurn = values["bfcl-multiturn"]
    ? await bfclMultiTurnSection(values["bfcl-multiturn"], {
        classes: classList(values["bfcl-classes"]),
        state: bfclState,
      })
    : undefined;
  // ──
  // self-consistency: the data folders given, imported with the CLI, and the shipped toolsets
  const consistency = values.consistency
    ? await consistencySection(consistencySources(values), {
        kinds: CONSISTENCY_KINDS,
        limit: Number(values["consistency-limit"]),
        log: (line) => process.stderr.write(`eval: ${line}\n`),
      })
    : undefined;
  // the real MCP servers the project installs, against toolsim serving their imported toolsets
  const mcpServers = values["mcp-servers"]
    ? await mcpServersSection({
        rounds: Number(values["mcp-rounds"]),
        limit: 0,
        log: (line) => process.stderr.write(`eval: ${line}\n`),
      })
    : undefined;
  // OpenAPI documents imported as they are, driven through create → read → update → list → delete
  const openApiCrud =
    openApiPaths.length > 0
      ? await openApiCrudSection(openApiPaths, {
          limit: 0,
          log: (line) => process.stderr.write(`eval: ${line}\n`),
        })
      : undefined;
  // held-out worlds replayed against the expectations written with them
  const worldCalls = values["world-calls"] ? await worldCallsSection(values["world-calls"]) : undefined;
  if (values.json)
    process.stdout.write(
      `${JSON.stringify(
        {
          ...report,
          tauBench: replay,
          bfclMultiTurn: multiTurn,
          consistency,
          mcpServers,
          openApiCrud,
          worldCalls,
        },
        null,
        2,
      )}\n`,
    );
  else {
    if (Object.keys(report).length > 0) process.stdout.write(summarize(report, Boolean(values.verbose)));
    if (replay) process.stdout.write(renderTauBench(replay, Boolean(values.verbose)));
    if (multiTurn) process.stdout.write(renderBfclMultiTurn(multiTurn, Boolean(values.verbose)));
    if (consistency) process.stdout.write(renderConsistency("self-consistency", consistency));
    if (mcpServers) process.stdout.write(renderMcpServers(mcpServers));
    if (openApiCrud) process.stdout.write(renderOpenApiCrud(openApiCrud));
    if (worldCalls) process.stdout.write(renderWorldCalls(worldCalls, Boolean(values.verbose)));
  }
  return 0;
}

function summarize(report: Record<string, unknown>, verbose: boolean): string {
  const lines: string[] = [];
  const limit = verbose ? Number.POSITIVE_INFINITY : 15;
  for (const [name, section] of Object.entries(report)) {
    lines.push(`== ${name}`);
    const flat = section as Record<string, unknown>;
    for (const [key, value] of Object.entries(flat)) {
      if (Array.isArray(value)) {
        lines.push(`  ${key}: ${value.length}`);
        for (const item of value.slice(0, limit)) lines.push(`    ${JSON.stringify(item)}`);
      } else if (value && typeof value === "object") {
        lines.push(`  ${key}:`);
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
          if (Array.isArray(v)) {
            lines.push(`    ${k}: ${v.length}`);
            for (const item of v.slice(0, limit)) lines.push(`      ${JSON.stringify(item)}`);
          } else lines.push(`    ${k}: ${JSON.stringify(v)}`);
        }
      } else lines.push(`  ${key}: ${JSON.stringify(value)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);

function stateOption(value: string | undefined): "given" | "loaded" | undefined {
  if (value === undefined || value === "given") return "given";
  return value === "loaded" ? "loaded" : undefined;
}
