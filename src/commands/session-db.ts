import { accessSync, constants, existsSync } from "node:fs";
import {
  isPostgresUrl,
  type OpenOptions,
  openStore,
  type SessionRecord,
  type Store,
} from "../store/index.js";
import { UsageError } from "./command.js";
import { resolveDbFile } from "./state-location.js";

/** The `--db` option of the commands that work on stored sessions. */
export const DB_OPTION = { db: { type: "string" } } as const;
export const DB_HELP = `  --db FILE|URL        where sessions are stored: a SQLite file, or postgres://USER@HOST:PORT/DB
                       (env TOOLSIM_DB; default toolsim.db in the state directory: TOOLSIM_HOME,
                       a checkout's state/, else the user's data directory)`;

/**
 * Where sessions are stored: a PostgreSQL URL as given, or a SQLite file (made absolute;
 * the default one in the state directory, moved there once from an installed package).
 */
export function dbLocation(
  values: { db?: string },
  log: (line: string) => void = (line) => process.stderr.write(`toolsim: ${line}\n`),
): string {
  const given = values.db ?? (process.env.TOOLSIM_DB?.trim() || undefined);
  if (given && isPostgresUrl(given)) return given;
  return resolveDbFile(values.db, log);
}

/** How many connections a process keeps to PostgreSQL: `--pg-pool-size`, else TOOLSIM_PG_POOL_SIZE. */
export const POOL_OPTION = { "pg-pool-size": { type: "string" } } as const;
export const POOL_HELP = `  --pg-pool-size N     PostgreSQL: connections this process keeps at most (env TOOLSIM_PG_POOL_SIZE;
                       default 10); processes × pool size must stay under the server's max_connections`;

/**
 * Store options from the command line and the environment: the PostgreSQL pool size
 * (`--pg-pool-size`, else TOOLSIM_PG_POOL_SIZE); the URL's own parameters carry PostgreSQL's settings.
 */
export function storeOptions(
  values: { "pg-pool-size"?: string } = {},
  env: NodeJS.ProcessEnv = process.env,
): OpenOptions {
  const [text, from] =
    values["pg-pool-size"] !== undefined
      ? [values["pg-pool-size"], "--pg-pool-size"]
      : [env.TOOLSIM_PG_POOL_SIZE, "TOOLSIM_PG_POOL_SIZE"];
  if (text === undefined || text === "") return {};
  const poolSize = Number(text);
  if (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000) {
    throw new UsageError(`${from} takes a whole number from 1 to 1000; got "${text}"`);
  }
  return { poolSize };
}

/**
 * Opens an existing store; a missing state file (or a database without toolsim's tables)
 * is an error rather than a new empty store. A command that only reads opens a file the
 * user may not write read-only.
 */
export async function openExistingStore(
  values: { db?: string },
  access: "read" | "write" = "write",
): Promise<Store> {
  const location = dbLocation(values);
  if (isPostgresUrl(location)) {
    // a server's privileges are not known ahead as a file's are: open for writing (a
    // command holds one or two queries in flight at most)
    return openStore(location, { existing: true, poolSize: 2 });
  }
  if (!existsSync(location)) {
    throw new UsageError(`no state file at ${location}; pass --db FILE (the file toolsim serve --db wrote)`);
  }
  return openStore(location, { readonly: access === "read" && !writable(location) });
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
