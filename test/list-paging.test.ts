import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectStdio, tempDir } from "./support/index.js";

const SHELVES = 50;
const PER_SHELF = 1_000;

/** 50,000 small tools with effects, in 50 toolset files. */
function generateCatalog(folder: string): void {
  mkdirSync(folder);
  for (let shelf = 0; shelf < SHELVES; shelf++) {
    const tools = Array.from({ length: PER_SHELF }, (_, i) => ({
      name: `get_item_${shelf}_${i}`,
      description: `Get item ${i} of shelf ${shelf}.`,
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      effects: [{ kind: "read", target: "items/{id}" }],
    }));
    const toolset = {
      id: `shelf_${shelf}`,
      field: "Test",
      subdomain: "Paging",
      description: "Generated.",
      tools,
    };
    writeFileSync(join(folder, `shelf-${shelf}.json`), JSON.stringify(toolset));
  }
}

describe("tools/list of a catalog of any size, followed by the SDK's default client", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("lists 50,000 tools in pages the client's 64-page limit allows", async () => {
    const toolsets = join(dir.path, "toolsets");
    generateCatalog(toolsets);
    const { client } = await connectStdio([
      "--toolsets",
      toolsets,
      "--no-infer",
      "--db",
      join(dir.path, "big.db"),
    ]);
    try {
      // the default client walks every page itself and fails past 64 of them
      const { tools } = await client.listTools();
      const names = new Set(tools.map((tool) => tool.name));
      expect(names.size).toBe(SHELVES * PER_SHELF + 7); // and the 7 control tools
      expect(names.has("get_item_49_999")).toBe(true);
      // page by page: at most 32 pages, leaving the catalog room to grow
      let pages = 0;
      let cursor: string | undefined;
      do {
        const page = await client.listTools({ cursor: cursor ?? "" });
        pages++;
        cursor = page.nextCursor;
      } while (cursor);
      expect(pages).toBeLessThanOrEqual(32);
      expect(pages).toBeGreaterThan(1);
    } finally {
      await client.close();
    }
  }, 120_000);
});
