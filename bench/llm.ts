import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog, loadToolsets, type ToolsetInput } from "../src/catalog/index.js";
import type { LlmPasses } from "../src/llm/index.js";
import { createRuntime, type Runtime } from "../src/runtime/index.js";
import {
  type FakeOpenAI,
  type FakeStep,
  type RecordedRequest,
  startFakeOpenAI,
} from "../test/support/fake-openai.js";
import { round, summarize } from "./stats.js";

/**
 * The LLM simulator's figures, against the scripted OpenAI-compatible server answering at
 * once (so what is measured is toolsim, not a model): requests per accepted call with and
 * without the optional passes, prompt tokens as the state grows, the replay cache's hit
 * rate, and the engine's own time per call around the model request.
 */

const TOOLSET_ID = "bench_records";
const STATE_SIZES = [10, 100, 1_000, 10_000] as const;

const recordId = (n: number) => `REC-${String(n).padStart(5, "0")}`;

function record(n: number) {
  return {
    record_id: recordId(n),
    title: `Record number ${n}`,
    owner: `owner${n % 37}@example.com`,
    status: n % 3 === 0 ? "closed" : "open",
    priority: ["low", "normal", "high"][n % 3],
    created_at: "2026-01-15T10:00:00Z",
  };
}

function stateWith(count: number) {
  const records: Record<string, unknown> = {};
  for (let n = 1; n <= count; n++) records[recordId(n)] = record(n);
  return { records, runtime: { now: "2026-03-02T09:00:00Z" } };
}

const RECORD_SCHEMA = {
  type: "object",
  properties: {
    record_id: { type: "string" },
    title: { type: "string" },
    status: { type: "string", enum: ["open", "closed"] },
    priority: { type: "string" },
  },
  required: ["record_id", "status"],
};

function toolset(): ToolsetInput {
  const idParam = { record_id: { type: "string", description: "Record id, REC-#####." } };
  return {
    id: TOOLSET_ID,
    field: "Business",
    subdomain: "Records",
    description: "Records that people open, read and close.",
    state: stateWith(10),
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
        outputSchema: { type: "object", properties: { record: RECORD_SCHEMA }, required: ["record"] },
        errors: [
          {
            code: "RECORD_NOT_FOUND",
            status: 404,
            message: "No record {record_id}.",
            when: "the id is unknown",
          },
        ],
        annotations: { readOnlyHint: true },
      },
      {
        name: "set_record_priority",
        description: "Change the priority of a record.",
        inputSchema: {
          type: "object",
          properties: { ...idParam, priority: { type: "string", enum: ["low", "normal", "high"] } },
          required: ["record_id", "priority"],
          additionalProperties: false,
        },
        outputSchema: RECORD_SCHEMA,
        errors: [
          {
            code: "RECORD_NOT_FOUND",
            status: 404,
            message: "No record {record_id}.",
            when: "the id is unknown",
          },
        ],
      },
    ],
  };
}

/** A model that answers every role correctly and at once, reading the call from the prompt. */
function respond(request: RecordedRequest): FakeStep {
  const role = request.responseFormat?.json_schema?.name;
  if (role === "argument_concerns") return { kind: "json", value: { concerns: [] } };
  if (role === "audit_verdict") return { kind: "json", value: { verdict: "correct", problems: [] } };
  const user = request.messages.find((m) => m.role === "user")?.content ?? "";
  const tool = /^Tool: (\S+)/m.exec(user)?.[1];
  const args = argumentsOf(user);
  const id = String(args.record_id ?? "REC-00001");
  if (tool === "set_record_priority") {
    return {
      kind: "json",
      value: {
        outcome: "success",
        result: { record_id: id, status: "open", priority: args.priority },
        error: null,
        patch: [{ op: "replace", path: `/records/${id}/priority`, value: args.priority }],
      },
    };
  }
  return {
    kind: "json",
    value: {
      outcome: "success",
      result: { record: { record_id: id, status: "open" } },
      error: null,
      patch: [],
    },
  };
}

function argumentsOf(prompt: string): Record<string, unknown> {
  const match = /Arguments of this call[^\n]*\n```json\n([\s\S]*?)\n```/.exec(prompt);
  return match?.[1] ? (JSON.parse(match[1]) as Record<string, unknown>) : {};
}

interface Bench {
  fake: FakeOpenAI;
  dir: string;
  catalog: Catalog;
}

