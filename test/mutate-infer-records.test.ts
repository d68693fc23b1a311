import { describe, expect, it } from "vitest";
import {
  bool,
  call,
  error,
  failure,
  inferred,
  number,
  outputs as out,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Amounts moved into and out of a number a record keeps (a card's balance, a generator's
 * fuel), refused past the record's own limit or below zero; and signing in and out of a
 * world that keeps who is signed in, by someone the world knows.
 */

const kiosk = world(
  {
    card: { holder: "Ana", card_id: 7, balance: 20, max_balance: 100, points: 3 },
    generator: { fuel_liters: 10, tank_capacity_liters: 40, max_watts: 900, runtime_hours: 2 },
    session: { logged_in: false, current_user: null, theme: "dark" },
    user_ids: { Ana: "u1", Ben: "u2" },
  },
  [
    tool(
      "top_up_card",
      "Top up the card.",
      { amount: number },
      undefined,
      [error("LIMIT_EXCEEDED", "The balance would exceed the card's maximum.")],
      out({ balance: number }),
    ),
    tool(
      "deposit_to_card",
      "Put money on the card.",
      { amount: number },
      undefined,
      [],
      out({ balance: number, holder: text }),
    ),
    tool(
      "spend_from_card",
      "Pay with the card.",
      { amount: number },
      undefined,
      [],
      out({ balance: number }),
    ),
    tool("withdraw_from_card", "Take money off the card.", { amount: number }, undefined, [
      error("LOW_FUNDS", "Not enough money on the card.", "The card holds less than the amount.", 402),
    ]),
    tool(
      "refuel_generator",
      "Put fuel in the generator's tank.",
      { liters: number },
      undefined,
      [error("TANK_OVERFLOW", "That would overflow the tank.")],
      out({ fuel_liters: number }),
    ),
    tool("credit_generator", "Credit the generator.", { amount: number }),
    tool("load_card", "Load money onto the card.", { amount: number }),
    tool("use_card", "Pay with the card.", { amount: number }),
    tool(
      "login",
      "Sign in.",
      { user_id: text, password: text },
      undefined,
      [],
      out({ success: bool, login_status: bool, message: text }),
    ),
    tool("logout", "Sign out.", {}, [], [], out({ logged_out: bool })),
  ],
);

describe("an amount added to a record's number", () => {
  it("adds it, and answers the record's fields", async () => {
    const topped = await call(kiosk, "deposit_to_card", { amount: 15 });
    expect(topped.after.card).toMatchObject({ balance: 35, points: 3 });
    expect(topped.answer).toEqual({ balance: 35, holder: "Ana" });
    expect(topped.report.notes).toContain("adds amount to card.balance");
  });

  it("refuses to pass the record's maximum where the tool documents that error", async () => {
    const topped = await call(kiosk, "top_up_card", { amount: 80 });
    expect(topped.after.card).toMatchObject({ balance: 100 });
    const over = await call(kiosk, "top_up_card", { amount: 80.5 });
    expect(failure(over.outcome)).toBe("LIMIT_EXCEEDED");
    expect(over.report.notes).toContain("refuses to pass max_balance (LIMIT_EXCEEDED)");
    // no limit without the documented error: a deposit may pass it
    expect((await call(kiosk, "deposit_to_card", { amount: 500 })).after.card).toMatchObject({
      balance: 520,
    });
  });

  it("refills the number a re- verb names, up to the capacity beside it", async () => {
    const refuelled = await call(kiosk, "refuel_generator", { liters: 30 });
    expect(refuelled.after.generator).toMatchObject({ fuel_liters: 40, runtime_hours: 2, max_watts: 900 });
    expect(refuelled.answer).toEqual({ fuel_liters: 40 });
    expect(failure((await call(kiosk, "refuel_generator", { liters: 31 })).outcome)).toBe("TANK_OVERFLOW");
  });

  it("knows every verb that moves an amount: 'load' adds, 'use' takes", async () => {
    expect((await call(kiosk, "load_card", { amount: 5 })).after.card).toMatchObject({ balance: 25 });
    expect((await call(kiosk, "use_card", { amount: 5 })).after.card).toMatchObject({ balance: 15 });
    expect(failure((await call(kiosk, "use_card", { amount: 25 })).outcome)).toBe("INSUFFICIENT_BALANCE");
  });

  it("moves nothing where the record keeps no balance the tool names", () => {
    expect(inferred(kiosk, "credit_generator").tool.effects).toEqual([]);
  });
});

describe("an amount taken from a record's number", () => {
  it("takes it, and refuses more than there is with an error inference adds", async () => {
    const spent = await call(kiosk, "spend_from_card", { amount: 20 });
    expect(spent.after.card).toMatchObject({ balance: 0 });
    expect(spent.answer).toEqual({ balance: 0 });
    const short = await call(kiosk, "spend_from_card", { amount: 20.5 });
    expect(failure(short.outcome)).toBe("INSUFFICIENT_BALANCE");
    expect(short.tool.errors.find((e) => e.code === "INSUFFICIENT_BALANCE")).toMatchObject({
      status: 409,
      message: "Not enough balance for {amount}.",
      when: "The balance is less than the amount taken (inferred from the tool's verb).",
    });
    expect(short.report.notes).toContain(
      "takes amount from card.balance, refusing more than there is (INSUFFICIENT_BALANCE)",
    );
  });

  it("refuses with the documented error for too little", async () => {
    const short = await call(kiosk, "withdraw_from_card", { amount: 21 });
    expect(failure(short.outcome)).toBe("LOW_FUNDS");
    expect(short.tool.errors.map((e) => e.code)).toEqual(["LOW_FUNDS"]);
    expect(short.report.gaps).toEqual([]);
  });
});

describe("signing in and out", () => {
  it("signs in someone the world knows: the flag and who is signed in are set", async () => {
    const signed = await call(kiosk, "login", { user_id: "u2", password: "pw" });
    expect(signed.after.session).toEqual({ logged_in: true, current_user: "u2", theme: "dark" });
    expect(signed.answer).toEqual({ success: true, login_status: true });
    expect(signed.report.notes).toContain("signs in: sets logged_in, current_user of session");
    expect(signed.report.notes).toContain("checks user_id is a known user (USER_NOT_FOUND)");
    const stranger = await call(kiosk, "login", { user_id: "u9", password: "pw" });
    expect(failure(stranger.outcome)).toBe("USER_NOT_FOUND");
    expect(stranger.tool.errors.find((e) => e.code === "USER_NOT_FOUND")).toMatchObject({
      status: 404,
      message: "User {user_id} not found.",
      when: "No user has the given user_id (inferred from the state).",
    });
  });

  it("signs out: the flag is cleared and no one is signed in", async () => {
    const state = { ...kiosk.state, session: { logged_in: true, current_user: "u1", theme: "dark" } };
    const out = await call(kiosk, "logout", {}, state);
    expect(out.after.session).toEqual({ logged_in: false, current_user: null, theme: "dark" });
    expect(out.answer).toEqual({ logged_out: true });
    expect(out.report.notes).toContain("signs out: sets logged_in, current_user of session");
  });

  it("sets only the flag where no argument says who signs in", async () => {
    const w = world(kiosk.state, [tool("sign_in", "Sign in with a passcode.", { passcode: text })]);
    const signed = await call(w, "sign_in", { passcode: "1234" });
    expect(signed.after.session).toEqual({ logged_in: true, current_user: null, theme: "dark" });
  });

  it("lets anyone sign in where the world keeps no map of known users", async () => {
    const { user_ids: _known, ...rest } = kiosk.state as Record<string, unknown>;
    const w = world(rest, [tool("login", "Sign in.", { user_id: text })]);
    const signed = await call(w, "login", { user_id: "u9" });
    expect(signed.after.session).toMatchObject({ logged_in: true, current_user: "u9" });
  });
});
