// Mutation testing (docs/testing.md): `npm run mutate` runs every room below, incrementally;
// `npm run mutate -- --mutate "src/state/**"` runs one room and keeps the others' results.

/** The rooms where a silent bug costs most, and the files of each that are mutated. */
export const ROOMS = {
  engine: ["src/engine/**/*.ts"],
  expr: ["src/expr/**/*.ts"],
  store: ["src/store/sqlite.ts", "src/store/versions.ts", "src/store/documents.ts", "src/store/legacy.ts"],
  state: ["src/state/**/*.ts"],
  patch: ["src/patch/**/*.ts"],
  server: ["src/server/http.ts"],
  tasks: ["src/tasks/compare.ts", "src/tasks/golden.ts", "src/tasks/verdict.ts", "src/tasks/free-text.ts"],
  simulate: ["src/simulate/llm-answer.ts", "src/simulate/llm-contract.ts"],
  hybrid: ["src/hybrid/routes.ts"],
};

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts" },
  coverageAnalysis: "perTest",
  mutate: [...Object.values(ROOMS).flat(), "!src/**/index.ts"],
  // a rerun tests only mutants whose code or covering tests changed
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
