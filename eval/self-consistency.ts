import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { scalarsOf } from "./answers.js";
import { McpConnection } from "./mcp-client.js";
import {
  CONTRADICTIONS,
  type Contradiction,
  type Kind,
  type Plan,
  plansFor,
  type SequenceRun,
  type World,
} from "./sequences.js";
import { type DeclaredEffect, profileTools } from "./tool-roles.js";
import { runCli, startServer } from "./toolsim-process.js";

/**
 * Self-consistency with no ground truth: each catalog is imported with the real CLI, served
 * (`toolsim serve --http`, offline), and generated sequences run over MCP with the real SDK
 * client, each in a fresh session: create → read, update → read, delete → read, list after
 * create, every id answered → readable, every result inside its output schema. Every
 * contradiction between an answer and what earlier answers established is counted, with the
 * first few examples of each.
 */

export const SHIPPED_TOOLSETS = resolve(import.meta.dirname, "../../toolsets");

export const CONSISTENCY_KINDS: ReadonlySet<Kind> = new Set([
  "create-read",
  "update-read",
  "delete-read",
  "list-after-create",
  "single-call",
]);

const EXAMPLES = 3;

export interface Tally {
  checked: number;
  contradicted: number;
  examples: string[];
}

export interface CatalogReport {
  catalog: string;
  tools: number;
  /** Tools by what they were read to do (create, read, …) and how (from effects, from names). */
  roles: Record<string, number>;
  sequences: Record<string, { planned: number; checked: number }>;
  calls: number;
  /** Calls toolsim refused as invalid: the generator's fault, not toolsim's; counted to keep the stick honest. */
  rejected: { calls: number; examples: string[] };
  /** Sequences that stopped before their checks, grouped by why. */
  stopped: Array<[string, number]>;
  contradictions: Record<Contradiction, Tally>;
  /** Contradictions of every kind, over checks of every kind. */
  total: { checked: number; contradicted: number };
  error?: string;
}

export interface CatalogSource {
  name: string;
  /** Prepares the toolset folder (an import with the CLI); returns it, or an error text. */
  prepare(work: string): Promise<string | { error: string }>;
}

/** The catalogs of the data folders given (each imported as a user would) and the shipped toolsets. */
export function consistencySources(paths: {
  synthtools?: string;
  bfcl?: string;
  tau?: string;
  toolalpaca?: string;
}): CatalogSource[] {
  const sources: CatalogSource[] = [{ name: "shipped toolsets", prepare: async () => SHIPPED_TOOLSETS }];
  if (paths.synthtools) sources.push(imported("SynthTools", ["synthtools", paths.synthtools]));
  if (paths.bfcl) sources.push(imported("BFCL function docs", ["bfcl", paths.bfcl]));
  if (paths.tau)
    for (const domain of ["airline", "retail"])
      sources.push(
        imported(`τ-bench ${domain}`, [
          "openai",
          join(paths.tau, domain, "tools.json"),
          "--state",
          join(paths.tau, domain, "db"),
          "--id",
          `tau_${domain}`,
        ]),
      );
  if (paths.toolalpaca) {
    const dir = paths.toolalpaca;
    sources.push({ name: "ToolAlpaca", prepare: (work) => importToolAlpaca(dir, work) });
  }
  return sources;
}

/** `toolsim import FORMAT SOURCE … --out DIR`, as a user runs it. */
function imported(name: string, args: readonly string[]): CatalogSource {
  return {
    name,
    async prepare(work) {
      const out = join(work, "toolsets");
      const run = await runCli(["import", ...args, "--out", out, "--quiet"]);
      if (run.code !== 0)
        return { error: `toolsim import ${args[0]} failed (${run.code}): ${run.stderr.slice(0, 400)}` };
      return out;
    },
  };
}

/** ToolAlpaca keeps each API's OpenAPI document as text in its eval files: each is written out and imported. */
export async function importToolAlpaca(dir: string, work: string): Promise<string | { error: string }> {
  const specs = toolAlpacaSpecs(dir);
  const out = join(work, "toolsets");
  const docs = join(work, "specs");
  mkdirSync(docs, { recursive: true });
  const failures: string[] = [];
  for (const [i, spec] of specs.entries()) {
    const file = join(docs, `${String(i).padStart(2, "0")}-${spec.slug}.json`);
    writeFileSync(file, spec.text);
    const run = await runCli(["import", "openapi", file, "--out", out, "--quiet", "--id", `${spec.slug}`]);
    if (run.code !== 0) failures.push(`${spec.name}: ${run.stderr.trim().split("\n")[0] ?? run.code}`);
  }
  if (failures.length === specs.length) return { error: failures.slice(0, 3).join("; ") };
  return out;
}

