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
