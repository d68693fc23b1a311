import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildReport,
  type OpenAiExample,
  reportHtml,
  type SessionReport,
  TaskDesk,
} from "../src/tasks/index.js";
import { type FakeOpenAI, FIXTURES, openRuntime, runCli, startFakeOpenAI } from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const STOCK = join(FIXTURES, "tasks", "stock-room.json");
const CATALOG = ["--toolsets", TICKETS, "--toolsets", STOCK];

describe("report and export of a scripted session", () => {
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  let desk: TaskDesk;
  let scripted = "";
  let partial = "";
  let sandbox = "";
  let report: SessionReport;

  beforeAll(async () => {
    runtime = await openRuntime([TICKETS, STOCK]);
    desk = new TaskDesk({ engine: runtime.engine, store: runtime.store });
    scripted = (await runtime.engine.openSession({ name: "scripted" })).id;
    await desk.start(scripted, "ticket-fix-printer", 1);
    const call = (tool: string, args: unknown) => runtime.engine.call(scripted, tool, args);
    await call("list_tickets", { status: "open" }); // 1 ok
    await call("get_tickt", { ticket_id: "T-001" }); // 2 IFN
    await call("get_ticket", { ticket_id: "T-1" }); // 3 IAV (pattern)
    await call("get_ticket", { ticket_id: "T-001" }); // 4 ok
    await call("get_ticket", { ticket_id: "T-001" }); // 5 ok, RAC
    await call("assign_ticket", { ticket_id: "T-001", agent_id: "A-11", priority: "three" }); // 6 IAT
    await call("assign_ticket", { ticket_id: "T-001", agent_id: "A-11", priority: 3 }); // 7 ok
    await call("close_ticket", {
      ticket_id: "T-001",
      resolution: "fixed",
      note: "Driver reinstalled; printing works again.",
    }); // 8 ok
    await desk.feedback(scripted, { answer: "T-001 is assigned to Mika and closed as fixed." });

    partial = (await runtime.engine.openSession({ name: "partial" })).id;
    await desk.start(partial, "ticket-fix-printer");
    await runtime.engine.call(partial, "list_tickets", { status: "open" });
    await runtime.engine.call(partial, "get_ticket", { ticket_id: "T-001" });

    sandbox = (await runtime.engine.openSession({ name: "sandbox" })).id;
    await runtime.engine.call(sandbox, "get_ticket", { ticket_id: "T-002" });

    const session = await runtime.store.session(scripted, "");
    if (!session) throw new Error("no session");
    report = await buildReport({ catalog: runtime.catalog, store: runtime.store }, session);
    await runtime.close(); // the CLI below reads the same file
  });
  afterAll(() => runtime.dispose());

  it("counts calls and the rate of each ToolScan pattern per call", () => {
    expect(report.calls).toEqual({ total: 8, accepted: 5, ok: 5, error: 0, rejected: 3 });
    const rates = Object.fromEntries(report.patterns.map((p) => [p.code, [p.count, p.rate]]));
    expect(rates).toEqual({
      IFN: [1, 0.125],
      IAN: [0, 0],
      IAT: [1, 0.125],
      IAV: [1, 0.125],
      IFE: [0, 0],
      RAC: [1, 0.125],
      IAC: [0, 0],
    });
    expect(report.engines).toEqual({ offline: 5, validator: 3 });
    expect(report.usage).toEqual({ requests: 0, promptTokens: 0, completionTokens: 0, cached: 0 });
    expect(report.latency.maxMs).toBeGreaterThanOrEqual(report.latency.medianMs);
  });

  it("carries the verdict and, per call, the state change it made", () => {
    expect(report.verdict).toMatchObject({ judge: "golden", solved: true, progress: { done: 4, total: 4 } });
    expect(report.verdict?.golden?.extra).toEqual([
      { seq: 5, tool: "get_ticket", status: "ok", write: false },
    ]);
    const assign = report.timeline.find((e) => e.seq === 7);
    expect(assign?.change).toContainEqual({ op: "replace", path: "/tickets/T-001/assignee", value: "A-11" });
    expect(report.timeline.find((e) => e.seq === 4)?.change).toEqual([]);
    const html = reportHtml(report);
    expect(html).toContain("<h2>Timeline</h2>");
    expect(html).toContain("replace /tickets/T-001/assignee = &#34;A-11&#34;");
    expect(html).toContain("get_tickt");
  });

  it("toolsim report prints the figures, as text, JSON and an HTML page; IAC comes from judging", async () => {
    const text = await runCli(["report", "partial", "--db", runtime.db, ...CATALOG]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("IAC  insufficient calls       2 of 4 steps");
    expect(text.stdout).toContain("Verdict: not solved (golden judge, 2/4 steps)");

    const htmlFile = join(runtime.db, "..", "report.html");
    const json = await runCli([
      "report",
      "scripted",
      "--db",
      runtime.db,
      ...CATALOG,
      "--json",
      "--html",
      htmlFile,
    ]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as SessionReport;
    expect(parsed.calls).toEqual(report.calls);
    expect(parsed.patterns).toEqual(report.patterns);
    expect(parsed.verdict?.answer).toBe("T-001 is assigned to Mika and closed as fixed.");
    expect(readFileSync(htmlFile, "utf8")).toContain("toolsim report — scripted");

    const none = await runCli(["report", "sandbox", "--db", runtime.db, ...CATALOG]);
    expect(none.stdout).toContain("Verdict: none (the session is not on a task)");
  });

  it("toolsim export writes OpenAI chat JSONL with a reward per call, referencing the declared tools", async () => {
    const out = await runCli([
      "export",
      "scripted",
      "partial",
      "--format",
      "openai",
      "--db",
      runtime.db,
      ...CATALOG,
    ]);
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    const example = JSON.parse(lines[0] ?? "") as OpenAiExample;
    expect(example.messages[0]?.role).toBe("system");
    expect(example.messages[1]).toEqual({
      role: "user",
      content: runtime.catalog.task("ticket-fix-printer")?.task.description,
    });
    const declared = example.tools.map((t) => t.function.name);
    expect(declared).toEqual([
      "list_tickets",
      "get_ticket",
      "assign_ticket",
      "close_ticket",
      "list_purchase_orders",
    ]);
    expect(example.rewards.map((r) => [r.seq, r.reward])).toEqual([
      [1, 1],
      [2, -1],
      [3, -1],
      [4, 1],
      [5, 0],
      [6, -1],
      [7, 1],
      [8, 1],
    ]);
    const calls = example.messages.flatMap((m) => ("tool_calls" in m ? m.tool_calls : []));
    expect(calls).toHaveLength(8);
    for (const [i, toolCall] of calls.entries()) {
      const reward = example.rewards[i];
      expect(reward?.tool_call_id).toBe(toolCall.id);
      // every accepted call names a declared tool; only a rejected call can name one that does not exist
      if (!declared.includes(toolCall.function.name)) expect(reward?.reward).toBe(-1);
      expect(JSON.parse(toolCall.function.arguments)).toBeTypeOf("object");
      const answer = example.messages.find((m) => m.role === "tool" && m.tool_call_id === toolCall.id);
      expect(answer).toBeDefined();
    }
    const rejected = example.messages.find((m) => m.role === "tool" && m.tool_call_id === "call_2");
    expect(rejected && "content" in rejected ? rejected.content : "").toContain(
      'There is no tool named "get_tickt"',
    );
    expect(example.messages.at(-1)).toEqual({
      role: "assistant",
      content: "T-001 is assigned to Mika and closed as fixed.",
    });
    expect(example.metadata).toMatchObject({ task: "ticket-fix-printer", solved: true, judge: "golden" });

    const second = JSON.parse(lines[1] ?? "") as OpenAiExample;
    expect(second.rewards.map((r) => r.reward)).toEqual([1, 1]);
    expect(second.metadata.solved).toBe(false);
  });

  it("export refuses a session that is not on a task, and a missing format", async () => {
    const sandboxed = await runCli([
      "export",
      "sandbox",
      "--format",
      "openai",
      "--db",
      runtime.db,
      ...CATALOG,
    ]);
    expect(sandboxed.code).toBe(2);
    expect(sandboxed.stderr).toContain("not on a task");
    const noFormat = await runCli(["export", "scripted", "--db", runtime.db, ...CATALOG]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain("--format openai is required");
  });
});

describe("report with a model for the checklist", () => {
  let fake: FakeOpenAI;
  let runtime: Awaited<ReturnType<typeof openRuntime>>;

  beforeAll(async () => {
    runtime = await openRuntime([TICKETS, STOCK]);
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake.close();
    await runtime.dispose();
  });

  it("toolsim report uses the configured model for the checklist", async () => {
    const desk = new TaskDesk({ engine: runtime.engine, store: runtime.store });
    const session = (await runtime.engine.openSession({ name: "for-report" })).id;
    await desk.start(session, "ticket-reassign-vpn");
    await runtime.engine.call(session, "assign_ticket", { ticket_id: "T-002", agent_id: "A-11" });
    fake.script({
      kind: "json",
      value: {
        items: [
          { index: 1, status: "failed", reason: "T-002 went to A-11, not A-02", calls: [1] },
          { index: 2, status: "completed", reason: "still open", calls: [] },
        ],
      },
    });
    await runtime.close(); // the CLI reads the same file
    const out = await runCli(["report", "for-report", "--db", runtime.db, ...CATALOG], {
      OPENAI_BASE_URL: fake.url,
      TOOLSIM_MODEL: "fake-model",
      OPENAI_API_KEY: "",
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("Verdict: not solved (checklist judge, 1/2 items)");
    expect(out.stdout).toContain("[failed] Ticket T-002 is assigned to A-02. — T-002 went to A-11, not A-02");
    expect(out.stdout).toContain("IAC  insufficient calls       1 of 2 items");
  });
});
