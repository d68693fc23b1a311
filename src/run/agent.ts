import type { Task } from "../catalog/index.js";
import { type LlmError, zeroUsage } from "../llm/index.js";
import type { Usage } from "../store/index.js";

/** What was said in an attempt, in order: the user's messages, the agent's answers, the judge's feedback. */
export interface ConversationEntry {
  role: "user" | "agent" | "feedback";
  text: string;
  /** The session's calls made before this entry was said (so calls and words interleave in order). */
  afterCalls: number;
}

/** The attempt an agent works on. */
export interface AttemptContext {
  runId: string;
  taskId: string;
  task: Task;
  attempt: number;
  sessionId: string;
  sessionName: string;
  /** The run's seed. */
  seed: string;
  /** The simulated user takes part: the agent may ask it questions. */
  interactiveUser: boolean;
}

/** One message for the agent to answer: a user's turn, or the judge's feedback after a failed try. */
export interface AgentTurn {
  message: string;
  kind: "user" | "feedback";
  /** The user's turn this answers (from 0). */
  turn: number;
  /** 1 for the first try; each feedback retry adds one. */
  tryNumber: number;
  /** Everything said before this message. */
  history: readonly ConversationEntry[];
  signal: AbortSignal;
}

export interface AgentReply {
  answer: string;
  /** The agent said the request cannot be done as asked. */
  infeasible: boolean;
  /** How the agent stopped: it answered, hit the step cap, or (a command) exited. */
  stoppedBy: "answer" | "step-cap" | "exit";
}

/** Why an attempt could not go on; `fatal` ones stop the whole run (a key the endpoint refuses). */
export interface AttemptProblem {
  kind: "model" | "timeout" | "agent-exit" | "agent-start" | "judge" | "interrupted";
  message: string;
  fatal?: boolean;
}

export type Replied = { ok: true; reply: AgentReply } | { ok: false; problem: AttemptProblem };

/** An agent working one attempt: it answers message after message in the attempt's session. */
export interface AgentConversation {
  respond(turn: AgentTurn): Promise<Replied>;
  /** Model requests the agent made so far (the built-in agent; 0 for a command). */
  readonly steps: number;
  /** What the agent's own model requests cost so far (the built-in agent). */
  readonly usage: Usage;
  close(): Promise<void>;
}

/** Something that can work attempts: the built-in model agent, or a command the user gives. */
export interface Agent {
  /** One line for the run's header, e.g. "model gpt-4.1-mini at api.openai.com". */
  readonly description: string;
  start(context: AttemptContext): Promise<AgentConversation>;
}

/**
 * An answer declares the request infeasible when it begins with INFEASIBLE (any case, then
 * anything: "INFEASIBLE: the order was already refunded"). The built-in agent is told so;
 * a command may also write {"answer": …, "infeasible": true} to its answer file.
 */
export function declaresInfeasible(answer: string): boolean {
  return /^\s*infeasible\b/i.test(answer);
}

/** A model failure as an attempt problem: a refused key or an unknown model stops the run. */
export function modelProblem(error: LlmError, what: string, where: string): AttemptProblem {
  const { failure } = error;
  if (failure.kind === "aborted")
    return { kind: "interrupted", message: `${what}: the request was cancelled` };
  if (failure.kind === "timeout") {
    return { kind: "timeout", message: `${what}: the endpoint timed out (${where})` };
  }
  if (failure.kind === "http" && (failure.status === 401 || failure.status === 403)) {
    return {
      kind: "model",
      fatal: true,
      message: `${what}: the endpoint ${where} refused the API key (${failure.status}); check OPENAI_API_KEY (or --llm-key). ${failure.message}`,
    };
  }
  if (failure.kind === "http" && failure.status === 404) {
    return {
      kind: "model",
      fatal: true,
      message: `${what}: the endpoint ${where} answered 404; check --llm-base-url (it usually ends in /v1) and the model name. ${failure.message}`,
    };
  }
  return { kind: "model", message: `${what}: ${failure.message}` };
}

/** Usage added up, for agents that count as they go. */
export function addInto(total: Usage, more: Usage): void {
  total.requests += more.requests;
  total.promptTokens += more.promptTokens;
  total.completionTokens += more.completionTokens;
  total.latencyMs += more.latencyMs;
  if (more.cached) total.cached = (total.cached ?? 0) + more.cached;
}

export { zeroUsage };
