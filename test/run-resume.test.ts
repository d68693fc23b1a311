import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../src/run/index.js";
import { openStore } from "../src/store/index.js";
import {
  CLI,
  catalogOf,
  type FakeOpenAI,
  runCli,
  SHIPPED_TOOLSETS,
  startFakeOpenAI,
  taskPlayer,
  tempDir,
} from "./support/index.js";

const tasks = catalogOf([SHIPPED_TOOLSETS])
  .allTasks()
  .map((t) => t.task);

/** The attempts the store holds for run-1 (read as another process would, while the run writes). */
async function finished(db: string): Promise<Array<{ taskId: string; sessionName: string }>> {
  const store = await openStore(db, { readonly: true });
  try {
    return await store.runAttempts("run-1");
  } finally {
    await store.close();
  }
}

async function status(db: string) {
  const store = await openStore(db, { readonly: true });
  try {
    return (await store.run("run-1"))?.status;
  } finally {
    await store.close();
  }
}

/** Waits until the run has recorded at least `count` attempts (the run goes on meanwhile). */
async function untilFinished(db: string, count: number, child: ChildProcess): Promise<number> {
  for (let waited = 0; waited < 120_000; waited += 200) {
    if (child.exitCode !== null) throw new Error(`the run ended early (${child.exitCode})`);
    const done = (await finished(db).catch(() => [])).length;
    if (done >= count) return done;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the run did not record ${count} attempts`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
  });
}

describe("toolsim run keeps what finished when stopped, and --resume runs only what is missing", () => {
  const dir = tempDir("toolsim-run-resume-");
  const db = join(dir.path, "runs.db");
  let model: FakeOpenAI;
  beforeAll(async () => {
    // slow enough that a run is still going when it is stopped
    model = await startFakeOpenAI({ delayMs: 150, respond: taskPlayer(tasks) });
  });
  afterAll(async () => {
    await model.close();
    dir.cleanup();
  });
  const start = (args: string[]) => {
    const child = spawn(process.execPath, [CLI, "run", ...args, "--db", db], {
      env: { ...process.env, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    return { child, stdout: () => stdout };
  };

  it("Ctrl-C, then a kill, then --resume: every task ends with one result, none run twice", async () => {
    const first = start(["--model", "agent", "--concurrency", "2"]);
    const before = await untilFinished(db, 3, first.child);
    first.child.kill("SIGINT");
    expect(await exited(first.child)).toBe(130);
    expect(first.stdout()).toContain("Run run-1 interrupted (stopped by the user)");
    expect(first.stdout()).toContain("Run what is missing: toolsim run --resume run-1");
    expect(await status(db)).toBe("interrupted");
    const kept = await finished(db);
    expect(kept.length).toBeGreaterThanOrEqual(before);
    expect(kept.length).toBeLessThan(tasks.length);

    const second = start(["--resume", "run-1", "--concurrency", "2"]);
    await untilFinished(db, kept.length + 2, second.child);
    second.child.kill("SIGKILL");
    await exited(second.child);
    expect(await status(db)).toBe("running"); // killed: nothing could say otherwise
    const afterKill = await finished(db);
    const done = new Set(afterKill.map((a) => a.taskId));
    for (const attempt of kept) expect(done.has(attempt.taskId)).toBe(true);

    const requestsBefore = model.requests.length;
    const jsonl = join(dir.path, "run-1.jsonl");
    const last = await runCli(["run", "--resume", "run-1", "--db", db, "--json", "--jsonl", jsonl], {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "sk-scripted",
    });
    expect(last.code).toBe(0);
    const summary = JSON.parse(last.stdout) as RunSummary;
    expect(summary.status).toBe("finished");
    expect(summary.attempts).toMatchObject({
      planned: tasks.length,
      finished: tasks.length,
      passed: tasks.length,
    });
    // the last resume asked the model only about the tasks still missing
    const asked = new Set(
      model.requests.slice(requestsBefore).map((r) => r.messages.find((m) => m.role === "user")?.content),
    );
    const missing = tasks.filter((t) => !done.has(t.id));
    expect([...asked].sort()).toEqual(missing.map((t) => t.description).sort());

    const rows = readFileSync(jsonl, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { task: string; session: string });
    expect(rows.map((r) => r.task).sort()).toEqual(tasks.map((t) => t.id).sort());
    expect(new Set(rows.map((r) => r.session)).size).toBe(rows.length);
    // an attempt a stop cut short left its session; the attempt that replaced it got a new one
    for (const row of rows) expect(row.session).toMatch(new RegExp(`^run-1/${row.task}/1(#\\d+)?$`));
    expect(rows.some((row) => row.session.includes("#"))).toBe(true);
    expect(await status(db)).toBe("finished");
  }, 240_000);
});
