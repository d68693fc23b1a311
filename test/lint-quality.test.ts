import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { proseChoices, qualityProblems, Toolset } from "../src/catalog/index.js";
import { runCli, tempDir } from "./support/index.js";

const dir = tempDir();
afterAll(() => dir.cleanup());

const toolset = Toolset.parse({
  id: "kennel",
  field: "Pet care",
  subdomain: "Boarding",
  description: "Book kennel stays.",
  tools: [
    {
      name: "do_stuff",
      description: "Does it.",
      inputSchema: {
        type: "object",
        properties: {
          size: { type: "string", description: "Kennel size: one of small, medium, large" },
          notes: { type: "string" },
          pet_id: { type: "string", description: "The pet to board, as registered at the desk." },
        },
      },
    },
    {
      name: "cancel_stay",
      description: "Cancels a booked kennel stay and frees the kennel for other pets.",
      inputSchema: {
        type: "object",
        properties: { stay_id: { type: "string", description: "Stay to cancel" } },
        required: ["stay_id"],
      },
      outputSchema: { type: "object", properties: { status: { type: "string" } } },
      errors: [
        { code: "STAY_NOT_FOUND", message: "No stay {stay_id}.", when: "the stay does not exist" },
        { code: "ALREADY_STARTED", message: "Too late.", when: "the stay has begun" },
      ],
      effects: [
        {
          kind: "update",
          target: "stays/{stay_id}",
          set: { status: "cancelled" },
          missing: "STAY_NOT_FOUND",
        },
      ],
    },
  ],
});

describe("lint quality rules", () => {
  it("flags vague names and descriptions, undocumented parameters, prose enums, missing outputs, dead errors", () => {
    const messages = qualityProblems("kennel.json", toolset).map(
      (p) => `${p.severity} ${p.path}: ${p.message}`,
    );
    expect(messages).toEqual([
      expect.stringMatching(/^warning tools\[0\]\.name: the name "do_stuff" does not say/),
      expect.stringMatching(/^warning tools\[0\]\.description: the description "Does it\." is too short/),
      'warning tools[0].inputSchema.properties.size: parameter "size" lists its allowed values only in prose; add "enum": ["small","medium","large"]',
      'warning tools[0].inputSchema.properties.notes: parameter "notes" has no description',
      expect.stringMatching(/^warning tools\[0\]: do_stuff has no outputSchema/),
      "warning tools[1].errors[1].code: error ALREADY_STARTED is documented but no effect of cancel_stay produces it",
    ]);
  });

  it("reads choices only from short word lists", () => {
    expect(proseChoices("Patient's gender (options: male, female, other, unknown).")).toEqual([
      "male",
      "female",
      "other",
      "unknown",
    ]);
    expect(proseChoices("Citation style being used: APA, MLA, Chicago")).toBeUndefined();
    expect(proseChoices("Specifies whether to 'create' a new profile or 'update' one.")).toBeUndefined();
    expect(proseChoices("Must be either 'create' or 'update'")).toEqual(["create", "update"]);
    expect(
      proseChoices("Free text notes, written by the owner or the vet, in any language."),
    ).toBeUndefined();
  });

  it("toolsim lint prints the warnings and still exits 0", async () => {
    const file = join(dir.path, "kennel.json");
    writeFileSync(file, JSON.stringify(toolset));
    const run = await runCli(["lint", file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("0 error(s), 6 warning(s)");
    expect(run.stdout).toContain('add "enum": ["small","medium","large"]');
  });

  it("warns about input schemas that do not survive conversion for agent frameworks", () => {
    const rich = Toolset.parse({
      id: "kennel_extras",
      field: "Pet care",
      subdomain: "Boarding",
      description: "Extras for kennel stays.",
      tools: [
        {
          name: "add_stay_extras",
          description: "Adds grooming and feeding extras to a booked kennel stay.",
          inputSchema: JSON.parse(
            JSON.stringify({
              type: "object",
              properties: {
                stay_id: { type: "string", description: "Stay to extend." },
                extras: { type: "object", additionalProperties: true, description: "Extras by name." },
              },
              required: ["stay_id"],
              additionalProperties: false,
              if: { minProperties: 2 },
              ["th" + "en"]: { required: ["extras"] },
            }),
          ),
          outputSchema: { type: "object", properties: { ok: { type: "boolean" } } },
        },
      ],
    });
    const messages = qualityProblems("extras.json", rich).map((p) => p.message);
    expect(messages).toEqual([
      expect.stringContaining(
        "add_stay_extras does not survive conversion for agent frameworks: (root): a rule",
      ),
      expect.stringContaining("extras: a free-form object cannot be described in OpenAI strict mode"),
    ]);
  });
});
