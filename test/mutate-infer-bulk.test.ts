import { describe, expect, it } from "vitest";
import { call, failure, inferred, outputs as out, text, tool, world } from "./support/infer-world.js";

/**
 * Tools that act on many records of a map in one call: a create given an array of records,
 * additions to the lists of several records, a delete given keys or the records themselves,
 * and reads that answer whole collections, the records a list of keys names (with the links
 * among them), or the records any of whose values contain a text.
 */

const strings = { type: "array", items: text };
const objects = (properties: Record<string, unknown>) => ({
  type: "array",
  items: { type: "object", properties },
});
const recipe = { name: text, steps: strings, tags: strings };

const box = world(
  {
    box: {
      recipes: {
        pancakes: { name: "pancakes", steps: ["mix", "fry"], tags: ["sweet"] },
        soup: { name: "soup", steps: ["boil"], tags: [] },
        salad: { name: "salad", steps: ["chop"], tags: ["green", "Quick"] },
      },
      pairings: {
        pr1: { pairing_id: "pr1", first: "pancakes", next: "soup" },
        pr2: { pairing_id: "pr2", first: "soup", next: "salad" },
        pr3: { pairing_id: "pr3", first: "salad", next: "salad" },
      },
    },
  },
  [
    tool(
      "create_recipes",
      "Add recipes to the box.",
      { recipes: objects(recipe) },
      undefined,
      [],
      out({ recipes: objects(recipe) }),
    ),
    tool("create_pairings", "Add pairings.", { pairings: objects({ first: text, next: text }) }),
    tool(
      "add_recipes",
      "Add recipes.",
      { recipes: objects(recipe), source: text },
      ["recipes"],
      [],
      out({ made: objects(recipe) }),
    ),
    tool(
      "register_recipes",
      "Register recipes.",
      { recipes: objects(recipe) },
      undefined,
      [],
      out({ skipped: objects(recipe), recipes: objects(recipe) }),
    ),
    tool("create_pairings_loosely", "Add pairings of any shape.", {
      pairings: { type: "array", items: { type: "object" } },
    }),
    tool("tag_recipes", "Tag recipes.", { tags: objects({ recipe_name: text, labels: strings }) }),
    tool(
      "append_steps",
      "Append steps to recipes.",
      { steps: objects({ recipe_name: text, more: strings }) },
      undefined,
      [],
      out({ added: objects({ more: strings }) }),
    ),
    tool(
      "browse_box",
      "Browse the box.",
      { keyword: text },
      undefined,
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
    tool("create_recipes_on_shelf", "Add recipes to a shelf.", { recipes: objects(recipe), shelf: text }),
    tool("create_recipes_by_name", "Add recipes by name.", { recipes: strings }),
    tool("add_steps_for_cook", "Add steps for a cook.", {
      steps: objects({ recipe_name: text, more: strings }),
      cook: text,
    }),
    tool("delete_recipes_for", "Remove recipes for a reason.", { recipe_names: strings, reason: text }),
    tool(
      "create_recipes_twice",
      "Add recipes.",
      { recipes: objects(recipe) },
      undefined,
      [],
      out({ made: objects(recipe), skipped: objects(recipe) }),
    ),
    tool(
      "add_steps_noted",
      "Add steps to recipes.",
      { steps: objects({ recipe_name: text, more: strings }) },
      undefined,
      [],
      out({ added: objects({ recipe_name: text, more: strings, notes: strings }) }),
    ),
    tool(
      "read_box_counted",
      "The whole box.",
      {},
      [],
      [],
      out({ recipes: objects(recipe), pairings: objects({}), total: { type: "integer" } }),
    ),
    tool(
      "search_box_in",
      "Search a part of the box.",
      { query: text, scope: text },
      undefined,
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
    tool(
      "search_box_paged",
      "Search the box.",
      { query: text, limit: { type: "integer" } },
      ["query"],
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
    tool(
      "get_box",
      "The box, by label.",
      { label: text },
      undefined,
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
    tool(
      "find_box",
      "Find in the box.",
      { limit: { type: "integer" } },
      undefined,
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
    tool(
      "find_in_box",
      "Find in the box.",
      { phrase: text },
      undefined,
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
    tool(
      "add_steps",
      "Add steps to recipes.",
      { steps: objects({ recipe_name: text, more: strings }) },
      undefined,
      [],
      out({ added: objects({ recipe_name: text, more: strings }) }),
    ),
    tool("delete_recipes", "Remove recipes by name.", { recipe_names: strings }),
    tool("remove_pairings", "Remove pairings given whole.", { pairings: objects({ pairing_id: text }) }),
    tool("delete_by_names", "Remove records by name.", { names: strings }),
    tool("delete_by_ids", "Remove records by id.", { ids: strings }),
    tool("read_box", "The whole box.", {}, [], [], out({ recipes: objects(recipe), pairings: objects({}) })),
    tool(
      "open_recipes",
      "Recipes by name, with the pairings among them.",
      { recipe_names: strings },
      undefined,
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
    tool(
      "search_box",
      "Search the box.",
      { query: text },
      undefined,
      [],
      out({ recipes: objects(recipe), pairings: objects({}) }),
    ),
  ],
);

const recipesOf = (state: Record<string, unknown>) =>
  (state.box as { recipes: Record<string, unknown> }).recipes;
const pairingsOf = (state: Record<string, unknown>) =>
  (state.box as { pairings: Record<string, unknown> }).pairings;

describe("creating many records", () => {
  it("adds those not there yet under their key, and answers the ones added", async () => {
    const made = await call(box, "create_recipes", {
      recipes: [
        { name: "toast", steps: ["slice"], tags: [] },
        { name: "soup", steps: ["stir"], tags: ["new"] },
      ],
    });
    expect(Object.keys(recipesOf(made.after))).toEqual(["pancakes", "soup", "salad", "toast"]);
    expect(recipesOf(made.after).soup).toEqual({ name: "soup", steps: ["boil"], tags: [] });
    expect(made.answer).toEqual({ recipes: [{ name: "toast", steps: ["slice"], tags: [] }] });
    expect(made.report.notes).toContain(
      "adds each of recipes to box/recipes under its name, skipping those already there, answering the ones added as recipes",
    );
  });

  it("keys records that do not carry the key field by their content", async () => {
    const made = await call(box, "create_pairings", { pairings: [{ first: "toast", next: "soup" }] });
    expect(pairingsOf(made.after)).toMatchObject({
      '{"first":"toast","next":"soup"}': { first: "toast", next: "soup" },
    });
    expect(made.report.notes).toContain(
      "adds each of pairings to box/pairings under its content, skipping those already there",
    );
  });
});

describe("a batch with fields its records share", () => {
  const library = world(
    {
      library: {
        books: {
          dune: { title: "dune", shelf: "A1", year: 1965 },
          emma: { title: "emma", shelf: "B2", year: 1815 },
        },
      },
    },
    [
      tool("add_books_to_shelf", "Add books, all on one shelf.", {
        books: objects({ title: text, year: text }),
        shelf: text,
      }),
    ],
  );

  it("files each new record with the shared field, and a shared argument no record keeps makes it no batch", async () => {
    const made = await call(library, "add_books_to_shelf", {
      books: [
        { title: "ulysses", year: 1922 },
        { title: "dune", year: 2021 },
      ],
      shelf: "C3",
    });
    const books = (made.after.library as { books: Record<string, unknown> }).books;
    expect(books.ulysses).toEqual({ title: "ulysses", year: 1922, shelf: "C3" });
    expect(books.dune).toEqual({ title: "dune", shelf: "A1", year: 1965 });
    const odd = world(library.state, [
      tool("add_books_to_shelf", "Add books.", { books: objects({ title: text }), colour: text }),
    ]);
    expect(inferred(odd, "add_books_to_shelf").report.notes.join(" ")).not.toMatch(/adds each of books/);
  });
});

describe("adding to the lists of many records", () => {
  it("adds each element's values to the record it names, skipping those there, and says what each gained", async () => {
    const added = await call(box, "add_steps", {
      steps: [
        { recipe_name: "soup", more: ["boil", "salt"] },
        { recipe_name: "salad", more: ["dress"] },
      ],
    });
    expect(recipesOf(added.after)).toMatchObject({
      soup: { name: "soup", steps: ["boil", "salt"], tags: [] },
      salad: { steps: ["chop", "dress"], tags: ["green", "Quick"] },
      pancakes: { steps: ["mix", "fry"] },
    });
    expect(added.answer).toEqual({
      added: [
        { recipe_name: "soup", more: ["salt"] },
        { recipe_name: "salad", more: ["dress"] },
      ],
    });
    expect(added.report.notes).toContain(
      "adds each element's more to the steps of the recipes record its recipe_name names, skipping values there already",
    );
  });

  it("refuses the whole call when one record does not exist", async () => {
    const refused = await call(box, "add_steps", {
      steps: [
        { recipe_name: "soup", more: ["salt"] },
        { recipe_name: "stew", more: ["simmer"] },
      ],
    });
    expect(failure(refused.outcome)).toBe("RECIPE_NOT_FOUND");
    expect(refused.after).toEqual(box.state);
  });
});

describe("deleting many records", () => {
  it("removes the records a list of keys names, and ignores keys of none", async () => {
    const removed = await call(box, "delete_recipes", { recipe_names: ["soup", "stew"] });
    expect(Object.keys(recipesOf(removed.after))).toEqual(["pancakes", "salad"]);
    expect(removed.report.notes).toContain("removes from box/recipes each record recipe_names names");
  });

  it("removes records given whole, by their key", async () => {
    const removed = await call(box, "remove_pairings", { pairings: [{ pairing_id: "pr2" }] });
    expect(Object.keys(pairingsOf(removed.after))).toEqual(["pr1", "pr3"]);
  });

  it("takes plain names for the map keyed by name, and plain ids for the other", async () => {
    const byName = await call(box, "delete_by_names", { names: ["salad"] });
    expect(Object.keys(recipesOf(byName.after))).toEqual(["pancakes", "soup"]);
    const byId = await call(box, "delete_by_ids", { ids: ["pr1"] });
    expect(Object.keys(pairingsOf(byId.after))).toEqual(["pr2", "pr3"]);
    expect(Object.keys(recipesOf(byId.after))).toHaveLength(3);
  });

  it("removes the records of a list that its key field names, keeping the others in order", async () => {
    const kennel = world(
      {
        dogs: [
          { dog_id: "d1", name: "Rex" },
          { dog_id: "d2", name: "Tom" },
          { dog_id: "d3", name: "Kit" },
        ],
        vets: { v1: { vet_id: "v1", name: "Al" } },
      },
      [tool("delete_dogs", "Delete several dogs.", { dog_ids: strings })],
    );
    const removed = await call(kennel, "delete_dogs", { dog_ids: ["d3", "d1", "d9"] });
    expect(removed.after).toEqual({ dogs: [{ dog_id: "d2", name: "Tom" }], vets: kennel.state.vets });
    expect(removed.report.notes).toContain("removes from dogs each record whose dog_id dog_ids names");
  });
});

describe("reading many records", () => {
  it("answers every collection", async () => {
    const read = await call(box, "read_box", {});
    expect(read.answer).toEqual({
      recipes: Object.values(recipesOf(box.state)),
      pairings: Object.values(pairingsOf(box.state)),
    });
    expect(read.report.notes).toEqual([
      "answers recipes from box/recipes",
      "answers pairings from box/pairings",
    ]);
  });

  it("answers the records named, and the links whose every end is among them", async () => {
    const opened = await call(box, "open_recipes", { recipe_names: ["soup", "salad"] });
    expect(opened.answer).toEqual({
      recipes: [recipesOf(box.state).soup, recipesOf(box.state).salad],
      pairings: [pairingsOf(box.state).pr2, pairingsOf(box.state).pr3],
    });
    expect(opened.report.notes).toContain(
      "answers pairings from box/pairings, each whose key is in recipe_names, or whose links are all to those",
    );
  });

  it("answers the records any of whose values contain the text, ignoring case", async () => {
    const found = await call(box, "search_box", { query: "quick" });
    expect(found.answer).toEqual({ recipes: [recipesOf(box.state).salad], pairings: [] });
    const both = await call(box, "search_box", { query: "SOUP" });
    expect(both.answer).toEqual({
      recipes: [recipesOf(box.state).soup],
      pairings: [pairingsOf(box.state).pr1, pairingsOf(box.state).pr2],
    });
    expect(found.report.notes).toContain(
      "answers recipes from box/recipes, each whose one of its values contains query, ignoring case",
    );
  });
});

describe("what a batch answers, and which argument", () => {
  it("answers the ones added under the only array output, or the one named for the collection", async () => {
    const toast = { name: "toast", steps: ["slice"], tags: [] };
    const added = await call(box, "add_recipes", { recipes: [toast] });
    expect(added.answer).toEqual({ made: [toast] });
    expect(Object.keys(recipesOf(added.after))).toContain("toast");
    expect((await call(box, "register_recipes", { recipes: [toast] })).answer).toEqual({ recipes: [toast] });
  });

  it("keys records by their content where the argument declares no fields", async () => {
    const made = await call(box, "create_pairings_loosely", { pairings: [{ first: "a" }] });
    expect(pairingsOf(made.after)).toMatchObject({ '{"first":"a"}': { first: "a" } });
  });

  it("adds to the list named like the argument with a changing verb too", async () => {
    const tagged = await call(box, "tag_recipes", {
      tags: [{ recipe_name: "soup", labels: ["hot", "easy"] }],
    });
    expect(recipesOf(tagged.after)).toMatchObject({ soup: { tags: ["hot", "easy"], steps: ["boil"] } });
  });

  it("answers nothing of its own where no output carries the key and one list", async () => {
    const appended = await call(box, "append_steps", { steps: [{ recipe_name: "soup", more: ["salt"] }] });
    expect(recipesOf(appended.after)).toMatchObject({ soup: { steps: ["boil", "salt"] } });
    expect(appended.tool.effects.map((e) => e.kind)).toEqual(["read", "update"]);
  });

  it("searches by the name of the argument, or by the verb", async () => {
    expect((await call(box, "browse_box", { keyword: "chop" })).answer).toEqual({
      recipes: [recipesOf(box.state).salad],
      pairings: [],
    });
    expect((await call(box, "find_in_box", { phrase: "pancakes" })).answer).toEqual({
      recipes: [recipesOf(box.state).pancakes],
      pairings: [pairingsOf(box.state).pr1],
    });
  });
});

describe("maps at the top of the state", () => {
  const top = world({ recipes: recipesOf(box.state), pairings: pairingsOf(box.state) }, [
    tool("create_recipes", "Add recipes.", { recipes: objects(recipe) }),
    tool("delete_recipes", "Remove recipes by name.", { recipe_names: strings }),
    tool("add_steps", "Add steps.", { steps: objects({ recipe_name: text, more: strings }) }),
  ]);

  it("adds, removes and extends records of a map the state holds at its top", async () => {
    const made = await call(top, "create_recipes", { recipes: [{ name: "toast", steps: [], tags: [] }] });
    expect(Object.keys(made.after.recipes as object).sort()).toEqual(["pancakes", "salad", "soup", "toast"]);
    const removed = await call(top, "delete_recipes", { recipe_names: ["soup"] });
    expect(Object.keys(removed.after.recipes as object).sort()).toEqual(["pancakes", "salad"]);
    const extended = await call(top, "add_steps", { steps: [{ recipe_name: "salad", more: ["toss"] }] });
    expect(extended.after.recipes).toMatchObject({ salad: { steps: ["chop", "toss"] } });
  });
});

describe("what is no batch", () => {
  it("takes no batch where another argument is required, or the elements are no records", () => {
    for (const name of ["create_recipes_on_shelf", "create_recipes_by_name"])
      expect(inferred(box, name).report.notes.join(" ")).not.toContain("adds each of");
    expect(inferred(box, "add_steps_for_cook").tool.effects).toEqual([]);
    expect(inferred(box, "delete_recipes_for").tool.effects).toEqual([]);
  });

  it("answers nothing it cannot tell: two arrays not named for the collection, elements with two lists", () => {
    expect(inferred(box, "create_recipes_twice").tool.effects.map((e) => e.kind)).toEqual(["read", "update"]);
    expect(inferred(box, "add_steps_noted").tool.effects.map((e) => e.kind)).toEqual(["read", "update"]);
    const created = inferred(box, "create_pairings").report;
    expect([created.verdict, created.gaps]).toEqual(["inferred", []]);
    expect(inferred(box, "append_steps").report.gaps).toEqual(["guessed (synthesized): added"]);
  });

  it("reads every collection beside an output that is no array", async () => {
    const read = await call(box, "read_box_counted", {});
    expect(read.answer).toMatchObject({
      recipes: Object.values(recipesOf(box.state)),
      pairings: Object.values(pairingsOf(box.state)),
    });
  });

  it("searches only by one required text, named for a search or asked by a search verb", async () => {
    const paged = await call(box, "search_box_paged", { query: "soup" });
    expect(paged.answer).toEqual({
      recipes: [recipesOf(box.state).soup],
      pairings: [pairingsOf(box.state).pr1, pairingsOf(box.state).pr2],
    });
    for (const name of ["search_box_in", "get_box", "find_box"])
      expect(inferred(box, name).report.notes.join(" ")).not.toContain("contains");
  });
});

describe("collections named in more than one word", () => {
  const planner = world(
    {
      planner: {
        meal_plans: {
          mp1: { meal_plan_id: "mp1", days: ["mon"], budget: 40 },
          mp2: { meal_plan_id: "mp2", days: [], budget: 25 },
        },
        shops: { s1: { shop_id: "s1", city: "Oslo" } },
      },
    },
    [
      tool("add_days", "Add days to meal plans.", { days: objects({ meal_plan_id: text, more: strings }) }),
      tool("delete_meal_plans", "Remove meal plans.", { meal_plan_ids: strings }),
      tool("delete_by_ids", "Remove records by id.", { ids: strings }),
    ],
  );

  it("matches the key of each element and the keys of a delete to the collection's words", async () => {
    const added = await call(planner, "add_days", { days: [{ meal_plan_id: "mp2", more: ["tue"] }] });
    expect(added.after.planner).toMatchObject({ meal_plans: { mp2: { days: ["tue"], budget: 25 } } });
    const removed = await call(planner, "delete_meal_plans", { meal_plan_ids: ["mp1"] });
    expect(Object.keys((removed.after.planner as { meal_plans: object }).meal_plans)).toEqual(["mp2"]);
  });

  it("does not guess which of two maps keyed by id plain ids name", () => {
    expect(inferred(planner, "delete_by_ids").report.notes.join(" ")).not.toContain("removes from");
  });
});
