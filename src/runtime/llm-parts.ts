import { LlmClient, type LlmConfig, type LlmPasses } from "../llm/index.js";
import { GuessRouter, LlmArgumentChecker, LlmSimulator, type OfflineSimulator } from "../simulate/index.js";
import type { Store } from "../store/index.js";

/** What the runtime needs to build the LLM engine. */
export interface LlmSetup {
  config: LlmConfig;
  passes: LlmPasses;
  /** First backoff after a 429/5xx (ms); tests shorten it. */
  retryBaseMs?: number;
  /** The model answers only tools whose answers the rules would guess (see GuessRouter). */
  onlyGuessed?: boolean;
}

/** The LLM simulator and, when asked for, the semantic argument check, sharing one client and the store's cache. */
export function llmParts(setup: LlmSetup, store: Store, offline: OfflineSimulator) {
  const client = new LlmClient(setup.config, {
    cache: setup.passes.cache ? store : undefined,
    retryBaseMs: setup.retryBaseMs,
  });
  const model = new LlmSimulator({ client, fallback: offline, audit: setup.passes.audit });
  const simulator = setup.onlyGuessed ? new GuessRouter(model, offline) : model;
  const argumentChecker = setup.passes.semanticCheck
    ? new LlmArgumentChecker(client, setup.config.timeoutMs)
    : undefined;
  return { client, simulator, argumentChecker };
}
