import { type Command, UsageError } from "./command.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore, requireSession } from "./session-db.js";

const HELP = `toolsim checkpoint — name a state version of a session, to restore or fork it later

Usage: toolsim checkpoint SESSION NAME [--version N] [--db FILE|URL]

  SESSION              session name or id (toolsim sessions lists them)
  NAME                 checkpoint name (letters, digits, _ . : -); an existing one is moved
  --version N          the version to name (default: the session's current state)
${DB_HELP}
`;

export const checkpointCommand: Command = {
  name: "checkpoint",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...DB_OPTION, version: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
    const [key, name, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(" ")}`);
    if (!name)
      throw new UsageError("give the session and the checkpoint name: toolsim checkpoint SESSION NAME");
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(name)) {
      throw new UsageError(`checkpoint names are 1-64 letters, digits, "_", ".", ":" or "-"; got "${name}"`);
    }
    const store = await openExistingStore(values);
    try {
      const session = await requireSession(store, key);
      let version = session.headVersion;
      if (values.version !== undefined) {
        version = Number(values.version);
        if (!Number.isInteger(version) || !(await store.hasVersion(session.id, version))) {
          throw new UsageError(
            `session ${key} has no state version "${values.version}" (its head is v${session.headVersion})`,
          );
        }
      }
      const record = await store.checkpoint(session.id, name, version);
      process.stdout.write(
        `checkpoint "${record.name}" of session ${session.name ?? session.id} is state version ${record.version}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
