import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Tool } from "../src/catalog/index.js";
import { LlmClient } from "../src/llm/index.js";
import {
  chooseDistractors,
  compareArguments,
  FREE_TEXT_THRESHOLD,
  isFreeText,
  LlmChecklistJudge,
  normalizeToolName,
  planTaskStart,
  sameText,
  sameValue,
  TaskDesk,
  type TaskVerdict,
  textOverlap,
} from "../src/tasks/index.js";
import { type FakeOpenAI, FIXTURES, openRuntime, startFakeOpenAI } from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const STOCK = join(FIXTURES, "tasks", "stock-room.json");

const stringArg = { type: "string" };
const toolWith = (properties: Record<string, Record<string, unknown>>): Tool => ({
  name: "probe",
  description: "A tool to compare calls of.",
  inputSchema: { type: "object", properties },
  errors: [],
  effects: [],
});

describe("argument comparison", () => {
  it("normalizes tool names across case and separators", () => {
    expect(normalizeToolName("getTicket")).toBe(normalizeToolName("get_ticket"));
    expect(normalizeToolName("GET-TICKET")).toBe(normalizeToolName("get_ticket"));
    expect(normalizeToolName("get_ticket")).not.toBe(normalizeToolName("get_tickets"));
  });

  it("compares numbers by value, strings up to case and spacing", () => {
    expect(sameValue(3, 3.0)).toBe(true);
    expect(sameValue(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameValue(69.12, 69.13)).toBe(false);
    expect(sameValue("Fixed ", "  fixed")).toBe(true);
    expect(sameValue("Line  one", "line one")).toBe(true);
    expect(sameValue("T-001", "T-002")).toBe(false);
    expect(sameValue(true, true)).toBe(true);
    expect(sameValue(true, false)).toBe(false);
  });

  it("treats a string as a number only where the schema says number or integer", () => {
    // the fooled case: number-like strings used to compare as numbers
    expect(sameValue("007", "7", stringArg)).toBe(false);
    expect(sameValue("007", "7")).toBe(false);
    expect(sameValue("55120", "055120", { type: "string", pattern: "^[0-9]+$" })).toBe(false);
    expect(sameValue(3, "3")).toBe(false);
    expect(sameValue("3.50", 3.5, { type: "number" })).toBe(true);
    expect(sameValue(7, "007", { type: "integer" })).toBe(true);
    expect(sameValue(7, "007", { type: ["integer", "string"] })).toBe(false);
    expect(sameValue(7, "7", { anyOf: [{ type: "integer" }, { type: "null" }] })).toBe(true);
    expect(sameValue(true, "true", { type: "boolean" })).toBe(true);
    expect(sameValue(true, "true")).toBe(false);
    const tool = toolWith({ group_number: stringArg, quantity: { type: "integer" } });
    expect(
      compareArguments({ group_number: "7", quantity: 2 }, { group_number: "007", quantity: 2 }, tool),
    ).toEqual([{ argument: "group_number", kind: "wrong", severity: "error" }]);
  });

  it("compares arrays in any order and objects field by field, with the schema of each part", () => {
    expect(sameValue([{ id: "a", n: 1 }, { id: "b" }], [{ id: "b" }, { id: "a", n: 1 }])).toBe(true);
    expect(sameValue([1, 2], [1, 2, 3])).toBe(false);
    expect(sameValue({ a: 1, b: null }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, c: 2 })).toBe(false);
    const lines = { type: "array", items: { type: "object", properties: { qty: { type: "integer" } } } };
    expect(sameValue([{ qty: 2 }], [{ qty: "2" }], lines)).toBe(true);
    expect(sameValue([{ code: "02" }], [{ code: "2" }], lines)).toBe(false);
  });

  it("a string of several words is not free text: places and addresses must match", () => {
    // the fooled cases: any string of three or more words only had to be present
    const tool = toolWith({ destination: stringArg, address_line: stringArg });
    expect(compareArguments({ destination: "San Luis Obispo" }, { destination: "Paris" }, tool)).toEqual([
      { argument: "destination", kind: "wrong", severity: "error" },
    ]);
    expect(compareArguments({ address_line: "12 Rue de Rivoli" }, { address_line: "x" }, tool)).toEqual([
      { argument: "address_line", kind: "wrong", severity: "error" },
    ]);
    expect(
      compareArguments({ destination: "San Luis Obispo" }, { destination: "san luis  obispo" }, tool),
    ).toEqual([]);
    expect(
      compareArguments({ destination: "San Luis Obispo" }, { destination: "Paris" }, undefined),
    ).toHaveLength(1);
  });

  it("recognises free text by the argument's name or description, never in enums, patterns or formats", () => {
    expect(isFreeText("note", stringArg)).toBe(true);
    expect(isFreeText("customer_note", stringArg)).toBe(true);
    expect(isFreeText("cancelReason", stringArg)).toBe(true);
    expect(isFreeText("comments", undefined)).toBe(true);
    expect(isFreeText("detail", { type: "string", description: "Free-text detail." })).toBe(true);
    expect(
      isFreeText("why", { type: "string", description: "Reason for the visit in the patient's words." }),
    ).toBe(true);
    expect(isFreeText("city", { type: "string", description: "City." })).toBe(false);
    expect(isFreeText("reason", { type: "string", enum: ["damaged", "other"] })).toBe(false);
    expect(isFreeText("note_id", { type: "string", pattern: "^N-[0-9]+$" })).toBe(false);
    expect(isFreeText("message", { type: "string", format: "uri" })).toBe(false);
    expect(isFreeText("reason", { type: "integer" })).toBe(false);
  });

  it("judges free text by what it says: a paraphrase passes, another note or an empty one does not", () => {
    const tool = toolWith({ ticket_id: stringArg, note: stringArg });
    const golden = {
      ticket_id: "T-001",
      note: "The printer driver was reinstalled and printing works again.",
    };
    const with_ = (note: string) => compareArguments(golden, { ticket_id: "T-001", note }, tool);
    expect(with_("Reinstalled the printer driver; printing works again.")).toEqual([]);
    expect(with_("Driver reinstalled, printer works.")).toEqual([]);
    const wrong = [{ argument: "note", kind: "wrong", severity: "error", freeText: true }];
    expect(with_("Closing this ticket as requested.")).toEqual(wrong);
    expect(with_("Refund issued to the customer.")).toEqual(wrong);
    expect(with_(" ")).toEqual(wrong);
    expect(compareArguments(golden, { ticket_id: "T-001", note: 42 }, undefined)).toEqual([
      { argument: "note", kind: "wrong", severity: "error", freeText: true },
    ]);
  });

  it("numbers in free text are facts the call's text must state too", () => {
    expect(textOverlap("Ceramic kettle, incl. 8% tax", "Ceramic kettle including 8% tax").same).toBe(true);
    const nine = textOverlap("Ceramic kettle, incl. 8% tax", "Ceramic kettle including 9% tax");
    expect(nine).toMatchObject({ same: false, missingFacts: ["8"] });
    expect(sameText("Cork yoga blocks x2 incl. tax", "Two cork yoga blocks, tax included")).toBe(true);
    expect(sameText("Patient unavailable on March 4.", "Patient unavailable on March 5.")).toBe(false);
  });

  it("the overlap threshold: half of the note's content words", () => {
    const golden = "Kettle arrived with a crack down the side; customer will not ship it back.";
    const close = textOverlap(
      golden,
      "Kettle arrived cracked along the side. Customer is not sending it back.",
    );
    expect(close.score).toBeGreaterThanOrEqual(FREE_TEXT_THRESHOLD);
    const other = textOverlap(golden, "Arrived damaged; returnless refund.");
    expect(other.score).toBeLessThan(FREE_TEXT_THRESHOLD);
    expect(other.same).toBe(false);
    // a note with no content words must match as written
    expect(sameText("OK", "ok")).toBe(true);
    expect(sameText("OK", "fine")).toBe(false);
  });

  it("free text nested in objects and lists is judged by content too", () => {
    const tool = toolWith({
      items: { type: "array", items: { type: "object", properties: { comment: stringArg, sku: stringArg } } },
    });
    const golden = { items: [{ sku: "A-1", comment: "Box was crushed in transit." }] };
    expect(
      compareArguments(
        golden,
        { items: [{ sku: "A-1", comment: "The box got crushed during transit" }] },
        tool,
      ),
    ).toEqual([]);
    expect(
      compareArguments(golden, { items: [{ sku: "A-1", comment: "Customer changed their mind" }] }, tool),
    ).toEqual([{ argument: "items", kind: "wrong", severity: "error" }]);
  });

  it("reports missing, wrong and unexpected arguments; unexpected free text is only a note", () => {
    const tool = toolWith({
      ticket_id: stringArg,
      resolution: { type: "string", enum: ["fixed", "wont_fix"] },
    });
    const differences = compareArguments(
      { ticket_id: "T-001", resolution: "fixed", note: "The driver was reinstalled." },
      { ticket_id: "T-001", resolution: "wont_fix", note: "Reinstalled the driver, all good", extra: 1 },
      tool,
    );
    expect(differences).toEqual([
      { argument: "resolution", kind: "wrong", severity: "error" },
      { argument: "extra", kind: "unexpected", severity: "error" },
    ]);
    expect(compareArguments({ note: "The driver was reinstalled." }, {}, undefined)).toEqual([
      { argument: "note", kind: "missing", severity: "error", freeText: true },
    ]);
    expect(compareArguments({}, { comment: "fyi" }, undefined)).toEqual([
      { argument: "comment", kind: "unexpected", severity: "note", freeText: true },
    ]);
  });

  it("a judge for free text can be given (the model's verdicts stand in for word overlap)", () => {
    const tool = toolWith({ note: stringArg });
    const asked: string[] = [];
    const judgeText = (expected: string, actual: string) => {
      asked.push(`${expected} | ${actual}`);
      return actual.includes("spooler");
    };
    expect(
      compareArguments({ note: "Fixed the printer." }, { note: "Restarted the spooler" }, tool, {
        judgeText,
      }),
    ).toEqual([]);
    expect(
      compareArguments({ note: "Fixed the printer." }, { note: "Fixed the printer!" }, tool, { judgeText }),
    ).toHaveLength(1);
    expect(asked).toEqual([
      "Fixed the printer. | Restarted the spooler",
      "Fixed the printer. | Fixed the printer!",
    ]);
  });
});

