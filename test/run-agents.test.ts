import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AttemptResult, fillPlaceholders, type RunSummary } from "../src/run/index.js";
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

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const AGENT = join(FIXTURES, "run", "mcp-agent.mjs");
const tasks = catalogOf([TICKETS])
  .allTasks()
  .map((t) => t.task);

/** Running, that is: neither gone nor a zombie (dead, waiting for a parent that may never reap it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const status = `/proc/${pid}/status`;
  return !existsSync(status) || !/^State:\s+Z/m.test(readFileSync(status, "utf8"));
}

describe("toolsim run --agent-cmd: any agent, as a command per attempt over Streamable HTTP", {
  timeout: 120_000,
}, () => {
  const dir = tempDir("toolsim-run-agents-");
  let model: FakeOpenAI;
  beforeAll(async () => {
    model = await startFakeOpenAI({ respond: taskPlayer(tasks) });
  });
  afterAll(async () => {
    await model.close();
    dir.cleanup();
  });
  const run = (db: string, extra: string[], env: Record<string, string> = {}) =>
    runCli(
      [
        "run",
        "--agent-cmd",
        `node ${AGENT}`,
        "--toolsets",
        TICKETS,
        "--tasks",
        "ticket-fix-printer,ticket-delete-vpn",
        "--db",
        db,
        "--json",
        ...extra,
      ],
      { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted", ...env },
    );
  const attemptsOf = async (db: string) => {
    const store = await openStore(db, { readonly: true });
    try {
      return (await store.runAttempts("run-1")).map((a) => a.result as AttemptResult);
    } finally {
      await store.close();
    }
  };

  it("judges the agent's work in the session it was given, with its last output line as the answer", async () => {
    const db = join(dir.path, "agent.db");
    const result = await run(db, ["-k", "2", "--concurrency", "2"]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.agent).toBe(`command node ${AGENT}`);
    expect(summary.attempts).toMatchObject({ planned: 4, passed: 4 });
    const attempts = await attemptsOf(db);
    const invalid = attempts.find((a) => a.task === "ticket-delete-vpn");
    expect(invalid?.answer).toMatch(/^INFEASIBLE: /);
    expect(invalid?.verdict?.infeasibleDeclared).toBe(true);
    expect(attempts.find((a) => a.task === "ticket-fix-printer")?.calls.total).toBe(4);
  });

  it("an agent that crashes ends its attempt as an error with its exit code and last words; the others go on", async () => {
    const db = join(dir.path, "crash.db");
    const result = await run(db, [], { AGENT_MODE: "crash:ticket-fix-printer" });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({ passed: 1, error: 1 });
    const crashed = (await attemptsOf(db)).find((a) => a.task === "ticket-fix-printer");
    expect(crashed?.outcome).toBe("error");
    expect(crashed?.error).toEqual({
      kind: "agent-exit",
      message:
        "the agent command exited with code 3; its last output on stderr: agent: something broke after the first call",
    });
    // what it did before it crashed is kept and judged for the record
    expect(crashed?.calls.total).toBe(1);
    expect(crashed?.verdict?.progress).toEqual({ done: 1, total: 4 });
  });

  it("an agent that hangs is stopped at --attempt-timeout, with the processes it started", async () => {
    const db = join(dir.path, "hang.db");
    const pids = join(dir.path, "hang.pids");
    // long enough for the other attempt's agent to start and finish on a busy machine
    const result = await run(db, ["--attempt-timeout", "20"], {
      AGENT_MODE: "hang:ticket-delete-vpn",
      AGENT_PID_FILE: pids,
    });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.attempts).toMatchObject({ passed: 1, error: 1 });
    expect(summary.errors[0]).toMatchObject({ task: "ticket-delete-vpn", kind: "timeout" });
    expect(existsSync(pids)).toBe(true);
    const [agentPid, childPid] = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(alive(agentPid ?? 0)).toBe(false);
    expect(alive(childPid ?? 0)).toBe(false);
  });

  it("fills {placeholders} with values quoted for the shell", () => {
    const line = fillPlaceholders("agent --session {session} --prompt {prompt} {unknown}", {
      session: "run-1/t/1",
      prompt: "it's $HOME; `rm -rf /`",
    });
    expect(line).toBe("agent --session 'run-1/t/1' --prompt 'it'\\''s $HOME; `rm -rf /`' {unknown}");
  });
});
