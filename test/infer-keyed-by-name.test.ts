import { describe, expect, it } from "vitest";
import { call, failure, integer, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Records kept in a map under their names (`rooms: {kiln: …}`), named by an argument called
 * for the thing itself (`room`), as a chat API names a channel: reads, posts into the record's
 * list, joining and leaving as the signed-in account, and queries named without a verb
 * (`room_history`).
 */

/** A ceramics studio: rooms by name, their members by artist key, and the artist signed in. */
const studio = (): State => ({
  studio: {
    me: { artist_id: "A2" },
    artists: { A1: { name: "Noor" }, A2: { name: "Piet" }, A3: { name: "Sun" } },
    rooms: {
      kiln: {
        topic: "Firing schedule",
        members: ["A1", "A3"],
        notes: [{ author: "A1", text: "Cone 6 Friday" }],
      },
      glaze: { topic: "Glaze tests", members: ["A2"], notes: [] },
    },
  },
});
const rooms = (after: State) => (after.studio as { rooms: Record<string, State> }).rooms;
const room = { type: "string", description: "The room's name." };

const notesOut = { type: "object", properties: { notes: { type: "array", items: { type: "object" } } } };
const history = tool(
  "roomHistory",
  "The notes left in a room, oldest first.",
  { room, limit: integer },
  ["room"],
  [],
  { outputSchema: notesOut },
);
const join = tool("joinRoom", "Join a room as the signed-in artist.", { room });
const leave = tool("leaveRoom", "Leave a room.", { room });
const post = tool("postNote", "Leave a note in a room as the signed-in artist.", { room, text });
const all = [history, join, leave, post];

describe("a record named by an argument called for the thing itself", () => {
  it("a query without a verb reads it, and an unknown name answers the not-found error", async () => {
    const read = await call(world(studio(), all), "roomHistory", { room: "kiln" });
    expect(read.answer).toMatchObject({ notes: [{ author: "A1", text: "Cone 6 Friday" }] });
    expect(read.report.verdict).toBe("inferred");
    const missing = await call(world(studio(), all), "roomHistory", { room: "attic" });
    expect(failure(missing.outcome)).toBe("ROOM_NOT_FOUND");
  });

  it("a note posted to it is kept in its list, written by the signed-in artist", async () => {
    const { after } = await call(world(studio(), all), "postNote", { room: "glaze", text: "Celadon ok" });
    expect(rooms(after).glaze?.notes).toEqual([
      expect.objectContaining({ text: "Celadon ok", author: "A2" }),
    ]);
    expect(rooms(after).kiln).toEqual(rooms(studio()).kiln);
  });

  it("joining adds the signed-in artist once, and leaving takes them out", async () => {
    const joined = await call(world(studio(), all), "joinRoom", { room: "kiln" });
    expect(rooms(joined.after).kiln?.members).toEqual(["A1", "A3", "A2"]);
    expect(joined.report.notes).toContain("adds the signed-in artist to the members of the room room names");
    const again = await call(world(studio(), all), "joinRoom", { room: "kiln" }, joined.after);
    expect(rooms(again.after).kiln?.members).toEqual(["A1", "A3", "A2"]);
    const left = await call(world(studio(), all), "leaveRoom", { room: "glaze" });
    expect(rooms(left.after).glaze?.members).toEqual([]);
    const unknown = await call(world(studio(), all), "joinRoom", { room: "attic" });
    expect(failure(unknown.outcome)).toBe("ROOM_NOT_FOUND");
  });

  it("a create's argument named for what it makes is its content, not a record to find", async () => {
    const add = tool("add_room", "Open a new room.", { room, topic: text });
    const { outcome, after } = await call(world(studio(), [add]), "add_room", {
      room: "wheel",
      topic: "Throwing",
    });
    expect(outcome.status).toBe("applied");
    expect(Object.keys(rooms(after))).toHaveLength(3);
  });

  it("an update whose other arguments set the record's fields names the record it changes", async () => {
    const edit = tool("edit_room", "Change a room's topic.", { room, topic: text });
    const { after } = await call(world(studio(), [edit]), "edit_room", {
      room: "glaze",
      topic: "Ash glazes",
    });
    expect(rooms(after).glaze?.topic).toBe("Ash glazes");
    expect(rooms(after).kiln?.topic).toBe("Firing schedule");
    const missing = await call(world(studio(), [edit]), "edit_room", { room: "attic", topic: "?" });
    expect(failure(missing.outcome)).toBe("ROOM_NOT_FOUND");
  });

  it("a verb-less name that ends with no read noun stays unknown", async () => {
    const odd = tool("roomKiln", "Something about rooms.", { room });
    const { report } = await call(world(studio(), [odd]), "roomKiln", { room: "kiln" });
    expect(report.notes.join(" ")).not.toMatch(/reads studio\/rooms/);
  });
});

describe("two maps keyed by the same name", () => {
  /** A glaze supplier's prices and the studio's stock, both by glaze code. */
  const supplies = (): State => ({
    prices: { CEL: { per_kg: 12 }, TEM: { per_kg: 9 } },
    stock: { CEL: { kg: 3 } },
  });
  const price = tool("get_price", "The price of a glaze.", { code: text });
  const stock = tool("get_stock", "How much of a glaze the studio holds.", { code: text });

  it("an argument named as the other tools name their keys reads the map the tool names", async () => {
    const held = await call(world(supplies(), [price, stock]), "get_stock", { code: "CEL" });
    expect(held.answer).toMatchObject({ kg: 3 });
    const none = await call(world(supplies(), [price, stock]), "get_stock", { code: "TEM" });
    expect(failure(none.outcome)).toBe("STOCK_NOT_FOUND");
    const priced = await call(world(supplies(), [price, stock]), "get_price", { code: "TEM" });
    expect(priced.answer).toMatchObject({ per_kg: 9 });
  });
});

describe("a store of plain values addressed by a bare key", () => {
  /** A kiosk's settings by key, beside a tally of numbers the key-value tools do not touch. */
  const kiosk = (): State => ({ settings: { greeting: "Welcome", language: "nl" }, tally: { visits: 4 } });
  const get = tool("kiosk_get", "Get the value of a key.", { key: text }, ["key"], [], {
    outputSchema: { type: "object", properties: { value: { type: ["string", "null"] } } },
  });
  const set = tool("kiosk_set", "Set a key to a value.", { key: text, value: text });
  const more = [get, set];

  it("set then get answer the value, and an unknown key answers the not-found error", async () => {
    const read = await call(world(kiosk(), more), "kiosk_get", { key: "greeting" });
    expect(read.answer).toMatchObject({ value: "Welcome" });
    const written = await call(world(kiosk(), more), "kiosk_set", { key: "theme", value: "dark" });
    expect(written.after.settings).toEqual({ greeting: "Welcome", language: "nl", theme: "dark" });
    expect(written.after.tally).toEqual({ visits: 4 });
    const missing = await call(world(kiosk(), more), "kiosk_get", { key: "volume" });
    expect(failure(missing.outcome)).toBe("KEY_NOT_FOUND");
  });

  it("a store of numbers beside one of text is not chosen where nothing says the type", async () => {
    const drop = tool("kiosk_drop", "Drop a key.", { key: text });
    const { after, report } = await call(world(kiosk(), [drop]), "kiosk_drop", { key: "language" });
    expect(after).toEqual(kiosk());
    expect(report.verdict).toBe("not inferred");
  });
});
