import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CatalogProblem, loadToolsets } from "../src/catalog/index.js";
import { LIBRARY, runCli, SHIPPED_TOOLSETS, tempDir } from "./support/index.js";

const dir = tempDir();
afterAll(() => dir.cleanup());

const library = () => JSON.parse(readFileSync(LIBRARY, "utf8"));

function write(name: string, content: unknown): string {
  const file = join(dir.path, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

function problemsOf(content: unknown, name = "toolset.json"): CatalogProblem[] {
  return loadToolsets([write(name, content)]).problems;
}

describe("catalog loader", () => {
  it("loads a good file with no problems", () => {
    const { toolsets, problems } = loadToolsets([LIBRARY]);
    expect(problems).toEqual([]);
    expect(toolsets[0]?.toolset.tools).toHaveLength(8);
  });

  it("names the file, line and column of broken JSON", () => {
    const [problem] = problemsOf('{\n  "id": "x",\n  "tools": [,]\n}', "broken.json");
    expect(problem?.file).toContain("broken.json");
    expect(problem?.message).toMatch(/^not valid JSON at line 3, column 13: Unexpected token/);
  });

  it("names the JSON path of a missing field and of an unknown key", () => {
    const toolset = library();
    delete toolset.tools[1].description;
    toolset.tools[2].inputSchemas = {};
    const problems = problemsOf(toolset);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: "tools[1].description",
          message: expect.stringContaining("missing required field"),
        }),
        expect.objectContaining({ path: "tools[2]", message: 'unknown key(s) "inputSchemas"' }),
      ]),
    );
  });

  it("rejects an unknown effect kind with the kinds it knows", () => {
    const toolset = library();
    toolset.tools[0].effects[0].kind = "fetch";
    const [problem] = problemsOf(toolset);
    expect(problem?.path).toBe("tools[0].effects[0].kind");
    expect(problem?.message).toContain('unknown effect kind "fetch"');
  });

  it("checks that input and output schemas are valid JSON Schema describing objects", () => {
    const toolset = library();
    toolset.tools[0].inputSchema.properties.member_id.type = "text";
    toolset.tools[1].outputSchema.type = "array";
    const problems = problemsOf(toolset);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: "tools[0].inputSchema",
          message: expect.stringContaining("not a valid JSON Schema"),
        }),
        expect.objectContaining({
          path: "tools[1].outputSchema.type",
          message: expect.stringContaining('must be "object"'),
        }),
      ]),
    );
  });

  it("checks that effects name documented errors, real arguments and earlier bindings", () => {
    const toolset = library();
    toolset.tools[0].effects[0].missing = "NOPE";
    toolset.tools[3].effects[1].target = "books/{isbn}";
    toolset.tools[2].effects[2].set.title = "{$shelf.title}";
    const messages = problemsOf(toolset).map((p) => `${p.path}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "tools[0].effects[0].missing: error code NOPE is not among the tool's documented errors",
        'tools[3].effects[1]: template refers to argument "isbn", which is not a property of the inputSchema',
        'tools[2].effects[2]: template refers to "$shelf", which no earlier effect of borrow_book binds with "as"',
      ]),
    );
  });

  it("reports duplicate tool names across files, naming both", () => {
    const a = write("a.json", library());
    const other = library();
    other.id = "library_two";
    other.tasks = [];
    const b = write("b.json", other);
    const problems = loadToolsets([a, b]).problems;
    expect(problems.filter((p) => p.message.startsWith('duplicate tool "get_member"'))).toHaveLength(1);
    expect(problems[0]?.file).toBe(b);
    expect(problems[0]?.message).toContain("a.json");
  });

  it("reports a missing path instead of throwing", () => {
    const [problem] = loadToolsets([join(dir.path, "nope")]).problems;
    expect(problem?.message).toBe("no such file or folder");
  });
});

describe("toolsim lint", () => {
  it("passes the shipped catalog (format, schemas and every golden solution against its task state)", async () => {
    const run = await runCli(["lint", SHIPPED_TOOLSETS]);
    // quality warnings (toolsim lint's advice) may remain; errors may not
    expect(run.stdout).toMatch(/no problems|^0 error\(s\)/m);
    expect(run.code).toBe(0);
  });

  it("prints every problem and exits 1", async () => {
    const toolset = library();
    toolset.tools[0].effects[0].missing = "NOPE";
    toolset.tasks[0].solution[0].arguments.due = "next week";
    const bad = write("lint-bad.json", toolset);
    const run = await runCli(["lint", bad]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("error code NOPE is not among the tool's documented errors");
    expect(run.stdout).not.toContain("    at "); // no stack traces
  });

  it("replays solutions: a golden call that fails against its task state is an error", async () => {
    const toolset = library();
    toolset.tasks[0].solution[0].arguments.book_id = "BK-0009";
    const run = await runCli(["lint", write("lint-solution.json", toolset)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "tasks[0].solution[0]: golden call fails against the task state: BOOK_NOT_FOUND",
    );
  });

  it("--json prints machine-readable problems", async () => {
    const toolset = library();
    toolset.tools[0].effects[0].missing = "NOPE";
    const run = await runCli(["lint", "--json", write("lint-json.json", toolset)]);
    const parsed = JSON.parse(run.stdout);
    expect(parsed.errors).toBe(1);
    expect(parsed.problems[0]).toMatchObject({ path: "tools[0].effects[0].missing", severity: "error" });
  });
});
