import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importBfcl, importOpenAiFunctions, importSynthTools, type Tool } from "../src/catalog/index.js";
import { type Computation, computationFor, valueExpression } from "../src/compute/index.js";
import { evaluateExpression } from "../src/expr/index.js";
import { isPlainObject } from "../src/patch/index.js";
import { readBfcl, readDocument, readSynthTools } from "../src/sources/index.js";

/**
 * How computation tools compute: for each golden call of a tool the recogniser takes on,
 * the value its effect computes is compared with an answer computed independently (by
 * Python: hand-written formulas for BFCL's functions, the real implementation or Python's
 * own arithmetic for tau-bench). Reports recognised, right, wrong and declined, per tool
 * and per call. SynthTools, which has no answers, shows what the recogniser takes on in a
 * large catalog of tools that mostly do not compute (false recognitions show up there).
 */

const ORACLES = fileURLToPath(new URL("../../eval/oracles/", import.meta.url));

/** BFCL's categories of single calls to documented functions (the multi-turn ones have no math). */
const BFCL_FILES = /^BFCL_v4_(simple_python|multiple|parallel|parallel_multiple)\.json$/;

export async function computationSection(bfcl?: string, tau?: string, synthtools?: string) {
  return {
    ...(bfcl ? { bfcl: await bfclComputations(bfcl) } : {}),
    ...(tau ? { tau: await tauComputations(tau) } : {}),
    ...(synthtools ? { synthtools: synthToolsRecognised(synthtools) } : {}),
  };
}

// ── BFCL ────────────────────────────────────────────────────────────────────

interface Judged {
  tool: string;
  arguments: Record<string, unknown>;
  computed?: unknown;
  expected?: unknown;
  error?: string;
}

async function bfclComputations(dir: string) {
  const read = readBfcl(dir);
  read.source.entries = read.source.entries.filter((e) => BFCL_FILES.test(e.file));
  read.source.functionDocs = [];
  const toolsets = importBfcl(read.source).toolsets;
  const calls: Array<{ key: string; tool: Tool; args: Record<string, unknown> }> = [];
  for (const toolset of toolsets)
    for (const task of toolset.tasks)
      for (const call of task.solution) {
        const tool = toolset.tools.find((t) => t.name === call.tool);
        if (tool) calls.push({ key: keyOf(tool), tool, args: call.arguments });
      }
  const computations = new Map<string, Computation | undefined>();
  for (const { key, tool } of calls) if (!computations.has(key)) computations.set(key, computationFor(tool));
  const answers = python(
    join(ORACLES, "bfcl_math.py"),
    calls.map(({ key, args }) => ({ key, args })),
  ) as Array<Answer>;

  const judged = { right: [] as Judged[], wrong: [] as Judged[], failed: [] as Judged[] };
  const declined: Judged[] = [];
  const notJudged = new Map<string, string>();
  const formulaTools = new Set<string>();
  for (const [i, { key, args }] of calls.entries()) {
    const answer = answers[i] ?? { skip: "the oracle gave no answer" };
    const computation = computations.get(key);
    if ("expected" in answer) formulaTools.add(key);
    if (!computation) {
      if ("expected" in answer) declined.push({ tool: key, arguments: args, expected: answer.expected });
      continue;
    }
    if (!("expected" in answer)) {
      const reason = "skip" in answer ? answer.skip : "no answer";
      notJudged.set(key, `${reason}; computes ${valueExpression(computation)}`);
      continue;
    }
    const outcome = await evaluated(computation, args);
    const entry: Judged = { tool: key, arguments: args, expected: answer.expected, ...outcome };
    if (outcome.error !== undefined) judged.failed.push(entry);
    else if (matches(outcome.computed, answer)) judged.right.push(entry);
    else judged.wrong.push(entry);
  }
  const recognised = [...computations].filter(([, c]) => c !== undefined).map(([key]) => key);
  const badTools = new Set([...judged.wrong, ...judged.failed].map((j) => j.tool));
  const judgedTools = new Set([...judged.right, ...judged.wrong, ...judged.failed].map((j) => j.tool));
  return {
    categories: "simple_python, multiple, parallel, parallel_multiple",
    functions: computations.size,
    goldenCalls: calls.length,
    computationFunctions: formulaTools.size,
    recognised: recognised.length,
    recognisedComputations: judgedTools.size,
    rightFunctions: [...judgedTools].filter((t) => !badTools.has(t)).length,
    wrongFunctions: badTools.size,
    declinedFunctions: [...formulaTools].filter((t) => !computations.get(t)).length,
    calls: {
      judged: judged.right.length + judged.wrong.length + judged.failed.length,
      right: judged.right.length,
      wrong: judged.wrong,
      failed: judged.failed,
      declined: declined.length,
    },
    recognisedNotJudged: [...notJudged].map(([tool, reason]) => ({ tool, reason })),
    declined: [...new Set(declined.map((d) => d.tool))],
  };
}

/** Functions of different toolsets may share a name: the name with its parameters tells them apart. */
function keyOf(tool: Tool): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  return `${tool.title ?? tool.name}(${Object.keys(properties).sort().join(",")})`;
}

type Answer =
  | { expected: unknown; alternatives?: unknown[]; unordered?: boolean }
  | { skip: string }
  | { answer: unknown }
  | { error: string };

function matches(value: unknown, answer: Answer): boolean {
  if (!("expected" in answer)) return false;
  return [answer.expected, ...(answer.alternatives ?? [])].some((expected) =>
    close(value, expected, answer.unordered === true),
  );
}

