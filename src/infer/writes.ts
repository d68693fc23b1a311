import escapeRegExp from "escape-string-regexp";
import { knownValues } from "./conditions.js";
import { addError, addGap, type Context, humanNoun, notFoundError, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, Param } from "./facts.js";
import {
  fieldFor,
  recordFieldFor,
  requiredStatuses,
  statedStatus,
  statusAfter,
  statusField,
} from "./fields.js";
import {
  chargeAccount,
  chargeFor,
  kindFields,
  PRICE_WORDS,
  refundDestination,
  sharedFields,
  spendingLimit,
} from "./payments.js";
import {
  holderMaker,
  leadingItems,
  type Maker,
  ownerField,
  ownGuard,
  principalOf,
  signedInMaker,
  signedInRead,
} from "./principal.js";
import { overlapCheck } from "./ranges.js";
import { bindingName, identifier, keyEcho, keyFieldFor, wrapperOutput } from "./reads.js";
import type { Reference } from "./resolve.js";
import {
  COUNTS,
  type CollectionShape,
  type FieldShape,
  mapsByName,
  outline,
  type RecordShape,
  type StateShape,
} from "./shape.js";
import { type Bound, containerTarget, recordTarget, referenceTarget } from "./targets.js";
import { recordsAt, transitionsOf } from "./transitions.js";
import {
  type Action,
  flagName,
  JOIN_VERBS,
  LEAVE_VERBS,
  nameWords,
  participle,
  partNoun,
  plural,
  sameNoun,
  singular,
} from "./words.js";

/** Updates, deletes and creates of records in collections, with the guards and checks their texts state. */

export function updateRule(ctx: Context, subject: Reference): Draft[] {
  const target = referenceTarget(ctx, subject);
  if (!target) return [];
  const collection = subject.collection;
  const binding = bindingName(collection);
  const bound = { collection, binding };
  const set = mergedObjects(ctx, collection, argumentFields(ctx, subject));
  const status = statusAfter(ctx, collection);
  if (status && set[status.field] === undefined) {
    const flag = collection.fields.get(status.field)?.types.has("boolean");
    set[status.field] = flag ? status.value === "true" : status.value;
    ctx.notes.push(`sets ${status.field} to '${status.value}' (${status.rule})`);
    // a status no record keeps is toolsim's choice: the real API may as well remove the record
    if (status.invented)
      addGap(
        ctx,
        `its ${plural(partNoun(collection.name)).replace(/_/g, " ")} keep no status: whether "${ctx.facts.verb}" keeps the record, marked '${status.value}', or removes it is not inferred`,
      );
  }
  const missing = notFoundError(ctx, collection, subject.param.name, { add: true });
  const own = ownGuard(ctx, collection);
  const vacant = vacantGuards(ctx, collection, set);
  const require = [
    ...vacant,
    ...statusGuards(ctx, collection, status?.value),
    ...(own ? [own.guard] : []),
    ...refundDestination(ctx, collection),
  ];
  if (status)
    for (const [field, value] of Object.entries(learnedChanges(ctx, collection, status.field, status.value)))
      set[field] ??= value;
  Object.assign(set, emptiedFields(ctx, collection, set));
  const relinked = relinkedFields(ctx, collection, set);
  const checks = [...referenceChecks(ctx, subject, [bound]), ...takenFromHolder(ctx, collection, binding)];
  const placed = wrapperOutput(ctx, collection);
  const inc = statedCounts(ctx, collection);
  return [
    ...(own ? [signedInRead(own.principal)] : []),
    ...relinked,
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      require,
      set,
      ...(Object.keys(inc).length > 0 ? { inc } : {}),
      as: binding,
      output: placed ?? "",
    },
    ...checks,
    ...(placed ? [] : keyEcho(ctx, subject)),
  ];
}

const STEP_WORDS: Readonly<Record<string, number>> = { one: 1, "1": 1, two: 2, "2": 2 };

/**
 * Numbers the description says a call moves ("its reboot count goes up by one", "the retry
 * count is incremented"), by their field's words: Kubernetes' `restartCount` of a restarted
 * container, Stripe's `attempt_count` of an invoice paid again, GitHub's `run_attempt` of a
 * workflow run re-run.
 */
export function statedCounts(ctx: Context, collection: CollectionShape): Record<string, number> {
  const text = ctx.facts.text.toLowerCase();
  const moved: Record<string, number> = {};
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !(field.types.has("integer") || field.types.has("number"))) continue;
    const words = nameWords(field.path).map(escapeRegExp).join("[ _]");
    const said = new RegExp(
      `\\b${words}\\s+(?:goes|go|is|are)?\\s*(up|down|increases|decreases|incremented|decremented|rises|drops|falls)(?:\\s+by\\s+(one|two|1|2))?\\b`,
    ).exec(text);
    if (!said) continue;
    const step = STEP_WORDS[said[2] ?? "one"] ?? 1;
    const down = /^(down|decreases|decremented|drops|falls)$/.test(said[1] ?? "");
    moved[field.path] = down ? -step : step;
    ctx.notes.push(`moves ${field.path} by ${moved[field.path]} (the description says so)`);
  }
  return moved;
}

/**
 * "Leave a shift without an employee", "a card without a due date": the field the description
 * says the record is left without is emptied (null), as unassigning empties GitHub's
 * `assignee`, Jira's `assignee: null` and a rota's worker of a shift.
 */
export function emptiedFields(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const said = /\bwithout (?:a|an|the|any|its) ([a-z ]{2,40}?)(?:[.,;]|$)/.exec(ctx.facts.text.toLowerCase());
  const words = said?.[1]?.split(" ").map(singular).join(" ");
  const field = words
    ? [...collection.fields.values()].find(
        (f) =>
          !f.path.includes(".") && f.types.has("null") && nameWords(f.path).map(singular).join(" ") === words,
      )
    : undefined;
  if (!field || set[field.path] !== undefined) return {};
  ctx.notes.push(`empties ${field.path} (the description leaves the record without it)`);
  return { [field.path]: { $expr: "null" } };
}

/**
 * "Assign an employee to a shift that nobody works yet", "an unassigned ticket": the fields the
 * call sets must still be empty, as GitHub refuses a second reviewer request where one is
 * pending and a rota refuses a worked shift: the documented error, else an added
 * `<NOUN>_ALREADY_<VERB>ED`, 409.
 */
