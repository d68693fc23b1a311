import escapeRegExp from "escape-string-regexp";
import { unchangedRefused, valuesNeedingField } from "./conditions.js";
import { addError, addGap, type Context, humanNoun, notFoundError, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import {
  actionFieldFor,
  fieldFor,
  nowFields,
  recordFieldFor,
  requiredStatuses,
  statedValues,
  statusAfter,
} from "./fields.js";
import { referenceChecks, statusGuards, vacantGuards } from "./guards.js";
import { refundDestination, sharedFields } from "./payments.js";
import { ownGuard, signedInRead } from "./principal.js";
import { bindingName, identifier, keyEcho, wrapperOutput } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";
import { stockReturned, takenFromHolder } from "./stock.js";
import { recordTarget, referenceTarget } from "./targets.js";
import { transitionsOf } from "./transitions.js";
import { flagName, nameWords, participle, partNoun, plural, sameNoun, singular } from "./words.js";

/** Updates and deletes of records in collections, with the changes their texts state. */

export function updateRule(ctx: Context, subject: Reference): Draft[] {
  const target = referenceTarget(ctx, subject);
  if (!target) return [];
  const collection = subject.collection;
  const binding = bindingName(collection);
  const bound = { collection, binding };
  const set = mergedObjects(ctx, collection, argumentFields(ctx, subject));
  const inc = statedCounts(ctx, collection);
  // a call the description says only counts (a view, a click) leaves no status the records lack
  const counted = Object.keys(inc).length > 0;
  const found = statusAfter(ctx, collection);
  const status = found?.invented && counted ? undefined : found;
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
    ...resultBounds(ctx, inc),
    ...unchangedRefused(ctx, set),
    ...valuesNeedingField(ctx, collection.fields, set),
    ...vacant,
    ...(status ? flagAlreadySet(ctx, collection, status.field, set[status.field]) : []),
    ...statusGuards(ctx, collection, status?.value),
    ...(own ? [own.guard] : []),
    ...refundDestination(ctx, collection),
  ];
  if (status)
    for (const [field, value] of Object.entries(learnedChanges(ctx, collection, status.field, status.value)))
      set[field] ??= value;
  Object.assign(set, emptiedFields(ctx, collection, set), statedValues(ctx, collection, set));
  Object.assign(set, nowFields(ctx, collection, set));
  const relinked = relinkedFields(ctx, collection, set);
  const checks = [...referenceChecks(ctx, subject, [bound]), ...takenFromHolder(ctx, collection, binding)];
  const placed = wrapperOutput(ctx, collection);
  const zero = removedAtZero(ctx, set);
  return [
    ...(own ? [signedInRead(own.principal)] : []),
    ...relinked,
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      require,
      set,
      ...(counted ? { inc } : {}),
      as: binding,
      output: placed ?? "",
      ...(zero ? { when: `$not(${zero})` } : {}),
    },
    ...(zero ? [{ kind: "delete" as const, target, when: zero, as: binding, output: "" }] : []),
    ...checks,
    ...(placed ? [] : keyEcho(ctx, subject)),
  ];
}

/**
 * `ALREADY_ARCHIVED` for an archive that sets `archived`, `NOT_ARCHIVED` for an unarchive that clears it: a
 * documented error naming the flag with "already" or "not" refuses a record whose flag holds the
 * value the call would give it, as GitHub refuses archiving an archived repository and Stripe
 * pausing a paused subscription.
 */
function flagAlreadySet(
  ctx: Context,
  collection: CollectionShape,
  field: string,
  value: unknown,
): Array<Record<string, unknown>> {
  if (typeof value !== "boolean" || !collection.fields.get(field)?.types.has("boolean")) return [];
  const words = nameWords(field)
    .filter((w) => w !== "is")
    .join(" ");
  const error = ctx.facts.errors.find((e) => {
    const said = `${e.text} ${nameWords(e.code).join(" ")}`;
    return new RegExp(`\\b(already|not)\\s+(?:been\\s+)?${escapeRegExp(words)}\\b`).test(said);
  });
  if (!error) return [];
  ctx.notes.push(`refuses a record whose ${field} is already ${value} (${use(ctx, error)})`);
  return [{ expr: `$subject.${identifier(field)} != ${value}`, error: error.code }];
}

