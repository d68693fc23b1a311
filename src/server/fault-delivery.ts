import { performance } from "node:perf_hooks";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { CallOutcome } from "../engine/index.js";
import { toCallToolResult } from "./call-result.js";
import type { CallContext } from "./hub.js";

/** How often a client that asked for progress hears from a call held by an injected wait. */
const PROGRESS_EVERY_MS = 1_000;

/**
 * The transport edge of faults (docs/faults.md): the wait of a latency fault and the held
 * answer of a timeout happen here, after the call was recorded and its session released,
 * so the session's next calls and other sessions go on meanwhile. A latency fault tells a
 * client that asked for progress that the call is still being worked on; a timeout adds
 * nothing (the hub's own still-working ticks go on, as for any long call). Either wait ends
 * early when the client cancels: the SDK then drops the answer, as a client past its
 * deadline expects. A wait counts from when the call reached the engine (`arrived`): the
 * time toolsim took, queueing behind the session's other calls included, is part of the
 * latency drawn, so the answer leaves when the profile says, not that long after toolsim's
 * own work.
 */
export async function deliver(
  outcome: CallOutcome,
  context: CallContext,
  arrived = performance.now(),
): Promise<CallToolResult> {
  const fault = outcome.fault;
  const drawn =
    fault?.kind === "latency" ? fault.delayMs : fault?.kind === "timeout" ? fault.holdMs : undefined;
  const wait = drawn === undefined ? 0 : drawn - (performance.now() - arrived);
  if (wait > 0) {
    const progress = fault?.kind === "latency" ? context.progress : undefined;
    await held(
      wait,
      context.signal,
      progress ? (seconds) => progress.tick(`${outcome.tool}: still working (${seconds} s)`) : undefined,
    );
  }
  return toCallToolResult(outcome);
}

/** Waits `ms` (or until the signal aborts), reporting every second when asked. */
function held(
  ms: number,
  signal: AbortSignal | undefined,
  report?: (seconds: number) => Promise<void>,
): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const started = Date.now();
    // a client gone mid-call gets its progress dropped like its answer
    const tell = () => void report?.(Math.round((Date.now() - started) / 1000)).catch(() => {});
    tell();
    const ticker = report ? setInterval(tell, PROGRESS_EVERY_MS) : undefined;
    const done = () => {
      clearTimeout(timer);
      clearInterval(ticker);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
