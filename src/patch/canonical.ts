import { createHash } from "node:crypto";

/** JSON with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function hashOf(...parts: readonly unknown[]): string {
  const hash = createHash("sha256");
  for (const part of parts)
    hash.update(typeof part === "string" ? part : canonicalJson(part)).update("\u0000");
  return hash.digest("hex");
}
