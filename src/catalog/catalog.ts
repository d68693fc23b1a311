import { isPlainObject } from "../patch/index.js";
import type { StateDocument, Task, Tool, Toolset } from "./format.js";
import type { LoadedToolset } from "./load.js";
import { nearest } from "./nearest.js";

export interface CatalogTool {
  tool: Tool;
  toolset: Toolset;
}

export interface CatalogTask {
  task: Task;
  toolset: Toolset;
}

/** An indexed, read-only view of loaded toolsets. */
export class Catalog {
  readonly toolsets: readonly Toolset[];
  readonly files: ReadonlyMap<string, string>;
  private readonly tools = new Map<string, CatalogTool>();
  private readonly tasks = new Map<string, CatalogTask>();
  private readonly toolsetsById = new Map<string, Toolset>();

  constructor(loaded: readonly LoadedToolset[]) {
    this.toolsets = loaded.map((l) => l.toolset);
    this.files = new Map(loaded.map((l) => [l.toolset.id, l.file]));
    for (const toolset of this.toolsets) {
      this.toolsetsById.set(toolset.id, toolset);
      for (const tool of toolset.tools)
        if (!this.tools.has(tool.name)) this.tools.set(tool.name, { tool, toolset });
      for (const task of toolset.tasks)
        if (!this.tasks.has(task.id)) this.tasks.set(task.id, { task, toolset });
    }
  }

  get toolCount(): number {
    return this.tools.size;
  }

  get taskCount(): number {
    return this.tasks.size;
  }

  tool(name: string): CatalogTool | undefined {
    return this.tools.get(name);
  }

  allTools(): Tool[] {
    return [...this.tools.values()].map((t) => t.tool);
  }

  toolset(id: string): Toolset | undefined {
    return this.toolsetsById.get(id);
  }

  task(id: string): CatalogTask | undefined {
    return this.tasks.get(id);
  }

  allTasks(): CatalogTask[] {
    return [...this.tasks.values()];
  }

  /** Up to `limit` tool names closest to a name that does not exist. */
  nearestToolNames(name: string, limit = 3, among?: readonly string[]): string[] {
    return nearest(name, among ?? [...this.tools.keys()], limit);
  }

  /** A catalog restricted to some toolsets (by id), keeping their files. */
  restrict(ids: readonly string[]): Catalog {
    const wanted = new Set(ids);
    return new Catalog(
      this.toolsets
        .filter((t) => wanted.has(t.id))
        .map((toolset) => ({ toolset, file: this.files.get(toolset.id) ?? "" })),
    );
  }

  /** The state a session starts with when no task is started: every toolset's sandbox state, merged. */
  sandboxState(): StateDocument {
    const state: StateDocument = {};
    for (const toolset of this.toolsets) mergeState(state, toolset.state);
    return state;
  }
}

function mergeState(into: StateDocument, from: StateDocument): void {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    if (isPlainObject(existing) && isPlainObject(value)) into[key] = { ...existing, ...value };
    else into[key] = structuredClone(value);
  }
}
