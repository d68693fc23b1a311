import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildReport, reportHtml, reportText } from "../tasks/index.js";
import { CATALOG_HELP, CATALOG_OPTIONS, loadCatalog } from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { checklistJudgeFor, JUDGE_HELP, JUDGE_OPTION, judgeMode } from "./judge-options.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore, requireSession } from "./session-db.js";

const HELP = `toolsim report — what happened in a session: calls, ToolScan error patterns, the verdict

Usage: toolsim report SESSION [--json] [--html FILE] [options]

Counts calls (accepted, rejected), the rate of each ToolScan pattern (IFN IAN IAT IAV IFE RAC per
call; IAC from judging the task), judges the task, and sums model tokens and latency.

  SESSION              session name or id (toolsim sessions lists them)
  --json               print the report as JSON (with the full timeline)
  --html FILE          also write an HTML page with the call timeline and each call's state changes
${JUDGE_HELP}
${DB_HELP}
${CATALOG_HELP}
`;

export const reportCommand: Command = {
  name: "report",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        ...DB_OPTION,
        ...CATALOG_OPTIONS,
        ...JUDGE_OPTION,
        json: { type: "boolean" },
        html: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError("name one session: toolsim report SESSION");
    const mode = judgeMode(values.judge);
    const loaded = loadCatalog(values, { checkSchemas: false });
    if (!loaded) return 1;
    const store = await openExistingStore(values, "read");
    try {
      const session = await requireSession(store, positionals[0]);
      const checklistJudge = checklistJudgeFor(store);
      const report = await buildReport({ catalog: loaded.catalog, store, checklistJudge }, session, { mode });
      if (values.html) {
        const file = resolve(values.html);
        writeFileSync(file, reportHtml(report));
        process.stderr.write(`toolsim: wrote ${file}\n`);
      }
      process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
      return 0;
    } finally {
      await store.close();
    }
  },
};
