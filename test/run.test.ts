import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../src/patch/index.js";
import { choose, type RunSummary, samplingSeed } from "../src/run/index.js";
import { openStore } from "../src/store/index.js";
import {
  catalogOf,
  type FakeOpenAI,
  runCli,
  SHIPPED_TOOLSETS,
  startFakeOpenAI,
  taskPlayer,
  tempDir,
} from "./support/index.js";

const catalog = catalogOf([SHIPPED_TOOLSETS]);
const tasks = catalog.allTasks().map((t) => t.task);

/**
 * The scripted model works every task as its golden solution says, except on the attempts
 * whose first request carries a sampling seed divisible by 3: then it answers at once
 * without working the task, so some attempts of some tasks fail, as a sampled model's would.
 */
const givesUp = (seed: number) => seed % 3 === 0;

type Row = {
  run: string;
  task: string;
  attempt: number;
  session: string;
  outcome: string;
  reward: number;
  calls: { total: number };
  tokens: { agent?: { prompt: number; completion: number; requests: number } };
};

const readRows = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Row);

describe("toolsim run: the built-in agent over the shipped tasks, k = 3, four at a time", () => {
  const dir = tempDir("toolsim-run-");
  let model: FakeOpenAI;
  const db = join(dir.path, "runs.db");
  const env = () => ({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted" });
  const run = (name: string, database = db) =>
    runCli(
      [
        "run",
        "--model",
        "agent-model",
        "-k",
        "3",
        "--concurrency",
        "4",
        "--db",
        database,
        "--jsonl",
        join(dir.path, `${name}.jsonl`),
        "--json",
        "--price",
        "0.4/1.6",
      ],
      env(),
    );
  let first: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    model = await startFakeOpenAI({
      delayMs: 5,
      respond: taskPlayer(tasks, { giveUpWhen: (request) => givesUp(Number(request.body.seed)) }),
    });
    first = await run("first");
  }, 120_000);
  afterAll(async () => {
    await model.close();
    dir.cleanup();
  });

  it("runs every task three times, each attempt in a session of its own, at most four at once", async () => {
    expect(first.stderr).not.toMatch(/Warning/);
    expect(first.code).toBe(0);
    const rows = readRows(join(dir.path, "first.jsonl"));
    expect(rows).toHaveLength(tasks.length * 3);
    expect(new Set(rows.map((r) => r.session)).size).toBe(rows.length);
    for (const row of rows) expect(row.session).toBe(`run-1/${row.task}/${row.attempt}`);
    expect(model.maxInFlight()).toBeLessThanOrEqual(4);
    expect(model.maxInFlight()).toBeGreaterThan(1);

    const store = await openStore(db, { readonly: true });
    try {
      for (const row of rows) {
        const session = await store.session(row.session, "");
        const task = catalog.task(row.task)?.task;
        expect(session?.taskId).toBe(row.task);
        // fresh: the session began on the task's initial state and holds only this attempt's calls
        const start = await store.stateAt(session?.id ?? "", 0);
        expect(canonicalJson(start.toJSON())).toBe(canonicalJson(task?.state));
        expect(await store.callCount(session?.id ?? "")).toBe(row.calls.total);
      }
      expect((await store.run("run-1"))?.status).toBe("finished");
    } finally {
      await store.close();
    }
  });

  it("passes exactly the attempts the model worked, and adds them up as pass^1..3 and pass@3", () => {
    const rows = readRows(join(dir.path, "first.jsonl"));
    for (const row of rows) {
      // the built-in agent's first request of an attempt: seed 0, the task, the attempt, try 1, turn 0, step 0
      const gaveUp = givesUp(samplingSeed("0", row.task, row.attempt, 1, 0, 0));
      expect({ task: row.task, attempt: row.attempt, outcome: row.outcome }).toEqual({
        task: row.task,
        attempt: row.attempt,
        outcome: gaveUp ? "failed" : "passed",
      });
      expect(row.reward).toBe(gaveUp ? 0 : 1);
    }
    const failed = rows.filter((r) => r.outcome === "failed").length;
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(rows.length);

    const summary = JSON.parse(first.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({
      planned: 60,
      finished: 60,
      passed: 60 - failed,
      failed,
      error: 0,
    });
    // pass^j of a task with c of n passed is C(c, j) / C(n, j); pass@j is 1 - C(n - c, j) / C(n, j)
    for (const task of summary.perTask) {
      const passed = rows.filter((r) => r.task === task.task && r.outcome === "passed").length;
      expect(task.passed).toBe(passed);
      expect(task.passHat).toEqual([1, 2, 3].map((j) => choose(passed, j) / choose(3, j)));
      expect(task.passAt[2]).toBe(passed > 0 ? 1 : 0);
    }
    const mean = (values: number[]) =>
      Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1e4) / 1e4;
    for (const j of [0, 1, 2]) {
      expect(summary.overall.passHat[j]).toBe(mean(summary.perTask.map((t) => t.passHat[j] ?? 0)));
    }
    // a task passed 2 of 3 times: pass^1 2/3, pass^2 1/3, pass^3 0, pass@3 1
    const twoOfThree = summary.perTask.find((t) => t.passed === 2);
    if (twoOfThree) expect(twoOfThree.passHat).toEqual([2 / 3, 1 / 3, 0]);
  });

  it("counts tokens per attempt and prices them", () => {
    const rows = readRows(join(dir.path, "first.jsonl"));
    const summary = JSON.parse(first.stdout) as RunSummary;
    const prompt = rows.reduce((sum, r) => sum + (r.tokens.agent?.prompt ?? 0), 0);
    const completion = rows.reduce((sum, r) => sum + (r.tokens.agent?.completion ?? 0), 0);
    expect(summary.tokens.agent).toEqual({
      prompt,
      completion,
      requests: rows.reduce((sum, r) => sum + (r.tokens.agent?.requests ?? 0), 0),
    });
    expect(summary.tokens.agent.requests).toBe(model.chatCount());
    expect(summary.cost).toBeCloseTo((prompt * 0.4 + completion * 1.6) / 1e6, 6);
    expect(summary.toolscan.map((p) => p.code)).toEqual(["IFN", "IAN", "IAT", "IAV", "IFE", "RAC", "IAC"]);
    expect(summary.calls.total).toBe(rows.reduce((sum, r) => sum + r.calls.total, 0));
  });

  it("a second run with the same seed never resumes the first's sessions; a fresh store gives the same bytes", async () => {
    const second = await run("second");
    expect(second.code).toBe(0);
    const firstRows = readRows(join(dir.path, "first.jsonl"));
    const secondRows = readRows(join(dir.path, "second.jsonl"));
    expect(secondRows.map((r) => r.session)).toEqual(
      firstRows.map((r) => r.session.replace("run-1/", "run-2/")),
    );
    // the same attempts, judged the same, with calls of their own (none carried over from run-1)
    expect(secondRows.map((r) => ({ ...r, run: "", session: "" }))).toEqual(
      firstRows.map((r) => ({ ...r, run: "", session: "" })),
    );

    const fresh = await run("fresh", join(dir.path, "fresh.db"));
    expect(fresh.code).toBe(0);
    expect(readFileSync(join(dir.path, "fresh.jsonl"), "utf8")).toBe(
      readFileSync(join(dir.path, "first.jsonl"), "utf8"),
    );
  }, 120_000);
});
