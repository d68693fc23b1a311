import type { ToolError } from "../catalog/index.js";
import { nameWords } from "./words.js";

/**
 * The error codes a description names, where the catalog lists none of them: "Fails with
 * ORDER_NOT_FOUND if no order has that id", "Errors, in this order: NAME_TAKEN if …;
 * USER_NOT_FOUND if …", "returns ALREADY_MEMBER when the user is listed". Reference docs of
 * REST and MCP APIs name their error codes this way (Slack's `already_in_channel`, Stripe's
 * `resource_missing`, GitHub's 422 reasons); each becomes a documented error with the
 * condition its sentence gives, for the rules that read documented errors.
 */
export function statedErrors(
  description: string,
  known: readonly ToolError[],
  others: readonly string[] = [],
): ToolError[] {
  const taken = new Set(known.map((e) => e.code));
  const out: ToolError[] = [];
  for (const sentence of sentencesOf(description)) {
    if (!ERROR_WORDS.test(sentence)) continue;
    // "while locked, brew_shot fails with LOCKED": another tool's error, told where it is caused
    if (others.some((name) => sentence.includes(name))) continue;
    const codes = [...sentence.matchAll(CODE)].filter((m) => isCode(m[0], sentence.slice(0, m.index)));
    codes.forEach((match, i) => {
      const code = match[0];
      if (taken.has(code)) return;
      taken.add(code);
      const end = (match.index ?? 0) + code.length;
      const next = codes[i + 1]?.index ?? sentence.length;
      out.push(errorOf(code, conditionIn(sentence.slice(end, next))));
    });
  }
  return out;
}

/** A sentence that speaks of failing. */
const ERROR_WORDS = /\b(fail(s|ed)?|errors?|rejects?|refuses?|raises?|throws?|denie[sd])\b/i;

/** `ORDER_NOT_FOUND`, `E_LIMIT`, and a one-word code right after "fails with" or "error". */
const CODE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g;

function isCode(token: string, before: string): boolean {
  if (token.includes("_")) return /[A-Z]{2}/.test(token);
  return token.length >= 4 && /\b(with|errors?:?|code)\s*$/i.test(before);
}

function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z(])|\n+/).filter((s) => s.trim().length > 0);
}

/** "if no package has that name, or" → "no package has that name". */
function conditionIn(segment: string): string | undefined {
  const text = segment
    .replace(/^[\s,:;)(]+/, "")
    .replace(/\s*[,;.]?\s*(?:or|and)?\s*[,;.]?\s*$/i, "")
    .trim();
  const match = /^(?:\([^)]*\)\s*)?(?:if|when|unless|where)\s+(.+)$/is.exec(text);
  return match?.[1]?.replace(/[.;,]+$/, "").trim() || undefined;
}

function errorOf(code: string, condition: string | undefined): ToolError {
  const words = nameWords(code);
  const plain = words.join(" ");
  const notFound = /(^| )(not found|not exist|does not exist|no such|unknown|missing)( |$)/.test(plain);
  const conflict = /(^| )(already|exists|taken|duplicate|conflict|in use)( |$)/.test(plain);
  const status = notFound
    ? 404
    : conflict
      ? 409
      : /(^| )(forbidden|denied|not allowed|no access)( |$)/.test(plain)
        ? 403
        : 400;
  const when = condition ?? plain;
  const message = condition ? `${capitalized(condition)}.` : `${capitalized(plain)}.`;
  return { code, status, message, when };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
