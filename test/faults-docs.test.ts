import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { FAULT_KINDS, FaultProfile } from "../src/catalog/index.js";
import { BUILTIN_PROFILES, INJECTION_PATTERNS, resolveFaultProfile } from "../src/faults/index.js";
import { connect, run } from "./faults/retrying-agent.js";
import { DocRun, type Fence, fencesWhere, ROOT, readDoc } from "./support/docs.js";
import { CLI, catalogOf, runCli, SHIPPED_TOOLSETS, tempDir } from "./support/index.js";

/** docs/faults.md runs as written: its commands, its profiles, its corpus and its worked example. */
const PAGE = "docs/faults.md";
const DOC = readDoc(PAGE);
const doc = new DocRun(import.meta.filename);
const dir = tempDir();
afterAll(() => dir.cleanup());

/** The fenced blocks of a language ("" for plain output), in order, each with the heading it sits under. */
const blocks = (language: string): Fence[] => fencesWhere(PAGE, { lang: language });

/** Output blocks (no language): what a command prints, line by line. */
const outputBlocks = blocks("");
const outputs = outputBlocks.map((b) => b.code.trimEnd().split("\n"));
const ranOutputs = (first: string) => {
  for (const b of outputBlocks) if (b.code.startsWith(first)) doc.ran(b);
};

/** `toolsim serve …` as the doc writes it, in a folder, until it prints its URL. */
function serves(line: string, cwd: string): Promise<string> {
  const args = [
    ...line.replace(/^toolsim /, "").split(/\s+/),
    "--port",
    "0",
    "--db",
    join(dir.path, "serve.db"),
  ];
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`${line} did not start: ${err}`)), 20_000);
    child.stdout.on("data", () => {
      if (!/MCP URL/.test(out)) return;
      clearTimeout(timer);
      child.kill("SIGTERM");
      resolveStart(out);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (!/MCP URL/.test(out)) reject(new Error(`${line} exited with ${code}: ${err}`));
    });
  });
}

