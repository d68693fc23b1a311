import { performance } from "node:perf_hooks";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/server";
import type { CallOutcome, Engine, ExternalAnswer } from "../engine/index.js";
import { type ToolExtension, toCallToolResult } from "../server/index.js";
import type { State } from "../state/index.js";
import type { UpstreamBinding } from "./bindings.js";
import type { Hybrid } from "./hybrid.js";
import {
  answerFromOverlay,
  describeTouch,
  isRecord,
  mergeIntoResult,
  overlayOf,
  overlayPatch,
  realReadRecords,
  unreflectedChanges,
} from "./overlay.js";

/**
 * Sees every call first. Passed-through tools go to the real server (unless the session
 * changed what the call is about, then the overlay or the simulator answers); simulated
 * upstream tools and catalog tools are left to the engine.
 */
export class HybridExtension implements ToolExtension {
  readonly name = "hybrid";
  private readonly hybrid: Hybrid;
  private readonly engine: Engine;

  constructor(hybrid: Hybrid, engine: Engine) {
    this.hybrid = hybrid;
    this.engine = engine;
  }

  /** Upstream tools are part of the engine's catalog, which lists them. */
  tools(_sessionId: string): McpTool[] {
    return [];
  }

  async call(
    sessionId: string,
    name: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<CallToolResult | undefined> {
    const binding = this.hybrid.binding(name);
    if (!binding || !(await this.engine.tools(sessionId)).some((t) => t.name === name)) return undefined;
    if (binding.decision.route !== "pass" || !isRecord(args ?? {}))
      return this.simulate(sessionId, name, args, signal);
    return this.passThrough(sessionId, binding, (args ?? {}) as Record<string, unknown>, signal);
  }

  private async simulate(sessionId: string, name: string, args: unknown, signal?: AbortSignal) {
    const result = toCallToolResult(await this.engine.call(sessionId, name, args, signal));
    const shaped = isRecord(result.structuredContent) ? structuredResult(result.structuredContent) : result;
    return {
      ...result,
      content: shaped.content,
      _meta: { ...(result._meta ?? {}), "toolsim/route": "simulate" },
    };
  }

  private async passThrough(
    sessionId: string,
    binding: UpstreamBinding,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    const overlay = overlayOf(await this.document(sessionId), binding.upstream);
    const answer = answerFromOverlay(
      { original: binding.original, outputSchema: binding.tool.outputSchema },
      args,
      overlay,
    );
    if (answer?.kind === "simulate") return this.simulate(sessionId, binding.exposed, args, signal);
    if (answer?.kind === "record") {
      const outcome = await this.record(sessionId, binding, args, {
        status: "ok",
        result: answer.result,
        engine: "overlay",
      });
      return withMeta(structuredResult(answer.result), outcome, "overlay");
    }
    if (answer?.kind === "missing") {
      const failure = { code: "NOT_FOUND", status: 404, message: answer.message };
      const outcome = await this.record(sessionId, binding, args, {
        status: "error",
        failure,
        engine: "overlay",
      });
      return withMeta(
        { content: [{ type: "text", text: answer.message }], isError: true },
        outcome,
        "overlay",
      );
    }

    const connection = this.hybrid.connection(binding.upstream);
    const callArgs = answer?.kind === "alias" ? answer.args : args;
    const started = performance.now();
    const real = connection
      ? await connection.call(binding.original, callArgs, signal)
      : ({ ok: false, unavailable: `no upstream named "${binding.upstream}"` } as const);
    const latencyMs = performance.now() - started;
    const engine = `upstream:${binding.upstream}`;
    if (!real.ok) {
      const failure = { code: "UPSTREAM_UNAVAILABLE", status: 503, message: real.unavailable };
      const outcome = await this.record(sessionId, binding, args, {
        status: "error",
        failure,
        engine,
        latencyMs,
      });
      return withMeta(
        { content: [{ type: "text", text: real.unavailable }], isError: true },
        outcome,
        "pass",
      );
    }
    let result = real.result;
    if (result.isError) {
      const message = textOf(result) || "the upstream answered with an error";
      const failure = { code: "UPSTREAM_ERROR", status: 400, message };
      const outcome = await this.record(sessionId, binding, args, {
        status: "error",
        failure,
        engine,
        latencyMs,
      });
      return withMeta(result, outcome, "pass");
    }
    const structured = isRecord(result.structuredContent) ? result.structuredContent : undefined;
    let applied = new Set<string>();
    if (structured && answer?.kind !== "alias") {
      const overlaid = mergeIntoResult(structured, overlay, args);
      applied = overlaid.applied;
      if (applied.size > 0) result = replaceStructured(result, structured, overlaid.result);
    }
    const unreflected = unreflectedChanges(overlay, args, applied);
    if (unreflected.length > 0) result = withNote(result, unreflected.map(describeTouch));
    const fresh = await this.document(sessionId);
    const records =
      answer?.kind === "alias" || !structured
        ? []
        : realReadRecords(binding.original, args, structured, overlayOf(fresh, binding.upstream));
    const outcome = await this.record(sessionId, binding, args, {
      status: "ok",
      result: isRecord(result.structuredContent) ? result.structuredContent : { content: result.content },
      patch: overlayPatch(fresh, binding.upstream, records),
      engine: answer?.kind === "alias" ? `${engine}+overlay` : engine,
      latencyMs,
    });
    return withMeta(result, outcome, answer?.kind === "alias" ? "overlay" : "pass");
  }

  private async document(sessionId: string): Promise<State> {
    return (await this.engine.state(sessionId)).state;
  }

  private record(
    sessionId: string,
    binding: UpstreamBinding,
    args: Record<string, unknown>,
    answer: ExternalAnswer,
  ): Promise<CallOutcome> {
    return this.engine.recordExternal(sessionId, binding.tool, args, answer);
  }
}

/** A result built from the overlay, shaped like the real server's: one text field is the text itself. */
function structuredResult(result: Record<string, unknown>): CallToolResult {
  const values = Object.values(result);
  const text =
    values.length === 1 && typeof values[0] === "string" ? values[0] : JSON.stringify(result, null, 2);
  return { content: [{ type: "text", text }], structuredContent: result };
}

/** Swaps merged structured content in, and the text with it when the text was that same JSON. */
function replaceStructured(
  result: CallToolResult,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): CallToolResult {
  const content = result.content.map((block) => {
    if (block.type !== "text") return block;
    try {
      if (JSON.stringify(JSON.parse(block.text)) !== JSON.stringify(before)) return block;
    } catch {
      return block;
    }
    const indent = /^\{\n(\s+)/.exec(block.text)?.[1]?.length ?? 0;
    return { ...block, text: JSON.stringify(after, null, indent || undefined) };
  });
  return { ...result, content, structuredContent: after };
}

function withNote(result: CallToolResult, changes: string[]): CallToolResult {
  const shown = changes.slice(0, 20);
  const more = changes.length > shown.length ? ` and ${changes.length - shown.length} more` : "";
  const text = `[toolsim] This answer comes from the real server. This session changed these in simulation, and the answer does not show it: ${shown.join("; ")}${more}.`;
  return { ...result, content: [...result.content, { type: "text", text }] };
}

function withMeta(result: CallToolResult, outcome: CallOutcome, route: "pass" | "overlay"): CallToolResult {
  return {
    ...result,
    _meta: {
      ...(result._meta ?? {}),
      "toolsim/call": {
        session: outcome.sessionId,
        seq: outcome.seq,
        engine: outcome.engine,
        stateVersion: outcome.versionAfter,
      },
      "toolsim/route": route,
    },
  };
}

function textOf(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}
