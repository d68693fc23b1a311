import { existsSync, readFileSync } from "node:fs";
import { isPlainObject } from "../patch/index.js";

/** Where an OpenAI-compatible endpoint is and which model plays each role. */
export interface LlmConfig {
  /** Base URL ending in /v1 (absent: api.openai.com). */
  baseURL?: string;
  /** Absent for local servers (Ollama, vLLM, LM Studio, llama.cpp) that take none. */
  apiKey?: string;
  models: { simulate: string; validate?: string; judge?: string; embed?: string };
  /** Per request, before the client gives up on it (ms). */
  timeoutMs?: number;
  /** Further attempts after a 429, a 5xx or a dropped connection. */
  maxRetries?: number;
  /** Requests in flight at once, across every session. */
  concurrency?: number;
  temperature?: number;
}

export type EngineChoice = "auto" | "offline" | "llm";

/** The optional passes and the cache, each a flag and a config key. */
export interface LlmPasses {
  semanticCheck: boolean;
  audit: boolean;
  cache: boolean;
}

/** What the command line says; every field optional (absent: environment, then file, then default). */
export interface LlmFlags {
  engine?: string;
  model?: string;
  baseURL?: string;
  apiKey?: string;
  noCache?: boolean;
  semanticCheck?: boolean;
  audit?: boolean;
  deadlineSeconds?: number;
}

export interface ResolvedLlm {
  /** Present when the LLM engine answers calls. */
  config?: LlmConfig;
  engine: "offline" | "llm";
  /**
   * The model answers only the tools whose answers the rules would guess; the offline engine
   * answers the rest (auto). False when the model was chosen for every tool (--engine llm).
   */
  onlyGuessed?: boolean;
  /** One line saying which engine and why, for the startup banner. */
  reason: string;
  passes: LlmPasses;
  /** How long a call may wait for the model before the offline engine answers (ms). */
  deadlineMs: number;
  /** A misconfiguration the user must fix (the command reports it as a usage error). */
  problem?: string;
}

/** The `toolsim.config.json` shape; every key optional. */
interface ConfigFile {
  engine?: string;
  model?: string;
  baseURL?: string;
  apiKey?: string;
  models?: { simulate?: string; validate?: string; judge?: string; embed?: string };
  timeoutMs?: number;
  maxRetries?: number;
  concurrency?: number;
  temperature?: number;
  semanticCheck?: boolean;
  audit?: boolean;
  cache?: boolean;
  deadlineSeconds?: number;
}

const OPENAI_DEFAULT_MODEL = "gpt-4.1-mini";

/**
 * How long one simulated call may wait for a model before the offline engine answers.
 * MCP clients commonly give up on a request after 60 s; answering well before that means
 * a stalled model costs the agent a fallback answer, never a timed-out call.
 */
export const DEFAULT_DEADLINE_SECONDS = 25;
const ENGINES: readonly EngineChoice[] = ["auto", "offline", "llm"];

/**
 * Decides the engine and the endpoint from flags, then environment, then the config file.
 * A base URL without a key is a complete configuration (local servers take no key).
 */
