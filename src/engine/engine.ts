import { performance } from "node:perf_hooks";
import {
  type Catalog,
  compileProblem,
  type StateDocument,
  type Tool,
  validatorFor,
} from "../catalog/index.js";
import { applyPatch, hashOf, type Patch } from "../patch/index.js";
import type {
  ArgumentChecker,
  EffectsResult,
  HistoryEntry,
  OfflineSimulator,
  SimulationOutcome,
  SimulationRequest,
  Simulator,
  ToolFailure,
} from "../simulate/index.js";
import type { CallRecord, SessionRecord, SessionScope, StateVersion, Store, Usage } from "../store/index.js";
import { omittedArguments, scanArguments } from "./argument-limits.js";
import { applyEffects } from "./effects.js";
import type { Finding } from "./findings.js";
import { validateArguments } from "./validate.js";

export const DEFAULT_NOW = "2026-03-02T09:00:00Z";
const CLOCK_STEP_MS = 60_000;

export interface EngineOptions {
  catalog: Catalog;
  store: Store;
  simulator: Simulator;
  /** Answers when the simulator fails, stalls past the deadline or returns something unusable. */
  offline: OfflineSimulator;
  /** Seed of new sessions unless they name their own. */
  seed?: string;
  /** How long one call may take before the offline engine answers instead (ms). */
  deadlineMs?: number;
  /** How many recent calls a simulator is shown. */
  historyLimit?: number;
  /** Optional semantic pass after schema validation; its concerns reject the call as IAV. */
  argumentChecker?: ArgumentChecker;
}

/** A call answered outside the simulator (e.g. passed through to a real server), recorded like any other. */
export interface ExternalAnswer {
  status: "ok" | "error";
  result?: Record<string, unknown>;
  failure?: ToolFailure;
  /** Changes to the session state the answer implies (e.g. an overlay of what a real read returned). */
  patch?: Patch;
  engine: string;
  latencyMs?: number;
}

export interface OpenSession {
  /** Resume the session with this name, or create it. */
  name?: string;
  seed?: string;
  taskId?: string;
  /** What a new session sees instead of the task's toolset alone (e.g. with distractors). */
  scope?: SessionScope;
}

export type CallStatus = "ok" | "error" | "rejected";

/** Everything a transport needs to answer a call. */
export interface CallOutcome {
  sessionId: string;
  seq: number;
  tool: string;
  status: CallStatus;
  /** The tool's definition, when the name resolved. */
  definition?: Tool;
  result?: Record<string, unknown>;
  failure?: ToolFailure;
  findings: Finding[];
  engine: string;
  fallback?: string;
  usage?: Usage;
  versionBefore: number;
  versionAfter: number;
  latencyMs: number;
}

interface LiveSession {
  record: SessionRecord;
  head: StateVersion;
  /** Calls of one session run one at a time, in arrival order. */
  queue: Promise<unknown>;
}

/**
 * The call pipeline: resolve → validate → note repeats → effects → simulate → check →
 * commit. Knows nothing of MCP; every outcome, good or bad, is a value.
 */
export class Engine {
  private catalogRef: Catalog;
  private readonly store: Store;
  private readonly simulator: Simulator;
  private readonly offline: OfflineSimulator;
  private readonly argumentChecker?: ArgumentChecker;
  private readonly live = new Map<string, LiveSession>();
  private readonly options: Required<Pick<EngineOptions, "seed" | "deadlineMs" | "historyLimit">>;

  constructor(options: EngineOptions) {
    this.catalogRef = options.catalog;
    this.store = options.store;
    this.simulator = options.simulator;
    this.offline = options.offline;
    this.argumentChecker = options.argumentChecker;
    this.options = {
      seed: options.seed ?? "0",
      deadlineMs: options.deadlineMs ?? 60_000,
      historyLimit: options.historyLimit ?? 8,
    };
  }

  get catalog(): Catalog {
    return this.catalogRef;
  }

  get simulatorName(): string {
    return this.simulator.name;
  }

  /** Swaps the catalog (e.g. a watched file changed); sessions keep their state. */
  replaceCatalog(catalog: Catalog): void {
    this.catalogRef = catalog;
  }

  // ── sessions ──────────────────────────────────────────────────────────────

