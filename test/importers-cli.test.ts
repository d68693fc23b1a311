import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/index.js";

const FIXTURES = join(import.meta.dirname, "fixtures/importers");
const dir = tempDir();
afterAll(() => dir.cleanup());

describe("toolsim import", () => {
  it("imports every format into one folder that lints clean", async () => {
    const out = join(dir.path, "catalog");
    const runs = [
      ["synthtools", join(FIXTURES, "synthtools")],
      ["openapi", join(FIXTURES, "openapi/library-3.0.yaml"), "--field", "Libraries"],
      ["openapi", join(FIXTURES, "openapi/weather-3.1.json")],
      ["bfcl", join(FIXTURES, "bfcl")],
      ["openai", join(FIXTURES, "openai/tools.json"), "--state", join(FIXTURES, "openai/db"), "--id", "shop"],
    ];
    for (const args of runs) {
      const run = await runCli(["import", ...args, "--out", out]);
      expect(run.stderr).not.toContain("load error");
      expect(run.code, `${args.join(" ")}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/wrote \d+ toolset\(s\)/);
    }
    const shop = JSON.parse(readFileSync(join(out, "shop.json"), "utf8"));
    expect(shop.state.orders["#W100"].status).toBe("pending");
    const lint = await runCli(["lint", out]);
    expect(lint.stdout).not.toMatch(/^error/m);
    expect(lint.code).toBe(0);
  });

  it("reports every note per tool, and as JSON", async () => {
    const out = join(dir.path, "notes");
    const run = await runCli(["import", "synthtools", join(FIXTURES, "synthtools"), "--out", out, "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ toolsets: 2, tools: 3, tasks: 2, loadErrors: [] });
    expect(report.problems).toContainEqual(
      expect.objectContaining({ tool: "appointment_booker", path: "parameters.remind.default" }),
    );
  });

  it("never overwrites without --force", async () => {
    const out = join(dir.path, "twice");
    const source = join(FIXTURES, "openapi/weather-3.1.json");
    expect((await runCli(["import", "openapi", source, "--out", out])).code).toBe(0);
    const again = await runCli(["import", "openapi", source, "--out", out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("--force");
    expect((await runCli(["import", "openapi", source, "--out", out, "--force"])).code).toBe(0);
    expect(existsSync(join(out, "tiny_weather.json"))).toBe(true);
  });

  it("explains misuse with exit code 2 and missing input with exit code 1", async () => {
    const noFormat = await runCli(["import", "yaml", "x", "--out", dir.path]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain("synthtools, openapi, bfcl, openai, mcp");
    const noOut = await runCli(["import", "openapi", join(FIXTURES, "openapi/weather-3.1.json")]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain("--out");
    const missing = await runCli(["import", "openapi", join(dir.path, "nope.yaml"), "--out", dir.path]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such file");
    expect(missing.stderr).not.toContain("    at ");
  });
});
