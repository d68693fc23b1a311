import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { exportRun, readPlan, type StoredPlan } from "../run/index.js";
import { createRuntime } from "../runtime/index.js";
import type { Store } from "../store/index.js";
import { exportOpenAi } from "../tasks/index.js";
import { CATALOG_HELP, CATALOG_OPTIONS, loadCatalog } from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { checklistJudgeFor } from "./judge-options.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore, requireSession } from "./session-db.js";

const HELP = `toolsim export — sessions as training traces

Usage: toolsim export SESSION... --format openai [--out FILE] [options]
       toolsim export --run RUN --format openai [--out FILE] [options]

Writes one JSON line per session in the OpenAI chat format: a system prompt, the tools the
session offered, the task as the user's message, each tool call with the tool's answer, and
the agent's final answer. Each call carries a reward in "rewards": -1 rejected, 0 accepted
but not advancing the task, +1 a golden step done or a checklist item completed; rejected
calls also get weight 0 so supervised fine-tuning skips them. Calls undone by a restore or a
reset are left out. Sessions must be on a task.

  SESSION...           session names or ids (toolsim sessions lists them)
  --run RUN            every finished attempt of a run (toolsim run), in its task order: the conversation
                       as it went (user turns, the judge's feedback, the answers), and in "metadata" the
                       run, the attempt, its outcome and its reward (1 passed, 0 not)
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
      options: {
        ...DB_OPTION,
        ...CATALOG_OPTIONS,
        format: { type: "string" },
        out: { type: "string" },
        run: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    });
    if (values.run !== undefined && positionals.length > 0)
      throw new UsageError("give sessions or --run RUN, not both");
    if (positionals.length === 0 && values.run === undefined)
      throw new UsageError(
        "name at least one session (toolsim export SESSION --format openai) or a run (--run RUN)",
      );
    if (values.format !== "openai") {
      throw new UsageError(
        `--format openai is required (the only format so far)${values.format ? `; got "${values.format}"` : ""}`,
      );
    }
    const store = await openExistingStore(values, "read");
    const plan = values.run !== undefined ? await runPlan(store, values.run) : undefined;
    const loaded = loadCatalog(
      plan && !values.toolsets?.length
        ? { toolsets: plan.settings.toolsets, toolset: plan.settings.toolset }
        : values,
      { checkSchemas: false, infer: plan !== undefined },
    );
    if (!loaded) {
      await store.close();
      return 1;
    }
    const runtime = await createRuntime({ catalog: loaded.catalog, db: store });
    try {
      const checklistJudge = checklistJudgeFor(runtime.store);
      const lines: string[] = [];
      if (plan && values.run !== undefined) {
        const { examples, skipped } = await exportRun(
          { catalog: loaded.catalog, store: runtime.store, checklistJudge, engine: runtime.engine },
          values.run,
          plan,
        );
        for (const example of examples) lines.push(JSON.stringify(example));
        for (const skip of skipped) process.stderr.write(`toolsim: left out ${skip.session}: ${skip.why}\n`);
      }
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
      const text = lines.length ? `${lines.join("\n")}\n` : "";
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

/** A run's stored plan, or a usage error naming the runs there are. */
async function runPlan(store: Store, id: string): Promise<StoredPlan> {
  const run = await store.run(id);
  if (!run) {
    const known = (await store.runs()).slice(-10).map((r) => r.id);
    await store.close();
    throw new UsageError(
      `no run "${id}" in ${store.location}${known.length ? `; runs: ${known.join(", ")}` : "; it has no runs"}`,
    );
  }
  const read = readPlan(run);
  if (!read.ok) {
    await store.close();
    throw new UsageError(read.error);
  }
  return read.plan;
}
