import { describe, expect, it } from "vitest";
import { call, error, failure, outputs, text, tool, world } from "./support/infer-world.js";

/** An airfield's register: airports keyed by code, and the tags the register files them under. */
const register = () => ({
  airports: {
    LHR: { code: "LHR", name: "Heathrow", open: true },
    OSL: { code: "OSL", name: "Gardermoen", open: false },
  },
  tags: ["night-flights", "cargo"],
});

const airport = outputs({ code: text, name: text, open: { type: "boolean" } });

describe("arguments the docs say are normalised first", () => {
  it("looks a key up upper-cased, and answers it as stored", async () => {
    const get = tool(
      "atlas_get_airport",
      "One airport by its IATA code. The code is upper-cased first, so `lhr` finds LHR. An unknown code fails with AIRPORT_NOT_FOUND.",
      { code: text },
      ["code"],
      [error("AIRPORT_NOT_FOUND", "No airport has that code.", "The code names no airport.", 404)],
      airport,
    );
    const read = await call(world(register(), [get]), "atlas_get_airport", { code: "lhr" });
    expect(read.answer).toEqual({ code: "LHR", name: "Heathrow", open: true });
    const unknown = await call(world(register(), [get]), "atlas_get_airport", { code: "zzz" });
    expect(failure(unknown.outcome)).toBe("AIRPORT_NOT_FOUND");
  });

  it("stores a value trimmed and lower-cased, and compares it that way", async () => {
    const tag = tool(
      "atlas_add_tag",
      "Adds a tag to `tags`. Tags are kept trimmed and lower-cased; a tag already in the list fails with TAG_EXISTS. Returns the `tags` after the change.",
      { tag: text },
      ["tag"],
      [error("TAG_EXISTS", "That tag is already there.", "The tag is already in tags.", 409)],
      outputs({ tags: { type: "array", items: text } }),
    );
    const added = await call(world(register(), [tag]), "atlas_add_tag", { tag: "  Seaplanes " });
    expect(added.after.tags).toEqual(["night-flights", "cargo", "seaplanes"]);
    const again = await call(world(register(), [tag]), "atlas_add_tag", { tag: " CARGO" });
    expect(failure(again.outcome)).toBe("TAG_EXISTS");
    expect(again.report.gaps.join(" ")).not.toMatch(/take them as given/);
  });

  it("takes a format's adjective for a rule on the value, not a change to it", async () => {
    const rename = tool(
      "atlas_rename_airport",
      "Renames an airport. Names are stored as given.",
      { code: { type: "string", description: "Uppercase letters only." }, name: text },
      ["code", "name"],
      [],
      airport,
    );
    const done = await call(world(register(), [rename]), "atlas_rename_airport", {
      code: "OSL",
      name: "Oslo Gardermoen",
    });
    expect(JSON.stringify(done.tool.effects)).not.toContain("$uppercase");
    expect(done.after.airports).toMatchObject({ OSL: { name: "Oslo Gardermoen" } });
  });
});

/** A chess club's waiting list: names kept as their owners typed them. */
const club = () => ({ waiting: ["Ada Lovelace", "Blaise Pascal"], room: "Hall B" });

describe("arguments compared ignoring case", () => {
  const join = tool(
    "club_join_waiting",
    "Adds a player to `waiting`, spelled as sent; names are compared case-insensitively. ALREADY_WAITING if the player is on the list already. Returns the `waiting` list.",
    { name: text },
    ["name"],
    [error("ALREADY_WAITING", "That player is already waiting.", "The name is already in waiting.", 409)],
    outputs({ waiting: { type: "array", items: text } }),
  );
  const leave = tool(
    "club_leave_waiting",
    "Takes a player off `waiting`; the name is matched case-insensitively. NOT_WAITING when no entry matches. Returns the `removed` name and the `waiting` list.",
    { name: text },
    ["name"],
    [error("NOT_WAITING", "That player is not waiting.", "The name is not in waiting.", 404)],
    outputs({ removed: text, waiting: { type: "array", items: text } }),
  );

  it("refuses a name already there in another case, and stores a new one as sent", async () => {
    const again = await call(world(club(), [join]), "club_join_waiting", { name: "ada LOVELACE" });
    expect(failure(again.outcome)).toBe("ALREADY_WAITING");
    const added = await call(world(club(), [join]), "club_join_waiting", { name: "Emmy Noether" });
    expect(added.after.waiting).toEqual(["Ada Lovelace", "Blaise Pascal", "Emmy Noether"]);
    expect(added.report.gaps.join(" ")).not.toMatch(/case-insensitive|ignoring case/);
  });

  it("removes the entry a name matches in any case, and says the echo may be spelled otherwise", async () => {
    const left = await call(world(club(), [leave]), "club_leave_waiting", { name: "blaise pascal" });
    expect(left.after.waiting).toEqual(["Ada Lovelace"]);
    expect(left.report.verdict).toBe("partly");
    expect(left.report.gaps.some((g) => g.startsWith("answers removed as typed"))).toBe(true);
    const missing = await call(world(club(), [leave]), "club_leave_waiting", { name: "Carl Gauss" });
    expect(failure(missing.outcome)).toBe("NOT_WAITING");
  });
});
