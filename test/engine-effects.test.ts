import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURES, objectResult, openRuntime } from "./support/index.js";

const STOREFRONT = join(FIXTURES, "core", "storefront.json");

type Opened = Awaited<ReturnType<typeof openRuntime>>;

describe("effects against the session state", () => {
  let rt: Opened;
  let session: string;
  beforeEach(async () => {
    rt = await openRuntime();
    session = (await rt.engine.openSession()).id;
  });
  afterEach(() => rt.dispose());

  const state = async () =>
    (await rt.engine.state(session)).state.toJSON() as Record<
      string,
      Record<string, Record<string, unknown>>
    >;

  it("a read returns the stored entity, mapped onto the output schema", async () => {
    const outcome = await rt.engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(outcome.status).toBe("ok");
    expect(objectResult(outcome).member).toEqual((await state()).members?.["MEM-001"]);
  });

  it("a read of a missing entity answers the documented error with the argument filled in", async () => {
    const outcome = await rt.engine.call(session, "get_member", { member_id: "MEM-999" });
    expect(outcome.status).toBe("error");
    expect(outcome.failure).toEqual({ code: "MEMBER_NOT_FOUND", status: 404, message: "No member MEM-999." });
    expect(outcome.versionAfter).toBe(outcome.versionBefore);
  });

  it("a write changes the state: creates with a minted id, increments, stamps the simulated clock", async () => {
    const before = await state();
    const outcome = await rt.engine.call(session, "borrow_book", {
      member_id: "MEM-001",
      book_id: "BK-0001",
      due: "2026-03-20",
    });
    expect(outcome.status).toBe("ok");
    const loan = objectResult(outcome).loan as Record<string, unknown>;
    expect(loan.loan_id).toBe("LN-0008"); // next after LN-0007
    expect(loan.opened_at).toBe("2026-03-02T09:00:00Z");
    const after = await state();
    expect(after.books?.["BK-0001"]?.copies).toBe(1);
    expect(after.loans?.["LN-0008"]).toMatchObject({
      member_id: "MEM-001",
      book_id: "BK-0001",
      status: "open",
    });
    expect((after.runtime as unknown as { now: string }).now).toBe("2026-03-02T09:01:00Z");
    expect(outcome.versionAfter).toBe(outcome.versionBefore + 1);
    // the earlier version is untouched
    expect(before.books?.["BK-0001"]?.copies).toBe(2);
  });

  it("a failing guard answers its error and applies nothing, even after earlier effects succeeded", async () => {
    const before = JSON.stringify(await state());
    const suspended = await rt.engine.call(session, "borrow_book", {
      member_id: "MEM-002",
      book_id: "BK-0001",
      due: "2026-03-20",
    });
    expect(suspended.failure?.code).toBe("MEMBER_SUSPENDED");
    const none = await rt.engine.call(session, "borrow_book", {
      member_id: "MEM-001",
      book_id: "BK-0002",
      due: "2026-03-20",
    });
    expect(none.failure).toMatchObject({
      code: "NO_COPIES",
      status: 409,
      message: "No copy of BK-0002 is on the shelf.",
    });
    expect(JSON.stringify(await state())).toBe(before);
  });

  it("update guards see earlier changes of the same session: a loan cannot be returned twice", async () => {
    const first = await rt.engine.call(session, "return_book", { loan_id: "LN-0007", book_id: "BK-0003" });
    expect(first.result).toMatchObject({ loan_id: "LN-0007", status: "closed" });
    expect((await state()).books?.["BK-0003"]?.copies).toBe(2);
    const second = await rt.engine.call(session, "return_book", { loan_id: "LN-0007", book_id: "BK-0003" });
    expect(second.failure?.code).toBe("LOAN_CLOSED");
  });

  it("list filters by the given arguments, ignores absent ones, and honours the limit", async () => {
    const science = await rt.engine.call(session, "search_books", { genre: "science" });
    expect(
      (objectResult(science).books as Array<{ book_id: string }> | undefined)?.map((b) => b.book_id),
    ).toEqual(["BK-0002", "BK-0003"]);
    const one = await rt.engine.call(session, "search_books", { genre: "science", limit: 1 });
    expect(objectResult(one).books).toHaveLength(1);
    const none = await rt.engine.call(session, "search_books", { genre: "history" });
    expect(objectResult(none).books).toEqual([]);
  });

  it("guards compare dates by time, and error messages can quote bound entities", async () => {
    const overdue = await rt.engine.call(session, "renew_loan", {
      loan_id: "LN-0006",
      new_due: "2026-03-30",
    });
    expect(overdue.failure).toEqual({
      code: "LOAN_OVERDUE",
      status: 409,
      message: "Loan LN-0006 was due 2026-02-20; return it first.",
    });
    const renewed = await rt.engine.call(session, "renew_loan", {
      loan_id: "LN-0007",
      new_due: "2026-03-30",
    });
    expect(renewed.result).toMatchObject({ loan_id: "LN-0007", due: "2026-03-30", status: "open" });
  });

  it("delete removes the entity; a second delete is the documented 404", async () => {
    const gone = await rt.engine.call(session, "delete_member", { member_id: "MEM-002" });
    expect(gone.status).toBe("ok");
    expect((await state()).members?.["MEM-002"]).toBeUndefined();
    const again = await rt.engine.call(session, "delete_member", { member_id: "MEM-002" });
    expect(again.failure?.code).toBe("MEMBER_NOT_FOUND");
  });

  it("without effects, a create is inferred into the state and a later read agrees with it", async () => {
    const created = await rt.engine.call(session, "create_reading_list", {
      member_id: "MEM-001",
      title: "Spring reads",
      book_ids: ["BK-0001", "BK-0003"],
      visibility: "public",
    });
    expect(created.status).toBe("ok");
    const id = objectResult(created).reading_list_id as string;
    expect(created.result).toMatchObject({ member_id: "MEM-001", title: "Spring reads" });
    const stored = (await state()).reading_lists?.[id];
    expect(stored).toMatchObject({ member_id: "MEM-001", title: "Spring reads", visibility: "public" });
    const read = await rt.engine.call(session, "get_reading_list", { reading_list_id: id });
    expect(read.result).toMatchObject({
      reading_list_id: id,
      member_id: "MEM-001",
      title: "Spring reads",
      visibility: "public",
    });
  });
});

