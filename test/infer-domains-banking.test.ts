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
 * A personal bank's API shaped as Monzo's and the Open Banking accounts API are: accounts
 * keyed by id with balances in minor units (pence), savings pots, an array of transactions
 * that every movement of money appends to, payees, and a daily limit that is null where none
 * is set. Tool names in camelCase, as a JavaScript SDK spells them. Served without effects.
 */

const bank = useDomain("banking.json");

const CURRENT = "acc_00009Ae1";
const JOINT = "acc_00009Ae2";

const balanceOf = async (accountId: string) => fieldsOf(await bank.call("getBalance", { accountId })).balance;
const potBalances = async () => {
  const pots = fieldsOf(await bank.call("listPots")).pots;
  return Array.isArray(pots)
    ? Object.fromEntries(pots.map((p: { id: string; balance: number }) => [p.id, p.balance]))
    : pots;
};
const txIds = async (accountId: string) => {
  const txs = fieldsOf(await bank.call("listTransactions", { accountId })).transactions;
  return Array.isArray(txs) ? txs.map((t: { id: string }) => t.id) : txs;
};

describe("banking: accounts, balances and transactions as stored", () => {
  it("a balance answers the account's stored figures; an unknown account answers the documented error", async () => {
    const answer = await bank.call("getBalance", { accountId: CURRENT });
    // the account is answered as stored: its other fields come along, none made up
    expect.soft(expectOk(answer)).toMatchObject({ balance: 182550, currency: "GBP", dailyLimit: 50000 });
    expectGrounded(answer, ["balance", "currency", "dailyLimit"]);
    expect.soft(expectOk(await bank.call("getBalance", { accountId: JOINT })).dailyLimit).toBeNull();
    expectError(await bank.call("getBalance", { accountId: "acc_nope" }), "ACCOUNT_NOT_FOUND");
  });

  it("an account's transactions are its own; one transaction answers by id; notes replace notes", async () => {
    expect.soft(await txIds(CURRENT)).toEqual(["tx_00001", "tx_00002", "tx_00004"]);
    expectError(await bank.call("listTransactions", { accountId: "acc_nope" }), "ACCOUNT_NOT_FOUND");
    const tx = await bank.call("getTransaction", { transactionId: "tx_00003" });
    expectRecord(
      tx,
      { id: "tx_00003", accountId: JOINT, amount: -3899, notes: "weekly shop" },
      {
        currency: "GBP",
        description: "OCADO",
        category: "groceries",
        createdAt: "2026-03-02T18:30:00Z",
        settledAt: "2026-03-02T18:30:00Z",
        counterparty: null,
      },
    );
    expectError(await bank.call("getTransaction", { transactionId: "tx_99999" }), "TRANSACTION_NOT_FOUND");
    const noted = await bank.call("annotateTransaction", {
      transactionId: "tx_00001",
      notes: "coffee with Sam",
    });
    expect.soft(expectOk(noted)).toMatchObject({ id: "tx_00001", notes: "coffee with Sam" });
    expect
      .soft(expectOk(await bank.call("getTransaction", { transactionId: "tx_00001" })))
      .toMatchObject({ notes: "coffee with Sam", amount: -450 });
  });
});

