import type { Task } from "../catalog/index.js";
import { type ChatMessage, type LlmClient, LlmError, zeroUsage } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import { type AttemptProblem, addInto, modelProblem } from "./agent.js";
import { samplingSeed } from "./plan.js";

/** What the user says next: a message, the end of the conversation, or why it cannot go on. */
export type UserMove =
  | { kind: "say"; message: string }
  | { kind: "end" }
  | { kind: "problem"; problem: AttemptProblem };

/** The user of one attempt: says the first message, then answers each of the agent's answers. */
export interface User {
  /** The user's next message after the agent's answer (none before the first message). */
  next(agentAnswer: string | undefined, signal: AbortSignal): Promise<UserMove>;
  /** True when a model plays the user (the agent may then ask it things). */
  readonly interactive: boolean;
  readonly usage: Usage;
}

/**
 * Without a simulated user: the task's prompt is the one user turn, and a task with `turns`
 * says them in order, each after the agent answered the one before.
 */
export class ScriptedUser implements User {
  readonly interactive = false;
  readonly usage = zeroUsage();
  private said = 0;
  private readonly turns: readonly string[];

  constructor(task: Task) {
    this.turns = task.turns ?? [task.description];
  }

  async next(): Promise<UserMove> {
    const message = this.turns[this.said];
    if (message === undefined) return { kind: "end" };
    this.said++;
    return { kind: "say", message };
  }
}

/** What the simulated user writes, alone, to end the conversation. */
export const STOP_SIGNAL = "###STOP###";

/** The agent's opening line: the simulated user's first message answers it. */
export const AGENT_GREETING = "Hi! How can I help you today?";

export interface SimulatedUserOptions {
  llm: LlmClient;
  model: string;
  where: string;
  /** The most messages the user sends before the conversation is ended for it. */
  maxTurns: number;
  seed: string;
  attempt: number;
  temperature?: number;
}

/**
 * A model plays the user, turn by turn, from the task's `user` brief (or its request when it
 * has none): it writes one message at a time, gives what it knows only as the agent needs
 * it, and ends the conversation with STOP_SIGNAL when it is done.
 */
export class SimulatedUser implements User {
  readonly interactive = true;
  readonly usage = zeroUsage();
  private readonly messages: ChatMessage[];
  private sent = 0;

  constructor(
    private readonly task: Task,
    private readonly options: SimulatedUserOptions,
  ) {
    this.messages = [
      { role: "system", content: userInstructions(task) },
      { role: "user", content: AGENT_GREETING },
    ];
  }

  async next(agentAnswer: string | undefined, signal: AbortSignal): Promise<UserMove> {
    if (this.sent >= this.options.maxTurns) return { kind: "end" };
    if (agentAnswer !== undefined)
      this.messages.push({ role: "user", content: agentAnswer || "(no answer)" });
    let text: string;
    try {
      const reply = await this.options.llm.chat({
        model: this.options.model,
        messages: this.messages,
        temperature: this.options.temperature,
        seed: samplingSeed(this.options.seed, "user", this.task.id, this.options.attempt, this.sent),
        signal,
      });
      addInto(this.usage, reply.usage);
      text = (reply.content ?? "").trim();
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      addInto(this.usage, error.usage);
      return {
        kind: "problem",
        problem: modelProblem(error, "the simulated user's model", this.options.where),
      };
    }
    this.messages.push({ role: "assistant", content: text });
    const message = text.replace(STOP_SIGNAL, "").trim();
    if (text.includes(STOP_SIGNAL) || message === "") return { kind: "end" };
    this.sent++;
    return { kind: "say", message };
  }
}

/** The simulated user's instructions: its brief as data, and how to play it. */
export function userInstructions(task: Task): string {
  const brief = task.user ?? `You want this done: ${task.description}`;
  const turns =
    task.turns && task.turns.length > 1
      ? `\n\nWhat you ask for, in this order (one request at a time, each after the assistant dealt with the one before):\n${task.turns.map((t, i) => `${i + 1}. ${t}`).join("\n")}`
      : "";
  return [
    "You play a person who writes to a support assistant in a chat. Your brief is between the markers below;",
    "it is the only thing you know about your situation.",
    "",
    "--- brief ---",
    `${brief}${turns}`,
    "--- end of brief ---",
    "",
    "How to play:",
    "- Write only your next chat message: short, natural, in your own words, never a copy of the brief.",
    "- Give details (names, ids, dates, amounts) only when the assistant needs them; never invent one the brief does not give: say you do not know.",
    "- Do not do the assistant's work for it, and do not tell it which tools or steps to use.",
    "- Stay with your brief and its tone; do not agree to something it says you do not want.",
    `- When what you wanted is done, or the assistant cannot do it and you have nothing more to ask, reply with ${STOP_SIGNAL} alone.`,
  ].join("\n");
}
