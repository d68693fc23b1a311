import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importBfcl, importOpenAiFunctions } from "../src/catalog/importers/index.js";
import { type Tool, validatorFor } from "../src/catalog/index.js";
import { OfflineSimulator } from "../src/simulate/index.js";
import { State } from "../src/state/index.js";
import { connectStdio, tempDir } from "./support/index.js";

/** Fixes found by importing outside data: array enums, renaming suffixes, passes without a model. */

const sensors = {
  name: "read_sensors",
  description: "Latest readings of the chosen sensor kinds.",
  parameters: {
    type: "dict",
    properties: {
      kinds: {
        type: "array",
        items: { type: "string" },
        enum: ["heat", "damp", "dust"],
        description: "Which kinds of readings.",
      },
    },
    required: ["kinds"],
  },
};

describe("an enum on an array parameter lists the allowed items", () => {
  it("BFCL: the array takes those items, and the move is noted", () => {
    const { toolsets, problems } = importBfcl({
      entries: [
        { file: "BFCL_v4_simple.json", entry: { id: "simple_0", question: "Dust?", function: [sensors] } },
      ],
      answers: new Map(),
      functionDocs: [],
    });
    const tool = toolsets[0]?.tools[0] as Tool;
    const kinds = (tool.inputSchema.properties as Record<string, Record<string, unknown>>).kinds;
    expect(kinds).toMatchObject({ type: "array", items: { type: "string", enum: ["heat", "damp", "dust"] } });
    expect(kinds).not.toHaveProperty("enum");
    const validate = validatorFor(tool.inputSchema);
    expect(validate({ kinds: ["dust", "heat"] })).toBe(true);
    expect(validate({ kinds: ["smoke"] })).toBe(false);
    expect(problems.map((p) => p.message)).toContain(
      "an enum on an array parameter lists the allowed items; moved to items",
    );
  });

  it("OpenAI functions: the same", () => {
    const { toolsets } = importOpenAiFunctions(
      { functions: [{ ...sensors, parameters: { ...sensors.parameters, type: "object" } }] },
      { id: "sensors" },
    );
    const tool = toolsets[0]?.tools[0];
    if (!tool) throw new Error("nothing imported");
    const validate = validatorFor(tool.inputSchema);
    expect(validate({ kinds: ["damp"] })).toBe(true);
    expect(validate({ kinds: ["damp", "fog"] })).toBe(false);
  });
});

describe("a renamed tool keeps its own words in what is synthesized for it", () => {
  it("the number an importer appends to a clashing name appears in no message", () => {
    const { toolsets } = importOpenAiFunctions(
      {
        functions: [
          { name: "refund_total", description: "Refund an order in full.", parameters: { type: "object" } },
          { name: "refund_total", description: "Refund a booking in full.", parameters: { type: "object" } },
        ],
      },
      { id: "refunds" },
    );
    const second = toolsets[0]?.tools[1] as Tool;
    expect(second.name).toBe("refund_total_2");
    const tool: Tool = {
      ...second,
      outputSchema: {
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      },
    };
    const outcome = new OfflineSimulator().respondNow({
      tool,
      args: {},
      state: State.fromDocument({}),
      effects: { status: "none" },
      history: [],
      seed: "0",
      now: "2026-03-02T09:00:00Z",
    });
    expect(outcome.kind).toBe("success");
    const result = outcome.kind === "success" ? (outcome.result as Record<string, unknown>) : {};
    const message = String(result.message);
    // the confirmation speaks of the tool's own words ("Total refunded successfully")
    expect(message).toMatch(/total/i);
    expect(message).toMatch(/refund/i);
    expect(message).not.toMatch(/\b2\b/);
  });
});

describe("passes that need a model", () => {
  it("--semantic-check and --audit without a model say so at start", async () => {
    const dir = tempDir();
    const { client, stderr } = await connectStdio([
      "--semantic-check",
      "--audit",
      "--db",
      join(dir.path, "t.db"),
    ]);
    try {
      expect(stderr()).toContain("--semantic-check and --audit need a model and will not run");
    } finally {
      await client.close();
      dir.cleanup();
    }
  });
});
