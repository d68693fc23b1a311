import { type Command, UsageError } from "./command.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore, requireSession } from "./session-db.js";

const HELP = `toolsim restore — move a session's state back to a checkpoint, exactly

Usage: toolsim restore SESSION CHECKPOINT [--db FILE|URL]

The state becomes the checkpoint's, byte for byte; the call log keeps every call. A running
server picks the restored state up at the session's next call.

  SESSION              session name or id (toolsim sessions lists them)
  CHECKPOINT           checkpoint name (toolsim sessions lists them)
${DB_HELP}
`;

export const restoreCommand: Command = {
  name: "restore",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: DB_OPTION,
      allowPositionals: true,
      strict: true,
    });
    const [key, name, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(" ")}`);
    if (!name)
      throw new UsageError("give the session and the checkpoint: toolsim restore SESSION CHECKPOINT");
    const store = await openExistingStore(values);
    try {
      const session = await requireSession(store, key);
      const checkpoints = await store.checkpoints(session.id);
      const checkpoint = checkpoints.find((c) => c.name === name);
      if (!checkpoint) {
        const names = checkpoints.map((c) => c.name);
        throw new UsageError(
          `session ${key} has no checkpoint "${name}"${names.length ? `; checkpoints: ${names.join(", ")}` : "; it has none"}`,
        );
      }
      const head = await store.moveHead(session.id, checkpoint.version);
      const size = JSON.stringify(head.state.toJSON()).length;
      process.stdout.write(
        `session ${session.name ?? session.id} restored to checkpoint "${name}" (state version ${head.version}, ${size} bytes of state)\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
