/**
 * The vocabulary inference reads tools with: words of names, singular and plural nouns, and
 * the verbs that say whether a tool reads, creates, changes or removes. The runtime fallback
 * of the offline engine (src/simulate/infer.ts) uses the same words.
 */

export type Action = "read" | "create" | "update" | "delete";

/**
 * Verbs that begin the name of a tool that only looks things up: the ones hybrid mode trusts
 * to run on a real server. Inference reads more verbs as reads (VERBS.read).
 */
export const LOOKUP_VERBS: readonly string[] = [
  "get",
  "list",
  "search",
  "find",
  "fetch",
  "read",
  "describe",
  "view",
  "show",
  "retrieve",
  "query",
  "lookup",
  "browse",
  "inspect",
  "count",
  "stat",
];

/** Verbs that say a tool removes what it names. */
export const REMOVE_VERBS: readonly string[] = [
  "delete",
  "remove",
  "destroy",
  "purge",
  "drop",
  "erase",
  "unregister",
  "revoke",
  "unlink",
  "rm",
];

export const VERBS: Readonly<Record<Action, readonly string[]>> = {
  read: [
    ...LOOKUP_VERBS,
    // these change nothing either, though a real server may do work for them
    "look",
    "check",
    "calculate",
    "compute",
    "estimate",
    "quote",
    "verify",
    "validate",
    "preview",
    "track",
    "compare",
    "recommend",
    "explain",
    "summarize",
    "download",
    "export",
    "is",
    "has",
    "can",
    "display",
    "print",
    "measure",
    "ls",
    "cat",
    "pwd",
    "grep",
    "tail",
    "head",
    "wc",
    "du",
    "diff",
    "filter",
    "sort",
    "stat",
  ],
  create: [
    "create",
    "add",
    "register",
    "book",
    "place",
    "submit",
    // a job put on a queue is a new record of it (Sidekiq, RQ, Laravel's queues)
    "enqueue",
    "schedule",
    "open",
    "issue",
    "generate",
    "new",
    "make",
    "post",
    "send",
    "upload",
    "enroll",
    "initiate",
    "start",
    "request",
    "log",
    "record",
    "reserve",
    // buying makes an order, a policy or a ticket of what is bought
    "purchase",
    "buy",
    // renting makes a rental, as a car-hire or bike-share API files one
    "rent",
    "hire",
    "lease",
    "file",
    "insert",
    "compose",
    "publish",
    "reply",
    // answering a record makes one (`respond_to_post`), as does passing one on (`share_post`)
    "respond",
    "answer",
    "forward",
    "share",
    "repost",
    "reblog",
    "comment",
    "invite",
    "mkdir",
    "touch",
  ],
  update: [
    "update",
    "set",
    "modify",
    "change",
    "edit",
    // notes on a record: Monzo's annotate transaction, `kubectl annotate`
    "annotate",
    "cancel",
    // an invoice or a payment voided keeps its record, marked void (Stripe, QuickBooks, Xero)
    "void",
    "approve",
    "reject",
    "assign",
    "close",
    "complete",
    "confirm",
    "mark",
    "flag",
    "move",
    "rename",
    "resolve",
    "suspend",
    "activate",
    "deactivate",
    "amend",
    "transfer",
    "apply",
    "refund",
    "process",
    "reschedule",
    "pay",
    "upgrade",
    "downgrade",
    "enable",
    "disable",
    "archive",
    "return",
    "exchange",
    "replace",
    "redeem",
    "renew",
    "restore",
    "ship",
    "deliver",
    "accept",
    "decline",
    "block",
    "unblock",
    "lock",
    "unlock",
    "pause",
    "resume",
    "adjust",
    "configure",
    "toggle",
    "switch",
    "turn",
    "press",
    "release",
    "fill",
    "refill",
    "login",
    "logout",
    "authenticate",
    "cd",
    "mv",
    "cp",
    "copy",
    "echo",
    "write",
    // the methods of HTTP that change a resource
    "patch",
    "put",
    "solve",
    "reopen",
    "discontinue",
    "reset",
    // amounts moved into or out of a stored number
    "deposit",
    "fund",
    "topup",
    "credit",
    "increase",
    "increment",
    "withdraw",
    "redeem",
    "debit",
    "spend",
    "deduct",
    "decrease",
    "decrement",
    "recharge",
    "raise",
    "load",
    "reduce",
    "lower",
    "use",
    "consume",
    // membership of a set the state keeps
    "grant",
    "follow",
    "unfollow",
    "subscribe",
    "unsubscribe",
    "watch",
    "unwatch",
    "pin",
    "unpin",
    "star",
    "unstar",
    "like",
    "unlike",
    "join",
    "leave",
    "bookmark",
    "unbookmark",
    "favorite",
    "unfavorite",
    "favourite",
    "unfavourite",
    "tag",
    "untag",
    "mention",
    "unmention",
    "save",
    "unsave",
    "include",
    "exclude",
    "append",
    "signin",
    "signout",
  ],
  delete: [...REMOVE_VERBS, "rmdir"],
};

