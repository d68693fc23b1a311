import escapeRegExp from "escape-string-regexp";
import { backtrackingHazard } from "../catalog/index.js";
import { argumentSpokenOf, speaksOfArgument } from "./conditions.js";
import { addError, type Context, use } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ErrorFact, Param } from "./facts.js";
import { identifier } from "./reads.js";
import { nameWords, sentencesOf, singular } from "./words.js";

/**
 * Documented errors whose condition is about what an argument holds: "INVALID_VOLUME if volume
 * is not between 0 and 100", "OUT_OF_RANGE if brightness is outside that range" (the range given
 * elsewhere in the description), "TOO_FEW if seats is less than 1", "EMPTY_TITLE if
 * title is empty", "INVALID_EMAIL if email contains no "@"". Each becomes a check of the call
 * before anything is read or changed, as a 400 with the API's own code: Stripe's
 * `amount_too_small`, GitHub's 422 `missing_field`, Slack's `invalid_name_maxlength`. An
 * argument left out is not checked (its absence is the schema's business).
 */
export function statedArgumentChecks(ctx: Context): Draft[] {
  const require: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    if (!speaksOfArgument(ctx, error.text)) continue;
    const param = argumentSpokenOf(ctx, error.text);
    const test = param ? testOf(ctx, error, param) : undefined;
    if (!param || !test) continue;
    const arg = `$args.${identifier(param.name)}`;
    require.push({ expr: `${notGiven(param)} or (${test(arg)})`, error: use(ctx, error) });
    ctx.notes.push(`checks ${param.name} as ${error.code} says`);
  }
  require.push(
    ...givenChecks(ctx),
    ...pairedChecks(ctx),
    ...bracketedRanges(ctx),
    ...statedBounds(ctx),
    ...statedFormats(ctx),
    ...stateLimits(ctx),
    ...secretMatches(ctx),
  );
  return require.length > 0 ? [{ kind: "check", require: inDocumentedOrder(ctx, require) }] : [];
}

/**
 * "Errors, checked in this order: …": the checks in the order the description names their codes,
 * where it names every one; otherwise as the rules found them.
 */
function inDocumentedOrder(
  ctx: Context,
  require: Array<Record<string, unknown>>,
): Array<Record<string, unknown>> {
  const text = ctx.facts.tool.description;
  const at = (guard: Record<string, unknown>) =>
    typeof guard.error === "string" ? text.search(new RegExp(`\\b${escapeRegExp(guard.error)}\\b`)) : -1;
  if (require.some((guard) => at(guard) < 0)) return require;
  return [...require].sort((a, b) => at(a) - at(b));
}

/**
 * "INVALID_ARGUMENT if none of the three fields is given", "if both or neither of celsius/offset are
 * given": optional arguments of which at least one, or exactly one, must come, as Stripe's and
 * GitHub's endpoints refuse an update with nothing to change and Spotify's a play given both a
 * context and a list of tracks. The arguments are the ones the condition names, else every
 * optional one.
 */
function givenChecks(ctx: Context): Array<Record<string, unknown>> {
  const require: Array<Record<string, unknown>> = [];
  const optional = ctx.facts.params.filter((p) => !p.required);
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const exactlyOne = /\b(?:both or neither|neither or both)\b/.test(error.text);
    const atLeastOne =
      /\b(?:none of|neither)\b[^.;]*\b(?:is|are) (?:given|provided|passed|set|supplied)\b/.test(error.text);
    if (!exactlyOne && !atLeastOne) continue;
    const named = optional.filter((p) => new RegExp(`(^|[^a-z_])${p.name}([^a-z_]|$)`).test(error.text));
    const among = named.length >= 2 ? named : optional;
    if (among.length < 2) continue;
    const given = among.map((p) => `($exists($args.${identifier(p.name)}) ? 1 : 0)`).join(" + ");
    require.push({ expr: exactlyOne ? `${given} = 1` : `${given} >= 1`, error: use(ctx, error) });
    ctx.notes.push(
      `refuses a call given ${exactlyOne ? "not exactly one" : "none"} of ${among.map((p) => p.name).join(", ")} (${error.code})`,
    );
  }
  return require;
}

