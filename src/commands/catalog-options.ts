import { Catalog, type CatalogProblem, formatProblem, loadToolsets } from "../catalog/index.js";
import { UsageError } from "./command.js";
import { DEFAULT_TOOLSETS } from "./paths.js";

export const CATALOG_OPTIONS = {
  toolsets: { type: "string", multiple: true },
  toolset: { type: "string", multiple: true },
} as const;

export const CATALOG_HELP = `  --toolsets PATH...   toolset files or folders to load (default: the shipped toolsets/)
  --toolset ID...      serve only these toolsets of what was loaded`;

export interface CatalogSelection {
  toolsets?: string[];
  toolset?: string[];
}

export interface LoadedCatalog {
  catalog: Catalog;
  paths: string[];
  problems: CatalogProblem[];
}

/**
 * Loads the catalog a command works on. Errors in the files make it refuse (with every
 * problem printed); a selection of unknown toolset ids is a usage error.
 */
export function loadCatalog(
  selection: CatalogSelection,
  options: { checkSchemas?: boolean } = {},
): LoadedCatalog | undefined {
  const paths = selection.toolsets?.length ? selection.toolsets : [DEFAULT_TOOLSETS];
  const loaded = loadToolsets(paths, { checkSchemas: options.checkSchemas });
  const errors = loaded.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) {
    for (const problem of loaded.problems) process.stderr.write(`${formatProblem(problem)}\n`);
    process.stderr.write(
      `toolsim: the catalog has ${errors.length} error(s); fix them (toolsim lint ${paths.join(" ")}) and start again.\n`,
    );
    return undefined;
  }
  let catalog = new Catalog(loaded.toolsets);
  if (selection.toolset?.length) {
    const unknown = selection.toolset.filter((id) => !catalog.toolset(id));
    if (unknown.length > 0) {
      const known = catalog.toolsets.map((t) => t.id).join(", ");
      throw new UsageError(`unknown toolset id(s): ${unknown.join(", ")}. Loaded: ${known}`);
    }
    catalog = catalog.restrict(selection.toolset);
  }
  return { catalog, paths, problems: loaded.problems };
}
