import { describe, expect, it } from "vitest";
import { conformTracked } from "../src/simulate/conform.js";
import { call, failure, inferred, text, tool, world } from "./support/infer-world.js";

/**
 * What a description spells out that a catalog may not: the error codes it names with their
 * conditions, the fields of its answer, and a record's part named after the record in a tool's
 * name (`add_team_member(name, username)`), with the errors of a value not there or the last one.
 */

describe("error codes a description names", () => {
  const boards = () => ({
    boards: {
      B1: { board_id: "B1", title: "Roadmap", archived: false },
      B2: { board_id: "B2", title: "Old", archived: true },
    },
  });
  const archive = tool(
    "archive_board",
    "Archives a board. Fails with BOARD_NOT_FOUND if no board has that id, or BOARD_ARCHIVED if it is already archived.",
    { board_id: text },
  );

  it("become documented errors with the sentence's condition", () => {
    const { tool: inferredTool } = inferred(world(boards(), [archive]), "archive_board");
    const byCode = new Map(inferredTool.errors.map((e) => [e.code, e]));
    expect(byCode.get("BOARD_NOT_FOUND")).toMatchObject({ status: 404, when: "no board has that id" });
    expect(byCode.get("BOARD_ARCHIVED")?.when).toBe("it is already archived");
    expect(inferredTool.inferred?.added).toEqual(
      expect.arrayContaining(["BOARD_NOT_FOUND", "BOARD_ARCHIVED"]),
    );
  });

  it("answer the calls they describe", async () => {
    const unknown = await call(world(boards(), [archive]), "archive_board", { board_id: "B9" });
    expect(failure(unknown.outcome)).toBe("BOARD_NOT_FOUND");
  });

  it("are not read from sentences that do not speak of failing", () => {
    const plain = tool(
      "get_board",
      "Returns the board; its layout follows the ISO_8601 dates of its cards.",
      {
        board_id: text,
      },
    );
    const { tool: inferredTool } = inferred(world(boards(), [plain]), "get_board");
    expect(inferredTool.errors.map((e) => e.code)).not.toContain("ISO_8601");
  });
});

describe("a record's part named after it in the tool's name", () => {
  const teams = () => ({
    teams: {
      design: { lead: "ana", members: ["ana", "bo"] },
      ops: { lead: "cy", members: ["cy"] },
    },
  });
  const add = tool(
    "add_team_member",
    "Adds a user to a team's members. Errors: TEAM_NOT_FOUND; ALREADY_MEMBER if the user is already listed.",
    { name: text, username: text },
  );
  const remove = tool(
    "remove_team_member",
    "Removes a user from a team. Errors: NOT_A_MEMBER if the user is not listed; LAST_MEMBER if the user is the only member.",
    { name: text, username: text },
  );
  const get = tool("get_team", "Returns one team by name.", { name: text });

  it("takes the first argument as the record's key and adds to its list once", async () => {
    const added = await call(world(teams(), [add, get]), "add_team_member", {
      name: "design",
      username: "di",
    });
    expect((added.after.teams as Record<string, { members: string[] }>).design?.members).toEqual([
      "ana",
      "bo",
      "di",
    ]);
    const again = await call(world(teams(), [add, get]), "add_team_member", {
      name: "design",
      username: "bo",
    });
    expect(failure(again.outcome)).toBe("ALREADY_MEMBER");
  });

  it("refuses to remove a value not there, or the last one", async () => {
    const absent = await call(world(teams(), [remove, get]), "remove_team_member", {
      name: "design",
      username: "zed",
    });
    expect(failure(absent.outcome)).toBe("NOT_A_MEMBER");
    const last = await call(world(teams(), [remove, get]), "remove_team_member", {
      name: "ops",
      username: "cy",
    });
    expect(failure(last.outcome)).toBe("LAST_MEMBER");
    const removed = await call(world(teams(), [remove, get]), "remove_team_member", {
      name: "design",
      username: "bo",
    });
    expect((removed.after.teams as Record<string, { members: string[] }>).design?.members).toEqual(["ana"]);
  });
});

describe("the answer a description spells out", () => {
  const shelves = () => ({
    shelves: { S1: { shelf_id: "S1", label: "Fiction", books: { b1: { title: "Emma" } }, open: true } },
  });
  const summary = tool(
    "get_shelf_summary",
    'Summarises a shelf. Returns {"shelf_id", "label", "book_count": <number of books on it>, "checked": true}.',
    { shelf_id: text },
  );

  it("becomes the output schema: fields typed by the argument, the state, the words or the value given", () => {
    const { tool: inferredTool, report } = inferred(world(shelves(), [summary]), "get_shelf_summary");
    expect(inferredTool.outputSchema).toEqual({
      type: "object",
      properties: {
        shelf_id: { type: "string" },
        label: { type: "string" },
        book_count: { type: "integer", description: "number of books on it" },
        checked: { type: "boolean", const: true },
      },
      required: ["shelf_id", "label", "book_count", "checked"],
    });
    // a count the state does not keep is synthesized, and said to be
    expect(report.verdict).toBe("partly");
    expect(report.guessed).toContain("book_count");
  });

  it("is left alone where the catalog gives an output schema or the words are not an object", () => {
    const schemaGiven = { ...summary, outputSchema: { type: "object", properties: { label: text } } };
    expect(inferred(world(shelves(), [schemaGiven]), "get_shelf_summary").tool.outputSchema).toEqual({
      type: "object",
      properties: { label: text },
    });
    const words = tool("get_shelf", "Returns the shelf with its label.", { shelf_id: text });
    expect(inferred(world(shelves(), [words]), "get_shelf").tool.outputSchema).toBeUndefined();
  });

  it("answers a map as its keys where a list of names is wanted", () => {
    const fitted = conformTracked(
      { type: "object", properties: { books: { type: "array", items: { type: "string" } } } },
      { books: { b1: { title: "Emma" }, b2: { title: "Kim" } } },
      () => undefined,
    );
    expect(fitted).toEqual({ value: { books: ["b1", "b2"] }, guessed: [] });
  });
});
