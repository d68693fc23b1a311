import { faultProfileJsonSchema, toolsetJsonSchema } from "../catalog/index.js";
import type { Command } from "./command.js";
import { parseArgs } from "./options.js";

export const schemaCommand: Command = {
  name: "schema",
  help: `toolsim schema — print the toolset file format (or the fault profile format) as JSON Schema (draft 2020-12)

Usage: toolsim schema > schema/toolset.schema.json
       toolsim schema --faults > schema/faults.schema.json

Point an editor at it with "$schema" at the top of a toolset file (or a fault profile) for
completion and checks.

  --faults             the fault profile format (docs/faults.md) instead of the toolset format
`,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { faults: { type: "boolean" } } });
    const schema = values.faults ? faultProfileJsonSchema() : toolsetJsonSchema();
    process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    return 0;
  },
};
