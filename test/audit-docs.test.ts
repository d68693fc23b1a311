import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadToolsets } from "../src/catalog/index.js";
import { bash, DocRun, fence, linesOf, readerEnv, toolsimBin } from "./support/docs.js";
import {
  type FakeOpenAI,
  type RecordedRequest,
  SHIPPED_TOOLSETS,
  startFakeOpenAI,
  tempDir,
} from "./support/index.js";

/**
 * docs/audit.md's commands as written, in a folder where `toolsets/` is the shipped catalog
 * (as in a checkout). The judge of the second line is the reader's local server; the scripted
 * server stands at its address and finds every answer plausible.
 */
const DOC = "docs/audit.md";
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-audit-docs-");
const work = join(dir.path, "work");
const bin = toolsimBin(join(dir.path, "bin"));
let judge: FakeOpenAI;

function plausible(request: RecordedRequest) {
  if (request.responseFormat?.json_schema?.name !== "audit_plausibility")
    return { kind: "status" as const, status: 500, message: "only the judge is scripted here" };
  return { kind: "json" as const, value: { plausible: true, reasons: [] } };
}

beforeAll(async () => {
  mkdirSync(work);
  symlinkSync(SHIPPED_TOOLSETS, join(work, "toolsets"));
  judge = await startFakeOpenAI({ respond: plausible });
});
afterAll(async () => {
  await judge?.close();
  dir.cleanup();
});

describe("docs/audit.md runs as written", () => {
  const commands = fence(DOC, { heading: "Auditing tools", lang: "sh" });
  const [offline, judged, dropping] = linesOf(commands);
  const run = (line: string) =>
    bash(line.replace("http://localhost:11434/v1", judge.url), work, readerEnv(bin, join(dir.path, "home")));

  it("audits the shipped tools offline, with no judge", async () => {
    const ran = await run(offline ?? "");
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("55 tool(s) audited with the offline simulator, no judge");
    doc.ran(commands, "toolsim audit --toolsets toolsets/");
  }, 60_000);

  it("answers offline and asks the judge the line names about new inputs", async () => {
    const ran = await run(judged ?? "");
    expect(ran.code, ran.stderr).toBe(0);
    const asked = judge.requests.filter((r) => r.responseFormat?.json_schema?.name === "audit_plausibility");
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked.map((r) => r.model))).toEqual(new Set(["qwen3:8b"]));
    expect(ran.stdout).toMatch(/55 tool\(s\) audited with the offline simulator/);
    expect(ran.stdout).not.toContain("no judge");
    doc.ran(commands, (judged ?? "").trim());
  }, 60_000);

  it("writes the reliable toolsets and the report to audited/", async () => {
    const ran = await run(dropping ?? "");
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/toolset file\(s\) written to audited\//);
    expect(existsSync(join(work, "audited", "audit.json"))).toBe(true);
    expect(JSON.parse(readFileSync(join(work, "audited", "audit.json"), "utf8"))).toBeTypeOf("object");
    // the toolsets are the folder's <id>.json files; audit.json beside them is the report
    const files = readdirSync(join(work, "audited")).filter((name) => name !== "audit.json");
    const written = loadToolsets(files.map((name) => join(work, "audited", name)));
    expect(written.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(written.toolsets.length).toBeGreaterThan(0);
    doc.ran(commands, (dropping ?? "").trim());
  }, 60_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
