import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { defaultDbFile, type Installation, installationOf, legacyDbFile } from "./paths.js";

/** SQLite's companions of a database file in WAL mode; they belong with it. */
const COMPANIONS = ["-wal", "-shm"];

/**
 * The state file a command opens: `--db`, then `TOOLSIM_DB`, then the default in the
 * state directory; `:memory:` keeps the state in memory, in no file. Finding the default's file still inside an installed package (where
 * older versions kept it), it moves it out first, once, and says so.
 */
export function resolveDbFile(
  flag: string | undefined,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = flag ?? (env.TOOLSIM_DB?.trim() || undefined);
  // SQLite's name for a database that lives and dies with the process, not a file name
  if (chosen === ":memory:") return chosen;
  if (chosen) return resolve(chosen);
  const target = defaultDbFile();
  moveLegacyDb(installationOf(), legacyDbFile(), target, log);
  return target;
}

/**
 * Moves the state file (with its WAL companions) from inside an installed package to
 * `target`. Copies first and renames the database into place last, so an interrupted move
 * leaves the old file whole; an old file that cannot be removed (a root-owned package) is
 * left where it was, with a note.
 */
export function moveLegacyDb(
  installation: Installation,
  legacy: string,
  target: string,
  log: (line: string) => void,
): "moved" | "copied" | "kept" | "none" {
  if (installation.kind === "checkout" || resolve(legacy) === resolve(target) || !existsSync(legacy))
    return "none";
  if (existsSync(target)) {
    log(
      `an older state file remains at ${legacy}; this toolsim uses ${target} (pass --db ${legacy} to open the old one)`,
    );
    return "kept";
  }
  const files = ["", ...COMPANIONS].filter((suffix) => existsSync(legacy + suffix));
  try {
    mkdirSync(dirname(target), { recursive: true });
    for (const suffix of files) copyFileSync(legacy + suffix, `${target}${suffix}.moving`);
    // the database last: once it is in place, its WAL already is
    for (const suffix of [...files].reverse()) renameSync(`${target}${suffix}.moving`, target + suffix);
  } catch (error) {
    for (const suffix of files) rmSync(`${target}${suffix}.moving`, { force: true });
    const reason = error instanceof Error ? error.message : String(error);
    log(
      `could not move the state file ${legacy} to ${target} (${reason}); pass --db ${legacy} to keep using it`,
    );
    return "kept";
  }
  const why =
    "toolsim keeps its state outside the package now, so reinstalling or clearing npx's cache keeps your sessions";
  try {
    for (const suffix of files) unlinkSync(legacy + suffix);
  } catch {
    log(`copied the state file ${legacy} to ${target}; the original could not be removed (${why})`);
    return "copied";
  }
  log(`moved the state file from ${legacy} to ${target} (${why})`);
  return "moved";
}
