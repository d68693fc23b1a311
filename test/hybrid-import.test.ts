import { describe, expect, it } from "vitest";
import { Toolset, toolsetFromMcpTools } from "../src/catalog/index.js";

describe("toolsetFromMcpTools (a tools/list result → a toolset)", () => {
  const list = {
    tools: [
      {
        name: "read_file",
        description: "Reads a file.",
        inputSchema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: {
            path: { type: "string" },
            range: { type: "array", items: [{ type: "integer" }, { type: "integer" }] },
          },
          required: ["path"],
        },
        outputSchema: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
        annotations: { readOnlyHint: true, futureHint: "x", title: "Read file" },
      },
      { name: "bad name!", description: "x", inputSchema: { type: "object" } },
      { name: "no_schema" },
      { name: "read_file", description: "duplicate", inputSchema: { type: "object" } },
    ],
  };

  it("keeps schemas and known annotations, rewrites draft-07 forms, and reports everything else", () => {
    const { toolset, problems, originalNames } = toolsetFromMcpTools(list, {
      id: "files",
      prefix: "fs.",
      serverInfo: { name: "files-server", version: "1.2.3" },
    });
    const parsed = Toolset.parse(toolset);
    expect(parsed.tools.map((t) => t.name)).toEqual(["fs.read_file", "fs.no_schema"]);
    const read = parsed.tools[0];
    expect(read?.inputSchema.$schema).toBeUndefined();
    expect(read?.inputSchema).toMatchObject({
      properties: { range: { prefixItems: [{ type: "integer" }, { type: "integer" }] } },
    });
    expect(read?.annotations).toEqual({ readOnlyHint: true, title: "Read file" });
    expect(read?.outputSchema).toEqual(list.tools[0]?.outputSchema);
    expect(parsed.version).toBe("1.2.3");
    expect(originalNames.get("fs.read_file")).toBe("read_file");
    const messages = problems.map((p) => `${p.path}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining("tools[0].annotations.futureHint: dropped"),
        expect.stringContaining('tools[1].name: skipped: "fs.bad name!" is not a valid tool name'),
        expect.stringContaining("tools[2].inputSchema: not an object schema"),
        expect.stringContaining("tools[2].description: missing"),
        expect.stringContaining('tools[3].name: skipped: a second tool named "fs.read_file"'),
      ]),
    );
  });

  it("reports a result without a tools array", () => {
    const { toolset, problems } = toolsetFromMcpTools({ nothing: true }, { id: "empty" });
    expect(toolset.tools).toEqual([]);
    expect(problems[0]?.message).toContain("no tools array");
  });
});
