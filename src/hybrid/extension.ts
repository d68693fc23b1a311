import { performance } from "node:perf_hooks";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/server";
import { compileProblem } from "../catalog/index.js";
import { type CallOutcome, type Engine, type ExternalAnswer, validateArguments } from "../engine/index.js";
import { isPlainObject } from "../patch/index.js";
import { type CallContext, type ToolExtension, toCallToolResult } from "../server/index.js";
import type { State } from "../state/index.js";
import type { UpstreamBinding } from "./bindings.js";
import type { UpstreamCallOptions } from "./connection.js";
import { answerFileRead } from "./file-reads.js";
import type { Hybrid } from "./hybrid.js";
import {
  answerFromOverlay,
  describeTouch,
  mergeIntoResult,
  type Overlay,
  overlayOf,
  overlayPatch,
  realReadRecords,
  unreflectedChanges,
} from "./overlay.js";
import { type Reality, textOf } from "./reality.js";
import { filteredRead, mergeWhole, touchesLists } from "./records.js";

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
    context: CallContext,
  ): Promise<CallToolResult | undefined> {
    const binding = this.hybrid.binding(name);
    if (!binding || !(await this.engine.tools(sessionId)).some((t) => t.name === name)) return undefined;
    if (binding.decision.route !== "pass") return this.simulate(sessionId, name, args, context, "simulate");
    // toolsim checks a passed-through call first: a rejected one gets its findings and never reaches the server
    const checked = checkedArguments(binding, args);
    if (!checked) return this.simulate(sessionId, name, args, context, "rejected");
    return this.passThrough(sessionId, binding, checked, context);
  }

  private async simulate(
    sessionId: string,
    name: string,
    args: unknown,
    context: CallContext,
    route: "simulate" | "rejected",
  ) {
    const result = toCallToolResult(await this.engine.call(sessionId, name, args, context.signal));
    const shaped = isPlainObject(result.structuredContent)
      ? structuredResult(result.structuredContent)
      : result;
    return {
      ...result,
      content: shaped.content,
      _meta: { ...(result._meta ?? {}), "toolsim/route": route },
    };
  }

  private async passThrough(
    sessionId: string,
    binding: UpstreamBinding,
    args: Record<string, unknown>,
    context: CallContext,
  ): Promise<CallToolResult> {
    const overlay = overlayOf(await this.document(sessionId), binding.upstream);
    const reality = this.hybrid.reality(binding.upstream);
    // a read of the session's file system: answered in the real tool's shape from the view
    const files = await answerFileRead({ binding, args, overlay, reality, formats: this.hybrid.formats });
    if (files !== "untouched" && files !== undefined) return this.answered(sessionId, binding, args, files);
    const answer = answerFromOverlay(
      { original: binding.original, outputSchema: binding.tool.outputSchema },
      args,
      overlay,
    );
    if (answer?.kind === "simulate")
      return this.simulate(sessionId, binding.exposed, args, context, "simulate");
    if (answer?.kind === "record")
      return this.answered(sessionId, binding, args, structuredResult(answer.result));
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
    const relayed = relay(context, binding.upstream);
    const real = connection
      ? await connection.call(binding.original, callArgs, relayed.options)
      : ({ ok: false, unavailable: `no upstream named "${binding.upstream}"` } as const);
    await relayed.settled();
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
    const structured = isPlainObject(result.structuredContent) ? result.structuredContent : undefined;
    const lists = touchesLists(binding.tool.outputSchema, overlay);
    let applied = new Set<string>();
    let overlaid = answer?.kind === "alias";
    if (structured && answer?.kind !== "alias" && lists) {
      const store = await this.storeRead(args, structured, overlay, reality);
      if (store) {
        result = replaceStructured(result, structured, store);
        overlaid = true;
      } else {
        const merged = mergeIntoResult(structured, overlay, args);
        applied = merged.applied;
        if (applied.size > 0) result = replaceStructured(result, structured, merged.result);
      }
    }
    // what the answer cannot show: file-system changes it could not speak for, a store read not laid over, a search
    if (!overlaid && (files === undefined || lists || searches(args))) {
      const unreflected = unreflectedChanges(overlay, args, applied);
      if (unreflected.length > 0) result = withNote(result, unreflected.map(describeTouch));
    }
    const fresh = await this.document(sessionId);
    const records =
      answer?.kind === "alias" || !structured
        ? []
        : realReadRecords(binding.original, args, structured, overlayOf(fresh, binding.upstream));
    const outcome = await this.record(sessionId, binding, args, {
      status: "ok",
      result: isPlainObject(result.structuredContent)
        ? result.structuredContent
        : { content: result.content },
      patch: overlayPatch(fresh, binding.upstream, records),
      engine: overlaid ? `${engine}+overlay` : engine,
      latencyMs,
    });
    return withMeta(result, outcome, overlaid ? "overlay" : "pass");
  }

  /**
   * A read of a store of records the session changed: the whole store with the session's
   * changes, or the part of it the read asks for, filtered as the real read filters.
   */
  private async storeRead(
    args: Record<string, unknown>,
    real: Record<string, unknown>,
    overlay: Overlay,
    reality: Reality,
  ): Promise<Record<string, unknown> | undefined> {
    const wholeAnswer = Object.keys(args).length === 0 ? real : await reality.whole();
    if (!wholeAnswer) return undefined;
    const merged = mergeWhole(wholeAnswer, overlay);
    if (wholeAnswer === real) return merged;
    return filteredRead(args, real, wholeAnswer, merged);
  }

  /** An answer toolsim made from the overlay (and the real server's own words), recorded as such. */
  private async answered(
    sessionId: string,
    binding: UpstreamBinding,
    args: Record<string, unknown>,
    result: CallToolResult,
  ): Promise<CallToolResult> {
    const outcome = await this.record(
      sessionId,
      binding,
      args,
      result.isError
        ? {
            status: "error",
            failure: { code: "NOT_FOUND", status: 404, message: textOf(result) || "not found" },
            engine: "overlay",
          }
        : {
            status: "ok",
            result: isPlainObject(result.structuredContent)
              ? result.structuredContent
              : { content: result.content },
            engine: "overlay",
          },
    );
    return withMeta(result, outcome, "overlay");
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

/**
 * Whether toolsim's own validation rejects a call's arguments (the engine then answers with
 * the findings, as for any tool). A schema toolsim cannot compile is left to the server.
 */
/**
 * The arguments to send upstream, as validation leaves them (a null for an optional
 * argument means it was not given, and is not sent); undefined when toolsim rejects them.
 */
function checkedArguments(binding: UpstreamBinding, args: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(args ?? {})) return undefined;
  if (compileProblem(binding.tool.inputSchema)) return (args ?? {}) as Record<string, unknown>;
  const validated = validateArguments(binding.tool, args);
  return validated.ok ? validated.args : undefined;
}

/**
 * The upstream's progress and log messages during a call, handed on to the client that made
 * it. `settled` waits for what was handed on, so nothing arrives after the call's answer.
 */
function relay(
  context: CallContext,
  upstream: string,
): { options: UpstreamCallOptions; settled: () => Promise<void> } {
  const pending: Promise<void>[] = [];
  const send = (sent: Promise<void>) => {
    pending.push(sent.catch(() => {}));
  };
  const { progress, log } = context;
  const options: UpstreamCallOptions = {
    signal: context.signal,
    ...(progress
      ? {
          onProgress: ({ progress: done, total, message }) =>
            send(
              progress.send({
                progress: done,
                ...(total !== undefined ? { total } : {}),
                ...(message !== undefined ? { message } : {}),
              }),
            ),
        }
      : {}),
    ...(log ? { onLog: ({ level, data, logger }) => send(log(level, data, logger ?? upstream)) } : {}),
  };
  return { options, settled: async () => void (await Promise.all(pending)) };
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

/** A read that looks things up by text (a query, a pattern) rather than by what it names. */
function searches(args: Record<string, unknown>): boolean {
  return Object.entries(args).some(
    ([name, value]) => typeof value === "string" && /query|search|pattern|text|^q$/i.test(name),
  );
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