describe("banking: money moved between accounts and pots", () => {
  it("depositing into a pot takes the amount from the account and adds it to the pot", async () => {
    const answer = await bank.call("depositIntoPot", {
      potId: "pot_0001",
      sourceAccountId: CURRENT,
      amount: 10000,
    });
    expect.soft(expectOk(answer)).toMatchObject({ id: "pot_0001", balance: 74000 });
    expect.soft(await potBalances()).toEqual({ pot_0001: 74000, pot_0002: 12500 });
    expect.soft(await balanceOf(CURRENT)).toBe(172550);
    expectError(
      await bank.call("depositIntoPot", { potId: "pot_0001", sourceAccountId: JOINT, amount: 5000 }),
      "INSUFFICIENT_FUNDS",
    );
    expectError(
      await bank.call("depositIntoPot", { potId: "pot_9", sourceAccountId: CURRENT, amount: 1 }),
      "POT_NOT_FOUND",
    );
    expect.soft(await balanceOf(JOINT)).toBe(4210);
  });

  it("withdrawing from a pot adds to the destination account, never more than the pot holds", async () => {
    expectOk(
      await bank.call("withdrawFromPot", { potId: "pot_0002", destinationAccountId: JOINT, amount: 5000 }),
    );
    expect.soft(await potBalances()).toEqual({ pot_0001: 64000, pot_0002: 7500 });
    expect.soft(await balanceOf(JOINT)).toBe(9210);
    expectError(
      await bank.call("withdrawFromPot", { potId: "pot_0002", destinationAccountId: JOINT, amount: 7501 }),
      "INSUFFICIENT_FUNDS",
    );
    expect.soft(await balanceOf(JOINT)).toBe(9210);
  });

  it("a transfer moves the amount between the accounts and appends a transaction that reads back", async () => {
    const answer = await bank.call("transferFunds", {
      fromAccountId: CURRENT,
      toAccountId: JOINT,
      amount: 2500,
      reference: "groceries",
    });
    const fields = expectOk(answer);
    expect.soft(fields).toMatchObject({ id: "tx_00005", accountId: CURRENT });
    expect.soft(await balanceOf(CURRENT)).toBe(180050);
    expect.soft(await balanceOf(JOINT)).toBe(6710);
    expect.soft(await txIds(CURRENT)).toEqual(["tx_00001", "tx_00002", "tx_00004", "tx_00005"]);
    expect.soft(expectOk(await bank.call("getTransaction", { transactionId: "tx_00005" }))).toMatchObject({
      accountId: CURRENT,
    });
    expectError(
      await bank.call("transferFunds", { fromAccountId: JOINT, toAccountId: CURRENT, amount: 6711 }),
      "INSUFFICIENT_FUNDS",
    );
    expectError(
      await bank.call("transferFunds", { fromAccountId: CURRENT, toAccountId: "acc_nope", amount: 1 }),
      "ACCOUNT_NOT_FOUND",
    );
    expect.soft(await balanceOf(CURRENT)).toBe(180050);
    expect.soft(await balanceOf(JOINT)).toBe(6710);
  });

  it("a top-up adds to the balance and a withdrawal takes from it, each appending a transaction", async () => {
    const topped = await bank.call("topUp", { accountId: JOINT, amount: 1000 });
    expect.soft(expectOk(topped)).toEqual({ accountId: JOINT, balance: 5210 });
    expectGrounded(topped, ["accountId", "balance"]);
    expect.soft(await txIds(JOINT)).toHaveLength(2);
    const cash = await bank.call("withdrawCash", { accountId: CURRENT, amount: 2000 });
    expect.soft(expectOk(cash)).toEqual({ accountId: CURRENT, balance: 180550 });
    expect.soft(await txIds(CURRENT)).toHaveLength(4);
    expectError(await bank.call("topUp", { accountId: "acc_nope", amount: 1 }), "ACCOUNT_NOT_FOUND");
  });

  it("a withdrawal above the balance or the daily limit is refused and takes nothing", async () => {
    expectError(await bank.call("withdrawCash", { accountId: JOINT, amount: 5000 }), "INSUFFICIENT_FUNDS");
    expectError(
      await bank.call("withdrawCash", { accountId: CURRENT, amount: 60000 }),
      "DAILY_LIMIT_EXCEEDED",
    );
    expect.soft(await balanceOf(JOINT)).toBe(4210);
    expect.soft(await balanceOf(CURRENT)).toBe(182550);
    // no limit set (null) bounds nothing; once set, it does
    expectOk(await bank.call("withdrawCash", { accountId: JOINT, amount: 3000 }));
    expect
      .soft(expectOk(await bank.call("setDailyLimit", { accountId: JOINT, dailyLimit: 500 })))
      .toMatchObject({
        id: JOINT,
        dailyLimit: 500,
      });
    expectError(await bank.call("withdrawCash", { accountId: JOINT, amount: 600 }), "DAILY_LIMIT_EXCEEDED");
  });
});

describe("banking: payees", () => {
  it("a new payee gets the next id and is listed; deleting one removes it", async () => {
    const answer = await bank.call("addPayee", {
      name: "Dr R. Osei",
      sortCode: "402211",
      accountNumber: "99887766",
    });
    expectRecord(answer, {
      id: "payee_0003",
      name: "Dr R. Osei",
      sortCode: "402211",
      accountNumber: "99887766",
    });
    const ids = async () =>
      (fieldsOf(await bank.call("listPayees")).payees as Array<{ id: string }>).map((p) => p.id);
    expect.soft(await ids()).toEqual(["payee_0001", "payee_0002", "payee_0003"]);
    expect.soft(expectOk(await bank.call("deletePayee", { payeeId: "payee_0001" }))).toMatchObject({
      id: "payee_0001",
      deleted: true,
    });
    expect.soft(await ids()).toEqual(["payee_0002", "payee_0003"]);
    expectError(await bank.call("deletePayee", { payeeId: "payee_0001" }), "PAYEE_NOT_FOUND");
  });

  it("paying a payee takes the amount from the account, within the limit, and appends the payment", async () => {
    const answer = await bank.call("payPayee", { payeeId: "payee_0001", accountId: CURRENT, amount: 30000 });
    expect.soft(expectOk(answer)).toMatchObject({ id: "tx_00005", accountId: CURRENT });
    expect.soft(await balanceOf(CURRENT)).toBe(152550);
    expect.soft(await txIds(CURRENT)).toEqual(["tx_00001", "tx_00002", "tx_00004", "tx_00005"]);
    expectError(
      await bank.call("payPayee", { payeeId: "payee_0001", accountId: CURRENT, amount: 60000 }),
      "DAILY_LIMIT_EXCEEDED",
    );
    expectError(
      await bank.call("payPayee", { payeeId: "payee_0001", accountId: JOINT, amount: 5000 }),
      "INSUFFICIENT_FUNDS",
    );
    expectError(
      await bank.call("payPayee", { payeeId: "payee_9999", accountId: CURRENT, amount: 100 }),
      "PAYEE_NOT_FOUND",
    );
    expect.soft(await balanceOf(CURRENT)).toBe(152550);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(bank.breaches).toEqual([]);
  });
});
