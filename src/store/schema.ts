/**
 * The database schema of every backend, as one list of migrations in SQL that SQLite and
 * PostgreSQL both accept (TEXT, INTEGER, REAL, composite keys, cascading foreign keys).
 * Append only: a released migration is never edited; a change is a new entry. Versions
 * start at 10 because SQLite files of the first release used 1 to 3 for a layout that is
 * converted once (see legacy.ts).
 */
export interface Migration {
  version: number;
  summary: string;
  statements: readonly string[];
  /** Run by SQLite files only, after `statements`: a change of what SQLite keeps where. */
  sqlite?: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    summary: "sessions per tenant; states stored once by content; versions paced by patch volume",
    statements: [
      // size before the text: SQLite reads a row's columns in order, and reaching a column
      // stored after a large text means walking its overflow pages
      `CREATE TABLE documents (
        hash      TEXT PRIMARY KEY,
        size      INTEGER NOT NULL,
        document  TEXT NOT NULL
      )`,
      `CREATE TABLE sessions (
        id            TEXT PRIMARY KEY,
        tenant        TEXT NOT NULL DEFAULT '',
        name          TEXT,
        seed          TEXT NOT NULL,
        task_id       TEXT,
        scope         TEXT NOT NULL DEFAULT '{}',
        head_version  INTEGER NOT NULL,
        next_seq      INTEGER NOT NULL DEFAULT 1,
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        forked_from   TEXT,
        UNIQUE (tenant, name)
      )`,
      // Each version is its parent plus a patch ('[]' for one that starts from a snapshot).
      // snapshot_version is the nearest version on its ancestry that has a snapshot (itself
      // when it has one) and patch_bytes the bytes of patches since it: loading a version is
      // one snapshot plus the patches between, found without walking the chain row by row.
      `CREATE TABLE state_versions (
        session_id        TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        version           INTEGER NOT NULL,
        parent            INTEGER,
        patch             TEXT NOT NULL,
        snapshot_version  INTEGER NOT NULL,
        patch_bytes       INTEGER NOT NULL,
        call_seq          INTEGER,
        reason            TEXT NOT NULL,
        created_at        TEXT NOT NULL,
        PRIMARY KEY (session_id, version)
      )`,
      `CREATE TABLE state_snapshots (
        session_id     TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        version        INTEGER NOT NULL,
        document_hash  TEXT NOT NULL REFERENCES documents(hash),
        PRIMARY KEY (session_id, version)
      )`,
      `CREATE TABLE calls (
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
        latency_ms      DOUBLE PRECISION NOT NULL,
        created_at      TEXT NOT NULL,
        -- set by a backend that may have to ask, after a lost connection, whether a call was recorded
        call_key        TEXT,
        PRIMARY KEY (session_id, seq)
      )`,
      // the repeat lookup wants the latest identical call on a version: one step down this index
      "CREATE INDEX calls_repeat ON calls (session_id, tool, args_hash, version_after, seq)",
      `CREATE TABLE checkpoints (
        session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        name        TEXT NOT NULL,
        version     INTEGER NOT NULL,
        created_at  TEXT NOT NULL,
        PRIMARY KEY (session_id, name)
      )`,
      // what an agent told the user when it asked for task feedback, so a later report judges what it saw
      `CREATE TABLE task_answers (
        session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        version     INTEGER NOT NULL,
        answer      TEXT,
        infeasible  INTEGER NOT NULL DEFAULT 0,
        created_at  TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
      // answers of a model, keyed by everything that determines them, so a replay costs nothing
      `CREATE TABLE llm_cache (
        key         TEXT PRIMARY KEY,
        model       TEXT NOT NULL,
        response    TEXT NOT NULL,
        usage       TEXT,
        created_at  TEXT NOT NULL,
        hits        INTEGER NOT NULL DEFAULT 0
      )`,
    ],
  },
  {
    version: 11,
    summary: "runs of agents over task sets, and each attempt's result",
    statements: [
      // number: the order runs were made in, from which their ids (run-1, run-2, ...) are named
      `CREATE TABLE runs (
        id          TEXT PRIMARY KEY,
        number      INTEGER NOT NULL UNIQUE,
        seed        TEXT NOT NULL,
        status      TEXT NOT NULL,
        plan        TEXT NOT NULL,
        note        TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      )`,
      // one row per attempt that ended (passed, failed, error or unjudged); resuming a run
      // replaces the rows of attempts that ended in an error
      `CREATE TABLE run_attempts (
        run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        task_id       TEXT NOT NULL,
        attempt       INTEGER NOT NULL,
        session_id    TEXT NOT NULL,
        session_name  TEXT NOT NULL,
        outcome       TEXT NOT NULL,
        result        TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        PRIMARY KEY (run_id, task_id, attempt)
      )`,
    ],
  },
  {
    version: 12,
    summary: "the fault injected into a call on purpose, kept with the call",
    statements: ["ALTER TABLE calls ADD COLUMN fault TEXT"],
  },
  {
    version: 13,
    summary:
      "SQLite reads a session's next call number and last use from its calls: a call that changes nothing writes only its own row",
    // no change of layout: the version tells an older toolsim, which would trust the
    // sessions' next_seq, that this store is not one it may open
    statements: [],
  },
  {
    version: 14,
    summary:
      "SQLite reads a session's head from its latest call too: a call that changes the state writes its call and version only",
    // the session's row keeps the head as last set outside a call, and the number of the next
    // call then: from the row's head on, each call's version_after is the head. An older toolsim
    // would read the head from the row alone, so the version tells it to keep away. PostgreSQL
    // keeps the head and the next number in the row, as before.
    statements: [],
    sqlite: [
      "UPDATE sessions SET next_seq = COALESCE((SELECT MAX(seq) FROM calls c WHERE c.session_id = sessions.id), 0) + 1",
    ],
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** The migrations a database at `current` still needs, in order. */
export function pendingMigrations(current: number): Migration[] {
  return MIGRATIONS.filter((migration) => migration.version > current);
}
