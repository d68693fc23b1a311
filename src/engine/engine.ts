import { performance } from "node:perf_hooks";
import { type Catalog, compileProblem, type Tool, validatorFor } from "../catalog/index.js";
import type { FaultPlan, FaultRecord } from "../faults/index.js";
import type { Patch } from "../patch/index.js";
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
import type { State, StateDocument } from "../state/index.js";
import type {
  CallPage,
  CallRecord,
  CallStatus,
  RepeatedCall,
  SessionRecord,
  SessionScope,
  StateChange,
  StateHead,
  Store,
  Usage,
} from "../store/index.js";
import { argumentsHash, callArgumentsHash } from "./argument-hash.js";
import { omittedArguments, scanArguments } from "./argument-limits.js";
import { clockOf, clockTick } from "./clock.js";
import { applyEffects } from "./effects/apply.js";
import { answerWithFaults } from "./fault-seam.js";
import type { Finding } from "./findings.js";
import { type LiveSession, Sessions } from "./sessions.js";
import { validateArguments } from "./validate.js";

/** How often a call is retried against a head another process moved before it gives up. */
const STALE_ATTEMPTS = 8;
/** Arguments of a rejected call are kept whole up to this size; beyond it, a note of what was sent. */
const REJECTED_ARGUMENTS_KEPT = 64 * 1024;

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
  /** Which fault profile each session's calls meet (see docs/faults.md); none without it. */
  faults?: FaultPlan;
}

/** A call answered outside the simulator (e.g. passed through to a real server), recorded like any other. */
export interface ExternalAnswer {
  status: "ok" | "error";
  result?: unknown;
  failure?: ToolFailure;
  /** Changes to the session state the answer implies (e.g. an overlay of what a real read returned). */
  patch?: Patch;
  engine: string;
  latencyMs?: number;
}

export interface OpenSession {
  /** Resume the tenant's session with this name, or create it. */
  name?: string;
  /** Who the session belongs to ("" for local use without tokens). */
  tenant?: string;
  seed?: string;
  taskId?: string;
  /** What a new session sees instead of the task's toolset alone (e.g. with distractors). */
  scope?: SessionScope;
}

export type { CallStatus };

/** Everything a transport needs to answer a call. */
export interface CallOutcome {
  sessionId: string;
  seq: number;
  tool: string;
  status: CallStatus;
  /** The tool's definition, when the name resolved. */
  definition?: Tool;
  /** Any JSON value: an object, unless the tool's effects answer something else (an id, a list). */
  result?: unknown;
  failure?: ToolFailure;
  findings: Finding[];
  engine: string;
  fallback?: string;
  /** Paths of the result no effect, argument or state grounded: synthesized or made up by a model. */
  guessed?: string[];
  usage?: Usage;
  versionBefore: number;
  versionAfter: number;
  latencyMs: number;
  /** A fault injected on purpose (the hub enacts waits; a lost answer reaches the client as its error). */
  fault?: FaultRecord;
}

/** A call answered but not yet recorded: what step 9 commits. */
export interface Draft {
  tool: string;
  definition?: Tool;
  args: unknown;
  argsHash: string;
  status: CallStatus;
  findings: Finding[];
  result?: unknown;
  failure?: ToolFailure;
  engine: string;
  fallback?: string;
  guessed?: string[];
  usage?: Usage;
  change?: StateChange;
  started: number;
  fault?: FaultRecord;
}

/** What the effects and the simulator's patch do to the state, together with the clock's tick. */
type Change =
  | { kind: "none" }
  | { kind: "change"; change: StateChange }
  | { kind: "invalid"; reason: string };

/**
 * The call pipeline. Each call runs these steps, in this order, on the session's head:
 *
 *   0. refuse arguments past the limits (depth, size) before anything walks them
 *   1. resolve the tool name in the session's scope
 *   2. check the tool's own input schema (a broken one is the catalog's fault)
 *   3. validate the arguments (and the optional semantic check)
 *   4. note a repeat of an identical call on the same state
 *   5. run the tool's effects
 *   6. simulate the rest of the answer (within the deadline; the offline engine falls back)
 *   7. check the simulator's answer: its result against the output schema, its patch against the state
 *   8. inject the fault a session's fault profile decides, if any (fault-seam.ts)
 *   9. commit the call and its change of state in one transaction
 *
 * A call rejected at 0–3 skips 5–8. Knows nothing of MCP; every outcome is a value.
 */
