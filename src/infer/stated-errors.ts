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
  names: readonly string[] = [],
  own = "",
): ToolError[] {
  const out: ToolError[] = [];
  if (!speaksOfFailing(description)) return out;
  const taken = new Set(known.map((e) => e.code));
  for (const sentence of sentencesOf(description)) {
    if (!speaksOfFailing(sentence)) continue;
    // "while frozen, post_comment fails with FROZEN": another tool's error, told where it is caused
    // ("resolved as in get_folder, NOT_FOUND if it does not" only points to how another tool reads it)
    if (names.some((name) => name !== own && causedBy(name, sentence))) continue;
    const codes = [...sentence.matchAll(CODE)].filter((m) => isCode(m[0], sentence.slice(0, m.index)));
    const found: ToolError[] = codes.map((match, i) => {
      const end = (match.index ?? 0) + match[0].length;
      const next = codes[i + 1]?.index ?? sentence.length;
      return errorOf(match[0], conditionIn(sentence.slice(end, next)));
    });
    if (found.length === 0) found.push(...listedCodes(sentence), ...proseErrors(sentence));
    for (const error of found) {
      if (taken.has(error.code)) continue;
      taken.add(error.code);
      out.push(error);
    }
  }
  return out;
}

/** "post_comment fails with FROZEN", "then close_ticket returns LOCKED": the other tool is the one failing. */
function causedBy(name: string, sentence: string): boolean {
  const at = sentence.indexOf(name);
  if (at < 0) return false;
  const after = sentence.slice(at + name.length, at + name.length + 40);
  return /^\W*(?:\w+\W+){0,2}?(?:fails?|returns?|rejects?|refuses?|errors?|answers?|raises?|throws?|gives?)\b/i.test(
    after,
  );
}

/**
 * "Errors: check_not_found, duplicate_url (another check has this exact url)": codes in lower
 * case, as Slack and GitHub write theirs, listed after "Errors:" with the condition in brackets.
 */
function listedCodes(sentence: string): ToolError[] {
  const list = /\berrors?\s*:\s*(.+)$/i.exec(sentence)?.[1];
  if (!list) return [];
  const out: ToolError[] = [];
  for (const item of list.split(/,(?![^(]*\))|;/)) {
    const match = /^\s*`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?\s*(?:\(([^)]*)\))?\s*\.?\s*$/.exec(item);
    if (!match?.[1]) return [];
    out.push(errorOf(match[1].toUpperCase(), match[2]?.trim() || undefined));
  }
  return out;
}

/**
 * "Returns an error if the repository does not exist or already has the topic", "Fails if a
 * deployment is running": errors told without a code, as many MCP tool descriptions tell them. Each condition
 * gets a code made of its words (`SHOW_NOT_FOUND` for a thing that does not exist), so the
 * call fails as the description says, in the catalog's style.
 */
function proseErrors(sentence: string): ToolError[] {
  const told =
    /\b(?:returns?|raises?|throws?|gives?|answers?)\s+(?:an?\s+)?error\s+(?:if|when|unless)\s+(.+)$|\b(?:fails?|is rejected|errors?)\s+(?:if|when|while|unless)\s+(.+)$/i.exec(
      sentence,
    );
  const conditions = (told?.[1] ?? told?.[2])?.replace(/[.;]+\s*$/, "") ?? onlyWhen(sentence);
  if (!conditions) return [];
  const parts = conditions
    .split(
      /,?\s+or\s+(?=(?:the|a|an|it|its|another|no|any|is|already|has|does|when|if)\b)|,\s+(?=(?:the|a|an|another|no|if|when|while)\s)|\s+or\s+(?=(?:when|while|if)\s)/i,
    )
    .map((part) => part.replace(/^(?:when|if|while)\s+/i, ""));
  const subject = /^(?:the|a|an)\s+([a-z]+)/i.exec(parts[0] ?? "")?.[1];
  // "Fails unless the door is closed, …": each condition must hold, so each error is its negation
  const unless = told !== null && /\bunless\s/i.test(told[0].slice(0, told[0].length - conditions.length));
  const pieces = unless ? parts.flatMap((part) => part.split(/\s+and\s+(?=(?:the|a|an|at|its)\s)/i)) : parts;
  return pieces.map((part) => {
    const condition = unless ? negation(part.trim()) : part.trim();
    return errorOf(proseCode(condition, subject), condition);
  });
}

/** "the door is closed" → "the door is not closed"; "the lock is off" → "the lock is not off". */
function negation(condition: string): string {
  const negated = condition.replace(/\b(is|are|has|have)\b(?!\s+not\b)/i, "$1 not");
  return negated === condition ? `not ${condition}` : negated;
}

/**
 * "Only allowed when mode is "manual"; fails otherwise": the call fails when the condition
 * does not hold, so the error's condition is the one negated (`mode is not manual`).
 */
function onlyWhen(sentence: string): string | undefined {
  if (!/\botherwise\b/i.test(sentence)) return undefined;
  const condition =
    /\bonly\s+(?:(?:allowed|possible|permitted|available|works|succeeds)\s+)?(?:when|while|if)\s+([^;,]+)/i.exec(
      sentence,
    )?.[1];
  if (!condition) return undefined;
  return negation(condition.replace(/["'`]/g, "").trim());
}

