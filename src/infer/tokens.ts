import type { JsonSchema, Tool, ToolError } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { addError, type Context } from "./context.js";
import type { Draft } from "./drafts.js";
import type { ToolFacts } from "./facts.js";
import { identifier } from "./reads.js";
import type { FieldShape, RecordShape, StateShape } from "./shape.js";
import { LOGIN_VERBS, LOGOUT_VERBS, nameWords } from "./words.js";

/**
 * Tokens passed as arguments: one tool mints a token (OAuth 2.0's token endpoint answering
 * `access_token` and `expires_in`, Bugzilla's `User.login` answering `token`, Zabbix's
 * `user.login` answering the `auth` string), the state keeps the one last issued, and the
 * other tools take it back as an argument (`access_token`, `token`, `auth`). A call whose
 * token is not the one the state keeps, or has expired, is refused before anything else
 * happens and changes nothing; revoking or logging out clears it. This is how a server that
 * issues tokens behaves: RFC 6749 (5.1, 7.2), RFC 6750 (`invalid_token`, 401) and RFC 7009.
 */

export interface TokenScheme {
  /** The tools that mint a token. */
  signIns: ReadonlySet<string>;
  /** The output property a sign-in answers the token in ("" where the whole answer is the token). */
  outputs: ReadonlyMap<string, string>;
  /** The record that keeps the token last issued, and its field. */
  store: RecordShape;
  field: string;
  /** The record's field saying when the token expires, where it keeps one. */
  expires?: string;
  /** How long a token lives, in seconds, as the sign-in's docs say. */
  lifetime?: number;
  /** How the tokens the state shows begin (`kf_at_`), for new ones to look alike. */
  prefix: string;
  /** A bad token's error as the toolset's tools document it, for tools that document none. */
  error?: ToolError;
}

/** Names of a token that proves who calls: its last word is `token` (`access_token`, `Bugzilla_token`), or `auth`, `session_id`. */
export function isTokenName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 1 && /^(auth|authtoken|sessionid|sid)$/.test(words[0] as string)) return true;
  if (words.join("_") === "session_id" || words.join("_") === "session_key") return true;
  // a page cursor, a device's push token, a refresh token or an OpenID identity token is no proof of the call
  return (
    words.at(-1) === "token" &&
    !words.some((w) =>
      /^(page|next|prev|previous|continuation|cursor|sync|device|push|fcm|apns|csrf|refresh|id|reset|verification|invite|invitation)$/.test(
        w,
      ),
    )
  );
}

/** Arguments that prove who signs in: a password, a client secret, a refresh token, an API key. */
function isSecretName(name: string): boolean {
  const words = nameWords(name);
  return (
    words.some((w) => /^(password|passwd|passphrase|secret|pin)$/.test(w)) ||
    /^(refresh_token|api_key)$/.test(words.join("_"))
  );
}

const SIGNS_IN = /\b(authenticat\w*|sign(s|ed|ing)?[- ]?in|log(s|ged|ging)?[- ]?in|log ?on)\b/i;

/** The toolset's tokens, where one tool mints what the state keeps and others take back. */
export function tokenScheme(
  shape: StateShape,
  siblingsOf: () => readonly ToolFacts[],
): TokenScheme | undefined {
  // a state that keeps no token has no scheme: the tools need not be read (a large catalog's cost)
  if (!keepsToken(shape)) return undefined;
  const siblings = siblingsOf();
  const outputs = new Map<string, string>();
  for (const facts of siblings) {
    const output = mintedOutput(facts);
    if (output !== undefined) outputs.set(facts.tool.name, output);
  }
  if (outputs.size === 0) return undefined;
  // a token no other tool takes back proves nothing here: signing in is then about who, not what is passed
  if (!siblings.some((s) => tokenArgumentOf(s.tool, outputs))) return undefined;
  const kept = keptToken(shape, new Set(outputs.values()));
  if (!kept) return undefined;
  const [first] = outputs.keys();
  const signIn = siblings.find((s) => s.tool.name === first) as ToolFacts;
  return {
    signIns: new Set(outputs.keys()),
    outputs,
    ...kept,
    lifetime: lifetimeOf(signIn),
    error: documentedTokenError(siblings, outputs),
  };
}