/**
 * "SCORE_NEEDS_WATCHED if a non-null score is supplied while watched is false (or
 * omitted)": one argument refused while another is given as, or left at, what the condition says,
 * as Stripe refuses `cancel_at` with `cancel_at_period_end`, GitHub a draft review's `event`, and
 * a form a value its switch does not allow.
 */
function pairedChecks(ctx: Context): Array<Record<string, unknown>> {
  const require: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const said =
      /\b(?:an?\s+)?(non-null\s+)?([a-z_][a-z0-9_]*)(?:\s+\((not null)\))?\s+is\s+(?:given|supplied|provided|passed|set)\s+(?:while|when|but|and)\s+([a-z_][a-z0-9_]*)\s+is\s+(true|false)(\s+\(?or\s+(?:omitted|not given|absent|left out)\)?)?/.exec(
        error.text,
      );
    if (!said) continue;
    const [, nonNullBefore, first, nonNullAfter, second, value, omitted] = said;
    const nonNull = nonNullBefore ?? nonNullAfter;
    const given = ctx.facts.params.find((p) => p.name === first);
    const other = ctx.facts.params.find((p) => p.name === second && p.type === "boolean");
    if (!given || !other) continue;
    const a = `$args.${identifier(given.name)}`;
    const b = `$args.${identifier(other.name)}`;
    const present = nonNull ? `($exists(${a}) and ${a} != null)` : `$exists(${a})`;
    const holds = omitted ? `($not($exists(${b})) or ${b} = ${value})` : `${b} = ${value}`;
    require.push({ expr: `$not(${present} and ${holds})`, error: use(ctx, error) });
    ctx.notes.push(
      `refuses ${given.name} while ${other.name} is ${value}${omitted ? " or left out" : ""} (${error.code})`,
    );
  }
  return require;
}

/**
 * "TOO_MANY_PAGES if pages is greater than shop.limits.max_pages", "PRINTER_PAUSED if
 * shop.printer.paused is true": a limit or a switch the state keeps outside any
 * record the call names, spelled as its path, refuses the call past it, as a store refuses an
 * upload past the account's quota (Dropbox `insufficient_space`, S3's object size limit) and
 * a device a command while its lock is on (Nest's lockout, a car's child lock).
 */
function stateLimits(ctx: Context): Array<Record<string, unknown>> {
  const require: Array<Record<string, unknown>> = [];
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const test = limitTest(ctx, error.text) ?? switchTest(ctx, error.text) ?? capacityTest(ctx, error.text);
    if (!test) continue;
    require.push({ expr: test.expr, error: use(ctx, error) });
    ctx.notes.push(`${test.note} (${error.code})`);
  }
  return require;
}

const PATH = "([a-z_][a-z0-9_]*(?:\\.[a-z_][a-z0-9_]*)*)";
const ABOVE = "greater than|more than|larger than|higher than|above|over|exceeds";
const BELOW = "less than|lower than|smaller than|fewer than|below|under";

function limitTest(ctx: Context, text: string): { expr: string; note: string } | undefined {
  const sayings = text.matchAll(
    new RegExp(
      `(?:^|[^a-z0-9_.])([a-z_][a-z0-9_]*)\\s+(?:is\\s+)?(${ABOVE}|${BELOW})\\s+(?:the\\s+)?(?:current\\s+)?${PATH}`,
      "g",
    ),
  );
  for (const [, name, comparison, spoken] of sayings) {
    if (!name || !comparison || !spoken) continue;
    const param = ctx.facts.params.find((p) => p.name.toLowerCase() === name);
    if (!param || (param.type !== "integer" && param.type !== "number")) continue;
    const limit = statePath(ctx, spoken, "number");
    if (!limit) continue;
    const above = new RegExp(`^(?:${ABOVE})$`).test(comparison);
    const arg = `$args.${identifier(param.name)}`;
    return {
      expr: `${notGiven(param)} or ${arg} ${above ? "<=" : ">="} ${limit.expr}`,
      note: `refuses ${param.name} ${above ? "above" : "below"} ${limit.path}`,
    };
  }
  return undefined;
}

