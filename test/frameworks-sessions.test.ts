import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import {
  connectHttp,
  connectStdio,
  MARKET_BUY_TASK,
  marketBuyCalls,
  type RunningServer,
  startHttpServer,
  tempDir,
  verdictOf,
} from "./support/index.js";

const SERVE = ["--engine", "offline", "--task", MARKET_BUY_TASK];

/** Works the task to its end: the golden calls, then the feedback tool; returns the verdict it read. */
async function solve(client: Client): Promise<unknown> {
  let solved: unknown;
  for (const call of marketBuyCalls()) solved = solvedOf(await client.callTool(call));
  return solved;
}

async function feedback(client: Client): Promise<unknown> {
  return solvedOf(await client.callTool({ name: "sim_task_feedback", arguments: {} }));
}

function solvedOf(result: { structuredContent?: unknown }): unknown {
  return (result.structuredContent as { solved?: unknown } | undefined)?.solved;
}

describe("serve --task: every new connection is a fresh attempt", () => {
  const dir = tempDir("toolsim-attempts-");
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    dir.cleanup();
  });

  it("stdio: a second process on the same --session starts the task over", async () => {
    const db = join(dir.path, "stdio.db");
    const args = [...SERVE, "--session", "again", "--db", db];
    const first = await connectStdio(args);
    expect(await solve(first.client)).toBe(true);
    await first.client.close();
    const second = await connectStdio(args);
    try {
      // judged on its own calls (none yet), not on the first run's
      expect(await feedback(second.client)).toBe(false);
      const { report } = await verdictOf(db, "again");
      const { calls } = report as { calls: { total: number } };
      expect(calls.total).toBe(3); // the first attempt stays in the log
    } finally {
      await second.client.close();
    }
    expect((await verdictOf(db, "again")).solved).toBe(false);
  });

  it("HTTP: a 2025-era MCP session is a connection; 2026-era requests of one session are one attempt", async () => {
    const db = join(dir.path, "http.db");
    server = await startHttpServer([...SERVE, "--db", db]);
    const header = { "X-Toolsim-Session": "again-http" };
    const first = await connectHttp(server.url, header);
    expect(await solve(first)).toBe(true);
    await first.close();
    const second = await connectHttp(server.url, header);
    expect(await feedback(second)).toBe(false);
    await second.close();

    const stateless = () => {
      const client = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
      return client
        .connect(
          new StreamableHTTPClientTransport(new URL(server?.url ?? ""), {
            requestInit: { headers: { "X-Toolsim-Session": "stateless" } },
          }),
        )
        .then(() => client);
    };
    const one = await stateless();
    expect(await solve(one)).toBe(true);
    await one.close();
    // no connection to begin again with: the named session resumes, so name each run's own
    const two = await stateless();
    expect(await feedback(two)).toBe(true);
    await two.close();
  });
});
