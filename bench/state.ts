/**
 * State at scale: how a call's cost grows with the size of the state, what a session costs
 * on disk, and how long a long session takes to resume and to page through. Every growth
 * figure is a ratio against the same operation on a 10-entity state, measured in the same
 * run, interleaved call by call with the order rotated, over several rounds (min and median
 * of the rounds are reported).
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/client";
import type { ToolsetInput } from "../src/catalog/index.js";
import { Catalog, loadToolsets } from "../src/catalog/index.js";
import { createRuntime } from "../src/runtime/index.js";
import { sessionResources } from "../src/server/index.js";
import { CLI, connectStdio, type StdioConnection } from "./processes.js";
import { median, ratio, round, summarize } from "./stats.js";

export const STATE_TARGETS = {
  /** p50 at 100,000 entities over p50 at 10, for update, create and list. */
  growthRatio: 1.2,
  /** Bytes on disk per extra session that makes one write over a 10,000-entity initial state. */
  bytesPerSession: 16 * 1024,
  /** Resuming a 100,000-call session. */
  resumeMs: 1000,
} as const;

const SIZES = [10, 1_000, 10_000, 100_000] as const;
const OPERATIONS = ["read", "update", "create", "list"] as const;
type Operation = (typeof OPERATIONS)[number];

export interface StateBenchOptions {
  rounds: number;
  /** Measured calls per size, operation and round. */
  calls: number;
  /** Extra sessions in the storage measurement. */
  sessions: number;
  /** Calls in the long session. */
  longSession: number;
  log(line: string): void;
}

const DEFAULTS: StateBenchOptions = {
  rounds: 5,
  calls: 200,
  sessions: 200,
  longSession: 100_000,
  log: (line) => process.stderr.write(`bench: ${line}\n`),
};

const QUICK: Partial<StateBenchOptions> = { rounds: 2, calls: 40, sessions: 40, longSession: 10_000 };

const itemId = (n: number) => `ITM-${String(n).padStart(6, "0")}`;
const CATEGORIES = ["tools", "garden", "kitchen", "lighting", "paint", "storage", "audio", "bath"];

/** A toolset over `size` items: a read, an update, a create with a minted id, and a filtered list. */
export function stateToolset(size: number): ToolsetInput {
  const items: Record<string, unknown> = {};
  for (let n = 1; n <= size; n++) {
    items[itemId(n)] = {
      item_id: itemId(n),
      name: `Item ${n}`,
      category: CATEGORIES[n % CATEGORIES.length],
      stock: 20 + (n % 50),
      price: 4.5 + (n % 100),
    };
  }
  const id = { type: "string", pattern: "^ITM-[0-9]{6}$" };
  const notFound = { code: "ITEM_NOT_FOUND", status: 404, message: "No item {item_id}.", when: "unknown id" };
  return {
    id: `state_${size}`,
    field: "Retail",
    subdomain: "Inventory",
    description: `An inventory of ${size} items, for measuring how calls scale with the state.`,
    state: { items },
    tools: [
      {
        name: "get_item",
        description: "Fetch an item.",
        inputSchema: { type: "object", properties: { item_id: id }, required: ["item_id"] },
        errors: [notFound],
        annotations: { readOnlyHint: true },
        effects: [{ kind: "read", target: "items/{item_id}", missing: "ITEM_NOT_FOUND", output: "item" }],
      },
      {
        name: "adjust_stock",
        description: "Change an item's stock.",
        inputSchema: {
          type: "object",
          properties: { item_id: id, delta: { type: "integer" } },
          required: ["item_id", "delta"],
        },
        errors: [notFound],
        effects: [
          {
            kind: "update",
            target: "items/{item_id}",
            missing: "ITEM_NOT_FOUND",
            inc: { stock: "{delta}" },
            set: { updated_at: "{$now}" },
            output: "item",
          },
        ],
      },
      {
        name: "add_item",
        description: "Add an item.",
        inputSchema: {
          type: "object",
          properties: { name: { type: "string" }, category: { type: "string" } },
          required: ["name", "category"],
        },
        effects: [
          {
            kind: "create",
            target: "items",
            id: { prefix: "ITM-", width: 6, field: "item_id" },
            set: { name: "{name}", category: "{category}", stock: 0 },
            output: "item",
          },
        ],
      },
      {
        name: "list_items",
        description: "List items of a category.",
        inputSchema: {
          type: "object",
          properties: { category: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 50 } },
        },
        effects: [
          {
            kind: "list",
            target: "items",
            where: { category: "{category}" },
            limit: "{limit}",
            output: "items",
          },
        ],
      },
    ],
  };
}

