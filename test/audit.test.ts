import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintPaths } from "../src/commands/lint.js";
import { type FakeOpenAI, type RecordedRequest, runCli, startFakeOpenAI, tempDir } from "./support/index.js";

const dir = tempDir();
let fake: FakeOpenAI;
/** No endpoint from the developer's environment leaks into the runs. */
const NO_LLM = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", TOOLSIM_ENGINE: "", TOOLSIM_MODEL: "" };

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: judgeAnswer });
});
afterAll(async () => {
  await fake.close();
  dir.cleanup();
});

/** The judge finds answers about parcels that are not in the state implausible, the rest fine. */
function judgeAnswer(request: RecordedRequest) {
  if (request.responseFormat?.json_schema?.name !== "audit_plausibility")
    return { kind: "status" as const, status: 500, message: "only the judge is scripted here" };
  const user = request.messages.find((m) => m.role === "user")?.content ?? "";
  const lookup = user.includes('"name": "peek_parcel"');
  return {
    kind: "json" as const,
    value: lookup
      ? { plausible: false, reasons: ["it describes a parcel the state does not have"] }
      : { plausible: true, reasons: [] },
  };
}

const parcelFields = {
  parcel_id: { type: "string", pattern: "^P-[0-9]{3}$", description: "Parcel id, P-###." },
};
const parcelOutput = {
  type: "object",
  properties: {
    parcel: {
      type: "object",
      properties: {
        parcel_id: { type: "string" },
        status: { type: "string" },
        shelf: { type: "string" },
      },
      required: ["parcel_id", "status"],
    },
  },
  required: ["parcel"],
};
const notFound = {
  code: "PARCEL_NOT_FOUND",
  status: 404,
  message: "No parcel {parcel_id}.",
  when: "the id is unknown",
};
const state = {
  parcels: {
    "P-001": { parcel_id: "P-001", status: "waiting", shelf: "A1" },
    "P-002": { parcel_id: "P-002", status: "collected", shelf: "B4" },
  },
  runtime: { now: "2026-03-02T09:00:00Z" },
};

/**
 * A parcel locker desk: two tools backed by effects and one loose tool with neither effects nor a
 * closed schema. The runs below pass --no-infer so the loose tool stays loose.
 */
function fixture(): string {
  const file = join(dir.path, "parcel_desk.json");
  writeFileSync(
    file,
    JSON.stringify({
      id: "parcel_desk",
      field: "Logistics",
      subdomain: "Parcel lockers",
      description: "Parcels wait on shelves until they are collected.",
      state,
      tools: [
        {
          name: "get_parcel",
          description: "Fetch one parcel by id.",
          inputSchema: {
            type: "object",
            properties: parcelFields,
            required: ["parcel_id"],
            additionalProperties: false,
          },
          outputSchema: parcelOutput,
          errors: [notFound],
          annotations: { readOnlyHint: true },
          effects: [
            { kind: "read", target: "parcels/{parcel_id}", missing: "PARCEL_NOT_FOUND", output: "parcel" },
          ],
        },
        {
          name: "collect_parcel",
          description: "Hand a waiting parcel to its recipient.",
          inputSchema: {
            type: "object",
            properties: parcelFields,
            required: ["parcel_id"],
            additionalProperties: false,
          },
          outputSchema: parcelOutput,
          errors: [
            notFound,
            {
              code: "ALREADY_COLLECTED",
              status: 409,
              message: "Parcel {parcel_id} is gone.",
              when: "it was collected",
            },
          ],
          effects: [
            {
              kind: "update",
              target: "parcels/{parcel_id}",
              missing: "PARCEL_NOT_FOUND",
              require: [{ field: "status", equals: "waiting", error: "ALREADY_COLLECTED" }],
              set: { status: "collected" },
              output: "parcel",
            },
          ],
        },
        {
          name: "peek_parcel",
          description: "Look at a parcel's label.",
          inputSchema: { type: "object", properties: parcelFields, required: ["parcel_id"] },
          errors: [notFound],
        },
      ],
      tasks: [
        {
          id: "peek-first",
          description: "Read the label of parcel P-001.",
          difficulty: "simple",
          state,
          solution: [{ tool: "peek_parcel", arguments: { parcel_id: "P-001" } }],
        },
      ],
    }),
  );
  return file;
}

interface ToolRow {
  tool: string;
  passed: number;
  failed: number;
  notJudged: number;
  reliability: number | null;
  modes: Record<string, { passed: number; failed: number; notJudged: number }>;
  cases: Array<{ mode: string; label: string; verdict: string; decidedBy: string; reasons: string[] }>;
}

function toolOf(report: { tools: ToolRow[] }, name: string): ToolRow {
  const row = report.tools.find((t) => t.tool === name);
  if (!row) throw new Error(`no audit row for ${name}`);
  return row;
}

