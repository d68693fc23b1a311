import { createHash } from "node:crypto";
import type { Fault } from "../catalog/index.js";

/**
 * Draws of the fault decision. Every draw is a function of its inputs alone (the rule's
 * seed, the session's seed, the call's seq, the tool), so the same seed and the same calls
 * give the same faults, in any process, after any restart.
 */

/** A uniform number in [0, 1) from the given parts (53 bits of a SHA-256 of them). */
export function uniform(...parts: ReadonlyArray<string | number>): number {
  const digest = createHash("sha256").update(parts.join("\u0000")).digest();
  // 21 + 32 bits: an exact double in [0, 1)
  return ((digest.readUInt32BE(0) >>> 11) * 2 ** 32 + digest.readUInt32BE(4)) / 2 ** 53;
}

/** The golden ratio's fractional part: its multiples spread over [0, 1) as evenly as any sequence can. */
const GOLDEN = 0.6180339887498949;

/**
 * The point of an evenly spread sequence for a call: the seq's multiple of the golden
 * ratio, shifted by the seeds. Latency samples use it instead of independent draws so
 * that a thousand calls cover the distribution evenly: independent draws put the measured
 * 99th percentile of 1,000 long-tailed calls about 12% off (one standard deviation), the
 * even sequence within a few percent (see docs/faults.md).
 */
export function spread(offset: number, seq: number): number {
  const u = (offset + seq * GOLDEN) % 1;
  return Math.min(1 - 1e-12, Math.max(1e-12, u));
}

/** z of the normal distribution's 99th percentile. */
const Z99 = 2.3263478740408408;
/** Waits of a long tail stop at ten times its p99 unless the profile says otherwise. */
const TAIL_CAP = 10;

export type LatencyFault = Extract<Fault, { kind: "latency" }>;

/**
 * The wait of a latency fault for a sample u in (0, 1). A long tail is the log-normal whose
 * median is p50Ms and whose 99th percentile is p99Ms: μ = ln p50, σ = ln(p99/p50) / z₀.₉₉.
 */
export function latencyFor(fault: LatencyFault, u: number, maxWaitMs: number): number {
  switch (fault.distribution) {
    case "fixed":
      return fault.ms;
    case "uniform":
      return fault.minMs + u * (fault.maxMs - fault.minMs);
    case "long-tail": {
      const sigma = Math.log(fault.p99Ms / fault.p50Ms) / Z99;
      const value = fault.p50Ms * Math.exp(sigma * inverseNormal(u));
      return Math.min(value, fault.maxMs ?? fault.p99Ms * TAIL_CAP, maxWaitMs);
    }
  }
}

/**
 * The standard normal quantile (Acklam's rational approximation, relative error below
 * 1.2e-9). Written here rather than taken from a library: it is twenty lines, and the
 * statistics packages that have it weigh megabytes for this one function.
 */
export function inverseNormal(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return (
      -(((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
    (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  );
}