export class Engine {
  private catalogRef: Catalog;
  private readonly store: Store;
  private readonly sessions: Sessions;
  private readonly simulator: Simulator;
  private readonly offline: OfflineSimulator;
  private readonly argumentChecker?: ArgumentChecker;
  private readonly faults?: FaultPlan;
  private readonly otherNames: Array<(sessionId: string) => readonly string[]> = [];
  private readonly options: Required<Pick<EngineOptions, "seed" | "deadlineMs" | "historyLimit">>;

  constructor(options: EngineOptions) {
    this.catalogRef = options.catalog;
    this.store = options.store;
    this.sessions = new Sessions(options.store);
    this.simulator = options.simulator;
    this.offline = options.offline;
    this.argumentChecker = options.argumentChecker;
    this.faults = options.faults;
    this.options = {
      seed: options.seed ?? "0",
      deadlineMs: options.deadlineMs ?? 25_000,
      historyLimit: options.historyLimit ?? 8,
    };
  }

  get catalog(): Catalog {
    return this.catalogRef;
  }

  get simulatorName(): string {
    return this.simulator.name;
  }

  /** Names a session can call besides the catalog's (control tools, upstream tools), suggested after a typo too. */
  suggestAlso(names: (sessionId: string) => readonly string[]): void {
    this.otherNames.push(names);
  }

  /** Swaps the catalog (e.g. a watched file changed); sessions keep their state. */
  replaceCatalog(catalog: Catalog): void {
    this.catalogRef = catalog;
  }

  // ── sessions ──────────────────────────────────────────────────────────────

  /** Resumes the named session of the tenant, or starts one (on a task's state when it names one). */
  async openSession(options: OpenSession = {}): Promise<SessionRecord> {
    const task = options.taskId ? this.catalog.task(options.taskId) : undefined;
    if (options.taskId && !task) throw new Error(`unknown task "${options.taskId}"`);
    return this.sessions.open({
      name: options.name,
      tenant: options.tenant ?? "",
      seed: options.seed ?? this.options.seed,
      taskId: task?.task.id,
      scope: options.scope ?? (task ? { toolsets: [task.toolset.id, ...(task.task.toolsets ?? [])] } : {}),
      state: task ? task.task.state : this.catalog.sandboxState(),
      reason: task ? `start task ${task.task.id}` : "start",
    });
  }

  /** A session of a tenant, by id or name. */
  session(key: string, tenant = ""): Promise<SessionRecord | undefined> {
    return this.sessions.find(key, tenant);
  }

  /** The session's record as it stands now. */
  async record(sessionId: string): Promise<SessionRecord> {
    return (await this.sessions.fresh(sessionId)).record;
  }

  /** Forgets the in-memory head of a session (it stays in the store and can be resumed). */
  release(sessionId: string): void {
    this.sessions.release(sessionId);
  }

  /** The session's head: its current version and state. */
  async state(sessionId: string): Promise<StateHead> {
    return (await this.sessions.fresh(sessionId)).head;
  }

  calls(sessionId: string, page?: CallPage): Promise<CallRecord[]> {
    return this.store.calls(sessionId, page);
  }

  /** Replaces a session's state and scope (task start, reset), as a new version. */
  resetSession(
    sessionId: string,
    state: State | StateDocument,
    change: { reason: string; taskId?: string | null; scope?: SessionScope },
  ): Promise<StateHead> {
    return this.sessions.reset(sessionId, state, change);
  }

  /** Moves a session's head to an earlier (or later) version, e.g. a checkpoint. */
  moveHead(sessionId: string, version: number): Promise<StateHead> {
    return this.sessions.moveHead(sessionId, version);
  }

