import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../src/run/index.js";
import {
  catalogOf,
  type FakeOpenAI,
  FIXTURES,
  postgresBackend,
  runCli,
  type StoreDatabase,
  startFakeOpenAI,
  taskPlayer,
} from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const tasks = catalogOf([TICKETS])
  .allTasks()
  .map((t) => t.task);
const unavailable = postgresBackend.unavailable?.();

describe.skipIf(unavailable !== undefined)("toolsim run on PostgreSQL", { timeout: 120_000 }, () => {
  let database: StoreDatabase;
  let model: FakeOpenAI;
  beforeAll(async () => {
    database = await postgresBackend.fresh();
    model = await startFakeOpenAI({ respond: taskPlayer(tasks) });
  });
  afterAll(async () => {
    await model?.close();
    await database?.dispose();
  });
  const env = () => ({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted" });

  it("keeps the run and its attempts in the database: a resume finds nothing missing, export writes them all", async () => {
    const args = [
      "--toolsets",
      TICKETS,
      "--tasks",
      "ticket-fix-printer,ticket-delete-vpn",
      "--db",
      database.location,
    ];
    const first = await runCli(["run", "--model", "agent", "-k", "2", ...args, "--json"], env());
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as RunSummary).attempts).toMatchObject({ planned: 4, passed: 4 });

    const requests = model.chatCount();
    const again = await runCli(["run", "--resume", "run-1", "--db", database.location, "--json"], env());
    expect(again.code).toBe(0);
    expect(model.chatCount()).toBe(requests);
    expect((JSON.parse(again.stdout) as RunSummary).attempts).toMatchObject({ finished: 4, passed: 4 });

    const exported = await runCli([
      "export",
      "--run",
      "run-1",
      "--format",
      "openai",
      "--db",
      database.location,
    ]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.metadata.task, l.metadata.attempt, l.metadata.reward])).toEqual([
      ["ticket-fix-printer", 1, 1],
      ["ticket-fix-printer", 2, 1],
      ["ticket-delete-vpn", 1, 1],
      ["ticket-delete-vpn", 2, 1],
    ]);
    // the conversation as it went: the request, the calls, the agent's answer
    expect(lines[2].messages.at(-1)).toEqual({
      role: "assistant",
      content: expect.stringMatching(/^INFEASIBLE: /),
    });
  });
});
