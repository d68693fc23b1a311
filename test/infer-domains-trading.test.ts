import { describe, expect, it } from "vitest";
import {
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * A brokerage API named resource.method: quotes keyed by ticker symbol (no symbol field in the
 * quote), one account record with a map of positions, a watchlist that is an array of symbols,
 * and orders keyed by number with a sequence counter. Served without effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const broker = useDomain("trading.json");

const ORDER_1002 = {
  symbol: "BLUE",
  side: "buy",
  qty: 5,
  type: "limit",
  limit_price: 110,
  submitted_at: "2026-03-01T15:00:00Z",
};

const cash = async () => fieldsOf(await broker.call("account.get")).cash;
const watchlist = async () => fieldsOf(await broker.call("watchlist.list")).symbols;
const orderIds = async (status?: string) => {
  const orders = fieldsOf(await broker.call("orders.list", status ? { status } : {})).orders;
  return Array.isArray(orders) ? orders.map((o: { order_id?: unknown }) => o.order_id) : orders;
};

describe("trading: quotes keyed by symbol, an account, a watchlist of symbols, orders from a counter", () => {
  it("a quote answers the values stored under the symbol, none guessed", async () => {
    const answer = await broker.call("quotes.get", { symbol: "ACME" });
    expectRecord(
      answer,
      { symbol: "ACME", name: "Acme Rockets Inc.", price: 41.2, currency: "USD", change_pct: -0.8 },
      { exchange: "NYSE" },
    );
    expectGrounded(answer, ["symbol", "name", "price", "currency", "change_pct"]);
    expect.soft(expectOk(await broker.call("quotes.get", { symbol: "KWIK" }))).toMatchObject({
      price: 7.93,
      change_pct: 0,
    });
  });

  it("an unknown symbol answers the documented error", async () => {
    expectError(await broker.call("quotes.get", { symbol: "ZZZZ" }), "UNKNOWN_SYMBOL");
  });

  it("the account answers its stored record, positions included", async () => {
    const answer = await broker.call("account.get");
    expect.soft(expectOk(answer)).toEqual({
      account_no: "HB-55120",
      owner: "Rosa Vidal",
      cash: 10000,
      currency: "USD",
      positions: { ACME: 25, KWIK: 300 },
    });
    expectGrounded(answer, ["account_no", "owner", "cash", "currency", "positions"]);
  });

  it("a deposit grows the cash balance by the amount, answered and seen by the account", async () => {
    const answer = await broker.call("account.deposit", { amount: 250.5 });
    expect.soft(expectOk(answer)).toEqual({ cash: 10250.5 });
    expectGrounded(answer, ["cash"]);
    expect.soft(await cash()).toBe(10250.5);
  });

  it("a withdrawal shrinks the balance; one above the balance is refused and changes nothing", async () => {
    expect.soft(expectOk(await broker.call("account.withdraw", { amount: 400 }))).toEqual({ cash: 9600 });
    expect.soft(await cash()).toBe(9600);
    expectError(await broker.call("account.withdraw", { amount: 20000 }), "INSUFFICIENT_FUNDS");
    expect.soft(await cash()).toBe(9600);
  });

  it("a submitted order takes the sequence's next number, starts open, and later reads find it", async () => {
    const answer = await broker.call("orders.submit", {
      symbol: "OLVE",
      side: "buy",
      qty: 10,
      type: "limit",
      limit_price: 23,
    });
    expectRecord(
      answer,
      {
        order_id: 1003,
        symbol: "OLVE",
        side: "buy",
        qty: 10,
        type: "limit",
        limit_price: 23,
        status: "open",
      },
      { submitted_at: expect.stringMatching(/^2026-03-02T/) },
    );
    expectGrounded(answer, ["order_id", "symbol", "side", "qty", "type", "limit_price", "status"]);
    expect.soft(expectOk(await broker.call("orders.get", { order_id: 1003 }))).toMatchObject({
      order_id: 1003,
      symbol: "OLVE",
      status: "open",
    });
    expect.soft(await orderIds()).toEqual([1001, 1002, 1003]);
    const second = await broker.call("orders.submit", {
      symbol: "KWIK",
      side: "sell",
      qty: 100,
      type: "market",
    });
    expectRecord(
      second,
      { order_id: 1004, symbol: "KWIK", side: "sell", qty: 100, type: "market", status: "open" },
      { submitted_at: expect.stringMatching(/^2026-03-02T/) },
    );
    expect.soft(expectOk(await broker.call("orders.get", { order_id: 1004 }))).toMatchObject({
      symbol: "KWIK",
      side: "sell",
    });
  });

  it("an order for an unknown symbol is refused and no order is made", async () => {
    expectError(
      await broker.call("orders.submit", { symbol: "ZZZZ", side: "buy", qty: 1, type: "market" }),
      "UNKNOWN_SYMBOL",
    );
    expect.soft(await orderIds()).toEqual([1001, 1002]);
  });

  it("an order is read by its number; an unknown number answers the documented error", async () => {
    const answer = await broker.call("orders.get", { order_id: 1001 });
    expectRecord(answer, {
      order_id: 1001,
      symbol: "ACME",
      side: "buy",
      qty: 25,
      type: "market",
      status: "filled",
      submitted_at: "2026-02-27T14:30:00Z",
    });
    expectGrounded(answer, ["order_id", "symbol", "side", "qty", "type", "status", "submitted_at"]);
    expectError(await broker.call("orders.get", { order_id: 999 }), "ORDER_NOT_FOUND");
  });

  it("orders are listed, and filtered by status", async () => {
    const answer = await broker.call("orders.list");
    expect.soft(expectOk(answer).orders).toMatchObject([
      { order_id: 1001, symbol: "ACME", side: "buy", qty: 25, status: "filled" },
      { order_id: 1002, symbol: "BLUE", side: "buy", qty: 5, status: "open" },
    ]);
    expectGrounded(answer, ["orders"]);
    expect.soft(await orderIds("open")).toEqual([1002]);
    expect.soft(await orderIds("cancelled")).toEqual([]);
  });

  it("cancelling an open order makes it cancelled for later reads", async () => {
    const answer = await broker.call("orders.cancel", { order_id: 1002 });
    expectRecord(answer, { order_id: 1002, status: "cancelled" }, ORDER_1002);
    expect.soft(expectOk(await broker.call("orders.get", { order_id: 1002 }))).toMatchObject({
      status: "cancelled",
    });
    expect.soft(await orderIds("open")).toEqual([]);
  });

  it("a filled order cannot be cancelled, and an unknown one is not found", async () => {
    expectError(await broker.call("orders.cancel", { order_id: 1001 }), "ORDER_NOT_OPEN");
    expect
      .soft(expectOk(await broker.call("orders.get", { order_id: 1001 })))
      .toMatchObject({ status: "filled" });
    expectError(await broker.call("orders.cancel", { order_id: 4242 }), "ORDER_NOT_FOUND");
  });

  it("the watchlist answers the symbols the state lists", async () => {
    const answer = await broker.call("watchlist.list");
    expect.soft(expectOk(answer)).toEqual({ symbols: ["ACME", "KWIK"] });
    expectGrounded(answer, ["symbols"]);
  });

  it("adding a symbol puts it on the watchlist; an unknown symbol is refused", async () => {
    expect.soft(expectOk(await broker.call("watchlist.add", { symbol: "BLUE" }))).toEqual({
      symbols: ["ACME", "KWIK", "BLUE"],
    });
    expect.soft(await watchlist()).toEqual(["ACME", "KWIK", "BLUE"]);
    expectError(await broker.call("watchlist.add", { symbol: "ZZZZ" }), "UNKNOWN_SYMBOL");
    expect.soft(await watchlist()).toEqual(["ACME", "KWIK", "BLUE"]);
  });

  it("removing a symbol takes it off; a symbol not on the list answers the documented error", async () => {
    expect.soft(expectOk(await broker.call("watchlist.remove", { symbol: "ACME" }))).toEqual({
      symbols: ["KWIK"],
    });
    expect.soft(await watchlist()).toEqual(["KWIK"]);
    expectError(await broker.call("watchlist.remove", { symbol: "OLVE" }), "NOT_ON_WATCHLIST");
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(broker.breaches).toEqual([]);
  });
});
