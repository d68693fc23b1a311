import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callMeta, connectStdio, runCli, tempDir } from "./support/index.js";

const ACCOUNTS = resolve(import.meta.dirname, "fixtures/patterns/accounts.json");

type Result = Awaited<ReturnType<Client["callTool"]>>;

function findings(result: Result): Array<{ code: string; argument?: string; message: string }> {
  return (result._meta?.["toolsim/findings"] ?? []) as Array<{
    code: string;
    argument?: string;
    message: string;
  }>;
}

describe("catalog patterns, served", () => {
  const dir = tempDir();
  let client: Client;
  let stderr: () => string;

  beforeAll(async () => {
    ({ client, stderr } = await connectStdio([
      "--toolsets",
      ACCOUNTS,
      "--db",
      join(dir.path, "patterns.db"),
    ]));
  });
  afterAll(async () => {
    await client.close();
    dir.cleanup();
  });

  const register = (args: Record<string, string>) =>
    client.callTool({ name: "register_account", arguments: args });

  it("runs a pattern that backtracks exponentially in linear time: the call is answered at once", async () => {
    const started = performance.now();
    const refused = await register({ handle: `${"a".repeat(40)}!` });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(findings(refused)).toEqual([expect.objectContaining({ code: "IAV", argument: "handle" })]);
    expect((await register({ handle: "aaaa" })).isError).toBeFalsy();
  });

  it("enforces lookaheads RE2 cannot run when JavaScript's engine is provably cheap on them", async () => {
    const weak = await register({ password: "abcdefgh" });
    expect(findings(weak)).toEqual([expect.objectContaining({ code: "IAV", argument: "password" })]);
    expect((await register({ password: "Abcdefg1" })).isError).toBeFalsy();
  });

  it("reads a pattern written for another dialect in its repaired form instead of refusing every call", async () => {
    const ok = await register({ phone: "555-1234" });
    expect(ok.isError).toBeFalsy();
    expect(callMeta(ok).engine).toBe("offline");
    expect(findings(await register({ phone: "5551234" }))).toEqual([
      expect.objectContaining({ code: "IAV", argument: "phone" }),
    ]);
  });

  it("does not enforce a pattern it cannot run safely, and says so once it is serving", async () => {
    expect((await register({ nickname: "no match at all" })).isError).toBeFalsy();
    await expect
      .poll(stderr, { timeout: 10_000 })
      .toMatch(/properties\.nickname\.pattern: pattern .* is not enforced: RE2 cannot run it/);
  });
});

describe("catalog patterns, linted and imported", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("lint flags unenforced, repaired and backtracking-prone patterns with file and path", async () => {
    const run = await runCli(["lint", ACCOUNTS, "--json"]);
    const report = JSON.parse(run.stdout) as {
      errors: number;
      problems: Array<{ file: string; path: string; message: string; severity: string }>;
    };
    expect(report.errors).toBe(0);
    const about = (property: string) =>
      report.problems.find((p) => p.path === `tools[0].inputSchema.properties.${property}.pattern`);
    expect(about("handle")).toMatchObject({ file: ACCOUNTS, severity: "warning" });
    expect(about("handle")?.message).toMatch(/exponential time/);
    expect(about("phone")?.message).toContain('reads it as "^\\\\d{3}-\\\\d{4}$"');
    expect(about("nickname")?.message).toMatch(/is not enforced: .*not anchored/);
    expect(about("password")).toBeUndefined();
  });

  it("import writes a pattern another dialect allows in the form JSON Schema accepts, and notes it", async () => {
    const source = join(dir.path, "functions.json");
    writeFileSync(
      source,
      JSON.stringify([
        {
          type: "function",
          function: {
            name: "lookup_extension",
            description: "Find the employee who answers an internal phone extension.",
            parameters: {
              type: "object",
              properties: { extension: { type: "string", pattern: "\\A\\d{3}\\-\\d{2}\\Z" } },
              required: ["extension"],
            },
          },
        },
      ]),
    );
    const out = join(dir.path, "imported");
    const run = await runCli(["import", "openai", source, "--out", out, "--id", "phones"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('written as "^\\\\d{3}-\\\\d{2}$"');
    const written = JSON.parse(readFileSync(join(out, "phones.json"), "utf8"));
    expect(written.tools[0].inputSchema.properties.extension.pattern).toBe("^\\d{3}-\\d{2}$");
    const lint = await runCli(["lint", out]);
    expect(lint.stdout).not.toContain("pattern");
  });
});
