import { LOOKUP_VERBS, REMOVE_VERBS, wordsOf } from "../infer/index.js";
import type { RouteLists } from "./config.js";

/**
 * Which upstream tools run for real and which are simulated. First match wins:
 * explicit lists → a name that says it destroys → annotations → a name that only reads →
 * simulate. When unsure, simulate: annotations are declared by the server itself, and a
 * write wrongly passed through changes the real world while a read wrongly simulated only
 * costs realism.
 */

export type Route = "pass" | "simulate";
export type RouteMode = "hybrid" | "all-simulated" | "all-real";

export interface RouteDecision {
  route: Route;
  /** Which rule decided. */
  rule: "mode" | "config" | "annotations" | "name" | "default";
  reason: string;
}

export interface RoutedTool {
  /** The name the upstream knows the tool by. */
  original: string;
  /** The name toolsim exposes (prefixed unless bare). */
  exposed: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  /** The names of its input parameters. */
  parameters?: readonly string[];
}

/** Verbs that begin the name of a tool that only looks things up. */
const READ_VERBS = new Set(LOOKUP_VERBS);

/** Verbs that say a tool destroys something: never run for real on the server's word alone. */
const DESTRUCTIVE_WORDS = new Set([
  ...REMOVE_VERBS,
  "wipe",
  "truncate",
  "rmdir",
  "kill",
  "terminate",
  "shutdown",
  "reset",
  "clear",
  "overwrite",
  "uninstall",
  "discard",
  "flush",
  "cancel",
]);

/** Words that, anywhere in a name, mean the tool may change something (`get_or_create_user`, `find_and_claim_task`). */
const CHANGE_WORDS = new Set([
  ...DESTRUCTIVE_WORDS,
  "create",
  "add",
  "insert",
  "write",
  "update",
  "upsert",
  "set",
  "edit",
  "modify",
  "patch",
  "put",
  "post",
  "send",
  "move",
  "rename",
  "copy",
  "replace",
  "upload",
  "run",
  "exec",
  "execute",
  "invoke",
  "apply",
  "commit",
  "push",
  "pull",
  "merge",
  "publish",
  "submit",
  "approve",
  "reject",
  "accept",
  "confirm",
  "close",
  "archive",
  "save",
  "store",
  "register",
  "grant",
  "invite",
  "assign",
  "book",
  "reserve",
  "pay",
  "transfer",
  "stop",
  "start",
  "restart",
  "deploy",
  "install",
  "increment",
  "decrement",
  "incr",
  "decr",
  "bump",
  "claim",
  "lock",
  "unlock",
  "acquire",
  "mark",
  "ack",
  "acknowledge",
  "consume",
  "dequeue",
  "enqueue",
  "pop",
  "take",
  "advance",
  "toggle",
  "touch",
  "notify",
  "reply",
  "vote",
  "like",
  "subscribe",
  "unsubscribe",
  "follow",
  "unfollow",
]);

/** Words that alone say nothing of what a tool does (`query`, `run`, `execute`). */
const VAGUE_WORDS = new Set([
  "query",
  "run",
  "execute",
  "exec",
  "call",
  "invoke",
  "eval",
  "evaluate",
  "do",
  "perform",
  "process",
  "handle",
  "request",
  "sql",
  "command",
  "cmd",
  "shell",
  "script",
  "action",
  "operation",
  "tool",
  "api",
  "rpc",
]);

/** `next` advances a cursor (`fetch_next_job`), except before these (`get_next_page`). */
const PAGING_WORDS = new Set(["page", "pages", "cursor", "results", "batch", "chunk", "token"]);

/** Parameters that carry something to run (`sql`, `command`): the tool does whatever they say. */
const COMMAND_PARAMETERS = new Set([
  "sql",
  "statement",
  "statements",
  "command",
  "cmd",
  "script",
  "code",
  "shell",
]);

/** Words that join a second action to a name's first (`get_and_increment_counter`). */
const CONNECTORS = new Set(["and", "then"]);

export type NameVerdict = { reads: true; verb: string } | { reads: false; why: string };

/**
 * Whether a tool's name (and what it takes) says it only reads: it starts with a read verb,
 * says something besides a vague verb, names no change, does nothing else after an `and`,
 * does not advance a cursor, and takes nothing to run.
 */
