import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseUpstreamConfig } from "../src/hybrid/index.js";
import { allText, treeHashes } from "./fixtures/hybrid/helpers.js";
import { DocRun, type Fence, fence, fencesOf } from "./support/docs.js";
import {
  connectHttp,
  LIBRARY,
  type RunningServer,
  runCli,
  startHttpServer,
  tempDir,
} from "./support/index.js";

/**
 * docs/hybrid.md runs as written: its commands, its upstream file, its example of the state,
 * its --explain-routes table and its session, call by call. The doc's `/srv` is a temporary
 * folder here, and the placeholders that stand for things of the reader's own (their server
 * script, a remote server's URL and token, where output goes) are swapped for real ones; the
 * table below says which.
 */

const PAGE = "docs/hybrid.md";
const doc = new DocRun(import.meta.filename);
const COUNTING_SERVER = resolve(import.meta.dirname, "support", "counting-server.mjs");

interface Block {
  lang: string;
  text: string;
  /** The heading the block is under. */
  section: string;
  fence: Fence;
}

const blocks: Block[] = fencesOf(PAGE).map((f) => ({
  lang: f.lang,
  text: f.code,
  section: f.heading,
  fence: f,
}));
/** The text of a block, marked as run once the test using it has passed (see `ranIn`). */
const blockIn = (section: string, lang: string, nth = 0): string =>
  fence(PAGE, { heading: section, lang, nth }).code;
const ranIn = (section: string, lang: string, nth = 0) =>
  doc.ran(fence(PAGE, { heading: section, lang, nth }));

