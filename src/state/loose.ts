import { canonicalJson, deepEqual } from "../patch/index.js";

/**
 * Equality the way a user means it: strings ignore case, and a number equals a string that
 * spells it ("5" = 5), but two strings compare as text ("007" ≠ "7"). One rule for every
 * filter, guard and index of the state, so they never disagree.
 */
export function looselyEqual(a: unknown, b: unknown): boolean {
  if (deepEqual(a, b)) return true;
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  const na = numberLike(a);
  const nb = numberLike(b);
  return na !== undefined && nb !== undefined && na === nb;
}

/**
 * The keys an index files a value under. The relation above is not transitive ("5" = 5 =
 * "5.0" but "5" ≠ "5.0"), so a number-like string is filed twice: as text, and as a
 * number that only a real number looks for.
 */
export function indexKeys(value: unknown): string[] {
  if (typeof value === "number" && Number.isFinite(value)) return [`n:${value}`];
  if (typeof value === "string") {
    const text = `s:${JSON.stringify(value.toLowerCase())}`;
    const number = numberLike(value);
    return number === undefined ? [text] : [text, `ns:${number}`];
  }
  return [opaqueKey(value)];
}

/** The index keys under which the values loosely equal to `wanted` are filed. */
export function probeKeys(wanted: unknown): string[] {
  if (typeof wanted === "number" && Number.isFinite(wanted)) return [`n:${wanted}`, `ns:${wanted}`];
  if (typeof wanted === "string") {
    const text = `s:${JSON.stringify(wanted.toLowerCase())}`;
    const number = numberLike(wanted);
    return number === undefined ? [text] : [text, `n:${number}`];
  }
  return [opaqueKey(wanted)];
}

function opaqueKey(value: unknown): string {
  return value === undefined ? "u" : `j:${canonicalJson(value)}`;
}

/** A finite number, or a string that spells one; anything else is not a number. */
export function numberLike(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    if (Number.isFinite(parsed)) return parsed;
  }
  return undefined;
}
