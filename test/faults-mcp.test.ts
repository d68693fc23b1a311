import { join, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callMeta,
  connectHttp,
  connectStdio,
  type RunningServer,
  startHttpServer,
  tempDir,
  textJson,
} from "./support/index.js";

/**
 * Each fault kind over real MCP, stdio and Streamable HTTP, with the SDK client. The
 * nursery fixture has a task per kind whose own profile injects that kind into every
 * matching call (rate 1), so a session meets it by starting the task.
 */
const NURSERY = resolve(import.meta.dirname, "fixtures/faults/nursery.json");

type Result = Awaited<ReturnType<Client["callTool"]>>;

interface FaultMeta {
  kind: string;
  rule: string;
  seed: string;
  [detail: string]: unknown;
}

function faultOf(result: Result): FaultMeta | undefined {
  return result._meta?.["toolsim/fault"] as FaultMeta | undefined;
}

function errorOf(result: Result): { code: string; status: number; message: string } {
  expect(result.isError).toBe(true);
  return (textJson(result) as { error: { code: string; status: number; message: string } }).error;
}

async function calls(
  client: Client,
): Promise<Array<{ seq: number; tool: string; status: string; fault?: FaultMeta }>> {
  const read = await client.readResource({ uri: "toolsim://session/calls?limit=200" });
  return JSON.parse((read.contents[0] as { text: string }).text).calls;
}

async function start(client: Client, kind: string): Promise<void> {
  const started = await client.callTool({
    name: "sim_start_task",
    arguments: { task_id: `nursery-fault-${kind}` },
  });
  expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
}

async function plant(client: Client, id = "PL-0002"): Promise<Record<string, unknown>> {
  const state = await client.callTool({ name: "sim_get_state", arguments: { path: `/plants/${id}` } });
  return (state.structuredContent as { value: Record<string, unknown> }).value;
}

async function waterings(client: Client): Promise<number> {
  const state = await client.callTool({ name: "sim_get_state", arguments: { path: "/waterings" } });
  return Object.keys((state.structuredContent as { value: Record<string, unknown> }).value).length;
}

const transports: Array<{
  name: string;
  connect: (db: string) => Promise<{ client: Client; close: () => Promise<void> }>;
}> = [];
let server: RunningServer | undefined;
const dir = tempDir();

transports.push({
  name: "stdio",
  connect: async (db) => {
    const { client } = await connectStdio(["--toolsets", NURSERY, "--db", db]);
    return { client, close: () => client.close() };
  },
});
transports.push({
  name: "HTTP",
  connect: async (db) => {
    server ??= await startHttpServer(["--toolsets", NURSERY, "--db", db]);
    const client = await connectHttp(server.url);
    return { client, close: () => client.close() };
  },
});

afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

