import { createHash } from "node:crypto";
import { readFileSync, watch } from "node:fs";
import { resolve } from "node:path";
import {
  Catalog,
  formatProblem,
  isSchemaProfile,
  loadToolsets,
  reservedNameProblems,
  SCHEMA_PROFILES,
  type SchemaProfile,
} from "../catalog/index.js";
import { taskFaultProblems } from "../faults/index.js";
import { inferLoaded } from "../infer/index.js";
import { createRuntime, type Runtime } from "../runtime/index.js";
import { ListenError, SESSION_HEADER, serveOverHttp, serveOverStdio } from "../server/index.js";
import {
  CATALOG_HELP,
  CATALOG_OPTIONS,
  checkSchemasInBackground,
  groundingLine,
  INFER_HELP,
  INFER_OPTIONS,
  inferenceLine,
  loadCatalog,
} from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { FAULTS_HELP, FAULTS_OPTIONS, faultPlanFor } from "./faults-options.js";
import { attachHybrid, HYBRID_HELP, HYBRID_OPTIONS, startUpstreams } from "./hybrid-options.js";
import { describeEngine, LLM_HELP, LLM_OPTIONS, resolveEngine } from "./llm-options.js";
import { parseArgs } from "./options.js";
import { launchCommand } from "./paths.js";
import { DB_HELP, dbLocation, storeOptions } from "./session-db.js";
import {
  attachTaskMode,
  planTaskMode,
  reservedNames,
  reservedToolProblems,
  TASK_HELP,
  TASK_OPTIONS,
  type TaskMode,
} from "./task-options.js";

const HELP = `toolsim serve — serve the catalog's tools over MCP, simulated

Usage: toolsim serve [--http | --stdio] [options]

Transport
  --http               Streamable HTTP (default)
  --stdio              stdin/stdout, for Claude Desktop and other local clients; logs go to stderr
  --host HOST          address to bind (default 127.0.0.1; anything else requires --token)
  --port N             port (default 3333; 0 picks a free one)
  --token TOKEN        bearer token every HTTP request must carry (env TOOLSIM_TOKEN); repeatable:
                       each token is a tenant that sees only its own sessions
  --tokens FILE        tenants and their tokens as JSON: {"alice": "TOKEN", "bob": "TOKEN"}
  --allowed-origin H   accept browser requests from this origin host name (repeatable; default localhost)
  --allowed-host H     accept this Host header when bound off loopback (repeatable; default any)
  --idle-timeout S     close HTTP sessions idle this many seconds (default 1800)
  --max-body SIZE      largest request body accepted, e.g. 512kb, 4mb (default 4mb); larger gets HTTP 413

Catalog
${CATALOG_HELP}
${INFER_HELP}
  --watch              reload toolset files when they change and tell clients (tools/list_changed)
  --page-size N        tools per tools/list page (default 500; a larger catalog gets larger pages,
                       so a listing takes at most 32 pages: MCP clients stop following at 64)
  --schema-profile P   how much of each input schema to advertise: full (default), portable (no
                       conditional keywords; rules in words) or openai-strict (what OpenAI's strict
                       mode accepts); calls are checked against the full schema (docs/frameworks.md)

State
${DB_HELP}
                       PostgreSQL: any number of serve processes share one database; each keeps
                       up to TOOLSIM_PG_POOL_SIZE connections (default 10); see docs/scale-out.md
  --session NAME       stdio: resume (or create) this named session instead of starting a new one
                       (with --task, a session that exists starts the task over: a fresh attempt)
  --seed N             seed of new sessions: same seed, same call, same state → same answer (default 0)

Engine
${LLM_HELP}

Tasks
${TASK_HELP}

Faults (on purpose; see docs/faults.md)
${FAULTS_HELP}

Hybrid (real MCP servers behind toolsim; see docs/hybrid.md)
${HYBRID_HELP}
`;

