import escapeRegExp from "escape-string-regexp";
import { addGap, type Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { OutputFact } from "./facts.js";
import type { CollectionShape, FieldShape } from "./shape.js";
import { nameWords, singular } from "./words.js";

/**
 * Answers computed over the records, as a description spells them out: "`issue_count` –
 * number of issues in the milestone", "`total_amount` – sum of `amount` over the customer's
 * charges", "`open_count`: <issues with state open>", "unresolved counts issues with
 * resolved_at null", "`percent` – 100 * closed / total". Summary endpoints answer such
 * counts and sums: UptimeRobot's account details (`up_monitors`, `down_monitors`,
 * `paused_monitors`), GitHub's milestones (`open_issues`, `closed_issues`) and repositories
 * (`open_issues_count`), Stripe's balance transactions summed per type in its reports.
 *
 * Each field becomes a `respond` of a JSONata expression over the collection the words name,
 * kept to the records the words and the call's arguments select. What the words do not say
 * plainly (a count per group, a median) is left alone, and stays a guess.
 */

type Operation =
  | { op: "count" }
  | { op: "sum"; terms: string[] }
  | { op: "average"; terms: string[]; places?: number; halfUp?: boolean }
  | { op: "keys"; sorted: boolean }
  | { op: "groups"; field: string; keys: string[] };

/** One record the records counted belong to, and the expression of its key (an item of a list). */
interface Owner {
  collection: CollectionShape;
  key: string;
}

interface Aggregate {
  operation: Operation;
  collection: CollectionShape;
  predicates: string[];
}

/** Words that stand before a noun and select nothing. */
const FILLER = new Set([
  "the",
  "all",
  "its",
  "their",
  "this",
  "that",
  "these",
  "those",
  "each",
  "every",
  "of",
  "a",
  "an",
]);

export function aggregateAnswers(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const answered = answeredOutputs(ctx, drafts);
  const computed = new Map<string, string>();
  const out: Draft[] = [];
  const formulas: Array<{ output: OutputFact; phrase: string }> = [];
  for (const output of ctx.facts.outputs) {
    if (answered.has(output.name)) continue;
    const phrase =
      phraseOf(ctx.facts.tool.description, output) ?? siblingPhrase(ctx, output) ?? describedSum(ctx, output);
    if (!mayCompute(output, phrase)) continue;
    const argument = phrase && output.type !== "boolean" ? argumentNamed(ctx, phrase) : undefined;
    if (argument) {
      out.push({ kind: "respond", output: output.name, value: { $expr: `$args.${quoted(argument)}` } });
      ctx.notes.push(`answers ${output.name} as the argument ${argument}, as the docs say`);
      continue;
    }
    const part = phrase ? partNamed(ctx, phrase) : undefined;
    if (part) {
      out.push({
        kind: "respond",
        output: output.name,
        value: { $expr: `$entity(${JSON.stringify(part)})` },
      });
      ctx.notes.push(`answers ${output.name} as ${part}, as the docs say`);
      continue;
    }
    const aggregate = aggregateOf(ctx, output, phrase);
    if (!aggregate) {
      if (phrase && (output.type === undefined || isNumeric(output))) formulas.push({ output, phrase });
      continue;
    }
    const expression = expressionOf(aggregate);
    computed.set(output.name, expression);
    out.push({ kind: "respond", output: output.name, value: { $expr: expression } });
    ctx.notes.push(`answers ${output.name} as ${aggregate.operation.op} over ${aggregate.collection.name}`);
  }
  // a field worked out from the others ("100 * closed / total"), once those are known
  for (const { output, phrase } of formulas) {
    const expression = formulaOf(phrase, computed) ?? recordFormula(ctx, drafts, output, phrase);
    if (!expression) continue;
    out.push({ kind: "respond", output: output.name, value: { $expr: expression } });
    ctx.notes.push(`answers ${output.name} by the arithmetic its docs give`);
  }
  return out;
}

/** Words of a computation or a reference, or a name that counts: anything else is not looked at further. */
const COMPUTING =
  /\b(?:number|count|counts|sum|total|mean|average|codes|ids|keys|minus|plus|less|all|whole|entire|every|fields|record|object|id|key|slug)\b|[*/=]/i;
const COUNTING_NAME = /_count$|^count_|^num_|^number_of_|^total_|^by_|_per_/;

function mayCompute(output: OutputFact, phrase: string | undefined): boolean {
  if (COUNTING_NAME.test(output.name)) return true;
  if (phrase !== undefined) return COMPUTING.test(phrase) || phrase.length < 40;
  return (output.type === undefined || output.type === "integer") && /_|s$/.test(output.name);
}

/** Outputs an effect already answers, or that a record the effects read or change holds. */
function answeredOutputs(ctx: Context, drafts: readonly Draft[]): Set<string> {
  const answered = new Set<string>();
  for (const draft of drafts) {
    if (typeof draft.output === "string" && draft.output !== "")
      answered.add(draft.output.split(".")[0] as string);
    // the records a target reaches are named by its last segment that is no key (`api/tweets/{id}`)
    const named = String(draft.target ?? "")
      .split("/")
      .filter((segment) => segment !== "" && !/^[{[]/.test(segment))
      .pop();
    const collection = named ? (ctx.shape.collections.get(named) ?? ctx.shape.nested.get(named)) : undefined;
    if (collection && draft.output === "") for (const field of collection.fields.keys()) answered.add(field);
  }
  for (const param of ctx.facts.params) answered.add(param.name);
  return answered;
}

function isNumeric(output: OutputFact): boolean {
  return output.type === "integer" || output.type === "number";
}

// ── the words said of one field ──

/**
 * What the docs say of one field: its schema description, else the words after its name in
 * the tool's description (`name` – words, `name (words)`, `"name": <words>`, `name counts
 * words`, also where names are grouped: `open/closed count issues by state`).
 */
export function phraseOf(description: string, output: OutputFact): string | undefined {
  if (output.description.trim() !== "") return output.description;
  if (!description.includes(output.name)) return undefined;
  const name = escapeRegExp(output.name);
  const around = `(?:^|[^A-Za-z0-9_])[\`"]?(?:[A-Za-z0-9_]+/)*${name}(?:/[A-Za-z0-9_]+)*[\`"]?`;
  const forms = [
    // "`remaining`, the number of tickets still in `line`", "`waiting`: the count of tickets in …"
    new RegExp(
      `${around}\\s*[:,]\\s*((?:the )?(?:total )?(?:number|count|sum|mean|average) of [^\\n;]+?)(?:\\.(?:\\s|$)|\\s*\\(|$)`,
    ),
    new RegExp(`${around}\\s*:\\s*<([^>]+)>`),
    new RegExp(`${around}\\s*\\(([^)]+)\\)`),
    new RegExp(`${around}\\s*(?:[–—]|-(?=\\s))\\s*([^\\n;]+)`),
    new RegExp(`${around}\\s+(counts?|is the (?:number|sum|count|length|size) of)\\s+([^.;,\\n]+)`),
    new RegExp(`${around}\\s*=\\s*([^\\n;]+)`),
  ];
  for (const form of forms) {
    const match = form.exec(description);
    if (!match) continue;
    return match.slice(1).filter(Boolean).join(" ");
  }
  return undefined;
}

/**
 * "Computes how much a customer still owes: the sum of total_cents over that client's
 * invoices whose status is sent. Returns client, owed_cents and
 * open_count": a sum the description gives no output name goes to the number output in
 * the same unit (`_cents`, `_minutes`), and a count output counts what it sums over, as a
 * billing API's balance (Stripe's `amount_due` over open invoices) and its count go together.
 */
function describedSum(ctx: Context, output: OutputFact): string | undefined {
  if (!isNumeric(output)) return undefined;
  const said = /\bthe sum of ([a-z_]+) (over|across|of|for) ([^.;\n]+)/i.exec(ctx.facts.tool.description);
  const term = said?.[1];
  const over = said?.[3];
  if (!term || !over || output.name === term) return undefined;
  const unit = nameWords(term).at(-1);
  if (nameWords(output.name).length > 1 && nameWords(output.name).at(-1) === unit)
    return `sum of ${term} over ${over}`;
  if (/(?:^|_)count$/.test(output.name)) return `number of ${over}`;
  return undefined;
}

/**
 * A field the docs define once for the whole API ("available = on_hand minus …" in the
 * listing, "computed as in the listing" in the read of one): the words another tool of the
 * toolset gives it, where this tool's words give none.
 */
function siblingPhrase(ctx: Context, output: OutputFact): string | undefined {
  if (!output.name.includes("_") || !ctx.descriptions) return undefined;
  for (const [name, description] of ctx.descriptions) {
    if (name === ctx.facts.tool.name || !description.includes(output.name)) continue;
    const phrase = phraseOf(description, { ...output, description: "" });
    if (phrase) return phrase;
  }
  return undefined;
}

/** The phrase in lower case, marks and quotes gone. */
function plain(phrase: string): string {
  return phrase.toLowerCase().replace(/[`*"]/g, "").replace(/×/g, " x ").replace(/\s+/g, " ").trim();
}

// ── what the words ask for ──

/**
 * "<all device_config fields>", "the whole store_settings object": a field the docs say is a
 * part of the state, named by its key, is that part as the call leaves it.
 */
function partNamed(ctx: Context, phrase: string): string | undefined {
  if (!/\b(?:all|whole|every|entire)\b|\b(?:fields|record|object)\b/i.test(phrase)) return undefined;
  for (const name of phrase.match(/[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+/g) ?? [])
    if (
      ctx.shape.parts.some(
        (p) => p.path.length === 1 && p.path[0] === name && (p.kind === "record" || p.kind === "collection"),
      )
    )
      return name;
  return undefined;
}

/**
 * "`deleted` – the slug", "{deleted: id}", "the id of the removed label": a field the docs say
 * is an argument the call names its record by repeats it, as Stripe's `DELETE` answers
 * repeat the `id` they were given.
 */
function argumentNamed(ctx: Context, phrase: string): string | undefined {
  const text = plain(phrase)
    .replace(/[.,;:]+$/, "")
    .replace(/^(?:the|its) /, "");
  const params = ctx.facts.params;
  const byName = params.find((p) => p.name.toLowerCase() === text || p.words.join(" ") === text);
  if (byName) return byName.name;
  const keys = params.filter((p) => p.required && p.identifier);
  if (/^(?:id|key)$/.test(text)) return keys.length === 1 ? keys[0]?.name : undefined;
  const owner = /^(?:id|key) of (?:the |this |that )?(?:[a-z]+ )?([a-z]+)$/.exec(text)?.[1];
  if (!owner) return undefined;
  const named = keys.filter((p) => p.words.some((word) => singular(word) === singular(owner)));
  return named.length === 1 ? named[0]?.name : undefined;
}

function aggregateOf(
  ctx: Context,
  output: OutputFact,
  phrase: string | undefined,
  owner?: Owner,
): Aggregate | undefined {
  const text = phrase ? plain(phrase) : "";
  const sum =
    /^(?:the )?(?:total )?sum of (?:the )?([a-z_]+)(?:\s*(?:x|\*|times)\s*([a-z_]+))?\s*(?:over|of|across|for|in)?\s*(.*)$/.exec(
      text,
    );
  if (sum?.[1]) {
    const terms = [sum[1], ...(sum[2] ? [sum[2]] : [])];
    return selection(ctx, output, { op: "sum", terms }, sum[3] ?? "", terms, owner);
  }
  if (output.type === "array" || output.itemType || output.type === undefined) {
    const keys = /^(?:the )?(?:codes|ids|keys) of (.*)$/.exec(text);
    if (keys?.[1])
      return selection(
        ctx,
        output,
        { op: "keys", sorted: /\bsorted|ascending\b/.test(text) },
        keys[1],
        [],
        owner,
      );
    if (output.type !== undefined) return undefined;
  }
  const groups = groupsOf(ctx, output, text);
  if (groups) return groups;
  if (output.type !== undefined && !isNumeric(output)) return undefined;
  // "the arithmetic mean of the non-null scores rounded to 1 decimal place": nulls are no numbers
  const averaged = text.replace(/^(?:the )?arithmetic /, "").replace(/\b(?:non-null|non-empty|known) /g, "");
  const average =
    /^(?:the )?(?:mean|average) (?:of )?(?:the )?([a-z_]+)\s*(?:over|of|across|for|in)?\s*(.*)$/.exec(
      averaged,
    );
  const averagedTerm = average?.[1] ? (termNamed(ctx, average[1]) ?? average[1]) : undefined;
  if (average && averagedTerm) {
    const places = /\bround(?:ed)? to (\d+) (?:decimal )?(?:places?|digits?)/.exec(text)?.[1];
    return selection(
      ctx,
      output,
      {
        op: "average",
        terms: [averagedTerm],
        ...(places ? { places: Number(places), halfUp: /\bhalf (?:away from zero|up)\b/.test(text) } : {}),
      },
      (average[2] ?? "").replace(/\s*\brounded\b.*$/, ""),
      [averagedTerm],
      owner,
    );
  }
  // a count per group the words do not name keys for is not one number
  if (/\b(?:each|per|object|map|keyed)\b/.test(text)) return undefined;
  const counted =
    /^(?:the )?(?:total )?(?:number|count) of (.*)$/.exec(text)?.[1] ??
    /^counts? (.*)$/.exec(text)?.[1] ??
    (/_count$|^count_|^num_|^number_of_|^total_/.test(output.name) || output.type === "integer"
      ? text
      : undefined);
  if (counted !== undefined) {
    const found = selection(ctx, output, { op: "count" }, counted, [], owner);
    if (found) return found;
  }
  if (phrase && !/^[a-z_ ]+$/.test(text)) return undefined;
  return countNamed(ctx, output, owner);
}

/**
 * `by_state: {open, closed}` ("0 if none"), `issues_per_priority` ("keys "1" to "4", each
 * the number of the project's issues of that priority"): a count for each value of one field, under the
 * keys the docs list, as GitHub's search facets and Stripe's reports count per status.
 */
function groupsOf(ctx: Context, output: OutputFact, text: string): Aggregate | undefined {
  if (output.type !== undefined && output.type !== "object") return undefined;
  const name = output.name.toLowerCase();
  const field = /^by_([a-z_]+)$/.exec(name)?.[1] ?? /(?:^|_)per_([a-z_]+)$/.exec(name)?.[1];
  if (!field) return undefined;
  const holders = [...ctx.shape.collections.values()].filter(
    (c) => c.path.length === 1 && !c.pairs && c.fields.has(field),
  );
  const noun = /^([a-z]+)_per_/.exec(name)?.[1];
  const collection =
    holders.length === 1
      ? holders[0]
      : holders.find((c) => noun !== undefined && c === collectionNamed(ctx, noun));
  if (!collection) return undefined;
  const listed = new RegExp(`\\b${output.name}\\s*:\\s*\\{([^}]*)\\}`).exec(ctx.facts.tool.description)?.[1];
  const range = /\bkeys "?(\d+)"? to "?(\d+)"?/.exec(text);
  const keys = listed
    ? listed
        .split(",")
        .map((k) => k.replace(/["'`\s]/g, ""))
        .filter((k) => /^[\w-]+$/.test(k))
    : range
      ? Array.from({ length: Math.max(0, Number(range[2]) - Number(range[1]) + 1) }, (_, i) =>
          String(Number(range[1]) + i),
        )
      : [];
  if (keys.length === 0 || keys.length > 50) return undefined;
  return { operation: { op: "groups", field, keys }, collection, predicates: scopeOf(ctx, collection) };
}

/**
 * A count the field's name says alone: `total_issues`, `product_count`, `num_members`, and a
 * value of the records before their noun (`paused_monitors`, `open_issues`).
 */
function countNamed(ctx: Context, output: OutputFact, owner?: Owner): Aggregate | undefined {
  if (output.type !== "integer" && output.type !== undefined) return undefined;
  const words = output.name.toLowerCase().split("_").filter(Boolean);
  const counting = /_count$|^count_|^num_|^number_of_|^total_/.test(output.name);
  const nounWords = words.filter((w) => !["count", "num", "number", "of", "total"].includes(w));
  if (nounWords.length === 0) return undefined;
  const noun = nounWords[nounWords.length - 1] as string;
  const collection = collectionNamed(ctx, noun);
  if (!collection) return undefined;
  // `paused_monitors`: a count of some of them; `total_monitors`, `monitor_count`: of all
  const before = nounWords.slice(0, -1).join("_");
  if (before === "") {
    if (!counting && !/s$/.test(noun)) return undefined;
    return {
      operation: { op: "count" },
      collection,
      predicates: scopeOf(ctx, collection, "", undefined, owner),
    };
  }
  const selected = valuePredicate(collection, before);
  if (!selected) return undefined;
  return {
    operation: { op: "count" },
    collection,
    predicates: [selected, ...scopeOf(ctx, collection, "", undefined, owner)],
  };
}

/**
 * The records a phrase names ("the board's cards", "jobs with status queued", "issues with
 * resolved_at null", "issues in priority 1", "pages that have a translation in this language") and
 * how they are kept to some: by the words, and by an argument naming what they belong to.
 */
function selection(
  ctx: Context,
  output: OutputFact,
  operation: Operation,
  phrase: string,
  terms: readonly string[],
  owner?: Owner,
): Aggregate | undefined {
  const words = phrase.split(/[^a-z0-9_.'-]+/).filter(Boolean);
  let at = 0;
  const leading: string[] = [];
  let collection: CollectionShape | undefined;
  for (; at < words.length; at++) {
    const word = words[at] as string;
    if (FILLER.has(word) || word.endsWith("'s")) continue;
    collection = collectionNamed(ctx, word, terms, words);
    if (collection) break;
    leading.push(word);
    if (leading.length > 3) break;
  }
  if (!collection) {
    // no noun for them: the records that keep the numbers summed, whatever the words say next
    at = -1;
    leading.length = 0;
    collection = terms.length > 0 ? holderOf(ctx, terms) : undefined;
  }
  if (!collection) return undefined;
  if (terms.some((term) => !numericField(collection, term))) return undefined;
  const rest = words.slice(at + 1).join(" ");
  const predicates: string[] = [];
  // "entries in line", "tickets still in line": a plural before "in <collection>" names its members
  if (at > 0 && /^(?:in|of|from|on)$/.test(words[at - 1] ?? ""))
    leading.splice(0, leading.length, ...leading.filter((word) => !MEMBERS.test(word)));
  for (const word of leading) {
    const predicate = valuePredicate(collection, word);
    if (predicate) predicates.push(predicate);
  }
  const stated = statedPredicates(ctx, collection, output, rest);
  predicates.push(...stated.predicates);
  // an argument the words already select by is not asked for twice
  const used = stated.predicates.join(" ");
  predicates.push(...scopeOf(ctx, collection, rest, (name) => used.includes(`$args.${quoted(name)}`), owner));
  // the arguments' nouns ("in the board" of `board_id`, "in this language") say whose records
  const scope = ctx.facts.params.flatMap((p) => [singular(p.name), ...p.words.map(singular)]);
  if (!understood(ctx, stated.left, scope)) return undefined;
  if (
    leading.some(
      (word) =>
        !IDLE.has(word) &&
        !predicates.some((p) => p.includes(JSON.stringify(word)) || p.startsWith(quoted(word))),
    )
  )
    return undefined;
  return { operation, collection, predicates };
}

/**
 * The collection a noun names: its name's last word or its own name, else its key field's noun
 * (`jobs` of a queue whose records are keyed by `job_id`, as CI services key them); of several, the one that keeps the
 * numbers summed.
 */
export function collectionNamed(
  ctx: Context,
  word: string,
  terms: readonly string[] = [],
  mentioned: readonly string[] = [],
): CollectionShape | undefined {
  const noun = singular(word.replace(/'s$/, ""));
  if (noun.length < 2 || /^\d/.test(noun)) return undefined;
  const byName: CollectionShape[] = [];
  const byKey: CollectionShape[] = [];
  for (const collection of ctx.shape.collections.values()) {
    if (collection.path.length !== 1 || collection.pairs) continue;
    const last = collection.name.toLowerCase().split("_").pop() ?? "";
    const keyNoun = collection.keyField?.toLowerCase().replace(/_?(id|key|code)$/, "");
    if (singular(last) === noun || singular(collection.name.toLowerCase()) === noun) byName.push(collection);
    else if (keyNoun === noun) byKey.push(collection);
  }
  for (const found of [byName, byKey]) {
    const keeping = found.filter((c) => terms.every((term) => numericField(c, term)));
    if (keeping.length === 1) return keeping[0];
    // of two queues keyed alike, the one that keeps the fields the words go on to name
    const fitting = (c: CollectionShape) => mentioned.filter((word) => c.fields.has(word)).length;
    const best = Math.max(0, ...keeping.map(fitting));
    const fits = keeping.filter((c) => fitting(c) === best);
    if (best > 0 && fits.length === 1) return fits[0];
  }
  return undefined;
}

/** The one top-level collection whose records keep every one of these numbers. */
/** The numeric field a word names: as written, or its singular ("the scores" of `score`). */
function termNamed(ctx: Context, word: string): string | undefined {
  if (holderOf(ctx, [word])) return word;
  const one = singular(word);
  return one !== word && holderOf(ctx, [one]) ? one : undefined;
}

function holderOf(ctx: Context, terms: readonly string[]): CollectionShape | undefined {
  const found = [...ctx.shape.collections.values()].filter(
    (c) => c.path.length === 1 && !c.pairs && terms.every((term) => numericField(c, term)),
  );
  return found.length === 1 ? found[0] : undefined;
}

function numericField(collection: CollectionShape, name: string): FieldShape | undefined {
  const field = collection.fields.get(name);
  return field?.types.has("number") ? field : undefined;
}

/** `queued` where a field holds that value, `paused` where a flag is named so. */
function valuePredicate(collection: CollectionShape, word: string): string | undefined {
  const flag = collection.fields.get(word);
  if (flag?.types.has("boolean") && flag.types.size <= 2) return `${quoted(word)} = true`;
  const holders = [...collection.fields.values()].filter(
    (f) => !f.path.includes(".") && !f.open && [...f.values.keys()].some((v) => v.toLowerCase() === word),
  );
  if (holders.length !== 1) return undefined;
  const field = holders[0] as FieldShape;
  const value = [...field.values.keys()].find((v) => v.toLowerCase() === word) as string;
  return `${quoted(field.path)} = ${JSON.stringify(value)}`;
}

/**
 * "with status queued", "whose status is open", "with resolved_at null", "in priority 1",
 * "with quantity 0", "that have a translation in this language", and "by state" of a
 * field named for one of its values (`open` counts issues by `state`). `left` is what the
 * words say beyond these: a selection toolsim cannot make ("refunded after the dispute").
 */
function statedPredicates(
  ctx: Context,
  collection: CollectionShape,
  output: OutputFact,
  rest: string,
): { predicates: string[]; left: string } {
  const predicates: string[] = [];
  let left = rest.replace(/,?\s*\b(?:including|incl\.?)\b.*$/, "");
  const pattern =
    /\b(?:with|whose|where|in|at|of) (?:a |an |the )?([a-z_]+)(?: is| =| of| equal to| set to)? ([a-z0-9_.-]+)/g;
  left = left.replace(pattern, (whole, name: string, word: string) => {
    const field = collection.fields.get(name);
    const value = field && !field.path.includes(".") ? literalFor(field, word) : undefined;
    if (!field || value === undefined) return whole;
    predicates.push(`${quoted(field.path)} = ${value}`);
    return " ";
  });
  // "whose assignees contain the login": a list of theirs holds the argument
  const holding =
    /\b(?:whose|where|with) ([a-z_]+) (?:contains?|includes?|holds?|lists?) (?:the |a |this |that |given )?([a-z_]+)/;
  left = left.replace(holding, (whole, name: string, argument: string) => {
    const list = collection.fields.get(name);
    const param = ctx.facts.params.find((p) => p.name === argument);
    if (!list?.types.has("array") || !param) return whole;
    predicates.push(`$args.${quoted(param.name)} in ${quoted(list.path)}`);
    return " ";
  });
  left = left.replace(/\bby ([a-z_]+)\b/, (whole, name: string) => {
    const grouped = collection.fields.get(name);
    const value = grouped ? literalFor(grouped, output.name.toLowerCase()) : undefined;
    if (!grouped || value === undefined) return whole;
    predicates.push(`${quoted(grouped.path)} = ${value}`);
    return " ";
  });
  const having =
    /\b(?:that |which )?(?:have|has|with) (?:a |an )?([a-z_]+) (?:in|for) (?:this |the given |that )?([a-z_]+)/;
  left = left.replace(having, (whole, name: string, argument: string) => {
    const held = [...collection.fields.values()].find(
      (f) => !f.path.includes(".") && singular(f.path) === singular(name),
    );
    const param = ctx.facts.params.find(
      (p) => p.name === argument || singular(p.name) === singular(argument),
    );
    if (!held || !param || !(held.types.has("object") || held.types.has("array"))) return whole;
    predicates.push(
      held.types.has("array")
        ? `$args.${quoted(param.name)} in ${quoted(held.path)}`
        : `$exists($lookup(${quoted(held.path)}, $args.${quoted(param.name)}))`,
    );
    return " ";
  });
  return { predicates, left };
}

/** Nouns of a record that never stand for one ("the item", "the entry"). */
const SUBJECT = new Set(["item", "items", "entry", "entries", "record", "records"]);

/** Words that keep no records out: where they are, and that they are there. */
/** A plural noun, or a word that says the members are the ones still there. */
const MEMBERS = /^(?:[a-z]{3,}s|left|remaining|still|currently|in|of|from|on)$/;

const IDLE = new Set([
  ...FILLER,
  "in",
  "on",
  "at",
  "for",
  "over",
  "across",
  "within",
  "under",
  "currently",
  "now",
  "listed",
  "only",
  "there",
  "are",
  "is",
  "stored",
  "kept",
  "registered",
  "existing",
  "total",
  "overall",
  "sorted",
  "ascending",
  "alphabetically",
]);

/** Whether what is left of a phrase names only the scope's noun and idle words. */
function understood(ctx: Context, left: string, scope: readonly string[]): boolean {
  return left
    .split(/[^a-z0-9_'-]+/)
    .filter(Boolean)
    .every(
      (word) =>
        IDLE.has(word) ||
        word.endsWith("'s") ||
        scope.some((noun) => singular(word) === noun) ||
        (collectionNamed(ctx, word) !== undefined && !SUBJECT.has(word)),
    );
}

/** The value as the field keeps it: null, a flag, a number, or one of its words. */
function literalFor(field: FieldShape, word: string): string | undefined {
  if (word === "null" || word === "none") return field.types.has("null") ? "null" : undefined;
  if ((word === "true" || word === "false") && field.types.has("boolean")) return word;
  if (/^-?\d+(\.\d+)?$/.test(word) && field.types.has("number")) return word;
  const value = [...field.values.keys()].find((v) => v.toLowerCase() === word);
  return value === undefined ? undefined : JSON.stringify(value);
}

/**
 * The records of the one the call names: an argument that is a field of theirs
 * (`assignee`), or that names a record of another collection their field points at
 * (`board_id` of a card). "All", "account-wide" and "total number" keep them all.
 */
function scopeOf(
  ctx: Context,
  collection: CollectionShape,
  rest = "",
  used: (name: string) => boolean = () => false,
  owner?: Owner,
): string[] {
  if (/\b(?:all|every|any|whole|account-wide|overall)\b/.test(rest)) return [];
  if (owner) {
    // the records linked to one item of a list: their link is the item's key
    const link = [...collection.fields.values()].find(
      (f) => !f.path.includes(".") && f.refersTo === owner.collection.name,
    );
    if (!link) return [];
    return link.types.has("array")
      ? [`${owner.key} in ${quoted(link.path)}`]
      : [`$string(${quoted(link.path)}) = $string(${owner.key})`];
  }
  for (const param of ctx.facts.params) {
    if (used(param.name) || param.type === "boolean") continue;
    // an optional argument ("optionally for one repository") keeps them to it when given
    const given = (predicate: string) =>
      param.required ? predicate : `$not($exists($args.${quoted(param.name)})) or ${predicate}`;
    const own = collection.fields.get(param.name);
    // the one record's own key keeps one record, which is no count of them
    if (own && own.path === collection.keyField) continue;
    if (own && !own.path.includes(".") && !own.types.has("object") && !own.types.has("array"))
      return [given(`$string(${quoted(own.path)}) = $string($args.${quoted(param.name)})`)];
    const reference = ctx.references.find((r) => r.param.name === param.name && r.collection !== collection);
    if (!reference) continue;
    const link = [...collection.fields.values()].find(
      (f) => !f.path.includes(".") && f.refersTo === reference.collection.name,
    );
    if (link?.types.has("array")) return [given(`$args.${quoted(param.name)} in ${quoted(link.path)}`)];
    if (link) return [given(`$string(${quoted(link.path)}) = $string($args.${quoted(param.name)})`)];
  }
  return [];
}

// ── the expressions ──

function expressionOf(aggregate: Aggregate): string {
  const { collection, operation, predicates } = aggregate;
  const selected = `${recordsOf(collection)}${predicates.map((p) => `[${p}]`).join("")}`;
  if (operation.op === "count") return `$count(${selected})`;
  if (operation.op === "average") {
    const term = quoted(operation.terms[0] as string);
    const mean = `$average([${selected}[$type(${term}) = "number"].${term}])`;
    if (operation.places === undefined) return mean;
    const scale = 10 ** operation.places;
    // JSONata rounds half to even; "half away from zero" is said where the API rounds so
    const rounded = operation.halfUp
      ? `($m >= 0 ? $floor($m * ${scale} + 0.5) : -$floor(-$m * ${scale} + 0.5)) / ${scale}`
      : `$round($m, ${operation.places})`;
    return `($m := ${mean}; $exists($m) ? ${rounded} : null)`;
  }
  if (operation.op === "groups") {
    const counts = operation.keys.map(
      (key) =>
        `${JSON.stringify(key)}: $count(${selected}[$string(${quoted(operation.field)}) = ${JSON.stringify(key)}])`,
    );
    return `{${counts.join(", ")}}`;
  }
  if (operation.op === "sum") {
    const numbers = operation.terms.map((t) => `[$type(${quoted(t)}) = "number"]`).join("");
    // summed inside brackets, so that no records sum to 0
    return `$sum([${selected}${numbers}.(${operation.terms.map(quoted).join(" * ")})])`;
  }
  const keys =
    collection.container === "map"
      ? `[$each($entity(${JSON.stringify(collection.name)}), function($v, $k) { ($v${predicates.map((p) => `[${p}]`).join("")}) ? $k })]`
      : collection.keyField
        ? `[${selected}.${quoted(collection.keyField)}]`
        : `[]`;
  return operation.sorted ? `$sort(${keys})` : keys;
}

/**
 * The records of a top-level collection, kept in a map or a list. Not inside brackets: an
 * array built in brackets and then filtered answers its one match as the match itself.
 */
function recordsOf(collection: CollectionShape): string {
  const whole = `$entity(${JSON.stringify(collection.name)})`;
  return collection.container === "map" ? `$each(${whole}, function($v) { $v })` : whole;
}

function quoted(name: string): string {
  return `\`${name}\``;
}

/**
 * "capacity minus the sum of quantity over orders for that event whose status is paid",
 * "seats minus the number of entries in members": a number of the record the
 * call reads or changes, less (or plus) a count or a sum over its own list or over the records
 * linked to it.
 */
function recordFormula(
  ctx: Context,
  drafts: readonly Draft[],
  output: OutputFact,
  phrase: string,
): string | undefined {
  const bound = drafts.find(
    (d) =>
      (d.kind === "read" || d.kind === "update" || d.kind === "create") &&
      typeof d.as === "string" &&
      typeof d.target === "string",
  );
  if (!bound) return undefined;
  const collection = ctx.shape.collections.get(String(bound.target).split("/")[0] ?? "");
  if (!collection) return undefined;
  return (
    positionOf(collection, bound, output, phrase) ??
    (bound.kind === "create" ? undefined : formulaOn(ctx, collection, `$${String(bound.as)}`, output, phrase))
  );
}

/**
 * "position: <1-based place in the playlist>": where the record stands in its ordered list, as a
 * queue, a waitlist or a playlist answers a task's, an entry's or a track's place (Twilio TaskRouter, Spotify).
 */
function positionOf(
  collection: CollectionShape,
  bound: Draft,
  output: OutputFact,
  phrase: string,
): string | undefined {
  if (collection.container !== "array" || !isNumeric(output)) return undefined;
  if (!/\b(?:1|one)-based\b|\b(?:place|position|rank)\s+in\s+(?:the\s+)?[a-z_]+/i.test(phrase))
    return undefined;
  const key =
    /\[([A-Za-z_][\w]*)=/.exec(String(bound.target))?.[1] ??
    (bound.kind === "create" ? (bound.id as { field?: string } | undefined)?.field : undefined);
  if (!key) return undefined;
  const record = `$${String(bound.as)}`;
  return `$entity(${JSON.stringify(collection.name)})#$p[${quoted(key)} = ${record}.${quoted(key)}].($p + 1)`;
}

/** The arithmetic on one record (`record` its expression), over its list or its linked records. */
function formulaOn(
  ctx: Context,
  collection: CollectionShape,
  record: string,
  output: OutputFact,
  phrase: string,
  owner?: Owner,
): string | undefined {
  const text = plain(phrase).replace(/[.,;]+.*$/, "");
  const parts = /^([a-z_]+) (minus|plus|less|-|\+) (.+)$/.exec(text);
  if (!parts) return undefined;
  const base = numericField(collection, parts[1] as string);
  if (!base) return undefined;
  const rest = parts[3] as string;
  const listed = /^(?:the )?(?:number|count) of (?:entries|items|elements|values) (?:in|of) ([a-z_]+)$/.exec(
    rest,
  )?.[1];
  let other: string | undefined;
  if (listed && collection.fields.get(listed)?.types.has("array"))
    other = `$count(${record}.${quoted(listed)})`;
  else {
    const aggregate = aggregateOf(ctx, { ...output, type: "number" }, rest, owner);
    if (!aggregate || aggregate.collection === collection) return undefined;
    if (owner && !aggregate.predicates.some((p) => p.includes(owner.key))) return undefined;
    other = expressionOf(aggregate);
  }
  const sign = parts[2] === "plus" || parts[2] === "+" ? "+" : "-";
  return `${record}.${quoted(base.path)} ${sign} ${other}`;
}

// ── fields of each item of a list ──

/**
 * A list whose items the docs give fields the records do not keep ("each with all stored fields
 * plus `seats_left` – seats minus the number of entries in members", `star_count`, "number of
 * cards currently in the list"): each item is answered with them worked out on it, as GitHub's
 * repository listings carry `stargazers_count` and `open_issues_count`. Fields no words explain
 * leave the tool partly inferred, named.
 */
export function listItemAnswers(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const properties = ctx.facts.tool.outputSchema?.properties;
  if (!properties || typeof properties !== "object") return [];
  const out: Draft[] = [];
  for (const draft of drafts) {
    if (draft.kind !== "respond" || typeof draft.output !== "string" || draft.output.includes(".")) continue;
    const value = draft.value as { $expr?: unknown } | undefined;
    const binding = typeof value?.$expr === "string" ? /^\[\$(\w+)\]$/.exec(value.$expr)?.[1] : undefined;
    const list = binding ? drafts.find((d) => d.kind === "list" && d.as === binding) : undefined;
    const collection = list ? ctx.shape.collections.get(String(list.target)) : undefined;
    const items =
      (properties as Record<string, { items?: { properties?: Record<string, unknown> } }>)[draft.output]
        ?.items?.properties ?? describedItems(ctx.facts.tool.description, draft.output);
    if (!collection || !items || !binding) continue;
    const key = ctx.keyFields.get(collection.name) ?? collection.keyField ?? itemKey(ctx, collection, items);
    const owner = key ? { collection, key: `$it.${quoted(key)}` } : undefined;
    const extras: string[] = [];
    const unexplained: string[] = [];
    for (const [name, raw] of Object.entries(items)) {
      if (collection.fields.has(name) || name === key) continue;
      const property = (raw ?? {}) as { type?: unknown; description?: unknown };
      const output: OutputFact = {
        name,
        words: name.split("_"),
        type: typeof property.type === "string" ? property.type : undefined,
        description: typeof property.description === "string" ? property.description : "",
      };
      const expression = itemExpression(ctx, collection, output, owner);
      if (expression) extras.push(`${JSON.stringify(name)}: ${expression}`);
      else unexplained.push(name);
    }
    if (extras.length > 0) {
      out.push({
        kind: "respond",
        output: draft.output,
        value: { $expr: `[$map($${binding}, function($it) { $merge([$it, {${extras.join(", ")}}]) })]` },
      });
      ctx.notes.push(
        `answers each of ${draft.output} with ${extras.map((e) => e.split(":")[0]).join(", ")} worked out on it`,
      );
    }
    if (unexplained.length > 0)
      addGap(
        ctx,
        `documented fields of each ${draft.output} item that no record keeps: ${unexplained.join(", ")}`,
      );
  }
  return out;
}

/**
 * "courses - array of {id, title, seats_taken}": the fields of each item a
 * description lists in braces after the output's name, where the schema leaves its items bare.
 */
function describedItems(description: string, output: string): Record<string, unknown> | undefined {
  const listed = new RegExp(
    `(?:^|[^A-Za-z0-9_])\`?${escapeRegExp(output)}\`?\\s*(?:[-–—:]\\s*)?(?:an? )?(?:array|list) of \\{([^}]*)\\}`,
  ).exec(description)?.[1];
  if (!listed) return undefined;
  const names = listed.split(",").map((name) => name.replace(/[`"'\s]/g, ""));
  if (names.length === 0 || names.some((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))) return undefined;
  return Object.fromEntries(names.map((name) => [name, {}]));
}

/**
 * `board_id` among the fields of each item of a map's records that keep no key: the key, which
 * the records then carry under that name as they are served.
 */
function itemKey(
  ctx: Context,
  collection: CollectionShape,
  items: Record<string, unknown>,
): string | undefined {
  if (collection.container !== "map") return undefined;
  const noun = singular(collection.name.toLowerCase().split("_").pop() ?? "");
  const key = Object.keys(items).find((name) => {
    if (collection.fields.has(name)) return false;
    const words = name.toLowerCase().split("_");
    // `id` alone, or `board_id`: records keep their key under the one name or the other
    return (
      (words.length === 1 && /^(id|key)$/.test(words[0] as string)) ||
      (words.length === 2 &&
        singular(words[0] as string) === noun &&
        /^(id|key|slug|code|name)$/.test(words[1] as string))
    );
  });
  if (key) ctx.keyFields.set(collection.name, key);
  return key;
}

function itemExpression(
  ctx: Context,
  collection: CollectionShape,
  output: OutputFact,
  owner: Owner | undefined,
): string | undefined {
  const phrase = phraseOf(ctx.facts.tool.description, output) ?? siblingPhrase(ctx, output);
  // `star_count` of an item that keeps its `stars`, `label_count` of one that keeps `labels`
  const noun = /^(?:num_|number_of_)?([a-z]+?)(?:_count)?$/.exec(output.name)?.[1];
  if (noun && /_count$|^num_|^number_of_/.test(output.name)) {
    const list = [...collection.fields.values()].find(
      (f) =>
        !f.path.includes(".") &&
        singular(f.path) === singular(noun) &&
        (f.types.has("array") || f.types.has("object")),
    );
    if (list)
      return list.types.has("array")
        ? `$count($it.${quoted(list.path)})`
        : `$count($keys($it.${quoted(list.path)}))`;
  }
  if (!phrase) return undefined;
  const length = ownListLength(collection, phrase);
  if (length) return length;
  const formula = formulaOn(ctx, collection, "$it", output, phrase, owner);
  if (formula) return formula;
  if (!owner) return undefined;
  const aggregate = aggregateOf(ctx, output, phrase, owner);
  // a count over everything would answer every item the same: only the item's own records count
  if (!aggregate?.predicates.some((p) => p.includes(owner.key))) return undefined;
  return expressionOf(aggregate);
}

/**
 * "`signed_up` (roster size)", "the size of its roster", "number of entries in
 * `waitlist`": the size of a list (or map) the item keeps, as listings carry a count of each
 * item's members (GitHub's `stargazers_count`, Trello's `badges.checkItems`, Slack's `num_members`).
 */
function ownListLength(collection: CollectionShape, phrase: string): string | undefined {
  const text = plain(phrase)
    .replace(/[.,;:]+$/, "")
    .replace(/^is /, "");
  const named =
    /^(?:the )?([a-z_]+) (?:length|size|count)$/.exec(text)?.[1] ??
    /^(?:the )?(?:length|size) of (?:the |its |their )?(?:[a-z]+'s )?([a-z_]+)(?: list| array| map)?$/.exec(
      text,
    )?.[1] ??
    /^(?:the )?number of (?:entries|items|elements) in (?:the |its |their )?(?:[a-z]+'s )?([a-z_]+)$/.exec(
      text,
    )?.[1];
  const list = named ? collection.fields.get(named) : undefined;
  if (!list || list.path.includes(".")) return undefined;
  if (list.types.has("array")) return `$count($it.${quoted(list.path)})`;
  return list.types.has("object") ? `$count($keys($it.${quoted(list.path)}))` : undefined;
}

/**
 * "100 * closed / total, rounded to the nearest integer (0 when there are no issues)":
 * arithmetic over fields computed before, where the words are only numbers, operators and
 * their names.
 */
function formulaOf(phrase: string, computed: ReadonlyMap<string, string>): string | undefined {
  const text = phrase.replace(/[`*]{2,}|`/g, "").replace(/×/g, "*");
  const formula = /^\s*([\w\s.*/+()-]+?)\s*(?:,|\(|$)/.exec(text)?.[1];
  if (!formula || !/[*/+-]/.test(formula)) return undefined;
  const tokens = formula.match(/[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[*/+()-]/g) ?? [];
  if (tokens.join("").replace(/\s/g, "") !== formula.replace(/\s/g, "")) return undefined;
  let divisor: string | undefined;
  const parts: string[] = [];
  for (const [i, token] of tokens.entries()) {
    if (/^[A-Za-z_]/.test(token)) {
      const expression = computed.get(token);
      if (!expression) return undefined;
      parts.push(`(${expression})`);
      if (tokens[i - 1] === "/") divisor = expression;
    } else parts.push(token);
  }
  let expression = parts.join(" ");
  if (/\bround(?:ed)?\b[^.]*\b(?:integer|whole number)/i.test(text)) expression = `$round(${expression})`;
  else {
    const places = /\bround(?:ed)? to (\d+) (?:decimal )?(?:places?|digits?)/i.exec(text)?.[1];
    if (places) expression = `$round(${expression}, ${places})`;
  }
  return divisor ? `(${divisor}) = 0 ? 0 : ${expression}` : expression;
}
