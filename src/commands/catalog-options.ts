import { existsSync } from "node:fs";
import {
  Catalog,
  type CatalogProblem,
  formatProblem,
  loadToolsets,
  type Toolset,
  toolsetSchemaProblems,
} from "../catalog/index.js";
import { taskFaultProblems } from "../faults/index.js";
import { inferLoaded, type ToolReport, tallyLine } from "../infer/index.js";
import { grounded } from "../simulate/index.js";
import { UsageError } from "./command.js";
import { DEFAULT_TOOLSETS } from "./paths.js";

export const CATALOG_OPTIONS = {
  toolsets: { type: "string", multiple: true },
  toolset: { type: "string", multiple: true },
} as const;

export const CATALOG_HELP = `  --toolsets PATH...   toolset files or folders to load (default: the shipped toolsets/)
  --toolset ID...      serve only these toolsets of what was loaded`;

export const INFER_OPTIONS = { "no-infer": { type: "boolean" } } as const;

export const INFER_HELP = `  --no-infer           take tools without effects as they are (by default their effects are inferred
                       in memory from names, schemas, descriptions and the state; see toolsim infer)`;

export interface CatalogSelection {
  toolsets?: string[];
  toolset?: string[];
}

export interface LoadedCatalog {
  catalog: Catalog;
  paths: string[];
  problems: CatalogProblem[];
  /** The per-tool inference report, when effects were inferred in memory. */
  inference?: ToolReport[];
}

/**
 * Loads the catalog a command works on. Errors in the files make it refuse (with every
 * problem printed); a selection of unknown toolset ids is a usage error.
 */
export function loadCatalog(
  selection: CatalogSelection,
  options: { checkSchemas?: boolean; infer?: boolean } = {},
): LoadedCatalog | undefined {
  const paths = selection.toolsets?.length ? selection.toolsets : [DEFAULT_TOOLSETS];
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    // nothing to lint: the path itself is wrong
    throw new UsageError(
      `--toolsets: ${missing.map((path) => `"${path}"`).join(", ")} ${missing.length === 1 ? "does" : "do"} not exist (no such file or folder, from ${process.cwd()})`,
    );
  }
  const loaded = loadToolsets(paths, { checkSchemas: options.checkSchemas });
  const errors = loaded.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) {
    for (const problem of loaded.problems) process.stderr.write(`${formatProblem(problem)}\n`);
    process.stderr.write(
      `toolsim: the catalog has ${errors.length} error(s); fix them (toolsim lint ${paths.join(" ")}) and start again.\n`,
    );
    return undefined;
  }
  const inferred = options.infer ? inferLoaded(loaded.toolsets) : undefined;
  let catalog = new Catalog(inferred?.loaded ?? loaded.toolsets);
  if (selection.toolset?.length) {
    const unknown = selection.toolset.filter((id) => !catalog.toolset(id));
    if (unknown.length > 0) {
      const known = catalog.toolsets.map((t) => t.id).join(", ");
      throw new UsageError(`unknown toolset id(s): ${unknown.join(", ")}. Loaded: ${known}`);
    }
    catalog = catalog.restrict(selection.toolset);
  }
  // a task's fault profile names tools and toolsets: checked against what will be served
  const faultProblems = taskFaultProblems(catalog);
  if (faultProblems.length > 0) {
    for (const problem of faultProblems) process.stderr.write(`${formatProblem(problem)}\n`);
    process.stderr.write(
      `toolsim: the catalog has ${faultProblems.length} error(s); fix them (toolsim lint ${paths.join(" ")}) and start again.\n`,
    );
    return undefined;
  }
  return { catalog, paths, problems: loaded.problems, inference: inferred?.report };
}

/**
 * Checks every input and output schema against the JSON Schema meta-schema, one toolset
 * per turn of the event loop and starting a moment after the server is up, so a large
 * catalog answers its first tools/list before the check is done. Problems are logged; a
 * tool whose schema cannot compile answers its calls with TOOL_SCHEMA_INVALID rather than
 * checking them wrongly.
 */
export function checkSchemasInBackground(
  catalog: Catalog,
  log: (line: string) => void,
  done: (problems: number) => void = () => {},
): void {
  const queue: Toolset[] = [...catalog.toolsets];
  let found = 0;
  const step = () => {
    const toolset = queue.shift();
    if (!toolset) {
      if (found > 0) log(`${found} schema problem(s) in the catalog; run toolsim lint for the full report`);
      done(found);
      return;
    }
    for (const problem of toolsetSchemaProblems(catalog.files.get(toolset.id) ?? toolset.id, toolset)) {
      found++;
      log(formatProblem(problem));
    }
    setImmediate(step);
  };
  // the first step compiles the meta-schema (about 100 ms): a client's first requests, which
  // arrive at once, are answered before it
  setTimeout(step, FIRST_CHECK_DELAY_MS);
}

const FIRST_CHECK_DELAY_MS = 250;

/** What in-memory inference did, in one line for start-up logs. */
export function inferenceLine(report: readonly ToolReport[] | undefined): string | undefined {
  if (!report) return undefined;
  return `${tallyLine(report)} (in memory; toolsim infer PATH shows why, --write keeps them, --no-infer skips)`;
}

/**
 * How the catalog's answers are grounded, in one line for start-up logs: tools whose effects
 * answer everything, tools whose answers are partly synthesized, tools with no effects at
 * all (answered by synthesis alone), and who answers the guesses.
 */
export function groundingLine(catalog: Catalog, modelForGuesses: boolean): string {
  const tools = catalog.allTools();
  const whole = tools.filter((t) => t.effects.length === 0).length;
  const partly = tools.filter((t) => t.effects.length > 0 && !grounded(t)).length;
  const full = tools.length - whole - partly;
  const who = modelForGuesses
    ? "the model answers the guessed ones"
    : "guessed values are synthesized offline and listed in each result's _meta (toolsim/call.guessed); configure a model to answer them";
  return `answers: ${full} tool(s) grounded by effects, ${partly} partly guessed, ${whole} guessed entirely (no effects); ${who}`;
}
