import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, FIXTURES, tempDir } from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");

interface Result {
  isError?: boolean;
  content?: unknown;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

const textOf = (result: Result) =>
  ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

describe("control tools answer bad calls like any tool, under their prefix (stdio)", () => {
  const dir = tempDir();
  let client: Client;
  const call = async (name: string, args: unknown) =>
    (await client.callTool({ name, arguments: args as Record<string, unknown> })) as Result;

  beforeAll(async () => {
    ({ client } = await connectStdio([
      "--toolsets",
      TICKETS,
      "--db",
      join(dir.path, "c.db"),
      "--control-prefix",
      "ctl_",
    ]));
  });
  afterAll(async () => {
    await client.close();
    dir.cleanup();
  });

  it("a missing argument gets a ToolScan finding, the fix and the parameters", async () => {
    const result = await call("ctl_start_task", {});
    expect(result.isError).toBe(true);
    expect(result._meta?.["toolsim/findings"]).toEqual([
      {
        code: "IAV",
        argument: "task_id",
        message: 'Missing required argument "task_id" (string; Id of a task, from ctl_list_tasks).',
      },
    ]);
    expect(textOf(result)).toContain("The call to ctl_start_task was rejected and nothing was executed.");
    expect(textOf(result)).toContain("Parameters of ctl_start_task:");
  });

  it("every problem at once: a wrong value and an unknown argument", async () => {
    const result = await call("ctl_start_task", {
      task_id: "ticket-fix-printer",
      distractors: -1,
      distractor: 2,
    });
    const findings = result._meta?.["toolsim/findings"] as Array<{ code: string; argument?: string }>;
    expect(findings.map((f) => `${f.code} ${f.argument}`).sort()).toEqual([
      "IAN distractor",
      "IAV distractors",
    ]);
    expect(textOf(result)).toContain('Did you mean "distractors"?');
  });

  it("null for an optional argument is taken as not given", async () => {
    const result = await call("ctl_start_task", { task_id: "ticket-fix-printer", distractors: null });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ taskId: "ticket-fix-printer", distractors: [] });
  });

  it("an unknown name suggests the control tools too", async () => {
    const result = await call("ctl_task_feedbak", {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Did you mean "ctl_task_feedback"');
  });

  it("descriptions and answers name the control tools by their prefix", async () => {
    const { tools } = await client.listTools();
    const checkpoint = tools.find((t) => t.name === "ctl_checkpoint");
    expect(checkpoint?.description).toContain("ctl_restore can return to it");
    const texts = JSON.stringify(tools.filter((t) => t.name.startsWith("ctl_")));
    expect(texts).not.toMatch(/\bsim_|from list_tasks|sim restore/);
    // a fresh session is on no task: the answer says which tool starts one
    const fresh = await connectStdio([
      "--toolsets",
      TICKETS,
      "--db",
      join(dir.path, "c.db"),
      "--control-prefix",
      "ctl_",
    ]);
    try {
      const feedback = (await fresh.client.callTool({ name: "ctl_task_feedback", arguments: {} })) as Result;
      expect(feedback.isError).toBe(true);
      expect(textOf(feedback)).toContain("start one first (ctl_start_task or serve --task)");
    } finally {
      await fresh.client.close();
    }
  });
});
