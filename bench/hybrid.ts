/**
 * Hybrid mode: what toolsim adds to a passed-through read. The same real filesystem server
 * is called directly and through `toolsim serve --stdio --upstream`, alternating call by
 * call in the same run, so drift on the machine touches both series alike.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CLI, connectStdio, PACKAGE_ROOT, type StdioConnection } from "./processes.js";
import { round, type Summary, summarize } from "./stats.js";

const FILESYSTEM_SERVER = resolve(
  PACKAGE_ROOT,
  "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);
const CALLS = 400;
const WARMUP = 40;

export async function runHybridBench(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "toolsim-bench-hybrid-"));
  const files = join(dir, "files");
  const connections: StdioConnection[] = [];
  try {
    mkdirSync(files);
    const path = join(files, "page.txt");
    writeFileSync(path, `${"a line of text for the benchmark\n".repeat(32)}`);
    const config = join(dir, "servers.json");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM_SERVER, files] } } }),
    );
    const direct = await connectStdio([FILESYSTEM_SERVER, files]);
    connections.push(direct);
    const proxied = await connectStdio([
      CLI,
      "serve",
      "--stdio",
      "--upstream",
      config,
      "--no-catalog",
      "--no-control-tools",
      "--db",
      join(dir, "bench.db"),
    ]);
    connections.push(proxied);

    const directMs: number[] = [];
    const proxiedMs: number[] = [];
    const time = async (connection: StdioConnection, name: string): Promise<number> => {
      const started = performance.now();
      const result = await connection.client.callTool({ name, arguments: { path } });
      const elapsed = performance.now() - started;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return elapsed;
    };
    for (let i = 0; i < WARMUP + CALLS; i++) {
      // alternate which goes first so neither always runs right after the other
      const order = i % 2 === 0;
      const a = await time(order ? direct : proxied, order ? "read_text_file" : "fs.read_text_file");
      const b = await time(order ? proxied : direct, order ? "fs.read_text_file" : "read_text_file");
      if (i < WARMUP) continue;
      directMs.push(order ? a : b);
      proxiedMs.push(order ? b : a);
    }
    const directSummary = summarize(directMs);
    const proxiedSummary = summarize(proxiedMs);
    const result = {
      tool: "read_text_file (1 KB file), real @modelcontextprotocol/server-filesystem over stdio",
      calls: CALLS,
      warmup: WARMUP,
      direct: directSummary,
      viaToolsim: proxiedSummary,
      ratioP50: round(proxiedSummary.p50 / directSummary.p50, 2),
      ratioP95: round(proxiedSummary.p95 / directSummary.p95, 2),
      addedP50Ms: round(proxiedSummary.p50 - directSummary.p50),
    };
    return { ...result, markdown: markdownOf(result) };
  } finally {
    for (const connection of connections) await connection.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

function markdownOf(result: {
  tool: string;
  calls: number;
  direct: Summary;
  viaToolsim: Summary;
  ratioP50: number;
  ratioP95: number;
  addedP50Ms: number;
}): string {
  return [
    `A passed-through read: ${result.tool}; ${result.calls} calls each, alternating, after a warm-up.`,
    "",
    "| path | p50 ms | p95 ms |",
    "| --- | ---: | ---: |",
    `| client → real server | ${result.direct.p50} | ${result.direct.p95} |`,
    `| client → toolsim → real server | ${result.viaToolsim.p50} | ${result.viaToolsim.p95} |`,
    `| ratio (toolsim / direct) | ${result.ratioP50}× | ${result.ratioP95}× |`,
    "",
    `toolsim adds about ${result.addedP50Ms} ms at the median: one more stdio hop, the overlay check, and the call's SQLite transaction (logged with its overlay patch).`,
  ].join("\n");
}
