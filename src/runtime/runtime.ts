import type { Catalog, SchemaProfile } from "../catalog/index.js";
import { Engine } from "../engine/index.js";
import { FaultPlan } from "../faults/index.js";
import { ToolsimHub } from "../server/index.js";
import { type ArgumentChecker, OfflineSimulator, type Simulator } from "../simulate/index.js";
import { type OpenOptions, openStore, type Store } from "../store/index.js";
import { type LlmSetup, llmParts } from "./llm-parts.js";

export interface RuntimeOptions {
  catalog: Catalog;
  /** Where sessions are stored: a SQLite file, or a store already open. */
  db: string | Store;
  store?: OpenOptions;
  seed?: string;
  /** The simulator that answers calls; the offline engine when absent. */
  simulator?: Simulator;
  pageSize?: number;
  /** How much of each input schema tools/list advertises (see docs/frameworks.md). */
  schemaProfile?: SchemaProfile;
  deadlineMs?: number;
  /** Answer with a model (built here, on the store's cache) unless `simulator` names another. */
  llm?: LlmSetup;
  /** Optional semantic pass between validation and simulation. */
  argumentChecker?: ArgumentChecker;
  /** Wraps the chosen simulator (hybrid mode keeps upstream tools' state as an overlay). */
  wrapSimulator?: (simulator: Simulator) => Simulator;
  /** Which fault profile each session meets (default: the profiles of the sessions' tasks). */
  faults?: FaultPlan;
}

export interface Runtime {
  catalog: Catalog;
  store: Store;
  engine: Engine;
  hub: ToolsimHub;
  offline: OfflineSimulator;
  /** The fault profiles sessions meet; `assign` gives one session its own (an attempt of a run). */
  faults: FaultPlan;
  close(): Promise<void>;
}

/** Wires the rooms together: store, simulators, engine and the MCP hub on top. */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const store = typeof options.db === "string" ? await openStore(options.db, options.store) : options.db;
  const offline = new OfflineSimulator();
  const llm = options.llm ? llmParts(options.llm, store, offline) : undefined;
  const chosen = options.simulator ?? llm?.simulator ?? offline;
  const faults = options.faults ?? new FaultPlan();
  const engine = new Engine({
    catalog: options.catalog,
    store,
    simulator: options.wrapSimulator ? options.wrapSimulator(chosen) : chosen,
    offline,
    seed: options.seed,
    deadlineMs: options.deadlineMs,
    argumentChecker: options.argumentChecker ?? llm?.argumentChecker,
    faults,
  });
  const hub = new ToolsimHub(engine, { pageSize: options.pageSize, schemaProfile: options.schemaProfile });
  return { catalog: options.catalog, store, engine, hub, offline, faults, close: () => store.close() };
}
