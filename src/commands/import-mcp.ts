import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import {
  formatImportProblem,
  formatProblem,
  loadToolsets,
  Toolset,
  toolsetFromMcpTools,
} from "../catalog/index.js";
import { UpstreamConnection, type UpstreamSpec } from "../hybrid/index.js";
import { readState } from "../sources/index.js";
import { UsageError } from "./command.js";
import { SEED_OPTIONS, seedHelp, seedLines, seedRequestOf, seedToolsets } from "./import-seed.js";
import { parseArgs } from "./options.js";

export const IMPORT_MCP_HELP = `toolsim import mcp — snapshot a live MCP server's tools into a toolset file

Usage: toolsim import mcp [options] -- COMMAND ARGS…     (a server started over stdio)
       toolsim import mcp [options] --url URL             (a Streamable HTTP server)

Options
  --out DIR|FILE       a .json file, or a folder to write <id>.json into (default: print to stdout)
  --id ID              toolset id (default: from the server's name)
  --url URL            the server's Streamable HTTP endpoint
  --header K:V         an HTTP header for --url (repeatable), e.g. "Authorization: Bearer …"
  --env K=V            an environment variable for COMMAND (repeatable)
  --timeout S          seconds the server may take to start (default 30)
  --state PATH         a JSON database (file, or folder of JSON files, one per collection) as
                       the toolset's starting state
${seedHelp(23)}
  --force              overwrite an existing file

The toolset keeps each tool's inputSchema, outputSchema and annotations, so
\`toolsim serve --toolsets FILE\` simulates the server's interface with no server at all.
`;

/**
 * `toolsim import mcp -- COMMAND ARGS…` / `--url URL`: connects, lists the tools, writes
 * them as a toolset, and loads the file back to check it.
 */
export async function runImportMcp(argv: string[]): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h") {
    process.stdout.write(IMPORT_MCP_HELP);
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      out: { type: "string" },
      id: { type: "string" },
      url: { type: "string" },
      header: { type: "string", multiple: true },
      env: { type: "string", multiple: true },
      timeout: { type: "string", default: "30" },
      state: { type: "string" },
      force: { type: "boolean" },
      ...SEED_OPTIONS,
    },
    allowPositionals: true,
    strict: true,
  });
  const [command, ...args] = positionals;
  if (values.url && command) throw new UsageError("give either --url URL or -- COMMAND ARGS…, not both");
  if (!values.url && !command) throw new UsageError("name the server: -- COMMAND ARGS… or --url URL");
  if (values.id !== undefined && !/^[a-z0-9][a-z0-9_.-]*$/.test(values.id)) {
    throw new UsageError(`--id takes lowercase letters, digits, _ . - (got "${values.id}")`);
  }
  const seeding = seedRequestOf(values);
  const seconds = Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--timeout takes seconds; got "${values.timeout}"`);
  const log = (line: string) => process.stderr.write(`toolsim import mcp: ${line}\n`);
  const state = values.state === undefined ? undefined : readState(values.state);
  if (state?.error) {
    log(`--state ${state.error}`);
    return 1;
  }
  const spec: UpstreamSpec = values.url
    ? {
        kind: "http",
        name: "import",
        url: values.url,
        headers: pairs(values.header ?? [], ":", "--header"),
        routes: noRoutes(),
      }
    : {
        kind: "stdio",
        name: "import",
        command: command ?? "",
        args,
        env: pairs(values.env ?? [], "=", "--env"),
        routes: noRoutes(),
      };

  const connection = new UpstreamConnection(spec, {
    startTimeoutMs: seconds * 1000,
    log: () => {},
    onToolsChanged: () => {},
  });
  const started = await connection.start();
  const tools = connection.tools;
  const serverInfo = connection.serverInfo;
  await connection.close();
  if (!started.ok) {
    log(`the server did not start: ${started.message}`);
    return 1;
  }
  const id =
    values.id ?? slug(serverInfo?.name ?? (command ? basename(command) : new URL(values.url ?? "").hostname));
  const imported = toolsetFromMcpTools({ tools }, { id, serverInfo });
  if (state?.value) imported.toolset.state = state.value;
  if (seeding) {
    // the importer's toolset as written; seeding reads it with the format's defaults filled in
    const seeded = seedToolsets([Toolset.parse(imported.toolset)], seeding);
    imported.toolset.state = seeded.toolsets[0]?.state ?? imported.toolset.state;
    for (const line of seedLines(seeded.outcomes, seeding)) log(line);
  }
  for (const problem of imported.problems) log(formatImportProblem(problem));
  if (imported.toolset.tools.length === 0) {
    log("the server lists no usable tools; nothing written");
    return 1;
  }
  const text = `${JSON.stringify(imported.toolset, null, 2)}\n`;
  if (!values.out) {
    process.stdout.write(text);
    return 0;
  }
  const file = targetFile(values.out, id);
  if (existsSync(file) && !values.force) {
    log(`${file} exists; pass --force to overwrite it`);
    return 1;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  const check = loadToolsets([file]);
  const errors = check.problems.filter((p) => p.severity === "error");
  for (const problem of check.problems) log(formatProblem(problem));
  if (errors.length > 0) return 1;
  log(`wrote ${file}: ${imported.toolset.tools.length} tools of ${serverInfo?.name ?? id}`);
  return 0;
}

function targetFile(out: string, id: string): string {
  const isFolder = existsSync(out) ? statSync(out).isDirectory() : extname(out) !== ".json";
  return isFolder ? join(out, `${id}.json`) : out;
}

function pairs(items: string[], separator: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} takes KEY${separator}VALUE; got "${item}"`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

function noRoutes() {
  return { pass: [], simulate: [] };
}

function slug(raw: string): string {
  return (
    raw
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, "-")
      .replace(/^[^a-z0-9]+|-+$/g, "") || "mcp-server"
  );
}
