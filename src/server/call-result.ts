import type { CallToolResult } from "@modelcontextprotocol/server";
import { type CallOutcome, rejectionText } from "../engine/index.js";
import { faultMeta } from "../faults/index.js";
import { isPlainObject } from "../patch/index.js";

/**
 * An engine outcome as an MCP tool result. A documented error and a rejected call are both
 * `isError` results (never JSON-RPC errors): the agent reads them and tries again.
 */
export function toCallToolResult(outcome: CallOutcome): CallToolResult {
  const meta: Record<string, unknown> = {
    "toolsim/call": {
      session: outcome.sessionId,
      seq: outcome.seq,
      engine: outcome.engine,
      stateVersion: outcome.versionAfter,
      ...(outcome.fallback ? { fallback: outcome.fallback } : {}),
      // what of the answer is a guess rather than read from the state, the arguments or a computation
      ...(outcome.status === "ok" ? { guessed: outcome.guessed ?? [] } : {}),
    },
  };
  if (outcome.fault) meta["toolsim/fault"] = faultMeta(outcome.fault);
  const notes = outcome.findings.filter((f) => f.severity === "note");
  if (notes.length > 0) meta["toolsim/notes"] = notes.map(({ code, message }) => ({ code, message }));

  if (outcome.status === "rejected") {
    meta["toolsim/findings"] = outcome.findings
      .filter((f) => f.severity === "error")
      .map(({ code, argument, message }) => ({ code, ...(argument ? { argument } : {}), message }));
    return {
      content: [{ type: "text", text: rejectionText(outcome.tool, outcome.findings, outcome.definition) }],
      isError: true,
      _meta: meta,
    };
  }
  // a lost answer: the write was applied and recorded, and the client reads an error instead
  const failure = outcome.fault?.kind === "lost-answer" ? outcome.fault.error : outcome.failure;
  if ((outcome.status === "error" || outcome.fault?.kind === "lost-answer") && failure) {
    meta["toolsim/error"] = failure;
    return {
      content: [{ type: "text", text: JSON.stringify({ error: failure }) }],
      isError: true,
      _meta: meta,
    };
  }
  if (outcome.status === "cancelled") {
    return {
      content: [{ type: "text", text: "The call was cancelled; nothing changed." }],
      isError: true,
      _meta: meta,
    };
  }
  const result = outcome.result ?? {};
  // a tool may answer any JSON value (an id, a number, a list); raw strings go out as they are
  const text = typeof result === "string" ? result : JSON.stringify(result);
  return {
    content: [{ type: "text", text }],
    ...(isPlainObject(result) ? { structuredContent: result } : {}),
    _meta: meta,
  };
}
