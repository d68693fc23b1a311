import { type Tool, type Toolset, Toolset as ToolsetSchema } from "../../src/catalog/index.js";
import { runEffects } from "../../src/engine/index.js";
import { inferToolset, type ToolReport } from "../../src/infer/index.js";
import { applyPatch } from "../../src/patch/index.js";
import { OfflineSimulator } from "../../src/simulate/index.js";
import { State as SessionState, type StateDocument } from "../../src/state/index.js";

/**
 * Small worlds for the rules of inference: a toolset written in a test, inferred in this
 * process (so that mutation runs reach `src/infer/`), and one tool run on its state.
 */

export const NOW = "2026-03-02T09:00:00Z";

export interface ToolError {
  code: string;
  status: number;
  message: string;
  when: string;
}

export function tool(
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  required: string[] = Object.keys(properties),
  errors: ToolError[] = [],
  more: Record<string, unknown> = {},
) {
  return { name, description, inputSchema: { type: "object", properties, required }, errors, ...more };
}

export function error(code: string, message: string, when = message, status = 400): ToolError {
  return { code, status, message, when };
}

export const text = { type: "string" };
export const integer = { type: "integer" };
export const number = { type: "number" };
export const bool = { type: "boolean" };

/** A tool's output schema: an object of these properties. */
export const outputs = (properties: Record<string, unknown>) => ({
  outputSchema: { type: "object", properties },
});

export function world(state: Record<string, unknown>, tools: unknown[]): Toolset {
  return ToolsetSchema.parse({
    id: "w",
    field: "Tests",
    subdomain: "Inference",
    description: "A world.",
    state,
    tools,
  });
}

export type State = Record<string, unknown>;

/** The world inferred: a tool as inferred, its report, and the state as inference leaves it. */
export function inferred(toolset: Toolset, name: string): { tool: Tool; report: ToolReport; state: State } {
  const result = inferToolset(toolset);
  const found = result.toolset.tools.find((t) => t.name === name);
  const report = result.report.find((r) => r.tool === name);
  if (!found || !report) throw new Error(`no tool ${name}`);
  return { tool: found, report, state: result.toolset.state };
}

/** Infers the world and runs one tool on its state: the outcome, the state after, the tool and its report. */
export async function call(toolset: Toolset, name: string, args: Record<string, unknown>, state?: State) {
  const { tool: found, report, state: world } = inferred(toolset, name);
  // the state as served: records of maps whose keys answers name keep them (`withKeyFields`)
  const before = state ?? world;
  const outcome = await runEffects(found, args, before, NOW);
  const applied =
    outcome.status === "applied" ? applyPatch(structuredClone(before), outcome.patch) : undefined;
  return {
    outcome,
    /** What the effects answer: a whole result a `respond` decided, else the parts they placed. */
    answer: outcome.status === "applied" ? (outcome.result ?? outcome.output) : undefined,
    after: (applied?.ok ? applied.document : before) as State,
    tool: found,
    report,
  };
}

/** The error code of a failed outcome, or what happened instead. */
export const failure = (outcome: { status: string; failure?: { code?: string } }) =>
  outcome.status === "failed" ? outcome.failure?.code : `not failed: ${outcome.status}`;

/** What the offline engine answers once a call's effects ran, as `serve --engine offline` does. */
export function offlineAnswer(ran: Awaited<ReturnType<typeof call>>, args: Record<string, unknown>) {
  return new OfflineSimulator().respondNow({
    tool: ran.tool,
    args,
    state: SessionState.fromDocument(ran.after as StateDocument),
    effects: ran.outcome,
    history: [],
    seed: "0",
    now: NOW,
  });
}
