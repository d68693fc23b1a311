import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, describe, expect, it } from "vitest";
import {
  commandOf,
  DocRun,
  fence,
  fits,
  linesOf,
  readerEnv,
  startServing,
  toolsimBin,
} from "./support/docs.js";
import { connectHttp, runCli, tempDir } from "./support/index.js";

/**
 * docs/tasks.md as written: its two ways of serving a task, its command synopsis (each line
 * one the command's own --help prints), and its export example (the shape of what `toolsim
 * export` writes for the demo's session, which is the page's example).
 */
const DOC = "docs/tasks.md";
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-tasks-docs-");
afterAll(() => dir.cleanup());
const bin = toolsimBin(join(dir.path, "bin"));
const env = () => readerEnv(bin, join(dir.path, "home"));
const TASK_TOOLS = ["list_return_requests", "approve_return_request"];

describe("docs/tasks.md: Serving a task", () => {
  const block = fence(DOC, { heading: "Serving a task", lang: "sh" });
  const [http, stdio] = linesOf(block);

  it("over HTTP: the task's tools, three distractors and the control tools, before the first list", async () => {
    const server = await startServing(`${commandOf(http ?? "")} --port 0`, dir.path, env());
    try {
      const client = await connectHttp(server.url);
      const names = (await client.listTools()).tools.map((t) => t.name);
      await client.close();
      expect(names).toEqual(expect.arrayContaining([...TASK_TOOLS, "sim_task_feedback"]));
      const catalog = (await runCli(["list", "--json"])).stdout;
      const ownToolset = (
        JSON.parse(catalog) as { toolsets: Array<{ id: string; tools: Array<{ name: string }> }> }
      ).toolsets.find((t) => t.id === "ecommerce_returns");
      const own = ownToolset?.tools.map((t) => t.name) ?? [];
      const others = names.filter((n) => !n.startsWith("sim_") && !own.includes(n));
      expect(others).toHaveLength(3);
    } finally {
      await server.stop();
    }
    doc.ran(block, commandOf(http ?? ""));
  }, 60_000);

  it("over stdio: the task's tools, and no control tools for the agent under test", async () => {
    const client = new Client({ name: "tasks-docs", version: "1" });
    const own = env();
    await client.connect(
      new StdioClientTransport({
        command: "bash",
        args: ["-c", commandOf(stdio ?? "")],
        env: Object.fromEntries(Object.entries(own).filter((e): e is [string, string] => e[1] !== undefined)),
        cwd: dir.path,
        stderr: "ignore",
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(TASK_TOOLS));
      expect(names.filter((n) => n.startsWith("sim_"))).toEqual([]);
    } finally {
      await client.close();
    }
    doc.ran(block, commandOf(stdio ?? ""));
  }, 60_000);
});

describe("docs/tasks.md: Command line", () => {
  it("each line is a usage line the command's --help prints", async () => {
    const block = fence(DOC, { heading: "Command line", lang: "" });
    for (const line of linesOf(block)) {
      const command = line.split(" ")[1] ?? "";
      const help = await runCli([command, "--help"]);
      const usage = help.stdout
        .split("\n\n")
        .find((part) => part.startsWith("Usage: "))
        ?.split("\n")
        .map((l) => l.replace(/^Usage: /, "").trim());
      expect(usage, line).toContain(line);
    }
    doc.ran(block);
  }, 60_000);
});

describe("docs/tasks.md: Export", () => {
  it("the example has the shape of what toolsim export writes for the demo's session", async () => {
    const block = fence(DOC, { heading: "Export", lang: "json" });
    const shown = JSON.parse(block.code.replaceAll("{…}", "{}"));
    const db = join(dir.path, "export.db");
    const demo = await runCli(["demo", "--db", db], env());
    expect(demo.code, demo.stderr).toBe(0);
    const exported = await runCli(["export", "demo", "--db", db, "--format", "openai"], env());
    expect(exported.code, exported.stderr).toBe(0);
    const [line, ...more] = exported.stdout.trim().split("\n");
    expect(more).toEqual([]);
    const written = JSON.parse(line ?? "");
    expect(fits(shown, written), `${JSON.stringify(shown)}\n${line}`).toBe(true);
    // the example's first call is the demo's
    expect(written.rewards[0]).toMatchObject(shown.rewards[0]);
    doc.ran(block);
  }, 60_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
