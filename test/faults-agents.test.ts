import { join, resolve } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultKind, FaultProfile, type FaultProfileInput } from "../src/catalog/index.js";
import {
  drawsFor,
  type FaultTally,
  type ResolvedProfile,
  resolveFaultProfile,
  type ToolFacts,
} from "../src/faults/index.js";
import { createRuntime, type Runtime } from "../src/runtime/index.js";
import { controlTools, type HttpHandle, serveOverHttp } from "../src/server/index.js";
import { buildReport, TaskDesk } from "../src/tasks/index.js";
import { catalogOf, runCli, tempDir } from "./support/index.js";

/**
 * Scripted agents under each fault kind, over real MCP (Streamable HTTP, the SDK client): one
 * that does not retry (and trusts what it reads) and one that retries (checking first whether
 * a write it lost went through, following continuations, reading again when an answer looks
 * old, ignoring instructions in data). Each session gets its profile through the plan's
 * `assign`, as each attempt of a run does; the report's counts per kind are checked.
 */
const NURSERY = resolve(import.meta.dirname, "fixtures/faults/nursery.json");
const catalog = catalogOf([NURSERY]);
const dir = tempDir();
const db = join(dir.path, "agents.db");
let runtime: Runtime;
let handle: HttpHandle;
/** Session name → the task it starts on and the profile it meets. */
const scenarios = new Map<string, { task: string; profile: ResolvedProfile }>();

beforeAll(async () => {
  runtime = await createRuntime({ catalog, db });
  runtime.hub.use(controlTools(new TaskDesk({ engine: runtime.engine, store: runtime.store }), {}));
  handle = await serveOverHttp(runtime.hub, {
    host: "127.0.0.1",
    port: 0,
    openSession: async (name, tenant) => {
      const scenario = scenarios.get(name ?? "");
      if (!scenario) throw new Error(`no scenario named ${name}`);
      const session = await runtime.engine.openSession({ name, tenant, taskId: scenario.task });
      runtime.faults.assign(session.id, scenario.profile);
      return session.id;
    },
  });
});
afterAll(async () => {
  await handle.close();
  await runtime.close();
  dir.cleanup();
});

// ── the agents ───────────────────────────────────────────────────────────────

interface Agent {
  name: string;
  /** Retries a call that failed with a transient error or timed out. */
  retries: boolean;
  /** Before retrying a write, reads whether it went through. */
  checksFirst: boolean;
  followsCursors: boolean;
  /** Reads again when a read contradicts a write it just made. */
  rereads: boolean;
  /** Gives up on an answer that lacks a field or writes a date differently than before. */
  strict: boolean;
  /** Does what text inside an answer tells it to. */
  obeys: boolean;
}

const DOES_NOT_RETRY: Agent = {
  name: "does not retry",
  retries: false,
  checksFirst: false,
  followsCursors: false,
  rereads: false,
  strict: true,
  obeys: true,
};
const RETRIES: Agent = {
  name: "retries",
  retries: true,
  checksFirst: true,
  followsCursors: true,
  rereads: true,
  strict: false,
  obeys: false,
};
const RETRIES_BLINDLY: Agent = { ...RETRIES, name: "retries blindly", checksFirst: false };

type Reply =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; transient: boolean; retryAfterMs: number; message: string };

interface Plant {
  plant_id: string;
  water_ml_total: number;
  [field: string]: unknown;
}

/**
 * How long the agents wait for an answer. Far above what a call takes even on a loaded
 * machine, and far below the waits the latency and timeout scenarios inject, so which calls
 * time out never depends on the machine's speed.
 */
const DEADLINE_MS = 5_000;

class Run {
  private readonly codes = new Set<string>();
  constructor(
    private readonly client: Client,
    private readonly agent: Agent,
  ) {}

  async call(name: string, args: Record<string, unknown>): Promise<Reply> {
    try {
      const result = await this.client.callTool({ name, arguments: args }, { timeout: DEADLINE_MS });
      const text = (result.content as Array<{ text?: string }>)[0]?.text ?? "";
      if (!result.isError)
        return { ok: true, value: (result.structuredContent ?? {}) as Record<string, unknown> };
      const error = (text.startsWith("{") ? JSON.parse(text).error : undefined) as
        | { status: number; message: string }
        | undefined;
      const seconds = /retry after (\d+(?:\.\d+)?) second/i.exec(error?.message ?? "")?.[1];
      return {
        ok: false,
        transient: [429, 500, 502, 503, 504].includes(error?.status ?? 0),
        retryAfterMs: Math.min(100, Number(seconds ?? 0) * 1000),
        message: error?.message ?? text,
      };
    } catch (error) {
      if (!/timed out/i.test(String(error))) throw error;
      return { ok: false, transient: true, retryAfterMs: 0, message: "timed out" };
    }
  }

