import { describe, expect, it } from "vitest";
import { importSynthTools, Toolset } from "../src/catalog/index.js";

/**
 * SynthTools sources built in the test: how tool files and task files form toolsets, how a task's
 * records become keyed collections, how its difficulty, validity and golden calls are read, and
 * the problem reported for each thing changed or left out.
 */

type Source = Parameters<typeof importSynthTools>[0];

const toolFile = (stem: string, name: string, extra: Record<string, unknown> = {}) => ({
  file: `raw/${stem}__${name.replace(/ /g, "")}.json`,
  json: {
    tool_name: name,
    tool_description: `${name} for the garden.`,
    parameters: { plot_id: { type: "string", description: "The plot.", required: true } },
    output_details: { ok: { type: "boolean" } },
    ...extra,
  },
});

const taskFile = (stem: string, key: string, data: Record<string, unknown>) => ({
  file: `tasks/${stem}.${key}.yml`,
  data: { task_data: { task: "Water the plot.", task_difficulty: "easy", tools_required: [] }, ...data },
});

function run(source: Partial<Source>) {
  const result = importSynthTools({ tools: [], tasks: [], ...source });
  for (const toolset of result.toolsets) expect(Toolset.safeParse(toolset).success, toolset.id).toBe(true);
  return {
    toolsets: result.toolsets,
    problems: result.problems.map((p) => `${p.toolset} ${p.tool ?? "-"} ${p.path}: ${p.message}`),
  };
}

const STEM = "garden_care_tool_spec_3";

describe("tool files and their toolset", () => {
  it("groups the tool files of a spec, naming the toolset after its field and number", () => {
    const { toolsets, problems } = run({
      tools: [toolFile(STEM, "Water Plot"), toolFile(STEM, "Prune Hedge")],
    });
    expect(problems).toEqual([]);
    expect(toolsets.map((t) => [t.id, t.name, t.field, t.subdomain, t.description])).toEqual([
      [
        STEM,
        "Garden care spec 3",
        "Garden care",
        "Garden care spec 3",
        "Garden care tools that work together: Water Plot, Prune Hedge.",
      ],
    ]);
    expect(toolsets[0]?.tools.map((t) => [t.name, t.title, t.description])).toEqual([
      ["water_plot", "Water Plot", "Water Plot for the garden."],
      ["prune_hedge", "Prune Hedge", "Prune Hedge for the garden."],
    ]);
    expect(toolsets[0]?.tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: { plot_id: { type: "string", description: "The plot." } },
      required: ["plot_id"],
      additionalProperties: false,
    });
    expect(toolsets[0]?.tools[0]?.outputSchema).toEqual({
      type: "object",
      properties: { ok: { type: "boolean" } },
    });
  });

  it("takes the names, field and description of a task's metadata when it has them", () => {
    const { toolsets } = run({
      tools: [toolFile(STEM, "Water Plot")],
      tasks: [taskFile(STEM, "t1", { meta_data: { subfield: "Lawns", task: "Keep the lawn green" } })],
    });
    expect(toolsets.map((t) => [t.name, t.subdomain, t.description])).toEqual([
      ["Keep the lawn green", "Lawns", "Keep the lawn green"],
    ]);
  });

  it("names a spec without a number after its whole stem", () => {
    const { toolsets } = run({ tools: [toolFile("orchard", "Pick Fruit")] });
    expect(toolsets.map((t) => [t.id, t.name, t.field])).toEqual([
      ["orchard", "Orchard spec orchard", "Orchard"],
    ]);
  });

  it("skips what is not a tool, and a spec left without tools", () => {
    const { toolsets, problems } = run({
      tools: [
        { file: `raw/${STEM}__A.json`, json: { tool_name: "  " } },
        { file: `raw\\${STEM}__B.json`, json: [] },
      ],
      tasks: [
        { file: `tasks/${STEM}.t1.yml`, data: { meta_data: {} } },
        { file: "other.t2.yml", data: "x" },
      ],
    });
    expect(toolsets).toEqual([]);
    expect(problems).toEqual([
      `${STEM} - raw/${STEM}__A.json: not a SynthTools tool (no tool_name); skipped`,
      `${STEM} - raw\\${STEM}__B.json: not a SynthTools tool (no tool_name); skipped`,
      `${STEM} - tasks/${STEM}.t1.yml: not a SynthTools task (no task_data); skipped`,
      "other - other.t2.yml: not a SynthTools task (no task_data); skipped",
    ]);
    const empty = run({ tasks: [taskFile(STEM, "t1", {})] });
    expect(empty.problems).toEqual([`${STEM} - ${STEM}: no tools; no toolset written`]);
  });

  it("reports a tool without parameters, outputs or description, and keeps its usage", () => {
    const { toolsets, problems } = run({
      tools: [
        {
          file: `raw/${STEM}__Rake.json`,
          json: {
            tool_name: " Rake Leaves ",
            usage: "  rake_leaves()  ",
            output_details: {},
            error_messages: ["Bag full: empty it", 3],
          },
        },
      ],
    });
    const tool = toolsets[0]?.tools[0];
    expect(tool).toMatchObject({
      name: "rake_leaves",
      title: "Rake Leaves",
      description: "Rake Leaves",
      usage: "rake_leaves()",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    });
    expect(tool).not.toHaveProperty("outputSchema");
    expect(tool?.errors.map((e) => e.code)).toEqual(["BAG_FULL"]);
    expect(problems).toEqual([
      `${STEM} rake_leaves parameters: missing; the tool takes no arguments`,
      `${STEM} rake_leaves output_details: no output description; the tool has no outputSchema`,
      `${STEM} rake_leaves tool_description: missing; the tool name stands in for it`,
    ]);
    const blankUsage = run({ tools: [toolFile(STEM, "Hoe", { usage: "   " })] }).toolsets[0]?.tools[0];
    expect(blankUsage).not.toHaveProperty("usage");
  });

  it("adds the tools a task file carries that no tool file provides, once", () => {
    const carried = { tool_json: { tool_name: "Mow Lawn", tool_description: "Mows.", parameters: {} } };
    const { toolsets } = run({
      tools: [toolFile(STEM, "Water Plot")],
      tasks: [
        taskFile(STEM, "t1", {
          tools_data: [
            carried,
            { tool_json: { tool_name: "water plot" } },
            { tool_json: { tool_name: "" } },
            { tool_json: "Dig" },
            "Dig",
          ],
        }),
        taskFile(STEM, "t2", { tools_data: [carried] }),
      ],
    });
    expect(toolsets[0]?.tools.map((t) => t.name)).toEqual(["water_plot", "mow_lawn"]);
  });

  it("qualifies a tool name that several specs use with the spec's number", () => {
    const { toolsets } = run({
      tools: [
        toolFile("garden_care_tool_spec_1", "Water Plot"),
        toolFile("garden_care_tool_spec_2", "Water Plot"),
        toolFile("orchard", "Water Plot"),
        toolFile("garden_care_tool_spec_2", "Prune Hedge"),
      ],
    });
    expect(toolsets.map((t) => [t.id, t.tools.map((k) => k.name)])).toEqual([
      ["garden_care_tool_spec_1", ["water_plot_1"]],
      ["garden_care_tool_spec_2", ["water_plot_2", "prune_hedge"]],
      ["orchard", ["water_plot_orchard"]],
    ]);
  });
});

