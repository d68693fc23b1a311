import { validatorFor } from "../catalog/index.js";
import { type Patch, parsePointer } from "../patch/index.js";
import { contractBreaches } from "./llm-contract.js";
import type { SimulationRequest, ToolFailure } from "./types.js";

/** The model's answer, after the response schema check. */
export interface ModelAnswer {
  outcome: "success" | "error";
  result?: Record<string, unknown> | null;
  error?: { code: string; status?: number; message: string } | null;
  patch: Patch;
}

export type CheckedAnswer =
  | { ok: true; kind: "success"; result: Record<string, unknown>; patch: Patch }
  | { ok: true; kind: "failure"; failure: ToolFailure }
  /** `breach`: the answer broke the tool's contract (see llm-contract.ts); not worth a repair. */
  | { ok: false; problems: string[]; breach?: boolean };

/**
 * Holds a model's answer to what the call allows: a documented error, or a result valid
 * against the output schema (with the effects' values laid over it) and a patch that
 * applies to the state, stays inside it, leaves the clock and the effects' work alone, and
 * keeps to the tool's contract (nothing for a read-only tool, only what the call concerns).
 */
export function checkAnswer(answer: ModelAnswer, request: SimulationRequest): CheckedAnswer {
  const { tool, effects } = request;
  if (answer.outcome === "error") {
    if (effects.status === "applied") {
      return {
        ok: false,
        problems: [
          'the tool\'s declared effects already decided that this call succeeds; answer with outcome "success"',
        ],
      };
    }
    const error = answer.error;
    if (!error)
      return {
        ok: false,
        problems: ['outcome "error" needs an "error" object with code, status and message'],
      };
    const documented = tool.errors.find((e) => e.code === error.code);
    if (tool.errors.length > 0 && !documented) {
      const codes = tool.errors.map((e) => e.code).join(", ");
      return {
        ok: false,
        problems: [
          `error code "${error.code}" is not documented for this tool; use one of ${codes}, or answer with success`,
        ],
      };
    }
    const status = documented?.status ?? (isErrorStatus(error.status) ? error.status : 400);
    return { ok: true, kind: "failure", failure: { code: error.code, status, message: error.message } };
  }

  const problems: string[] = [];
  const result: Record<string, unknown> = { ...(answer.result ?? {}) };
  if (effects.status === "applied") Object.assign(result, effects.output);
  if (tool.outputSchema) {
    const validate = validatorFor(tool.outputSchema);
    if (!validate(result)) {
      for (const e of validate.errors ?? [])
        problems.push(`result${e.instancePath} ${e.message ?? "is invalid"}`);
    }
  }
  problems.push(...patchProblems(answer.patch, request));
  if (problems.length > 0) return { ok: false, problems };
  const breaches = contractBreaches(answer.patch, request);
  if (breaches.length > 0) return { ok: false, problems: breaches, breach: true };
  return { ok: true, kind: "success", result, patch: answer.patch };
}

function patchProblems(patch: Patch, request: SimulationRequest): string[] {
  const problems: string[] = [];
  const touched = request.effects.status === "applied" ? request.effects.touched : [];
  for (const [index, operation] of patch.entries()) {
    for (const pointer of pointersOf(operation)) {
      const where = `patch operation ${index} (${operation.op} ${pointer})`;
      try {
        parsePointer(pointer);
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`);
        continue;
      }
      if (pointer === "")
        problems.push(`${where} replaces the whole state; change entities by their paths instead`);
      else if (pointer === "/runtime/now" || pointer === "/runtime")
        problems.push(`${where} changes the clock, which the simulator keeps`);
      const effectsOwn = touched.find(
        (t) => pointer === t || pointer.startsWith(`${t}/`) || t.startsWith(`${pointer}/`),
      );
      if (effectsOwn)
        problems.push(
          `${where} changes ${effectsOwn}, which the declared effects already set; leave it as it is`,
        );
    }
  }
  if (problems.length > 0) return problems;
  const applied = request.state.apply(patch);
  if (!applied.ok) problems.push(`the patch does not apply to the state: ${applied.error}`);
  return problems;
}

function pointersOf(operation: Patch[number]): string[] {
  return "from" in operation ? [operation.path, operation.from] : [operation.path];
}

function isErrorStatus(status: number | undefined): status is number {
  return status !== undefined && Number.isInteger(status) && status >= 400 && status <= 599;
}
