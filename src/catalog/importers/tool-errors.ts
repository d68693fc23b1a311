import type { ToolError } from "../format.js";
import { errorCode } from "./names.js";

/**
 * Documented error messages written as free text ("Order not found: check the id.") become
 * tool errors: the code comes from the words before the first colon (or the first words),
 * codes stay unique within the tool.
 */
export function errorsFromMessages(messages: readonly string[], status = 400): ToolError[] {
  const errors: ToolError[] = [];
  const codes = new Set<string>();
  for (const raw of messages) {
    const message = raw.trim();
    if (!message) continue;
    const head = headOf(message);
    const base = errorCode(head);
    let code = base;
    for (let n = 2; codes.has(code); n++) code = `${base}_${n}`;
    codes.add(code);
    errors.push({ code, status: statusOf(message, status), message, when: whenOf(head, message) });
  }
  return errors;
}

/** The words naming the error: before the first colon, unless that is just "Error". */
function headOf(message: string): string {
  const colon = message.indexOf(":");
  if (colon <= 0 || colon >= 80) return message;
  const before = message.slice(0, colon).trim();
  if (/^error$/i.test(before)) return message.slice(colon + 1).trim() || before;
  return before;
}

function statusOf(message: string, fallback: number): number {
  if (/not found|does not exist|unknown .*id|no such/i.test(message)) return 404;
  if (/unauthori[sz]ed|permission|forbidden|not allowed/i.test(message)) return 403;
  if (/already exists|duplicate|conflict/i.test(message)) return 409;
  return fallback;
}

function whenOf(head: string, message: string): string {
  const reason = head === message ? message : head;
  return `The source documents this error: ${reason}`;
}