  /** The tools a session sees: its scope (a task's toolset and distractors), or the whole catalog. */
  async tools(sessionId?: string): Promise<Tool[]> {
    const scope = sessionId ? (await this.sessions.fresh(sessionId)).record.scope : {};
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

  // ── calls ────────────────────────────────────────────────────────────────

  /** Runs one tool call through the pipeline and records it. Never throws for bad input. */
  call(sessionId: string, name: string, rawArgs: unknown, signal?: AbortSignal): Promise<CallOutcome> {
    const answer = (session: LiveSession) => this.answer(session, name, rawArgs, signal);
    const { faults } = this;
    return this.sessions.exclusive(sessionId, () =>
      this.committed(
        sessionId,
        // the fault seam (docs/faults.md): between the answer and its commit, only when a plan exists
        faults
          ? (session) =>
              answerWithFaults({ plan: faults, catalog: this.catalog, store: this.store }, session, answer)
          : answer,
      ),
    );
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
    return this.sessions.exclusive(sessionId, () =>
      this.committed(sessionId, async (session) => {
        const started = performance.now() - (answer.latencyMs ?? 0);
        const draft: Draft = {
          tool: tool.name,
          definition: tool,
          args,
          argsHash: callArgumentsHash(args),
          status: answer.status,
          findings: [],
          result: answer.result,
          failure: answer.failure,
          engine: answer.engine,
          started,
        };
        if (!answer.patch?.length) return draft;
        const applied = session.head.state.apply(answer.patch);
        if (!applied.ok) throw new Error(`patch of an external answer does not apply: ${applied.error}`);
        return { ...draft, change: { patch: answer.patch, state: applied.state } };
      }),
    );
  }

  /**
   * Answers a call on the session's head and commits it (steps 4 and 9 around the others).
   * When another process moved the head first, the call is answered again on the new head:
   * no call is recorded against a state it did not see.
   */
  private async committed(
    sessionId: string,
    answer: (session: LiveSession) => Promise<Draft>,
  ): Promise<CallOutcome> {
    // a session other processes also write is checked first: answering on an old head costs a second answer
    const session = await this.sessions
      .get(sessionId)
      .then((live) => (live.shared ? this.sessions.fresh(sessionId) : live));
    for (let attempt = 1; attempt <= STALE_ATTEMPTS; attempt++) {
      const draft = await answer(session);
      // 4 note a repeat of an identical call on the same state (made for every call, rejected ones too)
      const repeat = await this.repeatOf(session, draft);
      if (repeat !== undefined) draft.findings.push(repeatNote(repeat, draft.status));
      // 9 commit
      const commit = await this.store.recordCall(
        toNewCall(session, draft),
        session.head.version,
        draft.change,
      );
      if (commit.kind === "recorded") return this.settle(session, draft, commit.call);
      await this.sessions.caughtUp(session, await this.store.advance(sessionId, session.head));
    }
    throw new Error(`session ${sessionId} keeps being changed by other processes; the call was not recorded`);
  }

  /** Steps 1–3 and 5–7: everything that decides the answer. */
  private async answer(
    session: LiveSession,
    name: string,
    rawArgs: unknown,
    signal?: AbortSignal,
  ): Promise<Draft> {
    const started = performance.now();
    // 0 arguments past the limits are refused before hashing or storing walks them
    const limit = scanArguments(rawArgs).limit;
    if (limit) {
      const stored = omittedArguments(limit);
      return {
        tool: name,
        args: stored,
        // a hash of what was sent, not of the note stored instead: two different refused calls are no repeat
        argsHash: argumentsHash(rawArgs),
        status: "rejected",
        findings: [limit],
        engine: "validator",
        started,
      };
    }
    const argsHash = callArgumentsHash(rawArgs ?? {});
    const rejected = (findings: Finding[], definition?: Tool, usage?: Usage): Draft => ({
      tool: name,
      definition,
      args: rawArgs ?? {},
      argsHash,
      status: "rejected",
      findings,
      engine: "validator",
      usage,
      started,
    });

    // 1 resolve the tool name in the session's scope
    const resolved = this.resolve(session, name);
    if (!resolved.ok) return rejected([resolved.finding]);
    const tool = resolved.tool;

    // 2 check the tool's own input schema: a broken one is the catalog's fault, not the caller's
    const broken = compileProblem(tool.inputSchema);
    if (broken) {
      return {
        ...rejected([], tool),
        status: "error",
        failure: brokenToolFailure(tool, broken),
      };
    }

    // 3 validate the arguments, then the optional semantic check
    const validated = validateArguments(tool, rawArgs);
    if (!validated.ok) return rejected(validated.findings, tool);
    const head = session.head;
    let checkUsage: Usage | undefined;
    if (this.argumentChecker) {
      const checked = await this.argumentChecker.check(tool, validated.args, head.state.toJSON(), signal);
      checkUsage = checked.usage;
      if (checked.concerns.length > 0) {
        const findings = checked.concerns.map(
          (c): Finding => ({ code: "IAV", severity: "error", argument: c.argument, message: c.message }),
        );
        return rejected(findings, tool, checkUsage);
      }
    }

    // 5 run the tool's effects
    const now = clockOf(head.state);
    const { effects, state: afterEffects } = await applyEffects(tool, validated.args, head.state, now);

    // 6 simulate the rest of the answer
    const request: SimulationRequest = {
      tool,
      args: validated.args,
      state: afterEffects,
      effects,
      history: await this.history(session),
      seed: session.record.seed,
      now,
      signal,
    };
    const simulated = await this.simulate(request);

    // 7 check the simulator's answer: its result against the output schema, its patch against the state
    let outcome = this.checkResult(simulated, request);
    let change = outcome.kind === "success" ? changeOf(afterEffects, effects, outcome.patch, now) : none;
    if (change.kind === "invalid") {
      outcome = this.offlineFallback(request, change.reason);
      change = changeOf(afterEffects, effects, [], now);
    }
    const draft: Draft = {
      tool: name,
      definition: tool,
      args: validated.args,
      argsHash,
      status: outcome.kind === "success" ? "ok" : "error",
      findings: [],
      result: outcome.kind === "success" ? outcome.result : undefined,
      failure: outcome.kind === "failure" ? outcome.failure : undefined,
      engine: outcome.engine,
      fallback: outcome.fallback,
      ...(outcome.kind === "success" && outcome.guessed ? { guessed: outcome.guessed } : {}),
      usage: addUsage(checkUsage, outcome.usage),
      change: change.kind === "change" ? change.change : undefined,
      started,
    };
    // a call the client gave up on is recorded as such and changes nothing
    if (signal?.aborted) return { ...draft, status: "cancelled", result: undefined, change: undefined };
    return draft;
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
    const names = [
      ...visible.map((t) => t.name),
      ...this.otherNames.flatMap((other) => other(session.record.id)),
    ];
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

  /** Step 4: an earlier identical call whose resulting state is the current one. */
  private async repeatOf(session: LiveSession, draft: Draft): Promise<RepeatedCall | undefined> {
    const key = `${draft.tool}\u0000${draft.argsHash}`;
    // other processes' reads move no head: in a shared session only the store knows every call
    if (session.callsOnHead && !session.shared) return session.callsOnHead.get(key);
    return this.store.repeatOf(session.record.id, draft.tool, draft.argsHash, session.head.version);
  }

  /** After step 9: moves the in-memory head and remembers the call for the repeat check. */
  private settle(session: LiveSession, draft: Draft, call: CallRecord): CallOutcome {
    const key = `${draft.tool}\u0000${draft.argsHash}`;
    if (call.seq !== session.lastSeq + 1) {
      // another process made calls in between (reads move no head): the calls on this head are not all known here
      session.callsOnHead = undefined;
      session.shared = true;
    }
    session.lastSeq = call.seq;
    if (draft.change && call.versionAfter !== call.versionBefore) {
      session.head = { version: call.versionAfter, state: draft.change.state };
      session.callsOnHead = new Map();
    }
    // a faulted call is no answer a repeat would get again (the store's lookup skips it too)
    if (!draft.fault) session.callsOnHead?.set(key, { seq: call.seq, status: draft.status });
    return {
      sessionId: session.record.id,
      seq: call.seq,
      tool: draft.tool,
      status: draft.status,
      definition: draft.definition,
      result: draft.result,
      failure: draft.failure,
      findings: draft.findings,
      engine: draft.engine,
      fallback: draft.fallback,
      ...(draft.guessed ? { guessed: draft.guessed } : {}),
      usage: draft.usage,
      versionBefore: call.versionBefore,
      versionAfter: call.versionAfter,
      latencyMs: call.latencyMs,
      ...(draft.fault ? { fault: draft.fault } : {}),
    };
  }

  private async history(session: LiveSession): Promise<HistoryEntry[]> {
    const wanted = this.simulator.historyWanted ?? 0;
    if (wanted <= 0) return [];
    const recent = await this.store.recentCalls(
      session.record.id,
      Math.min(wanted, this.options.historyLimit),
    );
    return recent.map((call) => ({
      seq: call.seq,
      tool: call.tool,
      arguments: call.arguments,
      status: call.status,
      result: call.result,
      error: call.error,
    }));
  }

  /** Step 6: asks the simulator, within the deadline; anything it cannot deliver, the offline engine answers. */
  private async simulate(request: SimulationRequest): Promise<SimulationOutcome> {
    // a whole result the effects decided needs no simulator
    const decided = request.effects.status === "applied" && request.effects.result !== undefined;
    if (this.simulator === this.offline || decided) return this.offline.respondNow(request);
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

  /** Step 7, the result: a successful result must validate against the tool's outputSchema, or the offline engine answers. */
  private checkResult(outcome: SimulationOutcome, request: SimulationRequest): SimulationOutcome {
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
}

const none: Change = { kind: "none" };

/** Step 7, the patch: the effects' patch, the simulator's and the clock's tick as one change. */
function changeOf(afterEffects: State, effects: EffectsResult, simulatorPatch: Patch, now: string): Change {
  const effectsPatch = effects.status === "applied" ? effects.patch : [];
  if (effectsPatch.length === 0 && simulatorPatch.length === 0) return none;
  // one application for the simulator's changes and the tick
  const tick = clockTick(afterEffects, now);
  const applied = afterEffects.apply([...simulatorPatch, ...tick]);
  if (applied.ok) {
    return {
      kind: "change",
      change: { patch: [...effectsPatch, ...simulatorPatch, ...tick], state: applied.state },
    };
  }
  if (applied.index < simulatorPatch.length) {
    return { kind: "invalid", reason: `the simulator's state patch did not apply: ${applied.error}` };
  }
  throw new Error(`clock tick failed: ${applied.error}`);
}

function toNewCall(session: LiveSession, draft: Draft) {
  return {
    sessionId: session.record.id,
    tool: draft.tool,
    arguments: draft.status === "rejected" ? keptArguments(draft.args) : draft.args,
    argsHash: draft.argsHash,
    status: draft.status,
    findings: draft.findings.map((f) => ({ code: f.code, argument: f.argument, message: f.message })),
    result: draft.result,
    error: draft.failure,
    engine: draft.engine,
    fallback: draft.fallback,
    usage: draft.usage,
    latencyMs: performance.now() - draft.started,
    ...(draft.fault ? { fault: { ...draft.fault } } : {}),
  };
}

/** A rejected call's arguments as logged: whole when small, otherwise their size and a beginning. */
function keptArguments(args: unknown): unknown {
  const text = JSON.stringify(args ?? null) ?? "null";
  if (text.length <= REJECTED_ARGUMENTS_KEPT) return args;
  return { "toolsim/truncated": true, bytes: text.length, beginning: text.slice(0, 1024) };
}

function brokenToolFailure(tool: Tool, problem: string): ToolFailure {
  return {
    code: "TOOL_SCHEMA_INVALID",
    status: 500,
    message: `toolsim cannot check calls to ${tool.name}: its inputSchema is not a usable JSON Schema (${problem}). The catalog needs fixing (toolsim lint); this is not a problem with the call.`,
  };
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

/**
 * Step 4's note: which earlier call this one repeats, and how each ended, as it happened (an
 * identical call on the same state usually ends the same way, but a model, an upstream
 * server or a cancellation can make it end otherwise).
 */
function repeatNote(earlier: RepeatedCall, status: CallStatus): Finding {
  const before = `call #${earlier.seq}`;
  const outcome =
    earlier.status === status
      ? `like ${before}, it ${ENDED[status]}`
      : `${before} ${ENDED[earlier.status]}, this one ${ENDED[status]}`;
  return {
    code: "RAC",
    severity: "note",
    message: `This call repeats ${before} exactly (the same tool and arguments), on a state that has not changed since; ${outcome}.`,
  };
}

const ENDED: Record<CallStatus, string> = {
  ok: "succeeded",
  error: "answered an error",
  rejected: "was rejected",
  cancelled: "was cancelled",
};
