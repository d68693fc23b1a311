import { describe, expect, it } from "vitest";
import { call, failure, text, tool, world } from "./support/infer-world.js";

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
const out = (properties: Record<string, unknown>) => ({ outputSchema: { type: "object", properties } });
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
