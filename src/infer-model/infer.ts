import type { Effect, Toolset } from "../catalog/index.js";
import { addUsage, type ChatTurn, type LlmClient, zeroUsage } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import { ANSWER_SCHEMA, repairUser, SYSTEM, toolUser } from "./prompts.js";
import { checkEffects } from "./replay.js";
import { stateSample } from "./state-sample.js";

export interface ModelInferenceOptions {
  client: LlmClient;
  /** Stress cases per audit mode in the replay (default 3). */
  perMode?: number;
  /** The wall clock of the provenance (tests pin it). */
  now?: () => Date;
  signal?: AbortSignal;
}

/** Where a tool's effects came from, for the file they are written to. */
export interface EffectsProvenance {
  by: "model";
  model: string;
  /** When they were written (wall clock, ISO 8601). */
  at: string;
  /** 1, or 2 when the first answer was repaired. */
  attempts: number;
  /** "replayed: n calls ok", or "replayed: n of m calls ok" when some were not. */
  replayed: string;
}

export interface ModelInference {
  tool: string;
  /** inferred: the effects passed lint and the replay; failed: they did not, or there are none. */
  status: "inferred" | "failed";
  /** The last answer's effects that had the format's shape (to write when inferred, to review otherwise). */
  effects?: Effect[];
  /** What is still wrong (empty when inferred). */
  problems: string[];
  /** Whether the endpoint answered at all (an answer, usable or not), as opposed to failing every request. */
  reached: boolean;
  provenance: EffectsProvenance;
  usage: Usage;
}

interface Answer {
  effects: unknown[];
}

/**
 * A model writes one tool's effects, once: one request with the tool's contract and a
 * sample of the state; the answer is linted and replayed against the state; when either
 * finds problems, they are quoted back for one repair. From then on the tool's calls run
 * offline, deterministically.
 */
export async function inferEffectsWithModel(
  toolset: Toolset,
  toolName: string,
  options: ModelInferenceOptions,
): Promise<ModelInference> {
  const tool = toolset.tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`toolset ${toolset.id} has no tool ${toolName}`);
  const perMode = options.perMode ?? 3;
  const user = toolUser({ tool, sample: stateSample(toolset.state) });
  const followUp: ChatTurn[] = [];
  let usage = zeroUsage();
  let last: Pick<ModelInference, "effects" | "problems"> & { replayed: { ok: number; total: number } } = {
    problems: [],
    replayed: { ok: 0, total: 0 },
  };
  let attempts = 0;
  let reached = false;
  for (attempts = 1; attempts <= 2; attempts++) {
    const answer = await options.client.tryJson<Answer>({
      role: "simulate",
      system: SYSTEM,
      user,
      schema: ANSWER_SCHEMA,
      schemaName: "tool_effects",
      followUp,
      signal: options.signal,
    });
    usage = addUsage(usage, answer.usage) ?? usage;
    const answered = answer.ok || ["invalid-json", "schema", "parse"].includes(answer.failure.kind);
    reached ||= answered;
    if (!answer.ok) {
      last = { ...last, problems: [`the model gave no usable answer: ${answer.failure.message}`] };
      // an endpoint that fails outright will not do better when told about it
      if (!answered) break;
      followUp.push(
        { role: "assistant", content: answer.raw ?? "" },
        { role: "user", content: repairUser(last.problems) },
      );
      continue;
    }
    const checked = await checkEffects(toolset, toolName, answer.value.effects, perMode);
    last = {
      effects: checked.tool?.effects ?? last.effects,
      problems: checked.problems,
      replayed: checked.replayed,
    };
    if (checked.tool && checked.problems.length === 0) break;
    followUp.push(
      { role: "assistant", content: answer.raw },
      { role: "user", content: repairUser(checked.problems) },
    );
  }
  const inferred = last.effects !== undefined && last.problems.length === 0;
  return {
    tool: toolName,
    status: inferred ? "inferred" : "failed",
    ...(last.effects ? { effects: last.effects } : {}),
    problems: last.problems,
    reached,
    provenance: {
      by: "model",
      model: options.client.modelFor("simulate"),
      at: (options.now?.() ?? new Date()).toISOString(),
      attempts: Math.min(attempts, 2),
      replayed: replayedText(last.replayed),
    },
    usage,
  };
}

function replayedText({ ok, total }: { ok: number; total: number }): string {
  return ok === total ? `replayed: ${total} calls ok` : `replayed: ${ok} of ${total} calls ok`;
}
