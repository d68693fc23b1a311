import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadToolsets } from "../src/catalog/index.js";
import { decideRoute } from "../src/hybrid/index.js";
import {
  allText,
  FILESYSTEM_SERVER,
  FLAKY_SERVER,
  routeOf,
  treeHashes,
  writeUpstreamConfig,
} from "./fixtures/hybrid/helpers.js";
import { callMeta, connectHttp, LIBRARY, runCli, startHttpServer, tempDir } from "./support/index.js";

const work = tempDir("toolsim-hybrid-routes-");
afterAll(() => work.cleanup());

const noLists = { pass: [], simulate: [] };

describe("route policy", () => {
  it("explicit lists come first, simulate before pass, and match either name", () => {
    const tool = { original: "read_file", exposed: "fs.read_file", annotations: { readOnlyHint: true } };
    expect(decideRoute(tool, { pass: [], simulate: ["fs.read_*"] }, "hybrid")).toMatchObject({
      route: "simulate",
      rule: "config",
    });
    expect(decideRoute(tool, { pass: ["read_?ile"], simulate: ["read_*"] }, "hybrid").route).toBe("simulate");
    const write = { original: "write_file", exposed: "fs.write_file", annotations: { readOnlyHint: false } };
    expect(decideRoute(write, { pass: ["write_file"], simulate: [] }, "hybrid")).toMatchObject({
      route: "pass",
      rule: "config",
    });
  });

  it("annotations next: readOnlyHint true passes, a declared write is simulated", () => {
    const listed = { original: "list_things", exposed: "x.list_things" };
    expect(decideRoute({ ...listed, annotations: { readOnlyHint: true } }, noLists, "hybrid").rule).toBe(
      "annotations",
    );
    expect(decideRoute({ ...listed, annotations: { readOnlyHint: false } }, noLists, "hybrid")).toMatchObject(
      {
        route: "simulate",
        rule: "annotations",
      },
    );
  });

  it("then read verbs in the name, unless the name also changes something; else simulate", () => {
    const route = (original: string) =>
      decideRoute({ original, exposed: `x.${original}` }, noLists, "hybrid");
    expect(route("get_user")).toMatchObject({ route: "pass", rule: "name" });
    expect(route("searchIssues")).toMatchObject({ route: "pass", rule: "name" });
    expect(route("get_next_page")).toMatchObject({ route: "pass", rule: "name" });
    expect(route("get_or_create_user")).toMatchObject({ route: "simulate", rule: "default" });
    expect(route("frobnicate")).toMatchObject({ route: "simulate", rule: "default" });
    expect(route("send_email").reason).toContain('"send"');
  });

  it("a read verb combined with a change is simulated: increment, mark, next, lock, claim, …_and_…", () => {
    const route = (original: string) =>
      decideRoute({ original, exposed: `x.${original}` }, noLists, "hybrid");
    for (const name of [
      "get_and_increment_counter",
      "read_and_mark_seen",
      "fetch_next_job_and_lock",
      "find_and_claim_task",
      "getAndIncrementCounter",
      "fetch_next_message",
      "get_user_then_archive",
      "list_and_tag_items",
    ]) {
      expect(route(name), name).toMatchObject({ route: "simulate", rule: "default" });
    }
    expect(route("fetch_next_job_and_lock").reason).toContain('"lock"');
    expect(route("fetch_next_message").reason).toContain('"next"');
    expect(route("find_and_claim_task").reason).toContain('"claim"');
    expect(route("list_and_tag_items").reason).toContain('"and_tag_items"');
    expect(route("get_and_list_users")).toMatchObject({ route: "pass", rule: "name" });
  });

  it("a name that says nothing, or a tool that runs what it is given, is simulated", () => {
    const route = (original: string, parameters: string[] = []) =>
      decideRoute({ original, exposed: `x.${original}`, parameters }, noLists, "hybrid");
    for (const name of ["query", "run", "execute", "run_query", "execute_sql", "sql_query"]) {
      expect(route(name), name).toMatchObject({ route: "simulate", rule: "default" });
    }
    expect(route("query").reason).toContain("says nothing");
    expect(route("query_database", ["sql"])).toMatchObject({ route: "simulate", rule: "default" });
    expect(route("query_database", ["sql"]).reason).toContain('"sql" argument');
    expect(route("search_logs", ["query", "limit"])).toMatchObject({ route: "pass", rule: "name" });
    expect(route("query_users", ["email"])).toMatchObject({ route: "pass", rule: "name" });
  });

  it("annotations or the config can still pass a combined or vague name", () => {
    const counter = { original: "get_and_increment_counter", exposed: "x.get_and_increment_counter" };
    expect(decideRoute({ ...counter, annotations: { readOnlyHint: true } }, noLists, "hybrid")).toMatchObject(
      {
        route: "pass",
        rule: "annotations",
      },
    );
    expect(
      decideRoute({ original: "query", exposed: "x.query" }, { pass: ["query"], simulate: [] }, "hybrid"),
    ).toMatchObject({ route: "pass", rule: "config" });
  });

  it("a destructive-looking name is simulated even when annotated read-only; only the config makes it real", () => {
    const lying = { readOnlyHint: true, destructiveHint: false };
    for (const original of [
      "delete_user",
      "purge_cache",
      "users_delete",
      "fetch_and_delete_message",
      "dropTable",
    ]) {
      expect(
        decideRoute({ original, exposed: `x.${original}`, annotations: lying }, noLists, "hybrid"),
        original,
      ).toMatchObject({ route: "simulate", rule: "name" });
    }
    const wipe = { original: "wipe_disk", exposed: "x.wipe_disk", annotations: lying };
    expect(decideRoute(wipe, noLists, "hybrid").reason).toContain('the name says it destroys ("wipe")');
    expect(decideRoute(wipe, { pass: ["wipe_disk"], simulate: [] }, "hybrid")).toMatchObject({
      route: "pass",
      rule: "config",
    });
    // unannotated, it is simulated by the same rule
    expect(
      decideRoute({ original: "remove_member", exposed: "x.remove_member" }, noLists, "hybrid").rule,
    ).toBe("name");
    // a destructive word qualifying a noun is not the tool's action
    expect(
      decideRoute(
        { original: "get_cancel_reasons", exposed: "x.get_cancel_reasons", annotations: lying },
        noLists,
        "hybrid",
      ),
    ).toMatchObject({ route: "pass", rule: "annotations" });
  });

  it("contradicting annotations (read-only and destructive) are simulated", () => {
    const tool = {
      original: "list_things",
      exposed: "x.list_things",
      annotations: { readOnlyHint: true, destructiveHint: true },
    };
    expect(decideRoute(tool, noLists, "hybrid")).toMatchObject({ route: "simulate", rule: "annotations" });
  });

  it("the modes override everything", () => {
    const tool = { original: "get_user", exposed: "x.get_user", annotations: { readOnlyHint: true } };
    expect(decideRoute(tool, noLists, "all-simulated").route).toBe("simulate");
    expect(decideRoute({ ...tool, original: "delete_user" }, noLists, "all-real").route).toBe("pass");
  });
});

