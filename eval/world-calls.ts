import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isPlainObject } from "../src/patch/index.js";
import { sameValue } from "./compare.js";
import { McpConnection } from "./mcp-client.js";
import { runCli, startServer } from "./toolsim-process.js";

/**
 * Worlds with written expectations: each held-out world may come with a call script
 * (`eval/worlds/calls/<world>.calls.json`) whose expectations were written from the world's
 * descriptions alone, before toolsim served it: per call, whether it fails, the answer's
 * fields the writer was sure of, and every change the call makes to the state. The script is
 * replayed on toolsim (offline, inference on, as a user serves a catalog) and each call is
 * judged against it, so a first try can be measured again after any change, by anyone.
 */

/** A value that stands for "present, any value" in an expectation. */
const ANY = "*";
/** A value that stands for "not there" in an expectation. */
const ABSENT = "<absent>";

export interface ExpectedCall {
  tool: string;
  arguments: Record<string, unknown>;
  expect: {
    error?: boolean;
    answer?: unknown;
    /** JSON pointer into the state after the call → its value. */
    state?: Record<string, unknown>;
    /** JSON pointer of a container → the fields of the one new entry that appears in it. */
    state_new?: Record<string, Record<string, unknown>>;
    note?: string;
  };
}

export interface CallScript {
  world: string;
  calls: ExpectedCall[];
}

/** What was wrong with one call, or nothing. */
export type Verdict = { right: true } | { right: false; why: string };

export interface CallOutcome {
  index: number;
  tool: string;
  verdict: Verdict;
}

export interface WorldOutcome {
  world: string;
  calls: CallOutcome[];
  /** Each tool called, with toolsim's verdict on it and whether every call of it was right. */
  tools: Array<{ tool: string; verdict: string; right: boolean }>;
}

export interface WorldCallsReport {
  worlds: WorldOutcome[];
  calls: { right: number; total: number };
  /** Of the called tools toolsim reported `inferred`, those whose every call was right. */
  inferred: { right: number; total: number };
  /** The same for the tools reported `partly` or guessed. */
  others: { right: number; total: number };
}

// ── judging (pure) ──

/**
 * Whether `actual` holds what `expected` says: objects by the keys expected (others may be
 * there), lists element for element in any order and of the same length, numbers within
 * floating-point noise, `*` for any value and `<absent>` for none.
 */
export function holds(expected: unknown, actual: unknown): boolean {
  if (expected === ANY) return actual !== undefined;
  if (expected === ABSENT) return actual === undefined;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    const free = actual.map(() => true);
    return expected.every((want) => {
      const at = actual.findIndex((item, i) => free[i] && holds(want, item));
      if (at < 0) return false;
      free[at] = false;
      return true;
    });
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    return Object.entries(expected).every(([key, want]) => holds(want, actual[key]));
  }
  return sameValue(expected, actual);
}

/**
 * Whether an answer holds the expected one: as it is, or inside a one-key envelope
 * (`{"printer": {...}}`), since real APIs differ in whether they wrap what they return.
 */
export function answerHolds(expected: unknown, actual: unknown): boolean {
  if (holds(expected, actual)) return true;
  if (!isPlainObject(actual)) return false;
  const values = Object.values(actual);
  return values.length === 1 && holds(expected, values[0]);
}

/** The value at a JSON pointer (RFC 6901), or undefined. */
export function at(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let value: unknown = document;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(value)) value = value[Number(key)];
    else if (isPlainObject(value)) value = value[key];
    else return undefined;
  }
  return value;
}

/**
 * The leaves of the world that existed before and changed or went, each as a JSON pointer.
 * toolsim's own `runtime` (its clock) is not the world's.
 */
export function worldChanges(before: unknown, after: unknown): string[] {
  return changedLeaves(before, after).filter(
    (pointer) => pointer !== "/runtime" && !pointer.startsWith("/runtime/"),
  );
}

/** The leaves that existed before and changed or went, each as a JSON pointer. */
export function changedLeaves(before: unknown, after: unknown, pointer = ""): string[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    return Object.entries(before).flatMap(([key, value]) =>
      changedLeaves(value, after[key], `${pointer}/${pointerKey(key)}`),
    );
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length !== after.length) return [pointer];
    return before.flatMap((value, i) => changedLeaves(value, after[i], `${pointer}/${i}`));
  }
  return sameValue(before, after) ? [] : [pointer];
}

