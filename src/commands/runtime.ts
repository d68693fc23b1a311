import type { Catalog } from "../catalog/index.js";
import { Engine } from "../engine/index.js";
import { ToolsimHub } from "../server/index.js";
import { OfflineSimulator, type Simulator } from "../simulate/index.js";
import { Store } from "../store/index.js";

export interface RuntimeOptions {
  catalog: Catalog;
  db: string;
  seed?: string;
  /** The simulator that answers calls; the offline engine when absent. */
  simulator?: Simulator;
  pageSize?: number;
  deadlineMs?: number;
}

export interface Runtime {
  catalog: Catalog;
  store: Store;
  engine: Engine;
  hub: ToolsimHub;
  offline: OfflineSimulator;
  close(): void;
}

/** Wires the rooms together: store, simulators, engine and the MCP hub on top. */
export function createRuntime(options: RuntimeOptions): Runtime {
  const store = Store.open(options.db);
  const offline = new OfflineSimulator();
  const engine = new Engine({
    catalog: options.catalog,
    store,
    simulator: options.simulator ?? offline,
    offline,
    seed: options.seed,
    deadlineMs: options.deadlineMs,
  });
  const hub = new ToolsimHub(engine, { pageSize: options.pageSize });
  return { catalog: options.catalog, store, engine, hub, offline, close: () => store.close() };
}
