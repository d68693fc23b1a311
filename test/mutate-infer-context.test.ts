import { describe, expect, it } from "vitest";
import { call, error, failure, text, tool, world } from "./support/infer-world.js";

/**
 * The error a tool answers when the record an argument names is not there: the one its docs
 * give for that noun (by the collection's name, the argument's, the last words of a longer
 * noun, the head word of a compound), the one generic not-found error where it is the only
 * one, else one inference adds and names after the collection, once per tool.
 */

const apiary = {
  hives: {
    h1: { hive_id: "h1", site: "orchard", frames: 10, keeper_id: "k2" },
    h2: { hive_id: "h2", site: "meadow", frames: 8, keeper_id: "k1" },
  },
  seedPackets: {
    p1: { packet_id: "p1", crop: "kale", grams: 5 },
  },
  shop_gift_cards: {
    g1: { code: "g1", balance: 20 },
  },
  keepers: { k1: { keeper_id: "k1", name: "Ana" }, k2: { keeper_id: "k2", name: "Ben" } },
  synths: { s1: { keyboard_id: "s1", name: "Juno" } },
  sites: { y1: { apiary_yard_id: "y1", town: "Elm" } },
};

const noHive = { hive_id: "h9" };

describe("the documented not-found error", () => {
  it("is the one whose noun is the collection's", async () => {
    const w = world(apiary, [
      tool("get_hive", "Get a hive.", { hive_id: text }, undefined, [
        error("RATE_LIMITED", "Too many requests.", "Too many calls.", 429),
        error("HIVE_GONE", "Hive not found.", "No hive has the id.", 404),
      ]),
    ]);
    const missing = await call(w, "get_hive", noHive);
    expect(failure(missing.outcome)).toBe("HIVE_GONE");
    expect(missing.tool.errors.map((e) => e.code)).toEqual(["RATE_LIMITED", "HIVE_GONE"]);
    expect(missing.report.notes.join(" ")).not.toContain("added documented error");
    const found = await call(w, "get_hive", { hive_id: "h2" });
    expect(found.outcome.status).toBe("applied");
  });

  it("is the one whose noun is the argument's, without its id", async () => {
    const w = world(apiary, [
      tool("inspect_colony", "Inspect the colony of a hive.", { hive_id: text }, undefined, [
        error("COLONY_NOT_FOUND", "Colony not found.", "No colony is kept.", 404),
        error("NO_HIVE", "The hive does not exist.", "The id names no hive.", 404),
      ]),
    ]);
    expect(failure((await call(w, "inspect_colony", noHive)).outcome)).toBe("NO_HIVE");
  });

  it("is the one whose noun is the argument's where the collection is named otherwise", async () => {
    const w = world(apiary, [
      tool("get_synth", "Get a synth by its keyboard id.", { keyboard_id: text }, undefined, [
        error("KEYS_MISSING", "Keyboard not found.", "No keyboard has the id.", 404),
      ]),
      tool("get_site", "Get a site.", { apiary_yard_id: text }, undefined, [
        error("YARD_MISSING", "Apiary yard not found.", "No yard has the id.", 404),
      ]),
    ]);
    expect(failure((await call(w, "get_synth", { keyboard_id: "s9" })).outcome)).toBe("KEYS_MISSING");
    expect(failure((await call(w, "get_site", { apiary_yard_id: "y9" })).outcome)).toBe("YARD_MISSING");
    expect((await call(w, "get_site", { apiary_yard_id: "y1" })).answer).toMatchObject({ town: "Elm" });
  });

  it("is the one whose longer noun ends in the collection's", async () => {
    const w = world(apiary, [
      tool("get_seed_packet", "Get a packet of seeds.", { seed_packet_id: text }, undefined, [
        error("PACKET_MISSING", "The rooftop seed packet was not found.", "Unknown id.", 404),
      ]),
    ]);
    const missing = await call(w, "get_seed_packet", { seed_packet_id: "p9" });
    expect(failure(missing.outcome)).toBe("PACKET_MISSING");
  });

  it("is the one named by the head word of a compound noun, where nothing closer is documented", async () => {
    const w = world(apiary, [
      tool("get_gift_card", "Get a gift card by its code.", { code: text }, undefined, [
        error("BAD_CARD", "Card not found.", "The code names no card.", 404),
      ]),
    ]);
    expect(failure((await call(w, "get_gift_card", { code: "g9" })).outcome)).toBe("BAD_CARD");
  });

  it("answers for a record another argument names only where the tool documents it", async () => {
    const hive = error("HIVE_NOT_FOUND", "Hive not found.", "No hive has the id.", 404);
    const keeper = error("KEEPER_NOT_FOUND", "Keeper not found.", "No keeper has the id.", 404);
    const assign = (errors: ReturnType<typeof error>[]) =>
      world(apiary, [
        tool(
          "assign_hive",
          "Give a hive to a keeper.",
          { hive_id: text, keeper_id: text },
          undefined,
          errors,
        ),
      ]);
    const unchecked = await call(assign([hive]), "assign_hive", { hive_id: "h1", keeper_id: "k9" });
    expect(unchecked.after.hives).toMatchObject({ h1: { keeper_id: "k9" } });
    expect(unchecked.tool.errors.map((e) => e.code)).toEqual(["HIVE_NOT_FOUND"]);
    const w = assign([hive, keeper]);
    const checked = await call(w, "assign_hive", { hive_id: "h1", keeper_id: "k9" });
    expect(failure(checked.outcome)).toBe("KEEPER_NOT_FOUND");
    expect(checked.report.notes).toContain("checks keeper_id exists (KEEPER_NOT_FOUND)");
    const given = await call(w, "assign_hive", { hive_id: "h1", keeper_id: "k1" });
    expect(given.after.hives).toMatchObject({ h1: { keeper_id: "k1" } });
  });

  it("is a generic one where it is the only not-found error", async () => {
    const bare = world(apiary, [
      tool("get_hive", "Get a hive.", { hive_id: text }, undefined, [
        error("NOT_FOUND", "Resource not found.", "Nothing has that id.", 404),
        error("FORBIDDEN", "Not allowed.", "The caller may not read it.", 403),
      ]),
    ]);
    expect(failure((await call(bare, "get_hive", noHive)).outcome)).toBe("NOT_FOUND");
    const nounless = world(apiary, [
      tool("get_hive", "Get a hive.", { hive_id: text }, undefined, [
        error("MISSING", "Not found.", "Nothing matches.", 404),
      ]),
    ]);
    expect(failure((await call(nounless, "get_hive", noHive)).outcome)).toBe("MISSING");
  });

  it("is not a generic one beside a not-found error of another noun", async () => {
    const w = world(apiary, [
      tool("get_hive", "Get a hive.", { hive_id: text }, undefined, [
        error("NOT_FOUND", "Resource not found.", "Nothing has that id.", 404),
        error("QUEEN_NOT_FOUND", "Queen not found.", "No queen is marked.", 404),
      ]),
    ]);
    const missing = await call(w, "get_hive", noHive);
    expect(failure(missing.outcome)).toBe("HIVE_NOT_FOUND");
  });

  it("is not one of another noun, even when it is the only one", async () => {
    const w = world(apiary, [
      tool("get_hive", "Get a hive.", { hive_id: text }, undefined, [
        error("QUEEN_NOT_FOUND", "Queen not found.", "No queen is marked.", 404),
      ]),
    ]);
    const missing = await call(w, "get_hive", noHive);
    expect(failure(missing.outcome)).toBe("HIVE_NOT_FOUND");
    expect(missing.tool.errors.map((e) => e.code)).toEqual(["QUEEN_NOT_FOUND", "HIVE_NOT_FOUND"]);
  });
});

