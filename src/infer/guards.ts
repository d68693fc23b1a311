import escapeRegExp from "escape-string-regexp";
import { flagValueError, knownValues } from "./conditions.js";
import { addError, type Context, humanNoun, notFoundError, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { Param } from "./facts.js";
import { requiredStatuses, statusField } from "./fields.js";
import { bindingName, identifier } from "./reads.js";
import type { Reference } from "./resolve.js";
import type { CollectionShape } from "./shape.js";
import { type Bound, recordTarget, referenceTarget } from "./targets.js";
import { nameWords, participle, plural, singular } from "./words.js";

/**
 * The checks a change is refused by: the other records it names must exist, and the subject's
 * status, flags, still empty fields and room in its lists must allow it, as its texts state.
 */

/**
 * "it replaces the current occupant", "moves a shift that already has a different worker",
 * "or re-assigns it": the call may overwrite the field, so an empty one is no condition (an
 * "unassigned" the answer's docs mention is then a value, not a rule).
 */
const REPLACES =
  /\bre-?assign|\bor re[a-z]{3,}s\b|\balready (?:had|has) (?:a|an) (?:different|other)\b|\b(?:replaces?|overwrites?) (?:the |any |an? )?(?:existing|current|previous)\b/i;

/**
 * "Assign an employee to a shift that nobody works yet", "an unassigned ticket": the fields the
 * call sets must still be empty, as GitHub refuses a second reviewer request where one is
 * pending and a rota refuses a worked shift: the documented error, else an added
 * `<NOUN>_ALREADY_<VERB>ED`, 409.
 */
export function vacantGuards(
  ctx: Context,
  collection: CollectionShape,
  set: Readonly<Record<string, unknown>>,
): Array<Record<string, unknown>> {
  if (
    !/\b(?:nobody|no one|none)\b[^.]*\byet\b|\bunassigned\b|\bnot yet (?:assigned|taken|claimed)\b/i.test(
      ctx.facts.text,
    ) ||
    REPLACES.test(ctx.facts.text)
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
  return [
    ...statusFieldGuards(ctx, collection, after),
    ...timedGuards(ctx, collection),
    ...flagGuards(ctx, collection),
    ...nonEmptyGuards(ctx, collection),
    ...actorGuards(ctx, collection),
  ];
}

/**
 * "already_closed" beside a `closed_at` the records keep: a record whose time of that
 * change is set is refused, as GitHub refuses closing what has a `closed_at` and Stripe
 * cancelling what has a `canceled_at`.
 */
function timedGuards(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const guards: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const done = /\balready\s+([a-z]+ed)\b/.exec(`${nameWords(error.code).join(" ")} ${error.text}`)?.[1];
    const field = done ? collection.fields.get(`${done}_at`) : undefined;
    if (!field || field.path.includes(".")) continue;
    const at = `$subject.${identifier(field.path)}`;
    guards.push({ expr: `$not($exists(${at})) or ${at} = null`, error: use(ctx, error) });
    ctx.notes.push(`refuses a record whose ${field.path} is set (${error.code})`);
  }
  return guards;
}

/**
 * "Only the submitting employee's manager may approve", "only its owner can delete it": the
 * person the call names (`approver_id`, `user_id`) must be the one the record names, directly
 * (its `owner`) or through the record it links to (its employee's `manager_id`), else the
 * documented error that says so, or an added `<ACTOR>_NOT_<ROLE>`, 403. GitHub lets only a
 * repository's admins delete it, Expensify and Concur route a report to the submitter's
 * manager, Google Drive lets only the owner transfer a file.
 */
function actorGuards(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const text = ctx.facts.tool.description;
  const linked = /\bonly (?:the |its )?(?:[a-z]+ )?([a-z]+)'s ([a-z]+) (?:may|can)\b/i.exec(text);
  const direct = linked ? undefined : /\bonly (?:the |its )([a-z]+) (?:may|can)\b/i.exec(text);
  if (!linked && !direct) return [];
  const fieldNamed = (shape: CollectionShape, noun: string) =>
    [...shape.fields.values()].find(
      (f) => !f.path.includes(".") && singular(nameWords(f.path)[0] ?? "") === singular(noun.toLowerCase()),
    );
  const subjectKey = ctx.references.find((r) => r.collection === collection)?.param.name;
  const actors = ctx.facts.params.filter(
    (p) =>
      p.type === "string" &&
      p.name !== subjectKey &&
      (p.identifier || /(er|or)$/.test(nameWords(p.name)[0] ?? "")),
  );
  const actor = actors.length === 1 ? actors[0] : undefined;
  if (!actor) return [];
  let expected: string | undefined;
  let role = "";
  if (linked) {
    const link = fieldNamed(collection, linked[1] ?? "");
    const other = link?.refersTo ? ctx.shape.collections.get(link.refersTo) : undefined;
    const field = other ? fieldNamed(other, linked[2] ?? "") : undefined;
    if (!link || !other || !field || other.parent) return [];
    expected = `$entity(${JSON.stringify(other.name)}, $subject.${identifier(link.path)}).${identifier(field.path)}`;
    role = linked[2] ?? "";
  } else {
    const field = fieldNamed(collection, direct?.[1] ?? "");
    if (!field) return [];
    expected = `$subject.${identifier(field.path)}`;
    role = direct?.[1] ?? "";
  }
  const documented = ctx.facts.errors.find(
    (e) => e.kind !== "not-found" && /\bonly\b|not allowed|forbidden|permission/i.test(e.text),
  );
  const who = nameWords(actor.name).filter((w) => w !== "id");
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${who.join("_").toUpperCase()}_NOT_${role.toUpperCase()}`,
        status: 403,
        message: `The ${who.join(" ")} is not the ${role.toLowerCase()}.`,
        when: `The ${actor.name} given is not the ${role.toLowerCase()} the ${nameWords(singular(collection.name)).join(" ")} names (inferred from the tool's description).`,
      });
  ctx.notes.push(`requires ${actor.name} to be the ${role.toLowerCase()} the record names (${error})`);
  return [{ expr: `$args.${identifier(actor.name)} = ${expected}`, error }];
}

