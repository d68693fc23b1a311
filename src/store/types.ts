import type { Patch } from "../patch/index.js";
import type { State } from "../state/index.js";

export type CallStatus = "ok" | "error" | "rejected" | "cancelled";

/** What a session is limited to: a task's toolset and its distractors, or everything (empty). */
export interface SessionScope {
  toolsets?: string[];
  tools?: string[];
}

export interface SessionRecord {
  id: string;
  /** Who owns the session: "" for local use without tokens, otherwise the tenant of a token. */
  tenant: string;
  name: string | null;
  seed: string;
  taskId: string | null;
  scope: SessionScope;
  headVersion: number;
  nextSeq: number;
  createdAt: string;
  updatedAt: string;
  forkedFrom: string | null;
}

export interface NewSession {
  id?: string;
  tenant?: string;
  name?: string;
  seed: string;
  taskId?: string;
  scope?: SessionScope;
  /** The initial state; a plain document is stored once per content and shared by every session that starts from it. */
  state: State | Record<string, unknown>;
  forkedFrom?: string;
  reason?: string;
}

/** A session's state at one of its versions. */
export interface StateHead {
  version: number;
  state: State;
}

/** A call's change of state: the patch against the head it ran on, and the state it leads to. */
export interface StateChange {
  patch: Patch;
  state: State;
}

/** Model usage of one call (zero for the offline engine). */
export interface Usage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  cached?: number;
}

export interface StoredFinding {
  code: string;
  argument?: string;
  message: string;
}

/**
 * A fault injected into a call on purpose (see docs/faults.md), as the call log keeps it:
 * its kind, the rule that decided it and the rule's seed, and what it did.
 */
export interface StoredFault {
  kind: string;
  rule: string;
  seed: string;
  [detail: string]: unknown;
}

export interface NewCall {
  sessionId: string;
  tool: string;
  arguments: unknown;
  argsHash: string;
  status: CallStatus;
  findings: StoredFinding[];
  result?: unknown;
  error?: unknown;
  engine: string;
  fallback?: string;
  usage?: Usage;
  latencyMs: number;
  /** The fault injected into this call, if any. */
  fault?: StoredFault;
}

export interface CallRecord extends NewCall {
  seq: number;
  versionBefore: number;
  versionAfter: number;
  createdAt: string;
}

/** How recording a call ended: written, or refused because another writer moved the head first. */
export type Commit = { kind: "recorded"; call: CallRecord } | { kind: "stale"; headVersion: number };

export interface CheckpointRecord {
  sessionId: string;
  name: string;
  version: number;
  createdAt: string;
}

/** An agent's final answer to a task, recorded when it asked for feedback. */
export interface TaskAnswerRecord {
  sessionId: string;
  seq: number;
  /** The head version when the answer was given. */
  version: number;
  answer?: string;
  infeasible: boolean;
  createdAt: string;
}

export interface CachedAnswer {
  response: string;
  usage?: Usage;
}

/** How a run stands: still going, done, stopped by the user, or stopped by an error it could not survive. */
export type RunStatus = "running" | "finished" | "interrupted" | "failed";

/** A run of an agent over a task set (see src/run/): its settings and planned attempts are in `plan`. */
export interface RunRecord {
  /** "run-" and the number. */
  id: string;
  /** Runs are numbered in the order they were made, from 1. */
  number: number;
  seed: string;
  status: RunStatus;
  /** The runner's settings and planned attempts, as it wrote them. */
  plan: unknown;
  /** Why the run stopped, when it did not finish. */
  note: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How an attempt ended; `error` is trouble around the agent (a model error, a crash, a timeout), not a verdict. */
export type AttemptOutcome = "passed" | "failed" | "error" | "unjudged";

/** One attempt of a run that ended, keyed by its task and its number among the task's attempts. */
export interface RunAttemptRecord {
  runId: string;
  taskId: string;
  attempt: number;
  sessionId: string;
  sessionName: string;
  outcome: AttemptOutcome;
  /** Everything else the runner keeps of the attempt. */
  result: unknown;
  createdAt: string;
}

/** What a store holds, for capacity figures and tests of how states are kept. */
export interface StoreStats {
  sessions: number;
  versions: number;
  snapshots: number;
  /** Whole stored states (initial states and snapshots, each stored once by content). */
  documents: number;
  documentBytes: number;
  calls: number;
}

/** A page of a session's call log: calls after `afterSeq`, at most `limit`. */
export interface CallPage {
  afterSeq?: number;
  limit?: number;
}

/**
 * Where sessions, state versions, calls, checkpoints, task answers and the model cache
 * live. Every method is one round trip or one transaction; `recordCall` is atomic and
 * refuses (`stale`) when another writer moved the session's head, so any number of
 * processes may share one store without losing or mixing calls.
 */
export interface Store {
  /** The file or the server (without credentials), for messages. */
  readonly location: string;
  readonly backend: "sqlite" | "postgres";
  close(): Promise<void>;

