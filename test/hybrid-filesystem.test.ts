import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allText,
  FILESYSTEM_SERVER,
  routeOf,
  treeHashes,
  writeUpstreamConfig,
} from "./fixtures/hybrid/helpers.js";
import {
  callMeta,
  connectHttp,
  LIBRARY,
  type RunningServer,
  startHttpServer,
  tempDir,
} from "./support/index.js";

/**
 * The real filesystem server behind toolsim over a temp folder: reads are real, writes are
 * simulated, and the folder is byte-identical afterwards.
 */
describe("hybrid mode over the real filesystem server", () => {
  const work = tempDir("toolsim-hybrid-fs-");
  const root = join(realpathSync(work.path), "files");
  let server: RunningServer;
  let client: Client;
  let before: Record<string, string>;

  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  const read = async (path: string) => {
    const result = await call("fs.read_text_file", { path });
    return { result, text: allText(result) };
  };

  beforeAll(async () => {
    mkdirSync(join(root, "notes"), { recursive: true });
    writeFileSync(join(root, "plan.txt"), "step one\nstep two\nstep three\n");
    writeFileSync(join(root, "notes", "todo.md"), "- buy milk\n- call Ana\n");
    writeFileSync(join(root, "untouched.txt"), "leave me be\n");
    before = treeHashes(root);
    const config = writeUpstreamConfig(work.path, { fs: { command: FILESYSTEM_SERVER, args: [root] } });
    server = await startHttpServer([
      "--upstream",
      config,
      "--toolsets",
      LIBRARY,
      "--db",
      join(work.path, "toolsim.db"),
    ]);
    client = await connectHttp(server.url);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    work.cleanup();
  });

  it("lists the upstream tools, prefixed, next to the catalog's, with their own schemas and annotations", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("fs.read_text_file");
    expect(names).toContain("fs.write_file");
    expect(names.some((n) => !n.startsWith("fs."))).toBe(true);
    const write = tools.find((t) => t.name === "fs.write_file");
    expect(write?.annotations?.readOnlyHint).toBe(false);
    expect(Object.keys(write?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["path", "content"]),
    );
    expect(write?.outputSchema?.properties).toHaveProperty("content");
  });

  it("passes a read through to the real server", async () => {
    const { result, text } = await read(join(root, "plan.txt"));
    expect(result.isError).toBeFalsy();
    expect(text).toBe("step one\nstep two\nstep three\n");
    expect(routeOf(result)).toBe("pass");
    expect(callMeta(result).engine).toBe("upstream:fs");
  });

  it("simulates a write: the real file keeps its bytes, a later read returns the simulated content", async () => {
    const path = join(root, "plan.txt");
    const written = await call("fs.write_file", { path, content: "a new plan\n" });
    expect(written.isError).toBeFalsy();
    expect(routeOf(written)).toBe("simulate");
    expect(treeHashes(root)).toEqual(before);

    const after = await read(path);
    expect(after.result.isError).toBeFalsy();
    expect(after.text).toBe("a new plan\n");
    expect(routeOf(after.result)).toBe("overlay");

    const head = await call("fs.read_text_file", { path, head: 1 });
    expect(allText(head)).toBe("a new plan");
  });

  it("a new file written in simulation reads back; the real folder does not have it", async () => {
    const path = join(root, "notes", "new.md");
    await call("fs.write_file", { path, content: "# fresh\n" });
    expect((await read(path)).text).toBe("# fresh\n");
    expect(treeHashes(root)).toEqual(before);
  });

  it("reading an untouched file returns the real content", async () => {
    const { result, text } = await read(join(root, "untouched.txt"));
    expect(text).toBe("leave me be\n");
    expect(routeOf(result)).toBe("pass");
  });

  it("edits a real file in simulation, starting from its real content", async () => {
    const path = join(root, "notes", "todo.md");
    const edited = await call("fs.edit_file", {
      path,
      edits: [{ oldText: "buy milk", newText: "buy oat milk" }],
    });
    expect(edited.isError).toBeFalsy();
    expect(allText(edited)).toContain("+- buy oat milk");
    expect((await read(path)).text).toBe("- buy oat milk\n- call Ana\n");
    expect(treeHashes(root)).toEqual(before);

    const missing = await call("fs.edit_file", {
      path,
      edits: [{ oldText: "not in the file", newText: "x" }],
    });
    expect(missing.isError).toBe(true);
    expect(allText(missing)).toContain("not found");
    expect((await read(path)).text).toBe("- buy oat milk\n- call Ana\n");
  });

  it("a dry-run edit shows the change and changes nothing, not even in simulation", async () => {
    const path = join(root, "notes", "todo.md");
    const dry = await call("fs.edit_file", {
      path,
      edits: [{ oldText: "call Ana", newText: "call Bo" }],
      dryRun: true,
    });
    expect(allText(dry)).toContain("+- call Bo");
    expect((await read(path)).text).toBe("- buy oat milk\n- call Ana\n");
  });

  it("moves a file in simulation: the source is gone, the destination has the content", async () => {
    const source = join(root, "plan.txt");
    const destination = join(root, "notes", "plan-moved.txt");
    const moved = await call("fs.move_file", { source, destination });
    expect(moved.isError).toBeFalsy();
    // the real server's own words for a file that is not there
    const gone = await read(source);
    expect(gone.result.isError).toBe(true);
    expect(gone.text).toBe(`ENOENT: no such file or directory, open '${source}'`);
    expect((await read(destination)).text).toBe("a new plan\n");
    expect(treeHashes(root)).toEqual(before);
  });

  it("moving a file the session never wrote reads the real source for the destination", async () => {
    const source = join(root, "untouched.txt");
    const destination = join(root, "kept.txt");
    await call("fs.move_file", { source, destination });
    const moved = await read(destination);
    expect(moved.result.isError).toBeFalsy();
    expect(moved.text).toBe("leave me be\n");
    expect((await read(source)).result.isError).toBe(true);
  });

  it("creates a directory in simulation only; listings show the session's files, moves and folders", async () => {
    const created = await call("fs.create_directory", { path: join(root, "archive") });
    expect(created.isError).toBeFalsy();
    expect(treeHashes(root)).toEqual(before);

    // plan.txt moved into notes/, untouched.txt renamed to kept.txt, archive/ made: none of it real
    const listing = await call("fs.list_directory", { path: root });
    expect(routeOf(listing)).toBe("overlay");
    const lines = allText(listing).split("\n").sort();
    expect(lines).toEqual(["[DIR] archive", "[DIR] notes", "[FILE] kept.txt"]);
    expect(allText(listing)).not.toContain("[toolsim]");
    expect(listing.structuredContent).toEqual({ content: allText(listing) });

    const notes = await call("fs.list_directory", { path: join(root, "notes") });
    expect(allText(notes).split("\n").sort()).toEqual([
      "[FILE] new.md",
      "[FILE] plan-moved.txt",
      "[FILE] todo.md",
    ]);

    const empty = await call("fs.list_directory", { path: join(root, "archive") });
    expect(empty.isError).toBeFalsy();
    expect(routeOf(empty)).toBe("overlay");
    expect(allText(empty)).toBe("");
  });

  it("keeps the overlay and the real reads in the session state under upstream:fs", async () => {
    const resource = await client.readResource({ uri: "toolsim://session/state" });
    const first = resource.contents[0];
    const body = JSON.parse(first && "text" in first ? first.text : "{}") as {
      state: Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    };
    const namespace = body.state["upstream:fs"];
    expect(namespace?.paths?.[join(root, "notes", "new.md")]?.content).toBe("# fresh\n");
    expect(namespace?.paths?.[join(root, "plan.txt")]?._toolsim).toMatchObject({ deleted: true });
    expect(namespace?.read_text_file?.[join(root, "untouched.txt")]).toMatchObject({
      content: "leave me be\n",
      _toolsim: { origin: "real" },
    });
  });

  it("leaves the real folder byte-identical after everything", () => {
    expect(treeHashes(root)).toEqual(before);
  });
});