/** Verbs that only change fields: their arguments are the new values, not a record of an action. */
export const PLAIN_UPDATE_VERBS: ReadonlySet<string> = new Set([
  "update",
  "set",
  "modify",
  "change",
  "edit",
  "amend",
  "rename",
  "replace",
  "patch",
  "adjust",
  "configure",
]);

/**
 * Verbs that put a value into a set the state keeps (a playlist, the people one follows),
 * and their opposites, which take it out: the membership endpoints of social and market
 * APIs (follow/unfollow, star/unstar, subscribe/unsubscribe, watch/unwatch).
 */
export const JOIN_VERBS: ReadonlySet<string> = new Set([
  "add",
  "follow",
  "subscribe",
  "watch",
  "pin",
  "star",
  "like",
  "join",
  "tag",
  "mention",
  "bookmark",
  "favorite",
  "favourite",
  "save",
  "include",
  "append",
  // a permission or a role given to someone: Auth0's `POST /users/{id}/roles`, Okta's grants
  "grant",
]);
export const LEAVE_VERBS: ReadonlySet<string> = new Set([
  "remove",
  "unfollow",
  "unsubscribe",
  "unwatch",
  "unpin",
  "unstar",
  "unlike",
  "leave",
  "untag",
  "unmention",
  "unbookmark",
  "unfavorite",
  "unfavourite",
  "unsave",
  "exclude",
  "delete",
  "drop",
]);

/**
 * Verbs that put someone on a list kept of them, and take them off (`block_user` → `blocked`,
 * `mute_account` → `muted`), where a list is named by the verb: X's and Mastodon's blocks and
 * mutes, GitHub's `PUT /user/blocks/{username}`.
 */
export const LISTING_VERBS: Readonly<Record<string, "add" | "remove">> = {
  block: "add",
  unblock: "remove",
  mute: "add",
  unmute: "remove",
  ban: "add",
  unban: "remove",
};

/** The listing verb a name starts with, where the vocabulary of the other rules does not know it (`mute`). */
export function listingVerbOf(words: readonly string[], known: string | undefined): string | undefined {
  const first = words[0] ?? "";
  return known ?? (LISTING_VERBS[first] ? first : undefined);
}

/** Verbs that ask whether something holds (`has_tag`, `is_member`, `contains_item`, `check_label`). */
export const ASKING_VERBS: ReadonlySet<string> = new Set(["has", "is", "contains", "check", "includes"]);

/** Membership verbs whose caller is who joins or leaves (a channel joined, a repository starred). */
export const SELF_MEMBERSHIP_VERBS: ReadonlySet<string> = new Set([
  "join",
  "leave",
  "subscribe",
  "unsubscribe",
  "follow",
  "unfollow",
  "watch",
  "unwatch",
  "star",
  "unstar",
  "like",
  "unlike",
  "favorite",
  "unfavorite",
  "favourite",
  "unfavourite",
]);

