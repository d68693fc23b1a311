import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { State } from "../state/index.js";
import { type Checkpointer, startCheckpointer } from "./checkpointer.js";
import { Documents } from "./documents.js";
import { convertLegacy, isLegacy } from "./legacy.js";
import { callRow, type Row, toAnswer, toCall, toRun, toRunAttempt, toSession } from "./rows.js";
import { pendingMigrations, SCHEMA_VERSION } from "./schema.js";
import type {
  CachedAnswer,
  CallPage,
  CallRecord,
  CheckpointRecord,
  Commit,
  NewCall,
  NewSession,
  RunAttemptRecord,
  RunRecord,
  RunStatus,
  SessionRecord,
  SessionScope,
  StateChange,
  StateHead,
  Store,
  StoreStats,
  TaskAnswerRecord,
  Usage,
} from "./types.js";
import {
  DEFAULT_SNAPSHOTS,
  patchesBetween,
  replay,
  type SnapshotPolicy,
  snapshotDue,
  type VersionRow,
} from "./versions.js";

export interface SqliteOptions {
  /** Open for reading only: no migrations, no writes (a file the user may only read). */
  readonly?: boolean;
  snapshots?: SnapshotPolicy;
  /** Copy the write-ahead log back from a worker thread (the default) rather than during commits. */
  checkpointThread?: boolean;
}

/** Why a state file cannot be used, in words that say what to do. */
export class StoreOpenError extends Error {}

/**
 * The embedded store: one SQLite file in WAL mode. better-sqlite3 is synchronous, so each
 * method runs to completion before the answer leaves; writes take the write lock up front
 * (BEGIN IMMEDIATE) and wait for it, so several processes can share one file: the one
 * whose cached head is stale gets `stale` and catches up.
 */
export class SqliteStore implements Store {
  readonly backend = "sqlite" as const;
  readonly location: string;
  private readonly statements: Statements;
  private readonly documents = new Documents();
  private readonly policy: SnapshotPolicy;
  private readonly writeCall: (
    call: NewCall,
    expectedHead: number,
    change: StateChange | undefined,
  ) => Commit;

  private constructor(
    file: string,
    private readonly db: Database.Database,
    options: SqliteOptions,
    private readonly checkpointer?: Checkpointer,
  ) {
    this.location = file;
    this.policy = options.snapshots ?? DEFAULT_SNAPSHOTS;
    this.statements = prepare(db);
    // built once: creating a transaction function per call costs more than the statements it runs
    this.writeCall = db.transaction((call: NewCall, expectedHead: number, change: StateChange | undefined) =>
      this.writeCallNow(call, expectedHead, change),
    ).immediate;
  }

