import type { Finding } from "./findings.js";

/**
 * Limits on what one call's arguments may be. Past them, every recursive step after
 * validation (hashing, storing, serializing the call log, the model's prompt) would cost
 * without bound or overflow the stack, so the call is refused before anything walks it.
 */
export const ARGUMENT_LIMITS = {
  /** Levels of nested objects and arrays, the arguments object itself being the first. */
  depth: 64,
  /** Size of the arguments as JSON text, in bytes (counted as characters, close enough). */
  bytes: 1024 * 1024,
} as const;

/**
 * Keys that mean something to JavaScript objects rather than to the tool: parsed into a
 * plain object, `__proto__` replaces its prototype (and silently disappears as a key);
 * `constructor` and `prototype` shadow what every object inherits.
 */
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export interface ArgumentScan {
  /** A finding for a limit the arguments pass (depth or size); nothing else was checked then. */
  limit?: Finding;
  /** Where a reserved key occurs, as argument paths (`filter.__proto__`). */
  reserved: Finding[];
}

/**
 * One iterative walk over the arguments (no recursion, so no depth can overflow it),
 * stopping as soon as a limit is passed. `declared` are property names the tool's schema
 * itself uses: `constructor` or `prototype` is only refused where the tool did not ask for it.
 */
export function scanArguments(args: unknown, declared: ReadonlySet<string> = new Set()): ArgumentScan {
  const reserved: Finding[] = [];
  const pending: Array<{ value: unknown; path: Array<string | number>; depth: number }> = [
    { value: args, path: [], depth: 1 },
  ];
  let bytes = 0;
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop() as (typeof pending)[number];
    bytes += scalarBytes(value);
    if (bytes > ARGUMENT_LIMITS.bytes) return { limit: tooLarge(path), reserved };
    if (value === null || typeof value !== "object") continue;
    if (depth > ARGUMENT_LIMITS.depth) return { limit: tooDeep(path), reserved };
    bytes += 2;
    const keys: Array<string | number> = Array.isArray(value) ? [] : Object.keys(value);
    const count = Array.isArray(value) ? value.length : keys.length;
    for (let index = 0; index < count; index++) {
      // one item at a time, so a huge array costs no more than the limit before it is refused
      const key = Array.isArray(value) ? index : (keys[index] as string);
      bytes += typeof key === "string" ? key.length + 4 : 1;
      if (bytes > ARGUMENT_LIMITS.bytes) return { limit: tooLarge(path), reserved };
      if (typeof key === "string" && RESERVED_KEYS.has(key) && (key === "__proto__" || !declared.has(key)))
        reserved.push(reservedKey([...path, key]));
      const item = Array.isArray(value) ? value[index] : (value as Record<string, unknown>)[key];
      pending.push({ value: item, path: [...path, key], depth: depth + 1 });
    }
  }
  return { reserved };
}

/** What a refused call's log row keeps instead of arguments too deep or too large to store. */
export function omittedArguments(limit: Finding): Record<string, unknown> {
  return { "toolsim:omitted": `arguments not stored: ${limit.message}` };
}

function scalarBytes(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (typeof value === "number" || typeof value === "boolean") return String(value).length;
  return value === null ? 4 : 0;
}

function tooDeep(path: ReadonlyArray<string | number>): Finding {
  const at = shownPath(path);
  return {
    code: "IFE",
    severity: "error",
    argument: topLevel(path),
    message: `The arguments nest deeper than ${ARGUMENT_LIMITS.depth} levels of objects and arrays (at ${at}); toolsim accepts at most ${ARGUMENT_LIMITS.depth}. Send a flatter value.`,
  };
}

function tooLarge(path: ReadonlyArray<string | number>): Finding {
  const megabytes = ARGUMENT_LIMITS.bytes / (1024 * 1024);
  const where = path.length > 0 ? ` (the limit was passed inside "${topLevel(path)}")` : "";
  return {
    code: "IFE",
    severity: "error",
    argument: topLevel(path),
    message: `The arguments are larger than ${megabytes} MB of JSON${where}; toolsim accepts at most ${megabytes} MB per call. Send less: a reference or a summary instead of the data itself.`,
  };
}

function reservedKey(path: ReadonlyArray<string | number>): Finding {
  const argument = joinPath(path);
  const key = String(path[path.length - 1]);
  return {
    code: "IAN",
    severity: "error",
    argument,
    message: `Argument name "${argument}" is not accepted: "${key}" is reserved (in JavaScript it would change or shadow the object's prototype, and many services drop it). Rename or remove it.`,
  };
}

function topLevel(path: ReadonlyArray<string | number>): string | undefined {
  return path.length > 0 ? String(path[0]) : undefined;
}

/** A path too long to read whole shows its start and its length. */
function shownPath(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return "the top level";
  if (path.length <= 6) return `"${joinPath(path)}"`;
  return `"${joinPath(path.slice(0, 4))}…", ${path.length} levels down`;
}

function joinPath(path: ReadonlyArray<string | number>): string {
  let out = "";
  for (const segment of path)
    out += typeof segment === "number" ? `[${segment}]` : out ? `.${segment}` : segment;
  return out;
}