/** Splits a command line as a shell would (quotes, no expansion), without its trailing comment. */
function words(line: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | undefined;
  let started = false;
  for (const c of line.replace(/\s+#\s.*$/, "")) {
    if (quote) {
      if (c === quote) quote = undefined;
      else current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (/\s/.test(c)) {
      if (started || current) out.push(current);
      current = "";
      started = false;
    } else current += c;
  }
  if (started || current) out.push(current);
  return out;
}

describe("docs/hybrid.md", () => {
  const work = tempDir("toolsim-hybrid-docs-");
  const srv = join(realpathSync(work.path), "srv");
  const out = join(work.path, "out");
  const token = "docs-test-token";
  let remote: RunningServer;

  /** The reader's things, as the doc names them, and what stands for them here. */
  let placeholders: Array<[string, string]> = [];
  const swap = (text: string) => placeholders.reduce((t, [from, to]) => t.split(from).join(to), text);

  beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    // a remote server for the doc's HTTP upstream and URL: toolsim itself, behind a token
    remote = await startHttpServer([
      "--token",
      token,
      "--db",
      join(work.path, "remote.db"),
      "--toolsets",
      LIBRARY,
    ]);
    placeholders = [
      ["https://tickets.example/mcp", remote.url],
      ["http://127.0.0.1:8080/mcp", remote.url],
      ["Bearer …", `Bearer ${token}`],
      ["server.js", COUNTING_SERVER],
      ["--out toolsets/", `--out ${join(out, "toolsets")}`],
      ["--out fs.json", `--out ${join(out, "fs.json")}`],
      ["/srv", srv],
    ];
  }, 60_000);

  afterAll(async () => {
    await remote?.stop();
    work.cleanup();
  });

  /** The seed of the doc's session, run as written in bash. */
  const seed = () => {
    mkdirSync(srv, { recursive: true });
    execFileSync("bash", ["-c", swap(blockIn("A session, call by call", "sh"))]);
  };
  const sessionConfig = () => {
    const file = join(work.path, "servers.json");
    writeFileSync(file, swap(blockIn("A session, call by call", "json")));
    return file;
  };

  it("the upstream file example is accepted as it is", () => {
    const text = blockIn("The upstream file", "json");
    const parsed = parseUpstreamConfig(JSON.parse(text), "servers.json");
    expect(parsed).toMatchObject({ ok: true });
    if (!parsed.ok) return;
    expect(parsed.upstreams.map((s) => s.name)).toEqual(["fs", "tickets"]);
    ranIn("The upstream file", "json");
  });

  it("--explain-routes prints the table the doc shows, for the doc's upstream file", async () => {
    mkdirSync(join(srv, "project"), { recursive: true });
    const config = join(work.path, "upstream-example.json");
    writeFileSync(config, swap(blockIn("The upstream file", "json")));
    const explained = await runCli(["serve", "--upstream", config, "--explain-routes"]);
    expect(explained.code, explained.stderr).toBe(0);
    const table = blocks.find((b) => b.lang === "" && b.text.startsWith("upstream fs"));
    expect(table).toBeDefined();
    const printed = explained.stdout.split("\n").map((line) => line.replace(/\s+/g, " ").trim());
    for (const line of swap(table?.text ?? "")
      .trim()
      .split("\n"))
      expect(printed).toContain(line.replace(/\s+/g, " ").trim());
    if (table) doc.ran(table.fence);
  }, 60_000);

  it("every toolsim command in it runs", async () => {
    seed();
    const config = sessionConfig();
    const commands = blocks
      .filter((b) => b.lang === "sh")
      .flatMap((b) => b.text.split("\n"))
      .filter((line) => line.startsWith("toolsim "))
      .map((line) =>
        words(swap(line))
          .slice(1)
          .map((word) => (word === "servers.json" ? config : word)),
      );
    expect(commands.length).toBeGreaterThanOrEqual(7);
    for (const args of commands) {
      if (args[0] === "serve" && !args.includes("--explain-routes")) {
        const server = await startHttpServer([...args.slice(1), "--db", join(work.path, "serve.db")]);
        try {
          const client = await connectHttp(server.url);
          expect((await client.listTools()).tools.length, args.join(" ")).toBeGreaterThan(0);
          await client.close();
        } finally {
          await server.stop();
        }
      } else {
        const ran = await runCli(args, { TOOLSIM_DB: join(work.path, "cli.db") });
        expect(ran.code, `${args.join(" ")}\n${ran.stderr}`).toBe(0);
      }
    }
    expect(existsSync(join(out, "fs.json"))).toBe(true);
    // every sh block: its toolsim lines ran above, the session's seed in `seed`
    for (const b of blocks.filter((b) => b.lang === "sh")) doc.ran(b.fence);
  }, 180_000);

  describe("the example of the state and the session, call by call", () => {
    let server: RunningServer;
    let before: Record<string, string>;
    let memory: string;

    beforeAll(async () => {
      seed();
      before = treeHashes(srv);
      memory = readFileSync(join(srv, "memory.jsonl"), "utf8");
      server = await startHttpServer([
        "--upstream",
        sessionConfig(),
        "--no-catalog",
        "--toolsets",
        LIBRARY,
        "--db",
        join(work.path, "session.db"),
      ]);
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
    });

    const state = async (client: Client) => {
      const resource = await client.readResource({ uri: "toolsim://session/state" });
      const first = resource.contents[0];
      return (JSON.parse(first && "text" in first ? first.text : "{}") as { state: Record<string, unknown> })
        .state;
    };

    it("each call of the session gets the answer the doc shows, and nothing real changes", async () => {
      const client = await connectHttp(server.url);
      try {
        const lines = swap(blockIn("A session, call by call", "text")).trim().split("\n");
        expect(lines.length).toBeGreaterThanOrEqual(16);
        for (let i = 0; i < lines.length; i += 2) {
          const call = /^→ (\S+) (.*)$/.exec(lines[i] ?? "");
          const answer = /^← (error )?(".*")$/.exec(lines[i + 1] ?? "");
          expect(call && answer, `${lines[i]}\n${lines[i + 1]}`).toBeTruthy();
          if (!call || !answer) continue;
          const result = await client.callTool({
            name: call[1] as string,
            arguments: JSON.parse(call[2] as string) as Record<string, unknown>,
          });
          expect({ call: lines[i], error: result.isError === true, text: allText(result) }).toEqual({
            call: lines[i],
            error: answer[1] !== undefined,
            text: JSON.parse(answer[2] as string),
          });
        }
        expect(treeHashes(srv)).toEqual(before);
        expect(readFileSync(join(srv, "memory.jsonl"), "utf8")).toBe(memory);
        ranIn("A session, call by call", "text");
        ranIn("A session, call by call", "json");
      } finally {
        await client.close();
      }
    });

    it("the overlay example is the state the session it describes leaves", async () => {
      // the files the example's session reads and moves
      writeFileSync(join(srv, "old.txt"), "old\n");
      writeFileSync(join(srv, "readme.md"), "# readme\n");
      const client = await connectHttp(server.url);
      try {
        const call = (name: string, args: Record<string, unknown>) =>
          client.callTool({ name, arguments: args });
        await call("fs.write_file", { path: join(srv, "plan.txt"), content: "a new plan\n" });
        await call("fs.move_file", { source: join(srv, "old.txt"), destination: join(srv, "new.txt") });
        await call("fs.create_directory", { path: join(srv, "archive") });
        await call("fs.read_text_file", { path: join(srv, "readme.md") });
        await call("memory.create_entities", {
          entities: [{ name: "Bob", entityType: "person", observations: [] }],
        });
        const { runtime: _clock, ...overlay } = await state(client);
        const shown = JSON.stringify(overlay).replace(/"at":"[^"]+"/g, '"at":"…"');
        expect(JSON.parse(shown)).toEqual(JSON.parse(swap(blockIn("The overlay", "json"))));
        ranIn("The overlay", "json");
      } finally {
        await client.close();
      }
    });
  });

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
