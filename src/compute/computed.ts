/** A value computed, or why it could not be (the caller decides how to answer). */
export type Computed = { ok: true; value: unknown } | { ok: false; error: string };

/** A result, tidied; a number that JSON cannot carry (infinite, not a number) is a failure. */
export function computed(value: unknown): Computed {
  if (!finite(value))
    return failed("the result is not a finite number (too large, or undefined for these arguments)");
  return { ok: true, value: tidy(value) };
}
export const failed = (error: string): Computed => ({ ok: false, error });

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Floating-point noise is not part of an answer: 0.1 + 0.2 is 0.3. Numbers keep 15
 * significant digits (what a double represents exactly); arrays and objects are tidied
 * through.
 */
export function tidy(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? Number(value.toPrecision(15)) : value;
  if (Array.isArray(value)) return value.map(tidy);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tidy(v)]));
  return value;
}

function finite(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(finite);
  if (value !== null && typeof value === "object") return Object.values(value).every(finite);
  return true;
}
