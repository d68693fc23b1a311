import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { MIGRATIONS } from "./schema.js";

/**
 * The first release kept a full copy of every session's initial state and a snapshot
 * every 32 versions, and knew no tenants (schema versions 1 to 3). Such a file is
 * converted once, in one transaction: its tables are renamed aside, the current schema is
 * created, rows are copied over (documents stored once by content, each version given its
 * snapshot and patch volume) and the old tables are dropped.
 */

const LEGACY_TABLES = ["sessions", "state_versions", "state_snapshots", "calls", "checkpoints", "llm_cache"];

export function isLegacy(userVersion: number): boolean {
  return userVersion >= 1 && userVersion <= 3;
}

export function convertLegacy(db: Database.Database, userVersion: number): void {
  const tables = userVersion >= 2 ? [...LEGACY_TABLES, "task_answers"] : LEGACY_TABLES;
  db.exec("DROP INDEX IF EXISTS calls_repeat");
  for (const table of tables) db.exec(`ALTER TABLE ${table} RENAME TO legacy_${table}`);
  for (const migration of MIGRATIONS) {
    for (const statement of migration.statements) db.exec(statement);
  }
  db.exec(`INSERT INTO sessions (id, tenant, name, seed, task_id, scope, head_version, next_seq, created_at, updated_at, forked_from)
           SELECT id, '', name, seed, task_id, scope, head_version, next_seq, created_at, updated_at, forked_from FROM legacy_sessions`);
  copySnapshots(db);
  copyVersions(db);
  const callColumns = `session_id, seq, tool, arguments, args_hash, status, findings, result, error,
    version_before, version_after, engine, fallback, usage, latency_ms, created_at`;
  db.exec(`INSERT INTO calls (${callColumns}) SELECT ${callColumns} FROM legacy_calls`);
  db.exec(
    "INSERT INTO checkpoints (session_id, name, version, created_at) SELECT session_id, name, version, created_at FROM legacy_checkpoints",
  );
  db.exec(
    "INSERT INTO llm_cache (key, model, response, usage, created_at, hits) SELECT key, model, response, usage, created_at, hits FROM legacy_llm_cache",
  );
  if (tables.includes("task_answers")) {
    db.exec(
      "INSERT INTO task_answers SELECT session_id, seq, version, answer, infeasible, created_at FROM legacy_task_answers",
    );
  }
  // what SQLite derives from the rows (the head a session's row holds), once they are all in
  for (const migration of MIGRATIONS) for (const statement of migration.sqlite ?? []) db.exec(statement);
  for (const table of tables) db.exec(`DROP TABLE legacy_${table}`);
  db.pragma(`user_version = ${MIGRATIONS[MIGRATIONS.length - 1]?.version}`);
}

function copySnapshots(db: Database.Database): void {
  const insertDocument = db.prepare(
    "INSERT INTO documents (hash, document, size) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING",
  );
  const insertSnapshot = db.prepare(
    "INSERT INTO state_snapshots (session_id, version, document_hash) VALUES (?, ?, ?)",
  );
  const rows = db.prepare("SELECT session_id, version, document FROM legacy_state_snapshots").all() as Array<{
    session_id: string;
    version: number;
    document: string;
  }>;
  for (const { session_id, version, document } of rows) {
    const hash = createHash("sha256").update(document).digest("hex");
    insertDocument.run(hash, document, document.length);
    insertSnapshot.run(session_id, version, hash);
  }
}

/** Versions in order, so a parent's snapshot and patch volume are known before its children's. */
function copyVersions(db: Database.Database): void {
  const hasSnapshot = db.prepare("SELECT 1 FROM state_snapshots WHERE session_id = ? AND version = ?");
  const insert = db.prepare(
    `INSERT INTO state_versions (session_id, version, parent, patch, snapshot_version, patch_bytes, call_seq, reason, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const known = new Map<string, { snapshot: number; bytes: number }>();
  const rows = db
    .prepare(
      "SELECT session_id, version, parent, patch, call_seq, reason, created_at FROM legacy_state_versions ORDER BY session_id, version",
    )
    .all() as Array<{
    session_id: string;
    version: number;
    parent: number | null;
    patch: string;
    call_seq: number | null;
    reason: string;
    created_at: string;
  }>;
  for (const row of rows) {
    const snapshotted = hasSnapshot.get(row.session_id, row.version) !== undefined;
    const parent = row.parent === null ? undefined : known.get(`${row.session_id}@${row.parent}`);
    if (!snapshotted && !parent) {
      throw new Error(
        `session ${row.session_id}: version ${row.version} has neither a snapshot nor a parent`,
      );
    }
    const place = snapshotted
      ? { snapshot: row.version, bytes: 0 }
      : { snapshot: parent?.snapshot ?? row.version, bytes: (parent?.bytes ?? 0) + row.patch.length };
    known.set(`${row.session_id}@${row.version}`, place);
    // a reset stored its whole document as a patch on the root; its snapshot makes the patch redundant
    const patch = snapshotted ? "[]" : row.patch;
    const parentVersion = snapshotted ? null : row.parent;
    insert.run(
      row.session_id,
      row.version,
      parentVersion,
      patch,
      place.snapshot,
      place.bytes,
      row.call_seq,
      row.reason,
      row.created_at,
    );
  }
}
