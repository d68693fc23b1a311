import escapeRegExp from "escape-string-regexp";
import { addError, type Context, humanNoun, notFoundError, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, Param } from "./facts.js";
import { statusField } from "./fields.js";
import { statusGuards } from "./guards.js";
import { withoutValue } from "./list-values.js";
import { identifier } from "./reads.js";
import type { CollectionShape, StateShape } from "./shape.js";
import { recordTarget } from "./targets.js";
import { nameWords, PLAIN_UPDATE_VERBS, singular, VERBS } from "./words.js";

/**
 * Two collections kept in step: each record of one names its holder among the other's
 * (`borrower`, `team`, `assignee`) and each holder lists the keys of what it holds
 * (`tools`, `members`, `issue_ids`). A change of one side is made on the other too, as
 * GitHub's issue assignees and a user's issues, a library's loans and a member's books on loan,
 * Jira's sprint of an issue and the sprint's issues, and a team's members and a user's team are
 * kept: linking checks both records and the holder's room, unlinking takes the key off the
 * holder's list, and removing either record leaves no dangling reference on the other.
 */

export interface Link {
  /** The records that each point at one holder, or none (tools, people). */
  items: CollectionShape;
  /** Their field naming the holder, or null. */
  ref: string;
  holders: CollectionShape;
  /** The holders' list of the keys of what they hold. */
  list: string;
}

/** Pairs of collections whose references run both ways: a field of one, a list of the other. */
export function linksOf(shape: StateShape): Link[] {
  const links: Link[] = [];
  for (const items of shape.collections.values())
    for (const field of items.fields.values()) {
      if (field.path.includes(".") || !field.refersTo || field.types.has("array")) continue;
      const holders = shape.collections.get(field.refersTo);
      if (!holders || holders === items || holders.parent || items.parent) continue;
      const list = [...holders.fields.values()].find(
        (f) => !f.path.includes(".") && f.types.has("array") && f.refersTo === items.name,
      );
      if (list) links.push({ items, ref: field.path, holders, list: list.path });
    }
  return links;
}

/** The argument naming a record of the collection, where one clearly does. */
function argumentFor(ctx: Context, collection: CollectionShape): Param | undefined {
  const named = ctx.references.filter((r) => r.collection === collection && !r.many);
  return named.length === 1 ? named[0]?.param : undefined;
}

/** Verbs that end a link, the record staying (`unassign`, `return`, `release`, `check_in`). */
const UNLINK_VERBS: ReadonlySet<string> = new Set([
  "unassign",
  "deassign",
  "return",
  "release",
  "detach",
  "unlink",
  "checkin",
  "giveback",
  "unpair",
  "free",
  "vacate",
  "unclaim",
]);

/** Verbs that make, remove or edit a record: no link, though an argument may name a holder. */
const KEEPS_FIELDS: ReadonlySet<string> = new Set([...PLAIN_UPDATE_VERBS, ...VERBS.create, ...VERBS.delete]);

/**
 * A tool naming a record on each side links them (`assign(person_id, team_id)`,
 * `lend(serial, worker_id)`); one naming only a held record with a verb that ends a link
 * unlinks it (`return_tool(serial)`, `unassign(person_id)`).
 */
export function keptInStepRule(ctx: Context): Draft[] | undefined {
  const verb = ctx.facts.verb ?? "";
  if (VERBS.read.includes(verb) || ctx.facts.tool.annotations?.readOnlyHint === true) return undefined;
  for (const link of linksOf(ctx.shape)) {
    const item = argumentFor(ctx, link.items);
    if (!item) continue;
    const holder = argumentFor(ctx, link.holders);
    if (holder && holder !== item && !KEEPS_FIELDS.has(verb)) return linked(ctx, link, item, holder);
    // only a reference that may be empty is ended (an order always has its customer)
    const endable = link.items.fields.get(link.ref)?.types.has("null") === true;
    if (!holder && ((endable && UNLINK_VERBS.has(verb)) || saysCleared(ctx, link)))
      return unlinked(ctx, link, item);
  }
  return undefined;
}

