import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type BfclMultiTurnReport,
  bfclMultiTurnSection,
  renderBfclMultiTurn,
} from "../eval/bfcl-multiturn.js";

/**
 * The BFCL multi-turn replay end to end, on a data folder of our own in BFCL's layout: a
 * pantry class in python (shelves of jars, labels drawn at random), its function doc, two
 * entries and their ground truth. The real side runs under python3, toolsim as a user runs it
 * (the built CLI: import, serve --http, one MCP session per task).
 */
const SOURCE = join(import.meta.dirname, "fixtures/eval-bfcl");
const ENTRIES = "BFCL_v4_multi_turn_base.jsonl";
const hasPython = spawnSync("python3", ["--version"]).status === 0;

describe.skipIf(!hasPython)("npm run eval -- --bfcl-multiturn (needs python3)", () => {
  let report: BfclMultiTurnReport;
  beforeAll(async () => {
    report = await bfclMultiTurnSection(SOURCE, { classes: [], entries: ENTRIES });
  }, 120_000);

  it("replays every call of a real class on both sides and skips the others, saying why", () => {
    expect(report.tasks).toBe(2);
    expect(report.calls).toBe(4);
    expect(report.skipped).toEqual([["no real class of the entry has the method", 1]]);
    expect(report.classes.map((c) => c.class)).toEqual(["Pantry"]);
    expect(report.total.calls).toBe(4);
    expect(report.driverNotes).toEqual([expect.stringContaining("mpmath replaced by math.log")]);
    expect(report.configNotLoaded).toEqual({});
  });

  it("imports the entries with the real CLI, arguments named as the real signatures name them", () => {
    expect(report.imported).toMatchObject({ toolsets: 1, tools: 3, tasks: 2 });
    expect(report.solutions).toEqual({ calls: 4, agree: 4, differ: [] });
  });

  it("leaves the drawn label out of the comparison and puts toolsim's in its place later", () => {
    // drawn by add_jar, answered again by jar_info; the one from the configuration is not random
    expect(report.total.random).toEqual({ "answer label": 2, "state shelves.top.jars.honey.label": 1 });
    const addJar = report.classes[0]?.tools.add_jar;
    expect(addJar?.answers).toMatchObject({ calls: 1, total: 1, excluded: 1 });
    // the new jar's quantity and the count change; its drawn label is left out
    expect(addJar?.state.changed).toBe(2);
    // label_of is called with the label the real add_jar drew; toolsim's jar_info reads its own
    // new jar from the state, which draws no label, so no answer of toolsim's names one to put
    // in its place (the swapping itself is tested in test/eval-bfcl-score.test.ts)
    expect(report.substitutions).toBe(0);
  });

  it("counts the reads that depend on the earlier write, and probes unknown names on both sides", () => {
    const info = report.classes[0]?.tools.jar_info;
    expect(info?.dependentReads.reads).toBe(1);
    expect(report.probes).toBeGreaterThanOrEqual(2);
    expect(report.total.probes.made).toBe(report.probes);
    // an unknown shelf or jar is an error of the real class: each probe's real answer is one
    expect(report.total.probes.realErrors).toBe(report.probes);
    for (const figures of [report.total]) {
      expect(figures.answers.found).toBeLessThanOrEqual(figures.answers.total);
      expect(figures.state.right).toBeLessThanOrEqual(figures.state.changed);
      expect(figures.errors.answered).toBeLessThanOrEqual(figures.errors.real);
    }
  });

  it("renders one row per class and a table per class's tools", () => {
    const text = renderBfclMultiTurn(report);
    expect(text).toContain("| class | tasks | calls | answer leaves right |");
    expect(text).toMatch(/^\| Pantry \| 2 \| 4 \|/m);
    expect(text).toMatch(/^\| add_jar \| 1 \|/m);
  });

  it("refuses a class the real folder does not have, naming it", async () => {
    await expect(bfclMultiTurnSection(SOURCE, { classes: ["Cellar"], entries: ENTRIES })).rejects.toThrow(
      /no real class Cellar \(there are: Pantry, Shelf\)/,
    );
  });
});

describe.skipIf(!hasPython)("npm run eval -- --bfcl-multiturn --bfcl-state loaded (needs python3)", () => {
  // the configuration leaves the pantry's count out: the real class starts it at 0
  const DEFAULTS = "BFCL_v4_multi_turn_defaults.jsonl";
  let given: BfclMultiTurnReport;
  let loaded: BfclMultiTurnReport;
  beforeAll(async () => {
    given = await bfclMultiTurnSection(SOURCE, { classes: [], entries: DEFAULTS });
    loaded = await bfclMultiTurnSection(SOURCE, { classes: [], entries: DEFAULTS, state: "loaded" });
  }, 120_000);

  it("starts toolsim's tasks from the configuration as given, or from the state the real class loaded", () => {
    expect(given).toMatchObject({ state: "given", loadedTasks: 0 });
    expect(loaded).toMatchObject({ state: "loaded", loadedTasks: 1 });
    expect(renderBfclMultiTurn(loaded)).toContain("started from the real classes' loaded states");
  });

  it("from the loaded state, toolsim holds the count the class filled in", () => {
    // the state change add_jar makes to the count: toolsim's value beside the real one
    const countLeaf = (r: BfclMultiTurnReport) =>
      r.classes[0]?.tools.add_jar?.misses
        .flatMap((m) => (m.detail as { leaves?: Array<{ path: string; toolsim: string }> }).leaves ?? [])
        .find((leaf) => leaf.path === "count");
    expect(countLeaf(given)).toMatchObject({ toolsim: "(absent)" });
    expect(countLeaf(loaded)).toMatchObject({ toolsim: "0" });
  });
});
