import { describe, expect, it } from "vitest";
import {
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * An inventory service with PascalCase operations and fields: items keyed by SKU, each with a
 * map of units on hand per warehouse (a map of plain values named by an argument), and an
 * array of adjustment records whose ids follow the 'ADJ-0000' format. Served without effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const stock = useDomain("inventory.json");

const BRACKET = {
  Sku: "SKU-1042",
  Name: "Cedar shelf bracket",
  Category: "hardware",
  Unit: "each",
  ReorderPoint: 20,
  Active: true,
  OnHand: { north: 34, south: 8 },
};
const HINGE = {
  Sku: "SKU-3307",
  Name: "Brass hinge, pair",
  Category: "hardware",
  Unit: "pair",
  ReorderPoint: 50,
  Active: true,
  OnHand: { north: 120, south: 64 },
};
const OIL = {
  Sku: "SKU-2210",
  Name: "Linseed oil, 500 ml",
  Category: "finishes",
  Unit: "bottle",
  ReorderPoint: 10,
  Active: true,
  OnHand: { north: 0, south: 15 },
};

function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _left, ...rest } = record;
  return rest;
}

const item = async (Sku: string) => expectOk(await stock.call("GetItem", { Sku }));
const level = async (Sku: string, Warehouse: string) =>
  fieldsOf(await stock.call("GetStockLevel", { Sku, Warehouse })).OnHand;
const skus = async (args: Record<string, unknown> = {}) => {
  const items = fieldsOf(await stock.call("ListItems", args)).Items;
  return Array.isArray(items) ? items.map((i: { Sku?: unknown }) => i.Sku) : items;
};
const adjustmentIds = async (args: Record<string, unknown> = {}) => {
  const adjustments = fieldsOf(await stock.call("ListAdjustments", args)).Adjustments;
  return Array.isArray(adjustments)
    ? adjustments.map((a: { AdjustmentId?: unknown }) => a.AdjustmentId)
    : adjustments;
};

