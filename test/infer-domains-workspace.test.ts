import { describe, expect, it } from "vitest";
import { expectGrounded, expectOk, useDomain } from "./support/domain-session.js";

/**
 * A batch API with no state: boards keyed by their name and cards told apart by what they
 * say, every write taking a list (as bulk endpoints do), reads of the whole workspace, of
 * boards by name, and a search over every value. Served without effects.
 */

const desk = useDomain("workspace.json");

const ROADMAP = { name: "Roadmap", owner: "Ines", columns: ["Later", "Next", "Now"] };
const HIRING = { name: "Hiring", owner: "Bo" };
const CARD = { board: "Roadmap", column: "Now", title: "Ship the export" };

const workspace = async () => expectOk(await desk.call("export_workspace"));

describe("workspace: records made, read and removed in batches", () => {
  it("a batch create answers what it made, and skips what is already there", async () => {
    const first = await desk.call("create_boards", { boards: [ROADMAP, HIRING] });
    expect.soft(expectOk(first)).toEqual({ boards: [ROADMAP, HIRING] });
    expectGrounded(first, ["boards"]);
    const again = await desk.call("create_boards", { boards: [ROADMAP, { name: "Ops", owner: "Kai" }] });
    expect.soft(expectOk(again)).toEqual({ boards: [{ name: "Ops", owner: "Kai" }] });
    // a map of records is read in the order of its keys
    expect.soft((await workspace()).boards).toEqual([HIRING, { name: "Ops", owner: "Kai" }, ROADMAP]);
  });

  it("the whole workspace answers every record of both collections, empty at first", async () => {
    expect.soft(await workspace()).toEqual({ boards: [], cards: [] });
    expectOk(await desk.call("create_boards", { boards: [ROADMAP] }));
    expectOk(await desk.call("create_cards", { cards: [CARD] }));
    const answer = await desk.call("export_workspace");
    expect.soft(expectOk(answer)).toEqual({ boards: [ROADMAP], cards: [CARD] });
    expectGrounded(answer, ["boards", "cards"]);
  });

  it("records without a key of their own are told apart by what they hold", async () => {
    expectOk(await desk.call("create_cards", { cards: [CARD] }));
    const twice = await desk.call("create_cards", { cards: [CARD, { ...CARD, title: "Fix the login" }] });
    expect.soft(expectOk(twice)).toEqual({ cards: [{ ...CARD, title: "Fix the login" }] });
    expectOk(await desk.call("delete_cards", { cards: [CARD] }));
    expect.soft((await workspace()).cards).toEqual([{ ...CARD, title: "Fix the login" }]);
  });

  it("boards are read by a list of names, unknown names left out", async () => {
    expectOk(await desk.call("create_boards", { boards: [ROADMAP, HIRING] }));
    const answer = await desk.call("get_boards", { names: ["Hiring", "Nowhere"] });
    expect.soft(expectOk(answer)).toEqual({ boards: [HIRING] });
    expectGrounded(answer, ["boards"]);
  });

  it("opening boards by name answers them and the cards that link only to them", async () => {
    expectOk(await desk.call("create_boards", { boards: [ROADMAP, HIRING] }));
    const hiring = { board: "Hiring", column: "Now", title: "Call the candidate" };
    expectOk(await desk.call("create_cards", { cards: [CARD, hiring] }));
    const answer = await desk.call("open_boards", { names: ["Roadmap"] });
    expect.soft(expectOk(answer)).toEqual({ boards: [ROADMAP], cards: [CARD] });
    expectGrounded(answer, ["boards", "cards"]);
  });

  it("a batch delete removes the boards it names and nothing else", async () => {
    expectOk(await desk.call("create_boards", { boards: [ROADMAP, HIRING] }));
    const answer = await desk.call("delete_boards", { board_names: ["Roadmap", "Nowhere"] });
    expect.soft(expectOk(answer)).toMatchObject({ success: true });
    expect.soft((await workspace()).boards).toEqual([HIRING]);
  });

  it("a search finds the records any of whose values contain the text, ignoring case", async () => {
    expectOk(await desk.call("create_boards", { boards: [ROADMAP, HIRING] }));
    expectOk(await desk.call("create_cards", { cards: [CARD] }));
    expect.soft(expectOk(await desk.call("search_workspace", { query: "ines" }))).toEqual({
      boards: [ROADMAP],
      cards: [],
    });
    expect.soft(expectOk(await desk.call("search_workspace", { query: "EXPORT" }))).toEqual({
      boards: [],
      cards: [CARD],
    });
  });

  it("columns are added to several boards at once, skipping titles a board has; an unknown board refuses all", async () => {
    expectOk(await desk.call("create_boards", { boards: [ROADMAP, HIRING] }));
    const added = await desk.call("add_columns", {
      columns: [
        { boardName: "Roadmap", titles: ["Now", "Done"] },
        { boardName: "Hiring", titles: ["Applied"] },
      ],
    });
    expect.soft(expectOk(added)).toEqual({
      results: [
        { boardName: "Roadmap", addedTitles: ["Done"] },
        { boardName: "Hiring", addedTitles: ["Applied"] },
      ],
    });
    expectGrounded(added, ["results"]);
    expect.soft((await workspace()).boards).toEqual([
      { ...HIRING, columns: ["Applied"] },
      { ...ROADMAP, columns: ["Later", "Next", "Now", "Done"] },
    ]);
    const refused = await desk.call("add_columns", {
      columns: [
        { boardName: "Roadmap", titles: ["Blocked"] },
        { boardName: "Nowhere", titles: ["x"] },
      ],
    });
    expect.soft(refused.isError).toBe(true);
    expect.soft((await workspace()).boards).toEqual([
      { ...HIRING, columns: ["Applied"] },
      { ...ROADMAP, columns: ["Later", "Next", "Now", "Done"] },
    ]);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(desk.breaches).toEqual([]);
  });
});
