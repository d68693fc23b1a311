/**
 * The LLM room: one client for every OpenAI-compatible endpoint (OpenAI, vLLM, Ollama,
 * LM Studio, llama.cpp).
 *
 *   resolveLlmConfig({ flags, env, file }) → { config?, engine, reason, passes, deadlineMs, problem? }
 *   new LlmClient(config, { cache?: LlmCache, retryBaseMs? })
 *     .json<T>({ role, system, user, schema, schemaName, parse?, followUp?, signal?, cacheable? })
 *        → { value, usage, cached }            (throws LlmError with .failure and .usage)
 *     .tryJson<T>(same)                         → the same as a value: { ok: true, … } | { ok: false, failure, usage, raw? }
 *     .embed(texts, signal?)                    → { vectors, usage }  (throws LlmError)
 *     .chat({ model, messages, tools?, … })      → { content, toolCalls, finishReason, usage }  (throws LlmError)
 *
 * `followUp` and `tryJson` extend the agreed shape: a repair round trip needs the model's
 * earlier answer in the conversation, and callers that decide on failure want it as a value.
 * The Store implements LlmCache (llmCacheGet/llmCachePut on its llm_cache table).
 */
export { type CachedAnswer, cacheKeyOf, type LlmCache } from "./cache.js";
export {
  type ChatFunction,
  type ChatMessage,
  type ChatReply,
  type ChatRequest,
  type ChatToolCall,
  type ChatTurn,
  type JsonAttempt,
  type JsonRequest,
  LlmClient,
  type LlmClientOptions,
  LlmError,
  type LlmFailure,
  type LlmFailureKind,
  type LlmRole,
  type RetryNotice,
} from "./client.js";
export {
  type EngineChoice,
  type LlmConfig,
  type LlmFlags,
  type LlmPasses,
  type ResolvedLlm,
  resolveLlmConfig,
} from "./config.js";
export { Limiter } from "./limiter.js";
export { addUsage, zeroUsage } from "./usage.js";
