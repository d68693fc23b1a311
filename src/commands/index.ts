import type { Command } from "./command.js";

export { type Command, UsageError } from "./command.js";
export { CLI_PATH, DEFAULT_TOOLSETS, defaultDbFile, PACKAGE_ROOT } from "./paths.js";

/** A command as the CLI lists it; its module loads only when it runs, so a start pays for one command. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/** Every command of the CLI, in the order `toolsim --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "serve",
    summary: "serve the catalog over MCP (Streamable HTTP or stdio)",
    load: async () => (await import("./serve.js")).serveCommand,
  },
  {
    name: "list",
    summary: "show the catalog's toolsets, tools and tasks",
    load: async () => (await import("./list.js")).listCommand,
  },
  {
    name: "lint",
    summary: "check toolset files; exit 1 on any error",
    load: async () => (await import("./lint.js")).lintCommand,
  },
  {
    name: "schema",
    summary: "print the toolset file format as JSON Schema (for editors)",
    load: async () => (await import("./schema.js")).schemaCommand,
  },
  {
    name: "import",
    summary: "turn SynthTools, OpenAPI, BFCL, OpenAI or MCP tool definitions into toolset files",
    load: async () => (await import("./import.js")).importCommand,
  },
  {
    name: "infer",
    summary: "infer effects for tools without them (reads, lookups, writes, errors, guards); report per tool",
    load: async () => (await import("./infer.js")).inferCommand,
  },
  {
    name: "dedup",
    summary: "find near-duplicate tools (embeddings or offline TF-IDF) and report what would be dropped",
    load: async () => (await import("./dedup.js")).dedupCommand,
  },
  {
    name: "audit",
    summary: "stress-test tools in four modes, score reliability, optionally drop unreliable tools",
    load: async () => (await import("./audit.js")).auditCommand,
  },
  {
    name: "generate",
    summary: "generate toolsets and tasks with a model, stage by stage, resumable",
    load: async () => (await import("./generate.js")).generateCommand,
  },
  {
    name: "run",
    summary: "put a model or any agent through a task set, k attempts per task; pass^k, costs, traces",
    load: async () => (await import("./run.js")).runCommand,
  },
  {
    name: "sessions",
    summary: "list stored sessions: task, state version, calls, checkpoints",
    load: async () => (await import("./sessions.js")).sessionsCommand,
  },
  {
    name: "checkpoint",
    summary: "name a session's current (or given) state version",
    load: async () => (await import("./checkpoint.js")).checkpointCommand,
  },
  {
    name: "restore",
    summary: "move a session's state back to a checkpoint",
    load: async () => (await import("./restore.js")).restoreCommand,
  },
  {
    name: "fork",
    summary: "copy a session at a checkpoint or version into a new session",
    load: async () => (await import("./fork.js")).forkCommand,
  },
  {
    name: "report",
    summary: "report a session: calls, ToolScan pattern rates, verdict, tokens, latency",
    load: async () => (await import("./report.js")).reportCommand,
  },
  {
    name: "export",
    summary: "write sessions as OpenAI chat JSONL with a reward per call",
    load: async () => (await import("./export.js")).exportCommand,
  },
  {
    name: "demo",
    summary: "a scripted agent works a task over MCP and prints the report",
    load: async () => (await import("./demo.js")).demoCommand,
  },
];