/** "sets borrower to null", "its team becomes null": the description clears the reference. */
function saysCleared(ctx: Context, link: Link): boolean {
  const ref = nameWords(link.ref).join("[ _]");
  return new RegExp(
    `\\b(?:sets?|setting)\\s+(?:its\\s+|the\\s+[a-z]+'s\\s+)?${ref}\\s+(?:to\\s+)?null\\b|\\b${ref}\\s+(?:becomes|is set to|goes back to)\\s+null\\b`,
    "i",
  ).test(ctx.facts.tool.description);
}

const BEFORE = "kept_item";
const HOLDER = "kept_holder";

const without = (list: string, key: string) => withoutValue(`$subject.${identifier(list)}`, key);

/**
 * The documented errors that speak of the held record's holder: already this very holder
 * (`same`), held by anyone at all (`any`, "even the same one"), or held by no one (`unheld`).
 */
function heldErrors(ctx: Context, link: Link): { same?: ErrorFact; any?: ErrorFact; unheld?: ErrorFact } {
  const holderNoun = nameWords(singular(link.holders.name)).join(" ");
  const ref = nameWords(link.ref).join("[ _]");
  const states = ctx.facts.errors.filter((e) => e.kind !== "not-found");
  const same = states.find(
    (e) =>
      /\balready\b/.test(e.text) &&
      !/\beven\b/.test(e.text) &&
      new RegExp(
        `\\b(?:(?:this|that)\\s+(?:very\\s+|same\\s+)*|the\\s+same\\s+)${holderNoun}\\b|\\balready\\s+(?:the|its)\\s+(?:${ref}|${holderNoun})\\b`,
      ).test(e.text),
  );
  const unheld = states.find(
    (e) =>
      new RegExp(
        `\\b${ref}\\s+is\\s+(?:null|empty|none)\\b|\\bnot\\s+(?:assigned|checked out|on loan|held|borrowed|linked|paired|lent)\\b|\\bno\\s+(?:${ref}|${holderNoun}|holder|owner|assignee)\\b|\\bto begin with\\b`,
      ).test(e.text) || /^NOT_(?:ASSIGNED|CHECKED_OUT|ON_LOAN|HELD|BORROWED|LINKED|LENT)$/.test(e.code),
  );
  const any = states.find(
    (e) =>
      e !== same &&
      e !== unheld &&
      (/\b(?:unavailable|not available)\b/.test(e.text) ||
        new RegExp(
          `\\b${ref}\\s+is\\s+not\\s+(?:null|empty|none)\\b|\\balready\\s+(?:has|have)\\s+(?:a|an)\\s+(?:${ref}|${holderNoun})\\b|\\balready\\s+(?:assigned|checked out|taken|held|borrowed|lent|on loan|in use|claimed)\\b`,
        ).test(e.text)),
  );
  return { ...(same ? { same } : {}), ...(any ? { any } : {}), ...(unheld ? { unheld } : {}) };
}

/** Whether the description lets a held record move to another holder ("reassigns", "taken out of … first"). */
function movesBetweenHolders(ctx: Context): boolean {
  return /\b(?:reassign|re-assign|moves? it|taken out of|removed from (?:the )?(?:old|previous|former))|\bfirst\b[^.]*\bthen\b|\bif [^.]*already had (?:a|another|a different)\b/i.test(
    ctx.facts.tool.description,
  );
}

/**
 * The most a holder may hold: its own bound (`max_members`, `capacity`), else a number at the top
 * of the state named for what is held (`max_loans_per_member`, `loan_limit`).
 */
