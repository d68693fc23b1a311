import { Catalog, type ReservedNames } from "../catalog/index.js";
// Only types here: the hybrid room (and the MCP client it brings) loads when --upstream is given.
import type { Hybrid, RouteMode } from "../hybrid/index.js";
import type { Runtime } from "../runtime/index.js";
import { UsageError } from "./command.js";

/** `serve` flags of hybrid mode: real MCP servers behind toolsim. */
export const HYBRID_OPTIONS = {
  upstream: { type: "string" },
  "explain-routes": { type: "boolean" },
  "all-simulated": { type: "boolean" },
  "all-real": { type: "boolean" },
  "bare-names": { type: "boolean" },
  "upstream-timeout": { type: "string", default: "30" },
  "no-catalog": { type: "boolean" },
} as const;

export const HYBRID_HELP = `  --upstream FILE      real MCP servers to put behind toolsim ({"mcpServers": …}, the shape of
                       claude_desktop_config.json): reads pass through, writes are simulated
  --explain-routes     print each upstream tool's route (pass or simulate) and why, then exit
  --all-simulated      simulate every upstream tool (a dry run of the real servers' interface)
  --all-real           pass every upstream tool through (a plain proxy; calls still logged)
  --bare-names         keep an upstream tool's own name when it is unique (default: NAME.tool)
  --upstream-timeout S seconds an upstream may take to start (default 30)
  --no-catalog         serve only the upstream tools, not the catalog's`;

export interface HybridSelection {
  upstream?: string;
  "explain-routes"?: boolean;
  "all-simulated"?: boolean;
  "all-real"?: boolean;
  "bare-names"?: boolean;
  "upstream-timeout"?: string;
  "no-catalog"?: boolean;
}

/**
 * Connects the upstreams `--upstream` names. Undefined without the flag; an exit code when
 * serving should stop (routes explained, or a problem printed); otherwise the running hybrid.
 */
export async function startUpstreams(
  values: HybridSelection,
  catalog: Catalog,
  log: (line: string) => void,
  reserved?: ReservedNames,
): Promise<Hybrid | number | undefined> {
  const file = values.upstream;
  if (!file) {
    const stray = ["explain-routes", "all-simulated", "all-real", "bare-names", "no-catalog"].filter(
      (flag) => values[flag as keyof HybridSelection],
    );
    if (stray.length > 0) throw new UsageError(`--${stray[0]} needs --upstream FILE`);
    return undefined;
  }
  if (values["all-simulated"] && values["all-real"]) {
    throw new UsageError("choose one of --all-simulated and --all-real");
  }
  const seconds = Number(values["upstream-timeout"] ?? "30");
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
    throw new UsageError(
      `--upstream-timeout takes seconds from 0 to 600; got "${values["upstream-timeout"]}"`,
    );
  }
  const { explainRoutes, Hybrid, readUpstreamConfig } = await import("../hybrid/index.js");
  const config = readUpstreamConfig(file);
  if (!config.ok) {
    for (const problem of config.problems) process.stderr.write(`toolsim: ${problem}\n`);
    return 1;
  }
  const mode: RouteMode = values["all-simulated"]
    ? "all-simulated"
    : values["all-real"]
      ? "all-real"
      : "hybrid";
  const base = values["no-catalog"] ? new Catalog([]) : catalog;
  const started = await Hybrid.start(config.upstreams, base, {
    mode,
    bareNames: Boolean(values["bare-names"]),
    ...(reserved ? { reserved } : {}),
    startTimeoutMs: seconds * 1000,
    log,
  });
  if (!started.ok) {
    for (const problem of started.problems) process.stderr.write(`toolsim: ${problem}\n`);
    return 1;
  }
  const hybrid = started.hybrid;
  if (values["explain-routes"]) {
    process.stdout.write(explainRoutes(hybrid.connections, hybrid.bindings()));
    await hybrid.close();
    return 0;
  }
  for (const connection of hybrid.connections) {
    const own = hybrid.bindings().filter((b) => b.upstream === connection.name);
    const passed = own.filter((b) => b.decision.route === "pass").length;
    log(
      `upstream ${connection.name}: ${own.length} tools, ${passed} pass through, ${own.length - passed} simulated`,
    );
  }
  return hybrid;
}

/** Routes calls through the hybrid and keeps the engine's catalog in step with the upstreams' tools. */
export async function attachHybrid(runtime: Runtime, hybrid: Hybrid): Promise<void> {
  const { HybridExtension } = await import("../hybrid/index.js");
  runtime.hub.use(new HybridExtension(hybrid, runtime.engine));
  hybrid.onCatalogChanged((catalog) => {
    runtime.engine.replaceCatalog(catalog);
    runtime.hub.notifyToolsChanged();
  });
}
