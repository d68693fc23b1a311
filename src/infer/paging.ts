import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import type { CollectionShape } from "./shape.js";
import { nameWords } from "./words.js";

/**
 * The order and the page of a list: a sort field chosen by an argument (`sort_by`, `order_by`)
 * or fixed by the description ("newest first"), a direction (`order`, `direction`: asc or
 * desc), and a page cut by `limit`/`offset` or `page`/`per_page`. These are the list
 * parameters of GitHub (`sort`, `direction`, `page`, `per_page`), Stripe (`limit`), Jira
 * (`orderBy`, `startAt`, `maxResults`) and SQL-like APIs.
 */

export interface Paging {
  /** Arguments the page takes, which select no records. */
  params: ReadonlySet<string>;
  /** A `let` binding `page` to the matches in order, cut to the page. */
  draft: Draft;
}

const LIMIT =
  /^(limit|max|max_results|maxresults|page_size|pagesize|per_page|perpage|count|top|n|size|first)$/;
const OFFSET = /^(offset|skip|start|start_at|startat|from_index)$/;
const PAGE = /^(page|page_number|pagenumber|page_no)$/;
const SORT = /^(sort|sort_by|sortby|order_by|orderby|sort_field|sortfield|sort_key)$/;
const DIRECTION = /^(order|direction|sort_order|sortorder|sort_direction|sortdirection|dir)$/;
const NUMBER = new Set(["integer", "number"]);
const MADE_AT = /creat|posted|sent|timestamp/;

/** The paging a list tool's arguments and description ask for, or undefined when none. */
export function pagingOf(ctx: Context, collection: CollectionShape, binding: string): Paging | undefined {
  const params = ctx.facts.params;
  const named = (pattern: RegExp, numeric: boolean) =>
    // a field of the records named `size` or `count` selects rather than pages
    params.find(
      (p) =>
        pattern.test(p.name.toLowerCase()) &&
        NUMBER.has(p.type ?? "") === numeric &&
        !collection.fields.has(p.name),
    );
  const limit = named(LIMIT, true);
  const offset = named(OFFSET, true);
  const page = named(PAGE, true);
  const sortBy = named(SORT, false);
  const direction = named(DIRECTION, false);
  const fixed = statedOrder(ctx.facts.text, collection);
  if (!limit && !offset && !page && !sortBy && !fixed) return undefined;
  const arg = (p: Param) => `$args.\`${p.name}\``;
  const given = (p: Param, fallback: string) => `($exists(${arg(p)}) ? ${arg(p)} : ${fallback})`;
  const steps: string[] = [`$m := [$${binding}]`];
  const sortField = sortBy
    ? given(sortBy, JSON.stringify(defaultOf(sortBy) ?? fixed?.field ?? ""))
    : fixed
      ? JSON.stringify(fixed.field)
      : undefined;
  if (sortField) {
    const descending = direction
      ? `$lowercase($string(${given(direction, JSON.stringify(defaultOf(direction) ?? (fixed?.descending ? "desc" : "asc")))})) in ["desc", "descending"]`
      : String(fixed?.descending ?? false);
    steps.push(`$f := ${sortField}`, `$d := ${descending}`);
    // records without the field keep their place after those with it
    steps.push(
      `$m := $f = "" ? $m : $sort($m, function($a, $b) { $exists($lookup($a, $f)) and $exists($lookup($b, $f)) ? ($d ? $lookup($a, $f) < $lookup($b, $f) : $lookup($a, $f) > $lookup($b, $f)) : $not($exists($lookup($a, $f))) and $exists($lookup($b, $f)) })`,
    );
  }
  const size = limit ? given(limit, String(defaultOf(limit) ?? -1)) : "-1";
  const start = offset
    ? given(offset, String(defaultOf(offset) ?? 0))
    : page && limit
      ? `(${given(page, String(defaultOf(page) ?? 1))} - 1) * ${size}`
      : "0";
  steps.push(`$o := ${start}`, `$l := ${size}`);
  steps.push(`$filter($m, function($v, $i) { $i >= $o and ($l < 0 or $i < $o + $l) })`);
  const taken = [limit, offset, page, sortBy, direction].filter((p): p is Param => p !== undefined);
  ctx.notes.push(
    `answers the matches${sortBy ? ` in the order ${sortBy.name} names` : fixed ? ` by ${fixed.field}${fixed.descending ? ", newest first" : ", oldest first"}` : ""}${limit ? `, at most ${limit.name}` : ""}${offset ? ` after ${offset.name}` : page && limit ? ` of page ${page.name}` : ""}`,
  );
  return {
    params: new Set(taken.map((p) => p.name)),
    draft: { kind: "let", as: "page", value: { $expr: `(${steps.join("; ")})` } },
  };
}

function defaultOf(param: Param): string | number | undefined {
  const value = param.schema.default;
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

/** "newest first", "most recent first", "oldest first": the records' one time field, in that order. */
function statedOrder(
  text: string,
  collection: CollectionShape,
): { field: string; descending: boolean } | undefined {
  const said = /\b(newest|latest|most recent|oldest|earliest)\s+first\b/i.exec(text)?.[1];
  if (!said) return undefined;
  const times = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      ([...f.values.keys()].some((v) => /^\d{4}-\d{2}-\d{2}/.test(v)) ||
        nameWords(f.path).some((w) => /^(at|date|time|timestamp|created|updated)$/.test(w))),
  );
  // of several times, the one that says when the record was made
  const created = times.length === 1 ? times[0] : times.find((f) => MADE_AT.test(f.path));
  if (!created) return undefined;
  return { field: created.path, descending: /newest|latest|recent/i.test(said) };
}
