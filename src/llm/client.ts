import { performance } from "node:perf_hooks";
import type OpenAI from "openai";
import type { Usage } from "../store/index.js";
import { cacheKeyOf, type LlmCache } from "./cache.js";
import type { LlmConfig } from "./config.js";
import { type DecodeProblem, decodeAnswer } from "./decode.js";
import { Limiter } from "./limiter.js";
import { zeroUsage } from "./usage.js";

export type LlmRole = "simulate" | "validate" | "judge";

/** Turns after the first user message, e.g. the model's earlier answer and what was wrong with it. */
export interface ChatTurn {
  role: "assistant" | "user";
  content: string;
}

export interface JsonRequest<T> {
  role: LlmRole;
  system: string;
  user: string;
  /** JSON Schema of the answer: sent as the response format where the endpoint supports it, always checked here. */
  schema: Record<string, unknown>;
  schemaName: string;
  /** Further checks and typing after the schema check; throw to reject the answer. */
  parse?: (value: unknown) => T;
  followUp?: readonly ChatTurn[];
  /** Sampling seed sent to endpoints that honour it; part of the cache key. */
  seed?: number;
  signal?: AbortSignal;
  /** Default true: answers are kept and replayed for the same model, messages, sampling and schema. */
  cacheable?: boolean;
}

export type LlmFailureKind = "http" | "network" | "timeout" | "aborted" | "invalid-json" | "schema" | "parse";

export interface LlmFailure {
  kind: LlmFailureKind;
  message: string;
  status?: number;
}

export type JsonAttempt<T> =
  | { ok: true; value: T; raw: string; usage: Usage; cached: boolean }
  | { ok: false; failure: LlmFailure; usage: Usage; raw?: string };

/** What `json` throws when no usable answer came back; `tryJson` returns the same as a value. */
export class LlmError extends Error {
  constructor(
    readonly failure: LlmFailure,
    readonly usage: Usage,
    readonly raw?: string,
  ) {
    super(failure.message);
    this.name = "LlmError";
  }
}

export interface LlmClientOptions {
  cache?: LlmCache;
  /** First backoff step after a 429/5xx (ms); doubles each retry. */
  retryBaseMs?: number;
  /** The longest pause a Retry-After header may ask for (ms; default 20 s). */
  maxRetryAfterMs?: number;
  /** Told before each pause for a retry: what failed and how long the pause is. */
  onRetry?: (retry: RetryNotice) => void;
}

/** A request about to be sent again: why, and after how long. */
export interface RetryNotice {
  /** The HTTP status, absent for a dropped connection or a timeout. */
  status?: number;
  waitMs: number;
  /** 1 for the first retry. */
  retry: number;
}

/** One tool call a model asked for; `arguments` is the JSON text it wrote (possibly not JSON at all). */
export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A message of a tool-calling conversation, in the chat completions API's roles. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** A function the model may call: a tool's name, description and JSON Schema of its arguments. */
export interface ChatFunction {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** OpenAI's strict mode: the schema must follow its rules (see catalog/strict-rules.ts). */
  strict?: boolean;
}

export interface ChatRequest {
  model: string;
  messages: readonly ChatMessage[];
  tools?: readonly ChatFunction[];
  /** Absent: the endpoint's own default. */
  temperature?: number;
  seed?: number;
  signal?: AbortSignal;
}

/** The model's next message: text, tool calls or both, and what the request cost. */
export interface ChatReply {
  content: string | null;
  toolCalls: ChatToolCall[];
  finishReason: string;
  usage: Usage;
}

/** How the answer's shape is asked for; endpoints that reject one get the next. */
type ResponseMode = "json_schema" | "json_object" | "none";

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RETRIES = 2;
const DEFAULT_CONCURRENCY = 4;
const MAX_RETRY_AFTER_MS = 20_000;

/**
 * One wrapper around the `openai` package for every OpenAI-compatible endpoint: a model
 * per role, timeouts, retries with backoff on 429/5xx, a concurrency limit, structured
 * output with our own check, a replay cache, and usage per call.
 */
