import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allText, FLAKY_SERVER, routeOf, writeUpstreamConfig } from "./fixtures/hybrid/helpers.js";
import { connectHttp, LIBRARY, type RunningServer, startHttpServer, tempDir } from "./support/index.js";

/** Polls `check` until it returns a value (at most `tries` times); fails the test otherwise. */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, tries = 150): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe("upstream lifecycle: list_changed, death and reconnection", () => {
  const work = tempDir("toolsim-hybrid-up-");
  const marker = join(work.path, "refuse-to-start");
  let server: RunningServer;
  let client: Client;
  let listChanged = 0;

  const status = () => client.callTool({ name: "fx.get_status", arguments: {} });
  const toolNames = async () => (await client.listTools()).tools.map((t) => t.name);

  beforeAll(async () => {
    const config = writeUpstreamConfig(work.path, {
      fx: {
        command: process.execPath,
        args: [FLAKY_SERVER],
        env: { FLAKY_MARKER: marker },
        routes: { pass: ["crash", "grow"] },
      },
    });
    server = await startHttpServer([
      "--upstream",
      config,
      "--no-catalog",
      "--toolsets",
      LIBRARY,
      "--db",
      join(work.path, "t.db"),
    ]);
    client = await connectHttp(server.url);
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      listChanged += 1;
    });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    work.cleanup();
  });

  it("forwards an upstream's list_changed, and the new tool can be called", async () => {
    expect(await toolNames()).not.toContain("fx.get_extra");
    const seen = listChanged;
    const grown = await client.callTool({ name: "fx.grow", arguments: {} });
    expect(allText(grown)).toBe("grown");
    await eventually(
      async () => (listChanged > seen ? true : undefined),
      "a tools/list_changed notification",
    );
    expect(await toolNames()).toContain("fx.get_extra");
    const extra = await client.callTool({ name: "fx.get_extra", arguments: {} });
    expect(allText(extra)).toBe("extra");
    expect(routeOf(extra)).toBe("pass");
  });

  it("answers a clear isError while the upstream is dead, keeps simulating, and reconnects", async () => {
    const first = await status();
    const firstPid = (first.structuredContent as { pid: number }).pid;
    expect(first.isError).toBeFalsy();

    writeFileSync(marker, "");
    const crashed = await client.callTool({ name: "fx.crash", arguments: {} });
    expect(crashed.isError).toBe(true);

    const down = await status();
    expect(down.isError).toBe(true);
    expect(allText(down)).toContain('upstream server "fx" is not available');
    expect(allText(down)).toContain("reconnecting");

    const simulated = await client.callTool({ name: "fx.set_label", arguments: { label: "blue" } });
    expect(simulated.isError).toBeFalsy();
    expect(routeOf(simulated)).toBe("simulate");
    expect(allText(simulated)).not.toContain("for real");

    rmSync(marker);
    expect(existsSync(marker)).toBe(false);
    const back = await eventually(async () => {
      const result = await status();
      return result.isError ? undefined : result;
    }, "the upstream to come back");
    expect((back.structuredContent as { pid: number }).pid).not.toBe(firstPid);
    // the restarted server has not grown: its tools are listed again without get_extra
    await eventually(
      async () => ((await toolNames()).includes("fx.get_extra") ? undefined : true),
      "the tool list of the restarted server",
    );
  }, 60_000);
});

describe("a Streamable HTTP upstream", () => {
  const work = tempDir("toolsim-hybrid-http-");
  let real: RunningServer;
  let front: RunningServer;
  let client: Client;

  beforeAll(async () => {
    // another toolsim, serving the library toolset over HTTP, stands in for a remote MCP server
    real = await startHttpServer([
      "--toolsets",
      LIBRARY,
      "--no-control-tools",
      "--db",
      join(work.path, "real.db"),
    ]);
    const config = writeUpstreamConfig(work.path, {
      lib: { url: real.url, headers: { "X-Toolsim-Session": "shared-library" } },
    });
    front = await startHttpServer([
      "--upstream",
      config,
      "--no-catalog",
      "--no-control-tools",
      "--toolsets",
      LIBRARY,
      "--db",
      join(work.path, "front.db"),
    ]);
    client = await connectHttp(front.url);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await front?.stop();
    await real?.stop();
    work.cleanup();
  });

  it("passes reads to the remote server and keeps writes away from it", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("lib.get_member");
    expect(names).toContain("lib.delete_member");

    const member = await client.callTool({ name: "lib.get_member", arguments: { member_id: "MEM-001" } });
    expect(routeOf(member)).toBe("pass");
    expect(member.isError).toBeFalsy();

    const deleted = await client.callTool({ name: "lib.delete_member", arguments: { member_id: "MEM-001" } });
    expect(routeOf(deleted)).toBe("simulate");
    const after = await client.callTool({ name: "lib.get_member", arguments: { member_id: "MEM-001" } });
    expect(after.isError).toBe(true);
    expect(allText(after)).toContain("this session deleted it");

    // the remote server never saw the deletion: asked directly, it still has the member
    const direct = await connectHttp(real.url, { "X-Toolsim-Session": "shared-library" });
    const still = await direct.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
    expect(still.isError).toBeFalsy();
    await direct.close();
  });
});
