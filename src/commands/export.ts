import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createRuntime } from "../runtime/index.js";
import { exportOpenAi } from "../tasks/index.js";
import { CATALOG_HELP, CATALOG_OPTIONS, loadCatalog } from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { checklistJudgeFor } from "./judge-options.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore, requireSession } from "./session-db.js";

const HELP = `toolsim export — sessions as training traces

Usage: toolsim export SESSION... --format openai [--out FILE] [options]

Writes one JSON line per session in the OpenAI chat format: a system prompt, the tools the
session offered, the task as the user's message, each tool call with the tool's answer, and
the agent's final answer. Each call carries a reward in "rewards": -1 rejected, 0 accepted
but not advancing the task, +1 a golden step done or a checklist item completed; rejected
calls also get weight 0 so supervised fine-tuning skips them. Calls undone by a restore or a
reset are left out. Sessions must be on a task.

  SESSION...           session names or ids (toolsim sessions lists them)
  --format openai      the output format (only openai for now)
  --out FILE           write to FILE instead of stdout
${DB_HELP}
${CATALOG_HELP}
`;

export const exportCommand: Command = {
  name: "export",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...DB_OPTION, ...CATALOG_OPTIONS, format: { type: "string" }, out: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0)
      throw new UsageError("name at least one session: toolsim export SESSION --format openai");
    if (values.format !== "openai") {
      throw new UsageError(
        `--format openai is required (the only format so far)${values.format ? `; got "${values.format}"` : ""}`,
      );
    }
    const loaded = loadCatalog(values, { checkSchemas: false });
    if (!loaded) return 1;
    const runtime = await createRuntime({
      catalog: loaded.catalog,
      db: await openExistingStore(values, "read"),
    });
    try {
      const checklistJudge = checklistJudgeFor(runtime.store);
      const lines: string[] = [];
      for (const key of positionals) {
        const session = await requireSession(runtime.store, key);
        const exported = await exportOpenAi(
          { catalog: loaded.catalog, store: runtime.store, checklistJudge },
          session,
          await runtime.engine.tools(session.id),
        );
        if (!exported.ok) throw new UsageError(`session ${key}: ${exported.error}`);
        lines.push(JSON.stringify(exported.example));
      }
      const text = `${lines.join("\n")}\n`;
      if (values.out) {
        const file = resolve(values.out);
        writeFileSync(file, text);
        process.stderr.write(
          `toolsim: wrote ${lines.length} line${lines.length === 1 ? "" : "s"} to ${file}\n`,
        );
      } else {
        process.stdout.write(text);
      }
      return 0;
    } finally {
      await runtime.close();
    }
  },
};