export const serveCommand: Command = {
  name: "serve",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...CATALOG_OPTIONS,
        ...INFER_OPTIONS,
        ...LLM_OPTIONS,
        ...TASK_OPTIONS,
        ...HYBRID_OPTIONS,
        ...FAULTS_OPTIONS,
        http: { type: "boolean" },
        stdio: { type: "boolean" },
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "3333" },
        token: { type: "string", multiple: true },
        tokens: { type: "string" },
        "allowed-origin": { type: "string", multiple: true },
        "allowed-host": { type: "string", multiple: true },
        "idle-timeout": { type: "string", default: "1800" },
        "max-body": { type: "string", default: "4mb" },
        watch: { type: "boolean" },
        "page-size": { type: "string", default: "500" },
        "schema-profile": { type: "string", default: "full" },
        db: { type: "string" },
        session: { type: "string" },
        seed: { type: "string", default: "0" },
      },
      strict: true,
    });
    if (values.http && values.stdio) throw new UsageError("choose one of --http and --stdio");
    const port = integer(values.port, "--port", 0, 65535);
    const pageSize = integer(values["page-size"], "--page-size", 1, 100_000);
    const idleSeconds = integer(values["idle-timeout"], "--idle-timeout", 1, 7 * 24 * 3600);
    const schemaProfile = profileOption(values["schema-profile"]);
    const maxBodyBytes = byteSize(values["max-body"], "--max-body");
    const log = (line: string) => process.stderr.write(`toolsim: ${line}\n`);

    const engineChoice = resolveEngine(values);
    const engineLine = describeEngine(engineChoice);
    const infer = !values["no-infer"];
    const loaded = loadCatalog(values, { checkSchemas: false, infer });
    if (!loaded) return 1;
    const inferred = inferenceLine(loaded.inference);
    if (inferred) log(inferred);
    log(groundingLine(loaded.catalog, engineChoice.engine === "llm"));
    const taskMode = planTaskMode(loaded.catalog, values);
    const reserved = reservedToolProblems(loaded.catalog, taskMode);
    if (reserved.length > 0) {
      for (const problem of reserved) process.stderr.write(`${formatProblem(problem)}\n`);
      log(
        `${reserved.length} catalog tool(s) are named like the control tools; rename them, or serve with --control-prefix P or --no-control-tools`,
      );
      return 1;
    }
    const faults = faultPlanFor(values.faults, loaded.catalog);
    if (!faults) return 1;
    const hybrid = await startUpstreams(values, loaded.catalog, log, reservedNames(taskMode));
    if (typeof hybrid === "number") return hybrid;
    const runtime = await createRuntime({
      catalog: hybrid?.catalog ?? loaded.catalog,
      db: dbLocation(values, log),
      store: storeOptions(),
      seed: values.seed,
      pageSize,
      schemaProfile,
      deadlineMs: engineChoice.deadlineMs,
      llm: engineChoice.config
        ? { config: engineChoice.config, passes: engineChoice.passes, onlyGuessed: engineChoice.onlyGuessed }
        : undefined,
      wrapSimulator: hybrid ? (simulator) => hybrid.wrap(simulator) : undefined,
      faults,
    });
    // the store says where it is without credentials: a URL's password is never shown
    const db = runtime.store.location;
    if (hybrid) await attachHybrid(runtime, hybrid);
    const openSession = attachTaskMode(runtime, taskMode, engineChoice);
    const compose = hybrid ? (catalog: Catalog) => hybrid.replaceBase(catalog) : undefined;
    const stopWatching = values.watch
      ? watchCatalog(runtime, loaded.paths, values.toolset, log, { compose, infer, taskMode })
      : () => {};
    const shutdown = onExit(Boolean(values.stdio), async () => {
      stopWatching();
      await hybrid?.close();
      await runtime.close();
    });

    if (values.stdio) {
      const session = await openSession(values.session, "", true);
      log(
        `stdio session ${session.name ?? session.id}: ${summary(runtime.engine.catalog)}; engine ${engineLine}; state in ${db}`,
      );
      serveOverStdio(runtime.hub, session.id);
      checkSchemasInBackground(runtime.engine.catalog, log);
      return new Promise<number>(() => {}); // runs until stdin closes or a signal arrives
    }

    const tokens = tenantTokens(values.token, values.tokens);
    const handle = await serveOverHttp(runtime.hub, {
      host: values.host,
      port,
      tokens,
      allowedOrigins: values["allowed-origin"],
      allowedHosts: values["allowed-host"],
      idleTimeoutMs: idleSeconds * 1000,
      maxBodyBytes,
      openSession: async (name, tenant, connection) => (await openSession(name, tenant, connection)).id,
      log,
    }).catch((error: unknown) => {
      if (!(error instanceof ListenError)) throw error;
      log(error.message);
      return undefined;
    });
    if (!handle) {
      await runtime.close();
      return 1;
    }
    shutdown.also(() => handle.close());
    const stdioArgs = desktopArgs(values, db);
    process.stdout.write(banner(handle.url, runtime.engine.catalog, engineLine, db, stdioArgs, tokens.size));
    checkSchemasInBackground(runtime.engine.catalog, log);
    return new Promise<number>(() => {});
  },
};

