import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { leavesOf, sameValue } from "./compare.js";
import { McpConnection, type Reply, type StdioServer } from "./mcp-client.js";
import { type CatalogReport, reportOf, runFresh, sample } from "./self-consistency.js";
import { type Kind, plansFor, type SequenceRun, type Step, short, type World } from "./sequences.js";
import { profileTools } from "./tool-roles.js";
import { runCli, startServer } from "./toolsim-process.js";

/**
 * toolsim against the real MCP servers the project installs: each is imported with
 * `toolsim import mcp`, then the same generated sequences run on the real server (a fresh
 * folder or memory file per sequence) and on toolsim serving the imported toolset alone
 * (offline, no upstream: a pure simulation), and the answers are compared call by call.
 */

const BIN = resolve(import.meta.dirname, "../../node_modules/.bin");

export const MCP_SERVER_KINDS: ReadonlySet<Kind> = new Set([
  "create-read",
  "update-read",
  "delete-read",
  "list-after-create",
  "single-call",
]);

interface RealServer {
  name: string;
  /** The server for one sequence, started on a fresh world. */
  start(world: string): StdioServer;
  /** The folder paths are made under, when the server is a file system. */
  pathRoot?(world: string): string;
}

const SERVERS: readonly RealServer[] = [
  {
    name: "server-memory",
    start: (world) => ({
      command: join(BIN, "mcp-server-memory"),
      args: [],
      env: { MEMORY_FILE_PATH: join(world, "memory.jsonl") },
    }),
  },
  {
    name: "server-filesystem",
    start: (world) => ({ command: join(BIN, "mcp-server-filesystem"), args: [join(world, "files")] }),
    pathRoot: (world) => join(world, "files"),
  },
];

export interface Disagreement {
  tool: string;
  args: string;
  real: string;
  toolsim: string;
}

export interface ServerReport {
  server: string;
  sequences: number;
  /** Calls answered on both sides and compared. */
  compared: number;
  agreed: number;
  /** Steps one side made and the other did not (a sequence that went another way). */
  unmatched: number;
  byTool: Record<string, { compared: number; agreed: number }>;
  examples: Disagreement[];
  /** The same checks of self-consistency, on each side: the real server is the measuring stick's control. */
  real: CatalogReport;
  toolsim: CatalogReport;
  error?: string;
}

