import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkResult, RULES, type Rule } from "./coherence-rules.js";
import { McpConnection } from "./mcp-client.js";
import { argumentsFor, isObject, type Schema } from "./schema-values.js";
import { wordsOf } from "./tool-roles.js";
import { runCli, startServer } from "./toolsim-process.js";

/**
 * Are synthesized results coherent? SynthTools is imported with the CLI (`--no-infer`: the
 * results are the synthesizer's, not inferred effects'), each toolset's state gets a small
 * collection for every `*_id` its tools answer and the clock a start (catalog files are the
 * user's to edit), `toolsim serve --no-infer` serves it, and every tool with an output schema
 * is called a few times over MCP with arguments made from its input schema and the state.
 * Every answer is checked by the rules of `coherence-rules.ts`, which know nothing of how
 * toolsim answers.
 */

const NOW = "2026-03-02T09:00:00Z";
const CALLS_PER_TOOL = 3;
const EXAMPLES_PER_RULE = 5;

export interface CoherenceReport {
  tools: number;
  calls: number;
  /** Calls toolsim refused as invalid or answered with an error: not judged. */
  unanswered: number;
  toolsWithViolations: number;
  rules: Record<Rule, { checked: number; violated: number }>;
  examples: Array<{ tool: string; rule: Rule; field: string; detail: string }>;
}

