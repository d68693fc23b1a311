import { addUsage, type ChatTurn, type JsonAttempt, type LlmClient } from "../llm/index.js";
import { hashOf } from "../patch/index.js";
import type { Usage } from "../store/index.js";
import { auditAnswer } from "./audit.js";
import { type CheckedAnswer, checkAnswer, type ModelAnswer } from "./llm-answer.js";
import { OfflineSimulator } from "./offline.js";
import { regenerateRequest, repairRequest } from "./prompts/repair.js";
import { ANSWER_SCHEMA, SIMULATE_SYSTEM, simulateUser } from "./prompts/simulate.js";
import { DEFAULT_SLICE_LIMITS, type SliceLimits, stateView } from "./state-slice.js";
import type { SimulationOutcome, SimulationRequest, Simulator } from "./types.js";

export interface LlmSimulatorOptions {
  client: LlmClient;
  /** Answers calls the model could not (default: a new offline engine). */
  fallback?: OfflineSimulator;
  /** Recent calls shown to the model (default 6). */
  historyWanted?: number;
  /** Judge every accepted answer and regenerate once when judged wrong. */
  audit?: boolean;
  sliceLimits?: SliceLimits;
}

/** Failures of the endpoint itself: asking again with a repair note would not help. */
const UNREPAIRABLE = new Set(["http", "network", "timeout", "aborted"]);

/**
 * Any OpenAI-compatible model answers calls: one request returns the outcome, the result
 * and the state patch together. An unusable answer gets one repair round trip that shows
 * the model its errors; if that fails too, the offline engine answers, marked as a fallback.
 */
export class LlmSimulator implements Simulator {
  readonly name = "llm";
  readonly historyWanted: number;
  private readonly client: LlmClient;
  private readonly fallback: OfflineSimulator;
  private readonly audit: boolean;
  private readonly sliceLimits: SliceLimits;

  constructor(options: LlmSimulatorOptions) {
    this.client = options.client;
    this.fallback = options.fallback ?? new OfflineSimulator();
    this.historyWanted = options.historyWanted ?? 6;
    this.audit = options.audit ?? false;
    this.sliceLimits = options.sliceLimits ?? DEFAULT_SLICE_LIMITS;
  }

  async respond(request: SimulationRequest): Promise<SimulationOutcome> {
    // the declared rules decided this call already; nothing is left for a model to say
    if (request.effects.status === "failed") {
      return { kind: "failure", failure: request.effects.failure, engine: this.name };
    }
    const user = simulateUser(request, stateView(request, this.sliceLimits));
    const ask = (followUp: ChatTurn[]) =>
      this.client.tryJson<ModelAnswer>({
        role: "simulate",
        system: SIMULATE_SYSTEM,
        user,
        schema: ANSWER_SCHEMA,
        schemaName: "tool_response",
        parse: (value) => value as ModelAnswer,
        followUp,
        seed: samplingSeed(request.seed),
        signal: request.signal,
      });

    const first = await ask([]);
    let usage = first.usage;
    let accepted = first.ok ? this.accept(first, request) : undefined;
    let raw = first.raw;

    if (!accepted?.checked.ok) {
      const problems = accepted && !accepted.checked.ok ? accepted.checked.problems : [failureText(first)];
      if (accepted && !accepted.checked.ok && accepted.checked.breach)
        return this.fallBack(request, problems, usage, "", "broke the tool's contract");
      if (!first.ok && UNREPAIRABLE.has(first.failure.kind)) return this.fallBack(request, problems, usage);
      const second = await ask([
        { role: "assistant", content: raw ?? "" },
        { role: "user", content: repairRequest(problems) },
      ]);
      usage = addUsage(usage, second.usage) ?? usage;
      accepted = second.ok ? this.accept(second, request) : undefined;
      raw = second.raw;
      if (!accepted?.checked.ok) {
        const again = accepted && !accepted.checked.ok ? accepted.checked.problems : [failureText(second)];
        const breach = accepted && !accepted.checked.ok && accepted.checked.breach;
        return this.fallBack(
          request,
          again,
          usage,
          "after one repair",
          breach ? "broke the tool's contract" : undefined,
        );
      }
    }

    let outcome = this.outcomeOf(accepted.checked, usage, request);
    if (this.audit) {
      outcome = await this.audited(request, accepted.answer, raw ?? "", outcome, ask);
    }
    return outcome;
  }

  private accept(attempt: Extract<JsonAttempt<ModelAnswer>, { ok: true }>, request: SimulationRequest) {
    return { answer: attempt.value, checked: checkAnswer(attempt.value, request) };
  }

  private outcomeOf(
    checked: Extract<CheckedAnswer, { ok: true }>,
    usage: Usage,
    request: SimulationRequest,
  ): SimulationOutcome {
    if (checked.kind === "failure")
      return { kind: "failure", failure: checked.failure, engine: this.name, usage };
    // what the effects decided is grounded; what the model wrote around it is its guess
    const decided = request.effects.status === "applied" ? request.effects.output : {};
    const guessed = Object.keys(checked.result).filter((key) => !(key in decided) && !(key in request.args));
    return {
      kind: "success",
      result: checked.result,
      patch: checked.patch,
      engine: this.name,
      usage,
      guessed,
    };
  }

  /** The judge reviews the accepted answer; judged wrong, the model answers once more with the judge's notes. */
  private async audited(
    request: SimulationRequest,
    answer: ModelAnswer,
    raw: string,
    outcome: SimulationOutcome,
    ask: (followUp: ChatTurn[]) => Promise<JsonAttempt<ModelAnswer>>,
  ): Promise<SimulationOutcome> {
    const judged = await auditAnswer(this.client, request, answer);
    let usage = addUsage(outcome.usage, judged.usage);
    if (judged.verdict?.verdict !== "wrong") return { ...outcome, usage };
    const again = await ask([
      { role: "assistant", content: raw },
      { role: "user", content: regenerateRequest(judged.verdict.problems) },
    ]);
    usage = addUsage(usage, again.usage);
    const checked = again.ok ? checkAnswer(again.value, request) : undefined;
    // a regeneration that is itself unusable leaves the first accepted answer standing
    if (!checked?.ok) return { ...outcome, usage };
    return this.outcomeOf(checked, usage ?? outcome.usage ?? again.usage, request);
  }

  private fallBack(
    request: SimulationRequest,
    problems: string[],
    usage: Usage,
    when = "",
    what = "was unusable",
  ): SimulationOutcome {
    const reason = `the model's answer ${what}${when ? ` ${when}` : ""}: ${problems.join("; ")}`;
    return { ...this.fallback.respondNow(request), fallback: truncate(reason, 500), usage };
  }
}

function failureText(attempt: JsonAttempt<ModelAnswer>): string {
  return attempt.ok ? "" : attempt.failure.message;
}

/** The session seed as the integer endpoints take for sampling. */
function samplingSeed(seed: string): number {
  return Number.parseInt(hashOf("sampling", seed).slice(0, 8), 16);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