describe("inventory: items keyed by SKU, on-hand maps per warehouse, an adjustment log", () => {
  it("an item answers its stored record with its per-warehouse counts, none guessed", async () => {
    const answer = await stock.call("GetItem", { Sku: "SKU-1042" });
    expectRecord(answer, BRACKET);
    expectGrounded(answer, Object.keys(BRACKET));
    expectError(await stock.call("GetItem", { Sku: "SKU-9999" }), "ITEM_NOT_FOUND");
  });

  it("items are listed, and filtered by category", async () => {
    const answer = await stock.call("ListItems", { Category: "hardware" });
    expect.soft(expectOk(answer).Items).toMatchObject([
      { Sku: "SKU-1042", Name: "Cedar shelf bracket", Category: "hardware" },
      { Sku: "SKU-3307", Name: "Brass hinge, pair", Category: "hardware" },
    ]);
    expectGrounded(answer, ["Items"]);
    expect.soft(await skus()).toEqual(["SKU-1042", "SKU-2210", "SKU-3307"]);
    expect.soft(await skus({ Category: "garden" })).toEqual([]);
  });

  it("a stock level answers the count stored for that warehouse, zero included", async () => {
    const answer = await stock.call("GetStockLevel", { Sku: "SKU-2210", Warehouse: "north" });
    expectRecord(answer, { Sku: "SKU-2210", Warehouse: "north", OnHand: 0 }, without(OIL, "OnHand"));
    expectGrounded(answer, ["Sku", "Warehouse", "OnHand"]);
    expect.soft(await level("SKU-2210", "south")).toBe(15);
    expect.soft(await level("SKU-3307", "north")).toBe(120);
  });

  it("a warehouse the item has no count for, or an unknown SKU, answers the documented error", async () => {
    expectError(
      await stock.call("GetStockLevel", { Sku: "SKU-2210", Warehouse: "east" }),
      "WAREHOUSE_NOT_FOUND",
    );
    expectError(await stock.call("GetStockLevel", { Sku: "SKU-9999", Warehouse: "north" }), "ITEM_NOT_FOUND");
  });

  it("received stock adds to that warehouse's count only, seen by both reads", async () => {
    const answer = await stock.call("ReceiveStock", { Sku: "SKU-2210", Warehouse: "north", Quantity: 24 });
    expectRecord(answer, { Sku: "SKU-2210", Warehouse: "north", OnHand: 24 }, without(OIL, "OnHand"));
    expect.soft(await level("SKU-2210", "north")).toBe(24);
    expect.soft((await item("SKU-2210")).OnHand).toEqual({ north: 24, south: 15 });
    expectError(
      await stock.call("ReceiveStock", { Sku: "SKU-9999", Warehouse: "north", Quantity: 1 }),
      "ITEM_NOT_FOUND",
    );
  });

  it("an adjustment changes the count by its delta and is logged under the next ADJ number", async () => {
    const answer = await stock.call("AdjustStock", {
      Sku: "SKU-1042",
      Warehouse: "south",
      Delta: -3,
      Reason: "damaged",
    });
    expectRecord(
      answer,
      { AdjustmentId: "ADJ-0009", Sku: "SKU-1042", Warehouse: "south", Delta: -3, Reason: "damaged" },
      { RecordedAt: expect.stringMatching(/^2026-03-02T/), ...BRACKET, OnHand: { north: 34, south: 5 } },
    );
    expectGrounded(answer, ["AdjustmentId", "Sku", "Warehouse", "Delta", "Reason"]);
    expect.soft(await level("SKU-1042", "south")).toBe(5);
    expect.soft(await adjustmentIds({ Sku: "SKU-1042" })).toEqual(["ADJ-0007", "ADJ-0009"]);
    expect.soft(await adjustmentIds()).toEqual(["ADJ-0007", "ADJ-0008", "ADJ-0009"]);
    const next = await stock.call("AdjustStock", {
      Sku: "SKU-3307",
      Warehouse: "north",
      Delta: 2,
      Reason: "found",
    });
    expect.soft(fieldsOf(next).AdjustmentId).toBe("ADJ-0010");
    expect.soft(await level("SKU-3307", "north")).toBe(122);
  });

  it("an adjustment below zero on hand is refused and changes nothing", async () => {
    expectError(
      await stock.call("AdjustStock", { Sku: "SKU-1042", Warehouse: "south", Delta: -50, Reason: "lost" }),
      "NEGATIVE_STOCK",
    );
    expect.soft(await level("SKU-1042", "south")).toBe(8);
    expect.soft(await adjustmentIds()).toEqual(["ADJ-0007", "ADJ-0008"]);
  });

  it("the adjustment log answers the stored records", async () => {
    const answer = await stock.call("ListAdjustments", { Sku: "SKU-2210" });
    expect
      .soft(expectOk(answer).Adjustments)
      .toMatchObject([
        { AdjustmentId: "ADJ-0008", Sku: "SKU-2210", Warehouse: "south", Delta: 3, Reason: "found" },
      ]);
    expectGrounded(answer, ["Adjustments"]);
  });

  it("a created item is read back under its SKU and listed; a taken SKU is refused", async () => {
    const answer = await stock.call("CreateItem", {
      Sku: "SKU-5001",
      Name: "Oak dowel, 8 mm",
      Category: "hardware",
      Unit: "each",
      ReorderPoint: 100,
    });
    expectRecord(
      answer,
      { Sku: "SKU-5001", Name: "Oak dowel, 8 mm", Category: "hardware", Unit: "each", ReorderPoint: 100 },
      { Active: true, OnHand: {} },
    );
    expect
      .soft(await item("SKU-5001"))
      .toMatchObject({ Name: "Oak dowel, 8 mm", Active: true, ReorderPoint: 100 });
    expect.soft(await skus({ Category: "hardware" })).toEqual(["SKU-1042", "SKU-3307", "SKU-5001"]);
    expectError(
      await stock.call("CreateItem", {
        Sku: "SKU-1042",
        Name: "Impostor",
        Category: "hardware",
        Unit: "each",
      }),
      "SKU_ALREADY_EXISTS",
    );
    expect.soft(await item("SKU-1042")).toMatchObject({ Name: "Cedar shelf bracket" });
  });

  it("a reorder point update is seen by later reads", async () => {
    expectRecord(
      await stock.call("UpdateReorderPoint", { Sku: "SKU-3307", ReorderPoint: 40 }),
      { Sku: "SKU-3307", ReorderPoint: 40 },
      HINGE,
    );
    expect.soft(await item("SKU-3307")).toMatchObject({ ReorderPoint: 40, Name: "Brass hinge, pair" });
    expectError(
      await stock.call("UpdateReorderPoint", { Sku: "SKU-9999", ReorderPoint: 1 }),
      "ITEM_NOT_FOUND",
    );
  });

  it("a transfer moves units between the warehouses' counts; more than on hand is refused", async () => {
    const answer = await stock.call("TransferStock", {
      Sku: "SKU-3307",
      FromWarehouse: "north",
      ToWarehouse: "south",
      Quantity: 20,
    });
    expectRecord(answer, { Sku: "SKU-3307", OnHand: { north: 100, south: 84 } }, without(HINGE, "OnHand"));
    expect.soft((await item("SKU-3307")).OnHand).toEqual({ north: 100, south: 84 });
    expectError(
      await stock.call("TransferStock", {
        Sku: "SKU-1042",
        FromWarehouse: "south",
        ToWarehouse: "north",
        Quantity: 9,
      }),
      "INSUFFICIENT_STOCK",
    );
    expect.soft((await item("SKU-1042")).OnHand).toEqual({ north: 34, south: 8 });
  });

  it("a discontinued item stays listed but is no longer active", async () => {
    expectRecord(
      await stock.call("DiscontinueItem", { Sku: "SKU-2210" }),
      { Sku: "SKU-2210", Active: false },
      OIL,
    );
    expect.soft(await item("SKU-2210")).toMatchObject({ Active: false, Name: "Linseed oil, 500 ml" });
    expect.soft(await skus()).toEqual(["SKU-1042", "SKU-2210", "SKU-3307"]);
    expectError(await stock.call("DiscontinueItem", { Sku: "SKU-9999" }), "ITEM_NOT_FOUND");
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(stock.breaches).toEqual([]);
  });
});
