/**
 * In-process cost of the effects language, per evaluation and per effects run:
 *
 *   npm run prebench && node dist-bench/bench/expressions.js [--iterations 20000]
 *
 * - one expression evaluation for a few typical expressions (arithmetic on arguments, a sum
 *   over an order's items, a condition, a filter that rebuilds an array);
 * - the effects of a version 1 tool (templates only) and of a version 2 tool (expressions,
 *   each, nested targets) run against a small state, without the rest of a call.
 *
 * Prints one JSON object on stdout: µs of CPU time per operation (median of 5 rounds), so
 * that other work on a shared machine does not inflate the figures.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Tool, Toolset } from "../src/catalog/index.js";
import { Toolset as ToolsetFormat } from "../src/catalog/index.js";
import { runEffects } from "../src/engine/index.js";
import { evaluateExpression } from "../src/expr/index.js";
import { round } from "./stats.js";

const NOW = "2026-03-02T09:00:00Z";
const ORDER = {
  items: [
    { sku: "P-1", quantity: 2, unit_price: 12.5, line_total: 25 },
    { sku: "P-2", quantity: 1, unit_price: 30, line_total: 30 },
    { sku: "P-3", quantity: 4, unit_price: 4.25, line_total: 17 },
  ],
  status: "placed",
  total: 72,
};
const EXPRESSIONS: Record<string, string> = {
  arithmetic: "quantity * unit_price",
  sum: "$round($sum($order.items.(quantity * unit_price)) * 1.08, 2)",
  condition: '$order.status = "placed" and $order.total >= amount',
  filter: "[$order.items[sku != $args.sku]]",
};

async function perOperation(iterations: number, work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(2_000, iterations); i++) await work();
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const started = process.cpuUsage();
    for (let i = 0; i < iterations; i++) await work();
    const used = process.cpuUsage(started);
    rounds.push((used.user + used.system) / iterations);
  }
  rounds.sort((a, b) => a - b);
  return round(rounds[2] ?? Number.NaN, 2);
}

function storefront(): { toolset: Toolset; tool: (name: string) => Tool } {
  const file = new URL("../../test/fixtures/core/storefront.json", import.meta.url);
  const toolset = ToolsetFormat.parse(JSON.parse(readFileSync(file, "utf8")));
  return {
    toolset,
    tool: (name) => {
      const found = toolset.tools.find((t) => t.name === name);
      if (!found) throw new Error(`no tool ${name}`);
      return found;
    },
  };
}

async function main() {
  const { values } = parseArgs({ options: { iterations: { type: "string", default: "20000" } } });
  const iterations = Number(values.iterations);
  const args = { quantity: 3, unit_price: 2.5, amount: 50, sku: "P-2" };
  const expressionsUs: Record<string, number> = {};
  for (const [name, text] of Object.entries(EXPRESSIONS)) {
    const scope = { input: args, variables: { args, order: ORDER }, now: NOW };
    const probe = await evaluateExpression(text, scope);
    if (!probe.ok) throw new Error(`${name}: ${probe.error}`);
    expressionsUs[name] = await perOperation(iterations, () => evaluateExpression(text, scope));
  }
  const { toolset, tool } = storefront();
  const state = toolset.state;
  const templatesOnly = tool("ship_order"); // an update with a field guard: version 1 features
  const withExpressions = tool("place_order"); // each, nested targets, expression values and guards
  const placeArgs = {
    customer_id: "CUST-1",
    payment_method_id: "PM-1",
    items: [
      { sku: "P-1", quantity: 1 },
      { sku: "P-2", quantity: 1 },
    ],
    coupon: "SAVE10",
  };
  for (const [t, a] of [
    [templatesOnly, { order_id: "ORD-0001" }],
    [withExpressions, placeArgs],
  ] as const) {
    const probe = await runEffects(t, a, state, NOW);
    if (probe.status !== "applied") throw new Error(`${t.name}: ${JSON.stringify(probe)}`);
  }
  const effectsUs = {
    templatesOnly: await perOperation(iterations, () =>
      runEffects(templatesOnly, { order_id: "ORD-0001" }, state, NOW),
    ),
    withExpressions: await perOperation(Math.ceil(iterations / 4), () =>
      runEffects(withExpressions, placeArgs, state, NOW),
    ),
  };
  process.stdout.write(`${JSON.stringify({ iterations, expressionsUs, effectsUs }, null, 2)}\n`);
}

await main();
