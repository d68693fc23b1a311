import { Catalog, type LoadedToolset, type ReservedNames } from "../catalog/index.js";
import type { Simulator } from "../simulate/index.js";
import { bindUpstreams, type UpstreamBinding } from "./bindings.js";
import type { UpstreamSpec } from "./config.js";
import { UpstreamConnection } from "./connection.js";
import type { FormatMemo } from "./file-reads.js";
import { UpstreamReality } from "./reality.js";
import type { RouteMode } from "./routes.js";
import { HybridSimulator, type UpstreamLookup } from "./simulator.js";

export interface HybridOptions {
  mode: RouteMode;
  bareNames: boolean;
  /** Names toolsim's control tools take: no upstream tool is served under one. */
  reserved?: ReservedNames;
  startTimeoutMs: number;
  log: (line: string) => void;
}

export type HybridStart = { ok: true; hybrid: Hybrid } | { ok: false; problems: string[] };

/**
 * The real servers behind toolsim: their connections, their tools as a catalog next to
 * (or instead of) the simulated catalog, and the route of each tool.
 */
export class Hybrid implements UpstreamLookup {
  readonly connections: readonly UpstreamConnection[];
  private readonly options: HybridOptions;
  private base: Catalog;
  private composed: Catalog;
  private byName = new Map<string, UpstreamBinding>();
  private listeners = new Set<(catalog: Catalog) => void>();
  /** How each upstream tool writes its answers, learned from the tool itself. */
  readonly formats: FormatMemo = new Map();

  private constructor(connections: UpstreamConnection[], base: Catalog, options: HybridOptions) {
    this.connections = connections;
    this.options = options;
    this.base = base;
    this.composed = base;
    this.rebind();
  }

  /** Connects to every upstream (in parallel, each within the start timeout); any failure stops the start. */
  static async start(
    specs: readonly UpstreamSpec[],
    base: Catalog,
    options: HybridOptions,
  ): Promise<HybridStart> {
    let hybrid: Hybrid | undefined;
    const connections = specs.map(
      (spec) =>
        new UpstreamConnection(spec, {
          startTimeoutMs: options.startTimeoutMs,
          log: options.log,
          onToolsChanged: () => hybrid?.toolsChanged(spec.name),
        }),
    );
    const started = await Promise.all(connections.map((c) => c.start()));
    const problems = started.flatMap((outcome, index) =>
      outcome.ok
        ? []
        : [
            `upstream "${specs[index]?.name}" (${describeSpec(specs[index])}) did not start: ${outcome.message}`,
          ],
    );
    if (problems.length > 0) {
      await Promise.all(connections.map((c) => c.close()));
      return { ok: false, problems };
    }
    hybrid = new Hybrid(connections, base, options);
    return { ok: true, hybrid };
  }

  /** The catalog tools are served from: the base catalog plus one toolset per upstream. */
  get catalog(): Catalog {
    return this.composed;
  }

  bindings(): UpstreamBinding[] {
    return [...this.byName.values()];
  }

  binding(toolName: string): UpstreamBinding | undefined {
    return this.byName.get(toolName);
  }

  connection(upstream: string): UpstreamConnection | undefined {
    return this.connections.find((c) => c.name === upstream);
  }

  /** The catalog's own toolsets changed (e.g. a watched file): compose again. */
  replaceBase(base: Catalog): Catalog {
    this.base = base;
    this.rebind();
    return this.composed;
  }

  /** Called with the new catalog whenever an upstream's tools change. */
  onCatalogChanged(listener: (catalog: Catalog) => void): void {
    this.listeners.add(listener);
  }

  wrap(simulator: Simulator): Simulator {
    return new HybridSimulator(simulator, this);
  }

  /** What the real server behind an upstream may be asked, for the length of one call. */
  reality(upstream: string): UpstreamReality {
    return new UpstreamReality({
      upstream,
      bindings: this.bindings(),
      call: async (tool, args) => {
        const answer = await this.connection(upstream)?.call(tool, args);
        return answer?.ok ? answer.result : undefined;
      },
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  private toolsChanged(upstream: string): void {
    this.rebind();
    this.options.log(`upstream ${upstream}: tool list changed`);
    for (const listener of this.listeners) listener(this.composed);
  }

  private rebind(): void {
    const taken = new Set(this.base.allTools().map((t) => t.name));
    const bound = bindUpstreams(
      this.connections.map((c) => ({ spec: c.spec, tools: c.tools, serverInfo: c.serverInfo })),
      { mode: this.options.mode, bareNames: this.options.bareNames, taken, reserved: this.options.reserved },
    );
    for (const problem of bound.problems) this.options.log(problem);
    this.byName = new Map(bound.bindings.map((b) => [b.exposed, b]));
    const baseToolsets: LoadedToolset[] = this.base.toolsets.map((toolset) => ({
      toolset,
      file: this.base.files.get(toolset.id) ?? "",
    }));
    const upstreamToolsets: LoadedToolset[] = bound.toolsets.map((toolset) => ({
      toolset,
      file: `upstream:${toolset.id}`,
    }));
    this.composed = new Catalog([...baseToolsets, ...upstreamToolsets]);
  }
}

export function describeSpec(spec: UpstreamSpec | undefined): string {
  if (!spec) return "?";
  return spec.kind === "http" ? `http: ${spec.url}` : `stdio: ${[spec.command, ...spec.args].join(" ")}`;
}
