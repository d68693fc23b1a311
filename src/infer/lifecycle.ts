import { addError, type Context, use } from "./context.js";
import type { Param } from "./facts.js";
import { identifier } from "./reads.js";
import { nameWords } from "./words.js";

/**
 * A table of transitions an argument picks, as state-machine APIs document them:
 *
 * | action | from | to |
 * |---|---|---|
 * | `approve` | `requested` | `approved` |
 * | `cancel` | `requested` or `approved` | `cancelled` |
 *
 * Jira's transitions of an issue by id, GitHub's review events (APPROVE, REQUEST_CHANGES),
 * Stripe's payment intent actions (confirm, capture, cancel) and AWS Step Functions' task
 * tokens all move a record from the statuses an action allows to the one it leads to. The
 * argument's value selects the row: the status becomes its `to`, and a record in a status
 * outside its `from` is refused with the error the docs give for it.
 */
export interface Lifecycle {
  param: Param;
  /** Per action: the statuses it starts from, and the one it leads to. */
  moves: Map<string, { from: string[]; to: string }>;
}

export function lifecycleTable(ctx: Context, statuses: readonly string[]): Lifecycle | undefined {
  const rows = tableRows(ctx.facts.tool.description);
  const header = rows[0]?.map((cell) => cell.toLowerCase());
  if (!header || rows.length < 3) return undefined;
  const fromAt = header.findIndex((cell) => /^(from|from status|current status|source)$/.test(cell));
  const toAt = header.findIndex((cell) => /^(to|to status|new status|target|becomes)$/.test(cell));
  const param = ctx.facts.params.find(
    (p) => p.type === "string" && header.includes(nameWords(p.name).join(" ")),
  );
  if (fromAt < 0 || toAt < 0 || !param) return undefined;
  const actionAt = header.indexOf(nameWords(param.name).join(" "));
  const known = new Set(statuses.map((s) => s.toLowerCase()));
  const moves = new Map<string, { from: string[]; to: string }>();
  for (const row of rows.slice(1)) {
    const action = row[actionAt];
    const to = row[toAt];
    const from = (row[fromAt] ?? "").split(/\s*(?:,|\bor\b|\/)\s*/).filter((s) => s !== "");
    if (!action || !to || from.length === 0) continue;
    // a row whose statuses the records never show is not read as one
    if (![to, ...from].some((s) => known.has(s.toLowerCase()))) return undefined;
    moves.set(action, { from, to });
  }
  return moves.size >= 2 ? { param, moves } : undefined;
}

/** The update's status and guard for a lifecycle: `{$expr}` values for a record's `status`. */
export function lifecycleChange(
  ctx: Context,
  lifecycle: Lifecycle,
  field: string,
): { set: Record<string, unknown>; require: Array<Record<string, unknown>> } {
  const to: Record<string, string> = {};
  const from: Record<string, string[]> = {};
  for (const [action, move] of lifecycle.moves) {
    to[action] = move.to;
    from[action] = move.from;
  }
  const arg = `$args.${identifier(lifecycle.param.name)}`;
  const documented = ctx.facts.errors.find(
    (e) => e.kind !== "not-found" && /\b(transitions?|from|status|cannot|not allowed|invalid)\b/.test(e.text),
  );
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: "INVALID_TRANSITION",
        status: 409,
        message: `The ${field} does not allow this ${lifecycle.param.name}.`,
        when: `the record's ${field} is not one the ${lifecycle.param.name} starts from`,
      });
  ctx.notes.push(
    `moves ${field} by the table of ${lifecycle.param.name}: ${[...lifecycle.moves]
      .map(([action, move]) => `${action} ${move.from.join("|")} → ${move.to}`)
      .join(", ")}`,
  );
  return {
    set: { [field]: { $expr: `$lookup(${JSON.stringify(to)}, ${arg})` } },
    require: [{ expr: `$subject.${field} in $lookup(${JSON.stringify(from)}, ${arg})`, error }],
  };
}

/** The cells of the first Markdown table in a text, without code marks; the rule line dropped. */
function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("|")) {
      if (rows.length > 0) break;
      continue;
    }
    if (/^\|[\s:|-]+\|?$/.test(trimmed)) continue;
    rows.push(
      trimmed
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((cell) => cell.replace(/[`*"]/g, "").trim()),
    );
  }
  return rows;
}
