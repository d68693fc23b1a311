import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintPaths } from "../src/commands/lint.js";
import {
  type FakeOpenAI,
  type FakeStep,
  type RecordedRequest,
  runCli,
  startFakeOpenAI,
  tempDir,
} from "./support/index.js";

const dir = tempDir();
const servers: FakeOpenAI[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  dir.cleanup();
});

const NO_LLM = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", TOOLSIM_ENGINE: "", TOOLSIM_MODEL: "" };

const parcelId = { type: "string", pattern: "^P-[0-9]{3}$", description: "Parcel id, P-###." };
const parcelOut = {
  type: "object",
  properties: {
    parcel: {
      type: "object",
      properties: { parcel_id: { type: "string" }, status: { type: "string" } },
      required: ["parcel_id", "status"],
    },
  },
  required: ["parcel"],
};
const sandbox = {
  parcels: {
    "P-001": { parcel_id: "P-001", status: "waiting" },
    "P-002": { parcel_id: "P-002", status: "collected" },
  },
  runtime: { now: "2026-03-02T09:00:00Z" },
};

function toolsetAnswer(errorCode = "PARCEL_NOT_FOUND") {
  return {
    state: sandbox,
    tools: [
      {
        name: "get_parcel",
        description: "Fetch a parcel by id.",
        consumes: ["parcel id"],
        produces: ["parcel record"],
        inputSchema: {
          type: "object",
          properties: { parcel_id: parcelId },
          required: ["parcel_id"],
          additionalProperties: false,
        },
        outputSchema: parcelOut,
        errors: [
          {
            code: "PARCEL_NOT_FOUND",
            status: 404,
            message: "No parcel {parcel_id}.",
            when: "the id is unknown",
          },
        ],
        readOnly: true,
        effects: [{ kind: "read", target: "parcels/{parcel_id}", missing: errorCode, output: "parcel" }],
      },
      {
        name: "collect_parcel",
        description: "Mark a parcel as collected by its recipient.",
        consumes: ["parcel id"],
        produces: ["collected parcel record"],
        inputSchema: {
          type: "object",
          properties: { parcel_id: parcelId },
          required: ["parcel_id"],
          additionalProperties: false,
        },
        outputSchema: parcelOut,
        errors: [
          {
            code: "PARCEL_NOT_FOUND",
            status: 404,
            message: "No parcel {parcel_id}.",
            when: "the id is unknown",
          },
        ],
        effects: [
          {
            kind: "update",
            target: "parcels/{parcel_id}",
            missing: "PARCEL_NOT_FOUND",
            set: { status: "collected" },
            output: "parcel",
          },
        ],
      },
    ],
  };
}

function tasksAnswer(parcel = "P-001") {
  return {
    tasks: [
      {
        id: "collect-first-parcel",
        description: `I'm at the locker to pick up parcel ${parcel}; check it and hand it over.`,
        difficulty: "simple",
        state: sandbox,
        solution: [
          { tool: "get_parcel", arguments: { parcel_id: parcel } },
          { tool: "collect_parcel", arguments: { parcel_id: parcel } },
        ],
        checklist: [`Parcel ${parcel} is collected.`],
      },
    ],
  };
}

function schemaOf(request: RecordedRequest): string {
  return request.responseFormat?.json_schema?.name ?? "";
}

/** A fake model that answers each stage by the schema the request names; `override` can take over a stage. */
async function fakeModel(override?: (request: RecordedRequest, seen: number) => FakeStep | undefined) {
  const seen = new Map<string, number>();
  const fake = await startFakeOpenAI({
    respond: (request) => {
      const stage = schemaOf(request);
      const count = (seen.get(stage) ?? 0) + 1;
      seen.set(stage, count);
      const custom = override?.(request, count);
      if (custom) return custom;
      switch (stage) {
        case "generate_fields":
          return {
            kind: "json",
            value: { fields: [{ name: "Logistics", description: "Moving goods to people." }] },
          };
        case "generate_subdomains":
          return {
            kind: "json",
            value: { subdomains: [{ name: "Parcel lockers", description: "Self-service pickup points." }] },
          };
        case "generate_workflows":
          return {
            kind: "json",
            value: {
              toolsets: [
                {
                  id: "parcel_pickup",
                  name: "Parcel pickup",
                  description: "Look a parcel up, then hand it over.",
                },
              ],
            },
          };
        case "generate_toolset":
          return { kind: "json", value: toolsetAnswer() };
        case "generate_tasks":
          return { kind: "json", value: tasksAnswer() };
        default:
          return { kind: "status", status: 500, message: `unexpected stage ${stage}` };
      }
    },
  });
  servers.push(fake);
  return fake;
}

function generate(fake: FakeOpenAI, out: string, extra: string[] = []) {
  return runCli(
    [
      "generate",
      "--out",
      out,
      "--fields",
      "1",
      "--subdomains",
      "1",
      "--toolsets",
      "1",
      "--tools",
      "2-3",
      "--tasks",
      "1",
      "--llm-base-url",
      fake.url,
      "--model",
      "writer",
      ...extra,
    ],
    NO_LLM,
  );
}

const stagesOf = (fake: FakeOpenAI) =>
  fake.requests.filter((r) => r.path === "/v1/chat/completions").map(schemaOf);

