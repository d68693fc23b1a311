import type { Tool } from "../catalog/index.js";
import type { Patch } from "../patch/index.js";
import type { State, StateDocument } from "../state/index.js";
import type { Usage } from "../store/index.js";

/** A documented error a tool answered with (not a rejected call: the call was valid). */
export interface ToolFailure {
  code: string;
  status: number;
  message: string;
}

/** What the declared effects of a tool did, computed by the engine before any simulator runs. */
export type EffectsResult =
  | { status: "none" }
  | {
      status: "applied";
      /** The changes the effects made, against the state before the call. */
      patch: Patch;
      /** The parts of the result the effects decided (entities placed at their `output`). */
      output: Record<string, unknown>;
      /** Pointers of the entities the effects touched, e.g. `/orders/ORD-1001`. */
      touched: string[];
      /** The whole result, when a `respond` decided one that is not an object (an id, a number, a list). */
      result?: unknown;
    }
  | { status: "failed"; failure: ToolFailure };

/** A short record of an earlier call in the session, for simulators that look back. */
export interface HistoryEntry {
  seq: number;
  tool: string;
  arguments: unknown;
  status: string;
  result?: unknown;
  error?: unknown;
}

export interface SimulationRequest {
  tool: Tool;
  args: Record<string, unknown>;
  /** The state with the effects already applied (the state before the call when there are none). */
  state: State;
  effects: EffectsResult;
  history: readonly HistoryEntry[];
  /** The session seed: with the tool and the arguments it seeds every synthesized value. */
  seed: string;
  /** The simulated clock at the time of the call (ISO 8601). */
  now: string;
  /** Aborted when the call's deadline passes or the client cancels. */
  signal?: AbortSignal;
}

export type SimulationOutcome =
  | {
      kind: "success";
      /** Any JSON value; an object unless the effects decided otherwise (EffectsResult.result). */
      result: unknown;
      /** Further changes the simulator infers, applied after the effects' patch. */
      patch: Patch;
      engine: string;
      usage?: Usage;
      /** Why another engine answered instead of the one asked (e.g. the model's output was unusable). */
      fallback?: string;
      /**
       * Paths of the result that no effect, argument or state grounded: synthesized (offline) or
       * made up by a model. Empty when every value was read, echoed or computed.
       */
      guessed?: string[];
    }
  | { kind: "failure"; failure: ToolFailure; engine: string; usage?: Usage; fallback?: string };

export interface Simulator {
  readonly name: string;
  /** How many recent calls of the session the simulator wants to see (0 or absent: none). */
  readonly historyWanted?: number;
  respond(request: SimulationRequest): Promise<SimulationOutcome>;
}

/** An argument an optional semantic check finds wrong although it passed the schema (reported as IAV). */
export interface ArgumentConcern {
  argument: string;
  message: string;
}

/** An optional pass between validation and simulation (e.g. a model checking formats stated only in prose). */
export interface ArgumentChecker {
  readonly name: string;
  check(
    tool: Tool,
    args: Record<string, unknown>,
    state: StateDocument,
    signal?: AbortSignal,
  ): Promise<{ concerns: ArgumentConcern[]; usage?: Usage }>;
}
