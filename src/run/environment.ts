import type { Catalog, SchemaProfile } from "../catalog/index.js";
import { FaultPlan, type ResolvedProfile } from "../faults/index.js";
import { LlmClient, type LlmConfig, type RetryNotice } from "../llm/index.js";
import { createRuntime, type Runtime } from "../runtime/index.js";
import { controlTools, DEFAULT_CONTROL_PREFIX, type HttpHandle, serveOverHttp } from "../server/index.js";
import type { SessionRecord, Store } from "../store/index.js";
import { type JudgeMode, LlmChecklistJudge, TaskDesk } from "../tasks/index.js";
import type { Agent } from "./agent.js";
import type { AttemptEnvironment } from "./attempt.js";
import { CommandAgent } from "./command-agent.js";
import { assignAttemptFaults, type RunFaults } from "./faults.js";
import { ModelAgent } from "./model-agent.js";
import type { PlannedAttempt } from "./plan.js";
import type { Price } from "./results.js";
import { ScriptedUser, SimulatedUser, type User } from "./user.js";

/** Which agent a run puts through its tasks. */
export type AgentSettings =
  | {
      kind: "model";
      model: string;
      /** Model requests per message before the agent is stopped. */
      maxSteps: number;
      temperature?: number;
      systemPrompt?: string;
    }
  | { kind: "command"; command: string };

/**
 * How a run works, as stored with it so `--resume` works the same way. Secrets stay out:
 * the API key comes from the environment (or --llm-key) each time.
 */
export interface RunSettings {
  agent: AgentSettings;
  /** The OpenAI-compatible endpoint of every model the run uses (absent: api.openai.com). */
  baseURL?: string;
  /** A model plays the user (τ-bench style); absent: the task's prompt (or turns) is what the user says. */
  userModel?: string;
  /** The most messages a simulated user sends. */
  maxTurns: number;
  feedbackRetries: number;
  distractors: number;
  schemaProfile: SchemaProfile;
  /** The agent also gets the sim_ control tools. */
  controlTools: boolean;
  judge: JudgeMode;
  /** The checklist judge's model (also the golden judge's reader of free text); absent: golden judging alone. */
  judgeModel?: string;
  /** How tool calls are answered: the offline engine, or a model. */
  engine: "offline" | "llm";
  simModel?: string;
  attemptTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  /** Further tries of a model request after a 429, a 5xx, a dropped connection or a timeout. */
  retries: number;
  /** USD per million tokens, by model. */
  prices: Record<string, Price>;
  /** The catalog the run loaded: toolset paths (absolute) and the toolsets chosen of them. */
  toolsets: string[];
  toolset?: string[];
  seed: string;
  /** `--faults`: the profile every attempt meets (absent: each task's own, if it has one). */
  faults?: RunFaults;
}

export interface EnvironmentInput {
  runId: string;
  settings: RunSettings;
  catalog: Catalog;
  store: Store;
  /** The endpoint and key, resolved as the LLM engine resolves them (flags, environment, config file). */
  endpoint: Pick<LlmConfig, "baseURL" | "apiKey" | "concurrency">;
  /** Attempts that run at once: the model clients allow as many requests in flight. */
  concurrency: number;
  /** The environment an agent command starts from. */
  processEnv: NodeJS.ProcessEnv;
  /** Told when a model request is retried (a 429, a 5xx), for the progress line. */
  onRetry?: (notice: RetryNotice) => void;
  log?: (line: string) => void;
  /**
   * The profile `settings.faults` names, checked against the catalog (null: no faults, not
   * even a task's own); absent: each attempt meets its task's own profile, if any.
   */
  faults?: ResolvedProfile | null;
  /** See AttemptEnvironment.prepareSession: per-attempt set-up beyond the task and its faults. */
  prepareSession?: (session: SessionRecord, attempt: PlannedAttempt) => Promise<void>;
  /** First backoff after a 429/5xx (ms); tests and benches shorten it. */
  retryBaseMs?: number;
}

export interface RunEnvironment {
  attempts: AttemptEnvironment;
  runtime: Runtime;
  /** The MCP endpoint agent commands connect to (only when the agent is a command). */
  mcpUrl?: string;
  close(): Promise<void>;
}