function runtimeFor(bench: Bench, name: string, passes: Partial<LlmPasses> | "offline"): Promise<Runtime> {
  return createRuntime({
    catalog: bench.catalog,
    db: join(bench.dir, `${name}.db`),
    seed: "1",
    llm:
      passes === "offline"
        ? undefined
        : {
            config: { baseURL: bench.fake.url, models: { simulate: "bench-model" }, concurrency: 1 },
            passes: { cache: false, semanticCheck: false, audit: false, ...passes },
          },
  });
}

/** A fixed mix of reads and writes over the records of the sandbox state. */
function callPlan(count: number): Array<[string, Record<string, unknown>]> {
  const plan: Array<[string, Record<string, unknown>]> = [];
  for (let i = 0; i < count; i++) {
    const id = recordId((i % 10) + 1);
    if (i % 3 === 2)
      plan.push(["set_record_priority", { record_id: id, priority: ["low", "normal", "high"][i % 3] }]);
    else plan.push(["get_record", { record_id: id }]);
  }
  return plan;
}

async function play(runtime: Runtime, plan: Array<[string, Record<string, unknown>]>) {
  const session = (await runtime.engine.openSession({ seed: "1" })).id;
  const outcomes = [];
  for (const [tool, args] of plan) outcomes.push(await runtime.engine.call(session, tool, args));
  return outcomes;
}

async function requestsPerCall(bench: Bench, calls: number) {
  const figures: Record<string, { calls: number; accepted: number; requests: number; perAccepted: number }> =
    {};
  const variants: Array<[string, Partial<LlmPasses>]> = [
    ["default", {}],
    ["semanticCheck", { semanticCheck: true }],
    ["audit", { audit: true }],
    ["both", { semanticCheck: true, audit: true }],
  ];
  for (const [name, passes] of variants) {
    const runtime = await runtimeFor(bench, `requests-${name}`, passes);
    const before = bench.fake.chatCount();
    const outcomes = await play(runtime, callPlan(calls));
    const requests = bench.fake.chatCount() - before;
    const accepted = outcomes.filter((o) => o.engine === "llm" && o.status !== "rejected").length;
    figures[name] = { calls, accepted, requests, perAccepted: round(requests / Math.max(1, accepted), 2) };
    await runtime.close();
  }
  return figures;
}

async function promptTokensByState(bench: Bench) {
  const rows = [];
  for (const size of STATE_SIZES) {
    const runtime = await runtimeFor(bench, `tokens-${size}`, {});
    const session = (await runtime.engine.openSession({ seed: "1" })).id;
    const state = stateWith(size);
    await runtime.engine.resetSession(session, state, { reason: `bench state of ${size} records` });
    const read = await runtime.engine.call(session, "get_record", { record_id: recordId(5) });
    const write = await runtime.engine.call(session, "set_record_priority", {
      record_id: recordId(5),
      priority: "high",
    });
    rows.push({
      entities: size,
      readPromptTokens: read.usage?.promptTokens ?? 0,
      writePromptTokens: write.usage?.promptTokens ?? 0,
      // what a prompt carrying the whole state would cost, at the same four characters per token
      wholeStateTokens: Math.ceil(JSON.stringify(state).length / 4),
    });
    await runtime.close();
  }
  return rows;
}

async function replayHitRate(bench: Bench, calls: number) {
  const runtime = await createRuntime({
    catalog: bench.catalog,
    db: join(bench.dir, "replay.db"),
    seed: "1",
    llm: {
      config: { baseURL: bench.fake.url, models: { simulate: "bench-model" }, concurrency: 1 },
      passes: { cache: true, semanticCheck: false, audit: false },
    },
  });
  const plan = callPlan(calls);
  const first = await play(runtime, plan);
  const before = bench.fake.chatCount();
  const replay = await play(runtime, plan);
  const requests = bench.fake.chatCount() - before;
  const identical = replay.every((o, i) => JSON.stringify(o.result) === JSON.stringify(first[i]?.result));
  const hits = replay.filter((o) => (o.usage?.cached ?? 0) > 0).length;
  await runtime.close();
  return { calls, replayRequests: requests, hitRate: round(hits / calls, 4), byteIdentical: identical };
}

