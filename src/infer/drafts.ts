import { Effect } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";

/**
 * Inferred effects are drafted in the effects language version 2 (nested targets, `{"$expr"}`
 * values, expression guards, `check`, `respond`, `list` with `missing` and `filter`) and then
 * emitted in the version the catalog format in this build accepts: version 1 keeps what it
 * can say and every dropped part is reported, so a catalog inferred today is re-inferred
 * completely once version 2 is there.
 */

export type Draft = { kind: string } & Record<string, unknown>;
export type Level = 1 | 2;

let level: Level | undefined;

/** Version 2 when the catalog format accepts its effect kinds, else version 1. */
export function languageLevel(): Level {
  level ??= Effect.safeParse({ kind: "respond", value: { $expr: "$" } }).success ? 2 : 1;
  return level;
}

export interface Emitted {
  effects: Effect[];
  /** What could not be emitted, and why. */
  dropped: string[];
}

export function emit(drafts: readonly Draft[], at: Level = languageLevel()): Emitted {
  const effects: Effect[] = [];
  const dropped: string[] = [];
  // a draft that reads what a dropped one would have bound is dropped too
  const lost = new Set<string>();
  for (const draft of at === 2 ? drafts : listsAnswerThemselves(drafts)) {
    const missing = [...lost].find((binding) => new RegExp(`\\$${binding}\\b`).test(JSON.stringify(draft)));
    if (missing) {
      dropped.push(`${describe(draft)}: reads $${missing}, which a dropped effect was to bind`);
      if (typeof draft.as === "string") lost.add(draft.as);
      continue;
    }
    const shaped = at === 2 ? { draft, notes: [] } : toVersion1(draft);
    dropped.push(...shaped.notes);
    const parsed = shaped.draft ? Effect.safeParse(shaped.draft) : undefined;
    if (parsed?.success) {
      effects.push(parsed.data);
      continue;
    }
    if (typeof draft.as === "string") lost.add(draft.as);
    if (parsed)
      dropped.push(`${describe(draft)}: the effects format rejects it (${parsed.error.issues[0]?.message})`);
  }
  return { effects, dropped };
}

/**
 * In version 1 a list answers through its own `output` (the result is an object holding the
 * matches under the collection's name), since no `respond` can answer the matches alone.
 */
function listsAnswerThemselves(drafts: readonly Draft[]): Draft[] {
  const answered = new Set<string>();
  for (const draft of drafts) {
    const value = draft.kind === "respond" && isPlainObject(draft.value) ? draft.value.$expr : undefined;
    const binding = typeof value === "string" ? /^\$([a-z_][a-z0-9_]*)/.exec(value)?.[1] : undefined;
    if (binding) answered.add(binding);
  }
  return drafts.map((draft) =>
    draft.kind === "list" &&
    typeof draft.as === "string" &&
    answered.has(draft.as) &&
    draft.output === undefined
      ? { ...draft, output: String(draft.target) }
      : draft,
  );
}

export function isExpression(value: unknown): boolean {
  return isPlainObject(value) && typeof value.$expr === "string";
}

function describe(draft: Draft): string {
  return `${draft.kind}${typeof draft.target === "string" ? ` ${draft.target}` : ""}`;
}

/** What version 1 can say of a draft: the draft without its version 2 parts, and what was left out. */
export function toVersion1(draft: Draft): { draft?: Draft; notes: string[] } {
  const name = describe(draft);
  const needs = (what: string) => `${name}: needs effects language v2 (${what})`;
  if (draft.kind === "check" || draft.kind === "respond") return { notes: [needs(`a ${draft.kind} effect`)] };
  if (draft.when !== undefined) return { notes: [needs("when")] };
  if (draft.each !== undefined) return { notes: [needs("each")] };
  if (typeof draft.target === "string" && draft.target.split("/").length > 2)
    return { notes: [needs(`nested target ${draft.target}`)] };
  const notes: string[] = [];
  const out: Draft = { ...draft };
  if (out.kind === "list") {
    if (out.missing !== undefined) notes.push(needs("list missing"));
    if (out.filter !== undefined) notes.push(needs("list filter"));
    delete out.missing;
    delete out.filter;
  }
  for (const key of ["set", "inc", "append", "where"] as const) {
    const values = out[key];
    if (!isPlainObject(values)) continue;
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(values)) {
      if (containsExpression(value)) notes.push(needs(`computed ${key} of ${field}`));
      else kept[field] = value;
    }
    out[key] = kept;
  }
  if (Array.isArray(out.require)) {
    const guards = out.require.filter((guard) => !(isPlainObject(guard) && typeof guard.expr === "string"));
    if (guards.length < out.require.length) notes.push(needs("expression guard"));
    out.require = guards;
  }
  return { draft: out, notes };
}

function containsExpression(value: unknown): boolean {
  if (isExpression(value)) return true;
  if (Array.isArray(value)) return value.some(containsExpression);
  if (isPlainObject(value)) return Object.values(value).some(containsExpression);
  return false;
}

/** An effect as a file shows it: without the empty defaults the format fills in (`require: []`, `set: {}`). */
export function compactEffect(effect: unknown): unknown {
  if (!isPlainObject(effect)) return effect;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(effect)) {
    const empty =
      (Array.isArray(value) && value.length === 0) ||
      (isPlainObject(value) && Object.keys(value).length === 0);
    if (empty && ["require", "set", "inc", "append", "where"].includes(key)) continue;
    out[key] = value;
  }
  return out;
}
