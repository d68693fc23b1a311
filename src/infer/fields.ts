import escapeRegExp from "escape-string-regexp";
import { knownValues, statedStatus } from "./conditions.js";
import type { Context } from "./context.js";
import type { Param } from "./facts.js";
import type { CollectionShape, FieldShape } from "./shape.js";
import {
  flagName,
  nameWords,
  PLAIN_UPDATE_VERBS,
  participle,
  STATUS_VERBS,
  type Switching,
  singular,
  switchedFlag,
  switchingOf,
} from "./words.js";

/**
 * Where an argument lands in an entity, and which status an action leaves it in.
 */

/** The entity field an argument sets: same name at the top, else the one nested field of that name (`address.zip`). */
export function fieldFor(param: Param, collection: CollectionShape): string | undefined {
  const top = collection.fields.get(param.name);
  if (top && !(param.type !== "object" && top.types.has("object") && top.types.size === 1)) return param.name;
  const nested = [...collection.fields.keys()].filter(
    (path) => path.includes(".") && path.split(".").at(-1) === param.name,
  );
  if (nested.length === 1) return nested[0];
  // an array of objects whose properties are the fields of an array of the entity (`cards` → `card_history`)
  if (param.type === "array" && param.itemProperties?.length) {
    const props = param.itemProperties;
    const arrays = [...collection.fields.values()].filter(
      (f) => f.itemFields && !f.path.includes(".") && props.every((p) => f.itemFields?.has(p)),
    );
    if (arrays.length === 1) return arrays[0]?.path;
  }
  return undefined;
}

/**
 * The record's own field for what an action's argument says: who did it, in a
 * `<participle>_by` (`approved_by` from `approver_id`, GitHub's `merged_by`, Jira's
 * `resolvedBy`), or why, in a field named after the action (`rejection_reason` from `reason`,
 * Stripe's `cancellation_reason`, Shopify's `cancel_reason`).
 */
export function actionFieldFor(ctx: Context, param: Param, collection: CollectionShape): string | undefined {
  const verb = ctx.facts.verb;
  if (!verb || PLAIN_UPDATE_VERBS.has(verb)) return undefined;
  const top = [...collection.fields.values()].filter((f) => !f.path.includes("."));
  const words = param.words;
  // a person named by an id (`agent_id`, `approver_id`), by `by`, or by an agent noun (`approver`)
  const actor =
    param.type === "string" &&
    (words.at(-1) === "id" ||
      words.at(-1) === "by" ||
      /(er|or|ee)$/.test(words[0] ?? "") ||
      PERSON.test(words[0] ?? ""));
  if (actor) {
    // who did it (`approved_by`), or to whom it was done (`assignee_id`, `assigned_to`)
    const done = participle(verb);
    const named = [`${done}_by`, `${verb}ee`, `${verb}ee_id`, `${done}_to`, `${done}_to_id`];
    const by = top.find((f) => named.includes(f.path));
    if (by) return by.path;
  }
  const stem = verb.replace(/e$/, "");
  const named = top.filter((f) => {
    const fieldWords = nameWords(f.path);
    return (
      fieldWords.length === words.length + 1 &&
      fieldWords.slice(1).join("_") === words.join("_") &&
      (fieldWords[0] ?? "").startsWith(stem)
    );
  });
  return named.length === 1 ? named[0]?.path : undefined;
}

/** Nouns for someone that do not end as agent nouns do (`agent`, `assistant`, `member`). */
const PERSON =
  /^(agent|assistant|attendant|specialist|technician|analyst|clerk|staff|member|person|user|nurse|doctor|rep|student|resident)$/;

/**
 * Where an argument of an action that no field takes is recorded. An action (cancel, return,
 * approve) keeps its arguments as a record of itself, named after the verb: `reason` of
 * `cancel_…` becomes `cancel_reason`, `item_ids` of `return_…` becomes `return_items`. A
 * plain update (update, modify, set…) has no such record: its other arguments only select.
 */
