import { z } from "zod";
import type { Usage } from "../store/index.js";

/** Prices per million tokens, when the user gives them. */
export interface Prices {
  input?: number;
  output?: number;
}

const UsageShape = z.object({
  requests: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  latencyMs: z.number(),
  cached: z.number().optional(),
});

/** costs.json: every run that asked the model, and their sum. */
export const CostLedger = z.object({
  runs: z.array(z.object({ at: z.string(), usage: UsageShape })),
  total: UsageShape,
});
export type CostLedger = z.infer<typeof CostLedger>;

/** The ledger with this run added (runs that asked nothing are not recorded). */
export function withRun(ledger: CostLedger | undefined, usage: Usage, at: string): CostLedger {
  const runs = [...(ledger?.runs ?? []), ...(usage.requests > 0 ? [{ at, usage }] : [])];
  const total = { requests: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 };
  for (const run of runs) {
    total.requests += run.usage.requests;
    total.promptTokens += run.usage.promptTokens;
    total.completionTokens += run.usage.completionTokens;
    total.latencyMs += run.usage.latencyMs;
  }
  return { runs, total };
}

export function estimateCost(usage: Usage, prices: Prices): number | undefined {
  if (prices.input === undefined && prices.output === undefined) return undefined;
  return (
    (usage.promptTokens * (prices.input ?? 0) + usage.completionTokens * (prices.output ?? 0)) / 1_000_000
  );
}

/** Lines of the summary: this run, and all runs on this output folder. */
export function costSummary(run: Usage, ledger: CostLedger, prices: Prices): string[] {
  const line = (label: string, usage: Usage) => {
    const cost = estimateCost(usage, prices);
    const money = cost === undefined ? "" : `, about $${cost.toFixed(4)}`;
    return `${label}: ${usage.requests} request(s), ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens${money}`;
  };
  const lines = [line("this run", run), line("all runs", ledger.total)];
  if (prices.input === undefined && prices.output === undefined)
    lines.push("(give --price-in and --price-out, in dollars per 1M tokens, for a cost estimate)");
  return lines;
}
