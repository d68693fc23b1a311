import { join } from "node:path";
import { openStore, type SnapshotPolicy, type Store } from "../../src/store/index.js";
import { tempDir } from "./processes.js";

/** A store backend the conformance suite runs against: fresh stores, each a new database. */
export interface StoreBackend {
  name: string;
  /** Why the backend cannot run here; the suite then skips it (a failure under CI). */
  unavailable?: () => string | undefined;
  /** A new, empty database; `open` connects to it (again), as another process would. */
  fresh(): Promise<StoreDatabase>;
}

export interface StoreDatabase {
  open(options?: { snapshots?: SnapshotPolicy }): Promise<Store>;
  dispose(): Promise<void>;
}

export const sqliteBackend: StoreBackend = {
  name: "sqlite",
  async fresh() {
    const dir = tempDir("toolsim-store-");
    const file = join(dir.path, "toolsim.db");
    return {
      open: (options = {}) => openStore(file, options),
      dispose: async () => dir.cleanup(),
    };
  },
};

/** Every backend of the store conformance suite. */
export const storeBackends: StoreBackend[] = [sqliteBackend];