  openSession(options: OpenSession = {}): SessionRecord {
    if (options.name) {
      const existing = this.store.session(options.name);
      if (existing) return this.attach(existing).record;
    }
    const task = options.taskId ? this.catalog.task(options.taskId) : undefined;
    if (options.taskId && !task) throw new Error(`unknown task "${options.taskId}"`);
    const record = this.store.createSession({
      name: options.name,
      seed: options.seed ?? this.options.seed,
      taskId: task?.task.id,
      scope: options.scope ?? (task ? { toolsets: [task.toolset.id] } : {}),
      state: task ? structuredClone(task.task.state) : this.catalog.sandboxState(),
      reason: task ? `start task ${task.task.id}` : "start",
    });
    return this.attach(record).record;
  }

  session(idOrName: string): SessionRecord | undefined {
    return this.store.session(idOrName);
  }

  /** Forgets the in-memory head of a session (it stays on disk and can be resumed). */
  release(sessionId: string): void {
    this.live.delete(sessionId);
  }

  state(sessionId: string): StateVersion {
    return this.liveSession(sessionId).head;
  }

  calls(sessionId: string, options?: { afterSeq?: number; limit?: number }): CallRecord[] {
    return this.store.calls(sessionId, options);
  }

  /** Replaces a session's state and scope (task start, reset), as a new version. */
  resetSession(
    sessionId: string,
    document: StateDocument,
    change: { reason: string; taskId?: string | null; scope?: SessionScope },
  ) {
    return this.exclusive(sessionId, async () => {
      const head = this.store.resetState(sessionId, document, change);
      const session = this.liveSession(sessionId);
      session.head = head;
      session.record = this.store.session(sessionId) ?? session.record;
      return head;
    });
  }

  /** Moves a session's head to an earlier (or later) version, e.g. a checkpoint. */
  moveHead(sessionId: string, version: number) {
    return this.exclusive(sessionId, async () => {
      const head = this.store.moveHead(sessionId, version);
      const session = this.liveSession(sessionId);
      session.head = head;
      session.record = this.store.session(sessionId) ?? session.record;
      return head;
    });
  }

  /** The tools a session sees: its scope (a task's toolset and distractors), or the whole catalog. */
  tools(sessionId?: string): Tool[] {
    const scope = sessionId ? this.liveSession(sessionId).record.scope : {};
    return this.toolsInScope(scope);
  }

  private toolsInScope(scope: SessionScope): Tool[] {
    if (!scope.toolsets?.length && !scope.tools?.length) return this.catalog.allTools();
    const tools: Tool[] = [];
    const seen = new Set<string>();
    for (const id of scope.toolsets ?? []) {
      for (const tool of this.catalog.toolset(id)?.tools ?? []) {
        if (!seen.has(tool.name)) tools.push(tool);
        seen.add(tool.name);
      }
    }
    for (const name of scope.tools ?? []) {
      const found = this.catalog.tool(name);
      if (found && !seen.has(name)) tools.push(found.tool);
      seen.add(name);
    }
    return tools;
  }

  private attach(record: SessionRecord): LiveSession {
    const existing = this.live.get(record.id);
    if (existing) return existing;
    const session: LiveSession = { record, head: this.store.head(record.id), queue: Promise.resolve() };
    this.live.set(record.id, session);
    return session;
  }

  private liveSession(sessionId: string): LiveSession {
    const existing = this.live.get(sessionId);
    if (existing) return existing;
    const record = this.store.session(sessionId);
    if (!record) throw new Error(`unknown session "${sessionId}"`);
    return this.attach(record);
  }

