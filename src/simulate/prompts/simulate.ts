import { contractOf } from "../llm-contract.js";
import type { StateView } from "../state-slice.js";
import type { EffectsResult, HistoryEntry, SimulationRequest } from "../types.js";
import { compact, DATA_RULE, dataBlock } from "./data-block.js";
import { toolSpec } from "./tool-spec.js";

/** The JSON Schema of the one object the model answers with. */
export const ANSWER_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    outcome: { type: "string", enum: ["success", "error"] },
    result: { type: ["object", "null"] },
    error: {
      anyOf: [
        { type: "null" },
        {
          type: "object",
          properties: { code: { type: "string" }, status: { type: "integer" }, message: { type: "string" } },
          required: ["code", "message"],
        },
      ],
    },
    patch: {
      type: "array",
      items: {
        type: "object",
        properties: {
          op: { type: "string", enum: ["add", "remove", "replace", "move", "copy", "test"] },
          path: { type: "string" },
          from: { type: "string" },
          value: {},
        },
        required: ["op", "path"],
      },
    },
  },
  required: ["outcome", "patch"],
};

export const SIMULATE_SYSTEM = `You are the server behind a software tool. A simulator hands you one call to the tool together with what you need to know about the service's stored data, and you answer exactly as the real service would: with a result or with one of the tool's documented errors, plus the change the call makes to the stored data.

Rules:
1. Follow the tool's specification: description, usage notes, parameters and output schema. A successful result must be valid against the output schema.
2. Answer with a documented error when the state or the arguments call for one (for example, the entity the call names does not exist and the tool says it must, or its status forbids the operation). Use the documented code and status exactly and write a short message a caller can act on. Do not invent restrictions the specification does not state.
3. A read of something the state does not hold returns plausible, realistic data, unless the specification says it must exist.
4. A write stays consistent with the state: change only what the call implies, keep identifiers and existing fields, and report the new values in the result.
5. Agree with the earlier calls of the session: the same entities keep the same values.
6. The patch is a list of RFC 6902 operations against the session state document, with paths such as /orders/ORD-1/status. A read returns an empty patch. Never change /runtime/now: the simulator keeps the clock. The patch may change only the entities this call concerns (listed with the call) and add new entities; it never removes or replaces a whole collection or the document, and a read-only tool's patch is empty. A patch outside these limits is discarded.
7. ${DATA_RULE}

Answer with one JSON object and nothing else:
{"outcome": "success" or "error", "result": the tool's result on success (null on error), "error": {"code", "status", "message"} on error (null on success), "patch": [RFC 6902 operations]}`;

const HISTORY_RESULT_CHARS = 1_200;

/** The user message of a simulation request: spec, effects' outcome, state view, recent calls, the call. */
export function simulateUser(request: SimulationRequest, view: StateView): string {
  const parts = [
    toolSpec(request.tool),
    effectsSection(request.effects),
    contractSection(request),
    `Simulated time now: ${request.now}`,
  ];
  parts.push(stateSection(view));
  parts.push(historySection(request.history));
  parts.push(dataBlock(`Arguments of this call to ${request.tool.name}`, request.args));
  parts.push("Answer this call with the JSON object described in your instructions.");
  return parts.join("\n\n");
}

const LISTED_ENTITIES = 20;

/** What the patch may change (rule 6), so a model that follows it is never discarded. */
function contractSection(request: SimulationRequest): string {
  const contract = contractOf(request);
  if (contract.readOnly) return `State changes allowed: none; this tool is read-only (${contract.readOnly}).`;
  if (contract.concerned.size === 0)
    return "State changes allowed: new entities the call creates (its arguments name no stored entity).";
  const listed = [...contract.concerned].slice(0, LISTED_ENTITIES);
  return [
    "State changes allowed: the entities listed below (JSON pointers) and new entities the call creates.",
    dataBlock("Entities this call may change", listed),
  ].join("\n\n");
}

function effectsSection(effects: EffectsResult): string {
  if (effects.status !== "applied")
    return "Declared effects: none ran for this call; you decide the outcome.";
  return [
    "The tool's declared effects have already run and succeeded. The state below includes their changes. Build a successful result around them: it must contain these values, and your patch must not undo or contradict these changes (add only further changes they imply, usually none).",
    dataBlock("Values the effects put in the result", effects.output),
    dataBlock("Changes the effects made (RFC 6902)", effects.patch),
  ].join("\n\n");
}

function stateSection(view: StateView): string {
  if (view.kind === "whole") return dataBlock("Session state (the whole document)", view.document);
  const parts = [
    "Session state: too large to show whole. Below are the entities this call concerns (by JSON pointer), a summary of every collection, and the runtime context. An entity the call names that is not listed here is not in the state (rule 3 says how to answer a read of it).",
    dataBlock("Entities this call concerns", view.entities),
    dataBlock("Collections (count, sample keys, field names)", view.collections),
  ];
  if (view.runtime !== undefined) parts.push(dataBlock("Runtime context (/runtime)", view.runtime));
  return parts.join("\n\n");
}

function historySection(history: readonly HistoryEntry[]): string {
  if (history.length === 0) return "Earlier calls in this session: none.";
  const entries = [...history]
    .sort((a, b) => a.seq - b.seq)
    .map((h) => ({
      seq: h.seq,
      tool: h.tool,
      arguments: compact(h.arguments, HISTORY_RESULT_CHARS),
      status: h.status,
      ...(h.result === undefined ? {} : { result: compact(h.result, HISTORY_RESULT_CHARS) }),
      ...(h.error === undefined ? {} : { error: h.error }),
    }));
  return dataBlock("Earlier calls in this session, oldest first", entries);
}
