import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/index.js";
import {
  connectHttp,
  connectStdio,
  FIXTURES,
  type RunningServer,
  runCli,
  startHttpServer,
  tempDir,
} from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const STOCK = join(FIXTURES, "tasks", "stock-room.json");
const CATALOG = ["--toolsets", TICKETS, "--toolsets", STOCK];
const CONTROL = [
  "sim_list_tasks",
  "sim_start_task",
  "sim_task_feedback",
  "sim_checkpoint",
  "sim_restore",
  "sim_reset",
  "sim_get_state",
];

interface Result {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: unknown;
}

function textOf(result: Result): string {
  return ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}

describe("control tools over stdio (real SDK client, spawned CLI)", () => {
  const dir = tempDir();
  const db = join(dir.path, "toolsim.db");
  let client: Client;
  let listChanged = 0;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;
  const state = async () => (await call("sim_get_state")).structuredContent?.value;

  beforeAll(async () => {
    ({ client } = await connectStdio([...CATALOG, "--db", db, "--session", "ctl"]));
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      listChanged++;
    });
  });
  afterAll(async () => {
    await client.close();
    dir.cleanup();
  });

  it("lists the control tools ahead of the catalog, with input and output schemas", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 7)).toEqual(CONTROL);
    expect(names).toContain("close_purchase_order");
    const start = tools.find((t) => t.name === "sim_start_task");
    expect(start?.inputSchema).toMatchObject({ required: ["task_id"] });
    expect(start?.outputSchema).toMatchObject({ type: "object" });
  });

  it("lists the catalog's tasks without saying which ones are impossible", async () => {
    const result = await call("sim_list_tasks");
    const tasks = result.structuredContent?.tasks as Array<Record<string, unknown>>;
    expect(tasks.map((t) => t.id)).toEqual([
      "ticket-fix-printer",
      "ticket-delete-vpn",
      "ticket-reassign-vpn",
    ]);
    expect(tasks[2]).toMatchObject({ toolset: "ticket_desk", judging: "checklist" });
    expect(JSON.stringify(tasks)).not.toContain("valid");
  });

  it("an unknown task id is an isError result naming the tasks there are", async () => {
    const result = await call("sim_start_task", { task_id: "ticket-fix-printr" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Did you mean "ticket-fix-printer"');
    expect(textOf(result)).toContain("Tasks: ticket-fix-printer, ticket-delete-vpn, ticket-reassign-vpn");
  });

  it("starting a task sets its state and scopes the tools (with distractors), and says the list changed", async () => {
    const result = await call("sim_start_task", { task_id: "ticket-fix-printer", distractors: 2 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      taskId: "ticket-fix-printer",
      distractors: ["list_purchase_orders", "close_purchase_order"],
    });
    await until(() => listChanged > 0);
    expect(listChanged).toBeGreaterThan(0);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        ...CONTROL,
        "list_tickets",
        "get_ticket",
        "assign_ticket",
        "close_ticket",
        "list_purchase_orders",
        "close_purchase_order",
      ].sort(),
    );
    const tickets = (await state()) as { tickets: Record<string, unknown> };
    expect(Object.keys(tickets.tickets)).toEqual(["T-001", "T-002", "T-003"]);
  });

  it("restores a checkpoint exactly, keeps every call in the log, and forks and restores from the CLI", async () => {
    await call("list_tickets", { status: "open" });
    await call("get_ticket", { ticket_id: "T-001" });
    const checkpoint = await call("sim_checkpoint", { name: "cp1" });
    expect(checkpoint.structuredContent).toMatchObject({ name: "cp1" });
    const atCheckpoint = await state();

    const wrong = await call("assign_ticket", { ticket_id: "T-001", agent_id: "A-02" });
    expect(wrong.isError).toBeFalsy();
    await call("close_ticket", { ticket_id: "T-001", resolution: "duplicate" });
    expect(JSON.stringify(await state())).not.toBe(JSON.stringify(atCheckpoint));

    const progress = await call("sim_task_feedback");
    expect(progress.structuredContent?.solved).toBe(false);
    expect(textOf(progress)).toContain("Wrong arguments in assign_ticket (call #3)");
    expect(textOf(progress)).not.toContain("A-11");

    const restored = await call("sim_restore", { name: "cp1" });
    expect(restored.structuredContent).toMatchObject({
      name: "cp1",
      version: checkpoint.structuredContent?.version,
    });
    expect(JSON.stringify(await state())).toBe(JSON.stringify(atCheckpoint));

    const missing = await call("sim_restore", { name: "nope" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("checkpoints: cp1");

    await call("assign_ticket", { ticket_id: "T-001", agent_id: "A-11", priority: 3 });
    await call("close_ticket", {
      ticket_id: "T-001",
      resolution: "fixed",
      note: "Driver reinstalled; printing works again.",
    });
    const done = await call("sim_task_feedback", {
      answer: "Closed T-001 as fixed and assigned it to Mika.",
    });
    expect(done.structuredContent?.solved).toBe(true);
    expect(textOf(done)).toMatch(/^Task ticket-fix-printer: solved\./);

    // the log keeps the undone calls; the store agrees with what the client saw, byte for byte
    const store = await openStore(db);
    try {
      const session = await store.session("ctl", "");
      if (!session) throw new Error("no session ctl");
      expect((await store.calls(session.id)).map((c) => c.tool)).toEqual([
        "list_tickets",
        "get_ticket",
        "assign_ticket",
        "close_ticket",
        "assign_ticket",
        "close_ticket",
      ]);
      const version = Number(checkpoint.structuredContent?.version);
      expect(JSON.stringify((await store.stateAt(session.id, version)).toJSON())).toBe(
        JSON.stringify(atCheckpoint),
      );
    } finally {
      await store.close();
    }

    const forked = await runCli(["fork", "ctl", "--db", db, "--at", "cp1", "--name", "ctl-fork"]);
    expect(forked.code).toBe(0);
    expect(forked.stdout).toContain("into ctl-fork");
    const restoredByCli = await runCli(["restore", "ctl", "cp1", "--db", db]);
    expect(restoredByCli.code).toBe(0);
    const check = await openStore(db);
    try {
      const source = await check.session("ctl", "");
      const fork = await check.session("ctl-fork", "");
      if (!source || !fork) throw new Error("sessions missing");
      expect(fork).toMatchObject({ taskId: "ticket-fix-printer", scope: source.scope });
      expect(JSON.stringify((await check.head(fork.id)).state.toJSON())).toBe(JSON.stringify(atCheckpoint));
      expect(JSON.stringify((await check.head(source.id)).state.toJSON())).toBe(JSON.stringify(atCheckpoint));
    } finally {
      await check.close();
    }
    // the running server picks the restore up at the next call
    expect(JSON.stringify(await state())).toBe(JSON.stringify(atCheckpoint));
  });

  it("reads a part of the state by path, and says what exists when the path is wrong", async () => {
    const ticket = await call("sim_get_state", { path: "tickets.T-002" });
    expect(ticket.structuredContent).toMatchObject({ path: "/tickets/T-002", value: { assignee: "A-07" } });
    const wrong = await call("sim_get_state", { path: "/tickets/T-999" });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain("keys at /tickets: T-001, T-002, T-003");
  });

  it("resets to the task's initial state and keeps the task's tools", async () => {
    const reset = await call("sim_reset");
    expect(reset.structuredContent).toMatchObject({ taskId: "ticket-fix-printer" });
    const ticket = await call("sim_get_state", { path: "/tickets/T-001" });
    expect(ticket.structuredContent?.value).toMatchObject({ status: "open", assignee: null });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(13);
  });

  it("the CLI lists the sessions with their tasks and checkpoints", async () => {
    const listed = await runCli(["sessions", "--db", db, "--json"]);
    expect(listed.code).toBe(0);
    const { sessions } = JSON.parse(listed.stdout) as { sessions: Array<Record<string, unknown>> };
    expect(sessions.map((s) => s.name)).toEqual(["ctl", "ctl-fork"]);
    expect(sessions[0]).toMatchObject({
      task: "ticket-fix-printer",
      calls: 6,
      checkpoints: [{ name: "cp1" }],
    });
    const unknown = await runCli(["restore", "nobody", "cp1", "--db", db]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no session "nobody"');
  });
});

describe("serve --task over HTTP", () => {
  const dir = tempDir();
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    dir.cleanup();
  });

  it("opens every session on the task with its distractors before the first tools/list, control tools hidden", async () => {
    server = await startHttpServer([
      ...CATALOG,
      "--db",
      join(dir.path, "task.db"),
      "--task",
      "ticket-fix-printer",
      "--distractors",
      "2",
      "--no-control-tools",
    ]);
    const client = await connectHttp(server.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        [
          "assign_ticket",
          "close_purchase_order",
          "close_ticket",
          "get_ticket",
          "list_purchase_orders",
          "list_tickets",
        ].sort(),
      );
      const ticket = (await client.callTool({
        name: "get_ticket",
        arguments: { ticket_id: "T-001" },
      })) as Result;
      expect(ticket.structuredContent).toMatchObject({ ticket: { status: "open" } });
      const hidden = (await client.callTool({ name: "sim_task_feedback", arguments: {} })) as Result;
      expect(hidden.isError).toBe(true);
    } finally {
      await client.close();
    }
    const second = await connectHttp(server.url);
    try {
      expect((await second.listTools()).tools).toHaveLength(6);
    } finally {
      await second.close();
    }
  });

  it("takes another control-tool prefix", async () => {
    const { client } = await connectStdio([
      ...CATALOG,
      "--db",
      join(dir.path, "prefix.db"),
      "--task",
      "ticket-delete-vpn",
      "--control-prefix",
      "ctl_",
    ]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("ctl_task_feedback");
      expect(names).not.toContain("sim_task_feedback");
      await client.callTool({ name: "get_ticket", arguments: { ticket_id: "T-002" } });
      const verdict = (await client.callTool({
        name: "ctl_task_feedback",
        arguments: { answer: "Tickets cannot be deleted here.", infeasible: true },
      })) as Result;
      expect(verdict.structuredContent?.solved).toBe(true);
      expect(JSON.stringify(verdict.structuredContent)).not.toContain("valid");
    } finally {
      await client.close();
    }
  });

  it("refuses an unknown --task with the ids there are (exit 2)", async () => {
    const result = await runCli([
      "serve",
      "--stdio",
      ...CATALOG,
      "--db",
      join(dir.path, "x.db"),
      "--task",
      "nope",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown task "nope"');
    expect(result.stderr).toContain("Tasks: ticket-fix-printer, ticket-delete-vpn, ticket-reassign-vpn");
  });
});
