import type Database from "better-sqlite3";

/**
 * Schema migrations, applied in order and recorded in PRAGMA user_version. Append only:
 * a released migration is never edited, a change is a new entry.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id            TEXT PRIMARY KEY,
    name          TEXT UNIQUE,
    seed          TEXT NOT NULL,
    task_id       TEXT,
    scope         TEXT NOT NULL DEFAULT '{}',
    head_version  INTEGER NOT NULL,
    next_seq      INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    forked_from   TEXT
  );

  -- Every state version of a session. Version 0 is the initial state; each later version
  -- is its parent plus an RFC 6902 patch. Versions are never edited.
  CREATE TABLE state_versions (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    parent      INTEGER,
    patch       TEXT NOT NULL,
    call_seq    INTEGER,
    reason      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (session_id, version)
  );

  -- Full documents at some versions, so loading any version replays a few patches at most.
  CREATE TABLE state_snapshots (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    document    TEXT NOT NULL,
    PRIMARY KEY (session_id, version)
  );

  CREATE TABLE calls (
    session_id      TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    tool            TEXT NOT NULL,
    arguments       TEXT NOT NULL,
    args_hash       TEXT NOT NULL,
    status          TEXT NOT NULL,
    findings        TEXT NOT NULL DEFAULT '[]',
    result          TEXT,
    error           TEXT,
    version_before  INTEGER NOT NULL,
    version_after   INTEGER NOT NULL,
    engine          TEXT NOT NULL,
    fallback        TEXT,
    usage           TEXT,
    latency_ms      REAL NOT NULL,
    created_at      TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
  );
  CREATE INDEX calls_repeat ON calls (session_id, tool, args_hash, version_after);

  CREATE TABLE checkpoints (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    version     INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (session_id, name)
  );

  -- Answers of a model, keyed by everything that determines them, so a replay costs nothing.
  CREATE TABLE llm_cache (
    key         TEXT PRIMARY KEY,
    model       TEXT NOT NULL,
    response    TEXT NOT NULL,
    usage       TEXT,
    created_at  TEXT NOT NULL,
    hits        INTEGER NOT NULL DEFAULT 0
  );
  `,
  `
  -- What an agent told the user when it asked for task feedback (its final answer, and
  -- whether it declared the task impossible), so a later report judges what it saw.
  CREATE TABLE task_answers (
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    answer      TEXT,
    infeasible  INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
  );
  `,
  `
  -- The repeat lookup wants the latest identical call: with seq in the index it is one
  -- step down the index instead of sorting every identical call the session ever made.
  DROP INDEX calls_repeat;
  CREATE INDEX calls_repeat ON calls (session_id, tool, args_hash, version_after, seq);
  `,
];

export function migrate(db: Database.Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `this database was written by a newer toolsim (schema ${current}, this one knows ${MIGRATIONS.length}); upgrade toolsim or use another --db`,
    );
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version] as string);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

export const SCHEMA_VERSION = MIGRATIONS.length;
