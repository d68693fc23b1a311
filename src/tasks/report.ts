import { FINDING_CODES, FINDING_NAMES, type FindingCode } from "../engine/index.js";
import { countFaults, type FaultCounts, faultTable, repeatedAppliedWrites } from "../faults/index.js";
import { diff, type PatchOperation } from "../patch/index.js";
import type { CallRecord, SessionRecord, StoredFault, StoredFinding } from "../store/index.js";
import { attemptVersions } from "./episode.js";
import { type JudgeContext, judgeSession } from "./session-judge.js";
import type { JudgeMode, TaskVerdict } from "./verdict.js";

export interface PatternFigure {
  code: FindingCode;
  name: string;
  /** Calls with this finding (IAC: solution steps or checklist items left undone). */
  count: number;
  /** count / calls (IAC: count / steps or items). */
  rate: number;
}

export interface TimelineEntry {
  seq: number;
  tool: string;
  status: CallRecord["status"];
  arguments: unknown;
  findings: StoredFinding[];
  result?: unknown;
  error?: unknown;
  engine: string;
  fallback?: string;
  latencyMs: number;
  versionBefore: number;
  versionAfter: number;
  /** Part of the attempt that led to the current state (not undone by a restore or reset). */
  inAttempt: boolean;
  /** The state change the call made. */
  change: PatchOperation[];
  createdAt: string;
  /** A fault injected on purpose (see docs/faults.md). */
  fault?: StoredFault;
  /** This call sent again the write of that call, which was applied though a fault hid its answer: a duplicate. */
  repeatsAppliedWrite?: number;
}

export interface SessionReport {
  session: {
    id: string;
    name: string | null;
    taskId: string | null;
    seed: string;
    headVersion: number;
    createdAt: string;
    forkedFrom: string | null;
  };
  calls: { total: number; accepted: number; ok: number; error: number; rejected: number };
  patterns: PatternFigure[];
  verdict?: TaskVerdict;
  /** Why there is no verdict. */
  verdictNote?: string;
  usage: { requests: number; promptTokens: number; completionTokens: number; cached: number };
  latency: { totalMs: number; meanMs: number; medianMs: number; maxMs: number };
  engines: Record<string, number>;
  checkpoints: Array<{ name: string; version: number }>;
  /** Per fault kind, how the agent met the faults injected on purpose; present when there were any. */
  faults?: FaultCounts;
  timeline: TimelineEntry[];
}

