import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { FILESYSTEM_SERVER } from "./fixtures/hybrid/helpers.js";
import {
  bash,
  commandOf,
  DocRun,
  fence,
  linesOf,
  readerEnv,
  type Serving,
  startServing,
  toolsimBin,
} from "./support/docs.js";
import { connectHttp, FIXTURES, tempDir } from "./support/index.js";

/**
 * The README's blocks that other pages do not cover: the calls of "Where state lives", and
 * the commands of its sections on tasks, faults, hybrid mode and bringing your own tools.
 * Commands that serve run as written on a free port (not the default 3333) until a real MCP
 * client has listed and called their tools.
 */
const README = "README.md";
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-readme-docs-");
afterAll(() => dir.cleanup());
const bin = toolsimBin(join(dir.path, "bin"));
const env = () => readerEnv(bin, join(dir.path, "home"));

/** A serving line as written, on a free port, while `use` talks to it. */
async function serving<T>(line: string, cwd: string, use: (client: Client, server: Serving) => Promise<T>) {
  const server = await startServing(`${commandOf(line)} --port 0`, cwd, env());
  try {
    const client = await connectHttp(server.url);
    try {
      return await use(client, server);
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
  }
}

const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("\n");

describe("README: Where state lives", () => {
  const calls = fence(README, { heading: "Where state lives", lang: "jsonc" });

  it("each call shown gets the answer shown", async () => {
    // "// tools/call NAME ARGS   → what comes back", then "//   lines of the answer's text"
    const shown: Array<{ name: string; args: Record<string, unknown>; answer: string; text: string[] }> = [];
    for (const line of linesOf(calls)) {
      const call = /^\/\/ tools\/call (\S+)\s+(\{.*?\})\s+→ (.*)$/.exec(line);
      if (call)
        shown.push({ name: call[1] ?? "", args: JSON.parse(call[2] ?? ""), answer: call[3] ?? "", text: [] });
      else shown.at(-1)?.text.push(line.replace(/^\/\/ {3}/, ""));
    }
    expect(shown.length).toBe(4);
    await serving("toolsim serve", dir.path, async (client) => {
      for (const { name, args, answer, text } of shown) {
        const result = await client.callTool({ name, arguments: args });
        const got = textOf(result);
        if (answer.startsWith("the order as stored")) {
          expect(result.isError, got).toBeFalsy();
          const stored = await client.readResource({
            uri: `toolsim://session/state/orders/${args.order_id}`,
          });
          const first = stored.contents[0];
          const order = JSON.parse(first && "text" in first ? first.text : "{}").value;
          expect(result.structuredContent).toMatchObject({
            order: { order_id: order.order_id, status: order.status },
          });
          continue;
        }
        expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        // what the README elides ("...") aside, the text is as shown, in order
        const pieces = [answer.replace(/^isError(, nothing executed)?:\s*/, ""), ...text]
          .flatMap((piece) => piece.split("..."))
          .map((piece) => piece.trim())
          .filter((piece) => piece !== "");
        let from = 0;
        for (const piece of pieces) {
          const at = got.indexOf(piece, from);
          expect(at, `${name}: "${piece}" in\n${got}`).toBeGreaterThanOrEqual(0);
          from = at + piece.length;
        }
        if (answer.includes("nothing executed")) expect(result._meta?.["toolsim/findings"]).toBeDefined();
      }
    });
    doc.ran(calls);
  }, 60_000);
});

describe("README: the commands of its sections", () => {
  it("serve --task starts every session on the task, with its tools and distractors", async () => {
    const block = fence(README, { heading: "Dry-running agents: tasks, feedback, reports", lang: "sh" });
    const line = linesOf(block).find((l) => l.startsWith("toolsim serve --task ")) ?? "";
    const distractors = Number(/--distractors (\d+)/.exec(line)?.[1]);
    await serving(line, dir.path, async (client) => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain("approve_return_request");
      expect(names).toContain("sim_task_feedback");
      const task = (await client.callTool({ name: "sim_list_tasks", arguments: {} })) as {
        content?: unknown;
      };
      expect(textOf(task)).toContain("ecom-approve-defective-headphones");
      // the task's toolset, the distractors, the control tools: fewer than the whole catalog
      expect(names.length).toBeLessThan(55);
      expect(names.filter((n) => !n.startsWith("sim_")).length).toBeGreaterThan(distractors);
    });
    doc.ran(block, commandOf(line));
  }, 60_000);

  it("serve --faults flaky serves with the profile", async () => {
    const block = fence(README, { heading: "Faults on purpose", lang: "sh" });
    const [line] = linesOf(block);
    await serving(line ?? "", dir.path, async (client) => {
      // the profile's faults come, the same ones for the same calls (its seed): one in a few reads
      const faults: unknown[] = [];
      for (let i = 0; i < 40 && faults.length === 0; i++) {
        const result = await client.callTool({ name: "get_order", arguments: { order_id: "ORD-1001" } });
        if (result._meta?.["toolsim/fault"]) faults.push(result._meta["toolsim/fault"]);
      }
      expect(faults).toHaveLength(1);
    });
    doc.ran(block);
  }, 60_000);

  it("serve --upstream servers.json passes reads to the real server, and --explain-routes says so", async () => {
    const block = fence(README, { heading: "Hybrid mode: real servers behind toolsim", lang: "sh" });
    const [serveLine, explainLine] = linesOf(block);
    // the reader's servers.json: the reference filesystem server over a folder of theirs
    const work = join(dir.path, "hybrid");
    const folder = join(work, "files");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "notes.txt"), "real notes\n");
    writeFileSync(
      join(work, "servers.json"),
      JSON.stringify({ mcpServers: { fs: { command: FILESYSTEM_SERVER, args: [folder] } } }),
    );
    const explained = await bash(explainLine ?? "", work, env());
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stdout).toMatch(/upstream fs/);
    await serving(serveLine ?? "", work, async (client) => {
      const read = await client.callTool({
        name: "fs.read_text_file",
        arguments: { path: join(folder, "notes.txt") },
      });
      expect(textOf(read)).toContain("real notes");
      const written = await client.callTool({
        name: "fs.write_file",
        arguments: { path: join(folder, "plan.txt"), content: "a plan\n" },
      });
      expect(written.isError).toBeFalsy();
    });
    // the write was simulated: nothing real changed
    expect(existsSync(join(folder, "plan.txt"))).toBe(false);
    doc.ran(block);
  }, 90_000);

  it("bringing your own tools: import, infer, lint, dedup, audit, then serve them", async () => {
    const block = fence(README, { heading: "Bringing your own tools", lang: "sh" });
    const lines = linesOf(block);
    const work = join(dir.path, "own");
    mkdirSync(work);
    // the reader's api.yaml: the pet store of the tests
    copyFileSync(join(FIXTURES, "openapi-petstore", "petstore.yaml"), join(work, "api.yaml"));
    const serveLine = lines.at(-1) ?? "";
    expect(serveLine).toMatch(/^toolsim serve /);
    for (const line of lines.slice(0, -1)) {
      const ran = await bash(line, work, env());
      expect(ran.code, `${line}\n${ran.stderr}`).toBe(0);
      expect(ran.stdout + ran.stderr, line).not.toBe("");
    }
    await serving(serveLine, work, async (client) => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("listPets");
      const listed = await client.callTool({ name: "listPets", arguments: {} });
      expect(listed.isError, textOf(listed)).toBeFalsy();
    });
    doc.ran(block);
  }, 120_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
