import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CatalogTask, SolutionCall } from "../catalog/index.js";
import { isPostgresUrl, openStore } from "../store/index.js";
import { buildReport, reportText } from "../tasks/index.js";
import { CATALOG_HELP, CATALOG_OPTIONS, type CatalogSelection, loadCatalog } from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { parseArgs } from "./options.js";
import { CLI_PATH } from "./paths.js";

const HELP = `toolsim demo — watch a scripted agent work a task through MCP (no model, no key)

Usage: toolsim demo [--task ID] [--db FILE|URL] [options]

Starts toolsim serve --stdio, connects the MCP SDK client to it, and plays an agent that lists
the tasks, starts one, checkpoints, makes a wrong call, fixes it from the error, asks for
feedback, completes the task and gives its answer; then prints the session report.

  --task ID            the task to play (default: a shipped task with a few steps)
  --db FILE|URL        where to keep the session: a SQLite file or a postgres:// URL
                       (default: a new file in a new folder under the temp directory)
${CATALOG_HELP}
`;

const PREFERRED_TASK = "ecom-approve-defective-headphones";

export const demoCommand: Command = {
  name: "demo",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { ...CATALOG_OPTIONS, task: { type: "string" }, db: { type: "string" } },
      strict: true,
    });
    const loaded = loadCatalog(values, { checkSchemas: false });
    if (!loaded) return 1;
    const task = pickTask(loaded.catalog.allTasks(), values.task);
    const db = demoStore(values.db);
    const say = (line = "") => process.stdout.write(`${line}\n`);

    say("toolsim demo: a scripted agent drives toolsim over MCP (stdio), with the real SDK client.");
    say(`It works task ${task.task.id} from toolset ${task.toolset.id}. No model and no key are involved.`);
    say();
    const client = await connect(db, values);
    try {
      await playTask(client, task, say);
    } finally {
      await client.close();
    }

    const store = await openStore(db);
    try {
      const session = await store.session("demo", "");
      if (!session) throw new Error("the demo session was not stored");
      say();
      say("── report (toolsim report demo) ──────────────────────────────────────────");
      const report = await buildReport({ catalog: loaded.catalog, store }, session);
      say(reportText(report).trimEnd());
      say();
      // a URL is shown without its password: give it again (or set PGPASSWORD) to run these
      say(`The session is kept in ${store.location}. Try:`);
      say(`  toolsim report demo --db ${store.location} --html report.html`);
      say(`  toolsim export demo --db ${store.location} --format openai`);
      say(`  toolsim fork demo --db ${store.location} --at start --name retry`);
      return report.verdict?.solved ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};

/** Where the demo keeps its session: the given file or URL, or a new file in a temporary folder. */
function demoStore(given: string | undefined): string {
  if (given !== undefined) return isPostgresUrl(given) ? given : resolve(given);
  return join(mkdtempSync(join(tmpdir(), "toolsim-demo-")), "demo.db");
}

/** libpq's variables (PGPASSWORD, PGSSLROOTCERT, …), which a URL may rely on, for the server the demo starts. */
function postgresEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => /^PG[A-Z]+$/.test(entry[0]) && entry[1] !== undefined,
    ),
  );
}

function pickTask(tasks: readonly CatalogTask[], wanted: string | undefined): CatalogTask {
  if (wanted) {
    const found = tasks.find((t) => t.task.id === wanted);
    if (!found)
      throw new UsageError(`unknown task "${wanted}"; tasks: ${tasks.map((t) => t.task.id).join(", ")}`);
    if (!found.task.valid || found.task.solution.length === 0) {
      throw new UsageError(
        `the demo plays tasks that can be done and have a golden solution; "${wanted}" has none`,
      );
    }
    return found;
  }
  const playable = tasks.filter((t) => t.task.valid && t.task.solution.length >= 2);
  const chosen = playable.find((t) => t.task.id === PREFERRED_TASK) ?? playable[0];
  if (!chosen)
    throw new UsageError("the loaded catalog has no task with a golden solution of two or more steps");
  return chosen;
}

