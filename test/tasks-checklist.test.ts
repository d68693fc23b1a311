import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlmClient } from "../src/llm/index.js";
import { exportOpenAi, feedbackText, judgeSession, LlmChecklistJudge, TaskDesk } from "../src/tasks/index.js";
import { type FakeOpenAI, FIXTURES, openRuntime, startFakeOpenAI } from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const STOCK = join(FIXTURES, "tasks", "stock-room.json");

describe("checklist judge", () => {
  let fake: FakeOpenAI;
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  let plainDesk: TaskDesk;
  let judge: LlmChecklistJudge;
  let desk: TaskDesk;

  beforeAll(async () => {
    runtime = await openRuntime([TICKETS, STOCK]);
    plainDesk = new TaskDesk({ engine: runtime.engine, store: runtime.store });
    fake = await startFakeOpenAI();
    const client = new LlmClient(
      { baseURL: fake.url, models: { simulate: "fake-model" }, maxRetries: 0 },
      { cache: runtime.store },
    );
    judge = new LlmChecklistJudge(client);
    desk = new TaskDesk({ engine: runtime.engine, store: runtime.store, checklistJudge: judge });
  });
  afterAll(async () => {
    await fake.close();
    await runtime.dispose();
  });

  it("without a model, a task with no solution gets a partial verdict, not a failure", async () => {
    const session = (await runtime.engine.openSession({})).id;
    await plainDesk.start(session, "ticket-reassign-vpn");
    await runtime.engine.call(session, "assign_ticket", { ticket_id: "T-002", agent_id: "A-02" });
    const result = await plainDesk.feedback(session);
    if (!result.ok) throw new Error(result.error);
    expect(result.value.verdict).toMatchObject({
      judge: "none",
      solved: null,
      progress: { done: 0, total: 2 },
    });
    expect(result.value.text).toContain("Task ticket-reassign-vpn: not judged.");
    expect(result.value.text).toContain("Completion is unknown");
    expect(fake.chatCount()).toBe(0);
  });

  it("judges each authored item against the calls and the final state, and rewards the calls that did it", async () => {
    const session = (await runtime.engine.openSession({})).id;
    await desk.start(session, "ticket-reassign-vpn");
    await runtime.engine.call(session, "get_ticket", { ticket_id: "T-002" });
    await runtime.engine.call(session, "assign_ticket", { ticket_id: "T-002", agent_id: "A-02" });
    fake.script({
      kind: "json",
      value: {
        items: [
          { index: 1, status: "completed", reason: "call #2 set the assignee to A-02", calls: [2] },
          { index: 2, status: "completed", reason: "the ticket's status is still open", calls: [] },
        ],
      },
    });
    const requestsBefore = fake.chatCount();
    const result = await desk.feedback(session, { answer: "Noor has the VPN ticket now." });
    if (!result.ok) throw new Error(result.error);
    expect(fake.chatCount()).toBe(requestsBefore + 1);
    const { verdict, text } = result.value;
    expect(verdict).toMatchObject({ judge: "checklist", solved: true, progress: { done: 2, total: 2 } });
    expect(verdict.checklist?.source).toBe("authored");
    expect(text).toContain(
      "- [completed] Ticket T-002 is assigned to A-02. — call #2 set the assignee to A-02",
    );

    const prompt = fake.requests.at(-1)?.messages.find((m) => m.role === "user")?.content ?? "";
    expect(prompt).toContain("1. Ticket T-002 is assigned to A-02.");
    expect(prompt).toContain('#2 assign_ticket({"ticket_id":"T-002","agent_id":"A-02"}) → OK');
    expect(prompt).toContain("replace /tickets/T-002/assignee");
    expect(prompt).toContain("Noor has the VPN ticket now.");

    const session_ = await runtime.store.session(session, "");
    if (!session_) throw new Error("no session");
    const exported = await exportOpenAi(
      { catalog: runtime.catalog, store: runtime.store, checklistJudge: judge },
      session_,
      await runtime.engine.tools(session),
    );
    if (!exported.ok) throw new Error(exported.error);
    // the same prompt again: the cached answer is replayed, no second request
    expect(fake.chatCount()).toBe(requestsBefore + 1);
    expect(exported.example.rewards.map((r) => r.reward)).toEqual([0, 1]);
  });

  it("writes a checklist once for a task that has none, then reuses it from the cache", async () => {
    const task = { ...(runtime.catalog.task("ticket-reassign-vpn")?.task ?? fail()), checklist: [] };
    fake.script({
      kind: "json",
      value: { items: ["T-002 is assigned to Noor (A-02).", "T-002 stays open."] },
    });
    const first = await judge.checklist(task);
    expect(first).toMatchObject({
      generated: true,
      items: ["T-002 is assigned to Noor (A-02).", "T-002 stays open."],
    });
    const before = fake.chatCount();
    const second = await judge.checklist(task);
    expect(second.items).toEqual(first.items);
    expect(fake.chatCount()).toBe(before);
  });

  it("an invalid task is solved when the agent declines the impossible part and says so", async () => {
    const session = (await runtime.engine.openSession({})).id;
    await desk.start(session, "ticket-delete-vpn");
    await runtime.engine.call(session, "get_ticket", { ticket_id: "T-002" });
    fake.script({
      kind: "json",
      value: {
        items: [
          { index: 1, status: "rejected", reason: "the agent said tickets cannot be deleted", calls: [] },
          { index: 2, status: "completed", reason: "T-002 is unchanged", calls: [] },
        ],
      },
    });
    const result = await desk.feedback(session, {
      answer: "Tickets cannot be deleted; I can close it if you like.",
      infeasible: true,
      mode: "checklist",
    });
    if (!result.ok) throw new Error(result.error);
    expect(result.value.verdict).toMatchObject({ judge: "checklist", solved: true, valid: false });
    const prompt = fake.requests.at(-1)?.messages.find((m) => m.role === "user")?.content ?? "";
    expect(prompt).toContain("This request cannot be fully done: No tool deletes tickets");
    expect(prompt).toContain("(The agent declared that the task cannot be done as asked.)");
  });

  it("a judge that fails gives an unknown verdict with the reason", async () => {
    const session = (await runtime.engine.openSession({})).id;
    await desk.start(session, "ticket-reassign-vpn");
    await runtime.engine.call(session, "list_tickets", {});
    fake.script({ kind: "text", content: "not json at all" });
    const record = await runtime.store.session(session, "");
    if (!record) throw new Error("no session");
    const judged = await judgeSession(
      { catalog: runtime.catalog, store: runtime.store, checklistJudge: judge },
      record,
    );
    if (!judged.ok) throw new Error(judged.error);
    expect(judged.verdict).toMatchObject({ judge: "none", solved: null });
    expect(judged.verdict.unavailable).toMatch(/^the checklist judge failed: /);
    expect(feedbackText(judged.verdict)).toContain("Completion is unknown: the checklist judge failed");
  });
});

function fail(): never {
  throw new Error("fixture task missing");
}
