import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/index.js";
import {
  bash,
  commandOf,
  DocRun,
  type Fence,
  fence,
  fencesWhere,
  fits,
  hasShape,
  linesOf,
  type Ran,
  ROOT,
  toolsimBin,
} from "./support/docs.js";
import {
  catalogOf,
  type FakeOpenAI,
  runCli,
  SHIPPED_TOOLSETS,
  startFakeOpenAI,
  taskPlayer,
  tempDir,
} from "./support/index.js";

const DOC = "docs/run.md";
const doc = new DocRun(import.meta.filename);
const EXAMPLES = join(ROOT, "examples", "agents");
const tasks = catalogOf([SHIPPED_TOOLSETS])
  .allTasks()
  .map((t) => t.task);

/** The model a command line asks for: every run of this page ends with all attempts passed. */
async function runsIn(home: string) {
  const store = await openStore(join(home, "toolsim.db"), { readonly: true });
  try {
    const runs = await store.runs();
    return Promise.all(
      runs.map(async (run) => ({
        id: run.id,
        status: run.status,
        outcomes: (await store.runAttempts(run.id)).map((a) => a.outcome),
      })),
    );
  } finally {
    await store.close();
  }
}

/** A scripted model listening where Ollama would, on both loopback addresses when the machine has IPv6. */
async function onOllamaPort(respond: ReturnType<typeof taskPlayer>): Promise<FakeOpenAI> {
  try {
    return await startFakeOpenAI({ respond, host: "::", port: 11434 });
  } catch {
    return startFakeOpenAI({ respond, host: "127.0.0.1", port: 11434 });
  }
}

