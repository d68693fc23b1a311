/**
 * Faults on purpose: what the fault seam costs a call when no profile applies, and how
 * accurately injected latency follows its profile.
 *
 * 1. In process, the same calls through three engines on one store: without the seam (no
 *    fault plan, as before faults existed), with the seam and no profile (what `serve`
 *    runs without --faults), and with a profile whose rules match every call but never come
 *    up (each call pays the whole decision). Call by call in turn, the order rotated, over
 *    several rounds; per-call mean of each round, min and median of the rounds.
 * 2. Over stdio, `serve` without a profile against `serve --faults` with that never-firing
 *    profile, alternating call by call, as the round-trip bench does.
 * 3. 1,000 reads through `serve --stdio --faults` with long-tailed latency (rate 1), 4 in
 *    flight, under two profiles (p50 100 ms / p99 1 s, and the built-in `slow`'s reads,
 *    250 ms / 2.5 s): the measured p50 and p99 per call, as the client sees them, against the
 *    profile's. The same reads without a profile, measured in the same run, say what the
 *    transport and the engine add.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Catalog, FaultProfile, type FaultProfileInput, loadToolsets } from "../src/catalog/index.js";
import { Engine } from "../src/engine/index.js";
import { accessOf, drawsFor, FaultPlan, resolveFaultProfile } from "../src/faults/index.js";
import { OfflineSimulator } from "../src/simulate/index.js";
import { openStore } from "../src/store/index.js";
import { READ_TOOL, readArgs, WRITE_TOOL, writeArgs, writeBenchToolset } from "./bench-toolset.js";
import { CLI, connectStdio, type StdioConnection } from "./processes.js";
import { median, ratio, round, type Summary, summarize } from "./stats.js";

export const FAULT_TARGETS = {
  /** Per-call time with the seam and no profile over the time without the seam. */
  noProfileRatio: 1.05,
  /** Measured p50 and p99 of injected latency within this share of the profile's. */
  latencyError: 0.1,
} as const;

/** Rules that match every call and draw for each, but never come up: the decision's full cost. */
const NEVER: FaultProfileInput = {
  name: "never",
  rules: [
    { name: "never-reads", match: { effect: "reads" }, rate: 1e-12, fault: { kind: "unavailable" } },
    { name: "never-writes", match: { effect: "writes" }, rate: 1e-12, fault: { kind: "lost-answer" } },
  ],
};

/** The long tails measured: one of their own, and the built-in `slow` profile's reads. */
const TAILS = [
  { profile: "long-tail", p50Ms: 100, p99Ms: 1000 },
  { profile: "slow", p50Ms: 250, p99Ms: 2500 },
] as const;

function tailProfile(tail: (typeof TAILS)[number]): string {
  if (tail.profile === "slow") return "slow";
  const fault = { kind: "latency", distribution: "long-tail", p50Ms: tail.p50Ms, p99Ms: tail.p99Ms };
  return JSON.stringify({ name: tail.profile, rules: [{ match: { tools: [READ_TOOL] }, rate: 1, fault }] });
}

interface Options {
  rounds: number;
  calls: number;
  stdioCalls: number;
  latencyCalls: number;
  inFlight: number;
  log(line: string): void;
}

const DEFAULTS: Options = {
  rounds: 5,
  calls: 2000,
  stdioCalls: 600,
  latencyCalls: 1000,
  inFlight: 4,
  log: (line) => process.stderr.write(`bench: ${line}\n`),
};

