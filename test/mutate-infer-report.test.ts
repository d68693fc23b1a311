import { describe, expect, it } from "vitest";
import { Toolset as ToolsetSchema } from "../src/catalog/index.js";
import { inferToolset, renderReport, tally, tallyLine } from "../src/infer/index.js";
import { text, tool, world } from "./support/infer-world.js";

/**
 * The inference report as `toolsim infer` prints it: one block per tool without authored
 * effects (its verdict, what the rules decided, its gaps) and a tally line, which serve also
 * prints at start-up.
 */

const shop = world(
  {
    orders: {
      "O-1": { order_id: "O-1", status: "open", total: 5 },
      "O-2": { order_id: "O-2", status: "open", total: 7 },
    },
  },
  [
    tool("get_order", "Get an order.", { order_id: text }),
    tool("get_order_summary", "Get an order's summary.", { order_id: text }, undefined, [], {
      outputSchema: { type: "object", properties: { order_id: text, total: { type: "number" }, mood: text } },
    }),
    tool("frobnicate_widget", "Does something.", { widget: text }),
    tool("delete_order", "Delete an order.", { order_id: text }, undefined, [], {
      effects: [{ kind: "delete", target: "orders/{order_id}" }],
    }),
  ],
);

// inferred and rendered inside each test, where the test runner sees which code it reaches
const reportOf = () => inferToolset(shop).report;

describe("the tally of verdicts", () => {
  it("counts the tools without authored effects by verdict, and the authored apart", () => {
    const report = reportOf();
    expect(tally(report)).toEqual({ candidates: 3, inferred: 1, partly: 1, notInferred: 1, authored: 1 });
  });

  it("says how many were inferred, fully and partly, and how many not", () => {
    const report = reportOf();
    expect(tallyLine(report)).toBe(
      "inferred effects for 2 of 3 tool(s) without effects (1 fully, 1 partly); 1 not inferred",
    );
  });

  it("says there is nothing to infer when every tool has authored effects", () => {
    const authored = reportOf().filter((r) => r.verdict === "authored");
    expect(tallyLine(authored)).toBe("every tool has authored effects; nothing to infer");
    expect(tallyLine([])).toBe("every tool has authored effects; nothing to infer");
  });
});

describe("the report as text", () => {
  const render = () => {
    const report = reportOf();
    const rendered = renderReport(report);
    return { report, rendered, lines: rendered.split("\n") };
  };

  it("writes one block per tool without authored effects: its verdict, then its notes and gaps", () => {
    const { lines } = render();
    expect(lines[0]).toBe("w/get_order: inferred");
    const partly = lines.indexOf("w/get_order_summary: partly");
    const notInferred = lines.indexOf("w/frobnicate_widget: not inferred");
    expect(partly).toBeGreaterThan(0);
    expect(notInferred).toBeGreaterThan(partly);
    const block = lines.slice(partly + 1, notInferred);
    expect(block.filter((l) => l.startsWith("  - ")).length).toBeGreaterThan(0);
    expect(block).toContain("  ! guessed (synthesized): mood");
    expect(lines.slice(notInferred + 1, notInferred + 2)[0]).toMatch(/^ {2}- its verb \(frobnicate\)/);
  });

  it("leaves the tools with authored effects out, and ends with the tally line", () => {
    const { report, rendered } = render();
    expect(rendered).not.toContain("delete_order");
    expect(rendered.endsWith(`\n${tallyLine(report)}\n`)).toBe(true);
  });

  it("writes every note and gap of a tool under it, in order", () => {
    const { report, lines } = render();
    const entry = report.find((r) => r.tool === "get_order_summary");
    const start = lines.indexOf("w/get_order_summary: partly");
    const expected = [
      ...(entry?.notes ?? []).map((n) => `  - ${n}`),
      ...(entry?.gaps ?? []).map((g) => `  ! ${g}`),
    ];
    expect(lines.slice(start + 1, start + 1 + expected.length)).toEqual(expected);
  });

  it("writes only the tally line for a toolset whose tools all have authored effects", () => {
    const authored = ToolsetSchema.parse({
      id: "a",
      field: "Tests",
      subdomain: "Inference",
      description: "A world.",
      state: { orders: {} },
      tools: [
        tool("delete_order", "Delete an order.", { order_id: text }, undefined, [], {
          effects: [{ kind: "delete", target: "orders/{order_id}" }],
        }),
      ],
    });
    expect(renderReport(inferToolset(authored).report)).toBe(
      "every tool has authored effects; nothing to infer\n",
    );
  });
});

describe("a write that keeps nothing", () => {
  const gym = world(
    {
      classes: { spin: { class_id: "spin", seats: 12 }, yoga: { class_id: "yoga", seats: 8 } },
      bookings: { "B-1": { booking_id: "B-1", class_id: "spin", status: "confirmed" } },
    },
    [
      tool("subscribe", "Subscribe to a class's updates.", { class_id: text }),
      tool("cancel_booking", "Cancel a booking.", { booking_id: text }),
      tool("get_class", "Get a class.", { class_id: text }),
    ],
  );

  it("is reported partly, saying it changes nothing, while a read of the same record is inferred", () => {
    const { report } = inferToolset(gym);
    const subscribe = report.find((r) => r.tool === "subscribe");
    expect(subscribe?.verdict).toBe("partly");
    expect(subscribe?.gaps).toContain(
      'changes nothing: no argument or word of "subscribe" says what it changes',
    );
    expect(report.find((r) => r.tool === "get_class")?.verdict).toBe("inferred");
    const cancel = report.find((r) => r.tool === "cancel_booking");
    expect(cancel?.verdict).toBe("inferred");
    expect(cancel?.gaps).toEqual([]);
  });
});
