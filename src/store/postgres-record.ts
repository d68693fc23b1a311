import { callRow } from "./rows.js";
import type { NewCall, StateChange } from "./types.js";

/**
 * The statements that record a call on PostgreSQL: each one statement, so one round trip
 * and its own transaction, locking the session's row only while its head is the one the
 * call ran on (see PostgresStore.recordCall).
 */

/**
 * A call row: the call's own values are $1 … $16 (the head it ran on is $14, the attempt's
 * key $15, the fault $16); the seq comes from the locked session row, the version after
 * from the statement.
 */
const CALL_COLUMNS = `session_id, tool, arguments, args_hash, status, findings, result, error, engine,
  fallback, usage, latency_ms, created_at, version_before, call_key, fault, seq, version_after`;
/** Typed, because inside INSERT … SELECT a bare parameter would be taken for text. */
const CALL_VALUES =
  "$1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, " +
  "$10::text, $11::text, $12::double precision, $13::text, $14::integer, $15::text, $16::text";

export function callValues(call: NewCall, expectedHead: number, createdAt: string, key: string): unknown[] {
  const row = callRow({
    ...call,
    seq: 0,
    versionBefore: expectedHead,
    versionAfter: expectedHead,
    createdAt,
  });
  return [
    row.session_id,
    row.tool,
    row.arguments,
    row.args_hash,
    row.status,
    row.findings,
    row.result,
    row.error,
    row.engine,
    row.fallback,
    row.usage,
    row.latency_ms,
    row.created_at,
    expectedHead,
    key,
    row.fault,
  ];
}

/** $17 and $18 of RECORD_CHANGE: the patch, and its length as the SQLite store counts it. */
export function patchValues(change: StateChange): unknown[] {
  const patch = JSON.stringify(change.patch);
  return [patch, patch.length];
}

/** A call that changed nothing: the call row and the session's next seq. */
export const RECORD_CALL = `
  WITH s AS (SELECT next_seq FROM sessions WHERE id = $1 AND head_version = $14 FOR UPDATE),
  c AS (INSERT INTO calls (${CALL_COLUMNS}) SELECT ${CALL_VALUES}, s.next_seq, $14::integer FROM s)
  UPDATE sessions SET next_seq = s.next_seq + 1, updated_at = $13 FROM s WHERE sessions.id = $1
  RETURNING s.next_seq AS seq`;

/**
 * A call that changed the state ($17: its patch, $18: the patch's length): a new version
 * after the head (the next number, taken under the row lock), the call row, the new head.
 * Returns what the snapshot decision needs: the patch volume since the version's snapshot
 * and that snapshot's size.
 */
export const RECORD_CHANGE = `
  WITH s AS (
    SELECT s.next_seq, v.snapshot_version, v.patch_bytes, d.size AS snapshot_size
    FROM sessions s
    JOIN state_versions v ON v.session_id = s.id AND v.version = s.head_version
    LEFT JOIN state_snapshots sn ON sn.session_id = s.id AND sn.version = v.snapshot_version
    LEFT JOIN documents d ON d.hash = sn.document_hash
    WHERE s.id = $1 AND s.head_version = $14
    FOR UPDATE OF s
  ),
  v AS (
    INSERT INTO state_versions (session_id, version, parent, patch, snapshot_version, patch_bytes, call_seq, reason, created_at)
    SELECT $1, next.version, $14::integer, $17::text, s.snapshot_version, s.patch_bytes + $18::integer,
      s.next_seq, 'call ' || s.next_seq || ': ' || $2::text, $13::text
    FROM s, (SELECT COALESCE(MAX(version), -1) + 1 AS version FROM state_versions WHERE session_id = $1) next
    RETURNING version, patch_bytes
  ),
  c AS (INSERT INTO calls (${CALL_COLUMNS}) SELECT ${CALL_VALUES}, s.next_seq, v.version FROM s, v)
  UPDATE sessions SET head_version = v.version, next_seq = s.next_seq + 1, updated_at = $13
  FROM s, v WHERE sessions.id = $1
  RETURNING s.next_seq AS seq, v.version, v.patch_bytes, s.snapshot_size`;