/**
 * The output a tool answers a new token in: a token-named property (or, for a login tool
 * whose answer is one string, the answer), where the tool says it signs in, or takes a
 * secret to do it (a password, a client secret).
 */
function mintedOutput(facts: ToolFacts): string | undefined {
  if (facts.words.some((w) => LOGOUT_VERBS.has(w) || w === "revoke")) return undefined;
  const login = facts.words.some((w) => LOGIN_VERBS.has(w));
  const says = login || SIGNS_IN.test(facts.text) || rawParams(facts.tool).some((p) => isSecretName(p.name));
  if (!says) return undefined;
  const named = facts.outputs.filter(
    (o) => isTokenName(o.name) && (o.type === undefined || o.type === "string"),
  );
  if (named.length === 1) return named[0]?.name;
  const schema = facts.tool.outputSchema;
  return login && facts.outputs.length === 0 && schema?.type === "string" ? "" : undefined;
}

function keepsToken(shape: StateShape): boolean {
  return shape.parts.some(
    (part) =>
      part.kind === "record" &&
      [...part.fields.values()].some((f) => !f.path.includes(".") && isTokenName(f.path)),
  );
}

/** The record field that keeps the token: named as a sign-in answers it, else the one token-named field. */
function keptToken(
  shape: StateShape,
  answered: ReadonlySet<string>,
): Pick<TokenScheme, "store" | "field" | "expires" | "prefix"> | undefined {
  const candidates: Array<{ store: RecordShape; field: FieldShape }> = [];
  for (const part of shape.parts) {
    if (part.kind !== "record") continue;
    for (const field of part.fields.values())
      if (
        !field.path.includes(".") &&
        isTokenName(field.path) &&
        [...field.types].every((t) => t === "string" || t === "null")
      )
        candidates.push({ store: part, field });
  }
  const named = candidates.filter((c) => answered.has(c.field.path));
  const chosen = named.length === 1 ? named[0] : candidates.length === 1 ? candidates[0] : undefined;
  if (!chosen) return undefined;
  const expires = [...chosen.store.fields.values()].find(
    (f) =>
      !f.path.includes(".") &&
      f !== chosen.field &&
      nameWords(f.path).some((w) => /^(expires|expiry|expiration|expire|until)$/.test(w)) &&
      !f.types.has("number"),
  );
  return {
    store: chosen.store,
    field: chosen.field.path,
    ...(expires ? { expires: expires.path } : {}),
    prefix: prefixOf(chosen.field.samples),
  };
}

/** What the tokens the state shows begin with, up to their last `_`, `-` or `.` (`kf_at_`). */
function prefixOf(samples: readonly unknown[]): string {
  const tokens = samples.filter((s): s is string => typeof s === "string" && s.length > 0);
  const heads = tokens.map((t) => /^(.*[_.-])[^_.-]+$/.exec(t)?.[1] ?? "");
  return heads.length > 0 && heads.every((h) => h === heads[0]) ? (heads[0] as string) : "";
}