export class LlmClient {
  readonly config: LlmConfig;
  private client?: Promise<OpenAI>;
  private readonly cache?: LlmCache;
  private readonly limiter: Limiter;
  private readonly retryBaseMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly onRetry?: (retry: RetryNotice) => void;
  private mode: ResponseMode = "json_schema";

  constructor(config: LlmConfig, options: LlmClientOptions = {}) {
    this.config = config;
    this.cache = options.cache;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
    this.onRetry = options.onRetry;
    this.limiter = new Limiter(Math.max(1, config.concurrency ?? DEFAULT_CONCURRENCY));
  }

  private openai(): Promise<OpenAI> {
    const config = this.config;
    this.client ??= openaiPackage().then(
      (sdk) =>
        new sdk.default({
          baseURL: config.baseURL,
          // local servers take no key, but the client insists on one
          apiKey: config.apiKey ?? "no-key",
          timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxRetries: 0, // retries happen here, where they are counted and can be aborted
        }),
    );
    return this.client;
  }

  modelFor(role: LlmRole | "embed"): string {
    const models = this.config.models;
    if (role === "embed") return models.embed ?? "text-embedding-3-small";
    return models[role] ?? models.simulate;
  }

  /** A checked JSON answer, or a thrown LlmError. */
  async json<T>(request: JsonRequest<T>): Promise<{ value: T; usage: Usage; cached: boolean }> {
    const attempt = await this.tryJson(request);
    if (!attempt.ok) throw new LlmError(attempt.failure, attempt.usage, attempt.raw);
    return { value: attempt.value, usage: attempt.usage, cached: attempt.cached };
  }

  /** A checked JSON answer, or why there is none (with what the attempt cost). */
  async tryJson<T>(request: JsonRequest<T>): Promise<JsonAttempt<T>> {
    const model = this.modelFor(request.role);
    const temperature = this.config.temperature ?? 0;
    const messages = [
      { role: "system" as const, content: request.system },
      { role: "user" as const, content: request.user },
      ...(request.followUp ?? []),
    ];
    const cacheable = this.cache !== undefined && request.cacheable !== false;
    const key = cacheKeyOf({
      model,
      messages,
      sampling: { temperature, seed: request.seed ?? null },
      schemaName: request.schemaName,
      schema: request.schema,
    });
    if (cacheable) {
      const hit = await this.cache?.llmCacheGet(key);
      if (hit) {
        const decoded = decodeAnswer(hit.response, request.schema, request.parse);
        if (decoded.ok) {
          return {
            ok: true,
            value: decoded.value,
            raw: hit.response,
            usage: { ...zeroUsage(), cached: 1 },
            cached: true,
          };
        }
      }
    }
    const usage = zeroUsage();
    const reply = await this.limiter
      .run(() => this.complete(model, messages, temperature, request, usage), request.signal)
      .catch((error: unknown) => ({ ok: false as const, failure: failureOf(error, request.signal) }));
    if (!reply.ok) return { ok: false, failure: reply.failure, usage };
    const decoded = decodeAnswer(reply.text, request.schema, request.parse);
    if (!decoded.ok) return { ok: false, failure: failureOfProblem(decoded.problem), usage, raw: reply.text };
    if (cacheable) await this.cache?.llmCachePut({ key, model, response: reply.text, usage });
    return { ok: true, value: decoded.value, raw: reply.text, usage, cached: false };
  }

