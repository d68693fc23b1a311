import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerOf,
  type Call,
  type Comparison,
  compareAnswers,
  connectReal,
  type Normaliser,
  tally,
} from "./fixtures/hybrid/agreement.js";
import {
  FILESYSTEM_SERVER,
  MEMORY_SERVER,
  treeHashes,
  writeUpstreamConfig,
} from "./fixtures/hybrid/helpers.js";
import { connectHttp, LIBRARY, type RunningServer, startHttpServer, tempDir } from "./support/index.js";

/**
 * The same sequence of calls twice: once on the real server, which writes for real (in its
 * own temp folder or memory file), and once through toolsim in hybrid mode in front of the
 * same server over an identical copy, where every write is simulated. Every read must answer
 * what the real server answers after the real writes, in its own words and shape.
 *
 * Normalised, because two real runs differ there too: each run's own root folder (paths),
 * timestamps (`created: …`), and the order of entries that the real server takes from the
 * file system's directory order (list_directory, search_files, directory_tree, and entries
 * of equal size under sortBy size), which two real folders do not share either.
 */

interface Side {
  client: Client;
  /** The name a tool has on this side. */
  name: (tool: string) => string;
  /** The arguments on this side (its own root folder in place of the placeholder). */
  args: (args: Record<string, unknown>) => Record<string, unknown>;
  normalise: Normaliser;
}

async function runBoth(calls: readonly Call[], real: Side, hybrid: Side): Promise<Comparison[]> {
  const comparisons: Comparison[] = [];
  for (const call of calls) {
    const r = await real.client.callTool({ name: real.name(call.tool), arguments: real.args(call.args) });
    const s = await hybrid.client.callTool({
      name: hybrid.name(call.tool),
      arguments: hybrid.args(call.args),
    });
    comparisons.push(
      compareAnswers(call, answerOf(r), answerOf(s), { real: real.normalise, simulated: hybrid.normalise }),
    );
  }
  return comparisons;
}

const FS_ORDERED = new Set(["list_directory", "search_files"]);

/** Each run's root as <root>, times as <time>, and file-system order as sorted order. */
function fsNormaliser(root: string): Normaliser {
  return (call, text) => {
    let out = text.split(root).join("<root>");
    out = out.replace(/\w{3} \w{3} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4} \([^)]*\)/g, "<time>");
    if (FS_ORDERED.has(call.tool)) out = sortLines(out);
    if (call.tool === "list_directory_with_sizes" && call.args.sortBy === "size") out = sortLines(out);
    if (call.tool === "directory_tree") out = sortTree(out);
    return out;
  };
}

function sortLines(text: string): string {
  // inside a JSON string the lines are joined by \n escapes; outside, by newlines
  if (text.startsWith('"') || text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && "content" in parsed) {
        const content = (parsed as { content: unknown }).content;
        if (typeof content === "string") return JSON.stringify({ ...parsed, content: sortLines(content) });
      }
    } catch {
      return text;
    }
  }
  const blank = text.indexOf("\n\n");
  const entries = blank < 0 ? text : text.slice(0, blank);
  const rest = blank < 0 ? "" : text.slice(blank);
  return entries.split("\n").sort().join("\n") + rest;
}

function sortTree(text: string): string {
  interface Node {
    name: string;
    children?: Node[];
  }
  const sort = (nodes: Node[]): Node[] =>
    [...nodes]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((n) => (n.children ? { ...n, children: sort(n.children) } : n));
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return JSON.stringify(sort(parsed as Node[]), null, 2);
    if (typeof parsed === "object" && parsed !== null && "content" in parsed) {
      const content = (parsed as { content: unknown }).content;
      if (typeof content === "string") return JSON.stringify({ ...parsed, content: sortTree(content) });
    }
  } catch {
    return text;
  }
  return text;
}

function seedFiles(root: string): void {
  mkdirSync(join(root, "notes", "old"), { recursive: true });
  writeFileSync(join(root, "plan.txt"), "step one\nstep two\nstep three\n");
  writeFileSync(join(root, "untouched.txt"), "leave me be\n");
  writeFileSync(join(root, "notes", "todo.md"), "- buy milk\n- call Ana\n");
  writeFileSync(join(root, "notes", "old", "v1.md"), "# v1\n");
  writeFileSync(join(root, "notes", "old", "v2.md"), "# v2\nmore\n");
}