export function resolveLlmConfig(input: {
  flags: LlmFlags;
  env: NodeJS.ProcessEnv;
  file?: string;
}): ResolvedLlm {
  const { flags, env } = input;
  const read = readConfigFile(input.file);
  const file = read.ok ? read.value : {};
  const passes: LlmPasses = {
    semanticCheck: flags.semanticCheck ?? file.semanticCheck ?? false,
    audit: flags.audit ?? file.audit ?? false,
    cache: flags.noCache ? false : (file.cache ?? true),
  };
  const deadlineSeconds = flags.deadlineSeconds ?? file.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS;
  const base = { passes, deadlineMs: deadlineSeconds * 1000 };
  if (!read.ok) return { ...base, engine: "offline", reason: "offline", problem: read.problem };

  const engineText = flags.engine ?? nonEmpty(env.TOOLSIM_ENGINE) ?? file.engine ?? "auto";
  if (!ENGINES.includes(engineText as EngineChoice)) {
    return {
      ...base,
      engine: "offline",
      reason: "offline",
      problem: `engine must be one of auto, offline, llm; got "${engineText}"`,
    };
  }
  const engine = engineText as EngineChoice;
  if (engine === "offline") {
    return { ...base, engine: "offline", reason: "offline (chosen explicitly; deterministic, no network)" };
  }

  const baseURL = flags.baseURL ?? nonEmpty(env.OPENAI_BASE_URL) ?? file.baseURL;
  const apiKey = flags.apiKey ?? nonEmpty(env.OPENAI_API_KEY) ?? file.apiKey;
  if (!baseURL && !apiKey) {
    const hint = "set OPENAI_API_KEY, or --llm-base-url for a local server";
    if (engine === "llm") {
      return {
        ...base,
        engine: "offline",
        reason: "offline",
        problem: `--engine llm needs an endpoint: ${hint}`,
      };
    }
    return { ...base, engine: "offline", reason: `offline (no LLM endpoint configured: ${hint})` };
  }

  const simulateModel =
    flags.model ??
    nonEmpty(env.TOOLSIM_MODEL) ??
    file.models?.simulate ??
    file.model ??
    defaultModel(baseURL);
  if (!simulateModel) {
    return {
      ...base,
      engine: "offline",
      reason: "offline",
      problem: `the endpoint ${baseURL} needs a model name: pass --model (or set TOOLSIM_MODEL), e.g. --model qwen3:8b`,
    };
  }
  const config: LlmConfig = {
    baseURL,
    apiKey,
    models: {
      simulate: simulateModel,
      validate: nonEmpty(env.TOOLSIM_VALIDATE_MODEL) ?? file.models?.validate,
      judge: nonEmpty(env.TOOLSIM_JUDGE_MODEL) ?? file.models?.judge,
      embed: nonEmpty(env.TOOLSIM_EMBED_MODEL) ?? file.models?.embed,
    },
    timeoutMs: file.timeoutMs,
    maxRetries: file.maxRetries,
    concurrency: file.concurrency,
    temperature: file.temperature,
  };
  const where = baseURL ?? "api.openai.com";
  if (engine === "llm")
    return {
      ...base,
      engine: "llm",
      config,
      reason: `llm (${simulateModel} at ${where}; chosen with --engine llm)`,
    };
  const why = `auto: ${baseURL ? "a base URL" : "an API key"} is configured`;
  return {
    ...base,
    engine: "llm",
    onlyGuessed: true,
    config,
    reason: `llm for the tools whose answers the rules would guess, offline for the rest (${simulateModel} at ${where}; ${why})`,
  };
}

/** OpenAI's own endpoint has a sensible default model; a local server's models are the user's to name. */
function defaultModel(baseURL: string | undefined): string | undefined {
  if (!baseURL || /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL)) return OPENAI_DEFAULT_MODEL;
  return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

function readConfigFile(
  path: string | undefined,
): { ok: true; value: ConfigFile } | { ok: false; problem: string } {
  if (!path || !existsSync(path)) return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { ok: false, problem: `${path} is not valid JSON: ${(error as Error).message}` };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { ok: false, problem: `${path} must hold a JSON object` };
  }
  const value = parsed as Record<string, unknown>;
  const llm = value.llm;
  // the LLM keys may sit at the top level or under "llm"
  const merged = { ...value, ...(isPlainObject(llm) ? llm : {}) };
  const problem = checkConfigFile(merged);
  if (problem) return { ok: false, problem: `${path}: ${problem}` };
  return { ok: true, value: merged as ConfigFile };
}

const CONFIG_TYPES: Record<string, "string" | "number" | "boolean" | "object"> = {
  engine: "string",
  model: "string",
  baseURL: "string",
  apiKey: "string",
  models: "object",
  timeoutMs: "number",
  maxRetries: "number",
  concurrency: "number",
  temperature: "number",
  semanticCheck: "boolean",
  audit: "boolean",
  cache: "boolean",
  deadlineSeconds: "number",
};

function checkConfigFile(value: Record<string, unknown>): string | undefined {
  for (const [key, type] of Object.entries(CONFIG_TYPES)) {
    const found = value[key];
    if (found === undefined) continue;
    if (typeof found !== type || (type === "object" && (found === null || Array.isArray(found)))) {
      return `"${key}" must be a ${type}`;
    }
  }
  const models = value.models as Record<string, unknown> | undefined;
  for (const [role, model] of Object.entries(models ?? {})) {
    if (typeof model !== "string") return `"models.${role}" must be a string`;
  }
  return undefined;
}
