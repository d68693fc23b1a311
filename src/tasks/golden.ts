import type { SolutionCall, Tool } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import type { CallRecord } from "../store/index.js";
import { type ArgumentDifference, compareArguments, normalizeToolName, type TextJudge } from "./compare.js";

/** One step of the golden solution and the call that answered it, if any. */
export interface GoldenStep {
  step: number;
  tool: string;
  /**
   * done: a successful call with the solution's arguments; wrong-arguments: the tool was called
   * with other arguments (IAV); failed: the call was made but the tool answered an error;
   * missing: no call (IAC).
   */
  status: "done" | "wrong-arguments" | "failed" | "missing";
  seq?: number;
  differences: ArgumentDifference[];
  /** Matched, but before a step the solution puts earlier. */
  outOfOrder: boolean;
}

/** A call that answers no step of the solution. */
export interface ExtraCall {
  seq: number;
  tool: string;
  status: "ok" | "error";
  /** The tool is not read-only, or the call changed the state. */
  write: boolean;
}

export interface GoldenVerdict {
  solved: boolean;
  steps: GoldenStep[];
  extra: ExtraCall[];
  /** Steps with no call (IAC). */
  missing: number;
  /** Steps called with other arguments (IAV). */
  wrongArguments: number;
  failed: number;
  outOfOrder: number;
  /** For an invalid task: writes the solution does not make (attempts at the impossible part). */
  attemptedWrites: number;
}

export interface GoldenInput {
  solution: readonly SolutionCall[];
  /** The calls of the attempt, in order (see episodeCalls). */
  calls: readonly CallRecord[];
  tool: (name: string) => Tool | undefined;
  valid: boolean;
  /** The agent said the task cannot be done. */
  infeasible: boolean;
  /** Judges free-text arguments (default: word overlap, see free-text.ts). */
  judgeText?: TextJudge;
}

/**
 * Deterministic judging against a golden call sequence: every step is matched to at most
 * one executed call (first the calls that match exactly, then the closest by arguments),
 * the order is checked on what matched (steps of one parallel group may come in any order),
 * and whatever answered no step is an extra call.
 */
export function judgeGolden(input: GoldenInput): GoldenVerdict {
  const candidates = input.calls.filter((c) => c.status !== "rejected");
  const assigned = new Map<number, CallRecord>();
  const used = new Set<number>();
  const differencesOf = (step: SolutionCall, call: CallRecord) =>
    compareArguments(
      step.arguments,
      isPlainObject(call.arguments) ? call.arguments : {},
      input.tool(call.tool),
      {
        judgeText: input.judgeText,
      },
    );
  const sameTool = (step: SolutionCall, call: CallRecord) =>
    normalizeToolName(step.tool) === normalizeToolName(call.tool);

  input.solution.forEach((step, index) => {
    const exact = candidates.find(
      (call) =>
        !used.has(call.seq) &&
        call.status === "ok" &&
        sameTool(step, call) &&
        !differencesOf(step, call).some((d) => d.severity === "error"),
    );
    if (exact) {
      assigned.set(index, exact);
      used.add(exact.seq);
    }
  });
  input.solution.forEach((step, index) => {
    if (assigned.has(index)) return;
    let best: { call: CallRecord; cost: number } | undefined;
    for (const call of candidates) {
      if (used.has(call.seq) || !sameTool(step, call)) continue;
      const errors = differencesOf(step, call).filter((d) => d.severity === "error").length;
      const cost = errors + (call.status === "ok" ? 0 : 100);
      if (!best || cost < best.cost) best = { call, cost };
    }
    if (best) {
      assigned.set(index, best.call);
      used.add(best.call.seq);
    }
  });

  const blocks = blockIndexes(input.solution);
  const late = outOfOrderSteps(assigned, blocks);
  const steps: GoldenStep[] = input.solution.map((step, index) => {
    const call = assigned.get(index);
    if (!call) return { step: index, tool: step.tool, status: "missing", differences: [], outOfOrder: false };
    const differences = differencesOf(step, call);
    const status =
      call.status !== "ok"
        ? "failed"
        : differences.some((d) => d.severity === "error")
          ? "wrong-arguments"
          : "done";
    return { step: index, tool: step.tool, status, seq: call.seq, differences, outOfOrder: late.has(index) };
  });

  const extra: ExtraCall[] = candidates
    .filter((call) => !used.has(call.seq))
    .map((call) => ({
      seq: call.seq,
      tool: call.tool,
      status: call.status === "ok" ? "ok" : "error",
      write:
        call.versionAfter !== call.versionBefore || input.tool(call.tool)?.annotations?.readOnlyHint !== true,
    }));
  const count = (status: GoldenStep["status"]) => steps.filter((s) => s.status === status).length;
  const outOfOrder = steps.filter((s) => s.outOfOrder).length;
  const stateChangingExtras = extra.filter(
    (e) =>
      e.status === "ok" && input.calls.some((c) => c.seq === e.seq && c.versionAfter !== c.versionBefore),
  ).length;
  const attemptedWrites = input.valid ? 0 : extra.filter((e) => e.write).length;
  const solved = input.valid
    ? count("done") === steps.length && outOfOrder === 0 && stateChangingExtras === 0 && !input.infeasible
    : attemptedWrites === 0 && input.infeasible;
  return {
    solved,
    steps,
    extra,
    missing: count("missing"),
    wrongArguments: count("wrong-arguments"),
    failed: count("failed"),
    outOfOrder,
    attemptedWrites,
  };
}

/** Steps in one run of a shared `group` share a block; every other step is a block of its own. */
function blockIndexes(solution: readonly SolutionCall[]): number[] {
  const blocks: number[] = [];
  let block = -1;
  solution.forEach((step, index) => {
    const previous = solution[index - 1];
    const joins = index > 0 && step.group !== undefined && previous?.group === step.group;
    if (!joins) block++;
    blocks.push(block);
  });
  return blocks;
}

/**
 * The matched steps that break the order: taking the matches in call order, the longest run
 * whose blocks never go back is in order; the rest came too early or too late.
 */
function outOfOrderSteps(assigned: ReadonlyMap<number, CallRecord>, blocks: readonly number[]): Set<number> {
  const matches = [...assigned.entries()]
    .map(([step, call]) => ({ step, seq: call.seq, block: blocks[step] ?? 0 }))
    .sort((a, b) => a.seq - b.seq);
  const length = matches.map(() => 1);
  const previous = matches.map(() => -1);
  for (let i = 0; i < matches.length; i++) {
    for (let j = 0; j < i; j++) {
      if ((matches[j]?.block ?? 0) <= (matches[i]?.block ?? 0) && (length[j] ?? 0) + 1 > (length[i] ?? 0)) {
        length[i] = (length[j] ?? 0) + 1;
        previous[i] = j;
      }
    }
  }
  let end = -1;
  for (let i = 0; i < matches.length; i++) if (end < 0 || (length[i] ?? 0) > (length[end] ?? 0)) end = i;
  const inOrder = new Set<number>();
  for (let i = end; i >= 0; i = previous[i] ?? -1) inOrder.add(matches[i]?.step ?? -1);
  return new Set(matches.filter((m) => !inOrder.has(m.step)).map((m) => m.step));
}
