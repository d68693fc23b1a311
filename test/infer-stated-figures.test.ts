import { describe, expect, it } from "vitest";
import { call, error, failure, integer, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * Figures a description states in its own notation: a create filed under a code beside a name,
 * bounds written as comparisons, and a mean of the values that are there, rounded as it says.
 */

describe("a currency desk keyed by code", () => {
  const desk = () => ({
    currencies: {
      EUR: { name: "Euro", decimals: 2 },
      USD: { name: "US dollar", decimals: 2 },
      JPY: { name: "Yen", decimals: 0 },
    },
  });
  const add = tool(
    "desk_add_currency",
    "Lists a new currency by its code. Returns code, name and decimals. Errors in order: TAKEN if currencies already has that code; BAD_DECIMALS if decimals < 0 or decimals > 4.",
    { code: text, name: text, decimals: integer },
    ["code", "name", "decimals"],
    [
      error("TAKEN", "Code taken.", "currencies already has that code", 409),
      error("BAD_DECIMALS", "Bad decimals.", "decimals < 0 or decimals > 4"),
    ],
    outputs({ code: text, name: text, decimals: integer }),
  );

  it("files the new record under its code, not its name, refusing a code taken", async () => {
    const toolset = world(desk(), [add]);
    const made = await call(toolset, "desk_add_currency", { code: "CHF", name: "Swiss franc", decimals: 2 });
    expect((made.after.currencies as Record<string, unknown>).CHF).toMatchObject({ name: "Swiss franc" });
    expect(Object.keys(made.after.currencies as object)).not.toContain("Swiss franc");
    const taken = await call(toolset, "desk_add_currency", { code: "EUR", name: "Euro again", decimals: 2 });
    expect(failure(taken.outcome)).toBe("TAKEN");
  });

  it("refuses a number on the side a comparison names", async () => {
    const toolset = world(desk(), [add]);
    const refused = async (decimals: number) =>
      failure((await call(toolset, "desk_add_currency", { code: "GBP", name: "Pound", decimals })).outcome);
    expect(await refused(-1)).toBe("BAD_DECIMALS");
    expect(await refused(5)).toBe("BAD_DECIMALS");
    expect(
      failure(
        (await call(toolset, "desk_add_currency", { code: "GBP", name: "Pound", decimals: 4 })).outcome,
      ),
    ).toBe("not failed: applied");
  });
});

describe("a film log's summary", () => {
  it("answers the mean of the scores given, rounded half away from zero, and null with none", async () => {
    const films = (scores: Array<number | null>) => ({
      films: scores.map((score, i) => ({ id: i + 1, title: `Film ${i + 1}`, score })),
    });
    const summary = tool(
      "films_summary",
      "Summarises the log. Returns {count, average_score}: count = number of films; average_score = mean of the non-null scores, rounded to 1 decimal place (half away from zero); null if no film is scored.",
      {},
      [],
      [],
      outputs({ count: integer, average_score: { type: ["number", "null"] } }),
    );
    const some = await call(world(films([4, null, 3, 4]), [summary]), "films_summary", {});
    expect(some.answer).toMatchObject({ count: 4, average_score: 3.7 });
    const half = await call(world(films([2, 3, 3, 3]), [summary]), "films_summary", {});
    expect(half.answer).toMatchObject({ average_score: 2.8 });
    // the world is read from a log with scores; the call runs on one without any
    const none = await call(world(films([4, null]), [summary]), "films_summary", {}, films([null, null]));
    expect(none.answer).toMatchObject({ average_score: null });
  });
});

describe("a switch that keeps only the records its sentence describes", () => {
  it("lists only records with the values and nulls the sentence gives, when it is true", async () => {
    const crib = {
      tools: [
        { serial: "DR-7", kind: "drill", wear: "ok", borrower: "w-1" },
        { serial: "SA-1", kind: "sander", wear: "worn_out", borrower: null },
        { serial: "PL-3", kind: "planer", wear: "ok", borrower: null },
      ],
    };
    const list = tool(
      "crib_list_tools",
      'Lists tools {serial, kind, wear, borrower}. With free_only true, the list holds only tools whose borrower is null and whose wear is "ok". Returns tools.',
      { free_only: { type: "boolean" } },
      [],
      [],
      outputs({ tools: { type: "array", items: { type: "object" } } }),
    );
    const free = await call(world(crib, [list]), "crib_list_tools", { free_only: true });
    expect((free.answer as { tools: Array<{ serial: string }> }).tools.map((t) => t.serial)).toEqual([
      "PL-3",
    ]);
    const all = await call(world(crib, [list]), "crib_list_tools", {});
    expect((all.answer as { tools: unknown[] }).tools).toHaveLength(3);
  });
});

describe("conditions between two arguments, checked in the documented order", () => {
  it("refuses one argument while another is false or left out, after the checks the docs list first", async () => {
    const log = { next_film_id: 3, films: [{ id: 1, title: "Ran", score: 5, watched: true }] };
    const add = tool(
      "films_add",
      "Logs a film with id = next_film_id. Returns the film. Errors, checked in this order: SCORE_NEEDS_WATCHED if a score (not null) is given but watched is false or left out; BAD_SCORE if score is not between 1 and 5.",
      { title: text, score: { type: ["integer", "null"] }, watched: { type: "boolean" } },
      ["title"],
      [
        error("BAD_SCORE", "Bad score.", "score is not between 1 and 5"),
        error(
          "SCORE_NEEDS_WATCHED",
          "Watch it first.",
          "a score (not null) is given but watched is false or left out",
        ),
      ],
      outputs({
        id: integer,
        title: text,
        score: { type: ["integer", "null"] },
        watched: { type: "boolean" },
      }),
    );
    const toolset = world(log, [add]);
    const outcome = async (args: Record<string, unknown>) =>
      failure((await call(toolset, "films_add", args)).outcome);
    expect(await outcome({ title: "Ikiru", score: null })).toBe("not failed: applied");
    expect(await outcome({ title: "Ikiru", score: 4, watched: true })).toBe("not failed: applied");
    expect(await outcome({ title: "Ikiru", score: 4 })).toBe("SCORE_NEEDS_WATCHED");
    expect(await outcome({ title: "Ikiru", score: 4, watched: false })).toBe("SCORE_NEEDS_WATCHED");
    expect(await outcome({ title: "Ikiru", score: 9 })).toBe("SCORE_NEEDS_WATCHED");
    expect(await outcome({ title: "Ikiru", score: 9, watched: true })).toBe("BAD_SCORE");
  });
});