function vacantGuards(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Array<Record<string, unknown>> {
  if (
    !/\b(?:nobody|no one|none)\b[^.]*\byet\b|\bunassigned\b|\bnot yet (?:assigned|taken|claimed)\b/i.test(
      ctx.facts.text,
    )
  )
    return [];
  const given = Object.keys(set).filter(
    (f) =>
      typeof set[f] === "string" &&
      /^\{[^{}$]+\}$/.test(String(set[f])) &&
      collection.fields.get(f)?.types.has("null"),
  );
  if (given.length === 0) return [];
  const noun = nameWords(singular(collection.name)).join("_");
  const verb = ctx.facts.verb ?? ctx.facts.words[0] ?? "";
  const documented = ctx.facts.errors.find((e) => e.kind !== "not-found" && /\balready\b/.test(e.text));
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${noun.toUpperCase()}_ALREADY_${participle(verb).toUpperCase()}`,
        status: 409,
        message: `The ${noun.replace(/_/g, " ")} is already ${participle(verb)}.`,
        when: `The ${noun.replace(/_/g, " ")}'s ${given.join(", ")} is already set (inferred from the tool's description).`,
      });
  ctx.notes.push(`requires ${given.join(", ")} still empty (${error})`);
  return given.map((f) => ({
    expr: `$not($exists($subject.${identifier(f)})) or $subject.${identifier(f)} = null`,
    error,
  }));
}

/**
 * A record moved to another record by its link (`change_plan(subscription_id, plan_id)`) takes
 * the fields it shares with that record which the description speaks of ("billed that plan's
 * price"), as a create made from it does: Stripe's subscription item takes the new price's
 * amount, a moved booking the new room's rate, a reassigned ticket the new queue's SLA.
 */
function relinkedFields(ctx: Context, collection: CollectionShape, set: Record<string, unknown>): Draft[] {
  const text = ctx.facts.text.toLowerCase();
  return ctx.references.flatMap((reference, i): Draft[] => {
    if (reference.many || reference.collection === collection || reference.collection.parent) return [];
    const link = Object.keys(set).find((f) => set[f] === `{${reference.param.name}}`);
    if (!link) return [];
    const shared = sharedFields(ctx, collection, link, reference.collection).filter(
      (f) => set[f] === undefined && text.includes(nameWords(f).join(" ")),
    );
    const target =
      shared.length > 0 ? recordTarget(ctx, reference.collection, `{${reference.param.name}}`) : undefined;
    if (!target) return [];
    const binding = `moved_to_${i}`;
    for (const field of shared) set[field] = `{$${binding}.${field}}`;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    ctx.notes.push(
      `takes ${shared.join(", ")} from the ${singular(reference.collection.name)} ${reference.param.name} names`,
    );
    return [{ kind: "read", target, as: binding, ...(missing ? { missing } : {}) }];
  });
}

/**
 * An object argument given to an update of an object field changes the keys it names and
 * keeps the others (JSON Merge Patch, RFC 7396: GitHub's and Kubernetes' PATCH, Stripe's
 * `metadata`); a tool named to replace or set it replaces it whole.
 */
function mergedObjects(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  if (ctx.facts.verb === "replace" || ctx.facts.verb === "set") return set;
  const merged = { ...set };
  for (const param of ctx.facts.params) {
    if (param.type !== "object") continue;
    const field = Object.keys(set).find((f) => set[f] === `{${param.name}}`);
    if (!field || !collection.fields.get(field)?.types.has("object")) continue;
    merged[field] = { $expr: `$merge([$subject.${identifier(field)}, $args.${identifier(param.name)}])` };
    ctx.notes.push(`merges ${param.name} into ${field}, keeping the keys it leaves out`);
  }
  return merged;
}

/** The fields the arguments set: the record's own, else the action's record of them. */
function argumentFields(ctx: Context, subject: Reference): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  const unmapped: string[] = [];
  for (const param of ctx.facts.params) {
    if (param.name === subject.param.name) continue;
    // the argument naming the record the subject is kept in (`room` of a room's devices) says where
    if (ctx.references.some((r) => r.param === param && r.collection.name === subject.collection.parent))
      continue;
    const field = fieldFor(param, subject.collection) ?? recordFieldFor(ctx, param);
    // the key a record is addressed by is not rewritten by an update (a REST id never is);
    // an argument of that name names another record (`move_crate_to_bin(id, idBin)`)
    if (field && field === subject.collection.keyField) continue;
    if (field) set[field] = `{${param.name}}`;
    else if (!ctx.references.some((r) => r.param === param)) unmapped.push(param.name);
  }
  const mapped = Object.entries(set);
  if (mapped.length > 0)
    ctx.notes.push(
      `sets ${mapped.map(([field, value]) => `${field} from ${String(value).slice(1, -1)}`).join(", ")}`,
    );
  if (unmapped.length > 0)
    ctx.notes.push(`argument(s) ${unmapped.join(", ")} set no field of ${subject.collection.name}`);
  return set;
}

/** The changes the state shows this status change brings (see transitions.ts), as values to set. */
function learnedChanges(
  ctx: Context,
  collection: CollectionShape,
  statusPath: string,
  status: string,
): Record<string, unknown> {
  const { values } = requiredStatuses(ctx, collection);
  const set: Record<string, unknown> = {};
  for (const change of transitionsOf(ctx.states, collection.path, statusPath, values, status)) {
    if (change.kind === "timestamp") {
      set[change.field] = "{$now}";
      ctx.notes.push(
        `sets ${change.field} to the time of the change (as the ${humanNoun(collection.name)}s already '${status}' show)`,
      );
    } else {
      set[change.field] = change.value;
      ctx.notes.push(
        `sets ${change.field} to ${JSON.stringify(change.value)} (as the ${humanNoun(collection.name)}s already '${status}' show)`,
      );
    }
  }
  return set;
}

export function deleteRule(ctx: Context, subject: Reference): Draft[] {
  const target = referenceTarget(ctx, subject);
  if (!target) return [];
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  ctx.notes.push(`deletes the ${humanNoun(subject.collection.name)} ${subject.param.name} names`);
  const own = ownGuard(ctx, subject.collection);
  return [
    ...(own ? [signedInRead(own.principal)] : []),
    {
      kind: "delete",
      target,
      ...(missing ? { missing } : {}),
      require: [...statusGuards(ctx, subject.collection), ...(own ? [own.guard] : [])],
      as: bindingName(subject.collection),
      output: wrapperOutput(ctx, subject.collection) ?? "",
    },
    ...referenceChecks(ctx, subject, []),
    ...stockReturned(ctx, subject.collection),
  ];
}

/**
 * A record that took one of what another keeps count of (an enrollment a course's
 * `seats_left`, a loan a book's `copies_available`) gives it back when it is removed: Shopify
 * restocks a cancelled order's items, Amadeus frees a cancelled booking's seats, and a
 * dropped course frees its seat.
 */
function stockReturned(ctx: Context, collection: CollectionShape): Draft[] {
  const binding = bindingName(collection);
  const drafts: Draft[] = [];
  for (const link of collection.fields.values()) {
    const held =
      link.refersTo && !link.path.includes(".") ? ctx.shape.collections.get(link.refersTo) : undefined;
    if (!held || held === collection || held.parent) continue;
    const stock = stockFieldOf(held);
    const target = stock ? recordTarget(ctx, held, `{$${binding}.${identifier(link.path)}}`) : undefined;
    if (!stock || !target) continue;
    ctx.notes.push(
      `gives one back to ${held.name}.${stock} of the ${humanNoun(singular(held.name))} its ${link.path} names`,
    );
    drafts.push({ kind: "update", target, inc: { [stock]: 1 } });
  }
  return drafts;
}

/**
 * A record that holds one of what another counts (a loan of a book whose `copies_available`
 * count the copies on the shelf), and keeps no status of its own: returning it ends it.
 */
export function holdsStock(ctx: Context, collection: CollectionShape): boolean {
  if (statusField(collection)) return false;
  return [...collection.fields.values()].some((link) => {
    const held =
      link.refersTo && !link.path.includes(".") ? ctx.shape.collections.get(link.refersTo) : undefined;
    return held !== undefined && held !== collection && stockFieldOf(held) !== undefined;
  });
}

/** The one number of a record that says how many of it are left (`seats_left`, `copies_available`). */
function stockFieldOf(collection: CollectionShape): string | undefined {
  const stock = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.size === 1 &&
      (f.types.has("number") || f.types.has("integer")) &&
      nameWords(f.path).some((w) => STOCK.test(w)),
  );
  return stock.length === 1 ? stock[0]?.path : undefined;
}

/**
 * A write names other records too (the payment method to use, the items to return): each
 * must exist, answered by the tool's documented not-found error for it. Items named inside
 * the subject (`item_ids` of an order's `items`) must be among them.
 */
export function referenceChecks(
  ctx: Context,
  subject: Reference | undefined,
  bound: readonly Bound[],
): Draft[] {
  const checks: Draft[] = [];
  for (const reference of ctx.references) {
    if (reference === subject) continue;
    const inside = subject && reference.many ? elementsOf(subject.collection, reference) : undefined;
    if (inside && subject) {
      const error = notFoundError(ctx, reference.collection, reference.param.name, { add: false });
      if (!error) continue;
      const binding = bound[0]?.binding ?? bindingName(subject.collection);
      checks.push({
        kind: "check",
        require: [
          {
            expr: `$count($args.${identifier(reference.param.name)}[$not($ in $${binding}.${identifier(inside.array)}.${identifier(inside.key)})]) = 0`,
            error,
          },
        ],
      });
      ctx.notes.push(`checks every ${reference.param.name} is among the ${inside.array} (${error})`);
      continue;
    }
    if (reference.many) continue;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: false });
    if (!missing) continue;
    const target = referenceTarget(ctx, reference, bound);
    if (!target) continue;
    const named = bindingName(reference.collection);
    const as = bound.some((b) => b.binding === named) ? `${named}_given` : named;
    checks.push({ kind: "read", target, missing, as });
    ctx.notes.push(`checks ${reference.param.name} exists (${missing})`);
  }
  return checks;
}

/** The array of the subject whose elements carry the keys an array argument lists (`items` for `item_ids`). */
function elementsOf(
  subject: CollectionShape,
  reference: Reference,
): { array: string; key: string } | undefined {
  const key = nameWords(reference.param.name)
    .map((w, i, all) => (i === all.length - 1 ? singular(w) : w))
    .join("_");
  const array = [...subject.fields.values()].find((f) => !f.path.includes(".") && f.itemFields?.has(key));
  return array ? { array: array.path, key } : undefined;
}

/** Guards on the subject's status and flags the tool's name, description or errors state plainly. */
export function statusGuards(
  ctx: Context,
  collection: CollectionShape,
  after?: string,
): Array<Record<string, unknown>> {
  return [...statusFieldGuards(ctx, collection, after), ...flagGuards(ctx, collection)];
}

/**
 * "Protected branches cannot be deleted", "locked files can't be edited": a record whose flag
 * of that name is set is refused, with the documented error that speaks of the flag, else an
 * added `<NOUN>_<FLAG>`, 409. GitHub refuses deleting a protected branch, Google Drive editing
 * a locked file, and AWS EC2 terminating an instance with termination protection.
 */
function flagGuards(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const noun = nameWords(singular(collection.name)).join(" ");
  const documented = [ctx.facts.text, ...ctx.facts.errors.map((e) => e.text)].map((t) => t.toLowerCase());
  return [...collection.fields.values()].flatMap((field) => {
    if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) return [];
    const words = nameWords(field.path).filter((w) => w !== "is");
    const flag = words.map(escapeRegExp).join("[ _]");
    const refused = new RegExp(
      `\\b${flag}\\s+(?:${escapeRegExp(noun)}|${escapeRegExp(plural(noun))})\\s+(?:cannot|can't|can not|may not|must not)\\b`,
    );
    if (!documented.some((t) => refused.test(t))) return [];
    const said = ctx.facts.errors.find((e) => e.kind !== "not-found" && e.text.includes(words.join(" ")));
    const error = said
      ? use(ctx, said)
      : addError(ctx, {
          code: `${nameWords(noun).join("_").toUpperCase()}_${words.join("_").toUpperCase()}`,
          status: 409,
          message: `The ${noun} is ${words.join(" ")}.`,
          when: `The ${noun} is ${words.join(" ")} (inferred from the tool's description).`,
        });
    ctx.notes.push(`refuses a ${words.join(" ")} ${noun} (${error})`);
    return [{ field: field.path, notIn: [true], error }];
  });
}

function statusFieldGuards(
  ctx: Context,
  collection: CollectionShape,
  after?: string,
): Array<Record<string, unknown>> {
  const field = statusField(collection);
  if (!field) return [];
  const { values, notIn } = requiredStatuses(ctx, collection);
  const wanted = values.length > 0 ? values : notIn;
  if (wanted.length === 0) return after ? alreadyGuard(ctx, field.path, after) : [];
  const error = statusError(ctx, collection, wanted, values.length > 0);
  const guard =
    values.length > 0 ? { field: field.path, in: values, error } : { field: field.path, notIn, error };
  ctx.notes.push(
    `requires ${field.path} ${values.length > 0 ? "in" : "not in"} [${wanted.join(", ")}] (${error})`,
  );
  return [guard];
}

/**
 * A documented "already <status>" error refuses putting a record into the status it is in:
 * Stripe's `charge_already_refunded`, GitHub's "pull request already merged", Shopify's
 * "order already cancelled".
 */
function alreadyGuard(ctx: Context, field: string, after: string): Array<Record<string, unknown>> {
  const wanted = after.toLowerCase();
  const error = ctx.facts.errors.find(
    (e) => e.kind !== "not-found" && /\balready\b/.test(e.text) && e.text.includes(wanted),
  );
  if (!error) return [];
  ctx.notes.push(`refuses a record already '${after}' (${use(ctx, error)})`);
  return [{ field, notIn: [after], error: error.code }];
}

function statusError(
  ctx: Context,
  collection: CollectionShape,
  statuses: readonly string[],
  required: boolean,
): string {
  const mentions = ctx.facts.errors.filter(
    (e) =>
      e.kind !== "not-found" &&
      statuses.some(
        (s) => e.text.includes(s.toLowerCase()) || nameWords(e.code).join(" ").includes(s.toLowerCase()),
      ),
  );
  const chosen = mentions.find((e) => e.text.includes("non-")) ?? mentions[0];
  if (chosen) return use(ctx, chosen);
  const noun = humanNoun(collection.name);
  const status = statuses.join(" or ");
  const code = `${noun.replace(/ /g, "_").toUpperCase()}_${required ? "NOT" : "ALREADY"}_${nameWords(
    statuses[0] ?? "",
  )
    .join("_")
    .toUpperCase()}`;
  return addError(ctx, {
    code,
    status: 409,
    message: required ? `The ${noun} is not ${status}.` : `The ${noun} is already ${status}.`,
    when: required
      ? `The ${noun} is not ${status} (inferred from the tool's name and description).`
      : `The ${noun} is ${status} (inferred from the tool's description).`,
  });
}

/** Statuses that begin a lifecycle, in the words APIs give them. */
const BEGINNINGS =
  /^(open|new|pending|draft|created|requested|submitted|scheduled|queued|planned|proposed|initiated|received|unpaid|todo|to do|not started|active)$/i;

/**
 * The status a new record starts in, where the tool does not say: the one value the records
 * have that begins a lifecycle (`open` beside `closed`, `pending` beside `shipped`), or of
 * several, the one the tool's own words name (`open_ticket` among open and pending); a new
 * GitHub issue is `open`, a Zendesk ticket `new`, a Stripe invoice `draft`.
 */
function startingStatus(
  ctx: Context,
  values: readonly string[],
  enumerated: readonly string[],
): string | undefined {
  const starts = values.filter((v) => BEGINNINGS.test(v.replace(/[_-]/g, " ")));
  if (starts.length === 1) return starts[0];
  const words = new Set([...ctx.facts.words, ...nameWords(ctx.facts.tool.description)]);
  const named = starts.filter((v) => words.has(v.toLowerCase()));
  if (named.length === 1) return named[0];
  // an enum lists a lifecycle from its start: GitHub's [open, closed], Stripe's invoice
  // [draft, open, paid, …], PayPal's order [CREATED, SAVED, APPROVED, …]
  const first = enumerated.find((v) => starts.includes(v));
  // but where it lists more than one beginning, its order is all that chose: a broker's order
  // may start `pending` before it is `open`, a help desk's ticket `open` before `pending`
  if (first && starts.length > 1)
    addGap(
      ctx,
      `a new record's status '${first}' is the first of ${starts.map((s) => `'${s}'`).join(", ")} in the API's enum: a guess at which one a new record starts in`,
    );
  return first;
}