  static open(file: string, options: SqliteOptions = {}): SqliteStore {
    const db = openDatabase(file, options);
    try {
      if (!options.readonly) migrate(db);
      else if (Number(db.pragma("user_version", { simple: true })) !== SCHEMA_VERSION) {
        throw new StoreOpenError(
          `${file} was written by another version of toolsim; open it once with write access (toolsim serve --db ${file}) to upgrade it`,
        );
      }
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteStore(file, db, options, checkpointsOffTheCallPath(file, db, options));
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }

  // ── sessions ──────────────────────────────────────────────────────────────

  async createSession(input: NewSession): Promise<SessionRecord> {
    const id = input.id ?? randomUUID();
    const now = new Date().toISOString();
    const stored = this.documents.stored(this.documents.stateOf(input.state));
    this.db
      .transaction(() => {
        this.statements.insertDocument.run({
          hash: stored.hash,
          document: stored.text,
          size: stored.text.length,
        });
        this.statements.insertSession.run({
          id,
          tenant: input.tenant ?? "",
          name: input.name ?? null,
          seed: input.seed,
          task_id: input.taskId ?? null,
          scope: JSON.stringify(input.scope ?? {}),
          now,
          forked_from: input.forkedFrom ?? null,
        });
        this.insertBaseVersion(id, 0, stored.hash, input.reason ?? "start", now);
      })
      .immediate();
    return this.requireSession(id);
  }

  async session(key: string, tenant: string): Promise<SessionRecord | undefined> {
    const row = this.statements.sessionInTenant.get({ key, tenant }) as Row | undefined;
    return row ? toSession(row) : undefined;
  }

  async findSessions(key: string): Promise<SessionRecord[]> {
    return (this.statements.sessionsByKey.all({ key }) as Row[]).map(toSession);
  }

  async sessions(tenant?: string): Promise<SessionRecord[]> {
    const rows =
      tenant === undefined
        ? this.statements.allSessions.all()
        : this.statements.tenantSessions.all({ tenant });
    return (rows as Row[]).map(toSession);
  }

  async deleteSession(id: string): Promise<void> {
    this.statements.deleteSession.run({ id });
  }

  private requireSession(id: string): SessionRecord {
    const row = this.statements.sessionById.get({ id }) as Row | undefined;
    if (!row) throw new Error(`session ${id} does not exist`);
    return toSession(row);
  }

  // ── state ────────────────────────────────────────────────────────────────

  async hasVersion(sessionId: string, version: number): Promise<boolean> {
    return this.statements.version.get({ session_id: sessionId, version }) !== undefined;
  }

  async headVersion(sessionId: string): Promise<number> {
    return this.currentHead(sessionId).headVersion;
  }

  async head(sessionId: string): Promise<StateHead> {
    const version = this.currentHead(sessionId).headVersion;
    return { version, state: this.loadState(sessionId, version) };
  }

  async stateAt(sessionId: string, version: number): Promise<State> {
    return this.loadState(sessionId, version);
  }

  async advance(sessionId: string, known: StateHead): Promise<StateHead> {
    const version = this.currentHead(sessionId).headVersion;
    if (version === known.version) return known;
    const rows = this.versionRows(sessionId, known.version, version);
    const patches = patchesBetween(rows, known.version, version);
    const state = patches ? replay(known.state, patches, sessionId) : this.loadState(sessionId, version);
    return { version, state };
  }

  async resetState(
    sessionId: string,
    document: State | Record<string, unknown>,
    change: { reason: string; taskId?: string | null; scope?: SessionScope },
  ): Promise<StateHead> {
    const state = this.documents.stateOf(document);
    const stored = this.documents.stored(state);
    const now = new Date().toISOString();
    const version = this.db
      .transaction(() => {
        const session = this.requireSession(sessionId);
        const next = this.nextVersion(sessionId);
        this.statements.insertDocument.run({
          hash: stored.hash,
          document: stored.text,
          size: stored.text.length,
        });
        this.insertBaseVersion(sessionId, next, stored.hash, change.reason, now);
        this.statements.updateSessionScope.run({
          id: sessionId,
          task_id: change.taskId === undefined ? session.taskId : change.taskId,
          scope: JSON.stringify(change.scope === undefined ? session.scope : change.scope),
          head: next,
          now,
        });
        return next;
      })
      .immediate();
    return { version, state };
  }

  async moveHead(sessionId: string, version: number): Promise<StateHead> {
    this.db
      .transaction(() => {
        if (!this.statements.version.get({ session_id: sessionId, version }))
          throw new Error(`session ${sessionId} has no state version ${version}`);
        this.statements.moveHead.run({ id: sessionId, head: version, now: new Date().toISOString() });
      })
      .immediate();
    return { version, state: this.loadState(sessionId, version) };
  }

  async fork(
    sessionId: string,
    version: number,
    input: { name?: string; seed?: string },
  ): Promise<SessionRecord> {
    const source = this.requireSession(sessionId);
    return this.createSession({
      tenant: source.tenant,
      name: input.name,
      seed: input.seed ?? source.seed,
      taskId: source.taskId ?? undefined,
      scope: source.scope,
      state: this.loadState(sessionId, version),
      forkedFrom: `${sessionId}@${version}`,
      reason: `fork of ${source.name ?? source.id} at version ${version}`,
    });
  }

  /** A version that starts from a stored document (a new session, a task start, a reset): no parent patch. */
  private insertBaseVersion(sessionId: string, version: number, hash: string, reason: string, now: string) {
    this.statements.insertVersion.run({
      session_id: sessionId,
      version,
      parent: null,
      patch: "[]",
      snapshot_version: version,
      patch_bytes: 0,
      call_seq: null,
      reason,
      now,
    });
    this.statements.insertSnapshot.run({ session_id: sessionId, version, document_hash: hash });
  }

  private loadState(sessionId: string, version: number): State {
    const row = this.statements.version.get({ session_id: sessionId, version }) as Row | undefined;
    if (!row) throw new Error(`session ${sessionId} has no state version ${version}`);
    const snapshotVersion = Number(row.snapshot_version);
    const snapshot = this.snapshotState(sessionId, snapshotVersion);
    if (snapshotVersion === version) return snapshot;
    const patches = patchesBetween(
      this.versionRows(sessionId, snapshotVersion, version),
      snapshotVersion,
      version,
    );
    if (!patches)
      throw new Error(`session ${sessionId}: version ${version} does not descend from its snapshot`);
    return replay(snapshot, patches, sessionId);
  }

  private snapshotState(sessionId: string, version: number): State {
    const row = this.statements.snapshot.get({ session_id: sessionId, version }) as Row | undefined;
    if (!row) throw new Error(`session ${sessionId} has no snapshot at version ${version}`);
    const hash = String(row.document_hash);
    return this.documents.load(hash, () => {
      const document = this.statements.document.get({ hash }) as Row | undefined;
      if (!document) throw new Error(`stored state ${hash} is missing`);
      return String(document.document);
    });
  }

  private versionRows(sessionId: string, after: number, upTo: number): Map<number, VersionRow> {
    const rows = this.statements.versionsBetween.all({ session_id: sessionId, after, up_to: upTo }) as Row[];
    return new Map(
      rows.map((row) => [
        Number(row.version),
        {
          version: Number(row.version),
          parent: row.parent === null ? null : Number(row.parent),
          patch: String(row.patch),
        },
      ]),
    );
  }

  private currentHead(sessionId: string): { headVersion: number; nextSeq: number } {
    const row = this.statements.sessionHead.get({ id: sessionId }) as
      | { head_version: number; next_seq: number }
      | undefined;
    if (!row) throw new Error(`session ${sessionId} does not exist`);
    return { headVersion: Number(row.head_version), nextSeq: Number(row.next_seq) };
  }

  private nextVersion(sessionId: string): number {
    const row = this.statements.maxVersion.get({ session_id: sessionId }) as Row;
    return Number(row.max) + 1;
  }

  // ── calls ────────────────────────────────────────────────────────────────

  async recordCall(call: NewCall, expectedHead: number, change?: StateChange): Promise<Commit> {
    return this.writeCall(call, expectedHead, change);
  }

  private writeCallNow(call: NewCall, expectedHead: number, change: StateChange | undefined): Commit {
    const now = new Date().toISOString();
    const head = this.currentHead(call.sessionId);
    if (head.headVersion !== expectedHead) return { kind: "stale", headVersion: head.headVersion };
    const seq = head.nextSeq;
    const versionAfter =
      change && change.patch.length > 0
        ? this.writeVersion(call, seq, head.headVersion, change, now)
        : head.headVersion;
    const record: CallRecord = {
      ...call,
      seq,
      versionBefore: head.headVersion,
      versionAfter,
      createdAt: now,
    };
    this.statements.insertCall.run(callRow(record));
    this.statements.advanceSession.run({ id: call.sessionId, head: versionAfter, now });
    return { kind: "recorded", call: record };
  }

  private writeVersion(call: NewCall, seq: number, parent: number, change: StateChange, now: string): number {
    const version = this.nextVersion(call.sessionId);
    const parentRow = this.statements.version.get({ session_id: call.sessionId, version: parent }) as Row;
    const patch = JSON.stringify(change.patch);
    let snapshotVersion = Number(parentRow.snapshot_version);
    let patchBytes = Number(parentRow.patch_bytes) + patch.length;
    if (snapshotDue(this.policy, patchBytes, this.snapshotSize(call.sessionId, snapshotVersion))) {
      const stored = this.documents.stored(change.state);
      this.statements.insertDocument.run({
        hash: stored.hash,
        document: stored.text,
        size: stored.text.length,
      });
      this.statements.insertSnapshot.run({
        session_id: call.sessionId,
        version,
        document_hash: stored.hash,
      });
      snapshotVersion = version;
      patchBytes = 0;
    }
    this.statements.insertVersion.run({
      session_id: call.sessionId,
      version,
      parent,
      patch,
      snapshot_version: snapshotVersion,
      patch_bytes: patchBytes,
      call_seq: seq,
      reason: `call ${seq}: ${call.tool}`,
      now,
    });
    return version;
  }

  private snapshotSize(sessionId: string, version: number): number {
    const key = `${sessionId}@${version}`;
    const known = this.snapshotSizes.get(key);
    if (known !== undefined) return known;
    const row = this.statements.snapshotSize.get({ session_id: sessionId, version }) as Row | undefined;
    const size = row ? Number(row.size) : 0;
    // one entry per live session is enough: a session writes on from its latest snapshot
    if (this.snapshotSizes.size > 10_000) this.snapshotSizes.clear();
    this.snapshotSizes.set(key, size);
    return size;
  }

  /** Snapshot sizes by session and version (they never change once written). */
  private readonly snapshotSizes = new Map<string, number>();

  async repeatOf(
    sessionId: string,
    tool: string,
    argsHash: string,
    version: number,
  ): Promise<number | undefined> {
    const row = this.statements.repeat.get({ session_id: sessionId, tool, args_hash: argsHash, version }) as
      | Row
      | undefined;
    return row ? Number(row.seq) : undefined;
  }

  async calls(sessionId: string, page: CallPage = {}): Promise<CallRecord[]> {
    const rows = this.statements.calls.all({
      session_id: sessionId,
      after: page.afterSeq ?? 0,
      limit: page.limit ?? -1,
    }) as Row[];
    return rows.map(toCall);
  }

  async callCount(sessionId: string): Promise<number> {
    return Number((this.statements.callCount.get({ session_id: sessionId }) as Row).count);
  }

  async recentCalls(sessionId: string, limit: number): Promise<CallRecord[]> {
    return (this.statements.recentCalls.all({ session_id: sessionId, limit }) as Row[]).map(toCall).reverse();
  }

  // ── checkpoints and task answers ─────────────────────────────────────────

  async checkpoint(sessionId: string, name: string, version?: number): Promise<CheckpointRecord> {
    const at = version ?? this.currentHead(sessionId).headVersion;
    const now = new Date().toISOString();
    this.statements.upsertCheckpoint.run({ session_id: sessionId, name, version: at, now });
    return { sessionId, name, version: at, createdAt: now };
  }

  async checkpoints(sessionId: string): Promise<CheckpointRecord[]> {
    return (this.statements.checkpoints.all({ session_id: sessionId }) as Row[]).map((row) => ({
      sessionId,
      name: String(row.name),
      version: Number(row.version),
      createdAt: String(row.created_at),
    }));
  }

  async recordAnswer(
    sessionId: string,
    input: { answer?: string; infeasible: boolean },
  ): Promise<TaskAnswerRecord> {
    return this.db
      .transaction(() => {
        const head = this.currentHead(sessionId);
        const row = this.statements.maxAnswerSeq.get({ session_id: sessionId }) as Row;
        const record: TaskAnswerRecord = {
          sessionId,
          seq: Number(row.max) + 1,
          version: head.headVersion,
          answer: input.answer,
          infeasible: input.infeasible,
          createdAt: new Date().toISOString(),
        };
        this.statements.insertAnswer.run({
          session_id: sessionId,
          seq: record.seq,
          version: record.version,
          answer: record.answer ?? null,
          infeasible: record.infeasible ? 1 : 0,
          now: record.createdAt,
        });
        return record;
      })
      .immediate();
  }

  async answers(sessionId: string): Promise<TaskAnswerRecord[]> {
    return (this.statements.answers.all({ session_id: sessionId }) as Row[]).map((row) =>
      toAnswer(sessionId, row),
    );
  }

  async stats(): Promise<StoreStats> {
    const row = this.statements.stats.get() as Row;
    return {
      sessions: Number(row.sessions),
      versions: Number(row.versions),
      snapshots: Number(row.snapshots),
      documents: Number(row.documents),
      documentBytes: Number(row.document_bytes),
      calls: Number(row.calls),
    };
  }

  // ── runs ─────────────────────────────────────────────────────────────────

  async createRun(input: { seed: string; plan: unknown }): Promise<RunRecord> {
    return this.db
      .transaction(() => {
        const number = Number((this.statements.maxRunNumber.get() as Row).max) + 1;
        const now = new Date().toISOString();
        const record: RunRecord = {
          id: `run-${number}`,
          number,
          seed: input.seed,
          status: "running",
          plan: input.plan,
          note: null,
          createdAt: now,
          updatedAt: now,
        };
        this.statements.insertRun.run({
          id: record.id,
          number,
          seed: record.seed,
          status: record.status,
          plan: JSON.stringify(record.plan),
          now,
        });
        return record;
      })
      .immediate();
  }

  async run(id: string): Promise<RunRecord | undefined> {
    const row = this.statements.run.get({ id }) as Row | undefined;
    return row ? toRun(row) : undefined;
  }

  async runs(): Promise<RunRecord[]> {
    return (this.statements.runs.all() as Row[]).map(toRun);
  }

  async setRunStatus(id: string, status: RunStatus, note?: string): Promise<void> {
    this.statements.setRunStatus.run({ id, status, note: note ?? null, now: new Date().toISOString() });
  }

  async recordAttempt(attempt: Omit<RunAttemptRecord, "createdAt">): Promise<RunAttemptRecord> {
    const record: RunAttemptRecord = { ...attempt, createdAt: new Date().toISOString() };
    this.statements.upsertAttempt.run({
      run_id: record.runId,
      task_id: record.taskId,
      attempt: record.attempt,
      session_id: record.sessionId,
      session_name: record.sessionName,
      outcome: record.outcome,
      result: JSON.stringify(record.result),
      now: record.createdAt,
    });
    return record;
  }

  async runAttempts(runId: string): Promise<RunAttemptRecord[]> {
    return (this.statements.runAttempts.all({ run_id: runId }) as Row[]).map(toRunAttempt);
  }

  // ── model answer cache ───────────────────────────────────────────────────

  async llmCacheGet(key: string): Promise<CachedAnswer | undefined> {
    const row = this.statements.cacheGet.get({ key }) as Row | undefined;
    if (!row) return undefined;
    this.statements.cacheHit.run({ key });
    return {
      response: String(row.response),
      usage: row.usage === null ? undefined : (JSON.parse(String(row.usage)) as Usage),
    };
  }

  async llmCachePut(entry: { key: string; model: string; response: string; usage?: Usage }): Promise<void> {
    this.statements.cachePut.run({
      key: entry.key,
      model: entry.model,
      response: entry.response,
      usage: entry.usage ? JSON.stringify(entry.usage) : null,
      now: new Date().toISOString(),
    });
  }
}

function openDatabase(file: string, options: SqliteOptions): Database.Database {
  if (options.readonly && file !== ":memory:" && !existsSync(file)) {
    throw new StoreOpenError(`no state file at ${file}`);
  }
  let db: Database.Database;
  try {
    if (!options.readonly && file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    db = new Database(file, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw new StoreOpenError(openFailure(file, error));
  }
  try {
    // first: a process opening a new file while another sets it up waits instead of failing
    db.pragma("busy_timeout = 5000");
    if (!options.readonly) inWalMode(db);
    // NORMAL in WAL mode: a committed transaction survives a killed process; only power loss may drop the last few.
    db.pragma("synchronous = NORMAL");
  } catch (error) {
    db.close();
    throw new StoreOpenError(openFailure(file, error));
  }
  return db;
}

/**
 * Switching a file to WAL answers "database is locked" at once, without the busy timeout,
 * while another connection reads it (another process, or a store's own checkpoint thread,
 * opening the same new file): it is tried again for a few seconds before giving up.
 */
function inWalMode(db: Database.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 1; ; attempt++) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      const busy = error instanceof Error && "code" in error && String(error.code).startsWith("SQLITE_BUSY");
      if (!busy || attempt >= 50) throw error;
      // opening is synchronous: a short blocking pause before the next try
      Atomics.wait(pause, 0, 0, 20 + Math.floor(Math.random() * 80));
    }
  }
}

