import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePythonCall } from "../src/catalog/index.js";
import { connectStdio, runCli, tempDir } from "./support/index.js";

/**
 * `toolsim import bfcl` on multi-turn entries, through the real CLI: a small data folder in
 * BFCL's layout (entries, possible_answer/, multi_turn_func_doc/) with classes of its own.
 */
const SOURCE = join(import.meta.dirname, "fixtures/importers/bfcl-multi-turn");
const dir = tempDir();
afterAll(() => dir.cleanup());

interface Imported {
  code: number | null;
  stderr: string;
  report: {
    tasks: number;
    problems: Array<{ toolset: string; path: string; message: string }>;
    loadErrors: unknown[];
  };
  toolsets: Record<string, Record<string, unknown> & { tasks: Array<Record<string, unknown>> }>;
}

async function importInto(out: string, ...extra: string[]): Promise<Imported> {
  const run = await runCli(["import", "bfcl", SOURCE, "--out", out, "--json", ...extra]);
  const report = run.code === 0 ? JSON.parse(run.stdout) : { tasks: 0, problems: [], loadErrors: [] };
  const toolsets: Imported["toolsets"] = {};
  if (run.code === 0)
    for (const id of ["greenhouse", "ledger"])
      toolsets[id] = JSON.parse(readFileSync(join(out, `${id}.json`), "utf8"));
  return { code: run.code, stderr: run.stderr, report, toolsets };
}