/**
 * A create files a new record in the collection the tool's name names (or a new one), under
 * an id minted the way the collection's ids are (a counter beside it, or the next after the
 * largest, in the keys' format), with the arguments that are its fields, the clock in its
 * creation timestamp, and its id appended to the list that the record it references keeps
 * of them (an author's `posts`); counts of the same noun beside it move by one.
 */
export function createRule(ctx: Context, collection: CollectionShape | undefined, noun: string): Draft[] {
  if (collection?.parent) return nestedCreate(ctx, collection, noun);
  const name = collection?.name ?? pluralNoun(noun);
  const set: Record<string, unknown> = {};
  for (const param of ctx.facts.params) {
    const field = collection ? fieldFor(param, collection) : param.name;
    if (field) set[field] = `{${param.name}}`;
    // a create keeps what it is given, as a POST body becomes the new resource's fields; a
    // record of another collection it names moves to the field that refers to it, if any
    else if (param.type !== "boolean" && param.type !== "object") set[param.name] = `{${param.name}}`;
  }
  withDefaults(ctx, set);
  if (collection) Object.assign(set, namedPlaces(ctx, collection, set));
  if (collection) countsFromList(ctx, collection, set);
  const source = collection ? sourceRecord(ctx, collection, set) : undefined;
  const maker = completeRecord(ctx, collection, set);
  const stated = statedStatus(ctx.facts.text);
  const statusPath = collection ? statusField(collection)?.path : undefined;
  if (stated) set[statusPath ?? "status"] = stated;
  else if (collection && statusPath && set[statusPath] === undefined && collection.size === 0) {
    // a world known only from its schemas: a new entity starts in the first status its schema
    // lists, as enums of lifecycles are written in order (open → closed, available → sold)
    const first = collection.fields.get(statusPath)?.values.keys().next().value;
    if (typeof first === "string") {
      set[statusPath] = first;
      ctx.notes.push(`starts it '${first}' (the first ${statusPath} its schema allows)`);
    }
  } else if (collection && statusPath && set[statusPath] === undefined) {
    const seen = [...(collection.fields.get(statusPath)?.values.keys() ?? [])];
    const start = startingStatus(ctx, knownValues(ctx, statusPath, seen), knownValues(ctx, statusPath, []));
    if (start) {
      set[statusPath] = start;
      ctx.notes.push(
        `starts it '${start}' (of the ${statusPath} values the records and schemas show, the one that begins a lifecycle)`,
      );
    }
  }
  // the time it entered the status it starts in (`queued_at` of a job that starts queued)
  const started = statusPath ? set[statusPath] : undefined;
  const enteredAt =
    typeof started === "string" ? collection?.fields.get(`${started.toLowerCase()}_at`) : undefined;
  if (enteredAt && set[enteredAt.path] === undefined) set[enteredAt.path] = "{$now}";
  const keyField = collection?.keyField ?? idSpelling(ctx, `${nameWords(singular(name)).join("_")}_id`);
  const binding = bindingName(collection ?? ({ name } as CollectionShape));
  const container = collection ? containerTarget(ctx, collection) : name;
  if (!container) return [];
  const given = collection ? givenKey(ctx, collection) : undefined;
  const create: Draft = given
    ? {
        kind: "create",
        target: `${container}/{${given.name}}`,
        exists: takenError(ctx, collection as CollectionShape, given.name),
        set: { ...set, ...(collection?.keyField ? { [collection.keyField]: `{${given.name}}` } : {}) },
        as: binding,
        output: (collection && wrapperOutput(ctx, collection)) ?? "",
      }
    : {
        kind: "create",
        target: container,
        id: asAnswered(ctx, mintOf(collection, name, keyField)),
        set,
        as: binding,
        output: (collection && wrapperOutput(ctx, collection)) ?? "",
      };
  if (given) ctx.notes.push(`files it under the key ${given.name} gives, refusing a taken one`);
  const drafts: Draft[] = [...(source ? [source] : []), ...(maker ? [maker.read] : []), create];
  const target = container;
  ctx.notes.push(
    `creates ${withArticle(humanNoun(partNoun(name)))} in ${collection ? target : name}${collection ? "" : " (a new collection)"} with ${Object.keys(set).join(", ") || "no fields"}${collection?.counter ? `, its id from ${collection.counter.path.join("/")}` : ""}`,
  );
  const idOutput = ctx.facts.outputs.find(
    (o) =>
      (o.name === keyField || o.name === "id" || o.name === `${nameWords(singular(name)).join("_")}_id`) &&
      !(collection?.fields.has(o.name) ?? false),
  );
  if (idOutput) drafts.push({ kind: "respond", output: idOutput.name, value: { $expr: "$id" } });
  if (collection) drafts.push(...countsMoving(ctx, collection, noun));
  const linked = collection ? linkedFields(ctx, collection, create) : { reads: [] };
  if (collection) unfilledFields(ctx, collection, create.set as Record<string, unknown>);
  drafts.unshift(...spendingLimit(ctx, linked.price));
  let charged = false;
  for (const reference of ctx.references) {
    if (reference.many || reference.collection.parent || reference.collection === collection) continue;
    const list = [...reference.collection.fields.values()].find(
      (f) => f.refersTo === name && f.types.has("array"),
    );
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    const referenced = recordTarget(ctx, reference.collection, `{${reference.param.name}}`);
    if (!referenced) continue;
    const named = missing ? { missing } : {};
    if (collection) drafts.unshift(...overlapCheck(ctx, collection, reference));
    const said = referenceGuards(ctx, reference.collection);
    if (said.require.length > 0)
      drafts.unshift({ kind: "read", target: referenced, ...named, require: said.require });
    if (Object.keys(said.set).length > 0)
      drafts.push({ kind: "update", target: referenced, ...named, set: said.set });
    // the record that keeps a list of these gets the new id; any other must merely exist
    // checked before the create, so a refused call files nothing
    if (list) drafts.push({ kind: "update", target: referenced, ...named, append: { [list.path]: "{$id}" } });
    else if (counted(reference.collection, name))
      drafts.unshift({
        kind: "update",
        target: referenced,
        ...named,
        inc: { [counted(reference.collection, name) as string]: 1 },
      });
    else {
      const charge = chargeFor(ctx, reference, missing, linked.price);
      charged ||= charge !== undefined;
      drafts.unshift(charge ?? { kind: "read", target: referenced, ...named });
      const taken = stockTaken(ctx, reference, referenced, missing);
      if (taken) drafts.unshift(taken);
    }
    if (list) ctx.notes.push(`appends the new id to ${reference.collection.name}.${list.path}`);
  }
  const account = !charged && linked.price ? chargeAccount(ctx, linked.price) : undefined;
  if (account) drafts.unshift(account);
  if (collection) drafts.unshift(...selfLinks(ctx, collection, set));
  drafts.unshift(...linked.reads);
  return drafts;
}

/** A number of a record that says how many of it are left to take (`bookable_seats`, `stock`). */
const STOCK = /^(stock|inventory|available|remaining|in_stock|bookable|left|free|vacant)$/;

/**
 * A record made from another that keeps how many are left (an order of an offer with
 * bookable seats, a ticket of an event with `tickets_remaining`) takes its quantity from
 * it (the `quantity`-like argument, else one), refused when too few are left: Amadeus's
 * `numberOfBookableSeats`, Shopify's inventory on an order, Eventbrite's ticket classes.
 */
function stockTaken(
  ctx: Context,
  reference: Reference,
  target: string,
  missing: string | undefined,
): Draft | undefined {
  const field = stockFieldOf(reference.collection);
  if (!field) return undefined;
  // where another tool's docs say it takes from that field (approving a request takes the days),
  // making the record takes nothing yet
  if (
    ctx
      .siblings()
      .some((s) => s.tool !== ctx.facts.tool && statedTake(s.text, reference.collection)?.field === field)
  )
    return undefined;
  const quantity = ctx.facts.params.find(
    (p) =>
      (p.type === "integer" || p.type === "number") &&
      /^(quantity|qty|count|seats|tickets|number_of_\w+|num_\w+)$/.test(p.name),
  );
  const amount = quantity ? `{${quantity.name}}` : 1;
  const what = nameWords(field).join(" ");
  // "No rooms left.", "not enough seats": what is left runs out (not money: that is a balance's error)
  const documented = ctx.facts.errors.find(
    (e) =>
      /sold out|out of stock|fully booked|no (more )?(seats|tickets|stock|rooms|units|spots|places)|not enough (seats|tickets|stock|rooms|units|spots|places)|\bno (more )?(\w+ ){1,4}(left|remaining)\b|unavailable|no longer available/i.test(
        e.text,
      ) && !/\b(funds?|balance|money|credit|wallet)\b/i.test(e.text),
  );
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${nameWords(singular(reference.collection.name)).join("_").toUpperCase()}_SOLD_OUT`,
        status: 409,
        message: `Not enough ${what.replace(/ (left|remaining|available)$/, "")} left.`,
        when: `The ${humanNoun(reference.collection.name)} has fewer ${what} than the call takes (inferred from its ${field}).`,
      });
  ctx.notes.push(
    `takes ${quantity ? quantity.name : "one"} from ${reference.collection.name}.${field} (${error})`,
  );
  return {
    kind: "update",
    target,
    ...(missing ? { missing } : {}),
    require: [{ field, gte: amount, error }],
    inc: { [field]: quantity ? { $expr: `-$args.${identifier(quantity.name)}` } : -1 },
  };
}

/**
 * A new record made from another its arguments name (an order from an offer) takes the fields
 * every existing record shares with the one it was made from (`total_amount`,
 * `total_currency`), and a price among them is what the purchase costs: Duffel orders and
 * Amadeus flight orders are priced by their offer, Stripe invoice items by their Price,
 * Shopify order lines by their variant.
 */
function linkedFields(
  ctx: Context,
  collection: CollectionShape,
  create: Draft,
): { reads: Draft[]; price?: { name: string; expr: string } } {
  const set = create.set as Record<string, unknown>;
  const reads: Draft[] = [];
  let price: { name: string; expr: string } | undefined;
  for (const reference of ctx.references) {
    if (reference.many || reference.collection === collection || reference.collection.parent) continue;
    const link = Object.keys(set).find((f) => set[f] === `{${reference.param.name}}`);
    if (!link) continue;
    for (const [field, kind] of Object.entries(kindFields(ctx, collection, link))) {
      if (set[field] !== undefined && ctx.facts.params.some((p) => set[field] === `{${p.name}}`)) continue;
      set[field] = kind;
      ctx.notes.push(
        `sets ${field} to '${kind}', as every ${singular(collection.name)} with a ${link} has it`,
      );
    }
    const shared = sharedFields(ctx, collection, link, reference.collection).filter(
      (f) => set[f] === undefined || !ctx.facts.params.some((p) => set[f] === `{${p.name}}`),
    );
    const target =
      shared.length > 0 ? recordTarget(ctx, reference.collection, `{${reference.param.name}}`) : undefined;
    if (!target) continue;
    const binding = `made_from_${reads.length}`;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    reads.push({ kind: "read", target, as: binding, ...(missing ? { missing } : {}) });
    for (const field of shared) set[field] = `{$${binding}.${field}}`;
    const priced = shared.find(
      (f) => nameWords(f).some((w) => PRICE_WORDS.test(w)) && collection.fields.get(f)?.types.has("number"),
    );
    if (priced && !price)
      price = { name: `${reference.param.name}'s ${priced}`, expr: `$${binding}.${identifier(priced)}` };
    ctx.notes.push(
      `takes ${shared.join(", ")} from the ${singular(reference.collection.name)} ${reference.param.name} names`,
    );
  }
  if (!price) {
    const rated = ratedTotal(ctx, collection, set, reads.length);
    if (rated) {
      reads.push(rated.read);
      price = rated.price;
    }
  }
  return { reads, ...(price ? { price } : {}) };
}

