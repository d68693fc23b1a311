import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { objectResult, openRuntime } from "./support/index.js";

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
