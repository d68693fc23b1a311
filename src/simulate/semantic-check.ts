import type { StateDocument, Tool } from "../catalog/index.js";
import type { LlmClient } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import { SEMANTIC_CHECK_SCHEMA, SEMANTIC_CHECK_SYSTEM, semanticCheckUser } from "./prompts/semantic-check.js";
import type { ArgumentChecker, ArgumentConcern } from "./types.js";

/**
 * The optional semantic argument check: a model reads the parameter descriptions and the
 * arguments and names what the schema could not catch. The engine turns each concern into
 * an IAV finding. A check that cannot run lets the call through.
 */
export class LlmArgumentChecker implements ArgumentChecker {
  readonly name = "semantic-check";

  constructor(
    private readonly client: LlmClient,
    private readonly timeoutMs = 30_000,
  ) {}

  async check(
    tool: Tool,
    args: Record<string, unknown>,
    _state: StateDocument,
    signal?: AbortSignal,
  ): Promise<{ concerns: ArgumentConcern[]; usage?: Usage }> {
    if (Object.keys(args).length === 0) return { concerns: [] };
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const attempt = await this.client.tryJson<{ concerns: Array<{ argument: string; problem: string }> }>({
      role: "validate",
      system: SEMANTIC_CHECK_SYSTEM,
      user: semanticCheckUser(tool, args),
      schema: SEMANTIC_CHECK_SCHEMA,
      schemaName: "argument_concerns",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!attempt.ok) return { concerns: [], usage: attempt.usage };
    // a concern about a parameter the call does not have is the model's confusion, not the caller's fault
    const concerns = attempt.value.concerns
      .filter((c) => Object.hasOwn(args, c.argument.split(/[.[]/)[0] ?? ""))
      .map((c) => ({ argument: c.argument, message: c.problem }));
    return { concerns, usage: attempt.usage };
  }
}
