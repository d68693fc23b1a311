import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/index.js";
import { runCli, tempDir } from "./support/index.js";

describe("npm run demo (toolsim demo on the shipped catalog)", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("plays a task over MCP: a wrong call fixed from its error, feedback, a solved verdict and the report", async () => {
    const db = join(dir.path, "demo.db");
    const { code, stdout, stderr } = await runCli(["demo", "--db", db]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("agent → sim_start_task");
    expect(stdout).toMatch(/✗ The call to \w+ was rejected and nothing was executed/);
    expect(stdout).toContain("(the agent reads the error:");
    expect(stdout).toMatch(/: not solved yet \(\d+ of \d+ steps done\)/);
    expect(stdout).toMatch(/← Task [\w-]+: solved\./);
    expect(stdout).toMatch(/Verdict: solved \(golden judge, (\d+)\/\1 steps\)/);
    expect(stdout).toMatch(/IAV {2}invalid argument value +1 of \d+ calls/);

    const store = await openStore(db);
    try {
      const session = await store.session("demo", "");
      expect(session?.taskId).toBeTruthy();
      const calls = await store.calls(session?.id ?? "");
      expect(calls.filter((c) => c.status === "rejected")).toHaveLength(1);
      expect(calls.at(-1)?.status).toBe("ok");
    } finally {
      await store.close();
    }
  });
});
