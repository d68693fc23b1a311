import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  callMeta,
  connectStdio,
  type FakeOpenAI,
  HELPDESK,
  runCli,
  startFakeOpenAI,
  tempDir,
} from "./support/index.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fakeServer(): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI();
  cleanups.push(() => fake.close());
  return fake;
}

function dbFile(): string {
  const dir = tempDir("toolsim-llm-e2e-");
  cleanups.push(dir.cleanup);
  return join(dir.path, "toolsim.db");
}

async function stdio(args: string[], env: Record<string, string> = {}) {
  const connected = await connectStdio(["--toolsets", HELPDESK, ...args], env);
  cleanups.push(() => connected.client.close());
  return connected;
}

function call(client: Client, name: string, args: Record<string, unknown>) {
  return client.callTool({ name, arguments: args }) as Promise<{
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }>;
}

describe("toolsim serve --engine llm over stdio", () => {
  it("answers calls with the model, and marks a fallback in _meta when the model's answer is unusable", async () => {
    const fake = await fakeServer();
    // without inferred effects, so the model alone decides what create_ticket does
    const { client, stderr } = await stdio([
      "--engine",
      "llm",
      "--llm-base-url",
      fake.url,
      "--model",
      "fake-model",
      "--db",
      dbFile(),
      "--no-infer",
    ]);
    fake.script({
      kind: "json",
      value: {
        outcome: "success",
        result: { ticket_id: "TCK-3", status: "open", subject: "Cannot print" },
        error: null,
        patch: [
          {
            op: "add",
            path: "/tickets/TCK-3",
            value: {
              ticket_id: "TCK-3",
              subject: "Cannot print",
              status: "open",
              customer_email: "kim@example.com",
            },
          },
        ],
      },
    });
    const created = await call(client, "create_ticket", {
      subject: "Cannot print",
      customer_email: "kim@example.com",
    });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toEqual({
      ticket_id: "TCK-3",
      status: "open",
      subject: "Cannot print",
    });
    expect(callMeta(created).engine).toBe("llm");
    expect(callMeta(created).fallback).toBeUndefined();
    expect(fake.requests[0]?.model).toBe("fake-model");
    expect(stderr()).toContain(`engine llm (fake-model at ${fake.url}; chosen with --engine llm)`);

    fake.script({ kind: "text", content: "{oops" }, { kind: "text", content: "still not JSON" });
    const fallback = await call(client, "get_ticket", { ticket_id: "TCK-3" });
    expect(fallback.isError).toBeFalsy();
    expect(callMeta(fallback).engine).toBe("offline");
    expect(callMeta(fallback).fallback).toMatch(/not valid JSON/);
    // the offline engine still sees the ticket the model created
    expect(fallback.structuredContent?.subject).toBe("Cannot print");
    expect(fake.chatCount()).toBe(3);
  });

  it("holds the model to the tool's contract: a read-only tool's wiping patch is answered offline, the reason in _meta", async () => {
    const fake = await fakeServer();
    const { client } = await stdio([
      "--engine",
      "llm",
      "--llm-base-url",
      fake.url,
      "--model",
      "m",
      "--db",
      dbFile(),
    ]);
    fake.script({
      kind: "json",
      value: {
        outcome: "success",
        result: { ticket_id: "TCK-1", status: "open" },
        error: null,
        patch: [
          { op: "remove", path: "/tickets" },
          { op: "remove", path: "/customers" },
        ],
      },
    });
    const read = await call(client, "get_ticket", { ticket_id: "TCK-1" });
    expect(read.isError).toBeFalsy();
    expect(callMeta(read).engine).toBe("offline");
    expect(callMeta(read).fallback).toMatch(/broke the tool's contract: get_ticket is read-only/);
    expect(callMeta(read).stateVersion).toBe(0);
    const state = await client.readResource({ uri: "toolsim://session/state" });
    const head = JSON.parse((state.contents[0] as { text: string }).text) as {
      state: Record<string, object>;
    };
    expect(Object.keys(head.state.tickets ?? {})).toEqual(["TCK-1", "TCK-2"]);
    expect(Object.keys(head.state.customers ?? {})).toEqual(["CUS-1"]);
  });

  it("auto picks the LLM from the environment (base URL, no key) for the tools the rules would guess, and says why", async () => {
    const fake = await fakeServer();
    const { client, stderr } = await stdio(["--db", dbFile()], {
      OPENAI_BASE_URL: fake.url,
      TOOLSIM_MODEL: "qwen3:8b",
    });
    fake.script({
      kind: "json",
      value: {
        outcome: "success",
        result: { callback_id: "CB-1", scheduled_for: "2026-03-03T10:00:00Z" },
        error: null,
        patch: [],
      },
    });
    // nothing of the state grounds a callback: the model answers it
    const guessed = await call(client, "schedule_callback", {
      customer_id: "CUS-1",
      date: "2026-03-03",
      phone: "+14155550100",
    });
    expect(callMeta(guessed).engine).toBe("llm");
    expect(fake.requests[0]?.model).toBe("qwen3:8b");
    // a read the state grounds is answered by the rules, with no request
    const read = await call(client, "get_ticket", { ticket_id: "TCK-1" });
    expect(callMeta(read).engine).toBe("offline");
    expect(fake.requests).toHaveLength(1);
    expect(stderr()).toContain(
      "engine llm for the tools whose answers the rules would guess, offline for the rest (qwen3:8b at",
    );
    expect(stderr()).toContain("auto: a base URL is configured");
  });

  it("auto without an endpoint serves offline and says how to configure one", async () => {
    const { client, stderr } = await stdio(["--db", dbFile()]);
    const result = await call(client, "get_ticket", { ticket_id: "TCK-1" });
    expect(callMeta(result).engine).toBe("offline");
    expect(stderr()).toContain("engine offline (no LLM endpoint configured: set OPENAI_API_KEY");
  });

  it("reads the endpoint from toolsim.config.json", async () => {
    const fake = await fakeServer();
    const dir = tempDir("toolsim-config-");
    cleanups.push(dir.cleanup);
    const file = join(dir.path, "toolsim.config.json");
    writeFileSync(
      file,
      JSON.stringify({ engine: "llm", llm: { baseURL: fake.url, models: { simulate: "from-file" } } }),
    );
    const { client, stderr } = await stdio(["--config", file, "--db", dbFile()]);
    fake.script({
      kind: "json",
      value: { outcome: "success", result: { ticket_id: "TCK-1", status: "open" }, error: null, patch: [] },
    });
    await call(client, "get_ticket", { ticket_id: "TCK-1" });
    expect(fake.requests[0]?.model).toBe("from-file");
    expect(stderr()).toContain("engine llm (from-file at");
  });
});

describe("toolsim serve: engine usage errors", () => {
  const noEndpoint = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", TOOLSIM_ENGINE: "", TOOLSIM_MODEL: "" };

  it("refuses --engine llm with nothing configured", async () => {
    const run = await runCli(["serve", "--stdio", "--engine", "llm", "--toolsets", HELPDESK], noEndpoint);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--engine llm needs an endpoint: set OPENAI_API_KEY, or --llm-base-url");
  });

  it("refuses a local endpoint without a model, an unknown engine and a broken config file", async () => {
    const local = await runCli(
      ["serve", "--stdio", "--llm-base-url", "http://127.0.0.1:9/v1", "--toolsets", HELPDESK],
      noEndpoint,
    );
    expect(local.code).toBe(2);
    expect(local.stderr).toContain("needs a model name: pass --model");

    const engine = await runCli(["serve", "--stdio", "--engine", "gpt", "--toolsets", HELPDESK], noEndpoint);
    expect(engine.code).toBe(2);
    expect(engine.stderr).toContain("engine must be one of auto, offline, llm");

    const dir = tempDir("toolsim-config-");
    cleanups.push(dir.cleanup);
    const file = join(dir.path, "toolsim.config.json");
    writeFileSync(file, '{"model": 3}');
    const broken = await runCli(["serve", "--stdio", "--config", file, "--toolsets", HELPDESK], noEndpoint);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('"model" must be a string');
  });
});
