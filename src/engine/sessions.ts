import type { State, StateDocument } from "../state/index.js";
import type { RepeatedCall, SessionRecord, SessionScope, StateHead, Store } from "../store/index.js";

/** A session as this process holds it: its record and its head state. */
export interface LiveSession {
  record: SessionRecord;
  head: StateHead;
  /**
   * Calls recorded on the head version, by tool and arguments, when this process knows all
   * of them (it made the head itself); otherwise the store is asked. Saves a lookup per call.
   */
  callsOnHead?: Map<string, RepeatedCall>;
  /** The last call of the session this process knows of: a gap means another process made calls. */
  lastSeq: number;
  /**
   * Another process has written to this session: its head is checked before each call is
   * answered, instead of answering on a head that may be old and answering again.
   */
  shared: boolean;
}

export interface NewSessionInput {
  name?: string;
  tenant: string;
  seed: string;
  taskId?: string;
  scope: SessionScope;
  state: State | Record<string, unknown>;
  reason: string;
}

/**
 * Session lifecycle: creating or resuming, the in-memory head of each session this process
 * serves, one queue per session, and catching up when another process moved a head (any
 * number of processes may serve the same sessions from one store).
 */
export class Sessions {
  private readonly live = new Map<string, LiveSession>();
  /** Calls of one session run one at a time, in arrival order: the tail of each session's queue. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly store: Store) {}

  /** Resumes the tenant's session with this name, or creates it. */
  async open(input: NewSessionInput): Promise<SessionRecord> {
    if (input.name) {
      const existing = await this.store.session(input.name, input.tenant);
      if (existing) return (await this.attach(existing)).record;
    }
    let record: SessionRecord;
    try {
      record = await this.store.createSession({
        name: input.name,
        tenant: input.tenant,
        seed: input.seed,
        taskId: input.taskId,
        scope: input.scope,
        state: input.state,
        reason: input.reason,
      });
    } catch (error) {
      // another process created the named session since the lookup: resume that one
      const raced = input.name ? await this.store.session(input.name, input.tenant) : undefined;
      if (!raced) throw error;
      return (await this.attach(raced)).record;
    }
    const session = await this.attach(record);
    session.callsOnHead = new Map();
    return session.record;
  }

  /** A session of a tenant by id or name. */
  find(key: string, tenant: string): Promise<SessionRecord | undefined> {
    return this.store.session(key, tenant);
  }

  /** The session as held in memory (loaded on first use). */
  async get(sessionId: string): Promise<LiveSession> {
    const existing = this.live.get(sessionId);
    if (existing) return existing;
    const [record] = (await this.store.findSessions(sessionId)).filter((s) => s.id === sessionId);
    if (!record) throw new Error(`unknown session "${sessionId}"`);
    return this.attach(record);
  }

  /** The session with its head brought up to date with the store (another process may have moved it). */
  async fresh(sessionId: string): Promise<LiveSession> {
    const session = await this.get(sessionId);
    const head = await this.store.advance(sessionId, session.head);
    if (head !== session.head) await this.caughtUp(session, head);
    return session;
  }

  /** Forgets the in-memory head of a session (it stays in the store and can be resumed). */
  release(sessionId: string): void {
    this.live.delete(sessionId);
  }

  /** Runs `work` after every earlier piece of work on the session. */
  exclusive<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(sessionId) ?? Promise.resolve()).then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(sessionId, settled);
    void settled.then(() => {
      if (this.queues.get(sessionId) === settled) this.queues.delete(sessionId);
    });
    return run;
  }

  /** Replaces the state (task start, reset) as a new version. */
  reset(
    sessionId: string,
    state: State | StateDocument,
    change: { reason: string; taskId?: string | null; scope?: SessionScope },
  ): Promise<StateHead> {
    return this.exclusive(sessionId, async () => {
      const session = await this.fresh(sessionId);
      session.head = await this.store.resetState(sessionId, state, change);
      session.record = await this.reread(session.record);
      session.callsOnHead = new Map();
      return session.head;
    });
  }

  /** Moves the head to an existing version (a checkpoint). */
  moveHead(sessionId: string, version: number): Promise<StateHead> {
    return this.exclusive(sessionId, async () => {
      const session = await this.get(sessionId);
      session.head = await this.store.moveHead(sessionId, version);
      session.record = await this.reread(session.record);
      session.callsOnHead = undefined;
      return session.head;
    });
  }

  /** Takes a head another process wrote: the record may have changed with it (a task started). */
  async caughtUp(session: LiveSession, head: StateHead): Promise<void> {
    session.head = head;
    session.record = await this.reread(session.record);
    session.callsOnHead = undefined;
    session.shared = true;
  }

  private async attach(record: SessionRecord): Promise<LiveSession> {
    const existing = this.live.get(record.id);
    if (existing) return existing;
    const head = await this.store.head(record.id);
    const raced = this.live.get(record.id);
    if (raced) return raced;
    const session: LiveSession = { record, head, lastSeq: record.nextSeq - 1, shared: false };
    this.live.set(record.id, session);
    return session;
  }

  private async reread(record: SessionRecord): Promise<SessionRecord> {
    return (await this.store.session(record.id, record.tenant)) ?? record;
  }
}
