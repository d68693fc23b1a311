import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { McpConnection, type Reply } from "../eval/mcp-client.js";
import { compareRuns, MCP_SERVER_KINDS, normalizedText, sameAnswer } from "../eval/mcp-servers.js";
import { reportOf, runFresh } from "../eval/self-consistency.js";
import { plansFor, type SequenceRun, type World } from "../eval/sequences.js";
import { profileTools } from "../eval/tool-roles.js";
import { MEMORY_SERVER } from "./fixtures/hybrid/helpers.js";

/** How answers of a real server and of toolsim are compared, and the sequences run on a real server as a control. */

function reply(value: unknown, isError = false): Reply {
  return {
    isError,
    text: typeof value === "string" ? value : JSON.stringify(value),
    value,
    structured: value,
  };
}

describe("comparing a real answer with toolsim's", () => {
  it("structured answers agree on equal leaves only, in any key order", () => {
    const real = reply({
      entities: [{ name: "Ann", entityType: "person", observations: ["a"] }],
      relations: [],
    });
    expect(
      sameAnswer(
        real,
        reply({ relations: [], entities: [{ observations: ["a"], entityType: "person", name: "Ann" }] }),
      ),
    ).toBe(true);
    expect(
      sameAnswer(
        real,
        reply({ entities: [{ name: "Ann", entityType: "robot", observations: ["a"] }], relations: [] }),
      ),
    ).toBe(false);
    expect(
      sameAnswer(
        real,
        reply({
          entities: [{ name: "Ann", entityType: "person", observations: ["a"] }],
          relations: [],
          extra: 1,
        }),
      ),
    ).toBe(false);
  });

  it("errors agree with errors whatever their wording; an error never agrees with a success", () => {
    expect(
      sameAnswer(reply("ENOENT: no such file", true), reply({ error: { code: "NOT_FOUND" } }, true)),
    ).toBe(true);
    expect(sameAnswer(reply("ENOENT: no such file", true), reply({ content: "hello" }))).toBe(false);
  });

  it("text answers compare as text, with the times a simulation cannot know masked", () => {
    const info = (created: string) => reply({ content: `size: 13\ncreated: ${created}\nisFile: true` });
    expect(
      sameAnswer(
        info("Wed Nov 25 2026 17:45:01 GMT+0000 (Coordinated Universal Time)"),
        info("2026-03-02T09:00:00Z"),
      ),
    ).toBe(true);
    expect(sameAnswer(reply({ content: "[FILE] a.txt" }), reply({ content: "[FILE] b.txt" }))).toBe(false);
    expect(normalizedText(" a\r\nb ")).toBe("a\nb");
  });

  it("counts call by call, and steps one side made alone", () => {
    const step = (tool: string, value: unknown) => ({ tool, args: {}, reply: reply(value) });
    const run = (steps: SequenceRun["steps"]): SequenceRun => ({
      kind: "create-read",
      label: "x",
      steps,
      checks: [],
    });
    const result = compareRuns(
      [run([step("create", { id: 1 }), step("read", { id: 1, name: "a" })])],
      [run([step("create", { id: 1 })])],
    );
    expect(result).toMatchObject({
      compared: 1,
      agreed: 1,
      unmatched: 1,
      byTool: { create: { compared: 1, agreed: 1 } },
    });
  });
});

describe("the sequences on the real memory server (the measuring stick's control)", () => {
  const work = mkdtempSync(join(tmpdir(), "toolsim-eval-memory-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("finds no contradiction in the real implementation", async () => {
    const server = (n: number) => ({
      command: MEMORY_SERVER,
      args: [],
      env: { MEMORY_FILE_PATH: join(work, `memory-${n}.jsonl`) },
    });
    const probe = await McpConnection.open(server(0));
    const profiles = profileTools(await probe.tools());
    await probe.close();
    const world: World = { profiles };
    const plans = plansFor(world, MCP_SERVER_KINDS);
    const runs: SequenceRun[] = [];
    for (const [i, plan] of plans.entries())
      runs.push(await runFresh(plan, world, i + 1, () => McpConnection.open(server(i + 1))));
    const report = reportOf("server-memory", profiles, plans, runs);
    expect(report.total.contradicted, JSON.stringify(report.contradictions, null, 1)).toBe(0);
    expect(report.contradictions["unreadable-id"].checked).toBeGreaterThan(0);
    expect(report.contradictions["list-misses-create"].checked).toBeGreaterThan(0);
    expect(report.contradictions["delete-still-reads"].checked).toBeGreaterThan(0);
    expect(report.contradictions["outside-output-schema"].checked).toBeGreaterThan(0);
  }, 120_000);
});
