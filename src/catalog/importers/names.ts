import { TOOL_NAME_PATTERN } from "../format.js";

/** A tool name MCP clients accept everywhere: letters, digits and underscores (dots and spaces become `_`). */
export function mcpToolName(raw: string): string {
  const cleaned = raw
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 128);
  return TOOL_NAME_PATTERN.test(cleaned) ? cleaned : "tool";
}

/** `Refund Calculator` → `refund_calculator`; camelCase words are split too. */
export function snakeName(raw: string): string {
  return mcpToolName(raw.replace(/([a-z0-9])([A-Z])/g, "$1_$2")).toLowerCase();
}

/** An id for toolsets and tasks: lowercase letters, digits, `_ . -`, starting with a letter or digit. */
export function slugId(raw: string): string {
  const slug = raw
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "_")
    .replace(/^[^a-z0-9]+/, "")
    .replace(/_+$/g, "")
    .slice(0, 120);
  return slug || "imported";
}

/** Lowercase letters and digits only: how call strings like `RefundCalculator(...)` find `Refund Calculator`. */
export function looseKey(raw: string): string {
  return raw.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** An UPPER_SNAKE_CASE error code from free text: `Invalid order: ...` → `INVALID_ORDER`. */
export function errorCode(text: string): string {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^[^A-Z]+|_+$/g, "")
    .split("_")
    .filter(Boolean)
    .slice(0, 6);
  return words.join("_") || "ERROR";
}

/** Hands out names, appending `_2`, `_3`… to a name already taken. */
export class NameRegistry {
  private readonly taken = new Set<string>();

  claim(name: string): string {
    let candidate = name;
    for (let n = 2; this.taken.has(candidate); n++) {
      const suffix = `_${n}`;
      candidate = `${name.slice(0, 128 - suffix.length)}${suffix}`;
    }
    this.taken.add(candidate);
    return candidate;
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }
}
