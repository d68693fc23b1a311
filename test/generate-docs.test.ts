import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadToolsets } from "../src/catalog/index.js";
import { bash, DocRun, fence, linesOf, type Ran, readerEnv, toolsimBin } from "./support/docs.js";
import {
  type FakeOpenAI,
  type FakeStep,
  type RecordedRequest,
  startFakeOpenAI,
  tempDir,
} from "./support/index.js";

/**
 * docs/generate.md's commands as written, against a scripted model that writes a small,
 * valid catalog for whatever fields, subdomains and workflows it is asked about; then its
 * stage files and its cost lines, compared with what the commands left and printed. The
 * first command reaches OpenAI's endpoint through OPENAI_BASE_URL; the second names the
 * reader's local server, whose address the scripted server takes.
 */
const DOC = "docs/generate.md";
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-generate-docs-");
const work = join(dir.path, "work");
const bin = toolsimBin(join(dir.path, "bin"));
let model: FakeOpenAI;

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
const count = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 1);

/** A workflow's toolset: three tools over one collection of records, named after the workflow. */
function toolset(id: string) {
  const key = { type: "string", pattern: "^R-[0-9]{3}$", description: "Record id, R-###." };
  const record = {
    type: "object",
    properties: {
      record_id: { type: "string", description: "The record's id." },
      status: { type: "string", description: "open or closed." },
    },
    required: ["record_id", "status"],
  };
  const byId = {
    type: "object",
    properties: { record_id: key },
    required: ["record_id"],
    additionalProperties: false,
  };
  const notFound = {
    code: "RECORD_NOT_FOUND",
    status: 404,
    message: "No record {record_id}.",
    when: "the id is unknown",
  };
  return {
    state: {
      records: {
        "R-001": { record_id: "R-001", status: "open" },
        "R-002": { record_id: "R-002", status: "open" },
      },
      runtime: { now: "2026-03-02T09:00:00Z" },
    },
    tools: [
      {
        name: `get_${id}_record`,
        description: "Fetch a record by id.",
        consumes: ["record id"],
        produces: ["record"],
        inputSchema: byId,
        outputSchema: { type: "object", properties: { record }, required: ["record"] },
        errors: [notFound],
        readOnly: true,
        effects: [
          { kind: "read", target: "records/{record_id}", missing: "RECORD_NOT_FOUND", output: "record" },
        ],
      },
      {
        name: `close_${id}_record`,
        description: "Close an open record.",
        consumes: ["record id"],
        produces: ["closed record"],
        inputSchema: byId,
        outputSchema: { type: "object", properties: { record }, required: ["record"] },
        errors: [notFound],
        effects: [
          {
            kind: "update",
            target: "records/{record_id}",
            missing: "RECORD_NOT_FOUND",
            set: { status: "closed" },
            output: "record",
          },
        ],
      },
      {
        name: `list_${id}_records`,
        description: "List the records, all or those with a status.",
        consumes: ["status"],
        produces: ["record list"],
        inputSchema: {
          type: "object",
          properties: { status: { type: "string", description: "open or closed." } },
          additionalProperties: false,
        },
        outputSchema: {
          type: "object",
          properties: { records: { type: "array", items: record } },
          required: ["records"],
        },
        errors: [],
        readOnly: true,
        effects: [{ kind: "list", target: "records", where: { status: "{status}" }, output: "records" }],
      },
    ],
  };
}

/** The tasks of a toolset, named after it: a look-up, and a look-up then a close. */
function tasks(id: string) {
  const state = toolset(id).state;
  return {
    tasks: [
      {
        id: `${id.replaceAll("_", "-")}-look-up`,
        description: "Look record R-001 up for me.",
        difficulty: "simple",
        state,
        solution: [{ tool: `get_${id}_record`, arguments: { record_id: "R-001" } }],
        checklist: ["Record R-001 was looked up."],
      },
      {
        id: `${id.replaceAll("_", "-")}-close`,
        description: "Check record R-002, then close it.",
        difficulty: "simple",
        state,
        solution: [
          { tool: `get_${id}_record`, arguments: { record_id: "R-002" } },
          { tool: `close_${id}_record`, arguments: { record_id: "R-002" } },
        ],
        checklist: ["Record R-002 is closed."],
      },
    ],
  };
}