function switchTest(ctx: Context, text: string): { expr: string; note: string } | undefined {
  const said = new RegExp(`(?:^|[^a-z0-9_.])${PATH}\\s+is\\s+(true|false)\\b`).exec(text);
  if (said?.[1] && said[2] && said[1].includes(".")) {
    const flag = statePath(ctx, said[1], "boolean");
    if (flag) return { expr: `${flag.expr} != ${said[2]}`, note: `refuses while ${flag.path} is ${said[2]}` };
  }
  // "NIGHT_MODE if fan.mode is "night"": a word the state keeps at that path
  const worded = new RegExp(`(?:^|[^a-z0-9_.])${PATH}\\s+is\\s+"([^"]{1,40})"`).exec(text);
  if (!worded?.[1] || !worded[2] || !worded[1].includes(".")) return undefined;
  const word = statePath(ctx, worded[1], "string");
  if (!word) return undefined;
  return {
    expr: `$lowercase(${word.expr}) != ${JSON.stringify(worded[2])}`,
    note: `refuses while ${word.path} is "${worded[2]}"`,
  };
}

/**
 * "WAITLIST_FULL when the waitlist already holds limits.most_waiting names": a list or a
 * collection at the top of the state may hold no more than the number the state keeps at that
 * path.
 */
function capacityTest(ctx: Context, text: string): { expr: string; note: string } | undefined {
  const sayings = text.matchAll(
    new RegExp(
      `(?:^|[^a-z0-9_.])([a-z_][a-z0-9_]*)\\s+(?:already\\s+)?(?:holds|has|contains)\\s+${PATH}`,
      "g",
    ),
  );
  const top = ctx.states[0] ?? {};
  for (const [, noun, spoken] of sayings) {
    if (!noun || !spoken) continue;
    const name = Object.keys(top).find(
      (key) => key.toLowerCase() === noun || singular(key.toLowerCase()) === singular(noun),
    );
    // "the worker already holds N" speaks of one record, not of the collection of them
    if (name !== undefined && singular(noun) === noun && singular(name.toLowerCase()) !== name.toLowerCase())
      continue;
    const held = name === undefined ? undefined : top[name];
    if (name === undefined || typeof held !== "object" || held === null) continue;
    const limit = statePath(ctx, spoken, "number");
    if (!limit) continue;
    const items = Array.isArray(held)
      ? `$entity(${JSON.stringify(name)})`
      : `$keys($entity(${JSON.stringify(name)}))`;
    return { expr: `$count(${items}) < ${limit.expr}`, note: `refuses once ${name} holds ${limit.path}` };
  }
  return undefined;
}

/**
 * "If code does not match the stored door code, the call fails with WRONG_CODE": a secret
 * argument (a PIN, a passcode, a password) the docs say must match the one the state keeps, at the
 * top of the state under a name that ends in the argument's (`door_code` for `code`), refuses the call
 * otherwise, as a smart lock's keypad code, a SIM's PIN and a safe's passcode are checked
 * against the stored one.
 */
function secretMatches(ctx: Context): Array<Record<string, unknown>> {
  const require: Array<Record<string, unknown>> = [];
  const sentences = sentencesOf(ctx.facts.tool.description);
  const root = ctx.shape.root;
  // most tools say nothing of matching: the per-argument patterns are built only where one does
  const said = [ctx.facts.text, ...ctx.facts.errors.map((e) => e.text)].join(" ");
  if (root.path.length > 1 || !/\bmatch\b/i.test(said)) return require;
  for (const error of ctx.facts.errors) {
    if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
    const told = [error.text, ...sentences.filter((s) => s.includes(error.code))].join(" ").toLowerCase();
    for (const param of ctx.facts.params) {
      if (param.type !== "string" && param.type !== "integer") continue;
      const name = escapeRegExp(param.name.toLowerCase());
      if (!new RegExp(`\\b${name}\\b[^.;]*?\\b(?:does not|doesn't|do not|fails to) match\\b`).test(told))
        continue;
      const kept = [...root.fields.values()].filter(
        (f) => !f.path.includes(".") && (f.path === param.name || f.path.endsWith(`_${param.name}`)),
      );
      const field = kept.length === 1 ? kept[0] : undefined;
      if (!field) continue;
      const stored =
        root.path.length === 0
          ? `$entity(${JSON.stringify(field.path)})`
          : `$entity(${JSON.stringify(root.path[0])}).${identifier(field.path)}`;
      require.push({ expr: `$args.${identifier(param.name)} = ${stored}`, error: use(ctx, error) });
      ctx.notes.push(`refuses ${param.name} unless it matches ${field.path} (${error.code})`);
      break;
    }
  }
  return require;
}

