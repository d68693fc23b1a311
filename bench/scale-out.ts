/**
 * Scale-out: toolsim serve processes sharing one PostgreSQL database.
 *
 * 1. Throughput: a load generator process drives many sessions over MCP HTTP against 1, 2
 *    and 4 `serve --http` processes on one database, each call going to the next process
 *    in turn (no session affinity), and the same with 4 processes and affinity, and one
 *    process on SQLite for reference. Every configuration runs once per round, the order
 *    reversed every other round; min and median over the rounds.
 * 2. Per-call cost: one `serve --stdio` process on SQLite and one on PostgreSQL (and one on
 *    PostgreSQL with synchronous_commit off), called in turn, call by call, in one run.
 *
 * It starts its own PostgreSQL server (test/support/postgres.ts), durable as in production:
 * fsync and synchronous commit on.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createDatabase, type PostgresServer, startPostgres } from "../test/support/postgres.js";
import { READ_TOOL, readArgs, WRITE_TOOL, writeArgs, writeBenchToolset } from "./bench-toolset.js";
import { cpuBetween, cpuSample, processTree } from "./cpu.js";
import { CLI, connectStdio, type HttpProcess, type StdioConnection, startHttpProcess } from "./processes.js";
import type { LoadPlan, LoadResult } from "./scale-out-load.js";
import { median, ratio, round, type Summary, summarize } from "./stats.js";

const LOAD_GENERATOR = resolve(import.meta.dirname, "scale-out-load.js");
const ROUNDS = 3;
const SECONDS = 6;
const WARMUP_SECONDS = 1.5;
const SESSIONS = 32;
const PER_CALL = { warmup: 100, calls: 800 };

interface Setup {
  name: string;
  backend: "postgres" | "sqlite";
  processes: number;
  affinity: boolean;
}

const SETUPS: Setup[] = [
  { name: "PostgreSQL, 1 process", backend: "postgres", processes: 1, affinity: false },
  { name: "PostgreSQL, 2 processes", backend: "postgres", processes: 2, affinity: false },
  { name: "PostgreSQL, 4 processes", backend: "postgres", processes: 4, affinity: false },
  { name: "PostgreSQL, 4 processes, session affinity", backend: "postgres", processes: 4, affinity: true },
  { name: "SQLite, 1 process", backend: "sqlite", processes: 1, affinity: false },
];

interface ThroughputRow extends Setup {
  runs: number[];
  callsPerSecond: { min: number; median: number; max: number };
  latencyP50Ms: number;
  latencyP95Ms: number;
  errors: number;
  /** Median calls/s against PostgreSQL with one process. */
  ratioToOne: number;
  /** CPU milliseconds per call (median over the rounds) of the toolsim processes, the database, the load generator. */
  cpuMsPerCall: { toolsim: number; database: number; loadGenerator: number };
}

/** A load run and the CPU the servers used in its measured window. */
interface Measured extends LoadResult {
  toolsimCpuMs: number;
  databaseCpuMs: number;
}

interface PerCallRow {
  kind: "read" | "write";
  tool: string;
  sqlite: Summary;
  postgres: Summary;
  postgresAsyncCommit: Summary;
  ratio: { p50: number; mean: number };
  ratioAsyncCommit: { p50: number; mean: number };
}

export interface ScaleOutResult {
  postgres: string;
  machineCores: number;
  throughput: { sessions: number; seconds: number; rounds: number; rows: ThroughputRow[] };
  perCall: { warmup: number; calls: number; rows: PerCallRow[] };
  markdown: string;
}

const log = (line: string) => process.stderr.write(`bench: scale-out: ${line}\n`);