function operationCall(
  operation: Operation,
  size: number,
  i: number,
): { name: string; arguments: Record<string, unknown> } {
  const existing = itemId(1 + ((i * 7919) % size));
  switch (operation) {
    case "read":
      return { name: "get_item", arguments: { item_id: existing } };
    case "update":
      return { name: "adjust_stock", arguments: { item_id: existing, delta: i % 2 ? 1 : -1 } };
    case "create":
      return {
        name: "add_item",
        arguments: { name: `New ${i}`, category: CATEGORIES[i % CATEGORIES.length] },
      };
    case "list":
      return { name: "list_items", arguments: { category: CATEGORIES[i % CATEGORIES.length], limit: 10 } };
  }
}

async function timedCall(client: Client, call: { name: string; arguments: Record<string, unknown> }) {
  const started = performance.now();
  const result = await client.callTool(call);
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`${call.name} answered an error: ${JSON.stringify(result.content)}`);
  return elapsed;
}

export interface GrowthRow {
  operation: Operation;
  entities: number;
  p50: { min: number; median: number };
  /** This size's p50 over the 10-entity p50, per round. */
  ratio: { min: number; median: number };
}

/** Calls against servers of every size, interleaved call by call with the starting size rotated. */
async function growthCurves(dir: string, options: StateBenchOptions): Promise<GrowthRow[]> {
  const servers: Array<{ size: number; connection: StdioConnection }> = [];
  try {
    for (const size of SIZES) {
      const file = join(dir, `state_${size}.json`);
      writeFileSync(file, JSON.stringify(stateToolset(size)));
      const connection = await connectStdio([
        CLI,
        "serve",
        "--stdio",
        "--db",
        join(dir, `growth-${size}.db`),
        "--toolsets",
        file,
      ]);
      await connection.client.listTools();
      servers.push({ size, connection });
      options.log(`  state: server with ${size} entities ready`);
    }
    const perRound = new Map<string, number[]>();
    let counter = 0;
    for (let round = 0; round < options.rounds; round++) {
      for (const operation of OPERATIONS) {
        const samples = new Map<number, number[]>(SIZES.map((size) => [size, []]));
        // a warm-up per round: JIT, caches and (for lists) the index are built before measuring
        for (const { size, connection } of servers) {
          for (let i = 0; i < 10; i++)
            await timedCall(connection.client, operationCall(operation, size, counter++));
        }
        for (let i = 0; i < options.calls; i++) {
          for (let k = 0; k < servers.length; k++) {
            const { size, connection } = servers[(i + k) % servers.length] as (typeof servers)[number];
            samples
              .get(size)
              ?.push(await timedCall(connection.client, operationCall(operation, size, counter++)));
          }
        }
        const base = summarize(samples.get(SIZES[0]) ?? []).p50;
        for (const size of SIZES) {
          const p50 = summarize(samples.get(size) ?? []).p50;
          const key = `${operation}:${size}`;
          perRound.set(`${key}:p50`, [...(perRound.get(`${key}:p50`) ?? []), p50]);
          perRound.set(`${key}:ratio`, [...(perRound.get(`${key}:ratio`) ?? []), ratio(p50, base)]);
        }
      }
      options.log(`  state: growth round ${round + 1} of ${options.rounds} done`);
    }
    return OPERATIONS.flatMap((operation) =>
      SIZES.map((entities) => {
        const p50s = perRound.get(`${operation}:${entities}:p50`) ?? [];
        const ratios = perRound.get(`${operation}:${entities}:ratio`) ?? [];
        return {
          operation,
          entities,
          p50: { min: round(Math.min(...p50s)), median: round(median(p50s)) },
          ratio: { min: round(Math.min(...ratios), 2), median: round(median(ratios), 2) },
        };
      }),
    );
  } finally {
    for (const { connection } of servers) await connection.close();
  }
}

