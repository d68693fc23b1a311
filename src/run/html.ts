import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import type { Catalog } from "../catalog/index.js";
import type { Store } from "../store/index.js";
import { buildReport, escapeHtml, faultCountsHtml, REPORT_STYLE, reportHtml } from "../tasks/index.js";
import type { AttemptResult } from "./attempt.js";
import type { PassRates, RunSummary } from "./results.js";
import { percent } from "./summary-text.js";

/**
 * The run as HTML: FILE is the run's page (pass rates, tasks, every attempt), and a folder
 * beside it holds one page per attempt with its trajectory: what was said, every call with
 * its result and state changes, the verdict. Pages link each other by relative paths, so
 * the folder can be moved or served as it is. Returns the files written.
 */
export async function writeRunHtml(
  file: string,
  input: { summary: RunSummary; results: readonly AttemptResult[]; catalog: Catalog; store: Store },
): Promise<string[]> {
  const folderName = `${basename(file, extname(file))}-attempts`;
  const folder = join(dirname(file), folderName);
  mkdirSync(folder, { recursive: true });
  const written: string[] = [];
  const pageOf = (result: AttemptResult) => `${result.task}-${result.attempt}.html`;
  for (const result of input.results) {
    const session = await input.store.session(result.sessionId, "");
    if (!session) continue;
    const report = await buildReport({ catalog: input.catalog, store: input.store }, session);
    const page = join(folder, pageOf(result));
    writeFileSync(
      page,
      reportHtml(report, {
        back: { href: `../${basename(file)}`, label: `run ${input.summary.run}` },
        lead: attemptLead(result),
        conversation: result.conversation,
      }),
    );
    written.push(page);
  }
  writeFileSync(
    file,
    runPage(input.summary, input.results, (r) => `${folderName}/${pageOf(r)}`),
  );
  return [file, ...written];
}

function attemptLead(result: AttemptResult): string {
  const tries = result.tries.map(
    (t, i) => `try ${i + 1}: ${t.outcome} (${t.progress.done}/${t.progress.total})`,
  );
  return `<p class="${outcomeClass(result.outcome)}"><b>Run outcome: ${escapeHtml(result.outcome)}</b>${
    tries.length ? ` — ${escapeHtml(tries.join(", "))}` : ""
  }${result.error ? ` — ${escapeHtml(result.error.kind)}: ${escapeHtml(result.error.message)}` : ""}</p>
<p>Attempt ${result.attempt} of task <code>${escapeHtml(result.task)}</code> · ${result.turns} user turn(s) · ${result.steps} model request(s) · ${escapeHtml(STOPPED[result.stoppedBy ?? "error"])} · ${Math.round(result.durationMs)} ms</p>`;
}

const STOPPED: Record<NonNullable<AttemptResult["stoppedBy"]> | "error", string> = {
  answer: "the agent answered",
  "step-cap": "the agent hit the step cap",
  exit: "the agent command exited",
  error: "ended by an error",
};

function runPage(
  summary: RunSummary,
  results: readonly AttemptResult[],
  href: (result: AttemptResult) => string,
): string {
  const a = summary.attempts;
  const head = [...Array.from({ length: summary.k }, (_, j) => `pass^${j + 1}`), `pass@${summary.k}`];
  const cells = (rates: PassRates) =>
    [...rates.passHat, rates.passAt[summary.k - 1] ?? null]
      .map((v) => `<td class="n">${percent(v)}</td>`)
      .join("");
  const rateRows = [
    `<tr><td>all tasks</td>${cells(summary.overall)}</tr>`,
    ...(summary.firstTry ? [`<tr><td>first try only</td>${cells(summary.firstTry)}</tr>`] : []),
  ].join("");
  const taskRows = summary.perTask
    .map(
      (t) =>
        `<tr><td><code>${escapeHtml(t.task)}</code></td><td class="n">${t.attempts > t.unjudged ? `${t.passed}/${t.attempts - t.unjudged}` : "–"}</td>${cells(t)}<td class="n">${t.error}</td></tr>`,
    )
    .join("");
  const attemptRows = results
    .map(
      (r) =>
        `<tr><td><a href="${escapeHtml(href(r))}">${escapeHtml(r.session)}</a></td><td class="${outcomeClass(r.outcome)}">${escapeHtml(r.outcome)}</td><td class="n">${r.tries.length}</td><td class="n">${r.verdict ? `${r.verdict.progress.done}/${r.verdict.progress.total}` : "–"}</td><td class="n">${r.calls.total}</td><td class="n">${r.calls.rejected}</td><td class="n">${injectedCount(r)}</td><td class="n">${Math.round(r.durationMs)} ms</td><td>${escapeHtml(r.error ? `${r.error.kind}: ${r.error.message}` : (r.answer ?? ""))}</td></tr>`,
    )
    .join("");
  const patterns = summary.toolscan
    .map(
      (p) =>
        `<tr><td><code>${p.code}</code></td><td>${escapeHtml(p.name)}</td><td class="n">${p.count}</td><td class="n">${percent(p.rate)}</td></tr>`,
    )
    .join("");
  const title = `toolsim run ${summary.run}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
${REPORT_STYLE}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(summary.agent)} · ${summary.tasks} task(s) × k = ${summary.k} · seed ${escapeHtml(summary.seed)} · ${escapeHtml(summary.status)}${summary.note ? ` (${escapeHtml(summary.note)})` : ""}</p>
<p>${a.finished} of ${a.planned} attempts: <span class="good">${a.passed} passed</span>, <span class="bad">${a.failed} failed</span>, <span class="warn">${a.error} error(s)</span>, ${a.unjudged} unjudged${summary.cost !== undefined ? ` · cost $${summary.cost.toFixed(4)}` : ""}</p>
<h2>Pass rates</h2>
<table><tr><th></th>${head.map((h) => `<th class="n">${h}</th>`).join("")}</tr>${rateRows}</table>
<h2>Tasks</h2>
<table><tr><th>task</th><th class="n">passed</th>${head.map((h) => `<th class="n">${h}</th>`).join("")}<th class="n">errors</th></tr>${taskRows}</table>
<h2>Attempts</h2>
<table><tr><th>session</th><th>outcome</th><th class="n">tries</th><th class="n">progress</th><th class="n">calls</th><th class="n">rejected</th><th class="n">faults</th><th class="n">time</th><th>answer or error</th></tr>${attemptRows}</table>
${faultsSection(summary)}<h2>ToolScan patterns</h2>
<table><tr><th>code</th><th>pattern</th><th class="n">count</th><th class="n">rate</th></tr>${patterns}</table>
</body></html>
`;
}

/** Faults injected into an attempt's calls, all kinds together. */
function injectedCount(result: AttemptResult): number {
  return Object.values(result.faults ?? {}).reduce((total, tally) => total + tally.injected, 0);
}

function faultsSection(summary: RunSummary): string {
  if (!summary.faults && summary.faultProfile === undefined) return "";
  const source =
    summary.faultProfile !== undefined
      ? `<code>--faults ${escapeHtml(summary.faultProfile)}</code>`
      : "the tasks' own profiles";
  return `<h2>Faults (injected on purpose)</h2>
<p>From ${source}, summed over the attempts; each attempt's page has its own.</p>
${summary.faults ? faultCountsHtml(summary.faults) : "<p>None injected.</p>"}
`;
}

function outcomeClass(outcome: string): string {
  return outcome === "passed" ? "good" : outcome === "error" ? "warn" : "bad";
}
