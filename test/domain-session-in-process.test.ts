import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DomainSession, openDomain as overStdio } from "./support/domain-session.js";
import { openDomain as inProcess } from "./support/domain-session-in-process.js";

/**
 * Mutation runs put the in-process domain session in place of the stdio one
 * (vitest.mutate.config.ts). It must answer as `toolsim serve --stdio` does: the same calls on
 * the same catalog give the same answers, the same errors and the same guessed paths, and a
 * reset starts again from the catalog's state.
 */

const CALLS: Array<[string, Record<string, unknown>]> = [
  ["listRecipes", {}],
  ["getRecipe", { recipeId: 1 }],
  ["createRecipe", { title: "Soda bread", servings: 8, ingredients: ["500 g flour"] }],
  ["createRecipe", { title: "Pea soup", servings: 2, ingredients: ["peas"] }],
  ["updateRecipe", { recipeId: 1, servings: 4 }],
  ["getRecipe", { recipeId: 1 }],
  ["deleteRecipe", { recipeId: 2 }],
  ["listRecipes", {}],
  ["createRecipe", { servings: "many" }],
];

let stdio: DomainSession;
let local: DomainSession;
beforeAll(async () => {
  [stdio, local] = await Promise.all([overStdio("recipes.json"), inProcess("recipes.json")]);
});
afterAll(async () => {
  await Promise.all([stdio?.close(), local?.close()]);
});

describe("the in-process domain session", () => {
  it("answers a sequence of calls as the stdio server does, and a reset starts it again", async () => {
    for (const session of [stdio, local]) await session.reset();
    for (const round of [1, 2]) {
      const answers = [];
      for (const [name, args] of CALLS) {
        const [expected, actual] = [await stdio.call(name, args), await local.call(name, args)];
        expect(actual, `round ${round}: ${expected.call}`).toEqual(expected);
        answers.push(actual);
      }
      // the sequence means something: records made, changed, deleted, and errors where due
      expect(answers.map((a) => a.isError)).toEqual([
        false,
        true,
        false,
        false,
        false,
        false,
        false,
        false,
        true,
      ]);
      expect(answers[5]?.value).toMatchObject({ id: 1, servings: 4, title: "Soda bread" });
      for (const session of [stdio, local]) await session.reset();
    }
    expect(local.breaches).toEqual(stdio.breaches);
  });
});