  /**
   * One turn of a tool-calling conversation: the model's next message. Never cached (each
   * sample counts when an agent is measured); retried like every request. Throws LlmError.
   */
  async chat(request: ChatRequest): Promise<ChatReply> {
    const usage = zeroUsage();
    const send = () =>
      this.withRetries(usage, request.signal, async () => {
        // the client leaves a listener on the signal it is given for good: give it one of its own
        const scope = requestSignal(request.signal);
        const response = await (await this.openai()).chat.completions
          .create(
            {
              model: request.model,
              messages: request.messages.map(toOpenAiMessage),
              ...(request.tools?.length
                ? {
                    tools: request.tools.map((tool) => ({
                      type: "function" as const,
                      function: {
                        name: tool.name,
                        description: tool.description,
                        parameters: tool.parameters,
                        ...(tool.strict ? { strict: true } : {}),
                      },
                    })),
                  }
                : {}),
              ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
              ...(request.seed === undefined ? {} : { seed: request.seed }),
            },
            { signal: scope.signal },
          )
          .finally(scope.release);
        usage.promptTokens += response.usage?.prompt_tokens ?? 0;
        usage.completionTokens += response.usage?.completion_tokens ?? 0;
        return response;
      });
    try {
      const response = await this.limiter.run(send, request.signal);
      const choice = response.choices[0];
      const toolCalls: ChatToolCall[] = [];
      for (const call of choice?.message.tool_calls ?? []) {
        if (call.type === "function") {
          toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments });
        }
      }
      return {
        content: choice?.message.content ?? null,
        toolCalls,
        finishReason: choice?.finish_reason ?? "stop",
        usage,
      };
    } catch (error) {
      throw new LlmError(failureOf(error, request.signal), usage);
    }
  }

  /** Embeddings of the texts, in order. Throws LlmError when the endpoint gives none. */
  async embed(texts: string[], signal?: AbortSignal): Promise<{ vectors: number[][]; usage: Usage }> {
    const usage = zeroUsage();
    const model = this.modelFor("embed");
    const run = () =>
      this.withRetries(usage, signal, async () => {
        const response = await (await this.openai()).embeddings.create(
          // floats, not the client's default base64: several local servers ignore the format and send floats
          { model, input: texts, encoding_format: "float" },
          { signal },
        );
        usage.promptTokens += response.usage?.prompt_tokens ?? 0;
        return response;
      });
    try {
      const response = await this.limiter.run(run, signal);
      const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
      return { vectors, usage };
    } catch (error) {
      throw new LlmError(failureOf(error, signal), usage);
    }
  }

  private async complete(
    model: string,
    messages: ReadonlyArray<{ role: "system" | "user" | "assistant"; content: string }>,
    temperature: number,
    request: JsonRequest<unknown>,
    usage: Usage,
  ): Promise<{ ok: true; text: string } | { ok: false; failure: LlmFailure }> {
    return this.withRetries(usage, request.signal, async () => {
      for (;;) {
        const mode = this.mode;
        try {
          const response = await (await this.openai()).chat.completions.create(
            {
              model,
              messages: withSchemaHint(messages, mode, request.schema),
              temperature,
              ...(request.seed === undefined ? {} : { seed: request.seed }),
              ...responseFormat(mode, request.schemaName, request.schema),
            },
            { signal: request.signal },
          );
          usage.promptTokens += response.usage?.prompt_tokens ?? 0;
          usage.completionTokens += response.usage?.completion_tokens ?? 0;
          return { ok: true as const, text: response.choices[0]?.message?.content ?? "" };
        } catch (error) {
          const next = rejectsResponseFormat(error, mode);
          if (!next) throw error;
          // the endpoint cannot do this response format: remember, and ask again the plainer way
          this.mode = next;
          usage.requests++;
        }
      }
    });
  }

  /** Runs one request, again after a 429, a 5xx or a dropped connection, with growing pauses. */
  private async withRetries<T>(
    usage: Usage,
    signal: AbortSignal | undefined,
    send: () => Promise<T>,
  ): Promise<T> {
    const retries = this.config.maxRetries ?? DEFAULT_RETRIES;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      try {
        usage.requests++;
        return await send();
      } catch (error) {
        if (attempt >= retries || !retryable(error) || signal?.aborted) throw error;
        const waitMs = this.backoffMs(error, attempt);
        this.onRetry?.({
          ...(isSdkError(error, "APIError") && error.status ? { status: error.status } : {}),
          waitMs,
          retry: attempt + 1,
        });
        await pause(waitMs, signal);
      } finally {
        usage.latencyMs += performance.now() - started;
      }
    }
  }

  private backoffMs(error: unknown, attempt: number): number {
    const header = isSdkError(error, "APIError") ? error.headers?.get("retry-after") : undefined;
    const seconds = header ? Number(header) : Number.NaN;
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, this.maxRetryAfterMs);
    return this.retryBaseMs * 2 ** attempt;
  }
}

