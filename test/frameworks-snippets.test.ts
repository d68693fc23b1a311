import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLI,
  type FakeOpenAI,
  type GoldenOptions,
  goldenModel,
  MARKET_BUY_TASK,
  type RunningServer,
  startFakeOpenAI,
  startHttpServer,
  tempDir,
  verdictOf,
} from "./support/index.js";

const ROOT = resolve(import.meta.dirname, "..");
const DOC = readFileSync(join(ROOT, "docs", "frameworks.md"), "utf8");

/** The module blocks of the page, by file name: "`test/frameworks/X.ts`:" and the block after it. */
const MODULES = new Map(
  [...DOC.matchAll(/`test\/frameworks\/([a-z-]+)\.ts`:\n\n```ts\n([\s\S]*?)\n```/g)].map((m) => [
    m[1] as string,
    m[2] as string,
  ]),
);

/** The blocks that run an agent: "// stdio…" or "// HTTP…", each importing one module. */
const RUNS = [...DOC.matchAll(/```ts\n(\/\/ (stdio|HTTP)[\s\S]*?)\n```/g)].map((m) => {
  const text = m[1] as string;
  const module = /from "\.\/([a-z-]+)\.js"/.exec(text)?.[1] ?? "";
  return { text, module, transport: m[2] as "stdio" | "HTTP" };
});

/** What each framework's test needs: its profile, and how the scripted model calls (strict nulls, name prefix). */
const FRAMEWORKS: Record<string, { profile: string[]; model: GoldenOptions }> = {
  "ai-sdk": { profile: [], model: {} },
  "openai-agents": { profile: ["--schema-profile", "openai-strict"], model: { strict: true } },
  langchain: { profile: ["--schema-profile", "portable"], model: {} },
  mastra: { profile: ["--schema-profile", "openai-strict"], model: { strict: true, toolPrefix: "toolsim_" } },
};

/** A program that did not end by itself within this long is reported as hanging. */
const HANG_MS = 90_000;

/**
 * A folder where the page's code runs as a user would run it: the module and the run as
 * they are on the page (TypeScript, compiled as any TypeScript runner would), the project's
 * packages, and `toolsim` installed as a project dependency (what `npx toolsim` runs) with
 * its state in the folder.
 */
function project(dir: string, module: string, run: string): string {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  const compile = (text: string) =>
    ts.transpileModule(text, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
  writeFileSync(join(dir, `${module}.js`), compile(MODULES.get(module) ?? ""));
  writeFileSync(join(dir, "run.js"), compile(run));
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, ".bin"), { recursive: true });
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry !== ".bin") symlinkSync(join(ROOT, "node_modules", entry), join(modules, entry));
  }
  const bin = join(modules, ".bin", "toolsim");
  // the framework starts the child with its own minimal environment: the state folder and the
  // offline engine are set here, as an installed toolsim would find them in its user's home
  writeFileSync(
    bin,
    `#!/bin/sh\nunset OPENAI_API_KEY OPENAI_BASE_URL\nexport TOOLSIM_HOME="${join(dir, "home")}"\nexec "${process.execPath}" "${CLI}" "$@"\n`,
  );
  chmodSync(bin, 0o755);
  return join(dir, "home", "toolsim.db");
}

/** Runs `node run.js` in the folder to its end; a program that does not end is a failure. */
function runToEnd(
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["run.js"], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        OPENAI_API_KEY: "sk-scripted",
        OPENAI_AGENTS_DISABLE_TRACING: "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const hang = setTimeout(() => {
      stderr += `\n[test] the program did not end within ${HANG_MS / 1000} s; killed`;
      child.kill("SIGKILL");
    }, HANG_MS);
    child.once("exit", (code) => {
      clearTimeout(hang);
      done({ code, stdout, stderr });
    });
  });
}

describe("docs/frameworks.md: every snippet runs as written, to its end, and a re-run is a fresh attempt", () => {
  it("has a stdio and an HTTP run for each framework", () => {
    expect([...MODULES.keys()].sort()).toEqual(Object.keys(FRAMEWORKS).sort());
    for (const module of MODULES.keys()) {
      expect(RUNS.filter((r) => r.module === module).map((r) => r.transport)).toEqual(["stdio", "HTTP"]);
    }
  });

  describe.each(Object.keys(FRAMEWORKS))("%s", (module) => {
    const framework = FRAMEWORKS[module] ?? { profile: [], model: {} };
    const dir = tempDir(`toolsim-snippet-${module}-`);
    let model: FakeOpenAI | undefined;
    let server: RunningServer | undefined;
    beforeAll(async () => {
      model = await startFakeOpenAI({ respond: goldenModel(framework.model) });
      server = await startHttpServer([
        "--engine",
        "offline",
        ...framework.profile,
        "--task",
        MARKET_BUY_TASK,
        "--db",
        join(dir.path, "http.db"),
      ]);
    });
    afterAll(async () => {
      await server?.stop();
      await model?.close();
      dir.cleanup();
    });

    it.each(["stdio", "HTTP"] as const)(
      "the %s run, twice: each ends, solved, in a session of its own",
      async (transport) => {
        const run = RUNS.find((r) => r.module === module && r.transport === transport);
        if (!run) throw new Error(`no ${transport} run of ${module} on the page`);
        const folder = join(dir.path, transport);
        mkdirSync(folder);
        const stdioDb = project(folder, module, run.text);
        const db = transport === "stdio" ? stdioDb : join(dir.path, "http.db");
        const sessions: string[] = [];
        for (let attempt = 1; attempt <= 2; attempt++) {
          const result = await runToEnd(folder, {
            OPENAI_BASE_URL: model?.url ?? "",
            TOOLSIM_URL: server?.url ?? "",
          });
          expect(result.stderr).not.toContain("[test]");
          expect(result.code, result.stderr).toBe(0);
          expect(result.stdout).toContain("4 VTI shares");
          const session = /toolsim report (\S+)/.exec(result.stdout)?.[1] ?? "";
          sessions.push(session);
          const { solved, report } = await verdictOf(db, session);
          expect(solved, JSON.stringify(report)).toBe(true);
        }
        expect(new Set(sessions).size).toBe(2);
      },
      3 * HANG_MS,
    );
  });
});
