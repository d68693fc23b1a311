import { describe, expect, it } from "vitest";
import { bool, call, error, failure, integer, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * Trees of records addressed by slash paths: a help centre's categories (children kept by
 * name) and a handbook's pages (children kept in arrays, named by a slug).
 */

const helpCentre = () => ({
  brand: "Lumen Help",
  home: {
    title: "Help",
    hidden: false,
    children: {
      billing: {
        title: "Billing",
        hidden: false,
        children: { refunds: { title: "Refunds", hidden: false, children: {} } },
      },
      setup: { title: "Setup", hidden: true, children: {} },
    },
  },
});

const handbook = () => ({
  handbook: {
    title: "Handbook",
    pages: [
      { slug: "people", title: "People", pages: [{ slug: "onboarding", title: "Onboarding", pages: [] }] },
      { slug: "tools", title: "Tools", pages: [] },
    ],
  },
});

const strings = { type: "array", items: { type: "string" } };
const notFound = error("CATEGORY_NOT_FOUND", "No category at {path}.", "no category has that path", 404);
const rootLocked = error("ROOT_LOCKED", "The root cannot change.", "the path is the root");

describe("a tree of records kept by name, addressed by slash paths", () => {
  it("reads a node's fields, its path, its children's names and how many there are", async () => {
    const get = tool(
      "get_category",
      "One category by path (slugs joined with /, the root is empty). Answers path, title, hidden, child_names in alphabetical order and child_count.",
      { path: text },
      ["path"],
      [notFound],
      outputs({ path: text, title: text, hidden: bool, child_names: strings, child_count: integer }),
    );
    const read = await call(world(helpCentre(), [get]), "get_category", { path: "" });
    expect(read.answer).toEqual({
      path: "",
      title: "Help",
      hidden: false,
      child_names: ["billing", "setup"],
      child_count: 2,
    });
    const deep = await call(world(helpCentre(), [get]), "get_category", { path: "billing/refunds" });
    expect(deep.answer).toMatchObject({ title: "Refunds", child_names: [], child_count: 0 });
    const unknown = await call(world(helpCentre(), [get]), "get_category", { path: "billing/tax" });
    expect(failure(unknown.outcome)).toBe("CATEGORY_NOT_FOUND");
  });

  it("adds a node under a parent, with the flags the docs give it, and refuses a name taken", async () => {
    const add = tool(
      "add_category",
      "Adds a category under parent_path, named key, with the given title and hidden true until someone shows it. Answers path, title and hidden.",
      { parent_path: text, key: text, title: text },
      ["parent_path", "key", "title"],
      [notFound, error("KEY_TAKEN", "Taken.", "the parent already has a category with that key", 409)],
      outputs({ path: text, title: text, hidden: bool }),
    );
    const made = await call(world(helpCentre(), [add]), "add_category", {
      parent_path: "billing",
      key: "invoices",
      title: "Invoices",
    });
    expect(made.answer).toEqual({ path: "billing/invoices", title: "Invoices", hidden: true });
    expect(made.after).toMatchObject({
      home: {
        children: { billing: { children: { invoices: { title: "Invoices", hidden: true, children: {} } } } },
      },
    });
    const taken = await call(world(helpCentre(), [add]), "add_category", {
      parent_path: "billing",
      key: "refunds",
      title: "Again",
    });
    expect(failure(taken.outcome)).toBe("KEY_TAKEN");
    const orphan = await call(world(helpCentre(), [add]), "add_category", {
      parent_path: "legal",
      key: "terms",
      title: "Terms",
    });
    expect(failure(orphan.outcome)).toBe("CATEGORY_NOT_FOUND");
  });

  it("renames a node and flips its flag, the root excepted", async () => {
    const rename = tool(
      "rename_category",
      "Sets a category's title. Answers path and title.",
      { path: text, title: text },
      ["path", "title"],
      [notFound],
      outputs({ path: text, title: text }),
    );
    const renamed = await call(world(helpCentre(), [rename]), "rename_category", {
      path: "setup",
      title: "Getting started",
    });
    expect(renamed.answer).toEqual({ path: "setup", title: "Getting started" });
    expect(renamed.after).toMatchObject({ home: { children: { setup: { title: "Getting started" } } } });
    const toggle = tool(
      "toggle_hidden",
      "Shows a hidden category or hides a shown one. The root cannot be hidden (ROOT_LOCKED). Answers path and hidden.",
      { path: text },
      ["path"],
      [notFound, rootLocked],
      outputs({ path: text, hidden: bool }),
    );
    const shown = await call(world(helpCentre(), [toggle]), "toggle_hidden", { path: "setup" });
    expect(shown.answer).toEqual({ path: "setup", hidden: false });
    const root = await call(world(helpCentre(), [toggle]), "toggle_hidden", { path: "/" });
    expect(failure(root.outcome)).toBe("ROOT_LOCKED");
  });

  it("removes a childless node, or a subtree when asked, counting what went", async () => {
    const remove = tool(
      "delete_category",
      "Deletes a category. One with children is refused with HAS_CHILDREN unless recursive is true, which removes the whole subtree. Answers removed_count, the categories removed.",
      { path: text, recursive: bool },
      ["path"],
      [notFound, rootLocked, error("HAS_CHILDREN", "Has children.", "the category has children")],
      outputs({ removed_count: integer }),
    );
    const refused = await call(world(helpCentre(), [remove]), "delete_category", { path: "billing" });
    expect(failure(refused.outcome)).toBe("HAS_CHILDREN");
    const subtree = await call(world(helpCentre(), [remove]), "delete_category", {
      path: "billing",
      recursive: true,
    });
    expect(subtree.answer).toEqual({ removed_count: 2 });
    expect(Object.keys((subtree.after.home as { children: object }).children)).toEqual(["setup"]);
    const root = await call(world(helpCentre(), [remove]), "delete_category", { path: "", recursive: true });
    expect(failure(root.outcome)).toBe("ROOT_LOCKED");
  });

  it("moves a subtree under another parent, but never into itself", async () => {
    const move = tool(
      "move_category",
      "Moves a category with everything below it under new_parent_path. INVALID_MOVE when the new parent is the category itself or one of its descendants. Answers old_path and new_path.",
      { path: text, new_parent_path: text },
      ["path", "new_parent_path"],
      [notFound, rootLocked, error("INVALID_MOVE", "Invalid move.", "the new parent is inside the category")],
      outputs({ old_path: text, new_path: text }),
    );
    const moved = await call(world(helpCentre(), [move]), "move_category", {
      path: "billing/refunds",
      new_parent_path: "setup",
    });
    expect(moved.answer).toEqual({ old_path: "billing/refunds", new_path: "setup/refunds" });
    expect(moved.after).toMatchObject({
      home: {
        children: {
          billing: { children: {} },
          setup: { children: { refunds: { title: "Refunds", hidden: false, children: {} } } },
        },
      },
    });
    const inside = await call(world(helpCentre(), [move]), "move_category", {
      path: "billing",
      new_parent_path: "billing/refunds",
    });
    expect(failure(inside.outcome)).toBe("INVALID_MOVE");
  });
});