  private exclusive<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const session = this.liveSession(sessionId);
    const run = session.queue.then(work, work);
    session.queue = run.catch(() => undefined);
    return run;
  }

  // ── calls ────────────────────────────────────────────────────────────────

  /** Runs one tool call through the pipeline and records it. Never throws for bad input. */
  call(sessionId: string, name: string, rawArgs: unknown, signal?: AbortSignal): Promise<CallOutcome> {
    return this.exclusive(sessionId, async () => {
      const first = await this.attempt(sessionId, name, rawArgs, signal);
      if (first !== "stale") return first;
      // another process moved this session's head: reload it and run the call against the new state
      const session = this.liveSession(sessionId);
      session.head = this.store.head(sessionId);
      const second = await this.attempt(sessionId, name, rawArgs, signal);
      if (second === "stale") throw new Error(`session ${sessionId} is being changed by another process`);
      return second;
    });
  }

  /**
   * Records a call that something other than the simulator answered (hybrid pass-through),
   * with the state change it implies, in the same log and version history as simulated calls.
   */
  recordExternal(
    sessionId: string,
    tool: Tool,
    args: Record<string, unknown>,
    answer: ExternalAnswer,
  ): Promise<CallOutcome> {
    return this.exclusive(sessionId, async () => {
      const session = this.liveSession(sessionId);
      const head = session.head;
      const argsHash = hashOf(args);
      const findings: Finding[] = [];
      const repeatOf = this.store.repeatOf(sessionId, tool.name, argsHash, head.version);
      if (repeatOf !== undefined) findings.push(repeatNote(repeatOf));
      let change: { patch: Patch; document: unknown } | undefined;
      if (answer.patch?.length) {
        const applied = applyPatch(head.document, answer.patch);
        if (!applied.ok) throw new Error(`patch of an external answer does not apply: ${applied.error}`);
        change = { patch: answer.patch, document: applied.document };
      }
      const outcome = this.commit(
        session,
        {
          tool: tool.name,
          definition: tool,
          args,
          argsHash,
          status: answer.status,
          findings,
          result: answer.result,
          failure: answer.failure,
          engine: answer.engine,
          latencyMs: answer.latencyMs ?? 0,
        },
        change,
      );
      if (outcome === "stale") throw new Error(`session ${sessionId} is being changed by another process`);
      return outcome;
    });
  }

  private async attempt(
    sessionId: string,
    name: string,
    rawArgs: unknown,
    signal?: AbortSignal,
  ): Promise<CallOutcome | "stale"> {
    const started = performance.now();
    const session = this.liveSession(sessionId);
    // arguments past the limits are refused before hashing or storing walks them
    const limit = scanArguments(rawArgs).limit;
    if (limit) {
      const stored = omittedArguments(limit);
      return this.commitRejected(session, name, stored, hashOf(stored), [limit], undefined, started);
    }
    const head = session.head;
    const argsHash = hashOf(rawArgs ?? {});
    const findings: Finding[] = [];
    const repeatOf = this.store.repeatOf(sessionId, name, argsHash, head.version);
    if (repeatOf !== undefined) findings.push(repeatNote(repeatOf));

    // 1 resolve
    const tool = this.resolve(session, name);
    if (!tool.ok) {
      findings.unshift(tool.finding);
      return this.commitRejected(session, name, rawArgs, argsHash, findings, undefined, started);
    }
    // a schema the catalog got wrong is the catalog's fault, not the caller's: say so and change nothing
    const broken = compileProblem(tool.tool.inputSchema);
    if (broken)
      return this.commitBrokenTool(session, tool.tool, rawArgs, argsHash, findings, broken, started);
    // 2 validate
    const validated = validateArguments(tool.tool, rawArgs);
    if (!validated.ok) {
      findings.unshift(...validated.findings);
      return this.commitRejected(session, name, rawArgs, argsHash, findings, tool.tool, started);
    }
    const state = head.document as StateDocument;
    let checkUsage: Usage | undefined;
    if (this.argumentChecker) {
      const checked = await this.argumentChecker.check(tool.tool, validated.args, state, signal);
      checkUsage = checked.usage;
      if (checked.concerns.length > 0) {
        findings.unshift(
          ...checked.concerns.map(
            (c): Finding => ({ code: "IAV", severity: "error", argument: c.argument, message: c.message }),
          ),
        );
        return this.commitRejected(
          session,
          name,
          rawArgs,
          argsHash,
          findings,
          tool.tool,
          started,
          checkUsage,
        );
      }
    }
    // 4 effects, then simulate
    const now = clockOf(state);
    const { effects, state: stateAfterEffects } = applyEffects(tool.tool, validated.args, state, now);
    const request: SimulationRequest = {
      tool: tool.tool,
      args: validated.args,
      state: stateAfterEffects,
      effects,
      history: this.history(sessionId),
      seed: session.record.seed,
      now,
      signal,
    };
    const outcome = await this.simulate(request);
    // 5 check, 6 commit
    const checked = this.check(outcome, request);
    const change =
      checked.kind === "success" ? this.changeFor(stateAfterEffects, effects, checked.patch, now) : undefined;
    const final =
      change === "invalid-patch"
        ? this.offlineFallback(request, "the simulator's state patch did not apply")
        : checked;
    const finalChange =
      change === "invalid-patch" ? this.changeFor(stateAfterEffects, effects, [], now) : change;
    return this.commit(
      session,
      {
        tool: name,
        definition: tool.tool,
        args: validated.args,
        argsHash,
        status: final.kind === "success" ? "ok" : "error",
        findings,
        result: final.kind === "success" ? final.result : undefined,
        failure: final.kind === "failure" ? final.failure : undefined,
        engine: final.engine,
        fallback: final.fallback,
        usage: addUsage(checkUsage, final.usage),
        latencyMs: performance.now() - started,
      },
      finalChange === "invalid-patch" ? undefined : finalChange,
    );
  }

  private resolve(
    session: LiveSession,
    name: string,
  ): { ok: true; tool: Tool } | { ok: false; finding: Finding } {
    const { scope } = session.record;
    if (!scope.toolsets?.length && !scope.tools?.length) {
      // the whole catalog is in scope: look the name up instead of copying every tool on every call
      const found = this.catalog.tool(name);
      if (found) return { ok: true, tool: found.tool };
    }
    const visible = this.toolsInScope(scope);
    const tool = visible.find((t) => t.name === name);
    if (tool) return { ok: true, tool };
    const names = visible.map((t) => t.name);
    const suggestions = this.catalog.nearestToolNames(name, 3, names);
    const elsewhere = this.catalog.tool(name)
      ? " It exists in the catalog but is not part of this session's task."
      : "";
    const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?` : "";
    return {
      ok: false,
      finding: {
        code: "IFN",
        severity: "error",
        message: `There is no tool named "${name}".${elsewhere}${hint} Call tools/list for the available tools.`,
        suggestions,
      },
    };
  }

  private commitRejected(
    session: LiveSession,
    name: string,
    rawArgs: unknown,
    argsHash: string,
    findings: Finding[],
    definition: Tool | undefined,
    started: number,
    usage?: Usage,
  ): CallOutcome | "stale" {
    return this.commit(session, {
      tool: name,
      definition,
      args: rawArgs ?? {},
      argsHash,
      status: "rejected",
      findings,
      engine: "validator",
      usage,
      latencyMs: performance.now() - started,
    });
  }

  private commitBrokenTool(
    session: LiveSession,
    tool: Tool,
    rawArgs: unknown,
    argsHash: string,
    findings: Finding[],
    problem: string,
    started: number,
  ): CallOutcome | "stale" {
    return this.commit(session, {
      tool: tool.name,
      definition: tool,
      args: rawArgs ?? {},
      argsHash,
      status: "error",
      findings,
      failure: {
        code: "TOOL_SCHEMA_INVALID",
        status: 500,
        message: `toolsim cannot check calls to ${tool.name}: its inputSchema is not a usable JSON Schema (${problem}). The catalog needs fixing (toolsim lint); this is not a problem with the call.`,
      },
      engine: "validator",
      latencyMs: performance.now() - started,
    });
  }

  /** Records a call (and its change of state) and moves the in-memory head: the pipeline's last step. */
  private commit(
    session: LiveSession,
    entry: Omit<CallOutcome, "sessionId" | "seq" | "versionBefore" | "versionAfter"> & {
      args: unknown;
      argsHash: string;
    },
    change?: { patch: Patch; document: unknown },
  ): CallOutcome | "stale" {
    const head = session.head;
    const record = this.store.recordCall(
      {
        sessionId: session.record.id,
        tool: entry.tool,
        arguments: entry.args,
        argsHash: entry.argsHash,
        status: entry.status,
        findings: entry.findings.map(storedFinding),
        result: entry.result,
        error: entry.failure,
        engine: entry.engine,
        fallback: entry.fallback,
        usage: entry.usage,
        latencyMs: entry.latencyMs,
      },
      head.version,
      change,
    );
    if (record === "stale") return "stale";
    if (change && record.versionAfter !== head.version) {
      session.head = { version: record.versionAfter, document: change.document };
    }
    const { args: _args, argsHash: _hash, ...outcome } = entry;
    return {
      ...outcome,
      sessionId: session.record.id,
      seq: record.seq,
      versionBefore: record.versionBefore,
      versionAfter: record.versionAfter,
    };
  }

  private history(sessionId: string): HistoryEntry[] {
    const wanted = this.simulator.historyWanted ?? 0;
    if (wanted <= 0) return [];
    return this.store.recentCalls(sessionId, Math.min(wanted, this.options.historyLimit)).map((call) => ({
      seq: call.seq,
      tool: call.tool,
      arguments: call.arguments,
      status: call.status,
      result: call.result,
      error: call.error,
    }));
  }

  /** Asks the simulator, within the deadline; anything it cannot deliver, the offline engine answers. */
  private async simulate(request: SimulationRequest): Promise<SimulationOutcome> {
    if (this.simulator === this.offline) return this.offline.respondNow(request);
    const deadline = AbortSignal.timeout(this.options.deadlineMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<"deadline">((resolve) => {
      timer = setTimeout(() => resolve("deadline"), this.options.deadlineMs);
    });
    try {
      const outcome = await Promise.race([this.simulator.respond({ ...request, signal }), expired]);
      if (outcome === "deadline")
        return this.offlineFallback(request, `no answer within ${this.options.deadlineMs} ms`);
      return outcome;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return this.offlineFallback(request, `the ${this.simulator.name} simulator failed: ${reason}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A successful result must validate against the tool's outputSchema, or the offline engine answers. */
  private check(outcome: SimulationOutcome, request: SimulationRequest): SimulationOutcome {
    if (outcome.kind !== "success" || !request.tool.outputSchema) return outcome;
    // the offline engine builds its results to the schema already, and is the last resort anyway
    if (outcome.engine === this.offline.name) return outcome;
    if (compileProblem(request.tool.outputSchema)) return outcome;
    const validate = validatorFor(request.tool.outputSchema);
    if (validate(outcome.result)) return outcome;
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ");
    return {
      ...this.offlineFallback(request, `result did not match the output schema: ${problems}`),
      usage: outcome.usage,
    };
  }

  private offlineFallback(request: SimulationRequest, reason: string): SimulationOutcome {
    return { ...this.offline.respondNow(request), fallback: reason };
  }

  /** The effects' patch, the simulator's patch and the clock tick, as one change; undefined when nothing changes. */
  private changeFor(
    afterEffects: StateDocument,
    effects: EffectsResult,
    simulatorPatch: Patch,
    now: string,
  ): { patch: Patch; document: unknown } | "invalid-patch" | undefined {
    const effectsPatch = effects.status === "applied" ? effects.patch : [];
    if (effectsPatch.length === 0 && simulatorPatch.length === 0) return undefined;
    // one application for the simulator's changes and the tick, so a wide state is copied once
    const tick = clockTick(afterEffects, now);
    const applied = applyPatch(afterEffects, [...simulatorPatch, ...tick]);
    if (!applied.ok)
      return applied.index < simulatorPatch.length ? "invalid-patch" : clockFailure(applied.error);
    return { patch: [...effectsPatch, ...simulatorPatch, ...tick], document: applied.document };
  }
}

