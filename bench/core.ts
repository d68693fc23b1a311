import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/client";
import {
  BENCH_TOOLS,
  BENCH_TOOLSET_ID,
  CREATE_TOOL,
  createArgs,
  READ_TOOL,
  readArgs,
  rejectedArgs,
  WRITE_TOOL,
  writeArgs,
  writeBenchToolset,
} from "./bench-toolset.js";
import { type CallProfileRow, profileCalls } from "./call-profile.js";
import { CATALOG_TOOLS, CATALOG_TOOLSETS, writeCatalog } from "./catalog-6000.js";
import {
  CATALOG_LOAD,
  CLI,
  connectHttp,
  connectStdio,
  NOOP_SERVER,
  PACKAGE_ROOT,
  peakRssMb,
  runNodeJson,
  startHttpProcess,
} from "./processes.js";
import {
  fn,
  inPackage,
  type ProfileSummary,
  summarizeProfile,
  type Watch,
  waitForProfile,
} from "./profile.js";
import { median, ratio, round, type Summary, summarize } from "./stats.js";

export const TARGETS = { roundTripP50Ratio: 1.5, catalogReadyMs: 1500 } as const;

export interface CoreOptions {
  /**
   * Calls of every kind per side before any kind is measured (not recorded): until then a
   * server's code is still being compiled and its heap still growing, and the kind measured
   * first would carry that cost on both sides, which pulls its ratio towards 1.
   */
  settle: number;
  /** Calls per side before measuring each kind (not recorded). */
  warmup: number;
  /** Measured calls per side and tool (split over the rounds). */
  calls: number;
  /** Rounds per tool: each gives its own ratio; min and median are reported. */
  rounds: number;
  /** Cold starts per server in the scale bench (the median is reported). */
  scaleRuns: number;
  /** Folder for scratch files (catalogs, SQLite files); removed by the caller. */
  scratch: string;
  log(line: string): void;
}

export interface RoundTripRow {
  transport: "stdio" | "http";
  /** Tools loaded on both sides: the bench toolset alone, or with the 6,000-tool catalog. */
  catalogTools: number;
  kind: "read" | "write" | "create" | "rejected";
  tool: string;
  toolsim: Summary;
  noop: Summary;
  ratio: { p50: number; p95: number; mean: number };
  /** The p50 ratio of each round, and their min and median. */
  rounds: { p50: number[]; min: number; median: number };
}

export interface ScaleRow {
  server: string;
  spawnToInitializedMs: number;
  spawnToFirstListMs: number;
  firstPageTools: number;
  fullListMs: number;
  listedTools: number;
  peakRssMb: number | null;
  runs: number[];
}

export interface CoreResults {
  roundTrip: {
    settle: number;
    warmup: number;
    calls: number;
    rows: RoundTripRow[];
    /** State version of the toolsim stdio session after the measured writes (one version per write). */
    stateVersionAfterWrites: number | null;
    target: { p50Ratio: number; met: boolean };
  };
  scale: {
    toolsets: number;
    tools: number;
    catalogMb: number;
    rows: ScaleRow[];
    ratioToNoopCatalog: number;
    ratioToNoopBare: number;
    target: { readyMs: number; met: boolean };
  };
  load: {
    checked: LoadFigures;
    unchecked: LoadFigures;
    phases: {
      files: number;
      schemas: number;
      readAndJsonParseMs: number;
      zodParseMs: number;
      metaValidationMs: number;
    };
    /** Importing the CLI's modules (toolsim and every package it loads), cold. */
    imports: { importMs: number };
  };
  profile: ProfileSummary & { file: string };
  /** Where one call's time goes, toolsim against the no-op server. */
  callProfile: CallProfileRow[];
}

interface LoadFigures {
  loadToolsetsMs: number;
  catalogMs: number;
  totalMs: number;
  tools: number;
  heapUsedMb: number;
  rssMb: number;
}

type Call = (i: number) => Promise<void>;

/**
 * A call through an SDK client that fails the bench when the answer is not the kind
 * expected: an error where an answer was due (or the reverse) is not what we measure.
 */
function caller(
  client: Client,
  tool: string,
  args: (i: number) => Record<string, unknown>,
  who: string,
  expectError = false,
) {
  let last: Record<string, unknown> | undefined;
  const call: Call = async (i) => {
    const result = await client.callTool({ name: tool, arguments: args(i) });
    if (Boolean(result.isError) !== expectError)
      throw new Error(`${who} answered ${tool} unexpectedly: ${JSON.stringify(result.content)}`);
    last = result._meta;
  };
  return { call, lastMeta: () => last };
}

interface Times {
  toolsim: number[];
  noop: number[];
}

