import { join } from "node:path";
import { inject } from "vitest";
import { canonicalJson } from "../../src/patch/index.js";
import { type NewCall, openStore, type SnapshotPolicy, type Store } from "../../src/store/index.js";
import { createDatabase } from "./postgres.js";
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
  /** What `--db` takes to reach this database: a file path or a PostgreSQL URL. */
  location: string;
  open(options?: { snapshots?: SnapshotPolicy }): Promise<Store>;
  dispose(): Promise<void>;
}

export const sqliteBackend: StoreBackend = {
  name: "sqlite",
  async fresh() {
    const dir = tempDir("toolsim-store-");
    const file = join(dir.path, "toolsim.db");
    return {
      location: file,
      open: (options = {}) => openStore(file, options),
      dispose: async () => dir.cleanup(),
    };
  },
};

/** Why the run's PostgreSQL server is missing (see postgres-global.ts), or undefined when it runs. */
export function postgresUnavailableHere(): string | undefined {
  const server = inject("postgres");
  return "unavailable" in server ? server.unavailable : undefined;
}

/** The maintenance database URL of the run's PostgreSQL server. */
export function postgresServerUrl(): string {
  const server = inject("postgres");
  if ("unavailable" in server) throw new Error(`no PostgreSQL server: ${server.unavailable}`);
  return server.url;
}

/** Each fresh store is a new database on the run's server (CREATE DATABASE), dropped after. */
export const postgresBackend: StoreBackend = {
  name: "postgres",
  unavailable: postgresUnavailableHere,
  async fresh() {
    const database = await createDatabase(postgresServerUrl());
    return {
      location: database.url,
      open: (options = {}) => openStore(database.url, options),
      dispose: () => database.drop(),
    };
  },
};

/** Every backend of the store conformance suite. */
export const storeBackends: StoreBackend[] = [sqliteBackend, postgresBackend];

/** A call to record, as the engine would hand it to a store: answered, offline. */
export function newCall(
  sessionId: string,
  tool: string,
  args: unknown = {},
  details: Partial<NewCall> = {},
): NewCall {
  return {
    sessionId,
    tool,
    arguments: args,
    argsHash: canonicalJson(args),
    status: "ok",
    findings: [],
    result: { ok: true },
    engine: "offline",
    latencyMs: 1,
    ...details,
  };
}
