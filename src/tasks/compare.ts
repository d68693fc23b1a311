import type { JsonSchema, Tool } from "../catalog/index.js";

/**
 * How the golden judge compares a call with a solution step: tool names up to case and
 * separators, numbers whatever their type ("5" = 5 = 5.0), strings up to case, spacing and
 * Unicode form, and prose (notes, reasons in words) only for being there, because no two
 * agents word a note alike.
 */

/** `getOrder`, `get-order` and `GET_ORDER` all name `get_order`. */
export function normalizeToolName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

export function normalizeString(text: string): string {
  return text.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, " ");
}

/** How one argument of a call differs from the solution's. */
export interface ArgumentDifference {
  argument: string;
  /** missing: the solution has it, the call not; wrong: different value; unexpected: only the call has it. */
  kind: "missing" | "wrong" | "unexpected";
  /** Notes are reported but do not make the call wrong (free-text arguments). */
  severity: "error" | "note";
}

const PROSE_NAME =
  /(^|_)(note|notes|comment|comments|message|memo|reason_text|description|summary|body|text|instructions|remarks?)$/;

/** Free text: a string argument whose exact words cannot be expected of an agent. */
export function isProse(name: string, schema: JsonSchema | undefined, golden?: unknown): boolean {
  if (schema && (schema.enum || schema.const !== undefined || schema.pattern || schema.format)) return false;
  if (schema && schema.type !== undefined && schema.type !== "string") return false;
  if (PROSE_NAME.test(name.toLowerCase())) return true;
  return typeof golden === "string" && golden.trim().split(/\s+/).length >= 3;
}

/** The argument differences of a call against a solution step (empty: same call). */
export function compareArguments(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  tool: Tool | undefined,
): ArgumentDifference[] {
  const properties = (tool?.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const differences: ArgumentDifference[] = [];
  for (const [name, value] of Object.entries(expected)) {
    if (value === null || value === undefined) continue;
    const given = actual[name];
    const prose = isProse(name, properties[name], value);
    if (given === undefined || given === null) {
      differences.push({ argument: name, kind: "missing", severity: "error" });
    } else if (prose) {
      if (typeof given !== "string" || given.trim() === "")
        differences.push({ argument: name, kind: "wrong", severity: "error" });
    } else if (!sameValue(value, given)) {
      differences.push({ argument: name, kind: "wrong", severity: "error" });
    }
  }
  for (const [name, value] of Object.entries(actual)) {
    if (value === null || value === undefined || expected[name] !== undefined) continue;
    const prose = isProse(name, properties[name], value);
    differences.push({ argument: name, kind: "unexpected", severity: prose ? "note" : "error" });
  }
  return differences;
}

/** Equality with type-tolerant numbers and booleans, normalized strings, and arrays in any order. */
export function sameValue(expected: unknown, actual: unknown): boolean {
  const n = asNumber(expected);
  if (n !== undefined) {
    const m = asNumber(actual);
    return m !== undefined && Math.abs(n - m) <= 1e-9 * Math.max(1, Math.abs(n), Math.abs(m));
  }
  if (typeof expected === "boolean") return asBoolean(actual) === expected;
  if (typeof expected === "string") {
    return typeof actual === "string" && normalizeString(expected) === normalizeString(actual);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    if (expected.every((item, i) => sameValue(item, actual[i]))) return true;
    return sameMultiset(expected, actual);
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return false;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      const a = expected[key];
      const b = actual[key];
      if ((a === undefined || a === null) && (b === undefined || b === null)) continue;
      if (a === undefined || a === null || b === undefined || b === null || !sameValue(a, b)) return false;
    }
    return true;
  }
  return expected === actual;
}

function sameMultiset(expected: unknown[], actual: unknown[]): boolean {
  const used = new Set<number>();
  return expected.every((item) => {
    const index = actual.findIndex((candidate, i) => !used.has(i) && sameValue(item, candidate));
    if (index < 0) return false;
    used.add(index);
    return true;
  });
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === "true") return true;
  if (value === "false") return false;
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
