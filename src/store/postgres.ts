import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import type { State } from "../state/index.js";
import { Documents, type StoredDocument } from "./documents.js";
import { connectFailure, describeServer, type ServerAddress } from "./postgres-server.js";
import { callRow, type Row, toAnswer, toCall, toRun, toRunAttempt, toSession } from "./rows.js";
import { pendingMigrations, SCHEMA_VERSION } from "./schema.js";
import { StoreOpenError } from "./sqlite.js";
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

export interface PostgresOptions {
  /**
   * Use the database as it is: no migrations, and refuse one that holds no toolsim tables
   * (commands that read sessions a server wrote).
   */
  readonly?: boolean;
  /** Refuse a database without toolsim's tables instead of creating them (commands on existing sessions). */
  existing?: boolean;
  snapshots?: SnapshotPolicy;
  /** Connections this process keeps open at most (default 10). */
  poolSize?: number;
}

export const DEFAULT_POOL_SIZE = 10;

/**
 * Defaults that the URL's own parameters override (`?statement_timeout=…`, `?connect_timeout=…`):
 * a statement or a lock wait that runs this long means something is wrong, and a
 * connection idle inside a transaction (a frozen process) must not hold a session's row
 * lock for ever.
 */
const STATEMENT_TIMEOUT_MS = 15_000;
const IDLE_IN_TRANSACTION_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;

/** Key of the advisory lock taken around migrating, so processes starting together migrate once. */
const MIGRATION_LOCK = "7321094501";

type Queryable = Pick<pg.PoolClient, "query">;

/**
 * The networked store: PostgreSQL through a connection pool (node-postgres). Every write
 * is one transaction; a write to a session takes that session's row lock first
 * (SELECT … FOR UPDATE), so writers of one session are serialized across processes and a
 * call recorded on a head another writer moved is refused (`stale`). Versions, snapshots
 * and documents follow the same layout as the SQLite store (schema.ts, versions.ts).
 */