/**
 * "Each line must not exceed the policy limit for its category": the amount given may be at
 * most the number a map of the state keeps under the value of another argument, where the
 * map's keys are that argument's allowed values and its name shares a word with the phrase
 * (`category_limits_cents` of `policy`, keyed by the categories). Ramp's and Brex's spend
 * limits per category, Stripe Issuing's spending controls per merchant category, and rate
 * limits per plan work this way. The documented error that speaks of a limit, else an added
 * `<AMOUNT>_OVER_LIMIT`, 409.
 */
export function keyedLimitGuards(ctx: Context): Array<Record<string, unknown>> {
  const said =
    /\b(?:must not|cannot|can't|may not) exceed (?:the |its )?([a-z ]{2,40}?) (?:for|of) (?:its|the|their) ([a-z_]+)/i.exec(
      ctx.facts.tool.description,
    );
  if (!said) return [];
  const numbers = ctx.facts.params.filter(
    (p) => (p.type === "number" || p.type === "integer") && !p.identifier,
  );
  const amount = numbers.length === 1 ? numbers[0] : undefined;
  const selector = ctx.facts.params.find(
    (p) => Array.isArray(p.schema.enum) && singular(p.name) === singular((said[2] ?? "").toLowerCase()),
  );
  if (!amount || !selector) return [];
  const allowed = (selector.schema.enum as unknown[]).map(String);
  const phrase = new Set((said[1] ?? "").toLowerCase().split(/\s+/).map(singular));
  const found = ctx.states.flatMap((state) => numberMaps(state, [], allowed));
  const maps = found.filter((m) =>
    m.path.some((segment) =>
      nameWords(segment)
        .map(singular)
        .some((w) => phrase.has(w)),
    ),
  );
  const map = maps.length === 1 ? maps[0] : undefined;
  if (!map) return [];
  const documented = ctx.facts.errors.find((e) => e.kind !== "not-found" && /\blimit|exceed/i.test(e.text));
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${nameWords(amount.name).join("_").toUpperCase()}_OVER_LIMIT`,
        status: 409,
        message: `The ${nameWords(amount.name).join(" ")} is over the ${said[1]} for its ${selector.name}.`,
        when: `The ${amount.name} is more than ${map.path.join(".")} keeps for the ${selector.name} given (inferred from the tool's description).`,
      });
  ctx.notes.push(
    `requires ${amount.name} at most ${map.path.join(".")} under the ${selector.name} given (${error})`,
  );
  const at = `$entity(${map.path.map((s) => JSON.stringify(s)).join(", ")})`;
  return [
    { expr: `$args.${identifier(amount.name)} <= $lookup(${at}, $args.${identifier(selector.name)})`, error },
  ];
}

