import type { FaultKind } from "../catalog/index.js";

/** An error as a tool answers it: the shape of the catalog's documented errors. */
export interface FaultError {
  code: string;
  status: number;
  message: string;
}

/**
 * What a call log keeps of a fault injected into a call, and what `_meta["toolsim/fault"]`
 * shows: the kind, the rule that decided it (profile/rule) and the rule's seed, with what
 * the fault did.
 */
export interface FaultRecord {
  kind: FaultKind;
  rule: string;
  seed: string;
  /** latency: how long the answer waited. */
  delayMs?: number;
  /** timeout: how long the answer was held at most. */
  holdMs?: number;
  /** rate-limited, unavailable, internal-error, timeout, lost-answer: the error the client got. */
  error?: FaultError;
  /** rate-limited: the hint the error gave. */
  retryAfterSeconds?: number;
  /** stale-read: the state version the answer came from. */
  version?: number;
  /** drift and injection: where in the result (a JSON pointer). */
  field?: string;
  /** drift: what changed. */
  change?: "omitted" | "reformatted";
  /** injection: the pattern of the corpus and its canary (a tool name, a value or a phrase). */
  pattern?: string;
  canary?: string;
  /** truncated: items kept of the list's total, and the continuation handed out, if any. */
  kept?: number;
  total?: number;
  cursor?: string;
  /**
   * A call that followed a continuation toolsim handed out: the seq of the truncated call.
   * Not a fault of its own; it answers the rest of the list.
   */
  continues?: number;
}

/** The part of a record the client sees in `_meta["toolsim/fault"]`: never a canary. */
export function faultMeta(record: FaultRecord): Record<string, unknown> {
  const { canary: _canary, ...shown } = record;
  return shown;
}

/** A stored call's fault, read back from the log (anything else is no fault). */
export function faultOf(call: { fault?: unknown }): FaultRecord | undefined {
  const fault = call.fault;
  if (!fault || typeof fault !== "object" || Array.isArray(fault)) return undefined;
  const record = fault as Partial<FaultRecord>;
  return typeof record.kind === "string" && typeof record.rule === "string"
    ? (record as FaultRecord)
    : undefined;
}