export function recordFieldFor(ctx: Context, param: Pick<Param, "name" | "words">): string | undefined {
  const verb = ctx.facts.verb;
  if (!verb || PLAIN_UPDATE_VERBS.has(verb) || CONTENT_VERBS.has(verb)) return undefined;
  const words = param.words;
  if (words[0] === verb) return param.name;
  const last = words.at(-1);
  const named = last === "ids" && words.length > 1 ? [...words.slice(0, -2), `${words.at(-2)}s`] : words;
  return [verb, ...named].join("_");
}

/** Verbs whose arguments are the record's content, never a record of the action (`put_object(content)`). */
const CONTENT_VERBS: ReadonlySet<string> = new Set(["write", "put", "save", "store", "upload"]);

/** The field that holds an entity's status: `status` or `state` (or `…_status`) with a handful of string values. */
export function statusField(collection: { fields: Map<string, FieldShape> }): FieldShape | undefined {
  const candidates = [...collection.fields.values()].filter(
    (f) => !f.path.includes(".") && !f.open && f.types.has("string") && f.values.size > 0,
  );
  return (
    candidates.find((f) => f.path === "status") ??
    candidates.find((f) => f.path === "state") ??
    candidates.find((f) => /(^|_)status$/.test(f.path))
  );
}

/** The status a write leaves its entity in, and which rule said so. */
export function statusAfter(
  ctx: Context,
  collection: CollectionShape,
): { field: string; value: string; rule: string; invented?: boolean } | undefined {
  const field = statusField(collection);
  const said = statedStatus(ctx.facts.text);
  const verb = ctx.facts.verb ?? (ctx.facts.verbAction === undefined ? ctx.facts.words[0] : undefined);
  const spelled = participleStatus(ctx, collection, true);
  const place = said || spelled ? undefined : valueNamedByVerb(ctx, collection);
  if (place) return place;
  // "(archived = true)", or a flag named for what the verb does (`archived` for archive): that flag
  const flagged =
    assignedFlag(ctx.facts.text, collection) ?? (verb ? participleFlag(collection, verb) : undefined);
  if (flagged) return flagged;
  const known: readonly [string, string] | undefined = verb
    ? (STATUS_VERBS[verb] ?? (spelled ? [spelled.toLowerCase(), spelled] : undefined))
    : undefined;
  if (!field) {
    // a flag the description names instead of a status ("no longer active", "Active becomes false")
    const flag =
      statedFlag(ctx.facts.text, collection) ??
      markedFlag(ctx, collection) ??
      switchedRecordFlag(ctx, collection);
    if (flag) return flag;
    // an entity without a status field still shows that it was cancelled, closed, approved…
    if (said) return { field: "status", value: said, rule: "the description states it" };
    // `closed_at` of `close`: the time of the change is how its records show it (GitHub's
    // `closed_at`, Stripe's `canceled_at` beside no status of their own)
    const timed = known ? collection.fields.get(`${nameWords(known[1]).join("_")}_at`) : undefined;
    if (timed) return undefined;
    return known
      ? {
          field: "status",
          value: known[1],
          rule: `the verb "${verb}"; its entities had no status yet`,
          invented: true,
        }
      : undefined;
  }
  const marked = said
    ? undefined
    : markedStatus(ctx.facts.text, knownValues(ctx, field.path, field.values.keys()));
  if (marked) return { field: field.path, value: marked, rule: "the description marks it so" };
  const found = statusValue(ctx, field, said, verb, known);
  return found ? { field: field.path, ...found } : undefined;
}

function statedFlag(
  text: string,
  collection: CollectionShape,
): { field: string; value: string; rule: string } | undefined {
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !field.types.has("boolean")) continue;
    const words = nameWords(field.path)
      .filter((w) => w !== "is")
      .join("[ _]?");
    // the flag named whole (`is_active`) or by its words (`active`)
    const becomes = new RegExp(
      `(?:\\bis[ _]|\\b)${words}\\b\\W{0,3}\\s+(?:becomes|is set to|turns)\\s+(true|false)\\b`,
      "i",
    ).exec(text);
    const noLonger = new RegExp(`\\bno longer\\s+(?:is\\s+)?${words}\\b`, "i").test(text);
    // "Archive a card: it is closed", "the repository becomes archived": the flag, set
    const becomesFlag = new RegExp(`\\b(?:it|which|and) (?:is|becomes) (?:now )?${words}\\b`, "i").test(text);
    const value = becomes?.[1]?.toLowerCase() ?? (noLonger ? "false" : becomesFlag ? "true" : undefined);
    if (value) return { field: field.path, value, rule: "the description states it" };
  }
  return undefined;
}