describe("hybrid reads agree with the real filesystem server after the same writes", () => {
  const work = tempDir("toolsim-agree-fs-");
  const realRoot = join(realpathSync(work.path), "real");
  const hybridRoot = join(realpathSync(work.path), "hybrid");
  let server: RunningServer;
  let real: Client;
  let hybrid: Client;
  let before: Record<string, string>;
  const comparisons: Comparison[] = [];

  beforeAll(async () => {
    seedFiles(realRoot);
    seedFiles(hybridRoot);
    before = treeHashes(hybridRoot);
    // both sides name the same paths: each run's own root is swapped in per call
    real = await connectReal(FILESYSTEM_SERVER, [realRoot]);
    const config = writeUpstreamConfig(work.path, { fs: { command: FILESYSTEM_SERVER, args: [hybridRoot] } });
    server = await startHttpServer([
      "--upstream",
      config,
      "--no-catalog",
      "--toolsets",
      LIBRARY,
      "--no-control-tools",
      "--db",
      join(work.path, "t.db"),
    ]);
    hybrid = await connectHttp(server.url);
  }, 60_000);

  afterAll(async () => {
    await real?.close();
    await hybrid?.close();
    await server?.stop();
    work.cleanup();
  });

  const ROOT = "<ROOT>";
  const at = (...parts: string[]) => [ROOT, ...parts].join("/");
  const write = (tool: string, args: Record<string, unknown>): Call => ({ tool, args, kind: "write" });
  const read = (tool: string, args: Record<string, unknown>): Call => ({ tool, args, kind: "read" });

  /** Every read tool of the server, on the files and folders given. */
  const reads = (files: string[], folders: string[]): Call[] => [
    ...files.flatMap((path) => [
      read("read_text_file", { path }),
      read("read_text_file", { path, head: 1 }),
      read("read_text_file", { path, tail: 2 }),
      read("read_file", { path }),
      read("read_media_file", { path }),
      read("get_file_info", { path }),
    ]),
    ...(files.length > 0 ? [read("read_multiple_files", { paths: [...files, at("notes", "todo.md")] })] : []),
    ...folders.flatMap((path) => [
      read("list_directory", { path }),
      read("list_directory_with_sizes", { path }),
      read("list_directory_with_sizes", { path, sortBy: "size" }),
      read("directory_tree", { path }),
      read("directory_tree", { path, excludePatterns: ["*.md"] }),
      read("search_files", { path, pattern: "**/*.md" }),
      read("search_files", { path, pattern: "*.txt" }),
      read("search_files", { path, pattern: "**/old/**", excludePatterns: ["**/v1.md"] }),
      read("get_file_info", { path }),
    ]),
    read("list_allowed_directories", {}),
  ];

  const sequence: Call[] = [
    ...reads([at("plan.txt")], [ROOT]),
    write("write_file", { path: at("plan.txt"), content: "a new plan\nwith two lines\n" }),
    ...reads([at("plan.txt")], [ROOT]),
    write("write_file", { path: at("notes", "new.md"), content: "# fresh\n" }),
    ...reads([at("notes", "new.md")], [at("notes")]),
    write("edit_file", {
      path: at("notes", "todo.md"),
      edits: [{ oldText: "buy milk", newText: "buy oat milk" }],
    }),
    ...reads([at("notes", "todo.md")], [at("notes")]),
    write("create_directory", { path: at("archive", "2024") }),
    ...reads([], [at("archive"), at("archive", "2024")]),
    write("write_file", { path: at("archive", "2024", "report.txt"), content: "report\n" }),
    write("move_file", { source: at("untouched.txt"), destination: at("kept.txt") }),
    ...reads([at("untouched.txt"), at("kept.txt")], [ROOT]),
    write("move_file", { source: at("notes", "old"), destination: at("archive", "old") }),
    ...reads([at("archive", "old", "v2.md"), at("notes", "old", "v1.md")], [at("notes"), at("archive")]),
    write("move_file", { source: at("plan.txt"), destination: at("archive", "plan.txt") }),
    write("write_file", { path: at("nowhere", "x.txt"), content: "x" }),
    write("move_file", { source: at("kept.txt"), destination: at("notes", "todo.md") }),
    write("edit_file", { path: at("notes", "new.md"), edits: [{ oldText: "fresh", newText: "fresher" }] }),
    write("create_directory", { path: at("notes") }),
    ...reads(
      [
        at("plan.txt"),
        at("archive", "plan.txt"),
        at("archive", "2024", "report.txt"),
        at("notes", "new.md"),
        at("nowhere", "x.txt"),
      ],
      [ROOT, at("archive"), at("archive", "2024"), at("archive", "old"), at("notes"), at("notes", "old")],
    ),
  ];

  const rooted = (root: string) => (args: Record<string, unknown>) =>
    JSON.parse(JSON.stringify(args).split(ROOT).join(root)) as Record<string, unknown>;

  it("runs the sequence on both, and the simulated side never touches its folder", async () => {
    comparisons.push(
      ...(await runBoth(
        sequence,
        { client: real, name: (tool) => tool, args: rooted(realRoot), normalise: fsNormaliser(realRoot) },
        {
          client: hybrid,
          name: (tool) => `fs.${tool}`,
          args: rooted(hybridRoot),
          normalise: fsNormaliser(hybridRoot),
        },
      )),
    );
    expect(comparisons).toHaveLength(sequence.length);
    expect(treeHashes(hybridRoot)).toEqual(before);
  }, 120_000);

  it("every read answers what the real server answers", () => {
    const figures = tally(comparisons, "read");
    expect(
      figures.disagreements,
      `reads agreeing: ${figures.agreeing}/${figures.total}; writes agreeing: ${tally(comparisons, "write").agreeing}/${tally(comparisons, "write").total}`,
    ).toEqual([]);
  });
});

