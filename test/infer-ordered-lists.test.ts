import { describe, expect, it } from "vitest";
import { bool, call, error, failure, integer, outputs, text, tool, world } from "./support/infer-world.js";

/**
 * A karaoke night's queue of singers, whose order matters, and the singers sitting a round out
 * (every one of them also in the queue): tools named for singers, not for either list, whose
 * docs name the list they act on.
 */

const night = () => ({ venue: "The Lantern", queue: ["ana", "ben", "cho", "dee"], skipped: ["ben"] });

const strings = { type: "array", items: { type: "string" } };
const notQueued = error("NOT_QUEUED", "Not queued.", "the name is not in queue", 404);

describe("a list whose order matters, named by the docs", () => {
  it("inserts at a 0-based index or at the end, refusing a name already there or a place out of range", async () => {
    const add = tool(
      "karaoke_add_singer",
      "Puts name into queue at index position (0 to the queue's length), later singers moving back; without position it goes at the end. Returns name, position (its index now) and queue_length. Errors in order: ALREADY_QUEUED if the name is already in queue; BAD_POSITION if position is out of range.",
      { name: text, position: integer },
      ["name"],
      [
        error("ALREADY_QUEUED", "Already queued.", "the name is already in queue", 409),
        error("BAD_POSITION", "Bad position.", "position is out of range"),
      ],
      outputs({ name: text, position: integer, queue_length: integer }),
    );
    const toolset = world(night(), [add]);
    const front = await call(toolset, "karaoke_add_singer", { name: "eve", position: 1 });
    expect(front.after.queue).toEqual(["ana", "eve", "ben", "cho", "dee"]);
    expect(front.answer).toEqual({ name: "eve", position: 1, queue_length: 5 });
    const end = await call(toolset, "karaoke_add_singer", { name: "fay" });
    expect(end.after.queue).toEqual(["ana", "ben", "cho", "dee", "fay"]);
    expect(end.answer).toMatchObject({ position: 4 });
    expect(failure((await call(toolset, "karaoke_add_singer", { name: "cho" })).outcome)).toBe(
      "ALREADY_QUEUED",
    );
    expect(failure((await call(toolset, "karaoke_add_singer", { name: "gus", position: 9 })).outcome)).toBe(
      "BAD_POSITION",
    );
  });

  it("takes a name out of the list and out of the list that holds only its names", async () => {
    const remove = tool(
      "karaoke_remove_singer",
      "Takes name out of queue, and out of skipped too. Returns removed and was_skipped. Errors: NOT_QUEUED if the name is not in queue.",
      { name: text },
      ["name"],
      [notQueued],
      outputs({ removed: text, was_skipped: bool }),
    );
    const toolset = world(night(), [remove]);
    const gone = await call(toolset, "karaoke_remove_singer", { name: "ben" });
    expect(gone.after).toMatchObject({ queue: ["ana", "cho", "dee"], skipped: [] });
    expect(gone.answer).toEqual({ removed: "ben", was_skipped: true });
    expect(failure((await call(toolset, "karaoke_remove_singer", { name: "zed" })).outcome)).toBe(
      "NOT_QUEUED",
    );
  });

  it("moves a name to another index, answering where it was and the new order", async () => {
    const move = tool(
      "karaoke_move_singer",
      "Moves name within queue to index to_position. Returns name, from, to and queue. Errors: NOT_QUEUED if the name is not in queue; BAD_POSITION if to_position is out of range.",
      { name: text, to_position: integer },
      ["name", "to_position"],
      [notQueued, error("BAD_POSITION", "Bad position.", "to_position is out of range")],
      outputs({ name: text, from: integer, to: integer, queue: strings }),
    );
    const toolset = world(night(), [move]);
    const moved = await call(toolset, "karaoke_move_singer", { name: "dee", to_position: 0 });
    expect(moved.answer).toEqual({ name: "dee", from: 3, to: 0, queue: ["dee", "ana", "ben", "cho"] });
    expect(
      failure((await call(toolset, "karaoke_move_singer", { name: "ana", to_position: 4 })).outcome),
    ).toBe("BAD_POSITION");
  });

  it("toggles a name on the list of those sitting out, only for a name in the queue", async () => {
    const toggle = tool(
      "karaoke_toggle_sit_out",
      "Toggles name on skipped, the singers sitting this round out. Returns name and skipped (the new boolean). Errors: NOT_QUEUED if the name is not in queue.",
      { name: text },
      ["name"],
      [notQueued],
      outputs({ name: text, skipped: bool }),
    );
    const toolset = world(night(), [toggle]);
    const out = await call(toolset, "karaoke_toggle_sit_out", { name: "cho" });
    expect(out.after.skipped).toEqual(["ben", "cho"]);
    expect(out.answer).toEqual({ name: "cho", skipped: true });
    const back = await call(toolset, "karaoke_toggle_sit_out", { name: "ben" });
    expect(back.after.skipped).toEqual([]);
    expect(back.answer).toEqual({ name: "ben", skipped: false });
    expect(failure((await call(toolset, "karaoke_toggle_sit_out", { name: "zed" })).outcome)).toBe(
      "NOT_QUEUED",
    );
  });

  it("looks a name up: on which lists, and its index in the queue or null", async () => {
    const find = tool(
      "karaoke_find_singer",
      "Looks name up in queue. Returns name, in_queue, position (its 0-based index in queue, or null) and in_skipped.",
      { name: text },
      ["name"],
      [],
      outputs({ name: text, in_queue: bool, position: { type: ["integer", "null"] }, in_skipped: bool }),
    );
    const toolset = world(night(), [find]);
    const ben = await call(toolset, "karaoke_find_singer", { name: "ben" });
    expect(ben.answer).toEqual({ name: "ben", in_queue: true, position: 1, in_skipped: true });
    const zed = await call(toolset, "karaoke_find_singer", { name: "zed" });
    expect(zed.answer).toEqual({ name: "zed", in_queue: false, position: null, in_skipped: false });
  });
});
