/**
 * Which test runs which block of the project's pages. Every fenced block of README.md and
 * docs/*.md is claimed here by the test that runs it as written (a command, a snippet),
 * loads it with the real loader (a catalog or configuration example) or compares it with
 * what toolsim prints (sample output); test/docs-coverage.test.ts fails for a block nobody
 * claims. A test that uses `DocRun` marks what it ran, and fails when it left out a block
 * it claims here.
 */

/** Which blocks of a page: under a heading, of a language ("" for none), starting with a text, the nth of those. */
export interface FenceQuery {
  heading?: string;
  lang?: string;
  startsWith?: string;
  nth?: number;
}

export interface Claim {
  /** The test file, relative to the project. */
  test: string;
  doc: string;
  query: FenceQuery;
  /** What the test does with the blocks. */
  how: "runs" | "loads" | "compares";
  /** When the test covers only some command lines of a block: those (without their comments). */
  lines?: string[];
}

/** Lines of a command block that no test runs, and why. Keep it short. */
export interface NotRun {
  doc: string;
  /** The command line, without its comment. */
  line: string;
  why: string;
}

/** Blocks that show something no program prints or reads (a diagram), and why. Keep it short. */
export interface Illustration {
  doc: string;
  query: FenceQuery;
  why: string;
}

const README = "README.md";
/** The CI script: it runs these commands itself, on a fresh clone, on every change. */
export const CI = ".ci/run";

export const CLAIMS: Claim[] = [
  // README.md
  {
    test: "test/run-docs.test.ts",
    doc: README,
    query: { heading: "toolsim", lang: "sh" },
    how: "runs",
    lines: ["toolsim run --model gpt-4.1-mini -k 3"],
  },
  {
    test: "test/start-docs.test.ts",
    doc: README,
    query: { heading: "toolsim", lang: "sh" },
    how: "runs",
    lines: ["npm start"],
  },
  {
    test: "test/demo-docs.test.ts",
    doc: README,
    query: { heading: "toolsim", lang: "sh" },
    how: "runs",
    lines: ["npm run demo"],
  },
  { test: CI, doc: README, query: { heading: "toolsim", lang: "sh" }, how: "runs", lines: ["npm test"] },
  {
    test: "test/start-docs.test.ts",
    doc: README,
    query: { heading: "What `npm start` gives you" },
    how: "compares",
  },
  { test: "test/readme-docs.test.ts", doc: README, query: { heading: "Where state lives" }, how: "compares" },
  {
    test: "test/llm-docs.test.ts",
    doc: README,
    query: { heading: "Engines: offline by default, any OpenAI-compatible model when you want one" },
    how: "runs",
  },
  {
    test: "test/demo-docs.test.ts",
    doc: README,
    query: { heading: "Dry-running agents: tasks, feedback, reports" },
    how: "runs",
    lines: ["npm run demo"],
  },
  {
    test: "test/readme-docs.test.ts",
    doc: README,
    query: { heading: "Dry-running agents: tasks, feedback, reports" },
    how: "runs",
    lines: ["toolsim serve --task ecom-approve-defective-headphones --distractors 5"],
  },
  { test: "test/readme-docs.test.ts", doc: README, query: { heading: "Faults on purpose" }, how: "runs" },
  {
    test: "test/readme-docs.test.ts",
    doc: README,
    query: { heading: "Hybrid mode: real servers behind toolsim" },
    how: "runs",
  },
  {
    test: "test/readme-docs.test.ts",
    doc: README,
    query: { heading: "Bringing your own tools" },
    how: "runs",
  },
  {
    test: "test/scale-out-docs.test.ts",
    doc: README,
    query: { heading: "Many processes, one PostgreSQL" },
    how: "runs",
  },
  {
    test: "test/start-docs.test.ts",
    doc: README,
    query: { heading: "Development" },
    how: "runs",
    lines: ["npm run build"],
  },
  {
    test: CI,
    doc: README,
    query: { heading: "Development" },
    how: "runs",
    lines: ["npm run typecheck", "npm run lint", "npm test"],
  },

  // docs/architecture.md: the layer diagram is read and held to the imports of src/
  { test: "test/architecture.test.ts", doc: "docs/architecture.md", query: {}, how: "compares" },

  { test: "test/audit-docs.test.ts", doc: "docs/audit.md", query: {}, how: "runs" },

  { test: "test/catalog-docs.test.ts", doc: "docs/catalog.md", query: { lang: "json" }, how: "loads" },
  { test: "test/catalog-docs.test.ts", doc: "docs/catalog.md", query: { lang: "sh" }, how: "runs" },
  { test: "test/catalog-docs.test.ts", doc: "docs/compute.md", query: {}, how: "compares" },

  { test: "test/faults-docs.test.ts", doc: "docs/faults.md", query: {}, how: "runs" },

  { test: "test/frameworks-snippets.test.ts", doc: "docs/frameworks.md", query: { lang: "ts" }, how: "runs" },

  { test: "test/generate-docs.test.ts", doc: "docs/generate.md", query: { lang: "sh" }, how: "runs" },
  {
    test: "test/generate-docs.test.ts",
    doc: "docs/generate.md",
    query: { heading: "Stage files and resuming" },
    how: "compares",
  },
  {
    test: "test/generate-docs.test.ts",
    doc: "docs/generate.md",
    query: { heading: "Progress and cost" },
    how: "compares",
  },

  { test: "test/hybrid-docs.test.ts", doc: "docs/hybrid.md", query: {}, how: "runs" },

  { test: "test/importers-docs.test.ts", doc: "docs/importers.md", query: {}, how: "runs" },

  { test: "test/llm-docs.test.ts", doc: "docs/llm.md", query: {}, how: "runs" },

  { test: "test/run-docs.test.ts", doc: "docs/run.md", query: {}, how: "runs" },

  { test: "test/scale-out-docs.test.ts", doc: "docs/scale-out.md", query: { lang: "sh" }, how: "runs" },

  {
    test: "test/demo-docs.test.ts",
    doc: "docs/tasks.md",
    query: { heading: "Task mode: dry-run an agent, judge it, keep the trace" },
    how: "runs",
  },
  {
    test: "test/tasks-docs.test.ts",
    doc: "docs/tasks.md",
    query: { heading: "Serving a task" },
    how: "runs",
  },
  {
    test: "test/tasks-docs.test.ts",
    doc: "docs/tasks.md",
    query: { heading: "Command line" },
    how: "compares",
  },
  { test: "test/tasks-docs.test.ts", doc: "docs/tasks.md", query: { heading: "Export" }, how: "compares" },

  {
    test: "test/demo-docs.test.ts",
    doc: "docs/testing.md",
    query: { heading: "Mutation testing" },
    how: "runs",
    lines: ["npm run mutate -- --scores"],
  },
];

