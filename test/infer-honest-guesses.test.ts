import { describe, expect, it } from "vitest";
import { call, inferred, integer, outputs, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Where inference has to choose between readings the API's words allow, the choice is made
 * and the verdict says so (`partly`, with the gap): a tool is reported inferred only where
 * nothing in its answer or its change is a pick among equally likely readings.
 */

describe("a new record's first status", () => {
  /** A repair shop's jobs, in a lifecycle the enum lists. */
  const shop = (statuses: string[]): State => ({
    jobs: {
      J1: { bike: "Cargo", status: statuses[1] },
      J2: { bike: "Road", status: statuses.at(-1) },
      J3: { bike: "Gravel", status: statuses[0] },
    },
  });
  const status = (values: string[]) => ({ type: "string", enum: values });
  const open = (values: string[]) =>
    tool("open_job", "Open a repair job for a bike.", { bike: text }, ["bike"], [], {
      outputSchema: { type: "object", properties: { job_id: text, status: status(values) } },
    });

  it("takes the enum's first beginning where two could start, and says the pick is a guess", async () => {
    const values = ["queued", "pending", "done"];
    const { after, report } = await call(world(shop(values), [open(values)]), "open_job", { bike: "BMX" });
    const made = Object.entries(after.jobs as Record<string, State>).find(([k]) => !/^J[123]$/.test(k));
    expect(made?.[1]).toMatchObject({ bike: "BMX", status: "queued" });
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(
      /status 'queued' is the first of ('pending', 'queued'|'queued', 'pending') in the API's enum/,
    );
  });

  it("claims the start where only one status begins a lifecycle", async () => {
    const values = ["pending", "fixing", "done"];
    const { after, report } = await call(world(shop(values), [open(values)]), "open_job", { bike: "BMX" });
    const made = Object.entries(after.jobs as Record<string, State>).find(([k]) => !/^J[123]$/.test(k));
    expect(made?.[1]).toMatchObject({ status: "pending" });
    expect(report.gaps.join(" ")).not.toMatch(/a guess at which one/);
    expect(report.verdict).toBe("inferred");
  });
});

describe("documented fields that no record keeps", () => {
  /** A lending library: loans keep a title and a due date, never a fee. */
  const library = (): State => ({
    loans: {
      L1: { title: "Dune", due: "2026-03-09" },
      L2: { title: "Emma", due: "2026-03-12" },
    },
  });
  const receipt = tool("get_loan_receipt", "The receipt of a loan.", { loan_id: text }, ["loan_id"], [], {
    ...outputs({
      receipt: {
        type: "object",
        properties: { loan_id: text, title: text, due: text, late_fee: { type: "number" } },
      },
    }),
  });

  it("answers what the record keeps and says which documented fields it cannot", async () => {
    const { answer, report } = await call(world(library(), [receipt]), "get_loan_receipt", { loan_id: "L2" });
    expect(answer).toMatchObject({ receipt: { title: "Emma", due: "2026-03-12" } });
    expect(report.verdict).toBe("partly");
    expect(report.gaps).toContain("documented, but kept by no record and given to no tool: receipt.late_fee");
  });

  it("counts a field some tool of the API gives a record as kept", () => {
    const charge = tool("set_late_fee", "Set a loan's late fee.", { loan_id: text, late_fee: integer });
    const { report } = inferred(world(library(), [receipt, charge]), "get_loan_receipt");
    expect(report.gaps.join(" ")).not.toMatch(/kept by no record/);
    expect(report.verdict).toBe("inferred");
  });
});

describe("a size written as text", () => {
  const drive = (): State => ({
    drive: {
      cwd: "/",
      root: { type: "directory", children: { "a.txt": { type: "file", content: "four" } } },
    },
  });

  it("is written in bytes, and the spelling is reported as a guess", async () => {
    const usage = tool(
      "disk_usage",
      "Space used under a folder.",
      { path: text },
      [],
      [],
      outputs({ usage: text }),
    );
    const { answer, report } = await call(world(drive(), [usage]), "disk_usage", { path: "/" });
    expect(answer).toEqual({ usage: "4 bytes" });
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toContain('usage writes the size as "N bytes"');
  });

  it("is no guess where the answer is a number", () => {
    const usage = tool(
      "disk_usage",
      "Bytes used under a folder.",
      { path: text },
      [],
      [],
      outputs({ size: integer }),
    );
    const { report } = inferred(world(drive(), [usage]), "disk_usage");
    expect(report.verdict).toBe("inferred");
  });
});

describe("what a file system answers in its own words", () => {
  const drive = (): State => ({
    drive: {
      cwd: "/",
      root: { type: "directory", children: { "a.txt": { type: "file", content: "four" } } },
    },
  });
  const path = { path: text };

  it("a write that answers one text says what it did in a sentence of its own: a guess", () => {
    const write = tool("write_file", "Write a file.", { ...path, content: text }, ["path", "content"], [], {
      ...outputs({ content: text }),
    });
    const { report } = inferred(world(drive(), [write]), "write_file");
    expect(report.verdict).toBe("partly");
    expect(report.guessed).toEqual(["content"]);
  });

  it("a read whose answer is a list of media blocks is not the file's text", () => {
    const blocks = { type: "array", items: { type: "object", properties: { type: text, data: text } } };
    const media = tool(
      "read_media_file",
      "Read an image or audio file.",
      path,
      ["path"],
      [],
      outputs({ content: blocks }),
    );
    const { report } = inferred(world(drive(), [media]), "read_media_file");
    expect(report.verdict).toBe("partly");
    expect(report.guessed).toEqual(["content"]);
    const plain = tool("read_file", "Read a file.", path, ["path"], [], outputs({ content: text }));
    expect(inferred(world(drive(), [plain]), "read_file").report.verdict).toBe("inferred");
  });

  it("what a path is, as one text, lists the facts toolsim knows, and says the choice is a guess", async () => {
    const info = tool("get_file_info", "What a path is.", path, ["path"], [], outputs({ content: text }));
    const { answer, report } = await call(world(drive(), [info]), "get_file_info", { path: "/a.txt" });
    expect(answer).toEqual({ content: "name: a.txt\npath: /a.txt\ntype: file\nsize: 4" });
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toContain("which facts of a path the API lists");
  });

  it("a listing that names no folder, in a world that keeps no current one, lists the root as a guess", () => {
    const rootOnly = (): State => ({
      drive: { root: { type: "directory", children: { "a.txt": { type: "file", content: "four" } } } },
    });
    const shares = tool("list_shared_folders", "The folders this account may open.", {}, []);
    expect(inferred(world(rootOnly(), [shares]), "list_shared_folders").report.verdict).toBe("partly");
    // where a current folder is kept, or the docs speak of one, the listing means it
    const here = tool("list_folder", "List the current folder.", {}, []);
    expect(inferred(world(rootOnly(), [here]), "list_folder").report.verdict).toBe("inferred");
    expect(inferred(world(drive(), [shares]), "list_shared_folders").report.verdict).toBe("inferred");
  });
});

describe("a spread of numbers", () => {
  const numbers = { numbers: { type: "array", items: { type: "number" } } };
  const spread = (name: string, description: string) =>
    tool(name, description, numbers, ["numbers"], [], outputs({ result: { type: "number" } }));

  it("is of a sample where the tool does not say, and the reading is reported as a guess", async () => {
    const { answer, report } = await call(
      world({}, [spread("stdev", "The standard deviation of a list of numbers.")]),
      "stdev",
      { numbers: [2, 4, 4, 4, 5, 5, 7, 9] },
    );
    expect((answer as { result: number }).result).toBeCloseTo(2.138, 3);
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toContain("says neither sample nor population");
  });

  it("is what the tool says: of a population, or of a sample", async () => {
    const population = await call(
      world({}, [spread("population_std", "The population standard deviation of the numbers.")]),
      "population_std",
      { numbers: [2, 4, 4, 4, 5, 5, 7, 9] },
    );
    expect((population.answer as { result: number }).result).toBe(2);
    expect(population.report.verdict).toBe("inferred");
    const sample = inferred(
      world({}, [spread("sample_std", "The sample standard deviation of the numbers.")]),
      "sample_std",
    );
    expect(sample.report.verdict).toBe("inferred");
  });
});

describe("a condition the description states", () => {
  const garden = (): State => ({
    plots: {
      PL1: { plot_id: "PL1", crop: "beans", gardener: "ada", fenced: false },
      PL2: { plot_id: "PL2", crop: "kale", gardener: "bo", fenced: true },
    },
  });

  it("makes a change that checks nothing but existence only partly known", () => {
    const assign = tool(
      "assign_plot",
      "Assign a plot to a gardener. Assigning fails when the gardener already tends three plots.",
      { plot_id: text, gardener: text },
    );
    const { report } = inferred(world(garden(), [assign]), "assign_plot");
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(
      /states a condition no effect checks: "Assigning fails when the gardener already tends three plots\."/,
    );
  });

  it("is no gap where an effect guards the change, or where it speaks of an argument's form", () => {
    const guarded = tool("replant_plot", "Replant a plot. Fenced plots cannot be replanted.", {
      plot_id: text,
      crop: text,
    });
    expect(inferred(world(garden(), [guarded]), "replant_plot").report.gaps.join(" ")).not.toMatch(
      /states a condition/,
    );
    const form = tool(
      "update_plot",
      "Update a plot. The crop must be given in lower case letters, as shown.",
      {
        plot_id: text,
        crop: text,
      },
    );
    expect(inferred(world(garden(), [form]), "update_plot").report.verdict).toBe("inferred");
  });
});

describe("fields every record of a kind holds", () => {
  const mailbox = (): State => ({
    notes: {
      N1: { note_id: "N1", text: "a", author: "ann", pinned: false },
      N2: { note_id: "N2", text: "b", author: "bob", pinned: true },
      N3: { note_id: "N3", text: "c", author: "ann", pinned: false },
    },
  });

  it("make a create that fills one from nothing it knows only partly known, naming it", () => {
    const create = tool("create_note", "Create a note.", { text });
    const { report } = inferred(world(mailbox(), [create]), "create_note");
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(/a new note lacks what every one has: author/);
  });

  it("are no gap where the create is given them", () => {
    const create = tool("create_note", "Create a note.", { text, author: text });
    expect(inferred(world(mailbox(), [create]), "create_note").report.gaps.join(" ")).not.toMatch(/lacks/);
  });
});