export interface StorageFigures {
  initialEntities: number;
  initialStateBytes: number;
  sessions: number;
  bytesPerSession: number;
}

/** Bytes the state file grows by per extra session that starts from a large state and makes one write. */
async function storagePerSession(dir: string, options: StateBenchOptions): Promise<StorageFigures> {
  const file = join(dir, "storage.json");
  const toolset = stateToolset(10_000);
  writeFileSync(file, JSON.stringify(toolset));
  const loaded = loadToolsets([file]);
  const db = join(dir, "storage.db");
  const oneSession = async (runtime: Awaited<ReturnType<typeof createRuntime>>, n: number) => {
    const session = await runtime.engine.openSession({ name: `s${n}` });
    const outcome = await runtime.engine.call(session.id, "adjust_stock", {
      item_id: itemId(1 + n),
      delta: 1,
    });
    if (outcome.status !== "ok")
      throw new Error(`storage bench write failed: ${JSON.stringify(outcome.failure)}`);
  };
  // the first session stores the initial state; the figure is what each one after it adds
  let runtime = await createRuntime({ catalog: new Catalog(loaded.toolsets), db });
  await oneSession(runtime, 0);
  await runtime.close();
  const before = fileBytes(db);
  runtime = await createRuntime({ catalog: new Catalog(loaded.toolsets), db });
  for (let n = 1; n <= options.sessions; n++) await oneSession(runtime, n);
  await runtime.close();
  const after = fileBytes(db);
  return {
    initialEntities: 10_000,
    initialStateBytes: JSON.stringify(toolset.state).length,
    sessions: options.sessions,
    bytesPerSession: Math.round((after - before) / options.sessions),
  };
}

function fileBytes(db: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(db + suffix).size;
    } catch {
      // no WAL after a clean close
    }
  }
  return total;
}

export interface LongSessionFigures {
  calls: number;
  writeSeconds: number;
  resumeMs: { min: number; median: number };
  firstPageMs: { min: number; median: number };
  lastPageMs: { min: number; median: number };
}

/** A session of many calls: how long reopening it (head loaded, one call answered) and paging its log take. */
async function longSession(dir: string, options: StateBenchOptions): Promise<LongSessionFigures> {
  const file = join(dir, "long.json");
  writeFileSync(file, JSON.stringify(stateToolset(1_000)));
  const catalog = () => new Catalog(loadToolsets([file]).toolsets);
  const db = join(dir, "long.db");
  const started = performance.now();
  let runtime = await createRuntime({ catalog: catalog(), db });
  const session = await runtime.engine.openSession({ name: "long" });
  for (let i = 0; i < options.longSession; i++) {
    const call = operationCall(i % 3 === 0 ? "read" : "update", 1_000, i);
    await runtime.engine.call(session.id, call.name, call.arguments);
  }
  await runtime.close();
  const writeSeconds = round((performance.now() - started) / 1000, 1);
  options.log(`  state: wrote a ${options.longSession}-call session in ${writeSeconds} s`);
  const resume: number[] = [];
  const firstPage: number[] = [];
  const lastPage: number[] = [];
  for (let round_ = 0; round_ < options.rounds; round_++) {
    const opened = performance.now();
    runtime = await createRuntime({ catalog: catalog(), db });
    const resumed = await runtime.engine.openSession({ name: "long" });
    const answer = await runtime.engine.call(resumed.id, "get_item", { item_id: itemId(1) });
    if (answer.status !== "ok") throw new Error("the resumed session did not answer");
    resume.push(performance.now() - opened);
    const resources = sessionResources(runtime.engine, resumed.id);
    for (const [uri, into] of [
      ["toolsim://session/calls", firstPage],
      [`toolsim://session/calls?after=${options.longSession - 100}&limit=100`, lastPage],
    ] as const) {
      const t = performance.now();
      const page = await resources.read(uri);
      into.push(performance.now() - t);
      if (!page.contents[0]) throw new Error(`no page for ${uri}`);
    }
    await runtime.close();
  }
  const figure = (values: number[]) => ({
    min: round(Math.min(...values), 1),
    median: round(median(values), 1),
  });
  return {
    calls: options.longSession,
    writeSeconds,
    resumeMs: figure(resume),
    firstPageMs: figure(firstPage),
    lastPageMs: figure(lastPage),
  };
}

