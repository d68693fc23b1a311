import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MEMORY_SERVER } from "./fixtures/hybrid/helpers.js";
import { runCli, tempDir } from "./support/index.js";

/** `toolsim import FORMAT … --state PATH`, for every format, through the real CLI. */
const FIXTURES = join(import.meta.dirname, "fixtures/importers");
const dir = tempDir();
afterAll(() => dir.cleanup());

const WORLD = { shelves: { "SH-1": { id: "SH-1", label: "poetry", books: 12 } }, clock: { opened: "09:00" } };
const worldFile = join(dir.path, "world.json");
writeFileSync(worldFile, JSON.stringify(WORLD));

const SOURCES: Record<string, string[]> = {
  synthtools: [join(FIXTURES, "synthtools")],
  openapi: [join(FIXTURES, "openapi/library-3.0.yaml")],
  bfcl: [join(FIXTURES, "bfcl-multi-turn")],
  openai: [join(FIXTURES, "openai/tools.json"), "--id", "shop"],
  mcp: ["--id", "memory", "--env", `MEMORY_FILE_PATH=${join(dir.path, "memory.jsonl")}`],
};

/** The args of one import; mcp names its server last, after `--`. */
function importArgs(format: string, out: string, state: string, ...flags: string[]): string[] {
  const source = SOURCES[format] ?? [];
  return format === "mcp"
    ? ["import", "mcp", ...source, "--out", out, "--state", state, ...flags, "--", MEMORY_SERVER]
    : ["import", format, ...source, "--out", out, "--state", state, ...flags];
}

function writtenStates(out: string): unknown[] {
  return readdirSync(out)
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(readFileSync(join(out, name), "utf8")).state);
}

describe("toolsim import --state", () => {
  it.each(Object.keys(SOURCES))(
    "%s: the state becomes every written toolset's starting state",
    async (format) => {
      const out = join(dir.path, `out-${format}`);
      // as written (mcp infers nothing), then as inference reads it (it may add key fields)
      const run = await runCli(
        importArgs(format, out, worldFile, ...(format === "mcp" ? [] : ["--no-infer"])),
      );
      expect(run.code, run.stderr).toBe(0);
      const states = writtenStates(out);
      expect(states.length).toBeGreaterThan(0);
      for (const state of states) expect(state).toEqual(WORLD);
      if (format === "mcp") return;
      const inferred = join(dir.path, `inferred-${format}`);
      const again = await runCli(importArgs(format, inferred, worldFile));
      expect(again.code, again.stderr).toBe(0);
      for (const state of writtenStates(inferred)) expect(state).toMatchObject(WORLD);
    },
    60_000,
  );

  it("reads a folder of JSON files as collections named by file", async () => {
    const folder = join(dir.path, "db");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "shelves.json"), JSON.stringify(WORLD.shelves));
    writeFileSync(join(folder, "clock.json"), JSON.stringify(WORLD.clock));
    const out = join(dir.path, "out-folder");
    const run = await runCli(importArgs("openapi", out, folder, "--no-infer"));
    expect(run.code, run.stderr).toBe(0);
    expect(writtenStates(out)).toEqual([WORLD]);
  }, 60_000);

  it.each(Object.keys(SOURCES))(
    "%s: a missing state file is an error naming it, and nothing is written",
    async (format) => {
      const out = join(dir.path, `missing-${format}`);
      const missing = join(dir.path, "no-such-world.json");
      const run = await runCli(importArgs(format, out, missing));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`--state ${missing}: no such file or folder`);
      expect(run.stderr).not.toContain("    at ");
      expect(existsSync(out)).toBe(false);
    },
    60_000,
  );

  it("says why a state file cannot be used: not JSON, not an object, an empty folder", async () => {
    const broken = join(dir.path, "broken.json");
    writeFileSync(broken, '{"shelves": {');
    const list = join(dir.path, "list.json");
    writeFileSync(list, "[1, 2]");
    const empty = join(dir.path, "empty-db");
    mkdirSync(empty, { recursive: true });
    const cases: Array<[string, RegExp]> = [
      [broken, /--state .*broken\.json: cannot read: /],
      [list, /--state .*list\.json: a state is a JSON object \(collections by name\); this is an array/],
      [empty, /--state .*empty-db: the folder holds no JSON files/],
    ];
    for (const [path, message] of cases) {
      const run = await runCli(importArgs("bfcl", join(dir.path, "refused"), path));
      expect(run.code, path).toBe(1);
      expect(run.stderr).toMatch(message);
    }
    expect(existsSync(join(dir.path, "refused"))).toBe(false);
  }, 60_000);
});