describe("effects language v2 against the session state", () => {
  let rt: Opened;
  let session: string;
  beforeEach(async () => {
    rt = await openRuntime([STOREFRONT]);
    session = (await rt.engine.openSession()).id;
  });
  afterEach(() => rt.dispose());

  type Doc = Record<string, Record<string, Record<string, unknown>>>;
  const state = async () => (await rt.engine.state(session)).state.toJSON() as Doc;
  const call = (tool: string, args: Record<string, unknown>) => rt.engine.call(session, tool, args);
  const paymentMethod = async (customer: string, id: string) => {
    const methods = (await state()).customers?.[customer]?.payment_methods as Record<
      string,
      Record<string, unknown>
    >;
    return methods?.[id];
  };

  it("computes values from arguments and other entities, iterates with each, and changes several entities", async () => {
    const placed = await call("place_order", {
      customer_id: "CUST-1",
      payment_method_id: "PM-1",
      items: [
        { sku: "P-1", quantity: 2 },
        { sku: "P-2", quantity: 1 },
      ],
      coupon: "SAVE10",
    });
    expect(placed.status).toBe("ok");
    const order = objectResult(placed).order as Record<string, unknown>;
    expect(order).toMatchObject({
      order_id: "ORD-0003",
      items: [
        { sku: "P-1", quantity: 2, unit_price: 12.5, line_total: 25 },
        { sku: "P-2", quantity: 1, unit_price: 30, line_total: 30 },
      ],
      discount: 5.5,
      total: 49.5,
      lines: 2,
      placed_at: "2026-03-02T09:00:00Z",
    });
    // each product lost its units, the payment method paid the total, the coupon rule ran
    expect((await state()).products?.["P-1"]?.stock).toBe(3);
    expect((await state()).products?.["P-2"]?.stock).toBe(0);
    expect((await paymentMethod("CUST-1", "PM-1"))?.balance).toBe(50.5);
    expect(objectResult(placed).payment_method).toMatchObject({
      payment_method_id: "PM-1",
      balance: 50.5,
    });
    expect((await state()).customers?.["CUST-1"]?.coupons_used).toEqual(["SAVE10"]);
  });

  it("skips an effect whose when is falsy", async () => {
    const placed = await call("place_order", {
      customer_id: "CUST-1",
      payment_method_id: "PM-1",
      items: [{ sku: "P-1", quantity: 1 }],
    });
    expect(objectResult(placed).order).toMatchObject({ discount: 0, total: 12.5 });
    expect((await state()).customers?.["CUST-1"]?.coupons_used).toBeUndefined();
  });

  it("answers the documented error of any element of an each, or of an expression guard, and applies nothing", async () => {
    const before = JSON.stringify(state());
    const short = await call("place_order", {
      customer_id: "CUST-1",
      payment_method_id: "PM-1",
      items: [
        { sku: "P-1", quantity: 1 },
        { sku: "P-2", quantity: 3 },
      ],
    });
    expect(short.failure).toEqual({ code: "OUT_OF_STOCK", status: 409, message: "Only 1 of P-2 left." });
    const unknown = await call("place_order", {
      customer_id: "CUST-1",
      payment_method_id: "PM-1",
      items: [{ sku: "P-404", quantity: 1 }],
    });
    expect(unknown.failure).toMatchObject({ code: "PRODUCT_NOT_FOUND", message: "No product P-404." });
    const declined = await call("place_order", {
      customer_id: "CUST-1",
      payment_method_id: "PM-2",
      items: [{ sku: "P-1", quantity: 1 }],
    });
    expect(declined.failure).toMatchObject({
      code: "PAYMENT_DECLINED",
      status: 402,
      message: "The payment method's balance does not cover 12.5.",
    });
    expect(JSON.stringify(state())).toBe(before);
  });

  it("reads, updates, creates in and deletes values nested inside entities", async () => {
    const missing = await call("place_order", {
      customer_id: "CUST-2",
      payment_method_id: "PM-1",
      items: [{ sku: "P-1", quantity: 1 }],
    });
    expect(missing.failure).toMatchObject({
      code: "PAYMENT_METHOD_NOT_FOUND",
      message: "Customer CUST-2 has no payment method PM-1.",
    });
    const refunded = await call("refund_order", { order_id: "ORD-0001" });
    expect((await paymentMethod("CUST-1", "PM-1"))?.balance).toBe(155);
    expect(objectResult(refunded)).toMatchObject({ refunded: 55, order: { status: "refunded" } });
    const gone = await call("refund_order", { order_id: "ORD-0002" });
    expect(gone.failure?.code).toBe("PAYMENT_METHOD_GONE");

    const added = await call("add_payment_method", { customer_id: "CUST-2", balance: 40 });
    expect(objectResult(added).payment_method).toEqual({
      kind: "gift_card",
      balance: 40,
      payment_method_id: "PM-1",
    });
    expect(await paymentMethod("CUST-2", "PM-1")).toMatchObject({ balance: 40 });
    const noCustomer = await call("add_payment_method", { customer_id: "CUST-9", balance: 1 });
    expect(noCustomer.failure?.code).toBe("CUSTOMER_NOT_FOUND");

    await call("remove_payment_method", { customer_id: "CUST-1", payment_method_id: "PM-2" });
    expect(await paymentMethod("CUST-1", "PM-2")).toBeUndefined();
    const twice = await call("remove_payment_method", { customer_id: "CUST-1", payment_method_id: "PM-2" });
    expect(twice.failure?.code).toBe("PAYMENT_METHOD_NOT_FOUND");
  });

  it("appends into arrays inside entities, and addresses array elements by index", async () => {
    const first = await call("add_order_note", { order_id: "ORD-0001", text: "Gift wrap" });
    const second = await call("add_order_note", { order_id: "ORD-0001", text: "Leave at door" });
    expect(objectResult(second).note).toEqual({
      text: "Leave at door",
      at: "2026-03-02T09:01:00Z",
      note_id: "N-02",
    });
    expect(objectResult(first).note).toMatchObject({ note_id: "N-01" });
    expect((await state()).orders?.["ORD-0001"]?.notes).toHaveLength(2);
    // ORD-0002 has no notes array yet: the create makes it
    await call("add_order_note", { order_id: "ORD-0002", text: "Call first" });
    expect((await state()).orders?.["ORD-0002"]?.notes).toEqual([
      { text: "Call first", at: "2026-03-02T09:02:00Z", note_id: "N-01" },
    ]);

    const changed = await call("set_line_quantity", { order_id: "ORD-0001", line: 1, quantity: 3 });
    expect(objectResult(changed).line).toEqual({
      sku: "P-2",
      quantity: 3,
      unit_price: 30,
      line_total: 90,
    });
    expect(objectResult(changed).order).toMatchObject({ total: 115 });
    const outside = await call("set_line_quantity", { order_id: "ORD-0001", line: 7, quantity: 1 });
    expect(outside.failure).toMatchObject({ code: "LINE_NOT_FOUND", message: "No line 7 on ORD-0001." });
  });

  it("replaces a whole array with an expression, guarded by an expression on the subject", async () => {
    const removed = await call("remove_order_item", { order_id: "ORD-0001", sku: "P-1" });
    expect((await state()).orders?.["ORD-0001"]).toMatchObject({
      items: [{ sku: "P-2", quantity: 1, unit_price: 30, line_total: 30 }],
      total: 30,
    });
    expect(objectResult(removed).order).toMatchObject({ total: 30 });
    const last = await call("remove_order_item", { order_id: "ORD-0001", sku: "P-2" });
    expect(last.status).toBe("ok");
    expect((await state()).orders?.["ORD-0001"]).toMatchObject({ items: [], total: 0 });
    const absent = await call("remove_order_item", { order_id: "ORD-0001", sku: "P-2" });
    expect(absent.failure).toMatchObject({ code: "ITEM_NOT_IN_ORDER", message: "P-2 is not on ORD-0001." });
  });

  it("guards on dotted paths through arrays", async () => {
    expect((await call("ship_order", { order_id: "ORD-0001" })).status).toBe("ok");
    const empty = await call("ship_order", { order_id: "ORD-0002" });
    expect(empty.failure?.code).toBe("EMPTY_ORDER");
  });

  it("check guards the arguments alone, before anything changes", async () => {
    const same = await call("transfer_credit", { from_customer: "CUST-2", to_customer: "CUST-2", amount: 5 });
    expect(same.failure).toMatchObject({ code: "SAME_CUSTOMER", status: 400 });
    const moved = await call("transfer_credit", {
      from_customer: "CUST-2",
      to_customer: "CUST-1",
      amount: 5,
    });
    expect(objectResult(moved)).toMatchObject({ from: { credit: 15 }, to: { credit: 5 } });
  });

  it("lists with an expression filter, and answers missing when nothing matches", async () => {
    const cheap = await call("search_products", { category: "kitchen", max_price: 20 });
    expect((objectResult(cheap).products as Array<{ sku: string }>).map((p) => p.sku)).toEqual(["P-1"]);
    const all = await call("search_products", { category: "kitchen" });
    expect(objectResult(all).products).toHaveLength(2);
    const none = await call("search_products", { category: "garden" });
    expect(none.failure).toMatchObject({ code: "NO_MATCH", status: 404 });
  });

  it("let binds a computed value for later effects, and respond merges an object into the result", async () => {
    const quote = await call("quote_order", { items: [{ sku: "P-1", quantity: 3 }] });
    expect(quote.result).toMatchObject({ subtotal: 37.5, tax: 3, total: 40.5 });
  });

  it("respond answers a value that is not an object as the whole result", async () => {
    const total = await call("get_order_total", { order_id: "ORD-0001" });
    expect(total).toMatchObject({ status: "ok", result: 55 });
    const ids = await call("list_order_ids", { customer_id: "CUST-1" });
    expect(ids.result).toEqual(["ORD-0001"]);
    expect((await call("list_order_ids", { customer_id: "CUST-9" })).result).toEqual([]);
    const sum = await call("calculate", { expression: "(2 + 3) * 4" });
    expect(sum.result).toBe(20);
  });

  it("a computation that refuses the call's values answers the tool's only client error", async () => {
    const bad = await call("calculate", { expression: "2 +* 3" });
    expect(bad).toMatchObject({ status: "error", failure: { code: "INVALID_EXPRESSION", status: 400 } });
    expect(bad.failure?.message).toMatch(/^The expression cannot be evaluated\. \(.+\)$/);
  });

  it("an expression that fails at run time is EFFECT_FAILED, names the effect, and applies nothing", async () => {
    const before = JSON.stringify(state());
    const broken = await call("audit_stock", {});
    expect(broken.status).toBe("error");
    expect(broken.failure?.code).toBe("EFFECT_FAILED");
    expect(broken.failure?.status).toBe(500);
    expect(broken.failure?.message).toMatch(
      /^toolsim cannot answer audit_stock: effect 1 \(respond\) cannot run: the expression in value failed: .+ The catalog needs fixing \(toolsim lint\)/,
    );
    expect(JSON.stringify(state())).toBe(before);
    expect(broken.versionAfter).toBe(broken.versionBefore);
  });

  it("an expression that never ends is stopped within its budget", async () => {
    const started = performance.now();
    const stopped = await call("count_forever", {});
    expect(stopped.failure?.code).toBe("EFFECT_FAILED");
    expect(stopped.failure?.message).toMatch(/was stopped: it nested deeper than/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
