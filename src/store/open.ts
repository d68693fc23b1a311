import { isPostgresUrl } from "./postgres-server.js";
import { type SqliteOptions, SqliteStore } from "./sqlite.js";
import type { Store } from "./types.js";

export interface OpenOptions extends SqliteOptions {
  /** PostgreSQL: refuse a database without toolsim's tables instead of creating them. */
  existing?: boolean;
  /** PostgreSQL: connections this process keeps open at most. */
  poolSize?: number;
}

/**
 * Opens the store a location names: a `postgres://` or `postgresql://` URL (a server any
 * number of processes share), or a SQLite file path (the embedded default).
 */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  if (isPostgresUrl(location)) {
    // loaded only when asked for: a SQLite user never pays for the driver
    const { PostgresStore } = await import("./postgres.js");
    return PostgresStore.open(location, options);
  }
  return SqliteStore.open(location, options);
}
