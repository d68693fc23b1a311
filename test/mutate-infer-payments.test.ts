import { describe, expect, it } from "vitest";
import {
  call,
  error,
  failure,
  number,
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