describe("distractors", () => {
  it("come from other toolsets, most similar first, the same every time", async () => {
    const runtime = await openRuntime([TICKETS, STOCK]);
    try {
      const chosen = chooseDistractors(runtime.catalog, ["ticket_desk"], 2);
      expect(chosen).toHaveLength(2);
      expect(chosen).toEqual(chooseDistractors(runtime.catalog, ["ticket_desk"], 2));
      const stockNames = runtime.catalog.toolset("stock_room")?.tools.map((t) => t.name);
      for (const name of chosen) expect(stockNames).toContain(name);
      // listing and closing look like the desk's own list_tickets/close_ticket; weighing crates does not
      expect(chosen.sort()).toEqual(["close_purchase_order", "list_purchase_orders"]);
      expect(chooseDistractors(runtime.catalog, ["ticket_desk"], 10)).toHaveLength(4);
    } finally {
      await runtime.dispose();
    }
  });
});

describe("golden judge on real sessions", () => {
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  let desk: TaskDesk;
  let session: string;

  const call = (tool: string, args: Record<string, unknown>) => runtime.engine.call(session, tool, args);
  const verdict = async (input: { answer?: string; infeasible?: boolean } = {}) => {
    const result = await desk.feedback(session, input);
    if (!result.ok) throw new Error(result.error);
    return result.value;
  };
  const lookups = async () => {
    await call("list_tickets", { status: "open" });
    await call("get_ticket", { ticket_id: "T-001" });
  };
  const assign = () => call("assign_ticket", { ticket_id: "T-001", agent_id: "A-11", priority: 3 });
  const close = (note = "Driver reinstalled; printing works.") =>
    call("close_ticket", { ticket_id: "T-001", resolution: "fixed", note });

  beforeEach(async () => {
    runtime = await openRuntime([TICKETS, STOCK]);
    desk = new TaskDesk({ engine: runtime.engine, store: runtime.store });
    session = (await runtime.engine.openSession({})).id;
    const started = await desk.start(session, "ticket-fix-printer");
    expect(started.ok).toBe(true);
  });
  afterEach(() => runtime.dispose());

  it("a trace that follows the solution is solved, with every step matched to its call", async () => {
    await lookups();
    await assign();
    await close();
    const { verdict: v, text } = await verdict();
    expect(v.solved).toBe(true);
    expect(v.judge).toBe("golden");
    expect(v.progress).toEqual({ done: 4, total: 4 });
    expect(v.golden?.steps.map((s) => [s.tool, s.status, s.seq])).toEqual([
      ["list_tickets", "done", 1],
      ["get_ticket", "done", 2],
      ["assign_ticket", "done", 3],
      ["close_ticket", "done", 4],
    ]);
    expect(text).toMatch(/^Task ticket-fix-printer: solved\./);
  });

  it("a partial trace lists the missing calls (IAC) without giving away their arguments", async () => {
    await lookups();
    const { verdict: v, text } = await verdict();
    expect(v.solved).toBe(false);
    expect(v.golden?.missing).toBe(2);
    expect(v.progress).toEqual({ done: 2, total: 4 });
    expect(text).toContain("Still to do: 2 more calls (assign_ticket, close_ticket)");
    expect(text).not.toContain("A-11");
    expect(JSON.stringify(v)).not.toContain("A-11");
  });

  it("a wrong argument is IAV on that step; restoring and redoing it right solves the task", async () => {
    await lookups();
    desk.checkpoint(session, "before-assign");
    await call("assign_ticket", { ticket_id: "T-001", agent_id: "A-02", priority: 3 });
    await close();
    const wrong = await verdict();
    expect(wrong.verdict.solved).toBe(false);
    expect(wrong.verdict.golden?.wrongArguments).toBe(1);
    const step = wrong.verdict.golden?.steps[2];
    expect(step).toMatchObject({ tool: "assign_ticket", status: "wrong-arguments", seq: 3 });
    expect(step?.differences).toEqual([{ argument: "agent_id", kind: "wrong", severity: "error" }]);
    expect(wrong.text).toContain("Wrong arguments in assign_ticket (call #3): agent_id has the wrong value.");
    expect(wrong.text).not.toContain("A-11");

    const restored = await desk.restore(session, "before-assign");
    expect(restored.ok).toBe(true);
    await assign();
    await close();
    const fixed = await verdict();
    expect(fixed.verdict.solved).toBe(true);
    expect(fixed.verdict.calls).toMatchObject({ total: 6, attempt: 4 });
    expect(fixed.verdict.golden?.steps.map((s) => s.seq)).toEqual([1, 2, 5, 6]);
  });

  it("calls of one parallel group may come in any order", async () => {
    await call("get_ticket", { ticket_id: "T-001" });
    await call("list_tickets", { status: "open" });
    await assign();
    await close();
    const { verdict: v } = await verdict();
    expect(v.solved).toBe(true);
    expect(v.golden?.outOfOrder).toBe(0);
  });

  it("steps out of the solution's order are flagged and the task is not solved", async () => {
    await lookups();
    await close();
    await assign();
    const { verdict: v, text } = await verdict();
    expect(v.solved).toBe(false);
    expect(v.golden?.outOfOrder).toBe(1);
    expect(v.golden?.missing).toBe(0);
    expect(text).toContain("came in the wrong order");
  });

  it("an extra read is reported but harmless; an extra write makes the trace unsolved", async () => {
    await lookups();
    await call("get_ticket", { ticket_id: "T-003" });
    await assign();
    await close();
    const reads = await verdict();
    expect(reads.verdict.solved).toBe(true);
    expect(reads.verdict.golden?.extra).toEqual([{ seq: 3, tool: "get_ticket", status: "ok", write: false }]);

    await call("close_ticket", { ticket_id: "T-002", resolution: "duplicate" });
    const writes = await verdict();
    expect(writes.verdict.solved).toBe(false);
    expect(writes.verdict.golden?.extra.at(-1)).toEqual({
      seq: 6,
      tool: "close_ticket",
      status: "ok",
      write: true,
    });
    expect(writes.text).toContain("Not part of the task and possibly harmful: close_ticket (call #6)");
  });

  it("an optional argument the solution does not pass is a deviation; a differently worded note is not", async () => {
    await call("list_tickets", { status: "open", limit: 10 });
    await call("get_ticket", { ticket_id: "T-001" });
    await assign();
    await close("Reinstalled the print driver for you.");
    const { verdict: v, text } = await verdict();
    expect(v.solved).toBe(false);
    expect(v.golden?.steps[0]).toMatchObject({
      status: "wrong-arguments",
      differences: [{ argument: "limit", kind: "unexpected", severity: "error" }],
    });
    expect(v.golden?.steps[3]?.status).toBe("done");
    expect(text).toContain("limit should not be passed");
  });

  it("rejected calls never match a step; a failed call is reported as failed", async () => {
    await lookups();
    await call("assign_ticket", { ticket_id: "T-001" });
    await call("close_ticket", {
      ticket_id: "T-003",
      resolution: "fixed",
      note: "Closing the printer ticket now.",
    });
    const { verdict: v, text } = await verdict();
    expect(v.calls.rejected).toBe(1);
    expect(v.golden?.steps[2]?.status).toBe("missing");
    expect(v.golden?.steps[3]).toMatchObject({ status: "failed", seq: 4 });
    expect(text).toContain("1 call was rejected by validation");
    expect(text).toContain("close_ticket (call #4) answered an error");
  });

  it("saying a feasible task cannot be done leaves it unsolved", async () => {
    await lookups();
    const { verdict: v, text } = await verdict({ answer: "This cannot be done.", infeasible: true });
    expect(v.solved).toBe(false);
    expect(v.infeasibleDeclared).toBe(true);
    expect(text).toContain("You said the task cannot be done as asked, but it can.");
  });
});

