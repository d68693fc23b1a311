import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Catalog, loadToolsets, type Task, type ToolsetInput } from "../src/catalog/index.js";
import { type ChatMessage, LlmClient } from "../src/llm/index.js";
import {
  performRun,
  planAttempts,
  type RunSettings,
  type StoredPlan,
  toFunctions,
} from "../src/run/index.js";
import { toMcpTool } from "../src/server/index.js";
import { openStore } from "../src/store/index.js";
import { median, round } from "./stats.js";

/**
 * `toolsim run`'s own cost. A scripted model in a process of its own answering every request
 * in a fixed 50 ms, 100 attempts of 10 calls each (11 model requests), 8 at a time: the
 * runner's wall time against the model's alone (the same requests sent by a bare loop with
 * the same client to the same model), turn about, several rounds, with the CPU time each side
 * spent in this process. Then the memory of one run of 1,000 attempts (a model answering at
 * once), sampled after garbage collection as it goes.
 */

const TOOLSET_ID = "bench_runs";
const TASKS = 10;
const CALLS_PER_ATTEMPT = 10;
const MODEL_MS = 50;
const CONCURRENCY = 8;

const recordId = (n: number) => `REC-${String(n).padStart(3, "0")}`;

export function runsToolset(): ToolsetInput {
  const records: Record<string, unknown> = {};
  for (let n = 1; n <= TASKS * 5; n++) {
    records[recordId(n)] = {
      record_id: recordId(n),
      title: `Record ${n}`,
      status: "open",
      owner: `owner${n}`,
    };
  }
  const state = { records, runtime: { now: "2026-03-02T09:00:00Z" } };
  const idParam = { record_id: { type: "string", pattern: "^REC-[0-9]{3}$", description: "Record id." } };
  const tasks = Array.from({ length: TASKS }, (_, t) => ({
    id: `bench-close-${t + 1}`,
    difficulty: "medium" as const,
    description: `Look up records ${recordId(t * 5 + 1)} to ${recordId(t * 5 + 5)} and close each one (batch ${t + 1}).`,
    state,
    solution: Array.from({ length: 5 }, (_, i) => recordId(t * 5 + i + 1)).flatMap((id) => [
      { tool: "get_record", arguments: { record_id: id } },
      { tool: "close_record", arguments: { record_id: id } },
    ]),
  }));
  return {
    id: TOOLSET_ID,
    field: "Business",
    subdomain: "Records",
    description: "Records that people read and close.",
    state,
    tools: [
      {
        name: "get_record",
        description: "Fetch a record by id.",
        inputSchema: {
          type: "object",
          properties: idParam,
          required: ["record_id"],
          additionalProperties: false,
        },
        errors: [
          { code: "RECORD_NOT_FOUND", status: 404, message: "No record {record_id}.", when: "unknown id" },
        ],
        effects: [
          { kind: "read", target: "records/{record_id}", missing: "RECORD_NOT_FOUND", output: "record" },
        ],
        annotations: { readOnlyHint: true },
      },
      {
        name: "close_record",
        description: "Close a record.",
        inputSchema: {
          type: "object",
          properties: idParam,
          required: ["record_id"],
          additionalProperties: false,
        },
        errors: [
          { code: "RECORD_NOT_FOUND", status: 404, message: "No record {record_id}.", when: "unknown id" },
        ],
        effects: [
          {
            kind: "update",
            target: "records/{record_id}",
            missing: "RECORD_NOT_FOUND",
            set: { status: "closed" },
            output: "record",
          },
        ],
      },
    ],
    tasks,
  };
}

function settings(toolsets: string): RunSettings {
  return {
    agent: { kind: "model", model: "bench-agent", maxSteps: 30 },
    maxTurns: 20,
    feedbackRetries: 0,
    distractors: 0,
    schemaProfile: "portable",
    controlTools: false,
    judge: "auto",
    engine: "offline",
    attemptTimeoutSeconds: 600,
    requestTimeoutSeconds: 60,
    retries: 2,
    prices: {},
    toolsets: [toolsets],
    seed: "0",
  };
}

/** One run through the runner, on a fresh store; its wall time and what it passed. */
async function timedRun(input: {
  catalog: Catalog;
  file: string;
  dir: string;
  url: string;
  k: number;
  name: string;
  sample?: (done: number) => void;
}) {
  const store = await openStore(join(input.dir, `${input.name}.db`));
  try {
    const taskIds = input.catalog.allTasks().map((t) => t.task.id);
    const plan: StoredPlan = {
      version: 1,
      taskIds,
      k: input.k,
      attempts: planAttempts(taskIds, input.k, "0"),
      settings: settings(input.file),
    };
    const run = await store.createRun({ seed: "0", plan });
    let done = 0;
    const started = performance.now();
    const performed = await performRun({
      store,
      catalog: input.catalog,
      run,
      plan,
      endpoint: { baseURL: input.url, apiKey: "bench" },
      concurrency: CONCURRENCY,
      signal: new AbortController().signal,
      processEnv: {},
      progress: input.sample
        ? {
            tty: false,
            intervalMs: 0,
            write: () => {
              done++;
              input.sample?.(done);
            },
          }
        : undefined,
    });
    const wallMs = performance.now() - started;
    if (performed.summary.attempts.passed !== plan.attempts.length) {
      throw new Error(`the bench run passed ${performed.summary.attempts.passed} of ${plan.attempts.length}`);
    }
    return { wallMs, summary: performed.summary };
  } finally {
    await store.close();
  }
}