export async function runScaleOutBench(): Promise<ScaleOutResult> {
  const scratch = mkdtempSync(join(tmpdir(), "toolsim-bench-scale-"));
  const toolset = writeBenchToolset(scratch);
  const server = await startPostgres({ durable: true });
  const stops: Array<() => Promise<void>> = [];
  try {
    const version = await serverVersion(server);
    log(`${version} on 127.0.0.1:${server.port}`);
    const throughput = await measureThroughput(server, toolset, scratch, stops);
    const perCall = await measurePerCall(server, toolset, scratch);
    const result = {
      postgres: version,
      machineCores: cpus().length,
      throughput: { sessions: SESSIONS, seconds: SECONDS, rounds: ROUNDS, rows: throughput },
      perCall: { ...PER_CALL, rows: perCall },
    };
    return { ...result, markdown: markdownOf(result) };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function serverVersion(server: PostgresServer): Promise<string> {
  const client = new pg.Client({ connectionString: server.url() });
  await client.connect();
  try {
    const result = await client.query("SHOW server_version");
    return `PostgreSQL ${String(result.rows[0]?.server_version ?? "?").split(" ")[0]}`;
  } finally {
    await client.end();
  }
}

async function measureThroughput(
  server: PostgresServer,
  toolset: string,
  scratch: string,
  stops: Array<() => Promise<void>>,
): Promise<ThroughputRow[]> {
  // four servers on one database and one on a SQLite file, started once; a setup uses the first n
  const database = await createDatabase(server.url(), "toolsim_bench");
  stops.push(() => database.drop());
  const serve = (db: string) =>
    startHttpProcess([CLI, "serve", "--http", "--port", "0", "--db", db, "--toolsets", toolset]);
  const postgresServers: HttpProcess[] = [];
  for (let i = 0; i < 4; i++) {
    const started = await serve(database.url);
    stops.push(() => started.stop());
    postgresServers.push(started);
  }
  const sqliteServer = await serve(join(scratch, "throughput.db"));
  stops.push(() => sqliteServer.stop());

  const runs = new Map<string, Measured[]>(SETUPS.map((setup) => [setup.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? SETUPS : [...SETUPS].reverse();
    for (const setup of order) {
      const servers = setup.backend === "sqlite" ? [sqliteServer] : postgresServers.slice(0, setup.processes);
      const result = await load(servers, server.pid, {
        urls: servers.map((p) => p.url),
        sessions: SESSIONS,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        prefix: `r${r}-${setup.backend}-${setup.processes}-${setup.affinity ? "a" : "n"}`,
        affinity: setup.affinity,
      });
      log(
        `round ${r + 1}: ${setup.name}: ${result.callsPerSecond} calls/s, p50 ${result.latency.p50} ms, ${result.errors} errors`,
      );
      runs.get(setup.name)?.push(result);
    }
  }
  const oneProcess = median((runs.get(SETUPS[0]?.name ?? "") ?? []).map((r) => r.callsPerSecond));
  return SETUPS.map((setup) => {
    const results = runs.get(setup.name) ?? [];
    const perSecond = results.map((r) => r.callsPerSecond);
    return {
      ...setup,
      runs: perSecond,
      callsPerSecond: { min: Math.min(...perSecond), median: median(perSecond), max: Math.max(...perSecond) },
      latencyP50Ms: round(median(results.map((r) => r.latency.p50))),
      latencyP95Ms: round(median(results.map((r) => r.latency.p95))),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
      ratioToOne: ratio(median(perSecond), oneProcess),
      cpuMsPerCall: {
        toolsim: perCall(results, (r) => r.toolsimCpuMs),
        database: perCall(results, (r) => r.databaseCpuMs),
        loadGenerator: perCall(results, (r) => r.cpuMs),
      },
    };
  });
}

/** Median over runs of CPU milliseconds per answered call. */
function perCall(results: readonly Measured[], cpu: (result: Measured) => number): number {
  return round(median(results.map((r) => (r.calls > 0 ? cpu(r) / r.calls : Number.NaN))), 2);
}

/**
 * Runs the load generator and samples the CPU of the serving processes and of the database
 * server (postmaster and backends) when it opens and closes its measured window.
 */
function load(servers: readonly HttpProcess[], postmaster: number, plan: LoadPlan): Promise<Measured> {
  const toolsimPids = servers.map((s) => s.pid);
  return new Promise((resolveLoad, reject) => {
    const child = spawn(process.execPath, [LOAD_GENERATOR, JSON.stringify(plan)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), (plan.seconds + plan.warmupSeconds + 60) * 1000);
    let out = "";
    let err = "";
    let samples: { toolsim: Map<number, number>; database: Map<number, number> } | undefined;
    let used = { toolsim: 0, database: 0 };
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!samples && out.includes("measuring\n")) {
        samples = { toolsim: cpuSample(toolsimPids), database: cpuSample(processTree(postmaster)) };
      }
      if (samples && used.toolsim === 0 && out.includes("measured\n")) {
        used = {
          toolsim: cpuBetween(samples.toolsim, cpuSample(toolsimPids)),
          database: cpuBetween(samples.database, cpuSample([...samples.database.keys()])),
        };
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) return reject(new Error(`the load generator failed (${code}): ${err}`));
      const result = JSON.parse(last) as LoadResult;
      resolveLoad({ ...result, toolsimCpuMs: used.toolsim, databaseCpuMs: used.database });
    });
  });
}

async function measurePerCall(
  server: PostgresServer,
  toolset: string,
  scratch: string,
): Promise<PerCallRow[]> {
  const durable = await createDatabase(server.url(), "toolsim_bench_call");
  const relaxed = await createDatabase(server.url(), "toolsim_bench_async");
  // the server's setting for these connections only, as an operator may choose per URL
  const asyncUrl = `${relaxed.url}?options=${encodeURIComponent("-c synchronous_commit=off")}`;
  const connections: StdioConnection[] = [];
  const open = async (db: string) => {
    const connection = await connectStdio([CLI, "serve", "--stdio", "--db", db, "--toolsets", toolset]);
    connections.push(connection);
    await connection.client.listTools();
    return connection;
  };
  try {
    const sides = {
      sqlite: await open(join(scratch, "per-call.db")),
      postgres: await open(durable.url),
      postgresAsyncCommit: await open(asyncUrl),
    };
    const rows: PerCallRow[] = [];
    for (const [kind, tool, args] of [
      ["read", READ_TOOL, readArgs],
      ["write", WRITE_TOOL, writeArgs],
    ] as const) {
      const names = Object.keys(sides) as Array<keyof typeof sides>;
      const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
        keyof typeof sides,
        number[]
      >;
      for (let i = 0; i < PER_CALL.warmup + PER_CALL.calls; i++) {
        // rotate which side goes first so drift on a busy machine touches all alike
        const order = names.map((_, k) => names[(i + k) % names.length] as keyof typeof sides);
        for (const name of order) {
          const started = performance.now();
          const result = await sides[name].client.callTool({ name: tool, arguments: args(i) });
          const elapsed = performance.now() - started;
          if (result.isError) throw new Error(`${name} answered ${tool} with an error`);
          if (i >= PER_CALL.warmup) times[name].push(elapsed);
        }
      }
      const sqlite = summarize(times.sqlite);
      const postgres = summarize(times.postgres);
      const postgresAsyncCommit = summarize(times.postgresAsyncCommit);
      rows.push({
        kind,
        tool,
        sqlite,
        postgres,
        postgresAsyncCommit,
        ratio: { p50: ratio(postgres.p50, sqlite.p50), mean: ratio(postgres.mean, sqlite.mean) },
        ratioAsyncCommit: {
          p50: ratio(postgresAsyncCommit.p50, sqlite.p50),
          mean: ratio(postgresAsyncCommit.mean, sqlite.mean),
        },
      });
      log(`per call ${kind}: SQLite p50 ${sqlite.p50} ms, PostgreSQL p50 ${postgres.p50} ms`);
    }
    return rows;
  } finally {
    for (const connection of connections) await connection.close().catch(() => {});
    await durable.drop();
    await relaxed.drop();
  }
}

function markdownOf(result: Omit<ScaleOutResult, "markdown">): string {
  const { throughput, perCall } = result;
  const lines = [
    `${result.postgres} on the same machine (${result.machineCores} cores shared by the database, the toolsim processes and the load generator), fsync and synchronous commit on. Figures for an operator are in [scale-out.md](scale-out.md).`,
    "",
    "### Throughput",
    "",
    `A load generator process drives ${throughput.sessions} sessions over MCP Streamable HTTP, each a closed loop of calls (a write, then a read of the bench toolset); without affinity each call goes to the next process in turn, so consecutive calls of a session always land on different processes. ${throughput.seconds} s measured per run after a warm-up; ${throughput.rounds} rounds, the order reversed every other round.`,
    "",
    "| setup | calls/s (median) | min | max | vs 1 process | call p50 ms | call p95 ms | errors | CPU ms per call: toolsim | database | load generator |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...throughput.rows.map(
      (row) =>
        `| ${row.name} | **${row.callsPerSecond.median}** | ${row.callsPerSecond.min} | ${row.callsPerSecond.max} | ${row.backend === "postgres" ? `${row.ratioToOne}×` : "–"} | ${row.latencyP50Ms} | ${row.latencyP95Ms} | ${row.errors} | ${row.cpuMsPerCall.toolsim} | ${row.backend === "postgres" ? row.cpuMsPerCall.database : "–"} | ${row.cpuMsPerCall.loadGenerator} |`,
    ),
    "",
    "CPU per call is read from /proc for every toolsim process, the PostgreSQL server (postmaster and backends) and the load generator over the measured window: on a machine shared with other work it is the steadier figure. Calls per second here are bounded by the machine's cores, which every party shares; capacity on real machines follows from the CPU per call (see scale-out.md).",
    "",
    "### Per call: PostgreSQL against SQLite",
    "",
    `One \`serve --stdio\` process per store, called in turn call by call (${perCall.calls} calls per side after ${perCall.warmup} warm-up calls), client-side milliseconds.`,
    "",
    "| call | SQLite p50 | PostgreSQL p50 | ratio p50 | ratio mean | PostgreSQL, synchronous_commit off, p50 | ratio p50 |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...perCall.rows.map(
      (row) =>
        `| ${row.kind} (\`${row.tool}\`) | ${row.sqlite.p50} | ${row.postgres.p50} | **${row.ratio.p50}×** | ${row.ratio.mean}× | ${row.postgresAsyncCommit.p50} | ${row.ratioAsyncCommit.p50}× |`,
    ),
  ];
  return lines.join("\n");
}
