import { describe, expect, it } from "vitest";
import type { Draft } from "../src/infer/drafts.js";
import { factsOf } from "../src/infer/facts.js";
import { groundingOf } from "../src/infer/grounding.js";
import { shapeOf } from "../src/infer/shape.js";
import { bool, inferred, integer, number, outputs as out, text, tool, world } from "./support/infer-world.js";

/**
 * Which properties of a tool's answer its effects ground (read from the state, echoed from the
 * arguments, or computed) and which are left to synthesis: a tool whose every output property
 * is grounded is inferred; one with guesses is only partly inferred, and its report says which.
 */

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

/**
 * The grounding of an answer from the drafts inference made, one draft at a time: what each
 * kind of draft (an answer, a read, a create, an update) grounds, and where in the state.
 */
describe("what each draft of a tool's effects grounds", () => {
  const store = {
    theme: "dark",
    volume: 3,
    orders: {
      "O-1": { order_id: "O-1", status: "open", total: 5, ship: { city: "Oslo", geo: { lat: 59 } } },
    },
    members: {
      m1: {
        member_id: "m1",
        cards: { c1: { card_id: "c1", kind: "debit", perks: { tier: "gold", points: 10 } } },
      },
    },
    mailbox: { inbox: { unread: 2, owner: "me" } },
    tags: ["new", "sale"],
  };
  const shape = shapeOf([store]);

  /** The facts of one tool with these parameters and, when given, these output properties. */
  const factsFor = (outputs?: Record<string, unknown>, params: Record<string, unknown> = {}) => {
    const toolset = world(store, [tool("act", "Act.", params, undefined, [], outputs ? out(outputs) : {})]);
    const only = toolset.tools[0];
    if (!only) throw new Error("no tool");
    return factsOf(only);
  };
  const ground = (outputs: Record<string, unknown> | undefined, drafts: Draft[], params = {}) =>
    groundingOf(factsFor(outputs, params), shape, drafts);

  it("grounds the property a dotted answer path starts with, not its inner field", () => {
    expect(
      ground({ ship: { type: "object" }, note: text }, [
        { kind: "respond", output: "ship.city", value: { $expr: "'Oslo'" } },
      ]),
    ).toEqual({ grounded: ["ship"], guessed: ["note"] });
    expect(
      ground({ order: { type: "object" }, note: text }, [
        { kind: "read", target: "orders/{order_id}", output: "order.details" },
      ]),
    ).toEqual({ grounded: ["order"], guessed: ["note"] });
  });

  it("grounds every property when an answer is decided whole, with no output path or the root one", () => {
    const outputs = { status: text, mood: text };
    for (const output of [undefined, "", "."])
      expect(
        ground(outputs, [{ kind: "respond", ...(output === undefined ? {} : { output }), value: 1 }]),
      ).toEqual({
        grounded: ["status", "mood"],
        guessed: [],
      });
  });

  it("grounds a record read whole at the root path as its fields, and nothing it does not hold", () => {
    expect(
      ground({ order_id: text, status: text, mood: text }, [
        { kind: "read", target: "orders/{order_id}", output: "." },
      ]),
    ).toEqual({ grounded: ["order_id", "status"], guessed: ["mood"] });
  });

  it("grounds the top-level fields of the state for a read of the root record", () => {
    expect(
      ground({ theme: text, volume: integer, muted: bool }, [{ kind: "read", target: ".", output: "" }]),
    ).toEqual({ grounded: ["theme", "volume"], guessed: ["muted"] });
  });

  it("grounds only the top fields of a record, not the fields of objects inside it", () => {
    // `ship` is one of an order's fields; `city` is only inside it
    expect(
      ground({ ship: { type: "object" }, city: text }, [
        { kind: "read", target: "orders/{order_id}", output: "" },
      ]),
    ).toEqual({ grounded: ["ship"], guessed: ["city"] });
  });

  it("grounds the fields of an object inside a record, one level down, for a read that reaches it", () => {
    expect(
      ground({ city: text, geo: { type: "object" }, lat: number, status: text }, [
        { kind: "read", target: "orders/{order_id}/ship", output: "" },
      ]),
    ).toEqual({ grounded: ["city", "geo"], guessed: ["lat", "status"] });
  });

  it("grounds the fields of a record of a nested collection, reached by placeholders or by its keys", () => {
    const outputs = { card_id: text, kind: text, limit: integer };
    for (const target of ["members/{member_id}/cards/{card_id}", "members/m1/cards/c1"])
      expect(ground(outputs, [{ kind: "read", target, output: "" }])).toEqual({
        grounded: ["card_id", "kind"],
        guessed: ["limit"],
      });
  });

  it("grounds the fields of an object inside a record named by its key rather than a placeholder", () => {
    expect(
      ground({ city: text, status: text }, [{ kind: "read", target: "orders/O-1/ship", output: "" }]),
    ).toEqual({
      grounded: ["city"],
      guessed: ["status"],
    });
  });

  it("grounds the fields of an object two levels inside a record", () => {
    expect(
      ground({ lat: number, city: text }, [
        { kind: "read", target: "orders/{order_id}/ship/geo", output: "" },
      ]),
    ).toEqual({ grounded: ["lat"], guessed: ["city"] });
  });

  it("grounds the fields of an object inside a record of a nested collection", () => {
    expect(
      ground({ tier: text, points: integer, kind: text }, [
        { kind: "read", target: "members/{member_id}/cards/{card_id}/perks", output: "" },
      ]),
    ).toEqual({ grounded: ["tier", "points"], guessed: ["kind"] });
  });

  it("grounds nothing of an object a record of one collection does not have, though another's records do", () => {
    // orders have a `ship` object; members do not
    expect(
      ground({ city: text }, [{ kind: "read", target: "members/{member_id}/ship", output: "" }]),
    ).toEqual({ grounded: [], guessed: ["city"] });
  });

  it("grounds the fields of a record a placeholder picks among named ones (a folder by name)", () => {
    expect(
      ground({ unread: integer, owner: text, size: integer }, [
        { kind: "read", target: "mailbox/{folder}", output: "" },
      ]),
    ).toEqual({ grounded: ["unread", "owner"], guessed: ["size"] });
  });

  it("grounds nothing for a whole read of a list of plain values or of a path the state lacks", () => {
    const outputs = { tags: { type: "array" }, name: text };
    expect(ground(outputs, [{ kind: "read", target: "tags", output: "" }])).toEqual({
      grounded: [],
      guessed: ["tags", "name"],
    });
    expect(ground(outputs, [{ kind: "read", target: "shelves/{shelf_id}", output: "" }])).toEqual({
      grounded: [],
      guessed: ["tags", "name"],
    });
  });

  it("grounds a created record's id and the fields the create sets, not the fields its siblings have", () => {
    expect(
      ground({ order_id: text, status: text, total: integer }, [
        { kind: "create", target: "orders", id: { field: "order_id" }, set: { status: "open" }, output: "" },
      ]),
    ).toEqual({ grounded: ["order_id", "status"], guessed: ["total"] });
    // a create with neither an id nor fields grounds nothing of the record
    expect(
      ground({ order_id: text, status: text }, [{ kind: "create", target: "orders", output: "" }]),
    ).toEqual({
      grounded: [],
      guessed: ["order_id", "status"],
    });
  });

  it("grounds an updated record's fields and a field the update adds to it", () => {
    expect(
      ground({ status: text, flagged: bool, mood: text }, [
        { kind: "update", target: "orders/{order_id}", set: { flagged: true }, output: "" },
      ]),
    ).toEqual({ grounded: ["status", "flagged"], guessed: ["mood"] });
    expect(
      ground({ status: text, mood: text }, [{ kind: "update", target: "orders/{order_id}", output: "" }]),
    ).toEqual({ grounded: ["status"], guessed: ["mood"] });
  });

  it("grounds nothing from a draft that answers nothing, such as a check before the answer", () => {
    expect(
      ground({ status: text }, [
        { kind: "check", if: { $expr: "true" } },
        { kind: "read", target: "orders/{order_id}" },
      ]),
    ).toEqual({ grounded: [], guessed: ["status"] });
  });
});

