import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Catalog, isSchemaProfile, SCHEMA_PROFILES, type SchemaProfile } from "../catalog/index.js";
import type { ResolvedProfile } from "../faults/index.js";
import { type LlmConfig, resolveLlmConfig } from "../llm/index.js";
import {
  type Performed,
  type Price,
  performRun,
  planAttempts,
  type RunSettings,
  readPlan,
  resultRow,
  runModels,
  type StoredPlan,
  selectTasks,
  summaryText,
  writeRunHtml,
} from "../run/index.js";
import { openStore, type RunRecord, type Store } from "../store/index.js";
import { CATALOG_HELP, CATALOG_OPTIONS, loadCatalog } from "./catalog-options.js";
import { type Command, UsageError } from "./command.js";
import { checkedChoice, faultChoiceFor } from "./faults-options.js";
import { judgeMode } from "./judge-options.js";
import { parseArgs } from "./options.js";
import { DEFAULT_TOOLSETS } from "./paths.js";
import { DB_HELP, dbLocation, storeOptions } from "./session-db.js";

const HELP = `toolsim run — put an agent through a task set, k attempts per task, and report pass^k

Usage: toolsim run --model NAME [options]            the built-in agent: a chat model with tool calling
       toolsim run --agent-cmd "COMMAND" [options]   any agent, as a command per attempt
       toolsim run --resume RUN [options]            run what a stopped run is missing

Each attempt works in a fresh session on the task's initial state, named RUN/TASK/N; the
task desk's judges decide it. Results live in the store (--db): toolsim report RUN/TASK/N
shows an attempt, toolsim export --run RUN writes them all as training data.

Agent
  --model NAME         the built-in agent's model (any OpenAI-compatible chat model with tool calling)
  --llm-base-url URL   its endpoint, e.g. http://localhost:11434/v1 (env OPENAI_BASE_URL); the key comes
                       from OPENAI_API_KEY (or --llm-key); local servers need none
  --llm-key KEY        API key (prefer the environment)
  --config FILE        settings file for the endpoint (default ./toolsim.config.json); see docs/llm.md
  --max-steps N        model requests per message before the built-in agent is stopped (default 30)
  --temperature T      the built-in agent's sampling temperature (default: the endpoint's)
  --system-prompt FILE instructions for the built-in agent instead of toolsim's own
  --agent-cmd "CMD"    run this shell command per message instead; {url} {session} {task} {prompt}
                       {attempt} {try} {turn} {answer_file} {history_file} are replaced by quoted
                       values, also in the environment (TOOLSIM_MCP_URL, TOOLSIM_SESSION, ...). Its
                       answer: the file TOOLSIM_ANSWER_FILE if it wrote one, else its last output line
  --schema-profile P   how tools are advertised: full, portable or openai-strict (default: portable for
                       the built-in agent, full for a command); see docs/frameworks.md
  --control-tools      also offer the agent the sim_ control tools (hidden by default)
  --distractors N      add the N tools of other toolsets most like the task's own (default 0)
  --faults FILE|NAME   every attempt meets this fault profile (see docs/faults.md): slow, flaky,
                       hostile, a profile file (JSON or YAML), or none (not even a task's own);
                       without it, an attempt on a task with a profile meets that one. Seeded per
                       attempt: the same --seed gives the same faults. The summary counts per kind
                       what was injected, recovered, given up, repeated and followed

Tasks
${CATALOG_HELP}
  --tasks PATTERN      only these tasks: ids or patterns with *, comma-separated or repeated
  -k N                 attempts per task (default 1)
  --seed S             the same seed gives the same order of attempts and the same sessions (default 0)

User
  --user-model NAME    a model plays the user from the task's "user" brief, turn by turn, until it
                       ends the conversation; without it the task's prompt (or its turns) is the user
  --max-turns N        the most messages a simulated user sends (default 20)

Judging
  --judge MODE         auto (golden when the task has a solution, else checklist), golden or checklist
  --judge-model NAME   model of the checklist judge (env TOOLSIM_JUDGE_MODEL); without one, tasks
                       without a golden solution stay unjudged
  --feedback-retries R after a failed attempt the agent gets the judge's feedback in the same session
                       and tries again, up to R times (reported apart from first tries; default 0)

Running
  --concurrency C      attempts at once (default 4)
  --attempt-timeout S  an attempt still running after S seconds ends as an error (default 600)
  --request-timeout S  a model request without an answer after S seconds fails (default 120)
  --retries N          further tries of a model request after a 429, a 5xx or a timeout (default 4;
                       Retry-After is honoured)
  --engine E           how tool calls are answered: offline (default) or llm
  --sim-model NAME     the simulating model with --engine llm (default: --model)
  --resume RUN         run only what RUN is missing (attempts not finished or ended in an error)
${DB_HELP}

Results
  --json               print the summary as JSON instead of text
  --jsonl FILE         write one JSON line per attempt (same seed and model: the same bytes)
  --html FILE          write the run's page, and a page per attempt in FILE's name + "-attempts/"
  --price [MODEL=]IN/OUT  US dollars per million input/output tokens (repeatable; without MODEL:
                       the agent's model), for the cost figures
  --quiet              no progress line on stderr

Exit status: 0 when the run finished, 1 when it stopped on an error, 130 after Ctrl-C (the
finished attempts are kept: toolsim run --resume RUN).
`;

