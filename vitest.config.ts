import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // two cores: more workers only fight over them, and the end-to-end tests spawn processes of their own
    maxWorkers: 2,
  },
});