export async function runFaultsBench(overrides: Partial<Options> = {}): Promise<Record<string, unknown>> {
  const options = { ...DEFAULTS, ...overrides };
  const dir = mkdtempSync(join(tmpdir(), "toolsim-bench-faults-"));
  const loadAtStart = round(loadavg()[0] ?? 0, 2);
  try {
    const toolsetFile = writeBenchToolset(dir);
    const inProcess = await seamInProcess(toolsetFile, join(dir, "engine.db"), options);
    const decision = decisionAlone(toolsetFile);
    const stdio = await seamOverStdio(toolsetFile, dir, options);
    const latency = [];
    for (const tail of TAILS) latency.push(await latencyAccuracy(toolsetFile, dir, tail, options));
    const load = { cores: cpus().length, start: loadAtStart, end: round(loadavg()[0] ?? 0, 2) };
    const result = { targets: FAULT_TARGETS, load, inProcess, decision, stdio, latency };
    return { ...result, markdown: markdownOf(result) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── 1. the seam in process ──────────────────────────────────────────────────

const VARIANTS = ["no seam", "seam, no profile", "seam, never-firing profile"] as const;
type Variant = (typeof VARIANTS)[number];

async function seamInProcess(toolsetFile: string, db: string, options: Options) {
  const loaded = loadToolsets([toolsetFile]);
  const catalog = new Catalog(loaded.toolsets);
  const never = resolved(NEVER, catalog);
  const store = await openStore(db);
  try {
    const offline = new OfflineSimulator();
    const engines: Record<Variant, Engine> = {
      "no seam": new Engine({ catalog, store, simulator: offline, offline }),
      "seam, no profile": new Engine({
        catalog,
        store,
        simulator: offline,
        offline,
        faults: new FaultPlan(),
      }),
      "seam, never-firing profile": new Engine({
        catalog,
        store,
        simulator: offline,
        offline,
        faults: new FaultPlan(never),
      }),
    };
    const rounds: Array<Record<Variant, number>> = [];
    for (let round = 0; round < options.rounds; round++) {
      const sessions = await Promise.all(VARIANTS.map(() => engines["no seam"].openSession({})));
      const spent: Record<Variant, number> = {
        "no seam": 0,
        "seam, no profile": 0,
        "seam, never-firing profile": 0,
      };
      for (let i = 0; i < options.calls; i++) {
        // rotate which variant goes first, so none always runs on a warmer cache
        for (let k = 0; k < VARIANTS.length; k++) {
          const index = (i + k) % VARIANTS.length;
          const variant = VARIANTS[index] as Variant;
          const session = sessions[index]?.id ?? "";
          const [tool, args] = i % 2 === 0 ? [READ_TOOL, readArgs(i)] : [WRITE_TOOL, writeArgs(i)];
          const started = performance.now();
          const outcome = await engines[variant].call(session, tool, args);
          spent[variant] += performance.now() - started;
          if (outcome.status !== "ok" || outcome.fault)
            throw new Error(`${variant}: ${tool} ${outcome.status}`);
        }
      }
      rounds.push(
        Object.fromEntries(VARIANTS.map((v) => [v, round3((spent[v] / options.calls) * 1000)])) as Record<
          Variant,
          number
        >,
      );
      options.log(`faults: in-process round ${round + 1}: ${JSON.stringify(rounds.at(-1))} µs per call`);
    }
    const per = (variant: Variant) => rounds.map((r) => r[variant]);
    const ratios = (variant: Variant) => rounds.map((r) => ratio(r[variant], r["no seam"]));
    return {
      calls: options.calls,
      rounds: options.rounds,
      microsecondsPerCall: Object.fromEntries(
        VARIANTS.map((v) => [v, { min: Math.min(...per(v)), median: median(per(v)) }]),
      ),
      ratioToNoSeam: Object.fromEntries(
        VARIANTS.slice(1).map((v) => [v, { min: Math.min(...ratios(v)), median: median(ratios(v)) }]),
      ),
    };
  } finally {
    await store.close();
  }
}

/**
 * What the seam itself adds to a call, timed alone over a million calls: the lookup of the
 * session's profile when there is none, and the draws of a profile that never fires. Steadier
 * than the engine's per-call figures on a busy machine, whose scatter is far larger.
 */
function decisionAlone(toolsetFile: string) {
  const catalog = new Catalog(loadToolsets([toolsetFile]).toolsets);
  const tool = catalog.tool(READ_TOOL)?.tool;
  if (!tool) throw new Error("the bench toolset has no read tool");
  const facts = { name: tool.name, toolset: catalog.tool(READ_TOOL)?.toolset.id, access: accessOf(tool) };
  const plan = new FaultPlan();
  const never = resolved(NEVER, catalog);
  const session = { id: "bench", taskId: null };
  const times = 1_000_000;
  let found = 0;
  let started = performance.now();
  for (let i = 0; i < times; i++) if (plan.profileFor(session, catalog)) found++;
  const lookupNs = ((performance.now() - started) / times) * 1e6;
  const draws = 100_000;
  started = performance.now();
  for (let i = 0; i < draws; i++) found += drawsFor(never, { sessionSeed: "0", seq: i, tool: facts }).length;
  const drawsNs = ((performance.now() - started) / draws) * 1e6;
  if (found !== 0) throw new Error("a profile or a draw came up where none should");
  return { noProfileNs: round(lookupNs, 1), neverFiringNs: round(drawsNs, 0) };
}

// ── 2. the seam over stdio ──────────────────────────────────────────────────

async function seamOverStdio(toolsetFile: string, dir: string, options: Options) {
  const neverFile = join(dir, "never.json");
  writeFileSync(neverFile, JSON.stringify(NEVER));
  const serve = (name: string, extra: string[]) =>
    connectStdio([
      CLI,
      "serve",
      "--stdio",
      "--toolsets",
      toolsetFile,
      "--db",
      join(dir, `${name}.db`),
      ...extra,
    ]);
  const connections: StdioConnection[] = [];
  try {
    const plain = await serve("plain", []);
    connections.push(plain);
    const never = await serve("never", ["--faults", neverFile]);
    connections.push(never);
    const time = async (connection: StdioConnection, i: number) => {
      const [name, args] = i % 2 === 0 ? [READ_TOOL, readArgs(i)] : [WRITE_TOOL, writeArgs(i)];
      const started = performance.now();
      const result = await connection.client.callTool({ name, arguments: args });
      const elapsed = performance.now() - started;
      if (result.isError || result._meta?.["toolsim/fault"]) throw new Error(`${name} failed or faulted`);
      return elapsed;
    };
    const warmup = 100;
    const plainMs: number[] = [];
    const neverMs: number[] = [];
    for (let i = 0; i < warmup + options.stdioCalls; i++) {
      const first = i % 2 === 0;
      const a = await time(first ? plain : never, i);
      const b = await time(first ? never : plain, i);
      if (i < warmup) continue;
      plainMs.push(first ? a : b);
      neverMs.push(first ? b : a);
    }
    const plainSummary = summarize(plainMs);
    const neverSummary = summarize(neverMs);
    return {
      calls: options.stdioCalls,
      noProfile: plainSummary,
      neverFiringProfile: neverSummary,
      ratioP50: ratio(neverSummary.p50, plainSummary.p50),
      ratioMean: ratio(neverSummary.mean, plainSummary.mean),
    };
  } finally {
    for (const connection of connections) await connection.close().catch(() => {});
  }
}

// ── 3. latency accuracy ─────────────────────────────────────────────────────

async function latencyAccuracy(
  toolsetFile: string,
  dir: string,
  tail: (typeof TAILS)[number],
  options: Options,
) {
  const setting = tailProfile(tail);
  const file = join(dir, `${tail.profile}.json`);
  if (setting !== "slow") writeFileSync(file, setting);
  const faults = setting === "slow" ? "slow" : file;
  const connection = await connectStdio([
    CLI,
    "serve",
    "--stdio",
    "--toolsets",
    toolsetFile,
    "--db",
    join(dir, `${tail.profile}.db`),
    "--faults",
    faults,
  ]);
  try {
    const measured: number[] = [];
    const injected: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < options.latencyCalls) {
        const i = next++;
        const started = performance.now();
        const result = await connection.client.callTool({ name: READ_TOOL, arguments: readArgs(i) });
        measured.push(performance.now() - started);
        const fault = result._meta?.["toolsim/fault"] as { delayMs?: number } | undefined;
        if (fault?.delayMs === undefined) throw new Error("a read came back without its latency fault");
        injected.push(fault.delayMs);
      }
    };
    await Promise.all(Array.from({ length: options.inFlight }, worker));
    const summary = summarize(measured);
    const p99 = percentile(measured, 99);
    const injectedP50 = percentile(injected, 50);
    const injectedP99 = percentile(injected, 99);
    const error = (value: number, wanted: number) => round3(Math.abs(value / wanted - 1));
    const errors = { p50: error(summary.p50, tail.p50Ms), p99: error(p99, tail.p99Ms) };
    options.log(`faults: ${tail.profile}: measured p50 ${summary.p50} ms, p99 ${round(p99)} ms`);
    return {
      calls: options.latencyCalls,
      inFlight: options.inFlight,
      profile: tail,
      measured: { ...summary, p99: round(p99) },
      injected: { p50: injectedP50, p99: injectedP99 },
      relativeError: errors,
      met: errors.p50 <= FAULT_TARGETS.latencyError && errors.p99 <= FAULT_TARGETS.latencyError,
    };
  } finally {
    await connection.close().catch(() => {});
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] ?? Number.NaN;
}

function resolved(input: FaultProfileInput, catalog: Catalog) {
  const profile = resolveFaultProfile(FaultProfile.parse(input), catalog, { file: "bench" }).profile;
  if (!profile) throw new Error(`the bench profile ${input.name} does not resolve`);
  return profile;
}

function round3(value: number): number {
  return round(value, 3);
}

// ── the docs' table ─────────────────────────────────────────────────────────

interface Figures {
  load: { cores: number; start: number; end: number };
  decision: ReturnType<typeof decisionAlone>;
  inProcess: Awaited<ReturnType<typeof seamInProcess>>;
  stdio: Awaited<ReturnType<typeof seamOverStdio>>;
  latency: Array<Awaited<ReturnType<typeof latencyAccuracy>>>;
}

/** The section's table for docs/benchmarks.md (exported so a saved run's JSON can be shown again). */
export function markdownOf(result: Figures): string {
  const { load, inProcess, decision, stdio, latency } = result;
  const us = inProcess.microsecondsPerCall as Record<Variant, { min: number; median: number }>;
  const ratios = inProcess.ratioToNoSeam as Record<Variant, { min: number; median: number }>;
  const row = (label: string, s: Summary) => `| ${label} | ${s.p50} | ${s.p95} | ${s.mean} |`;
  return [
    `This section ran on ${load.cores} cores with a 1-minute load average of ${load.start} at its start and ${load.end} at its end${Math.max(load.start, load.end) > load.cores ? ": well above the cores, figures scatter and timers fire late" : ""}.`,
    "",
    `**No profile, in process** (the engine alone, ${inProcess.calls} calls per variant and round, reads and writes alternating, ${inProcess.rounds} rounds; µs per call, min and median of the rounds):`,
    "",
    "| engine | µs per call (min) | µs per call (median) | ratio to no seam (min) | ratio (median) |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...VARIANTS.map(
      (v) =>
        `| ${v} | ${us[v].min} | ${us[v].median} | ${v === "no seam" ? "1" : ratios[v].min} | ${v === "no seam" ? "1" : ratios[v].median} |`,
    ),
    "",
    `**The seam alone** (timed apart from the engine): the lookup a call makes when its session has no profile takes ${decision.noProfileNs} ns; the two draws of the never-firing profile ${decision.neverFiringNs} ns, against an engine call of ${us["no seam"].min} µs at best in this run.`,
    "",
    `**No profile, over stdio** (\`serve\` against \`serve --faults\` with the never-firing profile, ${stdio.calls} calls each, alternating; ms):`,
    "",
    "| server | p50 | p95 | mean |",
    "| --- | ---: | ---: | ---: |",
    row("no profile", stdio.noProfile),
    row("never-firing profile", stdio.neverFiringProfile),
    `| ratio | ${stdio.ratioP50}× | | ${stdio.ratioMean}× |`,
    "",
    `**Injected latency** (a long tail on every read, ${latency[0]?.calls} reads per profile over stdio, ${latency[0]?.inFlight} in flight; ms as the client measures a call; the same reads without a profile take ${stdio.noProfile.p50} ms at the median):`,
    "",
    "| profile | p50 wanted | p50 drawn | p50 measured | error | p99 wanted | p99 drawn | p99 measured | error | within 10% |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...latency.map(
      (l) =>
        `| ${l.profile.profile === "slow" ? "built-in `slow` (reads)" : "its own"} | ${l.profile.p50Ms} | ${l.injected.p50} | ${l.measured.p50} | ${(l.relativeError.p50 * 100).toFixed(1)}% | ${l.profile.p99Ms} | ${l.injected.p99} | ${l.measured.p99} | ${(l.relativeError.p99 * 100).toFixed(1)}% | ${l.met ? "yes" : "no"} |`,
    ),
    "",
    `Targets: with no profile, no call slower (the lookup above, and ratios to no seam within the rounds' scatter); measured p50 and p99 within ${FAULT_TARGETS.latencyError * 100}% of the profile's: ${latency.every((l) => l.met) ? "met" : `missed for ${latency.filter((l) => !l.met).length} of ${latency.length} profiles`}. The waits drawn follow the profile (the table's "drawn" columns); what the client measures adds the transport and the machine's scheduling: about 10 ms per call at the load above.`,
  ].join("\n");
}
