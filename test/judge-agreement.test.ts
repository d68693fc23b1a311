import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FREE_TEXT_THRESHOLD, textOverlap } from "../src/tasks/index.js";
import { catalogOf, SHIPPED_TOOLSETS } from "./support/index.js";
import {
  agreementMarkdown,
  agreementTable,
  buildVariants,
  loadRewordings,
  type Played,
  playVariants,
} from "./support/judge-variants.js";

/**
 * The golden judge's agreement on variants of the shipped tasks' solutions: the exact
 * solution, paraphrased notes, notes about something else, wrong ids, amounts and places,
 * omitted calls, reordered parallel steps, extra lookups. TOOLSIM_AGREEMENT_OUT=FILE writes
 * the table docs/tasks.md quotes.
 */
describe("golden judge agreement on the shipped tasks", () => {
  const toolsets = catalogOf([SHIPPED_TOOLSETS]).toolsets;
  const rewordings = loadRewordings();
  const { paraphrases } = rewordings;
  const variants = buildVariants(toolsets, rewordings);
  let played: Played[] = [];

  it("plays every variant of every task", { timeout: 120_000 }, async () => {
    played = await playVariants(variants);
    expect(played).toHaveLength(variants.length);
    expect(new Set(variants.map((v) => v.task)).size).toBe(toolsets.flatMap((t) => t.tasks).length);
    const out = process.env.TOOLSIM_AGREEMENT_OUT;
    if (out) writeFileSync(out, `${agreementMarkdown(agreementTable(played))}\n`);
  });

  it("never calls a wrong trace solved, short of a note that says the opposite in the same words", () => {
    const fooled = played.filter(
      (p) => !p.variant.solved && p.variant.kind !== "contradicting text" && p.judged !== false,
    );
    expect(fooled.map((p) => `${p.variant.task}: ${p.variant.kind}: ${p.variant.change}`)).toEqual([]);
  });

  it("solves the exact solution, reordered parallel steps and extra lookups every time", () => {
    const strict = played.filter(
      (p) => p.variant.solved && p.variant.kind !== "paraphrased text" && p.judged !== true,
    );
    expect(strict.map((p) => `${p.variant.task}: ${p.variant.kind}: ${p.variant.change}`)).toEqual([]);
  });

  it("accepts most paraphrased notes offline (the rest need the model judge)", () => {
    const paraphrased = played.filter((p) => p.variant.kind === "paraphrased text");
    expect(paraphrased.length).toBeGreaterThanOrEqual(30);
    const accepted = paraphrased.filter((p) => p.judged === true).length;
    expect(accepted / paraphrased.length).toBeGreaterThanOrEqual(0.75);
  });

  it("the overlap threshold separates paraphrases from other notes", () => {
    const texts = Object.keys(paraphrases);
    const own = texts.flatMap((text) => (paraphrases[text] ?? []).map((p) => textOverlap(text, p).score));
    const others = texts.flatMap((text) =>
      texts.filter((other) => other !== text).map((other) => textOverlap(text, other).score),
    );
    const below = own.filter((score) => score < FREE_TEXT_THRESHOLD).length;
    const above = others.filter((score) => score >= FREE_TEXT_THRESHOLD).length;
    expect(above).toBe(0);
    expect(below / own.length).toBeLessThanOrEqual(0.25);
  });
});
