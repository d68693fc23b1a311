import { type Catalog, MAX_FAULT_WAIT_MS, type Tool } from "../catalog/index.js";
import {
  accessOf,
  continuationOf,
  continueList,
  type Draw,
  drawsFor,
  drift,
  type FaultPlan,
  type FaultRecord,
  faultOf,
  inject,
  latencyFor,
  transientError,
  truncate,
} from "../faults/index.js";
import { canonicalJson } from "../patch/index.js";
import type { Store } from "../store/index.js";
import type { Draft } from "./engine.js";
import type { LiveSession } from "./sessions.js";

/** What the seam reads besides the call: the plan of profiles, the catalog, the store (for earlier states). */
export interface FaultSeam {
  plan: FaultPlan;
  catalog: Catalog;
  store: Store;
}

type Answer = (session: LiveSession) => Promise<Draft>;

/**
 * Where a fault profile meets a call: after the pipeline answered it (steps 1–3 and 5–7)
 * and before step 9 commits it (step 8). A session without a profile is answered as if the seam
 * were not there. A rejected or cancelled call gets no fault: the agent must fix its call
 * first. Otherwise the rules' draws for (seed, session, seq, tool) decide, and the first
 * fault that applies reshapes the draft: an error that drops the change, a lost answer that
 * keeps it, a list cut short, an answer from an earlier state, drift, an injection, or a
 * wait the hub enacts. The fault goes into the call's record either way.
 */
export async function answerWithFaults(
  seam: FaultSeam,
  session: LiveSession,
  answer: Answer,
): Promise<Draft> {
  const profile = seam.plan.profileFor(session.record, seam.catalog);
  if (!profile) return answer(session);
  const draft = await answer(session);
  const tool = draft.definition;
  if (!tool || (draft.status !== "ok" && draft.status !== "error")) return draft;
  // the seq step 9 will give the call (another process's calls in between only shift it)
  const seq = session.lastSeq + 1;
  const continued = continuationOf(tool, draft.args);
  if (continued) return continuation(seam, session, draft, tool, continued);
  const facts = {
    name: tool.name,
    toolset: seam.catalog.tool(tool.name)?.toolset.id,
    access: accessOf(tool),
  };
  for (const draw of drawsFor(profile, { sessionSeed: session.record.seed, seq, tool: facts })) {
    const faulted = await applied(draw, { seam, session, answer, draft, tool, seq });
    if (faulted) return faulted;
  }
  return draft;
}

interface Call {
  seam: FaultSeam;
  session: LiveSession;
  answer: Answer;
  draft: Draft;
  tool: Tool;
  seq: number;
}

/** The draft with a draw's fault, or undefined when the fault does not apply to this call. */
async function applied(draw: Draw, call: Call): Promise<Draft | undefined> {
  const { draft, tool } = call;
  const fault = draw.rule.fault;
  const base = { kind: fault.kind, rule: draw.rule.name, seed: draw.rule.seed };
  const ok = draft.status === "ok";
  switch (fault.kind) {
    case "latency":
      return with_(draft, {
        ...base,
        delayMs: Math.round(latencyFor(fault, draw.spread, MAX_FAULT_WAIT_MS)),
      });
    case "rate-limited": {
      const error = transientError(fault.kind, tool, fault.retryAfterSeconds);
      return failed(draft, { ...base, error, retryAfterSeconds: fault.retryAfterSeconds });
    }
    case "unavailable":
    case "internal-error":
      return failed(draft, { ...base, error: transientError(fault.kind, tool) });
    case "timeout":
      return failed(draft, {
        ...base,
        error: transientError("timeout", tool),
        holdMs: fault.holdMs,
      });
    case "lost-answer":
      // only a write that changed the state has an answer worth losing
      if (!ok || !draft.change || accessOf(tool) !== "write") return undefined;
      return with_(draft, { ...base, error: transientError("unavailable", tool) });
    case "truncated": {
      const cut = ok ? truncate(draft.result, tool, fault, call.seq) : undefined;
      if (!cut) return undefined;
      const details = { kept: cut.kept, total: cut.total, ...(cut.cursor ? { cursor: cut.cursor } : {}) };
      return { ...with_(draft, { ...base, ...details }), result: cut.result };
    }
    case "stale-read":
      return staleRead(call, base, fault.versionsBack);
    case "drift": {
      const drifted = ok ? drift(draft.result, tool, fault, draw.seeds) : undefined;
      if (!drifted) return undefined;
      return {
        ...with_(draft, { ...base, field: drifted.field, change: drifted.change }),
        result: drifted.result,
      };
    }
    case "injection": {
      const injected = ok ? inject(draft.result, tool, fault, draw.seeds) : undefined;
      if (!injected) return undefined;
      const details = { field: injected.field, pattern: injected.pattern, canary: injected.canary };
      return { ...with_(draft, { ...base, ...details }), result: injected.result };
    }
  }
}

function with_(draft: Draft, fault: FaultRecord): Draft {
  return { ...draft, fault };
}

/** A transient failure: the client gets the error, and nothing the call would have changed is applied. */
function failed(draft: Draft, fault: FaultRecord & { error: NonNullable<FaultRecord["error"]> }): Draft {
  return { ...draft, status: "error", result: undefined, failure: fault.error, change: undefined, fault };
}

/**
 * A read answered on an earlier version of the session's state: the version the head's
 * last `versionsBack` changes started from. Applies only where the answer differs from the
 * fresh one (a lagging replica that holds the same data is no fault).
 */
async function staleRead(
  call: Call,
  base: Omit<FaultRecord, "version">,
  versionsBack: number,
): Promise<Draft | undefined> {
  const { seam, session, draft } = call;
  if (accessOf(call.tool) !== "read") return undefined;
  const version = await earlierVersion(seam.store, session, versionsBack);
  if (version === undefined) return undefined;
  const state = await seam.store.stateAt(session.record.id, version);
  const stale = await call.answer({ ...session, head: { version, state } });
  if (stale.change || stale.status === "rejected") return undefined;
  const fresh = canonicalJson([draft.status, draft.result ?? null, draft.failure ?? null]);
  if (canonicalJson([stale.status, stale.result ?? null, stale.failure ?? null]) === fresh) return undefined;
  return { ...stale, started: draft.started, fault: { ...base, version } };
}

async function earlierVersion(store: Store, session: LiveSession, back: number): Promise<number | undefined> {
  const recent = await store.recentCalls(session.record.id, 64);
  let version = session.head.version;
  for (let step = 0; step < back; step++) {
    const maker = recent.findLast((c) => c.versionAfter === version && c.versionBefore !== c.versionAfter);
    if (!maker) return step === 0 ? undefined : version;
    version = maker.versionBefore;
  }
  return version;
}

/** A call that passes a continuation toolsim handed out: the rest of the list, recorded as following the cut. */
async function continuation(
  seam: FaultSeam,
  session: LiveSession,
  draft: Draft,
  tool: Tool,
  from: { seq: number; offset: number },
): Promise<Draft> {
  if (draft.status !== "ok") return draft;
  const [cut] = await seam.store.calls(session.record.id, { afterSeq: from.seq - 1, limit: 1 });
  const origin = cut ? faultOf(cut) : undefined;
  if (origin?.kind !== "truncated") return draft;
  const fault: FaultRecord = { kind: "truncated", rule: origin.rule, seed: origin.seed, continues: from.seq };
  return { ...draft, result: continueList(draft.result, tool, from.offset), fault };
}