const OPTIONS = {
  ...CATALOG_OPTIONS,
  model: { type: "string" },
  "llm-base-url": { type: "string" },
  "llm-key": { type: "string" },
  config: { type: "string" },
  "max-steps": { type: "string" },
  temperature: { type: "string" },
  "system-prompt": { type: "string" },
  "agent-cmd": { type: "string" },
  "schema-profile": { type: "string" },
  "control-tools": { type: "boolean" },
  distractors: { type: "string" },
  faults: { type: "string" },
  tasks: { type: "string", multiple: true },
  attempts: { type: "string", short: "k" },
  seed: { type: "string" },
  "user-model": { type: "string" },
  "max-turns": { type: "string" },
  judge: { type: "string" },
  "judge-model": { type: "string" },
  "feedback-retries": { type: "string" },
  concurrency: { type: "string" },
  "attempt-timeout": { type: "string" },
  "request-timeout": { type: "string" },
  retries: { type: "string" },
  engine: { type: "string" },
  "sim-model": { type: "string" },
  resume: { type: "string" },
  db: { type: "string" },
  json: { type: "boolean" },
  jsonl: { type: "string" },
  html: { type: "string" },
  price: { type: "string", multiple: true },
  quiet: { type: "boolean" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

/** Options that say what a run is; a resumed run keeps its own. */
const DEFINING = [
  "model",
  "agent-cmd",
  "max-steps",
  "temperature",
  "system-prompt",
  "schema-profile",
  "control-tools",
  "distractors",
  "faults",
  "tasks",
  "attempts",
  "seed",
  "user-model",
  "max-turns",
  "judge",
  "judge-model",
  "feedback-retries",
  "engine",
  "sim-model",
  "toolset",
  "price",
] as const;

export const runCommand: Command = {
  name: "run",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) {
      throw new UsageError(`toolsim run takes no positional arguments; got ${positionals.join(" ")}`);
    }
    const concurrency = wholeNumber(values.concurrency ?? "4", "--concurrency", 1, 256);
    const log = (line: string) => process.stderr.write(`toolsim: ${line}\n`);
    const store = await openStore(dbLocation(values, log), storeOptions());
    try {
      const prepared = values.resume ? await resumed(store, values) : await planned(store, values);
      if (!prepared) return 1;
      const { run, plan, catalog, endpoint, faults } = prepared;
      if (!values.quiet) {
        log(
          `${values.resume ? "resuming" : "starting"} ${run.id}: ${plan.taskIds.length} task(s) × k = ${plan.k}, ${plan.attempts.length} attempts, ${concurrency} at once; state in ${store.location}`,
        );
      }
      const stop = new AbortController();
      let interrupts = 0;
      const onInterrupt = () => {
        interrupts++;
        if (interrupts > 1) process.exit(130);
        log("stopping: running attempts end now, finished ones are kept (Ctrl-C again to quit at once)");
        stop.abort();
      };
      process.on("SIGINT", onInterrupt);
      process.on("SIGTERM", onInterrupt);
      let performed: Performed;
      try {
        performed = await performRun({
          store,
          catalog,
          run,
          plan,
          endpoint,
          concurrency,
          signal: stop.signal,
          processEnv: process.env,
          ...(faults !== undefined ? { faults } : {}),
          ...(values.quiet
            ? {}
            : { progress: { write: (t) => process.stderr.write(t), tty: process.stderr.isTTY === true } }),
          log,
        });
      } finally {
        process.off("SIGINT", onInterrupt);
        process.off("SIGTERM", onInterrupt);
      }
      await writeOutputs(values, performed, plan, catalog, store, log);
      if (performed.end.status === "failed") log(`the run stopped: ${performed.end.note}`);
      return performed.end.status === "finished" ? 0 : performed.end.status === "interrupted" ? 130 : 1;
    } finally {
      await store.close();
    }
  },
};

