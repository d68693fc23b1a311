import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_PROFILES } from "../src/catalog/index.js";
import { fencesWhere } from "./support/docs.js";
import { runCli } from "./support/index.js";

const ROOT = resolve(import.meta.dirname, "..");
const DOC = readFileSync(join(ROOT, "docs", "frameworks.md"), "utf8");
const SNIPPETS = join(ROOT, "test", "frameworks");

describe("docs/frameworks.md shows what the framework tests run", () => {
  const files = readdirSync(SNIPPETS).filter((name) => name.endsWith(".ts"));

  it("has one snippet per framework test (the tests of one framework import its file)", () => {
    const tests = readdirSync(join(ROOT, "test")).filter((name) => /^frameworks-.+\.test\.ts$/.test(name));
    const ofOne = tests.filter((name) => {
      const text = readFileSync(join(ROOT, "test", name), "utf8");
      return new Set([...text.matchAll(/from "\.\/frameworks\/([a-z-]+)\.js"/g)].map((m) => m[1])).size === 1;
    });
    expect(files.sort()).toEqual(
      ofOne.map((name) => name.replace(/^frameworks-/, "").replace(/\.test\.ts$/, ".ts")).sort(),
    );
  });

  it.each(files)("shows %s verbatim, as a TypeScript block", (file) => {
    const code = readFileSync(join(SNIPPETS, file), "utf8").trimEnd();
    expect(DOC).toContain(`\`\`\`ts\n${code}\n\`\`\``);
  });

  it("names only profiles and serve options that exist", async () => {
    for (const [, profile] of DOC.matchAll(/--schema-profile",? "?([a-z-]+)/g)) {
      expect(SCHEMA_PROFILES).toContain(profile);
    }
    const { stdout } = await runCli(["serve", "--help"]);
    for (const [, flag] of DOC.matchAll(/"(--[a-z-]+)"/g)) expect(stdout).toContain(`${flag} `);
  });

  it("every TypeScript block is a module or a run that frameworks-snippets.test.ts runs", () => {
    // the snippets test takes the blocks after "`test/frameworks/X.ts`:" and those starting "// stdio" or "// HTTP"
    const blocks = fencesWhere("docs/frameworks.md", { lang: "ts" });
    const modules = blocks.filter((f) => DOC.includes(`.ts\`:\n\n\`\`\`ts\n${f.code}`));
    const runs = blocks.filter((f) => /^\/\/ (stdio|HTTP)/.test(f.code));
    expect(modules.length).toBe(files.length);
    expect(runs.length).toBe(2 * files.length);
    expect(modules.length + runs.length).toBe(blocks.length);
  });

  it("the README points to it", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("(docs/frameworks.md)");
  });
});