describe("toolsim generate", () => {
  it("runs every stage once, writes a toolset that lints clean, and sums the cost", async () => {
    const fake = await fakeModel();
    const out = join(dir.path, "full");
    const run = await generate(fake, out, ["--price-in", "2", "--price-out", "8"]);
    expect(run.code, run.stderr).toBe(0);
    expect(stagesOf(fake)).toEqual([
      "generate_fields",
      "generate_subdomains",
      "generate_workflows",
      "generate_toolset",
      "generate_tasks",
    ]);
    const file = join(out, "parcel_pickup.json");
    const toolset = JSON.parse(readFileSync(file, "utf8"));
    expect(toolset).toMatchObject({ id: "parcel_pickup", field: "Logistics", subdomain: "Parcel lockers" });
    expect(toolset.tools.map((t: { name: string }) => t.name)).toEqual(["get_parcel", "collect_parcel"]);
    expect(toolset.tools[0].usage).toBe("Consumes: parcel id. Produces: parcel record.");
    expect(toolset.tasks.map((t: { id: string }) => t.id)).toEqual(["collect-first-parcel"]);
    expect((await lintPaths([file])).filter((p) => p.severity === "error")).toEqual([]);

    for (const stage of [
      "fields.json",
      "subdomains/logistics.json",
      "workflows/logistics--parcel-lockers.json",
    ])
      expect(existsSync(join(out, ".toolsim-generate", stage)), stage).toBe(true);
    expect(existsSync(join(out, ".toolsim-generate", "toolsets", "parcel_pickup.json"))).toBe(true);
    expect(existsSync(join(out, ".toolsim-generate", "tasks", "parcel_pickup.json"))).toBe(true);

    expect(run.stdout).toMatch(
      /this run: 5 request\(s\), \d+ prompt \+ \d+ completion tokens, about \$\d+\.\d{4}/,
    );
    const costs = JSON.parse(readFileSync(join(out, ".toolsim-generate", "costs.json"), "utf8"));
    expect(costs.total.requests).toBe(5);
    // stderr is not a terminal here: one progress line per finished item
    expect(run.stderr).toContain("toolsets   1/1 parcel_pickup");
    expect(run.stderr).toContain("tasks      1/1 parcel_pickup");
  });

  it("a resumed run asks nothing for finished stages, and only the missing stage when one is gone", async () => {
    const fake = await fakeModel();
    const out = join(dir.path, "resume");
    expect((await generate(fake, out)).code).toBe(0);
    const first = fake.chatCount();
    expect(first).toBe(5);

    const again = await generate(fake, out);
    expect(again.code, again.stderr).toBe(0);
    expect(fake.chatCount()).toBe(first);
    expect(again.stdout).toContain("5 stage item(s) resumed from disk");
    expect(again.stdout).toContain("this run: 0 request(s)");
    expect(again.stdout).toContain("all runs: 5 request(s)");

    rmSync(join(out, ".toolsim-generate", "tasks", "parcel_pickup.json"));
    const partial = await generate(fake, out);
    expect(partial.code, partial.stderr).toBe(0);
    expect(stagesOf(fake).slice(first)).toEqual(["generate_tasks"]);
    expect(JSON.parse(readFileSync(join(out, "parcel_pickup.json"), "utf8")).tasks).toHaveLength(1);
  });

  it("regenerates a toolset the loader rejects, showing the model its problems", async () => {
    const fake = await fakeModel((request, seen) =>
      schemaOf(request) === "generate_toolset" && seen === 1
        ? { kind: "json", value: toolsetAnswer("PARCEL_LOST") }
        : undefined,
    );
    const out = join(dir.path, "regenerate");
    const run = await generate(fake, out);
    expect(run.code, run.stderr).toBe(0);
    const toolsetRequests = fake.requests.filter((r) => schemaOf(r) === "generate_toolset");
    expect(toolsetRequests).toHaveLength(2);
    const retry = toolsetRequests[1]?.messages ?? [];
    expect(retry.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(retry[2]?.content).toContain("PARCEL_LOST");
    expect(retry[3]?.content).toMatch(/PARCEL_LOST/);
    const toolset = JSON.parse(readFileSync(join(out, "parcel_pickup.json"), "utf8"));
    expect(toolset.tools[0].effects[0].missing).toBe("PARCEL_NOT_FOUND");
  });

  it("drops a task whose golden solution never replays, and says why", async () => {
    const fake = await fakeModel((request) =>
      schemaOf(request) === "generate_tasks" ? { kind: "json", value: tasksAnswer("P-404") } : undefined,
    );
    const out = join(dir.path, "drop-task");
    const run = await generate(fake, out, ["--attempts", "2"]);
    expect(run.code, run.stderr).toBe(0);
    expect(stagesOf(fake).filter((s) => s === "generate_tasks")).toHaveLength(2);
    expect(run.stdout).toMatch(/dropped task parcel_pickup\/collect-first-parcel: .*PARCEL_NOT_FOUND/);
    expect(JSON.parse(readFileSync(join(out, "parcel_pickup.json"), "utf8")).tasks).toEqual([]);
  });

  it("without a model it is a usage error that says how to configure one", async () => {
    const run = await runCli(["generate", "--out", join(dir.path, "none")], NO_LLM);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("generate needs a model");
    expect(run.stderr).toContain("--llm-base-url");
  });
});
