import type { Command } from "./command.js";
import { lintCommand } from "./lint.js";
import { listCommand } from "./list.js";
import { schemaCommand } from "./schema.js";
import { serveCommand } from "./serve.js";

export { type Command, UsageError } from "./command.js";
export { CLI_PATH, DEFAULT_DB, DEFAULT_TOOLSETS, PACKAGE_ROOT } from "./paths.js";
export { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";

/** Every command of the CLI, in the order `toolsim --help` lists them. */
export const COMMANDS: readonly Command[] = [serveCommand, listCommand, lintCommand, schemaCommand];