export const NOT_RUN: NotRun[] = [
  {
    doc: README,
    line: "npm install",
    why: "CI installs the locked versions itself (npm ci); a test would rewrite the node_modules the suite runs from",
  },
  { doc: README, line: "npm run bench", why: "measuring takes many minutes and wants a quiet machine" },
  {
    doc: "docs/benchmarks.md",
    line: "npm run bench",
    why: "measuring takes many minutes and wants a quiet machine",
  },
  {
    doc: "docs/benchmarks.md",
    line: "npm run bench -- --quick",
    why: "every section, fewer samples: over ten minutes on a busy two-core machine",
  },
  {
    doc: "docs/benchmarks.md",
    line: "npm run bench -- --calls 5000 --warmup 500 --settle 2000 --runs 5 --only core",
    why: "measuring takes many minutes and wants a quiet machine",
  },
  { doc: "docs/testing.md", line: "npm run mutate", why: "every room's mutation run: hours" },
  {
    doc: "docs/testing.md",
    line: "npm run mutate -- state expr",
    why: "two rooms' mutation runs: many minutes",
  },
  {
    doc: "docs/testing.md",
    line: "npm run mutate -- engine --concurrency 1",
    why: "the engine room's mutation run: half an hour",
  },
  {
    doc: "docs/testing.md",
    line: "npm run mutate -- --mutate src/engine/effects.ts:300-340",
    why: "mutants of a few lines against every in-process test: many minutes",
  },
];

export const ILLUSTRATIONS: Illustration[] = [
  {
    doc: "docs/catalog.md",
    query: { heading: "The catalog format", lang: "" },
    why: "the hierarchy, as a diagram",
  },
  {
    doc: "docs/generate.md",
    query: { heading: "Generating a catalog", lang: "" },
    why: "the stages, as a diagram",
  },
  { doc: "docs/scale-out.md", query: { heading: "Topology", lang: "" }, why: "the topology, as a diagram" },
];
