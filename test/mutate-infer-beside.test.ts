import { describe, expect, it } from "vitest";
import {
  bool,
  call,
  failure,
  inferred,
  integer,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Lists kept beside a collection under its records' keys (docs/inference.md), measured against
 * `src/infer/beside.ts`: a tool whose verb names the lists appends an item under the key of the
 * record it names, filled from the arguments named as the items' fields and signed by the
 * account the state is.
 */

const recipes = {
  r1: { recipe_id: "r1", title: "Lentil soup" },
  r2: { recipe_id: "r2", title: "Flatbread" },
};

/** A recipe site signed in as `lena`: comments kept under each recipe's id. */
const site = (more: State = {}, params: Record<string, unknown> = {}) =>
  world(
    { handle: "lena", recipes, comments: { r1: [{ author: "kim", comment: "Lovely", stars: 5 }] }, ...more },
    [
      tool(
        "comment_on_recipe",
        "Comment on a recipe.",
        { recipe_id: text, comment_text: text, stars: integer, notify_author: bool, ...params },
        ["recipe_id", "comment_text"],
      ),
    ],
  );

describe("a comment appended under the recipe it names", () => {
  it("signs the comment with the account's handle, takes its text under the list's noun, and starts a list where there is none", async () => {
    const first = await call(site(), "comment_on_recipe", {
      recipe_id: "r1",
      comment_text: "Needs salt",
      stars: 3,
      notify_author: true,
    });
    expect(first.after.comments).toEqual({
      r1: [
        { author: "kim", comment: "Lovely", stars: 5 },
        { author: "lena", comment: "Needs salt", stars: 3 },
      ],
    });
    expect(first.report.notes).toContain(
      "appends to the comments kept under the recipe_id it names (author, comment, stars)",
    );
    const second = await call(
      site(),
      "comment_on_recipe",
      { recipe_id: "r2", comment_text: "Crisp" },
      first.after,
    );
    expect((second.after.comments as State).r2).toEqual([{ author: "lena", comment: "Crisp" }]);
    expect(second.after.recipes).toEqual(recipes);
    const unknown = await call(site(), "comment_on_recipe", { recipe_id: "r9", comment_text: "?" });
    expect(failure(unknown.outcome)).toBe("RECIPE_NOT_FOUND");
  });

  it("an argument named as an item's field less the list's noun fills that field", async () => {
    const bodies = world({ handle: "lena", recipes, comments: { r1: [{ author: "kim", body: "Lovely" }] } }, [
      tool(
        "comment_on_recipe",
        "Comment on a recipe.",
        { recipe_id: text, comment_body: text, stars: integer },
        ["recipe_id", "comment_body"],
      ),
    ]);
    const { after, report } = await call(bodies, "comment_on_recipe", {
      recipe_id: "r1",
      comment_body: "Needs salt",
    });
    expect((after.comments as State).r1).toEqual([
      { author: "kim", body: "Lovely" },
      { author: "lena", body: "Needs salt" },
    ]);
    expect(report.notes).toContain(
      "appends to the comments kept under the recipe_id it names (author, body)",
    );
  });

  it("an argument named as a whole field keeps to it, though the field's name holds the list's noun", async () => {
    const multilingual = world(
      {
        handle: "lena",
        recipes,
        comments: { r1: [{ author: "kim", comment: "Lovely", comment_language: "en" }] },
      },
      [
        tool("comment_on_recipe", "Comment on a recipe.", {
          recipe_id: text,
          comment: text,
          comment_language: text,
        }),
      ],
    );
    const { after } = await call(multilingual, "comment_on_recipe", {
      recipe_id: "r2",
      comment: "Sehr gut",
      comment_language: "de",
    });
    expect((after.comments as State).r2).toEqual([
      { author: "lena", comment: "Sehr gut", comment_language: "de" },
    ]);
  });

  it("counts of comments beside the lists, a second map of lists, an empty map or keys of nothing else leave it alone", () => {
    const notes = (more: State) => inferred(site(more), "comment_on_recipe").report.notes.join(" ");
    expect(notes({})).toMatch(/appends to the comments kept under/);
    // a map of numbers named like the lists is no list
    expect(notes({ comment_counts: { r1: 1 } })).toMatch(/appends to the comments kept under/);
    for (const more of [
      { comment_drafts: { r1: [{ author: "lena", comment: "Hmm" }] } },
      { comments: {} },
      // lists under a key that names no recipe (one deleted since) are not the recipes' lists
      { comments: { r1: [{ author: "kim", comment: "Lovely" }], r9: [{ author: "kim", comment: "Hi" }] } },
    ])
      expect(notes(more)).not.toMatch(/appends to the comments kept under/);
  });

  it("a comment with nothing to say but its recipe is not appended", () => {
    const bare = world(
      { handle: "lena", recipes, comments: { r1: [{ author: "kim", comment: "Lovely" }] } },
      [tool("comment_on_recipe", "Comment on a recipe.", { recipe_id: text })],
    );
    expect(inferred(bare, "comment_on_recipe").report.notes.join(" ")).not.toMatch(/appends to the comments/);
  });
});

describe("bookings kept at the front desk of a hotel, under each room's id", () => {
  /** The desk that writes the bookings is signed in as `ari`; the manager's record comes before it. */
  const hotel = world(
    {
      hotel: {
        name: "Harbour Inn",
        rooms: { r1: { room_id: "r1", name: "Blue" }, r2: { room_id: "r2", name: "Green" } },
        manager: { name: "Ola", phone: "555-0101" },
        desk: { username: "ari", bookings: { r1: [{ username: "kim", guest: "Kim Lund", nights: 2 }] } },
      },
    },
    [tool("book_room", "Book a room for a guest.", { room_id: text, guest: text, nights: integer })],
  );

  it("a verb of four letters names the bookings; the desk's username signs the new one", async () => {
    const {
      after,
      report,
      tool: booked,
    } = await call(hotel, "book_room", { room_id: "r2", guest: "Al Berg", nights: 1 });
    expect((after.hotel as State).desk).toEqual({
      username: "ari",
      bookings: {
        r1: [{ username: "kim", guest: "Kim Lund", nights: 2 }],
        r2: [{ username: "ari", guest: "Al Berg", nights: 1 }],
      },
    });
    expect((after.hotel as State).manager).toEqual({ name: "Ola", phone: "555-0101" });
    expect(report.notes).toContain(
      "appends to the bookings kept under the room_id it names (username, guest, nights)",
    );
    expect(booked.effects.find((e) => e.kind === "update")?.target).toBe("hotel/desk");
    expect(failure((await call(hotel, "book_room", { room_id: "r7", guest: "x", nights: 1 })).outcome)).toBe(
      "ROOM_NOT_FOUND",
    );
  });
});

describe("who wrote the item", () => {
  const signedAs = (account: State, items: State[]) =>
    world({ ...account, recipes, comments: { r1: items } }, [
      tool("comment_on_recipe", "Comment on a recipe.", { recipe_id: text, comment: text }),
    ]);

  it("the account's one name fills the items' one field that names someone", async () => {
    for (const field of ["username", "user_name", "handle", "login", "user"]) {
      const { after } = await call(
        signedAs({ [field]: "lena", theme: "dark" }, [{ author: "kim", comment: "Lovely" }]),
        "comment_on_recipe",
        { recipe_id: "r2", comment: "Crisp" },
      );
      expect((after.comments as State).r2, field).toEqual([{ author: "lena", comment: "Crisp" }]);
    }
  });

  it("the items' field the account has by the same name, whatever other names the account has", async () => {
    const { after } = await call(
      signedAs({ username: "lena", handle: "lena_cooks" }, [{ username: "kim", comment: "Lovely" }]),
      "comment_on_recipe",
      { recipe_id: "r2", comment: "Crisp" },
    );
    expect((after.comments as State).r2).toEqual([{ username: "lena", comment: "Crisp" }]);
  });

  it("no one where the account has two names or the items two fields that name someone", async () => {
    const twoNames = await call(
      signedAs({ username: "lena", handle: "lena_cooks" }, [{ author: "kim", comment: "Lovely" }]),
      "comment_on_recipe",
      { recipe_id: "r2", comment: "Crisp" },
    );
    expect((twoNames.after.comments as State).r2).toEqual([{ comment: "Crisp" }]);
    const twoFields = await call(
      signedAs({ handle: "lena" }, [{ author: "kim", reviewer: "ola", owner: "kim", comment: "Lovely" }]),
      "comment_on_recipe",
      { recipe_id: "r2", comment: "Crisp" },
    );
    expect((twoFields.after.comments as State).r2).toEqual([{ comment: "Crisp" }]);
  });
});