export function nameOnlyReads(name: string, parameters: readonly string[] = []): NameVerdict {
  const words = wordsOf(name);
  const verb = words[0];
  if (words.every((w) => VAGUE_WORDS.has(w)))
    return { reads: false, why: "the name says nothing of what it does" };
  const changing = words.find((w) => CHANGE_WORDS.has(w));
  if (changing) return { reads: false, why: `the name has "${changing}"` };
  if (!verb || !READ_VERBS.has(verb)) return { reads: false, why: "no rule says it only reads" };
  const next = words.findIndex((w, i) => w === "next" && !PAGING_WORDS.has(words[i + 1] ?? ""));
  if (next >= 0) return { reads: false, why: 'the name has "next": it may advance a queue or cursor' };
  const joined = words.findIndex((w, i) => CONNECTORS.has(w) && i > 0 && !READ_VERBS.has(words[i + 1] ?? ""));
  if (joined >= 0)
    return { reads: false, why: `the name does more than read ("${words.slice(joined).join("_")}")` };
  const command = parameters.find((p) => COMMAND_PARAMETERS.has(wordsOf(p).at(-1) ?? ""));
  if (command) return { reads: false, why: `it runs what its "${command}" argument says` };
  return { reads: true, verb };
}

/**
 * The destructive verb of a name, where a name puts its verb: first (`delete_user`), last
 * (`users_delete`), or after a connector (`fetch_and_delete_message`). A destructive word
 * in the middle is a noun's qualifier (`get_cancel_reasons`).
 */
export function destructiveVerb(name: string): string | undefined {
  const words = wordsOf(name);
  const joined = words.filter((_, i) => CONNECTORS.has(words[i - 1] ?? "") || words[i - 1] === "or");
  const verbs = [words[0], words.at(-1), ...joined];
  return verbs.find((w): w is string => w !== undefined && DESTRUCTIVE_WORDS.has(w));
}

export function decideRoute(tool: RoutedTool, lists: RouteLists, mode: RouteMode): RouteDecision {
  if (mode === "all-simulated") return { route: "simulate", rule: "mode", reason: "--all-simulated" };
  if (mode === "all-real") return { route: "pass", rule: "mode", reason: "--all-real" };
  const simulated = lists.simulate.find((glob) => matchesTool(glob, tool));
  if (simulated)
    return { route: "simulate", rule: "config", reason: `routes.simulate matches "${simulated}"` };
  const passed = lists.pass.find((glob) => matchesTool(glob, tool));
  if (passed) return { route: "pass", rule: "config", reason: `routes.pass matches "${passed}"` };
  const destroys = destructiveVerb(tool.original);
  if (destroys) {
    return {
      route: "simulate",
      rule: "name",
      reason: `the name says it destroys ("${destroys}"), whatever the annotations say; routes.pass can make it real`,
    };
  }
  const hints = tool.annotations;
  if (hints?.readOnlyHint === false) {
    return { route: "simulate", rule: "annotations", reason: "annotations say readOnlyHint: false" };
  }
  if (hints?.destructiveHint === true) {
    const reason =
      hints.readOnlyHint === true
        ? "annotations contradict themselves (readOnlyHint: true, destructiveHint: true)"
        : "annotations say destructiveHint: true";
    return { route: "simulate", rule: "annotations", reason };
  }
  if (hints?.readOnlyHint === true) {
    return { route: "pass", rule: "annotations", reason: "annotations say readOnlyHint: true" };
  }
  const verdict = nameOnlyReads(tool.original, tool.parameters);
  if (verdict.reads) {
    return { route: "pass", rule: "name", reason: `the name starts with the read verb "${verdict.verb}"` };
  }
  return { route: "simulate", rule: "default", reason: `${verdict.why}: simulated to be safe` };
}

/** A glob (`*` any run, `?` one character) against the tool's upstream name or its exposed name. */
export function matchesTool(glob: string, tool: RoutedTool): boolean {
  const pattern = globPattern(glob);
  return pattern.test(tool.original) || pattern.test(tool.exposed);
}

const compiled = new Map<string, RegExp>();

function globPattern(glob: string): RegExp {
  let pattern = compiled.get(glob);
  if (!pattern) {
    const body = glob
      .split("")
      .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
      .join("");
    pattern = new RegExp(`^${body}$`);
    compiled.set(glob, pattern);
  }
  return pattern;
}