describe("task files", () => {
  const taskOf = (data: Record<string, unknown>, key = "t1") => {
    const { toolsets, problems } = run({
      tools: [toolFile(STEM, "Water Plot"), toolFile(STEM, "Prune Hedge")],
      tasks: [taskFile(STEM, key, data)],
    });
    return { task: toolsets[0]?.tasks[0], problems };
  };

  it("names the task after its file, and describes it by its text", () => {
    expect(taskOf({}, "weekly.watering").task).toMatchObject({
      id: `${STEM}.weekly.watering`,
      description: "Water the plot.",
    });
    const untitled = run({
      tools: [toolFile(STEM, "Water Plot")],
      tasks: [{ file: `tasks/${STEM}.yaml`, data: { task_data: { task: "  ", task_difficulty: "hard" } } }],
    }).toolsets[0]?.tasks[0];
    expect(untitled).toMatchObject({ id: `${STEM}.task`, description: `${STEM}.task` });
  });

  it("reads each difficulty, either spelling of its key, and takes an unknown one as medium", () => {
    const difficulty = (value: unknown, key = "task_difficulty") =>
      taskOf({ task_data: { task: "t", [key]: value } }).task?.difficulty;
    expect(["easy", "Simple", "medium", "HARD", "complex"].map((d) => difficulty(d))).toEqual([
      "simple",
      "simple",
      "medium",
      "complex",
      "complex",
    ]);
    expect(difficulty("easy", "task_diffuculty")).toBe("simple");
    const unknown = taskOf({ task_data: { task: "t", task_difficulty: 2 } });
    expect(unknown.task?.difficulty).toBe("medium");
    expect(unknown.problems).toEqual([
      `${STEM} - ${STEM}.t1.yml task_data.task_diffuculty: unknown difficulty 2; taken as medium`,
    ]);
  });

  it("marks a task invalid when it needs a tool the toolset lacks, or when the source says so", () => {
    const lacking = taskOf({
      task_data: { task: "t", task_difficulty: "easy", tools_required: ["WaterPlot", "Sow Seeds", 4] },
    });
    expect(lacking.task).toMatchObject({
      valid: false,
      invalid_reason: "needs tools the toolset does not have: Sow Seeds",
    });
    expect(lacking.problems).toEqual([
      `${STEM} - ${STEM}.t1.yml task_data.tools_required: needs tools the toolset does not have: Sow Seeds; marked invalid`,
    ]);
    const declared = taskOf({ task_data: { task: "t", task_difficulty: "easy", task_validity: "invalid" } });
    expect(declared.task).toMatchObject({
      valid: false,
      invalid_reason: "the source marks this task as impossible with these tools",
    });
    expect(declared.problems).toEqual([]);
    const both = taskOf({
      task_data: {
        task: "t",
        task_difficulty: "easy",
        task_validity: "invalid",
        tools_required: ["Sow Seeds"],
      },
    });
    expect(both.task?.invalid_reason).toBe("needs tools the toolset does not have: Sow Seeds");
    expect(both.problems).toEqual([]);
    const fine = taskOf({
      task_data: { task: "t", task_difficulty: "easy", tools_required: ["prune_hedge"] },
    });
    expect(fine.task?.valid).toBe(true);
    expect(fine.task).not.toHaveProperty("invalid_reason");
  });

  it("keys a task's records by their id field, and keeps other values as they are", () => {
    const { task, problems } = taskOf({
      meta_data: {
        field_name: "Garden",
        subfield: "Lawns",
        task: "x",
        tool_budget: 3,
        tool_sequences: [],
        plots: [
          { plot_id: "P1", size: 2 },
          { plot_id: "P2", size: 3 },
        ],
        tools: [
          { name: "rake", id: 7, toolId: "a" },
          { name: "hoe", id: 8, toolId: "a" },
        ],
        visits: [{ visitId: 1 }, { visitId: 1 }],
        notes: [{ text: "dry" }],
        season: "spring",
        sizes: [1, 2],
        empty: [],
      },
    });
    expect(task?.state).toEqual({
      plots: { P1: { plot_id: "P1", size: 2 }, P2: { plot_id: "P2", size: 3 } },
      tools: { "7": { name: "rake", id: 7, toolId: "a" }, "8": { name: "hoe", id: 8, toolId: "a" } },
      visits: [{ visitId: 1 }, { visitId: 1 }],
      notes: [{ text: "dry" }],
      season: "spring",
      sizes: [1, 2],
      empty: [],
    });
    expect(problems).toEqual([
      `${STEM} - ${STEM}.t1.yml meta_data.visits: records have no unique id field; kept as a list`,
      `${STEM} - ${STEM}.t1.yml meta_data.notes: records have no unique id field; kept as a list`,
      `${STEM} - ${STEM}.t1.yml meta_data.empty: records have no unique id field; kept as a list`,
    ]);
  });

  it("keys records by an id field whose values are plain and unique, not by a nested or repeated one", () => {
    const { task } = taskOf({
      meta_data: {
        beds: [
          { bed_id: { n: 1 }, row_id: "r1" },
          { bed_id: { n: 2 }, row_id: "r2" },
        ],
      },
    });
    expect(task?.state).toEqual({
      beds: { r1: { bed_id: { n: 1 }, row_id: "r1" }, r2: { bed_id: { n: 2 }, row_id: "r2" } },
    });
  });

  it("reads the golden calls from call strings, alone, in a list or in objects, and reports the rest", () => {
    const { task, problems } = taskOf({
      solution: [
        'WaterPlot(plot_id="P1")',
        { first: "prune_hedge(plot_id='P2')", second: 5 },
        "SowSeeds(plot_id='P1')",
        "WaterPlot(plot_id=",
      ],
    });
    expect(task?.solution).toEqual([
      { tool: "water_plot", arguments: { plot_id: "P1" } },
      { tool: "prune_hedge", arguments: { plot_id: "P2" } },
    ]);
    expect(problems).toEqual([
      `${STEM} - ${STEM}.t1.yml solution[1]: not a call string; left out`,
      `${STEM} - ${STEM}.t1.yml solution[2]: calls SowSeeds, which the toolset does not have; left out`,
      `${STEM} - ${STEM}.t1.yml solution[3]: cannot read "WaterPlot(plot_id=": expected a value at character 19; left out`,
    ]);
    expect(taskOf({ solution: 'prune_hedge(plot_id="P9")' }).task?.solution).toEqual([
      { tool: "prune_hedge", arguments: { plot_id: "P9" } },
    ]);
    expect(taskOf({}).task?.solution).toEqual([]);
  });
});