/** "Valid for 3600 seconds", "expires after 2 hours", or a constant `expires_in` in the schema. */
function lifetimeOf(facts: ToolFacts): number | undefined {
  const said =
    /\b(?:valid|good|lives?|lasts?|expires?|expiring)\b[^.]*?\b(?:for|after|in|within)\s+(\d+)\s*(seconds?|secs?|s|minutes?|mins?|hours?|h|days?)\b/i.exec(
      facts.text,
    );
  if (said) {
    const unit = (said[2] as string).toLowerCase();
    const scale = unit.startsWith("m") ? 60 : unit.startsWith("h") ? 3600 : unit.startsWith("d") ? 86400 : 1;
    return Number(said[1]) * scale;
  }
  const schema = facts.tool.outputSchema;
  const properties = schema && isPlainObject(schema.properties) ? schema.properties : {};
  for (const [name, raw] of Object.entries(properties)) {
    if (!isPlainObject(raw) || !/^expires?_in$|^expiry$|^ttl$/.test(nameWords(name).join("_"))) continue;
    const constant =
      (raw as JsonSchema).const ??
      (Array.isArray(raw.enum) && raw.enum.length === 1 ? raw.enum[0] : undefined);
    if (typeof constant === "number") return constant;
  }
  return undefined;
}

/**
 * What a bad token answers: a documented 401, or an error that speaks of the token, of being
 * unauthorized or unauthenticated, or of a session to start again ("re-login, please").
 */
function tokenErrorOf(errors: readonly ToolError[]): ToolError | undefined {
  return errors.find(
    (e) =>
      e.status === 401 ||
      /\b(token|unauthori[sz]ed|unauthenticated|not authenticated|not authori[sz]ed|not (logged|signed) in|re-?login|(log|sign) in again|session (has )?(expired|terminated|ended)|api key)\b/.test(
        `${e.message} ${e.when}`.toLowerCase(),
      ) ||
      /(^|_)(unauthori[sz]ed|unauthenticated|not_authori[sz]ed|not_authenticated|not_logged_in|invalid_token|token_expired|expired_token|invalid_auth|not_authed|session_expired|invalid_session)(_|$)/.test(
        e.code.toLowerCase(),
      ),
  );
}

/** The token error the toolset's token-taking tools document, to add where one does not. */
function documentedTokenError(
  siblings: readonly ToolFacts[],
  outputs: ReadonlyMap<string, string>,
): ToolError | undefined {
  for (const facts of siblings) {
    if (outputs.has(facts.tool.name) || !tokenArgumentOf(facts.tool, outputs)) continue;
    const error = tokenErrorOf(facts.tool.errors);
    if (error) return error;
  }
  return undefined;
}

interface RawParam {
  name: string;
  required: boolean;
  description: string;
  schema: JsonSchema;
}

function rawParams(tool: Tool): RawParam[] {
  const schema = tool.inputSchema;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties).map(([name, raw]) => ({
    name,
    required: required.has(name),
    description: isPlainObject(raw) && typeof raw.description === "string" ? raw.description : "",
    schema: (isPlainObject(raw) ? raw : {}) as JsonSchema,
  }));
}

function tokenArgumentOf(tool: Tool, outputs: ReadonlyMap<string, string>): RawParam | undefined {
  if (outputs.has(tool.name)) return undefined;
  const answered = new Set([...outputs.values()].filter((o) => o !== ""));
  const signIns = [...outputs.keys()].map((n) => n.toLowerCase());
  const params = rawParams(tool);
  return (
    params.find((p) => answered.has(p.name)) ??
    params.find((p) => isTokenName(p.name)) ??
    // an argument described as what the sign-in answered (`auth`: "the string user.login answered")
    params.find((p) => signIns.some((n) => p.description.toLowerCase().includes(n)))
  );
}

/** The argument a tool takes the token in, where the toolset keeps tokens. */
export function tokenArgument(scheme: TokenScheme, tool: Tool): RawParam | undefined {
  return tokenArgumentOf(tool, scheme.outputs);
}

/** The facts of a tool without its token argument and its token error: they select and say nothing else. */
export function withoutToken(facts: ToolFacts, argument: string): ToolFacts {
  const error = tokenErrorOf(facts.tool.errors);
  return {
    ...facts,
    params: facts.params.filter((p) => p.name !== argument),
    errors: facts.errors.filter((e) => e.code !== error?.code),
  };
}

