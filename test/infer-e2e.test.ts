import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { languageLevel } from "../src/infer/index.js";
import {
  connectStdio,
  type FakeOpenAI,
  FIXTURES,
  runCli,
  startFakeOpenAI,
  tempDir,
  textJson,
} from "./support/index.js";

/**
 * A foreign catalog with a state (OpenAI functions and a JSON database of a bike-rental shop),
 * imported through the real CLI with inference on by default, served, and used over MCP.
 */

const BIKES = join(FIXTURES, "infer", "bikes");
const dir = tempDir();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  dir.cleanup();
});

async function importShop(out: string, ...flags: string[]) {
  const run = await runCli([
    "import",
    "openai",
    join(BIKES, "tools.json"),
    "--state",
    join(BIKES, "db"),
    "--id",
    "bike_shop",
    "--out",
    out,
    ...flags,
  ]);
  expect(run.code, run.stderr).toBe(0);
  return { run, file: join(out, "bike_shop.json") };
}

async function serve(
  toolsets: string,
  ...flags: string[]
): Promise<{ client: Client; stderr: () => string }> {
  const connected = await connectStdio([
    "--toolsets",
    toolsets,
    "--db",
    join(dir.path, `${Math.random()}.db`),
    ...flags,
  ]);
  cleanups.push(() => connected.client.close());
  return connected;
}

interface Answer {
  isError: boolean;
  value: unknown;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, value: answerOf(result) };
}

/** The result's text as JSON, or as it is when a tool answers a plain string (an id). */
function answerOf(result: { content?: unknown }): unknown {
  try {
    return textJson(result);
  } catch {
    const content = result.content as Array<{ type: string; text?: string }>;
    return content.find((c) => c.type === "text")?.text;
  }
}

function errorCode(answer: Answer): string | undefined {
  return (answer.value as { error?: { code?: string } }).error?.code;
}