/** Answers each stage by the schema the request names, for whatever it is asked about. */
function writer(request: RecordedRequest): FakeStep {
  const user = request.messages.findLast((m) => m.role === "user")?.content ?? "";
  switch (request.responseFormat?.json_schema?.name) {
    case "generate_fields": {
      const names = ["Logistics", "Libraries", "Gardening", "Museums"].slice(0, count(user, /Propose (\d+)/));
      return {
        kind: "json",
        value: { fields: names.map((name) => ({ name, description: `Software for ${name}.` })) },
      };
    }
    case "generate_subdomains": {
      const field = /^Field: (.+?) —/m.exec(user)?.[1] ?? "Field";
      const subdomains = Array.from({ length: count(user, /Propose (\d+)/) }, (_, i) => ({
        name: `${field} desk ${i + 1}`,
        description: `The ${field} desk number ${i + 1}.`,
      }));
      return { kind: "json", value: { subdomains } };
    }
    case "generate_workflows": {
      const subdomain = /^Subdomain: (.+?) —/m.exec(user)?.[1] ?? "Subdomain";
      const toolsets = Array.from({ length: count(user, /Propose (\d+)/) }, (_, i) => ({
        id: `${slug(subdomain)}_flow_${i + 1}`,
        name: `${subdomain} flow ${i + 1}`,
        description: "Look a record up, then close it.",
      }));
      return { kind: "json", value: { toolsets } };
    }
    case "generate_toolset":
      return { kind: "json", value: toolset(/^Workflow ".*" \(([a-z0-9_]+)\)/m.exec(user)?.[1] ?? "x") };
    case "generate_tasks": {
      const id = /"name": "get_([a-z0-9_]+)_record"/.exec(user)?.[1] ?? "x";
      return { kind: "json", value: tasks(id) };
    }
    default:
      return { kind: "status", status: 500, message: "the scripted writer answers the generate stages only" };
  }
}

beforeAll(async () => {
  mkdirSync(work);
  model = await startFakeOpenAI({ respond: writer });
});
afterAll(async () => {
  await model?.close();
  dir.cleanup();
});

describe("docs/generate.md runs as written", () => {
  const commands = fence(DOC, { heading: "Generating a catalog", lang: "sh" });
  const stages = fence(DOC, { heading: "Stage files and resuming", lang: "" });
  const costs = fence(DOC, { heading: "Progress and cost", lang: "" });
  let ran: Ran;

  it("both commands generate a catalog that loads", async () => {
    const script = commands.code.replace("http://localhost:11434/v1", model.url);
    // OpenAI's endpoint, here at another address: toolsim takes OpenAI's default model
    // (gpt-4.1-mini) only at api.openai.com, so the environment names it too
    const hosted = { OPENAI_API_KEY: "sk-docs", OPENAI_BASE_URL: model.url, TOOLSIM_MODEL: "gpt-4.1-mini" };
    ran = await bash(script, work, readerEnv(bin, join(dir.path, "home"), hosted));
    expect(ran.code, ran.stderr).toBe(0);
    const models = new Set(model.requests.map((r) => r.model));
    expect(models).toEqual(new Set(["gpt-4.1-mini", "qwen3:8b"]));
    const generated = readdirSync(join(work, "generated")).filter((name) => name.endsWith(".json"));
    // 2 fields × 2 subdomains × 2 workflows, then Healthcare and Retail × 2 × 2
    expect(generated.length).toBe(16);
    const loaded = loadToolsets([join(work, "generated")]);
    expect(loaded.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(loaded.toolsets.every((t) => t.toolset.tasks.length === 2)).toBe(true);
    expect(loaded.toolsets.map((t) => t.toolset.field)).toEqual(
      expect.arrayContaining(["Healthcare", "Retail"]),
    );
    doc.ran(commands);
  }, 120_000);

  it("leaves the stage files the page lists", () => {
    const root = join(work, "generated", ".toolsim-generate");
    for (const line of linesOf(stages)) {
      const [path] = line.split(/\s{2,}/);
      // "<toolset id>" and the like stand for any name; the folder must hold one
      const [folder, file] = (path ?? "").includes("/") ? (path ?? "").split("/") : [".", path];
      const pattern = new RegExp(`^${(file ?? "").replace(/\./g, "\\.").replace(/<[^>]+>/g, ".+")}$`);
      const names = existsSync(join(root, folder ?? ".")) ? readdirSync(join(root, folder ?? ".")) : [];
      expect(
        names.some((name) => pattern.test(name)),
        `${line}: ${names.join(", ")}`,
      ).toBe(true);
    }
    doc.ran(stages);
  });

  it("prints the cost lines the page shows", () => {
    const printed = ran.stdout.split("\n");
    for (const line of linesOf(costs)) {
      const shape = new RegExp(
        `^${line.replace(/[$.()+]/g, "\\$&").replace(/\d+(\\\.\d+)?/g, "\\d+(\\.\\d+)?")}$`,
      );
      expect(
        printed.some((p) => shape.test(p)),
        `${line}\n${ran.stdout}`,
      ).toBe(true);
    }
    doc.ran(costs);
  });

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
