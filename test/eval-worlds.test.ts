import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadToolsets } from "../src/catalog/index.js";

/**
 * The worlds inference is developed and tried on (`eval/worlds/`) are served as one catalog
 * each by the evaluation: a world that does not load, or two that name a tool alike, stops a
 * whole folder from being measured.
 */

const WORLDS = join(import.meta.dirname, "..", "eval", "worlds");

describe("the evaluation's worlds", () => {
  for (const folder of ["dev", "held-out"]) {
    it(`${folder}: every world loads, with no tool named twice across them`, () => {
      const { toolsets, problems } = loadToolsets([join(WORLDS, folder)]);
      expect(problems.filter((p) => p.severity === "error")).toEqual([]);
      expect(toolsets.length).toBeGreaterThan(3);
    });
  }
});
