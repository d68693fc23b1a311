import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  AGENT_GREETING,
  type AttemptResult,
  FEEDBACK_INTRO,
  type RunSummary,
  STOP_SIGNAL,
} from "../src/run/index.js";
import { openStore } from "../src/store/index.js";
import {
  catalogOf,
  type FakeOpenAI,
  FIXTURES,
  runCli,
  startFakeOpenAI,
  taskPlayer,
  tempDir,
} from "./support/index.js";

const TURNS = join(FIXTURES, "run", "ticket-turns.json");
const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const turnTasks = catalogOf([TURNS])
  .allTasks()
  .map((t) => t.task);
const ticketTasks = catalogOf([TICKETS])
  .allTasks()
  .map((t) => t.task);

const dir = tempDir("toolsim-run-users-");
const models: FakeOpenAI[] = [];
afterEach(async () => {
  for (const model of models.splice(0)) await model.close();
});
afterAll(() => dir.cleanup());

async function scripted(tasks: typeof turnTasks, options: Parameters<typeof taskPlayer>[1] = {}) {
  const model = await startFakeOpenAI({ respond: taskPlayer(tasks, options) });
  models.push(model);
  return model;
}

/** The attempts of a run as the store keeps them. */
async function attemptsOf(db: string, runId: string): Promise<AttemptResult[]> {
  const store = await openStore(db, { readonly: true });
  try {
    return (await store.runAttempts(runId)).map((a) => a.result as AttemptResult);
  } finally {
    await store.close();
  }
}

describe("toolsim run: the user's side of the conversation", { timeout: 120_000 }, () => {
  it("without a simulated user, says a task's turns in order, each after the agent answered the one before", async () => {
    const model = await scripted(turnTasks);
    const db = join(dir.path, "turns.db");
    const result = await runCli(
      ["run", "--model", "agent", "--toolsets", TURNS, "--tasks", "turns-printer-*", "--db", db, "--json"],
      { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted" },
    );
    expect(result.code).toBe(0);
    const [attempt] = await attemptsOf(db, "run-1");
    expect(attempt?.outcome).toBe("passed");
    const task = turnTasks.find((t) => t.id === "turns-printer-then-vpn");
    expect(attempt?.conversation.map((e) => [e.role, e.text, e.afterCalls])).toEqual([
      ["user", task?.turns?.[0], 0],
      ["agent", "Done: turns-printer-then-vpn, turn 1.", 2],
      ["user", task?.turns?.[1], 2],
      ["agent", "Done: turns-printer-then-vpn, turn 2.", 3],
    ]);
    expect(attempt?.turns).toBe(2);
    // the second turn's request carried the whole conversation so far
    const last = model.requests.at(-1);
    expect(last?.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(task?.turns);
  });

  it("with --user-model, a model plays the user from the task's brief until it ends the conversation", async () => {
    const model = await scripted(turnTasks, { userModel: "user-model" });
    const db = join(dir.path, "simulated.db");
    const result = await runCli(
      [
        "run",
        "--model",
        "agent",
        "--user-model",
        "user-model",
        "--toolsets",
        TURNS,
        "-k",
        "2",
        "--db",
        db,
        "--json",
      ],
      { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted" },
    );
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({ planned: 4, passed: 4 });
    expect(summary.tokens.user.requests).toBeGreaterThan(0);
    const userRequests = model.requests.filter((r) => r.model === "user-model");
    // the user model is told its brief, as data, and opens by answering the agent's greeting
    const brief = turnTasks.find((t) => t.id === "turns-printer-then-vpn")?.user ?? "";
    const opening = userRequests.find((r) => r.messages[0]?.content.includes(brief));
    expect(opening?.messages.slice(1).map((m) => [m.role, m.content])).toEqual([["user", AGENT_GREETING]]);
    expect(opening?.body.tools).toBeUndefined();
    // each user request after the first shows the agent's answers as the other side's words
    const later = userRequests.filter((r) => r.messages[0]?.content.includes(brief) && r.messages.length > 2);
    expect(later.length).toBeGreaterThan(0);
    for (const request of later) expect(request.messages.at(-1)?.role).toBe("user");

    const attempts = await attemptsOf(db, "run-1");
    const twoTurns = attempts.find((a) => a.task === "turns-printer-then-vpn");
    // two requests from the user, then the stop signal (never shown to the agent)
    expect(twoTurns?.conversation.filter((e) => e.role === "user")).toHaveLength(2);
    expect(JSON.stringify(twoTurns?.conversation)).not.toContain(STOP_SIGNAL);
    expect(twoTurns?.usage.user.requests).toBe(3);
    // the agent was told it may ask the user: its instructions say so when a user takes part
    const agentRequest = model.requests.find((r) => r.model === "agent");
    expect(agentRequest?.messages[0]?.content).toContain("Ask the user");
  });

  it("--feedback-retries turns a failed first try into a pass: the agent reads the judge's feedback and finishes", async () => {
    const model = await scripted(ticketTasks, { skipUntilFeedback: ["close_ticket"] });
    const db = join(dir.path, "feedback.db");
    const jsonl = join(dir.path, "feedback.jsonl");
    const args = [
      "run",
      "--model",
      "agent",
      "--toolsets",
      TICKETS,
      "--tasks",
      "ticket-fix-printer",
      "-k",
      "2",
    ];
    const withRetry = await runCli(
      [...args, "--feedback-retries", "1", "--db", db, "--json", "--jsonl", jsonl],
      {
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: "sk-scripted",
      },
    );
    expect(withRetry.code).toBe(0);
    const summary = JSON.parse(withRetry.stdout) as RunSummary;
    expect(summary.overall.passHat).toEqual([1, 1]);
    expect(summary.firstTry?.passHat).toEqual([0, 0]);
    expect(summary.perTask[0]).toMatchObject({ passed: 2, firstTryPassed: 0 });
    const rows = readFileSync(jsonl, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows.map((r) => [r.outcome, r.firstTry, r.tries])).toEqual([
      ["passed", "failed", 2],
      ["passed", "failed", 2],
    ]);
    const [attempt] = await attemptsOf(db, "run-1");
    expect(attempt?.tries.map((t) => t.outcome)).toEqual(["failed", "passed"]);
    const feedback = attempt?.conversation.find((e) => e.role === "feedback");
    expect(feedback?.text.startsWith(FEEDBACK_INTRO)).toBe(true);
    // the feedback is the judge's, as sim_task_feedback words it: what is missing, not the values
    expect(feedback?.text).toContain("Still to do: 1 more call (close_ticket)");
    expect(feedback?.text).not.toContain("reinstalled");
    // one session: the retry went on where the first try stopped
    expect(new Set(rows.map((r) => r.session)).size).toBe(2);
    expect(attempt?.calls.total).toBe(4);

    const without = await runCli([...args, "--db", db, "--json"], {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "sk-scripted",
    });
    expect((JSON.parse(without.stdout) as RunSummary).overall.passHat).toEqual([0, 0]);
  });
});