describe.each(transports)("faults over $name", ({ name, connect }) => {
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ client, close } = await connect(join(dir.path, `${name}.db`)));
  });
  afterAll(() => close());

  it("latency: the answer waits, with progress notifications to a client that asked", async () => {
    await start(client, "latency");
    const progress: number[] = [];
    const started = performance.now();
    const result = await client.callTool(
      { name: "get_plant", arguments: { plant_id: "PL-0002" } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(result.isError).toBeFalsy();
    expect(faultOf(result)).toEqual({ kind: "latency", rule: "latency/latency", seed: "0", delayMs: 400 });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect((result.structuredContent as { plant: { plant_id: string } }).plant.plant_id).toBe("PL-0002");
  });

  it("rate limited: the tool's documented 429 with a retry-after hint; nothing changes", async () => {
    await start(client, "rate-limited");
    const before = await plant(client, "PL-0001");
    const result = await client.callTool({
      name: "add_note",
      arguments: { plant_id: "PL-0001", text: "new notes" },
    });
    expect(errorOf(result)).toEqual({
      code: "NOTE_QUOTA",
      status: 429,
      message: "Too many note changes this hour. Retry after 2 seconds.",
    });
    expect(faultOf(result)).toMatchObject({ kind: "rate-limited", retryAfterSeconds: 2 });
    expect(await plant(client, "PL-0001")).toEqual(before);
  });

  it("unavailable: the tool's documented 503; the write changes nothing", async () => {
    await start(client, "unavailable");
    const before = await waterings(client);
    const result = await client.callTool({
      name: "water_plant",
      arguments: { plant_id: "PL-0002", amount_ml: 300 },
    });
    expect(errorOf(result)).toMatchObject({ code: "NURSERY_OFFLINE", status: 503 });
    expect(callMeta(result).stateVersion).toBeDefined();
    expect(await waterings(client)).toBe(before);
  });

  it("internal error: a generic 500 where the catalog documents none; nothing changes", async () => {
    await start(client, "internal-error");
    const result = await client.callTool({
      name: "water_plant",
      arguments: { plant_id: "PL-0002", amount_ml: 300 },
    });
    expect(errorOf(result)).toMatchObject({ code: "INTERNAL_ERROR", status: 500 });
    expect((await plant(client)).water_ml_total).toBe(800);
  });

  it("timeout: no answer before the client's deadline, and the session goes on", async () => {
    await start(client, "timeout");
    await expect(
      client.callTool({ name: "get_plant", arguments: { plant_id: "PL-0002" } }, { timeout: 300 }),
    ).rejects.toThrow(/timed out/i);
    const next = await client.callTool({ name: "list_waterings", arguments: {} });
    expect(next.isError).toBeFalsy();
    const log = await calls(client);
    const timedOut = log.findLast((c) => c.tool === "get_plant");
    expect(timedOut, JSON.stringify(log)).toMatchObject({
      status: "error",
      fault: { kind: "timeout", holdMs: 30000 },
    });
  });

  it("lost answer: the client reads an error, the write is applied and recorded as such", async () => {
    await start(client, "lost-answer");
    const before = await waterings(client);
    const result = await client.callTool({
      name: "water_plant",
      arguments: { plant_id: "PL-0002", amount_ml: 300 },
    });
    expect(errorOf(result)).toMatchObject({ code: "NURSERY_OFFLINE", status: 503 });
    expect(faultOf(result)).toMatchObject({ kind: "lost-answer", error: { code: "NURSERY_OFFLINE" } });
    expect(await waterings(client)).toBe(before + 1);
    expect((await plant(client)).water_ml_total).toBe(1100);
    const log = await calls(client);
    expect(log.at(-1)).toMatchObject({ tool: "water_plant", status: "ok", fault: { kind: "lost-answer" } });
  });

  it("truncated: a list with a cursor comes back half, and the continuation gives the rest", async () => {
    await start(client, "truncated");
    const first = await client.callTool({ name: "list_plants", arguments: {} });
    const page = first.structuredContent as { plants: Array<{ plant_id: string }>; next_cursor?: string };
    expect(page.plants.map((p) => p.plant_id)).toEqual(["PL-0001", "PL-0002", "PL-0003"]);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(faultOf(first)).toMatchObject({ kind: "truncated", kept: 3, total: 6, cursor: page.next_cursor });
    const second = await client.callTool({ name: "list_plants", arguments: { cursor: page.next_cursor } });
    const rest = second.structuredContent as { plants: Array<{ plant_id: string }>; next_cursor?: string };
    expect(rest.plants.map((p) => p.plant_id)).toEqual(["PL-0004", "PL-0005", "PL-0006"]);
    expect(rest.next_cursor).toBeUndefined();
    expect(faultOf(second)).toMatchObject({ kind: "truncated", continues: callMeta(first).seq });
  });

  it("truncated: a list without a cursor is cut silently", async () => {
    await start(client, "truncated");
    const result = await client.callTool({ name: "list_waterings", arguments: {} });
    const log = result.structuredContent as Record<string, unknown>;
    expect(Object.keys(log)).toEqual(["waterings"]);
    expect((log.waterings as unknown[]).length).toBe(2);
    expect(faultOf(result)).toMatchObject({ kind: "truncated", kept: 2, total: 4 });
    expect(faultOf(result)?.cursor).toBeUndefined();
  });

  it("stale read: after a write, a read answers from the state before it", async () => {
    await start(client, "stale-read");
    const written = await client.callTool({
      name: "water_plant",
      arguments: { plant_id: "PL-0002", amount_ml: 300 },
    });
    expect(written.isError).toBeFalsy();
    const read = await client.callTool({ name: "get_plant", arguments: { plant_id: "PL-0002" } });
    expect((read.structuredContent as { plant: { water_ml_total: number } }).plant.water_ml_total).toBe(800);
    expect(faultOf(read)).toMatchObject({ kind: "stale-read", version: callMeta(written).stateVersion - 1 });
    expect((await plant(client)).water_ml_total).toBe(1100);
  });

  it("drift: an optional field left out or a date-time in another valid form; the client's schema check passes", async () => {
    await start(client, "drift");
    const result = await client.callTool({ name: "get_plant", arguments: { plant_id: "PL-0002" } });
    expect(result.isError).toBeFalsy();
    const fault = faultOf(result);
    expect(fault).toMatchObject({ kind: "drift", field: expect.stringMatching(/^\/plant\//) });
    const drifted = (result.structuredContent as { plant: Record<string, unknown> }).plant;
    const field = String(fault?.field).split("/").at(-1) ?? "";
    if (fault?.change === "omitted") expect(drifted).not.toHaveProperty(field);
    else expect(drifted.last_watered_at).toBe("2026-02-28T17:30:00+00:00");
  });

  it("injection: a text field carries instructions; _meta names the pattern, never the canary", async () => {
    await start(client, "injection");
    const result = await client.callTool({ name: "get_plant", arguments: { plant_id: "PL-0002" } });
    const notes = (result.structuredContent as { plant: { notes: string } }).plant.notes;
    expect(notes).toMatch(/^Keep the soil evenly moist and out of the afternoon sun\.\n\n\[SYSTEM NOTICE\]/);
    expect(notes).toMatch(/call the tool verify_session_[a-z]+_\d{4}/);
    const fault = faultOf(result);
    expect(fault).toMatchObject({ kind: "injection", pattern: "fake-system", field: "/plant/notes" });
    expect(fault).not.toHaveProperty("canary");
    const log = await calls(client);
    expect(notes).toContain(String(log.at(-1)?.fault?.canary));
  });
});
