import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** The evaluation is a development tool: type-checked with the code, never shipped. */
const ROOT = resolve(import.meta.dirname, "..");
const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

describe("the evaluation in the package", () => {
  it("is type-checked with everything else, and built apart from dist/", () => {
    expect(json("tsconfig.json").include).toContain("eval");
    expect(json("tsconfig.build.json").include).toEqual(["src"]);
    expect(json("tsconfig.eval.json").compilerOptions.outDir).toBe("dist-eval");
  });

  it("is not in what npm packs", () => {
    const [pack] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
      }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const paths = (pack?.files ?? []).map((f) => f.path);
    expect(paths).toContain("dist/cli.js");
    expect(paths.filter((p) => /^(eval|dist-eval)\//.test(p) || p.endsWith(".py"))).toEqual([]);
  }, 60_000);
});