/**
 * "A quantity of 0 removes the line": the call whose amount is zero deletes the record instead
 * of setting it, as Shopify's `cart/change.js`, Stripe's subscription items (`quantity: 0` with
 * deletion) and commercetools' `changeLineItemQuantity` do. The test on the arguments, or none.
 */
function removedAtZero(ctx: Context, set: Readonly<Record<string, unknown>>): string | undefined {
  for (const param of ctx.facts.params) {
    if (
      (param.type !== "integer" && param.type !== "number") ||
      !Object.values(set).includes(`{${param.name}}`)
    )
      continue;
    const words = nameWords(param.name).map(escapeRegExp).join("[ _]");
    const said = new RegExp(
      `\\b(?:a|an|the)?\\s*${words}\\s+of\\s+(?:0|zero)\\s+(?:removes|deletes|drops)\\b`,
      "i",
    );
    if (!said.test(ctx.facts.tool.description)) continue;
    ctx.notes.push(`deletes the record when ${param.name} is 0 (the description says so)`);
    return `$args.${identifier(param.name)} = 0`;
  }
  return undefined;
}

const STEP_WORDS: Readonly<Record<string, number>> = { one: 1, "1": 1, two: 2, "2": 2 };

/**
 * Numbers the description says a call moves ("its reboot count goes up by one", "the retry
 * count is incremented"), by their field's words: Kubernetes' `restartCount` of a restarted
 * container, Stripe's `attempt_count` of an invoice paid again, GitHub's `run_attempt` of a
 * workflow run re-run.
 */