interface Prepared {
  run: RunRecord;
  plan: StoredPlan;
  catalog: Catalog;
  endpoint: Endpoint;
  /** The profile --faults named, checked against the catalog (null: none); absent: the tasks' own. */
  faults?: ResolvedProfile | null;
}

type Endpoint = Pick<LlmConfig, "baseURL" | "apiKey" | "concurrency">;

/** A new run: the tasks, the order of attempts and the settings, stored before anything runs. */
async function planned(store: Store, values: Values): Promise<Prepared | undefined> {
  const command = values["agent-cmd"];
  const model = values.model;
  if (command === undefined && model === undefined) {
    throw new UsageError(
      'say which agent to run: --model NAME (the built-in agent) or --agent-cmd "COMMAND"',
    );
  }
  if (command !== undefined && model !== undefined) {
    throw new UsageError("--model and --agent-cmd choose the agent: give one of them");
  }
  if (command !== undefined && !command.trim()) throw new UsageError("--agent-cmd needs a command");
  const loaded = loadCatalog(values, { checkSchemas: false, infer: true });
  if (!loaded) return undefined;
  const patterns = (values.tasks ?? [])
    .flatMap((p) => p.split(","))
    .map((p) => p.trim())
    .filter(Boolean);
  const selection = selectTasks(loaded.catalog, patterns);
  if (!selection.ok) throw new UsageError(selection.error);
  const settings = settingsOf(values);
  // a bad profile is refused before the run is stored and any attempt starts
  const choice = values.faults === undefined ? undefined : faultChoiceFor(values.faults, loaded.catalog);
  if (values.faults !== undefined && !choice) return undefined;
  if (values.faults !== undefined && choice)
    settings.faults = { given: values.faults, setting: choice.setting };
  const endpoint = resolveEndpoint(values, settings);
  // the endpoint the run used, for its record (the key stays out)
  if (endpoint.baseURL) settings.baseURL = endpoint.baseURL;
  const k = wholeNumber(values.attempts ?? "1", "-k", 1, 1000);
  const plan: StoredPlan = {
    version: 1,
    taskIds: selection.taskIds,
    k,
    attempts: planAttempts(selection.taskIds, k, settings.seed),
    settings,
  };
  if (values.jsonl) checkWritable(values.jsonl, "--jsonl");
  const run = await store.createRun({ seed: settings.seed, plan });
  return { run, plan, catalog: loaded.catalog, endpoint, ...(choice ? { faults: choice.profile } : {}) };
}