/** Maps (up to three levels down) of numbers keyed by exactly the values given. */
function numberMaps(value: unknown, path: string[], keys: readonly string[]): Array<{ path: string[] }> {
  if (!value || typeof value !== "object" || Array.isArray(value) || path.length > 3) return [];
  const entries = Object.entries(value as Record<string, unknown>);
  const own =
    path.length > 0 &&
    entries.length === keys.length &&
    keys.every((k) => typeof (value as Record<string, unknown>)[k] === "number")
      ? [{ path }]
      : [];
  return [...own, ...entries.flatMap(([k, v]) => numberMaps(v, [...path, k], keys))];
}

/**
 * "A report must contain at least one expense line to be submitted": the record's list of
 * them (the one its name names, else its one list of records) may not be empty, with the
 * documented error that says so, else an added `<NOUN>_EMPTY`, 409. GitHub refuses a pull
 * request with no commits, Stripe finalizing an invoice without lines, Shopify a draft order
 * without line items.
 */
function nonEmptyGuards(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const said =
    /\bmust (?:contain|have|hold|include) at least one ([a-z][a-z ]{1,40}?)(?:\s+(?:to|before|in order)\b|[.;,]|$)/i.exec(
      ctx.facts.tool.description,
    )?.[1];
  if (!said) return [];
  const words = said.toLowerCase().split(/\s+/).map(singular);
  const lists = [...collection.fields.values()].filter((f) => !f.path.includes(".") && f.types.has("array"));
  const named = lists.filter((f) => words.includes(singular(nameWords(f.path).at(-1) ?? "")));
  const records = lists.filter((f) => f.itemFields !== undefined && f.itemFields.size > 0);
  const list = named.length === 1 ? named[0] : records.length === 1 ? records[0] : undefined;
  if (!list) return [];
  const noun = nameWords(singular(collection.name)).join(" ");
  const documented = ctx.facts.errors.find(
    (e) => e.kind !== "not-found" && /\b(?:empty|at least one|no )/i.test(e.text),
  );
  const error = documented
    ? use(ctx, documented)
    : addError(ctx, {
        code: `${nameWords(noun).join("_").toUpperCase()}_EMPTY`,
        status: 409,
        message: `The ${noun} has no ${said}.`,
        when: `The ${noun}'s ${list.path} is empty (inferred from the tool's description).`,
      });
  ctx.notes.push(`refuses a ${noun} whose ${list.path} is empty (${error})`);
  return [{ expr: `$count($subject.${identifier(list.path)}) > 0`, error }];
}

/**
 * "Protected branches cannot be deleted", "locked files can't be edited": a record whose flag
 * of that name is set is refused, with the documented error that speaks of the flag, else an
 * added `<NOUN>_<FLAG>`, 409. GitHub refuses deleting a protected branch, Google Drive editing
 * a locked file, and AWS EC2 terminating an instance with termination protection.
 */