/** `$entity("auth", "access_token")`: the value the state keeps, as the earlier effects of the call left it. */
function kept(scheme: TokenScheme, field: string): string {
  return `$entity(${[...scheme.store.path, field].map((s) => JSON.stringify(s)).join(", ")})`;
}

/** The error a bad token answers: the tool's own, the toolset's, or an added `INVALID_TOKEN` (401). */
function badTokenError(ctx: Context, scheme: TokenScheme, argument: string): string {
  const documented = tokenErrorOf(ctx.facts.tool.errors);
  if (documented) {
    ctx.usedErrors.add(documented.code);
    return documented.code;
  }
  const signIn = [...scheme.signIns][0] as string;
  return addError(
    ctx,
    scheme.error
      ? { ...scheme.error }
      : {
          code: "INVALID_TOKEN",
          status: 401,
          message: `The ${argument} is invalid, revoked or expired; get a new one with ${signIn}.`,
          when: `The ${argument} is not the token ${signIn} last issued, or it has expired (inferred from the state's ${scheme.field}).`,
        },
  );
}

/**
 * A call that takes the token is refused, before anything else, unless its token is the one
 * the state keeps and has not expired; an optional token is checked only when given.
 */
export function tokenGuard(ctx: Context, scheme: TokenScheme, argument: RawParam): Draft[] {
  if (forgiving(ctx)) return [];
  const error = badTokenError(ctx, scheme, argument.name);
  const given = `$args.${identifier(argument.name)}`;
  const require: Array<Record<string, unknown>> = [
    { expr: `${given} = ${kept(scheme, scheme.field)}`, error },
  ];
  if (scheme.expires) {
    const until = kept(scheme, scheme.expires);
    require.push({
      expr: `$exists(${until}) and ${until} != null ? $toMillis(${until}) > $millis() : true`,
      error,
    });
  }
  ctx.notes.push(
    `refuses the call unless ${argument.name} is the ${scheme.field} the state keeps${scheme.expires ? ` and ${scheme.expires} has not passed` : ""} (${error})`,
  );
  return [{ kind: "check", ...(argument.required ? {} : { when: `$exists(${given})` }), require }];
}

/** The clock as the state writes times: `2026-03-02T10:00:00Z`. */
const TIME_PICTURE = "[Y0001]-[M01]-[D01]T[H01]:[m01]:[s01]Z";

/**
 * A new token, the same for the same call on the same state and new at every later sign-in
 * (the clock moves with every change): the clock's minute through two steps of the
 * Park–Miller generator, in base 36, after the prefix the state's tokens show.
 */
function mintedToken(prefix: string): string {
  const minute = "$floor($millis() / 60000)";
  const first = `(${minute} * 48271) % 2147483647`;
  const second = `((${first}) * 48271) % 2147483647`;
  const part = (n: string) => `$pad($formatBase(${n}, 36), -6, "0")`;
  return `${JSON.stringify(prefix)} & ${part(first)} & ${part(second)}`;
}

const TOKEN = "token";
const CALLER = "caller";
const SESSION = "session";

/**
 * Signing in: the credentials must be those of a record the state keeps (a client's id and
 * secret, a user's login and password), else the documented error (or an added
 * `INVALID_CREDENTIALS`, 401); a new token is minted and kept where the state keeps it, with
 * when it expires and what the record says of the caller (`scope`, `client_id`), replacing
 * the one before; the answer gives the token, its lifetime and those fields.
 */
