// Mutation testing (docs/testing.md). `npm run mutate` runs scripts/mutate.mjs, which runs
// Stryker room by room with each room's own tests; `npx stryker run` runs every room at once
// against every in-process test.

/**
 * The rooms where a silent bug costs most: the files mutated, and the test files a room's
 * mutants are run against (its focused tests; the score is what they alone catch).
 */
export const ROOMS = {
  engine: {
    mutate: ["src/engine/**/*.ts"],
    tests: [
      "test/validation-rules.test.ts",
      "test/effect-guards.test.ts",
      "test/engine-effects.test.ts",
      "test/engine-validation.test.ts",
      "test/engine-pipeline.test.ts",
      "test/null-arguments.test.ts",
      "test/shipped-effects.test.ts",
      "test/llm-simulate.test.ts",
    ],
  },
  expr: {
    mutate: ["src/expr/**/*.ts"],
    tests: ["test/expr.test.ts", "test/expr-bounds.test.ts", "test/catalog-effects-lint.test.ts"],
  },
  store: {
    mutate: ["src/store/sqlite.ts", "src/store/versions.ts", "src/store/documents.ts", "src/store/legacy.ts"],
    tests: ["test/store.test.ts", "test/store-sqlite.test.ts", "test/store-legacy.test.ts"],
  },
  postgres: {
    mutate: [
      "src/store/postgres.ts",
      "src/store/postgres-pool.ts",
      "src/store/postgres-record.ts",
      "src/store/postgres-migrate.ts",
      "src/store/postgres-server.ts",
      "src/store/shared.ts",
    ],
    tests: ["test/store.test.ts", "test/store-postgres.test.ts", "test/store-postgres-pool.test.ts"],
  },
  state: {
    mutate: ["src/state/**/*.ts"],
    tests: [
      "test/state.test.ts",
      "test/patch.test.ts",
      "test/effect-guards.test.ts",
      "test/engine-effects.test.ts",
    ],
  },
  patch: {
    mutate: ["src/patch/**/*.ts"],
    tests: ["test/patch.test.ts", "test/state.test.ts"],
  },
  server: {
    mutate: ["src/server/http.ts"],
    tests: ["test/http-security.test.ts", "test/http-edges.test.ts"],
  },
  tasks: {
    mutate: ["src/tasks/compare.ts", "src/tasks/golden.ts", "src/tasks/verdict.ts", "src/tasks/free-text.ts"],
    tests: ["test/tasks-golden.test.ts", "test/tasks-rules.test.ts", "test/tasks-checklist.test.ts"],
  },
  simulate: {
    mutate: ["src/simulate/llm-answer.ts", "src/simulate/llm-contract.ts"],
    tests: ["test/model-answer-rules.test.ts", "test/llm-simulate.test.ts"],
  },
  hybrid: {
    mutate: ["src/hybrid/routes.ts"],
    tests: ["test/route-words.test.ts"],
  },
  compute: {
    mutate: ["src/compute/**/*.ts"],
    tests: ["test/compute.test.ts", "test/expr.test.ts", "test/mutate-compute-*.test.ts"],
    // a mutant of math.ts or evaluate.ts runs most of these files: one load of src/ (and of
    // mathjs) for all
    sharedModules: true,
  },
  importers: {
    mutate: ["src/catalog/importers/**/*.ts"],
    // not test/importers-bfcl-multi-turn.test.ts: it imports through the CLI (dist/, no mutant)
    // in a beforeAll that every mutant run repeats; test/mutate-importers-bfcl-multi-turn.test.ts
    // and test/mutate-importers-call-string.test.ts test the same code in this process
    tests: [
      "test/importers-openapi.test.ts",
      "test/importers-bfcl.test.ts",
      "test/importers-synthtools.test.ts",
      "test/importer-fixes.test.ts",
      "test/hybrid-import.test.ts",
      "test/mutate-importers-*.test.ts",
    ],
    // a mutant of names.ts or schema-repair.ts runs most of these files: one load of src/ for all
    sharedModules: true,
  },
  infer: {
    mutate: ["src/infer/**/*.ts"],
    // the domain tests serve in this process during mutation runs (vitest.mutate.config.ts)
    tests: [
      "test/infer-rules.test.ts",
      "test/infer-shapes.test.ts",
      "test/infer-domains*.test.ts",
      "test/infer-views.test.ts",
      "test/infer-filed.test.ts",
      "test/infer-keyed-by-name.test.ts",
      "test/infer-rated.test.ts",
      "test/infer-honest-guesses.test.ts",
      "test/infer-nested-lists.test.ts",
      "test/infer-listed.test.ts",
      "test/infer-linked.test.ts",
      "test/infer-places.test.ts",
      "test/infer-moves.test.ts",
      "test/infer-spans.test.ts",
      "test/infer-links.test.ts",
      "test/mutate-infer-*.test.ts",
    ],
    // each mutant runs many test files: they share one load of src/ (scripts/mutate.mjs)
    sharedModules: true,
  },
};

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts" },
  coverageAnalysis: "perTest",
  mutate: [...Object.values(ROOMS).flatMap((room) => room.mutate), "!src/**/index.ts"],
  // a rerun tests only mutants whose code or covering tests changed; every room's results are kept
  incremental: true,
  incrementalFile: "reports/mutation/incremental.json",
  // two cores shared with the rest of the machine
  concurrency: 2,
  // a busy machine makes tests slower; a mutant that loops still times out
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 80, break: null },
  // mutants reached only while modules load or in beforeAll hooks would each rerun every test:
  // the score counts the mutants tests reach one by one (docs/testing.md says how many are left out)
  ignoreStatic: true,
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
