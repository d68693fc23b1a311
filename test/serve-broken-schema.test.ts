import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectStdio, LIBRARY, tempDir } from "./support/index.js";

describe("a catalog schema that is not valid JSON Schema", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("is reported on stderr once serving; a wrong type answers TOOL_SCHEMA_INVALID, a broken pattern goes unenforced", async () => {
    const toolset = JSON.parse(readFileSync(LIBRARY, "utf8"));
    toolset.tools[0].inputSchema.properties.member_id.pattern = "^MEM-[0-9{3}$("; // not a regular expression
    toolset.tools[1].inputSchema.properties.limit.type = "whole number"; // not a JSON type
    const file = join(dir.path, "broken.json");
    writeFileSync(file, JSON.stringify(toolset));
    const { client, stderr } = await connectStdio(["--toolsets", file, "--db", join(dir.path, "b.db")]);
    try {
      // a pattern no dialect can read is reported and left unenforced: the rest of the schema still holds
      const unchecked = await client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(unchecked.isError).toBeFalsy();
      await expect
        .poll(stderr)
        .toMatch(
          /tools\[0\]\.inputSchema\.properties\.member_id\.pattern: pattern .* is not enforced: it is not a valid regular expression/,
        );
      const healthy = await client.callTool({
        name: "borrow_book",
        arguments: { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" },
      });
      expect(healthy.isError).toBeFalsy();
      await expect.poll(stderr).toContain("tools[1].inputSchema: not a valid JSON Schema");
      const mistyped = await client.callTool({ name: "search_books", arguments: { genre: "science" } });
      expect(mistyped.isError).toBe(true);
      expect(mistyped._meta?.["toolsim/error"]).toMatchObject({ code: "TOOL_SCHEMA_INVALID", status: 500 });
    } finally {
      await client.close();
    }
  });
});
