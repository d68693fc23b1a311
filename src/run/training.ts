import type { Engine } from "../engine/index.js";
import type { Store } from "../store/index.js";
import { exportOpenAi, type JudgeContext, type OpenAiExample } from "../tasks/index.js";
import { agentInstructions } from "./model-agent.js";
import { storedResults } from "./runner.js";
import type { StoredPlan } from "./stored.js";

/**
 * Every finished attempt of a run as an OpenAI chat training example: the conversation as
 * it went (each user turn, the judge's feedback, the agent's answers, with the calls
 * between them), a reward per call, and the attempt's reward (1 passed, 0 not) with its
 * run, task and attempt in the metadata. Attempts are in the run's task order.
 */
export async function exportRun(
  context: JudgeContext & { engine: Engine },
  runId: string,
  plan: StoredPlan,
): Promise<{ examples: OpenAiExample[]; skipped: Array<{ session: string; why: string }> }> {
  const store: Store = context.store;
  const results = await storedResults(store, runId, plan.taskIds, plan.k);
  const agent = plan.settings.agent;
  // what the built-in agent was told; a command's own instructions are not known here
  const system =
    agent.kind === "model"
      ? (agent.systemPrompt ?? agentInstructions(plan.settings.userModel !== undefined))
      : undefined;
  const examples: OpenAiExample[] = [];
  const skipped: Array<{ session: string; why: string }> = [];
  for (const result of results) {
    const session = await store.session(result.sessionId, "");
    if (!session) {
      skipped.push({ session: result.session, why: "the session is no longer in the store" });
      continue;
    }
    const exported = await exportOpenAi(context, session, await context.engine.tools(session.id), {
      conversation: result.conversation,
      ...(system ? { system } : {}),
      metadata: {
        run: runId,
        attempt: result.attempt,
        outcome: result.outcome,
        firstTry: result.firstTry,
        tries: result.tries.length,
        reward: result.reward,
      },
    });
    context.engine.release(session.id);
    if (exported.ok) examples.push(exported.example);
    else skipped.push({ session: result.session, why: exported.error });
  }
  return { examples, skipped };
}
