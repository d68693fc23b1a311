/** A JSON object: not null and not an array. The one plain-object check of every room. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