describe("invalid tasks", () => {
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  let desk: TaskDesk;
  let session: string;
  const judge = async (input: { answer?: string; infeasible?: boolean } = {}): Promise<TaskVerdict> => {
    const result = await desk.feedback(session, input);
    if (!result.ok) throw new Error(result.error);
    return result.value.verdict;
  };

  beforeEach(async () => {
    runtime = await openRuntime([TICKETS, STOCK]);
    desk = new TaskDesk({ engine: runtime.engine, store: runtime.store });
    session = (await runtime.engine.openSession({})).id;
    await desk.start(session, "ticket-delete-vpn");
  });
  afterEach(() => runtime.dispose());

  it("is solved when the agent looks, does not attempt the impossible part, and says so", async () => {
    await runtime.engine.call(session, "get_ticket", { ticket_id: "T-002" });
    expect((await judge()).solved).toBe(false);
    const v = await judge({ answer: "Tickets cannot be deleted; I can close it instead.", infeasible: true });
    expect(v.solved).toBe(true);
    expect(v.valid).toBe(false);
    expect(v.answer).toContain("cannot be deleted");
    // a later feedback request without an answer still judges with the answer given in this attempt
    expect((await judge()).solved).toBe(true);
  });

  it("is not solved when the agent changes things the task cannot ask for, even if it then says so", async () => {
    await runtime.engine.call(session, "get_ticket", { ticket_id: "T-002" });
    await runtime.engine.call(session, "close_ticket", { ticket_id: "T-002", resolution: "wont_fix" });
    const v = await judge({ answer: "I closed it; deleting is not possible.", infeasible: true });
    expect(v.solved).toBe(false);
    expect(v.golden?.attemptedWrites).toBe(1);
  });

  it("a reset starts a new attempt: earlier calls and answers no longer count", async () => {
    await runtime.engine.call(session, "close_ticket", { ticket_id: "T-002", resolution: "wont_fix" });
    await judge({ answer: "Done.", infeasible: false });
    const reset = await desk.reset(session);
    expect(reset.ok).toBe(true);
    const after = await judge();
    expect(after.calls).toMatchObject({ total: 1, attempt: 0 });
    expect(after.answer).toBeUndefined();
    expect((await runtime.engine.state(session)).state.toJSON()).toEqual(
      runtime.catalog.task("ticket-delete-vpn")?.task.state,
    );
  });
});

