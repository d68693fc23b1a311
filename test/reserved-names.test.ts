import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { allText, writeUpstreamConfig } from "./fixtures/hybrid/helpers.js";
import { connectStdio, LIBRARY, runCli, tempDir } from "./support/index.js";

const CONTROL_NAMES_SERVER = resolve(import.meta.dirname, "fixtures/hybrid/control-names-server.mjs");
const work = tempDir("toolsim-reserved-");
afterAll(() => work.cleanup());

/** The library fixture with its third tool renamed. */
function libraryWithToolNamed(name: string): string {
  const toolset = JSON.parse(readFileSync(LIBRARY, "utf8")) as { tools: Array<{ name: string }> };
  const tool = toolset.tools[2];
  if (!tool) throw new Error("the library fixture has fewer than three tools");
  const old = tool.name;
  tool.name = name;
  const file = join(work.path, `library-${name}.json`);
  // the task's solution names the tool too
  writeFileSync(file, JSON.stringify(toolset).replaceAll(`"${old}"`, `"${name}"`));
  return file;
}

describe("control-tool names are toolsim's", () => {
  it("lint: a catalog tool named like a control tool is an error at its file and path", async () => {
    const file = libraryWithToolNamed("sim_reset");
    const run = await runCli(["lint", file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `error: ${file} at tools[2].name: "sim_reset" is reserved: names starting with "sim_" belong to toolsim's control tools`,
    );
  });

  it("serve refuses such a catalog, and takes it with another control prefix", async () => {
    const file = libraryWithToolNamed("sim_borrow");
    const refused = await runCli(["serve", "--stdio", "--toolsets", file, "--db", join(work.path, "a.db")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file} at tools[2].name: "sim_borrow" is reserved`);
    expect(refused.stderr).toContain("--control-prefix P or --no-control-tools");
    const other = libraryWithToolNamed("ctl_borrow");
    const prefixed = await runCli([
      "serve",
      "--stdio",
      "--toolsets",
      other,
      "--control-prefix",
      "ctl_",
      "--db",
      join(work.path, "c.db"),
    ]);
    expect(prefixed.code).toBe(1);
    expect(prefixed.stderr).toContain('"ctl_borrow" is reserved: names starting with "ctl_"');
    const { client } = await connectStdio([
      "--toolsets",
      file,
      "--control-prefix",
      "ctl_",
      "--db",
      join(work.path, "b.db"),
    ]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("sim_borrow");
      expect(names).toContain("ctl_get_state");
    } finally {
      await client.close();
    }
  });

  it("--bare-names: an upstream tool named like a control tool keeps its prefixed name", async () => {
    const config = writeUpstreamConfig(work.path, {
      up: { command: process.execPath, args: [CONTROL_NAMES_SERVER] },
    });
    const { client, stderr } = await connectStdio([
      "--toolsets",
      LIBRARY,
      "--upstream",
      config,
      "--bare-names",
      "--db",
      join(work.path, "hybrid.db"),
    ]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names.filter((name) => name === "sim_get_state")).toHaveLength(1);
      expect(names).toContain("up.sim_get_state");
      expect(names).toContain("get_status"); // other names stay bare
      const own = await client.callTool({ name: "sim_get_state", arguments: { path: "/books/BK-0001" } });
      expect(own.structuredContent).toMatchObject({ path: "/books/BK-0001", value: { book_id: "BK-0001" } });
      const upstream = await client.callTool({ name: "up.sim_get_state", arguments: {} });
      expect(allText(upstream)).toBe("the upstream answered sim_get_state");
      expect(stderr()).toContain(
        'upstream up: tool "sim_get_state" is served as "up.sim_get_state": names starting with "sim_" belong to toolsim\'s control tools',
      );
    } finally {
      await client.close();
    }
  });
});
