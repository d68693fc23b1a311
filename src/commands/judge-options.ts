import { LlmClient, type ResolvedLlm } from "../llm/index.js";
import type { Store } from "../store/index.js";
import { type ChecklistJudge, type JudgeMode, LlmChecklistJudge } from "../tasks/index.js";
import { UsageError } from "./command.js";
import { resolveEngine } from "./llm-options.js";

export const JUDGE_OPTION = { judge: { type: "string", default: "auto" } } as const;
export const JUDGE_HELP = `  --judge MODE         auto (golden when the task has a solution, else checklist), golden or checklist;
                       the checklist judge uses the model configured for the engine (OPENAI_API_KEY, or
                       OPENAI_BASE_URL with TOOLSIM_MODEL; TOOLSIM_JUDGE_MODEL picks another model)`;

export function judgeMode(text: string | undefined): JudgeMode {
  const mode = text ?? "auto";
  if (mode !== "auto" && mode !== "golden" && mode !== "checklist") {
    throw new UsageError(`--judge takes auto, golden or checklist; got "${mode}"`);
  }
  return mode;
}

/**
 * The checklist judge when a model is configured (as the engine would find it), else none:
 * without one, tasks with a golden solution are still judged and the rest are reported unknown.
 */
export function checklistJudgeFor(store: Store, resolved?: ResolvedLlm): ChecklistJudge | undefined {
  const llm = resolved ?? judgeEndpoint();
  if (!llm?.config) return undefined;
  return new LlmChecklistJudge(new LlmClient(llm.config, { cache: llm.passes.cache ? store : undefined }));
}

/**
 * The endpoint as the environment and the config file give it, for commands that judge
 * stored sessions. One they cannot use (a base URL without a model name) leaves them without
 * the checklist judge, said once on stderr: golden tasks need no model, and the verdict of
 * the others says what is missing.
 */
function judgeEndpoint(): ResolvedLlm | undefined {
  try {
    return resolveEngine({});
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`toolsim: no checklist judge: ${error.message}\n`);
    return undefined;
  }
}