/**
 * Sequential calls in rounds. Both sides are warmed up before anything is measured; within
 * a round the sides alternate call by call, and the side that starts alternates by round,
 * so drift on a busy machine hits both alike. Each round gives its own ratio.
 */
async function measurePair(
  toolsim: Call,
  noop: Call,
  options: CoreOptions,
): Promise<{ all: Times; rounds: Times[] }> {
  let i = 0;
  for (let w = 0; w < options.warmup; w++, i++) {
    await toolsim(i);
    await noop(i);
  }
  const timed = async (call: Call, into: number[], n: number) => {
    const started = performance.now();
    await call(n);
    into.push(performance.now() - started);
  };
  const perRound = Math.max(1, Math.ceil(options.calls / options.rounds));
  const rounds: Times[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const times: Times = { toolsim: [], noop: [] };
    for (let c = 0; c < perRound; c++, i++) {
      const toolsimFirst = (c + r) % 2 === 0;
      const [first, second] = toolsimFirst
        ? ([
            [toolsim, times.toolsim],
            [noop, times.noop],
          ] as const)
        : ([
            [noop, times.noop],
            [toolsim, times.toolsim],
          ] as const);
      await timed(first[0], first[1], i);
      await timed(second[0], second[1], i);
    }
    rounds.push(times);
  }
  return {
    all: { toolsim: rounds.flatMap((t) => t.toolsim), noop: rounds.flatMap((t) => t.noop) },
    rounds,
  };
}

function row(
  setup: Pick<RoundTripRow, "transport" | "catalogTools">,
  kind: RoundTripRow["kind"],
  tool: string,
  measured: { all: Times; rounds: Times[] },
): RoundTripRow {
  const toolsim = summarize(measured.all.toolsim);
  const noop = summarize(measured.all.noop);
  const perRound = measured.rounds.map((t) => ratio(summarize(t.toolsim).p50, summarize(t.noop).p50));
  return {
    ...setup,
    kind,
    tool,
    toolsim,
    noop,
    ratio: {
      p50: ratio(toolsim.p50, noop.p50),
      p95: ratio(toolsim.p95, noop.p95),
      mean: ratio(toolsim.mean, noop.mean),
    },
    rounds: { p50: perRound, min: Math.min(...perRound), median: round(median(perRound), 2) },
  };
}

async function measureClients(
  setup: Pick<RoundTripRow, "transport" | "catalogTools">,
  toolsim: Client,
  noop: Client,
  options: CoreOptions,
): Promise<{ rows: RoundTripRow[]; stateVersion: number | null }> {
  // a real client lists first; the SDK client then checks every structuredContent against the outputSchema, on both sides alike
  await toolsim.listTools();
  await noop.listTools();
  const rows: RoundTripRow[] = [];
  let stateVersion: number | null = null;
  const kinds = [
    ["read", READ_TOOL, readArgs],
    ["write", WRITE_TOOL, writeArgs],
    ["create", CREATE_TOOL, createArgs],
    ["rejected", READ_TOOL, rejectedArgs],
  ] as const;
  for (const [, tool, args] of kinds) {
    for (let i = 0; i < options.settle; i++) {
      await toolsim.callTool({ name: tool, arguments: args(i) });
      await noop.callTool({ name: tool, arguments: args(i) });
    }
  }
  for (const [kind, tool, args] of kinds) {
    globalThis.gc?.();
    const sim = caller(toolsim, tool, args, "toolsim", kind === "rejected");
    const base = caller(noop, tool, args, "the no-op server");
    const measured = await measurePair(sim.call, base.call, options);
    rows.push(row(setup, kind, tool, measured));
    const meta = sim.lastMeta()?.["toolsim/call"] as { stateVersion?: number } | undefined;
    if (kind === "write") stateVersion = meta?.stateVersion ?? null;
    const last = rows[rows.length - 1];
    options.log(
      `  ${setup.transport} (${setup.catalogTools} tools) ${kind}: toolsim p50 ${last?.toolsim.p50} ms, no-op p50 ${last?.noop.p50} ms, ratio ${last?.ratio.p50} (rounds: min ${last?.rounds.min}, median ${last?.rounds.median})`,
    );
  }
  return { rows, stateVersion };
}

/** Over stdio; with `catalog`, both servers also load the 6,000 generated tools. */
async function roundTripStdio(toolset: string, catalog: string | undefined, options: CoreOptions) {
  const db = join(options.scratch, catalog ? "stdio-6000.db" : "stdio.db");
  const extra = (flag: string) => (catalog ? [flag, catalog] : []);
  const toolsim = await connectStdio([
    CLI,
    "serve",
    "--stdio",
    "--db",
    db,
    "--toolsets",
    toolset,
    ...extra("--toolsets"),
  ]);
  const noop = await connectStdio([
    NOOP_SERVER,
    "--stdio",
    ...(catalog ? ["--tools", toolset] : []),
    ...extra("--tools"),
  ]);
  const catalogTools = BENCH_TOOLS + (catalog ? CATALOG_TOOLS : 0);
  try {
    return await measureClients({ transport: "stdio", catalogTools }, toolsim.client, noop.client, options);
  } finally {
    await toolsim.close();
    await noop.close();
  }
}

