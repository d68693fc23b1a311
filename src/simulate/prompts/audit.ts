import type { SimulationRequest } from "../types.js";
import { DATA_RULE, dataBlock } from "./data-block.js";
import { toolSpec } from "./tool-spec.js";

export const AUDIT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    verdict: { type: "string", enum: ["correct", "wrong"] },
    problems: { type: "array", items: { type: "string" } },
  },
  required: ["verdict", "problems"],
};

export const AUDIT_SYSTEM = `You review the answers of a simulated software tool. Given the tool's specification, a call and the simulated answer, decide whether a real implementation of that specification could have answered this way.

Judge "wrong" only for clear faults: the result contradicts the specification or the arguments (for example, it describes a different entity than the one asked for, ignores a filter, or reports a change the call did not make), a documented error is used where its condition does not hold (or an error the state clearly calls for is missing), or the state change does not match what the call does. Plausible invented details are fine. Do not hold the answer to rules the specification does not state.

${DATA_RULE}

Answer with one JSON object: {"verdict": "correct" or "wrong", "problems": [one short sentence per fault; empty when correct]}.`;

export function auditUser(request: SimulationRequest, answer: unknown): string {
  return [
    toolSpec(request.tool),
    dataBlock(`Arguments of the call to ${request.tool.name}`, request.args),
    dataBlock("The simulated answer (outcome, result or error, and state patch)", answer),
    "Give your verdict as the JSON object described in your instructions.",
  ].join("\n\n");
}