const FILLER = new Set([
  "the",
  "a",
  "an",
  "is",
  "are",
  "its",
  "it",
  "to",
  "of",
  "that",
  "this",
  "with",
  "for",
  "be",
  "on",
  "in",
  "was",
]);

function proseCode(condition: string, subject: string | undefined): string {
  const text = condition.toLowerCase();
  const missing =
    /^(?:the|a|an|no)?\s*([a-z]+)\b.*\b(?:does not exist|doesn't exist|is not found|is unknown|not found)\b/.exec(
      text,
    );
  if (missing?.[1]) return `${missing[1].toUpperCase()}_NOT_FOUND`;
  if (/^(?:does not exist|doesn't exist|is not found)/.test(text) && subject)
    return `${subject.toUpperCase()}_NOT_FOUND`;
  const words = text
    .replace(/[^a-z0-9\s]/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "" && !FILLER.has(w))
    .slice(0, 5);
  return (words.length > 0 ? words : ["invalid", "request"]).join("_").toUpperCase();
}

/** A sentence that speaks of failing. */
const ERROR_WORDS = /\b(fail(s|ed)?|errors?|reject(s|ed)?|refus(e|es|ed)|raises?|throws?|denie[sd])\b/i;

/**
 * "APPLICATION_NOT_FOUND when the identifier is unknown", "WAITLIST_FULL is returned when the waitlist
 * holds 40", "DEVICE_BUSY while a job runs": a code with its condition says it fails.
 */
const CONDITIONED_CODE =
  /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`?\s+(?:(?:is|are)\s+(?:returned|raised|thrown|given|answered)\s+)?(?:when|if|unless|while)\b/;

/**
 * "Unknown handles produce UNKNOWN_PLAYER", "an unknown id returns NOT_FOUND", "the result is
 * BOARD_MISSING": a code as what a call answers.
 */
const ANSWERED_CODE =
  /\b(?:produces?|returns?|yields?|gives?|answers?|results?\s+in|responds?\s+with|gets?|(?:result|response|reply|answer)\s+is)\s+(?:an?\s+|the\s+)?`?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/;

/** "UNKNOWN_PLAYER for a handle not on the books": a code and the case it is for. */
const CODE_FOR_CASE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`?\s+for\s+(?:a|an|any|the|each|every)\b/;

/** "The handle must match … and be unused (HANDLE_TAKEN)", "… (BAD_SLUG otherwise)": a requirement with its code in brackets. */
const REQUIRED_CODE =
  /\b(?:must|cannot|can't|may\s+not|needs?\s+to|has\s+to|is\s+required|only)\b[^.]*\(\s*`?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`?(?:\s+otherwise)?\s*\)/;

/** "Unknown hive: `NOT_FOUND`", "Unknown id → NOT_FOUND": a bad case, a colon or an arrow, and its code. */
const CASE_CODE =
  /\b(?:[Uu]nknown|[Mm]issing|[Ii]nvalid|[Nn]onexistent|[Nn]on-existent|[Nn]o such|[Dd]uplicate|[Ee]mpty)\b[^.:;→]{0,40}(?::|→|->)\s*`?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/;

/** "`amount` has to be more than 0, otherwise `INVALID_AMOUNT`": a requirement and the code of its breach. */
const OTHERWISE_CODE = /\b(?:otherwise|or else|else)\s*[,:]?\s*`?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/;

function speaksOfFailing(text: string): boolean {
  return (
    ERROR_WORDS.test(text) ||
    CASE_CODE.test(text) ||
    OTHERWISE_CODE.test(text) ||
    CONDITIONED_CODE.test(text) ||
    ANSWERED_CODE.test(text) ||
    CODE_FOR_CASE.test(text) ||
    REQUIRED_CODE.test(text)
  );
}

/** `ORDER_NOT_FOUND`, `E_LIMIT`, and a one-word code right after "fails with" or "error". */
const CODE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g;

function isCode(token: string, before: string): boolean {
  if (token.includes("_")) return /[A-Z]{2}/.test(token);
  if (token.length < 4) return false;
  // one word in a list of codes ("STATUS_UNCHANGED (…) · NO_TECHNICIAN (…)") is one of them
  return (
    /\b(with|errors?:?|code)\s*$/i.test(before) ||
    /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+`?\s*(?:\([^()]*\))?\s*[·,;|]\s*`?$/.test(before)
  );
}

function sentencesOf(text: string): string[] {
  return listedUnderErrors(text)
    .split(/(?<=[.!?])\s+(?=[A-Z(])|\n+/)
    .filter((s) => s.trim().length > 0);
}

/**
 * "Errors:\n- `BOARD_NOT_FOUND`\n- `BOARD_EXISTS` – the team already has …": each item of a
 * list under an "Errors" heading (a remark in brackets after it allowed: "**Errors** (nothing
 * changes on error):") is read as a sentence of its own that speaks of failing.
 */
function listedUnderErrors(text: string): string {
  if (!text.includes("\n")) return text;
  const lines = text.split("\n");
  let under = false;
  return lines
    .map((line) => {
      if (
        /^\s*(?:#+\s*)?(?:\*\*|__)?(?:errors?|error codes|fails?|raises|throws|exceptions)\s*:?\s*(?:\*\*|__)?\s*(?:\([^()]*\))?\s*:?\s*$/i.test(
          line,
        )
      ) {
        under = true;
        return "";
      }
      // "- `NOT_FOUND` – …", or a code opening an indented line ("  EVENT_FULL - no seats left")
      const item =
        /^\s*[-*•]\s+(.*)$/.exec(line) ?? /^\s*(`?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`?\s*[-–—:].*)$/.exec(line);
      if (under && item) return `Errors: ${item[1]}`;
      under = false;
      return line;
    })
    .join("\n");
}

/** "if no project has that name, or" → "no project has that name"; "– the parent has one" → "the parent has one". */
function conditionIn(segment: string): string | undefined {
  // "NOT_STOCKED – no bottle", "NOT_STOCKED: no bottle" (a docstring's Raises section)
  const dashed = /^[`\s]*(?:[–—-]|:(?=\s+[a-z]))\s+(.+)$/s.exec(segment)?.[1];
  if (dashed) return dashed.replace(/[.;,]+\s*$/, "").trim() || undefined;
  // "RUN_NOT_CANCELLABLE (status is completed or failed)": the condition in brackets after the code
  const bracketed = /^[`\s]*\(([^()]+)\)/.exec(segment)?.[1]?.replace(/[`"']/g, "").trim();
  if (bracketed && !/^(?:\d{3}|HTTP)\b/i.test(bracketed))
    return bracketed.replace(/^(?:if|when|where)\s+/i, "") || undefined;
  const text = segment
    .replace(/^[\s,:;)(`]+/, "")
    .replace(/\s*[,;.]?\s*(?:or|and)?\s*[,;.]?\s*$/i, "")
    .trim();
  const match =
    /^(?:\([^)]*\)\s*)?(?:(?:is|are)\s+(?:returned|raised|thrown|given|answered)\s+)?(?:if|when|unless|where|while|for)\s+(.+)$/is.exec(
      text,
    );
  // "A if x; then y must be …": the condition ends with its clause
  return (
    match?.[1]
      ?.split(/;\s/)[0]
      ?.replace(/[.;,]+$/, "")
      .trim() || undefined
  );
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
