import { addUsage, type LlmClient } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import { AUDIT_SCHEMA, AUDIT_SYSTEM, auditUser } from "./prompts/audit.js";
import type { SimulationRequest } from "./types.js";

export interface AuditVerdict {
  verdict: "correct" | "wrong";
  problems: string[];
}

/**
 * An optional judge of a simulated answer against the spec and the call. A judge that
 * cannot answer passes the answer through: the audit refines, it never blocks.
 */
export async function auditAnswer(
  client: LlmClient,
  request: SimulationRequest,
  answer: unknown,
): Promise<{ verdict?: AuditVerdict; usage?: Usage }> {
  const attempt = await client.tryJson<AuditVerdict>({
    role: "judge",
    system: AUDIT_SYSTEM,
    user: auditUser(request, answer),
    schema: AUDIT_SCHEMA,
    schemaName: "audit_verdict",
    signal: request.signal,
  });
  if (!attempt.ok) return { usage: addUsage(attempt.usage) };
  const verdict = attempt.value;
  // a "wrong" verdict with no reason gives the regeneration nothing to fix
  if (verdict.verdict === "wrong" && verdict.problems.length === 0) return { usage: attempt.usage };
  return { verdict, usage: attempt.usage };
}
