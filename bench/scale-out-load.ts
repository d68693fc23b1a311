/**
 * The load generator of the scale-out bench, a process of its own so its work is not
 * counted in any server's: many sessions, each a closed loop of MCP calls over Streamable
 * HTTP (a write, then a read), each call sent to the next server in turn as a load
 * balancer without affinity would (or always to the same one with `affinity`).
 *
 *   node scale-out-load.js '{"urls": [...], "sessions": 32, "seconds": 6, "warmupSeconds": 1, "prefix": "r1"}'
 *
 * Prints "measuring" and "measured" lines when the measured window opens and closes (the
 * caller samples the servers' CPU then), and last one JSON object: calls answered in the
 * window, errors, latency summary, its own CPU time in the window.
 */
import { performance } from "node:perf_hooks";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { READ_TOOL, readArgs, WRITE_TOOL, writeArgs } from "./bench-toolset.js";
import { type Summary, summarize } from "./stats.js";

export interface LoadPlan {
  urls: string[];
  sessions: number;
  seconds: number;
  warmupSeconds: number;
  /** Session names are `${prefix}-${n}`: a new prefix per run starts new sessions. */
  prefix: string;
  /** Send each session's calls to one server only (the comparison with no affinity). */
  affinity?: boolean;
}

export interface LoadResult {
  calls: number;
  errors: number;
  firstError?: string;
  seconds: number;
  callsPerSecond: number;
  latency: Summary;
  /** CPU milliseconds the load generator itself used in the window. */
  cpuMs: number;
}

async function connect(url: string, session: string): Promise<Client> {
  const client = new Client({ name: "toolsim-bench-load", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { "X-Toolsim-Session": session } },
    }),
  );
  return client;
}

async function run(plan: LoadPlan): Promise<LoadResult> {
  const sessions = await Promise.all(
    Array.from({ length: plan.sessions }, async (_, n) => {
      const name = `${plan.prefix}-${n}`;
      const urls = plan.affinity ? [plan.urls[n % plan.urls.length] as string] : plan.urls;
      // one after the other: the first connection creates the session, the others resume it
      const clients: Client[] = [];
      for (const url of urls) clients.push(await connect(url, name));
      return clients;
    }),
  );
  const start = performance.now();
  const measureFrom = start + plan.warmupSeconds * 1000;
  const end = measureFrom + plan.seconds * 1000;
  const latencies: number[] = [];
  const window = new Promise<NodeJS.CpuUsage>((resolveWindow) => {
    setTimeout(() => {
      const atStart = process.cpuUsage();
      process.stdout.write("measuring\n");
      setTimeout(() => {
        process.stdout.write("measured\n");
        resolveWindow(process.cpuUsage(atStart));
      }, end - performance.now());
    }, measureFrom - performance.now());
  });
  let errors = 0;
  let firstError: string | undefined;
  await Promise.all(
    sessions.map(async (clients, n) => {
      for (let i = 0; performance.now() < end; i++) {
        const client = clients[(n + i) % clients.length] as Client;
        const write = i % 2 === 0;
        const started = performance.now();
        try {
          const result = await client.callTool({
            name: write ? WRITE_TOOL : READ_TOOL,
            arguments: write ? writeArgs(n + i) : readArgs(n + i - 1),
          });
          if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 300));
        } catch (error) {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
          continue;
        }
        const finished = performance.now();
        if (started >= measureFrom && finished <= end) latencies.push(finished - started);
      }
    }),
  );
  const cpuInWindow = await window;
  await Promise.all(sessions.flat().map((client) => client.close().catch(() => {})));
  return {
    calls: latencies.length,
    errors,
    ...(firstError ? { firstError } : {}),
    seconds: plan.seconds,
    callsPerSecond: Math.round(latencies.length / plan.seconds),
    latency: summarize(latencies),
    cpuMs: Math.round((cpuInWindow.user + cpuInWindow.system) / 1000),
  };
}

const plan = JSON.parse(process.argv[2] ?? "{}") as LoadPlan;
run(plan).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
