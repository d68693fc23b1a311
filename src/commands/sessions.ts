import type { Command } from "./command.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore } from "./session-db.js";

const HELP = `toolsim sessions — list the sessions of a state file

Usage: toolsim sessions [--json] [--db FILE|URL]

  --json               print the sessions as JSON
${DB_HELP}
`;

export const sessionsCommand: Command = {
  name: "sessions",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { ...DB_OPTION, json: { type: "boolean" } },
      strict: true,
    });
    const store = await openExistingStore(values, "read");
    try {
      const sessions = [];
      for (const session of await store.sessions()) {
        sessions.push({
          id: session.id,
          tenant: session.tenant,
          name: session.name,
          task: session.taskId,
          headVersion: session.headVersion,
          calls: session.nextSeq - 1,
          checkpoints: (await store.checkpoints(session.id)).map(({ name, version }) => ({ name, version })),
          forkedFrom: session.forkedFrom,
          createdAt: session.createdAt,
          updatedAt: session.updatedAt,
        });
      }
      if (values.json) {
        process.stdout.write(`${JSON.stringify({ sessions }, null, 2)}\n`);
        return 0;
      }
      if (sessions.length === 0) {
        process.stdout.write(`no sessions in ${store.location}\n`);
        return 0;
      }
      const lines = sessions.map((s) => {
        const label = s.name ? `${s.name} (${s.id})` : s.id;
        const checkpoints = s.checkpoints.length
          ? `; checkpoints ${s.checkpoints.map((c) => `${c.name}@v${c.version}`).join(", ")}`
          : "";
        const fork = s.forkedFrom ? `; fork of ${s.forkedFrom}` : "";
        const tenant = s.tenant ? `tenant ${s.tenant}; ` : "";
        return `${label}\n  ${tenant}task ${s.task ?? "(none)"}; state v${s.headVersion}; ${s.calls} call${s.calls === 1 ? "" : "s"}${checkpoints}${fork}; updated ${s.updatedAt}`;
      });
      process.stdout.write(`${lines.join("\n")}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
