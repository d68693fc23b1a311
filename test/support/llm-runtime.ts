import { join, resolve } from "node:path";
import type { LlmConfig, LlmPasses } from "../../src/llm/index.js";
import { createRuntime, type Runtime } from "../../src/runtime/index.js";
import { catalogOf } from "./engine.js";
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from "./fake-openai.js";
import { tempDir } from "./processes.js";

export const HELPDESK = resolve(import.meta.dirname, "../fixtures/llm/helpdesk.json");

export interface LlmRuntimeOptions {
  passes?: Partial<LlmPasses>;
  deadlineMs?: number;
  config?: Partial<LlmConfig>;
  /** Reuse this SQLite file (a second "process" on the same database). */
  db?: string;
  fake?: FakeOpenAIOptions;
  /** Share a running fake server instead of starting one. */
  server?: FakeOpenAI;
}

/** A runtime whose engine asks the real `openai` client, over HTTP, to a scripted fake server. */
export async function openLlmRuntime(
  options: LlmRuntimeOptions = {},
): Promise<Runtime & { db: string; fake: FakeOpenAI; dispose: () => Promise<void> }> {
  const fake = options.server ?? (await startFakeOpenAI(options.fake));
  const dir = options.db ? undefined : tempDir("toolsim-llm-");
  const db = options.db ?? join(dir?.path ?? "", "toolsim.db");
  const runtime = await createRuntime({
    catalog: catalogOf([HELPDESK]),
    db,
    deadlineMs: options.deadlineMs ?? 10_000,
    llm: {
      config: { baseURL: fake.url, models: { simulate: "fake-model" }, maxRetries: 2, ...options.config },
      passes: { cache: true, semanticCheck: false, audit: false, ...options.passes },
      retryBaseMs: 5,
    },
  });
  return {
    ...runtime,
    db,
    fake,
    dispose: async () => {
      await runtime.close();
      if (!options.server) await fake.close();
      dir?.cleanup();
    },
  };
}