/** "(locked = true)", "archived: false": a flag of the records given its value in so many words. */
function assignedFlag(
  text: string,
  collection: CollectionShape,
): { field: string; value: string; rule: string } | undefined {
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !field.types.has("boolean")) continue;
    const said = new RegExp(
      `(?:^|[^a-z_])${escapeRegExp(field.path)}\\s*(?:=|:)\\s*(true|false)\\b`,
      "i",
    ).exec(text);
    if (said?.[1])
      return { field: field.path, value: said[1].toLowerCase(), rule: "the description states it" };
  }
  return undefined;
}

/** `locked` (or `is_locked`) for lock, `archived` for archive: the flag the verb sets. */
function participleFlag(
  collection: CollectionShape,
  verb: string,
): { field: string; value: string; rule: string } | undefined {
  const done = participle(verb.replace(/^un(?=[a-z]{4})/, ""));
  const undone = /^un[a-z]{4}/.test(verb);
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) continue;
    if (field.path !== done && field.path !== `is_${done}`) continue;
    return { field: field.path, value: undone ? "false" : "true", rule: `the verb "${verb}" names the flag` };
  }
  return undefined;
}

/**
 * A flag the tool's name marks (`mark_message_read`, `markAsUnread`, `flag_done`,
 * `make_playlist_public`): set true, or false where the name says its opposite (`un…`), as
 * mail, chat and task APIs mark items read, unread, done or starred, and Spotify, GitHub and
 * YouTube make a playlist, a repository or a video public or private by a flag.
 */
export function markedFlag(
  ctx: Context,
  collection: CollectionShape,
): { field: string; value: string; rule: string } | undefined {
  const words = ctx.facts.words;
  if (!words.some((w) => w === "mark" || w === "flag") && ctx.facts.verb !== "make") return undefined;
  if (ctx.facts.params.some((p) => p.type === "boolean")) return undefined;
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) continue;
    const name = nameWords(field.path).filter((w) => w !== "is");
    const last = name.at(-1) as string;
    if (words.includes(last)) return { field: field.path, value: "true", rule: "the name marks it" };
    if (words.includes(`un${last}`) || words.includes(`not${last}`))
      return { field: field.path, value: "false", rule: "the name marks it" };
  }
  return undefined;
}

/**
 * A switch thrown on a record that keeps its state as one boolean named for it (a device's
 * `on`, a door's `locked`): true for the verb's own state, false for its opposite's. Home
 * Assistant's `light.turn_on` (`state: on`), Philips Hue's lights (`on: true`), SmartThings'
 * `switch` capability (`on`/`off`).
 */
function switchedRecordFlag(
  ctx: Context,
  collection: CollectionShape,
): { field: string; value: string; rule: string } | undefined {
  const found = recordFlagSwitched(ctx, collection);
  return found
    ? { field: found.field, value: String(found.value), rule: `the verb "${found.verb}"` }
    : undefined;
}

/**
 * The one flag of a collection's records a switching tool throws: named for the verb's state
 * alone (`on`), or for it and what the tool names (`sprinkler_on` for `start_sprinkler`); a
 * flag of something else the records have (`heater_on`) is not it.
 */
export function recordFlagSwitched(
  ctx: Context,
  collection: CollectionShape,
): { field: string; value: boolean; verb: string } | undefined {
  const switching = switchingOf(ctx.facts.words, ctx.facts.verb) ?? participleSwitching(ctx);
  if (!switching) return undefined;
  const flag = theFlag(thrownFlags(collection.fields.values(), switching, switchedNouns(ctx, switching)));
  return flag ? { field: flag.field.path, value: flag.value, verb: switching.verb } : undefined;
}

