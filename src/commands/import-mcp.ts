/**
 * `toolsim import mcp -- COMMAND ARGS…` / `--url URL`: snapshots a live MCP server's
 * tools/list into a toolset file. Filled in by the hybrid room; the import command
 * dispatches here.
 */
export async function runImportMcp(_argv: string[]): Promise<number> {
  process.stderr.write("toolsim import mcp: not available in this build\n");
  return 1;
}