describe("the answer of a tool without an output schema", () => {
  const shape = shapeOf([{ orders: { "O-1": { order_id: "O-1" } } }]);
  const facts = () => {
    const only = world({}, [tool("act", "Act.", { order_id: text })]).tools[0];
    if (!only) throw new Error("no tool");
    return factsOf(only);
  };

  it("is a guess when the effects only check and bind, or do nothing, whatever the arguments", () => {
    const guess = { grounded: [], guessed: ["(answer)"] };
    expect(groundingOf(facts(), shape, [])).toEqual(guess);
    expect(
      groundingOf(facts(), shape, [
        { kind: "check", if: { $expr: "true" } },
        { kind: "let", name: "x", value: 1 },
      ]),
    ).toEqual(guess);
  });

  it("is grounded when any effect beside the checks acts, even one that answers nothing itself", () => {
    expect(
      groundingOf(facts(), shape, [
        { kind: "check", if: { $expr: "true" } },
        { kind: "update", target: "orders/{order_id}", set: { seen: true } },
      ]),
    ).toEqual({ grounded: ["(answer)"], guessed: [] });
  });

  it("is grounded by a record read whole, whatever fields the record has", () => {
    expect(groundingOf(facts(), shape, [{ kind: "read", target: "nowhere/{x}", output: "" }])).toEqual({
      grounded: ["(answer)"],
      guessed: [],
    });
  });
});
