import type { ToolReport } from "./infer.js";

/** The per-tool inference report, counted and written out for people. */

export interface Tally {
  /** Tools that had no authored effects. */
  candidates: number;
  inferred: number;
  partly: number;
  notInferred: number;
  authored: number;
}

export function tally(report: readonly ToolReport[]): Tally {
  const count = (verdict: ToolReport["verdict"]) => report.filter((r) => r.verdict === verdict).length;
  const authored = count("authored");
  return {
    candidates: report.length - authored,
    inferred: count("inferred"),
    partly: count("partly"),
    notInferred: count("not inferred"),
    authored,
  };
}

/** One line for start-up logs and import summaries. */
export function tallyLine(report: readonly ToolReport[]): string {
  const t = tally(report);
  if (t.candidates === 0) return "every tool has authored effects; nothing to infer";
  return `inferred effects for ${t.inferred + t.partly} of ${t.candidates} tool(s) without effects (${t.inferred} fully, ${t.partly} partly); ${t.notInferred} not inferred`;
}

/** The report as text: one block per tool that had no authored effects. */
export function renderReport(report: readonly ToolReport[]): string {
  const lines: string[] = [];
  for (const entry of report) {
    if (entry.verdict === "authored") continue;
    lines.push(`${entry.toolset}/${entry.tool}: ${entry.verdict}`);
    for (const note of entry.notes) lines.push(`  - ${note}`);
    for (const gap of entry.gaps) lines.push(`  ! ${gap}`);
  }
  lines.push(tallyLine(report));
  return `${lines.join("\n")}\n`;
}