/**
 * A verb no switch is known by still puts a record into the state its participle names, where
 * the records keep that state as a flag (`archive` → `archived`, `freeze` → `frozen`, `pin` →
 * `is_pinned`); its undoing (`unarchive`) clears it. GitHub archives a repository
 * (`archived: true`), Slack's `conversations.archive` and `.unarchive` set `is_archived`, and
 * Discord pins a message (`pinned: true`). A verb that makes, reads or removes records, or
 * one that only sets what it is given (`update`), is no such switch.
 */
function participleSwitching(ctx: Context): Switching | undefined {
  const { facts } = ctx;
  const verb = facts.verb ?? facts.words[0];
  if (!verb || verb.length < 3 || PLAIN_UPDATE_VERBS.has(verb)) return undefined;
  if (facts.verbAction === "create" || facts.verbAction === "read" || facts.verbAction === "delete")
    return undefined;
  const undone = /^un[a-z]{3,}$/.test(verb) ? verb.slice(2) : undefined;
  return {
    verb,
    word: verb,
    states: [participle(verb)],
    ...(undone ? { against: [participle(undone)] } : { against: [participle(`un${verb}`)] }),
  };
}

/** What a switching tool names beside its verb (`engine` of `start_engine`), singular. */
export function switchedNouns(ctx: Context, switching: Switching): Set<string> {
  return new Set(ctx.facts.nouns.filter((n) => n !== switching.word).map(singular));
}

/**
 * The booleans among these fields a switch throws, each with the value it gets: those named
 * for its state or its opposite's, alone (`on`) or after what the tool names (`engine_running`
 * of `start_engine`; `named`). A flag of something the tool does not name is none of them.
 */
export function thrownFlags(
  fields: Iterable<FieldShape>,
  switching: Switching,
  nouns: ReadonlySet<string>,
): { field: FieldShape; value: boolean; named: boolean }[] {
  return [...fields].flatMap((field) => {
    if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) return [];
    const { of } = flagName(field.path);
    // a flag named for the thing itself (`eco`, `frost_guard`) is on or off: `enable_eco` turns it on
    const words = nameWords(field.path).filter((w) => w !== "is");
    if (words.every((w) => nouns.has(singular(w))) && switchedFlag(switching, field.path) === undefined) {
      const value = switching.states.includes("on")
        ? true
        : switching.states.includes("off")
          ? false
          : undefined;
      return value === undefined ? [] : [{ field, value, named: true }];
    }
    const value = switchedFlag(switching, field.path);
    if (value === undefined || !of.every((n) => nouns.has(n))) return [];
    return [{ field, value, named: of.length > 0 }];
  });
}

/** The flag a switch throws: the one named for what the tool names, else the one bare flag. */
export function theFlag<T extends { named: boolean }>(flags: readonly T[]): T | undefined {
  const named = flags.filter((f) => f.named);
  const chosen = named.length > 0 ? named : flags;
  return chosen.length === 1 ? chosen[0] : undefined;
}

function statusValue(
  ctx: Context,
  field: FieldShape,
  said: string | undefined,
  verb: string | undefined,
  known: readonly [string, string] | undefined,
): { value: string; rule: string } | undefined {
  if (said) return { value: said, rule: "the description states it" };
  if (known) {
    // the spellings the state shows, and those the API's enums of the field's name offer (`canceled`)
    const values = knownValues(ctx, field.path, field.values.keys());
    // the status itself, not one on the way to it (`canceled` before `cancel_requested`)
    const spelled = values
      .filter((v) => v.toLowerCase().startsWith(known[0]))
      .sort((a, b) => a.length - b.length)[0];
    return {
      value: spelled ?? inStyleOf(values, known[1]),
      rule: `the verb "${verb}"${spelled ? " and the state's spelling" : ""}`,
    };
  }
  return analogousStatus(ctx);
}

/**
 * The status the records show that a verb toolsim has no status for names by its participle
 * (`checkin` → `checked_in`, `confirm` → `confirmed`), in the state's own spelling.
 */