describe("hybrid reads agree with the real memory server after the same writes", () => {
  const work = tempDir("toolsim-agree-memory-");
  const seed = [
    { type: "entity", name: "Alice", entityType: "person", observations: ["likes tea"] },
    { type: "entity", name: "Acme", entityType: "company", observations: ["makes anvils", "founded 1950"] },
    { type: "entity", name: "Carol", entityType: "person", observations: [] },
    { type: "relation", from: "Alice", to: "Acme", relationType: "works_at" },
    { type: "relation", from: "Carol", to: "Alice", relationType: "knows" },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
  let server: RunningServer;
  let real: Client;
  let hybrid: Client;
  const comparisons: Comparison[] = [];

  beforeAll(async () => {
    const realFile = join(work.path, "real.jsonl");
    const hybridFile = join(work.path, "hybrid.jsonl");
    writeFileSync(realFile, seed);
    writeFileSync(hybridFile, seed);
    real = await connectReal(MEMORY_SERVER, [], { MEMORY_FILE_PATH: realFile });
    const config = writeUpstreamConfig(work.path, {
      memory: { command: MEMORY_SERVER, env: { MEMORY_FILE_PATH: hybridFile } },
    });
    server = await startHttpServer([
      "--upstream",
      config,
      "--no-catalog",
      "--toolsets",
      LIBRARY,
      "--no-control-tools",
      "--db",
      join(work.path, "t.db"),
    ]);
    hybrid = await connectHttp(server.url);
  }, 60_000);

  afterAll(async () => {
    await real?.close();
    await hybrid?.close();
    await server?.stop();
    work.cleanup();
  });

  const write = (tool: string, args: Record<string, unknown>): Call => ({ tool, args, kind: "write" });
  const read = (tool: string, args: Record<string, unknown>): Call => ({ tool, args, kind: "read" });
  const reads = (): Call[] => [
    read("read_graph", {}),
    read("search_nodes", { query: "chess" }),
    read("search_nodes", { query: "PERSON" }),
    read("search_nodes", { query: "acme" }),
    read("search_nodes", { query: "tea" }),
    read("open_nodes", { names: ["Alice"] }),
    read("open_nodes", { names: ["Bob", "Acme"] }),
    read("open_nodes", { names: ["Nobody"] }),
  ];

  const sequence: Call[] = [
    ...reads(),
    write("create_entities", {
      entities: [
        { name: "Bob", entityType: "person", observations: ["plays chess"] },
        { name: "Alice", entityType: "robot", observations: ["a duplicate"] },
      ],
    }),
    ...reads(),
    write("create_relations", {
      relations: [
        { from: "Bob", to: "Alice", relationType: "knows" },
        { from: "Alice", to: "Acme", relationType: "works_at" },
      ],
    }),
    ...reads(),
    write("add_observations", {
      observations: [{ entityName: "Alice", contents: ["likes chess", "likes tea"] }],
    }),
    ...reads(),
    write("add_observations", { observations: [{ entityName: "Nobody", contents: ["x"] }] }),
    write("add_observations", { observations: [{ entityName: "Bob", contents: ["reads"] }] }),
    ...reads(),
    write("delete_observations", { deletions: [{ entityName: "Acme", observations: ["makes anvils"] }] }),
    ...reads(),
    write("delete_relations", { relations: [{ from: "Bob", to: "Alice", relationType: "knows" }] }),
    ...reads(),
    write("delete_entities", { entityNames: ["Acme"] }),
    ...reads(),
    write("create_entities", { entities: [{ name: "Acme", entityType: "company", observations: [] }] }),
    ...reads(),
  ];

  const same: Normaliser = (_call, text) => text;
  const asIs = (args: Record<string, unknown>) => args;

  it("runs the sequence on both", async () => {
    comparisons.push(
      ...(await runBoth(
        sequence,
        { client: real, name: (tool) => tool, args: asIs, normalise: same },
        { client: hybrid, name: (tool) => `memory.${tool}`, args: asIs, normalise: same },
      )),
    );
    expect(comparisons).toHaveLength(sequence.length);
  }, 120_000);

  it("writes that answer records answer the records the real server made or changed, never invented ones", () => {
    const answeringRecords = comparisons.filter(
      (c) => c.call.kind === "write" && !c.real.isError && /^create|^add/.test(c.call.tool),
    );
    expect(answeringRecords.length).toBeGreaterThanOrEqual(5);
    for (const c of answeringRecords) expect(c.simulated.structured, c.call.tool).toEqual(c.real.structured);
    const nobody = comparisons.find(
      (c) => JSON.stringify(c.call.args).includes("Nobody") && c.call.kind === "write",
    );
    expect(nobody?.real.isError).toBe(true);
    expect(nobody?.simulated.isError).toBe(true);
  });

  it("every read answers what the real server answers", () => {
    const figures = tally(comparisons, "read");
    expect(
      figures.disagreements,
      `reads agreeing: ${figures.agreeing}/${figures.total}; writes agreeing: ${tally(comparisons, "write").agreeing}/${tally(comparisons, "write").total}`,
    ).toEqual([]);
  });
});