/** A stored run, to finish: its own settings, the catalog it loaded (or --toolsets, when moved). */
async function resumed(store: Store, values: Values): Promise<Prepared | undefined> {
  const id = values.resume ?? "";
  const given = DEFINING.filter((name) => values[name] !== undefined);
  if (given.length > 0) {
    throw new UsageError(
      `--resume keeps the run's own settings; leave out ${given.map((n) => (n === "attempts" ? "-k" : `--${n}`)).join(", ")}`,
    );
  }
  const run = await store.run(id);
  if (!run) {
    const known = (await store.runs()).slice(-10).map((r) => r.id);
    throw new UsageError(
      `no run "${id}" in ${store.location}${known.length ? `; runs: ${known.join(", ")}` : "; it has no runs"}`,
    );
  }
  const read = readPlan(run);
  if (!read.ok) throw new UsageError(read.error);
  const plan = read.plan;
  const toolsets = values.toolsets?.length ? values.toolsets : plan.settings.toolsets;
  const loaded = loadCatalog(
    { toolsets, toolset: plan.settings.toolset },
    { checkSchemas: false, infer: true },
  );
  if (!loaded) return undefined;
  const missing = plan.taskIds.filter((id) => !loaded.catalog.task(id));
  if (missing.length > 0) {
    throw new UsageError(
      `run ${run.id} has tasks the loaded catalog lacks: ${missing.join(", ")}; load the toolsets it used (--toolsets PATH)`,
    );
  }
  if (values.toolsets?.length) plan.settings.toolsets = loaded.paths.map((path) => resolve(path));
  const stored = plan.settings.faults;
  const choice = stored
    ? checkedChoice(stored.setting, loaded.catalog, `run ${run.id}'s --faults ${stored.given}`)
    : undefined;
  if (stored && !choice) return undefined;
  return {
    run,
    plan,
    catalog: loaded.catalog,
    endpoint: resolveEndpoint(values, plan.settings),
    ...(choice ? { faults: choice.profile } : {}),
  };
}

function settingsOf(values: Values): RunSettings {
  const command = values["agent-cmd"];
  const profile = values["schema-profile"] ?? (command !== undefined ? "full" : "portable");
  if (!isSchemaProfile(profile)) {
    throw new UsageError(`--schema-profile takes one of ${SCHEMA_PROFILES.join(", ")}; got "${profile}"`);
  }
  const engine = values.engine ?? "offline";
  if (engine !== "offline" && engine !== "llm") {
    throw new UsageError(`--engine takes offline or llm; got "${engine}"`);
  }
  const simModel = values["sim-model"] ?? (engine === "llm" ? values.model : undefined);
  if (engine === "llm" && !simModel) throw new UsageError("--engine llm needs --sim-model NAME (or --model)");
  const judgeModel = values["judge-model"] ?? (process.env.TOOLSIM_JUDGE_MODEL?.trim() || undefined);
  const temperature = values.temperature === undefined ? undefined : Number(values.temperature);
  if (temperature !== undefined && !(temperature >= 0 && temperature <= 2)) {
    throw new UsageError(`--temperature takes a number from 0 to 2; got "${values.temperature}"`);
  }
  const systemPrompt = values["system-prompt"]
    ? readText(values["system-prompt"], "--system-prompt")
    : undefined;
  return {
    agent:
      command !== undefined
        ? { kind: "command", command }
        : {
            kind: "model",
            model: values.model ?? "",
            maxSteps: wholeNumber(values["max-steps"] ?? "30", "--max-steps", 1, 1000),
            ...(temperature !== undefined ? { temperature } : {}),
            ...(systemPrompt ? { systemPrompt } : {}),
          },
    ...(values["llm-base-url"] ? { baseURL: values["llm-base-url"] } : {}),
    ...(values["user-model"] ? { userModel: values["user-model"] } : {}),
    maxTurns: wholeNumber(values["max-turns"] ?? "20", "--max-turns", 1, 1000),
    feedbackRetries: wholeNumber(values["feedback-retries"] ?? "0", "--feedback-retries", 0, 20),
    distractors: wholeNumber(values.distractors ?? "0", "--distractors", 0, 50),
    schemaProfile: profile as SchemaProfile,
    controlTools: values["control-tools"] === true,
    judge: judgeMode(values.judge),
    ...(judgeModel ? { judgeModel } : {}),
    engine,
    ...(simModel && engine === "llm" ? { simModel } : {}),
    attemptTimeoutSeconds: seconds(values["attempt-timeout"] ?? "600", "--attempt-timeout"),
    requestTimeoutSeconds: seconds(values["request-timeout"] ?? "120", "--request-timeout"),
    retries: wholeNumber(values.retries ?? "4", "--retries", 0, 20),
    prices: pricesOf(values.price ?? [], command === undefined ? values.model : undefined),
    toolsets: (values.toolsets?.length ? values.toolsets : [DEFAULT_TOOLSETS]).map((path) => resolve(path)),
    ...(values.toolset?.length ? { toolset: values.toolset } : {}),
    seed: values.seed ?? "0",
  };
}