describe("docs/run.md runs as written", () => {
  const dir = tempDir("toolsim-run-docs-");
  const work = join(dir.path, "work");
  const home = join(dir.path, "home");
  const bin = join(dir.path, "bin");
  let hosted: FakeOpenAI;
  let ollama: FakeOpenAI;

  beforeAll(async () => {
    mkdirSync(work);
    toolsimBin(bin);
    // the examples as a checkout has them, relative to where the commands run
    symlinkSync(join(ROOT, "examples"), join(work, "examples"));
    const respond = taskPlayer(tasks, { userModel: "gpt-4.1" });
    hosted = await startFakeOpenAI({ respond });
    ollama = await onOllamaPort(respond);
  });
  afterAll(async () => {
    await hosted?.close();
    await ollama?.close();
    dir.cleanup();
  });

  const environment = (block: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ""}`,
      TOOLSIM_HOME: home,
      OPENAI_BASE_URL: hosted.url,
      OPENAI_API_KEY: "sk-scripted",
    };
    delete env.TOOLSIM_DB;
    delete env.TOOLSIM_JUDGE_MODEL;
    // a local server takes no key and is named on the command line
    if (block.includes("localhost:11434")) {
      delete env.OPENAI_API_KEY;
      delete env.OPENAI_BASE_URL;
    }
    return env;
  };

  /** What each shell block printed, by the line of its fence. */
  const printed = new Map<number, Ran>();
  const agents = fencesWhere(DOC, { lang: "js" });

  it("shows each example agent verbatim (the --agent-cmd block runs them)", () => {
    const shown = agents.map((f) => f.code.trimEnd());
    const files = readdirSync(EXAMPLES).filter((name) => name.endsWith(".mjs"));
    expect(files.sort()).toEqual(["ai-sdk.mjs", "langchain.mjs", "mastra.mjs", "openai-agents.mjs"]);
    for (const file of files) expect(shown).toContain(readFileSync(join(EXAMPLES, file), "utf8").trimEnd());
    const agentCommands = fence(DOC, { heading: "Your own agent: `--agent-cmd`", lang: "sh" }).code;
    for (const file of files) expect(agentCommands).toContain(`examples/agents/${file}`);
  });

  it("runs every shell block in order: each run finishes with every attempt passed", async () => {
    const shell = fencesWhere(DOC, { lang: "sh" });
    expect(shell.length).toBeGreaterThanOrEqual(7);
    let runs = 0;
    for (const f of shell) {
      const block = f.code;
      const result = await bash(block, work, environment(block));
      printed.set(f.line, result);
      expect({ block, code: result.code, stderr: result.code === 0 ? "" : result.stderr }).toEqual({
        block,
        code: 0,
        stderr: "",
      });
      runs += [
        ...block.matchAll(/^toolsim run (?!--resume)/gm),
        ...block.matchAll(/ toolsim run (?!--resume)/g),
      ].length;
      const stored = await runsIn(home);
      expect(stored).toHaveLength(runs);
      for (const run of stored) {
        expect(run.status).toBe("finished");
        expect(run.outcomes.length).toBeGreaterThan(0);
        expect(new Set(run.outcomes)).toEqual(new Set(["passed"]));
      }
      doc.ran(f);
    }
    // the agents ran as the --agent-cmd block names them
    for (const f of agents) doc.ran(f);
    expect(ollama.chatCount()).toBeGreaterThan(0);
    expect(ollama.requests.every((r) => r.model === "qwen3:8b")).toBe(true);
    expect(hosted.requests.some((r) => r.model === "gpt-4.1")).toBe(true); // the simulated user
    for (const file of ["run.html", "run-1.jsonl", "results.jsonl", "summary.json"]) {
      expect(existsSync(join(work, file))).toBe(true);
    }
    expect(readdirSync(join(work, "run-attempts"))).toHaveLength(15);
    expect(JSON.parse(readFileSync(join(work, "summary.json"), "utf8"))).toMatchObject({
      status: "finished",
      k: 5,
      attempts: { planned: 5, passed: 5 },
    });
    expect(readFileSync(join(work, "results.jsonl"), "utf8").trim().split("\n")).toHaveLength(5);
    expect(readFileSync(join(work, "run-1.jsonl"), "utf8").trim().split("\n")).toHaveLength(15);
  }, 600_000);

  /** The output a run block printed, found by a command of it. */
  const outputOf = (command: string): Ran => {
    const f = fencesWhere(DOC, { lang: "sh" }).find((b) => b.code.includes(command));
    const ran = f && printed.get(f.line);
    if (!ran) throw new Error(`no block of ${DOC} with "${command}" ran`);
    return ran;
  };

  it("prints the progress line and the summary the page shows, in their shape", () => {
    const hosted1 = outputOf("--html run.html --price 0.4/1.6");
    const progress = fence(DOC, { heading: "A hosted model", lang: "", nth: 0 });
    for (const line of linesOf(progress))
      expect(hasShape(hosted1.stderr, line), `${line}\n${hosted1.stderr}`).toBe(true);
    doc.ran(progress);
    const summary = fence(DOC, { heading: "A hosted model", lang: "", nth: 1 });
    // the hosted endpoint is the scripted one here; "…" stands for the tasks not shown
    const shown = linesOf(summary)
      .filter((line) => line.trim() !== "…")
      .map((line) => line.replace("api.openai.com", hosted.url));
    for (const line of shown) expect(hasShape(hosted1.stdout, line), `${line}\n${hosted1.stdout}`).toBe(true);
    doc.ran(summary);
  });

  it("writes the JSON line the page shows, in its shape", () => {
    const shown = fence(DOC, { heading: "Results for programs", lang: "json" });
    const [first] = readFileSync(join(work, "results.jsonl"), "utf8").trim().split("\n");
    const example = JSON.parse(shown.code);
    const written = JSON.parse(first ?? "");
    expect(fits(example, written), `${shown.code}\n${first}`).toBe(true);
    expect(written).toMatchObject({ task: example.task, attempt: 1, outcome: "passed", judge: "golden" });
    doc.ran(shown);
  });

  it("prints the faults table the page shows, in its shape", () => {
    const hostile = outputOf("--faults hostile");
    const table = fence(DOC, { heading: "Faults on purpose", lang: "" });
    const [title, header, row] = linesOf(table);
    expect(hasShape(hostile.stdout, (title ?? "").replace(/run-\d+/, "run-1")), hostile.stdout).toBe(true);
    expect(hasShape(hostile.stdout, header ?? ""), hostile.stdout).toBe(true);
    // the page's row is an injection, which the hostile profile brings to these tasks too
    expect(hasShape(hostile.stdout, row ?? ""), hostile.stdout).toBe(true);
    doc.ran(table);
  });

  it("its synopsis is the usage toolsim run --help prints", async () => {
    const synopsis = fence(DOC, { heading: "Options", lang: "" });
    const help = await runCli(["run", "--help"]);
    const usage = (help.stdout.split("\n\n").find((part) => part.startsWith("Usage: ")) ?? "")
      .split("\n")
      .map((line) => line.replace(/^Usage: /, "").trim());
    expect(linesOf(synopsis)).toEqual(usage);
    doc.ran(synopsis);
  });

  it("the README's first screen shows a toolsim run line, which runs as written", async () => {
    const first = fence("README.md", { heading: "toolsim", lang: "sh" });
    const line = linesOf(first).find((l) => l.startsWith("toolsim run ")) ?? "";
    expect(line).not.toBe("");
    const before = (await runsIn(home)).length;
    const result = await bash(line, work, environment(line));
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    const stored = await runsIn(home);
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)?.outcomes).toHaveLength(tasks.length * 3);
    doc.ran(first as Fence, commandOf(line));
  }, 300_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