export class PostgresStore implements Store {
  readonly backend = "postgres" as const;
  readonly location: string;
  private readonly documents = new Documents();
  /** Documents this process knows the database holds: their text need not be sent again. */
  private readonly storedHashes = new Set<string>();
  private readonly policy: SnapshotPolicy;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly server: ServerAddress,
    options: PostgresOptions,
  ) {
    this.location = server.display;
    this.policy = options.snapshots ?? DEFAULT_SNAPSHOTS;
  }

  static async open(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
    const server = describeServer(url);
    // libpq's connect_timeout (seconds) in the URL, which node-postgres itself ignores
    const connectTimeout = Number(new URL(url).searchParams.get("connect_timeout") ?? "");
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      application_name: "toolsim",
      statement_timeout: STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
      connectionTimeoutMillis: connectTimeout > 0 ? connectTimeout * 1000 : CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
    });
    // An idle connection the server closed (restart, failover) is dropped from the pool and
    // replaced on next use; without a listener the error would end the process.
    pool.on("error", () => {});
    try {
      await prepareSchema(pool, server, options);
    } catch (error) {
      await pool.end().catch(() => {});
      if (error instanceof StoreOpenError) throw error;
      throw new StoreOpenError(connectFailure(server, error));
    }
    return new PostgresStore(pool, server, options);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }

  // ── sessions ──────────────────────────────────────────────────────────────

  async createSession(input: NewSession): Promise<SessionRecord> {
    const stored = this.documents.stored(this.documents.stateOf(input.state));
    const now = new Date().toISOString();
    const [row] = await this.rows(
      `WITH ${this.documentInsert(stored, 10)}
       s AS (
         INSERT INTO sessions (id, tenant, name, seed, task_id, scope, head_version, next_seq, created_at, updated_at, forked_from)
         VALUES ($1, $2, $3, $4, $5, $6, 0, 1, $7, $7, $8) RETURNING *
       ),
       v AS (
         INSERT INTO state_versions (session_id, version, parent, patch, snapshot_version, patch_bytes, call_seq, reason, created_at)
         SELECT id, 0, NULL, '[]', 0, 0, NULL, $9, $7 FROM s
       ),
       sn AS (INSERT INTO state_snapshots (session_id, version, document_hash) SELECT id, 0, $10 FROM s)
       SELECT * FROM s`,
      [
        input.id ?? randomUUID(),
        input.tenant ?? "",
        input.name ?? null,
        input.seed,
        input.taskId ?? null,
        JSON.stringify(input.scope ?? {}),
        now,
        input.forkedFrom ?? null,
        input.reason ?? "start",
        stored.hash,
        ...this.documentParams(stored),
      ],
      true, // a second run would find its own session and fail
    );
    if (!row) throw new Error("the new session was not stored");
    this.storedHashes.add(stored.hash);
    return toSession(row);
  }

  async session(key: string, tenant: string): Promise<SessionRecord | undefined> {
    const rows = await this.rows(
      "SELECT * FROM sessions WHERE tenant = $2 AND (id = $1 OR name = $1) ORDER BY (id = $1) DESC LIMIT 1",
      [key, tenant],
    );
    return rows[0] ? toSession(rows[0]) : undefined;
  }

  async findSessions(key: string): Promise<SessionRecord[]> {
    const rows = await this.rows(
      "SELECT * FROM sessions WHERE id = $1 OR name = $1 ORDER BY created_at, id",
      [key],
    );
    return rows.map(toSession);
  }

  async sessions(tenant?: string): Promise<SessionRecord[]> {
    const rows =
      tenant === undefined
        ? await this.rows("SELECT * FROM sessions ORDER BY created_at, id")
        : await this.rows("SELECT * FROM sessions WHERE tenant = $1 ORDER BY created_at, id", [tenant]);
    return rows.map(toSession);
  }

  async deleteSession(id: string): Promise<void> {
    await this.rows("DELETE FROM sessions WHERE id = $1", [id]);
  }

  private async requireSession(id: string): Promise<SessionRecord> {
    const [row] = await this.rows("SELECT * FROM sessions WHERE id = $1", [id]);
    if (!row) throw new Error(`session ${id} does not exist`);
    return toSession(row);
  }

  // ── state ────────────────────────────────────────────────────────────────

  async hasVersion(sessionId: string, version: number): Promise<boolean> {
    const rows = await this.rows("SELECT 1 FROM state_versions WHERE session_id = $1 AND version = $2", [
      sessionId,
      version,
    ]);
    return rows.length > 0;
  }

  async headVersion(sessionId: string): Promise<number> {
    const [row] = await this.rows("SELECT head_version FROM sessions WHERE id = $1", [sessionId]);
    if (!row) throw new Error(`session ${sessionId} does not exist`);
    return Number(row.head_version);
  }

  async head(sessionId: string): Promise<StateHead> {
    const [row] = await this.rows("SELECT head_version FROM sessions WHERE id = $1", [sessionId]);
    if (!row) throw new Error(`session ${sessionId} does not exist`);
    const version = Number(row.head_version);
    return { version, state: await this.loadState(sessionId, version) };
  }

  async stateAt(sessionId: string, version: number): Promise<State> {
    return this.loadState(sessionId, version);
  }

  async advance(sessionId: string, known: StateHead): Promise<StateHead> {
    // the head and the versions after the known one, in one round trip
    const rows = await this.rows(
      `SELECT s.head_version, v.version, v.parent, v.patch FROM sessions s
       LEFT JOIN state_versions v ON v.session_id = s.id AND v.version > $2 AND v.version <= s.head_version
       WHERE s.id = $1`,
      [sessionId, known.version],
    );
    if (!rows[0]) throw new Error(`session ${sessionId} does not exist`);
    const version = Number(rows[0].head_version);
    if (version === known.version) return known;
    const patches = patchesBetween(versionRows(rows), known.version, version);
    const state = patches
      ? replay(known.state, patches, sessionId)
      : await this.loadState(sessionId, version);
    return { version, state };
  }

  async resetState(
    sessionId: string,
    document: State | Record<string, unknown>,
    change: { reason: string; taskId?: string | null; scope?: SessionScope },
  ): Promise<StateHead> {
    const state = this.documents.stateOf(document);
    const stored = this.documents.stored(state);
    const version = await this.transaction(async (tx) => {
      const [locked] = await tx
        .query("SELECT task_id, scope FROM sessions WHERE id = $1 FOR UPDATE", [sessionId])
        .then((result) => result.rows as Row[]);
      if (!locked) throw new Error(`session ${sessionId} does not exist`);
      const row = await first(
        tx,
        `WITH ${this.documentInsert(stored, 6)}
         v AS (
           INSERT INTO state_versions (session_id, version, parent, patch, snapshot_version, patch_bytes, call_seq, reason, created_at)
           SELECT $1, next.version, NULL, '[]', next.version, 0, NULL, $2, $3
           FROM (SELECT COALESCE(MAX(version), -1) + 1 AS version FROM state_versions WHERE session_id = $1) next
           RETURNING version
         ),
         sn AS (INSERT INTO state_snapshots (session_id, version, document_hash) SELECT $1, version, $6 FROM v)
         UPDATE sessions SET task_id = $4, scope = $5, head_version = v.version, updated_at = $3
         FROM v WHERE sessions.id = $1 RETURNING v.version`,
        [
          sessionId,
          change.reason,
          new Date().toISOString(),
          change.taskId === undefined ? locked.task_id : change.taskId,
          change.scope === undefined ? locked.scope : JSON.stringify(change.scope),
          stored.hash,
          ...this.documentParams(stored),
        ],
      );
      return Number(row.version);
    });
    this.storedHashes.add(stored.hash);
    return { version, state };
  }

  async moveHead(sessionId: string, version: number): Promise<StateHead> {
    const rows = await this.rows(
      `UPDATE sessions SET head_version = $2, updated_at = $3
       WHERE id = $1 AND EXISTS (SELECT 1 FROM state_versions WHERE session_id = $1 AND version = $2)
       RETURNING id`,
      [sessionId, version, new Date().toISOString()],
    );
    if (rows.length === 0) throw new Error(`session ${sessionId} has no state version ${version}`);
    return { version, state: await this.loadState(sessionId, version) };
  }

  async fork(
    sessionId: string,
    version: number,
    input: { name?: string; seed?: string },
  ): Promise<SessionRecord> {
    const source = await this.requireSession(sessionId);
    return this.createSession({
      tenant: source.tenant,
      name: input.name,
      seed: input.seed ?? source.seed,
      taskId: source.taskId ?? undefined,
      scope: source.scope,
      state: await this.loadState(sessionId, version),
      forkedFrom: `${sessionId}@${version}`,
      reason: `fork of ${source.name ?? source.id} at version ${version}`,
    });
  }

  /** A version: its snapshot (from memory when this process has it) plus the patches since, in one round trip. */
  private async loadState(sessionId: string, version: number): Promise<State> {
    const rows = await this.rows(
      `SELECT t.snapshot_version, sn.document_hash, p.version, p.parent, p.patch
       FROM state_versions t
       JOIN state_snapshots sn ON sn.session_id = t.session_id AND sn.version = t.snapshot_version
       LEFT JOIN state_versions p ON p.session_id = t.session_id
         AND p.version > t.snapshot_version AND p.version <= t.version
       WHERE t.session_id = $1 AND t.version = $2`,
      [sessionId, version],
    );
    const target = rows[0];
    if (!target) throw new Error(`session ${sessionId} has no state version ${version}`);
    const snapshotVersion = Number(target.snapshot_version);
    const snapshot = await this.document(String(target.document_hash));
    if (snapshotVersion === version) return snapshot;
    const patches = patchesBetween(versionRows(rows), snapshotVersion, version);
    if (!patches)
      throw new Error(`session ${sessionId}: version ${version} does not descend from its snapshot`);
    return replay(snapshot, patches, sessionId);
  }

  private async document(hash: string): Promise<State> {
    let text: string | undefined;
    if (!this.documents.known(hash)) {
      const [row] = await this.rows("SELECT document FROM documents WHERE hash = $1", [hash]);
      if (!row) throw new Error(`stored state ${hash} is missing`);
      text = String(row.document);
      this.storedHashes.add(hash);
    }
    return this.documents.load(hash, () => {
      if (text === undefined) throw new Error(`stored state ${hash} left memory while it was read`);
      return text;
    });
  }

  /**
   * The CTE that stores a document unless this process knows the database has it; its
   * parameters are numbered after the statement's own (`after` of them).
   */
  private documentInsert(stored: StoredDocument, after: number): string {
    if (this.storedHashes.has(stored.hash)) return "";
    return `d AS (
      INSERT INTO documents (hash, document, size) VALUES ($${after + 1}, $${after + 2}, $${after + 3})
      ON CONFLICT (hash) DO NOTHING
    ),`;
  }

  private documentParams(stored: StoredDocument): unknown[] {
    if (this.storedHashes.has(stored.hash)) return [];
    return [stored.hash, stored.text, stored.text.length];
  }

  // ── calls ────────────────────────────────────────────────────────────────

  /**
   * One statement, so one round trip and its own transaction: it locks the session's row
   * only if the head is still the one the call ran on (FOR UPDATE re-checks that condition
   * on the newest row after waiting for another writer), then writes the call, the new
   * version when the state changed, and the new head. No row means another writer moved
   * the head first: the call is refused as stale.
   */
  async recordCall(call: NewCall, expectedHead: number, change?: StateChange): Promise<Commit> {
    const createdAt = new Date().toISOString();
    // a key of this attempt: after a lost connection it tells whether the statement committed
    const key = randomUUID();
    const values = callValues(call, expectedHead, createdAt, key);
    let row: Row | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        [row] = change?.patch.length
          ? await this.rows(RECORD_CHANGE, [...values, ...patchValues(change)], true)
          : await this.rows(RECORD_CALL, values, true);
        break;
      } catch (error) {
        // the next version number was taken meanwhile: another writer moved the head and back
        if ((error as { code?: unknown }).code === "23505") break;
        if (!(error instanceof ConnectionLost)) throw error;
        if (attempt > this.pool.options.max) throw error;
        const recorded = await this.recordedWithKey(call.sessionId, key);
        if (recorded) {
          return {
            kind: "recorded",
            call: {
              ...call,
              seq: recorded.seq,
              versionBefore: expectedHead,
              versionAfter: recorded.versionAfter,
              createdAt,
            },
          };
        }
      }
    }
    if (!row) return { kind: "stale", headVersion: await this.headVersion(call.sessionId) };
    const versionAfter = change?.patch.length ? Number(row.version) : expectedHead;
    if (change && versionAfter !== expectedHead) {
      await this.snapshotIfDue(call.sessionId, versionAfter, change.state, row);
    }
    return {
      kind: "recorded",
      call: { ...call, seq: Number(row.seq), versionBefore: expectedHead, versionAfter, createdAt },
    };
  }

  /**
   * The call an attempt with this key recorded, if it did: asked after a lost connection,
   * when the statement may or may not have committed. A recorded call is among the last few
   * of its session, so the lookup walks only those.
   */
  private async recordedWithKey(
    sessionId: string,
    key: string,
  ): Promise<{ seq: number; versionAfter: number } | undefined> {
    const [row] = await this.rows(
      `SELECT c.seq, c.version_after FROM calls c JOIN sessions s ON s.id = c.session_id
       WHERE c.session_id = $1 AND c.seq >= s.next_seq - 64 AND c.call_key = $2`,
      [sessionId, key],
    );
    return row ? { seq: Number(row.seq), versionAfter: Number(row.version_after) } : undefined;
  }

  /**
   * Stores the whole state of a new version when the patches since its snapshot weigh
   * enough. A second statement, after the call is committed: a version without its
   * snapshot is still exact (loaded from the older snapshot and more patches), so a
   * failure here costs speed, never a call, and the next write tries again.
   */
  private async snapshotIfDue(sessionId: string, version: number, state: State, written: Row): Promise<void> {
    if (!snapshotDue(this.policy, Number(written.patch_bytes), Number(written.snapshot_size ?? 0))) return;
    const stored = this.documents.stored(state);
    try {
      await this.rows(
        `WITH ${this.documentInsert(stored, 3)}
         sn AS (
           INSERT INTO state_snapshots (session_id, version, document_hash) VALUES ($1, $2, $3)
           ON CONFLICT (session_id, version) DO UPDATE SET document_hash = excluded.document_hash
         )
         UPDATE state_versions SET snapshot_version = $2, patch_bytes = 0 WHERE session_id = $1 AND version = $2`,
        [sessionId, version, stored.hash, ...this.documentParams(stored)],
      );
      this.storedHashes.add(stored.hash);
    } catch {
      // see above: the version stays exact without its snapshot
    }
  }

  async repeatOf(
    sessionId: string,
    tool: string,
    argsHash: string,
    version: number,
  ): Promise<number | undefined> {
    const [row] = await this.rows(
      `SELECT seq FROM calls WHERE session_id = $1 AND tool = $2 AND args_hash = $3 AND version_after = $4
       AND fault IS NULL ORDER BY seq DESC LIMIT 1`,
      [sessionId, tool, argsHash, version],
    );
    return row ? Number(row.seq) : undefined;
  }

  async calls(sessionId: string, page: CallPage = {}): Promise<CallRecord[]> {
    const rows = await this.rows(
      "SELECT * FROM calls WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [sessionId, page.afterSeq ?? 0, page.limit ?? null],
    );
    return rows.map(toCall);
  }

  async callCount(sessionId: string): Promise<number> {
    const [row] = await this.rows("SELECT COUNT(*) AS count FROM calls WHERE session_id = $1", [sessionId]);
    return Number(row?.count ?? 0);
  }

  async recentCalls(sessionId: string, limit: number): Promise<CallRecord[]> {
    const rows = await this.rows("SELECT * FROM calls WHERE session_id = $1 ORDER BY seq DESC LIMIT $2", [
      sessionId,
      limit,
    ]);
    return rows.map(toCall).reverse();
  }

  // ── checkpoints and task answers ─────────────────────────────────────────

  async checkpoint(sessionId: string, name: string, version?: number): Promise<CheckpointRecord> {
    const now = new Date().toISOString();
    const [row] = await this.rows(
      `INSERT INTO checkpoints (session_id, name, version, created_at)
       SELECT id, $2, COALESCE($3, head_version), $4 FROM sessions WHERE id = $1
       ON CONFLICT (session_id, name) DO UPDATE SET version = excluded.version, created_at = excluded.created_at
       RETURNING version`,
      [sessionId, name, version ?? null, now],
    );
    if (!row) throw new Error(`session ${sessionId} does not exist`);
    return { sessionId, name, version: Number(row.version), createdAt: now };
  }

  async checkpoints(sessionId: string): Promise<CheckpointRecord[]> {
    const rows = await this.rows(
      "SELECT * FROM checkpoints WHERE session_id = $1 ORDER BY created_at, name",
      [sessionId],
    );
    return rows.map((row) => ({
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
    return this.transaction(async (tx) => {
      const head = await first(tx, "SELECT head_version FROM sessions WHERE id = $1 FOR UPDATE", [sessionId]);
      const row = await first(
        tx,
        `INSERT INTO task_answers (session_id, seq, version, answer, infeasible, created_at)
         SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5 FROM task_answers WHERE session_id = $1
         RETURNING *`,
        [
          sessionId,
          Number(head.head_version),
          input.answer ?? null,
          input.infeasible ? 1 : 0,
          new Date().toISOString(),
        ],
      );
      return toAnswer(sessionId, row);
    });
  }

  async answers(sessionId: string): Promise<TaskAnswerRecord[]> {
    const rows = await this.rows("SELECT * FROM task_answers WHERE session_id = $1 ORDER BY seq", [
      sessionId,
    ]);
    return rows.map((row) => toAnswer(sessionId, row));
  }

  async stats(): Promise<StoreStats> {
    const [row] = await this.rows(
      `SELECT (SELECT COUNT(*) FROM sessions) AS sessions, (SELECT COUNT(*) FROM state_versions) AS versions,
         (SELECT COUNT(*) FROM state_snapshots) AS snapshots, (SELECT COUNT(*) FROM documents) AS documents,
         (SELECT COALESCE(SUM(size), 0) FROM documents) AS document_bytes, (SELECT COUNT(*) FROM calls) AS calls`,
    );
    return {
      sessions: Number(row?.sessions),
      versions: Number(row?.versions),
      snapshots: Number(row?.snapshots),
      documents: Number(row?.documents),
      documentBytes: Number(row?.document_bytes),
      calls: Number(row?.calls),
    };
  }

  // ── runs ─────────────────────────────────────────────────────────────────

  /** The next number, taken in the statement; two processes that take the same one try again. */
  async createRun(input: { seed: string; plan: unknown }): Promise<RunRecord> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [row] = await this.rows(
          `INSERT INTO runs (id, number, seed, status, plan, note, created_at, updated_at)
           SELECT 'run-' || next.number, next.number, $1, 'running', $2, NULL, $3, $3
           FROM (SELECT COALESCE(MAX(number), 0) + 1 AS number FROM runs) next
           RETURNING *`,
          [input.seed, JSON.stringify(input.plan), new Date().toISOString()],
          true,
        );
        if (!row) throw new Error("creating a run returned no row");
        return toRun(row);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "23505" || attempt >= 20) throw error;
      }
    }
  }

  async run(id: string): Promise<RunRecord | undefined> {
    const [row] = await this.rows("SELECT * FROM runs WHERE id = $1", [id]);
    return row ? toRun(row) : undefined;
  }

  async runs(): Promise<RunRecord[]> {
    return (await this.rows("SELECT * FROM runs ORDER BY number")).map(toRun);
  }

  async setRunStatus(id: string, status: RunStatus, note?: string): Promise<void> {
    await this.rows("UPDATE runs SET status = $2, note = $3, updated_at = $4 WHERE id = $1", [
      id,
      status,
      note ?? null,
      new Date().toISOString(),
    ]);
  }

  async recordAttempt(attempt: Omit<RunAttemptRecord, "createdAt">): Promise<RunAttemptRecord> {
    const record: RunAttemptRecord = { ...attempt, createdAt: new Date().toISOString() };
    await this.rows(
      `INSERT INTO run_attempts (run_id, task_id, attempt, session_id, session_name, outcome, result, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (run_id, task_id, attempt) DO UPDATE SET session_id = excluded.session_id,
         session_name = excluded.session_name, outcome = excluded.outcome, result = excluded.result,
         created_at = excluded.created_at`,
      [
        record.runId,
        record.taskId,
        record.attempt,
        record.sessionId,
        record.sessionName,
        record.outcome,
        JSON.stringify(record.result),
        record.createdAt,
      ],
    );
    return record;
  }

  async runAttempts(runId: string): Promise<RunAttemptRecord[]> {
    const rows = await this.rows("SELECT * FROM run_attempts WHERE run_id = $1 ORDER BY task_id, attempt", [
      runId,
    ]);
    return rows.map(toRunAttempt);
  }

  // ── model answer cache ───────────────────────────────────────────────────

  async llmCacheGet(key: string): Promise<CachedAnswer | undefined> {
    const [row] = await this.rows(
      "UPDATE llm_cache SET hits = hits + 1 WHERE key = $1 RETURNING response, usage",
      [key],
    );
    if (!row) return undefined;
    return {
      response: String(row.response),
      usage: row.usage === null ? undefined : (JSON.parse(String(row.usage)) as Usage),
    };
  }

  async llmCachePut(entry: { key: string; model: string; response: string; usage?: Usage }): Promise<void> {
    await this.rows(
      `INSERT INTO llm_cache (key, model, response, usage, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO NOTHING`,
      [
        entry.key,
        entry.model,
        entry.response,
        entry.usage ? JSON.stringify(entry.usage) : null,
        new Date().toISOString(),
      ],
    );
  }

  // ── round trips ──────────────────────────────────────────────────────────

  /**
   * One statement on any pooled connection. A connection found lost (the server restarted
   * or failed over since it was opened) is replaced and the statement sent again, unless it
   * must not run twice (`once`): every other statement here reads, or writes the same thing
   * however often it runs. After a restart every idle connection of the pool may be dead,
   * so it may take as many tries as the pool holds connections.
   */
  private async rows(text: string, values: unknown[] = [], once = false): Promise<Row[]> {
    const query = prepared(text, values);
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.pool.query(query)).rows as Row[];
      } catch (error) {
        if (once || !isConnectionError(error) || attempt > this.pool.options.max) throw this.failure(error);
      }
    }
  }

  /**
   * Runs `work` in one transaction on one connection; any error rolls it back. A connection
   * found lost before the transaction began is replaced once; after that nothing is
   * retried here (the engine answers a failed call as failed, and a client may send it again).
   */
  private async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect().catch((error: unknown) => {
        throw this.failure(error);
      });
      let begun = false;
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        begun = true;
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        if (!begun) {
          broken = error instanceof Error ? error : new Error(String(error));
          if (attempt <= this.pool.options.max && isConnectionError(error)) continue;
          throw this.failure(error);
        }
        await client.query("ROLLBACK").catch((rollback: unknown) => {
          // a connection that cannot even roll back is closed rather than reused
          broken = rollback instanceof Error ? rollback : new Error(String(rollback));
        });
        throw this.failure(error);
      } finally {
        client.release(broken);
      }
    }
  }

  /** A lost or refused connection becomes a message naming the server; anything else passes through. */
  private failure(error: unknown): unknown {
    return isConnectionError(error)
      ? new ConnectionLost(connectFailure(this.server, error), { cause: error })
      : error;
  }
}

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