/** Verbs that add an amount to a stored number (a balance), and verbs that take one from it. */
export const INCREASE_VERBS: ReadonlySet<string> = new Set([
  // points earned: Square Loyalty's accumulated points, Starbucks' stars, airline miles
  "earn",
  "accrue",
  "award",
  "deposit",
  "fund",
  "topup",
  "top",
  "credit",
  "increase",
  "increment",
  "raise",
  "load",
  "add",
  "refill",
  "fill",
  "recharge",
]);
export const DECREASE_VERBS: ReadonlySet<string> = new Set([
  "withdraw",
  // points and stored value spent: Square's loyalty reward redemptions, Starbucks' stars
  "redeem",
  "debit",
  "spend",
  "deduct",
  "decrease",
  "decrement",
  "reduce",
  "lower",
  "use",
  "consume",
]);

/**
 * Verbs of goods coming in and going out of stock: a count of units moves as a balance does
 * (Shopify's inventory `received` and picked quantities, Square's inventory adjustments).
 */
export const GOODS_IN_VERBS: ReadonlySet<string> = new Set(["receive", "restock", "replenish", "stock"]);
export const GOODS_OUT_VERBS: ReadonlySet<string> = new Set(["ship", "dispatch", "pick", "issue", "sell"]);

/** A name for who is signed in (`signed_in_as`, `loggedInUser`), not for when or whether. */
export function namesSignedInAccount(name: string): boolean {
  const words = nameWords(name);
  return (
    // `signed_in_as`, `loggedInUser`, `current_user` (Firebase's `currentUser`)
    (words.includes("signed") || words.includes("logged") || words.includes("current")) &&
    words.some((w) => /^(in|as|user|account|member)$/.test(w)) &&
    !/^(at|on|time|date|since|until|count|times)$/.test(words.at(-1) ?? "")
  );
}

/** Verbs that open and close a session with the API, and the ones that only ask about it. */
export const LOGIN_VERBS: ReadonlySet<string> = new Set(["login", "signin", "authenticate", "logon"]);
export const LOGOUT_VERBS: ReadonlySet<string> = new Set(["logout", "signout", "logoff"]);

/** Verbs that put an entity into a status: the stem the state's spelling starts with, and the default. */
export const STATUS_VERBS: Readonly<Record<string, readonly [stem: string, status: string]>> = {
  cancel: ["cancel", "cancelled"],
  void: ["void", "void"],
  approve: ["approv", "approved"],
  reject: ["reject", "rejected"],
  close: ["close", "closed"],
  complete: ["complet", "completed"],
  confirm: ["confirm", "confirmed"],
  resolve: ["resolv", "resolved"],
  suspend: ["suspend", "suspended"],
  activate: ["activ", "active"],
  deactivate: ["inactiv", "inactive"],
  archive: ["archiv", "archived"],
  refund: ["refund", "refunded"],
  ship: ["ship", "shipped"],
  deliver: ["deliver", "delivered"],
  accept: ["accept", "accepted"],
  decline: ["declin", "declined"],
  block: ["block", "blocked"],
  unblock: ["activ", "active"],
  lock: ["lock", "locked"],
  unlock: ["unlock", "unlocked"],
  pause: ["pause", "paused"],
  resume: ["activ", "active"],
  redeem: ["redeem", "redeemed"],
  solve: ["solv", "solved"],
  reopen: ["open", "open"],
  publish: ["publish", "published"],
  submit: ["submit", "submitted"],
  discontinue: ["discontinu", "discontinued"],
};

const wordCache = new Map<string, readonly string[]>();

/** The words of a name (`getOrderDetails`, `get_order-details` → get, order, details). */
export function wordsOf(name: string): string[] {
  return [...nameWords(name)];
}

/** wordsOf, shared and cached: inference asks for the same names many times. */
export function nameWords(name: string): readonly string[] {
  let words = wordCache.get(name);
  if (!words) {
    words = name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    if (wordCache.size > 50_000) wordCache.clear();
    wordCache.set(name, words);
  }
  return words;
}