export async function mcpServersSection(options: {
  rounds: number;
  limit: number;
  log?: (line: string) => void;
}): Promise<ServerReport[]> {
  const reports: ServerReport[] = [];
  for (const server of SERVERS) {
    const work = mkdtempSync(join(tmpdir(), "toolsim-mcp-servers-"));
    try {
      reports.push(await compareServer(server, work, options));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return reports;
}

async function compareServer(
  server: RealServer,
  work: string,
  options: { rounds: number; limit: number; log?: (line: string) => void },
): Promise<ServerReport> {
  // one world path for every sequence, emptied in between: both sides see the same paths
  const world = join(work, "world");
  freshWorld(world);
  const spec = server.start(world);
  const toolset = join(work, `${server.name}.json`);
  const env = Object.entries(spec.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  options.log?.(`${server.name}: toolsim import mcp`);
  const imported = await runCli([
    "import",
    "mcp",
    "--out",
    toolset,
    ...env,
    "--",
    spec.command,
    ...spec.args,
  ]);
  if (imported.code !== 0)
    return failed(server.name, `toolsim import mcp failed: ${imported.stderr.slice(0, 300)}`);

  const probe = await McpConnection.open(spec);
  const tools = await probe.tools();
  await probe.close();
  const profiles = profileTools(tools);
  const base: World = { profiles };
  if (server.pathRoot) base.pathRoot = server.pathRoot(world);
  const plans = sample(plansFor(base, MCP_SERVER_KINDS), options.limit);

  const sim = await startServer([
    "--toolsets",
    toolset,
    "--no-control-tools",
    "--engine",
    "offline",
    "--db",
    join(work, "toolsim.db"),
  ]);
  const realRuns: SequenceRun[] = [];
  const simRuns: SequenceRun[] = [];
  try {
    let seed = 0;
    for (let round = 0; round < options.rounds; round++)
      for (const plan of plans) {
        seed++;
        freshWorld(world);
        realRuns.push(await runFresh(plan, base, seed, () => McpConnection.open(spec)));
        simRuns.push(await runFresh(plan, base, seed, () => McpConnection.open({ url: sim.url })));
      }
  } finally {
    await sim.stop();
  }
  options.log?.(`${server.name}: ${realRuns.length} sequences on each side`);
  const allPlans = Array.from({ length: options.rounds }, () => plans).flat();
  return {
    server: server.name,
    sequences: realRuns.length,
    ...compareRuns(realRuns, simRuns),
    real: reportOf(`${server.name} (real)`, profiles, allPlans, realRuns),
    toolsim: reportOf(`${server.name} (toolsim)`, profiles, allPlans, simRuns),
  };
}

function freshWorld(world: string): void {
  rmSync(world, { recursive: true, force: true });
  mkdirSync(join(world, "files"), { recursive: true });
}

/** Call-by-call agreement of two runs of the same sequences. */
export function compareRuns(
  real: readonly SequenceRun[],
  sim: readonly SequenceRun[],
): Pick<ServerReport, "compared" | "agreed" | "unmatched" | "byTool" | "examples"> {
  let compared = 0;
  let agreed = 0;
  let unmatched = 0;
  const byTool: ServerReport["byTool"] = {};
  const examples: Disagreement[] = [];
  real.forEach((run, i) => {
    const other = sim[i]?.steps ?? [];
    const steps = Math.max(run.steps.length, other.length);
    for (let k = 0; k < steps; k++) {
      const a = run.steps[k];
      const b = other[k];
      if (!a || !b || a.tool !== b.tool) {
        unmatched++;
        continue;
      }
      compared++;
      const entry = byTool[a.tool] ?? { compared: 0, agreed: 0 };
      entry.compared++;
      byTool[a.tool] = entry;
      if (sameAnswer(a.reply, b.reply)) {
        agreed++;
        entry.agreed++;
      } else if (examples.filter((e) => e.tool === a.tool).length < 2) examples.push(disagreement(a, b));
    }
  });
  return { compared, agreed, unmatched, byTool, examples };
}

function disagreement(real: Step, sim: Step): Disagreement {
  const show = (reply: Reply) =>
    `${reply.isError ? "error " : ""}${short(reply.isError ? reply.text : reply.value)}`;
  return { tool: real.tool, args: short(real.args), real: show(real.reply), toolsim: show(sim.reply) };
}

/**
 * Two answers agree when both fail, or both succeed with the same content: the same leaves
 * (path → value) for structured answers, the same text (times masked) where the real answer
 * is text.
 */
export function sameAnswer(real: Reply, sim: Reply): boolean {
  if (real.isError || sim.isError) return real.isError === sim.isError;
  const text = textOf(real.value);
  if (text !== undefined) return normalizedText(text) === normalizedText(textOf(sim.value) ?? sim.text);
  const want = leavesOf(real.value);
  const have = leavesOf(sim.value);
  if (want.size !== have.size) return false;
  for (const [path, value] of want) if (!have.has(path) || !sameValue(have.get(path), value)) return false;
  return true;
}

/** The text of an answer that is text: a string, or an object whose only field is one (`{content: "…"}`). */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.values(value);
    if (entries.length === 1 && typeof entries[0] === "string") return entries[0];
  }
  return undefined;
}

/** A file system's text with what no simulation can know masked: timestamps. */
export function normalizedText(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?/g, "<time>")
    .replace(
      /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} \d{1,2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}( \([^)]*\))?/g,
      "<time>",
    )
    .replace(/\r\n/g, "\n")
    .trim();
}

function failed(server: string, error: string): ServerReport {
  const empty = reportOf(server, [], [], []);
  return {
    server,
    sequences: 0,
    compared: 0,
    agreed: 0,
    unmatched: 0,
    byTool: {},
    examples: [],
    real: empty,
    toolsim: empty,
    error,
  };
}

export function renderMcpServers(reports: readonly ServerReport[]): string {
  const lines = ["== against real MCP servers"];
  const share = (a: number, b: number) => (b === 0 ? "—" : (a / b).toFixed(2));
  for (const r of reports) {
    if (r.error) {
      lines.push(`  ${r.server}: FAILED: ${r.error}`);
      continue;
    }
    lines.push(
      `  ${r.server}: ${r.sequences} sequences; answers agreeing ${r.agreed} / ${r.compared} = ${share(r.agreed, r.compared)}; steps one side made alone ${r.unmatched}`,
    );
    for (const [tool, t] of Object.entries(r.byTool).sort())
      lines.push(`    ${tool}: ${t.agreed} / ${t.compared}`);
    for (const e of r.examples)
      lines.push(`    e.g. ${e.tool} ${e.args}\n      real:    ${e.real}\n      toolsim: ${e.toolsim}`);
    for (const side of [r.real, r.toolsim]) {
      lines.push(
        `    contradictions on ${side.catalog}: ${side.total.contradicted} of ${side.total.checked} checks`,
      );
      for (const [kind, tally] of Object.entries(side.contradictions))
        if (tally.checked > 0) {
          lines.push(`      ${kind}: ${tally.contradicted} / ${tally.checked}`);
          for (const example of tally.examples.slice(0, 2)) lines.push(`        e.g. ${example}`);
        }
    }
  }
  return `${lines.join("\n")}\n`;
}
