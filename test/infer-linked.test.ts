import { describe, expect, it } from "vitest";
import { call, failure, inferred, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * Records of one kind read or made through another: lists of what points to a record, a record
 * a verb toolsim does not know makes because its answer is that record's id, flags named by a
 * verb's participle, and searches over the fields their docs name.
 */

const gym = () => ({
  members: {
    "G-1": { member_id: "G-1", name: "Rosa", plan: "monthly" },
    "G-2": { member_id: "G-2", name: "Idris", plan: "yearly" },
  },
  visits: [
    { visit_id: "V-1", member_id: "G-1", day: "2026-02-01" },
    { visit_id: "V-2", member_id: "G-2", day: "2026-02-02" },
    { visit_id: "V-3", member_id: "G-1", day: "2026-02-03" },
  ],
});

describe("a list of records that point to the one an argument names", () => {
  const visits = tool("list_member_visits", "List a member's visits.", { member_id: text });

  it("answers the records whose link is the argument, and only those", async () => {
    const { answer, report } = await call(world(gym(), [visits]), "list_member_visits", { member_id: "G-1" });
    expect(report.verdict).toBe("inferred");
    expect((answer as { visit_id: string }[]).map((v) => v.visit_id)).toEqual(["V-1", "V-3"]);
  });

  it("answers an empty list for a member with none, and the member's not-found error for no member", async () => {
    const state = {
      ...gym(),
      members: { ...gym().members, "G-3": { member_id: "G-3", name: "Ola", plan: "day" } },
    };
    const none = await call(world(state, [visits]), "list_member_visits", { member_id: "G-3" });
    expect(none.outcome.status).toBe("applied");
    expect(none.answer).toEqual([]);
    const missing = await call(world(gym(), [visits]), "list_member_visits", { member_id: "G-9" });
    expect(failure(missing.outcome)).toBe("MEMBER_NOT_FOUND");
  });

  it("reads the member itself when the name names no list of another kind", async () => {
    const get = tool("get_member", "Get a member.", { member_id: text });
    const { answer } = await call(world(gym(), [get]), "get_member", { member_id: "G-2" });
    expect(answer).toMatchObject({ member_id: "G-2", plan: "yearly" });
  });
});

const studio = () => ({
  albums: {
    "AL-1": { album_id: "AL-1", title: "Coast", archived: false, pinned: true },
    "AL-2": { album_id: "AL-2", title: "Snow", archived: true, pinned: false },
  },
});

describe("a verb whose participle names a flag of the records", () => {
  it("sets the flag the verb names and no other", async () => {
    const archive = tool("archive_album", "Archive an album.", { album_id: text });
    const { after, report } = await call(world(studio(), [archive]), "archive_album", { album_id: "AL-1" });
    expect(report.verdict).toBe("inferred");
    expect((after.albums as Record<string, unknown>)["AL-1"]).toMatchObject({ archived: true, pinned: true });
    expect((after.albums as Record<string, Record<string, unknown>>)["AL-1"]?.status).toBeUndefined();
  });

  it("clears it for the verb undone, and finds an irregular participle", async () => {
    const unarchive = tool("unarchive_album", "Bring an album back from the archive.", { album_id: text });
    const back = await call(world(studio(), [unarchive]), "unarchive_album", { album_id: "AL-2" });
    expect((back.after.albums as Record<string, unknown>)["AL-2"]).toMatchObject({ archived: false });
    const hidden = { albums: { "AL-1": { album_id: "AL-1", title: "Coast", hidden: false } } };
    const hide = tool("hide_album", "Hide an album from the gallery.", { album_id: text });
    const gone = await call(world(hidden, [hide]), "hide_album", { album_id: "AL-1" });
    expect((gone.after.albums as Record<string, unknown>)["AL-1"]).toMatchObject({ hidden: true });
  });

  it("leaves a record without such a flag to the other rules, and answers the record's not-found error", async () => {
    const pin = tool("pin_album", "Pin an album.", { album_id: text });
    const missing = await call(world(studio(), [pin]), "pin_album", { album_id: "AL-9" });
    expect(failure(missing.outcome)).toBe("ALBUM_NOT_FOUND");
    const plain = { albums: { "AL-1": { album_id: "AL-1", title: "Coast" } } };
    const { report } = inferred(
      world(plain, [tool("frame_album", "Frame an album.", { album_id: text })]),
      "frame_album",
    );
    expect(report.verdict).not.toBe("inferred");
  });
});

const shed = () => ({
  tools: {
    "T-drill": { tool_id: "T-drill", label: "Cordless drill", units_available: 1 },
    "T-saw": { tool_id: "T-saw", label: "Jigsaw", units_available: 0 },
  },
  neighbours: { "N-1": { neighbour_id: "N-1", name: "Pia" } },
  lendings: {
    "LD-1": { lending_id: "LD-1", tool_id: "T-saw", neighbour_id: "N-1", until: "2026-03-09" },
  },
});

describe("a verb toolsim does not know, answering the id of a new record of another kind", () => {
  const lend = tool(
    "lend_tool",
    "Lend a tool to a neighbour until a date.",
    { tool_id: text, neighbour_id: text, until: text },
    ["tool_id", "neighbour_id", "until"],
    [],
    outputs({ lending_id: text }),
  );

  it("makes that record from its arguments, with the next id, and takes one from what is left", async () => {
    const { after, answer, report } = await call(world(shed(), [lend]), "lend_tool", {
      tool_id: "T-drill",
      neighbour_id: "N-1",
      until: "2026-03-10",
    });
    expect(report.verdict).toBe("inferred");
    expect(answer).toMatchObject({ lending_id: "LD-2" });
    expect((after.lendings as Record<string, unknown>)["LD-2"]).toMatchObject({
      tool_id: "T-drill",
      neighbour_id: "N-1",
      until: "2026-03-10",
    });
    expect((after.tools as Record<string, { units_available: number }>)["T-drill"]?.units_available).toBe(0);
  });

  it("refuses when none is left, and for a tool or neighbour that does not exist", async () => {
    const args = { neighbour_id: "N-1", until: "2026-03-10" };
    const gone = await call(world(shed(), [lend]), "lend_tool", { ...args, tool_id: "T-saw" });
    expect(gone.outcome.status).toBe("failed");
    expect(
      failure(
        await call(world(shed(), [lend]), "lend_tool", { ...args, tool_id: "T-x" }).then((r) => r.outcome),
      ),
    ).toBe("TOOL_NOT_FOUND");
    const nobody = await call(world(shed(), [lend]), "lend_tool", {
      ...args,
      tool_id: "T-drill",
      neighbour_id: "N-7",
    });
    expect(failure(nobody.outcome)).toBe("NEIGHBOUR_NOT_FOUND");
  });

  it("a two-word verb is one verb: the noun after it is no verb", async () => {
    const checkout = tool(
      "check_out_tool",
      "Check a tool out for a neighbour.",
      { tool_id: text, neighbour_id: text, until: text },
      ["tool_id", "neighbour_id", "until"],
      [],
      outputs({ lending_id: text }),
    );
    const { after } = await call(world(shed(), [checkout]), "check_out_tool", {
      tool_id: "T-drill",
      neighbour_id: "N-1",
      until: "2026-03-11",
    });
    expect(Object.keys(after.lendings as object)).toEqual(["LD-1", "LD-2"]);
  });
});

describe("a search over the fields its docs name", () => {
  const pantry = () => ({
    recipes: {
      R1: { recipe_id: "R1", name: "Dal", cuisine: "Indian", notes: "lentils" },
      R2: { recipe_id: "R2", name: "Paella", cuisine: "Spanish", notes: "rice" },
      R3: { recipe_id: "R3", name: "Indian-style omelette", cuisine: "fusion", notes: "eggs" },
    },
  });

  it("matches any of the fields the argument's description names", async () => {
    const search = tool("search_recipes", "Search recipes.", {
      query: { type: "string", description: "Words to look for in the name or cuisine." },
    });
    const { answer } = await call(world(pantry(), [search]), "search_recipes", { query: "indian" });
    expect((answer as { recipe_id: string }[]).map((r) => r.recipe_id)).toEqual(["R1", "R3"]);
  });

  it("matches one field where the docs name none", async () => {
    const search = tool("search_recipes", "Search recipes.", { query: text });
    const { answer } = await call(world(pantry(), [search]), "search_recipes", { query: "spanish" });
    expect(answer).toEqual([]);
  });
});
