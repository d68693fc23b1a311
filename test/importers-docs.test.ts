import { copyFileSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IMPORT_MCP_HELP } from "../src/commands/import-mcp.js";
import { runCli, tempDir } from "./support/index.js";

/** docs/importers.md runs as written: the section on seeding an empty world, command, output and record. */
const ROOT = resolve(import.meta.dirname, "..");
const DOC = readFileSync(join(ROOT, "docs", "importers.md"), "utf8");
const dir = tempDir();
afterAll(() => dir.cleanup());

/** The fenced blocks under one heading, each with its language ("" for plain output). */
function blocksUnder(heading: string): Array<{ language: string; code: string }> {
  const found: Array<{ language: string; code: string }> = [];
  let current = "";
  let open: { language: string; lines: string[] } | undefined;
  for (const line of DOC.split("\n")) {
    if (open) {
      if (line === "```") {
        if (current === heading) found.push({ language: open.language, code: open.lines.join("\n") });
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith("```")) open = { language: line.slice(3), lines: [] };
    else if (line.startsWith("#")) current = line.replace(/^#+ /, "");
  }
  return found;
}

/** A command line as the doc writes it, run in a folder. */
function runIn(cwd: string, line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli(line.replace(/^toolsim /, "").split(/\s+/), {}, cwd);
}

describe("docs/importers.md: Seeding an empty world", () => {
  const blocks = blocksUnder("Seeding an empty world");
  const command = blocks.find((b) => b.language === "sh");
  const output = blocks.find((b) => b.language === "");
  const record = blocks.find((b) => b.language === "json");

  it("has its command, what it prints, and a record written", () => {
    expect(command?.code).toMatch(/^toolsim import openapi petstore\.yaml .*--seed-state \d+/);
    expect(output?.code).toBeTruthy();
    expect(record?.code).toBeTruthy();
  });

  it("prints what the doc shows and writes the record the doc shows", async () => {
    copyFileSync(join(ROOT, "test/fixtures/openapi-petstore/petstore.yaml"), join(dir.path, "petstore.yaml"));
    const run = await runIn(dir.path, command?.code ?? "");
    expect(run.code, run.stderr).toBe(0);
    for (const line of (output?.code ?? "").split("\n")) expect(run.stderr.split("\n")).toContain(line);
    const written = JSON.parse(readFileSync(join(dir.path, "toolsets", "pet_shelter.json"), "utf8"));
    expect(written.state.pets["1"]).toEqual(JSON.parse(record?.code ?? "null"));
  }, 60_000);

  it("names the options in the help of every importer", async () => {
    const help = await runCli(["import", "--help"]);
    expect(help.stdout).toContain("--seed-state N");
    expect(help.stdout).toContain("--seed S");
    // the CLI answers `import mcp --help` with the import command's help; the mcp help is its own text
    expect(IMPORT_MCP_HELP).toContain("--seed-state N");
    expect(IMPORT_MCP_HELP).toContain("--seed S");
  });
});
