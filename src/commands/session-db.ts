import { accessSync, constants, existsSync } from "node:fs";
import { openStore, type SessionRecord, type Store } from "../store/index.js";
import { UsageError } from "./command.js";
import { resolveDbFile } from "./state-location.js";

/** The `--db` option of the commands that work on stored sessions. */
export const DB_OPTION = { db: { type: "string" } } as const;
export const DB_HELP =
  "  --db FILE            SQLite file of sessions and calls (env TOOLSIM_DB; default toolsim.db in the\n                       state directory: TOOLSIM_HOME, a checkout's state/, else the user's data directory)";

export function dbPath(values: { db?: string }): string {
  return resolveDbFile(values.db, (line) => process.stderr.write(`toolsim: ${line}\n`));
}

/**
 * Opens an existing state file; a missing one is a usage error rather than a new empty
 * file. A command that only reads opens a file the user may not write read-only.
 */
export async function openExistingStore(
  values: { db?: string },
  access: "read" | "write" = "write",
): Promise<Store> {
  const file = dbPath(values);
  if (!existsSync(file)) {
    throw new UsageError(`no state file at ${file}; pass --db FILE (the file toolsim serve --db wrote)`);
  }
  return openStore(file, { readonly: access === "read" && !writable(file) });
}

function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A session by name or id (in any tenant), or a usage error listing the sessions there are. */
export async function requireSession(store: Store, key: string | undefined): Promise<SessionRecord> {
  if (!key) throw new UsageError("name the session (its name or id; toolsim sessions lists them)");
  const found = await store.findSessions(key);
  const exact = found.find((session) => session.id === key);
  if (exact) return exact;
  if (found.length === 1) return found[0] as SessionRecord;
  if (found.length > 1) {
    const tenants = found.map((s) => `${s.id} (tenant ${s.tenant || "local"})`).join(", ");
    throw new UsageError(`${found.length} sessions are named "${key}": ${tenants}; give the id`);
  }
  const known = (await store.sessions()).slice(-10).map((s) => s.name ?? s.id);
  throw new UsageError(
    `no session "${key}" in ${store.location}${known.length ? `; recent sessions: ${known.join(", ")}` : "; it has no sessions"}`,
  );
}