function flagGuards(ctx: Context, collection: CollectionShape): Array<Record<string, unknown>> {
  const noun = nameWords(singular(collection.name)).join(" ");
  const nouns = `(?:${escapeRegExp(noun)}|${escapeRegExp(plural(noun))})`;
  const documented = [ctx.facts.text, ...ctx.facts.errors.map((e) => e.text)].map((t) => t.toLowerCase());
  return [...collection.fields.values()].flatMap((field) => {
    if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) return [];
    const words = nameWords(field.path).filter((w) => w !== "is");
    const flag = words.map(escapeRegExp).join("[ _]");
    const valued = flagValueError(ctx, flag);
    if (valued) {
      ctx.notes.push(
        `refuses a ${noun} whose ${field.path} is ${valued.value}${valued.when ? ` where ${valued.when}` : ""} (${valued.error})`,
      );
      return [
        valued.when
          ? {
              expr: `$not(${valued.when}) or $subject.${identifier(field.path)} != ${valued.value}`,
              error: valued.error,
            }
          : { field: field.path, notIn: [valued.value], error: valued.error },
      ];
    }
    // "protected branches cannot be deleted", "disabled links do not resolve"
    const refused = new RegExp(`\\b${flag}\\s+${nouns}\\s+${REFUSING}`);
    // "sensors that are not online cannot be configured": the flag must be set
    const lacking = new RegExp(
      `\\b${nouns}\\s+(?:that|which|who)\\s+(?:are|is)\\s+not\\s+${flag}\\s+${REFUSING}`,
    );
    const set = documented.some((t) => refused.test(t));
    const unset = !set && documented.some((t) => lacking.test(t));
    if (!set && !unset) return [];
    const state = unset ? `not ${words.join(" ")}` : words.join(" ");
    const said = ctx.facts.errors.find((e) => e.kind !== "not-found" && e.text.includes(words.join(" ")));
    const error = said
      ? use(ctx, said)
      : addError(ctx, {
          code: `${nameWords(noun).join("_").toUpperCase()}_${[...(unset ? ["not"] : []), ...words].join("_").toUpperCase()}`,
          status: 409,
          message: `The ${noun} is ${state}.`,
          when: `The ${noun} is ${state} (inferred from the tool's description).`,
        });
    ctx.notes.push(
      unset ? `refuses a ${noun} that is ${state} (${error})` : `refuses a ${state} ${noun} (${error})`,
    );
    return [{ field: field.path, notIn: [!unset], error }];
  });
}

const REFUSING = "(?:cannot|can't|can not|may not|must not|do not|does not|don't|doesn't|will not|won't)\\b";

function statusFieldGuards(
  ctx: Context,
  collection: CollectionShape,
  after?: string,
): Array<Record<string, unknown>> {
  const field = statusField(collection);
  if (!field) return [];
  const { values, notIn } = requiredStatuses(ctx, collection);
  const wanted = values.length > 0 ? values : notIn;
  if (wanted.length === 0)
    return [
      ...(after ? alreadyGuard(ctx, field.path, after) : []),
      ...erroredStatuses(ctx, collection, field),
    ];
  const error = statusError(ctx, collection, field, wanted, values.length > 0);
  const guard =
    values.length > 0 ? { field: field.path, in: values, error } : { field: field.path, notIn, error };
  ctx.notes.push(
    `requires ${field.path} ${values.length > 0 ? "in" : "not in"} [${wanted.join(", ")}] (${error})`,
  );
  return [guard, ...erroredStatuses(ctx, collection, field)];
}

/**
 * "DEPLOYMENT_ACTIVE if the deployment is currently running; ALREADY_PAUSED if it is already paused",
 * "INVALID_STATE (invoice is not open)": each documented error whose condition names
 * statuses of the record refuses the call in them (or out of them, when it says "not"), with
 * its own code — as GitHub answers "pull request is not open" and Stripe
 * `payment_intent_unexpected_state` for the status they name.
 */
