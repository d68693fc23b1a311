import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type ResolvedLlm, resolveLlmConfig } from "../llm/index.js";
import { UsageError } from "./command.js";

export const LLM_OPTIONS = {
  engine: { type: "string" },
  model: { type: "string" },
  "llm-base-url": { type: "string" },
  "llm-key": { type: "string" },
  "no-cache": { type: "boolean" },
  "semantic-check": { type: "boolean" },
  audit: { type: "boolean" },
  deadline: { type: "string" },
  config: { type: "string" },
} as const;

export const LLM_HELP = `  --engine E           auto (default: llm when an endpoint is configured, else offline), offline or llm
                       (env TOOLSIM_ENGINE)
  --model NAME         model that simulates calls (env TOOLSIM_MODEL; default gpt-4.1-mini on OpenAI)
  --llm-base-url URL   OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (env OPENAI_BASE_URL)
  --llm-key KEY        API key (prefer env OPENAI_API_KEY; local servers need none)
  --no-cache           ask the model every time instead of replaying stored answers
  --semantic-check     a model also checks arguments for what the schema cannot (formats in prose,
                       implausible values); its concerns reject the call as IAV. One more request per call
  --audit              a judge model reviews each answer and it is regenerated once if judged wrong
  --deadline S         seconds a call may wait for the model before the offline engine answers it
                       (default 25, below the 60 s after which clients commonly give up)
  --config FILE        settings file (default ./toolsim.config.json when present); see docs/llm.md`;

export interface LlmSelection {
  engine?: string;
  model?: string;
  "llm-base-url"?: string;
  "llm-key"?: string;
  "no-cache"?: boolean;
  "semantic-check"?: boolean;
  audit?: boolean;
  deadline?: string;
  config?: string;
}

/** Flags, then environment, then the config file; misuse is a UsageError. */
export function resolveEngine(values: LlmSelection, env: NodeJS.ProcessEnv = process.env): ResolvedLlm {
  if (values.config && !existsSync(values.config))
    throw new UsageError(`--config: no file at ${values.config}`);
  const file = values.config ?? resolve("toolsim.config.json");
  let deadlineSeconds: number | undefined;
  if (values.deadline !== undefined) {
    deadlineSeconds = Number(values.deadline);
    if (!Number.isFinite(deadlineSeconds) || deadlineSeconds <= 0 || deadlineSeconds > 3600) {
      throw new UsageError(
        `--deadline takes seconds from 0 to 3600 (fractions allowed); got "${values.deadline}"`,
      );
    }
  }
  const resolved = resolveLlmConfig({
    flags: {
      engine: values.engine,
      model: values.model,
      baseURL: values["llm-base-url"],
      apiKey: values["llm-key"],
      noCache: values["no-cache"],
      semanticCheck: values["semantic-check"],
      audit: values.audit,
      deadlineSeconds,
    },
    env,
    file,
  });
  if (resolved.problem) throw new UsageError(resolved.problem);
  return resolved;
}

/** The banner's engine line: which engine, why, and which extra passes run. */
export function describeEngine(resolved: ResolvedLlm): string {
  if (resolved.engine === "offline") {
    // passes that need a model are not run offline: say so rather than ignore the flag
    const unrun = [
      resolved.passes.semanticCheck ? "--semantic-check" : "",
      resolved.passes.audit ? "--audit" : "",
    ].filter(Boolean);
    if (unrun.length === 0) return resolved.reason;
    return `${resolved.reason}; ${unrun.join(" and ")} need${unrun.length === 1 ? "s" : ""} a model and will not run (configure one: OPENAI_API_KEY, or --llm-base-url with --model)`;
  }
  const extras = [
    resolved.passes.semanticCheck ? "semantic check on" : "",
    resolved.passes.audit ? "audit on" : "",
    resolved.passes.cache ? "" : "cache off",
  ].filter(Boolean);
  return extras.length ? `${resolved.reason}; ${extras.join(", ")}` : resolved.reason;
}