/** How many of a rated thing a call takes: nights of a stay, days of a rental, seats. */
const COUNT_PARAM =
  /^(nights|days|hours|weeks|months|quantity|qty|units|seats|tickets|count|num_\w+|number_of_\w+)$/;
const RATE_WORDS = /^(rate|price|fee|cost|tariff)$/;

/**
 * A record made from another that is priced per unit (a hotel's `nightly_rate`, a car's
 * `daily_rate`, a product's `unit_price`) costs that rate times the count the call takes
 * (`nights`, `days`, `quantity`), kept in the new record's one price field (`total`): Booking
 * and Expedia stays, car rentals, and order lines (`unit_amount` × `quantity` in Stripe).
 */
function ratedTotal(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
  reads: number,
): { read: Draft; price: { name: string; expr: string } } | undefined {
  const count = ctx.facts.params.filter((p) => p.type === "integer" && COUNT_PARAM.test(p.name));
  const totals = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("number") &&
      set[f.path] === undefined &&
      nameWords(f.path).some((w) => PRICE_WORDS.test(w)),
  );
  if (count.length !== 1 || totals.length !== 1) return undefined;
  for (const reference of ctx.references) {
    if (reference.many || reference.collection === collection || reference.collection.parent) continue;
    const rates = [...reference.collection.fields.values()].filter(
      (f) =>
        !f.path.includes(".") && f.types.has("number") && nameWords(f.path).some((w) => RATE_WORDS.test(w)),
    );
    const target =
      rates.length === 1 ? recordTarget(ctx, reference.collection, `{${reference.param.name}}`) : undefined;
    if (!target) continue;
    const rate = (rates[0] as FieldShape).path;
    const by = (count[0] as Param).name;
    const binding = `made_from_${reads}`;
    const missing = notFoundError(ctx, reference.collection, reference.param.name, { add: true });
    const expr = `$${binding}.${identifier(rate)} * $args.${identifier(by)}`;
    const total = (totals[0] as FieldShape).path;
    set[total] = { $expr: expr };
    ctx.notes.push(`sets ${total} to the ${singular(reference.collection.name)}'s ${rate} times ${by}`);
    return {
      read: { kind: "read", target, as: binding, ...(missing ? { missing } : {}) },
      price: { name: `${rate} times ${by}`, expr },
    };
  }
  return undefined;
}

/**
 * An argument that fills a field whose values are keys of the same collection (a status's
 * `in_reply_to_id`, a comment's `parent_id`) links the new record to one that must exist,
 * whose count named for the link (`replies_count`) goes up by one: Mastodon's
 * `in_reply_to_id` and `replies_count`, Bluesky's `reply.parent` and `replyCount`,
 * GitHub's comment `in_reply_to_id`.
 */
function selfLinks(ctx: Context, collection: CollectionShape, set: Record<string, unknown>): Draft[] {
  const keys = new Set(collection.keys);
  const drafts: Draft[] = [];
  for (const param of ctx.facts.params) {
    if (param.type !== "string" && param.type !== "integer") continue;
    const field = collection.fields.get(param.name);
    if (!field || field.path === collection.keyField || set[field.path] !== `{${param.name}}`) continue;
    const values = field.samples.filter((v) => typeof v === "string" || typeof v === "number").map(String);
    if (values.length === 0 || !values.every((v) => keys.has(v))) continue;
    const target = recordTarget(ctx, collection, `{${param.name}}`);
    if (!target) continue;
    const missing = notFoundError(ctx, collection, param.name, { add: true });
    const words = nameWords(field.path).filter((w) => !/^(id|in|to|of|on)$/.test(w));
    const count = words.map((w) => counted(collection, w)).find((c) => c !== undefined);
    ctx.notes.push(
      `${param.name} must name a ${singular(collection.name)}${count ? `, whose ${count} goes up by one` : ""}`,
    );
    drafts.push({
      kind: "update",
      target,
      when: `$exists($args.${identifier(param.name)}) and $args.${identifier(param.name)} != null`,
      ...(missing ? { missing } : {}),
      ...(count ? { inc: { [count]: 1 } } : {}),
    });
  }
  return drafts;
}

/** The new record's id field as the tool spells it (`labelId` for `label_id`), where an output names it. */
/** "a ticket", "an appointment": for the report's notes. */
function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

function idSpelling(ctx: Context, snake: string): string {
  const spelled = ctx.facts.outputs.find((o) => nameWords(o.name).join("_") === snake);
  return spelled?.name ?? shortIdOutput(ctx, snake) ?? snake;
}

/**
 * An id output named by part of a compound noun, container words aside: an `appointment_records`'
 * id is its `appointment_id`, an `insurance_card_list`'s its `card_id` (the head noun). An id the
 * call was given is another record's.
 */
function shortIdOutput(ctx: Context, snake: string): string | undefined {
  const noun = partNoun(snake.split("_").slice(0, -1).join("_")).split("_");
  const found = ctx.facts.outputs.filter((o) => {
    const words = nameWords(o.name).map(singular);
    if (words.at(-1) !== "id" || words.length < 2 || words.length > noun.length + 1) return false;
    if (ctx.facts.params.some((p) => p.name === o.name)) return false;
    const own = words.slice(0, -1).join("_");
    const leading = noun.slice(0, words.length - 1).join("_");
    const trailing = noun.slice(noun.length - (words.length - 1)).join("_");
    return own === leading || own === trailing;
  });
  return found.length === 1 ? found[0]?.name : undefined;
}

/**
 * A new record has the fields its siblings have: their lists start empty, their counts at
 * zero, and fields the state shows empty (null) in some of them start empty, as a REST create
 * answers the whole resource (`"assignee": null`, `"labels": []`, `"like_count": 0`).
 */
export function emptyFields(
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const empty: Record<string, unknown> = {};
  if (collection.size === 0) return empty;
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || field.path === collection.keyField || set[field.path] !== undefined)
      continue;
    if (field.types.has("array") && field.types.size === 1) empty[field.path] = { $expr: "[]" };
    else if (field.types.has("number") && field.types.size === 1 && isCount(field))
      empty[field.path] = { $expr: "0" };
    else if (field.types.has("null")) empty[field.path] = { $expr: "null" };
    // a text some records leave empty (a card's `desc`) is empty until something sets it
    else if (field.types.has("string") && field.types.size === 1 && field.values.has(""))
      empty[field.path] = { $expr: '""' };
    else if (field.types.has("boolean") && field.types.size === 1 && happensLater(field.path))
      empty[field.path] = { $expr: "false" };
  }
  return empty;
}

/**
 * A flag for what happens to a record after it is made (`closed`, `is_archived`,
 * `dueComplete`): a new record has not been through it, as GitHub's new issue is not
 * `locked`, Trello's new card not `closed` and Todoist's new task not `completed`.
 */
function happensLater(path: string): boolean {
  return LATER_STATES.test(nameWords(path).at(-1) ?? "");
}

const LATER_STATES =
  /^(closed|archived|deleted|complete|completed|done|resolved|pinned|locked|muted|hidden|starred|flagged|cancell?ed|merged|blocked|suspended|expired)$/;

/**
 * A count of things that accrue to a record by its name (`like_count`, `commentCount`); a
 * `num_shares` or `quantity` is the record's own amount, not a count that starts at zero.
 */
/** Plurals that count how often something happened to a record. */
const TIMES_COUNTED =
  /^(attempts|retries|tries|views|visits|downloads|clicks|failures|errors|reboots|restarts|plays|opens|uses|runs|hits|replies)$/;

function isCount(field: FieldShape): boolean {
  const words = nameWords(field.path);
  const last = words.at(-1) ?? "";
  if (last === "count") return true;
  // `attempts`, `retries`: how often something happened, as whole numbers, some still at zero
  // (not what a record holds: `shares`, `units` are its own amount)
  const seen = field.samples;
  return (
    words.length === 1 &&
    TIMES_COUNTED.test(last) &&
    seen.includes(0) &&
    seen.every((v) => typeof v === "number" && Number.isInteger(v) && v >= 0)
  );
}

/**
 * The count a record keeps of the records of another collection made about it (a post's
 * `comment_count`, an issue's `comments` number), which a new one raises by one: GitHub's
 * issue `comments`, Reddit's `num_comments`, YouTube's `commentCount`.
 */
export function counted(collection: CollectionShape, made: string): string | undefined {
  const noun = singular(nameWords(made).at(-1) ?? made);
  const found = [...collection.fields.values()].filter((f) => {
    if (f.path.includes(".") || !f.types.has("number") || f.types.size !== 1) return false;
    const words = nameWords(f.path).map(singular);
    return words.includes(noun) && (isCount(f) || words[0] === "num" || words.length === 1);
  });
  return found.length === 1 ? found[0]?.path : undefined;
}

/**
 * A new record's maker, where the record keeps who made it and no argument says so: the
 * signed-in account (a post's `author`, a message's `from`), or else the owner of the record
 * the collection lives in (a calendar's owner organizes its events).
 */
function makerOf(ctx: Context, collection: CollectionShape, set: Record<string, unknown>): Maker | undefined {
  for (const other of ctx.shape.collections.values()) {
    const principal = principalOf(ctx.shape, other);
    const field = principal ? ownerField(collection, principal) : undefined;
    if (principal && field && set[field] === undefined) return signedInMaker(principal, field);
  }
  const owner = holderMaker(ctx.shape, collection);
  return owner && set[owner.field] === undefined ? owner : undefined;
}

/**
 * An argument naming a record of another collection fills the one field of the new record
 * that refers to that collection and that is not its author (`recipient_id` → `to`).
 */
function referencedFields(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const reference of ctx.references) {
    if (reference.many || reference.collection === collection) continue;
    // a field of the argument's own name takes it: another that refers to the same records
    // (`assignee` beside `mechanic_id`) is someone else
    if (collection.fields.has(reference.param.name)) continue;
    const principal = principalOf(ctx.shape, reference.collection);
    const owner = principal ? ownerField(collection, principal) : undefined;
    const fields = [...collection.fields.values()].filter(
      (f) =>
        f.refersTo === reference.collection.name &&
        !f.path.includes(".") &&
        f.path !== owner &&
        set[f.path] === undefined,
    );
    if (fields.length !== 1) continue;
    const field = fields[0] as FieldShape;
    filled[field.path] = `{${reference.param.name}}`;
    delete set[reference.param.name];
    ctx.notes.push(`${reference.param.name} fills ${field.path}`);
  }
  return filled;
}