function pointerKey(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The keys (or indexes) of a container after the call that it did not hold before. */
function newEntries(before: unknown, after: unknown): unknown[] {
  if (Array.isArray(after)) return after.slice(Array.isArray(before) ? before.length : 0);
  if (!isPlainObject(after)) return [];
  const old = isPlainObject(before) ? before : {};
  return Object.entries(after)
    .filter(([key]) => !Object.hasOwn(old, key))
    .map(([, value]) => value);
}

/**
 * One call judged: the error it should or should not be, the answer's expected fields, every
 * state change expected, and no change of what existed that no expectation covers.
 */
export function judge(
  call: ExpectedCall,
  reply: { isError: boolean; value: unknown },
  before: unknown,
  after: unknown,
): Verdict {
  const { expect } = call;
  if (expect.error === true) {
    if (!reply.isError) return { right: false, why: "succeeded where it should fail" };
    const changed = worldChanges(before, after);
    return changed.length === 0
      ? { right: true }
      : { right: false, why: `a failed call changed ${changed[0]}` };
  }
  if (reply.isError) return { right: false, why: `failed: ${short(reply.value)}` };
  if (expect.answer !== undefined && !answerHolds(expect.answer, reply.value))
    return { right: false, why: `answer ${short(reply.value)} lacks ${short(expect.answer)}` };
  for (const [pointer, want] of Object.entries(expect.state ?? {})) {
    if (!holds(want, at(after, pointer)))
      return { right: false, why: `state ${pointer} is ${short(at(after, pointer))}, not ${short(want)}` };
  }
  for (const [pointer, fields] of Object.entries(expect.state_new ?? {})) {
    const added = newEntries(at(before, pointer), at(after, pointer));
    if (added.length !== 1 || !holds(fields, added[0]))
      return {
        right: false,
        why: `no one new entry in ${pointer} holds ${short(fields)} (${added.length} new)`,
      };
  }
  const covered = [...Object.keys(expect.state ?? {}), ...Object.keys(expect.state_new ?? {})];
  const stray = worldChanges(before, after).find(
    (pointer) =>
      !covered.some((c) => pointer === c || pointer.startsWith(`${c}/`) || c.startsWith(`${pointer}/`)),
  );
  return stray === undefined
    ? { right: true }
    : { right: false, why: `changed ${stray}, which no expectation names` };
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** An argument `$ref:3.job_id` is the value at that path of call 3's answer. */
export function resolved(
  args: Record<string, unknown>,
  answers: readonly unknown[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) out[key] = referenced(value, answers);
  return out;
}

function referenced(value: unknown, answers: readonly unknown[]): unknown {
  if (Array.isArray(value)) return value.map((item) => referenced(item, answers));
  if (isPlainObject(value)) return resolved(value, answers);
  const match = typeof value === "string" ? /^\$ref:(\d+)\.(.+)$/.exec(value) : null;
  if (!match) return value;
  return findPath(answers[Number(match[1])], (match[2] ?? "").split("."));
}

/** A dotted path in an answer, looked up as it is or inside a one-key envelope. */
function findPath(answer: unknown, path: readonly string[]): unknown {
  const direct = path.reduce<unknown>((v, key) => (isPlainObject(v) ? v[key] : undefined), answer);
  if (direct !== undefined || !isPlainObject(answer)) return direct;
  const values = Object.values(answer);
  return values.length === 1 ? findPath(values[0], path) : undefined;
}

// ── running (side effects: a server per world) ──

/** The call scripts of `root/calls/`, each with its world found in `root/held-out/` or `root/dev/`. */
export function scriptsIn(root: string): Array<{ script: CallScript; worldFile: string }> {
  const folder = join(root, "calls");
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(".calls.json"))
    .sort()
    .map((name) => {
      const script = JSON.parse(readFileSync(join(folder, name), "utf8")) as CallScript;
      const worldFile = ["held-out", "dev"]
        .map((sub) => join(root, sub, `${script.world}.json`))
        .find((file) => existsSync(file));
      if (!worldFile)
        throw new Error(`${join(folder, name)}: no world ${script.world}.json in held-out/ or dev/`);
      return { script, worldFile };
    });
}

/** `npm run eval -- --world-calls eval/worlds`: every call script replayed and judged. */
export async function worldCallsSection(root: string): Promise<WorldCallsReport> {
  const worlds: WorldOutcome[] = [];
  for (const { script, worldFile } of scriptsIn(root)) worlds.push(await runWorld(script, worldFile));
  return summarized(worlds);
}

export function summarized(worlds: WorldOutcome[]): WorldCallsReport {
  const calls = worlds.flatMap((w) => w.calls);
  const tools = worlds.flatMap((w) => w.tools);
  const inferred = tools.filter((t) => t.verdict === "inferred");
  const others = tools.filter((t) => t.verdict !== "inferred");
  return {
    worlds,
    calls: { right: calls.filter((c) => c.verdict.right).length, total: calls.length },
    inferred: { right: inferred.filter((t) => t.right).length, total: inferred.length },
    others: { right: others.filter((t) => t.right).length, total: others.length },
  };
}

async function runWorld(script: CallScript, worldFile: string): Promise<WorldOutcome> {
  const work = mkdtempSync(join(tmpdir(), "toolsim-world-calls-"));
  try {
    const dir = join(work, "toolsets");
    mkdirSync(dir);
    copyFileSync(worldFile, join(dir, `${script.world}.json`));
    const verdicts = await verdictsOf(dir);
    const server = await startServer([
      "--toolsets",
      dir,
      "--engine",
      "offline",
      "--db",
      join(work, "toolsim.db"),
    ]);
    try {
      const connection = await McpConnection.open({ url: server.url });
      try {
        const calls = await replay(connection, script);
        return { world: script.world, calls, tools: toolsOf(calls, verdicts) };
      } finally {
        await connection.close();
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function replay(connection: McpConnection, script: CallScript): Promise<CallOutcome[]> {
  const answers: unknown[] = [];
  const outcomes: CallOutcome[] = [];
  for (const [index, call] of script.calls.entries()) {
    const before = await connection.state();
    const reply = await connection.call(call.tool, resolved(call.arguments, answers));
    const after = await connection.state();
    answers.push(reply.value);
    outcomes.push({ index, tool: call.tool, verdict: judge(call, reply, before, after) });
  }
  return outcomes;
}

/** `toolsim infer DIR --json`: each tool's verdict, as a user sees it. */
async function verdictsOf(dir: string): Promise<Map<string, string>> {
  const run = await runCli(["infer", dir, "--json"]);
  const parsed = JSON.parse(run.stdout) as { report: Array<{ tool: string; verdict: string }> };
  return new Map(parsed.report.map((entry) => [entry.tool, entry.verdict]));
}

function toolsOf(calls: readonly CallOutcome[], verdicts: Map<string, string>): WorldOutcome["tools"] {
  const names = [...new Set(calls.map((c) => c.tool))];
  return names.map((tool) => ({
    tool,
    verdict: verdicts.get(tool) ?? "authored",
    right: calls.filter((c) => c.tool === tool).every((c) => c.verdict.right),
  }));
}

export function renderWorldCalls(report: WorldCallsReport, verbose: boolean): string {
  const ratio = ({ right, total }: { right: number; total: number }) =>
    `${right}/${total}${total > 0 ? ` = ${(right / total).toFixed(2)}` : ""}`;
  const lines = [
    "== worlds with written expectations",
    "| world | calls right | inferred tools right | other tools right |",
    "|---|---:|---:|---:|",
  ];
  for (const world of report.worlds) {
    const one = summarized([world]);
    lines.push(`| ${world.world} | ${ratio(one.calls)} | ${ratio(one.inferred)} | ${ratio(one.others)} |`);
  }
  lines.push(`| all | ${ratio(report.calls)} | ${ratio(report.inferred)} | ${ratio(report.others)} |`);
  if (verbose)
    for (const world of report.worlds)
      for (const call of world.calls) {
        const verdict = world.tools.find((t) => t.tool === call.tool)?.verdict ?? "?";
        const mark = call.verdict.right ? "ok " : "BAD";
        const why = call.verdict.right ? "" : ` ${call.verdict.why}`;
        lines.push(`  ${mark} ${world.world}#${call.index} ${call.tool} [${verdict}]${why}`);
      }
  return `${lines.join("\n")}\n`;
}
