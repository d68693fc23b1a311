/**
 * npm run bench: the core bench always (round trip vs a no-op server, catalog scale),
 * then the optional sections whose modules exist (bench/llm.ts → runLlmBench,
 * bench/hybrid.ts → runHybridBench, bench/scale-out.ts → runScaleOutBench, bench/runs.ts →
 * runRunsBench, bench/faults.ts → runFaultsBench). Writes bench/results/latest.json and rewrites
 * the generated parts of docs/benchmarks.md.
 *
 *   npm run bench                      full run (a few minutes)
 *   npm run bench -- --quick           fewer calls and starts, to check the harness
 *   npm run bench -- --calls 5000 --warmup 500 --settle 2000 --runs 5 --only core
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runCoreBench } from "./core.js";
import { DOCS_FILE, RESULTS_DIR, updateDocs } from "./docs.js";
import { PACKAGE_ROOT } from "./processes.js";
import { coreMarkdown, machineMarkdown } from "./report.js";
import { round } from "./stats.js";

const OPTIONAL_SECTIONS = [
  { name: "llm", module: "./llm.js", entry: "runLlmBench" },
  { name: "hybrid", module: "./hybrid.js", entry: "runHybridBench" },
  { name: "state", module: "./state.js", entry: "runStateBench" },
  { name: "scale-out", module: "./scale-out.js", entry: "runScaleOutBench" },
  { name: "runs", module: "./runs.js", entry: "runRunsBench" },
  { name: "faults", module: "./faults.js", entry: "runFaultsBench" },
] as const;
const SECTION_TIMEOUT_MS = 15 * 60_000;
const WATCHDOG_MS = 45 * 60_000;

export interface Machine {
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  os: string;
  /** 1-minute load average at the start and the end: other work on the machine skews the figures. */
  load: { start: number; end: number };
}

/** What an optional section produced: its own JSON, and optionally its table for the docs. */
export type SectionOutcome =
  | { status: "ok"; result: unknown; markdown?: string }
  | { status: "absent"; note: string }
  | { status: "failed"; note: string };

function machine(): Machine {
  const list = cpus();
  return {
    cores: list.length,
    cpu: list[0]?.model.trim() ?? "unknown",
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
    load: { start: round(loadavg()[0] ?? 0, 2), end: Number.NaN },
  };
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function optionalSection(section: (typeof OPTIONAL_SECTIONS)[number]): Promise<SectionOutcome> {
  const url = new URL(section.module, import.meta.url);
  if (!existsSync(url))
    return { status: "absent", note: `bench/${section.name}.ts does not exist yet; skipped` };
  try {
    const loaded = (await import(url.href)) as Record<string, unknown>;
    const entry = loaded[section.entry];
    if (typeof entry !== "function") {
      return { status: "failed", note: `bench/${section.name}.ts does not export ${section.entry}()` };
    }
    log(`${section.name}: running ${section.entry}()`);
    const result: unknown = await withTimeout(Promise.resolve(entry()), SECTION_TIMEOUT_MS, section.entry);
    const markdown =
      result && typeof result === "object" && "markdown" in result && typeof result.markdown === "string"
        ? result.markdown
        : undefined;
    return { status: "ok", result, ...(markdown ? { markdown } : {}) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`${section.name}: failed: ${reason}`);
    return { status: "failed", note: `${section.entry}() failed: ${reason}` };
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean" },
      calls: { type: "string" },
      settle: { type: "string" },
      warmup: { type: "string" },
      runs: { type: "string" },
      rounds: { type: "string" },
      only: { type: "string" },
    },
    strict: true,
  });
  const count = (text: string | undefined, quick: number, full: number) => {
    const value = text === undefined ? (values.quick ? quick : full) : Number(text);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`expected a whole number above 0, got "${text}"`);
    return value;
  };
  const scratch = mkdtempSync(join(tmpdir(), "toolsim-bench-"));
  const startedAt = new Date();
  const host = machine();
  log(`${host.cores} cores (${host.cpu}), node ${host.node}; scratch ${scratch}`);
  try {
    const core = await runCoreBench({
      settle: count(values.settle, 200, 1000),
      warmup: count(values.warmup, 50, 200),
      calls: count(values.calls, 300, 2000),
      rounds: count(values.rounds, 2, 5),
      scaleRuns: count(values.runs, 1, 3),
      scratch,
      log,
    });
    const sections: Record<string, SectionOutcome> = {};
    for (const section of OPTIONAL_SECTIONS) {
      if (values.only && values.only !== section.name) continue;
      sections[section.name] = await optionalSection(section);
      if (sections[section.name]?.status !== "ok")
        log(`${section.name}: ${JSON.stringify(sections[section.name])}`);
    }
    const finishedAt = new Date();
    host.load.end = round(loadavg()[0] ?? 0, 2);
    const results = {
      startedAt: startedAt.toISOString(),
      seconds: Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000),
      quick: Boolean(values.quick),
      machine: host,
      core,
      ...sections,
    };
    mkdirSync(join(PACKAGE_ROOT, RESULTS_DIR), { recursive: true });
    writeFileSync(join(PACKAGE_ROOT, RESULTS_DIR, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
    const docsPath = join(PACKAGE_ROOT, DOCS_FILE);
    const docs = existsSync(docsPath) ? readFileSync(docsPath, "utf8") : undefined;
    writeFileSync(
      docsPath,
      updateDocs(docs, {
        machine: machineMarkdown(host, results.startedAt, results.seconds, results.quick),
        core: coreMarkdown(core),
        sections,
      }),
    );
    log(`wrote ${RESULTS_DIR}/latest.json and ${DOCS_FILE} in ${results.seconds} s`);
    log(
      `round trip p50 ratio (stdio): ${core.roundTrip.rows
        .filter((r) => r.transport === "stdio")
        .map((r) => `${r.kind} (${r.catalogTools} tools) ${r.rounds.median}`)
        .join(
          ", ",
        )} (target ≤ ${core.roundTrip.target.p50Ratio}: ${core.roundTrip.target.met ? "met" : "MISSED"})`,
    );
    log(
      `6,000 tools ready in ${core.scale.rows[0]?.spawnToFirstListMs} ms (target < ${core.scale.target.readyMs} ms: ${core.scale.target.met ? "met" : "MISSED"})`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// optional sections written by others may leave handles open: the bench always ends by itself
setTimeout(() => {
  log(`still running after ${WATCHDOG_MS / 60_000} minutes; stopping`);
  process.exit(1);
}, WATCHDOG_MS).unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
