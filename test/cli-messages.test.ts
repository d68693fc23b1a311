import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/commands/index.js";
import { LIBRARY, runCli, tempDir } from "./support/index.js";

const work = tempDir("toolsim-cli-messages-");
afterAll(() => work.cleanup());

describe("CLI messages say what is wrong", () => {
  it("an upstream entry gets each field's own problem, not a missing command", async () => {
    const file = join(work.path, "servers.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          fs: { command: 42, args: ["-y", 7], env: { A: 1 } },
          web: { url: ["http://x"], headers: "h" },
          blank: { command: "", cwd: 3 },
        },
      }),
    );
    const run = await runCli(["serve", "--toolsets", LIBRARY, "--upstream", file]);
    expect(run.code).toBe(1);
    const lines = run.stderr.split("\n").filter((line) => line.includes(file));
    expect(lines).toEqual([
      `toolsim: ${file}: mcpServers.fs.command: expected the program to start as a non-empty string; got number 42`,
      `toolsim: ${file}: mcpServers.fs.args[1]: expected an array of strings; got number 7 here`,
      `toolsim: ${file}: mcpServers.fs.env.A: expected an object of string values; got number 1 here`,
      `toolsim: ${file}: mcpServers.web.url: expected an http(s) URL as a non-empty string; got an array (["http://x"])`,
      `toolsim: ${file}: mcpServers.web.headers: expected an object of string values; got string "h"`,
      `toolsim: ${file}: mcpServers.blank.command: expected the program to start as a non-empty string; got an empty string`,
      `toolsim: ${file}: mcpServers.blank.cwd: expected a folder as a non-empty string; got number 3`,
    ]);
  });

  it("a --toolsets path that does not exist is said to not exist", async () => {
    const missing = join(work.path, "no-such-folder");
    const run = await runCli(["serve", "--stdio", "--toolsets", missing, "--db", join(work.path, "x.db")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--toolsets: "${missing}" does not exist (no such file or folder`);
    expect(run.stderr).not.toContain("toolsim lint");
  });

  it("--prot: did you mean --port?", async () => {
    const run = await runCli(["serve", "--prot", "3000"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("toolsim serve: unknown option --prot; did you mean --port?");
  });

  it.each(COMMANDS.map((command) => command.name))(
    "%s names the option nearest a mistyped one",
    async (name) => {
      const help = (await runCli([name, "--help"])).stdout;
      const option = /(--[a-z][a-z-]+[a-z])/.exec(help)?.[1];
      const typo = option ? `${option.slice(0, -1)}x${option.slice(-1)}` : "--no-such-option";
      // import reads its format before its options
      const run = await runCli([name, ...(name === "import" ? ["openapi"] : []), typo]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`toolsim ${name}: unknown option ${typo}`);
      if (option) expect(run.stderr).toContain(`did you mean ${option}`);
    },
  );
});
