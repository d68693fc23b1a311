import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { findToolsetFiles, toolsetJsonSchema } from "../src/catalog/index.js";
import { LIBRARY, SHIPPED_TOOLSETS } from "./support/index.js";

const SCHEMA_FILE = resolve(import.meta.dirname, "../schema/toolset.schema.json");

describe("the toolset format as JSON Schema", () => {
  it("the committed schema/toolset.schema.json is what the zod format generates (run npm run schema)", () => {
    expect(JSON.parse(readFileSync(SCHEMA_FILE, "utf8"))).toEqual(toolsetJsonSchema());
  });

  it("accepts every shipped toolset and rejects a broken one, as the loader does", () => {
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(toolsetJsonSchema());
    const files = [...findToolsetFiles([SHIPPED_TOOLSETS]).files, LIBRARY];
    for (const file of files) {
      expect(
        validate(JSON.parse(readFileSync(file, "utf8"))),
        `${file}: ${JSON.stringify(validate.errors)}`,
      ).toBe(true);
    }
    const broken = JSON.parse(readFileSync(join(LIBRARY), "utf8"));
    broken.tools[0].effects[0].kind = "fetch";
    expect(validate(broken)).toBe(false);
  });
});
