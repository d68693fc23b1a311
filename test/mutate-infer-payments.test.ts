import { describe, expect, it } from "vitest";
import {
  call,
  error,
  failure,
  integer,
  NOW,
  number,
  outputs,
  type State,
  type ToolError,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Paying from a stored balance (docs/inference.md): a tool that says it charges a record its
 * argument names takes its one price from that record's one balance, refusing more than it
 * holds where an error says so; a tool that says it refunds gives the price of the record it
 * changes back to the record that paid; a spending limit a record keeps refuses a larger price
 * where an error names it.
 */

type Row = Record<string, unknown>;

/** Prepaid transit cards, and the rides taken with them. */
const transit = (cards: Row = {}): State => ({
  cards: {
    // how the card is topped up is text, no second balance
    "TC-1": { card_id: "TC-1", rider: "Ana", balance: 12.5, funds_source: "cash" },
    "TC-2": { card_id: "TC-2", rider: "Ben", balance: 1, funds_source: "bank" },
    ...cards,
  },
  rides: {
    "R-1": { ride_id: "R-1", card_id: "TC-1", line: "12", fare: 2.5 },
    "R-2": { ride_id: "R-2", card_id: "TC-2", line: "7", fare: 2 },
  },
});

const cardMissing = error("CARD_NOT_FOUND", "No such card.", "No card has this id.", 404);

/** Boarding a line: a ride filed, and maybe a fare taken from the card. */
const board = (description: string, errors: ToolError[] = [], properties: Row = { fare: number }) =>
  tool("create_ride", description, { card_id: text, line: text, ...properties }, undefined, [
    cardMissing,
    ...errors,
  ]);

const boardWith = async (boarding: unknown, args: Row, state: State = transit()) => {
  const { outcome, after, report } = await call(world(transit(), [boarding]), "create_ride", args, state);
  const cards = after.cards as Record<string, Row>;
  return {
    code: outcome.status === "failed" ? failure(outcome) : undefined,
    balances: Object.fromEntries(Object.entries(cards).map(([id, card]) => [id, card.balance])),
    rides: Object.keys(after.rides as object).length,
    notes: report.notes,
  };
};

const ride = { card_id: "TC-1", line: "12", fare: 2.5 };

describe("a charge to the card an argument names", () => {
  it("takes the fare from the card's balance and files the ride", async () => {
    const result = await boardWith(board("Board a line; the fare is charged to the card."), ride);
    expect(result).toMatchObject({ code: undefined, balances: { "TC-1": 10, "TC-2": 1 }, rides: 3 });
    expect(result.notes).toContain("charges fare to cards.balance of card_id");
  });

  it("hears the charge in every form the description may put it", async () => {
    for (const said of [
      "Board a line. Charges the fare to the card.",
      "Board a line; the card is charged.",
      "Board a line, charging the card.",
      "Board a line and pay with the card.",
      "Board a line; the rider pays with the card.",
      "Board a line, paid with the card.",
      "Board a line, paying by card.",
      "Board a line; debit the card.",
      "Board a line. Debits the card.",
      "Board a line; the card is debited.",
      "Board a line; deduct the fare.",
      "Board a line; deducts the fare from the card.",
      "Board a line; the fare is deducted.",
      "Board a line; bill the card.",
      "Board a line. Bills the card.",
      "Board a line; the card is billed.",
    ]) {
      const { balances } = await boardWith(board(said), ride);
      expect(balances["TC-1"], said).toBe(10);
    }
  });

  it("takes nothing where the description says no charge", async () => {
    for (const said of ["Board a line with the card.", "Board a line; no surcharge applies."]) {
      const { balances, rides } = await boardWith(board(said), ride);
      expect(balances, said).toEqual({ "TC-1": 12.5, "TC-2": 1 });
      expect(rides, said).toBe(3);
    }
  });

  it("answers the documented not-found error for a card there is none of", async () => {
    const { code, rides } = await boardWith(board("Board a line; the fare is charged to the card."), {
      ...ride,
      card_id: "TC-9",
    });
    expect(code).toBe("CARD_NOT_FOUND");
    expect(rides).toBe(2);
  });

  it("refuses more than the card holds where an error says so, and lets the whole balance go", async () => {
    for (const message of [
      "Insufficient balance on the card.",
      "Not enough money on the card.",
      "The balance does not cover the fare.",
      "The balance doesn't cover the fare.",
      "The fare exceeds the balance.",
      "The balance is too low.",
      "The card holds too little.",
    ]) {
      const short = board("Board a line; the fare is charged to the card.", [error("LOW_BALANCE", message)]);
      const refused = await boardWith(short, { card_id: "TC-2", line: "7", fare: 2.5 });
      expect(refused, message).toMatchObject({ code: "LOW_BALANCE", balances: { "TC-2": 1 }, rides: 2 });
      expect(refused.notes, message).toContain(
        "charges fare to cards.balance of card_id, refusing more than it holds (LOW_BALANCE)",
      );
      const exact = await boardWith(short, { card_id: "TC-2", line: "7", fare: 1 });
      expect(exact, message).toMatchObject({ code: undefined, balances: { "TC-2": 0 }, rides: 3 });
    }
  });

  it("lets the balance go below zero where no error refuses it (a balance may be what is owed)", async () => {
    const other = error("LINE_CLOSED", "The line is closed.");
    const { code, balances } = await boardWith(
      board("Board a line; the fare is charged to the card.", [other]),
      {
        card_id: "TC-2",
        line: "7",
        fare: 2.5,
      },
    );
    expect(code).toBeUndefined();
    expect(balances["TC-2"]).toBe(-1.5);
  });

  it("takes a price of any of its names, an integer too", async () => {
    for (const name of ["price", "amount", "cost", "total", "fare", "fee", "sum", "charge", "ticket_price"]) {
      const paid = board("Board a line; it is charged to the card.", [], { [name]: { type: "integer" } });
      const { balances } = await boardWith(paid, { card_id: "TC-1", line: "12", [name]: 3 });
      expect(balances["TC-1"], name).toBe(9.5);
    }
  });

  it("takes nothing where two arguments could be the price, or none is a number", async () => {
    const two = board("Board a line; the fare and a fee are charged to the card.", [], {
      fare: number,
      fee: number,
    });
    expect((await boardWith(two, { ...ride, fee: 1 })).balances["TC-1"]).toBe(12.5);
    const spelled = board("Board a line; the fare is charged to the card.", [], { fare: text });
    expect((await boardWith(spelled, { ...ride, fare: "2.50" })).balances["TC-1"]).toBe(12.5);
  });

  it("takes it from the card's one balance, by any of its names, and from none where there are two", async () => {
    for (const field of ["balance", "funds", "credit", "cash", "wallet", "stored_balance"]) {
      const cards = {
        cards: {
          "TC-1": { card_id: "TC-1", rider: "Ana", [field]: 12.5 },
          "TC-2": { card_id: "TC-2", rider: "Ben", [field]: 1 },
        },
        rides: {},
      };
      const { after } = await call(
        world(cards, [board("Board a line; the fare is charged to the card.")]),
        "create_ride",
        ride,
      );
      expect((after.cards as Record<string, Row>)["TC-1"]?.[field], field).toBe(10);
    }
    const boarded = async (purses: Row) =>
      (
        await call(
          world({ cards: { "TC-1": { card_id: "TC-1", ...purses } }, rides: {} }, [
            board("Board a line; the fare is charged to the card."),
          ]),
          "create_ride",
          ride,
        )
      ).after.cards as Record<string, Row>;
    // a balance beside a bonus or a limit: the balance pays, the other only bounds or adds
    expect((await boarded({ balance: 12.5, bonus_credit: 3 }))["TC-1"]).toEqual({
      card_id: "TC-1",
      balance: 10,
      bonus_credit: 3,
    });
    // two purses, neither the balance: which one pays is not known, and none is charged
    expect((await boarded({ cash: 12.5, store_credit: 3 }))["TC-1"]).toEqual({
      card_id: "TC-1",
      cash: 12.5,
      store_credit: 3,
    });
  });
});

describe("a refund to the record that paid", () => {
  const order = (id: string, card: string, total: number, more: Row = {}) => ({
    order_id: id,
    customer_id: "C-1",
    gift_card_id: card,
    order_total: total,
    // the total as shown is text, no second price
    total_display: `$${total}.00`,
    status: "placed",
    ...more,
  });
  /** A gift card shop: cards with a balance, orders paid with one. */
  const shop = (orders: Row = {}) => ({
    // customers hold no balance: nothing is refunded to them
    customers: {
      "C-1": { customer_id: "C-1", name: "Ana" },
      "C-2": { customer_id: "C-2", name: "Ben" },
    },
    gift_cards: {
      "GC-1": { gift_card_id: "GC-1", balance: 40 },
      "GC-2": { gift_card_id: "GC-2", balance: 5 },
    },
    orders: {
      "O-1": order("O-1", "GC-1", 25),
      "O-2": order("O-2", "GC-2", 10),
      ...orders,
    },
  });

  const cancel = (description: string) =>
    tool("cancel_order", description, { order_id: text }, undefined, [
      error("ORDER_NOT_FOUND", "No such order.", "No order has this id.", 404),
    ]);

  const cancelIn = async (description: string, state: State = shop()) => {
    const { after, outcome, report } = await call(world(state, [cancel(description)]), "cancel_order", {
      order_id: "O-1",
    });
    const cards = after.gift_cards as Record<string, Row>;
    return {
      code: outcome.status === "failed" ? failure(outcome) : undefined,
      balances: Object.fromEntries(Object.entries(cards).map(([id, card]) => [id, card.balance])),
      order: (after.orders as Record<string, Row>)["O-1"],
      notes: report.notes,
    };
  };

  it("gives the order's total back to the gift card that paid for it", async () => {
    const { balances, order, notes } = await cancelIn(
      "Cancel an order; its total is refunded to the gift card.",
    );
    expect(balances).toEqual({ "GC-1": 65, "GC-2": 5 });
    expect(order).toMatchObject({ status: "cancelled" });
    expect(notes).toContain("refunds order_total to gift_cards.balance of the gift_card_id that paid");
  });

  it("hears a refund in every form the description may put it", async () => {
    for (const said of [
      "Cancel an order and refund it.",
      "Cancel an order. Refunds the gift card.",
      "Cancel an order; the card is credited back.",
      "Cancel an order; the total is paid back.",
    ]) {
      expect((await cancelIn(said)).balances["GC-1"], said).toBe(65);
    }
  });

  it("gives nothing back where the description says no refund", async () => {
    const { balances, order } = await cancelIn("Cancel an order.");
    expect(balances).toEqual({ "GC-1": 40, "GC-2": 5 });
    expect(order).toMatchObject({ status: "cancelled" });
  });

  it("gives nothing back where the order has two prices, or two records could have paid", async () => {
    const withFee = shop({
      "O-1": order("O-1", "GC-1", 25, { fee: 2 }),
    });
    expect((await cancelIn("Cancel an order and refund it.", withFee)).balances["GC-1"]).toBe(40);
    const twoPayers = {
      ...shop(),
      wallets: { "W-1": { wallet_id: "W-1", balance: 0 } },
      orders: {
        "O-1": order("O-1", "GC-1", 25, { wallet_id: "W-1" }),
        "O-2": order("O-2", "GC-2", 10, { wallet_id: "W-1" }),
      },
    };
    const { balances } = await cancelIn("Cancel an order and refund it.", twoPayers);
    expect(balances["GC-1"]).toBe(40);
  });
});

describe("a spending limit the wallet keeps", () => {
  const wallet = (limit: number | null) => ({
    // the limit's currency is text, and the credit line is a balance: neither is the limit
    wallet: { owner: "Ana", monthly_limit: limit, limit_currency: "EUR", credit_limit: 500 },
    payments: {
      "P-1": { payment_id: "P-1", payee: "Grocer", amount: 30 },
      "P-2": { payment_id: "P-2", payee: "Cafe", amount: 20 },
    },
  });
  const pay = (errors: ToolError[]) =>
    tool(
      "create_payment",
      "Pay someone from the wallet.",
      { payee: text, amount: number },
      undefined,
      errors,
    );
  const overLimit = error("OVER_LIMIT", "The amount is above the monthly limit.");

  const payIn = async (errors: ToolError[], amount: number, limit: number | null = 200) => {
    const { outcome, after, report } = await call(
      world(wallet(200), [pay(errors)]),
      "create_payment",
      {
        payee: "Baker",
        amount,
      },
      wallet(limit),
    );
    return {
      code: outcome.status === "failed" ? failure(outcome) : undefined,
      payments: Object.keys(after.payments as object).length,
      notes: report.notes,
    };
  };

  it("refuses a payment above the limit, and takes one up to it", async () => {
    const above = await payIn([overLimit], 200.5);
    expect(above).toMatchObject({ code: "OVER_LIMIT", payments: 2 });
    expect(above.notes).toContain("refuses amount above wallet.monthly_limit (OVER_LIMIT)");
    expect(await payIn([overLimit], 200)).toMatchObject({ code: undefined, payments: 3 });
  });

  it("a limit not set bounds nothing", async () => {
    expect(await payIn([overLimit], 5000, null)).toMatchObject({ code: undefined, payments: 3 });
  });

  it("takes a limit unset in the example state as one, once it is set", async () => {
    const { outcome } = await call(
      world(wallet(null), [pay([overLimit])]),
      "create_payment",
      { payee: "Baker", amount: 250 },
      wallet(200),
    );
    expect(failure(outcome)).toBe("OVER_LIMIT");
  });

  it("finds the limit by any of its names, at the top of the state or inside a record", async () => {
    const payments = { "P-1": { payment_id: "P-1", payee: "Grocer", amount: 30 } };
    for (const [field, message] of [
      ["weekly_budget", "More than the budget allows."],
      ["spend_cap", "The amount is over the spend cap."],
      ["budget_cap", "The amount is over the budget."],
      ["allowance", "Not within the allowance."],
    ] as const) {
      const top = world({ [field]: 100, payments }, [pay([error("OVER", message)])]);
      const refused = await call(top, "create_payment", { payee: "Baker", amount: 101 });
      expect(failure(refused.outcome), field).toBe("OVER");
      expect(refused.report.notes, field).toContain(`refuses amount above .${field} (OVER)`);
    }
    const inside = world({ household: { wallet: { monthly_limit: 100 } }, payments }, [pay([overLimit])]);
    const refused = await call(inside, "create_payment", { payee: "Baker", amount: 101 });
    expect(failure(refused.outcome)).toBe("OVER_LIMIT");
    expect(refused.report.notes).toContain(
      "refuses amount above household.wallet.monthly_limit (OVER_LIMIT)",
    );
  });

  it("bounds nothing where no error names the limit", async () => {
    const other = error("PAYEE_BLOCKED", "The payee is blocked.");
    expect(await payIn([other], 5000)).toMatchObject({ code: undefined, payments: 3 });
  });
});

describe("a refund goes back to the method that paid", () => {
  /** A concert box office: bookings paid with a patron's stored methods, refunds on cancellation. */
  const boxOffice = world(
    {
      patrons: {
        P1: {
          patron_id: "P1",
          methods: {
            card_11: { kind: "card", last4: "4242" },
            card_12: { kind: "card", last4: "1881" },
            voucher_13: { kind: "voucher", balance: 30 },
          },
        },
      },
      bookings: {
        B1: {
          booking_id: "B1",
          patron_id: "P1",
          status: "confirmed",
          payments: [{ method_id: "card_11", amount: 80 }],
        },
      },
    },
    [
      tool(
        "cancel_booking",
        "Cancel a booking and refund it.",
        { booking_id: text, method_id: { type: "string", description: "Method id the refund goes to." } },
        undefined,
        [
          error("BOOKING_NOT_FOUND", "No such booking.", "No booking has this id.", 404),
          error("BAD_REFUND_METHOD", "The refund must go to the original payment method or a voucher."),
        ],
      ),
    ],
  );

  it("takes the method that paid, or one of the kind the error allows, and refuses any other", async () => {
    const original = await call(boxOffice, "cancel_booking", { booking_id: "B1", method_id: "card_11" });
    expect(original.outcome.status).toBe("applied");
    expect(original.report.notes).toContain(
      "refuses a method_id that did not pay for it (in payments) unless a voucher (BAD_REFUND_METHOD)",
    );
    const voucher = await call(boxOffice, "cancel_booking", { booking_id: "B1", method_id: "voucher_13" });
    expect(voucher.outcome.status).toBe("applied");
    const other = await call(boxOffice, "cancel_booking", { booking_id: "B1", method_id: "card_12" });
    expect(failure(other.outcome)).toBe("BAD_REFUND_METHOD");
    expect(other.after).toEqual(boxOffice.state);
  });

  it("allows only the original where the error names no other kind the methods keep", async () => {
    const strict = world(boxOffice.state as State, [
      tool(
        "cancel_booking",
        "Cancel a booking and refund it.",
        { booking_id: text, method_id: text },
        undefined,
        [error("NOT_ORIGINAL", "Refunds can only go to the original payment method or a bank transfer.")],
      ),
    ]);
    expect(
      (await call(strict, "cancel_booking", { booking_id: "B1", method_id: "card_11" })).outcome.status,
    ).toBe("applied");
    const voucher = await call(strict, "cancel_booking", { booking_id: "B1", method_id: "voucher_13" });
    expect(failure(voucher.outcome)).toBe("NOT_ORIGINAL");
  });
});

// ── money moved between stored balances ──────────────────────────────────────

type Rows = Record<string, Row>;

/** A pocket-money app: a child's jars, the shops they pay, and every move of money. */
const pocket = (moves: Rows = {}): State => ({
  children: { K1: { child_id: "K1", name: "Mia" } },
  jars: {
    J1: { jar_id: "J1", child_id: "K1", label: "spend", balance: 20, currency: "EUR", daily_limit: 15 },
    J2: { jar_id: "J2", child_id: "K1", label: "save", balance: 50, currency: "EUR", daily_limit: null },
  },
  shops: { S1: { shop_id: "S1", name: "Toy shop" } },
  moves: {
    M1: {
      move_id: "M1",
      jar_id: "J1",
      shop_id: "S1",
      amount: -4,
      currency: "EUR",
      created_at: "2026-03-01T10:00:00Z",
      memo: "kite",
      note: null,
    },
    M2: {
      move_id: "M2",
      jar_id: "J2",
      shop_id: null,
      amount: 10,
      currency: "EUR",
      created_at: "2026-03-01T11:00:00Z",
      memo: "birthday",
      note: null,
    },
    // a bank fee names no jar: it says nothing of what entries share with their jar
    M3: {
      move_id: "M3",
      jar_id: null,
      shop_id: null,
      amount: -1,
      currency: "GBP",
      created_at: "2026-03-01T12:00:00Z",
      memo: "fee",
      note: null,
    },
    ...moves,
  },
});

const overDaily = error("OVER_DAILY", "The amount is over the daily limit.");

const transfer = (description: string, errors: ToolError[] = [overDaily], more: Row = {}) =>
  tool(
    "transfer",
    description,
    { from_jar_id: text, to_jar_id: text, amount: number, memo: text },
    ["from_jar_id", "to_jar_id", "amount"],
    errors,
    more,
  );

const recorded = "Move money from one jar to another; the move is recorded in the moves.";

/** Runs a tool on the pocket-money world: the failure, the jars' balances, the moves added, the answer. */
const inPocket = async (made: unknown, args: Row, state: State = pocket()) => {
  const name = (made as { name: string }).name;
  const { outcome, after, answer, report, tool: inferredTool } = await call(world(state, [made]), name, args);
  const jars = after.jars as Rows;
  const before = Object.keys(state.moves as Rows);
  return {
    code: outcome.status === "failed" ? failure(outcome) : undefined,
    balances: Object.fromEntries(Object.entries(jars).map(([id, jar]) => [id, jar.balance])),
    added: Object.entries(after.moves as Rows)
      .filter(([id]) => !before.includes(id))
      .map(([, move]) => move),
    answer,
    report,
    errors: inferredTool.errors,
  };
};

describe("money moved from one jar to another", () => {
  it("takes the amount from the one, adds it to the other, and records the move as the moves record theirs", async () => {
    const moved = await inPocket(transfer(recorded), {
      from_jar_id: "J1",
      to_jar_id: "J2",
      amount: 5,
      memo: "swap",
    });
    expect(moved.code).toBeUndefined();
    expect(moved.balances).toEqual({ J1: 15, J2: 55 });
    // the paying jar, money out signed as the moves sign it, the time, the memo given, the
    // jar's currency, and the fields the moves leave empty empty
    expect(moved.added).toEqual([
      {
        move_id: "M4",
        jar_id: "J1",
        shop_id: null,
        amount: -5,
        currency: "EUR",
        created_at: NOW,
        memo: "swap",
        note: null,
      },
    ]);
    expect(moved.report.verdict).toBe("inferred");
    expect(moved.report.notes).toEqual([
      "added documented error JAR_NOT_FOUND (No jar has the given from_jar_id (inferred from the state's jars).)",
      "added documented error INSUFFICIENT_FUNDS (The amount is more than the balance it is taken from (inferred from the tool's verb).)",
      "refuses more than jars.daily_limit (OVER_DAILY)",
      "takes amount from jars.balance of from_jar_id",
      "JAR_NOT_FOUND answers for to_jar_id too",
      "adds amount to jars.balance of to_jar_id",
      "appends an entry to moves",
    ]);
    expect(moved.errors).toContainEqual({
      code: "INSUFFICIENT_FUNDS",
      status: 409,
      message: "The balance does not cover the amount.",
      when: "The amount is more than the balance it is taken from (inferred from the tool's verb).",
    });
  });

  it("refuses more than the paying jar holds, and more than its daily limit, where an error names it", async () => {
    const move = (from: string, amount: number) =>
      inPocket(transfer(recorded), { from_jar_id: from, to_jar_id: from === "J1" ? "J2" : "J1", amount });
    expect(await move("J1", 21)).toMatchObject({
      code: "INSUFFICIENT_FUNDS",
      balances: { J1: 20, J2: 50 },
      added: [],
    });
    expect(await move("J1", 16)).toMatchObject({
      code: "OVER_DAILY",
      balances: { J1: 20, J2: 50 },
      added: [],
    });
    expect(await move("J1", 15)).toMatchObject({ code: undefined, balances: { J1: 5, J2: 65 } });
    // a limit not set bounds nothing; the receiving jar's limit bounds nothing either
    expect(await move("J2", 40)).toMatchObject({ code: undefined, balances: { J1: 60, J2: 10 } });
  });

  it("refuses either jar missing, and changes nothing", async () => {
    for (const args of [
      { from_jar_id: "J9", to_jar_id: "J2", amount: 1 },
      { from_jar_id: "J1", to_jar_id: "J9", amount: 1 },
    ]) {
      expect(await inPocket(transfer(recorded), args)).toMatchObject({
        code: "JAR_NOT_FOUND",
        balances: { J1: 20, J2: 50 },
        added: [],
      });
    }
  });

  it("bounds nothing by a limit no error names, and takes the error that names it among others", async () => {
    const free = await inPocket(transfer(recorded, [error("JAR_LOCKED", "The jar is locked.")]), {
      from_jar_id: "J1",
      to_jar_id: "J2",
      amount: 18,
    });
    expect(free).toMatchObject({ code: undefined, balances: { J1: 2, J2: 68 } });
    // an error that speaks of the day but not of the limit is not the limit's
    const named = await inPocket(
      transfer(recorded, [
        error("DAY_CLOSED", "Moves are closed for the day; try again daily after nine."),
        overDaily,
      ]),
      { from_jar_id: "J1", to_jar_id: "J2", amount: 16 },
    );
    expect(named.code).toBe("OVER_DAILY");
  });

  it("takes the documented error for too little money", async () => {
    const short = error("NOT_ENOUGH", "Not enough money in the jar.");
    const refused = await inPocket(transfer(recorded, [short]), {
      from_jar_id: "J1",
      to_jar_id: "J2",
      amount: 21,
    });
    expect(refused.code).toBe("NOT_ENOUGH");
    expect(refused.errors.map((e) => e.code)).not.toContain("INSUFFICIENT_FUNDS");
  });

  it("finds the one limit beside a credit limit, a limit's note and a balance", async () => {
    const state = pocket();
    for (const jar of Object.values(state.jars as Rows))
      Object.assign(jar, { credit_limit: 100, limit_note: "ask" });
    const refused = await inPocket(
      transfer(recorded),
      { from_jar_id: "J1", to_jar_id: "J2", amount: 16 },
      state,
    );
    expect(refused.code).toBe("OVER_DAILY");
  });

  it("moves nothing where both jars are named as where the money comes from", async () => {
    const both = tool("transfer", "Move money between jars.", {
      from_jar_id: text,
      source_jar_id: text,
      amount: number,
    });
    const { balances } = await inPocket(both, { from_jar_id: "J1", source_jar_id: "J2", amount: 5 });
    expect(balances).toEqual({ J1: 20, J2: 50 });
  });
});

describe("the record of a move", () => {
  const move = { from_jar_id: "J1", to_jar_id: "J2", amount: 5 };

  it("is kept where the description says moves are logged, however it says so", async () => {
    for (const said of [
      "Move money from one jar to another. Logged in the moves.",
      "Move money from one jar to another; each one is logged as a move.",
      "Move money from one jar to another; moves are appended to.",
    ]) {
      const { added, balances } = await inPocket(transfer(said), move);
      expect(balances, said).toEqual({ J1: 15, J2: 55 });
      expect(
        added.map((m) => m.amount),
        said,
      ).toEqual([-5]);
    }
    const unsaid = await inPocket(transfer("Move money from one jar to another."), move);
    expect(unsaid).toMatchObject({ balances: { J1: 15, J2: 55 }, added: [] });
  });

  it("signs the amount as the moves sign money going out, and only money going out", async () => {
    const positive = pocket();
    for (const m of Object.values(positive.moves as Rows)) m.amount = Math.abs(m.amount as number);
    expect((await inPocket(transfer(recorded), move, positive)).added.map((m) => m.amount)).toEqual([5]);
    // a deposit is money coming in: never signed
    const deposit = tool("deposit_to_jar", "Put money in a jar; it is recorded in the moves.", {
      jar_id: text,
      amount: number,
    });
    const put = await inPocket(deposit, { jar_id: "J2", amount: 7 });
    expect(put.balances).toEqual({ J1: 20, J2: 57 });
    expect(put.added).toEqual([
      {
        move_id: "M4",
        jar_id: "J2",
        shop_id: null,
        amount: 7,
        currency: "EUR",
        created_at: NOW,
        note: null,
      },
    ]);
  });

  it("stamps the time in a field named for it, and no other", async () => {
    for (const field of ["created_at", "createdAt", "date", "timestamp", "time"]) {
      const state = pocket();
      for (const m of Object.values(state.moves as Rows)) {
        m[field] = m.created_at;
        if (field !== "created_at") delete m.created_at;
        Object.assign(m, { due_date: null, timezone: "CET", "meta.time": "x" });
      }
      const [entry] = (await inPocket(transfer(recorded), move, state)).added;
      expect(entry?.[field], field).toBe(NOW);
      expect(entry?.due_date, field).toBeNull();
      expect(entry?.timezone, field).not.toBe(NOW);
    }
  });

  it("is not kept where the moves hold no amount, or name no jar", async () => {
    const amountless = pocket();
    for (const m of Object.values(amountless.moves as Rows)) delete m.amount;
    expect(await inPocket(transfer(recorded), move, amountless)).toMatchObject({
      balances: { J1: 15, J2: 55 },
      added: [],
    });
    const jarless = pocket();
    for (const m of Object.values(jarless.moves as Rows)) delete m.jar_id;
    expect(await inPocket(transfer(recorded), move, jarless)).toMatchObject({
      balances: { J1: 15, J2: 55 },
      added: [],
    });
  });

  it("takes nothing from the jar but its currency, and only what every move naming a jar shares with it", async () => {
    const moved = (state: State) => inPocket(transfer(recorded), move, state).then((r) => r.added[0]);
    // a move of another jar's currency: the currency is not shared, and is left out
    const mixed = pocket({
      M4: {
        move_id: "M4",
        jar_id: "J2",
        shop_id: null,
        amount: 3,
        currency: "GBP",
        created_at: NOW,
        memo: "",
        note: null,
      },
    });
    expect((await moved(mixed))?.currency).toBeUndefined();
    // a move of a jar there is no longer: its currency matches no jar's
    const gone = pocket({
      M4: {
        move_id: "M4",
        jar_id: "J7",
        shop_id: null,
        amount: 3,
        currency: "EUR",
        created_at: NOW,
        memo: "",
        note: null,
      },
    });
    expect((await moved(gone))?.currency).toBeUndefined();
    // no move names a jar: nothing is shared
    const unlinked = pocket();
    for (const m of Object.values(unlinked.moves as Rows)) m.jar_id = null;
    expect(await inPocket(transfer(recorded), move, unlinked)).toMatchObject({ added: [] });
  });

  it("shares the currency of jars numbered by integers", async () => {
    const numbered = {
      jars: {
        "1": { jar_no: 1, balance: 20, currency: "SEK" },
        "2": { jar_no: 2, balance: 50, currency: "SEK" },
      },
      moves: {
        M1: { move_id: "M1", jar_no: 1, amount: -4, currency: "SEK" },
        M2: { move_id: "M2", jar_no: 2, amount: 6, currency: "SEK" },
      },
    };
    const move = tool("transfer", recorded, { from_jar_no: integer, to_jar_no: integer, amount: number });
    const { after } = await call(world(numbered, [move]), "transfer", {
      from_jar_no: 2,
      to_jar_no: 1,
      amount: 5,
    });
    expect(after.jars).toEqual({
      "1": { jar_no: 1, balance: 25, currency: "SEK" },
      "2": { jar_no: 2, balance: 45, currency: "SEK" },
    });
    expect(Object.values(after.moves as Rows).at(-1)).toEqual({
      move_id: "M3",
      jar_no: 2,
      amount: -5,
      currency: "SEK",
    });
  });
});

describe("what a move answers", () => {
  it("the moved jar, where the move is recorded but the answer is no move", async () => {
    const moved = await inPocket(transfer(recorded, [overDaily], outputs({ balance: number })), {
      from_jar_id: "J1",
      to_jar_id: "J2",
      amount: 5,
    });
    expect(moved.added).toHaveLength(1);
    expect(moved.answer).toEqual({ balance: 15 });
  });

  it("the moved jar's fields and the arguments echoed, where no move is answered", async () => {
    const deposit = tool(
      "deposit_to_jar",
      "Put money in a jar.",
      { jar_id: text, amount: number },
      undefined,
      [],
      outputs({ balance: number, jar_id: text, amount: number, mood: text }),
    );
    const put = await inPocket(deposit, { jar_id: "J1", amount: 5 });
    expect(put.balances).toEqual({ J1: 25, J2: 50 });
    expect(put.added).toEqual([]);
    expect(put.answer).toEqual({ balance: 25, jar_id: "J1", amount: 5 });
  });

  it("the move, where the answer is a move that names the jar paying", async () => {
    const pay = (answer: Row) =>
      tool(
        "pay_shop",
        "Pay a shop from a jar.",
        { jar_id: text, shop_id: text, amount: number },
        undefined,
        [],
        outputs(answer),
      );
    const paid = await inPocket(pay({ move_id: text, amount: number }), {
      jar_id: "J1",
      shop_id: "S1",
      amount: 3,
    });
    const entry = {
      move_id: "M4",
      jar_id: "J1",
      shop_id: "S1",
      amount: -3,
      currency: "EUR",
      created_at: NOW,
      note: null,
    };
    expect(paid).toMatchObject({ code: undefined, balances: { J1: 17, J2: 50 }, added: [entry] });
    expect(paid.answer).toEqual(entry);
    // the shop paid must exist
    expect(
      await inPocket(pay({ move_id: text, amount: number }), { jar_id: "J1", shop_id: "S9", amount: 3 }),
    ).toMatchObject({ code: "SHOP_NOT_FOUND", balances: { J1: 20 }, added: [] });
    // an answer that is no move (a balance beside the id), or a move without its id, files none
    const notAMove = await inPocket(pay({ move_id: text, balance: number }), {
      jar_id: "J1",
      shop_id: "S1",
      amount: 3,
    });
    expect(notAMove).toMatchObject({ balances: { J1: 17 }, added: [], answer: { balance: 17 } });
    const noId = await inPocket(pay({ jar_id: text, amount: number }), {
      jar_id: "J1",
      shop_id: "S1",
      amount: 3,
    });
    expect(noId).toMatchObject({ balances: { J1: 17 }, added: [], answer: { jar_id: "J1", amount: 3 } });
  });

  it("the record the tool is about, first, where money comes from another", async () => {
    const bank = {
      accounts: { A1: { account_id: "A1", balance: 100 } },
      cards: { C1: { card_id: "C1", balance: 5 } },
    };
    const topUp = tool(
      "top_up_card",
      "Top up a card from an account.",
      { from_account_id: text, card_id: text, amount: number },
      undefined,
      [],
      outputs({ balance: number }),
    );
    const { after, answer } = await call(world(bank, [topUp]), "top_up_card", {
      from_account_id: "A1",
      card_id: "C1",
      amount: 20,
    });
    expect(after).toEqual({
      accounts: { A1: { account_id: "A1", balance: 80 } },
      cards: { C1: { card_id: "C1", balance: 25 } },
    });
    expect(answer).toEqual({ balance: 25 });
  });
});

describe("which number a move takes as its amount", () => {
  const deposit = (properties: Row) =>
    tool("deposit_to_jar", "Put money in a jar.", { jar_id: text, ...properties }, [
      "jar_id",
      ...Object.keys(properties),
    ]);

  it("the one named as an amount, else the only number", async () => {
    const cases: Array<[Row, Row, number]> = [
      [{ amount: number, week: integer }, { amount: 5, week: 3 }, 25],
      [{ amount: number, summer_bonus: number }, { amount: 5, summer_bonus: 2 }, 25],
      [{ amount: number, checksum: integer }, { amount: 5, checksum: 7 }, 25],
      [{ euros: number, memo: text }, { euros: 4, memo: "chores" }, 24],
      [{ sum: integer }, { sum: 2 }, 22],
      [{ top_up_amount: number, week: integer }, { top_up_amount: 6, week: 3 }, 26],
    ];
    for (const [properties, args, balance] of cases) {
      const { balances } = await inPocket(deposit(properties), { jar_id: "J1", ...args });
      expect(balances.J1, JSON.stringify(properties)).toBe(balance);
    }
  });

  it("none where two numbers could be it", async () => {
    const { balances } = await inPocket(deposit({ euros: number, week: integer }), {
      jar_id: "J1",
      euros: 4,
      week: 3,
    });
    expect(balances.J1).toBe(20);
  });
});

describe("points a loyalty club's members redeem", () => {
  const club = () => ({
    members: {
      L1: { member_id: "L1", name: "Ola", points: 120, amount_spent: 300 },
      L2: { member_id: "L2", name: "Pia", points: 10, amount_spent: 40 },
    },
  });

  it("takes them from the field named as the amount is, refusing more than there are", async () => {
    const redeem = tool("redeem_points", "Redeem points of a member.", { member_id: text, points: integer });
    const toolset = world(club(), [redeem]);
    const {
      after,
      report,
      tool: redeemed,
    } = await call(toolset, "redeem_points", { member_id: "L1", points: 100 });
    expect((after.members as Rows).L1).toMatchObject({ points: 20, amount_spent: 300 });
    expect(report.notes).toContain("takes points from members.points of member_id");
    expect(redeemed.errors).toContainEqual({
      code: "INSUFFICIENT_POINTS",
      status: 409,
      message: "The points does not cover the amount.",
      when: "The amount is more than the points it is taken from (inferred from the tool's verb).",
    });
    const short = await call(toolset, "redeem_points", { member_id: "L2", points: 11 });
    expect(failure(short.outcome)).toBe("INSUFFICIENT_POINTS");
  });

  it("never from a field that only shares the word `amount` with the argument", async () => {
    const redeem = tool("redeem_reward", "Redeem a reward of a member.", {
      member_id: text,
      amount: integer,
    });
    const { after } = await call(world(club(), [redeem]), "redeem_reward", { member_id: "L1", amount: 100 });
    expect((after.members as Rows).L1).toMatchObject({ points: 120, amount_spent: 300 });
  });
});

// ── the world's one account, and records made from others ────────────────────

/** A theatre: the patron's wallet, the offers of seats, and bookings made from them (or not). */
const theatre = (more: State = {}): State => ({
  patron: { name: "Ada", wallet_balance: 100, spend_cap: 80 },
  offers: {
    OF1: { offer_id: "OF1", show: "Hamlet", total: 45, currency: "GBP" },
    OF2: { offer_id: "OF2", show: "Cats", total: 90, currency: "GBP" },
  },
  bookings: {
    BK1: { booking_id: "BK1", offer_id: "OF1", product: "seat", seats: 2, total: 45, currency: "GBP" },
    BK2: { booking_id: "BK2", offer_id: "OF2", product: "seat", seats: 2, total: 90, currency: "GBP" },
    // a programme bought at the door: made from no offer
    BK3: { booking_id: "BK3", offer_id: null, product: "programme", seats: 0, total: 5, currency: "GBP" },
  },
  ...more,
});

const paidFromWallet = "Book a seat offer; it is paid from the wallet.";
const noFunds = error("NO_FUNDS", "Insufficient funds in the wallet.");
const overCap = error("OVER_CAP", "The total is above the spend cap.");

const book = (description = paidFromWallet, errors: ToolError[] = [noFunds, overCap]) =>
  tool("create_booking", description, { offer_id: text }, undefined, errors);

/** Books an offer: the failure, the patron's wallet, the booking made, the notes. */
const booked = async (made: unknown, offer: string, state: State = theatre(), seen: State = state) => {
  const { outcome, after, report } = await call(
    world(seen, [made]),
    "create_booking",
    { offer_id: offer },
    state,
  );
  const before = Object.keys(state.bookings as Rows);
  return {
    code: outcome.status === "failed" ? failure(outcome) : undefined,
    after,
    made: Object.entries(after.bookings as Rows).find(([id]) => !before.includes(id))?.[1],
    notes: report.notes,
  };
};

describe("a booking paid from the world's one wallet", () => {
  it("takes the offer's total and currency, says what kind it is, and charges the wallet", async () => {
    const { code, after, made, notes } = await booked(book(), "OF1");
    expect(code).toBeUndefined();
    expect(made).toEqual({ booking_id: "BK4", offer_id: "OF1", product: "seat", total: 45, currency: "GBP" });
    expect(after.patron).toEqual({ name: "Ada", wallet_balance: 55, spend_cap: 80 });
    expect(notes).toContain("sets product to 'seat', as every booking with a offer_id has it");
    expect(notes).toContain(
      "charges offer_id's total to patron.wallet_balance, refusing more than it holds (NO_FUNDS)",
    );
    expect(notes).toContain("refuses offer_id's total above patron.spend_cap (OVER_CAP)");
  });

  it("refuses more than the wallet holds, and more than the spend cap, and lets the cap itself through", async () => {
    const poor = theatre({ patron: { name: "Ada", wallet_balance: 40, spend_cap: 80 } });
    expect(await booked(book(), "OF1", poor)).toMatchObject({ code: "NO_FUNDS", made: undefined });
    expect(await booked(book(), "OF2")).toMatchObject({ code: "OVER_CAP", made: undefined });
    const capped = theatre({ patron: { name: "Ada", wallet_balance: 100, spend_cap: 45 } });
    expect(await booked(book(), "OF1", capped)).toMatchObject({ code: undefined, made: { total: 45 } });
  });

  it("hears a short wallet in an error's code alone", async () => {
    const coded = book(paidFromWallet, [error("INSUFFICIENT_WALLET", "The wallet cannot cover it.")]);
    const poor = theatre({ patron: { name: "Ada", wallet_balance: 40, spend_cap: 80 } });
    expect(await booked(coded, "OF1", poor)).toMatchObject({ code: "INSUFFICIENT_WALLET", made: undefined });
  });

  it("lets the wallet go below zero where no error refuses it", async () => {
    const { code, after, notes } = await booked(book(paidFromWallet, []), "OF2", theatre(), theatre());
    expect(code).toBeUndefined();
    expect((after.patron as Row).wallet_balance).toBe(10);
    const poor = await booked(
      book(paidFromWallet, []),
      "OF2",
      theatre({ patron: { name: "Ada", wallet_balance: 40 } }),
    );
    expect((poor.after.patron as Row).wallet_balance).toBe(-50);
    expect(notes).toContain("charges offer_id's total to patron.wallet_balance");
  });

  it("charges nothing where the description says no payment", async () => {
    const { after, made } = await booked(book("Book a seat offer.", []), "OF1");
    expect(made).toMatchObject({ total: 45 });
    expect((after.patron as Row).wallet_balance).toBe(100);
  });

  it("finds the wallet inside another record, beside a collection's balances and records' own purses", async () => {
    const household = { household: { wallet: { cash: 100 } } };
    const nested = theatre(household);
    delete nested.patron;
    const { after, notes } = await booked(book(paidFromWallet, []), "OF1", nested);
    expect(after.household).toEqual({ wallet: { cash: 55 } });
    expect(notes).toContain("charges offer_id's total to household.wallet.cash");
    const crowded = theatre({
      gift_cards: { G1: { gift_card_id: "G1", balance: 30 } },
      members: { MB1: { member_id: "MB1", purse: { cash: 7 } } },
    });
    const paid = await booked(book(paidFromWallet, []), "OF1", crowded);
    expect((paid.after.patron as Row).wallet_balance).toBe(55);
    expect(paid.after.gift_cards).toEqual(crowded.gift_cards);
    expect(paid.after.members).toEqual(crowded.members);
  });

  it("charges no one where two records could pay, or none", async () => {
    const two = await booked(book(paidFromWallet, []), "OF1", theatre({ box_office: { till_cash: 300 } }));
    expect(two.made).toMatchObject({ total: 45 });
    expect((two.after.patron as Row).wallet_balance).toBe(100);
    expect(two.after.box_office).toEqual({ till_cash: 300 });
    const none = theatre();
    delete none.patron;
    const alone = await booked(book(paidFromWallet, []), "OF1", none);
    expect(alone).toMatchObject({ code: undefined, made: { total: 45 } });
  });
});

describe("a refund to the world's one wallet", () => {
  const cancel = tool("cancel_booking", "Cancel a booking; its total is refunded to the wallet.", {
    booking_id: text,
  });

  it("gives the booking's total back, wherever the wallet is kept", async () => {
    const { after, report } = await call(world(theatre(), [cancel]), "cancel_booking", { booking_id: "BK1" });
    expect(after.patron).toMatchObject({ wallet_balance: 145 });
    expect((after.bookings as Rows).BK1).toMatchObject({ status: "cancelled" });
    expect(report.notes).toContain("refunds total to patron.wallet_balance");
    const nested = theatre({ household: { wallet: { cash: 100 } } });
    delete nested.patron;
    const inside = await call(world(nested, [cancel]), "cancel_booking", { booking_id: "BK1" });
    expect(inside.after.household).toEqual({ wallet: { cash: 145 } });
    expect(inside.report.notes).toContain("refunds total to household.wallet.cash");
  });

  it("gives nothing back where the world has no wallet", async () => {
    const none = theatre();
    delete none.patron;
    const { after } = await call(world(none, [cancel]), "cancel_booking", { booking_id: "BK1" });
    expect((after.bookings as Rows).BK1).toMatchObject({ status: "cancelled" });
    expect(after).not.toHaveProperty("patron");
  });
});

describe("the kind a record made from another takes", () => {
  const free = book("Book a seat offer.", []);

  it("none where every booking names an offer, or the bookings of offers differ", async () => {
    const all = theatre();
    delete (all.bookings as Rows).BK3;
    expect((await booked(free, "OF1", all)).made).toEqual({
      booking_id: "BK3",
      offer_id: "OF1",
      total: 45,
      currency: "GBP",
    });
    const differ = theatre();
    (differ.bookings as Rows).BK2 = { ...((differ.bookings as Rows).BK2 as Row), product: "box" };
    (differ.bookings as Rows).BK5 = { ...((differ.bookings as Rows).BK3 as Row), booking_id: "BK5" };
    expect((await booked(free, "OF1", differ)).made).not.toHaveProperty("product");
  });

  it("none where a booking of no offer holds the same value, or holds none", async () => {
    const same = theatre();
    (same.bookings as Rows).BK5 = { ...((same.bookings as Rows).BK3 as Row), booking_id: "BK5" };
    ((same.bookings as Rows).BK3 as Row).product = "seat";
    expect((await booked(free, "OF1", same)).made).not.toHaveProperty("product");
    const without = theatre();
    ((without.bookings as Rows).BK3 as Row).product = null;
    // a field some booking leaves empty starts empty
    expect((await booked(free, "OF1", without)).made?.product).toBeNull();
  });

  it("a word every booking of an offer shares, not a number, nor a value each booking has its own of", async () => {
    const one = {
      offers: theatre().offers,
      bookings: {
        BK1: {
          booking_id: "BK1",
          offer_id: "OF1",
          product: "seat",
          seats: 2,
          made_at: "2026-02-01",
          total: 45,
        },
        BK2: { booking_id: "BK2", product: "programme", seats: 0, made_at: "2026-02-02", total: 5 },
        BK3: {
          booking_id: "BK3",
          offer_id: null,
          product: "programme",
          seats: 0,
          made_at: "2026-02-03",
          total: 5,
        },
      },
    };
    const { made } = await booked(free, "OF2", one);
    expect(made).toMatchObject({ offer_id: "OF2", product: "seat", total: 90 });
    expect(made).not.toHaveProperty("seats");
    expect(made).not.toHaveProperty("made_at");
  });
});

// ── charges: which balance, which price ──────────────────────────────────────

describe("which balance a charge takes and which argument is the price", () => {
  const charge = (properties: Row = { fare: number }, errors: ToolError[] = []) =>
    board("Board a line; the fare is charged to the card.", errors, properties);
  const purse = async (card: Row, made: unknown = charge(), args: Row = ride) =>
    (
      await call(
        world({ cards: { "TC-1": { card_id: "TC-1", ...card } }, rides: {} }, [made]),
        "create_ride",
        args,
      )
    ).after.cards as Rows;

  it("the one balance beside a text that shares its word", async () => {
    expect((await purse({ funds: 12.5, funds_note: "topped up in cash" }))["TC-1"]).toMatchObject({
      funds: 10,
    });
  });

  it("none where two fields are named as balances", async () => {
    expect((await purse({ balance: 12.5, pending_balance: 3 }))["TC-1"]).toMatchObject({
      balance: 12.5,
      pending_balance: 3,
    });
  });

  it("the one number named as a price, beside a text that is named as one", async () => {
    const coded = charge({ fare: number, fee_code: text });
    expect((await purse({ balance: 12.5 }, coded, { ...ride, fee_code: "STD" }))["TC-1"]).toMatchObject({
      balance: 10,
    });
  });

  it("says the documented error it refuses with is answered", async () => {
    const { report } = await call(
      world(transit(), [
        charge({ fare: number }, [error("LOW_BALANCE", "Insufficient balance on the card.")]),
      ]),
      "create_ride",
      ride,
    );
    expect(report.gaps).not.toContain("documented error LOW_BALANCE is answered by no effect");
  });
});

describe("what a spending limit needs", () => {
  const wallet = (limit: number | null = 100) => ({
    wallet: { owner: "Ana", monthly_limit: limit },
    payments: { "P-1": { payment_id: "P-1", payee: "Grocer", amount: 30 } },
  });
  const overLimit = error("OVER_LIMIT", "The amount is above the monthly limit.");

  it("a price: a payment without an amount is bounded by nothing", async () => {
    const pay = tool("create_payment", "Pay someone from the wallet.", { payee: text }, undefined, [
      overLimit,
    ]);
    const { outcome, after } = await call(world(wallet(), [pay]), "create_payment", { payee: "Baker" });
    expect(outcome.status).toBe("applied");
    expect(Object.keys(after.payments as Rows)).toHaveLength(2);
  });

  it("an error that names the limit, not only its other words", async () => {
    const pay = tool(
      "create_payment",
      "Pay someone from the wallet.",
      { payee: text, amount: number },
      undefined,
      [error("STATEMENT_CLOSED", "The monthly statement is closed.")],
    );
    const { outcome } = await call(world(wallet(), [pay]), "create_payment", { payee: "Baker", amount: 500 });
    expect(outcome.status).toBe("applied");
  });
});

// ── lines of a basket ────────────────────────────────────────────────────────

describe("lines of a café basket", () => {
  const cafe = () => ({
    // the regulars' favourites name menu items too, but keep no quantity
    favourites: [{ item_id: "m1" }],
    // a map before the menu, keyed by another key
    staff: { s1: { staff_id: "s1", name: "Jo" } },
    menu: {
      m1: { item_id: "m1", name: "Tea", price: 2 },
      m2: { item_id: "m2", name: "Bun", price: 3 },
    },
    // what is saved for later is in the basket too, without a quantity
    basket: { saved_for_later: [{ item_id: "m2" }], items: [{ item_id: "m1", quantity: 1 }] },
  });
  const add = tool("add_to_basket", "Add an item to the basket.", { item_id: text, quantity: integer });

  it("adds to the line of an item there, makes the line of one that is not, and answers the line", async () => {
    const toolset = world(cafe(), [add]);
    const more = await call(toolset, "add_to_basket", { item_id: "m1", quantity: 2 });
    expect(more.after.basket).toEqual({
      saved_for_later: [{ item_id: "m2" }],
      items: [{ item_id: "m1", quantity: 3 }],
    });
    expect(more.answer).toEqual({ item_id: "m1", quantity: 3 });
    expect(more.report.notes).toContain(
      "adds quantity to the line of items whose item_id is given, or makes that line (item_id must name one of menu)",
    );
    const fresh = await call(toolset, "add_to_basket", { item_id: "m2", quantity: 2 });
    expect(fresh.after.basket).toEqual({
      saved_for_later: [{ item_id: "m2" }],
      items: [
        { item_id: "m1", quantity: 1 },
        { item_id: "m2", quantity: 2 },
      ],
    });
    expect(fresh.answer).toEqual({ item_id: "m2", quantity: 2 });
    expect(fresh.after.favourites).toEqual(cafe().favourites);
  });

  it("finds the lines by every noun of the tool's name that the basket's path holds", async () => {
    const named = tool("add_to_shopping_basket", "Add an item to the basket.", {
      item_id: text,
      quantity: integer,
    });
    const { after } = await call(world(cafe(), [named]), "add_to_shopping_basket", {
      item_id: "m1",
      quantity: 1,
    });
    expect((after.basket as { items: Row[] }).items).toEqual([{ item_id: "m1", quantity: 2 }]);
  });

  it("refuses an item the menu does not have", async () => {
    const { outcome, after } = await call(world(cafe(), [add]), "add_to_basket", {
      item_id: "m9",
      quantity: 1,
    });
    expect(failure(outcome)).toBe("ITEM_NOT_FOUND");
    expect(after.basket).toEqual(cafe().basket);
  });

  it("moves no line where the call gives no count", async () => {
    const bare = tool("add_to_basket", "Add an item to the basket.", { item_id: text });
    const { after } = await call(world(cafe(), [bare]), "add_to_basket", { item_id: "m1" });
    expect(after.basket).toEqual(cafe().basket);
  });
});

// ── something bought that the state keeps nowhere ───────────────────────────

describe("a ride token bought at a fair, kept nowhere", () => {
  const fair = () => ({
    visitors: { V1: { visitor_id: "V1", name: "Bo", credit: 10 } },
    ride_passes: { RP1: { ride_pass_id: "RP1", rides: 3 } },
  });

  it("is paid from the visitor's credit, and says where it is kept is not known", async () => {
    const buy = tool("buy_ride_token", "Buy a ride token; it is paid from the visitor's credit.", {
      visitor_id: text,
      price: number,
    });
    const toolset = world(fair(), [buy]);
    const { after, report } = await call(toolset, "buy_ride_token", { visitor_id: "V1", price: 4 });
    expect((after.visitors as Rows).V1).toMatchObject({ credit: 6 });
    expect(report.notes).toEqual([
      "added documented error VISITOR_NOT_FOUND (No visitor has the given visitor_id (inferred from the state's visitors).)",
      "charges price to visitors.credit of visitor_id",
    ]);
    expect(report.gaps).toEqual([
      "where it keeps the ride token it makes is not inferred: no part of the state is named for it",
    ]);
    const unknown = await call(toolset, "buy_ride_token", { visitor_id: "V9", price: 4 });
    expect(failure(unknown.outcome)).toBe("VISITOR_NOT_FOUND");
  });

  it("checks what it names exists where nothing is paid, and leaves an optional argument unchecked", async () => {
    const make = tool(
      "create_ride_token",
      "Make a ride token for a pass.",
      { ride_pass_id: text, visitor_id: text },
      ["ride_pass_id"],
    );
    const toolset = world(fair(), [make]);
    const { outcome, report } = await call(toolset, "create_ride_token", { ride_pass_id: "RP1" });
    expect(outcome.status).toBe("applied");
    expect(report.notes).toContain("checks the ride pass ride_pass_id names exists");
    const unknown = await call(toolset, "create_ride_token", { ride_pass_id: "RP9" });
    expect(failure(unknown.outcome)).toBe("RIDE_PASS_NOT_FOUND");
  });
});

// ── money kept by currency in a map ──────────────────────────────────────────

describe("a travel wallet's balances per currency", () => {
  const travel = (balances: Row = { EUR: 120.5, USD: 10 }) => ({
    account: { owner: "Ines", wallet: { balances } },
    rates: { EUR: { USD: 1.1, EUR: 1 }, USD: { EUR: 0.9, USD: 1 } },
    // what the currencies are called: a map of words, no rates
    names: { EUR: { label: "euro" }, USD: { label: "dollar" } },
    // a fee per currency: numbers by currency, but no rate from one currency to another
    fees: { EUR: { flat: 1 }, USD: { flat: 2 } },
  });
  type Wallet = { account: { wallet: { balances: Record<string, number> } } };
  const balances = (after: State) => (after as Wallet).account.wallet.balances;

  it("adds under the currency given, in cents, and says so", async () => {
    const deposit = tool("deposit", "Deposit money.", { currency: text, amount: number });
    const { after, answer, report } = await call(world(travel(), [deposit]), "deposit", {
      currency: "EUR",
      amount: 4.004,
    });
    expect(balances(after)).toEqual({ EUR: 124.5, USD: 10 });
    expect(answer).toEqual({ currency: "EUR", balance: 124.5 });
    expect(report.notes).toEqual(["adds amount to balances under currency"]);
  });

  it("keeps eight decimals where a balance has more than two", async () => {
    const deposit = tool("deposit", "Deposit an asset.", { asset: text, amount: number });
    const { after } = await call(world(travel({ BTC: 0.125, ETH: 2 }), [deposit]), "deposit", {
      asset: "BTC",
      amount: 0.00000001,
    });
    expect(balances(after).BTC).toBe(0.12500001);
  });

  it("takes under the currency given, refusing more than there is with the documented error", async () => {
    const withdraw = tool("withdraw", "Withdraw money.", { currency: text, amount: number }, undefined, [
      error("LOW_FUNDS", "Insufficient funds in that currency."),
    ]);
    const toolset = world(travel(), [withdraw]);
    const taken = await call(toolset, "withdraw", { currency: "USD", amount: 4 });
    expect(balances(taken.after)).toEqual({ EUR: 120.5, USD: 6 });
    expect(taken.report.notes).toEqual(["takes amount from balances under currency"]);
    expect(failure((await call(toolset, "withdraw", { currency: "USD", amount: 11 })).outcome)).toBe(
      "LOW_FUNDS",
    );
  });

  it("sends money out under the currency, and files what was sent where the tool names it", async () => {
    const send = tool("send_money", "Send money to an account.", {
      currency: text,
      amount: number,
      to_account: text,
    });
    const { after } = await call(world(travel(), [send]), "send_money", {
      currency: "EUR",
      amount: 20,
      to_account: "NL01",
    });
    expect(balances(after)).toEqual({ EUR: 100.5, USD: 10 });
  });

  it("exchanges at the table's rate, and words the error of a pair without one", async () => {
    const convert = tool("convert", "Convert money.", {
      token: text,
      from_currency: text,
      to_currency: text,
      amount: number,
    });
    const toolset = world(travel(), [convert]);
    const {
      after,
      answer,
      report,
      tool: converted,
    } = await call(toolset, "convert", {
      token: "t",
      from_currency: "EUR",
      to_currency: "USD",
      amount: 20,
    });
    expect(balances(after)).toEqual({ EUR: 100.5, USD: 32 });
    expect(answer).toEqual({ to_currency: "USD", amount: 22 });
    expect(report.notes).toContain(
      "takes amount from balances under from_currency and adds it at the rates rate under to_currency",
    );
    expect(converted.errors).toContainEqual({
      code: "RATE_NOT_FOUND",
      status: 404,
      message: "No rate is known for that pair.",
      when: "The state's rates has no rate from from_currency to to_currency.",
    });
    const none = await call(toolset, "convert", {
      token: "t",
      from_currency: "EUR",
      to_currency: "JPY",
      amount: 1,
    });
    expect(failure(none.outcome)).toBe("RATE_NOT_FOUND");
  });

  it("moves nothing for a verb that neither adds nor takes, nor without the currency", async () => {
    for (const made of [
      tool("hold_funds", "Hold money.", { currency: text, amount: number }),
      tool("deposit", "Deposit money.", { amount: number }),
      // an optional memo or a second required text: which one is the currency is not known
      tool("deposit", "Deposit money.", { currency: text, label: text, amount: number }),
    ]) {
      const { after } = await call(world(travel(), [made]), made.name, {
        currency: "EUR",
        label: "x",
        amount: 4,
      });
      expect(balances(after), made.name).toEqual({ EUR: 120.5, USD: 10 });
    }
    const memo = tool("deposit", "Deposit money.", { currency: text, memo: text, amount: number }, [
      "currency",
      "amount",
    ]);
    expect(
      balances((await call(world(travel(), [memo]), "deposit", { currency: "EUR", amount: 4 })).after),
    ).toEqual({
      EUR: 124.5,
      USD: 10,
    });
  });

  it("exchanges nothing without a rate table, or where the pair's arguments differ in more than direction", async () => {
    const noTable = travel() as State;
    delete noTable.rates;
    const convert = tool("convert", "Convert money.", {
      from_currency: text,
      to_currency: text,
      amount: number,
    });
    const plain = await call(world(noTable, [convert]), "convert", {
      from_currency: "EUR",
      to_currency: "USD",
      amount: 4,
    });
    expect(balances(plain.after)).toEqual({ EUR: 120.5, USD: 10 });
    const odd = tool("convert", "Convert money.", { from_currency: text, to_wallet: text, amount: number });
    const mixed = await call(world(travel(), [odd]), "convert", {
      from_currency: "EUR",
      to_wallet: "USD",
      amount: 4,
    });
    expect(balances(mixed.after)).toEqual({ EUR: 120.5, USD: 10 });
    const half = tool("convert", "Convert money.", { from_currency: text, amount: number });
    expect(
      balances((await call(world(travel(), [half]), "convert", { from_currency: "EUR", amount: 4 })).after),
    ).toEqual({
      EUR: 120.5,
      USD: 10,
    });
  });

  it("takes the one map of money: none where two maps are named for it, one named in two words", async () => {
    const deposit = tool("deposit", "Deposit money.", { currency: text, amount: number });
    const two = { ...travel(), savings: { funds: { EUR: 5 } } };
    expect(
      balances((await call(world(two, [deposit]), "deposit", { currency: "EUR", amount: 4 })).after),
    ).toEqual({
      EUR: 120.5,
      USD: 10,
    });
    const words = { account: { fiat_balances: { EUR: 5 } }, notes: { cash_labels: { EUR: "euro" } } };
    const { after } = await call(world(words, [deposit]), "deposit", { currency: "EUR", amount: 4 });
    expect((after.account as Row).fiat_balances).toEqual({ EUR: 9 });
  });
});

// ── refunds to the method that paid: what is needed ─────────────────────────

describe("a refund to the method that paid needs the error, the argument and the payments", () => {
  const patrons = {
    patrons: { P1: { patron_id: "P1", methods: { card_11: { kind: "card" }, card_12: { kind: "card" } } } },
    bookings: {
      B1: {
        booking_id: "B1",
        patron_id: "P1",
        status: "confirmed",
        payments: [{ method_id: "card_11", amount: 80 }],
      },
    },
  };
  const original = error("NOT_ORIGINAL", "Refunds go only to the original payment method.");

  it("takes the error about the original method among others", async () => {
    const cancel = tool(
      "cancel_booking",
      "Cancel a booking and refund it.",
      { booking_id: text, method_id: text },
      undefined,
      [error("BOOKING_LOCKED", "The booking is locked."), original],
    );
    const other = await call(world(patrons, [cancel]), "cancel_booking", {
      booking_id: "B1",
      method_id: "card_12",
    });
    expect(failure(other.outcome)).toBe("NOT_ORIGINAL");
  });

  it("refuses nothing where no error says so, or no argument names a method", async () => {
    const free = tool("cancel_booking", "Cancel a booking and refund it.", {
      booking_id: text,
      method_id: text,
    });
    const any = await call(world(patrons, [free]), "cancel_booking", {
      booking_id: "B1",
      method_id: "card_12",
    });
    expect(any.outcome.status).toBe("applied");
    const methodless = tool(
      "cancel_booking",
      "Cancel a booking and refund it.",
      { booking_id: text },
      undefined,
      [original],
    );
    const plain = await call(world(patrons, [methodless]), "cancel_booking", { booking_id: "B1" });
    expect((plain.after.bookings as Rows).B1).toMatchObject({ status: "cancelled" });
  });
});

// ── what else a move needs ───────────────────────────────────────────────────

describe("what a move between jars needs", () => {
  it("no more than two jars: a split into two is no move of one amount", async () => {
    const split = tool("transfer", "Move money between jars.", {
      from_jar_id: text,
      to_jar_id: text,
      destination_jar_id: text,
      amount: number,
    });
    const { balances } = await inPocket(split, {
      from_jar_id: "J1",
      to_jar_id: "J2",
      destination_jar_id: "J2",
      amount: 4,
    });
    expect(balances).toEqual({ J1: 20, J2: 50 });
  });

  it("a limit kept as a number, or unset in every jar, bounds the paying jar", async () => {
    const numbered = pocket();
    ((numbered.jars as Rows).J2 as Row).daily_limit = 60;
    expect(
      await inPocket(transfer(recorded), { from_jar_id: "J1", to_jar_id: "J2", amount: 16 }, numbered),
    ).toMatchObject({
      code: "OVER_DAILY",
    });
    const unset = pocket();
    ((unset.jars as Rows).J1 as Row).daily_limit = null;
    const set = pocket();
    const { outcome } = await call(
      world(unset, [transfer(recorded)]),
      "transfer",
      { from_jar_id: "J1", to_jar_id: "J2", amount: 16 },
      set,
    );
    expect(failure(outcome)).toBe("OVER_DAILY");
  });

  it("a limit of two words is named by an error that says either", async () => {
    const capped = pocket();
    for (const jar of Object.values(capped.jars as Rows)) {
      delete jar.daily_limit;
      jar.budget_cap = 10;
    }
    const refused = await inPocket(
      transfer(recorded, [error("OVER_CAP", "Over the cap.")]),
      { from_jar_id: "J1", to_jar_id: "J2", amount: 11 },
      capped,
    );
    expect(refused.code).toBe("OVER_CAP");
  });

  it("calls too little money funds, whatever the balance is called", async () => {
    const stored = pocket();
    for (const jar of Object.values(stored.jars as Rows)) {
      jar.stored_balance = jar.balance;
      delete jar.balance;
    }
    const refused = await inPocket(
      transfer(recorded, []),
      { from_jar_id: "J1", to_jar_id: "J2", amount: 21 },
      stored,
    );
    expect(refused.code).toBe("INSUFFICIENT_FUNDS");
  });

  it("records a move in the ledger the description names that has ids, not in a list of lines", async () => {
    const audited = pocket();
    // an audit trail whose lines nothing tells apart comes first
    const state = { audit: [{ event: "move" }, { event: "move" }], ...audited };
    const { added } = await inPocket(
      transfer("Move money from one jar to another; logged in the audit and recorded in the moves."),
      { from_jar_id: "J1", to_jar_id: "J2", amount: 5 },
      state,
    );
    expect(added.map((m) => m.amount)).toEqual([-5]);
  });

  it("records a move as paid by the jar it leaves, the currency argument first", async () => {
    const zero = pocket({
      M4: {
        move_id: "M4",
        jar_id: "J1",
        shop_id: null,
        amount: 0,
        currency: "EUR",
        created_at: NOW,
        memo: "",
        note: null,
      },
    });
    for (const m of Object.values(zero.moves as Rows)) m.amount = Math.abs(m.amount as number);
    expect(
      (await inPocket(transfer(recorded), { from_jar_id: "J1", to_jar_id: "J2", amount: 5 }, zero)).added[0],
    ).toMatchObject({
      amount: 5,
    });
    const given = tool("transfer", recorded, {
      from_jar_id: text,
      to_jar_id: text,
      amount: number,
      currency: text,
    });
    const [entry] = (
      await inPocket(given, { from_jar_id: "J1", to_jar_id: "J2", amount: 5, currency: "SEK" })
    ).added;
    expect(entry).toMatchObject({ jar_id: "J1", currency: "SEK" });
  });

  it("records a top-up as paid by the account it comes from", async () => {
    const bank = {
      accounts: { A1: { account_id: "A1", balance: 100 } },
      cards: { C1: { card_id: "C1", balance: 5 } },
      movements: { MV1: { movement_id: "MV1", account_id: "A1", amount: -10 } },
    };
    const topUp = tool("top_up_card", "Top up a card from an account; it is recorded in the movements.", {
      from_account_id: text,
      card_id: text,
      amount: number,
    });
    const { after } = await call(world(bank, [topUp]), "top_up_card", {
      from_account_id: "A1",
      card_id: "C1",
      amount: 20,
    });
    expect(after.movements).toEqual({
      MV1: { movement_id: "MV1", account_id: "A1", amount: -10 },
      MV2: { movement_id: "MV2", account_id: "A1", amount: -20 },
    });
  });
});

describe("which field of a loyalty member a redemption moves", () => {
  const redeem = tool("redeem_points", "Redeem points of a member.", { member_id: text, points: integer });
  const member = (fields: Row) => ({ members: { L1: { member_id: "L1", name: "Ola", ...fields } } });

  it("one named by a word of the amount's name, refused past what there is in the words of its name", async () => {
    const toolset = world(member({ reward_points: 50, tier: { points: 500 } }), [redeem]);
    const { after } = await call(toolset, "redeem_points", { member_id: "L1", points: 20 });
    expect((after.members as Rows).L1).toMatchObject({ reward_points: 30, tier: { points: 500 } });
    const short = await call(toolset, "redeem_points", { member_id: "L1", points: 60 });
    expect(failure(short.outcome)).toBe("INSUFFICIENT_REWARD_POINTS");
    expect(short.tool.errors).toContainEqual({
      code: "INSUFFICIENT_REWARD_POINTS",
      status: 409,
      message: "The reward points does not cover the amount.",
      when: "The amount is more than the reward points it is taken from (inferred from the tool's verb).",
    });
  });

  it("none where two fields are named so", async () => {
    const { after } = await call(
      world(member({ reward_points: 50, bonus_points: 5 }), [redeem]),
      "redeem_points",
      {
        member_id: "L1",
        points: 20,
      },
    );
    expect((after.members as Rows).L1).toMatchObject({ reward_points: 50, bonus_points: 5 });
  });
});

describe("a limit each card keeps", () => {
  it("bounds a payment that names no card by nothing", async () => {
    const state = {
      wallet: { owner: "Ana" },
      cards: { C1: { card_id: "C1", spend_limit: 50 } },
      payments: { "P-1": { payment_id: "P-1", payee: "Grocer", amount: 30 } },
    };
    const pay = tool("create_payment", "Pay someone.", { payee: text, amount: number }, undefined, [
      error("OVER", "The amount is above the spend limit."),
    ]);
    const { outcome } = await call(world(state, [pay]), "create_payment", { payee: "Baker", amount: 500 });
    expect(outcome.status).toBe("applied");
  });
});

describe("balances per currency: where the map and the rates are kept, and which arguments", () => {
  const deposit = tool("deposit", "Deposit money.", { currency: text, amount: number });

  it("a map at the top of the state", async () => {
    const { after } = await call(world({ balances: { EUR: 5 } }, [deposit]), "deposit", {
      currency: "EUR",
      amount: 20,
    });
    expect(after).toEqual({ balances: { EUR: 25 } });
  });

  it("rates kept inside a record", async () => {
    const state = {
      market: { rates: { EUR: { USD: 1.1 }, USD: { EUR: 0.9 } } },
      wallet: { balances: { EUR: 5, USD: 1 } },
    };
    const convert = tool("convert", "Convert money.", {
      from_currency: text,
      to_currency: text,
      amount: number,
    });
    const { after, answer } = await call(world(state, [convert]), "convert", {
      from_currency: "EUR",
      to_currency: "USD",
      amount: 2,
    });
    expect(after.wallet).toEqual({ balances: { EUR: 3, USD: 3.2 } });
    expect(answer).toEqual({ to_currency: "USD", amount: 2.2 });
  });

  it("the currency beside a number and a member the state keeps by name", async () => {
    const state = { wallet: { balances: { EUR: 5 } }, members: { ana: { name: "ana", age: 3 } } };
    for (const made of [
      tool("deposit", "Deposit money.", { currency: text, amount: number, week: integer }),
      tool("deposit", "Deposit money for a member.", { currency: text, amount: number, member: text }),
    ]) {
      const { after } = await call(world(state, [made]), "deposit", {
        currency: "EUR",
        amount: 20,
        week: 2,
        member: "ana",
      });
      expect(after.wallet).toEqual({ balances: { EUR: 25 } });
    }
  });

  it("the pair of an exchange among arguments that only begin or end like its words", async () => {
    const state = {
      rates: { EUR: { USD: 1.1 }, USD: { EUR: 0.9 } },
      wallet: { balances: { EUR: 5, USD: 1 } },
    };
    for (const decoy of [
      "resource_id",
      "seller_reference",
      "buyer_reference",
      "crypto_network",
      "base_fee",
    ]) {
      const convert = tool(
        "convert",
        "Convert money.",
        {
          [decoy]: decoy === "base_fee" ? number : text,
          from_currency: text,
          to_currency: text,
          amount: number,
          from_note: text,
        },
        [decoy, "from_currency", "to_currency", "amount"],
      );
      const { after } = await call(world(state, [convert]), "convert", {
        [decoy]: decoy === "base_fee" ? 1 : "x",
        from_currency: "EUR",
        to_currency: "USD",
        amount: 2,
      });
      expect(after.wallet, decoy).toEqual({ balances: { EUR: 3, USD: 3.2 } });
    }
  });
});

describe("refunds to the original method: what the error allows", () => {
  const shop = (methods: Row) => ({
    account: { methods },
    orders: {
      O1: { order_id: "O1", status: "paid", payments: [{ method_id: "card_1", amount: 30 }] },
    },
  });
  const cancelWith = (message: string) =>
    tool("cancel_order", "Cancel an order and refund it.", { order_id: text, method_id: text }, undefined, [
      error("NOT_ORIGINAL", message, "The refund names a method that did not pay."),
    ]);
  const refundTo = async (message: string, method: string, methods: Row) =>
    (
      await call(world(shop(methods), [cancelWith(message)]), "cancel_order", {
        order_id: "O1",
        method_id: method,
      })
    ).outcome;

  const methods = {
    card_1: { kind: "card" },
    card_2: { kind: "card" },
    gc_3: { kind: "gift_card" },
    wallet_4: { kind: "wallet" },
    voucher_5: { kind: "voucher" },
  };

  it("a kind of two words, or one said with `to a`, of methods kept in a record", async () => {
    const gift = "Refunds go only to the original payment method or a gift card.";
    expect((await refundTo(gift, "gc_3", methods)).status).toBe("applied");
    expect(failure(await refundTo(gift, "card_2", methods))).toBe("NOT_ORIGINAL");
    const voucher = "Refunds go only to the original payment method or to a voucher.";
    expect((await refundTo(voucher, "voucher_5", methods)).status).toBe("applied");
  });

  it("nothing said before the original method", async () => {
    const before = "Pick a card or a wallet: refunds go only to the original payment method.";
    expect(failure(await refundTo(before, "wallet_4", methods))).toBe("NOT_ORIGINAL");
    expect((await refundTo(before, "card_1", methods)).status).toBe("applied");
    const { report } = await call(world(shop(methods), [cancelWith(before)]), "cancel_order", {
      order_id: "O1",
      method_id: "card_1",
    });
    expect(report.notes).toContain(
      "refuses a method_id that did not pay for it (in payments) (NOT_ORIGINAL)",
    );
  });

  it("nothing refused where the order keeps no payments", async () => {
    const unpaid = { ...shop(methods), orders: { O1: { order_id: "O1", status: "paid" } } };
    const { outcome } = await call(
      world(unpaid, [cancelWith("Refunds go only to the original payment method.")]),
      "cancel_order",
      {
        order_id: "O1",
        method_id: "card_2",
      },
    );
    expect(outcome.status).toBe("applied");
  });
});
