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
