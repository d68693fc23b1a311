/**
 * In-process cost of loading a catalog, measured in a fresh process per mode so every
 * figure is a cold start, as a server sees it:
 *
 *   node catalog-load.js --mode checked DIR     loadToolsets (schemas meta-validated) + Catalog
 *   node catalog-load.js --mode unchecked DIR   loadToolsets with checkSchemas: false + Catalog
 *   node catalog-load.js --mode phases DIR      read+JSON.parse, zod parse, meta-validation, one by one
 *   node catalog-load.js --mode imports         importing the CLI's command registry (every module serve loads)
 *
 * Prints one JSON object on stdout.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Catalog, findToolsetFiles, loadToolsets, schemaProblems, Toolset } from "../src/catalog/index.js";
import { round } from "./stats.js";

export type LoadMode = "checked" | "unchecked" | "phases" | "imports";

/** The module graph `toolsim serve` loads before it starts (the CLI loads only the command it runs). */
const COMMANDS_MODULE = new URL("../../dist/commands/serve.js", import.meta.url).href;

async function imports() {
  const started = performance.now();
  await import(COMMANDS_MODULE);
  return { importMs: round(performance.now() - started, 1) };
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: round(performance.now() - started, 1) };
}

function loadAndIndex(dir: string, checkSchemas: boolean) {
  const load = timed(() => loadToolsets([dir], { checkSchemas }));
  const errors = load.value.problems.filter((p) => p.severity === "error");
  if (errors.length > 0)
    throw new Error(`catalog has ${errors.length} error(s), first: ${JSON.stringify(errors[0])}`);
  const index = timed(() => new Catalog(load.value.toolsets));
  return {
    loadToolsetsMs: load.ms,
    catalogMs: index.ms,
    totalMs: round(load.ms + index.ms, 1),
    tools: index.value.toolCount,
    heapUsedMb: round(process.memoryUsage().heapUsed / 2 ** 20, 1),
    rssMb: round(process.memoryUsage().rss / 2 ** 20, 1),
  };
}

function phases(dir: string) {
  const { files } = findToolsetFiles([dir]);
  const parsed = timed(() => files.map((file) => JSON.parse(readFileSync(file, "utf8")) as unknown));
  const shaped = timed(() => parsed.value.map((json) => Toolset.parse(json)));
  const schemas = shaped.value.flatMap((toolset) =>
    toolset.tools.flatMap((tool) =>
      tool.outputSchema ? [tool.inputSchema, tool.outputSchema] : [tool.inputSchema],
    ),
  );
  const meta = timed(() => schemas.reduce((count, schema) => count + schemaProblems(schema).length, 0));
  if (meta.value > 0) throw new Error(`${meta.value} schema problem(s) in the generated catalog`);
  return {
    files: files.length,
    schemas: schemas.length,
    readAndJsonParseMs: parsed.ms,
    zodParseMs: shaped.ms,
    metaValidationMs: meta.ms,
  };
}

const { values, positionals } = parseArgs({
  options: { mode: { type: "string", default: "checked" } },
  allowPositionals: true,
  strict: true,
});
const dir = positionals[0];
if (!dir && values.mode !== "imports")
  throw new Error("usage: catalog-load.js --mode checked|unchecked|phases|imports DIR");
const result =
  values.mode === "imports"
    ? await imports()
    : values.mode === "phases"
      ? phases(dir ?? "")
      : loadAndIndex(dir ?? "", values.mode !== "unchecked");
process.stdout.write(`${JSON.stringify(result)}\n`);