export function signInRule(ctx: Context, scheme: TokenScheme, who: () => readonly Draft[]): Draft[] {
  const output = scheme.outputs.get(ctx.facts.tool.name) ?? "";
  // where no record holds the credentials, who signs in is what the sign-in rules of records say (by email)
  const checked = credentialsCheck(ctx);
  const drafts: Draft[] = checked.length > 0 ? checked : [...who()];
  const caller = drafts.length > 0 ? `$${CALLER}[0]` : undefined;
  drafts.push({ kind: "let", as: TOKEN, value: { $expr: mintedToken(scheme.prefix) } });
  const set: Record<string, unknown> = { [scheme.field]: { $expr: `$${TOKEN}` } };
  if (scheme.expires && scheme.lifetime !== undefined)
    set[scheme.expires] = {
      $expr: `$fromMillis($millis() + ${scheme.lifetime * 1000}, ${JSON.stringify(TIME_PICTURE)})`,
    };
  const params = ctx.facts.params;
  for (const field of scheme.store.fields.values()) {
    if (field.path in set || field.path.includes(".") || isSecretName(field.path)) continue;
    const param = params.find((p) => p.name === field.path && !isSecretName(p.name));
    const constant = constantOf(ctx, field);
    if (param) set[field.path] = `{${param.name}}`;
    else if (caller && callerHas(ctx, field.path))
      set[field.path] = { $expr: `${caller}.${identifier(field.path)}` };
    else if (constant !== undefined) set[field.path] = constant;
  }
  const target = scheme.store.path.join("/") || ".";
  drafts.push({ kind: "update", target, set, as: SESSION });
  ctx.notes.push(
    `mints a token and keeps it in ${target}.${scheme.field}, setting ${
      Object.keys(set)
        .filter((f) => f !== scheme.field)
        .join(", ") || "nothing else"
    }`,
  );
  drafts.push({ kind: "respond", ...(output ? { output } : {}), value: { $expr: `$${TOKEN}` } });
  for (const o of ctx.facts.outputs) {
    if (o.name === output) continue;
    if (/^expires?_in$|^ttl$/.test(nameWords(o.name).join("_")) && scheme.lifetime !== undefined)
      drafts.push({ kind: "respond", output: o.name, value: { $expr: String(scheme.lifetime) } });
    else if (scheme.store.fields.has(o.name))
      drafts.push({ kind: "respond", output: o.name, value: { $expr: `$${SESSION}.${identifier(o.name)}` } });
    else if (caller && callerHas(ctx, o.name) && !isSecretName(o.name))
      drafts.push({ kind: "respond", output: o.name, value: { $expr: `${caller}.${identifier(o.name)}` } });
  }
  return drafts;
}

/** The collection whose records hold every credential the sign-in is given (`client_id` and `client_secret`). */
const credentialsOf = new WeakMap<Context, Credentials | null>();

function credentials(ctx: Context): Credentials | undefined {
  const known = credentialsOf.get(ctx);
  if (known !== undefined) return known ?? undefined;
  const given = credentialParams(ctx);
  let found: Credentials | undefined;
  for (const collection of ctx.shape.collections.values()) {
    // what the accounts keep proves who calls (a badge and a PIN); what they do not (the name
    // of the device signed in from) is said, not checked, and never lets a wrong secret through
    const held = given.filter((p) => collection.fields.has(p.name));
    if (held.some((p) => isSecretName(p.name)) && held.length >= 2) {
      found = { target: collection.path.join("/"), fields: new Set(collection.fields.keys()), given: held };
      break;
    }
  }
  credentialsOf.set(ctx, found ?? null);
  return found;
}

interface Credentials {
  /** The accounts' collection. */
  target: string;
  fields: Set<string>;
  /** The arguments an account must hold all of. */
  given: RawParam[];
}

/**
 * What a sign-in proves who calls by: its free text arguments (an id, a login, a secret), not
 * a choice among fixed values (`grant_type`), a flag (`remember_me`) or the scope asked for.
 */
function credentialParams(ctx: Context): RawParam[] {
  return rawParams(ctx.facts.tool).filter(
    (p) =>
      p.schema.type === "string" &&
      !Array.isArray(p.schema.enum) &&
      p.schema.const === undefined &&
      !/^scopes?$/.test(p.name),
  );
}

