import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectHttp, LIBRARY, runCli, startHttpServer, tempDir } from "./support/index.js";

/** The library fixture with its first tool's inputSchema nested `levels` deep, as text (no recursion builds it). */
function nestedLibrary(levels: number): string {
  const toolset = JSON.parse(readFileSync(LIBRARY, "utf8"));
  toolset.tools[0].inputSchema = "__deep__";
  const deep = `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${"}}".repeat(levels)}`;
  return JSON.stringify(toolset).replace('"__deep__"', deep);
}

describe("a toolset nested 10,000 levels", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("is reported by lint with the file and the path where it goes too deep", async () => {
    const file = join(dir.path, "deep.json");
    writeFileSync(file, nestedLibrary(10_000));
    const run = await runCli(["lint", file, "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      problems: Array<{ file: string; path: string; message: string }>;
    };
    expect(report.problems).toEqual([
      {
        file,
        path: expect.stringMatching(/^tools\[0\]\.inputSchema\.properties\.a\.properties\.a.*…$/),
        message: expect.stringContaining("nests deeper than 128 levels"),
        severity: "error",
      },
    ]);
  });

  it("never crashes a running server: --watch keeps the last good catalog and says why", async () => {
    const file = join(dir.path, "library.json");
    copyFileSync(LIBRARY, file);
    const server = await startHttpServer(["--toolsets", file, "--db", join(dir.path, "watch.db"), "--watch"]);
    try {
      writeFileSync(file, nestedLibrary(10_000));
      const deadline = Date.now() + 10_000;
      while (!server.stderr().includes("nests deeper than") && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(server.stderr()).toContain("catalog change not applied (the last good catalog stays)");
      expect(server.stderr()).toMatch(
        /library\.json at tools\[0\]\.inputSchema.*nests deeper than 128 levels/,
      );
      expect(server.process.exitCode).toBeNull();
      const client = await connectHttp(server.url);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("get_member");
      const member = await client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
      expect(member.isError).toBeFalsy();
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