const entries = readFileSync(join(SOURCE, "BFCL_v4_multi_turn_base.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as { id: string; initial_config?: unknown });

let imported: Imported;
beforeAll(async () => {
  imported = await importInto(join(dir.path, "catalog"));
}, 60_000);

describe("toolsim import bfcl: multi-turn entries", () => {
  it("turns each entry into a task of its first class's toolset, the others listed", () => {
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.report.loadErrors).toEqual([]);
    expect(imported.report.tasks).toBe(2);
    const [first] = imported.toolsets.greenhouse?.tasks ?? [];
    expect(first).toMatchObject({
      id: "multi_turn_base_0",
      description: "Sow basil in the north bed and give it two and a half litres.",
      turns: [
        "Sow basil in the north bed and give it two and a half litres.",
        "Write the seeds down in the ledger: 12.5 for basil seeds.",
        "How much money is left?",
      ],
      toolsets: ["ledger"],
      valid: true,
    });
    const [second] = imported.toolsets.ledger?.tasks ?? [];
    expect(second).toMatchObject({ id: "multi_turn_base_1", toolsets: ["greenhouse"] });
  });

  it("keeps the entry's initial_config as the task's state, exactly, keyed by class", () => {
    const byId = new Map(
      Object.values(imported.toolsets)
        .flatMap((t) => t.tasks)
        .map((task) => [task.id, task]),
    );
    for (const entry of entries.filter((e) => byId.has(e.id)))
      expect(byId.get(entry.id)?.state).toEqual(entry.initial_config);
  });

  it("reads the ground truth turn by turn, naming positional arguments by the doc's order", () => {
    expect(imported.toolsets.greenhouse?.tasks[0]?.solution).toEqual([
      { tool: "plant", arguments: { bed: "north", seed: "basil" }, turn: 0 },
      { tool: "water", arguments: { bed: "north", litres: 2.5 }, turn: 0 },
      { tool: "record", arguments: { amount: 12.5, memo: "basil seeds" }, turn: 1 },
      { tool: "balance", arguments: {}, turn: 2 },
    ]);
    // a turn without a user message joins the turn before; its readable calls stay
    expect(imported.toolsets.ledger?.tasks[0]?.turns).toEqual([
      "Note 3 for string.",
      "And water the south bed.",
    ]);
    expect(imported.toolsets.ledger?.tasks[0]?.solution).toEqual([
      { tool: "record", arguments: { amount: 3, memo: "string" }, turn: 0 },
      { tool: "water", arguments: { bed: "south" }, turn: 1 },
    ]);
  });

  it("gives each function-doc toolset its class's first configuration as the sandbox state", () => {
    const config = entries[0]?.initial_config as Record<string, unknown>;
    expect(imported.toolsets.greenhouse?.state).toEqual({ Greenhouse: config.Greenhouse });
    expect(imported.toolsets.ledger?.state).toEqual({ Ledger: config.Ledger });
  });

  it("notes everything it did not carry over", () => {
    const notes = imported.report.problems.map((p) => `${p.toolset} ${p.path}: ${p.message}`);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /multi_turn_base_1 question\[1\]: turn 1 has no user message; its calls count toward turn 0/,
        ),
        expect.stringMatching(
          /multi_turn_base_1 ground_truth\[1\]\[1\]: calls prune, which no function-doc file .* left out/,
        ),
        expect.stringMatching(
          /ground_truth\[1\]\[2\]: water takes 2 argument\(s\); .* gives 3 by position; left out/,
        ),
        expect.stringMatching(/ground_truth\[2\]\[1\]: cannot read "water\(bed=\)": expected a value/),
        expect.stringMatching(/excluded_function: the source withholds balance from this task/),
        expect.stringMatching(/missed_function.1: the source offers record only from turn 1/),
        expect.stringMatching(/class Observatory: no entry's path names a method of it/),
        expect.stringMatching(
          /multi_turn_base_2 involved_classes: none of Observatory maps .* the task is left out/,
        ),
        expect.stringMatching(/1 entries name their functions by class without an initial_config/),
      ]),
    );
  });

  it("writes files that lint clean, their golden calls replayed against the task's state", async () => {
    const lint = await runCli(["lint", join(dir.path, "catalog")]);
    expect(lint.stdout).not.toMatch(/^error/m);
    expect(lint.code, lint.stdout).toBe(0);
  });

  it("serves a task with the tools of every class it involves and the entry's configuration as state", async () => {
    const { client } = await connectStdio([
      "--toolsets",
      join(dir.path, "catalog"),
      "--db",
      join(dir.path, "serve.db"),
      "--session",
      "multi-turn",
    ]);
    try {
      const started = await client.callTool({
        name: "sim_start_task",
        arguments: { task_id: "multi_turn_base_0" },
      });
      expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["plant", "water", "list_beds", "record", "balance"]));
      const read = await client.callTool({ name: "sim_get_state", arguments: {} });
      const state = (read.structuredContent as { value: Record<string, unknown> }).value;
      const config = entries[0]?.initial_config as Record<string, unknown>;
      for (const name of ["Greenhouse", "Ledger"]) expect(state[name]).toEqual(config[name]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("takes --state as the sandbox state of every toolset it writes", async () => {
    const file = join(dir.path, "world.json");
    writeFileSync(file, JSON.stringify({ Greenhouse: { beds: { east: { crop: "leek", moisture: 0.5 } } } }));
    // as written (inference may add the key fields it reads entities by)
    const withState = await importInto(join(dir.path, "with-state"), "--state", file, "--no-infer");
    expect(withState.code, withState.stderr).toBe(0);
    for (const toolset of Object.values(withState.toolsets))
      expect(toolset.state).toEqual({ Greenhouse: { beds: { east: { crop: "leek", moisture: 0.5 } } } });
    // the tasks keep their own entries' configurations
    expect(withState.toolsets.greenhouse?.tasks[0]?.state).toEqual(entries[0]?.initial_config);
  }, 60_000);
});

describe("Python call strings with positional arguments", () => {
  it("keeps positional arguments in order, apart from keyword ones", () => {
    expect(parsePythonCall(`sow('north', 3, seed = "basil", deep=False)`)).toEqual({
      ok: true,
      name: "sow",
      positional: ["north", 3],
      keywords: { seed: "basil", deep: false },
    });
    expect(parsePythonCall("tally()")).toEqual({ ok: true, name: "tally", positional: [], keywords: {} });
    expect(parsePythonCall("flag(True, None)")).toMatchObject({ positional: [true, null] });
  });

  it("refuses what Python refuses", () => {
    expect(parsePythonCall("f(a=1, 2)")).toEqual({
      ok: false,
      message: expect.stringContaining("positional argument 1 follows a keyword argument"),
    });
    expect(parsePythonCall("f(a=1, a=2)")).toEqual({
      ok: false,
      message: expect.stringContaining('argument "a" is given twice'),
    });
    expect(parsePythonCall("f(a == 1)").ok).toBe(false);
  });
});
