import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import {
  type CatalogReport,
  importToolAlpaca,
  type RunOptions,
  renderConsistency,
  reportOf,
  runOnToolsim,
} from "./self-consistency.js";
import type { Kind } from "./sequences.js";
import { runCli } from "./toolsim-process.js";

/**
 * OpenAPI specs imported as they are (`toolsim import openapi FILE`, no state, no hand
 * edits), served, and driven over MCP: every operation called once (its result against its
 * output schema, which SDK clients enforce), and create → read → update → read → list →
 * delete → read on each thing a create makes, counting the answers that contradict earlier
 * ones. Each argument is a folder of OpenAPI documents (YAML or JSON), one document, or a
 * ToolAlpaca data folder (whose eval files carry each API's document as text).
 */

export const OPENAPI_KINDS: ReadonlySet<Kind> = new Set(["crud-chain", "single-call"]);

export async function openApiCrudSection(
  paths: readonly string[],
  options: Omit<RunOptions, "kinds">,
): Promise<CatalogReport[]> {
  const reports: CatalogReport[] = [];
  for (const path of paths) {
    const work = mkdtempSync(join(tmpdir(), "toolsim-openapi-crud-"));
    const name = basename(path.replace(/\/+$/, ""));
    try {
      options.log?.(`${name}: importing`);
      const dir = await importSpecs(path, work);
      if (typeof dir !== "string") {
        reports.push({ ...reportOf(name, [], [], []), error: dir.error });
        continue;
      }
      reports.push(await runOnToolsim(name, dir, work, { ...options, kinds: OPENAPI_KINDS }));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return reports;
}

async function importSpecs(path: string, work: string): Promise<string | { error: string }> {
  if (!existsSync(path)) return { error: `${path}: no such file or folder` };
  if (statSync(path).isDirectory() && existsSync(join(path, "eval_real.json")))
    return importToolAlpaca(path, work);
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => [".yaml", ".yml", ".json"].includes(extname(f)))
        .sort()
        .map((f) => join(path, f))
    : [path];
  if (files.length === 0) return { error: `${path}: no OpenAPI documents (*.yaml, *.yml, *.json)` };
  const out = join(work, "toolsets");
  mkdirSync(out, { recursive: true });
  const failures: string[] = [];
  for (const file of files) {
    const run = await runCli(["import", "openapi", file, "--out", out, "--quiet"]);
    if (run.code !== 0)
      failures.push(`${basename(file)}: ${run.stderr.trim().split("\n").at(-1) ?? run.code}`);
  }
  if (failures.length === files.length) return { error: failures.slice(0, 3).join("; ") };
  return out;
}

export function renderOpenApiCrud(reports: readonly CatalogReport[]): string {
  return renderConsistency("OpenAPI specs imported as they are", reports);
}
