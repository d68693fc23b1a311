import type { SchemaProfile } from "../catalog/index.js";
import { type ChatFunction, type ChatMessage, type LlmClient, LlmError, zeroUsage } from "../llm/index.js";
import type { ToolsimHub } from "../server/index.js";
import type { Usage } from "../store/index.js";
import {
  type Agent,
  type AgentConversation,
  type AgentTurn,
  type AttemptContext,
  addInto,
  declaresInfeasible,
  modelProblem,
  type Replied,
} from "./agent.js";
import { samplingSeed } from "./plan.js";

export interface ModelAgentOptions {
  llm: LlmClient;
  model: string;
  /** Where the model is, for messages ("api.openai.com", a base URL). */
  where: string;
  hub: ToolsimHub;
  /** Model requests per message before the agent is stopped (the step cap). */
  maxSteps: number;
  /** Absent: the endpoint's default. */
  temperature?: number;
  /** Replaces the built-in instructions. */
  systemPrompt?: string;
}

/**
 * The built-in agent: a chat model with tool calling. The session's tools are its
 * functions, as the hub lists them in the run's schema profile; each call goes to the hub,
 * and what the tool answered goes back as a tool message, until the model answers without
 * calling a tool or the step cap is hit. Its last message is the answer the judge reads.
 */
export class ModelAgent implements Agent {
  readonly description: string;

  constructor(private readonly options: ModelAgentOptions) {
    this.description = `model ${options.model} at ${options.where} (built-in agent)`;
  }

  async start(context: AttemptContext): Promise<AgentConversation> {
    return new ModelConversation(this.options, context);
  }
}

class ModelConversation implements AgentConversation {
  steps = 0;
  readonly usage: Usage = zeroUsage();
  private readonly messages: ChatMessage[];

  constructor(
    private readonly options: ModelAgentOptions,
    private readonly context: AttemptContext,
  ) {
    const system = options.systemPrompt ?? agentInstructions(context.interactiveUser);
    this.messages = [{ role: "system", content: system }];
  }

  async respond(turn: AgentTurn): Promise<Replied> {
    const { options, context } = this;
    // listed for each message: a control tool (sim_start_task) may have changed them
    const functions = toFunctions(await options.hub.listTools(context.sessionId), options.hub.schemaProfile);
    this.messages.push({ role: "user", content: turn.message });
    let last = "";
    for (let step = 0; step < options.maxSteps; step++) {
      if (turn.signal.aborted) return { ok: false, problem: { kind: "interrupted", message: "stopped" } };
      let reply: Awaited<ReturnType<LlmClient["chat"]>>;
      try {
        reply = await options.llm.chat({
          model: options.model,
          messages: this.messages,
          tools: functions.list,
          temperature: options.temperature,
          seed: samplingSeed(context.seed, context.taskId, context.attempt, turn.tryNumber, turn.turn, step),
          signal: turn.signal,
        });
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        addInto(this.usage, error.usage);
        return { ok: false, problem: modelProblem(error, "the agent's model", options.where) };
      }
      this.steps++;
      addInto(this.usage, reply.usage);
      this.messages.push({
        role: "assistant",
        content: reply.content,
        ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls } : {}),
      });
      last = reply.content ?? last;
      if (reply.toolCalls.length === 0) {
        return { ok: true, reply: answered(reply.content ?? "", "answer") };
      }
      for (const call of reply.toolCalls) {
        const name = functions.toolOf.get(call.name) ?? call.name;
        const result = await options.hub.callTool(context.sessionId, name, argumentsOf(call.arguments), {
          signal: turn.signal,
        });
        this.messages.push({ role: "tool", tool_call_id: call.id, content: textOf(result.content) });
      }
    }
    return { ok: true, reply: answered(last, "step-cap") };
  }

  async close(): Promise<void> {}
}

function answered(answer: string, stoppedBy: "answer" | "step-cap") {
  return { answer, infeasible: declaresInfeasible(answer), stoppedBy };
}

/**
 * The agent's instructions. Without a simulated user nobody answers a question, so the
 * agent is told to act on the request as given; with one, it may ask.
 */
export function agentInstructions(interactiveUser: boolean): string {
  return [
    "You are an assistant that carries out the user's request with the tools provided.",
    "Call tools to look things up and to make changes; read each result before the next step, and fix a rejected call from its error message.",
    interactiveUser
      ? "Ask the user for what you need to know, and for confirmation before a change they did not clearly ask for."
      : "The user is not available to answer questions: act on the request as it is given.",
    "When you are done, answer the user in plain text, saying what you did.",
    "When the request cannot be done as asked, do not force it: begin your answer with INFEASIBLE and explain why.",
  ].join(" ");
}

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

interface Functions {
  list: ChatFunction[];
  /** Function name → the tool's name, where the name had to change (chat APIs allow [A-Za-z0-9_-]{1,64}). */
  toolOf: Map<string, string>;
}

/** The session's tools as chat functions; strict mode when the profile was made for it. */
export function toFunctions(tools: readonly ListedTool[], profile: SchemaProfile): Functions {
  const toolOf = new Map<string, string>();
  const taken = new Set<string>();
  const list = tools.map((tool) => {
    const name = functionName(tool.name, taken);
    taken.add(name);
    if (name !== tool.name) toolOf.set(name, tool.name);
    return {
      name,
      description: tool.description ?? "",
      parameters: tool.inputSchema,
      ...(profile === "openai-strict" ? { strict: true } : {}),
    };
  });
  return { list, toolOf };
}

function functionName(tool: string, taken: ReadonlySet<string>): string {
  const base = tool.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "tool";
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 60)}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The arguments as the model wrote them: an object when they parse, else the text (the engine answers IFE). */
function argumentsOf(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What a tool result says, as an MCP client reads it: its text blocks. */
export function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: unknown; text?: unknown }) =>
      block.type === "text" && typeof block.text === "string" ? block.text : JSON.stringify(block),
    )
    .join("\n");
}