async function roundTripHttp(toolset: string, options: CoreOptions) {
  const db = join(options.scratch, "http.db");
  const toolsimServer = await startHttpProcess([
    CLI,
    "serve",
    "--http",
    "--port",
    "0",
    "--db",
    db,
    "--toolsets",
    toolset,
  ]);
  const noopServer = await startHttpProcess([NOOP_SERVER, "--http"]);
  const toolsim = await connectHttp(toolsimServer.url);
  const noop = await connectHttp(noopServer.url);
  try {
    return await measureClients({ transport: "http", catalogTools: BENCH_TOOLS }, toolsim, noop, options);
  } finally {
    await toolsim.close();
    await noop.close();
    await toolsimServer.stop();
    await noopServer.stop();
  }
}

interface ColdStart {
  initializedMs: number;
  firstListMs: number;
  firstPageTools: number;
  fullListMs: number;
  listedTools: number;
  peakRssMb: number | null;
}

/** Spawn → initialize → first tools/list page → every page; peak RSS read before the process ends. */
async function coldStart(args: string[], nodeOptions: string[] = []): Promise<ColdStart> {
  const started = performance.now();
  const connection = await connectStdio(args, nodeOptions);
  const initialized = performance.now();
  try {
    const page = await connection.client.request({ method: "tools/list", params: {} });
    const firstList = performance.now();
    const all = await connection.client.listTools();
    const fullList = performance.now();
    return {
      initializedMs: round(initialized - started, 1),
      firstListMs: round(firstList - started, 1),
      firstPageTools: page.tools.length,
      fullListMs: round(fullList - firstList, 1),
      listedTools: all.tools.length,
      peakRssMb: peakRssMb(connection.pid),
    };
  } finally {
    await connection.close();
  }
}

function scaleRow(server: string, starts: ColdStart[]): ScaleRow {
  const rss = starts.map((s) => s.peakRssMb).filter((v): v is number => v !== null);
  return {
    server,
    spawnToInitializedMs: median(starts.map((s) => s.initializedMs)),
    spawnToFirstListMs: median(starts.map((s) => s.firstListMs)),
    firstPageTools: starts[0]?.firstPageTools ?? 0,
    fullListMs: median(starts.map((s) => s.fullListMs)),
    listedTools: starts[0]?.listedTools ?? 0,
    peakRssMb: rss.length ? Math.max(...rss) : null,
    runs: starts.map((s) => s.firstListMs),
  };
}

function folderMb(dir: string): number {
  const bytes = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  return round(bytes / 2 ** 20, 1);
}

async function scale(catalog: string, options: CoreOptions): Promise<CoreResults["scale"]> {
  const servers = [
    { name: "toolsim serve --stdio", args: (run: number) => toolsimArgs(catalog, options.scratch, run) },
    {
      name: "no-op, same catalog (JSON.parse only)",
      args: () => [NOOP_SERVER, "--stdio", "--tools", catalog],
    },
    { name: "no-op, 2 tools (node + SDK floor)", args: () => [NOOP_SERVER, "--stdio"] },
  ];
  const starts = servers.map(() => [] as ColdStart[]);
  for (let run = 0; run < options.scaleRuns; run++) {
    for (const [index, server] of servers.entries()) {
      const start = await coldStart(server.args(run));
      starts[index]?.push(start);
      options.log(
        `  run ${run + 1} ${server.name}: first list ${start.firstListMs} ms, peak RSS ${start.peakRssMb} MiB`,
      );
    }
  }
  const rows = servers.map((server, index) => scaleRow(server.name, starts[index] ?? []));
  const [toolsim, noopCatalog, noopBare] = rows;
  const ready = toolsim?.spawnToFirstListMs ?? Number.NaN;
  // toolsim may add its own tools (control tools) to the catalog's; fewer than the catalog's means a bug
  if ((toolsim?.listedTools ?? 0) < CATALOG_TOOLS) {
    throw new Error(`toolsim listed ${toolsim?.listedTools} tools, expected at least ${CATALOG_TOOLS}`);
  }
  return {
    toolsets: CATALOG_TOOLSETS,
    tools: CATALOG_TOOLS,
    catalogMb: folderMb(catalog),
    rows,
    ratioToNoopCatalog: ratio(ready, noopCatalog?.spawnToFirstListMs ?? Number.NaN),
    ratioToNoopBare: ratio(ready, noopBare?.spawnToFirstListMs ?? Number.NaN),
    target: { readyMs: TARGETS.catalogReadyMs, met: ready <= TARGETS.catalogReadyMs },
  };
}

