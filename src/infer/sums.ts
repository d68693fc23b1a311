import type { Context } from "./context.js";
import type { CollectionShape } from "./shape.js";
import { recordsAt } from "./transitions.js";

/**
 * A number a record keeps as the sum of a field of the items of one of its lists (an expense
 * report's `total_cents` of its lines' `amount_cents`, an order's `subtotal` of its lines'
 * `price`), found in the data: every record of the state has it equal to that sum, and at least
 * one has items to sum. An item added adds its amount; one taken out takes it away, as
 * Stripe's invoice `subtotal`, Shopify's order `subtotal_price` and QuickBooks' expense
 * `TotalAmt` follow their lines.
 */
export interface KeptSum {
  /** The holder's field that holds the sum. */
  total: string;
  /** The items' field it sums. */
  of: string;
}

export function keptSums(ctx: Context, holder: CollectionShape, list: string): KeptSum[] {
  const records = ctx.states.flatMap((state) => recordsAt(state, holder.path));
  if (records.length < 2) return [];
  const itemsOf = (record: Record<string, unknown>) => record[list];
  if (!records.every((r) => Array.isArray(itemsOf(r)))) return [];
  if (!records.some((r) => (itemsOf(r) as unknown[]).length > 0)) return [];
  const numbersOf = (record: Record<string, unknown>) =>
    Object.keys(record).filter((k) => typeof record[k] === "number");
  const totals = numbersOf(records[0] as Record<string, unknown>);
  const itemFields = new Set(
    records.flatMap((r) =>
      (itemsOf(r) as unknown[]).flatMap((item) =>
        item && typeof item === "object" ? numbersOf(item as Record<string, unknown>) : [],
      ),
    ),
  );
  const sums: KeptSum[] = [];
  for (const total of totals)
    for (const of of itemFields) {
      const kept = records.every((r) => {
        const items = itemsOf(r) as Array<Record<string, unknown>>;
        const sum = items.reduce(
          (acc, item) => acc + (typeof item?.[of] === "number" ? (item[of] as number) : 0),
          0,
        );
        return typeof r[total] === "number" && Math.abs((r[total] as number) - sum) < 1e-6;
      });
      const counts = records.some((r) => typeof r[total] === "number" && r[total] !== 0);
      if (kept && counts) sums.push({ total, of });
    }
  // a field that equals two sums is the sum of neither for certain
  return sums.filter((s) => sums.filter((o) => o.total === s.total).length === 1);
}