export function toolAlpacaSpecs(dir: string): Array<{ name: string; slug: string; text: string }> {
  const specs: Array<{ name: string; slug: string; text: string }> = [];
  const slugs = new Set<string>();
  for (const file of ["eval_real.json", "eval_simulated.json"]) {
    let apis: unknown;
    try {
      apis = JSON.parse(readFileSync(join(dir, file), "utf8"));
    } catch {
      continue;
    }
    if (!Array.isArray(apis)) continue;
    for (const api of apis as Array<Record<string, unknown>>) {
      const name = String(api.Name ?? "api");
      let slug =
        name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "_")
          .replace(/^_+|_+$/g, "") || "api";
      while (slugs.has(slug)) slug = `${slug}_2`;
      slugs.add(slug);
      if (typeof api.Documentation === "string") specs.push({ name, slug, text: api.Documentation });
    }
  }
  return specs;
}

/** What the catalog files of a folder declare: each tool's effects, and its toolset. */
export function declaredEffects(dir: string): {
  effects: Map<string, DeclaredEffect[]>;
  groups: Map<string, string>;
} {
  const effects = new Map<string, DeclaredEffect[]>();
  const groups = new Map<string, string>();
  for (const file of toolsetFiles(dir)) {
    let toolset: unknown;
    try {
      toolset = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    const { tools, id } = toolset as { tools?: unknown; id?: unknown };
    if (!Array.isArray(tools)) continue;
    for (const tool of tools as Array<{ name?: unknown; effects?: unknown }>) {
      if (typeof tool.name !== "string") continue;
      if (typeof id === "string") groups.set(tool.name, id);
      if (Array.isArray(tool.effects)) effects.set(tool.name, tool.effects as DeclaredEffect[]);
    }
  }
  return { effects, groups };
}

function toolsetFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? toolsetFiles(join(path, entry.name))
      : entry.name.endsWith(".json")
        ? [join(path, entry.name)]
        : [],
  );
}

export interface RunOptions {
  kinds: ReadonlySet<Kind>;
  /** At most this many sequences per catalog (0: all), chosen evenly over the plan list. */
  limit: number;
  /** Progress lines on stderr. */
  log?: (line: string) => void;
}

/** Serves a toolset folder with toolsim (offline, no control tools) and runs the sequences. */
export async function runOnToolsim(
  name: string,
  dir: string,
  work: string,
  options: RunOptions,
): Promise<CatalogReport> {
  const server = await startServer([
    "--toolsets",
    dir,
    "--no-control-tools",
    "--engine",
    "offline",
    "--db",
    join(work, "toolsim.db"),
  ]);
  try {
    return await sequencesAt(name, server.url, dir, options);
  } finally {
    await server.stop();
  }
}

/**
 * The sequences of a catalog served at `url` (its files in `dir`, for the effects they
 * declare), each in a fresh MCP session.
 */
export async function sequencesAt(
  name: string,
  url: string,
  dir: string,
  options: RunOptions,
): Promise<CatalogReport> {
  const first = await McpConnection.open({ url });
  const tools = await first.tools();
  const state = (await first.state()) ?? {};
  await first.close();
  const declared = declaredEffects(dir);
  const profiles = profileTools(tools, declared.effects, declared.groups);
  const world: World = { profiles, state, known: scalarsOf(state) };
  const plans = repeated(sample(plansFor(world, options.kinds), options.limit));
  const runs: SequenceRun[] = [];
  for (const [i, plan] of plans.entries()) {
    if (options.log && i % 250 === 0) options.log(`${name}: sequence ${i + 1} of ${plans.length}`);
    runs.push(await runFresh(plan, world, i + 1, () => McpConnection.open({ url })));
  }
  return reportOf(name, profiles, plans, runs);
}

/** One sequence in a fresh connection (a fresh session, a fresh world). */
export async function runFresh(
  plan: Plan,
  world: World,
  seed: number,
  open: () => Promise<McpConnection>,
): Promise<SequenceRun> {
  const connection = await open();
  try {
    return await plan.run((tool, args) => connection.call(tool, args), world, seed);
  } finally {
    await connection.close().catch(() => {});
  }
}

/**
 * A small catalog's plans run several times, each with other arguments (other seeds), so
 * that a catalog of a few dozen tools is measured on a few hundred sequences; a large one
 * runs once.
 */
export function repeated<T>(plans: readonly T[], target = 300, most = 5): T[] {
  if (plans.length === 0) return [];
  const rounds = Math.min(most, Math.max(1, Math.ceil(target / plans.length)));
  return Array.from({ length: rounds }, () => plans).flat();
}

/** Every n-th plan, so a limited run still covers every kind and every part of the catalog. */
export function sample<T>(plans: readonly T[], limit: number): T[] {
  if (limit <= 0 || plans.length <= limit) return [...plans];
  const step = plans.length / limit;
  return Array.from({ length: limit }, (_, i) => plans[Math.floor(i * step)] as T);
}

