import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Defaults are resolved against the package, not the working directory, so a client that
 * starts `toolsim` from anywhere (Claude Desktop starts it in /) finds the shipped catalog
 * and the same state file.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DEFAULT_TOOLSETS = join(PACKAGE_ROOT, "toolsets");
export const DEFAULT_DB = join(PACKAGE_ROOT, "state", "toolsim.db");
export const CLI_PATH = join(PACKAGE_ROOT, "dist", "cli.js");