/** The options a stdio client must repeat to serve the same catalog from the same state file. */
function desktopArgs(values: { toolsets?: string[]; toolset?: string[]; db?: string }, db: string): string[] {
  const args: string[] = [];
  for (const path of values.toolsets ?? []) args.push("--toolsets", resolve(path));
  for (const id of values.toolset ?? []) args.push("--toolset", id);
  if (values.db || process.env.TOOLSIM_DB) args.push("--db", db);
  return args;
}

function banner(
  url: string,
  catalog: Catalog,
  engineLine: string,
  db: string,
  extraArgs: string[],
  tenants: number,
): string {
  const launch = launchCommand();
  const desktop = {
    mcpServers: {
      toolsim: { command: launch.command, args: [...launch.args, "serve", "--stdio", ...extraArgs] },
    },
  };
  return [
    "toolsim is serving simulated tools over MCP",
    "",
    `  MCP URL   ${url}${tenants > 0 ? "   (send Authorization: Bearer <token>)" : ""}`,
    ...(tenants > 1 ? [`  tenants   ${tenants}: each token sees only its own sessions`] : []),
    `  catalog   ${summary(catalog)}`,
    `  engine    ${engineLine}`,
    `  state     ${db}`,
    "",
    "Name your simulation session with a header (clients of the 2026 stateless protocol share one",
    "session without it):",
    "",
    `  ${SESSION_HEADER_NAME}: my-run`,
    "",
    "Claude Desktop (stdio): add this to claude_desktop_config.json",
    "",
    JSON.stringify(desktop, null, 2)
      .split("\n")
      .map((line) => `  ${line}`)
      .join("\n"),
    "",
    "Ctrl-C stops the server; every answered call is already on disk.",
    "",
  ].join("\n");
}

/** The header as people write it (HTTP header names are case-insensitive). */
const SESSION_HEADER_NAME = SESSION_HEADER.replace(
  /(^|-)([a-z])/g,
  (_, dash: string, c: string) => dash + c.toUpperCase(),
);

function profileOption(text: string): SchemaProfile {
  if (isSchemaProfile(text)) return text;
  throw new UsageError(`--schema-profile takes one of ${SCHEMA_PROFILES.join(", ")}; got "${text}"`);
}

export function summary(catalog: Catalog): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  return `${n(catalog.toolsets.length, "toolset")}, ${n(catalog.toolCount, "tool")}, ${n(catalog.taskCount, "task")}`;
}

