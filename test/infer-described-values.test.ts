import { describe, expect, it } from "vitest";
import { call, error, failure, outputs, text, tool, world } from "./support/infer-world.js";

/** A tool crib's repairs: the value an update's docs give a field is what it writes. */

const crib = () => ({
  tools: {
    "DR-7": { kind: "drill", wear: "worn_out" },
    "SW-2": { kind: "saw", wear: "ok" },
  },
});

describe("a value the docs give a field", () => {
  it("is written by the update, and refused where the record has it already", async () => {
    const fix = tool(
      "crib_mark_fixed",
      'Marks a tool fixed: its wear goes from "worn_out" to "ok". Returns tool_id and wear. Errors: TOOL_NOT_FOUND; NOT_WORN if the wear is already "ok".',
      { tool_id: text },
      ["tool_id"],
      [
        error("TOOL_NOT_FOUND", "No such tool.", "no tool has this id", 404),
        error("NOT_WORN", "Not worn.", 'the wear is already "ok"', 409),
      ],
      outputs({ tool_id: text, wear: text }),
    );
    const toolset = world(crib(), [fix]);
    const fixed = await call(toolset, "crib_mark_fixed", { tool_id: "DR-7" });
    expect((fixed.after.tools as Record<string, { wear: string }>)["DR-7"]?.wear).toBe("ok");
    expect(fixed.answer).toMatchObject({ wear: "ok" });
    expect(failure((await call(toolset, "crib_mark_fixed", { tool_id: "SW-2" })).outcome)).toBe("NOT_WORN");
  });

  it("is not written where the docs give it only under a condition", async () => {
    const inspect = tool(
      "crib_inspect",
      'Inspects a tool. If it is damaged, sets wear to "worn_out". Returns tool_id and wear.',
      { tool_id: text, damaged: { type: "boolean" } },
      ["tool_id"],
      [],
      outputs({ tool_id: text, wear: text }),
    );
    const looked = await call(world(crib(), [inspect]), "crib_inspect", { tool_id: "SW-2", damaged: false });
    expect((looked.after.tools as Record<string, { wear: string }>)["SW-2"]?.wear).toBe("ok");
  });
});
