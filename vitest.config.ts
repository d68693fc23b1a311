import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // one PostgreSQL server for the run (skipped with a message where it is not installed)
    globalSetup: ["test/support/postgres-global.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // two cores: more workers only fight over them, and the end-to-end tests spawn processes of their own
    maxWorkers: 2,
  },
});