export function participleStatus(
  ctx: Context,
  collection: CollectionShape,
  known = false,
): string | undefined {
  const verb = ctx.facts.verb ?? ctx.facts.words[0];
  const field = statusField(collection);
  // `known`: also for a verb whose action toolsim knows otherwise (`send` makes messages)
  if (!verb || !field || (STATUS_VERBS[verb] && !known)) return undefined;
  const squeeze = (text: string) => text.toLowerCase().replace(/[^a-z]/g, "");
  const values = knownValues(ctx, field.path, field.values.keys());
  const own = values.find((v) => squeeze(v) === squeeze(participle(verb)));
  if (own || ctx.facts.verbAction !== undefined) return own;
  // a verb toolsim does not know, described by one it could (`retry_job`: "Queue a failed job
  // again") goes where the description's verb puts it
  const leading = /^\s*([a-z]+)\b/i.exec(ctx.facts.tool.description ?? "")?.[1]?.toLowerCase();
  return leading && leading !== verb
    ? values.find((v) => squeeze(v) === squeeze(participle(leading)))
    : undefined;
}

/**
 * "Mark a running job done", "marks the ticket as solved": the status a description marks its
 * record with, among the statuses the records and the API's enums show.
 */
export function markedStatus(text: string, values: readonly string[]): string | undefined {
  const marked =
    /\bmarks?\s+(?:it|them|(?:a|an|the)\s+[a-z_ ]{1,40}?)\s+(?:as\s+)?['"]?([a-z_-]{2,30})['"]?\s*(?:[.,;]|$)/i.exec(
      text,
    )?.[1];
  return marked === undefined ? undefined : values.find((v) => v.toLowerCase() === marked.toLowerCase());
}

/**
 * A verb toolsim has no status for that is itself a value one field of the records takes
 * (`trash_message` where messages sit in folders `inbox`, `sent`, `trash`; `void_invoice` where
 * invoices are `draft`, `open`, `void`): it puts the record there. Gmail's `messages.trash`,
 * Stripe's `POST /v1/invoices/{id}/void` and `…/mark_uncollectible` do so.
 */
export function valueNamedByVerb(
  ctx: Context,
  collection: CollectionShape,
): { field: string; value: string; rule: string } | undefined {
  const verb = ctx.facts.verb ?? ctx.facts.words[0];
  if (!verb || STATUS_VERBS[verb]) return undefined;
  // `mark_uncollectible`: the word after the marking verb is the value
  const words = verb === "mark" ? ctx.facts.words.filter((w) => w !== "mark" && w !== "as") : [verb];
  for (const field of collection.fields.values()) {
    if (
      field.path.includes(".") ||
      field.open ||
      !field.types.has("string") ||
      field.path === collection.keyField
    )
      continue;
    const value = knownValues(ctx, field.path, field.values.keys()).find((v) =>
      words.some((w) => v.toLowerCase() === w),
    );
    if (value) return { field: field.path, value, rule: `the verb "${verb}" names a ${field.path}` };
  }
  return undefined;
}

/** A new status word written as the state writes the ones it holds: `Cancelled` beside `Open`, `CANCELLED` beside `OPEN`. */
function inStyleOf(values: readonly string[], word: string): string {
  const words = values.filter((v) => /[a-z]/i.test(v));
  if (words.length === 0) return word;
  if (words.every((v) => v === v.toUpperCase())) return word.toUpperCase();
  if (words.every((v) => /^[A-Z][a-z]/.test(v))) return word.charAt(0).toUpperCase() + word.slice(1);
  return word;
}

/**
 * Tools of one API that differ only in their verb follow one pattern: when `return_x` says
 * its entity becomes 'return requested', `exchange_x` leaves it 'exchange requested'.
 */
function analogousStatus(ctx: Context): { value: string; rule: string } | undefined {
  const verb = ctx.facts.verb;
  // a plain update changes the fields it is given, not where a record stands
  if (!verb || PLAIN_UPDATE_VERBS.has(verb)) return undefined;
  const rest = ctx.facts.words.filter((w) => w !== verb).join("_");
  for (const sibling of ctx.siblings()) {
    if (sibling.tool.name === ctx.facts.tool.name || !sibling.verb) continue;
    if (sibling.words.filter((w) => w !== sibling.verb).join("_") !== rest) continue;
    const theirs = statedStatus(sibling.text);
    // a status that is the bare verb ('open' of open_x) says nothing of what another verb leaves
    if (!theirs || !nameWords(theirs).includes(sibling.verb) || nameWords(theirs).length < 2) continue;
    const value = nameWords(theirs)
      .map((w) => (w === sibling.verb ? verb : w))
      .join(" ");
    return { value, rule: `by analogy with ${sibling.tool.name} ('${theirs}')` };
  }
  return undefined;
}

