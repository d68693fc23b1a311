import { randomUUID } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import type { State } from "../state/index.js";
import { type Checkpointer, startCheckpointer } from "./checkpointer.js";
import { Documents } from "./documents.js";
import { convertLegacy, isLegacy } from "./legacy.js";
import { callRow, type Row, toAnswer, toCall, toRepeat, toRun, toRunAttempt, toSession } from "./rows.js";
import { pendingMigrations, SCHEMA_VERSION } from "./schema.js";
import {
  advancedFrom,
  forkOf,
  fromSnapshot,
  missingDocument,
  missingSession,
  missingVersion,
  newerSchema,
  olderSchemaReadOnly,
  StoreOpenError,
} from "./shared.js";
import type {
  CachedAnswer,
  CallPage,
  CallRecord,
  CheckpointRecord,
  Commit,
  NewCall,
  NewSession,
  RepeatedCall,
  RunAttemptRecord,
  RunRecord,
  RunStatus,
  SessionRecord,
  SessionScope,
  StateChange,
  StateHead,
  Store,
  StoreHealth,
  StoreStats,
  TaskAnswerRecord,
  Usage,
} from "./types.js";
import { DEFAULT_SNAPSHOTS, type SnapshotPolicy, snapshotDue, type VersionRow } from "./versions.js";

export interface SqliteOptions {
  /** Open for reading only: no migrations, no writes (a file the user may only read). */
  readonly?: boolean;
  snapshots?: SnapshotPolicy;
  /** Copy the write-ahead log back from a worker thread (the default) rather than during commits. */
  checkpointThread?: boolean;
}

export { StoreOpenError };

/** What a commit starts from: the session's head and next call number, and what is known of its versions. */
interface CommitBase {
  headVersion: number;
  nextSeq: number;
  versions?: Versions;
}

/** The session's highest version, and the snapshot and patch volume of the version `head` (which a moved head may leave below it). */
interface Versions {
  max: number;
  head: number;
  snapshotVersion: number;
  patchBytes: number;
}