export async function coherenceSection(dir: string, log?: (line: string) => void): Promise<CoherenceReport> {
  const work = mkdtempSync(join(tmpdir(), "toolsim-coherence-"));
  try {
    const out = join(work, "toolsets");
    const imported = await runCli(["import", "synthtools", dir, "--out", out, "--no-infer", "--quiet"]);
    if (imported.code !== 0)
      throw new Error(`toolsim import synthtools failed: ${imported.stderr.slice(0, 400)}`);
    const states = giveStates(out);
    const server = await startServer([
      "--toolsets",
      out,
      "--no-infer",
      "--no-control-tools",
      "--engine",
      "offline",
      "--db",
      join(work, "toolsim.db"),
    ]);
    try {
      return await judge(server.url, states, log);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Each toolset gets the state its answers can name: for every `*_id` string field of an
 * output schema, a collection of three entities; and the simulated clock. Returns the states
 * by tool name.
 */
function giveStates(dir: string): Map<string, Record<string, unknown>> {
  const byTool = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const path = join(dir, file);
    const toolset = JSON.parse(readFileSync(path, "utf8")) as {
      state?: Record<string, unknown>;
      tools?: Array<{ name: string; outputSchema?: unknown }>;
    };
    const state: Record<string, unknown> = { ...(toolset.state ?? {}) };
    for (const tool of toolset.tools ?? [])
      for (const noun of idNouns(tool.outputSchema)) state[`${noun}s`] ??= entities(noun);
    state.runtime = { ...(isObject(state.runtime) ? state.runtime : {}), now: NOW };
    toolset.state = state;
    writeFileSync(path, JSON.stringify(toolset));
    for (const tool of toolset.tools ?? []) byTool.set(tool.name, state);
  }
  return byTool;
}

/** The nouns of the `*_id` string fields a schema declares, at any depth. */
function idNouns(schema: unknown): Set<string> {
  const nouns = new Set<string>();
  const visit = (node: unknown, depth: number) => {
    if (!isObject(node) || depth > 12) return;
    const properties = isObject(node.properties) ? node.properties : {};
    for (const [name, property] of Object.entries(properties)) {
      const words = wordsOf(name);
      if (words.length > 1 && words.at(-1) === "id" && isObject(property) && property.type === "string")
        nouns.add(words.slice(0, -1).join("_"));
      visit(property, depth + 1);
    }
    visit(node.items, depth + 1);
  };
  visit(schema, 0);
  return nouns;
}

function entities(noun: string): Record<string, unknown> {
  const prefix = noun.replace(/_/g, "").slice(0, 3).toUpperCase() || "ID";
  return Object.fromEntries(
    [1001, 1002, 1003].map((n) => [
      `${prefix}-${n}`,
      { [`${noun}_id`]: `${prefix}-${n}`, name: `${noun} ${n}` },
    ]),
  );
}

async function judge(
  url: string,
  states: ReadonlyMap<string, Record<string, unknown>>,
  log?: (line: string) => void,
): Promise<CoherenceReport> {
  const lister = await McpConnection.open({ url });
  const tools = (await lister.tools()).filter((t) => t.outputSchema);
  await lister.close();
  const report: CoherenceReport = {
    tools: tools.length,
    calls: 0,
    unanswered: 0,
    toolsWithViolations: 0,
    rules: Object.fromEntries(RULES.map((r) => [r, { checked: 0, violated: 0 }])) as CoherenceReport["rules"],
    examples: [],
  };
  // one session per toolset: its tools share the state the catalog file gave it
  const byToolset = new Map<Record<string, unknown>, typeof tools>();
  for (const tool of tools) {
    const state = states.get(tool.name) ?? {};
    byToolset.set(state, [...(byToolset.get(state) ?? []), tool]);
  }
  let done = 0;
  for (const [state, members] of byToolset) {
    const session = await McpConnection.open({ url });
    try {
      for (const tool of members) {
        if (log && done % 1000 === 0) log(`coherence: tool ${done + 1} of ${tools.length}`);
        done++;
        if (await judgeTool(session, tool, state, report)) report.toolsWithViolations++;
      }
    } finally {
      await session.close();
    }
  }
  return report;
}

/** A few calls of one tool, each answer checked; whether any broke a rule. */
async function judgeTool(
  session: McpConnection,
  tool: { name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> },
  state: Record<string, unknown>,
  report: CoherenceReport,
): Promise<boolean> {
  let violated = false;
  for (let seed = 1; seed <= CALLS_PER_TOOL; seed++) {
    report.calls++;
    const args = argumentsFor(tool.inputSchema as Schema, { seed, hint: (name) => existingId(name, state) });
    const reply = await session.call(tool.name, args.value as Record<string, unknown>);
    if (reply.isError) {
      report.unanswered++;
      continue;
    }
    for (const finding of await findingsOf(session, reply.value, tool.outputSchema, state)) {
      const tally = report.rules[finding.rule];
      tally.checked++;
      if (finding.held) continue;
      tally.violated++;
      violated = true;
      if (report.examples.filter((e) => e.rule === finding.rule).length < EXAMPLES_PER_RULE)
        report.examples.push({
          tool: tool.name,
          rule: finding.rule,
          field: finding.field,
          detail: finding.detail,
        });
    }
  }
  return violated;
}

/** An id the state holds, for an argument named `<noun>_id`. */
function existingId(name: string, state: Record<string, unknown>): string | undefined {
  const words = wordsOf(name);
  if (words.length < 2 || words.at(-1) !== "id") return undefined;
  const collection = state[`${words.slice(0, -1).join("_")}s`];
  return isObject(collection) ? Object.keys(collection)[0] : undefined;
}

/**
 * Violations of `past` and `reference` judged against the starting state are judged again
 * against the session's state after the call: a call that changed the state moved the clock
 * and may have added the entity it names.
 */
async function findingsOf(
  session: McpConnection,
  value: unknown,
  schema: unknown,
  state: Record<string, unknown>,
) {
  const first = checkResult(value, schema, { now: NOW, state });
  if (first.every((f) => f.held || (f.rule !== "past" && f.rule !== "reference"))) return first;
  const current = await session.state();
  if (!current) return first;
  const runtime = isObject(current.runtime) ? current.runtime : {};
  return checkResult(value, schema, {
    now: typeof runtime.now === "string" ? runtime.now : NOW,
    state: current,
  });
}
