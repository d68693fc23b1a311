/** A problem found in a catalog file: where it is and why, never a stack trace. */
export interface CatalogProblem {
  file: string;
  /** JSON path inside the file, e.g. `tools[2].inputSchema.properties.limit`; empty for the whole file. */
  path: string;
  message: string;
  severity: "error" | "warning";
}

export function formatPath(segments: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment))
      out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

export function formatProblem(problem: CatalogProblem): string {
  const where = problem.path ? `${problem.file} at ${problem.path}` : problem.file;
  return `${problem.severity}: ${where}: ${problem.message}`;
}
