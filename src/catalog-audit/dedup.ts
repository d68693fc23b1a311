import type { Tool } from "../catalog/index.js";

/**
 * Near-duplicate selection: tools closer than the threshold are joined; in each connected
 * component one tool is kept (the most completely described; the first on a tie) and the
 * others are reported with the tool they duplicate and how similar they are.
 */
export interface DedupTool {
  tool: Tool;
  toolset: string;
}

export interface DedupDrop {
  tool: string;
  toolset: string;
  keep: string;
  similarity: number;
  reason: string;
}

export interface DedupReport {
  method: "embeddings" | "lexical";
  threshold: number;
  tools: number;
  components: Array<{ keep: string; members: string[] }>;
  drops: DedupDrop[];
}

export function selectDuplicates(
  tools: readonly DedupTool[],
  similarity: (i: number, j: number) => number,
  threshold: number,
  method: DedupReport["method"],
): DedupReport {
  const parent = tools.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  const edges = new Map<string, number>();
  for (let i = 0; i < tools.length; i++)
    for (let j = i + 1; j < tools.length; j++) {
      const score = similarity(i, j);
      if (score < threshold) continue;
      edges.set(`${i} ${j}`, score);
      parent[find(j)] = find(i);
    }
  const groups = new Map<number, number[]>();
  tools.forEach((_, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });
  const components: DedupReport["components"] = [];
  const drops: DedupDrop[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const keep = members.reduce((best, i) =>
      completeness(tools[i]?.tool as Tool) > completeness(tools[best]?.tool as Tool) ? i : best,
    );
    const kept = tools[keep] as DedupTool;
    components.push({ keep: kept.tool.name, members: members.map((i) => tools[i]?.tool.name as string) });
    for (const i of members) {
      if (i === keep) continue;
      const entry = tools[i] as DedupTool;
      const score = similarity(Math.min(i, keep), Math.max(i, keep));
      const direct = edges.has(`${Math.min(i, keep)} ${Math.max(i, keep)}`);
      drops.push({
        tool: entry.tool.name,
        toolset: entry.toolset,
        keep: kept.tool.name,
        similarity: Math.round(score * 1000) / 1000,
        reason: direct
          ? `${Math.round(score * 100)}% similar to ${kept.tool.name}, which is described more completely`
          : `linked to ${kept.tool.name} through other near-duplicates (${Math.round(score * 100)}% similar directly)`,
      });
    }
  }
  return { method, threshold, tools: tools.length, components, drops };
}

/** Documented parameters, an output schema and errors make a tool the better one to keep. */
function completeness(tool: Tool): number {
  const properties = tool.inputSchema.properties;
  const described =
    properties && typeof properties === "object"
      ? Object.values(properties as Record<string, { description?: unknown }>).filter(
          (p) => typeof p?.description === "string",
        ).length
      : 0;
  return described + (tool.outputSchema ? 2 : 0) + tool.errors.length * 0.5 + tool.description.length / 1000;
}