/**
 * Each test in its own session over the same real folder: every kind of listing the
 * filesystem server has agrees with what that session did, and with nothing another did.
 */
describe("folder listings in hybrid mode agree with the session's simulated changes", () => {
  const work = tempDir("toolsim-hybrid-ls-");
  const root = join(realpathSync(work.path), "files");
  let server: RunningServer;
  let before: Record<string, string>;

  beforeAll(async () => {
    mkdirSync(join(root, "docs", "old"), { recursive: true });
    writeFileSync(join(root, "a.txt"), "alpha\n");
    writeFileSync(join(root, "b.txt"), "bravo\n");
    writeFileSync(join(root, "docs", "guide.md"), "# guide\n");
    writeFileSync(join(root, "docs", "old", "v1.md"), "# v1\n");
    before = treeHashes(root);
    const config = writeUpstreamConfig(work.path, { fs: { command: FILESYSTEM_SERVER, args: [root] } });
    server = await startHttpServer([
      "--upstream",
      config,
      "--no-catalog",
      "--toolsets",
      LIBRARY,
      "--db",
      join(work.path, "t.db"),
    ]);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    work.cleanup();
  });

  /** A fresh session that writes c.txt, makes drafts/ with a file, moves a.txt into docs/ and docs/old/ to archive/. */
  const changedSession = async () => {
    const client = await connectHttp(server.url);
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    await call("fs.write_file", { path: join(root, "c.txt"), content: "charlie\n" });
    await call("fs.create_directory", { path: join(root, "drafts") });
    await call("fs.write_file", { path: join(root, "drafts", "d.md"), content: "# draft\n" });
    await call("fs.move_file", { source: join(root, "a.txt"), destination: join(root, "docs", "a.txt") });
    await call("fs.move_file", { source: join(root, "docs", "old"), destination: join(root, "archive") });
    return { client, call };
  };

  it("list_directory: created entries are added with the listing's own tags, moved-away ones dropped", async () => {
    const { client, call } = await changedSession();
    try {
      const top = await call("fs.list_directory", { path: root });
      expect(allText(top).split("\n").sort()).toEqual([
        "[DIR] archive",
        "[DIR] docs",
        "[DIR] drafts",
        "[FILE] b.txt",
        "[FILE] c.txt",
      ]);
      const docs = await call("fs.list_directory", { path: join(root, "docs") });
      expect(allText(docs).split("\n").sort()).toEqual(["[FILE] a.txt", "[FILE] guide.md"]);
      const drafts = await call("fs.list_directory", { path: join(root, "drafts") });
      expect(allText(drafts)).toBe("[FILE] d.md");
      expect(treeHashes(root)).toEqual(before);
    } finally {
      await client.close();
    }
  });

  it("directory_tree: the JSON tree has the session's entries, and a moved folder keeps its children", async () => {
    const { client, call } = await changedSession();
    try {
      const tree = await call("fs.directory_tree", { path: root });
      expect(tree.isError).toBeFalsy();
      interface Node {
        name: string;
        type: string;
        children?: Node[];
      }
      const shape = (nodes: Node[]): unknown =>
        Object.fromEntries(
          [...nodes]
            .sort((x, y) => x.name.localeCompare(y.name))
            .map((n) => [n.name, n.children ? shape(n.children) : n.type]),
        );
      expect(shape(JSON.parse(allText(tree)) as Node[])).toEqual({
        archive: { "v1.md": "file" },
        "b.txt": "file",
        "c.txt": "file",
        docs: { "a.txt": "file", "guide.md": "file" },
        drafts: { "d.md": "file" },
      });
      expect(allText(tree)).toMatch(/^\[\n {2}\{/);
    } finally {
      await client.close();
    }
  });

  it("list_directory_with_sizes and search_files show what was made and moved, in the server's own format", async () => {
    const { client, call } = await changedSession();
    try {
      const sized = allText(await call("fs.list_directory_with_sizes", { path: root }));
      expect(sized).not.toMatch(/\[FILE\] a\.txt/);
      expect(sized).toMatch(/^\[FILE\] c\.txt +8 B$/m);
      expect(sized).toMatch(/^\[DIR\] drafts +$/m);
      expect(sized).toMatch(/^Total: 2 files, 3 directories$/m);

      const found = await call("fs.search_files", { path: root, pattern: "**/*.md" });
      const text = allText(found).split("\n").sort();
      expect(text).toEqual([
        join(root, "archive", "v1.md"),
        join(root, "docs", "guide.md"),
        join(root, "drafts", "d.md"),
      ]);
    } finally {
      await client.close();
    }
  });

  it("another session sees the real folder as it is", async () => {
    const { client: first } = await changedSession();
    const other = await connectHttp(server.url);
    try {
      const listing = await other.callTool({ name: "fs.list_directory", arguments: { path: root } });
      expect(allText(listing).split("\n").sort()).toEqual(["[DIR] docs", "[FILE] a.txt", "[FILE] b.txt"]);
      expect(treeHashes(root)).toEqual(before);
    } finally {
      await first.close();
      await other.close();
    }
  });
});
