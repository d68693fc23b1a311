import type { Task, Tool } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import type { CallRecord, Usage } from "../store/index.js";
import type { ChecklistJudge } from "./checklist.js";
import { normalizeString, normalizeToolName, propertySchema, type TextJudge } from "./compare.js";
import { isFreeText, sameText } from "./free-text.js";

/**
 * With a model configured, the golden judge's free-text comparisons are put to the
 * checklist judge: one item per (solution text, call text) pair that is not already the
 * same words, asking whether the call's text says what the solution's says. Word overlap
 * remains the judge of whatever the model did not answer.
 */

export interface TextJudgeInput {
  judge: ChecklistJudge;
  task: Task;
  /** The calls of the attempt. */
  calls: readonly CallRecord[];
  tool: (name: string) => Tool | undefined;
  finalState: unknown;
  answer?: string;
  infeasible: boolean;
  signal?: AbortSignal;
}

export type ModelTextVerdicts =
  | { ok: true; judgeText: TextJudge; asked: number; usage?: Usage }
  | { ok: false; error: string };

interface TextPair {
  expected: string;
  actual: string;
  argument: string;
  seq: number;
  tool: string;
}

export async function judgeTextsWithModel(input: TextJudgeInput): Promise<ModelTextVerdicts> {
  const pairs = textPairs(input);
  if (pairs.length === 0) return { ok: true, judgeText: sameText, asked: 0 };
  const items = pairs.map(
    (pair) =>
      `In call #${pair.seq} (${pair.tool}), the free-text argument "${pair.argument}" says in substance ` +
      `what this text says (other wording is fine; a different fact, amount, date or meaning is not): ` +
      JSON.stringify(pair.expected),
  );
  try {
    const judged = await input.judge.judge({
      task: input.task,
      items,
      initialState: input.task.state,
      finalState: input.finalState,
      calls: input.calls,
      answer: input.answer,
      infeasible: input.infeasible,
      signal: input.signal,
    });
    const verdicts = new Map<string, boolean>();
    pairs.forEach((pair, index) => {
      const status = judged.items[index]?.status;
      if (status) verdicts.set(pairKey(pair.expected, pair.actual), status === "completed");
    });
    const judgeText: TextJudge = (expected, actual) =>
      verdicts.get(pairKey(expected, actual)) ?? sameText(expected, actual);
    return { ok: true, judgeText, asked: pairs.length, usage: judged.usage };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `the model could not judge free text (${reason}); word overlap decided` };
  }
}

/**
 * Every pair a golden comparison may ask about: for each solution step's free-text
 * arguments, the same argument of each successful call to that tool, unless the two texts
 * are the same words already.
 */
function textPairs(input: TextJudgeInput): TextPair[] {
  const pairs: TextPair[] = [];
  const seen = new Set<string>();
  for (const step of input.task.solution) {
    for (const call of input.calls) {
      if (call.status !== "ok" || normalizeToolName(call.tool) !== normalizeToolName(step.tool)) continue;
      const args = isPlainObject(call.arguments) ? call.arguments : {};
      const schema = input.tool(call.tool)?.inputSchema;
      for (const [argument, expected] of Object.entries(step.arguments)) {
        const actual = args[argument];
        if (typeof expected !== "string" || typeof actual !== "string") continue;
        if (!isFreeText(argument, propertySchema(schema, argument))) continue;
        if (normalizeString(expected) === normalizeString(actual)) continue;
        const key = pairKey(expected, actual);
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push({ expected, actual, argument, seq: call.seq, tool: call.tool });
      }
    }
  }
  return pairs;
}

function pairKey(expected: string, actual: string): string {
  return JSON.stringify([normalizeString(expected), normalizeString(actual)]);
}
