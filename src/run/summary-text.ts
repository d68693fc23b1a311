import { faultTable } from "../faults/index.js";
import type { PassRates, RunSummary } from "./results.js";

/** The summary as a person reads it in a terminal. */
export function summaryText(summary: RunSummary): string {
  const a = summary.attempts;
  const state =
    summary.status === "finished"
      ? "finished"
      : summary.status === "running"
        ? "running"
        : `${summary.status}${summary.note ? ` (${summary.note})` : ""}`;
  const lines = [
    `Run ${summary.run} ${state}: ${a.finished} of ${a.planned} attempts of ${plural(summary.tasks, "task")} (k = ${summary.k}), seed ${summary.seed}`,
    `Agent: ${summary.agent}`,
    "",
    `Outcomes: ${a.passed} passed, ${a.failed} failed, ${plural(a.error, "error")}${a.error ? " (counted as not passed)" : ""}, ${a.unjudged} unjudged`,
  ];
  if (a.unjudged > 0) {
    lines.push(
      "  unjudged: tasks without a golden solution need the checklist judge (--judge-model, or TOOLSIM_JUDGE_MODEL)",
    );
  }
  const columns = [...Array.from({ length: summary.k }, (_, j) => `pass^${j + 1}`), `pass@${summary.k}`];
  const rateCells = (rates: PassRates) => [
    ...rates.passHat.map(percent),
    percent(rates.passAt[summary.k - 1] ?? null),
  ];
  const width = Math.max(24, ...summary.perTask.map((t) => t.task.length + 2));
  const row = (label: string, cells: string[]) =>
    `  ${label.padEnd(width)}${cells.map((c) => c.padStart(9)).join("")}`;
  lines.push("", row("", columns), row("all tasks", rateCells(summary.overall)));
  if (summary.firstTry) lines.push(row("first try only", rateCells(summary.firstTry)));
  lines.push("", row("per task", ["passed", ...columns]));
  for (const task of summary.perTask) {
    const judged = task.attempts - task.unjudged;
    const passed = judged > 0 ? `${task.passed}/${judged}` : "–";
    const notes = [
      task.error ? `${plural(task.error, "error")}` : "",
      task.unjudged ? `${task.unjudged} unjudged` : "",
      summary.feedbackRetries > 0 && judged > 0 ? `${task.firstTryPassed} on the first try` : "",
    ].filter(Boolean);
    lines.push(
      `${row(task.task, [passed, ...rateCells(task)])}${notes.length ? `   ${notes.join(", ")}` : ""}`,
    );
  }
  const calls = summary.calls;
  const patterns = summary.toolscan
    .filter((p) => p.code !== "IAC")
    .map((p) => `${p.code} ${percent(p.rate)}${p.count ? ` (${p.count})` : ""}`)
    .join("  ");
  const undone = summary.toolscan.find((p) => p.code === "IAC");
  lines.push(
    "",
    `ToolScan, calls with each pattern: ${patterns}`,
    `  IAC (steps or checklist items left undone): ${percent(undone?.rate ?? 0)}${undone?.count ? ` (${undone.count})` : ""}`,
    `Calls: ${calls.total} (per attempt mean ${calls.perAttempt.mean}, median ${calls.perAttempt.median}, max ${calls.perAttempt.max}): ${calls.ok} ok, ${calls.error} tool errors, ${calls.rejected} rejected`,
    `Tokens: ${tokenLine(summary)}${summary.agentTokens === "not seen" ? " (an agent command's own model requests are not seen)" : ""}`,
    `Cost: ${summary.cost !== undefined ? `$${summary.cost.toFixed(4)}` : "unknown (give --price for the models that spent tokens)"}`,
    `Latency: attempt mean ${seconds(summary.latency.attemptMs.mean)} (median ${seconds(summary.latency.attemptMs.median)}, p95 ${seconds(summary.latency.attemptMs.p95)}, max ${seconds(summary.latency.attemptMs.max)})${summary.latency.modelRequestMeanMs !== null ? `; model request mean ${seconds(summary.latency.modelRequestMeanMs)}` : ""}`,
  );
  lines.push(...faultLines(summary));
  if (summary.errors.length > 0) {
    lines.push("", "Errors (toolsim run --resume RUN runs these attempts again):");
    for (const error of summary.errors.slice(0, 20)) {
      lines.push(`  ${error.session}: ${error.kind}: ${oneLine(error.message)}`);
    }
    if (summary.errors.length > 20)
      lines.push(`  … and ${summary.errors.length - 20} more (--json lists all)`);
  }
  lines.push(
    "",
    `Each attempt is a session: toolsim report ${summary.run}/TASK/N; training data: toolsim export --run ${summary.run} --format openai`,
  );
  if (summary.status !== "finished") lines.push(`Run what is missing: toolsim run --resume ${summary.run}`);
  return `${lines.join("\n")}\n`;
}

/** The faults section: the run's attempts' counts summed, per kind injected. */
function faultLines(summary: RunSummary): string[] {
  const source =
    summary.faultProfile !== undefined ? `--faults ${summary.faultProfile}` : "the tasks' own profiles";
  if (!summary.faults)
    return summary.faultProfile !== undefined ? ["", `Faults (${source}): none injected`] : [];
  return [
    "",
    `Faults (injected on purpose, ${source}; per attempt: toolsim report ${summary.run}/TASK/N)`,
    ...faultTable(summary.faults),
  ];
}

function tokenLine(summary: RunSummary): string {
  const parts = Object.entries(summary.tokens)
    .filter(([, t]) => t.requests > 0 || t.prompt + t.completion > 0)
    .map(
      ([role, t]) =>
        `${role} ${t.prompt.toLocaleString("en-US")} prompt + ${t.completion.toLocaleString("en-US")} completion in ${plural(t.requests, "request")}`,
    );
  return parts.length ? parts.join("; ") : "none";
}

export function percent(value: number | null): string {
  return value === null ? "–" : `${(value * 100).toFixed(1)}%`;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}