function callerHas(ctx: Context, field: string): boolean {
  return credentials(ctx)?.fields.has(field) ?? false;
}

function credentialsCheck(ctx: Context): Draft[] {
  const found = credentials(ctx);
  if (!found) return [];
  const { given } = found;
  const documented = ctx.facts.errors.find((e) =>
    /credential|password|secret|client authentication|invalid client|wrong|no (user|account|client)/.test(
      e.text,
    ),
  );
  const code =
    documented?.code ??
    addError(ctx, {
      code: "INVALID_CREDENTIALS",
      status: 401,
      message: "The credentials are wrong.",
      when: `No record of ${found.target} has the given ${given.map((p) => p.name).join(" and ")} (inferred).`,
    });
  if (documented) ctx.usedErrors.add(documented.code);
  const filter = given.map((p) => `${identifier(p.name)} = $args.${identifier(p.name)}`).join(" and ");
  ctx.notes.push(
    `signs in the record of ${found.target} whose ${given.map((p) => p.name).join(" and ")} are given (${code})`,
  );
  return [
    { kind: "list", target: found.target, filter, as: CALLER },
    { kind: "check", require: [{ expr: `$count($${CALLER}) > 0`, error: code }] },
  ];
}

/** A field every example shows with one value, or the output schema's one value (`token_type`: `Bearer`). */
function constantOf(ctx: Context, field: FieldShape): string | undefined {
  const output = ctx.facts.tool.outputSchema?.properties;
  const raw = isPlainObject(output) ? output[field.path] : undefined;
  if (
    isPlainObject(raw) &&
    Array.isArray(raw.enum) &&
    raw.enum.length === 1 &&
    typeof raw.enum[0] === "string"
  )
    return raw.enum[0];
  if (isPlainObject(raw) && typeof raw.const === "string") return raw.const;
  const values = field.samples.filter((s): s is string => typeof s === "string");
  return values.length > 0 && values.every((v) => v === values[0]) ? values[0] : undefined;
}

/**
 * Logging out or revoking with the token clears what the state keeps of it: RFC 7009's
 * revocation, Bugzilla's `User.logout`, Zabbix's `user.logout`.
 */
export function revokeRule(ctx: Context, scheme: TokenScheme): Draft[] | undefined {
  const words = ctx.facts.words;
  if (!words.some((w) => LOGOUT_VERBS.has(w) || w === "revoke" || w === "invalidate")) return undefined;
  const target = scheme.store.path.join("/") || ".";
  const set: Record<string, null> = {};
  for (const field of scheme.store.fields.values())
    if (!field.path.includes(".") && (field.path === scheme.field || field.path === scheme.expires))
      set[field.path] = null;
  if (forgiving(ctx)) {
    // RFC 7009 §2.2: an invalid token is no error, and revoking it changes nothing
    const argument = tokenArgument(scheme, ctx.facts.tool)?.name ?? "";
    ctx.notes.push(
      `clears ${Object.keys(set).join(", ")} of ${target} when ${argument} is the one kept; any other is no error`,
    );
    return [
      {
        kind: "update",
        target,
        set,
        as: SESSION,
        when: `$args.${identifier(argument)} = ${kept(scheme, scheme.field)}`,
      },
    ];
  }
  ctx.notes.push(`clears ${Object.keys(set).join(", ")} of ${target}`);
  return [{ kind: "update", target, set, as: SESSION }];
}

/** A revoke whose docs say an unknown or invalid token is no error ("always succeeds"), as RFC 7009 has it. */
function forgiving(ctx: Context): boolean {
  return (
    ctx.facts.words.some((w) => LOGOUT_VERBS.has(w) || w === "revoke" || w === "invalidate") &&
    /\b(unknown|invalid|expired|revoked)\b[^.]*\b(is|are)\s+(not an error|no error|ignored)\b|\balways succeeds\b/i.test(
      ctx.facts.text,
    )
  );
}