function clockFailure(error: string): never {
  throw new Error(`clock tick failed: ${error}`);
}

/** The simulated clock of a state (runtime.now), or the default start of time. */
export function clockOf(state: StateDocument): string {
  const runtime = state.runtime;
  if (runtime && typeof runtime === "object" && !Array.isArray(runtime)) {
    const now = (runtime as Record<string, unknown>).now;
    if (typeof now === "string" && !Number.isNaN(Date.parse(now))) return now;
  }
  return DEFAULT_NOW;
}

/** Moves the clock one step: every change of state takes a little simulated time. */
function clockTick(state: StateDocument, now: string): Patch {
  const next = new Date(Date.parse(now) + CLOCK_STEP_MS).toISOString().replace(".000Z", "Z");
  const runtime = state.runtime;
  if (runtime && typeof runtime === "object" && !Array.isArray(runtime)) {
    const op = "now" in runtime ? "replace" : "add";
    return [{ op, path: "/runtime/now", value: next }];
  }
  return [{ op: "add", path: "/runtime", value: { now: next } }];
}

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    requests: a.requests + b.requests,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    latencyMs: a.latencyMs + b.latencyMs,
    cached: (a.cached ?? 0) + (b.cached ?? 0),
  };
}

function repeatNote(seq: number): Finding {
  return {
    code: "RAC",
    severity: "note",
    message: `This call repeats call #${seq} exactly, and the state has not changed since: it will get the same answer.`,
  };
}

function storedFinding(finding: Finding) {
  return { code: finding.code, argument: finding.argument, message: finding.message };
}
