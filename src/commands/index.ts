import { checkpointCommand } from "./checkpoint.js";
import type { Command } from "./command.js";
import { dedupCommand } from "./dedup.js";
import { demoCommand } from "./demo.js";
import { exportCommand } from "./export.js";
import { forkCommand } from "./fork.js";
import { importCommand } from "./import.js";
import { lintCommand } from "./lint.js";
import { listCommand } from "./list.js";
import { reportCommand } from "./report.js";
import { restoreCommand } from "./restore.js";
import { schemaCommand } from "./schema.js";
import { serveCommand } from "./serve.js";
import { sessionsCommand } from "./sessions.js";

export { type Command, UsageError } from "./command.js";
export { readBfcl, readDatabase, readDocument, readSynthTools } from "./import-sources.js";
export { CLI_PATH, DEFAULT_DB, DEFAULT_TOOLSETS, PACKAGE_ROOT } from "./paths.js";
export { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";

/** Every command of the CLI, in the order `toolsim --help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  listCommand,
  lintCommand,
  schemaCommand,
  importCommand,
  dedupCommand,
  sessionsCommand,
  checkpointCommand,
  restoreCommand,
  forkCommand,
  reportCommand,
  exportCommand,
  demoCommand,
];
