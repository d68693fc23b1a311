import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CI, CLAIMS, ILLUSTRATIONS, NOT_RUN } from "./support/doc-coverage.js";
import { commandsOf, docPages, type Fence, fencesOf, fencesWhere, ROOT, where } from "./support/docs.js";

/**
 * Docs are code: every fenced block of README.md and docs/*.md is run, loaded or compared by
 * a test (support/doc-coverage.ts says which), or is one of the few illustrations listed
 * there with a reason. A block nobody claims fails here, named by its page, line and first line.
 */

const pages = docPages();
const claimsOf = (f: Fence) =>
  CLAIMS.filter((claim) => claim.doc === f.doc && fencesWhere(f.doc, claim.query).includes(f));
const illustrated = (f: Fence) =>
  ILLUSTRATIONS.some((shown) => shown.doc === f.doc && fencesWhere(f.doc, shown.query).includes(f));

/** What of a block no test covers: the whole block, or the command lines no claim names. */
function uncovered(f: Fence): string[] {
  if (illustrated(f)) return [];
  const claims = claimsOf(f);
  if (claims.some((claim) => claim.lines === undefined)) return [];
  const named = new Set(claims.flatMap((claim) => claim.lines ?? []));
  const skipped = new Set(NOT_RUN.filter((n) => n.doc === f.doc).map((n) => n.line));
  const commands = commandsOf(f);
  if (claims.length === 0 && !commands.every((command) => skipped.has(command))) return [where(f)];
  return commands
    .filter((command) => !named.has(command) && !skipped.has(command))
    .map((command) => `${where(f)} line ${JSON.stringify(command)}`);
}

describe("every block of the docs runs in a test", () => {
  it("reads the README and every page of docs/", () => {
    expect(pages).toContain("README.md");
    expect(pages).toContain("docs/llm.md");
    expect(pages.flatMap((doc) => fencesOf(doc)).length).toBeGreaterThan(100);
  });

  it("no block (and no command line of a block) is left without a test", () => {
    expect(pages.flatMap((doc) => fencesOf(doc).flatMap(uncovered))).toEqual([]);
  });

  it("every claim names blocks that exist, in a test that exists and reads the page", () => {
    const problems = CLAIMS.flatMap((claim) => {
      const about = `${claim.test} (${claim.doc} ${JSON.stringify(claim.query)})`;
      if (fencesWhere(claim.doc, claim.query).length === 0) return [`${about}: no such block`];
      const file = join(ROOT, claim.test);
      if (!existsSync(file)) return [`${about}: no such test file`];
      const text = readFileSync(file, "utf8");
      // CI runs the very lines, on a fresh clone
      if (claim.test === CI) {
        const steps = text.split("\n").map((line) => line.trim());
        const lines = claim.lines ?? ["(a claim of CI names the lines it runs)"];
        return lines.filter((line) => !steps.includes(line)).map((line) => `${about}: CI runs no ${line}`);
      }
      const name = claim.doc.replace(/^docs\//, "");
      const reads = text.includes(claim.doc) || text.includes(`"docs", "${name}"`);
      return reads ? [] : [`${about}: the test does not read the page`];
    });
    expect(problems).toEqual([]);
  });

  it("every line a claim names is a command of its blocks", () => {
    const missing = CLAIMS.flatMap((claim) =>
      (claim.lines ?? []).flatMap((line) =>
        fencesWhere(claim.doc, claim.query).some((f) => commandsOf(f).includes(line))
          ? []
          : [`${claim.test}: ${claim.doc} has no command ${JSON.stringify(line)}`],
      ),
    );
    expect(missing).toEqual([]);
  });

  it("the lines that are not run and the illustrations exist, and stay few", () => {
    for (const skipped of NOT_RUN) {
      const found = fencesOf(skipped.doc).some((f) => commandsOf(f).includes(skipped.line));
      expect(found, `${skipped.doc}: ${skipped.line}`).toBe(true);
      expect(skipped.why.length).toBeGreaterThan(10);
    }
    for (const shown of ILLUSTRATIONS) {
      const found = fencesWhere(shown.doc, shown.query);
      expect(found.length, `${shown.doc} ${JSON.stringify(shown.query)}`).toBeGreaterThan(0);
      // an illustration is a picture, never a command or a file
      for (const f of found) expect(f.lang, where(f)).toBe("");
    }
    expect(NOT_RUN.length + ILLUSTRATIONS.length).toBeLessThanOrEqual(12);
  });
});