async function overheadPerCall(bench: Bench, calls: number) {
  const plan = callPlan(calls);
  const llm = await runtimeFor(bench, "overhead-llm", {});
  await play(llm, plan.slice(0, 20)); // warm-up: JIT, ajv compilation, keep-alive connection
  const outcomes = await play(llm, plan);
  await llm.close();
  const offline = await runtimeFor(bench, "overhead-offline", "offline");
  await play(offline, plan.slice(0, 20));
  const offlineOutcomes = await play(offline, plan);
  await offline.close();
  return {
    calls,
    llmCallMs: summarize(outcomes.map((o) => o.latencyMs)),
    endpointMs: summarize(outcomes.map((o) => o.usage?.latencyMs ?? 0)),
    engineOverheadMs: summarize(outcomes.map((o) => o.latencyMs - (o.usage?.latencyMs ?? 0))),
    offlineCallMs: summarize(offlineOutcomes.map((o) => o.latencyMs)),
  };
}

export async function runLlmBench(options: { calls?: number } = {}): Promise<Record<string, unknown>> {
  const calls = options.calls ?? 300;
  const dir = mkdtempSync(join(tmpdir(), "toolsim-llm-bench-"));
  const fake = await startFakeOpenAI({ respond });
  try {
    const file = join(dir, `${TOOLSET_ID}.json`);
    writeFileSync(file, JSON.stringify(toolset()));
    const loaded = loadToolsets([file]);
    const errors = loaded.problems.filter((p) => p.severity === "error");
    if (errors.length > 0) throw new Error(`bench toolset is invalid: ${JSON.stringify(errors)}`);
    const bench: Bench = { fake, dir, catalog: new Catalog(loaded.toolsets) };
    const requests = await requestsPerCall(bench, Math.min(calls, 150));
    const tokens = await promptTokensByState(bench);
    const replay = await replayHitRate(bench, Math.min(calls, 150));
    const overhead = await overheadPerCall(bench, calls);
    const result = { requestsPerCall: requests, promptTokensByState: tokens, replay, overhead };
    return { ...result, markdown: llmMarkdown(result) };
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type LlmFigures = {
  requestsPerCall: Awaited<ReturnType<typeof requestsPerCall>>;
  promptTokensByState: Awaited<ReturnType<typeof promptTokensByState>>;
  replay: Awaited<ReturnType<typeof replayHitRate>>;
  overhead: Awaited<ReturnType<typeof overheadPerCall>>;
};

export function llmMarkdown(figures: LlmFigures): string {
  const r = figures.requestsPerCall;
  const o = figures.overhead;
  const lines = [
    "Against the scripted OpenAI-compatible server in test/support, answering at once (no model latency).",
    "",
    "| Requests per accepted call | value |",
    "|---|---|",
    `| simulation only (default) | ${r.default?.perAccepted} (${r.default?.requests} requests, ${r.default?.accepted} calls) |`,
    `| with --semantic-check | ${r.semanticCheck?.perAccepted} |`,
    `| with --audit (answers judged correct) | ${r.audit?.perAccepted} |`,
    `| with both | ${r.both?.perAccepted} |`,
    "",
    "| Entities in the state | prompt tokens (read) | prompt tokens (write) | whole state would be |",
    "|---|---|---|---|",
    ...figures.promptTokensByState.map(
      (t) =>
        `| ${t.entities.toLocaleString("en")} | ${t.readPromptTokens} | ${t.writePromptTokens} | ${t.wholeStateTokens.toLocaleString("en")} |`,
    ),
    "",
    `Replay of a ${figures.replay.calls}-call session: ${figures.replay.replayRequests} requests, cache hit rate ${round(figures.replay.hitRate * 100, 1)}%, answers byte-identical: ${figures.replay.byteIdentical ? "yes" : "no"}.`,
    "",
    "| Per call (ms, zero-latency model) | p50 | p95 |",
    "|---|---|---|",
    `| whole call, LLM engine | ${o.llmCallMs.p50} | ${o.llmCallMs.p95} |`,
    `| of which the HTTP request to the model | ${o.endpointMs.p50} | ${o.endpointMs.p95} |`,
    `| engine's own overhead (prompt, checks, commit) | ${o.engineOverheadMs.p50} | ${o.engineOverheadMs.p95} |`,
    `| whole call, offline engine (reference) | ${o.offlineCallMs.p50} | ${o.offlineCallMs.p95} |`,
  ];
  return lines.join("\n");
}