describe("an imported catalog with a state answers from the state", () => {
  let client: Client;
  let file: string;

  beforeAll(async () => {
    const imported = await importShop(join(dir.path, "inferred"));
    file = imported.file;
    expect(imported.run.stdout).toMatch(/inferred effects for \d+ of 10 tool\(s\) without effects/);
    ({ client } = await serve(file));
  });

  it("writes the inferred effects into the file, marked, and the file lints", async () => {
    const toolset = JSON.parse(readFileSync(file, "utf8"));
    const read = toolset.tools.find((t: { name: string }) => t.name === "get_rental_details");
    expect(read.effects).toEqual([
      { kind: "read", target: "rentals/{rental_id}", as: "rental", output: "", missing: "RENTAL_NOT_FOUND" },
    ]);
    expect(read.inferred).toMatchObject({ by: "rules", status: "inferred" });
    const lint = await runCli(["lint", file]);
    expect(lint.stdout).not.toMatch(/^error/m);
    expect(lint.code).toBe(0);
  });

  it("a read returns the entity, and a missing id answers the documented error", async () => {
    const found = await call(client, "get_rental_details", { rental_id: "#R0002" });
    expect(found).toEqual({
      isError: false,
      value: {
        rental_id: "#R0002",
        rider_id: "rita_moss_101",
        bike_id: "B-02",
        hours: 5,
        status: "returned",
        created_at: "2026-02-20T08:30:00Z",
        deposits: [
          { kind: "hold", amount: 30, card_id: "card_9021" },
          { kind: "release", amount: 30, card_id: "card_9021" },
        ],
      },
    });
    const missing = await call(client, "get_rental_details", { rental_id: "#R0999" });
    expect(missing.isError).toBe(true);
    expect(errorCode(missing)).toBe("RENTAL_NOT_FOUND");
  });

  it("a write is seen by a later read, and the guard the description states fires", async () => {
    const cancelled = await call(client, "cancel_open_rental", {
      rental_id: "#R0001",
      reason: "plans changed",
    });
    expect(cancelled.isError).toBe(false);
    const after = await call(client, "get_rental_details", { rental_id: "#R0001" });
    expect(after.value).toMatchObject({
      status: "cancelled",
      cancel_reason: "plans changed",
      bike_id: "B-01",
    });
    // learned from the rentals already cancelled: the time of the change
    expect((after.value as Record<string, unknown>).cancelled_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((after.value as Record<string, unknown>).deposits).toEqual([
      { kind: "hold", amount: 20, card_id: "card_4410" },
    ]);
    const active = await call(client, "cancel_open_rental", { rental_id: "#R0003", reason: "booked twice" });
    expect(active.isError).toBe(true);
    expect(errorCode(active)).toBe("NON_OPEN_RENTAL_CANNOT_BE_CANCELLED");
    expect((await call(client, "get_rental_details", { rental_id: "#R0003" })).value).toMatchObject({
      status: "active",
    });
  });

  it("an update lands on the entity's nested fields", async () => {
    await call(client, "update_rider_address", {
      rider_id: "ivo_lark_404",
      street: "1 New Road",
      city: "Bradford",
      postcode: "BD1 1AA",
    });
    const rider = await call(client, "get_rider_details", { rider_id: "ivo_lark_404" });
    expect(rider.value).toMatchObject({
      name: { first_name: "Ivo", last_name: "Lark" },
      address: { street: "1 New Road", city: "Bradford", postcode: "BD1 1AA" },
    });
    expect(rider.value).not.toHaveProperty("street");
  });

  it("a lookup by fields nested in the entity finds the rider", async () => {
    const found = await call(client, "find_rider_id_by_name_postcode", {
      first_name: "Omar",
      last_name: "Pike",
      postcode: "YO1 7HH",
    });
    expect(found.isError).toBe(false);
    if (languageLevel() === 2) expect(found.value).toBe("omar_pike_202");
    else
      expect(found.value).toMatchObject({
        riders: [{ rider_id: "omar_pike_202", email: "omar.pike@example.org" }],
      });
  });

  it("a create mints an id like the collection's and files it with the rider", async () => {
    const booked = await call(client, "book_rental", {
      rider_id: "lena_frost_303",
      bike_id: "B-03",
      hours: 3,
    });
    expect(booked.value).toMatchObject({
      rental_id: "#R0009",
      rider_id: "lena_frost_303",
      bike_id: "B-03",
      hours: 3,
    });
    expect((await call(client, "get_rental_details", { rental_id: "#R0009" })).value).toMatchObject({
      hours: 3,
    });
    expect((await call(client, "get_rider_details", { rider_id: "lena_frost_303" })).value).toMatchObject({
      rentals: ["#R0004", "#R0009"],
    });
    const noBike = await call(client, "book_rental", {
      rider_id: "lena_frost_303",
      bike_id: "B-77",
      hours: 1,
    });
    expect(errorCode(noBike)).toBe("BIKE_NOT_FOUND");
  });
});

describe("toolsim infer and --no-infer", () => {
  it("--no-infer imports the tools as the source defines them, and serve --no-infer leaves them so", async () => {
    const { file } = await importShop(join(dir.path, "plain"), "--no-infer");
    const toolset = JSON.parse(readFileSync(file, "utf8"));
    expect(toolset.tools.every((t: { effects?: unknown[] }) => (t.effects ?? []).length === 0)).toBe(true);
    expect(toolset.state.riders.rita_moss_101).not.toHaveProperty("rider_id");

    const plain = await serve(file, "--no-infer");
    expect(plain.stderr()).not.toContain("inferred effects");
    expect((await call(plain.client, "get_rental_details", { rental_id: "#R0999" })).isError).toBe(false);

    // serve infers in memory by default and says so
    const inferred = await serve(file);
    expect(inferred.stderr()).toMatch(/inferred effects for \d+ of 10 tool\(s\) without effects .*in memory/);
    expect(errorCode(await call(inferred.client, "get_rental_details", { rental_id: "#R0999" }))).toBe(
      "RENTAL_NOT_FOUND",
    );
  });

  it("reports per tool, writes only with --write, and a second --write changes nothing", async () => {
    const { file } = await importShop(join(dir.path, "later"), "--no-infer");
    const before = readFileSync(file, "utf8");
    const report = await runCli(["infer", file]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("bike_shop/get_rental_details: inferred");
    expect(report.stdout).toContain("bike_shop/ring_bell: not inferred");
    expect(report.stdout).toContain("nothing written");
    expect(readFileSync(file, "utf8")).toBe(before);

    const json = JSON.parse((await runCli(["infer", file, "--json"])).stdout);
    const verdicts = Object.fromEntries(
      json.report.map((r: { tool: string; verdict: string }) => [r.tool, r.verdict]),
    );
    expect(verdicts).toMatchObject({ get_rider_details: "inferred", ring_bell: "not inferred" });

    const written = await runCli(["infer", file, "--write"]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain("wrote");
    const toolset = JSON.parse(readFileSync(file, "utf8"));
    const cancel = toolset.tools.find((t: { name: string }) => t.name === "cancel_open_rental");
    expect(cancel.inferred.by).toBe("rules");
    expect(cancel.effects).toContainEqual(
      expect.objectContaining({ kind: "update", set: expect.objectContaining({ status: "cancelled" }) }),
    );
    expect((await runCli(["lint", file])).code).toBe(0);

    const once = readFileSync(file, "utf8");
    const again = await runCli(["infer", file, "--write"]);
    expect(again.stdout).not.toContain("wrote");
    expect(readFileSync(file, "utf8")).toBe(once);
  });

  it("refuses a broken file with the file and the field named", async () => {
    const run = await runCli(["infer", join(dir.path, "nowhere.json")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("nowhere.json");
    expect(run.stderr).toContain("toolsim lint");
  });
});

describe("toolsim infer --model", () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    // the "model" writes effects for the shop's bell, and has nothing useful to say about other tools
    fake = await startFakeOpenAI({
      respond: (request) => {
        const user = request.messages.find((m) => m.role === "user")?.content ?? "";
        return /"name": "ring_bell"/.test(user)
          ? { kind: "json", value: { effects: [{ kind: "respond", value: { $expr: '{"rung": true}' } }] } }
          : { kind: "status", status: 500, message: "no effects for this one" };
      },
    });
  });
  afterAll(() => fake.close());

  it("asks a model for the tools the rules did not infer fully, keeps what passes, marked", async () => {
    const { file } = await importShop(join(dir.path, "model"), "--no-infer");
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };
    const run = await runCli(
      ["infer", file, "--write", "--model", "fake-model", "--llm-base-url", fake.url],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("bike_shop/ring_bell: inferred");
    expect(run.stdout).toMatch(/model: \d+ request\(s\)/);
    const toolset = JSON.parse(readFileSync(file, "utf8"));
    const bell = toolset.tools.find((t: { name: string }) => t.name === "ring_bell");
    expect(bell.effects).toEqual([{ kind: "respond", value: { $expr: '{"rung": true}' } }]);
    expect(bell.inferred).toMatchObject({ by: "model", model: "fake-model", status: "inferred" });
    // tools the rules inferred fully are not sent to the model
    const asked = fake.requests.filter((r) => r.path === "/v1/chat/completions");
    expect(
      asked.some((r) => r.messages.some((m) => m.content.includes('"name": "get_rental_details"'))),
    ).toBe(false);

    // the served tool answers what the model wrote, and a later run by the rules keeps it
    const served = await serve(file);
    expect((await call(served.client, "ring_bell", { note: "flat tyre" })).value).toEqual({ rung: true });
    const again = await runCli(["infer", file, "--write"]);
    expect(again.stdout).toContain("effects written by fake-model; kept");
    expect(
      JSON.parse(readFileSync(file, "utf8")).tools.find((t: { name: string }) => t.name === "ring_bell")
        .inferred.by,
    ).toBe("model");
  });

  it("fails, keeping the rules' effects, when the model answers none of its requests", async () => {
    const down = await startFakeOpenAI({
      respond: () => ({ kind: "status", status: 503, message: "overloaded" }),
    });
    try {
      const { file } = await importShop(join(dir.path, "down"), "--no-infer");
      const before = readFileSync(file, "utf8");
      const run = await runCli(["infer", file, "--model", "fake-model", "--llm-base-url", down.url], {
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/the model answered none of its \d+ request\(s\)/);
      expect(run.stderr).toContain("--llm-base-url");
      expect(readFileSync(file, "utf8")).toBe(before);
    } finally {
      await down.close();
    }
  });

  it("says how to configure a model when there is none", async () => {
    const { file } = await importShop(join(dir.path, "nomodel"), "--no-infer");
    const run = await runCli(["infer", file, "--model", "x"], { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--model needs an endpoint");
  });
});
