import type {
  AttemptOutcome,
  CallRecord,
  CallStatus,
  RunAttemptRecord,
  RunRecord,
  RunStatus,
  SessionRecord,
  SessionScope,
  StoredFault,
  TaskAnswerRecord,
  Usage,
} from "./types.js";

/** Rows as the drivers return them: column name → value. */
export type Row = Record<string, unknown>;

export function toSession(row: Row): SessionRecord {
  return {
    id: String(row.id),
    tenant: String(row.tenant ?? ""),
    name: row.name === null ? null : String(row.name),
    seed: String(row.seed),
    taskId: row.task_id === null ? null : String(row.task_id),
    scope: JSON.parse(String(row.scope)) as SessionScope,
    headVersion: Number(row.head_version),
    nextSeq: Number(row.next_seq),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    forkedFrom: row.forked_from === null ? null : String(row.forked_from),
  };
}

export function callRow(call: CallRecord): Row {
  return {
    session_id: call.sessionId,
    seq: call.seq,
    tool: call.tool,
    arguments: JSON.stringify(call.arguments ?? null),
    args_hash: call.argsHash,
    status: call.status,
    findings: JSON.stringify(call.findings),
    result: call.result === undefined ? null : JSON.stringify(call.result),
    error: call.error === undefined ? null : JSON.stringify(call.error),
    version_before: call.versionBefore,
    version_after: call.versionAfter,
    engine: call.engine,
    fallback: call.fallback ?? null,
    usage: call.usage ? JSON.stringify(call.usage) : null,
    latency_ms: call.latencyMs,
    created_at: call.createdAt,
    fault: call.fault ? JSON.stringify(call.fault) : null,
  };
}

export function toCall(row: Row): CallRecord {
  const parse = (value: unknown) =>
    value === null || value === undefined ? undefined : JSON.parse(String(value));
  return {
    sessionId: String(row.session_id),
    seq: Number(row.seq),
    tool: String(row.tool),
    arguments: JSON.parse(String(row.arguments)),
    argsHash: String(row.args_hash),
    status: String(row.status) as CallStatus,
    findings: JSON.parse(String(row.findings)),
    result: parse(row.result),
    error: parse(row.error),
    versionBefore: Number(row.version_before),
    versionAfter: Number(row.version_after),
    engine: String(row.engine),
    fallback: row.fallback === null || row.fallback === undefined ? undefined : String(row.fallback),
    usage: parse(row.usage) as Usage | undefined,
    latencyMs: Number(row.latency_ms),
    createdAt: String(row.created_at),
    ...(row.fault === null || row.fault === undefined ? {} : { fault: parse(row.fault) as StoredFault }),
  };
}

export function toAnswer(sessionId: string, row: Row): TaskAnswerRecord {
  return {
    sessionId,
    seq: Number(row.seq),
    version: Number(row.version),
    answer: row.answer === null ? undefined : String(row.answer),
    infeasible: Number(row.infeasible) === 1,
    createdAt: String(row.created_at),
  };
}

export function toRun(row: Row): RunRecord {
  return {
    id: String(row.id),
    number: Number(row.number),
    seed: String(row.seed),
    status: String(row.status) as RunStatus,
    plan: JSON.parse(String(row.plan)),
    note: row.note === null || row.note === undefined ? null : String(row.note),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

export function toRunAttempt(row: Row): RunAttemptRecord {
  return {
    runId: String(row.run_id),
    taskId: String(row.task_id),
    attempt: Number(row.attempt),
    sessionId: String(row.session_id),
    sessionName: String(row.session_name),
    outcome: String(row.outcome) as AttemptOutcome,
    result: JSON.parse(String(row.result)),
    createdAt: String(row.created_at),
  };
}
