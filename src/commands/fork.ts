import { type Command, UsageError } from "./command.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore, requireSession } from "./session-db.js";

const HELP = `toolsim fork — copy a session at a checkpoint or version into a new session

Usage: toolsim fork SESSION [--at CHECKPOINT|VERSION] [--name NEW] [--db FILE|URL]

The new session starts with exactly that state, on the same task and tools, and an empty call
log; the original is untouched. Serve it with toolsim serve --stdio --session NEW, or over HTTP
with the X-Toolsim-Session: NEW header.

  SESSION              session name or id (toolsim sessions lists them)
  --at X               a checkpoint name or a state version number (default: the current state)
  --name NEW           name of the new session (default: none; it is known by its id)
${DB_HELP}
`;

export const forkCommand: Command = {
  name: "fork",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...DB_OPTION, at: { type: "string" }, name: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
    const [key, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(" ")}`);
    const store = await openExistingStore(values);
    try {
      const session = await requireSession(store, key);
      const version = await versionOf(
        values.at,
        session.headVersion,
        await store.checkpoints(session.id),
        (v) => store.hasVersion(session.id, v),
      );
      if (values.name && (await store.session(values.name, session.tenant))) {
        throw new UsageError(`a session named "${values.name}" already exists; choose another --name`);
      }
      const fork = await store.fork(session.id, version, { name: values.name });
      process.stdout.write(
        `forked ${session.name ?? session.id} at state version ${version} into ${fork.name ? `${fork.name} (${fork.id})` : fork.id}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};

async function versionOf(
  at: string | undefined,
  head: number,
  checkpoints: ReadonlyArray<{ name: string; version: number }>,
  exists: (version: number) => Promise<boolean>,
): Promise<number> {
  if (at === undefined) return head;
  const checkpoint = checkpoints.find((c) => c.name === at);
  if (checkpoint) return checkpoint.version;
  const version = Number(at);
  if (/^\d+$/.test(at) && (await exists(version))) return version;
  const names = checkpoints.map((c) => c.name);
  throw new UsageError(
    `--at ${at} is neither a checkpoint${names.length ? ` (${names.join(", ")})` : ""} nor a state version of the session (its head is v${head})`,
  );
}
