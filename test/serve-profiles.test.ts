import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JsonSchema, strictModeProblems } from "../src/catalog/index.js";
import {
  connectHttp,
  connectStdio,
  type RunningServer,
  runCli,
  SHIPPED_TOOLSETS,
  startHttpServer,
  tempDir,
} from "./support/index.js";

const CONDITIONAL = ["if", "then", "else", "allOf", "oneOf", "not", "dependentRequired", "dependentSchemas"];
const TRADING = join(SHIPPED_TOOLSETS, "trading_orders.json");

function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (value && typeof value === "object") {
    for (const [key, sub] of Object.entries(value)) {
      into.add(key);
      keysOf(sub, into);
    }
  }
  return into;
}

interface Result {
  isError?: boolean;
  content?: unknown;
  _meta?: Record<string, unknown>;
}

const textOf = (result: Result) =>
  ((result.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

describe("serve --schema-profile openai-strict (stdio, shipped catalog)", () => {
  const dir = tempDir();
  let client: Client;
  beforeAll(async () => {
    ({ client } = await connectStdio(["--schema-profile", "openai-strict", "--db", join(dir.path, "s.db")]));
  });
  afterAll(async () => {
    await client.close();
    dir.cleanup();
  });

  it("every served tool, control tools included, passes OpenAI's strict-mode rules", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(62);
    const failures = tools.flatMap((tool) =>
      strictModeProblems(tool.inputSchema as JsonSchema).map((problem) => `${tool.name}: ${problem}`),
    );
    expect(failures).toEqual([]);
  });

  it("the descriptions carry the rules the schema no longer states", async () => {
    const { tools } = await client.listTools();
    const buy = tools.find((t) => t.name === "place_buy_order");
    expect(buy?.description).toContain(
      'Rules: "limit_price" is required when "order_type" is "limit" or "stop_limit".',
    );
    expect(buy?.description).toContain("send null for an optional one you leave out");
  });

  it("still checks calls against the full schema, and takes null for what is left out", async () => {
    const order = {
      account_id: "ACC-2002",
      symbol: "VTI",
      quantity: 1,
      order_type: "market",
      time_in_force: "day",
      max_notional: 300,
      stop_price: null,
      client_order_id: null,
    };
    const broken = (await client.callTool({
      name: "place_buy_order",
      arguments: { ...order, limit_price: 290 },
    })) as Result;
    expect(broken.isError).toBe(true);
    expect(broken._meta?.["toolsim/findings"]).toEqual([
      {
        code: "IAV",
        argument: "limit_price",
        message: 'Rule broken: "limit_price" must not be given when "order_type" is "market" or "stop".',
      },
    ]);
    const placed = (await client.callTool({
      name: "place_buy_order",
      arguments: { ...order, limit_price: null },
    })) as Result;
    expect(placed._meta?.["toolsim/findings"]).toBeUndefined();
    expect(textOf(placed)).not.toContain("was rejected");
  });
});

describe("serve --schema-profile portable and full (HTTP)", () => {
  const dir = tempDir();
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    dir.cleanup();
  });

  it("portable serves no conditional keyword anywhere; full serves the catalog's schemas as written", async () => {
    const portable = await startHttpServer([
      "--toolsets",
      TRADING,
      "--schema-profile",
      "portable",
      "--db",
      join(dir.path, "p.db"),
    ]);
    const full = await startHttpServer(["--toolsets", TRADING, "--db", join(dir.path, "f.db")]);
    servers.push(portable, full);
    const catalog = JSON.parse(readFileSync(TRADING, "utf8")) as {
      tools: Array<{ name: string; inputSchema: unknown }>;
    };
    const portableClient = await connectHttp(portable.url);
    const fullClient = await connectHttp(full.url);
    try {
      for (const tool of (await portableClient.listTools()).tools) {
        const used = keysOf(tool.inputSchema);
        expect(
          CONDITIONAL.filter((key) => used.has(key)),
          tool.name,
        ).toEqual([]);
      }
      const served = new Map((await fullClient.listTools()).tools.map((t) => [t.name, t.inputSchema]));
      for (const tool of catalog.tools) expect(served.get(tool.name)).toEqual(tool.inputSchema);
    } finally {
      await portableClient.close();
      await fullClient.close();
    }
  });

  it("refuses an unknown profile with the ones there are", async () => {
    const result = await runCli(["serve", "--schema-profile", "loose", "--db", join(dir.path, "x.db")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--schema-profile takes one of full, portable, openai-strict");
  });
});

describe("a stateless client without X-Toolsim-Session is told how to name its session", () => {
  const dir = tempDir();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer(["--toolsets", TRADING, "--db", join(dir.path, "h.db")]);
  });
  afterAll(async () => {
    await server.stop();
    dir.cleanup();
  });

  const modern = async (headers: Record<string, string>) => {
    const client = new Client({ name: "stateless", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    return client;
  };

  it("in the server's instructions and in the results' _meta, and the banner prints the header", async () => {
    expect(server.stdout()).toContain("X-Toolsim-Session: my-run");
    const anonymous = await modern({});
    try {
      expect(anonymous.getInstructions()).toContain("X-Toolsim-Session: <a name you choose>");
      const result = (await anonymous.callTool({
        name: "get_quote",
        arguments: { symbol: "VTI" },
      })) as Result;
      expect(result._meta?.["toolsim/session"]).toMatchObject({ name: "http-default", shared: true });
      expect(JSON.stringify(result._meta?.["toolsim/session"])).toContain("X-Toolsim-Session");
    } finally {
      await anonymous.close();
    }
  });

  it("says nothing of the kind to a client that named its session", async () => {
    const named = await modern({ "X-Toolsim-Session": "desk-7" });
    try {
      expect(named.getInstructions()).not.toContain("shared session");
      const result = (await named.callTool({ name: "get_quote", arguments: { symbol: "VTI" } })) as Result;
      expect(result._meta?.["toolsim/session"]).toBeUndefined();
    } finally {
      await named.close();
    }
  });
});
