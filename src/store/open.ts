import { type SqliteOptions, SqliteStore } from "./sqlite.js";
import type { Store } from "./types.js";

export interface OpenOptions extends SqliteOptions {}

/** Opens the store a location names: a SQLite file path (the embedded default). */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  return SqliteStore.open(location, options);
}
