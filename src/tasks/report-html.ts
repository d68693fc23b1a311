import { type FaultCounts, injectedKinds } from "../faults/index.js";
import { type SessionReport, type TimelineEntry, verdictLine } from "./report.js";

/** What was said around the calls (a run's attempt): placed in the timeline after the calls before it. */
export interface SpokenEntry {
  role: "user" | "agent" | "feedback";
  text: string;
  /** Calls of the session made before this was said. */
  afterCalls: number;
}

/** More for a page that is part of a larger report (a run's attempt). */
export interface PageExtras {
  /** A link back to the page this one belongs to. */
  back?: { href: string; label: string };
  /** A few lines at the top (e.g. the run's outcome of the attempt), as HTML made with escapeHtml. */
  lead?: string;
  conversation?: readonly SpokenEntry[];
}

/** The style every toolsim report page shares. */
export const REPORT_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse}
td,th{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}.n{text-align:right}
.call{border-left:4px solid #999;padding:.4rem .8rem;margin:.6rem 0;background:#fafafa}
.ok{border-color:#2e7d32}.error{border-color:#ef6c00}.rejected{border-color:#c62828}.undone{opacity:.55}
.good{color:#2e7d32}.bad{color:#c62828}.warn{color:#ef6c00}pre{white-space:pre-wrap;word-break:break-word;margin:.3rem 0;font-size:12px}
.said{border-left:4px solid #1565c0;padding:.4rem .8rem;margin:.6rem 0;background:#f3f7fc;white-space:pre-wrap}
.said.agent{border-color:#6a1b9a;background:#f8f3fb}.said.feedback{border-color:#ef6c00;background:#fff8f0}
summary{cursor:pointer}code{font-size:13px}`;

/** The report as one self-contained HTML page: figures, verdict, and the call timeline with state changes. */
export function reportHtml(report: SessionReport, extras: PageExtras = {}): string {
  const { session, calls } = report;
  const title = `toolsim report — ${session.name ?? session.id}`;
  const patterns = report.patterns
    .map(
      (p) =>
        `<tr><td><code>${p.code}</code></td><td>${escapeHtml(p.name)}</td><td class="n">${p.count}</td><td class="n">${(p.rate * 100).toFixed(1)}%</td></tr>`,
    )
    .join("");
  const v = report.verdict;
  const steps = v?.golden
    ? `<ol>${v.golden.steps
        .map(
          (s) =>
            `<li class="${s.status === "done" && !s.outOfOrder ? "good" : "bad"}"><code>${escapeHtml(s.tool)}</code>: ${s.status}${s.outOfOrder ? ", out of order" : ""}${s.seq !== undefined ? ` (call #${s.seq})` : ""}${s.differences.length ? ` — ${s.differences.map((d) => `${escapeHtml(d.argument)} ${d.kind}`).join(", ")}` : ""}</li>`,
        )
        .join("")}</ol>${
        v.golden.extra.length
          ? `<p>Extra calls: ${v.golden.extra.map((e) => `#${e.seq} <code>${escapeHtml(e.tool)}</code>${e.write ? " (write)" : ""}`).join(", ")}</p>`
          : ""
      }`
    : "";
  const items = v?.checklist
    ? `<ul>${v.checklist.items.map((i) => `<li class="${i.status === "completed" || i.status === "rejected" ? "good" : "bad"}"><b>${i.status}</b> ${escapeHtml(i.item)} — ${escapeHtml(i.reason)}</li>`).join("")}</ul>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
${REPORT_STYLE}
</style></head><body>
${extras.back ? `<p><a href="${escapeHtml(extras.back.href)}">← ${escapeHtml(extras.back.label)}</a></p>` : ""}
<h1>${escapeHtml(title)}</h1>
${extras.lead ?? ""}
<p>${session.taskId ? `Task <code>${escapeHtml(session.taskId)}</code> · ` : ""}session <code>${escapeHtml(session.id)}</code> · seed ${escapeHtml(session.seed)} · head version ${session.headVersion}</p>
<h2>Verdict</h2>
<p class="${v?.solved ? "good" : "bad"}">${escapeHtml(verdictLine(report))}</p>
${steps}${items}${v?.answer ? `<p>Answer: ${escapeHtml(v.answer)}</p>` : ""}
<h2>Calls</h2>
<p>${calls.total} calls: ${calls.accepted} accepted (${calls.ok} ok, ${calls.error} tool errors), ${calls.rejected} rejected.
Latency total ${report.latency.totalMs} ms, mean ${report.latency.meanMs} ms, max ${report.latency.maxMs} ms.
Model: ${report.usage.requests} requests, ${report.usage.promptTokens} prompt + ${report.usage.completionTokens} completion tokens.</p>
<h2>ToolScan patterns</h2>
<table><tr><th>code</th><th>pattern</th><th>count</th><th>rate</th></tr>${patterns}</table>
${faultsTable(report)}<h2>Timeline</h2>
${timeline(report.timeline, extras.conversation ?? []) || "<p>No calls.</p>"}
</body></html>
`;
}

/** The calls in order, with what was said placed after the calls made before it. */
function timeline(entries: readonly TimelineEntry[], spoken: readonly SpokenEntry[]): string {
  const blocks: string[] = [];
  let next = 0;
  const sayUpTo = (calls: number) => {
    for (; next < spoken.length && (spoken[next]?.afterCalls ?? 0) <= calls; next++) {
      const entry = spoken[next];
      if (entry) blocks.push(saidBlock(entry));
    }
  };
  for (const entry of entries) {
    sayUpTo(entry.seq - 1);
    blocks.push(callBlock(entry));
  }
  sayUpTo(Number.POSITIVE_INFINITY);
  return blocks.join("\n");
}

const SPEAKERS: Record<SpokenEntry["role"], string> = {
  user: "user",
  agent: "agent",
  feedback: "judge's feedback to the agent",
};

function saidBlock(entry: SpokenEntry): string {
  return `<div class="said ${entry.role}"><b>${SPEAKERS[entry.role]}</b>\n${escapeHtml(entry.text)}</div>`;
}

function callBlock(entry: TimelineEntry): string {
  const version =
    entry.versionAfter === entry.versionBefore
      ? `v${entry.versionBefore}`
      : `v${entry.versionBefore} → v${entry.versionAfter}`;
  const findings = entry.findings.length
    ? `<ul>${entry.findings.map((f) => `<li><code>${escapeHtml(f.code)}</code> ${f.argument ? `<code>${escapeHtml(f.argument)}</code> ` : ""}${escapeHtml(f.message)}</li>`).join("")}</ul>`
    : "";
  const outcome =
    entry.status === "ok" ? entry.result : entry.status === "error" ? { error: entry.error } : undefined;
  const change = entry.change.length
    ? `<div>State changes:<pre>${escapeHtml(entry.change.map((op) => `${op.op} ${op.path}${"value" in op ? ` = ${JSON.stringify(op.value)}` : ""}`).join("\n"))}</pre></div>`
    : "";
  const fault = entry.fault
    ? ` · fault <code>${escapeHtml(entry.fault.kind)}</code> (${escapeHtml(entry.fault.rule)})`
    : "";
  const repeat =
    entry.repeatsAppliedWrite === undefined
      ? ""
      : ` · repeats #${entry.repeatsAppliedWrite}, which was applied`;
  return `<div class="call ${entry.status}${entry.inAttempt ? "" : " undone"}">
<b>#${entry.seq}</b> <code>${escapeHtml(entry.tool)}</code> — ${entry.status} · ${version} · ${entry.engine} · ${entry.latencyMs} ms${entry.inAttempt ? "" : " · undone by a restore or reset"}${fault}${repeat}
<pre>${escapeHtml(JSON.stringify(entry.arguments))}</pre>${findings}${change}
${outcome !== undefined ? `<details><summary>result</summary><pre>${escapeHtml(JSON.stringify(outcome, null, 2))}</pre></details>` : ""}
</div>`;
}

function faultsTable(report: SessionReport): string {
  return report.faults ? `<h2>Faults (injected on purpose)</h2>\n${faultCountsHtml(report.faults)}\n` : "";
}

/** Per fault kind injected, how the agent met them, as an HTML table (a session's report, a run's page). */
export function faultCountsHtml(counts: FaultCounts): string {
  const rows = injectedKinds(counts)
    .map((kind) => {
      const t = counts[kind];
      return `<tr><td><code>${kind}</code></td><td>${t.injected}</td><td>${t.recovered}</td><td>${t.gaveUp}</td><td>${t.repeatedWrites}</td><td>${t.followedInjections}</td></tr>`;
    })
    .join("");
  return `<table><tr><th>kind</th><th>injected</th><th>recovered</th><th>gave up</th><th>repeated writes</th><th>followed injections</th></tr>${rows}</table>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