/** Everything known about a session: figures, ToolScan pattern rates, the verdict, the timeline. */
export async function buildReport(
  context: JudgeContext,
  session: SessionRecord,
  options: { mode?: JudgeMode } = {},
): Promise<SessionReport> {
  const calls = await context.store.calls(session.id);
  const lineage = attemptVersions(calls, session.headVersion);
  const judged = session.taskId ? await judgeSession(context, session, options) : undefined;
  const verdict = judged?.ok ? judged.verdict : undefined;
  const latencies = calls.map((c) => c.latencyMs).sort((a, b) => a - b);
  const total = latencies.reduce((sum, x) => sum + x, 0);
  const engines: Record<string, number> = {};
  for (const call of calls) engines[call.engine] = (engines[call.engine] ?? 0) + 1;
  const documents = new Map<number, unknown>();
  for (const call of calls) {
    if (call.versionAfter === call.versionBefore) continue;
    for (const version of [call.versionBefore, call.versionAfter]) {
      if (!documents.has(version))
        documents.set(version, (await context.store.stateAt(session.id, version)).toJSON());
    }
  }
  const documentAt = (version: number) => documents.get(version);
  const checkpoints = await context.store.checkpoints(session.id);
  const repeats = repeatedAppliedWrites(calls);
  const faults = calls.some((call) => call.fault)
    ? countFaults(calls, verdict ? { solved: verdict.solved, answer: verdict.answer } : undefined)
    : undefined;
  return {
    session: {
      id: session.id,
      name: session.name,
      taskId: session.taskId,
      seed: session.seed,
      headVersion: session.headVersion,
      createdAt: session.createdAt,
      forkedFrom: session.forkedFrom,
    },
    calls: {
      total: calls.length,
      accepted: calls.filter((c) => c.status !== "rejected").length,
      ok: calls.filter((c) => c.status === "ok").length,
      error: calls.filter((c) => c.status === "error").length,
      rejected: calls.filter((c) => c.status === "rejected").length,
    },
    patterns: patternFigures(calls, verdict),
    ...(verdict ? { verdict } : {}),
    ...(judged && !judged.ok ? { verdictNote: judged.error } : {}),
    ...(!session.taskId ? { verdictNote: "the session is not on a task" } : {}),
    usage: {
      requests: sum(calls, (c) => c.usage?.requests ?? 0),
      promptTokens: sum(calls, (c) => c.usage?.promptTokens ?? 0),
      completionTokens: sum(calls, (c) => c.usage?.completionTokens ?? 0),
      cached: sum(calls, (c) => c.usage?.cached ?? 0),
    },
    latency: {
      totalMs: round(total),
      meanMs: round(calls.length ? total / calls.length : 0),
      medianMs: round(latencies[Math.floor((latencies.length - 1) / 2)] ?? 0),
      maxMs: round(latencies.at(-1) ?? 0),
    },
    engines,
    checkpoints: checkpoints.map(({ name, version }) => ({ name, version })),
    ...(faults ? { faults } : {}),
    timeline: calls.map((call) => ({
      seq: call.seq,
      tool: call.tool,
      status: call.status,
      arguments: call.arguments,
      findings: call.findings,
      ...(call.result !== undefined ? { result: call.result } : {}),
      ...(call.error !== undefined ? { error: call.error } : {}),
      engine: call.engine,
      ...(call.fallback ? { fallback: call.fallback } : {}),
      latencyMs: round(call.latencyMs),
      versionBefore: call.versionBefore,
      versionAfter: call.versionAfter,
      inAttempt: lineage.has(call.versionBefore) && lineage.has(call.versionAfter),
      change:
        call.versionAfter === call.versionBefore
          ? []
          : diff(documentAt(call.versionBefore), documentAt(call.versionAfter)),
      createdAt: call.createdAt,
      ...(call.fault ? { fault: call.fault } : {}),
      ...(repeats.has(call.seq) ? { repeatsAppliedWrite: repeats.get(call.seq) } : {}),
    })),
  };
}

/** The rate of each ToolScan pattern among the calls (IAC: among the steps or items the verdict counts). */
export function patternFigures(
  calls: readonly CallRecord[],
  verdict: TaskVerdict | undefined,
): PatternFigure[] {
  return FINDING_CODES.map((code) => {
    if (code === "IAC") {
      const undone = verdict ? Math.max(0, verdict.progress.total - verdict.progress.done) : 0;
      const missing = verdict?.golden ? verdict.golden.missing : undone;
      const total = verdict?.progress.total ?? 0;
      return { code, name: FINDING_NAMES[code], count: missing, rate: total ? round(missing / total, 4) : 0 };
    }
    const count = calls.filter((c) => c.findings.some((f) => f.code === code)).length;
    return {
      code,
      name: FINDING_NAMES[code],
      count,
      rate: calls.length ? round(count / calls.length, 4) : 0,
    };
  });
}

