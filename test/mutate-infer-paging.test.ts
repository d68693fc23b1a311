import { describe, expect, it } from "vitest";
import { call, integer, type State, text, tool, world } from "./support/infer-world.js";

/**
 * The order and page of a list (docs/inference.md): a sort field an argument names or the
 * description fixes ("newest first"), a direction, and a page cut by limit and offset or by
 * page and page size, as list endpoints of public APIs take them.
 */

/** A recipe box: recipes with ratings and the day each was added. */
const box = (): State => ({
  recipes: {
    r1: { recipe_id: "r1", title: "Soup", rating: 4, cuisine: "thai", added_at: "2026-02-01T00:00:00Z" },
    r2: { recipe_id: "r2", title: "Stew", rating: 5, cuisine: "irish", added_at: "2026-02-03T00:00:00Z" },
    r3: { recipe_id: "r3", title: "Salad", rating: 3, cuisine: "thai", added_at: "2026-02-02T00:00:00Z" },
    r4: { recipe_id: "r4", title: "Curry", rating: 5, cuisine: "thai", added_at: "2026-02-04T00:00:00Z" },
  },
});

const titles = async (made: unknown, args: Record<string, unknown>) => {
  const name = (made as { name: string }).name;
  const { answer } = await call(world(box(), [made]), name, args);
  return (answer as Array<{ title: string }>).map((r) => r.title);
};

describe("the page of a list", () => {
  const list = tool("list_recipes", "List recipes.", { cuisine: text, limit: integer, offset: integer }, []);

  it("cuts the matches to at most limit after offset, with no cut when neither is given", async () => {
    expect(await titles(list, {})).toEqual(["Soup", "Stew", "Salad", "Curry"]);
    expect(await titles(list, { limit: 2 })).toEqual(["Soup", "Stew"]);
    expect(await titles(list, { limit: 2, offset: 3 })).toEqual(["Curry"]);
    expect(await titles(list, { cuisine: "thai", offset: 1 })).toEqual(["Salad", "Curry"]);
    expect(await titles(list, { offset: 9 })).toEqual([]);
  });

  it("counts every match beside the page where the answer has a total", async () => {
    const counted = tool("list_recipes", "List recipes.", { limit: integer }, [], [], {
      outputSchema: {
        type: "object",
        properties: { recipes: { type: "array", items: { type: "object" } }, total_count: integer },
      },
    });
    const { answer } = await call(world(box(), [counted]), "list_recipes", { limit: 1 });
    expect(answer).toMatchObject({ total_count: 4, recipes: [{ title: "Soup" }] });
  });

  it("takes a numbered page of a page size, the first page first", async () => {
    const paged = tool("list_recipes", "List recipes.", { page: integer, per_page: integer }, []);
    expect(await titles(paged, { page: 2, per_page: 3 })).toEqual(["Curry"]);
    expect(await titles(paged, { per_page: 3 })).toEqual(["Soup", "Stew", "Salad"]);
  });
});

describe("the order of a list", () => {
  const sortable = tool(
    "list_recipes",
    "List recipes.",
    {
      sort_by: { type: "string", enum: ["rating", "added_at"] },
      order: { type: "string", enum: ["asc", "desc"] },
    },
    [],
  );

  it("sorts by the field an argument names, ascending unless told descending", async () => {
    expect(await titles(sortable, { sort_by: "added_at" })).toEqual(["Soup", "Salad", "Stew", "Curry"]);
    expect(await titles(sortable, { sort_by: "rating", order: "desc" })).toEqual([
      "Stew",
      "Curry",
      "Soup",
      "Salad",
    ]);
    expect(await titles(sortable, {})).toEqual(["Soup", "Stew", "Salad", "Curry"]);
  });

  it("keeps the order the description states when no argument chooses one", async () => {
    const newest = tool("list_recipes", "List recipes, newest first.", { limit: integer }, []);
    expect(await titles(newest, { limit: 2 })).toEqual(["Curry", "Stew"]);
    const oldest = tool("list_recipes", "List recipes, oldest first.", {}, []);
    expect(await titles(oldest, {})).toEqual(["Soup", "Salad", "Stew", "Curry"]);
  });

  it("says in the report how the list is ordered and cut", async () => {
    const { report } = await call(world(box(), [sortable]), "list_recipes", {});
    expect(report.notes).toContain("answers the matches in the order sort_by names");
    expect(report.verdict).toBe("inferred");
  });
});