function erroredStatuses(
  ctx: Context,
  collection: CollectionShape,
  field: { path: string; values: Map<unknown, number> },
): Array<Record<string, unknown>> {
  const statuses = knownValues(ctx, field.path, field.values.keys()).filter((s) => s.length > 2);
  const guards: Array<Record<string, unknown>> = [];
  const nounOf = (name: string) => nameWords(singular(name)).join(" ");
  const own = nounOf(collection.name);
  const others = [...ctx.shape.collections.values()]
    .map((c) => nounOf(c.name))
    .filter((noun) => noun !== own && !own.includes(noun));
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const said = ` ${error.text.replace(/[_-]/g, " ")} `;
    const spoken = (st: string) => escapeRegExp(nameWords(st).join(" "));
    // `BUS_RUNNING`, `BUS_IN_SERVICING`: a code of the record's noun and a status names it
    const code = nameWords(error.code).join(" ");
    const head = own.split(" ").at(-1) ?? own;
    const coded = statuses.filter((st) =>
      new RegExp(`^(?:${escapeRegExp(own)}|${escapeRegExp(head)}) (?:is |in )?${spoken(st)}$`).test(code),
    );
    const stated =
      /\b(?:is|are|status|state|still|currently|already)\b/.test(said) ||
      statuses.some((st) => new RegExp(`\\bin ${spoken(st)}\\b`).test(said));
    if (!stated && coded.length === 0) continue;
    // "the event is cancelled" speaks of another record than the order the call changes
    const mentions = (noun: string) => new RegExp(`\\b${escapeRegExp(noun)}s?\\b`).test(said);
    if (others.some(mentions) && !mentions(own)) continue;
    const named =
      coded.length > 0 ? coded : statuses.filter((st) => new RegExp(`[^a-z]${spoken(st)}[^a-z]`).test(said));
    if (named.length === 0) continue;
    const negated = named.filter((s) =>
      new RegExp(
        `\\b(?:not|isn't|aren't|other than|except|anything but)\\s+(?:yet\\s+|in\\s+|the\\s+)?${escapeRegExp(nameWords(s).join(" "))}\\b`,
      ).test(said),
    );
    const guard =
      negated.length > 0
        ? { field: field.path, in: negated, error: use(ctx, error) }
        : { field: field.path, notIn: named, error: use(ctx, error) };
    guards.push(guard);
    ctx.notes.push(
      `requires ${field.path} ${negated.length > 0 ? "in" : "not in"} [${(negated.length > 0 ? negated : named).join(", ")}] (${error.code})`,
    );
  }
  return guards;
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
  field: { path: string; values: Map<unknown, number> },
  statuses: readonly string[],
  required: boolean,
): string {
  const mentioning = (named: readonly string[]) =>
    ctx.facts.errors.filter(
      (e) =>
        e.kind !== "not-found" &&
        named.some(
          (s) => e.text.includes(s.toLowerCase()) || nameWords(e.code).join(" ").includes(s.toLowerCase()),
        ),
    );
  // "RUN_NOT_CANCELLABLE (status is completed or failed)" refuses a call the description allows only
  // from queued or in progress: the error that names the other statuses says it
  const others = knownValues(ctx, field.path, field.values.keys()).filter(
    (s) => s.length > 2 && !statuses.includes(s),
  );
  const mentions = [...mentioning(statuses), ...mentioning(others)];
  // else the one error the API names for a wrong status (`INVALID_STATUS`, `WRONG_STATE`)
  const named = ctx.facts.errors.filter(
    (e) => e.kind !== "not-found" && !ctx.usedErrors.has(e.code) && /(?:^|_)(?:STATUS|STATE)$/.test(e.code),
  );
  const chosen =
    mentions.find((e) => e.text.includes("non-")) ??
    mentions[0] ??
    (named.length === 1 ? named[0] : undefined);
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
  // "fails if the party is larger than the table's seats", "cannot exceed the product's stock"
  const refused =
    /\b(?:fails?|is refused|errors?)\s+(?:if|when)\s+(?:the\s+)?[a-z_ ]{1,30}?\s+(?:is|are)\s+(?:larger|greater|more|higher|bigger)\s+than\s+(?:the\s+|its\s+)?([a-z' ]{2,60}?)(?:[.;,]|\s+or\s+|\s+and\s+|$)/.exec(
      text,
    ) ??
    /\b(?:cannot|can't|can not|must not|may not) exceed (?:the |its )?([a-z' ]{2,60}?)(?:[.;,]|\s+or\s+|\s+and\s+|$)/.exec(
      text,
    );
  if (refused) return { op: "<=", suffix: "TOO_HIGH", word: "more", fieldWords: refused[1] ?? "" };
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
export function referenceGuards(
  ctx: Context,
  held: CollectionShape,
  /** The amount compared, where it is more than the argument (a quantity added to one already held). */
  compared?: string,
): { require: Array<Record<string, unknown>>; set: Record<string, unknown> } {
  const require: Array<Record<string, unknown>> = [];
  const set: Record<string, unknown> = {};
  const status = statusField(held);
  const statusPath = status?.path;
  const { values } = requiredStatuses(ctx, held);
  if (status && statusPath && values.length > 0) {
    const error = statusError(ctx, held, status, values, true);
    ctx.notes.push(
      `requires the ${humanNoun(singular(held.name))}'s ${statusPath} in [${values.join(", ")}] (${error})`,
    );
    require.push({ field: statusPath, in: values, error });
  }
  // "EVENT_CANCELLED – the event's status is "cancelled"": the statuses of the named record its errors refuse
  if (status) require.push(...erroredStatuses(ctx, held, status));
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
            word === "more" && op === "<="
              ? `The ${nameWords(amount.name).join(" ")} is more than the ${nameWords(field.path).join(" ")}.`
              : op === "<="
                ? `The ${nameWords(amount.name).join(" ")} do not fit in the ${nameWords(field.path).join(" ")}.`
                : `The ${nameWords(amount.name).join(" ")} must be ${word} than the ${nameWords(field.path).join(" ")}.`,
          when: `The ${amount.name} is ${op === "<=" ? "more" : `not ${word}`} than the ${humanNoun(singular(held.name))}'s ${field.path} (inferred from the tool's description).`,
        });
    ctx.notes.push(
      `requires ${amount.name} ${op} the ${field.path} of the ${humanNoun(singular(held.name))} (${error})`,
    );
    require.push({
      expr: `${compared ?? `$args.${identifier(amount.name)}`} ${op} $subject.${identifier(field.path)}`,
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
export function capacityGuard(
  ctx: Context,
  collection: CollectionShape,
  list: string,
): Record<string, unknown>[] {
  const listed = new Set(nameWords(list).map(singular));
  // `max_attendees` bounds `attendees`, `capacity` any list; `max_c` is a temperature, no count
  const counts = (words: readonly string[]) =>
    words.every((w) => /^(capacity|limit|max|maximum)$/.test(w)) ||
    words.some(
      (w) =>
        listed.has(singular(w)) ||
        /^(seats?|slots?|spots?|places?|items?|entries|members?|size|count|people|guests?|attendees?|players?|participants?)$/.test(
          w,
        ),
    );
  const bounds = [...collection.fields.values()].filter(
    (f) =>
      !f.path.includes(".") &&
      (f.types.has("integer") || f.types.has("number")) &&
      nameWords(f.path).some((w) => /^(capacity|limit|max|maximum)$/.test(w)) &&
      counts(nameWords(f.path)),
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
