import type { Patch } from "../patch/index.js";

export type CallStatus = "ok" | "error" | "rejected";

/** What a session is limited to: a task's toolset and its distractors, or everything (empty). */
export interface SessionScope {
  toolsets?: string[];
  tools?: string[];
}

export interface SessionRecord {
  id: string;
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
  name?: string;
  seed: string;
  taskId?: string;
  scope?: SessionScope;
  state: unknown;
  forkedFrom?: string;
  reason?: string;
}

export interface StateVersion {
  version: number;
  document: unknown;
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
}

export interface CallRecord extends NewCall {
  seq: number;
  versionBefore: number;
  versionAfter: number;
  createdAt: string;
}

export interface CheckpointRecord {
  sessionId: string;
  name: string;
  version: number;
  createdAt: string;
}

export type { Patch };

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