function holderBound(ctx: Context, link: Link): string | undefined {
  const bounding = (words: readonly string[]) =>
    words.some((w) => /^(max|maximum|limit|capacity|cap)$/.test(w));
  const held = new Set([...nameWords(link.list), ...nameWords(link.items.name)].map(singular));
  const own = [...link.holders.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      (f.types.has("number") || f.types.has("integer")) &&
      bounding(nameWords(f.path)) &&
      (nameWords(f.path).length === 1 || nameWords(f.path).some((w) => held.has(singular(w)))),
  );
  if (own.length === 1 && own[0]) return `$subject.${identifier(own[0].path)}`;
  const top = [...ctx.shape.root.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      (f.types.has("number") || f.types.has("integer")) &&
      bounding(nameWords(f.path)) &&
      nameWords(f.path).some((w) => held.has(singular(w))),
  );
  return top.length === 1 && top[0] ? `$entity(${JSON.stringify(top[0].path)})` : undefined;
}

function fullError(ctx: Context, link: Link): string {
  const documented = ctx.facts.errors.find(
    (e) =>
      e.kind !== "not-found" &&
      (/\b(full|capacity|limit|no open slot|no room|too many|at most)\b/.test(e.text) ||
        /FULL|LIMIT|CAPACITY/.test(e.code)),
  );
  if (documented) return use(ctx, documented);
  const noun = humanNoun(link.holders.name);
  return addError(ctx, {
    code: `${nameWords(singular(link.holders.name)).join("_").toUpperCase()}_FULL`,
    status: 409,
    message: `The ${noun} holds as many as it may.`,
    when: `The ${noun}'s ${link.list} is at its limit (inferred from the state).`,
  });
}

/** The new holder's update: it must exist and have room, and gains the key once. */
function holderGains(ctx: Context, link: Link, holderKey: string, itemKey: string): Draft | undefined {
  const target = recordTarget(ctx, link.holders, holderKey);
  if (!target) return undefined;
  const param = /^\{([^}$]+)\}$/.exec(holderKey)?.[1];
  const missing = param ? notFoundError(ctx, link.holders, param, { add: true }) : undefined;
  const bound = holderBound(ctx, link);
  const list = `$subject.${identifier(link.list)}`;
  if (bound) ctx.notes.push(`refuses a ${humanNoun(link.holders.name)} whose ${link.list} is full`);
  return {
    kind: "update",
    target,
    ...(missing ? { missing } : {}),
    require: bound
      ? [{ expr: `${itemKey} in ${list} or $count(${list}) < ${bound}`, error: fullError(ctx, link) }]
      : [],
    set: {
      [link.list]: {
        $expr: `${itemKey} in ${list} ? ${list} : $append(${list} ? ${list} : [], [${itemKey}])`,
      },
    },
    as: HOLDER,
  };
}

/** The old holder's update: the key leaves its list (skipped when there was none). */
function holderLoses(
  ctx: Context,
  link: Link,
  before: string,
  itemKey: string,
  when?: string,
): Draft | undefined {
  const target = recordTarget(ctx, link.holders, `{$${before}.${link.ref}}`);
  if (!target) return undefined;
  return {
    kind: "update",
    target,
    ...(when ? { when } : {}),
    set: { [link.list]: { $expr: without(link.list, itemKey) } },
  };
}

/** Arguments that are fields of the held record besides the link (`condition` given on return). */
function fieldArguments(ctx: Context, link: Link, taken: readonly Param[]): Record<string, string> {
  const set: Record<string, string> = {};
  for (const param of ctx.facts.params) {
    if (taken.includes(param)) continue;
    const field = link.items.fields.get(param.name);
    if (field && field.path !== link.ref && field.path !== link.items.keyField)
      set[field.path] = `{${param.name}}`;
  }
  return set;
}

/**
 * "WORN_OUT if its wear is "worn_out"": a documented error naming a value of one of
 * the record's enumerated fields refuses the record while it has that value.
 */