/** A dotted path to a value of the given type in every example state, as an expression and as spelled there. */
function statePath(
  ctx: Context,
  spoken: string,
  type: "number" | "boolean" | "string",
): { expr: string; path: string } | undefined {
  const [first, ...rest] = spoken.split(".");
  if (first === undefined || ctx.states.length === 0) return undefined;
  let spelled: string[] | undefined;
  for (const state of ctx.states) {
    let value: unknown = state;
    const steps: string[] = [];
    for (const step of [first, ...rest]) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
      const key = Object.keys(value).find((k) => k.toLowerCase() === step);
      if (key === undefined) return undefined;
      steps.push(key);
      value = (value as Record<string, unknown>)[key];
    }
    if (typeof value !== type) return undefined;
    spelled = steps;
  }
  if (!spelled) return undefined;
  const [top, ...deeper] = spelled;
  const expr = `$entity(${JSON.stringify(top)})${deeper.map((step) => `.${identifier(step)}`).join("")}`;
  return { expr, path: spelled.join(".") };
}

/**
 * "Set target_temp_c (10-35) and/or target_humidity_pct (30-90) … if any given value is out of
 * range the call fails": a range in brackets after an argument's name, where the description
 * says a value out of it fails, bounds it (the documented error that speaks of a range, else an
 * added `<ARGUMENT>_OUT_OF_RANGE`, 400), as Nest's setpoint limits and Hue's brightness 1-254 do.
 */
function bracketedRanges(ctx: Context): Array<Record<string, unknown>> {
  const text = ctx.facts.tool.description;
  if (!/\bout of (?:its |the )?range\b|\boutside (?:its |the |that )?range\b/i.test(text)) return [];
  const out: Array<Record<string, unknown>> = [];
  for (const param of ctx.facts.params) {
    if (param.type !== "integer" && param.type !== "number") continue;
    const range = new RegExp(
      `\\b${escapeRegExp(param.name)}\`?\\s*\\(\\s*${NUMBER}\\s*(?:-|–|to)\\s*${NUMBER}\\s*\\)`,
    ).exec(text);
    if (!range?.[1] || !range[2]) continue;
    const documented = ctx.facts.errors.find(
      (e) => e.kind !== "not-found" && !ctx.usedErrors.has(e.code) && /\brange\b/.test(e.text),
    );
    const error = documented
      ? use(ctx, documented)
      : addError(ctx, {
          code: `${param.name.toUpperCase()}_OUT_OF_RANGE`,
          status: 400,
          message: `${param.name} must be between ${range[1]} and ${range[2]}.`,
          when: `The ${param.name} given is outside ${range[1]}-${range[2]} (inferred from the tool's description).`,
        });
    const arg = `$args.${identifier(param.name)}`;
    out.push({ expr: `${notGiven(param)} or (${arg} >= ${range[1]} and ${arg} <= ${range[2]})`, error });
    ctx.notes.push(`checks ${param.name} is within ${range[1]}-${range[2]} (${error})`);
  }
  return out;
}

/**
 * "Allowed: 10.0–30.0 inclusive, in 0.5 steps. Errors: OUT_OF_RANGE, INVALID_STEP": a range or a
 * step the description gives a number argument, where a documented error is named for it (its
 * code or its words speak of a range, a step, a multiple or an increment), checks the argument
 * before anything is read or changed. Nest's and ecobee's setpoints come in half degrees within
 * limits, Compute Engine's custom memory must be a multiple of 256 MB, and AWS's provisioned
 * throughput and Lambda's memory sizes have a range and an increment.
 */
