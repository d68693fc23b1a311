import {
  Catalog,
  formatProblem,
  loadToolsetText,
  parseTemplate,
  type StateDocument,
  type Tool,
  type Toolset,
} from "../catalog/index.js";
import { auditToolsets } from "../catalog-audit/index.js";
import { clockOf, Engine, runEffects, validateArguments } from "../engine/index.js";
import { isPlainObject } from "../patch/index.js";
import { OfflineSimulator, synthesize } from "../simulate/index.js";
import { openStore } from "../store/index.js";

/** Where problems of a model's answer are said to be: the answer, not a file on disk. */
export const ANSWER_FILE = "model answer";

export interface CheckedEffects {
  /** The candidate tool, when its effects have the format's shape (lint may still object). */
  tool?: Tool;
  /** Everything lint and the replay found wrong, one line each. */
  problems: string[];
  /** Calls replayed against the state, and how many of them were answered as the rules expect. */
  replayed: { ok: number; total: number };
}

/**
 * Checks effects a model wrote for one tool of a toolset: lint (format, codes, arguments,
 * bindings, expressions), then a replay against the toolset's and its tasks' states: the
 * audit's stress cases for the tool, and every task's golden solution.
 */
export async function checkEffects(
  toolset: Toolset,
  toolName: string,
  effects: unknown,
  perMode: number,
): Promise<CheckedEffects> {
  const linted = lintCandidate(toolset, toolName, effects);
  const tool = linted.toolset?.tools.find((t) => t.name === toolName);
  if (!linted.toolset || !tool || linted.problems.length > 0)
    return { tool, problems: linted.problems, replayed: { ok: 0, total: 0 } };
  const replay = await replayCandidate(linted.toolset, tool, perMode);
  return { tool, ...replay };
}

function lintCandidate(toolset: Toolset, toolName: string, effects: unknown) {
  const index = toolset.tools.findIndex((t) => t.name === toolName);
  const tools = toolset.tools.map((t, i) => (i === index ? { ...t, effects } : t));
  const loaded = loadToolsetText(ANSWER_FILE, JSON.stringify({ ...toolset, tools }), { checkSchemas: false });
  const own = `tools[${index}]`;
  const problems = loaded.problems
    .filter((p) => p.severity === "error" && (p.path === own || p.path.startsWith(`${own}.`)))
    .map((p) => formatProblem({ ...p, path: p.path.replace(own, toolName) }));
  return { toolset: loaded.toolset, problems };
}

async function replayCandidate(
  toolset: Toolset,
  tool: Tool,
  perMode: number,
): Promise<Omit<CheckedEffects, "tool">> {
  const catalog = new Catalog([{ file: ANSWER_FILE, toolset }]);
  const store = await openStore(":memory:");
  const offline = new OfflineSimulator();
  const engine = new Engine({ catalog, store, simulator: offline, offline });
  try {
    const audit = await auditToolsets(engine, [toolset], { perMode, tools: [tool.name] });
    const problems: string[] = [];
    let ok = 0;
    let total = 0;
    for (const c of audit.tools[0]?.cases ?? []) {
      // schema-failure cases test the input schema, which no effect changes (an open schema fails them whatever the effects)
      if (c.mode === "schema-failure") continue;
      const broken = c.answer === "error EFFECT_FAILED";
      if (c.verdict === "not-judged" && !broken) continue;
      total++;
      if (c.verdict === "pass" && !broken) {
        ok++;
        continue;
      }
      const why = broken ? await effectFailure(toolset, tool, c.args) : c.reasons.join("; ");
      problems.push(`${c.mode} case "${c.label}" ${JSON.stringify(c.args)}: answered ${c.answer}: ${why}`);
    }
    const golden = await replaySolutions(engine, toolset, tool);
    const probes = await probeKnownEntities(toolset, tool);
    return {
      problems: [...problems, ...golden.problems, ...probes.problems],
      replayed: { ok: ok + golden.ok + probes.ok, total: total + golden.total + probes.total },
    };
  } finally {
    await store.close();
  }
}

