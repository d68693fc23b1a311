import { cpSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadToolsets } from "../src/catalog/index.js";
import { bash, DocRun, fence, linesOf, readerEnv, toolsimBin } from "./support/docs.js";
import { FIXTURES, runCli, tempDir } from "./support/index.js";

/** docs/importers.md runs as written: the imports it lists, and the section on seeding an empty world. */
const DOC = "docs/importers.md";
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-importers-docs-");
afterAll(() => dir.cleanup());
const bin = toolsimBin(join(dir.path, "bin"));

describe("docs/importers.md: the imports it lists", () => {
  const listed = fence(DOC, { heading: "Importers", lang: "sh" });

  it("each runs as written on the sources where its paths point, and the files load", async () => {
    // the reader's downloads, where the lines look for them: the datasets in ../data, a τ-bench
    // domain in tau/, the pet store beside; here the fixtures of the importers' own tests
    const data = join(dir.path, "sources", "data");
    const work = join(dir.path, "sources", "work");
    mkdirSync(join(work, "tau", "retail"), { recursive: true });
    cpSync(join(FIXTURES, "importers", "synthtools"), join(data, "synthtools"), { recursive: true });
    cpSync(join(FIXTURES, "importers", "bfcl"), join(data, "bfcl"), { recursive: true });
    // BFCL names its multi-turn entries file .json (it holds JSON lines)
    renameSync(
      join(data, "bfcl", "BFCL_v4_multi_turn_base.jsonl"),
      join(data, "bfcl", "BFCL_v4_multi_turn_base.json"),
    );
    cpSync(join(FIXTURES, "openapi-petstore", "petstore.yaml"), join(work, "petstore.yaml"));
    cpSync(join(FIXTURES, "importers", "openai"), join(work, "tau", "retail"), { recursive: true });

    const ran = await bash(listed.code, work, readerEnv(bin, join(dir.path, "home")));
    expect(ran.code, ran.stderr).toBe(0);
    // the last line prints the mcp importer's own help
    expect(ran.stdout).toContain("toolsim import mcp — snapshot a live MCP server's tools");
    // each --out is a catalog of its own (the multi-turn file is also part of the whole folder)
    const outs = ["synthtools", "bfcl", "bfcl-multi-turn", "pet_shelter.json", "retail.json"];
    const written = outs.map((out) => loadToolsets([join(work, "toolsets", out)]));
    expect(written.flatMap((w) => w.problems)).toEqual([]);
    expect(written.map((w) => w.toolsets.length > 0)).toEqual(outs.map(() => true));
    expect(written[3]?.toolsets[0]?.toolset.field).toBe("Pet shops");
    expect(written[4]?.toolsets[0]?.toolset.state).toHaveProperty("orders");
    expect(linesOf(listed).every((line) => line.startsWith("toolsim import "))).toBe(true);
    doc.ran(listed);
  }, 60_000);
});

describe("docs/importers.md: Seeding an empty world", () => {
  const command = fence(DOC, { heading: "Seeding an empty world", lang: "sh" });
  const output = fence(DOC, { heading: "Seeding an empty world", lang: "" });
  const record = fence(DOC, { heading: "Seeding an empty world", lang: "json" });

  it("prints what the doc shows and writes the record the doc shows", async () => {
    expect(command.code).toMatch(/^toolsim import openapi petstore\.yaml .*--seed-state \d+/);
    const work = join(dir.path, "seeding");
    mkdirSync(work);
    cpSync(join(FIXTURES, "openapi-petstore", "petstore.yaml"), join(work, "petstore.yaml"));
    const run = await bash(command.code, work, readerEnv(bin, join(dir.path, "home")));
    expect(run.code, run.stderr).toBe(0);
    for (const line of linesOf(output)) expect(run.stderr.split("\n")).toContain(line);
    const written = JSON.parse(readFileSync(join(work, "toolsets", "pet_shelter.json"), "utf8"));
    expect(written.state.pets["1"]).toEqual(JSON.parse(record.code));
    for (const f of [command, output, record]) doc.ran(f);
  }, 60_000);
});

describe("toolsim import FORMAT --help", () => {
  it("gives each format its own help, naming the seeding options", async () => {
    const general = await runCli(["import", "--help"]);
    expect(general.stdout).toContain("Usage: toolsim import FORMAT SOURCE --out DIR [options]");
    for (const format of ["synthtools", "openapi", "bfcl", "openai"]) {
      const help = await runCli(["import", format, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^toolsim import ${format} — `));
      expect(help.stdout).toContain(`Usage: toolsim import ${format} `);
      expect(help.stdout).toContain("--seed-state N");
      expect(help.stdout).toContain("--seed S");
      // another format's own option is not offered
      expect(help.stdout.includes("--answers FILE")).toBe(format === "bfcl");
      expect(help.stdout.includes("--id ID")).toBe(format === "openapi" || format === "openai");
    }
    const mcp = await runCli(["import", "mcp", "--help"]);
    expect(mcp.stdout).toMatch(/^toolsim import mcp — snapshot a live MCP server's tools/);
    expect(mcp.stdout).toContain("--url URL");
    expect(mcp.stdout).toContain("--seed-state N");
  });

  it("leaves a --help after -- to the server it starts", async () => {
    const started = await runCli([
      "import",
      "mcp",
      "--out",
      join(dir.path, "never.json"),
      "--timeout",
      "5",
      "--",
      process.execPath,
      "-e",
      "process.exit(3)",
      "--help",
    ]);
    expect(started.stdout).not.toContain("Usage:");
    expect(started.code).toBe(1);
    expect(started.stderr).toContain("the server did not start");
  });

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
