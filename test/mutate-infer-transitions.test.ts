import { describe, expect, it } from "vitest";
import { call, NOW, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Fields a status change brings (docs/inference.md): a field every record already in the new
 * status has, and none in the status it starts from has, is set by the change too: the time
 * of the change, or its one constant value. At least three records of each side must show it.
 */

type Order = Record<string, unknown>;

const pending = (n: number, extra: Order = {}): Order => ({
  order_id: `O-${n}`,
  status: "pending",
  ...extra,
});
const cancelled = (n: number, extra: Order = {}): Order => ({
  order_id: `O-${n}`,
  status: "cancelled",
  cancelled_at: `2026-01-0${n}T10:00:00Z`,
  cancellation_reason: "requested",
  refunded: true,
  refund_count: 1,
  ...extra,
});

const keyed = (orders: Order[]) => Object.fromEntries(orders.map((o) => [o.order_id as string, o]));

const cancel = tool("cancel_order", "Cancel an order.", { order_id: text });

const cancelIn = async (orders: Order[], order = "O-1") => {
  const { after, report } = await call(world({ orders: keyed(orders) }, [cancel]), "cancel_order", {
    order_id: order,
  });
  return { order: (after.orders as Record<string, Order>)[order], report };
};

describe("what the records already cancelled show a cancel sets", () => {
  const three = [pending(1), pending(2), pending(3), cancelled(4), cancelled(5), cancelled(6)];

  it("sets the time of the change, and the one reason, flag and count every cancelled order has", async () => {
    const { order, report } = await cancelIn(three);
    expect(order).toEqual({
      order_id: "O-1",
      status: "cancelled",
      cancelled_at: NOW,
      cancellation_reason: "requested",
      refunded: true,
      refund_count: 1,
    });
    expect(report.notes).toContain(
      "sets cancelled_at to the time of the change (as the orders already 'cancelled' show)",
    );
    expect(report.notes).toContain(
      "sets cancellation_reason to \"requested\" (as the orders already 'cancelled' show)",
    );
  });

  it("learns nothing from fewer than three records on either side", async () => {
    const twoDone = await cancelIn([pending(1), pending(2), pending(3), cancelled(4), cancelled(5)]);
    expect(twoDone.order).toEqual({ order_id: "O-1", status: "cancelled" });
    const twoStarting = await cancelIn([pending(1), pending(2), cancelled(4), cancelled(5), cancelled(6)]);
    expect(twoStarting.order).toEqual({ order_id: "O-1", status: "cancelled" });
  });

  it("leaves out a field some record before the change already has", async () => {
    const { order } = await cancelIn([
      pending(1),
      pending(2),
      pending(3, { cancellation_reason: "requested" }),
      cancelled(4),
      cancelled(5),
      cancelled(6),
    ]);
    expect(order).not.toHaveProperty("cancellation_reason");
    expect(order).toHaveProperty("cancelled_at", NOW);
  });

  it("leaves out a field one cancelled record lacks, and a value that differs between them", async () => {
    const { order } = await cancelIn([
      pending(1),
      pending(2),
      pending(3),
      cancelled(4, { refunded: undefined }),
      cancelled(5, { refund_count: 2 }),
      cancelled(6),
    ]);
    expect(order).not.toHaveProperty("refunded");
    expect(order).not.toHaveProperty("refund_count");
    expect(order).toHaveProperty("cancellation_reason", "requested");
  });

  it("takes a field for a time only when every value is one, and a constant only when it is plain", async () => {
    const { order } = await cancelIn([
      pending(1),
      pending(2),
      pending(3),
      cancelled(4, { cancelled_at: "yesterday", note: { by: "ana" } }),
      cancelled(5, { note: { by: "ana" } }),
      cancelled(6, { note: { by: "ana" } }),
    ]);
    expect(order).not.toHaveProperty("cancelled_at");
    expect(order).not.toHaveProperty("note");
  });

  it("counts only the records in the status a guard starts from", async () => {
    // shipped orders lack the fields, but only pending ones can be cancelled: two are too few
    const guarded = tool("cancel_order", "Cancel an order. Only pending orders can be cancelled.", {
      order_id: text,
    });
    const orders = [pending(1), pending(2), cancelled(4), cancelled(5), cancelled(6)];
    const shipped = [7, 8, 9].map((n) => ({ order_id: `O-${n}`, status: "shipped" }));
    const state: State = { orders: keyed([...orders, ...shipped]) };
    const { after } = await call(world(state, [guarded]), "cancel_order", { order_id: "O-1" });
    expect((after.orders as Record<string, Order>)["O-1"]).toEqual({ order_id: "O-1", status: "cancelled" });
    const free = await cancelIn([...orders, ...shipped]);
    expect(free.order).toHaveProperty("cancelled_at", NOW);
  });
});

describe("records kept in arrays and inside a record", () => {
  it("learns from an array of records inside a record", async () => {
    const orders = [pending(1), pending(2), pending(3), cancelled(4), cancelled(5), cancelled(6)];
    const shop = world({ shop: { orders, name: "Corner" } }, [cancel]);
    const { after } = await call(shop, "cancel_order", { order_id: "O-2" });
    const list = (after.shop as { orders: Order[] }).orders;
    expect(list[1]).toMatchObject({
      order_id: "O-2",
      status: "cancelled",
      cancelled_at: NOW,
      refunded: true,
    });
  });
});