function statedBounds(ctx: Context): Array<Record<string, unknown>> {
  const numbers = ctx.facts.params.filter((p) => p.type === "integer" || p.type === "number");
  if (numbers.length === 0) return [];
  const out: Array<Record<string, unknown>> = [];
  const open = (test: (e: ErrorFact) => boolean) =>
    ctx.facts.errors.find((e) => e.kind !== "not-found" && !ctx.usedErrors.has(e.code) && test(e));
  const ranged = open(
    (e) => /RANGE|BOUNDS/.test(e.code) || /\b(?:out of|outside)\b[^.]*\brange\b/.test(e.text),
  );
  const stepped = open(
    (e) => /STEP|INCREMENT|MULTIPLE/.test(e.code) || /\bmultiple of\b|\bincrements?\b/.test(e.text),
  );
  const used: ErrorFact[] = [];
  for (const param of numbers) {
    const said = clausesOf(ctx, param, numbers.length === 1);
    const arg = `$args.${identifier(param.name)}`;
    // "must be an integer from 100 to 3000 (INVALID_RATING)": the error named for the argument
    const invalid = open((e) => invalidFor(e, param));
    const error = ranged ?? invalid;
    const range = error
      ? said.map((clause) => ownBounds(clause, param, numbers)).find((r) => r !== undefined)
      : undefined;
    if (error && range) {
      out.push({
        expr: `${notGiven(param)} or (${arg} ${range[2] ? ">" : ">="} ${range[0]} and ${arg} <= ${range[1]})`,
        error: error.code,
      });
      used.push(error);
      ctx.notes.push(`checks ${param.name} is within ${range[0]}-${range[1]} (${error.code})`);
    }
    // "amount must be > 0 (INVALID_AMOUNT)", "adds amount (> 0, else INVALID_AMOUNT)": a least value alone
    const least =
      invalid && !range
        ? said.map((clause) => leastIn(clause, param)).find((l) => l !== undefined)
        : undefined;
    if (invalid && least) {
      out.push({
        expr: `${notGiven(param)} or (${arg} ${least.above ? ">" : ">="} ${least.value})`,
        error: invalid.code,
      });
      used.push(invalid);
      ctx.notes.push(
        `checks ${param.name} is ${least.above ? "above" : "at least"} ${least.value} (${invalid.code})`,
      );
    }
    const step = stepped ? [stepped.text, ...said].map(stepIn).find((n) => n !== undefined) : undefined;
    if (stepped && step) {
      // a tolerance, as 0.1 is not a binary fraction: 0.3 is a multiple of 0.1 here
      out.push({
        expr: `${notGiven(param)} or $abs($round(${arg} / ${step}) * ${step} - ${arg}) < 0.000001`,
        error: stepped.code,
      });
      ctx.notes.push(`checks ${param.name} is a multiple of ${step} (${stepped.code})`);
    }
  }
  for (const error of [...used, stepped])
    if (error && out.some((r) => r.error === error.code)) use(ctx, error);
  return out;
}

/**
 * `INVALID_RATING` for `rating`, `BAD_COUNT` for `count`, `INVALID_WEIGHT` for `weight_kg`: an
 * error named for an argument being wrong, by its name's last word or the word before a unit.
 */
function invalidFor(error: ErrorFact, param: Param): boolean {
  if (!/^(?:INVALID|BAD|ILLEGAL)_/.test(error.code)) return false;
  const named = error.code.split("_").slice(1).join("_");
  const words = nameWords(param.name).map((w) => w.toUpperCase());
  const last = words.at(-1) ?? "";
  const beforeUnit = words.length > 1 && last.length <= 3 ? words.at(-2) : undefined;
  return named === last || named === beforeUnit;
}

interface Format {
  said: RegExp;
  /** How a note names it. */
  named: string;
  pattern: string;
  flags?: string;
}

/** Formats written the way docs spell them, and the pattern a value in them matches. */
const FORMATS: ReadonlyArray<Format> = [
  { said: /\bhh:mm\b(?!:)/i, named: "HH:MM", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$" },
  {
    said: /\byyyy-mm-dd\b(?!t)/i,
    named: "YYYY-MM-DD",
    pattern: "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
  },
];

/**
 * "time: 24-hour HH:MM … Errors: INVALID_TIME": a text argument whose format the description
 * spells, where a documented error is named for that argument and says it is invalid (or
 * malformed), checks the format before anything changes, as Google Calendar's and Cal.com's
 * APIs refuse a malformed time of day and Stripe and GitHub a malformed date.
 */
function statedFormats(ctx: Context): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const param of ctx.facts.params) {
    if (param.type !== "string" || param.schema.enum !== undefined) continue;
    const said = clausesOf(ctx, param, false).join(" ");
    const format = FORMATS.find((f) => f.said.test(said)) ?? endsStated(said) ?? patternStated(said);
    if (!format) continue;
    const word = nameWords(param.name).at(-1)?.toUpperCase() ?? "";
    const error = ctx.facts.errors.find(
      (e) =>
        e.kind !== "not-found" &&
        !ctx.usedErrors.has(e.code) &&
        /INVALID|MALFORMED|BAD|FORMAT/.test(e.code) &&
        e.code.split("_").includes(word) &&
        // an error about two arguments' order (`INVALID_DATE_RANGE` when start > end) is not about a format
        !/RANGE|ORDER/.test(e.code) &&
        !/[<>]|\b(?:after|before|greater|less|exceeds?|earlier|later)\b/.test(e.text),
    );
    if (!error) continue;
    const arg = `$args.${identifier(param.name)}`;
    out.push({
      expr: `${notGiven(param)} or $contains(${arg}, /${format.pattern}/${format.flags ?? ""})`,
      error: use(ctx, error),
    });
    ctx.notes.push(`checks ${param.name} is written ${format.named} (${error.code})`);
  }
  return out;
}

