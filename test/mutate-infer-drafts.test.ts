import { describe, expect, it } from "vitest";
import {
  compactEffect,
  type Draft,
  emit,
  inferToolset,
  languageLevel,
  toVersion1,
} from "../src/infer/index.js";
import { call, error, text, tool, world } from "./support/infer-world.js";

/**
 * How drafted effects become a catalog's effects: all of them in effects language version 2;
 * in version 1 what it can say, each part it cannot reported; a draft that reads a binding a
 * dropped one was to make dropped too; and an effect as a catalog file shows it.
 */

const shelf = world(
  {
    shelves: {
      s1: { shelf_id: "s1", label: "Cookbooks", books: 4 },
      s2: { shelf_id: "s2", label: "Maps", books: 0 },
    },
    room: { tags: ["quiet"] },
  },
  [
    tool("rename_shelf", "Rename a shelf.", { shelf_id: text, label: text }, undefined, [
      error("SHELF_NOT_FOUND", "Shelf not found.", "No shelf has this id.", 404),
    ]),
    tool("get_shelf", "Get a shelf.", { shelf_id: text }),
    tool("add_tag", "Tag the room.", { tag: text }),
  ],
);

describe("the language level", () => {
  it("is version 2 in this build, where the format accepts `respond`", () => {
    expect(languageLevel()).toBe(2);
  });

  it("keeps every draft at version 2, and drops nothing", () => {
    const drafts: Draft[] = [
      { kind: "read", target: "shelves/{shelf_id}/books/{book_id}", as: "book" },
      { kind: "check", require: [{ expr: "$book.pages > 0", error: "EMPTY" }] },
      { kind: "respond", output: "title", value: { $expr: "$book.title" } },
    ];
    const { effects, dropped } = emit(drafts, 2);
    expect(dropped).toEqual([]);
    expect(effects.map((e) => e.kind)).toEqual(["read", "check", "respond"]);
    expect(effects[0]).toMatchObject({ target: "shelves/{shelf_id}/books/{book_id}", as: "book" });
  });
});

