import type { Effect, ToolAnnotations, TreeEffect } from "./format.js";
import { isExpressionValue, parseTemplate } from "./templates.js";

type Hint = "readOnlyHint" | "destructiveHint" | "idempotentHint";

/** MCP's behaviour hints as a tool's effects show them, and which of them were inferred. */
export interface EffectHints {
  annotations: ToolAnnotations;
  /** The hints that came from the effects rather than from the catalog. */
  inferred: Hint[];
}

const READS = new Set<Effect["kind"]>(["read", "list", "check", "respond", "let"]);
/** What a tree effect does that only looks (cd moves the session's current folder: a change). */
const TREE_READS = new Set<TreeEffect["op"]>(["pwd", "list", "read", "info", "size", "find"]);

/**
 * The hints MCP clients read (readOnlyHint, destructiveHint, idempotentHint), computed from
 * what the tool's declared effects do, for the hints its catalog entry leaves out. Pure:
 * the effects array in, the hints out; a tool without effects says nothing, because
 * nothing shows what it does.
 *
 * - read-only when every effect only reads, lists, checks, responds or binds a value (a
 *   tree effect: pwd, list, read, info, size, find);
 * - destructive when an effect deletes, or overwrites what was there (an update's `set`
 *   or `inc`, a tree's remove, move, copy or replacing write: MCP calls every update that
 *   is not purely additive destructive); not destructive when the writes only add
 *   (creates, appends, mkdir, touch, cd);
 * - idempotent when every write is an update that only sets fields to the call's
 *   arguments or to constants (or a tree write that replaces a file's text with one): a
 *   repeat leaves the state as the first call left it.
 *
 * A hint the catalog wrote is never replaced; a read-only tool (either way) gets no
 * destructive or idempotent hint, which MCP defines only for tools that write.
 */
export function effectHints(
  effects: readonly Effect[],
  written: ToolAnnotations | undefined,
): EffectHints | undefined {
  const annotations: ToolAnnotations = { ...written };
  if (effects.length === 0) return written ? { annotations, inferred: [] } : undefined;
  const inferred: Hint[] = [];
  const suggest = (hint: Hint, value: boolean) => {
    if (annotations[hint] !== undefined) return;
    annotations[hint] = value;
    inferred.push(hint);
  };
  const writes = effects.filter((effect) => !reads(effect));
  suggest("readOnlyHint", writes.length === 0);
  if (annotations.readOnlyHint === true) return { annotations, inferred };
  suggest("destructiveHint", writes.some(overwrites));
  suggest("idempotentHint", writes.length > 0 && writes.every(setsOnlyGivenValues));
  return { annotations, inferred };
}

function reads(effect: Effect): boolean {
  return effect.kind === "tree" ? TREE_READS.has(effect.op) : READS.has(effect.kind);
}

function overwrites(effect: Effect): boolean {
  if (effect.kind === "delete") return true;
  if (effect.kind === "tree") {
    // a copy may land on a file that is there; a write that does not append replaces the text
    return (
      ["remove", "move", "copy", "edit"].includes(effect.op) || (effect.op === "write" && !effect.append)
    );
  }
  if (effect.kind !== "update") return false;
  return Object.keys(effect.set).length > 0 || Object.keys(effect.inc).length > 0;
}

/**
 * An update that sets fields to arguments or constants, and neither adds to nor appends
 * anything; or a tree write that replaces a file's text with such a value.
 */
function setsOnlyGivenValues(effect: Effect): boolean {
  if (effect.kind === "tree") {
    return effect.op === "write" && !effect.append && givenValue(effect.path) && givenValue(effect.content);
  }
  if (effect.kind !== "update") return false;
  if (Object.keys(effect.inc).length > 0 || Object.keys(effect.append).length > 0) return false;
  if (effect.each !== undefined) return false;
  const values = Object.values(effect.set);
  return values.length > 0 && values.every(givenValue);
}

/** A constant, or text made of the call's arguments only (no clock, id, binding or expression). */
function givenValue(value: unknown): boolean {
  if (isExpressionValue(value)) return false;
  if (typeof value === "string") {
    return parseTemplate(value).every((part) => !("ref" in part) || part.ref.source === "argument");
  }
  if (Array.isArray(value)) return value.every(givenValue);
  if (value !== null && typeof value === "object") return Object.values(value).every(givenValue);
  return true;
}