/**
 * "`file` must end in \".pdf\" (case-insensitive)", "must start with \"sk-\"": a text an
 * argument must end or start with, as upload APIs take only some file extensions (Slack's
 * `files.upload` filetypes, Shopify's image uploads, GitHub's release assets by extension).
 */
function endsStated(said: string): Format | undefined {
  const found = /\bmust\s+(end|start|begin)\s+(?:in|with)\s+["'“]([^"'”\s]{1,16})["'”]/i.exec(said);
  if (!found?.[1] || !found[2]) return undefined;
  const text = escapeRegExp(found[2]).replace(/\//g, "\\/");
  const pattern = found[1].toLowerCase() === "end" ? `${text}$` : `^${text}`;
  return {
    said: /must\s+(?:end|start|begin)/,
    named: `${found[1].toLowerCase() === "end" ? "ending" : "starting"} with ${found[2]}`,
    pattern,
    ...(/case[- ]insensitive/i.test(said) ? { flags: "i" } : {}),
  };
}

/**
 * "The handle must match ^[a-z][a-z0-9_]{2,15}$ (INVALID_HANDLE)": a pattern the docs give,
 * anchored at both ends and safe to run, as OpenAPI's `pattern` and GitHub's and Stripe's docs
 * state the form of a name.
 */
function patternStated(said: string): Format | undefined {
  const pattern = /\bmust\s+match\s+(\^\S+\$)/.exec(said)?.[1];
  if (!pattern || backtrackingHazard(pattern) !== undefined) return undefined;
  try {
    new RegExp(pattern);
  } catch {
    return undefined;
  }
  return { said: /must\s+match/, named: `as ${pattern}`, pattern: pattern.replace(/\//g, "\\/") };
}

/** The clauses of the description that speak of an argument: those naming it, or every one where it is the only number. */
function clausesOf(ctx: Context, param: Param, only: boolean): string[] {
  const text = `${ctx.facts.tool.description}\n${param.description}`.replace(/[`*]/g, "");
  // a clause ends at a full stop before a space (not a decimal point, nor the dot of ".pdf"),
  // a semicolon or a line's end
  const clauses = text.split(/\.(?=\s|$)|;|\n/);
  const name = namePattern(param);
  const naming = clauses.filter((c) => name.test(c.toLowerCase()));
  return only ? [...naming, ...clauses.filter((c) => !naming.includes(c))] : naming;
}

/** An argument's name as a whole word of lower-cased text. */
function namePattern(param: Param): RegExp {
  return new RegExp(`(?:^|[^a-z_])${escapeRegExp(param.name.toLowerCase())}(?:[^a-z_]|$)`);
}

/**
 * "`pages` (4–400) and `copies` (1–50)": each argument takes the range written after its
 * name; a range written before the names is theirs only where the clause names no other number.
 */
function ownBounds(clause: string, param: Param, numbers: readonly Param[]): Bounds | undefined {
  const lower = clause.toLowerCase();
  const at = lower.search(namePattern(param));
  if (at < 0) return boundsIn(clause);
  // up to the next number argument the clause names
  const rest = lower.slice(at + param.name.length + 1);
  const next = Math.min(
    ...numbers
      .filter((p) => p !== param)
      .map((p) => rest.search(namePattern(p)))
      .filter((i) => i >= 0),
    rest.length,
  );
  const after = boundsIn(rest.slice(0, next));
  if (after) return after;
  const others = numbers.some((p) => p !== param && namePattern(p).test(lower));
  return others ? undefined : boundsIn(clause);
}

/** "amount must be > 0", "amount (> 0, …)", "amount must be at least 1": the least a number may be, said right after its name. */
function leastIn(clause: string, param: Param): { value: string; above: boolean } | undefined {
  const lower = clause.toLowerCase();
  const at = lower.search(namePattern(param));
  if (at < 0) return undefined;
  const after = lower.slice(at + param.name.length + 1, at + param.name.length + 40);
  const said = new RegExp(
    `^\\W*(?:must be |should be |is |be )?(?:an? (?:integer|number|whole number) )?(>=?|greater than or equal to|greater than|at least)\\s*${NUMBER}`,
  ).exec(after);
  if (!said?.[1] || said[2] === undefined) return undefined;
  // a range goes on ("> 0 and <= 500"): that is the range's to read, not this
  if (
    /^\s*(?:and|but)\s+(?:<|no more|not more|at most|up to)/.test(
      after.slice((said.index ?? 0) + said[0].length),
    )
  )
    return undefined;
  return { value: said[2], above: said[1] === ">" || said[1] === "greater than" };
}

/** The least and the most a number may be; the least itself refused where the docs say "greater than". */
type Bounds = [low: string, high: string, aboveLow?: boolean];

/** "10.0–30.0 inclusive", "between 1 and 10", "from 5 to 50", "allowed: 1-254", "more than 0 and at most 300". */
function boundsIn(clause: string): Bounds | undefined {
  const lower = clause.toLowerCase();
  const between = new RegExp(
    `\\b(greater than|more than|above|at least|no less than)\\s+${NUMBER}\\s+(?:and|but)\\s+(?:no more than|not more than|at most|up to|not above|not exceeding)\\s+${NUMBER}`,
  ).exec(lower);
  if (between?.[2] && between[3] && Number(between[2]) < Number(between[3]))
    return [between[2], between[3], !/least|no less/.test(between[1] ?? "")];
  const range =
    new RegExp(`\\bbetween\\s+${NUMBER}\\s+and\\s+${NUMBER}`).exec(lower) ??
    new RegExp(`(?:^|[\\s:(])${NUMBER}\\s*(?:–|—|-|\\.\\.|to)\\s*${NUMBER}(?=\\s|[),.;]|$)`).exec(lower);
  // "if level < 0 or > 100": the bounds a refusal names, as a range of what is allowed
  const refused = new RegExp(`<\\s*${NUMBER}\\s+or\\s+(?:[a-z_]+\\s*)?>\\s*${NUMBER}`).exec(lower);
  if (!range && refused?.[1] && refused[2] && Number(refused[1]) <= Number(refused[2]))
    return [refused[1], refused[2]];
  if (!range?.[1] || !range[2] || Number(range[1]) >= Number(range[2])) return undefined;
  // a date (2024-05-01) or a time (08-10 o'clock) is not a range of values
  if (/\d{4}-\d{2}|\d:\d/.test(range[0])) return undefined;
  return [range[1], range[2]];
}

/** "in 0.5 steps", "in steps of 5", "in increments of 64", "a multiple of 256". */
function stepIn(clause: string): string | undefined {
  const lower = clause.toLowerCase();
  const step =
    new RegExp(`\\bin\\s+${NUMBER}\\s*(?:[a-z°%]+\\s+)?(?:steps|increments)\\b`).exec(lower)?.[1] ??
    new RegExp(`\\b(?:steps|increments) of\\s+${NUMBER}`).exec(lower)?.[1] ??
    new RegExp(`\\bmultiple of\\s+${NUMBER}`).exec(lower)?.[1];
  return step !== undefined && Number(step) > 0 ? step : undefined;
}

type Test = (arg: string) => string;

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;

function testOf(ctx: Context, error: ErrorFact, param: Param): Test | undefined {
  const text = error.text.toLowerCase();
  const numeric = param.type === "integer" || param.type === "number";
  if (numeric) {
    const range =
      rangeIn(text) ??
      (/\b(outside|out of)\b/.test(text) ? rangeIn(`${ctx.facts.text} ${param.description}`) : undefined);
    const negated = /\b(not|outside|out of)\b/.test(text);
    if (range && negated) return (arg) => `${arg} >= ${range[0]} and ${arg} <= ${range[1]}`;
    // "price is zero or negative", "amount is not positive", "quantity is negative"
    if (
      /\b(?:zero or negative|negative or zero|not (?:an? )?positive|not greater than (?:0|zero))\b/.test(text)
    )
      return (arg) => `${arg} > 0`;
    if (/\bis negative\b/.test(text)) return (arg) => `${arg} >= 0`;
    // "delta is 0": a move by nothing is refused
    if (/\bis (?:0|zero)\s*(?:[.,;)]|$)/.test(text)) return (arg) => `${arg} != 0`;
    // "decimals < 0 or decimals > 4": the refused side written as a comparison
    const below =
      new RegExp(`\\b(?:less than|below|under|smaller than)\\s+${NUMBER}`).exec(text) ??
      new RegExp(`(?:^|[\\s(])<\\s*${NUMBER}`).exec(text);
    const above =
      new RegExp(`\\b(?:greater than|more than|above|over|exceeds)\\s+${NUMBER}`).exec(text) ??
      new RegExp(`(?:^|[\\s(])>\\s*${NUMBER}`).exec(text);
    // "under 0 or over 150": both ends refused
    if (below?.[1] && above?.[1]) return (arg) => `${arg} >= ${below[1]} and ${arg} <= ${above[1]}`;
    if (below?.[1]) return (arg) => `${arg} >= ${below[1]}`;
    if (above?.[1]) return (arg) => `${arg} <= ${above[1]}`;
    return undefined;
  }
  if (param.type !== "string") return undefined;
  // "if region is not one of the listed regions", "if visibility is not "public" or "private""
  const allowed = Array.isArray(param.schema.enum) ? param.schema.enum : undefined;
  if (allowed && /\bnot\s+(one of|"|valid|a valid|allowed|supported|listed)/.test(text))
    return (arg) => `${arg} in ${JSON.stringify(allowed)}`;
  // "if direction is not "up" or "down"": the values the error quotes, as the docs spell them
  const written = ctx.facts.tool.errors.find((e) => e.code === error.code);
  const quoted = [...`${written?.when ?? ""} ${written?.message ?? ""}`.matchAll(/"([^"]{1,40})"/g)].map(
    (m) => m[1] as string,
  );
  const choices = [...new Set(quoted)];
  if (!allowed && choices.length >= 2 && /\bnot\s+(?:one of\s+)?"/.test(text))
    return (arg) => `${arg} in ${JSON.stringify(choices)}`;
  if (/\bis empty\b|\bis blank\b/.test(text)) return (arg) => `$length($trim(${arg})) > 0`;
  const lacks = /\bcontains no\s+"([^"]+)"|\bdoes not contain\s+(?:an?\s+)?"([^"]+)"/.exec(text);
  const needed = lacks?.[1] ?? lacks?.[2];
  if (needed) return (arg) => `$contains(${arg}, ${JSON.stringify(needed)})`;
  const has = /\bcontains (?:an?\s+)?"?(space|[^\s"]+)"?(?:\s|$|[.,;])/.exec(text);
  if (has?.[1] === "space") return (arg) => `$not($contains(${arg}, " "))`;
  return undefined;
}

/** "between 1 and 10", "from 88 to 96", "1 (finest) to 10", "88-96". */
function rangeIn(text: string): [string, string] | undefined {
  const lower = text.toLowerCase();
  const match =
    new RegExp(`\\bbetween\\s+${NUMBER}\\s+and\\s+${NUMBER}`).exec(lower) ??
    new RegExp(`\\b(?:from\\s+)?${NUMBER}(?:\\s*\\([^)]*\\))?\\s+to\\s+${NUMBER}`).exec(lower) ??
    new RegExp(`\\b${NUMBER}\\s*[-–]\\s*${NUMBER}\\b`).exec(lower);
  return match?.[1] && match[2] ? [match[1], match[2]] : undefined;
}

/** An argument the caller left out, or gave as null where its schema allows null: no condition applies. */
function notGiven(param: Param): string {
  const arg = `$args.${identifier(param.name)}`;
  const types = param.schema.type;
  const nullable = Array.isArray(types) ? types.includes("null") : param.schema.nullable === true;
  return nullable ? `($not($exists(${arg})) or ${arg} = null)` : `$not($exists(${arg}))`;
}
