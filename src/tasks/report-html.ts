import { injectedKinds } from "../faults/index.js";
import { type SessionReport, type TimelineEntry, verdictLine } from "./report.js";

/** The report as one self-contained HTML page: figures, verdict, and the call timeline with state changes. */
export function reportHtml(report: SessionReport): string {
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
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse}
td,th{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}.n{text-align:right}
.call{border-left:4px solid #999;padding:.4rem .8rem;margin:.6rem 0;background:#fafafa}
.ok{border-color:#2e7d32}.error{border-color:#ef6c00}.rejected{border-color:#c62828}.undone{opacity:.55}
.good{color:#2e7d32}.bad{color:#c62828}pre{white-space:pre-wrap;word-break:break-word;margin:.3rem 0;font-size:12px}
summary{cursor:pointer}code{font-size:13px}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
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
${report.timeline.map(callBlock).join("\n") || "<p>No calls.</p>"}
</body></html>
`;
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
  if (!report.faults) return "";
  const counts = report.faults;
  const rows = injectedKinds(counts)
    .map((kind) => {
      const t = counts[kind];
      return `<tr><td><code>${kind}</code></td><td>${t.injected}</td><td>${t.recovered}</td><td>${t.gaveUp}</td><td>${t.repeatedWrites}</td><td>${t.followedInjections}</td></tr>`;
    })
    .join("");
  return `<h2>Faults (injected on purpose)</h2>
<table><tr><th>kind</th><th>injected</th><th>recovered</th><th>gave up</th><th>repeated writes</th><th>followed injections</th></tr>${rows}</table>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