/**
 * Everything a run's attempts need, composed: the runtime (engine, hub) on the run's store,
 * the task desk and its judges, the agent, and for an agent command a Streamable HTTP
 * endpoint on loopback, served in this process.
 */
export async function openRunEnvironment(input: EnvironmentInput): Promise<RunEnvironment> {
  const { settings } = input;
  const where = input.endpoint.baseURL ?? "api.openai.com";
  const client = (model: string) =>
    new LlmClient(
      {
        baseURL: input.endpoint.baseURL,
        apiKey: input.endpoint.apiKey,
        models: { simulate: model, judge: model },
        timeoutMs: settings.requestTimeoutSeconds * 1000,
        maxRetries: settings.retries,
        concurrency: Math.max(input.concurrency, input.endpoint.concurrency ?? 0),
      },
      { retryBaseMs: input.retryBaseMs, maxRetryAfterMs: 120_000, onRetry: input.onRetry },
    );
  const runtime = await createRuntime({
    catalog: input.catalog,
    db: input.store,
    seed: settings.seed,
    schemaProfile: settings.schemaProfile,
    faults: new FaultPlan(input.faults),
    llm:
      settings.engine === "llm" && settings.simModel
        ? {
            config: {
              baseURL: input.endpoint.baseURL,
              apiKey: input.endpoint.apiKey,
              models: { simulate: settings.simModel },
              maxRetries: settings.retries,
              concurrency: Math.max(input.concurrency, input.endpoint.concurrency ?? 0),
            },
            passes: { cache: true, semanticCheck: false, audit: false },
            retryBaseMs: input.retryBaseMs,
          }
        : undefined,
  });
  const desk = new TaskDesk({
    engine: runtime.engine,
    store: input.store,
    checklistJudge: settings.judgeModel ? new LlmChecklistJudge(client(settings.judgeModel)) : undefined,
  });
  if (settings.controlTools) {
    runtime.hub.use(
      controlTools(desk, {
        prefix: DEFAULT_CONTROL_PREFIX,
        onToolsChanged: (id) => runtime.hub.notifyToolsChanged(id),
      }),
    );
  }
  let http: HttpHandle | undefined;
  let agent: Agent;
  if (settings.agent.kind === "command") {
    http = await serveOverHttp(runtime.hub, {
      host: "127.0.0.1",
      port: 0,
      // an attempt's session exists before its agent starts: the header resumes it
      openSession: async (name, tenant) => (await runtime.engine.openSession({ name, tenant })).id,
      idleTimeoutMs: 60_000,
      log: input.log,
    });
    agent = new CommandAgent({
      command: settings.agent.command,
      mcpUrl: http.url,
      sessionHeader: "X-Toolsim-Session",
      env: input.processEnv,
    });
  } else {
    agent = new ModelAgent({
      llm: client(settings.agent.model),
      model: settings.agent.model,
      where,
      hub: runtime.hub,
      maxSteps: settings.agent.maxSteps,
      temperature: settings.agent.temperature,
      systemPrompt: settings.agent.systemPrompt,
    });
  }
  const userModel = settings.userModel;
  const userClient = userModel ? client(userModel) : undefined;
  const userFor = (task: Parameters<AttemptEnvironment["userFor"]>[0], attempt: number): User =>
    userModel && userClient
      ? new SimulatedUser(task, {
          llm: userClient,
          model: userModel,
          where,
          maxTurns: settings.maxTurns,
          seed: settings.seed,
          attempt,
        })
      : new ScriptedUser(task);
  return {
    runtime,
    ...(http ? { mcpUrl: http.url } : {}),
    attempts: {
      runId: input.runId,
      seed: settings.seed,
      catalog: input.catalog,
      engine: runtime.engine,
      store: input.store,
      desk,
      agent,
      userFor,
      feedbackRetries: settings.feedbackRetries,
      distractors: settings.distractors,
      judgeMode: settings.judge,
      attemptTimeoutMs: settings.attemptTimeoutSeconds * 1000,
      prepareSession: async (session, attempt) => {
        assignAttemptFaults(runtime.faults, session, attempt, input.catalog);
        await input.prepareSession?.(session, attempt);
      },
    },
    close: async () => {
      await http?.close();
    },
  };
}