/**
 * The argument a create files its record under, where the caller names the key (`sku`,
 * `username`, `{noun}_id`): the key field's own name, an identifier of the collection's noun,
 * or a naming word for a map keyed by text — as `PUT /items/{sku}` and registries that take
 * the name you choose (npm packages, GitHub repositories, DNS records) do.
 */
function givenKey(ctx: Context, collection: CollectionShape): Param | undefined {
  if (collection.container !== "map" || collection.numericKeys) return undefined;
  const noun = nameWords(singular(collection.name)).map(singular).join("_");
  return ctx.facts.params.find(
    (p) =>
      p.required &&
      (p.type === "string" || p.type === "integer") &&
      (sameName(p.name, collection.keyField) ||
        (p.identifier && nameWords(p.name).slice(0, -1).map(singular).join("_") === noun) ||
        /^(sku|code|slug|handle|username|symbol|ticker|key|name)$/.test(p.words.at(-1) ?? "")) &&
      (sameName(p.name, collection.keyField) || keysLookLike(collection, p)),
  );
}

function sameName(a: string, b: string | undefined): boolean {
  return b !== undefined && nameWords(a).join("_") === nameWords(b).join("_");
}

/** The collection's keys look like values of the argument: its examples have their outline, or it is the key field. */
function keysLookLike(collection: CollectionShape, param: Param): boolean {
  // a map keyed by names (`ceiling`, `kettle`) is keyed by what a `name` argument gives
  if (param.examples.length === 0)
    return (
      sameName(param.name, collection.keyField) ||
      (NAMING.test(param.words.at(-1) ?? "") &&
        keyedByNames(collection) &&
        // records that keep their key as an id (`playlist_id: "pl_road"`) were given a minted one
        (collection.keyField === undefined || NAMING.test(nameWords(collection.keyField).at(-1) ?? "")))
    );
  const outlines = new Set(collection.keys.slice(0, 50).map(outline));
  return param.examples.some((e) => outlines.has(outline(e)));
}

const NAMING = /^(name|title|slug|handle|key)$/;

/** Keys that are words people chose, not numbers or minted ids (`CUST-001`). */
function keyedByNames(collection: CollectionShape): boolean {
  return (
    collection.keys.length > 0 &&
    collection.keyFormat?.digits === undefined &&
    collection.keys.every((k) => /[a-z]{2}/i.test(k) && !/[0-9]{3}/.test(k))
  );
}

/** The documented error for a key already taken, or an added `<NOUN>_ALREADY_EXISTS` (409). */
function takenError(ctx: Context, collection: CollectionShape, argument: string): string {
  const documented = ctx.facts.errors.find(
    (e) => /already|exists|taken|duplicate|in use/.test(e.text) || /EXISTS|TAKEN|DUPLICATE/.test(e.code),
  );
  if (documented) return use(ctx, documented);
  const noun = humanNoun(collection.name);
  return addError(ctx, {
    code: `${noun.replace(/ /g, "_").toUpperCase()}_ALREADY_EXISTS`,
    status: 409,
    message: `A ${noun} {${argument}} already exists.`,
    when: `The key is taken (inferred: the caller names the key of a new ${noun}).`,
  });
}

/**
 * Numbers beside a collection that count its records of one noun (`note_count`,
 * `open_issues_count`), other than its id counter: one more with each record made.
 */
function countsMoving(ctx: Context, collection: CollectionShape, noun: string): Draft[] {
  const holder = holderOf(ctx.shape, collection);
  if (!holder) return [];
  const wanted = new Set([singular(noun), ...nameWords(singular(collection.name)).map(singular)]);
  const drafts: Draft[] = [];
  for (const field of holder.fields.values()) {
    const words = nameWords(field.path);
    if (!words.includes("count") || !field.types.has("number") || field.types.size !== 1) continue;
    if (collection.counter && collection.counter.path.at(-1) === field.path) continue;
    if (!words.some((w) => wanted.has(singular(w)))) continue;
    drafts.push({ kind: "update", target: holder.path.join("/") || ".", inc: { [field.path]: 1 } });
    ctx.notes.push(`adds one to ${field.path}`);
  }
  return drafts;
}

/** The record a collection is a field of (an API's state, or the whole state). */
export function holderOf(shape: StateShape, part: { path: readonly string[] }): RecordShape | undefined {
  return shape.parts.find(
    (p): p is RecordShape =>
      p.kind === "record" &&
      p.path.length === part.path.length - 1 &&
      p.path.every((s, i) => part.path[i] === s),
  );
}

/** A create of something kept inside another record (a card among a user's payment methods). */
/**
 * What a new record holds besides its arguments: the records the arguments name, the empty
 * values its kind starts with, who made it, and when.
 */
function completeRecord(
  ctx: Context,
  collection: CollectionShape | undefined,
  set: Record<string, unknown>,
): Maker | undefined {
  if (collection) Object.assign(set, referencedFields(ctx, collection, set));
  if (collection) Object.assign(set, emptyFields(collection, set), leftEmpty(ctx, collection, set));
  if (collection) Object.assign(set, switchedLater(ctx, collection, set));
  const maker = collection ? makerOf(ctx, collection, set) : undefined;
  if (maker && collection) {
    set[maker.field] = maker.template;
    Object.assign(set, leadingItems(ctx.states, collection, maker));
  }
  for (const field of collection ? createdAtFields(collection) : ["created_at"]) set[field] ??= "{$now}";
  return maker;
}

/**
 * A flag another tool of the API throws by its verb (`protect_branch` → `protected`,
 * `lock_issue` → `locked`) is something done to a record after it is made: a new one has it
 * false, as GitHub's new branch is not protected and its new issue not locked.
 */
function switchedLater(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const thrown = new Set(
    ctx.siblings().flatMap((s) => {
      const verb = s.verb ?? s.words[0];
      return verb ? [participle(verb)] : [];
    }),
  );
  const off: Record<string, unknown> = {};
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || set[field.path] !== undefined) continue;
    if (!field.types.has("boolean") || field.types.size !== 1) continue;
    const flag = nameWords(field.path).filter((w) => w !== "is");
    if (flag.length === 1 && thrown.has(flag[0] as string)) off[field.path] = { $expr: "false" };
  }
  return off;
}

/** An optional argument left out leaves its field as empty as its kind starts (`desc: ""`). */
function leftEmpty(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const empties = emptyFields(collection, {});
  const filled: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(set)) {
    const name = typeof value === "string" ? /^\{([^{}$]+)\}$/.exec(value)?.[1] : undefined;
    const param = ctx.facts.params.find((p) => p.name === name);
    const empty = empties[field] as { $expr: string } | undefined;
    // a field that names another record stays as the argument leaves it, for the checks on it
    if (!param || param.required || !empty) continue;
    if (param.identifier || collection.fields.get(field)?.refersTo) continue;
    if (ctx.references.some((r) => r.param === param)) continue;
    const given = identifier(param.name);
    filled[field] = { $expr: `$exists(${given}) ? ${given} : ${empty.$expr}` };
  }
  return filled;
}

function nestedCreate(ctx: Context, collection: CollectionShape, noun: string): Draft[] {
  const parent = ctx.references.find((r) => r.collection.name === collection.parent && !r.many);
  if (!parent) {
    ctx.notes.push(
      `a ${noun} lives inside ${collection.parent}, but no argument names the ${collection.parent} record`,
    );
    return [];
  }
  const set: Record<string, unknown> = {};
  for (const param of ctx.facts.params) {
    if (param === parent.param) continue;
    const field = fieldFor(param, collection);
    if (field) set[field] = `{${param.name}}`;
  }
  withDefaults(ctx, set);
  Object.assign(set, namedPlaces(ctx, collection, set));
  const container = containerTarget(ctx, collection);
  const parentTarget = recordTarget(ctx, parent.collection, `{${parent.param.name}}`);
  if (!container || !parentTarget) return [];
  const maker = completeRecord(ctx, collection, set);
  const missing = notFoundError(ctx, parent.collection, parent.param.name, { add: true });
  ctx.notes.push(
    `creates ${withArticle(noun)} in ${collection.parent}.${collection.name} of the ${humanNoun(collection.parent ?? "")} ${parent.param.name} names${collection.counter ? `, its id from ${collection.counter.path.join("/")}` : ""}`,
  );
  // a list of records whose key the caller gives (a reader's email) keeps the one given
  const given =
    collection.container === "array" && !!collection.keyField && set[collection.keyField] !== undefined;
  // a map keyed by what the caller names (a room's devices by name) files it under that name
  const named = given ? undefined : givenKey(ctx, collection);
  if (named) {
    delete set[named.name];
    // its records keep their key where the toolset's answers need it (`fillKeys`): so does this one
    set[keyFieldFor(ctx, collection)] = `{${named.name}}`;
    ctx.notes.push(`files it under the key ${named.name} gives, refusing a taken one`);
  }
  return [
    { kind: "read", target: parentTarget, ...(missing ? { missing } : {}) },
    ...(maker ? [maker.read] : []),
    {
      kind: "create",
      target: named ? `${container}/{${named.name}}` : container,
      ...(named ? { exists: takenError(ctx, collection, named.name) } : {}),
      ...(given || named
        ? {}
        : {
            id: mintOf(collection, collection.name, collection.keyField ?? `${nameWords(noun).join("_")}_id`),
          }),
      set,
      as: nameWords(noun).join("_"),
      output: wrapperOutput(ctx, collection) ?? "",
    },
  ];
}

/** Words before a noun that name the record a new one starts from (`from_branch`, `source_project`). */
const SOURCE_WORDS = /^(from|source|base|template)$/;

/**
 * A create given a record of its own kind to start from (`create_branch(name, from_branch)`)
 * finds it (its not-found error) and points where it points: the new record takes the
 * source's fields that refer to other records (a branch's `head` commit), and the argument is
 * no field of its own. GitHub's `POST /git/refs` (a branch at another's sha), GitLab's
 * `POST /repository/branches?ref=main` and Bitbucket's branch from a target work so.
 */
function sourceRecord(
  ctx: Context,
  collection: CollectionShape,
  set: Record<string, unknown>,
): Draft | undefined {
  const noun = nameWords(singular(collection.name)).join("_");
  const param = ctx.facts.params.find(
    (p) =>
      p.required &&
      p.type === "string" &&
      SOURCE_WORDS.test(p.words[0] ?? "") &&
      p.words.slice(1).map(singular).join("_") === noun,
  );
  if (!param) return undefined;
  const target = recordTarget(ctx, collection, `{${param.name}}`);
  const missing = notFoundError(ctx, collection, param.name, { add: true });
  if (!target || !missing) return undefined;
  const links = [...collection.fields.values()].filter(
    (f) => f.refersTo !== undefined && f.refersTo !== collection.name && !f.path.includes("."),
  );
  delete set[param.name];
  for (const link of links) set[link.path] ??= { $expr: `$source.${identifier(link.path)}` };
  ctx.notes.push(
    `starts from the ${humanNoun(noun)} ${param.name} names${links.length > 0 ? `, pointing where it points (${links.map((l) => l.path).join(", ")})` : ""}`,
  );
  return { kind: "read", target, missing, as: "source" };
}