function callValues(call: NewCall, expectedHead: number, createdAt: string, key: string): unknown[] {
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
function patchValues(change: StateChange): unknown[] {
  const patch = JSON.stringify(change.patch);
  return [patch, patch.length];
}

/** A call that changed nothing: the call row and the session's next seq. */
const RECORD_CALL = `
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
const RECORD_CHANGE = `
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

const statementNames = new Map<string, string>();

/**
 * A statement named after its text, so each connection parses and plans it once and
 * afterwards only binds values (node-postgres prepares named statements per connection).
 */
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (!name) {
    name = `toolsim_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

async function first(tx: Queryable, text: string, values: unknown[]): Promise<Row> {
  const [row] = (await tx.query(prepared(text, values))).rows as Row[];
  if (!row) throw new Error(`expected a row from: ${text.trim().slice(0, 60)}`);
  return row;
}

/** Version rows of a query that returns them (possibly none: a LEFT JOIN's nulls are skipped). */
function versionRows(rows: readonly Row[]): Map<number, VersionRow> {
  const map = new Map<number, VersionRow>();
  for (const row of rows) {
    if (row.version === null || row.version === undefined) continue;
    map.set(Number(row.version), {
      version: Number(row.version),
      parent: row.parent === null ? null : Number(row.parent),
      patch: String(row.patch),
    });
  }
  return map;
}

/** The server could not be reached, or the connection was lost: the message names the server and what to check. */
class ConnectionLost extends Error {}

function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === "string" &&
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|EPIPE)$/.test(code)
  )
    return true;
  // 08: connection exception; 57P01-57P03: the server is shutting down or starting
  if (typeof code === "string" && (/^08/.test(code) || /^57P0[1-3]$/.test(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    error.message,
  );
}

/**
 * Creates or upgrades the schema: migrations from the shared list, each recorded in
 * toolsim_schema, under an advisory lock so processes that start together migrate once.
 */
async function prepareSchema(pool: pg.Pool, server: ServerAddress, options: PostgresOptions): Promise<void> {
  const client = await pool.connect();
  try {
    const current = await schemaVersion(client);
    if (current === undefined && (options.readonly || options.existing)) {
      throw new StoreOpenError(
        `${server.display} holds no toolsim sessions (no toolsim tables in database "${server.database}"); pass --db the URL toolsim serve --db used`,
      );
    }
    if (current !== undefined && current > SCHEMA_VERSION) throw newerSchema(server, current);
    // up to date: no lock and no DDL, so a read-only replica opens too
    if (current === SCHEMA_VERSION) return;
    if (options.readonly) {
      throw new StoreOpenError(
        `${server.display} was written by another version of toolsim (schema ${current}, this one knows ${SCHEMA_VERSION}); open it once with write access (toolsim serve --db URL) to upgrade it`,
      );
    }
    await migrate(client, server);
  } finally {
    client.release();
  }
}

/** Runs the pending migrations in one transaction, under the advisory lock. */
async function migrate(client: pg.PoolClient, server: ServerAddress): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS toolsim_schema (
         version     INTEGER PRIMARY KEY,
         summary     TEXT NOT NULL,
         applied_at  TEXT NOT NULL
       )`,
    );
    // read again under the lock: another process may have migrated meanwhile
    const current = (await schemaVersion(client)) ?? 0;
    if (current > SCHEMA_VERSION) throw newerSchema(server, current);
    for (const migration of pendingMigrations(current)) {
      for (const statement of migration.statements) await client.query(statement);
      await client.query("INSERT INTO toolsim_schema (version, summary, applied_at) VALUES ($1, $2, $3)", [
        migration.version,
        migration.summary,
        new Date().toISOString(),
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

function newerSchema(server: ServerAddress, current: number): StoreOpenError {
  return new StoreOpenError(
    `${server.display} was written by a newer toolsim (schema ${current}, this one knows ${SCHEMA_VERSION}); upgrade toolsim or use another --db`,
  );
}

/** The applied schema version, or undefined when the database has no toolsim tables. */
async function schemaVersion(client: Queryable): Promise<number | undefined> {
  const exists = await client.query("SELECT to_regclass('toolsim_schema') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return undefined;
  const result = await client.query("SELECT COALESCE(MAX(version), 0) AS version FROM toolsim_schema");
  return Number(result.rows[0]?.version ?? 0);
}
