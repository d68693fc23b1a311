import { describe, expect, it } from "vitest";
import { Toolset, toolsetFromMcpTools } from "../src/catalog/index.js";

/**
 * A tools/list result turned into a toolset, case by case: each tool's schemas as the server
 * wrote them (draft-07 forms rewritten), what is kept, what is dropped, and the problem each
 * drop reports with its path.
 */

const problemsOf = (list: unknown, options: Parameters<typeof toolsetFromMcpTools>[1] = { id: "srv" }) =>
  toolsetFromMcpTools(list, options).problems.map((p) => `${p.tool ?? "-"} ${p.path}: ${p.message}`);

describe("the toolset of a tools/list result", () => {
  it("names the toolset after the server, or after its id when the server gave no name", () => {
    const named = toolsetFromMcpTools(
      { tools: [] },
      { id: "fs", serverInfo: { name: "files-server" } },
    ).toolset;
    expect(named.field).toBe("MCP servers");
    expect(named.subdomain).toBe("files-server");
    expect(named.description).toBe(
      'The tools of the MCP server "files-server", as its tools/list described them.',
    );
    expect(named.version).toBeUndefined();
    expect(named.name).toBeUndefined();

    const bare = toolsetFromMcpTools(
      { tools: [] },
      { id: "fs", name: "Files", description: "My files." },
    ).toolset;
    expect(bare.subdomain).toBe("fs");
    expect(bare.name).toBe("Files");
    expect(bare.description).toBe("My files.");
    expect(toolsetFromMcpTools({ tools: [] }, { id: "fs" }).toolset.description).toBe(
      'The tools of the MCP server "fs", as its tools/list described them.',
    );
  });

  it("keeps a tool's name, title, description and schemas as the server wrote them, without a prefix", () => {
    const input = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const output = { type: "object", properties: { hits: { type: "integer" } } };
    const { toolset, problems, originalNames } = toolsetFromMcpTools(
      {
        tools: [
          {
            name: "search",
            title: "Search",
            description: "Finds things.",
            inputSchema: input,
            outputSchema: output,
          },
        ],
      },
      { id: "srv" },
    );
    expect(problems).toEqual([]);
    expect(toolset.tools).toEqual([
      {
        name: "search",
        title: "Search",
        description: "Finds things.",
        inputSchema: input,
        outputSchema: output,
      },
    ]);
    expect(originalNames).toEqual(new Map([["search", "search"]]));
  });

  it("skips entries that are not named tools, each with its own path", () => {
    expect(problemsOf({ tools: ["read", { name: "" }, { name: 7 }, null] })).toEqual([
      "- tools[0]: skipped: not a tool with a name",
      "- tools[1]: skipped: not a tool with a name",
      "- tools[2]: skipped: not a tool with a name",
      "- tools[3]: skipped: not a tool with a name",
    ]);
    expect(problemsOf({ tools: "read" })).toEqual(["- tools: the tools/list result has no tools array"]);
    expect(problemsOf(null)).toEqual(["- tools: the tools/list result has no tools array"]);
  });

  it("writes a placeholder for a missing or blank description, and reports it", () => {
    const { toolset, problems } = toolsetFromMcpTools(
      { tools: [{ name: "ping", description: "   ", inputSchema: { type: "object" } }] },
      { id: "srv", prefix: "up." },
    );
    expect(toolset.tools[0]?.description).toBe("ping (the server gave no description)");
    expect(problems).toEqual([
      {
        toolset: "srv",
        tool: "up.ping",
        path: "tools[0].description",
        message: "missing; a placeholder was written",
      },
    ]);
  });

  it("drops an output schema that is not an object schema, and keeps the tool", () => {
    const { toolset, problems } = toolsetFromMcpTools(
      {
        tools: [
          {
            name: "count",
            description: "Counts.",
            inputSchema: { type: "object" },
            outputSchema: { type: "integer" },
          },
          { name: "noop", description: "Nothing.", inputSchema: { type: "object" }, outputSchema: "none" },
        ],
      },
      { id: "srv" },
    );
    expect(toolset.tools.map((t) => [t.name, "outputSchema" in t])).toEqual([
      ["count", false],
      ["noop", false],
    ]);
    expect(problems.map((p) => `${p.tool} ${p.path}: ${p.message}`)).toEqual([
      "count tools[0].outputSchema: dropped: not an object schema",
      "noop tools[1].outputSchema: dropped: not an object schema",
    ]);
  });

  it("replaces an input schema that is not an object schema", () => {
    const { toolset, problems } = toolsetFromMcpTools(
      { tools: [{ name: "echo", description: "Echoes.", inputSchema: { type: "string" } }] },
      { id: "srv" },
    );
    expect(toolset.tools[0]?.inputSchema).toEqual({ type: "object" });
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'tools[0].inputSchema: not an object schema; replaced by {"type":"object"}',
    ]);
  });

  it("keeps the annotations of the right type, drops the others one by one, and drops an empty set", () => {
    const { toolset, problems } = toolsetFromMcpTools(
      {
        tools: [
          {
            name: "wipe",
            description: "Wipes.",
            inputSchema: { type: "object" },
            annotations: {
              title: "Wipe",
              readOnlyHint: false,
              destructiveHint: "yes",
              idempotentHint: true,
              openWorldHint: false,
            },
          },
          {
            name: "look",
            description: "Looks.",
            inputSchema: { type: "object" },
            annotations: { readOnlyHint: 1 },
          },
          { name: "peek", description: "Peeks.", inputSchema: { type: "object" }, annotations: "read-only" },
        ],
      },
      { id: "srv" },
    );
    expect(toolset.tools.map((t) => t.annotations)).toEqual([
      { title: "Wipe", readOnlyHint: false, idempotentHint: true, openWorldHint: false },
      undefined,
      undefined,
    ]);
    expect(problems.map((p) => `${p.tool} ${p.path}: ${p.message}`)).toEqual([
      "wipe tools[0].annotations.destructiveHint: dropped: not a known annotation of the right type",
      "look tools[1].annotations.readOnlyHint: dropped: not a known annotation of the right type",
    ]);
  });

  it("rewrites draft-07 tuples at any depth, keeping additionalItems as the items after them", () => {
    const { toolset } = toolsetFromMcpTools(
      {
        tools: [
          {
            name: "plot",
            description: "Plots points.",
            inputSchema: {
              $schema: "http://json-schema.org/draft-07/schema#",
              type: "object",
              properties: {
                point: {
                  type: "array",
                  items: [{ type: "number" }, { type: "number" }],
                  additionalItems: false,
                },
                path: {
                  type: "array",
                  items: { type: "array", items: [{ type: "number" }], additionalItems: { type: "string" } },
                },
                tags: { type: "array", items: { type: "string" } },
                either: { anyOf: [{ type: "array", items: [{ type: "integer" }] }, { type: "null" }] },
              },
            },
          },
        ],
      },
      { id: "srv" },
    );
    const parsed = Toolset.parse(toolset);
    expect(parsed.tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: {
        point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
        path: {
          type: "array",
          items: { type: "array", prefixItems: [{ type: "number" }], items: { type: "string" } },
        },
        tags: { type: "array", items: { type: "string" } },
        either: { anyOf: [{ type: "array", prefixItems: [{ type: "integer" }] }, { type: "null" }] },
      },
    });
  });

  it("drops a title that is not text", () => {
    const { toolset } = toolsetFromMcpTools(
      { tools: [{ name: "t", title: 5, description: "T.", inputSchema: { type: "object" } }] },
      { id: "srv" },
    );
    expect(toolset.tools[0]).not.toHaveProperty("title");
  });

  it("drops the tuple's item schema when there are no additional items", () => {
    const { toolset } = toolsetFromMcpTools(
      {
        tools: [
          {
            name: "t",
            description: "T.",
            inputSchema: { type: "object", properties: { pair: { type: "array", items: [{}, {}] } } },
          },
        ],
      },
      { id: "srv" },
    );
    const pair = (toolset.tools[0]?.inputSchema.properties ?? {}) as Record<string, object>;
    expect(Object.keys(pair.pair ?? {})).toEqual(["type", "prefixItems"]);
  });

  it("leaves the server's list untouched", () => {
    const list = {
      tools: [
        {
          name: "t",
          description: "T.",
          inputSchema: { $schema: "x", type: "object", properties: { a: { type: "array", items: [{}] } } },
        },
      ],
    };
    const before = structuredClone(list);
    toolsetFromMcpTools(list, { id: "srv" });
    expect(list).toEqual(before);
  });

  it("keeps the server's version only when it gave one", () => {
    expect(
      toolsetFromMcpTools({ tools: [] }, { id: "s", serverInfo: { version: "2.0.1" } }).toolset.version,
    ).toBe("2.0.1");
    expect(
      toolsetFromMcpTools({ tools: [] }, { id: "s", serverInfo: { version: "" } }).toolset,
    ).not.toHaveProperty("version");
  });
});
