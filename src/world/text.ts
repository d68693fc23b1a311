import { isPlainObject } from "../patch/index.js";

/**
 * Text edits as editing tools take them: each replaces the first exact occurrence of a piece
 * of text (whitespace included), in order, each seeing the text the ones before it left.
 */

export interface TextEdit {
  oldText: string;
  newText: string;
}

export interface EditedText {
  ok: true;
  text: string;
  /** Whole lines around each edit, before and after. */
  hunks: Array<{ before: string; after: string }>;
}

export interface EditMismatch {
  ok: false;
  /** The edit (from 0) whose text was not found. */
  index: number;
  message: string;
}

export function applyEdits(text: string, edits: readonly TextEdit[]): EditedText | EditMismatch {
  let current = text;
  const hunks: EditedText["hunks"] = [];
  for (const [index, edit] of edits.entries()) {
    const at = current.indexOf(edit.oldText);
    if (edit.oldText === "" || at < 0) {
      return {
        ok: false,
        index,
        message: `Edit ${index + 1} failed: the text to replace was not found exactly as given:\n${edit.oldText}`,
      };
    }
    const lineStart = current.lastIndexOf("\n", at - 1) + 1;
    const end = current.indexOf("\n", at + edit.oldText.length);
    const lineEnd = end < 0 ? current.length : end;
    const before = current.slice(lineStart, lineEnd);
    const after = before.replace(edit.oldText, () => edit.newText);
    hunks.push({ before, after });
    current = current.slice(0, at) + edit.newText + current.slice(at + edit.oldText.length);
  }
  return { ok: true, text: current, hunks };
}

/** The `edits` argument of editing tools: a list of {oldText, newText} (or old_text/new_text, old_string/new_string). */
export function textEdits(value: unknown): TextEdit[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const edits: TextEdit[] = [];
  for (const edit of value) {
    if (!isPlainObject(edit)) return undefined;
    const oldText = edit.oldText ?? edit.old_text ?? edit.old_string;
    const newText = edit.newText ?? edit.new_text ?? edit.new_string;
    if (typeof oldText !== "string" || typeof newText !== "string") return undefined;
    edits.push({ oldText, newText });
  }
  return edits;
}

/** A short unified-style diff of the edited lines, one hunk per edit. */
export function editSummary(path: string, hunks: ReadonlyArray<{ before: string; after: string }>): string {
  const lines = [`--- ${path}`, `+++ ${path}`];
  for (const [index, hunk] of hunks.entries()) {
    lines.push(`@@ edit ${index + 1} @@`);
    for (const line of hunk.before.split("\n")) lines.push(`-${line}`);
    for (const line of hunk.after.split("\n")) lines.push(`+${line}`);
  }
  return lines.join("\n");
}