/** The message of an EFFECT_FAILED answer, from the first known state that produces it. */
async function effectFailure(toolset: Toolset, tool: Tool, args: Record<string, unknown>): Promise<string> {
  const states: StateDocument[] = [toolset.state, ...toolset.tasks.map((t) => t.state)];
  for (const state of states) {
    const ran = await runEffects(tool, args, state, clockOf(state));
    if (ran.status === "failed" && ran.failure.code === "EFFECT_FAILED") return ran.failure.message;
  }
  return "an effect could not run";
}

/**
 * Calls naming entities that exist: the audit only asks about entities the effects accept,
 * so an expression that fails on every real entity would go unseen. Arguments come from
 * the input schema, with each key argument of a target bound to keys of its collection.
 */
async function probeKnownEntities(toolset: Toolset, tool: Tool) {
  const problems = new Set<string>();
  let ok = 0;
  let total = 0;
  const keyed = keyArguments(tool);
  const states: StateDocument[] = [toolset.state, ...toolset.tasks.map((t) => t.state)];
  for (let variant = 0; variant < PROBES; variant++) {
    const state = states[variant % states.length] as StateDocument;
    const args = synthesize(tool.inputSchema, { seed: variant + 1, now: clockOf(state) }) as Record<
      string,
      unknown
    >;
    for (const { argument, collection } of keyed) {
      const keys = Object.keys(collectionOf(state, collection)).sort();
      if (keys.length > 0) args[argument] = keys[variant % keys.length];
    }
    if (!validateArguments(tool, args).ok) continue;
    const ran = await runEffects(tool, args, state, clockOf(state));
    total++;
    if (ran.status === "failed" && ran.failure.code === "EFFECT_FAILED")
      problems.add(
        `a call naming existing entities ${JSON.stringify(args)}: answered EFFECT_FAILED: ${ran.failure.message}`,
      );
    else ok++;
  }
  return { problems: [...problems], ok, total };
}

const PROBES = 6;

/** Arguments that name an entity: the key of a target "collection/{argument}". */
function keyArguments(tool: Tool): Array<{ argument: string; collection: string }> {
  const found: Array<{ argument: string; collection: string }> = [];
  for (const effect of tool.effects) {
    if (!("target" in effect)) continue;
    const [collection, key] = effect.target.split("/");
    const parts = key ? parseTemplate(key) : [];
    const only = parts.length === 1 ? parts[0] : undefined;
    if (collection && only && "ref" in only && only.ref.source === "argument" && only.ref.path.length === 1)
      found.push({ argument: only.ref.path[0] as string, collection });
  }
  return found;
}

function collectionOf(state: StateDocument, name: string): Record<string, unknown> {
  const value = state[name];
  return isPlainObject(value) ? value : {};
}

/** Golden solutions that call the tool: each call of a valid task must be answered. */
async function replaySolutions(engine: Engine, toolset: Toolset, tool: Tool) {
  const problems: string[] = [];
  let ok = 0;
  let total = 0;
  for (const task of toolset.tasks) {
    if (!task.valid || !task.solution.some((call) => call.tool === tool.name)) continue;
    const session = await engine.openSession({ taskId: task.id });
    for (const [step, call] of task.solution.entries()) {
      const outcome = await engine.call(session.id, call.tool, call.arguments);
      total++;
      if (outcome.status === "ok") {
        ok++;
        continue;
      }
      const why =
        outcome.failure?.message ??
        outcome.findings
          .filter((f) => f.severity === "error")
          .map((f) => f.message)
          .join(" ");
      problems.push(
        `task ${task.id}, golden call ${step + 1} (${call.tool} ${JSON.stringify(call.arguments)}): answered ${outcome.failure?.code ?? outcome.status}: ${why}`,
      );
    }
    engine.release(session.id);
  }
  return { problems, ok, total };
}
