import { toolsetJsonSchema } from "../catalog/index.js";
import type { Command } from "./command.js";
import { parseArgs } from "./options.js";

export const schemaCommand: Command = {
  name: "schema",
  help: `toolsim schema — print the toolset file format as JSON Schema (draft 2020-12)

Usage: toolsim schema > schema/toolset.schema.json

Point an editor at it with "$schema" at the top of a toolset file for completion and checks.
`,
  async run(argv) {
    parseArgs({ args: argv, options: {} }); // it takes no options: a stray one is a usage error
    process.stdout.write(`${JSON.stringify(toolsetJsonSchema(), null, 2)}\n`);
    return 0;
  },
};