/** The report as text for a terminal. */
export function reportText(report: SessionReport): string {
  const { session, calls } = report;
  const lines = [
    `Session ${session.name ?? session.id}${session.name ? ` (${session.id})` : ""}${session.taskId ? ` — task ${session.taskId}` : ""}`,
    `Calls: ${calls.total} (${calls.accepted} accepted: ${calls.ok} ok, ${calls.error} tool errors; ${calls.rejected} rejected)`,
    "",
    "ToolScan patterns",
  ];
  for (const p of report.patterns) {
    const figure =
      p.code === "IAC"
        ? `${p.count} of ${report.verdict?.progress.total ?? 0} ${report.verdict?.judge === "checklist" ? "items" : "steps"}`
        : `${p.count} of ${calls.total} calls`;
    lines.push(`  ${p.code}  ${p.name.padEnd(24)} ${figure.padEnd(18)} ${(p.rate * 100).toFixed(1)}%`);
  }
  lines.push("", `Verdict: ${verdictLine(report)}`);
  const v = report.verdict;
  if (v?.golden) {
    for (const step of v.golden.steps) {
      const where = step.seq !== undefined ? ` (call #${step.seq})` : "";
      const order = step.outOfOrder ? ", out of order" : "";
      const args = step.differences.length
        ? ` — ${step.differences.map((d) => `${d.argument} ${d.kind}${d.severity === "note" ? " (note)" : ""}`).join(", ")}`
        : "";
      lines.push(`  step ${step.step + 1} ${step.tool}: ${step.status}${order}${where}${args}`);
    }
    for (const extra of v.golden.extra) {
      lines.push(`  extra call #${extra.seq} ${extra.tool}${extra.write ? " (write)" : ""}`);
    }
  }
  if (v?.checklist) {
    for (const item of v.checklist.items) lines.push(`  [${item.status}] ${item.item} — ${item.reason}`);
  }
  if (v && !v.valid)
    lines.push(
      `  (an invalid task; the agent ${v.infeasibleDeclared ? "declared" : "did not declare"} it infeasible)`,
    );
  if (v?.answer) lines.push(`  answer: ${v.answer}`);
  const u = report.usage;
  lines.push(
    "",
    `Model usage: ${u.requests} requests, ${u.promptTokens} prompt + ${u.completionTokens} completion tokens${u.cached ? `, ${u.cached} cached` : ""}${v?.usage ? `; judge: ${v.usage.promptTokens} + ${v.usage.completionTokens} tokens` : ""}`,
    `Latency: total ${report.latency.totalMs} ms, mean ${report.latency.meanMs} ms, median ${report.latency.medianMs} ms, max ${report.latency.maxMs} ms`,
    `Engines: ${
      Object.entries(report.engines)
        .map(([name, n]) => `${name} ${n}`)
        .join(", ") || "none"
    }`,
  );
  if (report.faults) lines.push(...faultLines(report.faults));
  lines.push("", "Timeline");
  for (const entry of report.timeline) {
    const codes = entry.findings.map((f) => f.code).join(",");
    const version =
      entry.versionAfter !== entry.versionBefore
        ? `v${entry.versionBefore}→v${entry.versionAfter}`
        : `v${entry.versionBefore}`;
    lines.push(
      `  #${String(entry.seq).padEnd(3)} ${entry.status.padEnd(8)} ${entry.tool}${codes ? ` [${codes}]` : ""} ${version}${entry.change.length ? ` (${entry.change.length} change${entry.change.length === 1 ? "" : "s"})` : ""}${entry.inAttempt ? "" : " (undone)"}${faultNote(entry)}`,
    );
  }
  if (report.timeline.length === 0) lines.push("  (no calls)");
  return `${lines.join("\n")}\n`;
}

/** The faults section: one line per kind injected, with how the agent met them. */
function faultLines(counts: FaultCounts): string[] {
  return ["", "Faults (injected on purpose)", ...faultTable(counts)];
}

/** What the timeline says of a call's fault: its kind, and what the agent read when the answer was lost. */
function faultNote(entry: TimelineEntry): string {
  const repeat =
    entry.repeatsAppliedWrite === undefined
      ? ""
      : ` (repeats #${entry.repeatsAppliedWrite}, which was applied)`;
  const fault = entry.fault;
  if (!fault) return repeat;
  if (typeof fault.continues === "number") return ` (continues the list of #${fault.continues})`;
  const delivered = fault.kind === "lost-answer" ? ": applied, the client read an error" : "";
  return ` {fault: ${fault.kind}${delivered}}${repeat}`;
}

export function verdictLine(report: SessionReport): string {
  const v = report.verdict;
  if (!v) return `none (${report.verdictNote ?? "not judged"})`;
  const state = v.solved === null ? "unknown" : v.solved ? "solved" : "not solved";
  const unit = v.judge === "checklist" ? "items" : "steps";
  const unavailable = v.unavailable ? `; ${v.unavailable}` : "";
  return `${state} (${v.judge} judge, ${v.progress.done}/${v.progress.total} ${unit}${unavailable})`;
}

function sum(calls: readonly CallRecord[], pick: (call: CallRecord) => number): number {
  return calls.reduce((total, call) => total + pick(call), 0);
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