/** Status values the tool's name or description require before it acts ("void_draft_invoice" → draft). */
export function requiredStatuses(
  ctx: Context,
  collection: CollectionShape,
): { values: string[]; notIn: string[] } {
  const field = statusField(collection);
  if (!field) return { values: [], notIn: [] };
  // the statuses the records show and those the API's enums of the field offer (`running`)
  // the statuses the records and enums show, and those the API's other tools put records in
  const statuses = knownValues(ctx, field.path, field.values.keys());
  // the verb's own word is where the record goes, not where it must be (`void_invoice`)
  const verb = ctx.facts.verb ?? ctx.facts.words[0];
  const nameText = ctx.facts.words.filter((w) => w !== verb).join(" ");
  const fromName = statuses.filter((s) => s.length > 2 && containsWords(nameText, s));
  const text = ctx.facts.text.toLowerCase();
  const noun = nameWords(singular(collection.name)).join(" ");
  // a leave request is also "a pending request": the noun's head names it too
  const nouns = `(?:${[...new Set([noun, noun.split(" ").at(-1) ?? noun])].map(escapeRegExp).join("|")})`;
  // "only booked shipments can be cancelled", said by the description or by a documented error
  const fromOnly = statuses.filter((s) =>
    [text, ...ctx.facts.errors.map((e) => e.text)].some((t) =>
      new RegExp(`only\\s+(?:an?\\s+|the\\s+)?${escapeRegExp(s)}\\s+${nouns}`).test(t),
    ),
  );
  const fromErrors = ctx.facts.errors
    .map((e) => new RegExp(`\\bnon-([a-z]+)\\s+${escapeRegExp(noun)}`).exec(e.text)?.[1])
    .filter((s): s is string => s !== undefined && statuses.includes(s));
  // an error named or worded "not <status>" (`TICKET_NOT_SOLVED`, "the order is not open") requires it
  const fromNot = statuses.filter((s) =>
    ctx.facts.errors.some((e) => {
      const said = `${nameWords(e.code).join(" ")} ${e.text}`;
      return new RegExp(`\\b(?:is\\s+)?not\\s+${escapeRegExp(s.toLowerCase())}\\b`).test(said);
    }),
  );
  // "status confirmed → checked_in", "(status open becomes resolved)": the status it leaves
  const fromArrow = statuses.filter((s) =>
    new RegExp(
      `(?<![\\w.])status\\s*:?\\s+['"\`]?${escapeRegExp(s.toLowerCase())}['"\`]?\\s*(?:→|->|=>|\\s+becomes\\b)`,
    ).test(text),
  );
  const documented = [text, ...ctx.facts.errors.map((e) => e.text)];
  const notIn = statuses.filter(
    (s) =>
      new RegExp(
        `if\\s+the\\s+${escapeRegExp(noun)}\\s+is\\s+(?:already\\s+)?(?:[a-z ]+,\\s*|[a-z ]+\\s+or\\s+)*${escapeRegExp(s)}\\b[^.]*\\bcan(?:not|'t| ?not)\\b`,
      ).test(text) ||
      // "filled orders cannot be cancelled"
      documented.some((t) =>
        new RegExp(
          `(?<![\\w-])${escapeRegExp(s.toLowerCase())}\\s+${escapeRegExp(noun)}s?\\s+(?:cannot|can't|can not|may not)\\b`,
        ).test(t),
      ),
  );
  // "Send a draft campaign", "check a guest in for a confirmed reservation": the record it acts
  // on is one in that status, as the docs of action endpoints name it (Stripe's "cancel a
  // PaymentIntent that requires capture", GitHub's "merge an open pull request")
  // (where the API documents how it refuses a record in another status, "already cancelled",
  // that error says it instead)
  const refusesItself = ctx.facts.errors.some((e) => e.kind !== "not-found" && /\balready\b/.test(e.text));
  // ("Returns the completed bout" tells what it answers after the change, not what it needs)
  const asked = text.replace(/\b(?:returns?|answers?|responds?\s+with|gives?\s+back)\b[^.]*/g, "");
  const fromArticle = refusesItself ? [] : listedBefore(asked, statuses, `\\b(?:a|an|the)\\s+`, nouns);
  // "Cancelling a fulfilled or already-cancelled order returns an error", "cannot delete a
  // running workflow": the statuses a sentence says the call refuses
  const refused = [
    ...listedBefore(
      text,
      statuses,
      `\\b(?:[a-z]+ing|cannot [a-z]+|can't [a-z]+)\\s+(?:a|an|the)\\s+`,
      `${nouns}s?\\s+(?:returns an error|fails|is an error|is rejected|is refused|errors)`,
    ),
    ...listedBefore(
      text,
      statuses,
      `\\b(?:cannot|can't|can not|may not)\\s+[a-z]+\\s+(?:a|an|the)\\s+`,
      nouns,
    ),
  ];
  const values = [
    ...new Set([...fromName, ...fromOnly, ...fromErrors, ...fromNot, ...fromArticle, ...fromArrow]),
  ].filter((s) => !notIn.includes(s) && !refused.includes(s));
  const refusedAll = [...new Set([...notIn, ...refused])];
  return { values, notIn: values.length > 0 ? [] : refusedAll };
}