  createSession(input: NewSession): Promise<SessionRecord>;
  /** A session by id or name, within a tenant (a session of another tenant does not exist for it). */
  session(key: string, tenant: string): Promise<SessionRecord | undefined>;
  /** Sessions whose id or name is `key`, in any tenant (for the command line, which sees every tenant). */
  findSessions(key: string): Promise<SessionRecord[]>;
  /** Every session, or a tenant's. */
  sessions(tenant?: string): Promise<SessionRecord[]>;
  deleteSession(id: string): Promise<void>;

  hasVersion(sessionId: string, version: number): Promise<boolean>;
  /** The session's current version number (one cheap read: is a cached head still the head?). */
  headVersion(sessionId: string): Promise<number>;
  head(sessionId: string): Promise<StateHead>;
  stateAt(sessionId: string, version: number): Promise<State>;
  /** The head, reached from a known earlier head by the patches in between when possible. */
  advance(sessionId: string, known: StateHead): Promise<StateHead>;
  /** Replaces the state with a new document (task start, reset) as a new version. */
  resetState(
    sessionId: string,
    state: State | Record<string, unknown>,
    change: { reason: string; taskId?: string | null; scope?: SessionScope },
  ): Promise<StateHead>;
  /** Moves the head to an existing version (restore); nothing is deleted. */
  moveHead(sessionId: string, version: number): Promise<StateHead>;
  /** A new session whose initial state is another's at a version. */
  fork(sessionId: string, version: number, input: { name?: string; seed?: string }): Promise<SessionRecord>;

  recordCall(call: NewCall, expectedHead: number, change?: StateChange): Promise<Commit>;
  /** The seq of an earlier identical call made on this version of the state, if any. */
  repeatOf(sessionId: string, tool: string, argsHash: string, version: number): Promise<number | undefined>;
  calls(sessionId: string, page?: CallPage): Promise<CallRecord[]>;
  callCount(sessionId: string): Promise<number>;
  /** The most recent calls, oldest first. */
  recentCalls(sessionId: string, limit: number): Promise<CallRecord[]>;

  checkpoint(sessionId: string, name: string, version?: number): Promise<CheckpointRecord>;
  checkpoints(sessionId: string): Promise<CheckpointRecord[]>;

  recordAnswer(sessionId: string, input: { answer?: string; infeasible: boolean }): Promise<TaskAnswerRecord>;
  answers(sessionId: string): Promise<TaskAnswerRecord[]>;

  /** A new run, numbered after the last one (its id is "run-" and the number). */
  createRun(input: { seed: string; plan: unknown }): Promise<RunRecord>;
  run(id: string): Promise<RunRecord | undefined>;
  /** Every run, oldest first. */
  runs(): Promise<RunRecord[]>;
  setRunStatus(id: string, status: RunStatus, note?: string): Promise<void>;
  /** Records an attempt that ended; a row for the same task and attempt is replaced (a resumed error). */
  recordAttempt(attempt: Omit<RunAttemptRecord, "createdAt">): Promise<RunAttemptRecord>;
  /** The run's attempts that ended, by task and attempt number. */
  runAttempts(runId: string): Promise<RunAttemptRecord[]>;

  llmCacheGet(key: string): Promise<CachedAnswer | undefined>;
  llmCachePut(entry: { key: string; model: string; response: string; usage?: Usage }): Promise<void>;

  stats(): Promise<StoreStats>;
}

export type { Patch };