describe("what the schema gives when an argument is left out", () => {
  it("takes the defaults of the limit, the sort field and the direction", async () => {
    const defaults = tool(
      "list_recipes",
      "List recipes.",
      {
        limit: { type: "integer", default: 2 },
        sort_by: { type: "string", default: "rating" },
        order: { type: "string", default: "desc" },
      },
      [],
    );
    expect(await titles(defaults, {})).toEqual(["Stew", "Curry"]);
    expect(await titles(defaults, { order: "asc" })).toEqual(["Salad", "Soup"]);
  });

  it("starts at the default offset, or the default page of the limit", async () => {
    const offset = tool(
      "list_recipes",
      "List recipes.",
      { limit: integer, offset: { type: "integer", default: 1 } },
      [],
    );
    expect(await titles(offset, { limit: 2 })).toEqual(["Stew", "Salad"]);
    const page = tool(
      "list_recipes",
      "List recipes.",
      { page: { type: "integer", default: 2 }, page_size: integer },
      [],
    );
    expect(await titles(page, { page_size: 3 })).toEqual(["Curry"]);
  });

  it("ignores a default that is no text and no number, as a schema's slip", async () => {
    for (const slip of [null, true]) {
      const unset = tool(
        "list_recipes",
        "List recipes.",
        { limit: { type: ["integer", "null"], default: slip } },
        [],
      );
      expect(await titles(unset, {}), String(slip)).toEqual(["Soup", "Stew", "Salad", "Curry"]);
    }
  });

  it("sorts ascending where no argument or sentence gives a direction", async () => {
    const sortOnly = tool("list_recipes", "List recipes.", { sort_by: text }, []);
    expect(await titles(sortOnly, { sort_by: "added_at" })).toEqual(["Soup", "Salad", "Stew", "Curry"]);
    // records without the field keep their place, after those with it
    expect(await titles(sortOnly, { sort_by: "cuisine" })).toEqual(["Stew", "Soup", "Salad", "Curry"]);
  });

  it("falls back on the order the description states for a sort field and a direction not given", async () => {
    const newest = tool("list_recipes", "List recipes, newest first.", { sort_by: text, order: text }, []);
    expect(await titles(newest, {})).toEqual(["Curry", "Stew", "Salad", "Soup"]);
    expect(await titles(newest, { sort_by: "rating" })).toEqual(["Stew", "Curry", "Soup", "Salad"]);
    expect(await titles(newest, { order: "ASC" })).toEqual(["Soup", "Salad", "Stew", "Curry"]);
  });
});

describe("arguments that only look like paging", () => {
  it("reads a text `start` as a bound on the records' time, not as an offset", async () => {
    const since = tool("list_recipes", "List recipes.", { start: text }, []);
    expect(await titles(since, { start: "2026-02-03" })).toEqual(["Stew", "Curry"]);
  });
});

/** A notebook whose entries keep their times under other names than the recipes' `added_at`. */
const notebook = (entry: (i: number) => Record<string, unknown>): State => ({
  entries: Object.fromEntries(
    [3, 1, 4, 2].map((n, i) => [`e${n}`, { entry_id: `e${n}`, title: `Entry ${n}`, ...entry(n), order: i }]),
  ),
});

const entryTitles = async (description: string, entry: (i: number) => Record<string, unknown>) => {
  const list = tool("list_entries", description, {}, []);
  const { answer, report } = await call(world(notebook(entry), [list]), "list_entries", {});
  return { titles: (answer as Array<{ title: string }>).map((r) => r.title), notes: report.notes };
};

describe("the time field a stated order sorts by", () => {
  it("is a field whose values are dates, whatever its name", async () => {
    const { titles: got, notes } = await entryTitles("List entries, most recent first.", (n) => ({
      filed_on: `2026-01-0${n}`,
      format: "pdf",
      attempts: n,
      summary: `Notes of 2026-05-0${5 - n}`,
    }));
    expect(got).toEqual(["Entry 4", "Entry 3", "Entry 2", "Entry 1"]);
    expect(notes).toContain("answers the matches by filed_on, newest first");
  });

  it("is a field named for a time, whatever its values", async () => {
    const { titles: got } = await entryTitles("List entries, latest first.", (n) => ({
      created_ms: 1_700_000 + n,
    }));
    expect(got).toEqual(["Entry 4", "Entry 3", "Entry 2", "Entry 1"]);
  });

  it("is, of several times, the one that says when the record was made", async () => {
    const { titles: got, notes } = await entryTitles("List entries, earliest first.", (n) => ({
      updated_at: `2026-03-0${5 - n}`,
      created_at: `2026-01-0${n}`,
    }));
    expect(got).toEqual(["Entry 1", "Entry 2", "Entry 3", "Entry 4"]);
    expect(notes).toContain("answers the matches by created_at, oldest first");
  });

  it("is none where several times say nothing of when the record was made", async () => {
    const { titles: got, notes } = await entryTitles("List entries, newest first.", (n) => ({
      starts_at: `2026-01-0${n}`,
      ends_at: `2026-02-0${n}`,
    }));
    // as the list answers them unordered (by key), not the newest first
    expect(got).toEqual(["Entry 1", "Entry 2", "Entry 3", "Entry 4"]);
    expect(notes.some((n) => n.startsWith("answers the matches"))).toBe(false);
  });
});

describe("the report's note on the order and the page", () => {
  const noteOf = async (made: unknown) => {
    const name = (made as { name: string }).name;
    const { report } = await call(world(box(), [made]), name, {});
    return report.notes.find((n) => n.startsWith("answers the matches"));
  };

  it("names the cut, the page and the stated order", async () => {
    expect(await noteOf(tool("list_recipes", "List recipes.", { limit: integer }, []))).toBe(
      "answers the matches, at most limit",
    );
    expect(await noteOf(tool("list_recipes", "List recipes.", { limit: integer, offset: integer }, []))).toBe(
      "answers the matches, at most limit after offset",
    );
    expect(
      await noteOf(tool("list_recipes", "List recipes.", { page: integer, per_page: integer }, [])),
    ).toBe("answers the matches, at most per_page of page page");
    expect(await noteOf(tool("list_recipes", "List recipes, newest first.", { limit: integer }, []))).toBe(
      "answers the matches by added_at, newest first, at most limit",
    );
    expect(await noteOf(tool("list_recipes", "List recipes, oldest first.", {}, []))).toBe(
      "answers the matches by added_at, oldest first",
    );
  });
});