describe("serve --explain-routes", () => {
  const config = writeUpstreamConfig(work.path, {
    fs: { command: FILESYSTEM_SERVER, args: [work.path], routes: { simulate: ["read_media_file"] } },
    fx: { command: process.execPath, args: [FLAKY_SERVER] },
  });

  it("prints every upstream tool with its route and the reason, and exits 0", async () => {
    const run = await runCli(["serve", "--toolsets", LIBRARY, "--upstream", config, "--explain-routes"]);
    expect(run.code).toBe(0);
    const line = (name: string) => run.stdout.split("\n").find((l) => l.trim().startsWith(`${name} `)) ?? "";
    expect(line("fs.read_text_file")).toMatch(/pass\s+annotations say readOnlyHint: true/);
    expect(line("fs.write_file")).toMatch(/simulate\s+annotations say readOnlyHint: false/);
    expect(line("fs.read_media_file")).toMatch(/simulate\s+routes.simulate matches "read_media_file"/);
    expect(line("fx.crash")).toMatch(/simulate\s+no rule says it only reads: simulated to be safe/);
    expect(line("fx.set_label")).toMatch(/simulate\s+the name has "set"/);
    expect(run.stdout).toMatch(/upstream fx \(stdio: .*\): 4 tool\(s\)/);
  });

  it("--all-real passes everything, --all-simulated simulates everything", async () => {
    const real = await runCli([
      "serve",
      "--toolsets",
      LIBRARY,
      "--upstream",
      config,
      "--explain-routes",
      "--all-real",
    ]);
    expect(real.stdout).toMatch(/fs\.write_file\s+pass\s+--all-real/);
    const simulated = await runCli([
      "serve",
      "--toolsets",
      LIBRARY,
      "--upstream",
      config,
      "--explain-routes",
      "--all-simulated",
    ]);
    expect(simulated.stdout).toMatch(/fs\.read_text_file\s+simulate\s+--all-simulated/);
    expect(simulated.stdout).not.toMatch(/^\s+\S+\s+pass\s+/m);
  });

  it("--bare-names keeps the upstream's names when they are unique", async () => {
    const run = await runCli([
      "serve",
      "--toolsets",
      LIBRARY,
      "--upstream",
      config,
      "--explain-routes",
      "--bare-names",
    ]);
    expect(run.stdout).toMatch(/^\s+read_text_file\s+pass/m);
    expect(run.stdout).toMatch(/^\s+get_status\s+pass/m);
  });
});

