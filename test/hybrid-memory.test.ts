import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allText, MEMORY_SERVER, routeOf, writeUpstreamConfig } from "./fixtures/hybrid/helpers.js";
import { connectHttp, LIBRARY, type RunningServer, startHttpServer, tempDir } from "./support/index.js";

interface Graph {
  entities: Array<{ name: string; entityType: string; observations: string[] }>;
  relations: Array<{ from: string; to: string; relationType: string }>;
}

/** The real knowledge-graph server: creations are simulated, read_graph is the real graph plus the overlay. */
describe("hybrid mode over the real memory server", () => {
  const work = tempDir("toolsim-hybrid-memory-");
  const memoryFile = join(work.path, "memory.jsonl");
  const seed = [
    { type: "entity", name: "Alice", entityType: "person", observations: ["likes tea"] },
    { type: "entity", name: "Acme", entityType: "company", observations: ["makes anvils"] },
    { type: "relation", from: "Alice", to: "Acme", relationType: "works_at" },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
  let server: RunningServer;
  let client: Client;

  const graph = async () => {
    const result = await client.callTool({ name: "memory.read_graph", arguments: {} });
    expect(result.isError).toBeFalsy();
    return { result, graph: result.structuredContent as unknown as Graph };
  };

  beforeAll(async () => {
    writeFileSync(memoryFile, seed);
    const config = writeUpstreamConfig(work.path, {
      memory: { command: MEMORY_SERVER, env: { MEMORY_FILE_PATH: memoryFile } },
    });
    server = await startHttpServer([
      "--upstream",
      config,
      "--no-catalog",
      "--toolsets",
      LIBRARY,
      "--no-control-tools",
      "--db",
      join(work.path, "t.db"),
    ]);
    client = await connectHttp(server.url);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    work.cleanup();
  });

  it("serves only the upstream tools with --no-catalog", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.name.startsWith("memory."))).toBe(true);
  });

  it("read_graph is real before anything changes", async () => {
    const { result, graph: real } = await graph();
    expect(routeOf(result)).toBe("pass");
    expect(real.entities.map((e) => e.name).sort()).toEqual(["Acme", "Alice"]);
  });

  it("create_entities is simulated: the memory file is untouched and read_graph shows the real graph plus the new entity", async () => {
    const created = await client.callTool({
      name: "memory.create_entities",
      arguments: { entities: [{ name: "Bob", entityType: "person", observations: ["plays chess"] }] },
    });
    expect(created.isError).toBeFalsy();
    expect(routeOf(created)).toBe("simulate");
    expect(readFileSync(memoryFile, "utf8")).toBe(seed);

    const { result, graph: merged } = await graph();
    expect(merged.entities.map((e) => e.name).sort()).toEqual(["Acme", "Alice", "Bob"]);
    expect(merged.entities.find((e) => e.name === "Bob")).toEqual({
      name: "Bob",
      entityType: "person",
      observations: ["plays chess"],
    });
    expect(merged.relations).toEqual([{ from: "Alice", to: "Acme", relationType: "works_at" }]);
    // the text carries the same merged graph as the structured content
    expect(JSON.parse(allText(result))).toEqual(merged);
  });

  it("open_nodes by name finds an entity that exists only in simulation", async () => {
    const opened = await client.callTool({ name: "memory.open_nodes", arguments: { names: ["Bob"] } });
    expect(opened.isError).toBeFalsy();
    const found = opened.structuredContent as unknown as Graph;
    expect(found.entities.map((e) => e.name)).toEqual(["Bob"]);
  });

  it("a simulated deletion hides a real entity from later reads; the file keeps it", async () => {
    const deleted = await client.callTool({
      name: "memory.delete_entities",
      arguments: { entityNames: ["Acme"] },
    });
    expect(deleted.isError).toBeFalsy();
    const { graph: merged } = await graph();
    expect(merged.entities.map((e) => e.name).sort()).toEqual(["Alice", "Bob"]);
    expect(readFileSync(memoryFile, "utf8")).toBe(seed);
  });

  it("a search finds what the session made, as the real server would, with the relations that touch it", async () => {
    const search = await client.callTool({ name: "memory.search_nodes", arguments: { query: "chess" } });
    expect(search.isError).toBeFalsy();
    expect(routeOf(search)).toBe("overlay");
    expect(search.structuredContent).toEqual({
      entities: [{ name: "Bob", entityType: "person", observations: ["plays chess"] }],
      relations: [],
    });
    expect(JSON.parse(allText(search))).toEqual(search.structuredContent);
  });
});
