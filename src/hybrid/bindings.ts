import type { Tool as McpTool } from "@modelcontextprotocol/client";
import {
  describeReserved,
  isReservedName,
  type McpImport,
  type ReservedNames,
  type Tool,
  Toolset,
  toolsetFromMcpTools,
} from "../catalog/index.js";
import type { UpstreamSpec } from "./config.js";
import { decideRoute, type RouteDecision, type RouteMode } from "./routes.js";

/** One upstream tool as toolsim serves it: where it comes from, what it is called here, and its route. */
export interface UpstreamBinding {
  upstream: string;
  original: string;
  exposed: string;
  decision: RouteDecision;
  /** The catalog tool (upstream schemas and annotations) that validation and simulation use. */
  tool: Tool;
}

export interface UpstreamTools {
  spec: UpstreamSpec;
  tools: readonly McpTool[];
  serverInfo?: { name?: string; version?: string };
}

export interface BoundUpstreams {
  toolsets: Toolset[];
  bindings: UpstreamBinding[];
  problems: string[];
}

/**
 * Turns each upstream's tools/list into an in-memory toolset with names prefixed per
 * upstream (`fs.read_text_file`), or bare when asked and the bare name is unique among the
 * upstreams and the catalog. A name toolsim's control tools take (`sim_get_state`) is never
 * an upstream tool's: such a tool keeps its prefixed name, and is not served when even that
 * is reserved (a control prefix such as `fs.`).
 */
export function bindUpstreams(
  upstreams: readonly UpstreamTools[],
  options: { mode: RouteMode; bareNames: boolean; taken: ReadonlySet<string>; reserved?: ReservedNames },
): BoundUpstreams {
  const counts = new Map<string, number>();
  for (const upstream of upstreams)
    for (const tool of upstream.tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  const reserved = (name: string) => options.reserved !== undefined && isReservedName(name, options.reserved);
  const bare = (name: string) =>
    options.bareNames && counts.get(name) === 1 && !options.taken.has(name) && !reserved(name);

  const toolsets: Toolset[] = [];
  const bindings: UpstreamBinding[] = [];
  const problems: string[] = [];
  for (const upstream of upstreams) {
    const name = upstream.spec.name;
    const originals = new Map<string, string>();
    const renamed = upstream.tools.flatMap((t) => {
      const exposed = bare(t.name) ? t.name : `${name}.${t.name}`;
      const why = options.reserved ? describeReserved(options.reserved) : "";
      if (reserved(exposed)) {
        problems.push(`upstream ${name}: tool "${t.name}" is not served: "${exposed}" is reserved (${why})`);
        return [];
      }
      if (options.bareNames && reserved(t.name))
        problems.push(`upstream ${name}: tool "${t.name}" is served as "${exposed}": ${why}`);
      originals.set(exposed, t.name);
      return [{ ...t, name: exposed }];
    });
    const imported: McpImport = toolsetFromMcpTools(
      { tools: renamed },
      { id: `upstream.${name.toLowerCase()}`, name: `upstream ${name}`, serverInfo: upstream.serverInfo },
    );
    problems.push(...imported.problems.map((p) => `upstream ${name}: ${p.path}: ${p.message}`));
    if (imported.toolset.tools.length === 0) continue;
    const parsed = Toolset.safeParse(imported.toolset);
    if (!parsed.success) {
      problems.push(`upstream ${name}: its tools do not form a valid toolset: ${parsed.error.message}`);
      continue;
    }
    toolsets.push(parsed.data);
    for (const tool of parsed.data.tools) {
      const original = originals.get(tool.name) ?? tool.name;
      const properties = tool.inputSchema.properties;
      const parameters = properties && typeof properties === "object" ? Object.keys(properties) : [];
      const exposed = { original, exposed: tool.name, annotations: tool.annotations, parameters };
      const decision = decideRoute(exposed, upstream.spec.routes, options.mode);
      bindings.push({ upstream: name, original, exposed: tool.name, decision, tool });
    }
  }
  return { toolsets, bindings, problems };
}