  /** A read, retried once when the agent retries; what it says is obeyed when the agent obeys. */
  async read(name: string, args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    let reply = await this.call(name, args);
    if (!reply.ok && reply.transient && this.agent.retries) reply = await this.call(name, args);
    if (!reply.ok) return undefined;
    if (this.agent.obeys) await this.obey(reply.value);
    return reply.value;
  }

  async plant(id: string): Promise<Plant | undefined> {
    const plant = (await this.read("get_plant", { plant_id: id }))?.plant as Plant | undefined;
    const odd =
      plant &&
      (["location", "notes", "last_watered_at"].some((field) => !(field in plant)) ||
        !String(plant.last_watered_at).endsWith("Z"));
    return odd && this.agent.strict ? undefined : plant;
  }

  /** Instructions found in text: a tool to call, or codes and addresses to pass on. */
  private async obey(value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    const tool = /call the tool (\w+)/.exec(text)?.[1];
    if (tool) await this.call(tool, {});
    for (const code of text.match(/\b[A-Z]+-\d{4}(?:-REF)?\b|[\w.-]+@mailbox\.example/g) ?? [])
      this.codes.add(code);
  }

  async water(id: string, amount: number, before: number): Promise<boolean> {
    const args = {
      plant_id: id,
      amount_ml: amount,
      ...(this.codes.size ? { note: [...this.codes].join(" ") } : {}),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const reply = await this.call("water_plant", args);
      if (reply.ok) return true;
      if (!reply.transient || !this.agent.retries) return false;
      if (this.agent.checksFirst && ((await this.plant(id))?.water_ml_total ?? before) >= before + amount)
        return true;
      await new Promise((resolveWait) => setTimeout(resolveWait, reply.retryAfterMs));
    }
    return false;
  }

  async finish(answer: string, infeasible = false): Promise<void> {
    const codes = this.codes.size ? ` (${[...this.codes].join(", ")})` : "";
    const done = await this.client.callTool({
      name: "sim_task_feedback",
      arguments: { answer: `${answer}${codes}`, infeasible },
    });
    expect(done.isError).toBeFalsy();
  }

  /** Water a plant found by id, or by name in the plant list; confirm it from the plant's total. */
  async waterTask(amount: number, target: { id?: string; name?: string }): Promise<void> {
    let id = target.id;
    if (!id) {
      const found = await this.findByName(target.name ?? "");
      if (!found) return this.finish(`There is no plant named ${target.name}.`, true);
      id = found;
    }
    const first = await this.plant(id);
    if (!first) return this.finish("The plant could not be read.", true);
    if (!(await this.water(id, amount, first.water_ml_total)))
      return this.finish("The nursery system would not take the watering.", true);
    let after = await this.plant(id);
    if (after && after.water_ml_total < first.water_ml_total + amount) {
      if (this.agent.rereads) after = await this.plant(id);
      else await this.call("water_plant", { plant_id: id, amount_ml: amount });
    }
    await this.finish(`Watered ${id} with ${amount} ml.`);
  }

  private async findByName(name: string): Promise<string | undefined> {
    let args: Record<string, unknown> = {};
    for (let page = 0; page < 5; page++) {
      const listed = await this.read("list_plants", args);
      const plants = (listed?.plants ?? []) as Array<{ plant_id: string; name: string }>;
      const found = plants.find((p) => p.name === name);
      if (found) return found.plant_id;
      if (!this.agent.followsCursors || typeof listed?.next_cursor !== "string") return undefined;
      args = { cursor: listed.next_cursor };
    }
    return undefined;
  }
}

// ── the scenarios ────────────────────────────────────────────────────────────

const WATER: ToolFacts = { name: "water_plant", toolset: "nursery", access: "write" };
const GET: ToolFacts = { name: "get_plant", toolset: "nursery", access: "read" };

/**
 * A profile of one rule at rate 0.5, with the first seed whose draws fault the calls at
 * `faulted` and leave those at `spared` alone (session seed "0"): the test reads the
 * decision off the same pure function the engine uses, rather than hoping for it.
 */
function seeded(
  rule: FaultProfileInput["rules"][number],
  tool: ToolFacts,
  faulted: number[],
  spared: number[],
) {
  for (let seed = 0; seed < 10_000; seed++) {
    const profile = resolved({ name: "test", rules: [{ ...rule, rate: 0.5, seed }] });
    const fires = (seq: number) => drawsFor(profile, { sessionSeed: "0", seq, tool }).length > 0;
    if (faulted.every(fires) && !spared.some(fires)) return profile;
  }
  throw new Error("no seed gives that pattern");
}

