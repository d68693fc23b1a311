import { describe, expect, it } from "vitest";
import { inferred, integer, text, tool, world } from "./support/infer-world.js";

/**
 * Which properties of a tool's answer its effects ground (read from the state, echoed from the
 * arguments, or computed) and which are left to synthesis: a tool whose every output property
 * is grounded is inferred; one with guesses is only partly inferred, and its report says which.
 */

const out = (properties: Record<string, unknown>) => ({ outputSchema: { type: "object", properties } });

const shop = world(
  {
    theme: "dark",
    volume: 3,
    orders: { "O-1": { order_id: "O-1", status: "open", total: 5 } },
    flights: { F1: { flight_id: "F1", seats: { economy: 3 } } },
  },
  [
    tool(
      "get_order",
      "Get an order.",
      { order_id: text },
      undefined,
      [],
      out({ order_id: text, status: text, total: integer }),
    ),
    tool(
      "get_order_mood",
      "Get an order.",
      { order_id: text },
      undefined,
      [],
      out({ order_id: text, total: integer, mood: text }),
    ),
    tool("get_order_plain", "Get an order.", { order_id: text }),
    tool(
      "create_order",
      "Create an order.",
      { total: integer },
      undefined,
      [],
      out({ order: { type: "object" }, note: text }),
    ),
    tool(
      "set_volume",
      "Set the volume.",
      { volume: integer },
      undefined,
      [],
      out({ theme: text, volume: integer, muted: { type: "boolean" } }),
    ),
    tool(
      "get_seats",
      "Seats left.",
      { flight_id: text, fare_class: text },
      undefined,
      [],
      out({ fare_class: text, seats: integer, cabin: text }),
    ),
    tool(
      "cancel_order",
      "Cancel an order.",
      { order_id: text, reason: text },
      undefined,
      [],
      out({ reason: text, refund: integer }),
    ),
  ],
);

const grounding = (name: string) => {
  const { report } = inferred(shop, name);
  return { verdict: report.verdict, grounded: report.grounded, guessed: report.guessed, gaps: report.gaps };
};

describe("the answer's properties, grounded or guessed", () => {
  it("grounds every property a read of the record answers: the tool is inferred", () => {
    expect(grounding("get_order")).toEqual({
      verdict: "inferred",
      grounded: ["order_id", "status", "total"],
      guessed: [],
      gaps: [],
    });
  });

  it("names a property the state does not hold as a guess: the tool is only partly inferred", () => {
    expect(grounding("get_order_mood")).toEqual({
      verdict: "partly",
      grounded: ["order_id", "total"],
      guessed: ["mood"],
      gaps: ["guessed (synthesized): mood"],
    });
  });

  it("grounds the whole answer of a tool without an output schema when its effects answer", () => {
    expect(grounding("get_order_plain")).toMatchObject({
      verdict: "inferred",
      grounded: ["(answer)"],
      guessed: [],
    });
  });

  it("grounds the property a created record is answered under, not the others", () => {
    expect(grounding("create_order")).toMatchObject({ grounded: ["order"], guessed: ["note"] });
  });

  it("grounds the fields of the record at the top of the state, and properties answered one by one", () => {
    expect(grounding("set_volume")).toMatchObject({ grounded: ["theme", "volume"], guessed: ["muted"] });
    expect(grounding("get_seats")).toMatchObject({ grounded: ["fare_class", "seats"], guessed: ["cabin"] });
  });

  it("grounds a property that echoes an argument", () => {
    expect(grounding("cancel_order")).toMatchObject({ grounded: ["reason"], guessed: ["refund"] });
  });
});

describe("records found in arrays and inside other records", () => {
  const desk = world(
    {
      desk: { tickets: [{ ticket_id: "T-1", status: "open", subject: "Printer" }], name: "Front" },
      members: { m1: { member_id: "m1", cards: { c1: { card_id: "c1", kind: "debit" } } } },
    },
    [
      tool(
        "get_ticket",
        "Get a ticket.",
        { ticket_id: text },
        undefined,
        [],
        out({ ticket_id: text, status: text, priority: text }),
      ),
      tool(
        "get_member_card",
        "Get a member's card.",
        { member_id: text, card_id: text },
        undefined,
        [],
        out({ card_id: text, kind: text, limit: integer }),
      ),
    ],
  );

  it("grounds the fields of a record an array holds, told apart by its key field", () => {
    const { report } = inferred(desk, "get_ticket");
    expect(report).toMatchObject({ grounded: ["ticket_id", "status"], guessed: ["priority"] });
  });

  it("grounds the fields of a record kept inside another", () => {
    const { report } = inferred(desk, "get_member_card");
    expect(report).toMatchObject({ grounded: ["card_id", "kind"], guessed: ["limit"] });
  });
});

describe("an answer the effects decide whole", () => {
  it("grounds every property where the effects answer the whole result (a record found in any folder)", () => {
    const mail = world(
      { mailbox: { inbox: [{ message_id: 1, subject: "a" }], sent: [{ message_id: 2, subject: "b" }] } },
      [
        tool(
          "get_message",
          "Get a message.",
          { message_id: integer },
          undefined,
          [],
          out({ message_id: integer, subject: text, mood: text }),
        ),
      ],
    );
    const { report } = inferred(mail, "get_message");
    expect(report).toMatchObject({
      verdict: "inferred",
      grounded: ["message_id", "subject", "mood"],
      guessed: [],
    });
  });
});
