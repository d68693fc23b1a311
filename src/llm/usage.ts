import type { Usage } from "../store/index.js";

export function zeroUsage(): Usage {
  return { requests: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 };
}

/** The cost of several model requests made for one call. */
export function addUsage(...parts: Array<Usage | undefined>): Usage | undefined {
  const present = parts.filter((u): u is Usage => u !== undefined);
  if (present.length === 0) return undefined;
  const total = zeroUsage();
  let cached = 0;
  for (const u of present) {
    total.requests += u.requests;
    total.promptTokens += u.promptTokens;
    total.completionTokens += u.completionTokens;
    total.latencyMs += u.latencyMs;
    cached += u.cached ?? 0;
  }
  return cached > 0 ? { ...total, cached } : total;
}