export function reportOf(
  catalog: string,
  profiles: ReadonlyArray<{ role: string; via: string }>,
  plans: readonly Plan[],
  runs: readonly SequenceRun[],
): CatalogReport {
  const roles: Record<string, number> = {};
  for (const p of profiles) roles[`${p.role} (${p.via})`] = (roles[`${p.role} (${p.via})`] ?? 0) + 1;
  const sequences: CatalogReport["sequences"] = {};
  for (const plan of plans) {
    const entry = sequences[plan.kind] ?? { planned: 0, checked: 0 };
    entry.planned++;
    sequences[plan.kind] = entry;
  }
  const contradictions = Object.fromEntries(
    CONTRADICTIONS.map((c) => [c, { checked: 0, contradicted: 0, examples: [] as string[] }]),
  ) as Record<Contradiction, Tally>;
  const rejected = { calls: 0, examples: [] as string[] };
  const stopped = new Map<string, number>();
  let calls = 0;
  for (const run of runs) {
    calls += run.steps.length;
    const kindEntry = sequences[run.kind];
    if (kindEntry && run.checks.some((c) => c.kind !== "outside-output-schema")) kindEntry.checked++;
    for (const step of run.steps)
      if (step.reply.rejected) {
        rejected.calls++;
        if (rejected.examples.length < EXAMPLES)
          rejected.examples.push(
            `${step.tool} ${JSON.stringify(step.args).slice(0, 120)}: ${step.reply.text.slice(0, 200)}`,
          );
      }
    if (run.stopped) {
      const why = run.stopped.replace(/\d+/g, "…").slice(0, 100);
      stopped.set(why, (stopped.get(why) ?? 0) + 1);
    }
    for (const check of run.checks) {
      const tally = contradictions[check.kind];
      tally.checked++;
      if (check.ok) continue;
      tally.contradicted++;
      if (tally.examples.length < EXAMPLES) tally.examples.push(`${run.label}: ${check.detail}`);
    }
  }
  const all = Object.values(contradictions);
  return {
    catalog,
    tools: profiles.length,
    roles,
    sequences,
    calls,
    rejected,
    stopped: [...stopped].sort((a, b) => b[1] - a[1]).slice(0, 8),
    contradictions,
    total: {
      checked: all.reduce((n, t) => n + t.checked, 0),
      contradicted: all.reduce((n, t) => n + t.contradicted, 0),
    },
  };
}

/** `npm run eval -- --consistency`: every catalog given, and the shipped toolsets. */
export async function consistencySection(
  sources: readonly CatalogSource[],
  options: RunOptions,
): Promise<CatalogReport[]> {
  const reports: CatalogReport[] = [];
  for (const source of sources) {
    const work = mkdtempSync(join(tmpdir(), "toolsim-consistency-"));
    try {
      options.log?.(`${source.name}: importing`);
      const dir = await source.prepare(work);
      if (typeof dir !== "string") {
        reports.push(failedReport(source.name, dir.error));
        continue;
      }
      options.log?.(`${source.name}: running sequences`);
      reports.push(await runOnToolsim(source.name, dir, work, options));
    } catch (error) {
      reports.push(failedReport(source.name, error instanceof Error ? error.message : String(error)));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return reports;
}

function failedReport(catalog: string, error: string): CatalogReport {
  const report = reportOf(catalog, [], [], []);
  report.error = error;
  return report;
}

/** The report as text: one block per catalog. */
export function renderConsistency(title: string, reports: readonly CatalogReport[]): string {
  const lines = [`== ${title}`];
  for (const r of reports) {
    lines.push(`  ${r.catalog}${r.error ? `: FAILED: ${r.error}` : ""}`);
    if (r.error) continue;
    lines.push(`    tools ${r.tools}; roles ${JSON.stringify(r.roles)}`);
    lines.push(
      `    sequences ${Object.entries(r.sequences)
        .map(([k, v]) => `${k} ${v.checked}/${v.planned}`)
        .join(", ")} (reaching a check / planned); calls ${r.calls}, rejected as invalid ${r.rejected.calls}`,
    );
    for (const example of r.rejected.examples) lines.push(`      rejected: ${example}`);
    for (const [why, n] of r.stopped) lines.push(`      stopped ${n}×: ${why}`);
    lines.push(`    contradictions ${r.total.contradicted} of ${r.total.checked} checks`);
    for (const [kind, tally] of Object.entries(r.contradictions)) {
      if (tally.checked === 0) continue;
      lines.push(`      ${kind}: ${tally.contradicted} / ${tally.checked}`);
      for (const example of tally.examples) lines.push(`        e.g. ${example}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
