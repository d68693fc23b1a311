import { describe, expect, it } from "vitest";
import { importBfcl, Toolset } from "../src/catalog/index.js";

/**
 * Multi-turn entries imported in this process, one rule at a time (test/importers-bfcl-multi-turn
 * drives the CLI on a data folder): which doc file a class belongs to, the sandbox state, the
 * turns, the golden calls with positional arguments named, and each note on the way.
 */

const doc = (file: string, functions: Array<[string, string[]]>) => ({
  file,
  functions: functions.map(([name, parameters]) => ({
    name,
    description: `${name}.`,
    parameters: {
      type: "dict",
      properties: Object.fromEntries(parameters.map((p) => [p, { type: "string" }])),
    },
  })),
});

const DOCS = [
  doc("docs/pond.json", [
    ["fill", ["litres", "unit"]],
    ["drain", []],
  ]),
  doc("docs/shed.jsonl", [
    ["lock", ["code"]],
    ["fill", ["what"]],
  ]),
];

const user = (content: string) => [{ role: "user", content }];

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  question: [user("Fill the pond."), user("Then lock the shed.")],
  initial_config: { Pond: { level: 1 }, Shed: { locked: false } },
  involved_classes: ["Pond", "Shed"],
  path: ["Pond.fill", "Pond.drain", "Shed.lock"],
  ...extra,
});

function run(entries: unknown[], answers: Record<string, unknown> = {}, docs = DOCS) {
  const result = importBfcl({
    entries: entries.map((e) => ({ file: "data/multi_turn_base.json", entry: e })),
    answers: new Map(Object.entries(answers)),
    functionDocs: docs,
  });
  for (const toolset of result.toolsets) expect(Toolset.safeParse(toolset).success, toolset.id).toBe(true);
  const byId = Object.fromEntries(result.toolsets.map((t) => [t.id, t]));
  return {
    pond: byId.pond,
    shed: byId.shed,
    problems: result.problems.map((p) => `${p.toolset} ${p.path}: ${p.message}`),
  };
}

describe("multi-turn entries as tasks", () => {
  it("files a task with the toolset of its first class, the other classes' toolsets listed", () => {
    const { pond, shed, problems } = run([entry("mt_0")], {
      mt_0: { ground_truth: [["fill(2.5, unit='l')"], ["lock('1234')", "fill(what='oil')"]] },
    });
    expect(problems).toEqual([]);
    expect(shed?.tasks).toEqual([]);
    expect(pond?.tasks).toEqual([
      {
        id: "mt_0",
        description: "Fill the pond.",
        difficulty: "medium",
        valid: true,
        state: { Pond: { level: 1 }, Shed: { locked: false } },
        // a function both classes have is the first class's
        solution: [
          { tool: "fill", arguments: { litres: 2.5, unit: "l" }, turn: 0 },
          { tool: "lock", arguments: { code: "1234" }, turn: 1 },
          { tool: "fill", arguments: { what: "oil" }, turn: 1 },
        ],
        checklist: [],
        turns: ["Fill the pond.", "Then lock the shed."],
        toolsets: ["shed"],
      },
    ]);
  });

  it("gives each doc toolset the first configuration of each of its classes as its state", () => {
    const { pond, shed } = run([
      entry("mt_0"),
      entry("mt_1", { initial_config: { Pond: { level: 9 }, Shed: { locked: true } } }),
    ]);
    expect(pond?.state).toEqual({ Pond: { level: 1 } });
    expect(shed?.state).toEqual({ Shed: { locked: false } });
    expect(pond?.tasks.map((t) => t.state)).toEqual([
      { Pond: { level: 1 }, Shed: { locked: false } },
      { Pond: { level: 9 }, Shed: { locked: true } },
    ]);
  });

  it("rates a task by its number of calls", () => {
    const rated = (calls: string[]) =>
      run([entry("mt_0")], { mt_0: { ground_truth: [calls] } }).pond?.tasks[0]?.difficulty;
    expect([[], ["drain()"], ["drain()", "drain()", "drain()"], Array(4).fill("drain()")].map(rated)).toEqual(
      ["simple", "simple", "medium", "complex"],
    );
  });
});

