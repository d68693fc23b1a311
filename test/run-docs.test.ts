import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/index.js";
import {
  CLI,
  catalogOf,
  type FakeOpenAI,
  SHIPPED_TOOLSETS,
  startFakeOpenAI,
  taskPlayer,
  tempDir,
} from "./support/index.js";

const ROOT = resolve(import.meta.dirname, "..");
const DOC = readFileSync(join(ROOT, "docs", "run.md"), "utf8");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const EXAMPLES = join(ROOT, "examples", "agents");
const tasks = catalogOf([SHIPPED_TOOLSETS])
  .allTasks()
  .map((t) => t.task);

const blocks = (text: string, language: string) =>
  [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1] ?? "");

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

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.once("exit", (code) => done({ code, stdout, stderr }));
  });
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
    mkdirSync(bin);
    // the examples as a checkout has them, relative to where the commands run
    symlinkSync(join(ROOT, "examples"), join(work, "examples"));
    writeFileSync(join(bin, "toolsim"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, "toolsim"), 0o755);
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

  it("shows each example agent verbatim", () => {
    const shown = blocks(DOC, "js").map((code) => code.trimEnd());
    const files = readdirSync(EXAMPLES).filter((name) => name.endsWith(".mjs"));
    expect(files.sort()).toEqual(["ai-sdk.mjs", "langchain.mjs", "mastra.mjs", "openai-agents.mjs"]);
    for (const file of files) expect(shown).toContain(readFileSync(join(EXAMPLES, file), "utf8").trimEnd());
  });

  it("runs every shell block in order: each run finishes with every attempt passed", async () => {
    const shell = blocks(DOC, "sh");
    expect(shell.length).toBeGreaterThanOrEqual(7);
    let runs = 0;
    for (const block of shell) {
      const result = await bash(block, work, environment(block));
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
    }
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

  it("the README's first screen shows a toolsim run line, which runs as written", async () => {
    const first = blocks(README, "sh")[0] ?? "";
    const line = first.split("\n").find((l) => l.startsWith("toolsim run "));
    expect(line).toBeDefined();
    const before = (await runsIn(home)).length;
    const result = await bash(line ?? "", work, environment(line ?? ""));
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    const stored = await runsIn(home);
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)?.outcomes).toHaveLength(tasks.length * 3);
  }, 300_000);
});
