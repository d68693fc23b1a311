import { type Context, notFoundError } from "./context.js";
import { counted, createRule } from "./creates.js";
import type { Draft } from "./drafts.js";
import { ownerField, principalOf } from "./principal.js";
import { identifier } from "./reads.js";
import { collectionOfVerb, type Reference } from "./resolve.js";
import type { CollectionShape, StateShape } from "./shape.js";
import { currentTarget, recordTarget, referenceTarget } from "./targets.js";
import { nameWords, plural, STATUS_VERBS, singular } from "./words.js";

/**
 * Folders: records of one kind kept in several arrays side by side (a mailbox's `inbox`,
 * `sent` and `archive`), numbered from one sequence. A record is found by its id in any of
 * them; a message sent is filed in the folder named for sending; a verb that names a folder
 * (archive, trash) moves the record there; a reply or a forward makes a new record from the
 * one it names. These are the labels and folders of Gmail's and Microsoft Graph's mail APIs
 * (`messages.get` by id whatever the folder, `move`, `reply`, `forward`) and the boxes of
 * IMAP.
 */

export interface Folders {
  /** Where the folders live. */
  holder: string[];
  /** Every folder's name, the empty ones too. */
  names: string[];
  /** The folders whose records the state shows. */
  collections: CollectionShape[];
  keyField: string;
}

export function foldersOf(shape: StateShape, collection: CollectionShape): Folders | undefined {
  // folders are arrays inside one record (a mailbox); collections side by side at the top are apart
  if (collection.parent || !collection.keyField || collection.container !== "array") return undefined;
  const holder = collection.path.slice(0, -1);
  if (holder.length === 0) return undefined;
  const beside = (path: readonly string[]) =>
    path.length === holder.length + 1 && holder.every((segment, i) => path[i] === segment);
  const collections = shape.parts.filter(
    (p): p is CollectionShape =>
      p.kind === "collection" &&
      p.container === "array" &&
      beside(p.path) &&
      p.keyField === collection.keyField &&
      !p.parent,
  );
  const empty = shape.parts.filter((p) => p.kind === "list" && beside(p.path) && p.items.length === 0);
  const names = [...collections, ...empty].map((p) => p.path.at(-1) as string);
  if (names.length < 2) return undefined;
  return { holder, names, collections, keyField: collection.keyField };
}

/**
 * A folder's records under the name of what they are (`message_id` → messages), not of the
 * folder they are in: a message not found is no "inbox not found".
 */
function recordsIn(folders: Folders, collection: CollectionShape): CollectionShape {
  const noun = nameWords(folders.keyField).filter((w) => w !== "id");
  return noun.length > 0 ? { ...collection, name: plural(noun.join("_")) } : collection;
}

/** Every folder set of the world. */
function allFolders(shape: StateShape): Folders[] {
  const found = new Map<string, Folders>();
  for (const collection of [...shape.collections.values(), ...shape.nested.values()]) {
    const folders = foldersOf(shape, collection);
    const id = folders ? [...folders.holder, folders.keyField].join("/") : "";
    if (folders && !found.has(id)) found.set(id, folders);
  }
  return [...found.values()];
}

/** The one folder the tool's name or description names, if it names exactly one. */
function namedFolder(ctx: Context, folders: Folders): string | undefined {
  const text = ctx.facts.text.toLowerCase();
  const named = folders.names.filter(
    (name) =>
      ctx.facts.words.includes(name.toLowerCase()) ||
      new RegExp(`\\b${nameWords(name).join(" ")}\\b`).test(text),
  );
  return named.length === 1 ? named[0] : undefined;
}

function folderValue(folders: Folders, name: string): string {
  const path = [...folders.holder, name].map((s) => JSON.stringify(s)).join(", ");
  return `$entity(${path})`;
}

/**
 * A read by id of a record kept in folders looks in all of them, unless the tool names one
 * (`list_inbox`, "a message of the inbox").
 */
export function readAcrossFolders(ctx: Context, subject: Reference): Draft[] | undefined {
  const folders = foldersOf(ctx.shape, subject.collection);
  if (!folders || namedFolder(ctx, folders)) return undefined;
  const missing = notFoundError(ctx, recordsIn(folders, subject.collection), subject.param.name, {
    add: true,
  });
  const all = folders.names
    .map((name) => folderValue(folders, name))
    .reduce((joined, next) => `$append(${joined}, ${next})`, "[]");
  const key = identifier(folders.keyField);
  ctx.notes.push(`reads the record ${subject.param.name} names in any of ${folders.names.join(", ")}`);
  return [
    {
      kind: "let",
      as: "found",
      value: { $expr: `${all}[${key} = $args.${identifier(subject.param.name)}][0]` },
    },
    ...(missing ? [{ kind: "check", require: [{ expr: "$exists($found)", error: missing }] }] : []),
    { kind: "respond", value: { $expr: "$found" } },
  ];
}

