import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { applyPatch, type Patch } from "../patch/index.js";
import { migrate } from "./migrations.js";
import type {
  CallRecord,
  CallStatus,
  CheckpointRecord,
  NewCall,
  NewSession,
  SessionRecord,
  StateVersion,
  TaskAnswerRecord,
  Usage,
} from "./types.js";

/** A full document is kept every SNAPSHOT_EVERY versions, so loading any version replays a few patches at most. */
const SNAPSHOT_EVERY = 32;

type Row = Record<string, unknown>;

/**
 * The only place that knows SQL. Synchronous (better-sqlite3): every method is one
 * statement or one transaction, so an answered call is on disk before the answer leaves.
 */
export class Store {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly statements: ReturnType<typeof prepare>;
  private readonly lastDepth = new Map<string, { version: number; depth: number }>();

  private constructor(file: string, db: Database.Database) {
    this.file = file;
    this.db = db;
    this.statements = prepare(db);
  }

  static open(file: string): Store {
    let db: Database.Database;
    try {
      if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
      db = new Database(file);
      db.pragma("journal_mode = WAL");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `cannot open the state file ${file} (${reason}); choose another with --db FILE or TOOLSIM_DB`,
      );
    }
    // NORMAL in WAL mode: a committed transaction survives a killed process; only power loss may drop the last few.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    migrate(db);
    return new Store(file, db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ── sessions ──────────────────────────────────────────────────────────────

  createSession(input: NewSession): SessionRecord {
    const id = input.id ?? randomUUID();
    const now = new Date().toISOString();
    this.db.transaction(() => {
      this.statements.insertSession.run({
        id,
        name: input.name ?? null,
        seed: input.seed,
        task_id: input.taskId ?? null,
        scope: JSON.stringify(input.scope ?? {}),
        now,
        forked_from: input.forkedFrom ?? null,
      });
      this.statements.insertVersion.run({
        session_id: id,
        version: 0,
        parent: null,
        patch: "[]",
        call_seq: null,
        reason: input.reason ?? "start",
        now,
      });
      this.statements.insertSnapshot.run({
        session_id: id,
        version: 0,
        document: JSON.stringify(input.state),
      });
    })();
    return this.requireSession(id);
  }

  /** A session by id or by name. */
  session(idOrName: string): SessionRecord | undefined {
    const row = this.statements.sessionByIdOrName.get({ key: idOrName }) as Row | undefined;
    return row ? toSession(row) : undefined;
  }

  sessions(): SessionRecord[] {
    return (this.statements.allSessions.all() as Row[]).map(toSession);
  }

  deleteSession(id: string): void {
    this.statements.deleteSession.run({ id });
  }

  private requireSession(id: string): SessionRecord {
    const session = this.session(id);
    if (!session) throw new Error(`session ${id} does not exist`);
    return session;
  }

  /**
   * Replaces a session's whole state with a new document (task start, reset) as a new
   * version, and optionally records what the session is now scoped to.
   */
  resetState(
    sessionId: string,
    document: unknown,
    change: { reason: string; taskId?: string | null; scope?: unknown },
  ): StateVersion {
    const now = new Date().toISOString();
    return this.db.transaction(() => {
      const session = this.requireSession(sessionId);
      const version = this.nextVersion(sessionId);
      this.statements.insertVersion.run({
        session_id: sessionId,
        version,
        parent: session.headVersion,
        patch: JSON.stringify([{ op: "replace", path: "", value: document }]),
        call_seq: null,
        reason: change.reason,
        now,
      });
      this.statements.insertSnapshot.run({
        session_id: sessionId,
        version,
        document: JSON.stringify(document),
      });
      this.statements.updateSessionScope.run({
        id: sessionId,
        task_id: change.taskId === undefined ? session.taskId : change.taskId,
        scope: JSON.stringify(change.scope === undefined ? session.scope : change.scope),
        head: version,
        now,
      });
      return { version, document };
    })();
  }

  // ── state ────────────────────────────────────────────────────────────────

  /** The document at a version: the nearest snapshot on its ancestry plus the patches after it. */
  documentAt(sessionId: string, version: number): unknown {
    const chain: Patch[] = [];
    let cursor: number | null = version;
    while (cursor !== null) {
      const snapshot = this.statements.snapshot.get({ session_id: sessionId, version: cursor }) as
        | Row
        | undefined;
      if (snapshot) {
        let document: unknown = JSON.parse(String(snapshot.document));
        for (const patch of chain.reverse()) {
          const applied = applyPatch(document, patch);
          if (!applied.ok)
            throw new Error(`stored patch of session ${sessionId} does not apply: ${applied.error}`);
          document = applied.document;
        }
        return document;
      }
      const row = this.statements.version.get({ session_id: sessionId, version: cursor }) as Row | undefined;
      if (!row) throw new Error(`session ${sessionId} has no state version ${cursor}`);
      chain.push(JSON.parse(String(row.patch)) as Patch);
      cursor = row.parent === null ? null : Number(row.parent);
    }
    throw new Error(`session ${sessionId} has no snapshot on the ancestry of version ${version}`);
  }

  head(sessionId: string): StateVersion {
    const session = this.requireSession(sessionId);
    return { version: session.headVersion, document: this.documentAt(sessionId, session.headVersion) };
  }

  hasVersion(sessionId: string, version: number): boolean {
    return this.statements.version.get({ session_id: sessionId, version }) !== undefined;
  }

  // ── calls ────────────────────────────────────────────────────────────────

  /**
   * Records one call, and the state change it made, in one transaction. `change.document`
   * is the new head (already computed by the caller); it is snapshotted every few versions.
   * Returns "stale" without writing when the head is no longer `expectedHead` (another
   * process moved it), so the caller can recompute against the new head.
   */
  recordCall(
    call: NewCall,
    expectedHead: number,
    change?: { patch: Patch; document: unknown },
  ): CallRecord | "stale" {
    // built once: creating a transaction function per call costs more than the statements it runs
    this.recordTransaction ??= this.db.transaction(
      (c: NewCall, head: number, ch: { patch: Patch; document: unknown } | undefined, at: string) =>
        this.writeCall(c, head, ch, at),
    );
    return this.recordTransaction(call, expectedHead, change, new Date().toISOString());
  }

  private recordTransaction?: (
    call: NewCall,
    expectedHead: number,
    change: { patch: Patch; document: unknown } | undefined,
    now: string,
  ) => CallRecord | "stale";

  private writeCall(
    call: NewCall,
    expectedHead: number,
    change: { patch: Patch; document: unknown } | undefined,
    now: string,
  ): CallRecord | "stale" {
    const row = this.statements.sessionHead.get({ id: call.sessionId }) as
      | { head_version: number; next_seq: number }
      | undefined;
    if (!row) throw new Error(`session ${call.sessionId} does not exist`);
    const session = { headVersion: Number(row.head_version), nextSeq: Number(row.next_seq) };
    if (session.headVersion !== expectedHead) return "stale";
    const seq = session.nextSeq;
    let versionAfter = session.headVersion;
    if (change && change.patch.length > 0) {
      versionAfter = this.nextVersion(call.sessionId);
      this.statements.insertVersion.run({
        session_id: call.sessionId,
        version: versionAfter,
        parent: session.headVersion,
        patch: JSON.stringify(change.patch),
        call_seq: seq,
        reason: `call ${seq}: ${call.tool}`,
        now,
      });
      const depth = this.depthSinceSnapshot(call.sessionId, session.headVersion) + 1;
      if (depth >= SNAPSHOT_EVERY) {
        this.statements.insertSnapshot.run({
          session_id: call.sessionId,
          version: versionAfter,
          document: JSON.stringify(change.document),
        });
      }
      this.lastDepth.set(call.sessionId, {
        version: versionAfter,
        depth: depth >= SNAPSHOT_EVERY ? 0 : depth,
      });
    }
    const record: CallRecord = {
      ...call,
      seq,
      versionBefore: session.headVersion,
      versionAfter,
      createdAt: now,
    };
    this.statements.insertCall.run(toCallRow(record));
    this.statements.advanceSession.run({ id: call.sessionId, head: versionAfter, now });
    return record;
  }

  /** The seq of an earlier identical call whose resulting state is the current one, if any. */
  repeatOf(sessionId: string, tool: string, argsHash: string, version: number): number | undefined {
    const row = this.statements.repeat.get({ session_id: sessionId, tool, args_hash: argsHash, version }) as
      | Row
      | undefined;
    return row ? Number(row.seq) : undefined;
  }

  calls(sessionId: string, options: { afterSeq?: number; limit?: number } = {}): CallRecord[] {
    const rows = this.statements.calls.all({
      session_id: sessionId,
      after: options.afterSeq ?? 0,
      limit: options.limit ?? -1,
    }) as Row[];
    return rows.map(toCall);
  }

  /** The most recent calls, oldest first. */
  recentCalls(sessionId: string, limit: number): CallRecord[] {
    return (this.statements.recentCalls.all({ session_id: sessionId, limit }) as Row[]).map(toCall).reverse();
  }

  // ── checkpoints ──────────────────────────────────────────────────────────

  checkpoint(sessionId: string, name: string, version?: number): CheckpointRecord {
    const session = this.requireSession(sessionId);
    const at = version ?? session.headVersion;
    const now = new Date().toISOString();
    this.statements.upsertCheckpoint.run({ session_id: sessionId, name, version: at, now });
    return { sessionId, name, version: at, createdAt: now };
  }

  checkpoints(sessionId: string): CheckpointRecord[] {
    return (this.statements.checkpoints.all({ session_id: sessionId }) as Row[]).map((row) => ({
      sessionId,
      name: String(row.name),
      version: Number(row.version),
      createdAt: String(row.created_at),
    }));
  }

  // ── task answers ─────────────────────────────────────────────────────────

  /** Records what an agent answered when it asked for task feedback. */
  recordAnswer(sessionId: string, input: { answer?: string; infeasible: boolean }): TaskAnswerRecord {
    return this.db.transaction(() => {
      const session = this.requireSession(sessionId);
      const row = this.statements.maxAnswerSeq.get({ session_id: sessionId }) as Row;
      const record: TaskAnswerRecord = {
        sessionId,
        seq: Number(row.max) + 1,
        version: session.headVersion,
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
    })();
  }

  answers(sessionId: string): TaskAnswerRecord[] {
    return (this.statements.answers.all({ session_id: sessionId }) as Row[]).map((row) => ({
      sessionId,
      seq: Number(row.seq),
      version: Number(row.version),
      answer: row.answer === null ? undefined : String(row.answer),
      infeasible: Number(row.infeasible) === 1,
      createdAt: String(row.created_at),
    }));
  }

  /** Moves the head back (or forward) to an existing version; nothing is deleted. */
  moveHead(sessionId: string, version: number): StateVersion {
    return this.db.transaction(() => {
      if (!this.hasVersion(sessionId, version))
        throw new Error(`session ${sessionId} has no state version ${version}`);
      const document = this.documentAt(sessionId, version);
      if (!this.statements.snapshot.get({ session_id: sessionId, version })) {
        this.statements.insertSnapshot.run({
          session_id: sessionId,
          version,
          document: JSON.stringify(document),
        });
      }
      this.statements.moveHead.run({ id: sessionId, head: version, now: new Date().toISOString() });
      return { version, document };
    })();
  }

  /** A new session whose initial state is a copy of another's at a version. */
  fork(sessionId: string, version: number, input: { name?: string; seed?: string }): SessionRecord {
    const source = this.requireSession(sessionId);
    const document = this.documentAt(sessionId, version);
    return this.createSession({
      name: input.name,
      seed: input.seed ?? source.seed,
      taskId: source.taskId ?? undefined,
      scope: source.scope,
      state: document,
      forkedFrom: `${sessionId}@${version}`,
      reason: `fork of ${source.name ?? source.id} at version ${version}`,
    });
  }

  // ── internals ────────────────────────────────────────────────────────────

  private nextVersion(sessionId: string): number {
    const row = this.statements.maxVersion.get({ session_id: sessionId }) as Row;
    return Number(row.max) + 1;
  }

  /**
   * How many patches separate a version from the nearest snapshot on its ancestry. The
   * depth of the last version this process wrote is remembered, so a run of calls does not
   * walk the chain each time; any other version is walked (the answer only paces snapshots).
   */
  private depthSinceSnapshot(sessionId: string, version: number): number {
    const known = this.lastDepth.get(sessionId);
    if (known?.version === version) return known.depth;
    let depth = 0;
    let cursor: number | null = version;
    // hasSnapshot, not snapshot: fetching the document only to test that it exists costs its whole size on every write
    while (cursor !== null && !this.statements.hasSnapshot.get({ session_id: sessionId, version: cursor })) {
      const row = this.statements.version.get({ session_id: sessionId, version: cursor }) as Row | undefined;
      cursor = row && row.parent !== null ? Number(row.parent) : null;
      depth++;
    }
    return depth;
  }

  // ── LLM answer cache ─────────────────────────────────────────────────────

  /** A model answer stored under its key (model, messages, sampling, schema); counts the hit. */
  llmCacheGet(key: string): { response: string; usage?: Usage } | undefined {
    const row = this.statements.cacheGet.get({ key }) as Row | undefined;
    if (!row) return undefined;
    this.statements.cacheHit.run({ key });
    return {
      response: String(row.response),
      usage: row.usage === null ? undefined : (JSON.parse(String(row.usage)) as Usage),
    };
  }

  llmCachePut(entry: { key: string; model: string; response: string; usage?: Usage }): void {
    this.statements.cachePut.run({
      key: entry.key,
      model: entry.model,
      response: entry.response,
      usage: entry.usage ? JSON.stringify(entry.usage) : null,
      now: new Date().toISOString(),
    });
  }

  /** Raw access for the LLM cache room, which keeps its own table in this database. */
  get database(): Database.Database {
    return this.db;
  }
}

function prepare(db: Database.Database) {
  return {
    insertSession: db.prepare(
      `INSERT INTO sessions (id, name, seed, task_id, scope, head_version, next_seq, created_at, updated_at, forked_from)
       VALUES (@id, @name, @seed, @task_id, @scope, 0, 1, @now, @now, @forked_from)`,
    ),
    sessionByIdOrName: db.prepare("SELECT * FROM sessions WHERE id = @key OR name = @key LIMIT 1"),
    sessionHead: db.prepare("SELECT head_version, next_seq FROM sessions WHERE id = @id"),
    allSessions: db.prepare("SELECT * FROM sessions ORDER BY created_at, id"),
    deleteSession: db.prepare("DELETE FROM sessions WHERE id = @id"),
    updateSessionScope: db.prepare(
      "UPDATE sessions SET task_id = @task_id, scope = @scope, head_version = @head, updated_at = @now WHERE id = @id",
    ),
    advanceSession: db.prepare(
      "UPDATE sessions SET head_version = @head, next_seq = next_seq + 1, updated_at = @now WHERE id = @id",
    ),
    moveHead: db.prepare("UPDATE sessions SET head_version = @head, updated_at = @now WHERE id = @id"),
    insertVersion: db.prepare(
      `INSERT INTO state_versions (session_id, version, parent, patch, call_seq, reason, created_at)
       VALUES (@session_id, @version, @parent, @patch, @call_seq, @reason, @now)`,
    ),
    version: db.prepare("SELECT * FROM state_versions WHERE session_id = @session_id AND version = @version"),
    maxVersion: db.prepare(
      "SELECT COALESCE(MAX(version), -1) AS max FROM state_versions WHERE session_id = @session_id",
    ),
    insertSnapshot: db.prepare(
      "INSERT OR REPLACE INTO state_snapshots (session_id, version, document) VALUES (@session_id, @version, @document)",
    ),
    snapshot: db.prepare(
      "SELECT document FROM state_snapshots WHERE session_id = @session_id AND version = @version",
    ),
    hasSnapshot: db.prepare(
      "SELECT 1 FROM state_snapshots WHERE session_id = @session_id AND version = @version",
    ),
    insertCall: db.prepare(
      `INSERT INTO calls (session_id, seq, tool, arguments, args_hash, status, findings, result, error,
         version_before, version_after, engine, fallback, usage, latency_ms, created_at)
       VALUES (@session_id, @seq, @tool, @arguments, @args_hash, @status, @findings, @result, @error,
         @version_before, @version_after, @engine, @fallback, @usage, @latency_ms, @created_at)`,
    ),
    // Without INDEXED BY, SQLite walks the primary key backwards to satisfy ORDER BY and reads the
    // session's whole call log whenever nothing matches (every new call): linear in the log's length.
    repeat: db.prepare(
      `SELECT seq FROM calls INDEXED BY calls_repeat
         WHERE session_id = @session_id AND tool = @tool AND args_hash = @args_hash
         AND version_after = @version ORDER BY seq DESC LIMIT 1`,
    ),
    calls: db.prepare(
      "SELECT * FROM calls WHERE session_id = @session_id AND seq > @after ORDER BY seq LIMIT @limit",
    ),
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
    cacheGet: db.prepare("SELECT response, usage FROM llm_cache WHERE key = @key"),
    cacheHit: db.prepare("UPDATE llm_cache SET hits = hits + 1 WHERE key = @key"),
    cachePut: db.prepare(
      `INSERT INTO llm_cache (key, model, response, usage, created_at) VALUES (@key, @model, @response, @usage, @now)
       ON CONFLICT (key) DO NOTHING`,
    ),
  };
}

function toSession(row: Row): SessionRecord {
  return {
    id: String(row.id),
    name: row.name === null ? null : String(row.name),
    seed: String(row.seed),
    taskId: row.task_id === null ? null : String(row.task_id),
    scope: JSON.parse(String(row.scope)) as SessionRecord["scope"],
    headVersion: Number(row.head_version),
    nextSeq: Number(row.next_seq),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    forkedFrom: row.forked_from === null ? null : String(row.forked_from),
  };
}

function toCallRow(call: CallRecord): Row {
  return {
    session_id: call.sessionId,
    seq: call.seq,
    tool: call.tool,
    arguments: JSON.stringify(call.arguments),
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
  };
}

function toCall(row: Row): CallRecord {
  const parse = (value: unknown) => (value === null ? undefined : JSON.parse(String(value)));
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
    fallback: row.fallback === null ? undefined : String(row.fallback),
    usage: parse(row.usage) as Usage | undefined,
    latencyMs: Number(row.latency_ms),
    createdAt: String(row.created_at),
  };
}