describe("a tree of records kept in arrays, named by a slug", () => {
  const missing = error("PAGE_NOT_FOUND", "No page at {path}.", "no page has that path", 404);

  it("lists a subtree's paths, each page before its children, in the style of the path given", async () => {
    const walk = tool(
      "list_pages",
      "Every page path below path, the page itself first, depth first. Answers paths and count.",
      { path: text },
      ["path"],
      [missing],
      outputs({ paths: strings, count: integer }),
    );
    const all = await call(world(handbook(), [walk]), "list_pages", { path: "/" });
    expect(all.answer).toEqual({ paths: ["/", "/people", "/people/onboarding", "/tools"], count: 4 });
    const people = await call(world(handbook(), [walk]), "list_pages", { path: "people" });
    expect(people.answer).toEqual({ paths: ["people", "people/onboarding"], count: 2 });
  });

  it("appends a new page to its parent's pages and refuses a slug its siblings have", async () => {
    const create = tool(
      "create_page",
      "Creates a page under parent_path with the given slug and title; it is appended as the last child. PAGE_EXISTS when a sibling has the slug. Answers path and title.",
      { parent_path: text, slug: text, title: text },
      ["parent_path", "slug", "title"],
      [missing, error("PAGE_EXISTS", "Exists.", "a sibling has that slug", 409)],
      outputs({ path: text, title: text }),
    );
    const made = await call(world(handbook(), [create]), "create_page", {
      parent_path: "/people",
      slug: "leave",
      title: "Leave",
    });
    expect(made.answer).toEqual({ path: "/people/leave", title: "Leave" });
    const people = (made.after.handbook as { pages: Array<{ pages: unknown[] }> }).pages[0];
    expect(people?.pages).toEqual([
      { slug: "onboarding", title: "Onboarding", pages: [] },
      { slug: "leave", title: "Leave", pages: [] },
    ]);
    const twice = await call(world(handbook(), [create]), "create_page", {
      parent_path: "/",
      slug: "tools",
      title: "More tools",
    });
    expect(failure(twice.outcome)).toBe("PAGE_EXISTS");
  });
});