describe("emission at version 1", () => {
  it("drops checks, answers, conditions, loops and nested targets, naming each", () => {
    const { effects, dropped } = emit(
      [
        { kind: "check", require: [{ expr: "1 = 1", error: "X" }] },
        { kind: "update", target: "shelves/{shelf_id}", when: "$args.x", set: { label: "a" } },
        { kind: "update", target: "shelves/{shelf_id}", each: "$args.ids", set: { label: "a" } },
        { kind: "read", target: "shelves/{shelf_id}/books/{book_id}" },
        { kind: "read", target: "shelves/{shelf_id}", as: "shelf" },
      ],
      1,
    );
    expect(dropped).toEqual([
      "check: needs effects language v2 (a check effect)",
      "update shelves/{shelf_id}: needs effects language v2 (when)",
      "update shelves/{shelf_id}: needs effects language v2 (each)",
      "read shelves/{shelf_id}/books/{book_id}: needs effects language v2 (nested target shelves/{shelf_id}/books/{book_id})",
    ]);
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ kind: "read", target: "shelves/{shelf_id}", as: "shelf" });
  });

  it("keeps a list's plain parts, and lets a list answered by a respond answer under its target", () => {
    const { effects, dropped } = emit(
      [
        { kind: "list", target: "shelves", where: { label: "{label}" }, filter: "$.books > 0", as: "found" },
        { kind: "respond", output: "shelves", value: { $expr: "$found" } },
        // `[$kept]` and a `let` do not answer the list by itself: it keeps no output
        { kind: "list", target: "books", as: "kept" },
        { kind: "respond", value: { $expr: "[$kept]" } },
        { kind: "let", as: "copy", value: { $expr: "$kept" } },
        { kind: "list", target: "maps", as: "named", output: "atlas" },
        { kind: "respond", value: { $expr: "$named" } },
      ],
      1,
    );
    expect(effects[0]).toMatchObject({
      kind: "list",
      target: "shelves",
      output: "shelves",
      where: { label: "{label}" },
    });
    expect(effects[0]).not.toHaveProperty("filter");
    expect(effects[1]).toMatchObject({ kind: "list", target: "books" });
    expect(effects[1]).not.toHaveProperty("output");
    expect(effects[3]).toMatchObject({ kind: "list", target: "maps", output: "atlas" });
    expect(dropped).toContain("list shelves: needs effects language v2 (list filter)");
  });

  it("keeps plain values and guards, and reports computed ones field by field", () => {
    const { draft, notes } = toVersion1({
      kind: "update",
      target: "shelves/{shelf_id}",
      set: { label: "{label}", title: { upper: { $expr: "$uppercase($args.label)" } } },
      inc: { books: 1, pages: { $expr: "$args.n" } },
      append: {
        tags: ["new"],
        log: ["opened", { $expr: "$now()" }],
        seen: { by: "ana", at: { $expr: "$now()" } },
      },
      where: { shelf_id: "{shelf_id}" },
      require: [
        { field: "books", gte: 0, error: "E" },
        { expr: "$args.n > 0", error: "F" },
      ],
    });
    expect(draft).toEqual({
      kind: "update",
      target: "shelves/{shelf_id}",
      set: { label: "{label}" },
      inc: { books: 1 },
      append: { tags: ["new"] },
      where: { shelf_id: "{shelf_id}" },
      require: [{ field: "books", gte: 0, error: "E" }],
    });
    expect(notes).toEqual([
      "update shelves/{shelf_id}: needs effects language v2 (computed set of title)",
      "update shelves/{shelf_id}: needs effects language v2 (computed inc of pages)",
      "update shelves/{shelf_id}: needs effects language v2 (computed append of log)",
      "update shelves/{shelf_id}: needs effects language v2 (computed append of seen)",
      "update shelves/{shelf_id}: needs effects language v2 (expression guard)",
    ]);
  });

  it("keeps every guard and says nothing where none is an expression", () => {
    const { draft, notes } = toVersion1({
      kind: "delete",
      target: "shelves/{shelf_id}",
      require: [{ field: "books", eq: 0, error: "NOT_EMPTY" }],
      set: "not a map",
    });
    expect(notes).toEqual([]);
    expect(draft).toEqual({
      kind: "delete",
      target: "shelves/{shelf_id}",
      require: [{ field: "books", eq: 0, error: "NOT_EMPTY" }],
      set: "not a map",
    });
  });

  it("drops whatever reads a binding a dropped effect was to make, in a chain", () => {
    const { effects, dropped } = emit(
      [
        { kind: "read", target: "a/{x}/b/{y}", as: "deep" },
        {
          kind: "update",
          target: "shelves/{shelf_id}",
          set: { label: { $expr: "$deep.label" } },
          as: "shelf",
        },
        { kind: "respond", value: { $expr: "$shelf" } },
        { kind: "read", target: "shelves/{shelf_id}", as: "deeper" },
      ],
      1,
    );
    expect(dropped).toEqual([
      "read a/{x}/b/{y}: needs effects language v2 (nested target a/{x}/b/{y})",
      "update shelves/{shelf_id}: reads $deep, which a dropped effect was to bind",
      "respond: reads $shelf, which a dropped effect was to bind",
    ]);
    // `$deeper` is another name: it was never lost
    expect(effects).toEqual([
      expect.objectContaining({ kind: "read", target: "shelves/{shelf_id}", as: "deeper" }),
    ]);
  });

  it("infers a toolset at version 1 with what the format takes, and the rest as gaps", async () => {
    const result = inferToolset(shelf, { level: 1 });
    const report = (name: string) => result.report.find((r) => r.tool === name);
    const effects = (name: string) => result.toolset.tools.find((t) => t.name === name)?.effects;
    expect(effects("rename_shelf")?.map((e) => e.kind)).toEqual(["update"]);
    expect(report("rename_shelf")?.verdict).toBe("inferred");
    // a tag joins the list by an expression, which version 1 cannot say
    expect(effects("add_tag")).toEqual([
      expect.objectContaining({ kind: "update", target: "room", set: {} }),
    ]);
    expect(report("add_tag")?.verdict).toBe("partly");
    expect(report("add_tag")?.gaps).toEqual([
      "update room: needs effects language v2 (computed set of tags)",
    ]);
    // at version 2, the same tool is inferred whole
    const whole = await call(shelf, "rename_shelf", { shelf_id: "s2", label: "Atlases" });
    expect(whole.report.verdict).toBe("inferred");
    expect(whole.after.shelves).toMatchObject({ s2: { label: "Atlases", books: 0 } });
  });
});

describe("an effect as a file shows it", () => {
  it("leaves out the empty defaults the format fills in, and keeps everything else", () => {
    expect(
      compactEffect({
        kind: "update",
        target: "shelves/{shelf_id}",
        require: [],
        set: {},
        inc: {},
        append: {},
        where: {},
        as: "shelf",
      }),
    ).toEqual({ kind: "update", target: "shelves/{shelf_id}", as: "shelf" });
    expect(
      compactEffect({
        kind: "list",
        target: "shelves",
        where: { label: "Maps" },
        require: [{ expr: "1", error: "E" }],
      }),
    ).toEqual({
      kind: "list",
      target: "shelves",
      where: { label: "Maps" },
      require: [{ expr: "1", error: "E" }],
    });
    // empty values under other keys stay: they say something
    expect(compactEffect({ kind: "respond", value: {}, output: "" })).toEqual({
      kind: "respond",
      value: {},
      output: "",
    });
    expect(compactEffect({ kind: "respond", value: [] })).toEqual({ kind: "respond", value: [] });
    expect(compactEffect("read")).toBe("read");
  });
});
