import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Defaults are resolved against the package, not the working directory, so a client that
 * starts `toolsim` from anywhere (Claude Desktop starts it in /) finds the shipped catalog.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DEFAULT_TOOLSETS = join(PACKAGE_ROOT, "toolsets");
export const CLI_PATH = join(PACKAGE_ROOT, "dist", "cli.js");
export const PACKAGE_NAME = "toolsim";
const BIN_NAME = "toolsim";
const DB_NAME = "toolsim.db";

/**
 * How this copy of toolsim was installed, which decides where its state lives and how a
 * client should start it: a source checkout, npx's cache, a global install (with the bin
 * npm linked for it), or a dependency inside some project's node_modules.
 */
export type Installation =
  | { kind: "checkout" }
  | { kind: "npx" }
  | { kind: "global"; bin: string }
  | { kind: "dependency" };

export function installationOf(root: string = PACKAGE_ROOT, platform = process.platform): Installation {
  const parts = root.split(/[\\/]+/);
  if (!parts.includes("node_modules")) return { kind: "checkout" };
  if (parts.includes("_npx")) return { kind: "npx" };
  const bin = globalBin(root, platform);
  return bin ? { kind: "global", bin } : { kind: "dependency" };
}

/** npm's global layout: <prefix>/lib/node_modules/<name> and <prefix>/bin/<bin> (Windows: <prefix>/node_modules/<name> and <prefix>/<bin>.cmd). */
function globalBin(root: string, platform: NodeJS.Platform): string | undefined {
  const modules = dirname(root.replace(/[\\/]+$/, ""));
  if (basename(modules) !== "node_modules") return undefined;
  if (platform === "win32") {
    const cmd = join(dirname(modules), `${BIN_NAME}.cmd`);
    return existsSync(cmd) ? cmd : undefined;
  }
  const lib = dirname(modules);
  if (basename(lib) !== "lib") return undefined;
  const bin = join(dirname(lib), "bin", BIN_NAME);
  return existsSync(bin) ? bin : undefined;
}

export interface StateEnvironment {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
}

const HERE: StateEnvironment = { env: process.env, platform: process.platform, home: homedir() };

/**
 * The folder that holds toolsim's state file. `TOOLSIM_HOME` wins; a source checkout keeps
 * its own `state/`; an installed copy never writes inside its package (reinstalling, or
 * clearing npx's cache, would delete every session, and a root-owned install cannot be
 * written at all), so it uses the user's data directory.
 */
export function stateDirectory(
  installation: Installation = installationOf(),
  where: StateEnvironment = HERE,
  root: string = PACKAGE_ROOT,
): string {
  const home = where.env.TOOLSIM_HOME?.trim();
  if (home) return resolve(home);
  if (installation.kind === "checkout") return join(root, "state");
  return userDataDirectory(where);
}

/** `$XDG_DATA_HOME/toolsim` or `~/.local/share/toolsim`; `~/Library/Application Support/toolsim` on macOS; `%LOCALAPPDATA%\toolsim` on Windows. */
export function userDataDirectory({ env, platform, home }: StateEnvironment): string {
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), PACKAGE_NAME);
  if (platform === "darwin") return join(home, "Library", "Application Support", PACKAGE_NAME);
  // the XDG spec ignores a relative XDG_DATA_HOME
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, ".local", "share"), PACKAGE_NAME);
}

/** The default state file: `toolsim.db` in the state directory. */
export function defaultDbFile(): string {
  return join(stateDirectory(), DB_NAME);
}

/** Where versions before the state directory kept the file: inside the package. */
export function legacyDbFile(root: string = PACKAGE_ROOT): string {
  return join(root, "state", DB_NAME);
}

/**
 * The command a client (Claude Desktop) should run to start this toolsim over stdio, one
 * that keeps working after npx's cache is cleared and on another Node: npx fetches the
 * package again, a global install runs through the bin npm linked, a checkout or a
 * dependency through whichever `node` is on the PATH (never a path into npx's cache, never
 * this process's Node binary).
 */
export function launchCommand(
  installation: Installation = installationOf(),
  path: string | undefined = process.env.PATH,
): { command: string; args: string[] } {
  switch (installation.kind) {
    case "npx":
      return { command: "npx", args: ["-y", PACKAGE_NAME] };
    case "global":
      return { command: onPath(BIN_NAME, installation.bin, path) ? BIN_NAME : installation.bin, args: [] };
    default:
      return { command: "node", args: [CLI_PATH] };
  }
}

/** Whether `name` on the PATH is this very file (a short command is nicer, but only if it is ours). */
function onPath(name: string, file: string, path: string | undefined): boolean {
  const wanted = realpathOrSelf(file);
  return (path ?? "")
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      const candidate = join(dir, name);
      return existsSync(candidate) && realpathOrSelf(candidate) === wanted;
    });
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