/** See checkpointer.ts; a file only read, or one in memory, has no log to copy back. */
function checkpointsOffTheCallPath(
  file: string,
  db: Database.Database,
  options: SqliteOptions,
): Checkpointer | undefined {
  if (options.readonly || file === ":memory:" || options.checkpointThread === false) return undefined;
  db.pragma("wal_autocheckpoint = 0");
  return startCheckpointer(file, (reason) => {
    process.stderr.write(`toolsim: ${reason}; SQLite checkpoints the state file itself from now on\n`);
    if (db.open) db.pragma("wal_autocheckpoint = 1000");
  });
}

function openFailure(file: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (/NODE_MODULE_VERSION|compiled against a different Node\.js version|invalid ELF header/.test(reason)) {
    return `the SQLite driver (better-sqlite3) was built for another version of Node.js than this one (${process.version}); run \`npm rebuild better-sqlite3\` in toolsim's folder, or reinstall toolsim with this Node`;
  }
  if (/SQLITE_NOTADB|file is not a database/.test(reason)) {
    return `${file} is not a toolsim state file (not SQLite); choose another with --db FILE or TOOLSIM_DB`;
  }
  if (/SQLITE_CANTOPEN|EACCES|EPERM|readonly/i.test(reason)) {
    return `cannot open the state file ${file} (${reason}); check that the folder exists and you may write there, or choose another with --db FILE or TOOLSIM_DB`;
  }
  return `cannot open the state file ${file} (${reason}); choose another with --db FILE or TOOLSIM_DB`;
}