describe("a tree of records whose nodes are named by an id, found at any depth", () => {
  const org = () => ({
    next_unit_id: 7,
    org: {
      id: "u1",
      name: "Company",
      head: "Ines",
      children: [
        {
          id: "u2",
          name: "Engineering",
          head: "Tariq",
          children: [{ id: "u4", name: "Platform", head: "Mo", children: [] }],
        },
        { id: "u3", name: "Sales", head: "Ana", children: [] },
      ],
    },
  });
  const unknown = error("UNIT_NOT_FOUND", "No unit {unit_id}.", "no unit has that id", 404);

  it("reads and changes the node an id names, however deep", async () => {
    const get = tool(
      "get_unit",
      "One unit by id: name and head.",
      { unit_id: text },
      ["unit_id"],
      [unknown],
      outputs({ name: text, head: text }),
    );
    const read = await call(world(org(), [get]), "get_unit", { unit_id: "u4" });
    expect(read.answer).toEqual({ name: "Platform", head: "Mo" });
    expect(failure((await call(world(org(), [get]), "get_unit", { unit_id: "u9" })).outcome)).toBe(
      "UNIT_NOT_FOUND",
    );
    const rename = tool(
      "rename_unit",
      "Sets a unit's name.",
      { unit_id: text, name: text },
      ["unit_id", "name"],
      [unknown],
    );
    const renamed = await call(world(org(), [rename]), "rename_unit", { unit_id: "u3", name: "Revenue" });
    expect(renamed.after).toMatchObject({
      org: { children: [{ name: "Engineering" }, { id: "u3", name: "Revenue" }] },
    });
  });

  it("adds a node under its parent with an id from the counter beside the tree", async () => {
    const add = tool(
      "add_unit",
      "Adds a unit under parent_id, with an id made from next_unit_id, which then moves on. Answers the unit.",
      { parent_id: text, name: text, head: text },
      ["parent_id", "name", "head"],
      [unknown],
      outputs({ id: text, name: text, head: text }),
    );
    const made = await call(world(org(), [add]), "add_unit", {
      parent_id: "u4",
      name: "Storage",
      head: "Lea",
    });
    expect(made.answer).toMatchObject({ id: "u7", name: "Storage", head: "Lea" });
    expect(made.after.next_unit_id).toBe(8);
    const engineering = (made.after.org as { children: Array<{ children: Array<{ children: unknown[] }> }> })
      .children[0];
    expect(engineering?.children[0]?.children).toEqual([
      { id: "u7", name: "Storage", head: "Lea", children: [] },
    ]);
  });

  it("moves a subtree under another node, never below itself, and removes one with its children only when forced", async () => {
    const move = tool(
      "move_unit",
      "Moves a unit and everything under it below new_parent_id. LOOP when the new parent is the unit or inside it.",
      { unit_id: text, new_parent_id: text },
      ["unit_id", "new_parent_id"],
      [unknown, error("LOOP", "Would loop.", "the new parent is the unit or one of its descendants")],
    );
    const moved = await call(world(org(), [move]), "move_unit", { unit_id: "u2", new_parent_id: "u3" });
    expect(moved.after).toMatchObject({
      org: { children: [{ id: "u3", children: [{ id: "u2", children: [{ id: "u4" }] }] }] },
    });
    const loop = await call(world(org(), [move]), "move_unit", { unit_id: "u2", new_parent_id: "u4" });
    expect(failure(loop.outcome)).toBe("LOOP");
    const remove = tool(
      "delete_unit",
      "Deletes a unit. One with units under it is refused with HAS_CHILDREN unless force is true.",
      { unit_id: text, force: bool },
      ["unit_id"],
      [unknown, error("HAS_CHILDREN", "Has children.", "the unit has units under it")],
    );
    expect(failure((await call(world(org(), [remove]), "delete_unit", { unit_id: "u2" })).outcome)).toBe(
      "HAS_CHILDREN",
    );
    const forced = await call(world(org(), [remove]), "delete_unit", { unit_id: "u2", force: true });
    expect((forced.after.org as { children: Array<{ id: string }> }).children.map((c) => c.id)).toEqual([
      "u3",
    ]);
  });
});

