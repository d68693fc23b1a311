import { resolve } from "node:path";
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * The tests Stryker runs (see stryker.config.mjs and docs/testing.md). Mutants live in the
 * sandbox's src/, which a spawned `dist/cli.js` never loads: files whose every test drives a
 * child process cannot kill a mutant, and would only slow the initial run, so they stay out.
 */
export const PROCESS_ONLY_TESTS = [
  "test/argument-limits.test.ts",
  "test/catalog-patterns.test.ts",
  "test/control-tool-findings.test.ts",
  "test/dedup.test.ts",
  "test/demo.test.ts",
  "test/durability.test.ts",
  "test/e2e-http.test.ts",
  "test/e2e-stdio.test.ts",
  "test/effects-mcp.test.ts",
  "test/fleet-failures.test.ts",
  "test/frameworks-*.test.ts",
  "test/generate.test.ts",
  "test/hybrid-calls.test.ts",
  "test/hybrid-filesystem.test.ts",
  "test/hybrid-memory.test.ts",
  "test/hybrid-upstreams.test.ts",
  "test/importers-cli.test.ts",
  "test/install.test.ts",
  "test/llm-e2e.test.ts",
  "test/pathological-catalog.test.ts",
  "test/serve-broken-schema.test.ts",
  "test/serve-profiles.test.ts",
  "test/sessions-command.test.ts",
  "test/tenants.test.ts",
];

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ["**/node_modules/**", ...PROCESS_ONLY_TESTS],
      // a room whose mutants each run many test files (infer: the eleven domains) loads src/ once
      // per run instead of once per file; the domain tests keep no state between files
      isolate: process.env.TOOLSIM_MUTATE_SHARED_MODULES !== "1",
    },
    resolve: {
      alias: [
        // the domain tests of inference serve their catalogs in this process (same calls, same
        // assertions), so that they load the mutants of `src/infer/`; see the module's comment
        {
          find: /^\.\/support\/domain-session\.js$/,
          replacement: resolve(import.meta.dirname, "test/support/domain-session-in-process.ts"),
        },
      ],
    },
  }),
);