type Sdk = typeof import("openai");
type SdkError = "APIError" | "APIConnectionError" | "APIConnectionTimeoutError" | "APIUserAbortError";

/** The `openai` package, loaded with the first request: a server that never asks a model starts without it. */
let sdk: Sdk | undefined;

async function openaiPackage(): Promise<Sdk> {
  sdk ??= await import("openai");
  return sdk;
}

/** Whether an error is the package's of that kind (it can only be once a request loaded the package). */
function isSdkError<K extends SdkError>(error: unknown, kind: K): error is InstanceType<Sdk[K]> {
  return sdk !== undefined && error instanceof sdk[kind];
}

/** A signal for one request that follows `outer`, and lets go of it when the request is over. */
function requestSignal(outer: AbortSignal | undefined): { signal?: AbortSignal; release: () => void } {
  if (!outer) return { release: () => {} };
  const controller = new AbortController();
  const follow = () => controller.abort(outer.reason);
  if (outer.aborted) follow();
  else outer.addEventListener("abort", follow, { once: true });
  return { signal: controller.signal, release: () => outer.removeEventListener("abort", follow) };
}

function toOpenAiMessage(message: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam {
  if (message.role !== "assistant") return message;
  return {
    role: "assistant",
    content: message.content,
    ...(message.tool_calls?.length
      ? {
          tool_calls: message.tool_calls.map((call) => ({
            id: call.id,
            type: "function" as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
}

function responseFormat(mode: ResponseMode, name: string, schema: Record<string, unknown>) {
  if (mode === "json_schema") {
    return {
      response_format: { type: "json_schema" as const, json_schema: { name, schema, strict: false } },
    };
  }
  if (mode === "json_object") return { response_format: { type: "json_object" as const } };
  return {};
}

/** Without a schema-constrained format, the schema travels in the system message instead. */
function withSchemaHint(
  messages: ReadonlyArray<{ role: "system" | "user" | "assistant"; content: string }>,
  mode: ResponseMode,
  schema: Record<string, unknown>,
) {
  if (mode === "json_schema") return [...messages];
  const [system, ...rest] = messages;
  if (!system) return [...messages];
  const hint = `\n\nAnswer with a single JSON object valid against this JSON Schema:\n${JSON.stringify(schema)}`;
  return [{ ...system, content: system.content + hint }, ...rest];
}

/** An endpoint that rejects the response format says so with a 400/422 naming it. */
function rejectsResponseFormat(error: unknown, mode: ResponseMode): ResponseMode | undefined {
  if (mode === "none" || !isSdkError(error, "APIError")) return undefined;
  if (error.status !== 400 && error.status !== 422) return undefined;
  if (!/response_format|json_schema|json_object|schema|format/i.test(error.message)) return undefined;
  return mode === "json_schema" ? "json_object" : "none";
}

function retryable(error: unknown): boolean {
  if (isSdkError(error, "APIConnectionError")) return true; // includes timeouts
  if (isSdkError(error, "APIError")) {
    const status = error.status ?? 0;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  return false;
}

function failureOf(error: unknown, signal?: AbortSignal): LlmFailure {
  if (signal?.aborted || isSdkError(error, "APIUserAbortError")) {
    return { kind: "aborted", message: "the request was cancelled (deadline or client)" };
  }
  if (isSdkError(error, "APIConnectionTimeoutError"))
    return { kind: "timeout", message: "the endpoint timed out" };
  if (isSdkError(error, "APIConnectionError")) {
    return { kind: "network", message: `could not reach the endpoint: ${error.message}` };
  }
  if (isSdkError(error, "APIError")) {
    return {
      kind: "http",
      status: error.status,
      message: `the endpoint answered ${error.status}: ${error.message}`,
    };
  }
  return { kind: "network", message: error instanceof Error ? error.message : String(error) };
}

function failureOfProblem(problem: DecodeProblem): LlmFailure {
  return { kind: problem.kind, message: problem.message };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}
