import escapeRegExp from "escape-string-regexp";
import { isPlainObject } from "../patch/index.js";
import { type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import { nameWords, sentencesOf } from "./words.js";

/**
 * "Sets wear from "worn_out" to "ok"", "its visibility becomes 'private'": a value the
 * docs give one of the record's fields is what an update of that record writes there, and "if
 * the condition is already "good"" is the documented error for a record that has it already,
 * as GitHub's `state: closed`, Trello's `closed: true` and Jira's transitions are written by
 * the call that names them.
 */
export function describedValues(ctx: Context, drafts: readonly Draft[]): Draft[] {
  return drafts.map((draft) => {
    if (draft.kind !== "update" || typeof draft.target !== "string" || !isPlainObject(draft.set))
      return draft;
    const collection = ctx.shape.collections.get(draft.target.split("/")[0] ?? "");
    if (!collection) return draft;
    const set: Record<string, unknown> = { ...draft.set };
    const require = Array.isArray(draft.require) ? [...draft.require] : [];
    for (const field of collection.fields.values()) {
      if (field.path.includes(".") || field.path in set || !field.types.has("string")) continue;
      const value = statedValue(ctx.facts.tool.description, field.path);
      if (value === undefined) continue;
      set[field.path] = value;
      ctx.notes.push(`sets ${field.path} to "${value}", as the description says`);
      const already = ctx.facts.errors.find(
        (e) =>
          e.kind !== "not-found" && new RegExp(`\\balready\\s+["'\`]?${escapeRegExp(value)}\\b`).test(e.text),
      );
      if (already) require.push({ field: field.path, notIn: [value], error: use(ctx, already) });
    }
    return Object.keys(set).length === Object.keys(draft.set).length ? draft : { ...draft, set, require };
  });
}

function statedValue(description: string, field: string): string | undefined {
  const name = nameWords(field).join("[ _]");
  const quoted = `["'\`]([^"'\`]{1,40})["'\`]`;
  const said = new RegExp(
    `\\bsets?\\s+(?:its\\s+|the\\s+(?:[a-z]+'s\\s+)?)?${name}\\s+(?:from\\s+["'\`][^"'\`]{1,40}["'\`]\\s+)?to\\s+${quoted}|\\b${name}\\s+(?:becomes|is set to|changes to|goes\\s+(?:from\\s+["'\`][^"'\`]{1,40}["'\`]\\s+)?to)\\s+${quoted}`,
    "i",
  );
  // a value set only under a condition ("if given, …") is not what every call writes
  for (const sentence of sentencesOf(description)) {
    if (/\b(?:if|when|unless|otherwise|default)\b/i.test(sentence)) continue;
    const found = said.exec(sentence);
    const value = found?.[1] ?? found?.[2];
    if (value) return value;
  }
  return undefined;
}