function integer(text: string, flag: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}; got "${text}"`);
  }
  return value;
}

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1024,
  k: 1024,
  mb: 1024 ** 2,
  m: 1024 ** 2,
  gb: 1024 ** 3,
  g: 1024 ** 3,
};

/** "4mb", "512kb", "1048576": sizes count in powers of 1024, from 1 KB to 1 GB. */
function byteSize(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = UNITS[match?.[2]?.toLowerCase() ?? "?"];
  const bytes = match && unit !== undefined ? Math.round(Number(match[1]) * unit) : Number.NaN;
  if (!(bytes >= 1024 && bytes <= 1024 ** 3)) {
    throw new UsageError(`${flag} takes a size from 1kb to 1gb, e.g. 512kb or 4mb; got "${text}"`);
  }
  return bytes;
}

/** Reloads the catalog when a watched file changes; a broken edit keeps the last good catalog. */
function watchCatalog(
  runtime: Runtime,
  paths: string[],
  selection: string[] | undefined,
  log: (line: string) => void,
  options: { compose?: (catalog: Catalog) => Catalog; infer: boolean; taskMode: TaskMode },
) {
  const { compose = (catalog: Catalog) => catalog, infer, taskMode } = options;
  let timer: NodeJS.Timeout | undefined;
  const apply = () => {
    const loaded = loadToolsets(paths);
    const names = reservedNames(taskMode);
    const reserved = names ? reservedNameProblems(loaded.toolsets, names) : [];
    const errors = [...loaded.problems, ...reserved].filter((p) => p.severity === "error");
    if (errors.length > 0) {
      log(`catalog change not applied (the last good catalog stays), ${errors.length} error(s):`);
      for (const problem of errors) log(`  ${formatProblem(problem)}`);
      return;
    }
    for (const problem of loaded.problems) log(`  ${formatProblem(problem)}`);
    let catalog = new Catalog(infer ? inferLoaded(loaded.toolsets).loaded : loaded.toolsets);
    if (selection?.length) catalog = catalog.restrict(selection);
    const faultProblems = taskFaultProblems(catalog);
    if (faultProblems.length > 0) {
      log(`catalog change not applied (the last good catalog stays), ${faultProblems.length} error(s):`);
      for (const problem of faultProblems) log(`  ${formatProblem(problem)}`);
      return;
    }
    runtime.engine.replaceCatalog(compose(catalog));
    runtime.hub.notifyToolsChanged();
    log(`catalog reloaded: ${summary(catalog)}`);
  };
  const reload = () => {
    try {
      apply();
    } catch (error) {
      // whatever a changed file does to the loader, the running server keeps answering
      const reason = error instanceof Error ? error.message : String(error);
      log(`catalog change not applied (the last good catalog stays): ${reason}`);
    }
  };
  const watchers = paths.map((path) =>
    watch(path, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(reload, 150);
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}

/** Runs cleanups once on SIGINT/SIGTERM, or when stdin closes in stdio mode, then exits. */
function onExit(stdio: boolean, first: () => void | Promise<void>) {
  const cleanups: Array<() => void | Promise<void>> = [first];
  let done = false;
  const run = async (code: number) => {
    if (done) return;
    done = true;
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // shutting down: a failed cleanup must not keep the process alive
      }
    }
    process.exit(code);
  };
  process.once("SIGINT", () => void run(0));
  process.once("SIGTERM", () => void run(0));
  if (stdio) process.stdin.once("end", () => void run(0));
  return { also: (cleanup: () => void | Promise<void>) => cleanups.push(cleanup) };
}

/**
 * Tokens and their tenants, from --token (repeatable), --tokens FILE and TOOLSIM_TOKEN. A
 * token given alone is its own tenant, named after a hash of it so logs never show it.
 */
function tenantTokens(flags: string[] | undefined, file: string | undefined): Map<string, string> {
  const tokens = new Map<string, string>();
  const add = (token: string, tenant: string, source: string) => {
    if (token.length < 8) throw new UsageError(`${source}: a token needs at least 8 characters`);
    if (tokens.has(token) && tokens.get(token) !== tenant)
      throw new UsageError(`${source}: the same token is given to two tenants`);
    tokens.set(token, tenant);
  };
  const named = (token: string) => `token-${createHash("sha256").update(token).digest("hex").slice(0, 8)}`;
  for (const token of flags ?? []) add(token, named(token), "--token");
  const fromEnv = process.env.TOOLSIM_TOKEN;
  if (fromEnv && !flags?.length && !file) add(fromEnv, named(fromEnv), "TOOLSIM_TOKEN");
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(resolve(file), "utf8"));
    } catch (error) {
      throw new UsageError(`--tokens ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new UsageError(
        `--tokens ${file}: expected a JSON object of tenant names and tokens, {"alice": "TOKEN"}`,
      );
    }
    for (const [tenant, token] of Object.entries(parsed)) {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(tenant))
        throw new UsageError(
          `--tokens ${file}: tenant names are 1-64 letters, digits, _ . -; got "${tenant}"`,
        );
      if (typeof token !== "string")
        throw new UsageError(`--tokens ${file}: the token of "${tenant}" must be a string`);
      add(token, tenant, `--tokens ${file}`);
    }
  }
  return tokens;
}