function valueRefusals(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    for (const field of collection.fields.values()) {
      if (field.path.includes(".") || field.open || field.path === statusField(collection)?.path) continue;
      const words = nameWords(field.path).join("[ _]");
      const named = [...field.values.keys()].filter((value) =>
        new RegExp(`\\b${words}\\s+is\\s+["'\`]?${escapeRegExp(value)}["'\`]?(?![a-z_])`).test(error.text),
      );
      if (named.length === 0) continue;
      ctx.notes.push(
        `refuses a ${humanNoun(collection.name)} whose ${field.path} is ${named.join(" or ")} (${error.code})`,
      );
      guards.push({ field: field.path, notIn: named, error: use(ctx, error) });
    }
  }
  return guards;
}

function linked(ctx: Context, link: Link, item: Param, holder: Param): Draft[] | undefined {
  const itemTarget = recordTarget(ctx, link.items, `{${item.name}}`);
  const holderTarget = recordTarget(ctx, link.holders, `{${holder.name}}`);
  if (!itemTarget || !holderTarget) return undefined;
  const itemMissing = notFoundError(ctx, link.items, item.name, { add: true });
  const holderMissing = notFoundError(ctx, link.holders, holder.name, { add: true });
  const ref = `$${BEFORE}.${identifier(link.ref)}`;
  const { same, any, unheld } = heldErrors(ctx, link);
  const moves = movesBetweenHolders(ctx);
  const require = [
    ...(unheld ? [{ expr: `$exists(${ref}) and ${ref} != null`, error: use(ctx, unheld) }] : []),
    ...(same ? [{ expr: `${ref} != ${holder.name}`, error: use(ctx, same) }] : []),
    ...(any ? [{ expr: `$not($exists(${ref})) or ${ref} = null`, error: use(ctx, any) }] : []),
  ];
  const gains = holderGains(ctx, link, `{${holder.name}}`, item.name);
  const loses =
    moves || !any ? holderLoses(ctx, link, BEFORE, item.name, `${ref} != ${holder.name}`) : undefined;
  if (!gains) return undefined;
  ctx.notes.push(
    `links the ${humanNoun(link.items.name)} ${item.name} names to the ${humanNoun(link.holders.name)} ${holder.name} names: its ${link.ref} and the ${link.list} of both holders kept in step`,
  );
  const after = "kept_after";
  return [
    { kind: "read", target: itemTarget, as: BEFORE, ...(itemMissing ? { missing: itemMissing } : {}) },
    { kind: "read", target: holderTarget, ...(holderMissing ? { missing: holderMissing } : {}) },
    ...(require.length > 0 ? [{ kind: "check", require }] : []),
    {
      kind: "update",
      target: itemTarget,
      require: [...statusGuards(ctx, link.items), ...valueRefusals(ctx, link.items)],
      set: { ...fieldArguments(ctx, link, [item, holder]), [link.ref]: `{${holder.name}}` },
      as: after,
    },
    gains,
    ...(loses ? [loses] : []),
    ...answers(ctx, link, { item, holder, after }),
  ];
}

function unlinked(ctx: Context, link: Link, item: Param): Draft[] | undefined {
  const itemTarget = recordTarget(ctx, link.items, `{${item.name}}`);
  if (!itemTarget) return undefined;
  const missing = notFoundError(ctx, link.items, item.name, { add: true });
  const ref = `$${BEFORE}.${identifier(link.ref)}`;
  const { unheld } = heldErrors(ctx, link);
  const loses = holderLoses(ctx, link, BEFORE, item.name);
  if (!loses) return undefined;
  ctx.notes.push(
    `unlinks the ${humanNoun(link.items.name)} ${item.name} names: its ${link.ref} is cleared and its key leaves its holder's ${link.list}`,
  );
  const after = "kept_after";
  return [
    { kind: "read", target: itemTarget, as: BEFORE, ...(missing ? { missing } : {}) },
    ...(unheld
      ? [
          {
            kind: "check",
            require: [{ expr: `$exists(${ref}) and ${ref} != null`, error: use(ctx, unheld) }],
          },
        ]
      : []),
    {
      kind: "update",
      target: itemTarget,
      set: { ...fieldArguments(ctx, link, [item]), [link.ref]: null },
      as: after,
    },
    loses,
    ...answers(ctx, link, { item, after }),
  ];
}

