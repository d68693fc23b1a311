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
    const gone = await read(source);
    expect(gone.result.isError).toBe(true);
    expect(gone.text).toContain("moved it to");
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

  it("creates a directory in simulation only, and a listing of its parent says what it does not show", async () => {
    const created = await call("fs.create_directory", { path: join(root, "archive") });
    expect(created.isError).toBeFalsy();
    expect(treeHashes(root)).toEqual(before);

    const listing = await call("fs.list_directory", { path: root });
    expect(routeOf(listing)).toBe("pass");
    const text = allText(listing);
    expect(text).toContain("[FILE] plan.txt"); // the real listing
    expect(text).toContain("[toolsim]");
    expect(text).toContain(join(root, "archive"));
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