export interface StateBenchResults {
  growth: GrowthRow[];
  storage: StorageFigures;
  long: LongSessionFigures;
  targets: {
    growth: { ratio: number; met: boolean };
    storage: { bytes: number; met: boolean };
    resume: { ms: number; met: boolean };
  };
  markdown: string;
}

export async function runStateBench(overrides: Partial<StateBenchOptions> = {}): Promise<StateBenchResults> {
  const quick = process.argv.includes("--quick");
  const options: StateBenchOptions = { ...DEFAULTS, ...(quick ? QUICK : {}), ...overrides };
  const dir = mkdtempSync(join(tmpdir(), "toolsim-state-bench-"));
  try {
    options.log(`state: growth curves over ${SIZES.join(", ")} entities, ${options.rounds} rounds`);
    const growth = await growthCurves(dir, options);
    options.log("state: storage per session on a 10,000-entity state");
    const storage = await storagePerSession(dir, options);
    options.log(`state: a ${options.longSession}-call session`);
    const long = await longSession(dir, options);
    const worst = Math.max(
      ...growth.filter((r) => r.entities === 100_000 && r.operation !== "read").map((r) => r.ratio.median),
    );
    const results = {
      growth,
      storage,
      long,
      targets: {
        growth: { ratio: STATE_TARGETS.growthRatio, met: worst <= STATE_TARGETS.growthRatio },
        storage: {
          bytes: STATE_TARGETS.bytesPerSession,
          met: storage.bytesPerSession <= STATE_TARGETS.bytesPerSession,
        },
        resume: { ms: STATE_TARGETS.resumeMs, met: long.resumeMs.median < STATE_TARGETS.resumeMs },
      },
    };
    return { ...results, markdown: stateMarkdown(results) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function stateMarkdown(results: Omit<StateBenchResults, "markdown">): string {
  const { growth, storage, long, targets } = results;
  const lines = [
    "### State at scale",
    "",
    "p50 of one call over stdio (ms) by the number of entities in the collection it works on, and its ratio to the same call on 10 entities (min and median over rounds; calls interleaved across sizes).",
    "",
    "| operation | entities | p50 min | p50 median | ratio min | ratio median |",
    "|---|---:|---:|---:|---:|---:|",
    ...growth.map(
      (r) =>
        `| ${r.operation} | ${r.entities.toLocaleString("en")} | ${r.p50.min} | ${r.p50.median} | ${r.ratio.min} | ${r.ratio.median} |`,
    ),
    "",
    `Target: update, create and list at 100,000 entities ≤ ${targets.growth.ratio}× their p50 at 10 — ${targets.growth.met ? "met" : "missed"}.`,
    "",
    `Storage: ${storage.sessions} extra sessions, each starting from the same ${storage.initialEntities.toLocaleString("en")}-entity state (${Math.round(storage.initialStateBytes / 1024)} KiB as JSON) and making one write, add **${(storage.bytesPerSession / 1024).toFixed(1)} KiB** each to the state file (target ≤ ${targets.storage.bytes / 1024} KiB — ${targets.storage.met ? "met" : "missed"}).`,
    "",
    `A ${long.calls.toLocaleString("en")}-call session (written in ${long.writeSeconds} s): resumed (store opened, head loaded, one call answered) in ${long.resumeMs.median} ms median (min ${long.resumeMs.min}; target < ${targets.resume.ms} ms — ${targets.resume.met ? "met" : "missed"}); the first page of its calls resource in ${long.firstPageMs.median} ms, the last page in ${long.lastPageMs.median} ms.`,
    "",
  ];
  return lines.join("\n");
}
