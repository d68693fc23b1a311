import { join, resolve } from "node:path";
import { Catalog, loadToolsets } from "../../src/catalog/index.js";
import { createRuntime, type Runtime } from "../../src/runtime/index.js";
import type { Simulator } from "../../src/simulate/index.js";
import { tempDir } from "./processes.js";

export const FIXTURES = resolve(import.meta.dirname, "../fixtures");
export const LIBRARY = join(FIXTURES, "core", "library.json");

/** Loads toolset files into a Catalog, failing the test on any load error. */
export function catalogOf(paths: string[]): Catalog {
  const loaded = loadToolsets(paths);
  const errors = loaded.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) throw new Error(`fixture catalog has errors: ${JSON.stringify(errors, null, 2)}`);
  return new Catalog(loaded.toolsets);
}

/** A runtime (store, engine, hub) on a fresh SQLite file in a temp folder. */
export async function openRuntime(
  paths: string[] = [LIBRARY],
  options: { seed?: string; simulator?: Simulator; deadlineMs?: number } = {},
): Promise<Runtime & { db: string; dispose: () => Promise<void> }> {
  const dir = tempDir();
  const db = join(dir.path, "toolsim.db");
  const runtime = await createRuntime({ catalog: catalogOf(paths), db, ...options });
  return {
    ...runtime,
    db,
    dispose: async () => {
      await runtime.close();
      dir.cleanup();
    },
  };
}

/** A call's result as an object, failing the test when it is not one. */
export function objectResult(outcome: { result?: unknown }): Record<string, unknown> {
  const { result } = outcome;
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    throw new Error(`expected an object result, got ${JSON.stringify(result)}`);
  }
  return result as Record<string, unknown>;
}