/**
 * The folder a new record is filed in: the one named for what the verb does (`sent` for send),
 * else the one the description files it in.
 */
export function folderForCreate(ctx: Context): CollectionShape | undefined {
  const verb = ctx.facts.verb;
  for (const folders of allFolders(ctx.shape)) {
    const done = verb ? doneForm(verb) : undefined;
    const name = folders.names.find((n) => n.toLowerCase() === done) ?? namedFolder(ctx, folders);
    const collection = folders.collections.find((c) => c.path.at(-1) === name);
    if (collection) return collection;
  }
  return undefined;
}

/** What a verb of filing leaves: `sent` for send, `posted` for post, `archived` for archive. */
function doneForm(verb: string): string {
  const irregular: Record<string, string> = { send: "sent", write: "written", forward: "forwarded" };
  return irregular[verb] ?? (verb.endsWith("e") ? `${verb}d` : `${verb}ed`);
}

/**
 * A verb that names a folder the record is not in (archive, trash, spam) moves the record
 * there: it leaves its folder and is appended to the other.
 */
export function moveToFolder(ctx: Context, subject: Reference): Draft[] | undefined {
  const folders = foldersOf(ctx.shape, subject.collection);
  const verb = ctx.facts.verb;
  if (!folders || !verb) return undefined;
  const stem = STATUS_VERBS[verb]?.[0] ?? verb;
  const to = folders.names.find(
    (n) => n !== subject.collection.name && (n.toLowerCase() === verb || n.toLowerCase().startsWith(stem)),
  );
  if (!to) return undefined;
  const target = referenceTarget(ctx, subject);
  if (!target) return undefined;
  const missing = notFoundError(ctx, recordsIn(folders, subject.collection), subject.param.name, {
    add: true,
  });
  const holder = folders.holder.join("/") || ".";
  ctx.notes.push(`moves the record from ${subject.collection.name} to ${to}`);
  return [
    { kind: "delete", target, ...(missing ? { missing } : {}), as: "moved", output: "" },
    { kind: "update", target: holder, append: { [to]: "{$moved}" } },
  ];
}

/**
 * Moving a record kept inside others' (a card in a list) to another holder of its kind, named
 * by an argument (`idList`): it leaves the holder it is in and goes at the end of the other,
 * as Trello's `PUT /1/cards/{id}?idList=…`, Jira's move of an issue to another sprint and
 * Asana's `addTask` to another section do. An unknown record or holder changes nothing.
 */
export function moveToHolder(ctx: Context): Draft[] | undefined {
  if (ctx.facts.verb !== "move") return undefined;
  for (const subject of ctx.references) {
    const kept = subject.collection;
    if (subject.many || !kept.parent || kept.container !== "array") continue;
    const to = ctx.references.find((r) => r !== subject && !r.many && r.collection.name === kept.parent);
    if (!to) continue;
    const from = currentTarget(ctx, subject);
    const holder = recordTarget(ctx, to.collection, `{${to.param.name}}`);
    if (!from || !holder) continue;
    const missing = notFoundError(ctx, kept, subject.param.name, { add: true });
    const absent = notFoundError(ctx, to.collection, to.param.name, { add: true });
    const field = kept.path.at(-1) as string;
    ctx.notes.push(
      `moves the ${singular(kept.name)} to the end of the ${field} of the ${singular(to.collection.name)} ${to.param.name} names`,
    );
    return [
      { kind: "delete", target: from, ...(missing ? { missing } : {}), as: "moved", output: "" },
      {
        kind: "update",
        target: holder,
        ...(absent ? { missing: absent } : {}),
        append: { [field]: "{$moved}" },
      },
      { kind: "respond", value: "{$moved}" },
    ];
  }
  return undefined;
}

const OUTCOME_WORDS = new Set(["status", "success", "result", "message", "ok", "outcome"]);

/** Verbs that make a new record from the one they name. */
const REPLY_VERBS: ReadonlySet<string> = new Set(["reply", "respond", "answer"]);
const FORWARD_VERBS = new Set(["forward", "reshare", "share", "repost", "reblog", "quote"]);

/**
 * A reply says something: answering an invitation or a referral with one of a few words
 * (`respond_to_referral(referral_id, answer: accept|decline)`) makes no record.
 */
export function answersInAWord(ctx: Context, subject: Reference): boolean {
  return REPLY_VERBS.has(ctx.facts.verb ?? ctx.facts.words[0] ?? "") && !saysSomething(ctx, subject);
}

/** A text argument free to say anything (no enum, no key), or records that link replies to what they answer. */
function saysSomething(ctx: Context, subject: Reference): boolean {
  const text = ctx.facts.params.some(
    (p) => p !== subject.param && p.type === "string" && !p.identifier && p.schema.enum === undefined,
  );
  const linked = [...subject.collection.fields.keys()].some((f) => /reply|replies|parent/.test(f));
  return text || linked;
}