/** What a link or an unlink answers: the keys, the holder before, the holder's list after. */
function answers(ctx: Context, link: Link, given: { item: Param; holder?: Param; after: string }): Draft[] {
  const refWords = nameWords(link.ref);
  const listWords = nameWords(link.list);
  const out: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    const respond = (expr: string) =>
      out.push({ kind: "respond", output: output.name, value: { $expr: expr } });
    const words = output.words;
    const counts = output.type === "integer" || output.type === "number";
    if (output.name === given.item.name || output.name === given.holder?.name) respond(output.name);
    else if (counts && given.holder && words.some((w) => /^(count|number|total|held)$/.test(w)))
      respond(`$count($${HOLDER}.${identifier(link.list)})`);
    else if (output.name === "to" && given.holder) respond(given.holder.name);
    else if (
      (output.name === "from" ||
        words.some((w) => /^(previous|former|old|prior|returned|released)$/.test(w))) &&
      output.type !== "array"
    )
      respond(`$${BEFORE}.${identifier(link.ref)}`);
    else if (output.type === "array" && given.holder && listWords.every((w) => words.includes(w)))
      respond(`$${HOLDER}.${identifier(link.list)}`);
    else if (
      output.name === link.ref ||
      (refWords.every((w) => words.includes(w)) && output.type !== "array")
    )
      respond(`$${given.after}.${identifier(link.ref)}`);
    else if (link.items.fields.has(output.name) && output.type !== "array")
      respond(`$${given.after}.${identifier(output.name)}`);
    else if (output.name === link.items.keyField) respond(given.item.name);
  }
  return out;
}

/**
 * What other rules change on one side, made on the other: a held record created with a holder
 * joins its list, one removed leaves it, and a holder removed releases what it held (or is
 * refused while it holds any, where the docs say so).
 */
export function inStep(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const links = linksOf(ctx.shape);
  if (links.length === 0) return [...drafts];
  let out = [...drafts];
  for (const link of links) {
    if (out.some((d) => typeof d.target === "string" && d.as === HOLDER)) return out;
    out =
      removedHolder(ctx, link, out) ??
      removedItem(ctx, link, out) ??
      createdWithHolder(ctx, link, out) ??
      out;
  }
  return out;
}

function collectionOf(ctx: Context, target: unknown): CollectionShape | undefined {
  if (typeof target !== "string") return undefined;
  return ctx.shape.collections.get(target.split("/")[0] ?? "");
}

function keyParam(target: string): string | undefined {
  return /\{([A-Za-z_][A-Za-z0-9_]*)\}\]?$/.exec(target)?.[1];
}