describe("toolsim audit", () => {
  it("without a judge: modes 1, 2 and 4 are checked automatically, new-input answers are not judged", async () => {
    const run = await runCli(["audit", "--toolsets", fixture(), "--no-infer", "--json"], NO_LLM);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ simulator: "offline", judge: false, perMode: 3 });

    const get = toolOf(report, "get_parcel");
    expect(get.failed).toBe(0);
    expect(get.reliability).toBe(1);
    expect(get.modes["schema-failure"]).toEqual({ passed: 3, failed: 0, notJudged: 0 });
    expect(get.modes["constraint-failure"]).toEqual({ passed: 1, failed: 0, notJudged: 0 });
    expect(get.modes["new-input"]).toEqual({ passed: 0, failed: 0, notJudged: 3 });
    // both parcels exist, so both are looked up
    expect(get.modes["known-input"]).toEqual({ passed: 2, failed: 0, notJudged: 0 });

    // the guard case needs a state where a parcel has been collected: the audit makes one
    const collect = toolOf(report, "collect_parcel");
    expect(collect.reliability).toBe(1);
    expect(collect.cases.map((c) => c.label)).toEqual(
      expect.arrayContaining([
        '"parcel_id" names no parcels entity',
        'parcels P-001 breaks the guard on "status"',
      ]),
    );

    // no effects, an open schema, no output schema: unknown arguments get through and a missing parcel is
    // answered as found (a parcel that exists is shown: the entity its argument names is the answer)
    const peek = toolOf(report, "peek_parcel");
    const failures = peek.cases.filter((c) => c.verdict === "fail");
    expect([...new Set(failures.map((c) => c.mode))].sort()).toEqual([
      "constraint-failure",
      "schema-failure",
    ]);
    expect(peek.modes["known-input"]?.failed).toBe(0);
    expect(failures.find((c) => c.mode === "schema-failure")?.reasons[0]).toContain(
      "expected a IAN rejection",
    );
    expect(peek.reliability).toBeLessThan(0.8);
    expect(fake.chatCount()).toBe(0);
  });

  it("prints a table with reliability per tool and the failed checks", async () => {
    const run = await runCli(["audit", "--toolsets", fixture(), "--no-infer", "--per-mode", "1"], NO_LLM);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^tool\s+reliability\s+pass\s+fail/m);
    expect(run.stdout).toMatch(/parcel_desk\/get_parcel\s+100%/);
    expect(run.stdout).toContain("failed checks:");
    expect(run.stdout).toContain("peek_parcel [constraint-failure]");
    expect(run.stdout).toContain("expected the documented error for a missing entity");
    expect(run.stderr).toContain("audit 3/3 parcel_desk/peek_parcel");
  });

  it("with a judge: new-input answers are judged by the model and count", async () => {
    const before = fake.chatCount();
    const run = await runCli(
      [
        "audit",
        "--toolsets",
        fixture(),
        "--engine",
        "offline",
        "--llm-base-url",
        fake.url,
        "--model",
        "judge-model",
        "--json",
      ],
      { ...NO_LLM, OPENAI_BASE_URL: "" },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.judge).toBe(true);
    const judged = fake.requests.slice(before).filter((r) => r.path === "/v1/chat/completions");
    // one judgement per new-input case (three), for each of the three tools
    expect(judged).toHaveLength(9);
    expect(judged.every((r) => r.model === "judge-model")).toBe(true);
    expect(toolOf(report, "get_parcel").modes["new-input"]).toEqual({ passed: 3, failed: 0, notJudged: 0 });
    const peek = toolOf(report, "peek_parcel");
    expect(peek.modes["new-input"]).toEqual({ passed: 0, failed: 3, notJudged: 0 });
    expect(peek.cases.find((c) => c.mode === "new-input")).toMatchObject({
      decidedBy: "judge",
      reasons: ["it describes a parcel the state does not have"],
    });
    expect(report.usage.requests).toBe(9);
  });

  it("--drop-below writes the toolsets without unreliable tools (and their tasks), and they still lint", async () => {
    const out = join(dir.path, "filtered");
    const run = await runCli(
      ["audit", "--toolsets", fixture(), "--no-infer", "--drop-below", "0.8", "--out", out],
      NO_LLM,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/dropped parcel_desk\/peek_parcel: reliability \d+% is below 80%/);
    expect(run.stdout).toContain("dropped task parcel_desk/peek-first: its solution calls peek_parcel");
    const written = JSON.parse(readFileSync(join(out, "parcel_desk.json"), "utf8"));
    expect(written.tools.map((t: { name: string }) => t.name)).toEqual(["get_parcel", "collect_parcel"]);
    expect(written.tasks).toEqual([]);
    const audit = JSON.parse(readFileSync(join(out, "audit.json"), "utf8"));
    expect(audit.tools).toHaveLength(3);
    const problems = await lintPaths([join(out, "parcel_desk.json")]);
    expect(problems.filter((p) => p.severity === "error")).toEqual([]);
  });

  it("misuse is a usage error", async () => {
    const noOut = await runCli(["audit", "--toolsets", fixture(), "--drop-below", "0.5"], NO_LLM);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain("--out DIR");
    const badTool = await runCli(["audit", "--toolsets", fixture(), "--tool", "nope"], NO_LLM);
    expect(badTool.code).toBe(2);
    expect(badTool.stderr).toContain("unknown tool(s): nope");
  });
});
