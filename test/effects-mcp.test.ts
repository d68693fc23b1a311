import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, FIXTURES, tempDir } from "./support/index.js";

const STOREFRONT = join(FIXTURES, "core", "storefront.json");

describe("effects language v2 over MCP (real SDK client, spawned CLI)", () => {
  const dir = tempDir();
  let client: Client;

  beforeAll(async () => {
    ({ client } = await connectStdio(["--toolsets", STOREFRONT, "--db", join(dir.path, "toolsim.db")]));
  });
  afterAll(async () => {
    await client.close();
    dir.cleanup();
  });

  const textOf = (result: { content?: unknown }) =>
    (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join("");

  it("a result that is not an object is the text content, with no structured content", async () => {
    const total = await client.callTool({ name: "get_order_total", arguments: { order_id: "ORD-0001" } });
    expect(total.isError).toBeFalsy();
    expect(textOf(total)).toBe("55");
    expect(total.structuredContent).toBeUndefined();
    const status = await client.callTool({ name: "get_order_status", arguments: { order_id: "ORD-0001" } });
    expect(textOf(status)).toBe("placed"); // a raw string, not JSON-quoted
    const ids = await client.callTool({ name: "list_order_ids", arguments: { customer_id: "CUST-1" } });
    expect(JSON.parse(textOf(ids))).toEqual(["ORD-0001"]);
  });

  it("a computed write is visible to a later read, and a broken rule is an isError the catalog owns", async () => {
    const placed = await client.callTool({
      name: "place_order",
      arguments: { customer_id: "CUST-1", payment_method_id: "PM-1", items: [{ sku: "P-1", quantity: 2 }] },
    });
    expect(placed.isError).toBeFalsy();
    const id = (placed.structuredContent as { order: { order_id: string } }).order.order_id;
    const total = await client.callTool({ name: "get_order_total", arguments: { order_id: id } });
    expect(textOf(total)).toBe("25");
    const broken = await client.callTool({ name: "audit_stock", arguments: {} });
    expect(broken.isError).toBe(true);
    expect(JSON.parse(textOf(broken))).toMatchObject({ error: { code: "EFFECT_FAILED", status: 500 } });
  });
});