describe("a tree of records kept by name: children as records, a node's name, renames", () => {
  it("lists a node's children as records sorted by name, with how many children each has", async () => {
    const list = tool(
      "list_categories",
      "Lists the direct children of the category at path. Answers path and children: [{name, title, child_count}] sorted by name.",
      { path: text },
      ["path"],
      [notFound],
      outputs({
        path: text,
        children: {
          type: "array",
          items: { type: "object", properties: { name: text, title: text, child_count: integer } },
        },
      }),
    );
    const listed = await call(world(helpCentre(), [list]), "list_categories", { path: "/" });
    expect(listed.answer).toMatchObject({
      children: [
        { name: "billing", title: "Billing", child_count: 1 },
        { name: "setup", title: "Setup", child_count: 0 },
      ],
    });
  });

  it("answers a node's name, the root's empty, and how many nodes are below it", async () => {
    const get = tool(
      "get_category",
      'One category by path. Answers name ("" for the root), title and descendant_count (how many categories lie below it).',
      { path: text },
      ["path"],
      [notFound],
      outputs({ name: text, title: text, descendant_count: integer }),
    );
    const root = await call(world(helpCentre(), [get]), "get_category", { path: "/" });
    expect(root.answer).toMatchObject({ name: "", title: "Help", descendant_count: 3 });
    const billing = await call(world(helpCentre(), [get]), "get_category", { path: "/billing" });
    expect(billing.answer).toMatchObject({ name: "billing", descendant_count: 1 });
  });

  it("renames a node within its parent, keeping what is below it, refusing a sibling's name", async () => {
    const rename = tool(
      "rename_category",
      "Renames the category at path to new_name within the same parent, keeping its title and everything below it. Answers old_path and new_path. Errors: CATEGORY_NOT_FOUND; NAME_TAKEN if a sibling already has new_name; ROOT_LOCKED if the path is the root.",
      { path: text, new_name: text },
      ["path", "new_name"],
      [notFound, error("NAME_TAKEN", "Name taken.", "a sibling already has new_name", 409), rootLocked],
      outputs({ old_path: text, new_path: text }),
    );
    const toolset = world(helpCentre(), [rename]);
    const renamed = await call(toolset, "rename_category", { path: "/billing", new_name: "payments" });
    expect(renamed.answer).toEqual({ old_path: "/billing", new_path: "/payments" });
    const home = renamed.after.home as { children: Record<string, { children: Record<string, unknown> }> };
    expect(Object.keys(home.children).sort()).toEqual(["payments", "setup"]);
    expect(Object.keys(home.children.payments?.children ?? {})).toEqual(["refunds"]);
    expect(
      failure((await call(toolset, "rename_category", { path: "/billing", new_name: "setup" })).outcome),
    ).toBe("NAME_TAKEN");
    expect(failure((await call(toolset, "rename_category", { path: "/", new_name: "top" })).outcome)).toBe(
      "ROOT_LOCKED",
    );
  });
});
