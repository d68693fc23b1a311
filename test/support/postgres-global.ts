/**
 * vitest globalSetup: one PostgreSQL server for the whole run; each test file makes its own
 * databases on it (see stores.ts). Where PostgreSQL is not installed the PostgreSQL tests
 * skip with the reason, except under CI (CI=true), where that is a failure.
 */
import type { TestProject } from "vitest/node";
import { postgresUnavailable, startPostgres } from "./postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test server's maintenance database URL, or why there is none. */
    postgres: { url: string } | { unavailable: string };
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const unavailable = postgresUnavailable();
  if (unavailable) {
    if (process.env.CI === "true") {
      throw new Error(`CI=true requires PostgreSQL for the store tests: ${unavailable}`);
    }
    process.stderr.write(`\nPostgreSQL tests are skipped: ${unavailable}\n\n`);
    project.provide("postgres", { unavailable });
    return undefined;
  }
  const server = await startPostgres();
  project.provide("postgres", { url: server.url() });
  return () => server.stop();
}