describe("upstream config and start problems", () => {
  it("names the file and the key of every mistake", async () => {
    const file = join(work.path, "bad.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          fs: { command: "x", args: "not-a-list" },
          web: { type: "sse", url: "http://x" },
          nothing: {},
        },
      }),
    );
    const run = await runCli(["serve", "--toolsets", LIBRARY, "--upstream", file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}: mcpServers.fs.args: expected an array of strings`);
    expect(run.stderr).toContain(`${file}: mcpServers.web.type: "sse" is not supported`);
    expect(run.stderr).toContain(`${file}: mcpServers.nothing: needs "command"`);
    expect(run.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it("reports a missing file, and hybrid flags without --upstream are a usage error", async () => {
    const missing = await runCli([
      "serve",
      "--toolsets",
      LIBRARY,
      "--upstream",
      join(work.path, "nope.json"),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read the upstream config");
    const usage = await runCli(["serve", "--toolsets", LIBRARY, "--explain-routes"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--explain-routes needs --upstream FILE");
  });

  it("an upstream that cannot start, or does not answer in time, stops serve with a clear message", async () => {
    const broken = writeUpstreamConfig(work.path, { gone: { command: join(work.path, "no-such-program") } });
    const run = await runCli(["serve", "--toolsets", LIBRARY, "--upstream", broken]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('upstream "gone"');
    expect(run.stderr).toContain("did not start");

    const silent = writeUpstreamConfig(work.path, {
      mute: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] },
    });
    const slow = await runCli([
      "serve",
      "--toolsets",
      LIBRARY,
      "--upstream",
      silent,
      "--upstream-timeout",
      "1",
    ]);
    expect(slow.code).toBe(1);
    expect(slow.stderr).toContain("did not answer within 1 s");
  });
});

describe("--all-simulated and --all-real against the real filesystem server", () => {
  it("--all-simulated: a dry run of the interface; the folder never changes", async () => {
    const dir = tempDir("toolsim-hybrid-dry-");
    writeFileSync(join(dir.path, "a.txt"), "real text\n");
    const config = writeUpstreamConfig(dir.path, { fs: { command: FILESYSTEM_SERVER, args: [dir.path] } });
    const before = treeHashes(dir.path);
    const server = await startHttpServer([
      "--upstream",
      config,
      "--all-simulated",
      "--db",
      join(work.path, "dry.db"),
    ]);
    try {
      const client = await connectHttp(server.url);
      const path = join(dir.path, "a.txt");
      const read = await client.callTool({ name: "fs.read_text_file", arguments: { path } });
      expect(routeOf(read)).toBe("simulate");
      expect(callMeta(read).engine).toBe("offline");
      await client.callTool({ name: "fs.write_file", arguments: { path, content: "dry run\n" } });
      const again = await client.callTool({ name: "fs.read_text_file", arguments: { path } });
      expect(allText(again)).toBe("dry run\n");
      expect(treeHashes(dir.path)).toEqual(before);
      await client.close();
    } finally {
      await server.stop();
      dir.cleanup();
    }
  });

  it("--all-real: a plain proxy, every call logged", async () => {
    const dir = tempDir("toolsim-hybrid-proxy-");
    const config = writeUpstreamConfig(dir.path, { fs: { command: FILESYSTEM_SERVER, args: [dir.path] } });
    const server = await startHttpServer([
      "--upstream",
      config,
      "--all-real",
      "--db",
      join(work.path, "proxy.db"),
    ]);
    try {
      const client = await connectHttp(server.url);
      const path = join(dir.path, "made.txt");
      const written = await client.callTool({
        name: "fs.write_file",
        arguments: { path, content: "for real\n" },
      });
      expect(routeOf(written)).toBe("pass");
      expect(readFileSync(path, "utf8")).toBe("for real\n");
      const resource = await client.readResource({ uri: "toolsim://session/calls" });
      const first = resource.contents[0];
      expect(first && "text" in first ? first.text : "").toContain("fs.write_file");
      await client.close();
    } finally {
      await server.stop();
      dir.cleanup();
    }
  });
});

describe("toolsim import mcp", () => {
  it("snapshots a live server's tools into a toolset that serves with no server at all", async () => {
    const out = join(work.path, "snapshots");
    const run = await runCli([
      "import",
      "mcp",
      "--out",
      out,
      "--id",
      "flaky",
      "--",
      process.execPath,
      FLAKY_SERVER,
    ]);
    expect(run.code).toBe(0);
    const file = join(out, "flaky.json");
    const loaded = loadToolsets([file]);
    expect(loaded.problems.filter((p) => p.severity === "error")).toEqual([]);
    const tool = loaded.toolsets[0]?.toolset.tools.find((t) => t.name === "get_status");
    expect(tool?.annotations).toEqual({ readOnlyHint: true });
    expect(tool?.outputSchema).toMatchObject({ required: ["pid"] });

    const again = await runCli([
      "import",
      "mcp",
      "--out",
      out,
      "--id",
      "flaky",
      "--",
      process.execPath,
      FLAKY_SERVER,
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("--force");

    const server = await startHttpServer(["--toolsets", file, "--db", join(work.path, "snap.db")]);
    try {
      const client = await connectHttp(server.url);
      const status = await client.callTool({ name: "get_status", arguments: {} });
      expect(status.isError).toBeFalsy();
      expect(typeof (status.structuredContent as { pid: unknown }).pid).toBe("number");
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it("says what is wrong when the server cannot be reached or the call is malformed", async () => {
    const none = await runCli(["import", "mcp", "--out", work.path]);
    expect(none.code).toBe(2);
    const dead = await runCli(["import", "mcp", "--", join(work.path, "no-such-program")]);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toContain("did not start");
  });
});