describe("docs/faults.md runs as written", () => {
  const [exampleJson] = blocks("json").filter((b) => b.heading === "Profiles");
  const [exampleYaml] = blocks("yaml");

  it("its example profile, in JSON and in YAML, is one valid profile for the shipped catalog", () => {
    const fromJson = FaultProfile.parse(JSON.parse(exampleJson?.code ?? ""));
    const fromYaml = FaultProfile.parse(parseYaml(exampleYaml?.code ?? ""));
    expect({ ...fromYaml, $schema: fromJson.$schema }).toEqual(fromJson);
    const shipped = catalogOf([SHIPPED_TOOLSETS]);
    expect(resolveFaultProfile(fromJson, shipped, { file: "my-faults.json" }).problems).toEqual([]);
    for (const f of [exampleJson, exampleYaml]) if (f) doc.ran(f);
  });

  it("its commands run: serve with each kind of --faults, and the schema for editors", async () => {
    writeFileSync(join(dir.path, "my-faults.json"), exampleJson?.code ?? "");
    const [commands] = blocks("sh");
    for (const line of (commands?.code ?? "").trim().split("\n")) {
      if (line.startsWith("toolsim serve")) {
        expect(await serves(line, dir.path), line).toContain("toolsim is serving simulated tools over MCP");
      } else {
        const printed = await runCli(line.replace(/^toolsim /, "").split(" "));
        expect(printed.code).toBe(0);
        expect(JSON.parse(printed.stdout)).toEqual(
          JSON.parse(readFileSync(join(ROOT, "schema", "faults.schema.json"), "utf8")),
        );
      }
    }
    if (commands) doc.ran(commands);
  });

  it("refuses a bad profile with the lines it shows: the format first, then the catalog", async () => {
    const shown = outputs.filter((lines) => lines[0]?.startsWith("error: my-faults.json"));
    const rules: unknown[] = [
      { match: { tools: ["issue_refnd"] }, rate: 0.5, fault: { kind: "unavailable" } },
      { rate: 1.5, fault: { kind: "unavailable" } },
      { rate: 0.5, fault: { kind: "slowness" } },
    ];
    const file = join(dir.path, "refused", "my-faults.json");
    mkdirSync(dirname(file), { recursive: true });
    const refusal = async () => {
      writeFileSync(file, JSON.stringify({ rules }));
      const refused = await runCli(["serve", "--stdio", "--db", join(dir.path, "bad.db"), "--faults", file]);
      expect(refused.code).toBe(1);
      return refused.stderr.replaceAll(file, "my-faults.json");
    };
    expect(shown.map((lines) => lines.length)).toEqual([2, 1]);
    const format = await refusal();
    for (const line of shown[0] ?? []) expect(format).toContain(line);
    expect(format).not.toContain("issue_refnd");
    rules.splice(1, 2);
    const against = await refusal();
    for (const line of shown[1] ?? []) expect(against).toContain(line.replace(/, \.\.\.\?$/, ""));
    ranOutputs("error: my-faults.json");
  });

  it("shows each built-in profile exactly", () => {
    for (const [name, profile] of Object.entries(BUILTIN_PROFILES)) {
      const shown = blocks("json").find((b) => b.heading === `\`${name}\``);
      expect(JSON.parse(shown?.code ?? "null"), name).toEqual(profile);
      if (shown) doc.ran(shown);
    }
  });

  it("shows the injection corpus as it is", () => {
    for (const pattern of INJECTION_PATTERNS) {
      expect(DOC).toContain(
        `| \`${pattern.id}\` | ${pattern.summary} | ${pattern.canaryIn} | \`${pattern.text}\` |`,
      );
    }
  });

  it("lists every fault kind", () => {
    for (const kind of FAULT_KINDS) {
      expect(DOC).toContain(`| \`${kind}\` |`);
    }
  });

  it("the worked example fails under flaky, passes with a retry, and the reports say so as shown", async () => {
    const agent = readFileSync(join(ROOT, "test", "faults", "retrying-agent.ts"), "utf8").trimEnd();
    expect(DOC).toContain(`\`\`\`ts\n${agent}\n\`\`\``);
    const db = join(dir.path, "example.db");
    const serve = [process.execPath, CLI, "serve", "--db", db];
    await run(await connect(serve, "vti-once"), 0);
    await run(await connect(serve, "vti-retry"), 3);
    const reports =
      blocks("sh")
        .find((b) => b.code.includes("toolsim report"))
        ?.code.trim()
        .split("\n") ?? [];
    expect(reports).toEqual(["toolsim report vti-once", "toolsim report vti-retry"]);
    const [once, retried] = await Promise.all(
      reports.map((line) => runCli([...line.replace(/^toolsim /, "").split(" "), "--db", db])),
    );
    const [shownOnce, shownRetry] = outputs.filter((lines) => lines[0]?.startsWith("Verdict:"));
    for (const line of shownOnce ?? []) expect(once?.stdout).toContain(line);
    for (const line of shownRetry ?? []) expect(retried?.stdout).toContain(line);
    expect(shownOnce?.[0]).toMatch(/not solved/);
    expect(shownRetry?.[0]).toMatch(/^Verdict: solved/);
    // the agent the page shows is the file that ran, and its reports are the lines shown
    for (const f of [...blocks("ts"), ...blocks("sh").filter((b) => b.code.includes("toolsim report"))])
      doc.ran(f);
    ranOutputs("Verdict:");
  });

  it("the README and the architecture point to it", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("(docs/faults.md)");
    // the README's command is one the doc's block runs above
    expect(readme).toContain("toolsim serve --faults flaky ");
    expect(blocks("sh")[0]?.code).toContain("toolsim serve --faults flaky\n");
    expect(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8")).toContain("(faults.md)");
  });

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