/**
 * The statuses a phrase lists between what leads it and its noun: "a queued or in-progress run",
 * "the draft, open or paused campaigns", "an already-cancelled order".
 */
function listedBefore(text: string, statuses: readonly string[], lead: string, after: string): string[] {
  const known = statuses.filter((s) => s.length > 2);
  if (known.length === 0) return [];
  const one = `(?:already[\\s-])?(?:${known
    .map((s) => nameWords(s).map(escapeRegExp).join("[\\s_-]"))
    .sort((a, b) => b.length - a.length)
    .join("|")})`;
  const list = new RegExp(
    `${lead}(${one}(?:\\s*,\\s*${one})*(?:,?\\s+(?:or|and)\\s+${one})?)\\s+${after}\\b`,
    "g",
  );
  const found = new Set<string>();
  for (const match of text.matchAll(list)) {
    const said = ` ${(match[1] ?? "").replace(/[_-]/g, " ")} `;
    for (const s of known) if (said.includes(` ${words(s)} `)) found.add(s);
  }
  return [...found];
}

/** A status as prose writes it: `checked_in` → "checked in". */
function words(status: string): string {
  return nameWords(status).join(" ");
}

function containsWords(text: string, phrase: string): boolean {
  const words = nameWords(phrase).join(" ");
  return words !== "" && ` ${text} `.includes(` ${words} `);
}

/**
 * "closed_at is set to now", "sets merged_at to the current time", "opened_at is now":
 * the fields of a record the description gives the clock's time, by their own names.
 */
export function nowFields(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const text = ctx.facts.tool.description;
  const out: Record<string, string> = {};
  // most descriptions speak of no clock: the fields are not looked at one by one
  if (!/\b(now|current time)\b/i.test(text)) return out;
  for (const field of fieldsNamedIn(text, collection, set)) {
    const name = escapeRegExp(field.path);
    const said = new RegExp(
      `(?:^|[^A-Za-z_])(?:${name}\\s+(?:is set to|is|becomes|=|:)\\s*<?(?:now|the current time)>?|sets?\\s+${name}\\s+to\\s+(?:now|the current time))\\b`,
      "i",
    );
    if (said.test(text)) out[field.path] = "{$now}";
  }
  if (Object.keys(out).length > 0)
    ctx.notes.push(`sets ${Object.keys(out).join(", ")} to the time of the call`);
  return out;
}

/**
 * "locked becomes true", "priority is set to 1", "status becomes \"done\"": values a
 * description gives fields of the record by their own names.
 */