async function connect(db: string, catalog: CatalogSelection): Promise<Client> {
  const args = [CLI_PATH, "serve", "--stdio", "--session", "demo", "--engine", "offline"];
  for (const path of catalog.toolsets ?? []) args.push("--toolsets", path);
  for (const id of catalog.toolset ?? []) args.push("--toolset", id);
  // the store goes by environment, not the command line, which other users can see (ps)
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...getDefaultEnvironment(), ...postgresEnvironment(), TOOLSIM_DB: db },
    stderr: "ignore",
  });
  const client = new Client({ name: "toolsim-demo-agent", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/** The agent's script: every step is a real MCP call, and what comes back is printed as the agent reads it. */
async function playTask(client: Client, task: CatalogTask, say: (line?: string) => void): Promise<void> {
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
    say(`agent → ${name} ${JSON.stringify(args)}`);
    const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
    return answer;
  };
  const show = (answer: ToolAnswer, limit = 12) => {
    const lines = textOf(answer).split("\n");
    const shown = lines.slice(0, limit).map((line) => `   ${answer.isError ? "✗" : "←"} ${clip(line, 160)}`);
    if (lines.length > limit) shown.push(`   … (${lines.length - limit} more lines)`);
    say(shown.join("\n"));
  };

  const before = await client.listTools();
  say(
    `tools/list: ${before.tools.length} tools before a task is started (the whole catalog and the sim_ control tools)`,
  );
  const listed = await call("sim_list_tasks", {});
  const tasks = (listed.structuredContent as { tasks: unknown[] } | undefined)?.tasks ?? [];
  say(`   ← ${tasks.length} tasks in the catalog`);

  const started = await call("sim_start_task", { task_id: task.task.id, distractors: 2 });
  show(started, 6);
  const after = await client.listTools();
  const distractors =
    (started.structuredContent as { distractors?: string[] } | undefined)?.distractors ?? [];
  say(
    `tools/list: ${after.tools.length} tools now: the task's toolset, ${distractors.length} look-alike distractors (${distractors.join(", ")}) and the control tools`,
  );
  show(await call("sim_checkpoint", { name: "start" }), 2);
  say();

  const steps = task.task.solution;
  const mistakeAt = mistakeStep(steps, task);
  for (const [index, step] of steps.entries()) {
    if (index === mistakeAt.index && mistakeAt.dropped) {
      const { [mistakeAt.dropped]: _left, ...wrong } = step.arguments;
      say(`(the agent forgets ${mistakeAt.dropped})`);
      const rejected = await call(step.tool, wrong);
      show(rejected, 4);
      const findings = (rejected._meta?.["toolsim/findings"] ?? []) as Array<{ argument?: string }>;
      const named = findings.map((f) => f.argument).filter((a): a is string => Boolean(a));
      say(
        `(the agent reads the error: ${named.join(", ") || "a required argument"} is missing, and calls again)`,
      );
    }
    const answer = await call(step.tool, step.arguments);
    show(answer, 3);
    if (index === Math.floor((steps.length - 1) / 2) && index < steps.length - 1) {
      say();
      say("(half way, the agent asks how it is doing)");
      show(await call("sim_task_feedback", {}), 8);
      say();
    }
  }
  say();
  const answerText = `Done: I handled your request (${steps.map((s) => s.tool).join(", ")}).`;
  const verdict = await call("sim_task_feedback", { answer: answerText });
  show(verdict, 12);
}

/** The first step that changes something and has a required argument to forget. */
function mistakeStep(steps: readonly SolutionCall[], task: CatalogTask): { index: number; dropped?: string } {
  for (const [index, step] of steps.entries()) {
    const tool = task.toolset.tools.find((t) => t.name === step.tool);
    if (!tool || tool.annotations?.readOnlyHint) continue;
    const required = (tool.inputSchema.required as string[] | undefined) ?? [];
    const dropped = required.find((name) => step.arguments[name] !== undefined);
    if (dropped) return { index, dropped };
  }
  return { index: -1 };
}

function textOf(answer: ToolAnswer): string {
  const content = (answer.content ?? []) as Array<{ type: string; text?: string }>;
  return content
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