describe("classes and their doc files", () => {
  it("belongs a class to the doc file with most of its path's methods, and says when two tie", () => {
    const { pond, shed, problems } = run(
      [
        entry("mt_0", {
          path: ["Pond.fill", "Pond.drain", "Shed.lock", "Shed.fill", "Shed.fill", "bare", ".x", 7],
        }),
      ],
      { mt_0: { ground_truth: [] } },
    );
    expect(pond?.tasks.map((t) => t.id)).toEqual(["mt_0"]);
    expect(shed?.tasks).toEqual([]);
    expect(problems).toEqual([]);
    const tie = run([
      entry("mt_0", { involved_classes: ["Tank"], initial_config: { Tank: {} }, path: ["Tank.fill"] }),
    ]);
    expect(tie.problems).toEqual([
      "pond class Tank: its methods are in docs/pond.json, docs/shed.jsonl alike; taken as docs/pond.json",
      "pond data/multi_turn_base.json mt_0 ground_truth: no ground truth; the task has no golden solution",
    ]);
  });

  it("leaves out a task none of whose classes maps to a doc file, and the calls of a class that does not", () => {
    const { pond, problems } = run(
      [
        entry("mt_0", { involved_classes: ["Barn"], initial_config: { Barn: {} }, path: ["Barn.milk"] }),
        entry("mt_1", { involved_classes: [], initial_config: {}, path: [] }),
        entry("mt_2", {
          involved_classes: ["Pond", "Barn"],
          initial_config: { Pond: {}, Gate: {} },
          path: ["Pond.drain"],
        }),
      ],
      { mt_2: { ground_truth: [["milk()"]] } },
    );
    expect(pond?.tasks.map((t) => t.id)).toEqual(["mt_2"]);
    expect(pond?.tasks[0]?.state).toEqual({ Pond: {}, Gate: {} });
    expect(pond?.tasks[0]).not.toHaveProperty("toolsets");
    expect(problems).toEqual([
      "multi_turn_base class Barn: no entry's path names a method of it that a function-doc file has; its calls are left out",
      "multi_turn_base data/multi_turn_base.json mt_0 involved_classes: none of Barn maps to a function-doc file; the task is left out",
      "multi_turn_base data/multi_turn_base.json mt_1 involved_classes: none of its classes maps to a function-doc file; the task is left out",
      "pond data/multi_turn_base.json mt_2 involved_classes: class Barn maps to no function-doc file; its calls are left out",
      "pond data/multi_turn_base.json mt_2 initial_config: configures Gate, which the entry does not involve; kept in the state as given",
      "pond data/multi_turn_base.json mt_2 ground_truth[0][0]: calls milk, which no function-doc file of the entry's classes has; left out",
    ]);
  });
});

describe("turns and golden calls", () => {
  it("joins a turn's user messages, and counts a turn without one toward the turn before", () => {
    const question = [
      [{ role: "system", content: "Be brief." }],
      [...user("Fill the pond."), { role: "user", content: "  Quickly.  " }],
      [
        { role: "assistant", content: "Done." },
        { role: "user", content: "   " },
      ],
      user("Drain it."),
    ];
    const { pond, problems } = run([entry("mt_0", { question })], {
      mt_0: { ground_truth: [[], ["fill('1')"], ["drain()"], ["drain()"], ["fill('2')"]] },
    });
    const task = pond?.tasks[0];
    expect(task?.turns).toEqual(["Fill the pond.\n\nQuickly.", "Drain it."]);
    expect(task?.description).toBe("Fill the pond.\n\nQuickly.");
    expect(task?.solution.map((c) => [c.arguments, c.turn])).toEqual([
      [{ litres: "1" }, 0],
      [{}, 0],
      [{}, 1],
      [{ litres: "2" }, 1],
    ]);
    expect(problems).toEqual([
      "pond data/multi_turn_base.json mt_0 question[2]: turn 2 has no user message; its calls count toward turn 0",
      "pond data/multi_turn_base.json mt_0 ground_truth: 5 turns of calls for 4 turns of questions; the extra calls count toward the last turn",
    ]);
  });

  it("leaves out an entry without any user message", () => {
    const { pond, problems } = run([entry("mt_0", { question: [[{ role: "system", content: "x" }]] })]);
    expect(pond?.tasks).toEqual([]);
    expect(problems).toEqual([
      "pond data/multi_turn_base.json mt_0 question: no user message in any turn; the task is left out",
    ]);
    expect(run([entry("mt_0", { question: "Fill it." })]).pond?.tasks).toEqual([]);
  });

  it("names positional arguments by the doc's parameter order, and reports calls it cannot name", () => {
    const { pond, problems } = run([entry("mt_0")], {
      mt_0: {
        ground_truth: [
          ["fill('1', 'l', 'x')", "fill('1', litres='2')", "fill(", 5, "lock(code='9')"],
          "drain()",
        ],
      },
    });
    expect(pond?.tasks[0]?.solution).toEqual([
      { tool: "lock", arguments: { code: "9" }, turn: 0 },
      { tool: "drain", arguments: {}, turn: 1 },
    ]);
    expect(problems).toEqual([
      `pond data/multi_turn_base.json mt_0 ground_truth[0][0]: fill takes 2 argument(s); "fill('1', 'l', 'x')" gives 3 by position; left out`,
      'pond data/multi_turn_base.json mt_0 ground_truth[0][1]: fill gets "litres" by position and by name; left out',
      'pond data/multi_turn_base.json mt_0 ground_truth[0][2]: cannot read "fill(": expected a value at character 6; left out',
      "pond data/multi_turn_base.json mt_0 ground_truth[0][3]: not a call string; left out",
    ]);
  });

  it("notes the functions the source withholds or offers late, which the task offers from the start", () => {
    const { problems } = run(
      [entry("mt_0", { excluded_function: ["drain"], missed_function: { "1": ["lock"], "2": "fill" } })],
      { mt_0: { ground_truth: [] } },
    );
    expect(problems).toEqual([
      "pond data/multi_turn_base.json mt_0 excluded_function: the source withholds drain from this task; its toolsets offer every function",
      "pond data/multi_turn_base.json mt_0 missed_function.1: the source offers lock only from turn 1; the task offers them from the start",
      "pond data/multi_turn_base.json mt_0 missed_function.2: the source offers fill only from turn 2; the task offers them from the start",
    ]);
  });
});
