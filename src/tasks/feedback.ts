import type { ArgumentDifference } from "./compare.js";
import type { GoldenVerdict } from "./golden.js";
import type { TaskVerdict } from "./verdict.js";

/**
 * The verdict in words an agent can act on: what is done, what remains, what went wrong.
 * It names tools and arguments but never the solution's values, so the feedback steers
 * without handing over the answer.
 */
export function feedbackText(verdict: TaskVerdict): string {
  const lines = [headline(verdict)];
  if (verdict.golden) lines.push(...goldenLines(verdict.golden, verdict));
  if (verdict.checklist) {
    for (const item of verdict.checklist.items) {
      lines.push(`- [${item.status}] ${item.item} — ${item.reason}`);
    }
  }
  if (verdict.judge === "none" && verdict.unavailable)
    lines.push(`Completion is unknown: ${verdict.unavailable}.`);
  if (verdict.calls.rejected > 0) {
    lines.push(
      `${plural(verdict.calls.rejected, "call was", "calls were")} rejected by validation and changed nothing; their error texts say what to fix.`,
    );
  }
  if (verdict.judge === "checklist" && verdict.valid && verdict.infeasibleDeclared && !verdict.solved) {
    lines.push("You said the task cannot be done as asked, but it can.");
  }
  return lines.join("\n");
}

function headline(verdict: TaskVerdict): string {
  const task = `Task ${verdict.taskId}`;
  if (verdict.solved === true) return `${task}: solved.`;
  if (verdict.solved === null) return `${task}: not judged.`;
  const { done, total } = verdict.progress;
  return `${task}: not solved yet (${done} of ${total} ${verdict.judge === "golden" ? "steps" : "checklist items"} done).`;
}

function goldenLines(golden: GoldenVerdict, verdict: TaskVerdict): string[] {
  const lines: string[] = [];
  const done = golden.steps.filter((s) => s.status === "done" && !s.outOfOrder);
  if (done.length > 0) lines.push(`Done: ${done.map((s) => `${s.tool} (call #${s.seq})`).join(", ")}.`);
  for (const step of golden.steps) {
    if (step.status === "wrong-arguments") {
      lines.push(
        `Wrong arguments in ${step.tool} (call #${step.seq}): ${describeDifferences(step.differences)}.`,
      );
    } else if (step.status === "failed") {
      lines.push(`${step.tool} (call #${step.seq}) answered an error; the call has to succeed.`);
    } else if (step.status === "done" && step.outOfOrder) {
      lines.push(`${step.tool} (call #${step.seq}) came in the wrong order relative to the other steps.`);
    }
  }
  const notes = golden.steps.flatMap((s) =>
    s.differences.filter((d) => d.severity === "note").map((d) => `${s.tool}.${d.argument}`),
  );
  if (notes.length > 0) lines.push(`Accepted, though not asked for: ${notes.join(", ")}.`);
  const missing = golden.steps.filter((s) => s.status === "missing");
  if (missing.length > 0) {
    lines.push(
      `Still to do: ${plural(missing.length, "more call")} (${missing.map((s) => s.tool).join(", ")}).`,
    );
  }
  const writes = golden.extra.filter((e) => e.write);
  const reads = golden.extra.filter((e) => !e.write);
  if (writes.length > 0) {
    lines.push(
      `Not part of the task and possibly harmful: ${writes.map((e) => `${e.tool} (call #${e.seq})`).join(", ")}. Restore a checkpoint or sim_reset to undo changes.`,
    );
  }
  if (reads.length > 0)
    lines.push(`Not needed: ${reads.map((e) => `${e.tool} (call #${e.seq})`).join(", ")}.`);
  if (!verdict.valid && !verdict.solved && missing.length === 0 && golden.attemptedWrites === 0) {
    lines.push("Nothing more is needed from the tools; what remains is your answer to the user.");
  }
  if (verdict.valid && verdict.infeasibleDeclared && !verdict.solved) {
    lines.push("You said the task cannot be done as asked, but it can.");
  }
  return lines;
}

function describeDifferences(differences: readonly ArgumentDifference[]): string {
  return differences
    .filter((d) => d.severity === "error")
    .map((d) =>
      d.kind === "missing"
        ? `${d.argument} is missing`
        : d.kind === "unexpected"
          ? `${d.argument} should not be passed`
          : d.freeText
            ? `${d.argument} does not say what the task needs`
            : `${d.argument} has the wrong value`,
    )
    .join("; ");
}

function plural(count: number, one: string, many?: string): string {
  return `${count} ${count === 1 ? one : (many ?? `${one}s`)}`;
}
