import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AttemptResult, RunSummary } from "../src/run/index.js";
import { openStore } from "../src/store/index.js";
import {
  catalogOf,
  type FakeOpenAI,
  type FakeStep,
  FIXTURES,
  runCli,
  startFakeOpenAI,
  taskPlayer,
  tempDir,
} from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const tasks = catalogOf([TICKETS])
  .allTasks()
  .map((t) => t.task);
const dir = tempDir("toolsim-run-errors-");
const models: FakeOpenAI[] = [];
afterEach(async () => {
  for (const model of models.splice(0)) await model.close();
});
afterAll(() => dir.cleanup());

/** A run of the two golden tasks of the ticket desk, one attempt at a time, the model's first answer scripted. */
async function runWith(
  name: string,
  first: FakeStep[],
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  const model = await startFakeOpenAI({ respond: taskPlayer(tasks) });
  models.push(model);
  model.script(...first);
  const db = join(dir.path, `${name}.db`);
  const result = await runCli(
    [
      "run",
      "--model",
      "agent",
      "--toolsets",
      TICKETS,
      "--tasks",
      "ticket-fix-printer,ticket-delete-vpn",
      "--concurrency",
      "1",
      "--db",
      db,
      "--json",
      ...extra,
    ],
    { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted", ...env },
  );
  return { model, db, result };
}

async function stored(db: string) {
  const store = await openStore(db, { readonly: true });
  try {
    return {
      run: await store.run("run-1"),
      attempts: (await store.runAttempts("run-1")).map((a) => a.result as AttemptResult),
    };
  } finally {
    await store.close();
  }
}

describe("toolsim run survives a model's trouble", { timeout: 120_000 }, () => {
  it("a 401 stops the run at once with a clear message; nothing is lost and --resume finishes it", async () => {
    const { model, db, result } = await runWith("unauthorized", [
      { kind: "status", status: 401, message: "Incorrect API key provided: sk-scri*****" },
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("refused the API key (401); check OPENAI_API_KEY");
    expect(model.chatCount()).toBe(1); // not retried, and no other attempt started
    const before = await stored(db);
    expect(before.run).toMatchObject({ status: "failed" });
    expect(before.run?.note).toContain("401");
    expect(before.attempts).toEqual([]);

    const resumed = await runCli(["run", "--resume", "run-1", "--db", db, "--json"], {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "sk-scripted",
    });
    expect(resumed.code).toBe(0);
    expect((JSON.parse(resumed.stdout) as RunSummary).attempts).toMatchObject({ planned: 2, passed: 2 });
    expect((await stored(db)).run?.status).toBe("finished");
  });

  it("a 429 is retried after the Retry-After the endpoint asked for", async () => {
    const { model, result } = await runWith("rate-limited", [
      { kind: "status", status: 429, message: "Rate limit reached", retryAfter: 1 },
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({ passed: 2, error: 0 });
    const [limited, retried] = model.requests;
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(retried?.messages).toEqual(limited?.messages);
    // the retry is counted where it was spent, and said on the progress line
    expect(summary.tokens.agent.requests).toBe(model.chatCount());
    expect(result.stderr).toContain("retrying a model request (429) in 1.0 s");
  });

  it("5xx answers are retried with backoff, and the attempt goes on", async () => {
    const { model, result } = await runWith("server-errors", [
      { kind: "status", status: 500 },
      { kind: "status", status: 503 },
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({ passed: 2, error: 0 });
    expect(summary.tokens.agent.requests).toBe(model.chatCount());
    expect(model.requests[2]?.messages).toEqual(model.requests[0]?.messages);
  });

  it("a model request that times out ends its attempt as an error, not a failure; the run goes on", async () => {
    const { db, result } = await runWith(
      "timeout",
      [{ kind: "stall" }],
      ["--request-timeout", "3", "--retries", "0"],
    );
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({ finished: 2, passed: 1, failed: 0, error: 1 });
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]?.kind).toBe("timeout");
    expect(summary.errors[0]?.message).toContain("timed out");
    const errored = (await stored(db)).attempts.find((a) => a.outcome === "error");
    expect(errored?.firstTry).toBe("error");
    expect(errored?.reward).toBe(0);
  });

  it("an attempt still waiting on its model at --attempt-timeout ends as an error", async () => {
    const { result } = await runWith("attempt-timeout", [{ kind: "stall" }], ["--attempt-timeout", "5"]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({ passed: 1, error: 1 });
    expect(summary.errors[0]).toMatchObject({ kind: "timeout" });
    expect(summary.errors[0]?.message).toContain("--attempt-timeout 5 s");
  });
});
