import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type Answer,
  DOMAINS,
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";
import { runCli } from "./support/index.js";

/**
 * The catalogs of test/fixtures/domains are what the world model is held to: small APIs of
 * many domains and state shapes, written as their users would write them, with no effects.
 * Each domain's behaviour over MCP is tested in infer-domains-<domain>.test.ts; here, the
 * catalogs themselves, and a REST-like API that comes with no state at all.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const CATALOGS = readdirSync(DOMAINS).filter((name) => name.endsWith(".json"));

describe("the domain catalogs", () => {
  it("are at least eight domains and three APIs without a state", () => {
    expect(CATALOGS.length).toBeGreaterThanOrEqual(9);
    const stateless = CATALOGS.filter(
      (name) => !("state" in JSON.parse(readFileSync(join(DOMAINS, name), "utf8"))),
    );
    expect(stateless).toEqual(["drive.json", "recipes.json", "workspace.json"]);
  });

  it("declare no effects: every effect is the inference's to make", () => {
    for (const name of CATALOGS) {
      const toolset = JSON.parse(readFileSync(join(DOMAINS, name), "utf8")) as {
        tools: Array<{ name: string; effects?: unknown; inferred?: unknown }>;
      };
      for (const tool of toolset.tools) {
        expect(tool.effects, `${name} ${tool.name}`).toBeUndefined();
        expect(tool.inferred, `${name} ${tool.name}`).toBeUndefined();
      }
    }
  });

  it("lint with no errors and no warnings", async () => {
    const lint = await runCli(["lint", ...CATALOGS.map((name) => join(DOMAINS, name))]);
    expect(lint.stdout + lint.stderr).not.toMatch(/^(error|warning)/m);
    expect(lint.code).toBe(0);
  });
});

const box = useDomain("recipes.json");

const SOUP = {
  title: "Carrot and ginger soup",
  servings: 4,
  ingredients: ["600 g carrots", "30 g ginger", "1 l stock"],
  tags: ["vegetarian"],
};
const BREAD = { title: "Soda bread", servings: 8, ingredients: ["500 g flour", "400 ml buttermilk"] };

const listed = async (args: Record<string, unknown> = {}) => fieldsOf(await box.call("listRecipes", args));
const idOf = (answer: Answer) => fieldsOf(answer).id as number;

describe("a REST-like API with no state: create, read, update, list and delete agree from the first call", () => {
  it("the empty world lists nothing, and reads, updates and deletes of any id are not found", async () => {
    const answer = await box.call("listRecipes");
    expect.soft(expectOk(answer)).toEqual({ items: [], total: 0 });
    expectGrounded(answer, ["items", "total"]);
    expectError(await box.call("getRecipe", { recipeId: 1 }), "NOT_FOUND");
    expectError(await box.call("updateRecipe", { recipeId: 1, servings: 2 }), "NOT_FOUND");
    expectError(await box.call("deleteRecipe", { recipeId: 1 }), "NOT_FOUND");
  });

  it("a created recipe answers its fields and an id, and reading that id answers the same recipe", async () => {
    const created = await box.call("createRecipe", SOUP);
    expectRecord(created, { ...SOUP, id: expect.any(Number) });
    expectGrounded(created, ["id", "title", "servings", "ingredients", "tags"]);
    const read = await box.call("getRecipe", { recipeId: idOf(created) });
    expectRecord(read, { ...SOUP, id: idOf(created) });
    expectGrounded(read, ["id", "title", "servings", "ingredients", "tags"]);
  });

  it("a created recipe is listed and counted", async () => {
    const id = idOf(await box.call("createRecipe", SOUP));
    const answer = await box.call("listRecipes");
    expect.soft(expectOk(answer)).toEqual({ items: [{ ...SOUP, id }], total: 1 });
    expectGrounded(answer, ["items", "total"]);
  });

  it("two creates get two ids, each reading its own recipe, listed in the order they were made", async () => {
    const soup = idOf(await box.call("createRecipe", SOUP));
    const bread = idOf(await box.call("createRecipe", BREAD));
    expect.soft(bread).not.toBe(soup);
    expect
      .soft(expectOk(await box.call("getRecipe", { recipeId: soup })))
      .toMatchObject({ title: SOUP.title });
    expect
      .soft(expectOk(await box.call("getRecipe", { recipeId: bread })))
      .toMatchObject({ title: BREAD.title });
    expect.soft(await listed()).toMatchObject({ items: [{ id: soup }, { id: bread }], total: 2 });
    expect.soft(await listed({ tag: "vegetarian" })).toMatchObject({ items: [{ id: soup }], total: 1 });
  });

  it("an update changes the fields given, keeps the others, and later reads and lists see it", async () => {
    const id = idOf(await box.call("createRecipe", SOUP));
    const updated = await box.call("updateRecipe", { recipeId: id, servings: 6 });
    expectRecord(updated, { ...SOUP, id, servings: 6 });
    expectGrounded(updated, ["id", "title", "servings", "ingredients", "tags"]);
    expect
      .soft(expectOk(await box.call("getRecipe", { recipeId: id })))
      .toEqual({ ...SOUP, id, servings: 6 });
    expect.soft(await listed()).toEqual({ items: [{ ...SOUP, id, servings: 6 }], total: 1 });
  });

  it("a deleted recipe is no longer read or listed, and deleting it again is not found", async () => {
    const soup = idOf(await box.call("createRecipe", SOUP));
    const bread = idOf(await box.call("createRecipe", BREAD));
    expectRecord(await box.call("deleteRecipe", { recipeId: soup }), { id: soup, deleted: true }, SOUP);
    expectError(await box.call("getRecipe", { recipeId: soup }), "NOT_FOUND");
    expect.soft(await listed()).toMatchObject({ items: [{ id: bread }], total: 1 });
    expectError(await box.call("deleteRecipe", { recipeId: soup }), "NOT_FOUND");
    expectError(await box.call("updateRecipe", { recipeId: soup, title: "Gone" }), "NOT_FOUND");
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(box.breaches).toEqual([]);
  });
});