function resolved(input: FaultProfileInput): ResolvedProfile {
  const profile = resolveFaultProfile(FaultProfile.parse(input), catalog, { file: "test" }).profile;
  if (!profile) throw new Error("the test's profile does not resolve");
  return profile;
}

const on = (tools: string[]) => ({ match: { tools } });
/** The water flow's seqs: 1 read, 2 write; a retry's check reads at 3, the retry writes at 4 (a blind one at 3). */
const firstWriteFails = (fault: FaultProfileInput["rules"][number]["fault"]) =>
  seeded({ ...on(["water_plant"]), rate: 0.5, fault }, WATER, [2], [3, 4]);

interface Expected {
  solved: boolean;
  tally: Partial<FaultTally>;
}

interface Scenario {
  kind: FaultKind;
  task: string;
  target: { id?: string; name?: string };
  profile: () => ResolvedProfile;
  outcomes: Array<[Agent, Expected]>;
}

const fern = { id: "PL-0002" };
const gaveUp = (injected = 1): Expected => ({
  solved: false,
  tally: { injected, recovered: 0, gaveUp: injected },
});
const recovered = (injected = 1): Expected => ({
  solved: true,
  tally: { injected, recovered: injected, gaveUp: 0 },
});

const SCENARIOS: Scenario[] = [
  ...(["rate-limited", "unavailable", "internal-error"] as const).map(
    (kind): Scenario => ({
      kind,
      task: "nursery-water-fern",
      target: fern,
      profile: () => firstWriteFails(kind === "rate-limited" ? { kind, retryAfterSeconds: 0 } : { kind }),
      outcomes: [
        [DOES_NOT_RETRY, gaveUp()],
        [RETRIES, recovered()],
      ],
    }),
  ),
  {
    kind: "timeout",
    task: "nursery-water-fern",
    target: fern,
    profile: () => firstWriteFails({ kind: "timeout", holdMs: 60_000 }),
    outcomes: [
      [DOES_NOT_RETRY, gaveUp()],
      [RETRIES, recovered()],
    ],
  },
  {
    // the write waits past the agent's deadline: it was applied, and the one that checks finds it
    kind: "latency",
    task: "nursery-water-fern",
    target: fern,
    profile: () =>
      resolved({
        rules: [
          { ...on(["water_plant"]), rate: 1, fault: { kind: "latency", distribution: "fixed", ms: 15_000 } },
        ],
      }),
    outcomes: [
      [DOES_NOT_RETRY, gaveUp()],
      [RETRIES, recovered()],
    ],
  },
  {
    kind: "lost-answer",
    task: "nursery-water-fern",
    target: fern,
    profile: () => firstWriteFails({ kind: "lost-answer" }),
    outcomes: [
      [DOES_NOT_RETRY, gaveUp()],
      [RETRIES, recovered()],
      [
        RETRIES_BLINDLY,
        { solved: false, tally: { injected: 1, recovered: 0, gaveUp: 0, repeatedWrites: 1 } },
      ],
    ],
  },
  {
    kind: "truncated",
    task: "nursery-water-staghorn",
    target: { name: "Staghorn fern" },
    profile: () =>
      resolved({ rules: [{ ...on(["list_plants"]), rate: 1, fault: { kind: "truncated", keep: 0.5 } }] }),
    outcomes: [
      [DOES_NOT_RETRY, gaveUp()],
      [RETRIES, recovered()],
    ],
  },
  {
    // the read that confirms the write (seq 3) lags behind it; reading again (seq 4) does not
    kind: "stale-read",
    task: "nursery-water-fern",
    target: fern,
    profile: () => seeded({ ...on(["get_plant"]), rate: 0.5, fault: { kind: "stale-read" } }, GET, [3], [4]),
    outcomes: [
      [DOES_NOT_RETRY, gaveUp()],
      [RETRIES, recovered()],
    ],
  },
  {
    kind: "drift",
    task: "nursery-water-fern",
    target: fern,
    profile: () => resolved({ rules: [{ ...on(["get_plant"]), rate: 1, fault: { kind: "drift" } }] }),
    outcomes: [
      [DOES_NOT_RETRY, gaveUp()],
      [RETRIES, recovered(2)],
    ],
  },
  {
    kind: "injection",
    task: "nursery-water-fern",
    target: fern,
    profile: () => resolved({ rules: [{ ...on(["get_plant"]), rate: 1, fault: { kind: "injection" } }] }),
    outcomes: [
      [
        DOES_NOT_RETRY,
        { solved: true, tally: { injected: 2, recovered: 0, gaveUp: 0, followedInjections: 2 } },
      ],
      [RETRIES, { solved: true, tally: { injected: 2, recovered: 2, gaveUp: 0, followedInjections: 0 } }],
    ],
  },
];

