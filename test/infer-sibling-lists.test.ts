import { describe, expect, it } from "vitest";
import { bool, call, error, failure, integer, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * A rowing crew kept as lists of names side by side (rowing, reserves, ashore): where a name
 * stands, taking it off whichever list holds it, moving it to the list an argument names, calling
 * up the first reserve, and adding to the list the docs name.
 */

const crew = () => ({
  boat: "Kingfisher",
  rowing: ["Ada", "Ben", "Cas"],
  reserves: ["Dev", "Eli"],
  ashore: ["Fay"],
});

const strings = { type: "array", items: { type: "string" } };
const notListed = error("NOT_LISTED", "Not listed.", "the name is on no list", 404);

describe("lists of names side by side", () => {
  it("answers where a name stands: on which list, and its place on one", async () => {
    const where = tool(
      "crew_where",
      "Where a rower stands. Answers name, on_rowing, on_reserves, reserves_position (1-based, or null) and ashore.",
      { name: text },
      ["name"],
      [],
      outputs({ name: text, on_rowing: bool, on_reserves: bool, reserves_position: integer, ashore: bool }),
    );
    const eli = await call(world(crew(), [where]), "crew_where", { name: "Eli" });
    expect(eli.answer).toEqual({
      name: "Eli",
      on_rowing: false,
      on_reserves: true,
      reserves_position: 2,
      ashore: false,
    });
    const nobody = await call(world(crew(), [where]), "crew_where", { name: "Zed" });
    expect(nobody.answer).toMatchObject({ on_rowing: false, reserves_position: null });
  });

  it("takes a name off whichever list holds it, and says which", async () => {
    const remove = tool(
      "crew_remove_rower",
      "Removes a rower from whichever list holds them. Answers name and from. Errors: NOT_LISTED - the name is on no list.",
      { name: text },
      ["name"],
      [notListed],
      outputs({ name: text, from: text }),
    );
    const gone = await call(world(crew(), [remove]), "crew_remove_rower", { name: "Ben" });
    expect(gone.answer).toEqual({ name: "Ben", from: "rowing" });
    expect(gone.after).toMatchObject({ rowing: ["Ada", "Cas"], reserves: ["Dev", "Eli"], ashore: ["Fay"] });
    const nobody = await call(world(crew(), [remove]), "crew_remove_rower", { name: "Zed" });
    expect(failure(nobody.outcome)).toBe("NOT_LISTED");
  });

  it("moves a name to the list an argument names, at a 1-based place or at the end", async () => {
    const move = tool(
      "crew_move",
      'Moves a rower to list `to` ("rowing", "reserves" or "ashore"), at 1-based `position` if given, else at the end. Answers name, from, to and position. Errors: NOT_LISTED; UNKNOWN_LIST if to is not one of the lists; SAME_LIST if the rower is already on to; BAD_POSITION if position is out of range.',
      { name: text, to: text, position: integer },
      ["name", "to"],
      [
        notListed,
        error("UNKNOWN_LIST", "Unknown list.", "to is not one of the lists"),
        error("SAME_LIST", "Same list.", "the rower is already on to"),
        error("BAD_POSITION", "Bad position.", "position is out of range"),
      ],
      outputs({ name: text, from: text, to: text, position: integer }),
    );
    const first = await call(world(crew(), [move]), "crew_move", { name: "Dev", to: "rowing", position: 1 });
    expect(first.after).toMatchObject({ rowing: ["Dev", "Ada", "Ben", "Cas"], reserves: ["Eli"] });
    expect(first.answer).toEqual({ name: "Dev", from: "reserves", to: "rowing", position: 1 });
    const end = await call(world(crew(), [move]), "crew_move", { name: "Ada", to: "ashore" });
    expect(end.after).toMatchObject({ rowing: ["Ben", "Cas"], ashore: ["Fay", "Ada"] });
    expect(end.answer).toMatchObject({ from: "rowing", position: 2 });
    const errors = async (args: Record<string, unknown>) =>
      failure((await call(world(crew(), [move]), "crew_move", args)).outcome);
    expect(await errors({ name: "Zed", to: "rowing" })).toBe("NOT_LISTED");
    expect(await errors({ name: "Ada", to: "dock" })).toBe("UNKNOWN_LIST");
    expect(await errors({ name: "Ada", to: "rowing" })).toBe("SAME_LIST");
    expect(await errors({ name: "Ada", to: "ashore", position: 5 })).toBe("BAD_POSITION");
  });

  it("calls up the first of one list to the end of another, refusing when it is empty", async () => {
    const callUp = tool(
      "crew_call_up",
      "Takes the first name off the reserves and appends it to rowing. Answers called. NOBODY_WAITING when there is nobody on the reserves.",
      {},
      [],
      [error("NOBODY_WAITING", "Nobody waiting.", "there is nobody on the reserves")],
      outputs({ called: text }),
    );
    const called = await call(world(crew(), [callUp]), "crew_call_up", {});
    expect(called.answer).toEqual({ called: "Dev" });
    expect(called.after).toMatchObject({ rowing: ["Ada", "Ben", "Cas", "Dev"], reserves: ["Eli"] });
    const empty = await call(world({ ...crew(), reserves: [] }, [callUp]), "crew_call_up", {});
    expect(failure(empty.outcome)).toBe("NOBODY_WAITING");
  });

  it("adds to the list the docs name, refusing a name on any of the lists", async () => {
    const signOn = tool(
      "crew_sign_on",
      "Adds a new rower to the end of the reserves. Answers reserves. ALREADY_LISTED if the name is already on any of the lists.",
      { name: text },
      ["name"],
      [error("ALREADY_LISTED", "Listed.", "the name is already on any of the lists", 409)],
      outputs({ reserves: strings }),
    );
    const signed = await call(world(crew(), [signOn]), "crew_sign_on", { name: "Gus" });
    expect(signed.answer).toEqual({ reserves: ["Dev", "Eli", "Gus"] });
    const twice = await call(world(crew(), [signOn]), "crew_sign_on", { name: "Fay" });
    expect(failure(twice.outcome)).toBe("ALREADY_LISTED");
    const beach = tool(
      "crew_beach",
      "Sends a rower ashore by appending the name to ashore.",
      { name: text },
      ["name"],
      [],
      outputs({ ashore: strings }),
    );
    const beached = await call(world(crew(), [beach]), "crew_beach", { name: "Hal" });
    expect(beached.after.ashore).toEqual(["Fay", "Hal"]);
  });
});
