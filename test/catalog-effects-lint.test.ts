import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadToolsets } from "../src/catalog/index.js";
import { FIXTURES, tempDir } from "./support/index.js";

const STOREFRONT = join(FIXTURES, "core", "storefront.json");
const dir = tempDir();
afterAll(() => dir.cleanup());

const storefront = () => JSON.parse(readFileSync(STOREFRONT, "utf8"));
const toolIndex = (toolset: { tools: Array<{ name: string }> }, name: string) =>
  toolset.tools.findIndex((t) => t.name === name);

function problemsOf(toolset: unknown): string[] {
  const file = join(dir.path, "toolset.json");
  writeFileSync(file, JSON.stringify(toolset));
  return loadToolsets([file]).problems.map((p) => `${p.severity} ${p.path}: ${p.message}`);
}

describe("lint of the effects language v2", () => {
  it("accepts a catalog that uses every feature", () => {
    expect(problemsOf(storefront())).toEqual([]);
  });

  it("names the JSON path and position of an expression that does not parse", () => {
    const toolset = storefront();
    const place = toolIndex(toolset, "place_order");
    toolset.tools[place].effects[5].when = "coupon = ";
    toolset.tools[place].effects[3].set.total.$expr = "$sum(items.(quantity * ))";
    expect(problemsOf(toolset)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error tools\\[${place}\\]\\.effects\\[3\\]\\.set\\.total\\.\\$expr: expression does not parse at position \\d+`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^error tools\\[${place}\\]\\.effects\\[5\\]\\.when: expression does not parse at position \\d+`,
        ),
      ),
    ]);
  });

  it("names arguments the input schema lacks, bindings not yet made, and unavailable functions", () => {
    const toolset = storefront();
    const place = toolIndex(toolset, "place_order");
    const effects = toolset.tools[place].effects;
    effects[3].set.discount.$expr = "voucher ? 5 : 0";
    effects[2].require.push({ expr: "$order.total > 0", error: "OUT_OF_STOCK" });
    effects[4].require[0].expr = "$subject.balance >= $random()";
    const search = toolIndex(toolset, "search_products");
    // in a list filter $ is the entity: its fields are not arguments
    toolset.tools[search].effects[0].filter = "price <= $args.max_price and stock > 0";
    expect(problemsOf(toolset)).toEqual([
      `error tools[${place}].effects[2].require[1].expr: expression reads $order (position 6), which is not defined here (defined: $args, $index, $item, $runtime, $subject and the functions)`,
      `error tools[${place}].effects[3].set.discount.$expr: expression reads the argument "voucher" (position 7), which is not a property of the inputSchema`,
      `error tools[${place}].effects[4].require[0].expr: $random is not available in effects: it is not deterministic (the same call on the same state must give the same answer)`,
    ]);
  });

  it("checks error codes, reserved binding names, {$item} outside each, and check guards on arguments", () => {
    const toolset = storefront();
    const place = toolIndex(toolset, "place_order");
    const effects = toolset.tools[place].effects;
    effects[3].computeError = "NOT_DOCUMENTED";
    effects[0].as = "subject";
    effects[5].append.coupons_used = "{$item.sku}";
    const transfer = toolIndex(toolset, "transfer_credit");
    toolset.tools[transfer].effects[0].require.push({
      field: "currency",
      equals: "USD",
      error: "SAME_CUSTOMER",
    });
    expect(problemsOf(toolset)).toEqual([
      `error tools[${place}].effects[0].as: "subject" is a name effects already use ($subject); choose another binding name`,
      `error tools[${place}].effects[3].computeError: error code NOT_DOCUMENTED is not among the tool's documented errors`,
      `error tools[${place}].effects[5]: template refers to "$item", which no earlier effect of place_order binds with "as" ({$item} exists only in an effect with "each")`,
      `error tools[${transfer}].effects[0].require[1].field: a check's field guard reads the arguments, and "currency" is not a property of the inputSchema`,
    ]);
  });

  it("names the unknown kind among the version 2 kinds", () => {
    const toolset = storefront();
    toolset.tools[0].effects[0].kind = "fetch";
    expect(problemsOf(toolset)).toEqual([
      'error tools[0].effects[0].kind: unknown effect kind "fetch"; expected read, list, create, update, delete, check, respond, let or tree',
    ]);
  });
});
