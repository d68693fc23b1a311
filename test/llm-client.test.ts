import { afterEach, describe, expect, it } from "vitest";
import { LlmClient, LlmError, resolveLlmConfig } from "../src/llm/index.js";
import { stateView } from "../src/simulate/index.js";
import { State } from "../src/state/index.js";
import { catalogOf, type FakeOpenAI, HELPDESK, startFakeOpenAI } from "./support/index.js";

const servers: FakeOpenAI[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function client(options: { concurrency?: number } = {}) {
  const fake = await startFakeOpenAI();
  servers.push(fake);
  return {
    fake,
    llm: new LlmClient(
      {
        baseURL: fake.url,
        models: { simulate: "sim", judge: "judge", embed: "emb" },
        maxRetries: 0,
        ...options,
      },
      { retryBaseMs: 5 },
    ),
  };
}

const SCHEMA = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };

describe("LlmClient", () => {
  it("returns a checked value, and throws LlmError carrying the failure and the cost", async () => {
    const { fake, llm } = await client();
    fake.script({ kind: "json", value: { n: 4 } }, { kind: "json", value: { n: "four" } });
    const ok = await llm.json({ role: "judge", system: "s", user: "u", schema: SCHEMA, schemaName: "num" });
    expect(ok.value).toEqual({ n: 4 });
    expect(ok.cached).toBe(false);
    expect(fake.requests[0]?.model).toBe("judge");
    const failed = await llm
      .json({ role: "simulate", system: "s", user: "u", schema: SCHEMA, schemaName: "num" })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LlmError);
    expect((failed as LlmError).failure.kind).toBe("schema");
    expect((failed as LlmError).usage.requests).toBe(1);
  });

  it("accepts an answer wrapped in a Markdown fence and runs the caller's parse", async () => {
    const { fake, llm } = await client();
    fake.script({ kind: "text", content: '```json\n{"n": 2}\n```' }, { kind: "json", value: { n: -1 } });
    const parse = (value: unknown) => {
      const n = (value as { n: number }).n;
      if (n < 0) throw new Error("n must not be negative");
      return n * 10;
    };
    const first = await llm.tryJson({
      role: "simulate",
      system: "s",
      user: "u",
      schema: SCHEMA,
      schemaName: "n",
      parse,
    });
    expect(first.ok && first.value).toBe(20);
    const second = await llm.tryJson({
      role: "simulate",
      system: "s",
      user: "u",
      schema: SCHEMA,
      schemaName: "n",
      parse,
    });
    expect(second.ok).toBe(false);
    expect(!second.ok && second.failure).toEqual({ kind: "parse", message: "n must not be negative" });
  });

  it("embeds texts in order with the embedding model", async () => {
    const { fake, llm } = await client();
    const { vectors, usage } = await llm.embed(["refund an order", "refund my order", "weather in Oslo"]);
    expect(vectors).toHaveLength(3);
    const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
    const [a, b, c] = vectors as [number[], number[], number[]];
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
    expect(usage.requests).toBe(1);
    expect(fake.requests[0]?.model).toBe("emb");
  });

  it("keeps no more requests in flight than its concurrency limit", async () => {
    const { fake, llm } = await client({ concurrency: 1 });
    fake.script(
      { kind: "stall", ms: 50 },
      { kind: "json", value: { n: 1 } },
      { kind: "json", value: { n: 2 } },
    );
    const ask = () => llm.json({ role: "simulate", system: "s", user: "u", schema: SCHEMA, schemaName: "n" });
    const pending = [ask(), ask()];
    // with a limit of 1 the second request waits; the stalled first one takes the scripted { n: 1 }
    const answers = await Promise.all(pending);
    expect(answers.map((a) => a.value)).toEqual([{ n: 1 }, { n: 2 }]);
  });
});

describe("resolveLlmConfig", () => {
  it("prefers flags over environment and explains the choice", () => {
    const fromEnv = resolveLlmConfig({ flags: {}, env: { OPENAI_API_KEY: "sk-test" } });
    expect(fromEnv.engine).toBe("llm");
    expect(fromEnv.config?.models.simulate).toBe("gpt-4.1-mini");
    expect(fromEnv.reason).toBe(
      "llm for the tools whose answers the rules would guess, offline for the rest (gpt-4.1-mini at api.openai.com; auto: an API key is configured)",
    );
    expect(fromEnv.onlyGuessed).toBe(true);

    const flagged = resolveLlmConfig({
      flags: { engine: "offline" },
      env: { OPENAI_API_KEY: "sk-test", TOOLSIM_ENGINE: "llm" },
    });
    expect(flagged.engine).toBe("offline");
    expect(flagged.config).toBeUndefined();

    const passes = resolveLlmConfig({ flags: { noCache: true, audit: true, deadlineSeconds: 5 }, env: {} });
    expect(passes.passes).toEqual({ semanticCheck: false, audit: true, cache: false });
    expect(passes.deadlineMs).toBe(5000);
  });

  it("gives up on a stalled model well before the 60 s clients commonly wait", () => {
    const fromEnv = resolveLlmConfig({ flags: {}, env: { OPENAI_API_KEY: "sk-test" } });
    expect(fromEnv.deadlineMs).toBe(25_000);
    const offline = resolveLlmConfig({ flags: { engine: "offline" }, env: {} });
    expect(offline.deadlineMs).toBe(25_000);
  });
});

describe("state slice", () => {
  it("shows the referenced entity and bounded summaries, however many entities the state holds", () => {
    const catalog = catalogOf([HELPDESK]);
    const tool = catalog.tool("get_ticket")?.tool;
    if (!tool) throw new Error("fixture tool missing");
    const sizes = [10, 1_000, 10_000].map((count) => {
      const tickets: Record<string, unknown> = {};
      for (let i = 1; i <= count; i++)
        tickets[`TCK-${i}`] = { ticket_id: `TCK-${i}`, subject: `Issue ${i}`, status: "open" };
      const state = State.fromDocument({ tickets, runtime: { now: "2026-03-02T09:00:00Z" } });
      const view = stateView({ tool, args: { ticket_id: "TCK-7" }, state, effects: { status: "none" } });
      return { count, view, size: JSON.stringify(view).length };
    });
    expect(sizes[0]?.view.kind).toBe("whole");
    for (const { view, count } of sizes.slice(1)) {
      expect(view.kind).toBe("slice");
      if (view.kind !== "slice") continue;
      expect(view.entities["/tickets/TCK-7"]).toEqual({
        ticket_id: "TCK-7",
        subject: "Issue 7",
        status: "open",
      });
      expect(view.collections).toEqual([
        {
          name: "tickets",
          count,
          // the first keys in key order, as the state keeps them
          sampleKeys: ["TCK-1", "TCK-10", "TCK-100"],
          fields: ["ticket_id", "subject", "status"],
        },
      ]);
    }
    const [, thousand, tenThousand] = sizes;
    expect(tenThousand?.size).toBeLessThan((thousand?.size ?? 0) + 10);
  });
});
