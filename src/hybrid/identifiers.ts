import { hashOf } from "../patch/index.js";
import { wordsOf } from "../simulate/index.js";
import { isWithin, pathText, resolvePath, segmentsOf } from "../world/index.js";

/**
 * Which arguments name the thing a call is about (a path, an id, an entity's name), so
 * that a simulated write and a later read can be seen to concern the same thing.
 */

const IDENTIFIER_WORDS = new Set([
  "id",
  "ids",
  "path",
  "paths",
  "name",
  "names",
  "key",
  "keys",
  "uri",
  "uris",
  "url",
  "urls",
  "file",
  "files",
  "filename",
  "filepath",
  "slug",
  "source",
  "destination",
  "src",
  "dest",
  "dst",
]);

export function isIdentifierArgument(argument: string): boolean {
  const last = wordsOf(argument).at(-1);
  return last !== undefined && IDENTIFIER_WORDS.has(last);
}

export interface ArgumentIdentifier {
  argument: string;
  /** Normalized: absolute paths have `.`/`..`/doubled slashes and a trailing slash resolved away. */
  key: string;
}

/** Identifier arguments holding one string or number. */
export function scalarIdentifiers(args: Record<string, unknown>): ArgumentIdentifier[] {
  const found: ArgumentIdentifier[] = [];
  for (const [argument, value] of Object.entries(args)) {
    if (!isIdentifierArgument(argument)) continue;
    if (typeof value === "string" || typeof value === "number")
      found.push({ argument, key: normalizeKey(String(value)) });
  }
  return found;
}

/** Identifier arguments holding a list of strings or numbers (`paths`, `entityNames`). */
export function listIdentifiers(args: Record<string, unknown>): ArgumentIdentifier[] {
  const found: ArgumentIdentifier[] = [];
  for (const [argument, value] of Object.entries(args)) {
    if (!isIdentifierArgument(argument) || !Array.isArray(value)) continue;
    for (const item of value)
      if (typeof item === "string" || typeof item === "number")
        found.push({ argument, key: normalizeKey(String(item)) });
  }
  return found;
}

/** An absolute path: a place in a file system, with the file system's rules (world/). */
export function isPathLike(value: string): boolean {
  return value.startsWith("/");
}

export function normalizeKey(value: string): string {
  return isPathLike(value) ? pathText(resolvePath(value, []) ?? []) : value;
}

/** `key` lies below the folder `parent` (both normalized paths). */
export function isUnder(key: string, parent: string): boolean {
  if (!isPathLike(key) || !isPathLike(parent) || key === parent) return false;
  return isWithin(segmentsOf(key), segmentsOf(parent));
}

/** The collection a scalar identifier's record lives in: `paths` for paths, else the argument's noun. */
export function collectionFor(identifier: ArgumentIdentifier): string {
  if (isPathLike(identifier.key)) return "paths";
  const last = wordsOf(identifier.argument).at(-1) ?? "items";
  return last.endsWith("s") ? last : `${last}s`;
}

/** The key of an object in a list: its first identifier field, or a hash of the whole object. */
export function itemKey(item: Record<string, unknown>): { key: string; identified: boolean } {
  for (const [field, value] of Object.entries(item)) {
    if (isIdentifierArgument(field) && (typeof value === "string" || typeof value === "number"))
      return { key: normalizeKey(String(value)), identified: true };
  }
  return { key: `#${hashOf(item).slice(0, 16)}`, identified: false };
}
