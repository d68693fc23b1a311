import { existsSync, realpathSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bash,
  checkout,
  checkoutEnv,
  commandsOf,
  DocRun,
  type Fence,
  fence,
  lineOf,
} from "./support/docs.js";
import { tempDir } from "./support/index.js";

/**
 * `npm run demo` (the README's first lines, its section on dry runs, docs/tasks.md) and
 * `npm run mutate -- --scores` (docs/testing.md), run in a source checkout: a copy, so the
 * demo's build leaves the dist/ that the other tests run alone.
 */
const doc = new DocRun(import.meta.filename);
const demos: Array<[Fence, string]> = [
  [fence("README.md", { heading: "toolsim", lang: "sh" }), "README.md"],
  [fence("README.md", { heading: "Dry-running agents: tasks, feedback, reports", lang: "sh" }), "README.md"],
  [
    fence("docs/tasks.md", { heading: "Task mode: dry-run an agent, judge it, keep the trace" }),
    "docs/tasks.md",
  ],
];
const mutation = fence("docs/testing.md", { heading: "Mutation testing", lang: "sh" });

const dir = tempDir("toolsim-demo-docs-");
let root = "";
const env = checkoutEnv;

beforeAll(() => {
  root = checkout(join(realpathSync(dir.path), "toolsim"));
});
afterAll(() => dir.cleanup());

describe("npm run demo and npm run mutate -- --scores, in a source checkout", () => {
  it("npm run demo builds, plays the scripted agent to a solved task and prints the report", async () => {
    // the three pages show one command (each with its own comment): it runs once for them all
    for (const [f] of demos) expect(commandsOf(f)).toContain("npm run demo");
    const ran = await bash(lineOf(demos[0]?.[0] as Fence, "npm run demo"), root, env());
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("── report (toolsim report demo)");
    expect(ran.stdout).toMatch(/^Verdict: solved \(golden judge, \d+\/\d+ steps\)$/m);
    expect(ran.stdout).toContain("[IAV]");
    // the demo keeps its session in a file of its own, and says where
    const kept = /^The session is kept in (\S+)\. Try:$/m.exec(ran.stdout)?.[1] ?? "";
    expect(existsSync(kept), ran.stdout).toBe(true);
    rmSync(dirname(kept), { recursive: true, force: true });
    for (const [f] of demos) doc.ran(f, "npm run demo");
  }, 240_000);

  it("npm run mutate -- --scores prints the table of every room, running nothing", async () => {
    const ran = await bash(lineOf(mutation, "npm run mutate -- --scores"), root, env());
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^room\s+score\s+killed\s+survived/m);
    for (const room of ["engine", "expr", "store", "compute", "importers", "infer"]) {
      expect(ran.stdout).toMatch(new RegExp(`^${room}\\s`, "m"));
    }
    expect(existsSync(join(root, "reports"))).toBe(false);
    doc.ran(mutation, "npm run mutate -- --scores");
  }, 60_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