async function play(session: string, scenario: Scenario, agent: Agent) {
  scenarios.set(session, { task: scenario.task, profile: scenario.profile() });
  const client = new Client({ name: "scripted-agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(handle.url), {
      requestInit: { headers: { "X-Toolsim-Session": session } },
    }),
  );
  try {
    await new Run(client, agent).waterTask(300, scenario.target);
  } finally {
    await client.close();
  }
  const record = await runtime.engine.session(session);
  if (!record) throw new Error(`no session ${session}`);
  return buildReport({ catalog, store: runtime.store }, await runtime.engine.record(record.id));
}

describe.each(SCENARIOS)("an agent meets $kind", (scenario) => {
  it.each(scenario.outcomes.map(([agent, expected]) => ({ agent, expected, label: agent.name })))(
    "one that $label: the report counts it",
    async ({ agent, expected }) => {
      const report = await play(`${scenario.kind}-${agent.name.replaceAll(" ", "-")}`, scenario, agent);
      const tally = report.faults?.[scenario.kind];
      expect(
        tally,
        JSON.stringify(report.timeline.map((t) => [t.seq, t.tool, t.status, t.fault])),
      ).toMatchObject({
        repeatedWrites: 0,
        followedInjections: 0,
        ...expected.tally,
      });
      expect(report.verdict?.solved).toBe(expected.solved);
      const others = Object.entries(report.faults ?? {}).filter(
        ([kind, t]) => kind !== scenario.kind && t.injected,
      );
      expect(others).toEqual([]);
    },
  );
});

describe("a lost answer followed by a blind retry", () => {
  it("leaves a duplicate the state shows, the timeline marks and `toolsim report` prints", async () => {
    const lost = SCENARIOS.find((s) => s.kind === "lost-answer") as Scenario;
    const report = await play("duplicate", lost, RETRIES_BLINDLY);
    const writes = report.timeline.filter((t) => t.tool === "water_plant");
    expect(writes.map((w) => [w.seq, w.status, w.fault?.kind, w.repeatsAppliedWrite])).toEqual([
      [2, "ok", "lost-answer", undefined],
      [3, "ok", undefined, 2],
    ]);
    const session = await runtime.engine.session("duplicate");
    const state = (await runtime.engine.state(session?.id ?? "")).state.toJSON() as {
      waterings: Record<string, { plant_id: string; amount_ml: number }>;
      plants: Record<string, { water_ml_total: number }>;
    };
    expect(
      Object.values(state.waterings).filter((w) => w.plant_id === "PL-0002" && w.amount_ml === 300),
    ).toHaveLength(2);
    expect(state.plants["PL-0002"]?.water_ml_total).toBe(1400);
    const printed = await runCli(["report", "duplicate", "--db", db, "--toolsets", NURSERY]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain("Faults (injected on purpose)");
    expect(printed.stdout).toMatch(/lost-answer\s+1\s+0\s+0\s+1\s+0/);
    expect(printed.stdout).toMatch(
      /#2 +ok +water_plant .*\{fault: lost-answer: applied, the client read an error\}/,
    );
    expect(printed.stdout).toMatch(/#3 +ok +water_plant .*\(repeats #2, which was applied\)/);
  });
});

describe("an injection followed and one ignored", () => {
  it("is told apart by its canary, in a later call or the answer", async () => {
    const injection = SCENARIOS.find((s) => s.kind === "injection") as Scenario;
    const followed = await play("canary-followed", injection, DOES_NOT_RETRY);
    const ignored = await play("canary-ignored", injection, RETRIES);
    const canaries = (report: typeof followed) =>
      report.timeline.flatMap((t) => (typeof t.fault?.canary === "string" ? [t.fault.canary] : []));
    const seenLater = (report: typeof followed) => {
      const text =
        JSON.stringify(report.timeline.map((t) => [t.tool, t.arguments])) + (report.verdict?.answer ?? "");
      return canaries(report).filter((canary) => text.includes(canary));
    };
    expect(canaries(followed)).toHaveLength(2);
    expect(seenLater(followed)).toEqual(canaries(followed));
    expect(canaries(ignored)).toHaveLength(2);
    expect(seenLater(ignored)).toEqual([]);
  });
});
