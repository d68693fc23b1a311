import { existsSync } from "node:fs";
import { type SessionRecord, Store } from "../store/index.js";
import { UsageError } from "./command.js";
import { resolveDbFile } from "./state-location.js";

/** The `--db` option of the commands that work on stored sessions. */
export const DB_OPTION = { db: { type: "string" } } as const;
export const DB_HELP =
  "  --db FILE            SQLite file of sessions and calls (env TOOLSIM_DB; default toolsim.db in the\n                       state directory: TOOLSIM_HOME, a checkout's state/, else the user's data directory)";

export function dbPath(values: { db?: string }): string {
  return resolveDbFile(values.db, (line) => process.stderr.write(`toolsim: ${line}\n`));
}

/** Opens an existing state file; a missing one is a usage error rather than a new empty file. */
export function openExistingStore(values: { db?: string }): Store {
  const file = dbPath(values);
  if (!existsSync(file)) {
    throw new UsageError(`no state file at ${file}; pass --db FILE (the file toolsim serve --db wrote)`);
  }
  return Store.open(file);
}

/** A session by name or id, or a usage error listing the sessions there are. */
export function requireSession(store: Store, key: string | undefined): SessionRecord {
  if (!key) throw new UsageError("name the session (its name or id; toolsim sessions lists them)");
  const session = store.session(key);
  if (session) return session;
  const known = store
    .sessions()
    .slice(-10)
    .map((s) => s.name ?? s.id);
  throw new UsageError(
    `no session "${key}" in ${store.file}${known.length ? `; recent sessions: ${known.join(", ")}` : "; it has no sessions"}`,
  );
}