/** Every start gets a fresh SQLite file, as a first start on a new machine. */
function toolsimArgs(catalog: string, scratch: string, run: number): string[] {
  return [
    CLI,
    "serve",
    "--stdio",
    "--db",
    join(scratch, `scale-${run}-${Date.now()}.db`),
    "--toolsets",
    catalog,
  ];
}

async function load(catalog: string): Promise<CoreResults["load"]> {
  const probe = <T>(mode: string) => runNodeJson<T>([CATALOG_LOAD, "--mode", mode, catalog]);
  return {
    checked: await probe<LoadFigures>("checked"),
    unchecked: await probe<LoadFigures>("unchecked"),
    phases: await probe<CoreResults["load"]["phases"]>("phases"),
    imports: await probe<CoreResults["load"]["imports"]>("imports"),
  };
}

const PROFILE_WATCHES: Watch[] = [
  { label: "loadToolsets (read, JSON.parse, zod, checks)", matches: fn("loadToolsets", "catalog/load.js") },
  { label: "  zod parse of the toolset files", matches: inPackage("zod") },
  {
    label: "  schema meta-validation (schemaProblems)",
    matches: fn("schemaProblems", "catalog/json-schema.js"),
  },
  { label: "  cross-file name checks", matches: fn("checkAcrossFiles", "catalog/load.js") },
  { label: "Catalog index", matches: fn("Catalog", "catalog/catalog.js") },
  { label: "runtime (SQLite open, migrations)", matches: fn("createRuntime", "commands/runtime.js") },
  { label: "open the session (sandbox state)", matches: fn("openSession", "engine/engine.js") },
  { label: "tools/list handler", matches: fn("listTools", "server/hub.js") },
  { label: "ajv (anywhere)", matches: inPackage("ajv") },
  { label: "garbage collection", matches: fn("(garbage collector)") },
];

/** One more cold start of toolsim under --cpu-prof, to say where its start-up time goes. */
async function profile(catalog: string, options: CoreOptions): Promise<CoreResults["profile"]> {
  const dir = join(PACKAGE_ROOT, "dist-bench", "profiles");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await coldStart(toolsimArgs(catalog, options.scratch, 99), ["--cpu-prof", "--cpu-prof-dir", dir]);
  const file = await waitForProfile(dir);
  return { file: file.slice(PACKAGE_ROOT.length + 1), ...summarizeProfile(file, PROFILE_WATCHES) };
}

export async function runCoreBench(options: CoreOptions): Promise<CoreResults> {
  const toolsetDir = join(options.scratch, "toolsets");
  mkdirSync(toolsetDir, { recursive: true });
  const toolset = writeBenchToolset(toolsetDir);
  const catalog = writeCatalog(join(options.scratch, "catalog-6000"));
  options.log(
    `round trip: ${options.settle} calls of every kind, then ${options.warmup} warm-up + ${options.calls} measured calls per side and kind (${BENCH_TOOLSET_ID})`,
  );
  const stdio = await roundTripStdio(toolset, undefined, options);
  const http = await roundTripHttp(toolset, options);
  const stdioLarge = await roundTripStdio(toolset, catalog, options);
  const rows = [...stdio.rows, ...http.rows, ...stdioLarge.rows];
  const stdioP50 = stdio.rows.map((r) => r.rounds.median);

  options.log(
    `catalog scale: ${CATALOG_TOOLS} tools in ${CATALOG_TOOLSETS} toolsets, ${options.scaleRuns} cold starts each`,
  );
  const scaleResults = await scale(catalog, options);
  options.log("catalog load in process (checked, unchecked, phases)");
  const loadResults = await load(catalog);
  options.log("profile of one cold start");
  const profileResults = await profile(catalog, options);
  options.log("profile of calls: toolsim and the no-op server under --cpu-prof");
  const callProfile = await profileCalls(
    toolset,
    options.scratch,
    options.calls,
    options.settle + options.warmup,
  );
  return {
    roundTrip: {
      settle: options.settle,
      warmup: options.warmup,
      calls: options.calls,
      rows,
      stateVersionAfterWrites: stdio.stateVersion,
      target: {
        p50Ratio: TARGETS.roundTripP50Ratio,
        met: stdioP50.every((value) => value <= TARGETS.roundTripP50Ratio),
      },
    },
    scale: scaleResults,
    load: loadResults,
    profile: profileResults,
    callProfile,
  };
}