describe("free text judged by the model when one is configured", () => {
  let fake: FakeOpenAI;
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  let desk: TaskDesk;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    runtime = await openRuntime([TICKETS, STOCK]);
    const client = new LlmClient(
      { baseURL: fake.url, models: { simulate: "fake-model" }, maxRetries: 0 },
      { cache: runtime.store },
    );
    desk = new TaskDesk({
      engine: runtime.engine,
      store: runtime.store,
      checklistJudge: new LlmChecklistJudge(client),
    });
  });
  afterAll(async () => {
    await fake.close();
    await runtime.dispose();
  });

  const attempt = async (note: string) => {
    const session = (await runtime.engine.openSession({})).id;
    await desk.start(session, "ticket-fix-printer");
    await runtime.engine.call(session, "list_tickets", { status: "open" });
    await runtime.engine.call(session, "get_ticket", { ticket_id: "T-001" });
    await runtime.engine.call(session, "assign_ticket", {
      ticket_id: "T-001",
      agent_id: "A-11",
      priority: 3,
    });
    await runtime.engine.call(session, "close_ticket", { ticket_id: "T-001", resolution: "fixed", note });
    const result = await desk.feedback(session);
    if (!result.ok) throw new Error(result.error);
    return result.value.verdict;
  };
  const lastPrompt = () => fake.requests.at(-1)?.messages.find((m) => m.role === "user")?.content ?? "";

  it("a paraphrase word overlap misses counts when the model says it means the same", async () => {
    const note = "Swapped out the spooler; jobs come out fine now.";
    expect(sameText("The printer driver was reinstalled and printing works again.", note)).toBe(false);
    fake.script({
      kind: "json",
      value: { items: [{ index: 1, status: "completed", reason: "same fix, other words", calls: [4] }] },
    });
    const verdict = await attempt(note);
    expect(verdict).toMatchObject({ judge: "golden", solved: true, freeText: "model" });
    expect(lastPrompt()).toContain(
      'In call #4 (close_ticket), the free-text argument "note" says in substance',
    );
    expect(lastPrompt()).toContain('"The printer driver was reinstalled and printing works again."');
  });

  it("a note with the same words and the opposite meaning fails when the model says so", async () => {
    const note = "The printer driver was not reinstalled; printing still fails.";
    expect(sameText("The printer driver was reinstalled and printing works again.", note)).toBe(true);
    fake.script({
      kind: "json",
      value: { items: [{ index: 1, status: "failed", reason: "says the opposite", calls: [] }] },
    });
    const verdict = await attempt(note);
    expect(verdict.solved).toBe(false);
    expect(verdict.golden?.steps[3]).toMatchObject({
      status: "wrong-arguments",
      differences: [{ argument: "note", kind: "wrong", severity: "error", freeText: true }],
    });
  });

  it("the solution's own words need no model; a failing model leaves word overlap to decide", async () => {
    const before = fake.chatCount();
    const same = await attempt("The printer driver was reinstalled and printing works again.");
    expect(same).toMatchObject({ solved: true, freeText: "overlap" });
    expect(fake.chatCount()).toBe(before);

    fake.script({ kind: "text", content: "not json at all" });
    const fallback = await attempt("Reinstalled the printer driver, printing works again.");
    expect(fallback).toMatchObject({ solved: true, freeText: "overlap" });
    expect(fallback.unavailable).toMatch(/^the model could not judge free text .*; word overlap decided$/);
  });
});

