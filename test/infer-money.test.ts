import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOpenAiFunctions } from "../src/catalog/index.js";
import { inferToolset, languageLevel } from "../src/infer/index.js";
import { readDatabase, readDocument } from "../src/sources/index.js";
import { connectStdio, FIXTURES, runCli, tempDir, textJson } from "./support/index.js";

/**
 * Money that moves with a write, inferred from a ticket office's texts and state (OpenAI
 * functions and a JSON database), imported through the CLI, served, and used over MCP:
 * refunds credited to a stored balance, the price difference of swapped seats paid,
 * refunded or recorded, and a tool its description allows once per booking.
 */

const TICKETS = join(FIXTURES, "infer", "tickets");
const dir = tempDir();
let client: Client;

beforeAll(async () => {
  const out = join(dir.path, "inferred");
  const run = await runCli([
    "import",
    "openai",
    join(TICKETS, "tools.json"),
    "--state",
    join(TICKETS, "db"),
    "--id",
    "tickets",
    "--out",
    out,
  ]);
  expect(run.code, run.stderr).toBe(0);
  ({ client } = await connectStdio([
    "--toolsets",
    join(out, "tickets.json"),
    "--db",
    join(dir.path, "state.db"),
  ]));
});

afterAll(async () => {
  await client?.close();
  dir.cleanup();
});

interface Answer {
  isError: boolean;
  value: Record<string, unknown>;
}

async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, value: textJson(result) as Record<string, unknown> };
}

async function wallets(member: string): Promise<Record<string, Record<string, unknown>>> {
  const read = await call("get_member_details", { member_id: member });
  return read.value.wallets as Record<string, Record<string, unknown>>;
}

async function booking(id: string): Promise<Record<string, unknown>> {
  return (await call("get_booking_details", { booking_id: id })).value;
}

const errorCode = (answer: Answer) => (answer.value.error as { code?: string } | undefined)?.code;