export function statedValues(
  ctx: Context,
  holder: { fields: Map<string, FieldShape> },
  set: Readonly<Record<string, unknown>>,
  text = ctx.facts.tool.description,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fieldsNamedIn(text, holder, set)) {
    const name = escapeRegExp(field.path);
    const said =
      new RegExp(
        // a field quoted in code (`mode` becomes …) as much as named in prose
        `(?:^|[^A-Za-z_.'’])${name}["\`]?\\s+(?:becomes|is set to|changes to|is reset to|is cleared to|=)\\s+${LITERAL}`,
        "i",
      ).exec(text) ??
      // "sets its state to \"closed\"", "resets count to 0"
      new RegExp(`\\b(?:re)?sets?\\s+(?:its\\s+)?${name}\\s+to\\s+${LITERAL}`, "i").exec(text);
    const value = literalValue(said?.[1]);
    if (value) out[field.path] = value.value;
  }
  return out;
}

/**
 * "The decision … becomes the application's new status", "the reviewer's name is written into
 * the application's reviewer field", "sets the artwork's location to the given location": an
 * argument a description says a field of the record takes, as PATCH docs say which body field
 * lands where (GitHub's `state_reason` of an issue, Jira's transition `resolution`, Zendesk's
 * `assignee_id`).
 */
export function statedArguments(
  ctx: Context,
  holder: { fields: Map<string, FieldShape> },
  set: Readonly<Record<string, unknown>>,
  keys: ReadonlySet<string>,
): Record<string, string> {
  const text = ctx.facts.tool.description.replace(/[`*]/g, "").toLowerCase();
  const out: Record<string, string> = {};
  for (const field of fieldsNamedIn(text, holder, set)) {
    const fieldWords = nameWords(field.path).map(escapeRegExp).join("[ _]");
    const own = String.raw`(?:the\s+|its\s+)?(?:[a-z]+(?:'s|’s)\s+)?(?:new\s+)?${fieldWords}\b`;
    const param = ctx.facts.params.find((p) => {
      if (keys.has(p.name) || p.type === "object" || p.type === "array") return false;
      const name = [escapeRegExp(p.name.toLowerCase()), p.words.map(escapeRegExp).join("[ _]")].join("|");
      return (
        new RegExp(
          String.raw`\b(?:${name})\b[^.;,]*?\b(?:becomes|is\s+(?:written|stored|saved|recorded|copied|put)\s+(?:in|into|as))\s+${own}`,
        ).test(text) ||
        new RegExp(String.raw`\bsets?\s+${own}\s+to\s+(?:the\s+)?(?:given\s+)?(?:${name})\b`).test(text) ||
        (p.name === field.path &&
          (new RegExp(
            String.raw`\bsets?\s+${own}\s+to\s+the\s+given\s+(?:string|value|text|name|one)\b`,
          ).test(text) ||
            // "status becomes completed and winner is stored": the argument kept under its own name
            new RegExp(
              String.raw`(?:^|[^a-z_.])${escapeRegExp(p.name)}\s+is\s+(?:stored|recorded|saved|kept)\b`,
            ).test(text)))
      );
    });
    if (param) out[field.path] = `{${param.name}}`;
  }
  if (Object.keys(out).length > 0)
    ctx.notes.push(
      `sets ${Object.entries(out)
        .map(([field, value]) => `${field} to ${value.slice(1, -1)}`)
        .join(", ")} as the description says`,
    );
  return out;
}

/** The record's own fields a description names by their own names, and no change sets yet. */
function fieldsNamedIn(
  text: string,
  holder: { fields: Map<string, FieldShape> },
  set: Readonly<Record<string, unknown>>,
): FieldShape[] {
  return [...holder.fields.values()].filter(
    (field) => !field.path.includes(".") && set[field.path] === undefined && text.includes(field.path),
  );
}

/** A value as a description writes it: a quoted text, a number, true, false or null. */
export const LITERAL = String.raw`("[^"]*"|true|false|null|-?\d+(?:\.\d+)?)`;

export function literalValue(said: string | undefined): { value: unknown } | undefined {
  if (said === undefined) return undefined;
  try {
    return { value: JSON.parse(said) };
  } catch {
    return undefined;
  }
}
