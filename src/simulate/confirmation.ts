import type { JsonSchema } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import {
  isIdentifierName,
  LOGIN_VERBS,
  LOGOUT_VERBS,
  nounOfIdentifier,
  participle,
  SHELL_COMMANDS,
  singular,
  TEXT_ANSWER,
  verbOf,
  verbWords,
} from "./infer.js";

/**
 * The sentence a change is confirmed with, when the tool's answer has a free-text field for
 * it: what was acted on, the verb's participle, where it went, "successfully"
 * ("Song 'S-9' removed from playlist successfully", "'a.txt' copied to 'backup'
 * successfully"). Most REST and MCP servers confirm a change this way, each in its own words;
 * the sentence is a guess at those words, built from the call instead of from random ones.
 */
export function confirmation(toolName: string, args: Record<string, unknown> = {}): string {
  const words = spelled(toolName);
  const found = verbOf(words.join("_"));
  const at = found ? words.indexOf(found.verb) : -1;
  if (!found || at < 0) return sentence([...words, "completed"]);
  const verb = found.verb;
  const signs = LOGIN_VERBS.has(verb) || LOGOUT_VERBS.has(verb);
  // a verb last names its object first (`note_add`); a verb first names it after (`add_note`)
  const around = at === 0 || at < words.length - 1 ? words.slice(at + 1) : words.slice(0, at);
  const cut = around.findIndex((w, i) => i > 0 && PREPOSITIONS.has(w));
  const object = signs ? [] : cut > 0 ? around.slice(0, cut) : around;
  const where = !signs && cut > 0 ? around.slice(cut) : [];
  const target = targetOf(args, object);
  const destination = MOVING_VERBS.has(verb) ? destinationOf(args) : undefined;
  const subject = object.length > 0 ? object : target?.noun ? [target.noun] : [];
  return sentence([
    ...subject,
    ...(target ? [quoted(target.value)] : []),
    participle(verb),
    ...(destination !== undefined ? ["to", quoted(destination)] : where),
  ]);
}

/**
 * The free-text fields at the top of a changing tool's answer that confirm the change: a
 * `result`, `message` or `outcome`, a `status` where the answer names no record (a record's
 * status is its own), or the one text field an answer made of text has (`content`; it says
 * what was done, not the text that was written).
 */
export function confirmingFields(schema: JsonSchema): { fields: string[]; textAnswer: boolean } {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  const names = Object.keys(properties);
  const freeText = (name: string) => {
    const property = properties[name];
    if (!isPlainObject(property)) return false;
    const type = property.type;
    const text = type === undefined || type === "string" || (Array.isArray(type) && type.includes("string"));
    return text && !property.enum && property.const === undefined && !property.pattern && !property.format;
  };
  const namesRecord = names.some((name) => name === "id" || isIdentifierName(name));
  if (names.length === 1 && TEXT_ANSWER.test(names[0] as string) && freeText(names[0] as string))
    return { fields: names, textAnswer: true };
  const fields = names.filter(
    (name) => freeText(name) && (CONFIRMING.test(name) || (!namesRecord && STATUS.test(name))),
  );
  return { fields, textAnswer: false };
}

const CONFIRMING = /^(result|outcome|message|msg|confirmation|status_?message)$/i;
const STATUS = /^status$/i;
const PREPOSITIONS = new Set(["from", "to", "in", "into", "on", "onto", "for", "with", "at", "of"]);
/** Verbs whose call says where the thing goes: the sentence names the destination. */
const MOVING_VERBS = new Set(["copy", "move", "send", "transfer", "forward", "share", "assign", "rename"]);
/** Arguments that name the thing acted on: its identifier, name, path or symbol. */
const TARGET =
  /(^|_)(name|path|file|filename|dir|directory|folder|symbol|ticker|title|slug|handle|username|source|src)$/;
const DESTINATION =
  /^(to|dest|destination|target|recipient|receiver|new_?(name|path))(_|$)|_(to|destination)$/;

/** A name's words with a shell command spelled out (`rmdir` → remove directory) and no trailing number. */
function spelled(name: string): string[] {
  const words = verbWords(name).flatMap((word) => [...(SHELL_COMMANDS[word] ?? [word])]);
  while (words.length > 1 && /^[0-9]+$/.test(words.at(-1) ?? "")) words.pop();
  return words;
}

function targetOf(
  args: Record<string, unknown>,
  object: readonly string[],
): { value: string; noun?: string } | undefined {
  const candidates = Object.entries(args).filter(
    ([name, value]) =>
      (typeof value === "string" || typeof value === "number") &&
      !DESTINATION.test(snake(name)) &&
      (isIdentifierName(name) || name === "id" || TARGET.test(snake(name))),
  );
  const objectNoun = object.map(singular).join("_");
  const named = candidates.find(([name]) => nounOfIdentifier(name) === objectNoun) ?? candidates[0];
  if (!named) return undefined;
  const noun = nounOfIdentifier(named[0]);
  return { value: String(named[1]), ...(noun ? { noun: noun.replace(/_/g, " ") } : {}) };
}

function destinationOf(args: Record<string, unknown>): string | undefined {
  const found = Object.entries(args).find(
    ([name, value]) =>
      (typeof value === "string" || typeof value === "number") && DESTINATION.test(snake(name)),
  );
  return found ? String(found[1]) : undefined;
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** A value quoted as confirmations quote names, shortened so an argument cannot fill the answer. */
function quoted(value: string): string {
  return `'${value.length > 200 ? `${value.slice(0, 197)}...` : value}'`;
}

function sentence(words: readonly string[]): string {
  const text = [...words, "successfully"].join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