describe("the not-found error inference adds", () => {
  it("is named after the collection, and says which argument named nothing", async () => {
    const w = world(apiary, [tool("get_hive", "Get a hive.", { hive_id: text })]);
    const missing = await call(w, "get_hive", noHive);
    expect(failure(missing.outcome)).toBe("HIVE_NOT_FOUND");
    expect(missing.tool.errors).toEqual([
      {
        code: "HIVE_NOT_FOUND",
        status: 404,
        message: "Hive {hive_id} not found.",
        when: "No hive has the given hive_id (inferred from the state's hives).",
      },
    ]);
    expect(missing.report.notes).toContain(
      "added documented error HIVE_NOT_FOUND (No hive has the given hive_id (inferred from the state's hives).)",
    );
    expect(missing.outcome).toMatchObject({ failure: { status: 404 } });
  });

  it("spells a collection of several words, in camelCase too, as words", async () => {
    const w = world(apiary, [tool("get_seed_packet", "Get a packet of seeds.", { packet_id: text })]);
    const missing = await call(w, "get_seed_packet", { packet_id: "p9" });
    expect(failure(missing.outcome)).toBe("SEED_PACKET_NOT_FOUND");
    expect(missing.tool.errors[0]).toMatchObject({
      message: "Seed packet {packet_id} not found.",
      when: "No seed packet has the given packet_id (inferred from the state's seedPackets).",
    });
  });

  it("is added once where two arguments name records of the collection, and names both", async () => {
    const w = world(
      { ...apiary, splits: { s1: { split_id: "s1", hive_id: "h1", into_hive_id: "h2", day: "May 3" } } },
      [
        tool("create_split", "Split a colony into another hive.", {
          hive_id: text,
          into_hive_id: text,
          day: text,
        }),
      ],
    );
    const split = await call(w, "create_split", { hive_id: "h1", into_hive_id: "h9", day: "June 1" });
    expect(split.outcome).toMatchObject({
      status: "failed",
      failure: { code: "HIVE_NOT_FOUND", message: "Hive h1 or h9 not found." },
    });
    expect(split.tool.errors).toEqual([
      {
        code: "HIVE_NOT_FOUND",
        status: 404,
        message: "Hive {hive_id} or {into_hive_id} not found.",
        when: "No hive has the given hive_id or into_hive_id (inferred from the state's hives).",
      },
    ]);
    expect(split.report.notes.filter((n) => n.includes("HIVE_NOT_FOUND"))).toEqual([
      "added documented error HIVE_NOT_FOUND (No hive has the given hive_id (inferred from the state's hives).)",
      "HIVE_NOT_FOUND answers for into_hive_id too",
    ]);
    const made = await call(w, "create_split", { hive_id: "h1", into_hive_id: "h2", day: "June 1" });
    expect(made.after.splits).toMatchObject({ s2: { hive_id: "h1", into_hive_id: "h2", day: "June 1" } });
  });

  it("is one per collection where arguments name records of two", async () => {
    const w = world(
      { ...apiary, visits: { v1: { visit_id: "v1", hive_id: "h1", keeper_id: "k1", day: "May 3" } } },
      [
        tool("create_visit", "Log a keeper's visit to a hive.", {
          hive_id: text,
          keeper_id: text,
          day: text,
        }),
      ],
    );
    const visit = await call(w, "create_visit", { hive_id: "h1", keeper_id: "k9", day: "June 1" });
    expect(visit.outcome).toMatchObject({
      failure: { code: "KEEPER_NOT_FOUND", message: "Keeper k9 not found." },
    });
    expect(visit.tool.errors.map((e) => [e.code, e.message]).sort()).toEqual([
      ["HIVE_NOT_FOUND", "Hive {hive_id} not found."],
      ["KEEPER_NOT_FOUND", "Keeper {keeper_id} not found."],
    ]);
    const noHive = await call(w, "create_visit", { hive_id: "h9", keeper_id: "k1", day: "June 1" });
    expect(noHive.outcome).toMatchObject({
      failure: { code: "HIVE_NOT_FOUND", message: "Hive h9 not found." },
    });
  });

  it("keeps the documented error of the same code, and adds no second", async () => {
    const w = world(apiary, [
      tool("get_hive", "Get a hive.", { hive_id: text }, undefined, [
        error("HIVE_NOT_FOUND", "The bed {bed_id} was not found.", "No bed.", 404),
      ]),
    ]);
    const missing = await call(w, "get_hive", noHive);
    expect(failure(missing.outcome)).toBe("HIVE_NOT_FOUND");
    expect(missing.tool.errors).toEqual([
      { code: "HIVE_NOT_FOUND", status: 404, message: "The bed {bed_id} was not found.", when: "No bed." },
    ]);
    expect(missing.report.notes.join(" ")).not.toContain("added documented error");
    expect(missing.report.gaps.join(" ")).not.toContain("HIVE_NOT_FOUND");
  });
});