describe.runIf(languageLevel() === 2)("money a write moves, inferred", () => {
  it("an unknown wallet answers its not-found error", async () => {
    const unknown = await call("change_confirmed_booking_seats", {
      booking_id: "BK-1008",
      seat_ids: ["C1"],
      new_seat_ids: ["B1"],
      wallet_id: "credit_0000",
    });
    expect(errorCode(unknown)).toBe("WALLET_NOT_FOUND");
  });

  it("a cancellation credits each refunded charge to the balance of the wallet that paid it", async () => {
    const cancelled = await call("cancel_confirmed_booking", { booking_id: "BK-1001", reason: "ill" });
    expect(cancelled.isError).toBe(false);
    expect((await booking("BK-1001")).transactions).toEqual([
      { type: "charge", amount: 25, wallet_id: "credit_5501" },
      { type: "refund", amount: 25, wallet_id: "credit_5501" },
    ]);
    expect((await wallets("nora_vale_11")).credit_5501).toEqual({
      id: "credit_5501",
      kind: "store_credit",
      balance: 65.3,
    });
  });

  it("a refund to a wallet without a balance changes no wallet", async () => {
    const before = await wallets("tom_reed_22");
    await call("cancel_confirmed_booking", { booking_id: "BK-1002", reason: "ill" });
    expect((await booking("BK-1002")).status).toBe("cancelled");
    expect(await wallets("tom_reed_22")).toEqual(before);
  });

  it("swapping for cheaper seats refunds the difference, rounded as the state's prices are", async () => {
    // B1 (14.2) for C1 (9.9): 9.9 - 14.2 is -4.299999999999999 in binary floating point
    const changed = await call("change_confirmed_booking_seats", {
      booking_id: "BK-1008",
      seat_ids: ["B1"],
      new_seat_ids: ["C1"],
      wallet_id: "credit_5504",
    });
    expect(changed.isError).toBe(false);
    const after = await booking("BK-1008");
    expect(after.seats).toEqual([{ seat_id: "C1", show_id: "SH-1", tier: "balcony", price: 9.9 }]);
    expect(after.transactions).toEqual([
      { type: "charge", amount: 14.2, wallet_id: "credit_5504" },
      { type: "refund", amount: 4.3, wallet_id: "credit_5504" },
    ]);
    expect((await wallets("tom_reed_22")).credit_5504?.balance).toBe(5.8);
  });

  it("a balance that cannot cover a dearer swap answers the documented error and changes nothing", async () => {
    const before = await booking("BK-1003");
    const refused = await call("change_confirmed_booking_seats", {
      booking_id: "BK-1003",
      seat_ids: ["D1"],
      new_seat_ids: ["D2"],
      wallet_id: "credit_5505",
    });
    expect(refused.isError).toBe(true);
    expect(errorCode(refused)).toBe("INSUFFICIENT_STORE_CREDIT_BALANCE_TO_PAY");
    expect(await booking("BK-1003")).toEqual(before);
    expect((await wallets("ada_moor_33")).credit_5505?.balance).toBe(0);
  });

  it("a card without a balance pays a dearer swap, recorded as a charge", async () => {
    const paid = await call("change_confirmed_booking_seats", {
      booking_id: "BK-1003",
      seat_ids: ["D1"],
      new_seat_ids: ["D2"],
      wallet_id: "card_8806",
    });
    expect(paid.isError).toBe(false);
    expect((await booking("BK-1003")).transactions).toEqual([
      { type: "charge", amount: 20, wallet_id: "card_8806" },
      { type: "charge", amount: 15.75, wallet_id: "card_8806" },
    ]);
    expect((await wallets("ada_moor_33")).card_8806).toEqual({
      id: "card_8806",
      kind: "card",
      last_four: "8806",
    });
  });

  it("a tool the description allows once per booking refuses a second run, and changes nothing", async () => {
    const before = await booking("BK-1003");
    expect(before.seats_changed_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const again = await call("change_confirmed_booking_seats", {
      booking_id: "BK-1003",
      seat_ids: ["D2"],
      new_seat_ids: ["D1"],
      wallet_id: "card_8806",
    });
    expect(again.isError).toBe(true);
    expect(errorCode(again)).toBe("BOOKING_SEATS_ALREADY_CHANGED");
    expect(await booking("BK-1003")).toEqual(before);
  });

  it("another payer for a booking pays what was paid, and the one before gets it back", async () => {
    // BK-1008: a charge of 14.2 by credit_5504, then a refund of 4.3 to it (the seat swap above)
    const changed = await call("change_confirmed_booking_wallet", {
      booking_id: "BK-1008",
      wallet_id: "card_8803",
    });
    expect(changed.isError).toBe(false);
    expect((await booking("BK-1008")).transactions).toEqual([
      { type: "charge", amount: 14.2, wallet_id: "credit_5504" },
      { type: "refund", amount: 4.3, wallet_id: "credit_5504" },
      { type: "charge", amount: 9.9, wallet_id: "card_8803" },
      { type: "refund", amount: 9.9, wallet_id: "credit_5504" },
    ]);
    const wallets_ = await wallets("tom_reed_22");
    expect(wallets_.credit_5504?.balance).toBe(15.7);
    expect(wallets_.card_8803).toEqual({ id: "card_8803", kind: "card", last_four: "8803" });
  });

  it("a new payer is refused where the documented errors say: the same one, several charges, too little balance", async () => {
    const before = await booking("BK-1009");
    const same = await call("change_confirmed_booking_wallet", {
      booking_id: "BK-1009",
      wallet_id: "card_8806",
    });
    expect(errorCode(same)).toBe("THE_NEW_WALLET_SHOULD_BE_DIFFERENT");
    // BK-1003 holds two charges (its dearer seats were paid apart)
    const several = await call("change_confirmed_booking_wallet", {
      booking_id: "BK-1003",
      wallet_id: "credit_5505",
    });
    expect(errorCode(several)).toBe("THERE_SHOULD_BE_EXACTLY_ONE_CHARGE");
    // credit_5505 holds 0 against the 12.5 paid
    const short = await call("change_confirmed_booking_wallet", {
      booking_id: "BK-1009",
      wallet_id: "credit_5505",
    });
    expect(errorCode(short)).toMatch(/^INSUFFICIENT_STORE_CREDIT_BALANCE/);
    expect(await booking("BK-1009")).toEqual(before);
    expect((await wallets("ada_moor_33")).credit_5505?.balance).toBe(0);
  });

  it("an action that files a request records the difference beside its other arguments", async () => {
    const asked = await call("upgrade_confirmed_booking_seats", {
      booking_id: "BK-1003",
      seat_ids: ["D2"],
      new_seat_ids: ["D1"],
      wallet_id: "card_8806",
    });
    expect(asked.isError).toBe(false);
    expect(await booking("BK-1003")).toMatchObject({
      // the seats stay as they are until the request is granted
      seats: [{ seat_id: "D2", show_id: "SH-2", tier: "box", price: 35.75 }],
      upgrade_seats: ["D2"],
      upgrade_new_seats: ["D1"],
      upgrade_wallet_id: "card_8806",
      upgrade_price_difference: -15.75,
    });
  });
});

describe("nothing moves and nothing is refused that the texts do not say", () => {
  const imported = () =>
    importOpenAiFunctions(
      {
        functions: readDocument(join(TICKETS, "tools.json")).value,
        state: readDatabase(join(TICKETS, "db")).value,
      },
      { id: "tickets" },
    ).toolsets[0];

  it("without a sentence that refunds go to a balance, a cancellation touches no wallet", () => {
    const toolset = imported();
    if (!toolset) throw new Error("the fixture did not import");
    const tools = toolset.tools.map((tool) =>
      tool.name === "cancel_confirmed_booking"
        ? {
            ...tool,
            description: "Cancel a confirmed booking. The booking status will be changed to 'cancelled'.",
          }
        : tool,
    );
    const { report } = inferToolset({ ...toolset, tools }, { level: 2 });
    const drafts = report.find((r) => r.tool === "cancel_confirmed_booking")?.drafts ?? [];
    expect(drafts.map((d) => d.kind)).toEqual(["read", "update"]);
    expect(drafts.some((d) => String(d.target).includes("wallets"))).toBe(false);
  });

  it("without an argument that pays a difference, a swap computes none", () => {
    const toolset = imported();
    if (!toolset) throw new Error("the fixture did not import");
    const tools = toolset.tools.map((tool) => {
      if (tool.name !== "change_confirmed_booking_seats") return tool;
      const schema = structuredClone(tool.inputSchema) as {
        properties: Record<string, { description?: string }>;
      };
      const wallet = schema.properties.wallet_id;
      if (wallet) wallet.description = "The wallet on the booking.";
      return { ...tool, inputSchema: schema as typeof tool.inputSchema };
    });
    const { report } = inferToolset({ ...toolset, tools }, { level: 2 });
    const drafts = report.find((r) => r.tool === "change_confirmed_booking_seats")?.drafts ?? [];
    expect(drafts.some((d) => d.kind === "let")).toBe(false);
    const update = drafts.find((d) => d.kind === "update");
    expect(update?.set).toHaveProperty("seats");
    expect(update?.set).not.toHaveProperty("transactions");
  });

  it("a write that may run once needs no mark when its new status already fails its own guard", () => {
    const toolset = imported();
    if (!toolset) throw new Error("the fixture did not import");
    const once = " This function can only be called once.";
    const tools = toolset.tools.map((tool) =>
      tool.name === "cancel_confirmed_booking"
        ? { ...tool, description: `${tool.description}${once}` }
        : tool,
    );
    const { report } = inferToolset({ ...toolset, tools }, { level: 2 });
    const cancel = report.find((r) => r.tool === "cancel_confirmed_booking");
    expect(cancel?.drafts[0]?.require).toEqual([
      { field: "status", in: ["confirmed"], error: "NON_CONFIRMED_BOOKING_CANNOT_BE_CANCELLED" },
    ]);
    expect(cancel?.notes.join(" ")).not.toMatch(/only once/);
  });
});
