import { join, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allText, routeOf, writeUpstreamConfig } from "./fixtures/hybrid/helpers.js";
import { connectHttp, LIBRARY, type RunningServer, startHttpServer, tempDir } from "./support/index.js";

const COUNTING_SERVER = resolve(import.meta.dirname, "support", "counting-server.mjs");

/**
 * A real upstream that counts what reaches it: toolsim validates passed-through calls
 * first, keeps falsely annotated and combined writes away from it, and relays its progress
 * and log messages to the client that made the call.
 */
describe("calls passed through to a real upstream", () => {
  const work = tempDir("toolsim-hybrid-calls-");
  let server: RunningServer;
  let client: Client;

  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  const received = async (): Promise<Record<string, number>> => {
    const result = await call("up.get_received", {});
    expect(routeOf(result)).toBe("pass");
    return (result.structuredContent as { received: Record<string, number> }).received;
  };

  beforeAll(async () => {
    const config = writeUpstreamConfig(work.path, {
      up: { command: process.execPath, args: [COUNTING_SERVER] },
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
    client = await connectHttp(server.url);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    work.cleanup();
  });

  it("validates a passed-through call first: bad arguments get toolsim's findings and never reach the server", async () => {
    const wrongType = await call("up.get-sum", { a: "two", b: 1 });
    expect(wrongType.isError).toBe(true);
    expect(routeOf(wrongType)).toBe("rejected");
    expect(wrongType._meta?.["toolsim/findings"]).toEqual([
      expect.objectContaining({ code: "IAT", argument: "a" }),
    ]);
    expect(allText(wrongType)).toContain(`- [IAT] "a" must be a number; got string "two".`);
    expect(allText(wrongType)).not.toContain("-32602");

    const missing = await call("up.get-sum", { a: 2 });
    expect(missing._meta?.["toolsim/findings"]).toEqual([
      expect.objectContaining({ code: "IAV", argument: "b" }),
    ]);
    expect((await received())["get-sum"]).toBeUndefined();

    const right = await call("up.get-sum", { a: 2, b: 3 });
    expect(right.isError).toBeFalsy();
    expect(routeOf(right)).toBe("pass");
    expect(allText(right)).toBe("The sum of 2 and 3 is 5.");
    expect((await received())["get-sum"]).toBe(1);

    const calls = await client.readResource({ uri: "toolsim://session/calls" });
    const log = calls.contents[0] && "text" in calls.contents[0] ? calls.contents[0].text : "";
    const recorded = (JSON.parse(log) as { calls: Array<{ tool: string; status: string }> }).calls;
    expect(recorded.filter((c) => c.tool === "up.get-sum").map((c) => c.status)).toEqual([
      "rejected",
      "rejected",
      "ok",
    ]);
  });

  it("keeps a combined read-and-change and a falsely read-only delete away from the real server", async () => {
    const increment = await call("up.get_and_increment_counter", {});
    expect(routeOf(increment)).toBe("simulate");
    const deleted = await call("up.delete_counter", {});
    expect(deleted.isError).toBeFalsy();
    expect(routeOf(deleted)).toBe("simulate");
    const reached = await received();
    expect(reached.get_and_increment_counter).toBeUndefined();
    expect(reached.delete_counter).toBeUndefined();
    const counter = await call("up.get_counter", {});
    expect(routeOf(counter)).toBe("pass");
    expect(counter.structuredContent).toEqual({ count: 0 });
  });

  it("relays the upstream's progress, with the client's token, and its log messages during the call", async () => {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const logs: unknown[] = [];
    client.setNotificationHandler("notifications/message", (notification) => {
      logs.push(notification.params.data);
    });
    const result = await client.callTool(
      { name: "up.get_report", arguments: { steps: 4 } },
      { onprogress: (update) => progress.push(update) },
    );
    expect(result.isError).toBeFalsy();
    expect(allText(result)).toBe("report of 4 steps");
    expect(progress.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 4, "step 1"],
      [2, 4, "step 2"],
      [3, 4, "step 3"],
      [4, 4, "step 4"],
    ]);
    expect(logs).toEqual(["finished step 1", "finished step 2", "finished step 3", "finished step 4"]);
  });

  it("with calls of two sessions in flight, log messages are not guessed to belong to either", async () => {
    const other = await connectHttp(server.url);
    try {
      const logs: unknown[] = [];
      for (const c of [client, other])
        c.setNotificationHandler("notifications/message", (notification) => {
          logs.push(notification.params.data);
        });
      const both = await Promise.all([
        client.callTool({ name: "up.get_report", arguments: { steps: 5 } }),
        other.callTool({ name: "up.get_report", arguments: { steps: 5 } }),
      ]);
      expect(both.map(allText)).toEqual(["report of 5 steps", "report of 5 steps"]);
      expect(logs.length).toBeLessThan(10);
      expect(server.stderr()).toContain('[up] info: "finished step');
    } finally {
      await other.close();
    }
  });
});