describe("a task across several toolsets", () => {
  it("sees the tools of every toolset it names, and an unknown one is refused with what to load", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolsim-task-toolsets-"));
    const desk = JSON.parse(readFileSync(TICKETS, "utf8"));
    desk.tasks = [
      { ...desk.tasks[0], id: "ticket-and-stock", toolsets: ["stock_room"] },
      { ...desk.tasks[0], id: "ticket-and-nowhere", toolsets: ["no_such_room"] },
    ];
    writeFileSync(join(dir, "desk.json"), JSON.stringify(desk));
    const runtime = await openRuntime([join(dir, "desk.json"), STOCK]);
    try {
      const planned = planTaskStart(runtime.catalog, "ticket-and-stock", 1);
      if (!planned.ok) throw new Error(planned.error);
      expect(planned.start.tools).toEqual(expect.arrayContaining(["get_ticket", "weigh_crate"]));
      expect(planned.start.scope.toolsets).toEqual(["ticket_desk", "stock_room"]);
      // distractors come from neither of the task's own toolsets
      expect(planned.start.distractors).toEqual([]);
      const refused = planTaskStart(runtime.catalog, "ticket-and-nowhere");
      expect(refused).toEqual({ ok: false, error: expect.stringContaining('"no_such_room"') });
    } finally {
      await runtime.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
