import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** toolsim's version as its package.json states it: the one place the version is written. */
export const TOOLSIM_VERSION = packageVersion();

function packageVersion(): string {
  // src/, dist/ and dist-bench/src/ sit at different depths below the package: look upwards
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = readManifest(join(dir, "package.json"));
    if (manifest?.name === "toolsim" && typeof manifest.version === "string") return manifest.version;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`toolsim's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

function readManifest(file: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}