/** Equal up to floating-point noise; lists in any order when `unordered`. */
function close(value: unknown, expected: unknown, unordered = false): boolean {
  if (typeof value === "number" && typeof expected === "number")
    return Math.abs(value - expected) <= 1e-9 + 1e-6 * Math.abs(expected);
  if (Array.isArray(value) && Array.isArray(expected)) {
    if (value.length !== expected.length) return false;
    if (!unordered) return value.every((v, i) => close(v, expected[i]));
    const left = [...value];
    return expected.every((e) => {
      const at = left.findIndex((v) => close(v, e));
      return at >= 0 && left.splice(at, 1).length === 1;
    });
  }
  if (isPlainObject(value) && isPlainObject(expected)) {
    const keys = Object.keys(expected);
    return keys.length === Object.keys(value).length && keys.every((k) => close(value[k], expected[k]));
  }
  return value === expected;
}

// ── tau-bench ───────────────────────────────────────────────────────────────

async function tauComputations(dir: string) {
  const domains = [];
  for (const domain of ["retail", "airline"]) {
    const tools = readDocument(join(dir, domain, "tools.json"));
    const imported = importOpenAiFunctions({ functions: tools.value }, { id: `tau_${domain}` });
    const all = imported.toolsets.flatMap((t) => t.tools);
    const recognised = new Map(
      all.flatMap((tool) => {
        const computation = computationFor(tool);
        return computation ? [[tool.name, computation] as const] : [];
      }),
    );
    const implementation = join(dir, domain, "tools_py");
    const actions = goldenActions(join(dir, domain)).filter((a) => recognised.has(a.name));
    const requests = actions.map((a) =>
      existsSync(implementation)
        ? { impl: implementation, tool: a.name, kwargs: a.kwargs }
        : { arithmetic: String(Object.values(a.kwargs)[0] ?? "") },
    );
    const answers = python(join(ORACLES, "tau_calc.py"), requests) as Answer[];
    let right = 0;
    const wrong: Judged[] = [];
    for (const [i, action] of actions.entries()) {
      const computation = recognised.get(action.name) as Computation;
      const outcome = await evaluated(computation, action.kwargs);
      const answer = answers[i];
      const reference = answer && "answer" in answer ? Number(answer.answer) : Number.NaN;
      const ours =
        typeof outcome.computed === "number" ? Math.round(outcome.computed * 100) / 100 : Number.NaN;
      if (Math.abs(ours - reference) < 1e-9) right++;
      else wrong.push({ tool: action.name, arguments: action.kwargs, ...outcome, expected: answer });
    }
    domains.push({
      domain,
      tools: all.length,
      recognised: [...recognised].map(([name, c]) => ({
        tool: name,
        computes: valueExpression(c),
        error: c.error,
      })),
      reference: existsSync(implementation) ? "the real implementation (tools_py)" : "Python arithmetic",
      goldenCalls: actions.length,
      right,
      wrong,
    });
  }
  return { comparedAt: "the real tool's rounding (2 decimals)", domains };
}

function goldenActions(dir: string): Array<{ name: string; kwargs: Record<string, unknown> }> {
  const actions: Array<{ name: string; kwargs: Record<string, unknown> }> = [];
  for (const file of ["tasks_test.json", "tasks_train.json", "tasks_dev.json"]) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const tasks = readDocument(path).value;
    for (const task of Array.isArray(tasks) ? tasks : [])
      for (const action of isPlainObject(task) && Array.isArray(task.actions) ? task.actions : [])
        if (isPlainObject(action) && typeof action.name === "string")
          actions.push({ name: action.name, kwargs: isPlainObject(action.kwargs) ? action.kwargs : {} });
  }
  return actions;
}

// ── SynthTools: what is taken on in a catalog that mostly does not compute ──

function synthToolsRecognised(dir: string) {
  const tools = importSynthTools(readSynthTools(dir).source).toolsets.flatMap((t) => t.tools);
  const recognised = tools.flatMap((tool) => {
    const computation = computationFor(tool);
    return computation ? [{ tool: tool.title ?? tool.name, computes: valueExpression(computation) }] : [];
  });
  const kinds = new Map<string, number>();
  for (const { computes } of recognised) {
    const kind = computes.match(/\$(calc|convert|math\("\w+")/)?.[1] ?? "other";
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return {
    tools: tools.length,
    recognised: recognised.length,
    byKind: Object.fromEntries(kinds),
    list: recognised,
  };
}

// ── evaluation of the computed value, and Python ────────────────────────────

/**
 * The value a computation's effect answers for these arguments: its expression evaluated by
 * the effects language's own expression room, whose $calc, $convert and $math call the
 * compute room.
 */
async function evaluated(
  computation: Computation,
  args: Record<string, unknown>,
): Promise<{ computed?: unknown; error?: string }> {
  const result = await evaluateExpression(valueExpression(computation), {
    input: args,
    variables: { args },
    now: "2026-03-02T09:00:00Z",
  });
  return result.ok ? { computed: result.value } : { error: `${result.kind}: ${result.error}` };
}

function python(script: string, requests: unknown[]): unknown[] {
  if (requests.length === 0) return [];
  const run = spawnSync("python3", [script], {
    input: requests.map((r) => JSON.stringify(r)).join("\n"),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`python3 ${script} failed: ${run.stderr || run.error?.message}`);
  return run.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}
