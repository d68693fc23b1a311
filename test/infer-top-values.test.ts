import { describe, expect, it } from "vitest";
import { call, integer, outputs, text, tool, world } from "./support/infer-world.js";

/** A tram stop's display: values kept at the top of the state, a list of messages, and platforms. */
const stop = () => ({
  stop_name: "Harbour Gate",
  next_departure: "08:14",
  delay_min: 3,
  messages: ["Lift out of order"],
  platforms: {
    A: { platform: "A", status: "open", delay_min: 0 },
    B: { platform: "B", status: "closed", delay_min: 12 },
  },
});

const strings = { type: "array", items: { type: "string" } };

describe("outputs named like values the top of the state keeps", () => {
  it("answers them from the state beside the list the call reads", async () => {
    const board = tool(
      "stop_get_messages",
      "The messages the display shows, in order, with the `stop_name` and its `next_departure` beside them.",
      {},
      [],
      [],
      outputs({ messages: strings, stop_name: text, next_departure: text }),
    );
    const read = await call(world(stop(), [board]), "stop_get_messages", {});
    expect(read.answer).toEqual({
      messages: ["Lift out of order"],
      stop_name: "Harbour Gate",
      next_departure: "08:14",
    });
    expect(read.report.verdict).toBe("inferred");
  });

  it("answers them after a change the same call makes", async () => {
    const post = tool(
      "stop_post_message",
      "Adds a message to the end of `messages`. Answers the `messages` after the change and the stop's `next_departure`.",
      { message: text },
      ["message"],
      [],
      outputs({ messages: strings, next_departure: text }),
    );
    const done = await call(world(stop(), [post]), "stop_post_message", { message: "Buses replace trams" });
    expect(done.after.messages).toEqual(["Lift out of order", "Buses replace trams"]);
    expect(done.answer).toEqual({
      messages: ["Lift out of order", "Buses replace trams"],
      next_departure: "08:14",
    });
  });

  it("leaves a name the records below also keep to the record the call names", async () => {
    const platform = tool(
      "stop_get_platform",
      "One platform by its letter: its `status` and its own `delay_min`.",
      { platform: text },
      ["platform"],
      [],
      outputs({ platform: text, status: text, delay_min: integer }),
    );
    const read = await call(world(stop(), [platform]), "stop_get_platform", { platform: "B" });
    expect(read.answer).toEqual({ platform: "B", status: "closed", delay_min: 12 });
  });
  it("answers a list of plain values the top keeps beside the record the call reads", async () => {
    const platform = tool(
      "stop_get_platform_notices",
      "One platform by its letter, with the stop's `messages` beside it.",
      { platform: text },
      ["platform"],
      [],
      outputs({ platform: text, status: text, messages: strings }),
    );
    const read = await call(world(stop(), [platform]), "stop_get_platform_notices", { platform: "A" });
    expect(read.answer).toMatchObject({ platform: "A", status: "open", messages: ["Lift out of order"] });
  });
});