const COMPARED: ReadonlyArray<[RegExp, string, string]> = [
  [/^(?:higher|greater|more|larger|above)$/, ">", "TOO_LOW"],
  [/^(?:lower|less|smaller|below)$/, "<", "TOO_HIGH"],
];

/**
 * How the description compares the amount with a field: "must be higher than the current
 * bid", or "the attendees do not fit in its seats" (at most the field).
 */
function comparisonOf(
  text: string,
): { op: string; suffix: string; word: string; fieldWords: string } | undefined {
  const fits =
    /\b(?:do|does)(?: not|n't) fit (?:in|into|within) (?:the |its )?([a-z' ]{2,60}?)(?:[.;,]|$)/.exec(text);
  if (fits) return { op: "<=", suffix: "TOO_HIGH", word: "no more", fieldWords: fits[1] ?? "" };
  const compared = /\bmust be (\w+) than (?:the |its )?([a-z' ]{2,60}?)(?:[.;,]|$)/.exec(text);
  const rule = compared ? COMPARED.find(([word]) => word.test(compared[1] ?? "")) : undefined;
  if (!compared || !rule) return undefined;
  return { op: rule[1], suffix: rule[2], word: compared[1] ?? "", fieldWords: compared[2] ?? "" };
}

/**
 * What a create's description says of the record it is made on: "bid on an open lot" (the
 * record is in that status), "a bid must be higher than the lot's current bid" (the amount
 * given compares so with that field: the documented error that says so, else an added
 * `<AMOUNT>_TOO_LOW` or `_TOO_HIGH`, 409), "it becomes the current bid" (the field takes the
 * amount). eBay's PlaceBid (above the current price, on an active listing), Stripe's refunds
 * (no more than what is left of the charge) and GitHub's comments (refused on a locked issue).
 */
function referenceGuards(
  ctx: Context,
  held: CollectionShape,
): { require: Array<Record<string, unknown>>; set: Record<string, unknown> } {
  const require: Array<Record<string, unknown>> = [];
  const set: Record<string, unknown> = {};
  const statusPath = statusField(held)?.path;
  const { values } = requiredStatuses(ctx, held);
  if (statusPath && values.length > 0) {
    const error = statusError(ctx, held, values, true);
    ctx.notes.push(
      `requires the ${humanNoun(singular(held.name))}'s ${statusPath} in [${values.join(", ")}] (${error})`,
    );
    require.push({ field: statusPath, in: values, error });
  }
  const numbers = ctx.facts.params.filter(
    (p) => (p.type === "number" || p.type === "integer") && !p.identifier,
  );
  const amount = numbers.length === 1 ? numbers[0] : undefined;
  if (!amount) return { require, set };
  const text = ctx.facts.text.toLowerCase();
  const fieldNamed = (words: string) =>
    [...held.fields.values()].find(
      (f) =>
        !f.path.includes(".") &&
        (f.types.has("number") || f.types.has("integer")) &&
        words.endsWith(nameWords(f.path).join(" ")),
    );
  const comparison = comparisonOf(text);
  const field = comparison ? fieldNamed(comparison.fieldWords) : undefined;
  if (comparison && field) {
    const { op, suffix, word } = comparison;
    const documented = ctx.facts.errors.find(
      (e) =>
        e.kind !== "not-found" && (e.text.includes(word) || e.text.includes(nameWords(field.path).join(" "))),
    );
    const error = documented
      ? use(ctx, documented)
      : addError(ctx, {
          code: `${nameWords(amount.name).join("_").toUpperCase()}_${suffix}`,
          status: 409,
          message:
            op === "<="
              ? `The ${nameWords(amount.name).join(" ")} do not fit in the ${nameWords(field.path).join(" ")}.`
              : `The ${nameWords(amount.name).join(" ")} must be ${word} than the ${nameWords(field.path).join(" ")}.`,
          when: `The ${amount.name} is ${op === "<=" ? "more" : `not ${word}`} than the ${humanNoun(singular(held.name))}'s ${field.path} (inferred from the tool's description).`,
        });
    ctx.notes.push(
      `requires ${amount.name} ${op} the ${field.path} of the ${humanNoun(singular(held.name))} (${error})`,
    );
    require.push({
      expr: `$args.${identifier(amount.name)} ${op} $subject.${identifier(field.path)}`,
      error,
    });
  }
  const becomes = /\b(?:it|which) becomes (?:the |its )?([a-z' ]{2,60}?)(?:[.;,]|$)/.exec(text);
  const takes = becomes ? fieldNamed(becomes[1] ?? "") : undefined;
  if (takes) {
    set[takes.path] = `{${amount.name}}`;
    ctx.notes.push(`sets the ${humanNoun(singular(held.name))}'s ${takes.path} to ${amount.name}`);
  }
  return { require, set };
}

/**
 * "The days are taken from the employee's days left": what of the record the description says
 * is taken from (or added to) a number of the record it refers to, by the words of both.
 */
function statedTake(
  text: string,
  holder: CollectionShape,
): { what: string; field: string; sign: 1 | -1 } | undefined {
  const said =
    /\b(?:the |its )?([a-z ]{2,30}?) (?:are|is) (taken|deducted|subtracted|added|credited) (?:from|to) (?:the |its )?([a-z ]{2,30}?)(?:'s|’s) ([a-z ]{2,40}?)(?:[.,;]|$)/.exec(
      text.toLowerCase(),
    );
  if (!said || !sameNoun(said[3] ?? "", nameWords(singular(holder.name)).join("_"))) return undefined;
  const words = (said[4] ?? "").trim().replace(/ /g, "_");
  const field = [...holder.fields.values()].find(
    (f) => !f.path.includes(".") && nameWords(f.path).join("_") === words && f.types.has("number"),
  );
  if (!field) return undefined;
  return {
    what: (said[1] ?? "").trim(),
    field: field.path,
    sign: /^(added|credited)$/.test(said[2] ?? "") ? 1 : -1,
  };
}

/**
 * A change whose description says what of its record is taken from a number of the record it
 * refers to ("approve a request: the days are taken from the employee's days left") moves that
 * number by the record's own field of those words, refusing more than there is: HR systems'
 * approved leave (BambooHR, Personio) drawing on a balance, a fulfilled order drawing on stock,
 * an accepted expense on a budget.
 */
function takenFromHolder(ctx: Context, collection: CollectionShape, binding: string): Draft[] {
  return [...collection.fields.values()].flatMap((link): Draft[] => {
    const holder =
      link.refersTo && !link.path.includes(".") ? ctx.shape.collections.get(link.refersTo) : undefined;
    const take = holder ? statedTake(ctx.facts.text, holder) : undefined;
    const amount = take ? fieldNamedBy(collection, take.what) : undefined;
    const target =
      holder && amount ? recordTarget(ctx, holder, `{$${binding}.${identifier(link.path)}}`) : undefined;
    if (!holder || !take || !amount || !target) return [];
    const moved = `$${binding}.${identifier(amount)}`;
    const what = nameWords(take.field).join(" ");
    const error = addError(ctx, {
      code: `INSUFFICIENT_${nameWords(take.field).join("_").toUpperCase()}`,
      status: 409,
      message: `The ${humanNoun(singular(holder.name))}'s ${what} do not cover it.`,
      when: `The ${what} of the ${humanNoun(singular(holder.name))} are fewer than the ${amount} (inferred from the tool's description).`,
    });
    ctx.notes.push(
      `${take.sign < 0 ? "takes" : "adds"} its ${amount} ${take.sign < 0 ? "from" : "to"} ${holder.name}.${take.field} of the record its ${link.path} names`,
    );
    return [
      {
        kind: "update",
        target,
        ...(take.sign < 0
          ? { require: [{ expr: `$subject.${identifier(take.field)} >= ${moved}`, error }] }
          : {}),
        inc: { [take.field]: { $expr: take.sign < 0 ? `-${moved}` : moved } },
      },
    ];
  });
}

function fieldNamedBy(collection: CollectionShape, words: string): string | undefined {
  const wanted = words.replace(/ /g, "_");
  return [...collection.fields.values()].find(
    (f) => !f.path.includes(".") && (f.types.has("number") || f.types.has("integer")) && f.path === wanted,
  )?.path;
}

/**
 * A list of names given to a create whose records keep counts by name (`create_poll(question,
 * options)` and a poll's `votes: {"Lisbon": 3}`), where the description says they start with
 * none ("each with no votes yet"): the counts start at zero under each name given, and the
 * list is no field of its own. Doodle's and StrawPoll's polls (options, each counted), GitHub's
 * reaction summary (every reaction at 0), an inventory's new item counted per location.
 */
function countsFromList(ctx: Context, collection: CollectionShape, set: Record<string, unknown>): void {
  const maps = mapsByName(collection, COUNTS).filter(({ inner }) => inner.length > 0);
  const map = maps[0]?.field;
  const list = ctx.facts.params.find(
    (p) => p.type === "array" && p.itemType === "string" && !collection.fields.has(p.name),
  );
  if (maps.length !== 1 || !map || !list || set[map.path] !== undefined) return;
  const words = nameWords(map.path).join(" ");
  if (
    !new RegExp(`\\b(?:no|zero)\\s+${escapeRegExp(words)}\\b|\\bat zero\\b`).test(
      ctx.facts.text.toLowerCase(),
    )
  )
    return;
  delete set[list.name];
  set[map.path] = { $expr: `$merge([{}, $map($args.${identifier(list.name)}, function($k) { {$k: 0} })])` };
  ctx.notes.push(`counts ${map.path} from zero under each of ${list.name}`);
}

/**
 * Fields every record of the kind holds a value in (three records or more) that a create fills
 * from nothing it knows (a sent message's `from`, a transfer's `date`): the new record lacks them
 * where the real API would fill them, so the create is only partly known.
 */
function unfilledFields(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): void {
  const records = ctx.states.flatMap((state) => recordsAt(state, collection.path));
  if (records.length < 3) return;
  const lacking = [...collection.fields.values()]
    .filter((f) => !f.path.includes(".") && f.path !== collection.keyField && set[f.path] === undefined)
    .filter((f) => records.every((r) => r[f.path] !== undefined && r[f.path] !== null))
    .map((f) => f.path);
  if (lacking.length > 0)
    addGap(
      ctx,
      `a new ${humanNoun(singular(collection.name))} lacks what every one has: ${lacking.join(", ")}`,
    );
}

/** An argument left out takes the default its schema documents, as the API would. */
function withDefaults(ctx: Context, set: Record<string, unknown>): void {
  for (const param of ctx.facts.params) {
    const field = set[param.name] === `{${param.name}}` ? param.name : undefined;
    if (field && param.schema.default !== undefined && !param.required)
      set[field] = {
        $expr: `$exists(${identifier(param.name)}) ? ${identifier(param.name)} : ${JSON.stringify(param.schema.default)}`,
      };
  }
}

/**
 * Where the description says a new record goes, by a value of one of its fields and the
 * field's name ("a copy is kept in the sent folder", "creates a draft invoice" beside a
 * `status`): Gmail's `messages.send` files the copy under SENT, Microsoft Graph's
 * `POST /me/messages` saves a draft "in the Drafts folder", and Stripe's invoices are created
 * as drafts.
 */
function namedPlaces(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const placed: Record<string, string> = {};
  const text = ctx.facts.text.toLowerCase();
  for (const field of collection.fields.values()) {
    if (set[field.path] !== undefined || field.path.includes(".") || field.open || !field.types.has("string"))
      continue;
    if (field.path === collection.keyField) continue;
    const name = nameWords(field.path).join(" ");
    const value = knownValues(ctx, field.path, field.values.keys()).find((v) =>
      new RegExp(`\\b${escapeRegExp(v.toLowerCase())}\\s+${escapeRegExp(name)}\\b`).test(text),
    );
    if (value === undefined) continue;
    placed[field.path] = value;
    ctx.notes.push(`files it with ${field.path} '${value}' (the description says so)`);
  }
  return placed;
}

/**
 * The fields saying when a record was made: named so (`created_at`, `posted_on`), or a bare
 * `date`/`timestamp` holding moments to the second (a comment's, a transaction's), as GitHub's
 * comments say `created_at`, Trello's actions `date` and Stripe's events `created`.
 */
function createdAtFields(collection: CollectionShape): string[] {
  return [...collection.fields.values()]
    .filter((f) => {
      if (f.path.includes(".")) return false;
      const name = nameWords(f.path).join("_");
      const values = [...f.values.keys()];
      if (
        /^(created|creation|booked|placed|submitted|opened|requested|sent|posted|published)(_at|_on|_date|_time)?$/.test(
          name,
        )
      )
        return values.some((v) => /^\d{4}-\d{2}-\d{2}/.test(v));
      return (
        /^(date|timestamp|datetime|date_time)$/.test(name) &&
        values.length > 0 &&
        values.every((v) => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v))
      );
    })
    .map((f) => f.path);
}

/**
 * Ids like the collection's: from its counter, else the next after the largest; numbers
 * where its ids are numbers, else its keys' prefix and digit count, else a 3-letter prefix
 * from the noun for a new collection.
 */
export function mintOf(collection: CollectionShape | undefined, name: string, keyField: string) {
  const numeric = collection?.numericKeys ?? false;
  const counter = collection?.counter
    ? { counter: collection.counter.path.join("/"), counterHolds: collection.counter.holds }
    : {};
  if (numeric) return { prefix: "", width: 1, numeric: true, field: keyField, ...counter };
  const format = collection?.keyFormat;
  if (format?.digits !== undefined)
    return { prefix: format.prefix, width: Math.max(1, format.digits), field: keyField, ...counter };
  if (format) {
    const width = Math.min(12, Math.max(4, format.length - format.prefix.length));
    return { prefix: format.prefix, width, field: keyField, ...counter };
  }
  if (collection && collection.size === 0)
    return { prefix: "", width: 1, numeric: true, field: keyField, ...counter };
  const letters = nameWords(singular(name))
    .join("")
    .replace(/[^a-z]/g, "")
    .slice(0, 3)
    .toUpperCase();
  return { prefix: letters ? `${letters}-` : "", width: 4, field: keyField, ...counter };
}

/** An id the tool answers as text is minted as text, though it counts up from 1. */
function asAnswered<T extends { numeric?: boolean; field: string }>(ctx: Context, mint: T): T {
  const answered = ctx.facts.outputs.find((o) => o.name === mint.field);
  return mint.numeric && answered?.type === "string" ? { ...mint, numeric: false } : mint;
}

/** `booking` → `bookings`, `delivery_slot` → `delivery_slots`. */
export function pluralNoun(noun: string): string {
  const words = nameWords(noun);
  return [...words.slice(0, -1), plural(words.at(-1) ?? noun)].join("_");
}

/**
 * The things a record keeps a list of (a ticket's notes, an event's attendees, an order's
 * lines), named by the tool's noun: adding one puts it at the end, and one picked by a field
 * of its own (an attendee's email) is changed or removed in place, as the sub-resources of
 * GitHub's issues (comments, labels), Google Calendar's attendees and Stripe's line items are.
 */
/**
 * The record a key added to a list names must exist (a track added to a playlist), answered by
 * its not-found error: added here where the API documents none, as `referenceChecks` checks
 * those it documents.
 */
function keyExists(ctx: Context, referred: CollectionShape | undefined, rest: readonly Param[]): Draft[] {
  const param = referred && onlyKeyOf(rest, referred) ? rest.find((p) => p.required) : undefined;
  return param && referred ? existsUndocumented(ctx, referred, param) : [];
}

/**
 * The read that answers a record's not-found error where the API documents none (where it
 * documents one, `referenceChecks` makes the check): a key a list gains must name a record.
 */
export function existsUndocumented(ctx: Context, collection: CollectionShape, param: Param): Draft[] {
  if (notFoundError(ctx, collection, param.name, { add: false })) return [];
  const target = recordTarget(ctx, collection, `{${param.name}}`);
  const missing = notFoundError(ctx, collection, param.name, { add: true });
  return target && missing ? [{ kind: "read", target, missing }] : [];
}

/**
 * A list a record keeps beside a number that bounds it (`capacity`, `max_attendees`,
 * `seat_limit`) is full at that number: adding one more is refused (the documented "full"
 * error, or an added `<NOUN>_FULL`, 409), as Eventbrite's sold-out ticket classes, Meetup's RSVP
 * limit and a course's enrollment cap refuse one more.
 */
function capacityGuard(ctx: Context, collection: CollectionShape, list: string): Record<string, unknown>[] {
  const bounds = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      (f.types.has("integer") || f.types.has("number")) &&
      nameWords(f.path).some((w) => /^(capacity|limit|max|maximum)$/.test(w)),
  );
  const bound = bounds.length === 1 ? bounds[0]?.path : undefined;
  if (!bound) return [];
  const documented = ctx.facts.errors.find(
    (e) => /\bfull\b|capacity/i.test(e.text) || /FULL|CAPACITY/.test(e.code),
  );
  const noun = nameWords(singular(collection.name)).join("_").toUpperCase();
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${noun}_FULL`,
        status: 409,
        message: `The ${humanNoun(singular(collection.name))} is full.`,
        when: `The ${humanNoun(singular(collection.name))} holds as many as its ${bound} allows (inferred from its ${bound}).`,
      });
  ctx.notes.push(`refuses one more than ${bound} (${error})`);
  return [{ expr: `$count(${list}) < $subject.${identifier(bound)}`, error }];
}

/** Arguments that give a record of this collection by its key alone, no field of a new one. */
function onlyKeyOf(params: readonly Param[], collection: CollectionShape): boolean {
  const given = params.filter((p) => p.required);
  const key = collection.keyField;
  return given.length === 1 && key !== undefined && (given[0]?.name === key || given[0]?.name === `${key}s`);
}

export function elementRule(ctx: Context, subject: Reference, action: Action): Draft[] {
  // a verb that is the noun of what it adds (`tag_recipe`) adds one, whatever else it may update
  // as does a verb that gives a record something (`grant_role`)
  const verb = ctx.facts.verb ?? "";
  const acting = action === "update" && (NOUN_VERBS.has(verb) || JOIN_VERBS.has(verb)) ? "create" : action;
  const field = listFieldNamed(ctx, subject.collection, subject);
  const target = referenceTarget(ctx, subject);
  if (!field || !target) return [];
  const collection = subject.collection;
  const missing = notFoundError(ctx, collection, subject.param.name, { add: true });
  const binding = bindingName(collection);
  const rest = ctx.facts.params.filter((p) => p.name !== subject.param.name);
  const key = field.itemFields ? rest.find((p) => p.required && field.itemFields?.has(p.name)) : undefined;
  const answersElement =
    field.itemFields !== undefined &&
    ctx.facts.outputs.some((o) => field.itemFields?.has(o.name) && !collection.fields.has(o.name));
  const many = field.itemFields ? undefined : manyValues(ctx, subject, field.path, rest);
  if (many) return many;
  // a list of records with keys of their own (a list's cards) gets a new record like any collection
  const kept = keptCollection(ctx, collection, field.path);
  if (acting === "create" && kept?.keyField) return nestedCreate(ctx, kept, singular(field.path));
  // a list of another collection's keys (a writer's `essays`) gains a new record's id when one is
  // made there: what a create makes is the record, not a value of the list
  // made there: what a create makes is the record, not a value of the list; one given only the
  // key of a record that exists (`add_track_to_playlist(playlist_id, track_id)`) adds the key
  const referred = field.refersTo ? ctx.shape.collections.get(field.refersTo) : undefined;
  if (acting === "create" && !field.itemFields && referred && !onlyKeyOf(rest, referred)) return [];
  if (acting === "create") {
    const value = appendedValue(ctx, rest, field.itemFields);
    if (value === undefined) return [];
    const taken = ctx.facts.errors.find(
      (e) => /\balready\b/.test(e.text) || /ALREADY|EXISTS|DUPLICATE/.test(e.code),
    );
    const list = `$subject.${identifier(field.path)}`;
    // "a label it already has is left as it is": a plain value joins once, with no error
    if (!taken && typeof value === "string" && !field.itemFields && ONCE.test(ctx.facts.tool.description)) {
      const given = `$args.${identifier(value.slice(1, -1))}`;
      ctx.notes.push(
        `adds ${value.slice(1, -1)} to the ${field.path} of the ${humanNoun(collection.name)} ${subject.param.name} names, once`,
      );
      return [
        ...referenceChecks(ctx, subject, []),
        {
          kind: "update",
          target,
          ...(missing ? { missing } : {}),
          set: {
            [field.path]: {
              $expr: `${given} in ${list} ? ${list} : $append(${list} ? ${list} : [], ${given})`,
            },
          },
          as: binding,
          ...answerOf(ctx, collection, binding),
        },
        ...fieldAnswers(ctx, collection, binding),
      ];
    }
    const present = key
      ? `$count(${list}[${identifier(key.name)} = $args.${identifier(key.name)}]) = 0`
      : `$not($args.${identifier(rest.find((p) => p.required)?.name ?? "")} in ${list})`;
    ctx.notes.push(
      `appends to the ${field.path} of the ${humanNoun(collection.name)} ${subject.param.name} names${taken ? `, refusing one already there (${use(ctx, taken)})` : ""}`,
    );
    return [
      ...referenceChecks(ctx, subject, []),
      ...keyExists(ctx, referred, rest),
      {
        kind: "update",
        target,
        ...(missing ? { missing } : {}),
        require: [
          ...(taken ? [{ expr: present, error: taken.code }] : []),
          ...capacityGuard(ctx, collection, list),
        ],
        append: { [field.path]: value },
        as: binding,
        ...(answersElement ? {} : { output: wrapperOutput(ctx, collection) ?? "" }),
      },
      ...(answersElement
        ? [{ kind: "respond", value: { $expr: `$${binding}.${identifier(field.path)}[-1]` } }]
        : []),
    ];
  }
  if (acting === "delete" && !key && !field.itemFields)
    return plainValueRemoved(ctx, subject, field.path, rest);
  if (!key || (acting !== "update" && acting !== "delete")) return [];
  const noun = singular(field.path);
  const gone = notInListError(ctx, noun);
  const element = `${target}/${field.path}/[${key.name}={${key.name}}]`;
  const read: Draft = { kind: "read", target, ...(missing ? { missing } : {}), as: binding };
  const elementMissing = gone ? { missing: use(ctx, gone) } : {};
  if (acting === "delete") {
    ctx.notes.push(
      `removes the ${noun} whose ${key.name} is given from the ${field.path} of the ${humanNoun(collection.name)}`,
    );
    return [read, { kind: "delete", target: element, ...elementMissing, as: "element", output: "" }];
  }
  const set: Record<string, unknown> = {};
  for (const param of rest)
    if (param !== key && field.itemFields?.has(param.name)) set[param.name] = `{${param.name}}`;
  if (Object.keys(set).length === 0) return [];
  ctx.notes.push(
    `sets ${Object.keys(set).join(", ")} of the ${noun} whose ${key.name} is given, in the ${humanNoun(collection.name)}'s ${field.path}`,
  );
  return [
    read,
    { kind: "update", target: element, ...elementMissing, require: [], set, as: "element", output: "" },
  ];
}

