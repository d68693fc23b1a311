import type pg from "pg";
import type { PostgresPool, Queryable } from "./postgres-pool.js";
import { pendingMigrations, SCHEMA_VERSION } from "./schema.js";
import { newerSchema, olderSchemaReadOnly, StoreOpenError } from "./shared.js";

/** Key of the advisory lock taken around migrating, so processes starting together migrate once. */
const MIGRATION_LOCK = "7321094501";

export interface SchemaAccess {
  /** Use the database as it is: no migrations; refuse one without toolsim's tables. */
  readonly?: boolean;
  /** Refuse a database without toolsim's tables instead of creating them. */
  existing?: boolean;
}

/**
 * Creates or upgrades the schema: migrations from the shared list, each recorded in
 * toolsim_schema, under an advisory lock so processes that start together migrate once.
 */
export async function prepareSchema(pool: PostgresPool, access: SchemaAccess): Promise<void> {
  const { display, database } = pool.server;
  await pool.session(async (client) => {
    const current = await schemaVersion(client);
    if (current === undefined && (access.readonly || access.existing)) {
      throw new StoreOpenError(
        `${display} holds no toolsim sessions (no toolsim tables in database "${database}"); pass --db the URL toolsim serve --db used`,
      );
    }
    if (current !== undefined && current > SCHEMA_VERSION) throw newerSchema(display, current);
    // up to date: no lock and no DDL, so a read-only replica opens too
    if (current === SCHEMA_VERSION) return;
    if (access.readonly) throw olderSchemaReadOnly(display, current ?? 0, "toolsim serve --db URL");
    await migrate(client, display);
  });
}

/** Runs the pending migrations in one transaction, under the advisory lock. */
async function migrate(client: pg.PoolClient, display: string): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS toolsim_schema (
         version     INTEGER PRIMARY KEY,
         summary     TEXT NOT NULL,
         applied_at  TEXT NOT NULL
       )`,
    );
    // read again under the lock: another process may have migrated meanwhile
    const current = (await schemaVersion(client)) ?? 0;
    if (current > SCHEMA_VERSION) throw newerSchema(display, current);
    for (const migration of pendingMigrations(current)) {
      for (const statement of migration.statements) await client.query(statement);
      await client.query("INSERT INTO toolsim_schema (version, summary, applied_at) VALUES ($1, $2, $3)", [
        migration.version,
        migration.summary,
        new Date().toISOString(),
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** The applied schema version, or undefined when the database has no toolsim tables. */
async function schemaVersion(client: Queryable): Promise<number | undefined> {
  const exists = await client.query("SELECT to_regclass('toolsim_schema') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return undefined;
  const result = await client.query("SELECT COALESCE(MAX(version), 0) AS version FROM toolsim_schema");
  return Number(result.rows[0]?.version ?? 0);
}
