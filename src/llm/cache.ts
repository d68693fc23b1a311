import { hashOf } from "../patch/index.js";
import type { Usage } from "../store/index.js";

/** A stored model answer: the exact text the model returned, and what it cost the first time. */
export interface CachedAnswer {
  response: string;
  usage?: Usage;
}

/** Where answers are kept for replay (the store implements it on its `llm_cache` table). */
export interface LlmCache {
  llmCacheGet(key: string): Promise<CachedAnswer | undefined>;
  llmCachePut(entry: { key: string; model: string; response: string; usage?: Usage }): Promise<void>;
}

/**
 * Everything that decides a model's answer: the model, every message, the sampling
 * settings and the response schema. The transport detail (json_schema or json_object
 * mode) is left out, so a replay hits even if the endpoint's abilities were probed anew.
 */
export function cacheKeyOf(parts: {
  model: string;
  messages: readonly { role: string; content: string }[];
  sampling: { temperature: number; seed: number | null };
  schemaName: string;
  schema: Record<string, unknown>;
}): string {
  return hashOf(
    "toolsim-llm-cache-v1",
    parts.model,
    parts.messages,
    parts.sampling,
    parts.schemaName,
    parts.schema,
  );
}