const singularCache = new Map<string, string>();

export function singular(word: string): string {
  let found = singularCache.get(word);
  if (found === undefined) {
    found = singularOf(word);
    if (singularCache.size > 50_000) singularCache.clear();
    singularCache.set(word, found);
  }
  return found;
}

/** Plurals English does not make with an s (`people` of a `person_id`, `children` of a node). */
const IRREGULAR: Readonly<Record<string, string>> = {
  people: "person",
  children: "child",
  men: "man",
  women: "woman",
  mice: "mouse",
  geese: "goose",
  teeth: "tooth",
  feet: "foot",
};
const IRREGULAR_PLURAL: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(IRREGULAR).map(([many, one]) => [one, many]),
);

function singularOf(word: string): string {
  const irregular = IRREGULAR[word.toLowerCase()];
  if (irregular) return irregular;
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  // analyses → analysis; addresses → address, statuses → status (houses, causes keep their e)
  if (/yses$/.test(word)) return `${word.slice(0, -2)}is`;
  if (/(ch|sh|x|z|ss|[^aeiou]us)es$/.test(word)) return word.slice(0, -2);
  if (ENDS_IN_AS.test(word.slice(0, -2)) && word.endsWith("es")) return word.slice(0, -2);
  if (/s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Nouns whose singular ends in "as" (an e-mail alias, a canvas), which a plain "s" would cut. */
const ENDS_IN_AS = /(alias|bias|canvas|atlas)$/;

export function plural(word: string): string {
  const irregular = IRREGULAR_PLURAL[word.toLowerCase()];
  if (irregular) return irregular;
  if (/(ss|x|z|ch|sh|[^aeiou]us)$/.test(word) || ENDS_IN_AS.test(word)) return `${word}es`;
  if (/[^aeiou]is$/.test(word)) return `${word.slice(0, -2)}es`;
  if (word.endsWith("s")) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** The same noun, whatever its number and casing: `Orders`, `order`, `delivery_slots`, `deliverySlot`. */
export function sameNoun(a: string, b: string): boolean {
  const keys = nounKeys(b);
  return nounKeys(a).some((key) => key !== "" && keys.includes(key));
}

const nounCache = new Map<string, readonly string[]>();

/**
 * A noun in one form whatever its number and casing (`Delivery_Slots` → `delivery_slot`).
 * A plural in -ves has two readings (`shelves` → shelve, shelf; `curves` → curve, curf): both
 * are keys, so either singular finds it.
 */
export function nounKeys(name: string): readonly string[] {
  let keys = nounCache.get(name);
  if (keys === undefined) {
    const words = nameWords(name);
    const head = words.slice(0, -1).map(singular);
    const last = words.at(-1) ?? "";
    const lasts = /ves$/.test(last)
      ? [singular(last), `${last.slice(0, -3)}f`, `${last.slice(0, -3)}fe`]
      : [singular(last)];
    keys = lasts.map((l) => [...head, l].join("_"));
    if (nounCache.size > 50_000) nounCache.clear();
    nounCache.set(name, keys);
  }
  return keys;
}

/** Names of identifiers: `order_id`, `orderId`, `item_ids`, `code`, `reference`. */
const ID_SUFFIX = /(^|_)(id|ids|uuid|key|ref|reference|number|no|code)$/;

export function isIdentifierName(name: string): boolean {
  const snake = nameWords(name).join("_");
  if (idFirst(name)) return true;
  return ID_SUFFIX.test(snake) && !/phone|zip|postal|street|card_number|account_number/.test(snake);
}

/** The identifier word first (`idList`, `id_customer`), as Trello and PrestaShop name them. */
function idFirst(name: string): boolean {
  return nameWords(name).length >= 2 && /^id(_|[A-Z])/.test(name);
}

/** `order_id` → `order`, `delivery_slot_id` → `delivery_slot`, `item_ids` → `item`; undefined for a bare `id`. */
export function nounOfIdentifier(name: string): string | undefined {
  const words = nameWords(name);
  if (idFirst(name)) return words.slice(1).map(singular).join("_");
  if (words.length < 2 || !ID_SUFFIX.test(words.join("_"))) return undefined;
  return words.slice(0, -1).map(singular).join("_");
}

/** The first verb of a tool's name (among its first two words), and what it does. */
export function verbOf(name: string): { verb: string; action: Action } | undefined {
  // a number at the end tells copies apart (`list_items_2`, `search_v2`): it is no word
  const words = verbWords(name).filter((w, i, all) => i < all.length - 1 || !/^v?\d+$/.test(w));
  // verb first (`get_order`, `orders.submit`), else verb last, as resource-first names put it
  // (`note_add`, `user_profile_update`, `shelf_note_list_all`)
  const tail = words.length > 2 ? words.slice(-2).reverse() : [];
  // a two-word verb first is the verb, known or not: `check_out_book` does not book
  const candidates = JOINED_VERBS.includes(words[0] ?? "")
    ? words.slice(0, 1)
    : [...words.slice(0, 2), ...tail];
  for (const word of candidates) {
    for (const action of ["delete", "update", "create", "read"] as const)
      if (VERBS[action].includes(word)) return { verb: word, action };
    // a making verb undone takes out what it put in (`unenroll`, as `unregister` does)
    if (/^un[a-z]{4,}$/.test(word) && VERBS.create.includes(word.slice(2)))
      return { verb: word, action: "delete" };
  }
  return undefined;
}

const JOINED_VERBS = [
  "login",
  "logout",
  "logon",
  "logoff",
  "signin",
  "signout",
  "topup",
  "checkin",
  "checkout",
];

/**
 * The words of a name with two-word verbs joined (`log_in` → login, `sign_out` → signout,
 * `top_up` → topup, `check_out` → checkout), so a verb is one word whatever the naming style.
 */
export function verbWords(name: string): string[] {
  const words = [...nameWords(name)];
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = `${words[i]}${words[i + 1] ?? ""}`;
    if (JOINED_VERBS.includes(pair)) {
      joined.push(pair);
      i++;
    } else joined.push(words[i] as string);
  }
  return joined;
}

/**
 * "Snoozes an active alert" for `snooze_search_alert`: a name's first word that
 * the description opens with is its verb, even one toolsim does not know, and the known verb
 * behind it (`search`) is part of the noun.
 */
export function describedVerb(
  name: string,
  description: string,
): { verb: string; action: undefined } | undefined {
  const words = verbWords(name);
  const first = words[0];
  const opening = /^\s*([A-Za-z]+)/.exec(description)?.[1]?.toLowerCase();
  if (!first || !opening || words.length < 3) return undefined;
  if (verbOf(first) !== undefined) return undefined;
  // "Holds …", "Begins …": a verb's third person opens the docs of an action
  const conjugated = [`${first}s`, `${first}es`, first.replace(/y$/, "ies")].includes(opening);
  // "Hold a job": the bare word, where a known verb right after it would be taken instead
  const bare = opening === first && verbOf(words.slice(1).join("_"))?.verb === words[1];
  return conjugated || bare ? { verb: first, action: undefined } : undefined;
}

/**
 * "Register a parcel at the depot" for `receive_parcel`: a name whose verb toolsim does not
 * know takes the action of the known verb its description opens with, where that verb's
 * object is what the name is about. Docs explain a domain's verb in the common one
 * (Shopify's "fulfill" creates a fulfillment, Twilio's "Provision a number" buys one).
 */
export function openingVerb(name: string, description: string): { verb: string; action: Action } | undefined {
  const words = verbWords(name);
  const first = words[0];
  // "Finally removes a kit": an adverb before the verb says how, not what
  const opening = /^\s*(?:[A-Za-z]+ly\s+)?([A-Za-z]+)\s+(?:(?:a|an|the|one|new)\s+)*([A-Za-z]+)/.exec(
    description,
  );
  if (!first || !opening?.[1] || !opening[2] || words.length < 2) return undefined;
  const said = opening[1].toLowerCase();
  const known = [said, said.replace(/ies$/, "y"), said.replace(/es$/, ""), said.replace(/s$/, "")]
    .map((w) => verbOf(w))
    .find((v) => v !== undefined && v.verb !== first);
  const object = singular(opening[2].toLowerCase());
  const at = words.findIndex((w, i) => i > 0 && singular(w) === object);
  if (!known || at < 0) return undefined;
  // the name's word before the object is its verb (`retire` of `shed_retire_kit`, a product's name first)
  return { verb: words[at - 1] as string, action: known.action };
}

/** Whether a tool reads, creates, updates or deletes, from its read-only hint and its verb. */
export function actionOf(tool: {
  name: string;
  description?: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}): Action {
  if (tool.annotations?.readOnlyHint === true) return "read";
  // a verb the description opens with, that toolsim does not know, changes something
  if (tool.description && describedVerb(tool.name, tool.description)) return "update";
  const verb = verbOf(tool.name);
  if (verb) return verb.action;
  if (tool.annotations?.destructiveHint === true) return "delete";
  return "read";
}

/**
 * A verb's past participle, as a status or a confirmation says it: `cancel` → `cancelled`
 * (the spelling of the status the verb sets), `send` → `sent`, `logout` → `logged out`,
 * `pin` → `pinned`, `modify` → `modified`.
 */
export function participle(verb: string): string {
  const irregular = IRREGULAR_PARTICIPLES[verb];
  if (irregular) return irregular;
  // a verb done again is the verb's participle again (reset → reset, resend → resent)
  const again = /^re[a-z]{3,}$/.test(verb) ? IRREGULAR_PARTICIPLES[verb.slice(2)] : undefined;
  if (again) return `re${again}`;
  const status = STATUS_VERBS[verb]?.[1];
  if (status?.endsWith("ed")) return status;
  // an undoing verb is the verb's participle undone (untag → untagged, unpin → unpinned)
  if (/^un[a-z]{3,}$/.test(verb)) return `un${participle(verb.slice(2))}`;
  if (verb.endsWith("e")) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  // one short closed syllable doubles its consonant (stop → stopped, pin → pinned)
  if (/^[^aeiou]*[aeiou][bdgklmnprt]$/.test(verb)) return `${verb}${verb.at(-1)}ed`;
  // and so does a stressed last syllable (submit → submitted, transfer → transferred)
  if (/(mit|[^f]fer|cur|pel|trol)$/.test(verb)) return `${verb}${verb.at(-1)}ed`;
  return `${verb}ed`;
}

const IRREGULAR_PARTICIPLES: Readonly<Record<string, string>> = {
  send: "sent",
  set: "set",
  put: "put",
  make: "made",
  get: "retrieved",
  read: "read",
  find: "found",
  write: "written",
  run: "run",
  begin: "begun",
  take: "taken",
  give: "given",
  freeze: "frozen",
  hide: "hidden",
  build: "built",
  pay: "paid",
  buy: "bought",
  sell: "sold",
  withdraw: "withdrawn",
  hold: "held",
  leave: "left",
  checkin: "checked in",
  checkout: "checked out",
  login: "logged in",
  logout: "logged out",
  logon: "logged on",
  logoff: "logged off",
  signin: "signed in",
  signout: "signed out",
  topup: "topped up",
};

/**
 * The commands of a POSIX shell that change files, spelled as the verb and the noun they
 * stand for, so that `rmdir` reads as "remove directory".
 */
export const SHELL_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  cp: ["copy"],
  mv: ["move"],
  rm: ["remove"],
  rmdir: ["remove", "directory"],
  mkdir: ["create", "directory"],
  touch: ["create", "file"],
};

/**
 * Whether an output's description says it reports how the call went ("A message describing
 * the result of the upload", "Status of the towing action", "confirmation of the refund"; not
 * "Status of the order", which is the order's)
 * rather than the value an argument of the same name gave: such a field confirms, it does
 * not echo.
 */
export function describesOutcome(description: string | undefined): boolean {
  return (
    typeof description === "string" &&
    /\b(result|outcome) of\b|\bdescrib\w* (the )?(result|outcome)|\bstatus of the (\w+ )?(action|operation|request|call|attempt)\b|\bconfirm(s|ing|ation)?\b/i.test(
      description,
    )
  );
}

/**
 * `error`, `errors`, `error_code`, `error_message`: a field of the failure's shape that an
 * output schema lists beside the success's fields (one schema for both, as Slack's `{ok, error}`
 * and many JSON-RPC-style tools write it). A success does not carry it.
 */
export function namesFailureOnly(name: string): boolean {
  return /^(?:errors?|error_(?:code|message|type|details?)|err|fault)$/.test(nameWords(name).join("_"));
}

/**
 * A boolean answer that says the change happened: named for the outcome (`success`, `ok`) or
 * for the change (`created`, `deleted`, `is_sent`; the participle of the tool's verb or of
 * any change). A change that was made answers it true.
 */
export function namesChangeOutcome(name: string, toolName: string): boolean {
  const words = nameWords(name).filter((w) => !/^(is|was|has|been|status|successfully)$/.test(w));
  const [word] = words;
  if (words.length !== 1 || !word) return false;
  const verb = verbOf(toolName)?.verb;
  return (
    /^(success|succeeded|ok|done)$/.test(word) ||
    (verb !== undefined && word === participle(verb)) ||
    CHANGE_PARTICIPLES.has(word)
  );
}

const CHANGE_PARTICIPLES: ReadonlySet<string> = new Set([
  "created",
  "added",
  "deleted",
  "removed",
  "updated",
  "changed",
  "moved",
  "copied",
  "renamed",
  "sent",
  "saved",
  "written",
  "uploaded",
  "posted",
  "cancelled",
  "canceled",
  "completed",
  "archived",
  "registered",
  "booked",
  "applied",
]);

/** Nouns that end the name of a query without a verb: what it reads of the thing named before. */
export const READ_NOUNS: ReadonlySet<string> = new Set([
  "history",
  "info",
  "information",
  "details",
  "detail",
  "summary",
  "profile",
  "status",
  "stats",
  "statistics",
  "overview",
  "timeline",
  "feed",
  "balance",
]);

/**
 * Words that say how a part keeps things rather than what it keeps (`guest_index`,
 * `voucher_list`, `profile_info`, `job_queue`): dropped when names are compared.
 */
const CONTAINER_WORDS = new Set([
  "map",
  "list",
  "info",
  "information",
  "record",
  "records",
  "history",
  "queue",
  "data",
  "details",
  "table",
  "store",
  "registry",
  "collection",
  "set",
  "index",
  "dict",
  "array",
  "book",
  "log",
]);

const partNouns = new Map<string, string>();

/** A part's name as the noun of what it keeps: singular words, container words dropped (`guest_index` → guest). */
export function partNoun(name: string): string {
  let noun = partNouns.get(name);
  if (noun === undefined) {
    const words = nameWords(name).map(singular);
    noun = words.filter((w, i) => !(CONTAINER_WORDS.has(w) && i > 0)).join("_");
    if (partNouns.size > 50_000) partNouns.clear();
    partNouns.set(name, noun);
  }
  return noun;
}

/** What switching verbs put things into, most likely first (`start` → `running`). */
export const SWITCH_STATES: Readonly<Record<string, readonly string[]>> = {
  start: ["running", "started", "on", "active", "playing"],
  stop: ["stopped", "off", "idle", "inactive"],
  lock: ["locked"],
  unlock: ["unlocked"],
  open: ["open", "opened"],
  close: ["closed", "shut"],
  enable: ["enabled", "on", "active"],
  disable: ["disabled", "off", "inactive"],
  activate: ["active", "activated", "on", "enabled"],
  deactivate: ["inactive", "deactivated", "off", "disabled"],
  arm: ["armed"],
  disarm: ["disarmed"],
  pause: ["paused"],
  resume: ["running", "resumed", "active", "playing"],
  play: ["playing", "running", "started"],
  mute: ["muted"],
  unmute: ["unmuted"],
  engage: ["engaged", "on"],
  release: ["released", "disengaged", "off"],
  connect: ["connected"],
  disconnect: ["disconnected"],
  plug: ["plugged", "connected"],
  unplug: ["unplugged", "disconnected"],
};

export interface Switching {
  /** The verb as the notes name it: `on` for `turn_on`. */
  verb: string;
  /** The word of the name that says it (`turn`), no noun of the thing switched. */
  word: string;
  states: readonly string[];
  /** The states of its opposite, where no other verb is known to be it. */
  against?: readonly string[];
}

/** The switch a tool's name throws, if its verb is one (`turn_on`, `lock`, `mute`). */
export function switchingOf(words: readonly string[], known: string | undefined): Switching | undefined {
  // the vocabulary of the other rules need not know a switching verb (`stop`), first or, as in
  // command names that put it last (`charge_stop`, `door_unlock`), last
  const last = words.at(-1) ?? "";
  const verb = known ?? (words[0] && !SWITCH_STATES[words[0]] && SWITCH_STATES[last] ? last : words[0]);
  // `turn_on`, `switch_off`, `power_on`
  if (verb && ["turn", "switch", "power"].includes(verb)) {
    if (words.includes("on")) return { verb: "on", word: verb, states: ["on"] };
    if (words.includes("off")) return { verb: "off", word: verb, states: ["off"] };
  }
  const states = verb ? SWITCH_STATES[verb] : undefined;
  return verb && states ? { verb, word: verb, states } : undefined;
}

/** Verbs whose states are the opposites of another's: `pause` leaves `playing`, `stop` leaves `running`. */
export const SWITCH_OPPOSITES: Readonly<Record<string, string>> = {
  start: "stop",
  stop: "start",
  lock: "unlock",
  unlock: "lock",
  open: "close",
  close: "open",
  enable: "disable",
  disable: "enable",
  activate: "deactivate",
  deactivate: "activate",
  arm: "disarm",
  disarm: "arm",
  pause: "play",
  play: "pause",
  resume: "pause",
  mute: "unmute",
  unmute: "mute",
  engage: "release",
  release: "engage",
  connect: "disconnect",
  disconnect: "connect",
  plug: "unplug",
  unplug: "plug",
  on: "off",
  off: "on",
};

/** A flag's name read as its state word last, after the thing it is the state of (`engine_running`, `lightsOn`). */
export function flagName(name: string): { state: string; of: string[] } {
  const words = nameWords(name).filter((w) => w !== "is");
  return { state: words.at(-1) ?? "", of: words.slice(0, -1).map(singular) };
}

/**
 * The value a switch gives a boolean named for a state (`on`, `is_locked`): true for its own
 * state, false for its opposite's, undefined for any other flag.
 */
export function switchedFlag(switching: Switching, field: string): boolean | undefined {
  const { state } = flagName(field);
  if (switching.states.includes(state)) return true;
  const opposite = SWITCH_OPPOSITES[switching.verb];
  const against = switching.against ?? (opposite ? (SWITCH_STATES[opposite] ?? [opposite]) : []);
  return against.includes(state) ? false : undefined;
}

/**
 * The one field of an answer made of text (`content`, `text`, `output`): for a change it says
 * what was done in the API's own words, not the text that was written.
 */
export const TEXT_ANSWER = /^(content|text|output)$/i;

/** A description's sentences, split after a full stop, a semicolon or a mark, where the rules read one clause at a time. */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.;!?])\s+/);
}
