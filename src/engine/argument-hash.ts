import * as crypto from "node:crypto";
import { canonicalJson } from "../patch/index.js";

const { createHash } = crypto;
/** Node's one-shot hash (from 20.12): a quarter of the cost of a Hash object for a short text. */
const oneShot = typeof crypto.hash === "function" ? crypto.hash : undefined;

/**
 * The hash of a call's arguments the store keeps and repeats are found by: the same value as
 * `hashOf(args)` of patch/ (SHA-256 of the canonical JSON and a NUL), computed in one step.
 */
export function callArgumentsHash(args: unknown): string {
  const text = `${canonicalJson(args)}\u0000`;
  return oneShot ? oneShot("sha256", text, "hex") : createHash("sha256").update(text).digest("hex");
}

/** A piece of JSON syntax between values, as the walk below emits it. */
class Syntax {
  constructor(readonly text: string) {}
}

const OPEN_ARRAY = new Syntax("[");
const CLOSE_ARRAY = new Syntax("]");
const OPEN_OBJECT = new Syntax("{");
const CLOSE_OBJECT = new Syntax("}");
const COMMA = new Syntax(",");

/**
 * A hash of arguments of any depth and size, keys in sorted order: one iterative walk, so
 * arguments refused for their depth or size (whose canonical JSON would overflow the stack)
 * still get a hash of what was sent, and two different ones are never taken for a repeat.
 */
export function argumentsHash(args: unknown): string {
  const hash = createHash("sha256");
  const pending: unknown[] = [args];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Syntax) hash.update(item.text);
    else if (Array.isArray(item)) {
      hash.update(OPEN_ARRAY.text);
      pending.push(CLOSE_ARRAY);
      for (let index = item.length - 1; index >= 0; index--) {
        pending.push(item[index]);
        if (index > 0) pending.push(COMMA);
      }
    } else if (item !== null && typeof item === "object") {
      hash.update(OPEN_OBJECT.text);
      pending.push(CLOSE_OBJECT);
      const keys = Object.keys(item).sort();
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        pending.push((item as Record<string, unknown>)[key]);
        pending.push(new Syntax(`${JSON.stringify(key)}:`));
        if (index > 0) pending.push(COMMA);
      }
    } else hash.update(JSON.stringify(item) ?? "null");
  }
  return hash.digest("hex");
}
