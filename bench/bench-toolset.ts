import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolsetInput } from "../src/catalog/index.js";

/**
 * The small toolset the round-trip bench calls: one read tool and one write tool with
 * effects, so every call goes through validation, the effects engine and a SQLite commit.
 * It is written to a temp folder at run time, so the bench does not depend on the shipped
 * toolsets' names.
 */
export const BENCH_TOOLSET_ID = "bench_inventory";
export const READ_TOOL = "bench_get_item";
export const WRITE_TOOL = "bench_adjust_stock";
export const CREATE_TOOL = "bench_add_item";
const ITEM_COUNT = 50;
/** Tools in the bench toolset. */
export const BENCH_TOOLS = 3;

const itemId = (n: number) => `ITM-${String(n).padStart(4, "0")}`;

const ITEM_SCHEMA = {
  type: "object",
  properties: {
    item_id: { type: "string" },
    name: { type: "string" },
    category: { type: "string", enum: ["tools", "garden", "kitchen", "lighting"] },
    stock: { type: "integer" },
    price: { type: "number", minimum: 0 },
    status: { type: "string", enum: ["active", "discontinued"] },
    updated_at: { type: "string", format: "date-time" },
    last_reason: { type: "string" },
  },
  required: ["item_id", "name", "stock"],
};

const ITEM_ID_PROPERTY = { type: "string", pattern: "^ITM-[0-9]{4}$", description: "Item id, ITM-####." };
const NOT_FOUND = {
  code: "ITEM_NOT_FOUND",
  status: 404,
  message: "No item {item_id}.",
  when: "the id is unknown",
};

export function benchToolset(): ToolsetInput {
  const items: Record<string, unknown> = {};
  for (let n = 1; n <= ITEM_COUNT; n++) {
    items[itemId(n)] = {
      item_id: itemId(n),
      name: `Catalog item ${n}`,
      category: ["tools", "garden", "kitchen", "lighting"][n % 4],
      stock: 20 + n,
      price: 4.5 + n,
      status: "active",
      updated_at: "2026-03-01T08:00:00Z",
    };
  }
  return {
    id: BENCH_TOOLSET_ID,
    field: "Retail",
    subdomain: "Inventory",
    description: "A small inventory used to measure the cost of one simulated call.",
    state: { items },
    tools: [
      {
        name: READ_TOOL,
        description: "Fetch one inventory item by id.",
        inputSchema: {
          type: "object",
          properties: { item_id: ITEM_ID_PROPERTY },
          required: ["item_id"],
          additionalProperties: false,
        },
        outputSchema: { type: "object", properties: { item: ITEM_SCHEMA }, required: ["item"] },
        errors: [NOT_FOUND],
        annotations: { readOnlyHint: true },
        effects: [{ kind: "read", target: "items/{item_id}", missing: "ITEM_NOT_FOUND", output: "item" }],
      },
      {
        name: WRITE_TOOL,
        description: "Add to or take from an item's stock, recording why.",
        inputSchema: {
          type: "object",
          properties: {
            item_id: ITEM_ID_PROPERTY,
            delta: {
              type: "integer",
              minimum: -100,
              maximum: 100,
              description: "Units to add (negative: remove).",
            },
            reason: { type: "string", enum: ["restock", "sale", "damage", "count"] },
          },
          required: ["item_id", "delta", "reason"],
          additionalProperties: false,
        },
        outputSchema: { type: "object", properties: { item: ITEM_SCHEMA }, required: ["item"] },
        errors: [NOT_FOUND],
        effects: [
          {
            kind: "update",
            target: "items/{item_id}",
            missing: "ITEM_NOT_FOUND",
            inc: { stock: "{delta}" },
            set: { updated_at: "{$now}", last_reason: "{reason}" },
            output: "item",
          },
        ],
      },
      {
        name: CREATE_TOOL,
        description: "Add a new item to the inventory; its id is minted.",
        inputSchema: {
          type: "object",
          properties: {
            name: { type: "string", minLength: 1 },
            category: { type: "string", enum: ["tools", "garden", "kitchen", "lighting"] },
            price: { type: "number", minimum: 0 },
          },
          required: ["name", "category", "price"],
          additionalProperties: false,
        },
        outputSchema: { type: "object", properties: { item: ITEM_SCHEMA }, required: ["item"] },
        effects: [
          {
            kind: "create",
            target: "items",
            id: { prefix: "ITM-", width: 4, field: "item_id" },
            set: {
              name: "{name}",
              category: "{category}",
              price: "{price}",
              stock: 0,
              status: "active",
              updated_at: "{$now}",
            },
            output: "item",
          },
        ],
      },
    ],
  };
}

/** Arguments of the i-th call: ids cycle through the items so calls are not all identical. */
export function readArgs(i: number): Record<string, unknown> {
  return { item_id: itemId((i % ITEM_COUNT) + 1) };
}

export function writeArgs(i: number): Record<string, unknown> {
  return {
    item_id: itemId((i % ITEM_COUNT) + 1),
    delta: i % 2 === 0 ? 3 : -2,
    reason: i % 2 ? "sale" : "restock",
  };
}

export function createArgs(i: number): Record<string, unknown> {
  return {
    name: `New item ${i}`,
    category: ["tools", "garden", "kitchen", "lighting"][i % 4],
    price: 3 + (i % 10),
  };
}

/** A call toolsim rejects before anything runs (the id does not match its pattern); the no-op answers it as any call. */
export function rejectedArgs(i: number): Record<string, unknown> {
  return { item_id: `item-${i}` };
}

export function writeBenchToolset(dir: string): string {
  const file = join(dir, `${BENCH_TOOLSET_ID}.json`);
  writeFileSync(file, JSON.stringify(benchToolset(), null, 2));
  return file;
}