function removedHolder(ctx: Context, link: Link, drafts: Draft[]): Draft[] | undefined {
  const at = drafts.findIndex((d) => d.kind === "delete" && collectionOf(ctx, d.target) === link.holders);
  const gone = drafts[at];
  if (!gone || typeof gone.target !== "string") return undefined;
  const itemTarget = recordTarget(ctx, link.items, "{$item}");
  if (!itemTarget) return undefined;
  const bound = typeof gone.as === "string" ? gone.as : "kept_removed";
  const list = `$subject.${identifier(link.list)}`;
  const force = ctx.facts.params.find(
    (p) => p.type === "boolean" && /^(force|cascade|recursive)$/.test(p.name),
  );
  const holds = ctx.facts.errors.find(
    (e) =>
      e.kind !== "not-found" &&
      (/\b(?:still\s+)?(?:holds?|has|have|owns?)\b[^.]*\b(?:at least one|any|still)\b|\bnot empty\b/.test(
        e.text,
      ) ||
        /^(?:HAS|HOLDS|STILL)_/.test(e.code)),
  );
  const guard = holds
    ? [
        {
          expr: `$count(${list}) = 0${force ? ` or $args.${identifier(force.name)} = true` : ""}`,
          error: use(ctx, holds),
        },
      ]
    : [];
  ctx.notes.push(
    `releases what the ${humanNoun(link.holders.name)} held: each ${link.ref} it named is cleared${holds ? ` (refused while it holds any${force ? ` unless ${force.name}` : ""}: ${holds.code})` : ""}`,
  );
  const removal: Draft = {
    ...gone,
    require: [...(Array.isArray(gone.require) ? gone.require : []), ...guard],
    as: bound,
  };
  const released: Draft = {
    kind: "update",
    each: `$${bound}.${identifier(link.list)}`,
    target: itemTarget,
    set: { [link.ref]: null },
  };
  const answered = ctx.facts.outputs
    .filter(
      (o) =>
        o.type === "array" &&
        o.words.some((w) => /^(released|returned|freed|unassigned|orphaned|detached)$/.test(w)),
    )
    .map((o) => ({
      kind: "respond",
      output: o.name,
      value: { $expr: `$append([], $${bound}.${identifier(link.list)})` },
    }));
  const rest = drafts.filter(
    (d, i) => i !== at && !(d.kind === "respond" && answered.some((a) => a.output === d.output)),
  );
  return [...rest.slice(0, at), removal, released, ...rest.slice(at), ...answered];
}

function removedItem(ctx: Context, link: Link, drafts: Draft[]): Draft[] | undefined {
  const at = drafts.findIndex((d) => d.kind === "delete" && collectionOf(ctx, d.target) === link.items);
  const gone = drafts[at];
  if (!gone || typeof gone.target !== "string") return undefined;
  const key = keyParam(gone.target);
  if (!key) return undefined;
  const bound = typeof gone.as === "string" ? gone.as : "kept_removed";
  const loses = holderLoses(ctx, link, bound, key);
  if (!loses) return undefined;
  ctx.notes.push(`takes the removed ${humanNoun(link.items.name)} off its holder's ${link.list}`);
  return [...drafts.slice(0, at), { ...gone, as: bound }, loses, ...drafts.slice(at + 1)];
}

function createdWithHolder(ctx: Context, link: Link, drafts: Draft[]): Draft[] | undefined {
  const at = drafts.findIndex((d) => d.kind === "create" && collectionOf(ctx, d.target) === link.items);
  const made = drafts[at];
  const set = made?.set as Record<string, unknown> | undefined;
  const given =
    typeof set?.[link.ref] === "string"
      ? /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(set[link.ref] as string)?.[1]
      : undefined;
  if (!made || typeof made.target !== "string" || !given) return undefined;
  const appended = (d: Draft) =>
    d.kind === "update" &&
    collectionOf(ctx, d.target) === link.holders &&
    typeof d.append === "object" &&
    d.append !== null &&
    link.list in d.append;
  // another rule's append of the new key already keeps the two in step, where no bound is checked
  if (!holderBound(ctx, link) && drafts.some(appended)) return undefined;
  const key = keyParam(made.target) ?? "$id";
  const gains = holderGains(ctx, link, `{${given}}`, key);
  if (!gains) return undefined;
  ctx.notes.push(
    `puts the new ${humanNoun(link.items.name)} on the ${link.list} of the ${humanNoun(link.holders.name)} ${given} names`,
  );
  const { as: _bound, ...holderUpdate } = gains;
  // an append of the new key that another rule made is this one, without its checks
  const rest = drafts.slice(at + 1).filter((d) => !appended(d));
  return [...drafts.slice(0, at + 1), holderUpdate, ...rest];
}