/**
 * Values given as an array join a record's list of plain values once each (`mention(post_id,
 * usernames)`, `tag(photo_id, tags)`), or leave it, by the verb: GitHub's
 * `POST /issues/{n}/labels` adds the labels the issue lacks, Trello's card `idMembers` and
 * Todoist's task `labels` take several at once.
 */
function manyValues(
  ctx: Context,
  subject: Reference,
  path: string,
  rest: readonly Param[],
): Draft[] | undefined {
  const verb = ctx.facts.verb ?? "";
  const joining = JOIN_VERBS.has(verb) ? true : LEAVE_VERBS.has(verb) ? false : undefined;
  const arrays = rest.filter((p) => p.required && p.type === "array" && p.itemType !== "object");
  const target = referenceTarget(ctx, subject);
  if (
    joining === undefined ||
    arrays.length !== 1 ||
    rest.some((p) => p.required && p !== arrays[0]) ||
    !target
  )
    return undefined;
  const param = arrays[0] as Param;
  const list = `$subject.${identifier(path)}`;
  const given = `$args.${identifier(param.name)}`;
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  const binding = bindingName(subject.collection);
  ctx.notes.push(
    `${joining ? "adds" : "removes"} each of ${param.name} ${joining ? "to" : "from"} the ${path} of the ${humanNoun(subject.collection.name)} ${subject.param.name} names${joining ? ", once" : ""}`,
  );
  const value = joining
    ? `[$append(${list}, [${given}][$not($ in ${list})])]`
    : `[${list}[$not($ in ${given})]]`;
  return [
    ...referenceChecks(ctx, subject, []),
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      set: { [path]: { $expr: value } },
      as: binding,
      ...answerOf(ctx, subject.collection, binding),
    },
    ...fieldAnswers(ctx, subject.collection, binding),
  ];
}