/** Brings a file to the current schema: a first-release layout is converted once, then migrations run in order. */
function migrate(db: Database.Database): void {
  const current = Number(db.pragma("user_version", { simple: true }));
  if (current > SCHEMA_VERSION) {
    throw new StoreOpenError(
      `this database was written by a newer toolsim (schema ${current}, this one knows ${SCHEMA_VERSION}); upgrade toolsim or use another --db`,
    );
  }
  if (current === SCHEMA_VERSION) {
    db.pragma("foreign_keys = ON");
    return;
  }
  // foreign keys cannot be switched inside a transaction; a conversion rebuilds referenced tables
  db.pragma("foreign_keys = OFF");
  db.transaction(() => {
    // read again under the write lock: another process starting at the same moment may have migrated
    const locked = Number(db.pragma("user_version", { simple: true }));
    if (isLegacy(locked)) convertLegacy(db, locked);
    else {
      for (const migration of pendingMigrations(locked)) {
        for (const statement of migration.statements) db.exec(statement);
        db.pragma(`user_version = ${migration.version}`);
      }
    }
  }).immediate();
  const broken = db.pragma("foreign_key_check") as unknown[];
  if (broken.length > 0) throw new Error(`the upgraded database has ${broken.length} broken references`);
  db.pragma("foreign_keys = ON");
}

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database.Database) {
  return {
    insertDocument: db.prepare(
      "INSERT INTO documents (hash, document, size) VALUES (@hash, @document, @size) ON CONFLICT (hash) DO NOTHING",
    ),
    document: db.prepare("SELECT document FROM documents WHERE hash = @hash"),
    insertSession: db.prepare(
      `INSERT INTO sessions (id, tenant, name, seed, task_id, scope, head_version, next_seq, created_at, updated_at, forked_from)
       VALUES (@id, @tenant, @name, @seed, @task_id, @scope, 0, 1, @now, @now, @forked_from)`,
    ),
    sessionById: db.prepare("SELECT * FROM sessions WHERE id = @id"),
    sessionInTenant: db.prepare(
      "SELECT * FROM sessions WHERE tenant = @tenant AND (id = @key OR name = @key) ORDER BY id = @key DESC LIMIT 1",
    ),
    sessionsByKey: db.prepare(
      "SELECT * FROM sessions WHERE id = @key OR name = @key ORDER BY created_at, id",
    ),
    sessionHead: db.prepare("SELECT head_version, next_seq FROM sessions WHERE id = @id"),
    allSessions: db.prepare("SELECT * FROM sessions ORDER BY created_at, id"),
    tenantSessions: db.prepare("SELECT * FROM sessions WHERE tenant = @tenant ORDER BY created_at, id"),
    deleteSession: db.prepare("DELETE FROM sessions WHERE id = @id"),
    updateSessionScope: db.prepare(
      "UPDATE sessions SET task_id = @task_id, scope = @scope, head_version = @head, updated_at = @now WHERE id = @id",
    ),
    advanceSession: db.prepare(
      "UPDATE sessions SET head_version = @head, next_seq = next_seq + 1, updated_at = @now WHERE id = @id",
    ),
    moveHead: db.prepare("UPDATE sessions SET head_version = @head, updated_at = @now WHERE id = @id"),
    insertVersion: db.prepare(
      `INSERT INTO state_versions (session_id, version, parent, patch, snapshot_version, patch_bytes, call_seq, reason, created_at)
       VALUES (@session_id, @version, @parent, @patch, @snapshot_version, @patch_bytes, @call_seq, @reason, @now)`,
    ),
    version: db.prepare(
      "SELECT snapshot_version, patch_bytes FROM state_versions WHERE session_id = @session_id AND version = @version",
    ),
    versionsBetween: db.prepare(
      `SELECT version, parent, patch FROM state_versions
       WHERE session_id = @session_id AND version > @after AND version <= @up_to`,
    ),
    maxVersion: db.prepare(
      "SELECT COALESCE(MAX(version), -1) AS max FROM state_versions WHERE session_id = @session_id",
    ),
    insertSnapshot: db.prepare(
      `INSERT INTO state_snapshots (session_id, version, document_hash) VALUES (@session_id, @version, @document_hash)
       ON CONFLICT (session_id, version) DO UPDATE SET document_hash = excluded.document_hash`,
    ),
    snapshot: db.prepare(
      "SELECT document_hash FROM state_snapshots WHERE session_id = @session_id AND version = @version",
    ),
    snapshotSize: db.prepare(
      `SELECT d.size AS size FROM state_snapshots s JOIN documents d ON d.hash = s.document_hash
       WHERE s.session_id = @session_id AND s.version = @version`,
    ),
    insertCall: db.prepare(
      `INSERT INTO calls (session_id, seq, tool, arguments, args_hash, status, findings, result, error,
         version_before, version_after, engine, fallback, usage, latency_ms, created_at, fault)
       VALUES (@session_id, @seq, @tool, @arguments, @args_hash, @status, @findings, @result, @error,
         @version_before, @version_after, @engine, @fallback, @usage, @latency_ms, @created_at, @fault)`,
    ),
    // Without INDEXED BY, SQLite walks the primary key backwards to satisfy ORDER BY and reads the
    // session's whole call log whenever nothing matches (every new call): linear in the log's length.
    repeat: db.prepare(
      `SELECT seq FROM calls INDEXED BY calls_repeat
         WHERE session_id = @session_id AND tool = @tool AND args_hash = @args_hash
         AND version_after = @version AND fault IS NULL ORDER BY seq DESC LIMIT 1`,
    ),
    calls: db.prepare(
      "SELECT * FROM calls WHERE session_id = @session_id AND seq > @after ORDER BY seq LIMIT @limit",
    ),
    callCount: db.prepare("SELECT COUNT(*) AS count FROM calls WHERE session_id = @session_id"),
    recentCalls: db.prepare(
      "SELECT * FROM calls WHERE session_id = @session_id ORDER BY seq DESC LIMIT @limit",
    ),
    upsertCheckpoint: db.prepare(
      `INSERT INTO checkpoints (session_id, name, version, created_at) VALUES (@session_id, @name, @version, @now)
       ON CONFLICT (session_id, name) DO UPDATE SET version = excluded.version, created_at = excluded.created_at`,
    ),
    checkpoints: db.prepare(
      "SELECT * FROM checkpoints WHERE session_id = @session_id ORDER BY created_at, name",
    ),
    insertAnswer: db.prepare(
      `INSERT INTO task_answers (session_id, seq, version, answer, infeasible, created_at)
       VALUES (@session_id, @seq, @version, @answer, @infeasible, @now)`,
    ),
    maxAnswerSeq: db.prepare(
      "SELECT COALESCE(MAX(seq), 0) AS max FROM task_answers WHERE session_id = @session_id",
    ),
    answers: db.prepare("SELECT * FROM task_answers WHERE session_id = @session_id ORDER BY seq"),
    stats: db.prepare(
      `SELECT (SELECT COUNT(*) FROM sessions) AS sessions, (SELECT COUNT(*) FROM state_versions) AS versions,
         (SELECT COUNT(*) FROM state_snapshots) AS snapshots, (SELECT COUNT(*) FROM documents) AS documents,
         (SELECT COALESCE(SUM(size), 0) FROM documents) AS document_bytes, (SELECT COUNT(*) FROM calls) AS calls`,
    ),
    maxRunNumber: db.prepare("SELECT COALESCE(MAX(number), 0) AS max FROM runs"),
    insertRun: db.prepare(
      `INSERT INTO runs (id, number, seed, status, plan, note, created_at, updated_at)
       VALUES (@id, @number, @seed, @status, @plan, NULL, @now, @now)`,
    ),
    run: db.prepare("SELECT * FROM runs WHERE id = @id"),
    runs: db.prepare("SELECT * FROM runs ORDER BY number"),
    setRunStatus: db.prepare(
      "UPDATE runs SET status = @status, note = @note, updated_at = @now WHERE id = @id",
    ),
    upsertAttempt: db.prepare(
      `INSERT INTO run_attempts (run_id, task_id, attempt, session_id, session_name, outcome, result, created_at)
       VALUES (@run_id, @task_id, @attempt, @session_id, @session_name, @outcome, @result, @now)
       ON CONFLICT (run_id, task_id, attempt) DO UPDATE SET session_id = excluded.session_id,
         session_name = excluded.session_name, outcome = excluded.outcome, result = excluded.result,
         created_at = excluded.created_at`,
    ),
    runAttempts: db.prepare("SELECT * FROM run_attempts WHERE run_id = @run_id ORDER BY task_id, attempt"),
    cacheGet: db.prepare("SELECT response, usage FROM llm_cache WHERE key = @key"),
    cacheHit: db.prepare("UPDATE llm_cache SET hits = hits + 1 WHERE key = @key"),
    cachePut: db.prepare(
      `INSERT INTO llm_cache (key, model, response, usage, created_at) VALUES (@key, @model, @response, @usage, @now)
       ON CONFLICT (key) DO NOTHING`,
    ),
  };
}