/**
 * A reply or a forward files a new record made from the one it names, in the folder sending
 * files in: a reply goes to the original's author and keeps a link to it; a forward carries
 * the original's text to a new recipient.
 */
export function derivedRecord(ctx: Context, subject: Reference): Draft[] | undefined {
  const verb = ctx.facts.verb ?? ctx.facts.words[0];
  if (!verb || !(REPLY_VERBS.has(verb) || FORWARD_VERBS.has(verb))) return undefined;
  if (answersInAWord(ctx, subject)) return undefined;
  // replies kept apart from what they answer (`replies` naming their thread) are made there
  const filed = collectionOfVerb(ctx.facts, ctx.shape);
  if (filed && filed !== subject.collection) return undefined;
  const folders = foldersOf(ctx.shape, subject.collection);
  const into = folders ? (sentFolder(ctx, folders) ?? subject.collection) : subject.collection;
  const original = referenceTarget(ctx, subject);
  if (!original) return undefined;
  const records = folders ? recordsIn(folders, subject.collection) : subject.collection;
  const missing = notFoundError(ctx, records, subject.param.name, { add: true });
  const others = ctx.references.filter((r) => r !== subject);
  // the argument names the original: it is no key of the new record (`comment_id` of a reply)
  const facts = { ...ctx.facts, params: ctx.facts.params.filter((p) => p !== subject.param) };
  const drafts = createRule(
    { ...ctx, facts, references: others },
    into,
    nameWords(singular(into.name)).join("_"),
  );
  const create = drafts.find((d) => d.kind === "create");
  if (!create) return undefined;
  const set = { ...(create.set as Record<string, unknown>) };
  delete set[subject.param.name];
  for (const field of into.fields.values()) {
    if (field.path.includes(".") || set[field.path] !== undefined || field.path === into.keyField) continue;
    // what it says is copied, not what is counted or flagged about it (likes, reads, reposts)
    if (field.types.has("boolean") || field.types.has("number")) continue;
    set[field.path] = `{$original.${field.path}}`;
  }
  if (REPLY_VERBS.has(verb)) {
    const recipient = recipientField(ctx, into);
    if (recipient) set[recipient.to] = `{$original.${recipient.from}}`;
  }
  // the link is named for the verb where a field or an output says so (`in_reply_to_id`,
  // `reblog_of_id`, `reposted_from`), else for what it points at (`parent`, `original`)
  const stem = verb.replace(/e$/, "");
  const byVerb = [...ctx.facts.outputs.map((o) => o.name), ...into.fields.keys()].find(
    (name) =>
      !name.includes(".") &&
      name !== into.keyField &&
      nameWords(name).some((w) => w.startsWith(stem)) &&
      // `share_status` says how the call went, not what was shared
      !nameWords(name).some((w) => OUTCOME_WORDS.has(w)),
  );
  const link =
    byVerb && (set[byVerb] === undefined || (set[byVerb] as { $expr?: unknown } | null)?.$expr === "null")
      ? { name: byVerb }
      : ctx.facts.outputs.find(
          (o) => !into.fields.has(o.name) && /reply|parent|original|source|quoted|_of$/i.test(o.name),
        );
  if (link) set[link.name] = `{${subject.param.name}}`;
  ctx.notes.push(`makes a new ${singular(into.name)} from the one ${subject.param.name} names`);
  // the original counts what was made from it (`repost_count`, `reply_count`)
  const count = counted(subject.collection, verb);
  if (count) ctx.notes.push(`raises the original's ${count}`);
  return [
    count
      ? {
          kind: "update",
          target: original,
          ...(missing ? { missing } : {}),
          inc: { [count]: 1 },
          as: "original",
        }
      : { kind: "read", target: original, ...(missing ? { missing } : {}), as: "original" },
    ...drafts.map((d) => (d === create ? { ...d, set } : d)),
  ];
}

function sentFolder(ctx: Context, folders: Folders): CollectionShape | undefined {
  const name = folders.names.find((n) => n.toLowerCase() === "sent") ?? namedFolder(ctx, folders);
  return folders.collections.find((c) => c.path.at(-1) === name);
}

/** The record's author field and the one that says to whom it goes, both keys of the same accounts. */
function recipientField(ctx: Context, collection: CollectionShape): { from: string; to: string } | undefined {
  for (const other of ctx.shape.collections.values()) {
    const principal = principalOf(ctx.shape, other);
    const from = principal ? ownerField(collection, principal) : undefined;
    if (!from) continue;
    const to = [...collection.fields.values()].filter(
      (f) => f.refersTo === other.name && f.path !== from && !f.path.includes("."),
    );
    if (to.length === 1) return { from, to: (to[0] as { path: string }).path };
  }
  return undefined;
}
