import type { SessionRecord, Store } from "../store/index.js";
import { type Command, UsageError } from "./command.js";
import { parseArgs } from "./options.js";
import { DB_HELP, DB_OPTION, openExistingStore } from "./session-db.js";

const HELP = `toolsim sessions — list the sessions of a state file, or remove old ones

Usage: toolsim sessions [--json] [SELECTORS] [--db FILE|URL]
       toolsim sessions --prune SELECTORS [--yes] [--db FILE|URL]

  --json               print the sessions as JSON

Selectors (together: sessions that match all of them)
  --older-than AGE     not used for AGE: 30m, 12h, 7d, 2w (by the time of its last call or change)
  --task ID            started on this task
  --name PATTERN       named like PATTERN: * is any text, ? one character (e.g. 'run-*')
  --tenant TENANT      of this tenant ("" for local use without tokens)

Pruning
  --prune              remove the selected sessions: their calls, state versions, checkpoints and
                       task answers. Without --yes, only says what would be removed (a dry run).
                       A server still serving a removed session answers its next call with an error.
  --yes                remove them
${DB_HELP}
`;

const OPTIONS = {
  ...DB_OPTION,
  json: { type: "boolean" },
  "older-than": { type: "string" },
  task: { type: "string" },
  name: { type: "string" },
  tenant: { type: "string" },
  prune: { type: "boolean" },
  yes: { type: "boolean" },
} as const;

export const sessionsCommand: Command = {
  name: "sessions",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true });
    const selection = selectionOf(values, Date.now());
    if (values.prune && !selection.described) {
      throw new UsageError(
        "say which sessions to remove: --older-than AGE, --task ID, --name PATTERN and/or --tenant TENANT (e.g. toolsim sessions --prune --older-than 7d)",
      );
    }
    if (values.yes && !values.prune)
      throw new UsageError("--yes confirms --prune; nothing is removed without it");
    const store = await openExistingStore(values, values.prune && values.yes ? "write" : "read");
    try {
      const selected = (await store.sessions()).filter(selection.matches);
      if (values.prune) return await prune(store, selected, selection.described, values.yes === true);
      return await list(store, selected, values.json === true, selection.described);
    } finally {
      await store.close();
    }
  },
};

interface Selection {
  matches: (session: SessionRecord) => boolean;
  /** The selectors in words, empty when none was given. */
  described: string;
}

function selectionOf(
  values: { "older-than"?: string; task?: string; name?: string; tenant?: string },
  now: number,
): Selection {
  const tests: Array<(session: SessionRecord) => boolean> = [];
  const words: string[] = [];
  if (values["older-than"] !== undefined) {
    const age = ageMs(values["older-than"]);
    tests.push((session) => Date.parse(session.updatedAt) < now - age);
    words.push(`not used for ${values["older-than"]}`);
  }
  if (values.task !== undefined) {
    const task = values.task;
    tests.push((session) => session.taskId === task);
    words.push(`on task ${task}`);
  }
  if (values.name !== undefined) {
    const pattern = globPattern(values.name);
    tests.push((session) => session.name !== null && pattern.test(session.name));
    words.push(`named like "${values.name}"`);
  }
  if (values.tenant !== undefined) {
    const tenant = values.tenant;
    tests.push((session) => session.tenant === tenant);
    words.push(`of tenant "${tenant}"`);
  }
  return { matches: (session) => tests.every((test) => test(session)), described: words.join(", ") };
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

function ageMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(text.trim());
  if (!match) {
    throw new UsageError(
      `--older-than takes a number and a unit: s, m, h, d or w (30m, 12h, 7d, 2w); got "${text}"`,
    );
  }
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}

/** `*` any text, `?` one character, everything else itself; the whole name must match. */
function globPattern(glob: string): RegExp {
  const source = [...glob]
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "su");
}

async function list(
  store: Store,
  selected: SessionRecord[],
  json: boolean,
  described: string,
): Promise<number> {
  const sessions = [];
  for (const session of selected) {
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
  if (json) {
    process.stdout.write(`${JSON.stringify({ sessions }, null, 2)}\n`);
    return 0;
  }
  if (sessions.length === 0) {
    process.stdout.write(`no sessions${described ? ` ${described}` : ""} in ${store.location}\n`);
    return 0;
  }
  const lines = sessions.map((s) => {
    const checkpoints = s.checkpoints.length
      ? `; checkpoints ${s.checkpoints.map((c) => `${c.name}@v${c.version}`).join(", ")}`
      : "";
    const fork = s.forkedFrom ? `; fork of ${s.forkedFrom}` : "";
    const tenant = s.tenant ? `tenant ${s.tenant}; ` : "";
    return `${label(s)}\n  ${tenant}task ${s.task ?? "(none)"}; state v${s.headVersion}; ${calls(s.calls)}${checkpoints}${fork}; updated ${s.updatedAt}`;
  });
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

async function prune(
  store: Store,
  selected: SessionRecord[],
  described: string,
  confirmed: boolean,
): Promise<number> {
  const total = selected.reduce((sum, session) => sum + session.nextSeq - 1, 0);
  const what = `${counted(selected.length, "session")} ${described} (${calls(total)})`;
  if (selected.length === 0) {
    process.stdout.write(`no sessions ${described} in ${store.location}; nothing to remove\n`);
    return 0;
  }
  const lines = selected.map(
    (s) => `  ${label(s)}: task ${s.taskId ?? "(none)"}; ${calls(s.nextSeq - 1)}; updated ${s.updatedAt}`,
  );
  if (!confirmed) {
    process.stdout.write(
      `would remove ${what} from ${store.location}:\n${lines.join("\n")}\nnothing was removed: run again with --yes to remove them\n`,
    );
    return 0;
  }
  for (const session of selected) await store.deleteSession(session.id);
  process.stdout.write(`removed ${what} from ${store.location}:\n${lines.join("\n")}\n`);
  return 0;
}

function label(session: { name: string | null; id: string }): string {
  return session.name ? `${session.name} (${session.id})` : session.id;
}

function calls(count: number): string {
  return counted(count, "call");
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