export function statedCounts(ctx: Context, collection: CollectionShape): Record<string, number | string> {
  const text = ctx.facts.text.toLowerCase().replace(/[`*]/g, "");
  const moved: Record<string, number | string> = {};
  for (const field of collection.fields.values()) {
    if (field.path.includes(".") || !(field.types.has("integer") || field.types.has("number"))) continue;
    const words = nameWords(field.path).map(escapeRegExp).join("[ _]");
    const byArgument = movedByArgument(ctx, text, words);
    if (byArgument) {
      moved[field.path] = byArgument;
      ctx.notes.push(`moves ${field.path} by ${byArgument.replace(/[{}]/g, "")} (the description says so)`);
      continue;
    }
    const said =
      new RegExp(
        `\\b${words}\\s+(?:goes|go|is|are)?\\s*(up|down|increases|decreases|incremented|decremented|rises|drops|falls)(?:\\s+by\\s+(one|two|1|2))?\\b`,
      ).exec(text) ??
      // "increments its ascents by 1", "decrements the record's seats_left by one"
      new RegExp(
        `\\b(increments?|decrements?|increases?|decreases?)\\s+(?:(?:its|their|the|this)\\s+)?(?:[a-z]+'s\\s+)?${words}(?:\\s+by\\s+(one|two|1|2))?\\b`,
      ).exec(text);
    // "counting one click", "records a download": one more of what the field counts
    const noun = nameWords(field.path).map(singular).join(" ");
    const once = new RegExp(
      `\\b(?:counts?|counting|records?|recording|adds?|adding)\\s+(?:one|a|an|1)\\s+${escapeRegExp(noun).replace(/ /g, "[ _]")}\\b`,
    );
    if (!said && once.test(text)) {
      moved[field.path] = 1;
      ctx.notes.push(`moves ${field.path} by 1 (the description counts one ${noun})`);
      continue;
    }
    if (!said) continue;
    const step = STEP_WORDS[said[2] ?? "one"] ?? 1;
    const down = /^(down|decreases?|decrement(ed|s)?|drops|falls)$/.test(said[1] ?? "");
    moved[field.path] = down ? -step : step;
    ctx.notes.push(`moves ${field.path} by ${moved[field.path]} (the description says so)`);
  }
  return moved;
}

/**
 * "boxes becomes boxes + delta", "seats = seats - count", "increases its stock by quantity":
 * a number moved by an argument, as a template for `inc` (`"-{count}"` takes away).
 */
function movedByArgument(ctx: Context, text: string, field: string): string | undefined {
  for (const param of ctx.facts.params) {
    if (param.type !== "integer" && param.type !== "number") continue;
    const name = [escapeRegExp(param.name.toLowerCase()), param.words.map(escapeRegExp).join("[ _]")].join(
      "|",
    );
    const sum = new RegExp(
      String.raw`\b${field}\s+(?:becomes|=|is set to|changes to)\s+(?:its\s+)?${field}\s*([+-]|plus|minus)\s*(?:the\s+)?(?:${name})\b`,
    ).exec(text);
    const verb = new RegExp(
      String.raw`\b(increases?|increments?|raises?|decreases?|decrements?|reduces?|lowers?)\s+(?:its\s+|the\s+)?(?:[a-z]+'s\s+)?${field}\s+by\s+(?:the\s+)?(?:given\s+)?(?:${name})\b`,
    ).exec(text);
    const sign = sum?.[1] ?? verb?.[1];
    if (sign === undefined) continue;
    const down = /^(-|minus|decrease|decrement|reduce|lower)/.test(sign);
    return `${down ? "-" : ""}{${param.name}}`;
  }
  return undefined;
}

/**
 * "BOX_LIMIT - boxes + delta would be below 1 or above 5": the documented error for a number
 * moved by an argument past its bounds, checked on the value the move would leave, as quota
 * APIs refuse a change that would leave a count out of range (AWS Auto Scaling's min and max
 * size, Kubernetes' replicas, a cart line's quantity).
 */
function resultBounds(
  ctx: Context,
  inc: Readonly<Record<string, number | string>>,
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const [field, moved] of Object.entries(inc)) {
    if (typeof moved !== "string") continue;
    const param = /\{([^{}]+)\}/.exec(moved)?.[1];
    if (!param) continue;
    const words = nameWords(field).map(escapeRegExp).join("[ _]");
    const name = escapeRegExp(param.toLowerCase());
    for (const error of ctx.facts.errors) {
      const text = error.text.replace(/[`*]/g, "");
      const said = new RegExp(
        String.raw`\b${words}\s*[+-]\s*${name}\b[^.;]*?\b(?:below|less than|under|lower than)\s+(-?\d+(?:\.\d+)?)(?:\s+or\s+(?:above|more than|over|greater than|higher than)\s+(-?\d+(?:\.\d+)?))?`,
      ).exec(text);
      if (!said) continue;
      const after = `($subject.${identifier(field)} + ${moved.startsWith("-") ? "-" : ""}$args.${identifier(param)})`;
      const bounds = [`${after} >= ${said[1]}`, ...(said[2] ? [`${after} <= ${said[2]}`] : [])];
      out.push({ expr: bounds.join(" and "), error: use(ctx, error) });
      ctx.notes.push(
        `refuses a ${field} outside ${said[1]}${said[2] ? `..${said[2]}` : " or more"} after the move (${error.code})`,
      );
      break;
    }
  }
  return out;
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
    const field =
      fieldFor(param, subject.collection) ??
      linkFieldFor(ctx, param, subject.collection) ??
      actionFieldFor(ctx, param, subject.collection) ??
      recordFieldFor(ctx, param);
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

/**
 * The field that names a record of the kind an argument names by its key, called by that
 * kind's noun (`coupon` of a cart, given a coupon's `code`): applying a coupon to a cart, a
 * plan to a subscription, a label to an issue sets it, as Stripe's `discounts` and Shopify's
 * `discount_code` of a checkout do.
 */
function linkFieldFor(ctx: Context, param: Param, collection: CollectionShape): string | undefined {
  const named = ctx.references.find((r) => r.param === param && r.collection !== collection && !r.many);
  if (!named) return undefined;
  const fields = [...collection.fields.values()].filter(
    (f) => !f.path.includes(".") && !f.types.has("array") && sameNoun(f.path, named.collection.name),
  );
  return fields.length === 1 ? fields[0]?.path : undefined;
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
      require: [
        ...inUseGuards(ctx, subject),
        ...statusGuards(ctx, subject.collection),
        ...(own ? [own.guard] : []),
      ],
      as: bindingName(subject.collection),
      output: wrapperOutput(ctx, subject.collection) ?? "",
    },
    ...referenceChecks(ctx, subject, []),
    ...stockReturned(ctx, subject.collection),
    ...removalAnswers(ctx, subject),
  ];
}

/**
 * `{deleted_id, remaining_count}`: a delete answers the key it removed under the participle
 * (`deleted_id`, `removed_key`, or a bare `removed` of the key's type), and the number of
 * records left after it, as Stripe's deletes answer `{id, deleted: true}`, Pinecone's and
 * Qdrant's deletes the ids removed, and batch deletes of Firebase and S3 what was removed and
 * what is left.
 */
function removalAnswers(ctx: Context, subject: Reference): Draft[] {
  const drafts: Draft[] = [];
  const param = subject.param.name;
  for (const output of ctx.facts.outputs) {
    if (subject.collection.fields.has(output.name)) continue;
    const words = nameWords(output.name);
    const [first, ...rest] = words;
    if (/^(deleted|removed|erased|purged)$/.test(first ?? "")) {
      const named = rest.join("_");
      // a bare `removed` holds what was removed where it is of the key's type (not Stripe's `deleted: true`)
      const bare = rest.length === 0 && output.type !== undefined;
      if (
        !bare &&
        named !== param &&
        !/^(id|key|slug|code|name)$/.test(named) &&
        !nameWords(param).includes(named)
      )
        continue;
      if (output.type !== undefined && output.type !== subject.param.type) continue;
      drafts.push({ kind: "respond", output: output.name, value: `{${param}}` });
      ctx.notes.push(`answers ${output.name} as the ${param} given`);
    } else if (
      words.some((w) => /^(remaining|left)$/.test(w)) &&
      (words.includes("count") || output.type === "integer")
    ) {
      const at = JSON.stringify(subject.collection.path.join("/"));
      const records = subject.collection.container === "map" ? `$keys($entity(${at}))` : `$entity(${at})`;
      drafts.push({ kind: "respond", output: output.name, value: { $expr: `$count(${records})` } });
      ctx.notes.push(`answers ${output.name} as the ${humanNoun(subject.collection.name)} left after it`);
    }
  }
  return drafts;
}

/**
 * "LOCATION_NOT_EMPTY if any location has it as `parent` or any item has it as `location`":
 * a delete refused while records of the state point to the one it removes, with the documented
 * error, as AWS answers `DependencyViolation` for a VPC with subnets, Stripe refuses deleting a
 * product with prices, and a Kubernetes namespace waits on what is in it.
 */
function inUseGuards(ctx: Context, subject: Reference): Array<Record<string, unknown>> {
  const key = `$args.${identifier(subject.param.name)}`;
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const text = error.text.replace(/[`*]/g, "");
    const clauses = [
      ...text.matchAll(
        /\bany\s+([a-z][a-z_ ]*?)\s+(?:has|have|holds?|keeps?)\s+it\s+as\s+(?:its\s+)?([a-z][a-z0-9_]*)/g,
      ),
    ];
    const pointing = clauses.flatMap((clause) => {
      const noun = (clause[1] ?? "").trim().replace(/ /g, "_");
      const field = clause[2] ?? "";
      const collection = [...ctx.shape.collections.values()].find(
        (c) =>
          !c.parent &&
          c.fields.has(field) &&
          (sameNoun(noun, c.name) || singular(nameWords(c.name).at(-1) ?? "") === singular(noun)),
      );
      return collection ? [{ collection, field }] : [];
    });
    if (pointing.length === 0 || pointing.length !== clauses.length) continue;
    // the message and the condition may say it twice
    const distinct = pointing.filter(
      (p, i) => pointing.findIndex((o) => o.collection === p.collection && o.field === p.field) === i,
    );
    const counts = distinct.map(({ collection, field }) => {
      const at = JSON.stringify(collection.path.join("/"));
      const records =
        collection.container === "map" ? `$each($entity(${at}), function($v) { $v })` : `$entity(${at})`;
      return `$count(${records}[${identifier(field)} = ${key}]) = 0`;
    });
    ctx.notes.push(
      `refuses while ${distinct.map(({ collection, field }) => `${collection.name}.${field}`).join(" or ")} point to it (${error.code})`,
    );
    return [{ expr: counts.join(" and "), error: use(ctx, error) }];
  }
  return [];
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