/** A commit, and what the next one in the session may start from. */
interface Written {
  commit: Commit;
  base: CommitBase;
}

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
  /** Opened for reading only: the model cache is read but neither counted nor added to. */
  private readonly readOnly: boolean;
  private readonly writeCall: (
    call: NewCall,
    expectedHead: number,
    change: StateChange | undefined,
  ) => Written;
  /** Per session, what the next commit starts from (see commitBase). */
  private readonly bases = new Map<string, CommitBase>();
  /** SQLite's data_version when `bases` was last checked: it changes when another connection writes. */
  private dataVersion = -1;

  private constructor(
    file: string,
    private readonly db: Database.Database,
    options: SqliteOptions,
    private readonly checkpointer?: Checkpointer,
  ) {
    this.location = file;
    this.policy = options.snapshots ?? DEFAULT_SNAPSHOTS;
    this.readOnly = options.readonly ?? false;
    this.statements = prepare(db);
    // built once: creating a transaction function per call costs more than the statements it runs
    this.writeCall = db.transaction((call: NewCall, expectedHead: number, change: StateChange | undefined) =>
      this.writeCallNow(call, expectedHead, change),
    ).immediate;
  }

  static open(file: string, options: SqliteOptions = {}): SqliteStore {
    const db = openDatabase(file, options);
    try {
      if (!options.readonly) migrate(db, file);
      else {
        const current = Number(db.pragma("user_version", { simple: true }));
        if (current > SCHEMA_VERSION) throw newerSchema(file, current);
        if (current !== SCHEMA_VERSION)
          throw olderSchemaReadOnly(file, current, `toolsim serve --db ${file}`);
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

  /** A file this process holds open answers as long as it is open. */
  async health(): Promise<StoreHealth> {
    return {
      backend: "sqlite",
      location: this.location,
      state: this.db.open ? "up" : "down",
      ...(this.db.open ? {} : { reason: "the store was closed" }),
    };
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
    this.forget(id);
    this.statements.deleteSession.run({ id });
  }

  private requireSession(id: string): SessionRecord {
    const row = this.statements.sessionById.get({ id }) as Row | undefined;
    if (!row) throw missingSession(id);
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
    const state = advancedFrom(known, version, rows, sessionId) ?? this.loadState(sessionId, version);
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
    this.forget(sessionId);
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
    this.forget(sessionId);
    this.db
      .transaction(() => {
        if (!this.statements.version.get({ session_id: sessionId, version }))
          throw missingVersion(sessionId, version);
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
    return this.createSession(forkOf(source, version, this.loadState(sessionId, version), input));
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
    if (!row) throw missingVersion(sessionId, version);
    const snapshotVersion = Number(row.snapshot_version);
    const snapshot = this.snapshotState(sessionId, snapshotVersion);
    if (snapshotVersion === version) return snapshot;
    const rows = this.versionRows(sessionId, snapshotVersion, version);
    return fromSnapshot(snapshot, snapshotVersion, version, rows, sessionId);
  }

  private snapshotState(sessionId: string, version: number): State {
    const row = this.statements.snapshot.get({ session_id: sessionId, version }) as Row | undefined;
    if (!row) throw new Error(`session ${sessionId} has no snapshot at version ${version}`);
    const hash = String(row.document_hash);
    return this.documents.load(hash, () => {
      const document = this.statements.document.get({ hash }) as Row | undefined;
      if (!document) throw missingDocument(hash);
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
    if (!row) throw missingSession(sessionId);
    return { headVersion: Number(row.head_version), nextSeq: Number(row.next_seq) };
  }

  private nextVersion(sessionId: string): number {
    const row = this.statements.maxVersion.get({ session_id: sessionId }) as Row;
    return Number(row.max) + 1;
  }

  // ── calls ────────────────────────────────────────────────────────────────

  async recordCall(call: NewCall, expectedHead: number, change?: StateChange): Promise<Commit> {
    let written: Written;
    try {
      written = this.writeCall(call, expectedHead, change);
    } catch (error) {
      // rolled back: what was known of the session may not hold any more
      this.bases.delete(call.sessionId);
      throw error;
    }
    this.remember(call.sessionId, written.base);
    return written.commit;
  }

  private writeCallNow(call: NewCall, expectedHead: number, change: StateChange | undefined): Written {
    const base = this.commitBase(call.sessionId);
    if (base.headVersion !== expectedHead)
      return { commit: { kind: "stale", headVersion: base.headVersion }, base };
    const now = new Date().toISOString();
    const seq = base.nextSeq;
    const written =
      change && change.patch.length > 0 ? this.writeVersion(call, seq, base, change, now) : undefined;
    const versionAfter = written?.head ?? base.headVersion;
    const record: CallRecord = {
      ...call,
      seq,
      versionBefore: base.headVersion,
      versionAfter,
      createdAt: now,
    };
    const row = callRow(record);
    // the call row carries the new head: the session's row is left alone (see SESSIONS)
    this.statements.insertCall.run(...CALL_COLUMNS.map((column) => row[column]));
    return {
      commit: { kind: "recorded", call: record },
      base: { headVersion: versionAfter, nextSeq: seq + 1, versions: written ?? base.versions },
    };
  }

  /**
   * The head, next call number and versions a commit starts from: remembered from this
   * store's last commit in the session while no other connection has written to the file
   * since (SQLite's data_version tells), read otherwise. Saves three reads per commit.
   */
  private commitBase(sessionId: string): CommitBase {
    const dataVersion = Number(this.statements.dataVersion.get());
    if (dataVersion !== this.dataVersion) {
      this.bases.clear();
      this.dataVersion = dataVersion;
    }
    return this.bases.get(sessionId) ?? this.currentHead(sessionId);
  }

  private remember(sessionId: string, base: CommitBase): void {
    // one entry per session this process serves; past that many, start over
    if (this.bases.size > 10_000) this.bases.clear();
    this.bases.set(sessionId, base);
  }

  /** Forgets what was known of a session's head: this store moved it outside a call. */
  private forget(sessionId: string): void {
    this.bases.delete(sessionId);
  }

  private writeVersion(
    call: NewCall,
    seq: number,
    base: CommitBase,
    change: StateChange,
    now: string,
  ): Versions {
    const parent = base.headVersion;
    const known = base.versions ?? this.versionsAt(call.sessionId, parent);
    const version = known.max + 1;
    const patch = JSON.stringify(change.patch);
    let snapshotVersion = known.snapshotVersion;
    let patchBytes = known.patchBytes + patch.length;
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
    this.statements.insertCallVersion.run(
      call.sessionId,
      version,
      parent,
      patch,
      snapshotVersion,
      patchBytes,
      seq,
      `call ${seq}: ${call.tool}`,
      now,
    );
    return { max: version, head: version, snapshotVersion, patchBytes };
  }

  /** The session's highest version, and the snapshot and patch volume of the version `head`. */
  private versionsAt(sessionId: string, head: number): Versions {
    const row = this.statements.version.get({ session_id: sessionId, version: head }) as Row;
    return {
      max: this.nextVersion(sessionId) - 1,
      head,
      snapshotVersion: Number(row.snapshot_version),
      patchBytes: Number(row.patch_bytes),
    };
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
  ): Promise<RepeatedCall | undefined> {
    const row = this.statements.repeat.get({ session_id: sessionId, tool, args_hash: argsHash, version }) as
      | Row
      | undefined;
    return row ? toRepeat(row) : undefined;
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
    if (!this.readOnly) this.statements.cacheHit.run({ key });
    return {
      response: String(row.response),
      usage: row.usage === null ? undefined : (JSON.parse(String(row.usage)) as Usage),
    };
  }

  async llmCachePut(entry: { key: string; model: string; response: string; usage?: Usage }): Promise<void> {
    if (this.readOnly) return;
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
  const db = openFile(file, options);
  if (!options.readonly) return db;
  try {
    // the first read of a file in WAL mode needs its shared-memory file (-shm), which SQLite
    // creates beside it: in a folder the user may not write, that fails
    db.pragma("user_version");
    return db;
  } catch (error) {
    db.close();
    if (!/SQLITE_READONLY_DIRECTORY|SQLITE_READONLY_CANTINIT|SQLITE_CANTOPEN/.test(codeOf(error))) {
      throw new StoreOpenError(openFailure(file, error));
    }
    return openImmutable(file, error);
  }
}

/**
 * A state file read where nothing can write it: without a write-ahead log beside it, the
 * file holds every committed call (a closed store copied its log back), so it is read as
 * immutable, with no shared memory and no locks.
 */
function openImmutable(file: string, cause: unknown): Database.Database {
  const log = `${file}-wal`;
  if (existsSync(log) && statSync(log).size > 0) {
    throw new StoreOpenError(
      `cannot read ${file}: its write-ahead log (${log}) holds changes that are not in the file yet (a toolsim server is using it, or stopped without closing it), and reading them needs write access to ${dirname(file)}; run the command as a user who may write there, or once the server has stopped cleanly`,
    );
  }
  try {
    const db = database(`${pathToFileURL(resolve(file)).href}?immutable=1`, { readonly: true });
    db.pragma("user_version");
    return db;
  } catch (error) {
    throw new StoreOpenError(openFailure(file, codeOf(error) === "SQLITE_CANTOPEN" ? cause : error));
  }
}

/**
 * better-sqlite3 takes `file:` names as URIs only when SQLITE_USE_URI is 1 as its native
 * part loads, at the first database opened in the process: set for that moment, so that a
 * file in a folder the user may not write can be opened `immutable`, and not passed on to
 * child processes. A path that does not start with `file:` means what it always did.
 */
function database(name: string, options: Database.Options): Database.Database {
  const unset = process.env.SQLITE_USE_URI === undefined;
  if (unset) process.env.SQLITE_USE_URI = "1";
  try {
    return new Database(name, options);
  } finally {
    if (unset) delete process.env.SQLITE_USE_URI;
  }
}

function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function codeOf(error: unknown): string {
  return String((error as { code?: unknown } | undefined)?.code ?? "");
}

function openFile(file: string, options: SqliteOptions): Database.Database {
  // SQLite would open a file it may not write for reading only, and fail at the first write
  if (!options.readonly && file !== ":memory:" && existsSync(file) && !writable(file)) {
    throw new StoreOpenError(
      `cannot open the state file ${file} for writing (permission denied); the commands that only read (sessions, report, export) read it as it is, others need write access to it, or choose another with --db FILE or TOOLSIM_DB`,
    );
  }
  let db: Database.Database;
  try {
    if (!options.readonly && file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    db = database(file, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw new StoreOpenError(openFailure(file, error));
  }
  try {
    // first: a process opening a new file while another sets it up waits instead of failing
    db.pragma("busy_timeout = 5000");
    if (!options.readonly) {
      inWalMode(db);
      // NORMAL in WAL mode: a committed transaction survives a killed process; only power loss may drop the last few.
      db.pragma("synchronous = NORMAL");
    }
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
function migrate(db: Database.Database, file: string): void {
  const current = Number(db.pragma("user_version", { simple: true }));
  if (current > SCHEMA_VERSION) throw newerSchema(file, current);
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
        for (const statement of [...migration.statements, ...(migration.sqlite ?? [])]) db.exec(statement);
        db.pragma(`user_version = ${migration.version}`);
      }
    }
  }).immediate();
  const broken = db.pragma("foreign_key_check") as unknown[];
  if (broken.length > 0) throw new Error(`the upgraded database has ${broken.length} broken references`);
  db.pragma("foreign_keys = ON");
}

/**
 * A session's head, next call number and last use, read from its latest call (one step down
 * the calls' primary key), so that recording a call writes the call and its version only and
 * leaves the session's row alone. In a SQLite file (schema 14 on) `head_version` is the head
 * as it was last set outside a call (a start, a reset, a restore) and `next_seq` the number
 * the next call had then: a call numbered from there on carries the head in its
 * `version_after`. (Schema 13 kept the head in the row and read only the rest from the calls.)
 */
const SESSIONS = `sessions s LEFT JOIN calls c
  ON c.session_id = s.id AND c.seq = (SELECT MAX(seq) FROM calls WHERE session_id = s.id)`;
const HEAD = "CASE WHEN c.seq >= s.next_seq THEN c.version_after ELSE s.head_version END";
const NEXT_SEQ = "COALESCE(c.seq, 0) + 1";
const SESSION_COLUMNS = `s.id, s.tenant, s.name, s.seed, s.task_id, s.scope, ${HEAD} AS head_version,
  ${NEXT_SEQ} AS next_seq, s.created_at, MAX(s.updated_at, COALESCE(c.created_at, '')) AS updated_at, s.forked_from`;
/** The number the session's next call gets, for the row of a head set outside a call. */
const NEXT_CALL = "COALESCE((SELECT MAX(seq) FROM calls WHERE session_id = @id), 0) + 1";

type Statements = ReturnType<typeof prepare>;

/** The columns of a call row, in the order insertCall binds them. */
const CALL_COLUMNS = [
  "session_id",
  "seq",
  "tool",
  "arguments",
  "args_hash",
  "status",
  "findings",
  "result",
  "error",
  "version_before",
  "version_after",
  "engine",
  "fallback",
  "usage",
  "latency_ms",
  "created_at",
  "fault",
] as const;

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
    sessionById: db.prepare(`SELECT ${SESSION_COLUMNS} FROM ${SESSIONS} WHERE s.id = @id`),
    sessionInTenant: db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM ${SESSIONS} WHERE s.tenant = @tenant AND (s.id = @key OR s.name = @key)
       ORDER BY s.id = @key DESC LIMIT 1`,
    ),
    sessionsByKey: db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM ${SESSIONS} WHERE s.id = @key OR s.name = @key ORDER BY s.created_at, s.id`,
    ),
    sessionHead: db.prepare(
      `SELECT ${HEAD} AS head_version, ${NEXT_SEQ} AS next_seq FROM ${SESSIONS} WHERE s.id = @id`,
    ),
    allSessions: db.prepare(`SELECT ${SESSION_COLUMNS} FROM ${SESSIONS} ORDER BY s.created_at, s.id`),
    tenantSessions: db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM ${SESSIONS} WHERE s.tenant = @tenant ORDER BY s.created_at, s.id`,
    ),
    deleteSession: db.prepare("DELETE FROM sessions WHERE id = @id"),
    updateSessionScope: db.prepare(
      `UPDATE sessions SET task_id = @task_id, scope = @scope, head_version = @head, next_seq = ${NEXT_CALL},
         updated_at = @now WHERE id = @id`,
    ),
    moveHead: db.prepare(
      `UPDATE sessions SET head_version = @head, next_seq = ${NEXT_CALL}, updated_at = @now WHERE id = @id`,
    ),
    insertVersion: db.prepare(
      `INSERT INTO state_versions (session_id, version, parent, patch, snapshot_version, patch_bytes, call_seq, reason, created_at)
       VALUES (@session_id, @version, @parent, @patch, @snapshot_version, @patch_bytes, @call_seq, @reason, @now)`,
    ),
    // the statements of every commit bind their values by position: binding by name costs a lookup per value
    insertCallVersion: db.prepare(
      `INSERT INTO state_versions (session_id, version, parent, patch, snapshot_version, patch_bytes, call_seq, reason, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    dataVersion: db.prepare("PRAGMA data_version").pluck(),
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
      `INSERT INTO calls (${CALL_COLUMNS.join(", ")}) VALUES (${CALL_COLUMNS.map(() => "?").join(", ")})`,
    ),
    // Without INDEXED BY, SQLite walks the primary key backwards to satisfy ORDER BY and reads the
    // session's whole call log whenever nothing matches (every new call): linear in the log's length.
    repeat: db.prepare(
      `SELECT seq, status FROM calls INDEXED BY calls_repeat
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