/**
 * The model alone: the same attempts' requests (the conversation grows by a tool call and a
 * result of the same size each step) from a bare loop, the same client, the same concurrency.
 */
async function modelAlone(catalog: Catalog, url: string, attempts: number): Promise<number> {
  const llm = new LlmClient(
    { baseURL: url, apiKey: "bench", models: { simulate: "bench-agent" }, concurrency: CONCURRENCY },
    {},
  );
  const tools = toFunctions(
    catalog.allTools().map((tool) => toMcpTool(tool, "portable")),
    "portable",
  ).list;
  const tasks: Task[] = catalog.allTasks().map((t) => t.task);
  const queue = Array.from({ length: attempts }, (_, i) => tasks[i % tasks.length] as Task);
  const started = performance.now();
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      const messages: ChatMessage[] = [
        {
          role: "system",
          content: "You are an assistant that carries out the user's request with the tools provided.",
        },
        { role: "user", content: task.description },
      ];
      for (;;) {
        const reply = await llm.chat({ model: "bench-agent", messages, tools });
        messages.push({ role: "assistant", content: reply.content, tool_calls: reply.toolCalls });
        if (reply.toolCalls.length === 0) break;
        for (const call of reply.toolCalls) {
          const id = String((JSON.parse(call.arguments) as { record_id?: string }).record_id);
          const record = (task.state.records as Record<string, unknown>)[id];
          messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify({ record }) });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

/** The scripted model in a child process (bench/model-server.ts), as a real model runs elsewhere. */
async function modelServer(
  toolsetFile: string,
  delayMs: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = join(import.meta.dirname, "model-server.js");
  const child = spawn(process.execPath, [script, "--toolset", toolsetFile, "--delay", String(delayMs)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /MODEL URL (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the model server exited (${code})`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Wall time and this process's CPU time of some work (ms). */
async function measured(work: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

function heapMb(): { heapMb: number; rssMb: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  return { heapMb: round(memory.heapUsed / 2 ** 20, 1), rssMb: round(memory.rss / 2 ** 20, 1) };
}

export async function runRunsBench(): Promise<Record<string, unknown>> {
  const quick = process.argv.includes("--quick");
  const rounds = quick ? 1 : 3;
  const memoryAttempts = quick ? 200 : 1_000;
  const dir = mkdtempSync(join(tmpdir(), "toolsim-runs-bench-"));
  try {
    const file = join(dir, `${TOOLSET_ID}.json`);
    writeFileSync(file, JSON.stringify(runsToolset()));
    const loaded = loadToolsets([file]);
    const errors = loaded.problems.filter((p) => p.severity === "error");
    if (errors.length > 0) throw new Error(`bench toolset is invalid: ${JSON.stringify(errors)}`);
    const catalog = new Catalog(loaded.toolsets);

    const slow = await modelServer(file, MODEL_MS);
    const overhead: Array<{
      round: number;
      runnerMs: number;
      modelMs: number;
      ratio: number;
      runnerCpuMs: number;
      modelCpuMs: number;
      first: string;
      load: number;
    }> = [];
    try {
      // a warm-up of each side: modules loaded, connections open
      await timedRun({ catalog, file, dir, url: slow.url, k: 1, name: "warm-up" });
      await modelAlone(catalog, slow.url, TASKS);
      for (let r = 0; r < rounds; r++) {
        // alternate which side goes first
        const runnerFirst = r % 2 === 0;
        let runner = { wallMs: 0, cpuMs: 0 };
        let model = { wallMs: 0, cpuMs: 0 };
        for (const side of runnerFirst ? ["runner", "model"] : ["model", "runner"]) {
          if (side === "runner") {
            runner = await measured(() =>
              timedRun({ catalog, file, dir, url: slow.url, k: TASKS, name: `overhead-${r}` }),
            );
          } else {
            model = await measured(() => modelAlone(catalog, slow.url, TASKS * TASKS));
          }
        }
        overhead.push({
          round: r + 1,
          runnerMs: round(runner.wallMs, 0),
          modelMs: round(model.wallMs, 0),
          ratio: runnerRatio(runner.wallMs, model.wallMs),
          runnerCpuMs: round(runner.cpuMs, 0),
          modelCpuMs: round(model.cpuMs, 0),
          first: runnerFirst ? "runner" : "model",
          load: round(loadavg()[0] ?? 0, 1),
        });
      }
    } finally {
      await slow.stop();
    }
    const ratios = overhead.map((o) => o.ratio);
    const attemptsPerRound = TASKS * TASKS;
    const cpu = {
      runnerMsPerAttempt: round(median(overhead.map((o) => o.runnerCpuMs)) / attemptsPerRound, 1),
      modelMsPerAttempt: round(median(overhead.map((o) => o.modelCpuMs)) / attemptsPerRound, 1),
    };

    const fast = await modelServer(file, 0);
    const samples: Array<{ attempts: number; heapMb: number; rssMb: number }> = [];
    const every = memoryAttempts / 10;
    try {
      await timedRun({
        catalog,
        file,
        dir,
        url: fast.url,
        k: memoryAttempts / TASKS,
        name: "memory",
        sample: (done) => {
          if (done % every === 0) samples.push({ attempts: done, ...heapMb() });
        },
      });
    } finally {
      await fast.stop();
    }
    const settled = samples.find((s) => s.attempts >= memoryAttempts / 5) ?? samples[0];
    const last = samples.at(-1);
    const memory = {
      attempts: memoryAttempts,
      samples,
      heapGrowthMb: round((last?.heapMb ?? 0) - (settled?.heapMb ?? 0), 1),
      rssGrowthMb: round((last?.rssMb ?? 0) - (settled?.rssMb ?? 0), 1),
      from: settled?.attempts ?? 0,
      heapKbPerAttempt: round(
        (((last?.heapMb ?? 0) - (settled?.heapMb ?? 0)) * 1024) /
          Math.max(1, (last?.attempts ?? 0) - (settled?.attempts ?? 0)),
        2,
      ),
    };
    const result = {
      setup: {
        attempts: TASKS * TASKS,
        callsPerAttempt: CALLS_PER_ATTEMPT,
        modelMs: MODEL_MS,
        concurrency: CONCURRENCY,
        rounds,
      },
      overhead,
      ratio: { min: Math.min(...ratios), median: median(ratios) },
      cpu,
      target: { ratio: 1.05, met: median(ratios) <= 1.05 },
      memory,
    };
    return { ...result, markdown: runsMarkdown(result) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runnerRatio(runnerMs: number, modelMs: number): number {
  return round(runnerMs / modelMs, 3);
}

function runsMarkdown(result: {
  setup: { attempts: number; callsPerAttempt: number; modelMs: number; concurrency: number; rounds: number };
  overhead: Array<{
    round: number;
    runnerMs: number;
    modelMs: number;
    ratio: number;
    runnerCpuMs: number;
    modelCpuMs: number;
    first: string;
    load: number;
  }>;
  ratio: { min: number; median: number };
  cpu: { runnerMsPerAttempt: number; modelMsPerAttempt: number };
  target: { ratio: number; met: boolean };
  memory: {
    attempts: number;
    samples: Array<{ attempts: number; heapMb: number; rssMb: number }>;
    heapGrowthMb: number;
    rssGrowthMb: number;
    from: number;
    heapKbPerAttempt: number;
  };
}): string {
  const { setup, memory, cpu } = result;
  const rows = result.overhead
    .map(
      (o) =>
        `| ${o.round} (${o.first} first) | ${o.modelMs} | ${o.runnerMs} | ${o.ratio} | ${o.modelCpuMs} | ${o.runnerCpuMs} | ${o.load} |`,
    )
    .join("\n");
  const memoryRows = memory.samples.map((s) => `| ${s.attempts} | ${s.heapMb} | ${s.rssMb} |`).join("\n");
  return `${setup.attempts} attempts of ${setup.callsPerAttempt} calls each (${setup.callsPerAttempt + 1} model requests), ${setup.concurrency} at a time, against the scripted model in a process of its own answering every request in ${setup.modelMs} ms; the model alone is the same requests from a bare loop with the same client. CPU is this process's (the model's process is not counted on either side).

| round | model alone (ms) | toolsim run (ms) | ratio | CPU, model alone (ms) | CPU, toolsim run (ms) | load |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows}

Runner overhead: wall-time ratio min ${result.ratio.min}, median ${result.ratio.median} (target ≤ ${result.target.ratio}: ${result.target.met ? "met" : "MISSED"}). CPU per attempt: ${cpu.runnerMsPerAttempt} ms for the run against ${cpu.modelMsPerAttempt} ms for the bare loop, against ${(setup.callsPerAttempt + 1) * setup.modelMs} ms of model latency per attempt.

One run of ${memory.attempts} attempts (the model answering at once), heap after garbage collection as it went:

| attempts done | heap (MB) | RSS (MB) |
| ---: | ---: | ---: |
${memoryRows}

From attempt ${memory.from} to ${memory.attempts}: heap ${memory.heapGrowthMb >= 0 ? "+" : ""}${memory.heapGrowthMb} MB (${memory.heapKbPerAttempt} KB per attempt), RSS ${memory.rssGrowthMb >= 0 ? "+" : ""}${memory.rssGrowthMb} MB.`;
}