/**
 * The endpoint every model of the run is asked at, found as the LLM engine finds it: flags,
 * then OPENAI_BASE_URL / OPENAI_API_KEY, then the config file. A run without any model (an
 * agent command judged by the golden judge) needs none.
 */
function resolveEndpoint(values: Values, settings: RunSettings): Endpoint {
  const model =
    settings.agent.kind === "model"
      ? settings.agent.model
      : (settings.userModel ?? settings.judgeModel ?? settings.simModel);
  if (!model) return {};
  if (values.config && !existsSync(values.config))
    throw new UsageError(`--config: no file at ${values.config}`);
  const resolved = resolveLlmConfig({
    flags: {
      engine: "llm",
      model,
      baseURL: values["llm-base-url"] ?? settings.baseURL,
      apiKey: values["llm-key"],
    },
    env: process.env,
    file: values.config ?? resolve("toolsim.config.json"),
  });
  if (resolved.problem || !resolved.config) {
    throw new UsageError(
      `the run's models need an endpoint: set OPENAI_API_KEY for OpenAI, or --llm-base-url for a local server (Ollama: --llm-base-url http://localhost:11434/v1)${resolved.problem ? ` (${resolved.problem})` : ""}`,
    );
  }
  const { baseURL, apiKey, concurrency } = resolved.config;
  if (apiKey && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new UsageError(
      "the API key (OPENAI_API_KEY or --llm-key) has spaces or characters an HTTP header cannot carry; give the key itself",
    );
  }
  return { baseURL, apiKey, concurrency };
}

async function writeOutputs(
  values: Values,
  performed: Performed,
  plan: StoredPlan,
  catalog: Catalog,
  store: Store,
  log: (line: string) => void,
): Promise<void> {
  const { summary, results } = performed;
  if (values.jsonl) {
    const models = runModels(plan);
    const prices = new Map(Object.entries(plan.settings.prices));
    const text = results.map((r) => JSON.stringify(resultRow(summary.run, r, models, prices))).join("\n");
    writeFileSync(resolve(values.jsonl), text ? `${text}\n` : "");
    log(`wrote ${results.length} attempt row(s) to ${resolve(values.jsonl)}`);
  }
  if (values.html) {
    const files = await writeRunHtml(resolve(values.html), { summary, results, catalog, store });
    log(`wrote ${resolve(values.html)} and ${files.length - 1} attempt page(s) beside it`);
  }
  process.stdout.write(values.json ? `${JSON.stringify(summary, null, 2)}\n` : summaryText(summary));
}

/** "--price 0.4/1.6" (the agent's model) or "--price gpt-4.1-mini=0.4/1.6". */
function pricesOf(given: readonly string[], agentModel: string | undefined): Record<string, Price> {
  const prices: Record<string, Price> = {};
  for (const text of given) {
    const match = /^(?:(.+)=)?\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
    if (!match) {
      throw new UsageError(
        `--price takes [MODEL=]IN/OUT in US dollars per million tokens, e.g. 0.4/1.6; got "${text}"`,
      );
    }
    const model = match[1]?.trim() || agentModel;
    if (!model)
      throw new UsageError(`--price ${text}: name the model (MODEL=IN/OUT); the agent is a command`);
    prices[model] = { input: Number(match[2]), output: Number(match[3]) };
  }
  return prices;
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}; got "${text}"`);
  }
  return value;
}

function seconds(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 7 * 24 * 3600) {
    throw new UsageError(`${flag} takes seconds above 0 (fractions allowed); got "${text}"`);
  }
  return value;
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(resolve(file), "utf8");
  } catch (error) {
    throw new UsageError(`${flag} ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function checkWritable(file: string, flag: string): void {
  try {
    writeFileSync(resolve(file), "", { flag: "a" });
  } catch (error) {
    throw new UsageError(`${flag} ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
