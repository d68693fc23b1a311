import type { z } from "zod";
import { addUsage, type ChatTurn, type LlmClient, zeroUsage } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import { ANSWER_SCHEMAS, type StageName } from "./answers.js";
import { problemsUser } from "./prompts.js";

export interface AskRequest<T> {
  stage: StageName;
  system: string;
  user: string;
  shape: z.ZodType<T>;
  /** Checks beyond the shape; the problems found are shown to the model on the next attempt. */
  check?: (value: T) => Promise<string[]>;
  attempts: number;
}

export type AskResult<T> =
  | { ok: true; value: T; usage: Usage; attempts: number }
  /** `value` is the last answer that had the right shape, if any, with its remaining problems. */
  | { ok: false; value?: T; problems: string[]; usage: Usage; attempts: number };

/**
 * One stage's question, asked again (with the earlier answer and what was wrong with it)
 * until the answer has the right shape and passes the check, at most `attempts` times.
 */
export async function askUntilValid<T>(client: LlmClient, request: AskRequest<T>): Promise<AskResult<T>> {
  let usage = zeroUsage();
  const followUp: ChatTurn[] = [];
  let last: { value?: T; problems: string[] } = { problems: [] };
  for (let attempt = 1; attempt <= request.attempts; attempt++) {
    const answer = await client.tryJson<T>({
      role: "simulate",
      system: request.system,
      user: request.user,
      schema: ANSWER_SCHEMAS[request.stage],
      schemaName: request.stage,
      parse: (value) => request.shape.parse(value),
      followUp,
      cacheable: false,
    });
    usage = addUsage(usage, answer.usage) ?? usage;
    if (!answer.ok) {
      // an endpoint that fails outright will not do better when told about it
      if (
        answer.failure.kind !== "invalid-json" &&
        answer.failure.kind !== "schema" &&
        answer.failure.kind !== "parse"
      )
        return { ok: false, problems: [answer.failure.message], usage, attempts: attempt };
      last = { problems: [answer.failure.message] };
      followUp.push(
        { role: "assistant", content: answer.raw ?? "" },
        { role: "user", content: problemsUser(last.problems) },
      );
      continue;
    }
    const problems = request.check ? await request.check(answer.value) : [];
    if (problems.length === 0) return { ok: true, value: answer.value, usage, attempts: attempt };
    last = { value: answer.value, problems };
    followUp.push(
      { role: "assistant", content: answer.raw },
      { role: "user", content: problemsUser(problems) },
    );
  }
  return { ok: false, ...last, usage, attempts: request.attempts };
}