function keptCollection(ctx: Context, holder: CollectionShape, path: string): CollectionShape | undefined {
  const at = [...holder.path, "*", path].join("/");
  return [...ctx.shape.nested.values()].find((c) => c.path.join("/") === at);
}

/**
 * The documented error for an element a record's list lacks: the not-found error naming its
 * noun, else one saying it is not among them ("not in the playlist", "has no such label").
 */
function notInListError(ctx: Context, noun: string): ErrorFact | undefined {
  return (
    ctx.facts.errors.find((e) => e.kind === "not-found" && e.noun !== undefined && sameName(e.noun, noun)) ??
    ctx.facts.errors.find((e) =>
      /not (among|in|on|part of)\b|isn't (among|in|on)\b|has no such\b/.test(e.text),
    )
  );
}

/** A description saying a value already there is left as it is: the add is idempotent, not refused. */
const ONCE =
  /\b(left as it is|already (has|there|present)[^.]*(left|kept|nothing)|changes nothing|no-op|idempotent)\b/i;

/**
 * A plain value taken out of a record's list (a label off a card): the list without it; one
 * the list lacks answers the documented error that names its noun or says it is not there, as
 * GitHub's `DELETE …/labels/{name}` answers 404 for a label the issue lacks and Trello's
 * `DELETE /cards/{id}/idLabels/{idLabel}` does for one the card lacks.
 */
function plainValueRemoved(ctx: Context, subject: Reference, path: string, rest: readonly Param[]): Draft[] {
  const required = rest.filter((p) => p.required && p.type !== "object" && p.type !== "array");
  const target = referenceTarget(ctx, subject);
  if (required.length !== 1 || !target) return [];
  const param = required[0] as Param;
  const noun = singular(path);
  const gone = notInListError(ctx, noun);
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  const given = `$args.${identifier(param.name)}`;
  const list = `$subject.${identifier(path)}`;
  ctx.notes.push(
    `removes ${param.name} from the ${path} of the ${humanNoun(subject.collection.name)} ${subject.param.name} names${gone ? ` (${use(ctx, gone)} where it is not there)` : ""}`,
  );
  return [
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      require: gone ? [{ expr: `${given} in ${list}`, error: gone.code }] : [],
      set: { [path]: { $expr: `[${list}[$ != ${given}]]` } },
      as: bindingName(subject.collection),
      ...answerOf(ctx, subject.collection, bindingName(subject.collection)),
    },
    ...fieldAnswers(ctx, subject.collection, bindingName(subject.collection)),
  ];
}

/** An answer of only some of the record's fields (`{labels}`) gives those; any other, the record. */
function answerOf(ctx: Context, collection: CollectionShape, binding: string): { output?: string } {
  if (fieldAnswers(ctx, collection, binding).length > 0) return {};
  const wrapper = wrapperOutput(ctx, collection);
  if (wrapper) return { output: wrapper };
  // an answer that names none of the record's fields (`{reply_status}`) is not the record
  const outputs = ctx.facts.outputs;
  return outputs.length > 0 && !outputs.some((o) => collection.fields.has(o.name)) ? {} : { output: "" };
}

function fieldAnswers(ctx: Context, collection: CollectionShape, binding: string): Draft[] {
  const outputs = ctx.facts.outputs;
  const some = outputs.length > 0 && outputs.length < collection.fields.size / 2;
  if (!some || !outputs.every((o) => collection.fields.has(o.name))) return [];
  return outputs.map((o) => ({
    kind: "respond",
    output: o.name,
    value: { $expr: `$${binding}.${identifier(o.name)}` },
  }));
}

/**
 * The record's one array field the tool's name names (`notes` for `add_ticket_note`), else
 * the one whose records have a field for every other argument (an attendee's email and rsvp).
 */
function listFieldNamed(ctx: Context, collection: CollectionShape, subject: Reference) {
  const rest = ctx.facts.params.filter((p) => p.name !== subject.param.name);
  const holding = [...collection.fields.values()].filter(
    (f) => !f.path.includes(".") && rest.length >= 2 && rest.every((p) => f.itemFields?.has(p.name)),
  );
  return namedListField(ctx, collection) ?? (holding.length === 1 ? holding[0] : undefined);
}

function namedListField(ctx: Context, collection: CollectionShape) {
  const own = new Set(nameWords(collection.name).map(singular));
  const words = new Set(
    ctx.facts.words.filter((w) => w !== ctx.facts.verb && !own.has(singular(w))).map(singular),
  );
  // a verb that puts values into a list of its own name (`mention` → `mentions`, `tag` → `tags`,
  // `comment_on_issue` → an issue's `comments`)
  const verb = ctx.facts.verb;
  if (verb && (JOIN_VERBS.has(verb) || LEAVE_VERBS.has(verb) || NOUN_VERBS.has(verb)))
    words.add(verb.replace(/^un/, ""));
  // or a list named for who the verb was done to (`register_for_talk` → a talk's `registered`,
  // `unregister_from_talk` takes from it), as Eventbrite's and Meetup's attendee lists are
  const done = verb ? participle(verb.replace(/^un(?=[a-z]{4})/, "")) : undefined;
  const arrays = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("array") &&
      (words.has(singular(listNoun(f.path))) || (done !== undefined && f.path === done)),
  );
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** Verbs that are the noun of what they add: a comment, a note, a review, a reply, a tag, a label. */
const NOUN_VERBS: ReadonlySet<string> = new Set(["comment", "note", "review", "reply", "tag", "label"]);

/** What a list holds, by its name: `labels` → label, `track_ids` → track (the keys of tracks). */
function listNoun(name: string): string {
  const words = nameWords(name);
  const last = words.at(-1) ?? "";
  return /^(ids|keys)$/.test(last) && words.length > 1 ? (words.at(-2) ?? "") : last;
}

/**
 * A list of plain values gains the one argument left; a list of records, one made of the
 * arguments, the clock in its time fields and the values the description gives the rest
 * ("added with the RSVP 'needs_action'").
 */
function appendedValue(
  ctx: Context,
  rest: readonly Param[],
  itemFields: ReadonlySet<string> | undefined,
): unknown {
  if (!itemFields || itemFields.size === 0) {
    const required = rest.filter((p) => p.required && p.type !== "object" && p.type !== "array");
    return required.length === 1 ? `{${(required[0] as Param).name}}` : undefined;
  }
  const item: Record<string, unknown> = {};
  for (const name of itemFields) {
    const param = rest.find((p) => p.name === name);
    const stated = new RegExp(
      `\\b${nameWords(name).join("[ _]")}\\b[^.'"]{0,20}['"]([^'"]{1,40})['"]`,
      "i",
    ).exec(ctx.facts.tool.description)?.[1];
    if (param) item[name] = `{${param.name}}`;
    else if (/(^|_)(at|time|timestamp|date)$|At$/.test(name)) item[name] = "{$now}";
    else if (stated) item[name] = stated;
  }
  return Object.keys(item).some((k) => rest.some((p) => p.name === k)) ? item : undefined;
}

/**
 * Taking a record that keeps whether it is taken as a flag named for the verb (`rent_locker`
 * and a locker's `rented`, `reserve_seat` and `is_reserved`) sets the flag, refusing one
 * already taken: a seat map's `available` seats (Ticketmaster), a bike share's docked bikes
 * (GBFS `is_reserved`), a library copy's `checked_out`.
 */
export function takenByFlag(ctx: Context, named: CollectionShape): Draft[] | undefined {
  const verb = ctx.facts.verb;
  const reference = ctx.references.find((r) => !r.many && r.collection === named);
  if (!verb || !reference) return undefined;
  const state = participle(verb);
  const flags = [...named.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      f.types.has("boolean") &&
      f.types.size === 1 &&
      flagName(f.path).state === state,
  );
  const flag = flags.length === 1 ? flags[0] : undefined;
  const target = flag ? referenceTarget(ctx, reference) : undefined;
  if (!flag || !target) return undefined;
  const missing = notFoundError(ctx, named, reference.param.name, { add: true });
  const noun = nameWords(singular(named.name)).join("_").toUpperCase();
  const documented = ctx.facts.errors.find((e) => /\balready\b/i.test(e.text) || /ALREADY/.test(e.code));
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${noun}_ALREADY_${state.toUpperCase().replace(/\W+/g, "_")}`,
        status: 409,
        message: `The ${humanNoun(singular(named.name))} is already ${state}.`,
        when: `The ${humanNoun(singular(named.name))} is ${state} already (inferred from its ${flag.path}).`,
      });
  ctx.notes.push(
    `sets ${flag.path} of the ${humanNoun(singular(named.name))} ${reference.param.name} names, refusing one already ${state} (${error})`,
  );
  return [
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      require: [{ expr: `$subject.${identifier(flag.path)} != true`, error }],
      set: { [flag.path]: true },
      as: "taken",
      output: "",
    },
  ];
}
