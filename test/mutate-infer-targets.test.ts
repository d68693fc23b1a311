import { describe, expect, it } from "vitest";
import { call, error, failure, inferred, text, tool, world } from "./support/infer-world.js";

/**
 * Where a record an argument names lives: a map keyed by it, an array told apart by a field,
 * or inside the records of another collection, whose key comes from an argument or from a
 * record read earlier that refers to the parent (a loan's member, for the member's cards).
 */

const library = world(
  {
    members: {
      m1: { member_id: "m1", name: "Ana", cards: { c1: { card_id: "c1", kind: "debit" } } },
      m2: { member_id: "m2", name: "Ben", cards: { c2: { card_id: "c2", kind: "credit" } } },
    },
    loans: {
      l1: { loan_id: "l1", member_id: "m1", amount: 5, card_id: "c1" },
      l2: { loan_id: "l2", member_id: "m2", amount: 7, card_id: "c2" },
    },
    desk: {
      boards: [
        { board_id: "b1", tasks: { t1: { task_id: "t1", title: "Sort" } } },
        { board_id: "b2", tasks: { t2: { task_id: "t2", title: "Shelve" } } },
      ],
    },
  },
  [
    tool(
      "update_loan",
      "Update a loan.",
      { loan_id: text, card_id: text, amount: { type: "number" } },
      undefined,
      [
        error("CARD_NOT_FOUND", "Card not found.", "No card has this id.", 404),
        error("LOAN_NOT_FOUND", "Loan not found.", "No loan has this id.", 404),
      ],
    ),
    tool("get_card", "Get a card.", { card_id: text }),
    // the card first: the parent comes from the argument that names a member, wherever it stands
    tool("get_member_card", "Get a member's card.", { card_id: text, member_id: text }),
    tool("get_board_task", "Get a task of a board.", { board_id: text, task_id: text }),
    tool("update_board_task", "Update a task of a board.", { board_id: text, task_id: text, title: text }),
  ],
);

describe("records inside other records", () => {
  it("reads a card inside the member an argument names", async () => {
    expect((await call(library, "get_member_card", { member_id: "m2", card_id: "c2" })).answer).toEqual({
      card_id: "c2",
      kind: "credit",
    });
    // the card exists, but under another member
    const elsewhere = await call(library, "get_member_card", { member_id: "m2", card_id: "c1" });
    expect(failure(elsewhere.outcome)).toBe("CARD_NOT_FOUND");
  });

  it("finds the parent of a card through the record read before it (the loan's member)", async () => {
    const own = await call(library, "update_loan", { loan_id: "l2", card_id: "c2", amount: 3 });
    expect(own.answer).toEqual({ loan_id: "l2", member_id: "m2", amount: 3, card_id: "c2" });
    const other = await call(library, "update_loan", { loan_id: "l2", card_id: "c1", amount: 3 });
    expect(failure(other.outcome)).toBe("CARD_NOT_FOUND");
    expect(own.report.notes).toContain("checks card_id exists (CARD_NOT_FOUND)");
  });

  it("finds a card by its own key wherever it is kept, when nothing names the parent", async () => {
    expect((await call(library, "get_card", { card_id: "c2" })).answer).toEqual({
      card_id: "c2",
      kind: "credit",
    });
    expect((await call(library, "get_card", { card_id: "c1" })).answer).toEqual({
      card_id: "c1",
      kind: "debit",
    });
    // nowhere: the not-found error, not a made-up card
    expect(failure((await call(library, "get_card", { card_id: "c9" })).outcome)).toBe("CARD_NOT_FOUND");
    const { tool: found } = inferred(library, "get_card");
    expect(found.effects[0]).toMatchObject({ kind: "let" });
  });

  it("reaches a record inside an element of an array by the element's key field", async () => {
    const read = await call(library, "get_board_task", { board_id: "b2", task_id: "t2" });
    expect(read.answer).toEqual({ task_id: "t2", title: "Shelve" });
    expect(failure((await call(library, "get_board_task", { board_id: "b1", task_id: "t2" })).outcome)).toBe(
      "TASK_NOT_FOUND",
    );
    const { after } = await call(library, "update_board_task", {
      board_id: "b2",
      task_id: "t2",
      title: "Dust",
    });
    const boards = (after.desk as { boards: Array<{ tasks: Record<string, { title: string }> }> }).boards;
    expect(boards.map((b) => Object.values(b.tasks).map((t) => t.title))).toEqual([["Sort"], ["Dust"]]);
  });
});
